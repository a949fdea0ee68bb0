//===- Pipelines.cpp - named pp pass pipelines -----------------------------===//

#include "pp/Dialect/PP/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"

#include "mlir/Conversion/TosaToArith/TosaToArith.h"
#include "mlir/Conversion/TosaToLinalg/TosaToLinalg.h"
#include "mlir/Conversion/TosaToTensor/TosaToTensor.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::pp;

namespace {
struct PlanOptions : public PassPipelineOptions<PlanOptions> {
  Option<std::string> schedule{*this, "schedule",
                               llvm::cl::desc("Schedule to build")};
  Option<int64_t> numMicrobatches{
      *this, "num-microbatches",
      llvm::cl::desc("Micro-batches per training step (M >= 1)"),
      llvm::cl::init(0)};
  Option<int64_t> groupSize{
      *this, "group-size",
      llvm::cl::desc("interleaved-1f1b: micro-batches per group (0: P)"),
      llvm::cl::init(0)};
  Option<std::string> memoryLimit{
      *this, "memory-limit",
      llvm::cl::desc("auto: activation memory per rank, bytes or kM_B")};
};
} // namespace

/// pp-prepare-model: brings a model (TOSA, or linalg with private helper
/// functions and named ops) to the form pp-autodiff differentiates: TOSA
/// lowered to linalg/arith/tensor, private helpers inlined, elementwise
/// arith/math on tensors as linalg.generic, named linalg ops (matmul,
/// transpose, broadcast, map, reduce, fill, ...) as linalg.generic,
/// linalg.softmax decomposed, then canonicalized.
static void buildPrepareModelPipeline(OpPassManager &pm) {
  OpPassManager &tosa = pm.nest<func::FuncOp>();
  tosa.addPass(tosa::createTosaToLinalgNamed());
  tosa.addPass(tosa::createTosaToLinalg());
  tosa.addPass(createTosaToArithPass());
  tosa.addPass(createTosaToTensorPass());
  pm.addPass(createInlinerPass());
  OpPassManager &linalg = pm.nest<func::FuncOp>();
  linalg.addPass(createConvertElementwiseToLinalgPass());
  linalg.addPass(createPPNormalizeLinalgPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

static void registerPrepareModelPipeline() {
  PassPipelineRegistration<>(
      "pp-prepare-model",
      "Bring a model to the form pp-autodiff differentiates (TOSA to linalg, "
      "inline private helpers, elementwise ops and named linalg ops to "
      "linalg.generic, decompose softmax, canonicalize, cse)",
      buildPrepareModelPipeline);
}

void mlir::pp::registerPPPipelines() {
  registerPrepareModelPipeline();
  registerLowerStagesToGPUPipeline();
  PassPipelineRegistration<PlanOptions>(
      "pp-plan",
      "Schedule every pipeline, insert send/recv and verify the result "
      "(pp-schedule, pp-insert-communication, pp-verify-schedule)",
      [](OpPassManager &pm, const PlanOptions &options) {
        PPSchedulePassOptions scheduleOptions;
        scheduleOptions.scheduleName = options.schedule;
        scheduleOptions.numMicrobatches = options.numMicrobatches;
        scheduleOptions.groupSize = options.groupSize;
        scheduleOptions.memoryLimitText = options.memoryLimit;
        pm.addPass(createPPSchedulePass(scheduleOptions));
        pm.addPass(createPPInsertCommunicationPass());
        pm.addPass(createPPVerifySchedulePass());
      });
}
