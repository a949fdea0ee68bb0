//===- GPUTransforms.cpp - the pp-gpu-* steps of the GPU lowering ---------===//
//
// The project's own steps of pp-lower-stages-to-gpu (GPUPipeline.cpp), between
// upstream passes:
// - pp-gpu-convolutions-to-gemm: 2-D convolutions into im2col + a GEMM;
// - pp-gpu-fuse-elementwise: elementwise chains into one linalg.generic;
// - pp-gpu-gemm-to-runtime: contractions on buffers into pprt_gpu_gemm_*
//   calls (cuBLAS in the runtime);
// - pp-gpu-device-memory: every buffer of host code in device memory;
// - pp-gpu-wrap-host-loops: serial host loops into one-thread kernels, and a
//   check that host code no longer touches buffers.
// docs/GPU.md describes the pipeline.
//
//===----------------------------------------------------------------------===//

#include "pp/Dialect/PP/Transforms/Passes.h"

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
#define GEN_PASS_DEF_PPGPUCONVOLUTIONSTOGEMMPASS
#define GEN_PASS_DEF_PPGPUFUSEELEMENTWISEPASS
#define GEN_PASS_DEF_PPGPUSPLITREDUCTIONSPASS
#define GEN_PASS_DEF_PPGPUGEMMTORUNTIMEPASS
#define GEN_PASS_DEF_PPGPUDEVICEMEMORYPASS
#define GEN_PASS_DEF_PPGPUELIDEHOSTWAITSPASS
#define GEN_PASS_DEF_PPGPUWRAPHOSTLOOPSPASS
#include "pp/Dialect/PP/Transforms/Passes.h.inc"
} // namespace mlir::pp

using namespace mlir;

//===----------------------------------------------------------------------===//
// pp-gpu-convolutions-to-gemm
//===----------------------------------------------------------------------===//

namespace {
struct PPGPUConvolutionsToGemmPass
    : mlir::pp::impl::PPGPUConvolutionsToGemmPassBase<
          PPGPUConvolutionsToGemmPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    linalg::populateConvertConv2DToImg2ColPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace

//===----------------------------------------------------------------------===//
// pp-gpu-fuse-elementwise
//===----------------------------------------------------------------------===//

/// Whether `op` is a contraction cuBLAS can take (pp-gpu-gemm-to-runtime
/// decides on buffers; here any contraction is kept as it is).
static bool isContraction(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  return linalgOp && linalg::isaContractionOpInterface(linalgOp);
}

void mlir::pp::makeResultsDistinct(Operation *root) {
  root->walk([](func::ReturnOp ret) {
    OpBuilder b(ret);
    DenseSet<Value> seen;
    for (OpOperand &operand : ret->getOpOperands()) {
      Value v = operand.get();
      auto tensor = dyn_cast<RankedTensorType>(v.getType());
      if (!tensor || seen.insert(v).second)
        continue;
      Value empty = tensor::EmptyOp::create(b, ret.getLoc(), tensor.getShape(),
                                            tensor.getElementType());
      operand.set(
          linalg::CopyOp::create(b, ret.getLoc(), v, empty).getResult(0));
    }
  });
}

namespace {
struct PPGPUFuseElementwisePass
    : mlir::pp::impl::PPGPUFuseElementwisePassBase<PPGPUFuseElementwisePass> {
  void runOnOperation() override {
    func::FuncOp fn = getOperation();
    IRRewriter rewriter(fn.getContext());
    SmallVector<linalg::LinalgOp> named;
    fn.walk([&](linalg::LinalgOp op) {
      // linalg.copy stays: its generic form, an identity, would fold away,
      // and the copies that make a function's results distinct values
      // (buffer-results-to-out-params needs them) would go with it.
      if (!isa<linalg::GenericOp, linalg::CopyOp>(op) &&
          op.hasPureTensorSemantics() && !isContraction(op))
        named.push_back(op);
    });
    for (linalg::LinalgOp op : named) {
      rewriter.setInsertionPoint(op);
      // Ops without a generic form (none among linalg's named ops today)
      // stay as they are.
      (void)linalg::generalizeNamedOp(rewriter, op);
    }

    RewritePatternSet patterns(fn.getContext());
    linalg::populateElementwiseOpsFusionPatterns(
        patterns, [](OpOperand *fused) {
          Operation *producer = fused->get().getDefiningOp();
          return producer && fused->get().hasOneUse() &&
                 !isContraction(fused->getOwner());
        });
    if (failed(applyPatternsGreedily(fn, std::move(patterns))))
      return signalPassFailure();
    // Folding may leave a function returning one value twice (a multiply
    // by one folded away).
    pp::makeResultsDistinct(fn);
  }

};
} // namespace

//===----------------------------------------------------------------------===//
// pp-gpu-split-reductions
//===----------------------------------------------------------------------===//

namespace {
struct PPGPUSplitReductionsPass
    : mlir::pp::impl::PPGPUSplitReductionsPassBase<PPGPUSplitReductionsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (maxRatio < 2) {
      emitError(getOperation().getLoc(), "max-ratio must be at least 2");
      return signalPassFailure();
    }
    SmallVector<linalg::GenericOp> candidates;
    getOperation().walk([&](linalg::GenericOp op) {
      if (op.hasPureTensorSemantics() && op.getNumParallelLoops() == 0 &&
          op.getNumReductionLoops() > 0 && op.getNumDpsInits() == 1 &&
          llvm::all_of(op.getIndexingMapsArray(), [](AffineMap map) {
            return map.isProjectedPermutation();
          }))
        candidates.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::GenericOp op : candidates)
      (void)split(rewriter, op);
  }

  LogicalResult split(IRRewriter &rewriter, linalg::GenericOp op) {
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    int64_t size = 1;
    for (int64_t r : ranges) {
      if (ShapedType::isDynamic(r))
        return failure();
      size *= r;
    }
    int64_t ratio = 0;
    for (int64_t d = std::min<int64_t>(maxRatio, size / 2); d >= 32; --d)
      if (size % d == 0) {
        ratio = d;
        break;
      }
    if (size < minSize || ratio == 0)
      return failure();
    // One reduction dimension first: fold them all, if every operand holds
    // them contiguously and in order.
    linalg::LinalgOp target = op;
    if (op.getNumLoops() > 1) {
      ReassociationIndices all =
          llvm::to_vector(llvm::seq<int64_t>(0, op.getNumLoops()));
      if (!linalg::areDimSequencesPreserved(op.getIndexingMapsArray(), {all}))
        return failure();
      rewriter.setInsertionPoint(op);
      FailureOr<linalg::CollapseResult> collapsed =
          linalg::collapseOpIterationDims(op, {all}, rewriter);
      if (failed(collapsed))
        return failure();
      rewriter.replaceOp(op, collapsed->results);
      target = collapsed->collapsedOp;
    }
    rewriter.setInsertionPoint(target);
    FailureOr<linalg::SplitReductionResult> result = linalg::splitReduction(
        rewriter, target, [&](linalg::LinalgOp) {
          linalg::SplitReductionOptions options;
          options.ratio = ratio;
          options.index = 0;
          options.innerParallel = false;
          return options;
        });
    return success(succeeded(result));
  }
};
} // namespace

//===----------------------------------------------------------------------===//
// pp-gpu-gemm-to-runtime
//===----------------------------------------------------------------------===//

/// Marks runtime functions that enqueue their work on the rank's compute
/// stream, so that the host need not wait for the stream before calling.
static constexpr llvm::StringLiteral kStreamOrdered = "pp.stream_ordered";

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
static FailureOr<MergedDimension>
mergeDimensions(MemRefType type, AffineMap map, ArrayRef<int64_t> strides,
                ArrayRef<unsigned> loops) {
  SmallVector<std::pair<unsigned, unsigned>> dims; // (memref dim, loop)
  for (unsigned loop : loops) {
    std::optional<unsigned> d = dimensionOf(map, loop);
    if (!d || ShapedType::isDynamic(strides[*d]) ||
        type.isDynamicDim(*d))
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
classifyOperand(Value value, AffineMap map, ArrayRef<unsigned> rows,
                ArrayRef<unsigned> cols, std::optional<unsigned> batch,
                bool allowTranspose) {
  auto type = dyn_cast<MemRefType>(value.getType());
  if (!type || map.getNumResults() != type.getRank() ||
      type.getRank() !=
          static_cast<int64_t>(rows.size() + cols.size() + (batch ? 1 : 0)))
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
  if (batch) {
    std::optional<unsigned> b = dimensionOf(map, *batch);
    if (!b || ShapedType::isDynamic(strides[*b]))
      return failure();
    result.batchStride = strides[*b];
  }
  if (c->stride == 1) {
    result.leading = r->stride;
  } else if (r->stride == 1 && allowTranspose) {
    result.transposed = 1;
    result.leading = c->stride;
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
  Value elementBytes = arith::ConstantIndexOp::create(
      b, loc, type.getElementTypeBitWidth() / 8);
  Value offsetBytes =
      arith::MulIOp::create(b, loc, metadata.getOffset(), elementBytes);
  Value address = arith::AddIOp::create(b, loc, aligned, offsetBytes);
  Value asInt =
      arith::IndexCastOp::create(b, loc, b.getI64Type(), address);
  return LLVM::IntToPtrOp::create(b, loc, LLVM::LLVMPointerType::get(b.getContext()),
                                  asInt);
}

/// Rewrites `op` into a pprt_gpu_gemm_* call, or explains why not.
static LogicalResult gemmToRuntime(linalg::LinalgOp op, ModuleOp module,
                                   std::string &why) {
  auto dims = linalg::inferContractionDims(op);
  if (failed(dims) || dims->m.empty() || dims->n.empty() ||
      dims->k.empty() || dims->batch.size() > 1 ||
      op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1) {
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
  SmallVector<unsigned> m(dims->m.begin(), dims->m.end()),
      n(dims->n.begin(), dims->n.end()), k(dims->k.begin(), dims->k.end());
  std::optional<unsigned> batch;
  if (!dims->batch.empty())
    batch = dims->batch[0];
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  // C (m x n) = A (m x k) B (k x n) with A the first input; if C is stored
  // n-major, C^T = B^T A^T: the inputs swap roles (the body's product
  // commutes).
  unsigned first = 0, second = 1;
  if (failed(classifyOperand(op.getDpsInits()[0], maps[2], m, n, batch,
                             false))) {
    std::swap(m, n);
    std::swap(first, second);
  }
  auto a = classifyOperand(op.getDpsInputs()[first], maps[first], m, k, batch,
                           true);
  auto bOp = classifyOperand(op.getDpsInputs()[second], maps[second], k, n,
                             batch, true);
  auto c = classifyOperand(op.getDpsInits()[0], maps[2], m, n, batch, false);
  if (failed(a) || failed(bOp) || failed(c)) {
    why = "an operand's strides are dynamic, its merged GEMM dimensions "
          "are not contiguous, or neither GEMM dimension has unit stride";
    return failure();
  }
  // Merged dimensions must be laid out in the same order by both operands
  // that hold them.
  if (a->rowOrder != c->rowOrder || bOp->colOrder != c->colOrder ||
      a->colOrder != bOp->rowOrder) {
    why = "operands lay out the merged GEMM dimensions in different orders";
    return failure();
  }

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

  std::string name = ("pprt_gpu_gemm_" + suffix).str();
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
    // It enqueues on the compute stream (pp-gpu-elide-host-waits).
    callee->setAttr(kStreamOrdered, UnitAttr::get(module.getContext()));
  }
  func::CallOp::create(b, loc, callee, args);
  op->erase();
  return success();
}

namespace {
struct PPGPUGemmToRuntimePass
    : mlir::pp::impl::PPGPUGemmToRuntimePassBase<PPGPUGemmToRuntimePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<linalg::LinalgOp> contractions;
    module.walk([&](linalg::LinalgOp op) {
      if (op.hasPureBufferSemantics() && isContraction(op) &&
          !op->getParentOfType<gpu::GPUModuleOp>())
        contractions.push_back(op);
    });
    for (linalg::LinalgOp op : contractions) {
      std::string why;
      Location loc = op.getLoc();
      if (failed(gemmToRuntime(op, module, why)))
        emitRemark(loc) << "contraction left to a kernel, not cuBLAS: " << why;
    }
  }
};
} // namespace

//===----------------------------------------------------------------------===//
// pp-gpu-device-memory
//===----------------------------------------------------------------------===//

/// Inserts `gpu.dealloc %buffer` before the return of the function body
/// block holding `op`; fails if `op` is not in that block.
static LogicalResult deallocAtReturn(Operation *op, Value buffer) {
  Block *block = op->getBlock();
  if (!isa<func::FuncOp>(op->getParentOp()) || block->empty() ||
      !isa<func::ReturnOp>(block->getTerminator()))
    return op->emitOpError("is not at the top level of a one-block function; "
                           "pp-gpu-device-memory cannot place its device "
                           "buffer's gpu.dealloc");
  OpBuilder b(block->getTerminator());
  gpu::DeallocOp::create(b, op->getLoc(), TypeRange(), ValueRange(), buffer);
  return success();
}

/// Where the device buffer `dealloc` frees can be freed: right after its
/// last use. Upstream's ownership-based deallocation frees every buffer at
/// the end of its block, so a rank program (one block for the whole step)
/// would hold every buffer of the step at once, and the device pool would
/// need the sum of them instead of the live set the memory plan predicts.
/// A use is any operation in the block that takes the buffer or a value
/// derived from it (views, casts, its address as an index, ...: the
/// closure over results of users), or holds one in a nested region (whose
/// results are derived values too: a region may yield the buffer).
/// Buffers not allocated in the dealloc's block keep the original place.
static Operation *deallocPoint(memref::DeallocOp dealloc) {
  Value buffer = dealloc.getMemref();
  Block *block = dealloc->getBlock();
  Operation *def = buffer.getDefiningOp();
  if (!def || def->getBlock() != block)
    return dealloc;
  Operation *last = def;
  SmallVector<Value> worklist = {buffer};
  DenseSet<Value> seen = {buffer};
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    for (Operation *user : v.getUsers()) {
      if (user == dealloc)
        continue;
      Operation *inBlock = block->findAncestorOpInBlock(*user);
      if (!inBlock)
        return dealloc; // used outside the block: keep the original place
      if (last->isBeforeInBlock(inBlock))
        last = inBlock;
      // A use in a nested region may leave it through a yield: the results
      // of the op in the block that holds it may alias the buffer too.
      for (Operation *op : {user, inBlock})
        for (Value result : op->getResults())
          if (seen.insert(result).second)
            worklist.push_back(result);
    }
  }
  return last->getNextNode();
}

namespace {
struct PPGPUDeviceMemoryPass
    : mlir::pp::impl::PPGPUDeviceMemoryPassBase<PPGPUDeviceMemoryPass> {
  void runOnOperation() override {
    func::FuncOp fn = getOperation();
    if (fn.isExternal())
      return;
    SmallVector<Operation *> ops;
    fn.walk([&](Operation *op) {
      if (isa<memref::AllocOp, memref::AllocaOp, memref::DeallocOp,
              memref::GetGlobalOp, memref::CopyOp>(op))
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      OpBuilder b(op);
      Location loc = op->getLoc();
      // memref.alloc or memref.alloca: the same buffer in device memory.
      auto onDevice = [&](auto hostAlloc) {
        auto device = gpu::AllocOp::create(
            b, loc, hostAlloc.getType(), Type(), ValueRange(),
            hostAlloc.getDynamicSizes(), hostAlloc.getSymbolOperands());
        hostAlloc.replaceAllUsesWith(device.getMemref());
        return device;
      };
      if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
        onDevice(alloc);
      } else if (auto alloca = dyn_cast<memref::AllocaOp>(op)) {
        gpu::AllocOp device = onDevice(alloca);
        if (failed(deallocAtReturn(device, device.getMemref())))
          return signalPassFailure();
      } else if (auto dealloc = dyn_cast<memref::DeallocOp>(op)) {
        b.setInsertionPoint(deallocPoint(dealloc));
        gpu::DeallocOp::create(b, loc, TypeRange(), ValueRange(),
                               dealloc.getMemref());
      } else if (auto global = dyn_cast<memref::GetGlobalOp>(op)) {
        // Constants live in host memory: copy them into a device buffer
        // once per call.
        b.setInsertionPointAfter(global);
        auto device = gpu::AllocOp::create(b, loc, global.getType(), Type(),
                                           ValueRange(), ValueRange(),
                                           ValueRange());
        global.getResult().replaceAllUsesWith(device.getMemref());
        gpu::MemcpyOp::create(b, loc, TypeRange(), ValueRange(),
                              device.getMemref(), global.getResult());
        if (failed(deallocAtReturn(device, device.getMemref())))
          return signalPassFailure();
        continue;
      } else if (auto copy = dyn_cast<memref::CopyOp>(op)) {
        linalg::CopyOp::create(b, loc, copy.getSource(), copy.getTarget());
      }
      op->erase();
    }
  }
};
} // namespace

//===----------------------------------------------------------------------===//
// pp-gpu-elide-host-waits
//===----------------------------------------------------------------------===//

namespace {
struct PPGPUElideHostWaitsPass
    : mlir::pp::impl::PPGPUElideHostWaitsPassBase<PPGPUElideHostWaitsPass> {
  void runOnOperation() override {
    SymbolTableCollection symbols;
    SmallVector<gpu::WaitOp> waits;
    getOperation().walk([&](gpu::WaitOp wait) {
      // A host wait: no token result.
      if (wait.getAsyncToken())
        return;
      auto call = dyn_cast_or_null<func::CallOp>(wait->getNextNode());
      if (!call)
        return;
      auto callee = symbols.lookupNearestSymbolFrom<func::FuncOp>(
          call, call.getCalleeAttr());
      if (callee && callee->hasAttr(kStreamOrdered))
        waits.push_back(wait);
    });
    for (gpu::WaitOp wait : waits)
      wait.erase();
  }
};
} // namespace

//===----------------------------------------------------------------------===//
// pp-gpu-wrap-host-loops
//===----------------------------------------------------------------------===//

/// Whether `op` reads or writes buffer contents on the host: loads, stores,
/// copies, and loops (without results) holding such operations.
static bool touchesBuffers(Operation *op) {
  if (isa<memref::LoadOp, memref::StoreOp, memref::CopyOp>(op))
    return true;
  // Loops and conditionals (any op with regions other than a parallel loop,
  // which gpu-map-parallel-loops maps itself) that access buffers inside.
  if (op->getNumRegions() == 0 || isa<scf::ParallelOp, gpu::LaunchOp>(op))
    return false;
  return op
      ->walk([](Operation *inner) {
        return isa<memref::LoadOp, memref::StoreOp>(inner)
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

/// Scalar arithmetic that may travel into a kernel with the accesses.
static bool isScalarArithmetic(Operation *op) {
  return op->getNumRegions() == 0 && isPure(op) &&
         llvm::all_of(op->getResultTypes(), [](Type t) {
           return t.isIntOrIndexOrFloat();
         });
}

/// Wraps `group` (consecutive operations of one block) in
/// scf.parallel (0 to 1) { scf.parallel (0 to 1) { group } }; `deferred`
/// (frees between the group's operations) move after it.
static void wrapInOneThread(ArrayRef<Operation *> group,
                            ArrayRef<Operation *> deferred) {
  OpBuilder b(group.front());
  Location loc = group.front()->getLoc();
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Block *threadBody = nullptr;
  scf::ParallelOp::create(
      b, loc, ValueRange{zero}, ValueRange{one}, ValueRange{one},
      [&](OpBuilder &outer, Location loc, ValueRange) {
        scf::ParallelOp::create(
            outer, loc, ValueRange{zero}, ValueRange{one}, ValueRange{one},
            [&](OpBuilder &inner, Location, ValueRange) {
              threadBody = inner.getInsertionBlock();
            });
      });
  for (Operation *op : group)
    op->moveBefore(threadBody->getTerminator());
  Operation *wrapper = threadBody->getParentOp()->getParentOp();
  for (Operation *op : llvm::reverse(deferred))
    op->moveAfter(wrapper);
}

namespace {
struct PPGPUWrapHostLoopsPass
    : mlir::pp::impl::PPGPUWrapHostLoopsPassBase<PPGPUWrapHostLoopsPass> {
  void runOnOperation() override {
    func::FuncOp fn = getOperation();
    if (fn.isExternal())
      return;
    for (Block &block : fn.getBody()) {
      // Maximal runs: they start and end with an access and hold only
      // accesses and scalar arithmetic.
      // Frees (gpu.dealloc, placed right after a buffer's last use) inside a
      // run do not end it: they move after it.
      SmallVector<SmallVector<Operation *>> groups, deferredFrees;
      SmallVector<Operation *> current, deferred;
      auto close = [&] {
        while (!current.empty() && !touchesBuffers(current.back()))
          current.pop_back();
        SmallVector<Operation *> inside;
        for (Operation *free : deferred)
          if (!current.empty() && free->isBeforeInBlock(current.back()))
            inside.push_back(free);
        if (!current.empty()) {
          groups.push_back(current);
          deferredFrees.push_back(inside);
        }
        current.clear();
        deferred.clear();
      };
      for (Operation &op : block) {
        if (touchesBuffers(&op))
          current.push_back(&op);
        else if (!current.empty() && isScalarArithmetic(&op))
          current.push_back(&op);
        else if (!current.empty() && isa<gpu::DeallocOp>(op))
          deferred.push_back(&op);
        else
          close();
      }
      close();
      for (auto [run, frees] : llvm::zip(groups, deferredFrees)) {
        // Scalar arithmetic that host code after the run uses and that does
        // not depend on the run's accesses stays on the host, before the
        // kernel; anything else the host uses keeps the run on the host.
        llvm::SmallPtrSet<Operation *, 16> members(run.begin(), run.end());
        auto escapes = [&](Operation *op) {
          return llvm::any_of(op->getUsers(), [&](Operation *user) {
            return !members.contains(block.findAncestorOpInBlock(*user));
          });
        };
        llvm::SmallPtrSet<Operation *, 16> dependsOnAccess, hoist;
        for (Operation *op : run)
          if (touchesBuffers(op) ||
              llvm::any_of(op->getOperands(), [&](Value v) {
                Operation *def = v.getDefiningOp();
                return def && dependsOnAccess.contains(def);
              }))
            dependsOnAccess.insert(op);
        // Users come after their operands: one backward sweep finds the
        // scalars that escape or feed one that is hoisted.
        for (Operation *op : llvm::reverse(run))
          if (!dependsOnAccess.contains(op) &&
              (escapes(op) ||
               llvm::any_of(op->getUsers(), [&](Operation *user) {
                 return hoist.contains(user);
               })))
            hoist.insert(op);
        SmallVector<Operation *> hoisted, group;
        for (Operation *op : run)
          (hoist.contains(op) ? hoisted : group).push_back(op);
        members.clear();
        members.insert(group.begin(), group.end());
        if (llvm::any_of(group, escapes))
          continue;
        for (Operation *op : hoisted)
          op->moveBefore(group.front());
        wrapInOneThread(group, frees);
      }
    }

    // What is left on the host must not touch buffer contents.
    WalkResult result = fn.walk([](Operation *op) {
      if (!isa<memref::LoadOp, memref::StoreOp, memref::CopyOp>(op) ||
          op->getParentOfType<scf::ParallelOp>() ||
          op->getParentOfType<gpu::LaunchOp>())
        return WalkResult::advance();
      op->emitError("host code accesses a buffer, which lives in GPU "
                    "memory, and pp-gpu-wrap-host-loops cannot move it into "
                    "a kernel (host code uses a value computed from buffer "
                    "contents, or the access is inside an op with results)");
      return WalkResult::interrupt();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
