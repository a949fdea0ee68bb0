//===- GradientChecks.h -----------------------------------------*- C++ -*-===//
//
// Comparing functions, checking gradients.
//
// `pp-exec --compare=G` and `pp-exec --check-gradients`; the method and the
// defaults are documented in docs/Execution.md.
//
//===----------------------------------------------------------------------===//

#ifndef PP_EXECUTION_GRADIENTCHECKS_H
#define PP_EXECUTION_GRADIENTCHECKS_H

#include "pp/Execution/Jit.h"

#include "llvm/Support/raw_ostream.h"

#include <optional>

namespace mlir::pp::exec {

/// Checks that `g` can be compared with `f`: the same argument types and the
/// same result types. Emits an error at `gOp` otherwise.
mlir::LogicalResult verifyComparable(mlir::func::FuncOp gOp,
                                     const FunctionSignature &f,
                                     const FunctionSignature &g);

/// Runs `f` and `g` on `args` and reports, per result, whether they are
/// bitwise equal, the number of differing elements, the max absolute and max
/// relative difference. Returns whether they agree: bitwise equal when
/// `tolerance` is unset, else max relative difference <= tolerance.
llvm::Expected<bool>
compareFunctions(JitModule &jit, const FunctionSignature &f,
                 const FunctionSignature &g, llvm::ArrayRef<HostTensor> args,
                 std::optional<double> tolerance, llvm::raw_ostream &os,
                 std::vector<HostTensor> *fResults,
                 std::vector<HostTensor> *gResults);

struct GradientCheckOptions {
  /// Arguments G returns gradients for, in order; empty = every float
  /// argument.
  std::vector<unsigned> wrt;
  unsigned directions = 3;
  unsigned coordinates = 8;
  std::optional<double> epsilon;
  std::optional<double> tolerance;
  uint64_t seed = 0;
  bool verbose = false;
};

/// Checks the signatures for `--check-gradients`: `f` returns one scalar
/// float loss (tensor<f32>, tensor<1xf32>, or f64); `g` takes the same
/// arguments and returns (loss, one gradient per argument in `wrt`, typed
/// like that argument). Fills in the default `wrt` (every float argument).
/// Emits errors at the functions.
mlir::LogicalResult
verifyGradientSignatures(mlir::func::FuncOp fOp, mlir::func::FuncOp gOp,
                         const FunctionSignature &f, const FunctionSignature &g,
                         std::vector<unsigned> &wrt, bool wrtGiven);

/// Compares the gradients `g` returns with central finite differences of
/// `f`: of `reference`'s @f (the same function compiled in f64, see
/// promoteF32ToF64) when given, else of `jit`'s; `referenceNote` says why
/// there is none. Returns whether the max relative error is within the
/// tolerance.
llvm::Expected<bool>
checkGradients(JitModule &jit, JitModule *reference,
               llvm::StringRef referenceNote, const FunctionSignature &f,
               const FunctionSignature &g, std::vector<HostTensor> &args,
               const GradientCheckOptions &options, llvm::raw_ostream &os,
               std::vector<HostTensor> *fResults,
               std::vector<HostTensor> *gResults);

} // namespace mlir::pp::exec

#endif // PP_EXECUTION_GRADIENTCHECKS_H
