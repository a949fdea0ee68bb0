//===- Pipelines.cpp - the pass pipelines of steps 1-5 -------------------===//
//
// The pipelines compileModel() runs (Driver.h: buildPreparePipeline, ...)
// and their pieces (Pipelines.h).
//
//===----------------------------------------------------------------------===//

#include "Pipelines.h"

#include "pp/Conversion/Passes.h"
#include "pp/Dialect/PP/Transforms/Passes.h"
#include "pp/Model/Passes.h"

#include "mlir/Pass/PassManager.h"

using namespace mlir;
using namespace mlir::pp;
using namespace mlir::pp::driver;

void mlir::pp::driver::buildPreparePipeline(OpPassManager &pm,
                                            const CompileOptions &options) {
  pm.addPass(createPPStripInstrumentationPass());
  PPLiftParametersPassOptions lift;
  lift.functionName = options.function;
  lift.minElements = options.minElements;
  lift.parameterIndices = SmallVector<int64_t>(options.parameters.begin(),
                                               options.parameters.end());
  pm.addPass(createPPLiftParametersPass(lift));
  if (options.loss != LossKind::None) {
    PPAppendLossPassOptions loss;
    loss.functionName = options.function;
    loss.kind = lossKindName(options.loss).str();
    pm.addPass(createPPAppendLossPass(loss));
  }
  buildPrepareModelPipeline(pm);
}

/// pp-partition: at options.cuts, else into P*V stages (byMarkers: as many
/// as the pp.split_point markers make).
void mlir::pp::driver::buildCutPipeline(OpPassManager &pm,
                                        const CompileOptions &options,
                                        bool byMarkers) {
  PPPartitionPassOptions partition;
  partition.functionName = lossFunctionName(options);
  partition.numStages =
      byMarkers ? 0 : options.numRanks * options.stagesPerRank;
  partition.cutList =
      SmallVector<int64_t>(options.cuts.begin(), options.cuts.end());
  partition.printReport = false;
  pm.addPass(createPPPartitionPass(partition));
}

/// pp-place-stages for V > 1 or the V-shaped schedules.
void mlir::pp::driver::addPlacement(OpPassManager &pm,
                                    const CompileOptions &options) {
  bool vShape = sched::isVShapedSchedule(options.schedule);
  if (options.stagesPerRank > 1 || vShape) {
    PPPlaceStagesPassOptions place;
    place.placement = vShape ? "v" : "loop";
    place.numRanks = options.numRanks;
    pm.addPass(createPPPlaceStagesPass(place));
  }
}

void mlir::pp::driver::buildPartitionPipeline(OpPassManager &pm,
                                              const CompileOptions &options,
                                              bool byMarkers) {
  buildCutPipeline(pm, options, byMarkers);
  addPlacement(pm, options);
}

PlanPipelineOptions
mlir::pp::driver::planOptions(const CompileOptions &options) {
  PlanPipelineOptions plan;
  plan.schedule = options.schedule;
  plan.numMicrobatches = options.numMicrobatches;
  plan.groupSize = options.groupSize;
  plan.memoryLimit = options.memoryLimit;
  plan.autoObjective = sched::autoObjectiveName(options.autoObjective).str();
  plan.solverTimeLimit = options.solverTimeLimit;
  // Processes that plan apart (CompileOptions::sharePlan) must choose the
  // same schedule: the exact solver stops at a time limit, so what it
  // returns can differ from process to process; auto's other searches are
  // deterministic.
  if (options.sharePlan)
    plan.solverTimeLimit = 0;
  plan.stashAccounting =
      sched::stashAccountingName(options.stashAccounting).str();
  return plan;
}

/// pp-differentiate-stages with recomputation `recompute` (one choice, or
/// one per stage).
std::unique_ptr<Pass>
mlir::pp::driver::differentiateStages(StringRef recompute) {
  PPDifferentiateStagesPassOptions differentiate;
  differentiate.recompute = recompute.str();
  return createPPDifferentiateStagesPass(differentiate);
}

/// "ops 0..4 | 5..9 | 10.." for the cuts {4, 9}: the work ops of every
/// stage (the last stage's end is the model's last op).
std::string mlir::pp::driver::describeStages(ArrayRef<int64_t> cuts) {
  std::string text = "ops 0..";
  for (int64_t cut : cuts)
    text += std::to_string(cut) + " | " + std::to_string(cut + 1) + "..";
  return text + "end";
}

void mlir::pp::driver::buildStagesPipeline(OpPassManager &pm,
                                           const CompileOptions &options) {
  // auto is compileModel's search: a pipeline of passes cannot run it.
  StringRef recompute = options.recompute;
  pm.addPass(differentiateStages(recompute == "auto" || recompute.empty()
                                     ? StringRef("none")
                                     : recompute));
  buildPlanPipeline(pm, planOptions(options));
}

void mlir::pp::driver::buildLowerPipeline(OpPassManager &pm,
                                          const CompileOptions &options,
                                          ArrayRef<unsigned> parameterArgs) {
  if (options.dataParallel > 1) {
    PPInsertAllReducePassOptions allReduce;
    allReduce.replicas = options.dataParallel;
    allReduce.bucketBytes = options.allReduceBucketBytes;
    allReduce.atEnd = options.allReduceAtEnd;
    pm.addPass(createPPInsertAllReducePass(allReduce));
    // The replicas with their all-reduces: no deadlock with the messages.
    pm.addPass(createPPVerifySchedulePass());
  }
  ConvertPPToRuntimePassOptions convert;
  convert.stashAccounting =
      sched::stashAccountingName(options.stashAccounting).str();
  pm.addPass(createConvertPPToRuntimePass(convert));
  if (options.reference) {
    PPAutodiffPassOptions autodiff;
    autodiff.functionName = lossFunctionName(options);
    autodiff.wrt =
        SmallVector<int64_t>(parameterArgs.begin(), parameterArgs.end());
    autodiff.cotangents = true;
    pm.addPass(createPPAutodiffPass(autodiff));
  }
}
