//===- AutodiffLinalg.cpp - pp-autodiff: linalg rules ---------------------===//
//
// One rule covers every linalg.generic (and so every named op, which
// pp-autodiff generalizes first: matmuls, convolutions, pooling, elementwise
// ops, reductions):
//
//   For each differentiated operand `x` of a generic whose indexing map is a
//   projected permutation (unit dimensions may be indexed by the constant
//   0), an adjoint linalg.generic runs over the same iteration space, reads
//   the forward operands and the adjoints of the results at their maps, and
//   writes into a zero tensor shaped like `x` at x's map: iteration
//   dimensions missing from x's map become reductions. Its body is a copy of
//   the forward body followed by the reverse mode of that scalar code
//   (AutodiffScalar.cpp). Operands read through window maps are written
//   into an expanded tensor and folded (AutodiffWindow.cpp).
//
// A body that reads a differentiated tensor from above element by element
// (tensor.extract: a gather, an embedding lookup) gives that tensor a
// scatter-add adjoint (adjointForExtract, at the end of this file).
//
// Reductions read the output block argument (the accumulator). Sums are
// differentiated body-locally, the accumulator standing for zero; their
// initial value receives the output adjoint. Max and min reductions
// substitute the accumulator with the reduction's final result and break
// ties in favour of the non-accumulator operand, so every element equal to
// the result receives the whole output adjoint (d max/dx = [x == max]).
//
//===----------------------------------------------------------------------===//

#include "AutodiffInternal.h"
#include "StageFunctions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallBitVector.h"

#include <memory>

using namespace mlir;
using namespace mlir::pp;
using namespace mlir::pp::autodiff;

//===----------------------------------------------------------------------===//
// Analysis and checks
//===----------------------------------------------------------------------===//

ReductionKind autodiff::classifyReduction(linalg::GenericOp generic,
                                          unsigned j) {
  Block &body = generic.getRegion().front();
  BlockArgument acc = body.getArgument(generic.getNumDpsInputs() + j);
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  Value yielded = yield.getOperand(j);
  if (!isa<FloatType>(acc.getType()) || acc.use_empty())
    return ReductionKind::None;
  // The yielded value must be yielded exactly once, as output j.
  if (llvm::count(yield.getOperands(), yielded) != 1)
    return ReductionKind::None;
  if (acc.hasOneUse()) {
    Operation *user = *acc.getUsers().begin();
    if (user->getNumResults() == 1 && user->getResult(0) == yielded) {
      if (isa<arith::MaximumFOp, arith::MaxNumFOp>(user) &&
          user->getOperand(0) != user->getOperand(1))
        return ReductionKind::Max;
      if (isa<arith::MinimumFOp, arith::MinNumFOp>(user) &&
          user->getOperand(0) != user->getOperand(1))
        return ReductionKind::Min;
    }
  }
  Value v = acc;
  while (v != yielded) {
    if (!v.hasOneUse())
      return ReductionKind::None;
    OpOperand &use = *v.getUses().begin();
    Operation *user = use.getOwner();
    bool additive = (isa<arith::AddFOp>(user) &&
                     user->getOperand(0) != user->getOperand(1)) ||
                    (isa<arith::SubFOp>(user) && use.getOperandNumber() == 0 &&
                     user->getOperand(1) != v);
    if (!additive)
      return ReductionKind::None;
    v = user->getResult(0);
  }
  // The yielded value itself is used by the yield only.
  if (!v.hasOneUse())
    return ReductionKind::None;
  return ReductionKind::Sum;
}

LogicalResult Differentiator::checkGeneric(linalg::GenericOp generic) {
  std::string opName = name(generic);
  Block &body = generic.getRegion().front();
  unsigned numInputs = generic.getNumDpsInputs();
  bool hasReduction = generic.getNumReductionLoops() > 0;
  bool ok = true;
  DenseSet<Value> bodyActive;

  for (OpOperand *input : generic.getDpsInputOperands()) {
    if (!isActive(input->get()))
      continue;
    AffineMap map = generic.getMatchingIndexingMap(input);
    std::string why;
    if (failed(decomposeWindowMap(map, input->get().getType(), &why))) {
      mlir::emitError(generic.getLoc(), "cannot differentiate '")
          << opName << "' with respect to input #" << input->getOperandNumber()
          << ": its indexing map " << str(map) << " is not supported: " << why
          << "; supported: " << kSupportedIndexingMaps;
      ok = false;
    }
    bodyActive.insert(body.getArgument(input->getOperandNumber()));
  }

  for (unsigned j = 0, e = generic.getNumDpsInits(); j < e; ++j) {
    OpOperand &init = generic.getDpsInitsMutable()[j];
    BlockArgument acc = body.getArgument(numInputs + j);
    AffineMap map = generic.getMatchingIndexingMap(&init);
    if (!hasReduction) {
      if (!map.isPermutation()) {
        // Without reductions, a dimension missing from an output's map
        // writes its elements several times (the last write wins).
        mlir::emitError(generic.getLoc(), "cannot differentiate '")
            << opName << "': output #" << j << " has the indexing map "
            << str(map)
            << ", which is not a permutation of the iteration space, but no "
               "dimension is a reduction; mark the missing dimensions as "
               "reductions";
        ok = false;
        continue;
      }
      if (acc.use_empty() || !isActive(init.get()))
        continue;
      bodyActive.insert(acc);
      continue;
    }
    Value result = generic.getResult(j);
    ReductionKind kind = classifyReduction(generic, j);
    if (kind == ReductionKind::None && !acc.use_empty() &&
        isDifferentiableType(result.getType())) {
      mlir::emitError(generic.getLoc(), "cannot differentiate '")
          << opName << "': output #" << j
          << " is a reduction whose accumulator is not combined by one "
             "arith.addf/arith.subf chain (a sum) or one "
             "arith.maximumf/maxnumf/minimumf/minnumf (a max/min); other "
             "reductions (products, arg-max, ...) are not supported";
      ok = false;
    }
    if (kind == ReductionKind::None && acc.use_empty() &&
        isDifferentiableType(result.getType()) && useful.contains(result)) {
      mlir::emitError(generic.getLoc(), "cannot differentiate '")
          << opName << "': output #" << j
          << " has reduction iterators but does not read its accumulator";
      ok = false;
    }
    if ((kind == ReductionKind::Max || kind == ReductionKind::Min) &&
        isActive(init.get())) {
      mlir::emitError(generic.getLoc(), "cannot differentiate '")
          << opName
          << "' with respect to the initial value of its max/min "
             "reduction (output #"
          << j << "); start it from a constant";
      ok = false;
    }
  }

  for (Value v : captured(generic))
    if (isActive(v))
      bodyActive.insert(v);

  for (Operation &op : body.without_terminator()) {
    if (llvm::none_of(op.getOperands(),
                      [&](Value v) { return bodyActive.contains(v); }) &&
        llvm::none_of(captured(&op),
                      [&](Value v) { return bodyActive.contains(v); }))
      continue;
    // A gather: an element of a tensor from above, at indices that are
    // not differentiated (adjointForExtract).
    if (auto extract = dyn_cast<tensor::ExtractOp>(&op);
        extract && bodyActive.contains(extract.getTensor()) &&
        !generic.getRegion().isAncestor(
            extract.getTensor().getParentRegion()) &&
        llvm::none_of(extract.getIndices(),
                      [&](Value v) { return bodyActive.contains(v); })) {
      bodyActive.insert(extract.getResult());
      continue;
    }
    if (!isSupportedScalarOp(&op) || op.getNumResults() != 1) {
      mlir::emitError(op.getLoc(), "cannot differentiate '")
          << op.getName() << "' in the body of '" << opName
          << "'; supported scalar ops: " << kSupportedScalarOps;
      ok = false;
      continue;
    }
    for (Value r : op.getResults())
      if (isa<FloatType>(r.getType()))
        bodyActive.insert(r);
  }
  return success(ok);
}

//===----------------------------------------------------------------------===//
// The rules
//===----------------------------------------------------------------------===//

/// The sum of all elements of a float tensor, as a scalar.
static Value sumAll(OpBuilder &b, Location loc, Value tensorValue) {
  auto tensor = cast<RankedTensorType>(tensorValue.getType());
  int64_t rank = tensor.getRank();
  Type elem = tensor.getElementType();
  auto scalarType = RankedTensorType::get({}, elem);
  Value init = zeros(b, loc, scalarType);
  AffineMap in = b.getMultiDimIdentityMap(rank);
  AffineMap out = AffineMap::get(rank, 0, {}, b.getContext());
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{scalarType}, ValueRange{tensorValue}, ValueRange{init},
      ArrayRef<AffineMap>{in, out},
      SmallVector<utils::IteratorType>(rank, utils::IteratorType::reduction),
      [](OpBuilder &nb, Location nloc, ValueRange args) {
        Value sum = arith::AddFOp::create(nb, nloc, args[1], args[0]);
        linalg::YieldOp::create(nb, nloc, sum);
      });
  return tensor::ExtractOp::create(b, loc, generic.getResult(0), ValueRange{});
}

LogicalResult Differentiator::differentiateFill(linalg::FillOp fill) {
  // The output is overwritten: only the filled value gets a gradient.
  Value d = adjointOf(fill.getResult(0));
  Value value = fill.getInputs()[0];
  if (d && isActive(value))
    accumulate(value, sumAll(b, fill.getLoc(), d));
  return success();
}

LogicalResult Differentiator::differentiateGeneric(linalg::GenericOp generic) {
  SmallVector<Value> resultAdjoints;
  for (Value result : generic.getResults())
    resultAdjoints.push_back(adjoints.lookup(result));
  if (llvm::all_of(resultAdjoints, [](Value v) { return !v; }))
    return success();

  Block &body = generic.getRegion().front();
  unsigned numInputs = generic.getNumDpsInputs();
  unsigned numInits = generic.getNumDpsInits();
  bool hasReduction = generic.getNumReductionLoops() > 0;
  SmallVector<ReductionKind> kinds;
  for (unsigned j = 0; j < numInits; ++j)
    kinds.push_back(hasReduction ? classifyReduction(generic, j)
                                 : ReductionKind::None);

  // Sums: the initial value is added once to the result.
  if (hasReduction)
    for (unsigned j = 0; j < numInits; ++j) {
      Value init = generic.getDpsInits()[j];
      if (kinds[j] == ReductionKind::Sum && resultAdjoints[j] && isActive(init))
        accumulate(init, resultAdjoints[j]);
    }

  for (OpOperand *input : generic.getDpsInputOperands()) {
    if (!isActive(input->get()))
      continue;
    if (failed(adjointForOperand(
            generic, input->get(), body.getArgument(input->getOperandNumber()),
            generic.getMatchingIndexingMap(input), resultAdjoints, kinds)))
      return failure();
  }
  if (!hasReduction)
    for (unsigned j = 0; j < numInits; ++j) {
      OpOperand &init = generic.getDpsInitsMutable()[j];
      BlockArgument acc = body.getArgument(numInputs + j);
      if (acc.use_empty() || !isActive(init.get()))
        continue;
      if (failed(adjointForOperand(generic, init.get(), acc,
                                   generic.getMatchingIndexingMap(&init),
                                   resultAdjoints, kinds)))
        return failure();
    }
  for (Value v : captured(generic)) {
    if (!isActive(v))
      continue;
    if (isa<RankedTensorType>(v.getType())) {
      // Read element by element (checkGeneric allows only that).
      for (Operation &op : body.without_terminator())
        if (auto extract = dyn_cast<tensor::ExtractOp>(&op);
            extract && extract.getTensor() == v &&
            failed(adjointForExtract(generic, extract, resultAdjoints, kinds)))
          return failure();
      continue;
    }
    if (!isa<FloatType>(v.getType())) // Refused by checkGeneric.
      return mlir::emitError(generic.getLoc(),
                             "internal error: a tensor captured "
                             "by the body of '")
             << name(generic) << "'";
    AffineMap none =
        AffineMap::get(generic.getNumLoops(), 0, {}, generic.getContext());
    if (failed(adjointForOperand(generic, v, v, none, resultAdjoints, kinds)))
      return failure();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// The adjoint generic of one operand
//===----------------------------------------------------------------------===//

namespace {
/// Where the adjoint generic of one operand writes, and how its result
/// becomes the operand's adjoint.
struct AdjointOutput {
  /// The output's indexing map and type: the operand's map without its
  /// constant (unit) dimensions, or for a window map one dimension per loop
  /// dimension of the map.
  AffineMap map;
  RankedTensorType type;
  /// Iteration dimensions outside `map` are reductions.
  SmallVector<utils::IteratorType> iterators;
  /// For an operand read directly: the operand dimensions indexed by loop
  /// dimensions (the others are unit dimensions indexed by 0).
  SmallVector<int64_t> keptPositions;
  /// For an operand read through a window map: its decomposition.
  std::optional<SmallVector<WindowIndex>> window;
  /// The static loop ranges of the forward generic.
  SmallVector<int64_t> loopRanges;

  /// Whether the adjoint generic sums contributions (into zeros) rather than
  /// writing every element once.
  bool reduces() const {
    return llvm::is_contained(iterators, utils::IteratorType::reduction);
  }
};

/// The values the adjoint generic may read, with their indexing maps: the
/// forward inputs, what stands for each output's block argument (the init,
/// or the final result of a max/min reduction), and the adjoint of each
/// result that has one.
struct AdjointInputs {
  SmallVector<Value> values;
  SmallVector<AffineMap> maps;
  /// Per output of the forward generic, the index in `values` of its
  /// result's adjoint (~0u without one).
  SmallVector<unsigned> seedIndex;
};
} // namespace

/// Plans the output of the adjoint generic of `primal`, an operand of
/// `generic` read through `map`. The adjoint is written at the operand's
/// map, without its constant (unit) dimensions; iteration dimensions outside
/// it are reduced. A window map (sums of dimensions, as in the input of a
/// convolution) is written into an expanded tensor instead, with one
/// dimension per loop dimension of the map (a projected permutation, laid
/// out by windowLayout), then folded (foldWindow). Fails if `map` is neither.
static FailureOr<AdjointOutput> planAdjointOutput(linalg::GenericOp generic,
                                                  Value primal, AffineMap map) {
  MLIRContext *ctx = generic.getContext();
  unsigned numLoops = generic.getNumLoops();
  Type elementType = getElementTypeOrSelf(primal.getType());
  auto primalTensor = dyn_cast<RankedTensorType>(primal.getType());
  AdjointOutput out;
  out.loopRanges = generic.getStaticLoopRanges();
  SmallVector<AffineExpr> keptExprs;
  SmallVector<int64_t> keptShape;
  if (primalTensor && !isProjectedPermutationOrUnit(map, primalTensor)) {
    FailureOr<SmallVector<WindowIndex>> decomposed =
        decomposeWindowMap(map, primalTensor);
    if (failed(decomposed))
      return failure();
    out.window = std::move(*decomposed);
    SmallVector<int64_t> layout = windowLayout(*out.window, out.loopRanges);
    keptExprs.resize(layout.size());
    keptShape.resize(layout.size());
    size_t flat = 0;
    for (const WindowIndex &index : *out.window)
      for (auto [dim, coefficient] : index.terms) {
        keptExprs[layout[flat]] = getAffineDimExpr(dim, ctx);
        keptShape[layout[flat++]] = out.loopRanges[dim];
      }
  } else if (primalTensor) {
    for (auto [i, expr] : llvm::enumerate(map.getResults()))
      if (isa<AffineDimExpr>(expr)) {
        keptExprs.push_back(expr);
        out.keptPositions.push_back(i);
        keptShape.push_back(primalTensor.getDimSize(i));
      }
  }
  out.map = AffineMap::get(numLoops, 0, keptExprs, ctx);
  out.type = RankedTensorType::get(keptShape, elementType);
  out.iterators.assign(numLoops, utils::IteratorType::reduction);
  for (AffineExpr expr : keptExprs)
    out.iterators[cast<AffineDimExpr>(expr).getPosition()] =
        utils::IteratorType::parallel;
  return out;
}

/// Whether output `j` of `generic` is a max/min reduction, whose
/// accumulator stands for the reduction's final result.
static bool isExtremum(linalg::GenericOp generic, ArrayRef<ReductionKind> kinds,
                       unsigned j) {
  return generic.getNumReductionLoops() > 0 &&
         (kinds[j] == ReductionKind::Max || kinds[j] == ReductionKind::Min);
}

/// Collects the candidate inputs of the adjoint generics of `generic`.
static AdjointInputs collectAdjointInputs(linalg::GenericOp generic,
                                          ArrayRef<Value> resultAdjoints,
                                          ArrayRef<ReductionKind> kinds) {
  unsigned numInits = generic.getNumDpsInits();
  AdjointInputs candidates;
  for (OpOperand *input : generic.getDpsInputOperands()) {
    candidates.values.push_back(input->get());
    candidates.maps.push_back(generic.getMatchingIndexingMap(input));
  }
  for (unsigned j = 0; j < numInits; ++j) {
    OpOperand &init = generic.getDpsInitsMutable()[j];
    bool useResult = isExtremum(generic, kinds, j);
    candidates.values.push_back(useResult ? Value(generic.getResult(j))
                                          : init.get());
    candidates.maps.push_back(generic.getMatchingIndexingMap(&init));
  }
  candidates.seedIndex.assign(numInits, ~0u);
  for (unsigned j = 0; j < numInits; ++j)
    if (resultAdjoints[j]) {
      candidates.seedIndex[j] = candidates.values.size();
      candidates.values.push_back(resultAdjoints[j]);
      candidates.maps.push_back(
          generic.getMatchingIndexingMap(&generic.getDpsInitsMutable()[j]));
    }
  return candidates;
}

/// Creates the body of an adjoint generic of `generic`: one argument per
/// candidate input and one (of `elementType`) for the output, then a copy
/// of the forward body, recorded in `mapping`. Output block arguments stand
/// for the init (without reductions), the final result (max/min reductions,
/// whose stand-ins are added to `accumulators`) or zero (sums). Leaves `nb`
/// at the end of the new block.
static std::unique_ptr<Block>
copyForwardBody(OpBuilder &nb, linalg::GenericOp generic,
                const AdjointInputs &candidates, Type elementType,
                ArrayRef<ReductionKind> kinds, IRMapping &mapping,
                DenseSet<Value> &accumulators) {
  Location loc = generic.getLoc();
  Block &body = generic.getRegion().front();
  unsigned numInputs = generic.getNumDpsInputs();
  bool hasReduction = generic.getNumReductionLoops() > 0;
  auto block = std::make_unique<Block>();
  for (Value candidate : candidates.values)
    block->addArgument(getElementTypeOrSelf(candidate.getType()), loc);
  block->addArgument(elementType, loc);

  nb.setInsertionPointToEnd(block.get());
  for (unsigned i = 0; i < numInputs; ++i)
    mapping.map(body.getArgument(i), block->getArgument(i));
  for (unsigned j = 0, e = generic.getNumDpsInits(); j < e; ++j) {
    BlockArgument acc = body.getArgument(numInputs + j);
    BlockArgument stand = block->getArgument(numInputs + j);
    if (!hasReduction) {
      mapping.map(acc, stand); // the init, read elementwise
    } else if (isExtremum(generic, kinds, j)) {
      mapping.map(acc, stand); // the final result
      accumulators.insert(stand);
    } else {
      // Sums (and outputs not differentiated): the accumulator does not
      // change the derivative of the terms; it stands for zero.
      Value zero = arith::ConstantOp::create(
          nb, loc, cast<TypedAttr>(nb.getZeroAttr(acc.getType())));
      mapping.map(acc, zero);
    }
  }
  for (Operation &op : body.without_terminator())
    nb.clone(op, mapping);
  return block;
}

/// Runs reverse mode over `block`, the copied body of `generic` (`mapping`
/// from the forward body), seeded at the copies of the yielded values by the
/// result adjoints (the block arguments `seedIndex`). Returns the adjoint of
/// `target`, or null when `target` does not reach a seeded result; reports
/// an internal error for a body op without a rule.
static FailureOr<Value> reverseBody(OpBuilder &nb, Block &block,
                                    linalg::GenericOp generic, Value target,
                                    const IRMapping &mapping,
                                    ArrayRef<unsigned> seedIndex,
                                    const DenseSet<Value> &accumulators) {
  Location loc = generic.getLoc();
  DenseSet<Value> bodyActive{target};
  for (Operation &op : block) {
    if (llvm::any_of(op.getOperands(),
                     [&](Value v) { return bodyActive.contains(v); }))
      for (Value r : op.getResults())
        if (isa<FloatType>(r.getType()))
          bodyActive.insert(r);
  }
  DenseMap<Value, Value> bodyAdjoints;
  auto bodyAccumulate = [&](Value v, Value d) {
    auto it = bodyAdjoints.find(v);
    if (it == bodyAdjoints.end())
      bodyAdjoints[v] = d;
    else
      it->second = arith::AddFOp::create(nb, loc, it->second, d);
  };
  auto yield =
      cast<linalg::YieldOp>(generic.getRegion().front().getTerminator());
  for (auto [j, seed] : llvm::enumerate(seedIndex)) {
    if (seed == ~0u)
      continue;
    Value yielded = mapping.lookupOrDefault(yield.getOperand(j));
    if (bodyActive.contains(yielded))
      bodyAccumulate(yielded, block.getArgument(seed));
  }
  SmallVector<Operation *> copied;
  for (Operation &op : block)
    copied.push_back(&op);
  auto bodyIsActive = [&](Value v) { return bodyActive.contains(v); };
  ScalarReverse rev{nb, bodyIsActive, bodyAccumulate, &accumulators};
  for (Operation *op : llvm::reverse(copied)) {
    if (op->getNumResults() != 1)
      continue;
    Value dz = bodyAdjoints.lookup(op->getResult(0));
    if (!dz || llvm::none_of(op->getOperands(),
                             [&](Value v) { return bodyActive.contains(v); }))
      continue;
    if (failed(differentiateScalarOp(rev, op, dz)))
      return mlir::emitError(op->getLoc(), "internal error: no rule for '")
             << op->getName() << "'";
  }
  return bodyAdjoints.lookup(target);
}

/// Drops the dead part of the copied forward body in `block`, then the
/// arguments of unused candidate inputs, keeping enough inputs for every
/// loop dimension to have a size. Returns the kept inputs and their maps,
/// followed by `outMap`.
static std::pair<SmallVector<Value>, SmallVector<AffineMap>>
pruneAdjointInputs(Block &block, const AdjointInputs &candidates,
                   AffineMap outMap, unsigned numLoops) {
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(block)))
    if (isOpTriviallyDead(&op))
      op.erase();
  llvm::SmallBitVector covered(numLoops);
  auto cover = [&](AffineMap m) {
    for (AffineExpr expr : m.getResults())
      if (auto dim = dyn_cast<AffineDimExpr>(expr))
        covered.set(dim.getPosition());
  };
  cover(outMap);
  size_t numCandidates = candidates.values.size();
  SmallVector<bool> keep(numCandidates);
  for (unsigned i = 0; i < numCandidates; ++i) {
    keep[i] = !block.getArgument(i).use_empty();
    if (keep[i])
      cover(candidates.maps[i]);
  }
  for (unsigned i = 0; i < numCandidates && !covered.all(); ++i) {
    if (keep[i] || !isa<RankedTensorType>(candidates.values[i].getType()))
      continue;
    bool adds = false;
    for (AffineExpr expr : candidates.maps[i].getResults())
      if (auto dim = dyn_cast<AffineDimExpr>(expr))
        adds |= !covered.test(dim.getPosition());
    if (adds) {
      keep[i] = true;
      cover(candidates.maps[i]);
    }
  }
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  llvm::BitVector erase(block.getNumArguments());
  for (unsigned i = 0; i < numCandidates; ++i) {
    if (keep[i]) {
      inputs.push_back(candidates.values[i]);
      maps.push_back(candidates.maps[i]);
    } else {
      erase.set(i);
    }
  }
  maps.push_back(outMap);
  block.eraseArguments(erase);
  return {inputs, maps};
}

/// Turns `result`, the output of the adjoint generic planned as `out`, into
/// the adjoint of `primal`: folds a window, re-inserts the unit dimensions
/// the operand indexed by constants, or extracts the scalar of a scalar
/// operand. Fails if a window reads outside the operand.
static FailureOr<Value> toOperandShape(OpBuilder &b, Location loc, Value result,
                                       const AdjointOutput &out, Value primal) {
  auto primalTensor = dyn_cast<RankedTensorType>(primal.getType());
  if (out.window)
    return foldWindow(b, loc, result, primalTensor, *out.window,
                      out.loopRanges);
  if (!primalTensor)
    return Value(tensor::ExtractOp::create(b, loc, result, ValueRange{}));
  const SmallVector<int64_t> &kept = out.keptPositions;
  int64_t rank = primalTensor.getRank();
  if (kept.size() == static_cast<size_t>(rank))
    return result;
  SmallVector<ReassociationIndices> reassociation;
  if (!kept.empty()) {
    for (size_t k = 0; k < kept.size(); ++k) {
      int64_t begin = k == 0 ? 0 : kept[k];
      int64_t end = k + 1 < kept.size() ? kept[k + 1] : rank;
      ReassociationIndices group;
      for (int64_t p = begin; p < end; ++p)
        group.push_back(p);
      reassociation.push_back(group);
    }
  }
  return Value(tensor::ExpandShapeOp::create(b, loc, primalTensor, result,
                                             reassociation));
}

LogicalResult Differentiator::adjointForOperand(linalg::GenericOp generic,
                                                Value primal, Value bodyValue,
                                                AffineMap map,
                                                ArrayRef<Value> resultAdjoints,
                                                ArrayRef<ReductionKind> kinds) {
  Location loc = generic.getLoc();
  FailureOr<AdjointOutput> out = planAdjointOutput(generic, primal, map);
  if (failed(out)) // Refused by checkGeneric.
    return mlir::emitError(loc, "internal error: unsupported indexing map ")
           << str(map) << " in '" << name(generic) << "'";
  Type elementType = out->type.getElementType();
  AdjointInputs candidates =
      collectAdjointInputs(generic, resultAdjoints, kinds);

  OpBuilder nb(generic.getContext()); // The block is detached.
  IRMapping mapping;
  DenseSet<Value> accumulators;
  std::unique_ptr<Block> block = copyForwardBody(
      nb, generic, candidates, elementType, kinds, mapping, accumulators);
  Value outAcc = block->getArguments().back();

  // Reverse mode over the copied body, seeded by the result adjoints.
  FailureOr<Value> contribution =
      reverseBody(nb, *block, generic, mapping.lookupOrDefault(bodyValue),
                  mapping, candidates.seedIndex, accumulators);
  if (failed(contribution))
    return failure();
  if (!*contribution)
    return success(); // The operand does not reach the differentiated results.
  // Without reductions every element of the adjoint is written once; with
  // them, the contributions are summed into zeros.
  bool reduces = out->reduces();
  Value total = reduces ? arith::AddFOp::create(nb, loc, outAcc, *contribution)
                        : *contribution;
  linalg::YieldOp::create(nb, loc, total);
  auto [inputs, maps] =
      pruneAdjointInputs(*block, candidates, out->map, generic.getNumLoops());

  Value init = reduces ? zeros(b, loc, out->type)
                       : tensor::EmptyOp::create(b, loc, out->type.getShape(),
                                                 elementType);
  auto adjoint =
      linalg::GenericOp::create(b, loc, TypeRange{out->type}, inputs,
                                ValueRange{init}, maps, out->iterators);
  adjoint.getRegion().push_back(block.release());
  FailureOr<Value> result =
      toOperandShape(b, loc, adjoint.getResult(0), *out, primal);
  if (failed(result))
    return mlir::emitError(loc, "internal error: the window ")
           << str(map) << " of '" << name(generic)
           << "' reads outside its operand";
  accumulate(primal, *result);
  return success();
}

//===----------------------------------------------------------------------===//
// Gathers: a tensor read from above by tensor.extract
//===----------------------------------------------------------------------===//

// The body of `generic` reads element T[i_0, ..., i_{r-1}] of a tensor T
// defined above it (tosa.gather and torch-mlir's embedding lowering: the
// indices come from an integer input). The adjoint of T is the scatter-add
//
//   dT[k_0, ..., k_{r-1}] = sum over the iteration points where i_p = k_p
//                           for every p of the adjoint of the element read,
//
// built as one linalg.generic over the forward's iteration space and one
// more dimension per index that is not simply a loop index: an index that
// is `linalg.index d` (d not used by an earlier index) is written at d;
// any other is compared with its new dimension, and the contribution is
// kept only where all comparisons hold. Loop dimensions outside the
// output's map are summed in iteration order: the same order every run,
// so a pipelined and an unpipelined step agree bit for bit. The cost is
// the forward's iteration space times the sizes of the compared table
// dimensions (for an embedding: tokens x features x vocabulary).
LogicalResult Differentiator::adjointForExtract(linalg::GenericOp generic,
                                                tensor::ExtractOp extract,
                                                ArrayRef<Value> resultAdjoints,
                                                ArrayRef<ReductionKind> kinds) {
  Location loc = generic.getLoc();
  MLIRContext *ctx = generic.getContext();
  Value table = extract.getTensor();
  auto tableType = cast<RankedTensorType>(table.getType());
  Type elementType = tableType.getElementType();
  unsigned numLoops = generic.getNumLoops();

  SmallVector<AffineExpr> outExprs;
  SmallVector<std::pair<Value, unsigned>> compared; // forward index, new dim
  llvm::SmallBitVector usedLoop(numLoops);
  SmallVector<int64_t> loopRanges = generic.getStaticLoopRanges();
  unsigned numDims = numLoops;
  for (auto [position, index] : llvm::enumerate(extract.getIndices())) {
    // A loop index spans the table's dimension only if the sizes agree (a
    // body may read a sub-range); otherwise it is compared like any index.
    auto loopIndex = index.getDefiningOp<linalg::IndexOp>();
    if (loopIndex && loopIndex->getParentOp() == generic &&
        !usedLoop.test(loopIndex.getDim()) &&
        !ShapedType::isDynamic(tableType.getDimSize(position)) &&
        loopRanges[loopIndex.getDim()] == tableType.getDimSize(position)) {
      usedLoop.set(loopIndex.getDim());
      outExprs.push_back(getAffineDimExpr(loopIndex.getDim(), ctx));
      continue;
    }
    compared.push_back({index, numDims});
    outExprs.push_back(getAffineDimExpr(numDims++, ctx));
  }
  AffineMap outMap = AffineMap::get(numDims, 0, outExprs, ctx);
  SmallVector<utils::IteratorType> iterators(numDims,
                                             utils::IteratorType::reduction);
  for (AffineExpr expr : outExprs)
    iterators[cast<AffineDimExpr>(expr).getPosition()] =
        utils::IteratorType::parallel;

  AdjointInputs candidates =
      collectAdjointInputs(generic, resultAdjoints, kinds);
  for (AffineMap &map : candidates.maps)
    map = AffineMap::get(numDims, 0, map.getResults(), ctx);
  OpBuilder nb(ctx); // The block is detached.
  IRMapping mapping;
  DenseSet<Value> accumulators;
  std::unique_ptr<Block> block = copyForwardBody(
      nb, generic, candidates, elementType, kinds, mapping, accumulators);
  Value outAcc = block->getArguments().back();
  FailureOr<Value> contribution =
      reverseBody(nb, *block, generic, mapping.lookup(extract.getResult()),
                  mapping, candidates.seedIndex, accumulators);
  if (failed(contribution))
    return failure();
  if (!*contribution)
    return success(); // The element does not reach the results.
  Value match;
  for (auto [index, dim] : compared) {
    Value here = linalg::IndexOp::create(nb, loc, dim);
    Value same = arith::CmpIOp::create(nb, loc, arith::CmpIPredicate::eq,
                                       mapping.lookupOrDefault(index), here);
    match = match ? arith::AndIOp::create(nb, loc, match, same) : same;
  }
  Value added = *contribution;
  if (match) {
    Value zero = arith::ConstantOp::create(nb, loc, elementType,
                                           nb.getFloatAttr(elementType, 0.0));
    added = arith::SelectOp::create(nb, loc, match, added, zero);
  }
  linalg::YieldOp::create(
      nb, loc, arith::AddFOp::create(nb, loc, outAcc, added).getResult());
  auto [inputs, maps] = pruneAdjointInputs(*block, candidates, outMap, numDims);
  auto adjoint = linalg::GenericOp::create(b, loc, TypeRange{tableType}, inputs,
                                           ValueRange{zeros(b, loc, tableType)},
                                           maps, iterators);
  adjoint.getRegion().push_back(block.release());
  accumulate(table, adjoint.getResult(0));
  return success();
}
