//===- Runner.h - run, compare or gradient-check functions ------*- C++ -*-===//
//
// What pp-exec does with one module, as a library: JIT-compile a function
// and run it on .npy or seeded random inputs, compare two functions on the
// same inputs, or check a gradient function against finite differences
// (docs/Execution.md). pp-exec is a command line over runFunctions() and
// measureStages() (Measure.h).
//
//===----------------------------------------------------------------------===//

#ifndef PP_EXECUTION_RUNNER_H
#define PP_EXECUTION_RUNNER_H

#include "pp/Execution/GradientChecks.h"
#include "pp/Execution/Jit.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::pp::exec {

/// One pp-exec invocation (except --measure-stages).
struct RunRequest {
  enum class Mode {
    Run,            ///< run `entry`, print (and write) its results
    Compare,        ///< run `entry` and `other` on the same inputs
    CheckGradients, ///< `other` is the gradient of the scalar loss `entry`
  };
  Mode mode = Mode::Run;
  /// The module's file, for messages.
  std::string sourceName = "-";
  /// The function F, and G for Compare / CheckGradients.
  std::string entry, other;
  /// One .npy file per argument of F; an empty entry (or no list) means
  /// seeded random values for that argument.
  std::vector<std::string> inputFiles;
  uint64_t seed = 0;
  /// Write every result as DIR/<function>.result<i>.npy, the inputs as
  /// DIR/<function>.arg<i>.npy (empty: do not).
  std::string outputsDir, saveInputsDir;
  /// Leading values of each result to print (Run).
  unsigned printValues = 8;
  /// Compare: largest accepted relative difference (unset: bitwise).
  std::optional<double> tolerance;
  /// CheckGradients: the method's options, and whether the finite
  /// differences evaluate F recompiled in f64 (else F as written).
  GradientCheckOptions gradient;
  bool wrtGiven = false;
  bool finiteDifferencesInF64 = true;
  /// Run: timed runs of F (the results are those of the last).
  unsigned repetitions = 1;
  /// Print compile and run times (and F's GFLOP/s) to standard error.
  bool timing = false;
  JitOptions jit;
};

/// Carries out `request` on `module` (parsed by the caller, diagnostics to
/// its handler), writing the report to `out`. Returns whether the
/// comparison or check passed (always true for Run). Errors: a function
/// that is missing (the message lists the module's functions) or cannot be
/// run, inputs that do not fit the arguments, a failed compilation. An
/// error with an empty message means the diagnostics were reported to the
/// context's handler already.
llvm::Expected<bool> runFunctions(ModuleOp module, const RunRequest &request,
                                  llvm::raw_ostream &out);

} // namespace mlir::pp::exec

#endif // PP_EXECUTION_RUNNER_H
