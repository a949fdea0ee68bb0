//===- Measure.h - measure the stage functions of a pipeline ----*- C++ -*-===//
//
// pp-exec --measure-stages: runs the functions of every stage of a
// pp.pipeline on seeded random inputs, takes the median wall time of each and
// writes it into the stage's costs. See docs/Execution.md.
//
//===----------------------------------------------------------------------===//

#ifndef PP_EXECUTION_MEASURE_H
#define PP_EXECUTION_MEASURE_H

#include "pp/Execution/Jit.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace mlir::pp::exec {

struct MeasureOptions {
  /// The pp.pipeline to measure; empty means the only one in the module.
  std::string pipeline;
  /// Timed runs of each function, after one untimed warm-up run (> 0).
  unsigned repetitions = 5;
  /// Seed of the pseudo-random inputs, as for --entry.
  uint64_t seed = 0;
  /// How the functions are compiled.
  JitOptions jit;
};

/// Measures the stage functions of a pipeline of `module` and sets the
/// stages' costs (forward_time, backward_input_time, backward_weight_time) to
/// the medians in microseconds; a fused backward's time is the stage's
/// backward_input time, with backward_weight 0. A function without results
/// is not run and takes 0. Prints a per-stage table to `table`. All functions
/// are compiled together, once. Errors are reported to the context's
/// diagnostic handler (at the pipeline or stage when there is one) or
/// returned in `error`.
mlir::LogicalResult measureStages(mlir::ModuleOp module,
                                  const MeasureOptions &options,
                                  llvm::raw_ostream &table, std::string &error);

} // namespace mlir::pp::exec

#endif // PP_EXECUTION_MEASURE_H
