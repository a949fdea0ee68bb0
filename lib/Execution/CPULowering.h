//===- CPULowering.h - tensor functions to LLVM for the host ----*- C++ -*-===//
//
// Internal to lib/Execution: the CPU lowering JitModule::compile runs.
//
//===----------------------------------------------------------------------===//

#ifndef PP_LIB_EXECUTION_CPULOWERING_H
#define PP_LIB_EXECUTION_CPULOWERING_H

#include "pp/Execution/Jit.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
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

/// Whether `fn` is a rank program of convert-pp-to-runtime (attribute
/// `pp.rank`).
bool isRankProgram(func::FuncOp fn);

/// The LLVM function attribute that marks a rank program (with `optnone`),
/// for HostJit.cpp: its unoptimized object takes the rank programs, rolled
/// into loops or not, and the other straight-line functions.
constexpr const char *kRankProgramAttribute = "pp-rank-program";

/// Compiles the rank programs of `module` without optimization (`optnone`
/// and kRankProgramAttribute, which the JIT compiles in an object of its
/// own at CodeGenOptLevel::None: HostJit.h, emitObjects). A rank program is
/// calls in sequence, whose speed does not matter next to the callees'.
void markRankProgramsUnoptimized(ModuleOp module);

/// Takes the rank programs of `module` and the functions that refer to
/// them, transitively (the entry wrappers), out of it, so that the
/// ownership-based deallocation pipeline does not see them: its
/// simplification compares a block's buffers pairwise, quadratic in a rank
/// program's thousands. Takes none unless each of them is a function at the
/// top of the module that is one block whose buffers all come from its own
/// memref.alloc (or alloca, get_global, views), without regions or
/// deallocations, and passes and returns no buffer; then
/// reattachWithDeallocations frees them.
SmallVector<func::FuncOp> detachRankPrograms(ModuleOp module);

/// Puts `detached` back at the end of `module`, each with a memref.dealloc
/// of every memref.alloc at the end of its block (which
/// moveDeallocsToLastUse then moves after the buffer's last use).
void reattachWithDeallocations(ModuleOp module,
                               ArrayRef<func::FuncOp> detached);

/// The loop along which `op`, a window copy, is vectorized: a
/// linalg.generic on static tensors, every loop parallel, that yields its
/// one input into its one output, whose output map is a projected
/// permutation ending in loop `v` and whose input map ends in `v` or in `v`
/// plus another loop and uses `v` nowhere else (im2col's column matrices:
/// WindowCopies.cpp). None for any other op.
std::optional<unsigned> windowCopyVectorDim(linalg::LinalgOp op);

/// Replaces `tiled`, a window copy whose operands have extent 1 in every
/// dimension but their last, by a vector.transfer_read of its input and a
/// vector.transfer_write into its output; fails, changing nothing, for
/// anything else.
LogicalResult vectorizeWindowCopyTile(RewriterBase &rewriter, Operation *tiled);

} // namespace mlir::pp::exec::detail

#endif // PP_LIB_EXECUTION_CPULOWERING_H
