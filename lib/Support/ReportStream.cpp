//===- ReportStream.cpp - Where passes write their reports ----------------===//

#include "pp/Support/ReportStream.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/FileSystem.h"

using namespace mlir::pp;

mlir::LogicalResult ReportStream::open(llvm::StringRef path,
                                       mlir::Location loc) {
  file.reset();
  if (path.empty()) {
    stream = &llvm::errs();
    return mlir::success();
  }
  if (path == "-") {
    stream = &llvm::outs();
    return mlir::success();
  }
  std::error_code ec;
  auto out =
      std::make_unique<llvm::ToolOutputFile>(path, ec, llvm::sys::fs::OF_Text);
  if (ec)
    return mlir::emitError(loc)
           << "cannot write '" << path << "': " << ec.message();
  out->keep();
  file = std::move(out);
  return mlir::success();
}
