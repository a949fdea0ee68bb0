//===- StagePlanner.h - stages balanced by measured F, B, W -*- C++ -*-===//
//
// Measured planning (pp-run --plan-costs=measured, docs/Runtime.md):
//
//   1. the prepared model's partition units are the ops pp-partition places
//      in stages (partitionWorkOps(), pp/Model/Partition.h), one unit each;
//   2. measureUnitCosts() cuts a copy of the model into one stage per unit
//      (pp-partition, pp-differentiate-stages) and times every unit's F, B
//      and W on the real shapes with the JIT (exec::measureStages, the code
//      of pp-exec --measure-stages), with their parameter, stash and
//      boundary bytes; the result is cached per model hash and machine
//      (readCostCache(), writeCostCache());
//   3. planStages() cuts the units into S contiguous stages: the smallest
//      busiest stage (F + B + W), then the largest least-busy stage, then the
//      fewest bytes across boundaries, with every rank's parameters and
//      stashes under a memory budget (linearPartition(),
//      pp/Support/LinearPartition.h); it says when S exceeds what the units
//      can balance and suggests the largest sensible S.
//
// The same planStages() runs over FLOP estimates (--plan-costs=flops) to
// check that plan for near-empty stages.
//
// Units: microseconds for unit and stage times (as pp.stage costs), bytes for
// memory.
//
//===----------------------------------------------------------------------===//

#ifndef PP_DRIVER_STAGEPLANNER_H
#define PP_DRIVER_STAGEPLANNER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir::pp::driver {

/// What one partition unit (one op of the prepared model) costs on one
/// micro-batch.
struct UnitCost {
  /// Median times of its F, B and W functions, microseconds (a fused
  /// backward counts as B, W = 0). W includes adding its parameter
  /// gradients into the step's sum, as the runtime does after every W
  /// (parameterBytes x pprt::gradientAccumulationSeconds()).
  double forward = 0, backwardInput = 0, backwardWeight = 0;
  /// Bytes of the parameters it reads, of what its F stashes for B (M_B),
  /// and of the values a cut right after it sends to the next stage.
  int64_t parameterBytes = 0, stashBytes = 0, crossingBytes = 0;
  /// F + B + W, microseconds.
  double total() const { return forward + backwardInput + backwardWeight; }
};

/// The measured costs of a model's units, and what they are keyed by.
struct UnitCosts {
  /// A hash of the prepared model (its printed IR and the compiler
  /// version, so a new pp-mlir measures again) and the machine
  /// (host name, CPU, cores, OpenBLAS threads): the cache key.
  std::string modelHash, machine;
  std::vector<UnitCost> units;
  /// The number of stages the units were calibrated for (calibrateUnits()
  /// against a cut into that many stages measured whole); 0: as measured.
  int calibratedStages = 0;
};

/// The cache key of the machine this process runs on, for `blasThreads`
/// OpenBLAS threads per GEMM: "<host>/<cpu>/<cores>c/<threads>t".
std::string machineKey(int blasThreads);

/// A hex hash of `function` (a func.func of `module`) and every function it
/// calls, printed, and of the compiler's version string (versionString()):
/// the same model prepared the same way by the same pp-mlir has the same
/// hash.
std::string modelHash(ModuleOp module, StringRef function);

/// Measures every unit of @`function` in `module` (prepared; not changed):
/// F, B and W of each, median of `repetitions` timed runs after a warm-up,
/// on seeded random inputs of the real shapes, compiled with the JIT as the
/// rank programs are (OpenBLAS GEMMs). Errors: a model with no units, a
/// function that cannot be compiled or run.
llvm::Expected<UnitCosts> measureUnitCosts(ModuleOp module, StringRef function,
                                           unsigned repetitions);

/// Measures the stages that cutting @`function` after its work ops `cuts`
/// (increasing) makes, as measureUnitCosts() measures units: one UnitCost
/// per stage, microseconds. A stage of many units can take more or less
/// than the sum of its units' times (shared temporaries, cache reuse, one
/// full-size gradient for a weight read in slices).
llvm::Expected<std::vector<UnitCost>> measureStageCosts(ModuleOp module,
                                                        StringRef function,
                                                        ArrayRef<int64_t> cuts,
                                                        unsigned repetitions);

/// Scales the units of each stage (the cut after units `cuts`) so that
/// their F, B and W sums equal the stage's measured F, B and W in `stages`
/// (one factor per stage and kind; a kind the units predict as 0 stays).
/// Planning again with the calibrated units corrects what measuring units
/// alone misses, stage by stage.
void calibrateUnits(std::vector<UnitCost> &units, ArrayRef<int64_t> cuts,
                    ArrayRef<UnitCost> stages);

/// The entry of `path` for (`modelHash`, `machine`) with `numUnits` units;
/// std::nullopt when the file does not exist or has no such entry. Errors: a
/// malformed file (naming the line).
llvm::Expected<std::optional<UnitCosts>> readCostCache(StringRef path,
                                                       StringRef modelHash,
                                                       StringRef machine,
                                                       size_t numUnits);

/// Appends `costs` to `path` (creating it and its directory; with
/// `replace`, `costs` replaces whatever `path` held). The file is written
/// whole to a fresh file that then replaces `path`, so concurrent runs
/// never leave a half-written entry.
llvm::Error writeCostCache(StringRef path, const UnitCosts &costs,
                           bool replace = false);

/// The default cache file: $XDG_CACHE_HOME/pp-mlir/plan-costs.txt, else
/// $HOME/.cache/pp-mlir/plan-costs.txt; empty when neither is set.
std::string defaultCostCachePath();

/// What planStages() needs besides the unit costs.
struct PlanRequest {
  /// Stages S (P * V) and micro-batches per step M.
  int numStages = 1;
  int numMicrobatches = 1;
  /// Stages on the rank of stage s: the budget counts stage s's
  /// parameters plus its stash times the micro-batches in flight, which is
  /// M when `stashAll` (GPipe, looped BFS), else min(M, S - s) (1F1B and the
  /// schedules with its memory).
  bool stashAll = false;
  /// Parameter + stash bytes per stage; 0: no limit.
  int64_t memoryBudget = 0;
  /// A stage below this fraction of the busiest one's time is near-empty.
  double nearEmptyFraction = 0.1;
};

/// A cut of the units into stages.
struct StagePlan {
  /// The index of the last unit of every stage but the last (increasing).
  std::vector<int64_t> cuts;
  /// Each stage's F, B and W times (microseconds, sums over its units), and
  /// its parameter + stash bytes as the budget counts them.
  std::vector<UnitCost> stages;
  std::vector<int64_t> memory;
  /// The busiest stage's time (F + B + W, microseconds), and busiest /
  /// least-busy stage time (infinity if one is 0).
  double busiest = 0, imbalance = 0;
  /// Set when a stage is near-empty (below nearEmptyFraction of the
  /// busiest): the largest S' <= S without one (at least 1).
  std::optional<int> suggestedStages;
};

/// Cuts `units` into request.numStages contiguous stages (see the file
/// comment). Errors: fewer units than stages, or no cut within the memory
/// budget.
llvm::Expected<StagePlan> planStages(ArrayRef<UnitCost> units,
                                     const PlanRequest &request);

} // namespace mlir::pp::driver

#endif // PP_DRIVER_STAGEPLANNER_H
