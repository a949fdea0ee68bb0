// Parses a pipeline, schedules it with 1F1B through the pp passes and prints
// the schedule: what a compiler that embeds pp-mlir does.
#include "pp/Dialect/PP/IR/PPDialect.h"
#include "pp/Dialect/PP/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

int main() {
  mlir::MLIRContext context;
  context.loadDialect<mlir::pp::PPDialect>();
  const char *source = R"mlir(
    pp.pipeline @p ranks(2) activation_bytes(8) {
      pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1) memory(stash = 4)
      pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1) memory(stash = 4)
    })mlir";
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(source, &context);
  if (!module)
    return 1;
  mlir::PassManager pm(&context);
  mlir::pp::PPSchedulePassOptions options;
  options.scheduleName = "1f1b";
  options.numMicrobatches = 2;
  pm.addPass(mlir::pp::createPPSchedulePass(options));
  pm.addPass(mlir::pp::createPPInsertCommunicationPass());
  pm.addPass(mlir::pp::createPPVerifySchedulePass());
  if (mlir::failed(pm.run(*module)))
    return 2;
  module->print(llvm::outs());
  return 0;
}
