//===- GradientBytes.cpp - the bytes each stage's all-reduce carries ------===//
//
// See pp/Dialect/PP/Transforms/GradientBytes.h.
//
//===----------------------------------------------------------------------===//

#include "pp/Dialect/PP/Transforms/GradientBytes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::pp;

/// Bytes of one tensor type (statically shaped), or -1.
static int64_t bytesOf(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape())
    return -1;
  int64_t bits = tensor.getElementTypeBitWidth();
  return tensor.getNumElements() * ((bits + 7) / 8);
}

/// The bytes of `stage`'s parameters: its backward (or B) function's
/// `pp.parameter` arguments; -1 if the stage names no such function.
static int64_t parameterBytes(ModuleOp module, StageOp stage) {
  std::optional<StringRef> name = stage.getBackward();
  if (!name)
    name = stage.getBackwardInput();
  if (!name)
    return -1;
  auto fn = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
      module, StringAttr::get(module.getContext(), *name));
  if (!fn)
    return -1;
  int64_t total = 0;
  for (unsigned i = 0; i < fn.getNumArguments(); ++i)
    if (fn.getArgAttr(i, "pp.parameter")) {
      int64_t b = bytesOf(fn.getArgument(i).getType());
      if (b < 0)
        return -1;
      total += b;
    }
  return total;
}

FailureOr<std::vector<int64_t>>
mlir::pp::getStageGradientBytes(ModuleOp module, PipelineOp pipeline,
                                ArrayRef<int64_t> gradientBytes) {
  for (auto [i, b] : llvm::enumerate(gradientBytes))
    if (b < 0) {
      mlir::emitError(module.getLoc(), "option 'gradient-bytes': entry ")
          << i << " is " << b << "; bytes must be >= 0";
      return failure();
    }
  SmallVector<StageOp> stages(pipeline.getBody().getOps<StageOp>());
  if (gradientBytes.size() > 1 && gradientBytes.size() != stages.size()) {
    mlir::emitError(pipeline.getLoc(), "option 'gradient-bytes' has ")
        << gradientBytes.size() << " entries, but pipeline @"
        << pipeline.getSymName() << " has " << stages.size()
        << " stages; give one per stage, or one for every stage";
    return failure();
  }
  std::vector<int64_t> bytes(stages.size(), 0);
  for (StageOp stage : stages) {
    int64_t s = stage.getIndex();
    int64_t b = gradientBytes.size() == 1 ? gradientBytes[0]
                : !gradientBytes.empty()  ? gradientBytes[s]
                                          : parameterBytes(module, stage);
    if (b < 0) {
      stage.emitError("the bytes of stage ")
          << s << "'s gradients are unknown (an abstract stage): give "
          << "them with 'gradient-bytes'";
      return failure();
    }
    bytes[s] = b;
  }
  return bytes;
}
