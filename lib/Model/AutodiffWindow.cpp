//===- AutodiffWindow.cpp - pp-autodiff: window maps ----------------------===//
//
// Inputs read through a window map (results such as `d1 * 2 + d4`: loop
// dimensions times positive constants plus a constant, as in convolutions
// and pooling) get their adjoint generic written into an expanded tensor,
// indexed by every loop dimension of the map (a projected permutation);
// foldWindow then sums it into the operand's shape with strided slices.
// windowLayout orders the expanded dimensions as im2col's column matrix
// (the kernel positions before the output positions), so that the adjoint
// of a convolution's input is one GEMM per image (pp-gemm-to-runtime).
//
//===----------------------------------------------------------------------===//

#include "AutodiffInternal.h"
#include "StageFunctions.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::pp;
using namespace mlir::pp::autodiff;

// In each result the term of the largest range (the output position of a
// convolution, rather than the kernel position) becomes a strided slice, and
// the other terms are unrolled: for each combination of their values, the
// slice of `expanded` at those values is added into the slice of the
// accumulator at offset (constant + sum of coefficient * value), with the
// remaining term's coefficient as stride. A 3x3 kernel thus gives 9 slice
// additions.
/// The term of `index` that foldWindow slices: the one of the largest range
/// (the first of equal ones); -1 for a constant result.
static int64_t slicedTerm(const WindowIndex &index,
                          ArrayRef<int64_t> loopRanges) {
  int64_t best = -1;
  for (auto [t, term] : llvm::enumerate(index.terms))
    if (best < 0 ||
        loopRanges[term.first] > loopRanges[index.terms[best].first])
      best = t;
  return best;
}

SmallVector<int64_t> autodiff::windowLayout(ArrayRef<WindowIndex> window,
                                            ArrayRef<int64_t> loopRanges) {
  SmallVector<int64_t> positions;
  int64_t next = 0;
  // First the terms that are not a multi-term result's sliced term (the
  // batch, the channels, the kernel positions), result by result...
  for (const WindowIndex &index : window) {
    int64_t sliced =
        index.terms.size() > 1 ? slicedTerm(index, loopRanges) : -1;
    for (int64_t t = 0, e = index.terms.size(); t < e; ++t)
      positions.push_back(t == sliced ? -1 : next++);
  }
  // ...then the sliced terms (the output positions).
  size_t flat = 0;
  for (const WindowIndex &index : window)
    for (size_t t = 0; t < index.terms.size(); ++t, ++flat)
      if (positions[flat] < 0)
        positions[flat] = next++;
  // foldWindow's slices of the expanded tensor and of the operand must
  // list the sliced terms in the same order: if the order above changes it
  // (a window result before a plain one, as in NHWC), the terms stay in
  // the map's order.
  int64_t previous = -1;
  flat = 0;
  for (const WindowIndex &index : window) {
    int64_t sliced = slicedTerm(index, loopRanges);
    if (sliced >= 0) {
      if (positions[flat + sliced] < previous)
        return llvm::to_vector(llvm::seq<int64_t>(0, positions.size()));
      previous = positions[flat + sliced];
    }
    flat += index.terms.size();
  }
  return positions;
}

FailureOr<Value> autodiff::foldWindow(OpBuilder &b, Location loc,
                                      Value expanded, RankedTensorType type,
                                      ArrayRef<WindowIndex> window,
                                      ArrayRef<int64_t> loopRanges) {
  auto expandedType = cast<RankedTensorType>(expanded.getType());
  Type elementType = type.getElementType();

  /// A term of the window that is unrolled: its position in `expanded`, the
  /// result (operand dimension) it belongs to, its coefficient there and
  /// its range.
  struct Unrolled {
    int64_t position, result, coefficient, range;
  };
  SmallVector<Unrolled> unrolled;
  // Per result: the position in `expanded` of its sliced term (-1 for a
  // constant result), that term's range and coefficient.
  SmallVector<int64_t> slicedPosition, slicedRange, slicedStride;
  SmallVector<int64_t> layout = windowLayout(window, loopRanges);
  int64_t flat = 0;
  for (auto [r, index] : llvm::enumerate(window)) {
    int64_t best = slicedTerm(index, loopRanges);
    int64_t extent = index.constant;
    for (auto [t, term] : llvm::enumerate(index.terms)) {
      int64_t range = loopRanges[term.first];
      if (range == 0)
        return zeros(b, loc, type); // An empty iteration space.
      extent += term.second * (range - 1);
      if (static_cast<int64_t>(t) != best)
        unrolled.push_back(
            {layout[flat + t], static_cast<int64_t>(r), term.second, range});
    }
    if (extent >= type.getDimSize(r))
      return failure();
    if (best < 0) {
      slicedPosition.push_back(-1);
      slicedRange.push_back(1);
      slicedStride.push_back(1);
    } else {
      slicedPosition.push_back(layout[flat + best]);
      slicedRange.push_back(loopRanges[index.terms[best].first]);
      slicedStride.push_back(index.terms[best].second);
    }
    flat += index.terms.size();
  }

  // Both slices are rank-reduced to the sliced terms.
  SmallVector<int64_t> sliceShape;
  for (auto [r, p] : llvm::enumerate(slicedPosition))
    if (p >= 0)
      sliceShape.push_back(slicedRange[r]);
  auto sliceType = RankedTensorType::get(sliceShape, elementType);

  Value accumulator = zeros(b, loc, type);
  SmallVector<int64_t> values(unrolled.size(), 0);
  bool first = true;
  while (true) {
    SmallVector<OpFoldResult> partOffsets, partSizes, partStrides;
    for (int64_t p = 0; p < expandedType.getRank(); ++p) {
      partOffsets.push_back(b.getIndexAttr(0));
      partSizes.push_back(b.getIndexAttr(expandedType.getDimSize(p)));
      partStrides.push_back(b.getIndexAttr(1));
    }
    SmallVector<int64_t> offsets;
    for (const WindowIndex &index : window)
      offsets.push_back(index.constant);
    for (auto [u, value] : llvm::zip_equal(unrolled, values)) {
      partOffsets[u.position] = b.getIndexAttr(value);
      partSizes[u.position] = b.getIndexAttr(1);
      offsets[u.result] += u.coefficient * value;
    }
    SmallVector<OpFoldResult> accOffsets, accSizes, accStrides;
    for (size_t r = 0; r < window.size(); ++r) {
      accOffsets.push_back(b.getIndexAttr(offsets[r]));
      accSizes.push_back(b.getIndexAttr(slicedRange[r]));
      accStrides.push_back(b.getIndexAttr(slicedStride[r]));
    }
    Value part = tensor::ExtractSliceOp::create(
        b, loc, sliceType, expanded, partOffsets, partSizes, partStrides);
    // The accumulator is zero before the first addition. Later parts add
    // into the accumulator's slice itself (the generic's init), so that
    // bufferization adds in place instead of into a new buffer copied back.
    if (!first) {
      Value old = tensor::ExtractSliceOp::create(
          b, loc, sliceType, accumulator, accOffsets, accSizes, accStrides);
      part = addValuesInto(b, loc, old, part);
    }
    accumulator = tensor::InsertSliceOp::create(
        b, loc, part, accumulator, accOffsets, accSizes, accStrides);
    first = false;
    // Next combination of the unrolled terms (the last one fastest).
    int64_t u = static_cast<int64_t>(unrolled.size()) - 1;
    for (; u >= 0; --u) {
      if (++values[u] < unrolled[u].range)
        break;
      values[u] = 0;
    }
    if (u < 0)
      break;
  }
  return accumulator;
}
