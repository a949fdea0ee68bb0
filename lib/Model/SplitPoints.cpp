//===- SplitPoints.cpp - pp-save/restore-split-points ---------------------===//
//
// pp.split_point ("cut after this op", pp-partition) is a discardable
// attribute, and the rewrites of pp-prepare-model (TOSA to linalg, the
// inliner, elementwise to linalg, generalization, canonicalization) replace
// ops without copying such attributes. What they do keep is the location:
// an op made by a rewrite takes the location of the op it replaces (inlined
// ops: a call-site location whose caller is the call's). So
// pp-save-split-points moves each marker into the marked op's location, as
// fused<{pp.split_point = N}>[original location], and
// pp-restore-split-points marks the last top-level op carrying marker N.
//
//===----------------------------------------------------------------------===//

#include "pp/Model/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

#include <map>
#include <set>
#include <vector>

namespace mlir::pp {
#define GEN_PASS_DEF_PPSAVESPLITPOINTSPASS
#define GEN_PASS_DEF_PPRESTORESPLITPOINTSPASS
#include "pp/Model/Passes.h.inc"
} // namespace mlir::pp

using namespace mlir;
using namespace mlir::pp;

namespace {

constexpr llvm::StringLiteral kSplitPoint = "pp.split_point";
/// The module attribute listing the marked ops' original locations.
constexpr llvm::StringLiteral kSavedSplitPoints = "pp.split_points";

/// The marker number N if `loc` is fused<{pp.split_point = N}>[...].
std::optional<int64_t> markerOf(Location loc) {
  auto fused = dyn_cast<FusedLoc>(loc);
  if (!fused)
    return std::nullopt;
  auto dict = dyn_cast_or_null<DictionaryAttr>(fused.getMetadata());
  if (!dict)
    return std::nullopt;
  auto id = dict.getAs<IntegerAttr>(kSplitPoint);
  if (!id)
    return std::nullopt;
  return id.getInt();
}

/// One copy of a marked op: its marker and the call sites it was inlined
/// through (empty if it was not inlined).
using MarkerKey = std::pair<int64_t, std::vector<const void *>>;

/// Calls `found` for every marker in `loc`, with the callers of the
/// call-site locations it is nested in.
void findMarkers(Location loc, std::vector<const void *> &callers,
                 llvm::function_ref<void(const MarkerKey &)> found) {
  if (std::optional<int64_t> id = markerOf(loc))
    found({*id, callers});
  if (auto fused = dyn_cast<FusedLoc>(loc)) {
    for (Location inner : fused.getLocations())
      findMarkers(inner, callers, found);
  } else if (auto site = dyn_cast<CallSiteLoc>(loc)) {
    // A marked callee op: one copy per call site. A marked call: the
    // caller's location marks everything inlined from it.
    callers.push_back(site.getCaller().getAsOpaquePointer());
    findMarkers(site.getCallee(), callers, found);
    callers.pop_back();
    findMarkers(site.getCaller(), callers, found);
  } else if (auto name = dyn_cast<NameLoc>(loc)) {
    findMarkers(name.getChildLoc(), callers, found);
  } else if (auto opaque = dyn_cast<OpaqueLoc>(loc)) {
    findMarkers(opaque.getFallbackLocation(), callers, found);
  }
}

struct PPSaveSplitPointsPass
    : mlir::pp::impl::PPSaveSplitPointsPassBase<PPSaveSplitPointsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = module.getContext();
    SmallVector<Attribute> saved;
    module.walk([&](Operation *op) {
      if (!op->hasAttr(kSplitPoint))
        return;
      auto marker = DictionaryAttr::get(
          ctx, {NamedAttribute(
                   StringAttr::get(ctx, kSplitPoint),
                   IntegerAttr::get(IntegerType::get(ctx, 64), saved.size()))});
      saved.push_back(op->getLoc());
      op->setLoc(FusedLoc::get(ctx, {op->getLoc()}, marker));
      op->removeAttr(kSplitPoint);
    });
    if (!saved.empty())
      module->setAttr(kSavedSplitPoints, ArrayAttr::get(ctx, saved));
  }
};

struct PPRestoreSplitPointsPass
    : mlir::pp::impl::PPRestoreSplitPointsPassBase<PPRestoreSplitPointsPass> {
  void runOnOperation() override;
};

} // namespace

void PPRestoreSplitPointsPass::runOnOperation() {
  ModuleOp module = getOperation();
  auto saved = module->getAttrOfType<ArrayAttr>(kSavedSplitPoints);
  if (!saved)
    return;
  module->removeAttr(kSavedSplitPoints);
  std::set<int64_t> kept;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isExternal())
      continue;
    // The last op of each marked copy, in block order.
    std::map<MarkerKey, Operation *> last;
    for (Region &region : func->getRegions())
      for (Block &block : region)
        for (Operation &op : block) {
          std::vector<const void *> callers;
          findMarkers(op.getLoc(), callers, [&](const MarkerKey &key) {
            last[key] = &op;
            kept.insert(key.first);
          });
        }
    for (auto &entry : last)
      entry.second->setAttr(kSplitPoint, UnitAttr::get(module.getContext()));
  }
  // The markers leave the locations: every fused<{pp.split_point}> is
  // replaced by what it wraps.
  AttrTypeReplacer replacer;
  replacer.addReplacement([](FusedLoc loc) -> std::optional<Location> {
    if (!markerOf(loc))
      return std::nullopt;
    return FusedLoc::get(loc.getLocations(), Attribute(), loc.getContext());
  });
  replacer.recursivelyReplaceElementsIn(module, /*replaceAttrs=*/false,
                                        /*replaceLocs=*/true,
                                        /*replaceTypes=*/false);
  bool lost = false;
  for (auto [id, attr] : llvm::enumerate(saved)) {
    if (kept.count(id))
      continue;
    auto loc = dyn_cast<LocationAttr>(attr);
    mlir::emitError(loc ? Location(loc) : module.getLoc(),
                    "this op's pp.split_point did not survive "
                    "pp-prepare-model: the op was folded away or erased; mark "
                    "the op that makes the value it returned instead");
    lost = true;
  }
  if (lost)
    signalPassFailure();
}
