//===- Progress.cpp - pp-run's progress lines ----------------------------===//

#include "pp/Driver/Driver.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir::pp::driver;

Progress::Progress(bool enabled, std::string tool)
    : enabled_(enabled), tool(std::move(tool)),
      start(std::chrono::steady_clock::now()) {}

double Progress::seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

void Progress::phase(const llvm::Twine &what) {
  if (!enabled_)
    return;
  // Whole lines of the report first, where both streams end up in one
  // (mpirun, 2>&1).
  llvm::outs().flush();
  llvm::errs() << tool << ": [" << llvm::format("%.1f", seconds()) << " s] "
               << what << "\n";
}
