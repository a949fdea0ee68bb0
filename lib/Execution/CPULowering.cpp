//===- CPULowering.cpp - tensor functions to LLVM for the host JIT --------===//
//
// The CPU half of JitModule::compile: GEMMs to OpenBLAS through the runtime
// (pp-gemm-to-runtime{target=cpu}), register tiles and vectorization of the
// other linalg ops, the loop interchange for locality, the entry wrappers,
// one-shot bufferization and the lowering to the LLVM dialect
// (docs/Execution.md). Apart from the GEMMs, results stay bitwise those of
// plain loop nests: no transformation here reorders the accumulation of
// any output element.
//
//===----------------------------------------------------------------------===//

#include "CPULowering.h"
#include "pp/Support/PassManagerOptions.h"

#include "pp/Conversion/GemmToRuntime.h"
#include "pp/Conversion/HostToLLVM.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotAnalysis.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotModuleBufferize.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"
#include "mlir/Transforms/Passes.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/TargetParser/Host.h"

#include <limits>

using namespace mlir;
using namespace mlir::pp::exec;
using namespace mlir::pp::exec::detail;
using mlir::pp::GemmTarget;
using mlir::pp::isGemmCandidate;
using mlir::pp::lowerGemmsToRuntime;

bool mlir::pp::exec::detail::containsDialect(ModuleOp module, StringRef ns) {
  return module
      .walk([&](Operation *op) {
        return op->getName().getDialectNamespace() == ns
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

/// After lowering, every op must be in the LLVM dialect; the first one that
/// is not gets the error (partial conversions leave unknown ops in place).
static LogicalResult checkLowered(ModuleOp module) {
  Operation *bad = nullptr;
  module.walk([&](Operation *op) {
    if (op == module.getOperation() ||
        op->getName().getDialectNamespace() == "llvm")
      return WalkResult::advance();
    bad = op;
    return WalkResult::interrupt();
  });
  if (!bad)
    return success();
  return bad->emitError()
         << "'" << bad->getName()
         << "' was not lowered to the LLVM dialect: pp-exec lowers linalg, "
            "tensor, bufferization, memref, arith, math, func, scf, affine, "
            "cf, index, ub (and TOSA, converted first)";
}

OpPrintingFlags mlir::pp::exec::detail::exactPrintingFlags() {
  OpPrintingFlags flags;
  flags.elideLargeElementsAttrs(std::numeric_limits<int64_t>::max())
      .elideLargeResourceString(std::numeric_limits<int64_t>::max())
      .enableDebugInfo(false)
      .printGenericOpForm(false)
      .useLocalScope(false)
      .skipRegions(false)
      .assumeVerified(true);
  return flags;
}

/// `op` as a linalg.generic: itself, or generalized in place (named ops).
static FailureOr<linalg::GenericOp> asGeneric(RewriterBase &rewriter,
                                              linalg::LinalgOp op) {
  if (auto generic = dyn_cast<linalg::GenericOp>(op.getOperation()))
    return generic;
  rewriter.setInsertionPoint(op);
  return linalg::generalizeNamedOp(rewriter, op);
}

/// For a linalg op whose innermost loop is a reduction while the output's
/// innermost dimension is a parallel loop that is also the innermost
/// dimension of an input (matmul: (i, j, k) with C[i, j] and B[k, j]),
/// moves that parallel loop innermost ((i, k, j)): contiguous, vectorizable
/// inner loops. Every output element still accumulates over the reduction
/// loops in the same order, so results are bitwise unchanged.
static void interchangeForLocality(ModuleOp module, bool blas) {
  SmallVector<linalg::LinalgOp> candidates;
  module.walk([&](linalg::LinalgOp op) {
    if (!blas || !isGemmCandidate(op))
      candidates.push_back(op);
  });
  IRRewriter rewriter(module.getContext());
  for (linalg::LinalgOp op : candidates) {
    unsigned numLoops = op.getNumLoops();
    if (numLoops < 2 || op.getNumDpsInits() != 1 ||
        !op.hasPureTensorSemantics())
      continue;
    SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
    if (iterators.back() != utils::IteratorType::reduction)
      continue;
    AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
    if (outMap.getNumResults() == 0)
      continue;
    auto last = dyn_cast<AffineDimExpr>(outMap.getResults().back());
    if (!last || iterators[last.getPosition()] != utils::IteratorType::parallel)
      continue;
    unsigned p = last.getPosition();
    bool inputContiguous =
        llvm::any_of(op.getDpsInputOperands(), [&](OpOperand *in) {
          if (!isa<ShapedType>(in->get().getType()))
            return false;
          AffineMap map = op.getMatchingIndexingMap(in);
          if (map.getNumResults() == 0)
            return false;
          auto dim = dyn_cast<AffineDimExpr>(map.getResults().back());
          return dim && dim.getPosition() == p;
        });
    if (!inputContiguous)
      continue;
    SmallVector<unsigned> permutation;
    for (unsigned i = 0; i < numLoops; ++i)
      if (i != p)
        permutation.push_back(i);
    permutation.push_back(p);
    FailureOr<linalg::GenericOp> generic = asGeneric(rewriter, op);
    if (failed(generic))
      continue;
    (void)linalg::interchangeGenericOp(rewriter, *generic, permutation);
  }
}

//===----------------------------------------------------------------------===//
// Tiling and vectorization
//===----------------------------------------------------------------------===//

namespace {
/// The register tile the vectorizing strategy aims for on this host: the
/// output tile is `rows` x (`vectorBytes` / element size) elements, i.e. two
/// native vector registers per row, 2 * `rows` registers in all (half the
/// register file), leaving room for the operands of one reduction step.
struct RegisterTile {
  int64_t vectorBytes;
  int64_t rows;
};
} // namespace

static RegisterTile hostRegisterTile() {
  llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
  if (features.lookup("avx512f"))
    return {128, 8};
  if (features.lookup("avx"))
    return {64, 4};
  return {32, 4};
}

/// The largest divisor of `n` that is at most `limit`, preferring multiples
/// of `multiple` (a native vector length), so that tiles are never partial.
static int64_t tileSizeFor(int64_t n, int64_t limit, int64_t multiple) {
  for (int64_t d = (std::min(n, limit) / multiple) * multiple; d > 1;
       d -= multiple)
    if (n % d == 0)
      return d;
  for (int64_t d = std::min(n, limit); d > 1; --d)
    if (n % d == 0)
      return d;
  return 1;
}

/// Tile sizes (in the op's loop order) for `op`, or failure when the op is
/// not one the strategy vectorizes: a linalg op on statically shaped
/// tensors whose indexing maps are projected permutations (broadcasts
/// allowed), without gathers (`tensor.extract`) or `math.fpowi` in its body,
/// whose outputs all end in the same parallel loop `p` (the vector
/// dimension). `p` gets a tile of about two vector registers, the parallel
/// loop of the outputs' second-to-last dimension `rows` of them, every other
/// loop (all reduction loops included) 1: each vector lane is one output
/// element, and each output element still takes its reduction terms one at
/// a time in the loop nest's order.
static FailureOr<SmallVector<int64_t>> vectorTileSizes(linalg::LinalgOp op,
                                                       RegisterTile tile) {
  if (!op.hasPureTensorSemantics() || op.getNumDpsInits() == 0 ||
      isa<linalg::ConvolutionOpInterface>(op.getOperation()))
    return failure();
  for (Value v : op->getOperands())
    if (auto shaped = dyn_cast<ShapedType>(v.getType());
        shaped && !shaped.hasStaticShape())
      return failure();
  // Gathers, and `math.fpowi`, whose LLVM intrinsic takes a scalar
  // exponent even for vector bases.
  if (op->walk([](Operation *inner) {
          return isa<tensor::ExtractOp, math::FPowIOp>(inner)
                     ? WalkResult::interrupt()
                     : WalkResult::advance();
        }).wasInterrupted())
    return failure();
  // Windows (`d0 * 2 + d2`) and constant indices other than broadcasts stay
  // on the loop path.
  if (!llvm::all_of(op.getIndexingMapsArray(), [](AffineMap map) {
        return map.isProjectedPermutation(/*allowZeroInResults=*/true);
      }))
    return failure();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  std::optional<unsigned> vectorDim, rowDim;
  for (OpOperand &init : op.getDpsInitsMutable()) {
    AffineMap map = op.getMatchingIndexingMap(&init);
    if (map.getNumResults() == 0)
      return failure();
    auto last = dyn_cast<AffineDimExpr>(map.getResults().back());
    if (!last || iterators[last.getPosition()] != utils::IteratorType::parallel)
      return failure();
    if (vectorDim && *vectorDim != last.getPosition())
      return failure();
    vectorDim = last.getPosition();
    if (map.getNumResults() >= 2)
      if (auto row = dyn_cast<AffineDimExpr>(
              map.getResults()[map.getNumResults() - 2]))
        rowDim = row.getPosition();
  }
  // Sub-byte elements (i1 masks) live one per byte in memory but pack
  // into bits in an LLVM vector: a vector load of them reads the wrong
  // bits. Such ops, inputs included, stay scalar loops.
  for (Value v : op->getOperands()) {
    Type t = getElementTypeOrSelf(v.getType());
    if (t.isIntOrFloat() && t.getIntOrFloatBitWidth() % 8 != 0)
      return failure();
  }
  Type elem = getElementTypeOrSelf(op.getDpsInits().front().getType());
  if (!elem.isIntOrFloat() || elem.getIntOrFloatBitWidth() % 8 != 0)
    return failure();
  int64_t elemBytes = elem.getIntOrFloatBitWidth() / 8;
  int64_t width = std::max<int64_t>(tile.vectorBytes / elemBytes, 1);
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<int64_t> sizes(op.getNumLoops(), 1);
  sizes[*vectorDim] =
      tileSizeFor(ranges[*vectorDim], width, std::max<int64_t>(width / 2, 1));
  // Rows and vector width differ: LLVM 22's folder of vector.shape_cast
  // rewrites shape_cast(broadcast(vector<Rx1> to vector<VxRx1>)) to
  // vector<VxR> as broadcast(vector<Rx1> to vector<VxR>), which broadcasts
  // along the other dimension when R == V; a row operand's broadcast (A of
  // a matmul) takes that form, so square tiles would compute wrong values.
  if (rowDim && *rowDim != *vectorDim)
    sizes[*rowDim] = tileSizeFor(
        ranges[*rowDim],
        std::min(tile.rows, std::max<int64_t>(sizes[*vectorDim] - 1, 1)), 1);
  return sizes;
}

/// Whether `op` only permutes its one input into its output (a transpose
/// as tosa-to-linalg writes it: all loops parallel, the body yields the
/// input element).
static bool isPermutationCopy(linalg::GenericOp op) {
  if (op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1 ||
      op.getNumReductionLoops() != 0 || !op.hasPureTensorSemantics())
    return false;
  auto yield = cast<linalg::YieldOp>(op.getBody()->getTerminator());
  if (yield.getNumOperands() != 1 ||
      yield.getOperand(0) != op.getBody()->getArgument(0))
    return false;
  return llvm::all_of(op.getIndexingMapsArray(),
                      [](AffineMap map) { return map.isPermutation(); });
}

/// Folds a transpose that feeds a GEMM into the GEMM's indexing map
/// (upstream elementwise fusion, restricted to that pair), so that the GEMM
/// reads the original operand transposed (pprt_cpu_gemm_*'s transA/transB)
/// instead of a materialized copy: the TOSA models transpose every weight
/// before its projection. Each output element still gets the same products
/// in the same order from OpenBLAS, so the results are unchanged.
static void foldTransposesIntoGemms(ModuleOp module) {
  MLIRContext *ctx = module.getContext();
  RewritePatternSet patterns(ctx);
  linalg::ControlFusionFn control = [](OpOperand *operand) {
    auto producer = operand->get().getDefiningOp<linalg::GenericOp>();
    auto consumer = dyn_cast<linalg::LinalgOp>(operand->getOwner());
    return producer && consumer && isPermutationCopy(producer) &&
           isGemmCandidate(consumer);
  };
  linalg::populateElementwiseOpsFusionPatterns(patterns, control);
  (void)applyPatternsGreedily(module, std::move(patterns));
}

/// Folds a transpose that consumes a GEMM's result into the GEMM's output
/// map: the GEMM writes its result in the transpose's layout (C^T = B^T A^T;
/// pprt_cpu_gemm_* swaps its operands for a C stored n-major), so that no
/// transposed copy is made. Backward-weight functions compute dW^T and
/// transpose it into the parameter's layout. Only a GEMM whose one use is
/// the transpose and whose accumulator is a `linalg.fill` folds (the fill is
/// redone in the new layout). The sums are the same, now in OpenBLAS's
/// order for the swapped product, deterministic as before.
static void foldTransposedGemmResults(ModuleOp module) {
  SmallVector<linalg::GenericOp> transposes;
  module.walk([&](linalg::GenericOp op) {
    if (isPermutationCopy(op))
      transposes.push_back(op);
  });
  IRRewriter rewriter(module.getContext());
  for (linalg::GenericOp transpose : transposes) {
    auto result = dyn_cast<OpResult>(transpose.getDpsInputs()[0]);
    auto gemm = result ? dyn_cast<linalg::LinalgOp>(result.getOwner())
                       : linalg::LinalgOp();
    if (!gemm || !result.hasOneUse() || !gemm.hasPureTensorSemantics() ||
        !isGemmCandidate(gemm))
      continue;
    auto fill = gemm.getDpsInits()[0].getDefiningOp<linalg::FillOp>();
    if (!fill)
      continue;
    // The transpose writes out[psi(x)] = C[phi(x)], so out[y] =
    // C[phi(psi^-1(y))], and the GEMM's element at loop point l (C[o(l)])
    // lands at out[psi(phi^-1(o(l)))].
    AffineMap phi = transpose.getIndexingMapsArray()[0];
    AffineMap psi = transpose.getIndexingMapsArray()[1];
    SmallVector<AffineMap> maps = gemm.getIndexingMapsArray();
    maps.back() = psi.compose(inversePermutation(phi)).compose(maps.back());
    FailureOr<linalg::GenericOp> generalized = asGeneric(rewriter, gemm);
    if (failed(generalized))
      continue;
    linalg::GenericOp generic = *generalized;
    rewriter.setInsertionPoint(transpose);
    Location loc = generic.getLoc();
    Value init =
        linalg::FillOp::create(rewriter, fill.getLoc(), fill.getDpsInputs(),
                               transpose.getDpsInits())
            .getResult(0);
    auto folded = linalg::GenericOp::create(
        rewriter, loc, transpose.getResultTypes(), generic.getDpsInputs(),
        ValueRange{init}, maps, generic.getIteratorTypesArray());
    rewriter.inlineRegionBefore(generic.getRegion(), folded.getRegion(),
                                folded.getRegion().begin());
    rewriter.replaceOp(transpose, folded.getResults());
    rewriter.eraseOp(generic);
    if (fill->use_empty())
      rewriter.eraseOp(fill);
  }
}

/// Tile sizes for a window copy (windowCopyVectorDim): its vector loop gets
/// a tile of about two vector registers, every other loop 1, so that each
/// tile copies one contiguous run.
static FailureOr<SmallVector<int64_t>> windowCopyTileSizes(linalg::LinalgOp op,
                                                           RegisterTile tile) {
  std::optional<unsigned> dim = windowCopyVectorDim(op);
  if (!dim)
    return failure();
  Type elem = getElementTypeOrSelf(op.getDpsInits().front().getType());
  int64_t width = std::max<int64_t>(
      tile.vectorBytes / (elem.getIntOrFloatBitWidth() / 8), 1);
  SmallVector<int64_t> sizes(op.getNumLoops(), 1);
  sizes[*dim] = tileSizeFor(op.getStaticLoopRanges()[*dim], width,
                            std::max<int64_t>(width / 2, 1));
  return sizes;
}

/// Tiles and vectorizes the linalg ops `vectorTileSizes` accepts with
/// upstream transformations: `scf::tileUsingSCF` (parallel tile loops
/// outermost, then the reduction loops in their order, step 1), then
/// `linalg::vectorize` of each tile, whose reduction dimensions all have
/// size 1, so no vector reduction is formed: a matmul tile becomes, per k,
/// a broadcast of A's column times B's row added to the accumulator tile.
/// Slices fold into the vector transfers, unit dimensions are dropped, and
/// the accumulator's read and write are hoisted out of the reduction loops
/// (it stays in registers). Window copies (windowCopyTileSizes) become one
/// vector read and write per tile (vectorizeWindowCopyTile). Ops it does
/// not accept, or whose tile does not vectorize, keep the loop path.
static void tileAndVectorize(ModuleOp module, bool blas) {
  MLIRContext *ctx = module.getContext();
  ctx->loadDialect<vector::VectorDialect, affine::AffineDialect>();
  RegisterTile tile = hostRegisterTile();
  // Each op with its tile sizes, and whether it is a window copy.
  struct Candidate {
    linalg::LinalgOp op;
    SmallVector<int64_t> sizes;
    bool windowCopy;
  };
  SmallVector<Candidate> candidates;
  module.walk([&](linalg::LinalgOp op) {
    // GEMMs go to BLAS whole (pp-gemm-to-runtime after bufferization).
    if (blas && isGemmCandidate(op))
      return;
    if (FailureOr<SmallVector<int64_t>> sizes = windowCopyTileSizes(op, tile);
        succeeded(sizes))
      candidates.push_back({op, *sizes, /*windowCopy=*/true});
    else if (FailureOr<SmallVector<int64_t>> sizes = vectorTileSizes(op, tile);
             succeeded(sizes) && succeeded(linalg::vectorizeOpPrecondition(op)))
      candidates.push_back({op, *sizes, /*windowCopy=*/false});
  });
  if (candidates.empty())
    return;
  IRRewriter rewriter(ctx);
  for (auto &[op, sizes, windowCopy] : candidates) {
    SmallVector<int64_t> order;
    for (auto [i, it] : llvm::enumerate(op.getIteratorTypesArray()))
      if (it == utils::IteratorType::parallel)
        order.push_back(i);
    for (auto [i, it] : llvm::enumerate(op.getIteratorTypesArray()))
      if (it != utils::IteratorType::parallel)
        order.push_back(i);
    scf::SCFTilingOptions options;
    options.setLoopType(scf::SCFTilingOptions::LoopType::ForOp);
    options.setTileSizes(getAsIndexOpFoldResult(ctx, sizes));
    options.setInterchange(order);
    rewriter.setInsertionPoint(op);
    FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
        rewriter, cast<TilingInterface>(op.getOperation()), options);
    if (failed(tiled))
      continue;
    rewriter.replaceOp(op, tiled->replacements);
    for (Operation *tiledOp : tiled->tiledOps) {
      if (windowCopy) {
        (void)vectorizeWindowCopyTile(rewriter, tiledOp);
        continue;
      }
      rewriter.setInsertionPoint(tiledOp);
      FailureOr<linalg::VectorizationResult> vectorized =
          linalg::vectorize(rewriter, tiledOp);
      if (succeeded(vectorized))
        rewriter.replaceOp(tiledOp, vectorized->replacements);
    }
  }

  RewritePatternSet patterns(ctx);
  tensor::populateFoldTensorSubsetIntoVectorTransferPatterns(patterns);
  vector::populateDropUnitDimWithShapeCastPatterns(patterns);
  vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
  vector::populateCastAwayVectorLeadingOneDimPatterns(patterns);
  for (Dialect *dialect : ctx->getLoadedDialects())
    dialect->getCanonicalizationPatterns(patterns);
  for (RegisteredOperationName op : ctx->getRegisteredOperations())
    op.getCanonicalizationPatterns(patterns, ctx);
  (void)applyPatternsGreedily(module, std::move(patterns));

  // Innermost loops first (post-order), so that a hoisted accumulator moves
  // out through every reduction loop.
  SmallVector<scf::ForOp> loops;
  module.walk([&](scf::ForOp loop) { loops.push_back(loop); });
  for (scf::ForOp loop : loops)
    (void)hoistLoopInvariantSubsets(rewriter, loop);
}

/// Adds `__pp_exec_<name>(memref args..., memref outs...)` calling @name on
/// tensors: the arguments are read-only (`restrict`, not writable, so a
/// function that updates an argument in place works on a copy) and each
/// result is materialized in its out buffer.
static void addWrapper(ModuleOp module, func::FuncOp fn) {
  MLIRContext *ctx = module.getContext();
  Location loc = fn.getLoc();
  FunctionType type = fn.getFunctionType();
  SmallVector<Type> params;
  for (Type t : llvm::concat<const Type>(type.getInputs(), type.getResults())) {
    auto tensor = cast<RankedTensorType>(t);
    params.push_back(
        MemRefType::get(tensor.getShape(), tensor.getElementType()));
  }
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  auto wrapper =
      func::FuncOp::create(b, loc, (kWrapperPrefix + fn.getSymName()).str(),
                           FunctionType::get(ctx, params, {}));
  wrapper->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                   UnitAttr::get(ctx));
  Block *entry = wrapper.addEntryBlock();
  b.setInsertionPointToStart(entry);
  SmallVector<Value> tensors;
  for (auto [i, t] : llvm::enumerate(type.getInputs()))
    tensors.push_back(bufferization::ToTensorOp::create(
        b, loc, t, entry->getArgument(i), /*restrict=*/true,
        /*writable=*/false));
  auto call = func::CallOp::create(b, loc, fn, tensors);
  for (auto [i, result] : llvm::enumerate(call.getResults()))
    bufferization::MaterializeInDestinationOp::create(
        b, loc, Type(), result, entry->getArgument(type.getNumInputs() + i),
        /*restrict=*/true, /*writable=*/true);
  func::ReturnOp::create(b, loc);
}

/// Whether `op`, or an op nested in it, has `value` as an operand.
static bool usesValue(Operation *op, Value value) {
  return op
      ->walk([&](Operation *inner) {
        return llvm::is_contained(inner->getOperands(), value)
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

/// In the entry wrappers (addWrapper), after buffer-results-to-out-params:
/// a result that the callee writes into a fresh buffer (its out parameter)
/// which the wrapper then copies whole into its own out argument is
/// written into that argument directly, without the buffer and the copy.
/// The fresh buffer's contents were undefined, the out argument's are
/// overwritten, and the wrapper's buffers are distinct (`restrict`), so the
/// callee computes the same values. A function with large results (a
/// backward-weight function's weight gradients) would otherwise spend as
/// long copying them as computing them.
static void forwardResultsToWrapperOutputs(ModuleOp module) {
  for (auto fn : module.getOps<func::FuncOp>()) {
    if (!fn.getSymName().starts_with(kWrapperPrefix) || fn.isExternal())
      continue;
    Block &entry = fn.getBody().front();
    SmallVector<linalg::CopyOp> copies;
    fn.walk([&](linalg::CopyOp copy) { copies.push_back(copy); });
    for (linalg::CopyOp copy : copies) {
      auto alloc = copy.getInputs()[0].getDefiningOp<memref::AllocOp>();
      auto out = dyn_cast<BlockArgument>(copy.getOutputs()[0]);
      if (!alloc || !out || out.getOwner() != &entry ||
          alloc.getType() != out.getType() || copy->getBlock() != &entry ||
          alloc->getBlock() != &entry)
        continue;
      func::CallOp call;
      bool forwardable = true;
      for (Operation *user : alloc->getUsers()) {
        if (user == copy.getOperation())
          continue;
        auto c = dyn_cast<func::CallOp>(user);
        if (!c || (call && c != call))
          forwardable = false;
        call = c;
      }
      if (!forwardable || !call || call->getBlock() != &entry ||
          !call->isBeforeInBlock(copy))
        continue;
      // The out argument is untouched from the call through the copy.
      for (Operation *op = call; op != copy.getOperation();
           op = op->getNextNode())
        forwardable &= !usesValue(op, out);
      if (!forwardable)
        continue;
      copy->erase();
      alloc->replaceAllUsesWith(ValueRange{out});
      alloc->erase();
    }
  }
}

/// Moves each loop nest at the top of a function's body (a linalg op on
/// buffers, or the loops that tiling made) into a function of its own,
/// called in its place and never inlined, when the function has at least
/// `minNests` of them or is a rank program (compiled without optimization,
/// where a loop would run slowly). A stage function of a real model is hundreds
/// of loop nests in one function, where LLVM's loop passes and scalar evolution
/// take time quadratic in the function's size (ResNet-18 at P=2 compiled
/// for over 4 minutes, 100 s after); one function per nest keeps compile
/// time linear, and step times did not change (LeNet, the decoder layer:
/// docs/Execution.md). Nests that outline to the same function (the same
/// op on the same types) share one. The nests compute exactly what they did
/// (the same loops, the same order of every accumulation): only the call
/// boundary is new. Constants the nest uses are cloned into it, so that trip
/// counts stay known.
static void outlineLoopNests(ModuleOp module, size_t minNests) {
  OpBuilder b(module.getContext());
  SymbolTable symbols(module);
  // The outlined functions by their text with a placeholder name.
  llvm::StringMap<func::FuncOp> distinct;
  for (auto fn : llvm::to_vector(module.getOps<func::FuncOp>())) {
    if (fn.isExternal())
      continue;
    SmallVector<Operation *> nests;
    for (Operation &op : fn.getBody().front())
      if (isa<linalg::LinalgOp, scf::ForOp, affine::AffineForOp>(op))
        nests.push_back(&op);
    if (nests.size() < minNests && !isRankProgram(fn))
      continue;
    for (auto [i, nest] : llvm::enumerate(nests)) {
      llvm::SetVector<Value> used(nest->getOperands().begin(),
                                  nest->getOperands().end());
      getUsedValuesDefinedAbove(nest->getRegions(), used);
      SmallVector<Value> arguments;
      SmallVector<Operation *> constants;
      for (Value v : used) {
        Operation *def = v.getDefiningOp();
        if (def && def->hasTrait<OpTrait::ConstantLike>() &&
            def->getNumOperands() == 0)
          constants.push_back(def);
        else
          arguments.push_back(v);
      }
      b.setInsertionPoint(fn);
      auto outlined = func::FuncOp::create(
          b, nest->getLoc(), "__pp_nest",
          b.getFunctionType(ValueRange(arguments).getTypes(),
                            nest->getResultTypes()));
      outlined.setPrivate();
      outlined->setAttr("passthrough",
                        b.getArrayAttr({b.getStringAttr("noinline")}));
      Block *body = outlined.addEntryBlock();
      b.setInsertionPointToStart(body);
      IRMapping mapping;
      for (auto [v, arg] : llvm::zip_equal(arguments, body->getArguments()))
        mapping.map(v, arg);
      for (Operation *c : constants)
        b.clone(*c, mapping);
      Operation *clone = b.clone(*nest, mapping);
      func::ReturnOp::create(b, nest->getLoc(), clone->getResults());
      // A nest the same as one outlined before (the same op on the same
      // types: repeated layers, the pieces of a split op, F and B sharing
      // an elementwise op) calls that one: compiled once.
      std::string key;
      {
        llvm::raw_string_ostream os(key);
        // Local scope: maps printed in full, not as module-wide aliases.
        outlined->print(os, exactPrintingFlags().useLocalScope());
      }
      auto [known, inserted] = distinct.try_emplace(key, outlined);
      if (inserted) {
        outlined.setSymName((fn.getSymName() + "_nest" + Twine(i)).str());
        symbols.insert(outlined);
      } else {
        outlined.erase();
        outlined = known->second;
      }
      b.setInsertionPoint(nest);
      auto call = func::CallOp::create(b, nest->getLoc(), outlined, arguments);
      nest->replaceAllUsesWith(call.getResults());
      nest->erase();
    }
  }
}

static void buildLoweringPipeline(OpPassManager &pm, bool vectors) {
  // Vector transfers of more than one dimension become 1-D ones (rows of a
  // tile), fully unrolled.
  if (vectors) {
    VectorTransferToSCFOptions toSCF;
    toSCF.enableFullUnroll().setTargetRank(1);
    pm.addNestedPass<func::FuncOp>(createConvertVectorToSCFPass(toSCF));
  }
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToAffineLoopsPass());
  pm.addPass(createLowerAffinePass());
  // No reassociation of floating-point reductions (there are none to begin
  // with: vectorization keeps reductions as scalar loops).
  // Buffers through pprt_memory_alloc / _free (the JIT binds them), which
  // measure each rank's live buffers where they are allocated.
  mlir::pp::buildHostToLLVMPipeline(pm, /*gpu=*/false,
                                    /*genericAllocator=*/true);
}

/// Appends the pprt_cpu_gemm_* calls of `m` whose sizes are constants.
static void collectGemmCalls(ModuleOp m, std::vector<GemmCall> &calls) {
  m.walk([&](func::CallOp call) {
    StringRef callee = call.getCallee();
    if (!callee.starts_with("pprt_cpu_gemm_") || call.getNumOperands() < 6)
      return;
    SmallVector<int64_t, 6> v;
    for (Value operand : call.getOperands().take_front(6)) {
      std::optional<int64_t> c = getConstantIntValue(operand);
      if (!c)
        return;
      v.push_back(*c);
    }
    calls.push_back({callee.ends_with("f64"), v[0], v[1], v[2], v[3], v[4] != 0,
                     v[5] != 0});
  });
}

LogicalResult mlir::pp::exec::detail::lowerForCPU(ModuleOp m,
                                                  ArrayRef<std::string> entries,
                                                  const JitOptions &options) {
  MLIRContext *ctx = m.getContext();
  Location loc = m.getLoc();
  if (!entries.empty())
    if (Operation *first = m.lookupSymbol(entries.front()))
      loc = first->getLoc();
  if (options.blas) {
    foldTransposesIntoGemms(m);
    foldTransposedGemmResults(m);
    // Convolutions to GEMMs on im2col's column matrix (pp-im2col), after
    // the folds above, which rebuild the GEMMs they change without their
    // attributes (pp.gemm_batch).
    if (options.im2col)
      mlir::pp::im2col(m, GemmTarget::CPU);
    mlir::pp::pinGemmBatches(m, GemmTarget::CPU);
  }
  if (options.vectorize)
    tileAndVectorize(m, options.blas);
  if (options.interchange)
    interchangeForLocality(m, options.blas);
  mlir::pp::makeResultsDistinct(m);

  SymbolTable symbols(m);
  for (const std::string &name : entries)
    addWrapper(m, symbols.lookup<func::FuncOp>(name));

  bufferization::OneShotBufferizationOptions bufferization;
  bufferization.bufferizeFunctionBoundaries = true;
  bufferization.setFunctionBoundaryTypeConversion(
      bufferization::LayoutMapOption::IdentityLayoutMap);
  // Copies become linalg.copy, which lowers to loops like everything else.
  bufferization.memCpyFn = [](OpBuilder &b, Location loc, Value from,
                              Value to) {
    linalg::CopyOp::create(b, loc, from, to);
    return success();
  };
  bufferization::BufferizationState state;
  if (failed(bufferization::runOneShotModuleBufferize(m, bufferization, state)))
    return emitError(loc, "bufferization failed");
  // The tile loops carry their output tensor, which bufferizes to a buffer
  // each loop yields unchanged; dropping those iteration arguments keeps the
  // deallocation pipeline from tracking (and testing) ownership per tile.
  if (options.vectorize) {
    RewritePatternSet patterns(ctx);
    scf::ForOp::getCanonicalizationPatterns(patterns, ctx);
    (void)applyPatternsGreedily(m, std::move(patterns));
  }

  // GEMMs (the contractions left untiled above) to OpenBLAS through the
  // runtime; the rest become loops.
  if (options.blas)
    lowerGemmsToRuntime(m, GemmTarget::CPU, /*explain=*/false);
  if (options.gemmCalls)
    collectGemmCalls(m, *options.gemmCalls);

  // Memref results become out parameters (the caller allocates, or the
  // callee's allocation is hoisted into the caller), so that every buffer is
  // freed in the function that allocates it; then each buffer is freed
  // right after its last use, not at the end of its block: a rank program
  // frees F's stash after the backward that reads it last, as the
  // schedule's memory plan assumes (docs/Runtime.md, "Measured memory").
  {
    PassManager outParams(ctx), dealloc(ctx);
    mlir::pp::buildOutParamsPipeline(outParams);
    mlir::pp::buildDeallocationPipeline(dealloc);
    if (failed(outParams.run(m)))
      return failure();
    forwardResultsToWrapperOutputs(m);
    SmallVector<func::FuncOp> detached = detachRankPrograms(m);
    LogicalResult deallocated = dealloc.run(m);
    reattachWithDeallocations(m, detached);
    if (failed(deallocated))
      return failure();
    mlir::pp::moveDeallocsToLastUse(m);
  }
  // After moveDeallocsToLastUse, which assumes that a call's results never
  // alias its operands (an outlined loop that carries a buffer would).
  outlineLoopNests(m, /*minNests=*/2);
  // Then a rank program's steady state becomes a loop (its nests are calls
  // now), so that its size no longer grows with the micro-batches.
  for (auto fn : m.getOps<func::FuncOp>())
    if (isRankProgram(fn))
      mlir::pp::rollRankProgram(fn);
  markRankProgramsUnoptimized(m);
  PassManager pm(ctx);
  pp::applyPassManagerOptions(pm);
  buildLoweringPipeline(pm, options.vectorize || containsDialect(m, "vector"));
  if (failed(pm.run(m)) || failed(checkLowered(m)))
    return failure();
  if (options.printLowered)
    m.print(*options.printLowered);
  return success();
}
