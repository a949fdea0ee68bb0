//===- GemmToRuntime.cpp - pp-gemm-to-runtime -----------------------------===//
//
// Contractions on buffers to GEMM calls into the runtime, one calling
// convention for two back ends: OpenBLAS on the CPU (the JIT's lowering,
// lib/Execution/CPULowering.cpp) and cuBLAS on a GPU (pp-lower-stages-to-gpu,
// lib/GPU/Pipelines.cpp). docs/Execution.md and docs/GPU.md.
//
//===----------------------------------------------------------------------===//

#include "pp/Conversion/GemmToRuntime.h"
#include "pp/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::pp {
#define GEN_PASS_DEF_PPGEMMTORUNTIMEPASS
#include "pp/Conversion/Passes.h.inc"
} // namespace mlir::pp

using namespace mlir;
using namespace mlir::pp;

namespace {
/// How one operand of a GEMM is passed: its leading dimension, transpose
/// flag and batch stride, and the order (outer to inner) in which it lays
/// out the loop dimensions merged into each GEMM dimension.
struct GemmOperand {
  Value memref;
  int64_t transposed = 0;
  int64_t leading = 0;
  int64_t batchStride = 0;
  SmallVector<unsigned> rowOrder, colOrder;
};

/// One GEMM dimension of an operand: loop dimensions that the operand lays
/// out contiguously (each outer one's stride is the inner one's times its
/// size), so that they index it as one dimension of stride `stride`.
struct MergedDimension {
  int64_t stride = 0;
  SmallVector<unsigned> order;
};
} // namespace

/// The memref dimension that loop dimension `loop` indexes in `map`, if it
/// is a plain dimension result.
static std::optional<unsigned> dimensionOf(AffineMap map, unsigned loop) {
  for (auto [i, expr] : llvm::enumerate(map.getResults()))
    if (auto d = dyn_cast<AffineDimExpr>(expr); d && d.getPosition() == loop)
      return i;
  return std::nullopt;
}

/// Merges the loop dimensions `loops` of an operand (memref `type`, indexed
/// by `map`, static strides `strides`) into one GEMM dimension: dimensions
/// of size 1 drop out (they index nothing); the others, outer to inner by
/// stride, must be contiguous.
static FailureOr<MergedDimension> mergeDimensions(MemRefType type,
                                                  AffineMap map,
                                                  ArrayRef<int64_t> strides,
                                                  ArrayRef<unsigned> loops) {
  SmallVector<std::pair<unsigned, unsigned>> dims; // (memref dim, loop)
  for (unsigned loop : loops) {
    std::optional<unsigned> d = dimensionOf(map, loop);
    if (!d || ShapedType::isDynamic(strides[*d]) || type.isDynamicDim(*d))
      return failure();
    if (type.getDimSize(*d) != 1 || loops.size() == 1)
      dims.push_back({*d, loop});
  }
  MergedDimension merged;
  if (dims.empty()) {
    // Every dimension has size 1: a GEMM dimension of size 1.
    merged.stride = 1;
    return merged;
  }
  llvm::sort(dims, [&](auto x, auto y) {
    return strides[x.first] != strides[y.first]
               ? strides[x.first] > strides[y.first]
               : x.first < y.first;
  });
  for (size_t i = 0; i + 1 < dims.size(); ++i)
    if (strides[dims[i].first] !=
        strides[dims[i + 1].first] * type.getDimSize(dims[i + 1].first))
      return failure();
  merged.stride = strides[dims.back().first];
  for (auto [d, loop] : dims)
    merged.order.push_back(loop);
  return merged;
}

/// Classifies operand `value` indexed by `map` for row-major GEMM dimensions
/// (rows, cols; each a set of loop dimensions merged into one) and an
/// optional batch dimension: the operand must index exactly those loop
/// dimensions, with static strides, each set laid out contiguously, with
/// unit stride along cols (passed as is) or along rows (passed transposed).
/// `allowTranspose` is false for the output.
static FailureOr<GemmOperand>
classifyOperand(Value value, MemRefType type, AffineMap map,
                ArrayRef<unsigned> rows, ArrayRef<unsigned> cols,
                std::optional<unsigned> batch, bool allowTranspose) {
  // An operand that the batch dimension does not index is the same matrix
  // for every batch (batch stride 0).
  bool batched = batch && dimensionOf(map, *batch);
  if (!type || map.getNumResults() != type.getRank() ||
      type.getRank() !=
          static_cast<int64_t>(rows.size() + cols.size() + (batched ? 1 : 0)))
    return failure();
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)))
    return failure();
  FailureOr<MergedDimension> r = mergeDimensions(type, map, strides, rows);
  FailureOr<MergedDimension> c = mergeDimensions(type, map, strides, cols);
  if (failed(r) || failed(c))
    return failure();
  GemmOperand result;
  result.memref = value;
  result.rowOrder = r->order;
  result.colOrder = c->order;
  if (batched) {
    unsigned b = *dimensionOf(map, *batch);
    if (ShapedType::isDynamic(strides[b]))
      return failure();
    result.batchStride = strides[b];
  }
  // The number of rows and of columns (static: merging checked).
  auto extent = [&](ArrayRef<unsigned> loops) {
    int64_t product = 1;
    for (unsigned loop : loops)
      product *= type.getDimSize(*dimensionOf(map, loop));
    return product;
  };
  if (c->stride == 1) {
    result.leading = r->stride;
    // One row: the leading dimension steps nowhere, but BLAS requires it to
    // be at least the row's length (dimensions of size 1 have any stride).
    if (extent(rows) == 1)
      result.leading = std::max(result.leading, extent(cols));
  } else if (r->stride == 1 && allowTranspose) {
    result.transposed = 1;
    result.leading = c->stride;
    if (extent(cols) == 1)
      result.leading = std::max(result.leading, extent(rows));
  } else {
    return failure();
  }
  return result;
}

/// The address of the first element of `memref` as an !llvm.ptr.
static Value elementPointer(OpBuilder &b, Location loc, Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  Value aligned =
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
  auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, memref);
  Value elementBytes =
      arith::ConstantIndexOp::create(b, loc, type.getElementTypeBitWidth() / 8);
  Value offsetBytes =
      arith::MulIOp::create(b, loc, metadata.getOffset(), elementBytes);
  Value address = arith::AddIOp::create(b, loc, aligned, offsetBytes);
  Value asInt = arith::IndexCastOp::create(b, loc, b.getI64Type(), address);
  return LLVM::IntToPtrOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext()), asInt);
}

namespace {
/// How a contraction maps onto a (batched) GEMM C = A B: its operands as
/// passed, and its loop dimensions by role.
struct GemmPlan {
  GemmOperand a, b, c;
  SmallVector<unsigned> m, n, k;
  std::optional<unsigned> batch;
};
} // namespace

/// Plans `op` as a GEMM with loop dimensions `m`, `n`, `k` and `batch`, its
/// operands (inputs, then output) of memref types `types`, or fails and says
/// why in `why`.
static FailureOr<GemmPlan>
planGemm(linalg::LinalgOp op, ArrayRef<MemRefType> types,
         SmallVector<unsigned> m, SmallVector<unsigned> n,
         SmallVector<unsigned> k, std::optional<unsigned> batch,
         std::string &why) {
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  // C (m x n) = A (m x k) B (k x n) with A the first input; if C is stored
  // n-major, C^T = B^T A^T: the inputs swap roles (the body's product
  // commutes).
  unsigned first = 0, second = 1;
  Value out = op.getDpsInits()[0];
  if (failed(classifyOperand(out, types[2], maps[2], m, n, batch, false))) {
    std::swap(m, n);
    std::swap(first, second);
  }
  auto a = classifyOperand(op.getDpsInputs()[first], types[first], maps[first],
                           m, k, batch, true);
  auto b = classifyOperand(op.getDpsInputs()[second], types[second],
                           maps[second], k, n, batch, true);
  auto c = classifyOperand(out, types[2], maps[2], m, n, batch, false);
  if (failed(a) || failed(b) || failed(c)) {
    why = "an operand's strides are dynamic, its merged GEMM dimensions "
          "are not contiguous, or neither GEMM dimension has unit stride";
    return failure();
  }
  // Merged dimensions must be laid out in the same order by both operands
  // that hold them.
  if (a->rowOrder != c->rowOrder || b->colOrder != c->colOrder ||
      a->colOrder != b->rowOrder) {
    why = "operands lay out the merged GEMM dimensions in different orders";
    return failure();
  }
  return GemmPlan{*a, *b, *c, m, n, k, batch};
}

/// Plans `op` as a GEMM batched over loop dimension `d`, taken out of `m`,
/// `n` or `k` (whichever holds it); fails if that leaves one of them empty,
/// or if `d` is a reduction (in `k`) and `target` cannot accumulate over a
/// batch (the GPU's batched GEMM).
static FailureOr<GemmPlan> planWithBatch(linalg::LinalgOp op,
                                         ArrayRef<MemRefType> types,
                                         SmallVector<unsigned> m,
                                         SmallVector<unsigned> n,
                                         SmallVector<unsigned> k, unsigned d,
                                         GemmTarget target, std::string &why) {
  bool reduction = llvm::is_contained(k, d);
  for (SmallVector<unsigned> *dims : {&m, &n, &k})
    llvm::erase(*dims, d);
  if (m.empty() || n.empty() || k.empty() ||
      (reduction && target == GemmTarget::GPU)) {
    why =
        "loop dimension d" + std::to_string(d) + " cannot be the GEMM's batch";
    return failure();
  }
  return planGemm(op, types, m, n, k, d, why);
}

/// Plans `op` as a GEMM: with the batch dimension linalg infers, or, if it
/// has none and the plain GEMM's merged dimensions are not contiguous, with
/// one of its m, n or k dimensions as the batch (the operand it does not
/// index repeats: batch stride 0), tried in the output's order, then the
/// k dimensions. A k dimension as the batch accumulates the batch's
/// products into one C in order, which only the CPU's sequential batch loop
/// does (pprt_cpu_gemm_*): this is how im2col's convolutions (pp-im2col)
/// become one GEMM per image.
static FailureOr<GemmPlan> planGemm(linalg::LinalgOp op,
                                    ArrayRef<MemRefType> types,
                                    const linalg::ContractionDimensions &dims,
                                    GemmTarget target, std::string &why) {
  SmallVector<unsigned> m(dims.m.begin(), dims.m.end()),
      n(dims.n.begin(), dims.n.end()), k(dims.k.begin(), dims.k.end());
  std::optional<unsigned> batch;
  if (!dims.batch.empty())
    batch = dims.batch[0];
  // A batch chosen before (pinGemmBatches, pp-im2col) stands.
  if (auto fixed = op->getAttrOfType<IntegerAttr>(kGemmBatchAttrName);
      fixed && !batch) {
    if (fixed.getInt() < 0 || fixed.getInt() >= op.getNumLoops())
      return planGemm(op, types, m, n, k, batch, why);
    return planWithBatch(op, types, m, n, k, fixed.getInt(), target, why);
  }
  FailureOr<GemmPlan> plan = planGemm(op, types, m, n, k, batch, why);
  if (succeeded(plan) || batch)
    return plan;
  // The plain GEMM's reason stands if no batch works either.
  std::string ignored;
  SmallVector<unsigned> candidates;
  AffineMap outMap = op.getIndexingMapsArray()[2];
  for (AffineExpr e : outMap.getResults())
    if (auto d = dyn_cast<AffineDimExpr>(e))
      candidates.push_back(d.getPosition());
  candidates.append(k.begin(), k.end());
  for (unsigned d : candidates) {
    plan = planWithBatch(op, types, m, n, k, d, target, ignored);
    if (succeeded(plan))
      return plan;
  }
  return failure();
}

/// Rewrites `op` into a pprt_<target>_gemm_* call, or explains why not.
static LogicalResult gemmToRuntime(linalg::LinalgOp op, ModuleOp module,
                                   GemmTarget target, std::string &why) {
  auto dims = linalg::inferContractionDims(op);
  if (failed(dims) || dims->m.empty() || dims->n.empty() || dims->k.empty() ||
      dims->batch.size() > 1 || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1) {
    why = "not a GEMM: no m, n or k dimension, or more than one batch "
          "dimension";
    return failure();
  }
  Type element = getElementTypeOrSelf(op.getDpsInits()[0].getType());
  for (Value operand : op->getOperands())
    if (getElementTypeOrSelf(operand.getType()) != element) {
      why = "mixed element types";
      return failure();
    }
  StringRef suffix = element.isF32() ? "f32" : element.isF64() ? "f64" : "";
  if (suffix.empty()) {
    why = "element type is neither f32 nor f64";
    return failure();
  }
  SmallVector<MemRefType> memrefs;
  for (Value v : op->getOperands())
    memrefs.push_back(dyn_cast<MemRefType>(v.getType()));
  FailureOr<GemmPlan> plan = planGemm(op, memrefs, *dims, target, why);
  if (failed(plan))
    return failure();
  const GemmOperand *a = &plan->a, *bOp = &plan->b, *c = &plan->c;
  ArrayRef<unsigned> m = plan->m, n = plan->n, k = plan->k;
  std::optional<unsigned> batch = plan->batch;

  OpBuilder b(op);
  Location loc = op.getLoc();
  Type i64 = b.getI64Type();
  auto ptr = LLVM::LLVMPointerType::get(b.getContext());
  llvm::DenseMap<int64_t, Value> constants;
  auto constant = [&](int64_t v) -> Value {
    Value &c = constants[v];
    if (!c)
      c = arith::ConstantIntOp::create(b, loc, i64, v);
    return c;
  };
  // Loop sizes, from the operands that carry them.
  SmallVector<Range> ranges = op.createLoopRanges(b, loc);
  // The size of merged loop dimensions: their product (static here:
  // merging needs static sizes; one dimension may be dynamic).
  auto size = [&](ArrayRef<unsigned> loops) -> Value {
    int64_t product = 1;
    for (unsigned loop : loops) {
      std::optional<int64_t> known = getConstantIntValue(ranges[loop].size);
      if (!known)
        return b.createOrFold<arith::IndexCastOp>(
            loc, i64,
            getValueOrCreateConstantIndexOp(b, loc, ranges[loop].size));
      product *= *known;
    }
    return constant(product);
  };
  SmallVector<Value> args = {batch ? size({*batch}) : constant(1),
                             size(m),
                             size(n),
                             size(k),
                             constant(a->transposed),
                             constant(bOp->transposed)};
  for (const GemmOperand &operand : {*a, *bOp, *c}) {
    args.push_back(elementPointer(b, loc, operand.memref));
    args.push_back(constant(operand.leading));
    args.push_back(constant(operand.batchStride));
  }
  args.push_back(constant(1)); // accumulate: C += A B, as linalg defines it

  std::string name =
      ((target == GemmTarget::GPU ? "pprt_gpu_gemm_" : "pprt_cpu_gemm_") +
       suffix)
          .str();
  SmallVector<Type> types = {i64, i64, i64, i64, i64, i64};
  for (int i = 0; i < 3; ++i)
    types.append({ptr, i64, i64});
  types.push_back(i64);
  auto callee = module.lookupSymbol<func::FuncOp>(name);
  if (!callee) {
    OpBuilder top = OpBuilder::atBlockEnd(module.getBody());
    callee = func::FuncOp::create(top, module.getLoc(), name,
                                  top.getFunctionType(types, {}));
    callee.setPrivate();
    // On a GPU it enqueues on the compute stream (pp-gpu-elide-host-waits).
    if (target == GemmTarget::GPU)
      callee->setAttr(kStreamOrderedAttrName,
                      UnitAttr::get(module.getContext()));
  }
  func::CallOp::create(b, loc, callee, args);
  op->erase();
  return success();
}

bool mlir::pp::isGemmCandidate(linalg::LinalgOp op) {
  if (!linalg::isaContractionOpInterface(op) || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1)
    return false;
  auto dims = linalg::inferContractionDims(op);
  if (failed(dims) || dims->m.empty() || dims->n.empty() || dims->k.empty() ||
      dims->batch.size() > 1)
    return false;
  Type element = getElementTypeOrSelf(op.getDpsInits()[0].getType());
  if (!element.isF32() && !element.isF64())
    return false;
  return llvm::all_of(op->getOperands(), [&](Value v) {
    return getElementTypeOrSelf(v.getType()) == element;
  });
}

void mlir::pp::pinGemmBatches(Operation *root, GemmTarget target) {
  root->walk([&](linalg::LinalgOp op) {
    if (!op.hasPureTensorSemantics() || !isGemmCandidate(op) ||
        op->hasAttr(kGemmBatchAttrName))
      return;
    SmallVector<MemRefType> types;
    for (Value v : op->getOperands()) {
      auto tensor = dyn_cast<RankedTensorType>(v.getType());
      if (!tensor || !tensor.hasStaticShape())
        return;
      types.push_back(
          MemRefType::get(tensor.getShape(), tensor.getElementType()));
    }
    std::string why;
    linalg::ContractionDimensions dims = *linalg::inferContractionDims(op);
    FailureOr<GemmPlan> plan = planGemm(op, types, dims, target, why);
    if (failed(plan))
      return;
    int64_t batch = -1;
    if (plan->batch && dims.batch.empty())
      batch = *plan->batch;
    op->setAttr(kGemmBatchAttrName,
                IntegerAttr::get(IntegerType::get(op.getContext(), 64), batch));
  });
}

void mlir::pp::lowerGemmsToRuntime(Operation *root, GemmTarget target,
                                   bool explain) {
  auto module = dyn_cast<ModuleOp>(root);
  if (!module)
    module = root->getParentOfType<ModuleOp>();
  SmallVector<linalg::LinalgOp> contractions;
  root->walk([&](linalg::LinalgOp op) {
    if (op.hasPureBufferSemantics() && linalg::isaContractionOpInterface(op) &&
        !op->getParentOfType<gpu::GPUModuleOp>())
      contractions.push_back(op);
  });
  for (linalg::LinalgOp op : contractions) {
    std::string why;
    Location loc = op.getLoc();
    if (failed(gemmToRuntime(op, module, target, why)) && explain)
      emitRemark(loc) << "contraction left to "
                      << (target == GemmTarget::GPU ? "a kernel, not cuBLAS"
                                                    : "loops, not BLAS")
                      << ": " << why;
  }
}

namespace {
struct PPGemmToRuntimePass
    : mlir::pp::impl::PPGemmToRuntimePassBase<PPGemmToRuntimePass> {
  using Base::Base;
  void runOnOperation() override {
    if (target != "cpu" && target != "gpu") {
      getOperation().emitError("option 'target' must be cpu or gpu, not '")
          << target << "'";
      return signalPassFailure();
    }
    lowerGemmsToRuntime(getOperation(),
                        target == "cpu" ? GemmTarget::CPU : GemmTarget::GPU);
  }
};
} // namespace
