//===- SplitParameters.cpp - pp-split-parameters: one parameter per slice -===//
//
// pp-split-ops leaves a weight whose op it split read through one
// tensor.extract_slice per piece. Kept as one argument, a weight whose
// pieces land in several stages is a parameter those stages share (each
// holds all of it and writes a full-size gradient). This pass makes every
// such slice an argument of its own, so each stage holds, differentiates
// and updates only its piece.
//
//===----------------------------------------------------------------------===//

#include "pp/Model/Passes.h"

#include "pp/Support/Diagnostics.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/Support/FormatVariadic.h"

#include <map>
#include <optional>

namespace mlir::pp {
#define GEN_PASS_DEF_PPSPLITPARAMETERSPASS
#include "pp/Model/Passes.h.inc"
} // namespace mlir::pp

using namespace mlir;
using namespace mlir::pp;

namespace {

constexpr llvm::StringLiteral kParameter = "pp.parameter";
constexpr llvm::StringLiteral kPiece = "pp.parameter_piece";

/// How an argument is cut: the dimension and the ranges (offset -> size)
/// of its slices, which are pairwise equal or disjoint and cover it.
struct Cut {
  unsigned dim = 0;
  std::map<int64_t, int64_t> ranges;
};

/// The cut of `arg` if every use is a static, unit-stride, full-rank
/// extract_slice along one dimension, the slices' ranges cover that
/// dimension without overlapping (equal ranges are one piece), and there
/// are at least two; std::nullopt otherwise.
std::optional<Cut> cutOf(BlockArgument arg) {
  auto type = dyn_cast<RankedTensorType>(arg.getType());
  if (!type || !type.hasStaticShape() || arg.use_empty())
    return std::nullopt;
  std::optional<unsigned> dim;
  Cut cut;
  for (Operation *user : arg.getUsers()) {
    auto slice = dyn_cast<tensor::ExtractSliceOp>(user);
    if (!slice || slice.getSource() != arg ||
        slice.getResultType().getRank() != type.getRank() ||
        !slice.hasUnitStride() || !slice.getOffsets().empty() ||
        !slice.getSizes().empty())
      return std::nullopt;
    ArrayRef<int64_t> offsets = slice.getStaticOffsets();
    ArrayRef<int64_t> sizes = slice.getStaticSizes();
    std::optional<unsigned> sliced;
    for (unsigned d = 0; d < sizes.size(); ++d) {
      if (sizes[d] == type.getDimSize(d))
        continue;
      if (sliced)
        return std::nullopt; // sliced along two dimensions
      sliced = d;
    }
    if (!sliced || (dim && *dim != *sliced))
      return std::nullopt; // the whole argument, or another dimension
    dim = sliced;
    auto [it, inserted] = cut.ranges.emplace(offsets[*dim], sizes[*dim]);
    if (!inserted && it->second != sizes[*dim])
      return std::nullopt;
  }
  cut.dim = *dim;
  int64_t next = 0;
  for (auto [offset, size] : cut.ranges) {
    if (offset != next)
      return std::nullopt; // a gap or an overlap
    next = offset + size;
  }
  if (next != type.getDimSize(cut.dim) || cut.ranges.size() < 2)
    return std::nullopt;
  return cut;
}

/// Replaces argument `index` of `func` by one argument per range of `cut`,
/// recording `original` as the argument they are pieces of.
void splitArgument(func::FuncOp func, unsigned index, unsigned original,
                   const Cut &cut) {
  BlockArgument arg = func.getArgument(index);
  auto type = cast<RankedTensorType>(arg.getType());
  Builder builder(func.getContext());
  DictionaryAttr attrs = func.getArgAttrDict(index);
  std::map<int64_t, BlockArgument> pieces;
  unsigned position = index + 1;
  for (auto [offset, size] : cut.ranges) {
    SmallVector<int64_t> shape(type.getShape());
    shape[cut.dim] = size;
    NamedAttrList pieceAttrs(attrs);
    pieceAttrs.set(kPiece, builder.getDenseI64ArrayAttr(
                               {static_cast<int64_t>(original),
                                static_cast<int64_t>(cut.dim), offset}));
    (void)func.insertArgument(position, type.clone(shape),
                              pieceAttrs.getDictionary(func.getContext()),
                              arg.getLoc());
    pieces[offset] = func.getArgument(position++);
  }
  for (Operation *user : llvm::make_early_inc_range(arg.getUsers())) {
    auto slice = cast<tensor::ExtractSliceOp>(user);
    slice.getResult().replaceAllUsesWith(
        pieces[slice.getStaticOffsets()[cut.dim]]);
    slice->erase();
  }
  (void)func.eraseArgument(index);
}

struct PPSplitParametersPass
    : mlir::pp::impl::PPSplitParametersPassBase<PPSplitParametersPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    func::FuncOp func = lookupFunction(module, functionName);
    if (!func)
      return signalPassFailure();
    if (func.isExternal()) {
      func.emitError("pp-split-parameters needs a function with a body");
      return signalPassFailure();
    }
    // From the last argument down, so that an argument's index is still its
    // index before the pass when it is split.
    SmallVector<std::pair<unsigned, Cut>> cuts;
    for (unsigned i = func.getNumArguments(); i-- > 0;)
      if (func.getArgAttr(i, kParameter) && !func.getArgAttr(i, kPiece))
        if (std::optional<Cut> cut = cutOf(func.getArgument(i)))
          cuts.emplace_back(i, std::move(*cut));
    if (cuts.empty())
      return;
    if (!SymbolTable::symbolKnownUseEmpty(func, module)) {
      func.emitError("pp-split-parameters changes the signature of @")
          << func.getSymName() << ", which is called";
      return signalPassFailure();
    }
    for (auto &[index, cut] : llvm::reverse(cuts))
      func.emitRemark(llvm::formatv("parameter argument {0} ({1}) split into "
                                    "{2} parameters along dimension {3}",
                                    index, func.getArgument(index).getType(),
                                    cut.ranges.size(), cut.dim)
                          .str());
    // An argument's position before any split: pieces made earlier (by an
    // earlier run) count once per argument they split.
    auto original = [&](unsigned index) {
      unsigned extra = 0;
      for (unsigned i = 0; i < index; ++i)
        if (auto piece = func.getArgAttrOfType<DenseI64ArrayAttr>(i, kPiece);
            piece && piece.size() == 3 && piece[2] != 0)
          ++extra;
      return index - extra;
    };
    for (auto &[index, cut] : cuts)
      splitArgument(func, index, original(index), cut);
  }
};
} // namespace
