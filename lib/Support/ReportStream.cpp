//===- ReportStream.cpp - Where passes write their reports -----------------===//

#include "pp/Support/ReportStream.h"

#include "llvm/Support/FileSystem.h"

using namespace mlir::pp;

bool ReportStream::open(llvm::StringRef path, std::string &error) {
  file.reset();
  if (path.empty()) {
    stream = &llvm::errs();
    return true;
  }
  if (path == "-") {
    stream = &llvm::outs();
    return true;
  }
  std::error_code ec;
  auto out = std::make_unique<llvm::ToolOutputFile>(path, ec,
                                                    llvm::sys::fs::OF_Text);
  if (ec) {
    error = ec.message();
    return false;
  }
  out->keep();
  file = std::move(out);
  return true;
}
