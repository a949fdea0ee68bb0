//===- AutodiffTensor.cpp - pp-autodiff: tensor rules ---------------------===//
//
// The reverse-mode rules of the tensor dialect: element access (extract,
// insert, from_elements), reshapes and casts (expand_shape, collapse_shape,
// reshape, cast), and slices (extract_slice, insert_slice, pad, concat).
// Each moves the adjoint of the result back to where the operand's elements
// came from, with zeros where they did not reach the result.
//
//===----------------------------------------------------------------------===//

#include "AutodiffInternal.h"
#include "StageFunctions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::pp;
using namespace mlir::pp::autodiff;

namespace {
/// The rules for one tensor op whose (single) result has the adjoint `d`:
/// one `visit` per op kind, each accumulating the adjoints of the op's
/// active operands in the differentiator.
class TensorRules {
public:
  TensorRules(Differentiator &diff, Operation *op, Value d)
      : diff(diff), b(diff.builder()), loc(op->getLoc()), d(d) {}

  //===--- Element access -------------------------------------------------===//

  void visit(tensor::ExtractOp extract) {
    if (!isActive(extract.getTensor()))
      return;
    Value zero = zeros(b, loc, extract.getTensor().getType());
    accumulate(extract.getTensor(),
               tensor::InsertOp::create(b, loc, d, zero, extract.getIndices()));
  }
  void visit(tensor::InsertOp insert) {
    if (isActive(insert.getScalar()))
      accumulate(insert.getScalar(),
                 tensor::ExtractOp::create(b, loc, d, insert.getIndices()));
    if (isActive(insert.getDest())) {
      Value zero = floatConstant(b, loc, insert.getScalar().getType(), 0);
      accumulate(insert.getDest(), tensor::InsertOp::create(
                                       b, loc, zero, d, insert.getIndices()));
    }
  }
  void visit(tensor::FromElementsOp fromElements) {
    auto type = cast<RankedTensorType>(d.getType());
    for (auto [linear, element] : llvm::enumerate(fromElements.getElements())) {
      if (!isActive(element))
        continue;
      SmallVector<Value> indices;
      int64_t rest = linear;
      SmallVector<int64_t> position(type.getRank());
      for (int64_t dim = type.getRank() - 1; dim >= 0; --dim) {
        position[dim] = rest % type.getDimSize(dim);
        rest /= type.getDimSize(dim);
      }
      for (int64_t p : position)
        indices.push_back(arith::ConstantIndexOp::create(b, loc, p));
      accumulate(element, tensor::ExtractOp::create(b, loc, d, indices));
    }
  }

  //===--- Reshapes and casts ---------------------------------------------===//

  void visit(tensor::ExpandShapeOp expand) {
    if (isActive(expand.getSrc()))
      accumulate(expand.getSrc(), tensor::CollapseShapeOp::create(
                                      b, loc, expand.getSrcType(), d,
                                      expand.getReassociationIndices()));
  }
  void visit(tensor::CollapseShapeOp collapse) {
    if (isActive(collapse.getSrc()))
      accumulate(collapse.getSrc(), tensor::ExpandShapeOp::create(
                                        b, loc, collapse.getSrcType(), d,
                                        collapse.getReassociationIndices()));
  }
  void visit(tensor::ReshapeOp reshape) {
    Value source = reshape.getSource();
    if (!isActive(source))
      return;
    auto sourceType = cast<RankedTensorType>(source.getType());
    auto shapeType =
        RankedTensorType::get({sourceType.getRank()}, b.getIndexType());
    Value shape = arith::ConstantOp::create(
        b, loc, DenseIntElementsAttr::get(shapeType, sourceType.getShape()));
    accumulate(source, tensor::ReshapeOp::create(b, loc, sourceType, d, shape));
  }
  void visit(tensor::CastOp castOp) {
    if (isActive(castOp.getSource()))
      accumulate(
          castOp.getSource(),
          tensor::CastOp::create(b, loc, castOp.getSource().getType(), d));
  }

  //===--- Slices, padding and concatenation ------------------------------===//

  void visit(tensor::ExtractSliceOp slice) {
    // The slice's gradient lands at the slice; zeros elsewhere.
    if (!isActive(slice.getSource()))
      return;
    diff.accumulateSlice(slice.getSource(), d, slice.getMixedOffsets(),
                         slice.getMixedSizes(), slice.getMixedStrides());
  }
  void visit(tensor::InsertSliceOp insert) {
    if (isActive(insert.getSource()))
      accumulate(insert.getSource(),
                 tensor::ExtractSliceOp::create(b, loc, insert.getSourceType(),
                                                d, insert.getMixedOffsets(),
                                                insert.getMixedSizes(),
                                                insert.getMixedStrides()));
    if (isActive(insert.getDest())) {
      // The overwritten slice of the destination gets no gradient.
      Value zero = zeros(b, loc, insert.getSourceType());
      accumulate(insert.getDest(),
                 tensor::InsertSliceOp::create(
                     b, loc, zero, d, insert.getMixedOffsets(),
                     insert.getMixedSizes(), insert.getMixedStrides()));
    }
  }
  void visit(tensor::PadOp pad) {
    if (!isActive(pad.getSource()))
      return;
    auto sourceType = pad.getSourceType();
    SmallVector<OpFoldResult> sizes, strides;
    for (int64_t size : sourceType.getShape()) {
      sizes.push_back(b.getIndexAttr(size));
      strides.push_back(b.getIndexAttr(1));
    }
    accumulate(pad.getSource(), tensor::ExtractSliceOp::create(
                                    b, loc, sourceType, d, pad.getMixedLowPad(),
                                    sizes, strides));
  }
  void visit(tensor::ConcatOp concat) {
    int64_t dim = concat.getDim();
    int64_t offset = 0;
    for (Value input : concat.getInputs()) {
      auto inputType = cast<RankedTensorType>(input.getType());
      if (isActive(input)) {
        SmallVector<OpFoldResult> offsets, sizes, strides;
        for (int64_t i = 0; i < inputType.getRank(); ++i) {
          offsets.push_back(b.getIndexAttr(i == dim ? offset : 0));
          sizes.push_back(b.getIndexAttr(inputType.getDimSize(i)));
          strides.push_back(b.getIndexAttr(1));
        }
        accumulate(input, tensor::ExtractSliceOp::create(
                              b, loc, inputType, d, offsets, sizes, strides));
      }
      offset += inputType.getDimSize(dim);
    }
  }

private:
  Differentiator &diff;
  OpBuilder &b;
  Location loc;
  /// The adjoint of the op's result.
  Value d;

  /// Whether `v` needs an adjoint.
  bool isActive(Value v) const { return diff.isActive(v); }
  /// Adds `contribution` to the adjoint of `v`.
  void accumulate(Value v, Value contribution) {
    diff.accumulate(v, contribution);
  }
};
} // namespace

LogicalResult Differentiator::differentiateTensorOp(Operation *op) {
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case<tensor::ExtractOp, tensor::InsertOp, tensor::FromElementsOp,
            tensor::ExpandShapeOp, tensor::CollapseShapeOp, tensor::ReshapeOp,
            tensor::CastOp, tensor::ExtractSliceOp, tensor::InsertSliceOp,
            tensor::PadOp, tensor::ConcatOp>([&](auto tensorOp) {
        // Each of these ops has one result; without its adjoint, nothing
        // reaches the operands.
        if (Value d = adjointOf(tensorOp->getResult(0)))
          TensorRules(*this, op, d).visit(tensorOp);
        return success();
      })
      .Default([&](Operation *) {
        return mlir::emitError(op->getLoc(), "internal error: no rule for '")
               << name(op) << "'";
      });
}
