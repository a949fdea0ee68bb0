//===- CostModel.cpp - FLOPs and bytes of ops on tensors ------------------===//

#include "pp/Model/CostModel.h"

#include "GemmLike.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/BuiltinTypes.h"

#include <algorithm>

using namespace mlir;

int64_t mlir::pp::bytesOf(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape() ||
      !tensor.getElementType().isIntOrFloat())
    return 0;
  int64_t bits = tensor.getElementType().getIntOrFloatBitWidth();
  return tensor.getNumElements() * ((bits + 7) / 8);
}

double mlir::pp::flopsOf(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp)
    return 0.0;
  double iterations = 1.0;
  for (int64_t range : linalgOp.getStaticLoopRanges())
    iterations *=
        ShapedType::isDynamic(range) ? 1.0 : static_cast<double>(range);
  // Some named ops (broadcast, transpose) keep an empty region: no
  // arithmetic, one copy per point.
  int64_t bodyOps = 0;
  Region &region = linalgOp->getRegion(0);
  if (!region.empty())
    for (Operation &inner : region.front())
      if (!isa<linalg::YieldOp>(inner))
        ++bodyOps;
  return iterations * std::max<int64_t>(bodyOps, 1);
}

bool mlir::pp::parseRecomputeChoice(llvm::StringRef choice, double &threshold) {
  threshold = -1;
  if (choice == "none" || choice == "full" || choice == "selective")
    return true;
  if (!choice.consume_front("selective:"))
    return false;
  return !choice.getAsDouble(threshold) && threshold >= 0;
}

std::optional<double> mlir::pp::recomputeIntensity(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || !isGemmLike(linalgOp))
    return std::nullopt;
  int64_t elements = 0;
  for (Value result : op->getResults()) {
    auto type = dyn_cast<ShapedType>(result.getType());
    if (!type || !type.hasStaticShape())
      return std::nullopt;
    elements += type.getNumElements();
  }
  if (elements == 0)
    return std::nullopt;
  return flopsOf(op) / static_cast<double>(elements);
}

llvm::SmallVector<double> mlir::pp::recomputeIntensities(Operation *module) {
  llvm::SmallVector<double> values;
  module->walk([&](Operation *op) {
    if (std::optional<double> v = recomputeIntensity(op))
      values.push_back(*v);
  });
  llvm::sort(values);
  values.erase(std::unique(values.begin(), values.end()), values.end());
  return values;
}
