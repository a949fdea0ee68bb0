//===- PassManagerOptions.h - the command line's pass options ---*- C++ -*-===//
//
// The pass managers the libraries create inside (the driver's phases, the
// JIT's lowering) take MLIR's pass manager options from the command line
// where the tool registered them, as mlir-opt's do: `pp-run --mlir-timing`
// prints the time of every pass of every phase.
//
//===----------------------------------------------------------------------===//

#ifndef PP_SUPPORT_PASSMANAGEROPTIONS_H
#define PP_SUPPORT_PASSMANAGEROPTIONS_H

#include "mlir/Support/LLVM.h"
#include "llvm/Support/LogicalResult.h"

namespace mlir {
class MLIRContext;
class PassManager;
namespace pp {

/// Applies MLIR's pass manager command-line options (--mlir-timing,
/// --mlir-print-ir-after-all, ...) to `pm` if the tool registered them
/// (mlir::registerPassManagerCLOptions() and
/// registerDefaultTimingManagerCLOptions(), as pp-run does); nothing
/// otherwise. With --mlir-timing, `pm` prints its report to stderr when it
/// is destroyed. Options that cannot apply (a local crash reproducer with
/// threads) are left out here: a tool checks them once with
/// checkPassManagerOptions().
void applyPassManagerOptions(PassManager &pm);

/// Whether the command line's pass manager options can apply to `context`'s
/// pass managers; emits MLIR's error otherwise.
LogicalResult checkPassManagerOptions(MLIRContext *context);

} // namespace pp
} // namespace mlir

#endif // PP_SUPPORT_PASSMANAGEROPTIONS_H
