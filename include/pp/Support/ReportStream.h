//===- ReportStream.h - Where passes write their reports --------*- C++ -*-===//
//
// Reports of analysis passes (pp-simulate, pp-compare-schedules,
// pp-partition) never go to standard output, where the IR goes: like MLIR's
// own -mlir-timing and pass statistics they go to standard error, or to the
// file a pass option names ("-" for standard output, for a user who sends
// the IR to a file or /dev/null and wants the report on stdout).
//
//===----------------------------------------------------------------------===//

#ifndef PP_SUPPORT_REPORTSTREAM_H
#define PP_SUPPORT_REPORTSTREAM_H

#include "mlir/IR/Location.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>

namespace mlir::pp {

/// The stream a report goes to: standard error when `path` is empty,
/// standard output when it is "-", else the file `path` (created or
/// truncated; kept when the ReportStream is destroyed after a successful
/// open). open() fails with "cannot write '<path>': <reason>" at `loc` when
/// the file cannot be written.
class ReportStream {
public:
  LogicalResult open(llvm::StringRef path, Location loc);
  /// The open stream (standard error before open()).
  llvm::raw_ostream &os() { return file ? file->os() : *stream; }

private:
  llvm::raw_ostream *stream = &llvm::errs();
  std::unique_ptr<llvm::ToolOutputFile> file;
};

} // namespace mlir::pp

#endif // PP_SUPPORT_REPORTSTREAM_H
