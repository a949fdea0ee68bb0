// Plans and trains a model through the driver's public header, as a
// compiler stack that embeds pp-mlir would: compile the model into a 1F1B
// pipeline on 3 ranks, train 3 steps and check the first against the
// unpipelined model.
#include "pp/Driver/Driver.h"
#include "pp/InitAllPasses.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir::pp;

int main(int argc, char **argv) {
  if (argc != 2) {
    llvm::errs() << "usage: pp-embed-driver MODEL.mlir\n";
    return 2;
  }
  // The rank programs call the runtime, loaded with this program.
  llvm::sys::DynamicLibrary::LoadLibraryPermanently(nullptr);
  driver::CompileOptions compile;
  compile.function = "mlp";
  compile.numRanks = 3;
  compile.numMicrobatches = 4;
  compile.schedule = "1f1b";
  compile.reference = true;
  driver::SessionOptions sessionOptions;
  sessionOptions.numRanks = compile.numRanks;
  sessionOptions.numMicrobatches = compile.numMicrobatches;
  auto session = driver::Session::create(sessionOptions);
  if (!session) {
    llvm::errs() << llvm::toString(session.takeError()) << "\n";
    return 1;
  }

  mlir::DialectRegistry registry;
  driver::registerDriverDialects(registry);
  mlir::MLIRContext context(registry);
  context.loadAllAvailableDialects();
  registerAllPPPasses();
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(argv[1], &context);
  if (!module)
    return 1;
  driver::Progress progress(/*enabled=*/false);
  auto model = driver::compileModel(*module, compile, progress);
  if (!model) {
    llvm::errs() << llvm::toString(model.takeError()) << "\n";
    return 1;
  }
  llvm::outs() << "planned @" << model->scheduleName << ": "
               << model->rankFunctions.size() << " rank programs, "
               << model->pipeline.numStages() << " stages\n";
  driver::TrainOptions train;
  train.steps = 3;
  train.check = true;
  auto summary =
      driver::train(*module, *model, **session, train, progress, llvm::outs());
  if (!summary) {
    llvm::errs() << llvm::toString(summary.takeError()) << "\n";
    return 1;
  }
  return summary->checkPassed ? 0 : 1;
}
