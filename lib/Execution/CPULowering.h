//===- CPULowering.h - tensor functions to LLVM for the host ----*- C++ -*-===//
//
// Internal to lib/Execution: the CPU lowering JitModule::compile runs.
//
//===----------------------------------------------------------------------===//

#ifndef PP_LIB_EXECUTION_CPULOWERING_H
#define PP_LIB_EXECUTION_CPULOWERING_H

#include "pp/Execution/Jit.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringRef.h"

namespace mlir::pp::exec::detail {

/// Entry wrappers are `__pp_exec_<name>`, called through
/// `_mlir_ciface___pp_exec_<name>`.
constexpr llvm::StringLiteral kWrapperPrefix = "__pp_exec_";

/// Printer flags that print everything in full, whatever the printer's
/// command-line defaults (no elided constants, no locations, custom
/// forms): two ops print the same only if they are the same. The JIT
/// cache's key and the sharing of outlined loop nests compare such text.
OpPrintingFlags exactPrintingFlags();

/// Whether any op of `module` is in dialect `ns`.
bool containsDialect(ModuleOp module, llvm::StringRef ns);

/// Lowers `m` (prepared by prepareForExecution) to the LLVM dialect for the
/// host: tiling and vectorization (options.vectorize), the locality
/// interchange (options.interchange), a wrapper per entry, one-shot
/// bufferization, out-parameters and deallocation, loops, LLVM. Errors are
/// reported at the first entry (or the op that did not lower).
LogicalResult lowerForCPU(ModuleOp m, llvm::ArrayRef<std::string> entries,
                          const JitOptions &options);

} // namespace mlir::pp::exec::detail

#endif // PP_LIB_EXECUTION_CPULOWERING_H
