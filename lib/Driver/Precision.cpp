//===- Precision.cpp - compile a model at bf16 (CompileOptions::precision) ===//
//
// --precision=bf16: pp-round-to-bf16 on every function of the lowered
// module, after an f32 copy of the reference (and of every function it
// calls) is set aside for --check's loss difference to f32
// (docs/Training.md, "bf16").
//
//===----------------------------------------------------------------------===//

#include "Precision.h"
#include "pp/Support/Error.h"
#include "pp/Support/PassManagerOptions.h"

#include "pp/Model/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::pp;
using namespace mlir::pp::driver;

/// Copies `root` and every function it calls (transitively) as
/// @<name><suffix>, the copies calling each other; returns the copies'
/// names.
static std::vector<std::string>
cloneCallTree(ModuleOp module, func::FuncOp root, StringRef suffix) {
  SymbolTable symbols(module);
  llvm::SetVector<func::FuncOp> tree;
  tree.insert(root);
  for (size_t i = 0; i < tree.size(); ++i) {
    func::FuncOp fn = tree[i];
    fn.walk([&](func::CallOp call) {
      if (auto callee = symbols.lookup<func::FuncOp>(call.getCallee()))
        tree.insert(callee);
    });
  }
  std::vector<std::string> names;
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  for (func::FuncOp fn : tree) {
    auto copy = cast<func::FuncOp>(b.clone(*fn));
    copy.setSymName((fn.getSymName() + suffix).str());
    copy.walk([&](func::CallOp call) {
      call.setCallee((call.getCallee() + suffix).str());
    });
    names.push_back(copy.getSymName().str());
  }
  return names;
}

llvm::Error mlir::pp::driver::applyPrecision(ModuleOp module,
                                             const CompileOptions &options,
                                             CompiledModel &model) {
  if (options.precision == Precision::F32)
    return llvm::Error::success();
  PPRoundToBF16PassOptions round;
  if (!model.referenceName.empty()) {
    auto reference = module.lookupSymbol<func::FuncOp>(model.referenceName);
    if (!reference)
      return makeError("the reference @" + model.referenceName + " is missing");
    std::vector<std::string> kept = cloneCallTree(module, reference, "_f32");
    model.f32ReferenceName = kept.front();
    round.exclude.assign(kept.begin(), kept.end());
  }
  PassManager pm(module.getContext());
  pp::applyPassManagerOptions(pm);
  pm.addPass(createPPRoundToBF16Pass(round));
  if (failed(pm.run(module)))
    return makeError("--precision=bf16: the model has an op that cannot run in "
                     "bf16 (the error above)");
  // No GEMM library here takes bf16 (bench/README.md, "bf16 GEMM").
  model.planNotes.push_back(
      "precision: bf16 inputs, f32 accumulation; no bf16 GEMM library is "
      "used (OpenBLAS 0.3.21 has no sbgemm, oneDNN's needs AVX-512), so the "
      "GEMMs run in f32 on the bf16-rounded values: bf16's numbers at f32's "
      "speed");
  return llvm::Error::success();
}
