//===- RoundToBF16.cpp - pp-round-to-bf16 ---------------------------------===//
//
// bf16 compute with f32 accumulation: the inputs of every contraction and
// convolution are rounded to bf16 (truncf, then extf back to f32), so the
// op sums bf16 products in f32. See the pass description in
// include/pp/Model/Passes.td and docs/Training.md, "bf16".
//
//===----------------------------------------------------------------------===//

#include "pp/Model/Passes.h"

#include "GemmLike.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir::pp {
#define GEN_PASS_DEF_PPROUNDTOBF16PASS
#include "pp/Model/Passes.h.inc"
} // namespace mlir::pp

using namespace mlir;
using namespace mlir::pp;

namespace {
struct PPRoundToBF16Pass
    : mlir::pp::impl::PPRoundToBF16PassBase<PPRoundToBF16Pass> {
  using Base::Base;
  void runOnOperation() override;
  LogicalResult roundFunction(func::FuncOp fn);
};

/// `value` rounded to bf16 and back, as a linalg.map placed right after
/// its definition (so every user in the function can share it).
Value roundTensor(OpBuilder &b, Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  if (auto arg = dyn_cast<BlockArgument>(value))
    b.setInsertionPointToStart(arg.getOwner());
  else
    b.setInsertionPointAfter(value.getDefiningOp());
  Location loc = value.getLoc();
  Value init = tensor::EmptyOp::create(
      b, loc, tensor::getMixedSizes(b, loc, value), type.getElementType());
  auto map = linalg::MapOp::create(
      b, loc, ValueRange{value}, init,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value half =
            arith::TruncFOp::create(nb, nloc, nb.getBF16Type(), args[0]);
        Value back = arith::ExtFOp::create(nb, nloc, nb.getF32Type(), half);
        linalg::YieldOp::create(nb, nloc, back);
      });
  return map.getResult().front();
}
} // namespace

LogicalResult PPRoundToBF16Pass::roundFunction(func::FuncOp fn) {
  SmallVector<linalg::LinalgOp> contractions;
  fn.walk([&](linalg::LinalgOp op) {
    if (op.hasPureTensorSemantics() && isGemmLike(op))
      contractions.push_back(op);
  });
  // Check first, so that a function that fails is left unchanged.
  for (linalg::LinalgOp op : contractions)
    for (OpOperand *input : op.getDpsInputOperands()) {
      Type elem = getElementTypeOrSelf(input->get().getType());
      if (!elem.isF32())
        return op->emitError("pp-round-to-bf16: this contraction computes in ")
               << elem
               << ": only f32 contractions can take bf16 inputs (with f32 "
                  "accumulation)";
    }
  llvm::DenseMap<Value, Value> rounded;
  OpBuilder b(fn.getContext());
  for (linalg::LinalgOp op : contractions) {
    SmallVector<OpOperand *> inputs = op.getDpsInputOperands();
    // x . x: a sum of squares (a norm), a reduction that stays f32.
    if (inputs.size() == 2 && inputs[0]->get() == inputs[1]->get())
      continue;
    for (OpOperand *input : inputs) {
      Value value = input->get();
      if (!isa<RankedTensorType>(value.getType()))
        continue;
      auto [it, fresh] = rounded.try_emplace(value, Value());
      if (fresh) {
        OpBuilder::InsertionGuard guard(b);
        it->second = roundTensor(b, value);
      }
      input->set(it->second);
    }
  }
  return success();
}

void PPRoundToBF16Pass::runOnOperation() {
  for (func::FuncOp fn : getOperation().getOps<func::FuncOp>()) {
    if (fn.isDeclaration() || llvm::is_contained(exclude, fn.getSymName()))
      continue;
    if (failed(roundFunction(fn)))
      return signalPassFailure();
  }
}
