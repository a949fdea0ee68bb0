//===- Jit.cpp - lower tensor functions and run them with the JIT ---------===//

#include "Jit.h"

#include "pp/Dialect/PP/Transforms/Passes.h"

#include "pp/Dialect/PP/IR/PPDialect.h"
#include "pp/Dialect/PP/Transforms/CostModel.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotAnalysis.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotModuleBufferize.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"
#include "mlir/Transforms/Passes.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/Target/TargetMachine.h"

#include <chrono>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <functional>
#include <limits>
#include <cstring>

using namespace mlir;
using namespace ppexec;

static constexpr llvm::StringLiteral kWrapperPrefix = "__pp_exec_";

/// The location of the first entry function (the module's if none).
static Location entryLoc(ModuleOp m, ArrayRef<std::string> entries) {
  if (!entries.empty())
    if (Operation *first = m.lookupSymbol(entries.front()))
      return first->getLoc();
  return m.getLoc();
}

/// Reports `diag` and fails.
static LogicalResult emitFailure(InFlightDiagnostic &&diag) {
  diag.report();
  return failure();
}

void ppexec::registerExecDialects(DialectRegistry &registry) {
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registry.insert<mlir::pp::PPDialect>();
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  // pp-run --device=cuda compiles rank programs for the GPU.
  mlir::pp::registerGPULoweringDependencies(registry);
}

//===----------------------------------------------------------------------===//
// Signatures
//===----------------------------------------------------------------------===//

/// `type` as MLIR prints it, without the quotes diagnostics add.
static std::string typeStr(Type type) {
  std::string s;
  llvm::raw_string_ostream os(s);
  type.print(os);
  return s;
}

std::optional<ElemKind> ppexec::elemKindOf(Type elem) {
  if (elem.isF32())
    return ElemKind::F32;
  if (elem.isF64())
    return ElemKind::F64;
  if (elem.isSignlessInteger(32))
    return ElemKind::I32;
  if (elem.isSignlessInteger(64))
    return ElemKind::I64;
  return std::nullopt;
}

FailureOr<FunctionSignature> ppexec::getSignature(func::FuncOp fn) {
  FunctionSignature sig;
  sig.name = fn.getSymName().str();
  if (fn.isExternal())
    return fn.emitError() << "@" << sig.name
                          << " is a declaration without a body; pp-exec runs "
                             "functions defined in the module";
  auto convert = [&](Type type, StringRef what,
                     unsigned index) -> FailureOr<TensorSpec> {
    auto tensorType = dyn_cast<RankedTensorType>(type);
    if (!tensorType)
      return fn.emitError()
             << what << " " << index << " of @" << sig.name << " has type "
             << typeStr(type) << "; pp-exec runs functions on ranked tensors";
    if (!tensorType.hasStaticShape())
      return fn.emitError()
             << what << " " << index << " of @" << sig.name << " has type "
             << typeStr(type)
             << " with a dynamic shape; pp-exec needs static shapes";
    if (tensorType.getEncoding())
      return fn.emitError() << what << " " << index << " of @" << sig.name
                            << " has type " << typeStr(type)
                            << " with an encoding, which pp-exec does not run";
    TensorSpec spec;
    if (std::optional<ElemKind> kind = elemKindOf(tensorType.getElementType()))
      spec.kind = *kind;
    else
      return fn.emitError() << what << " " << index << " of @" << sig.name
                            << " has type " << typeStr(type)
                            << "; pp-exec supports the element types f32, f64, "
                            << "i32 and i64";
    spec.shape.assign(tensorType.getShape().begin(),
                      tensorType.getShape().end());
    return spec;
  };
  FunctionType type = fn.getFunctionType();
  for (auto [i, t] : llvm::enumerate(type.getInputs())) {
    FailureOr<TensorSpec> spec = convert(t, "argument", i);
    if (failed(spec))
      return failure();
    sig.args.push_back(*spec);
  }
  if (type.getNumResults() == 0)
    return fn.emitError() << "@" << sig.name
                          << " has no results; pp-exec runs functions that "
                             "return tensors";
  for (auto [i, t] : llvm::enumerate(type.getResults())) {
    FailureOr<TensorSpec> spec = convert(t, "result", i);
    if (failed(spec))
      return failure();
    sig.results.push_back(*spec);
  }
  return sig;
}

//===----------------------------------------------------------------------===//
// Preparing the clone
//===----------------------------------------------------------------------===//

/// Erases the functions that no entry reaches through symbol references
/// (calls), so that unrelated functions of the module need not lower.
static void pruneUnreachableFunctions(ModuleOp module,
                                      ArrayRef<std::string> entries) {
  SymbolTable symbols(module);
  llvm::SmallPtrSet<Operation *, 16> live;
  SmallVector<Operation *> worklist;
  for (const std::string &name : entries)
    if (Operation *op = symbols.lookup(name))
      worklist.push_back(op);
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    if (!live.insert(op).second)
      continue;
    op->walk([&](Operation *nested) {
      for (NamedAttribute attr : nested->getAttrs())
        attr.getValue().walk([&](SymbolRefAttr ref) {
          if (Operation *target = symbols.lookup(ref.getRootReference()))
            worklist.push_back(target);
        });
    });
  }
  for (auto fn : llvm::make_early_inc_range(module.getOps<func::FuncOp>()))
    if (!live.contains(fn))
      fn.erase();
}

/// A function the entries call that the module only declares must come from
/// the process (libc, libm); anything else would fail at JIT link time with
/// a less helpful message.
static LogicalResult checkDeclarations(ModuleOp module) {
  for (auto fn : module.getOps<func::FuncOp>()) {
    if (!fn.isExternal())
      continue;
    if (!llvm::sys::DynamicLibrary::SearchForAddressOfSymbol(
            fn.getSymName().str()))
      return fn.emitError()
             << "@" << fn.getSymName()
             << " is called but only declared: pp-exec runs functions "
                "defined in the module (or in the C and math libraries)";
  }
  return success();
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

static bool containsDialect(ModuleOp module, StringRef ns) {
  return module
      .walk([&](Operation *op) {
        return op->getName().getDialectNamespace() == ns
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

/// Decomposes aggregate linalg ops (linalg.softmax, ...) into the generic ops
/// they stand for, which lower to loops.
static LogicalResult decomposeAggregatedOps(ModuleOp module) {
  SmallVector<linalg::AggregatedOpInterface> ops;
  module.walk([&](linalg::AggregatedOpInterface op) { ops.push_back(op); });
  IRRewriter rewriter(module.getContext());
  for (linalg::AggregatedOpInterface op : ops) {
    rewriter.setInsertionPoint(op);
    FailureOr<SmallVector<Value>> values = op.decomposeOperation(rewriter);
    if (failed(values))
      return op->emitError("pp-exec cannot decompose this op into loops");
    rewriter.replaceOp(op, *values);
  }
  return success();
}

/// For a linalg op whose innermost loop is a reduction while the output's
/// innermost dimension is a parallel loop that is also the innermost
/// dimension of an input (matmul: (i, j, k) with C[i, j] and B[k, j]),
/// moves that parallel loop innermost ((i, k, j)): contiguous, vectorizable
/// inner loops. Every output element still accumulates over the reduction
/// loops in the same order, so results are bitwise unchanged.
static void interchangeForLocality(ModuleOp module) {
  SmallVector<linalg::LinalgOp> candidates;
  module.walk([&](linalg::LinalgOp op) { candidates.push_back(op); });
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
    rewriter.setInsertionPoint(op);
    linalg::GenericOp generic = dyn_cast<linalg::GenericOp>(op.getOperation());
    if (!generic) {
      FailureOr<linalg::GenericOp> generalized =
          linalg::generalizeNamedOp(rewriter, op);
      if (failed(generalized))
        continue;
      generic = *generalized;
    }
    (void)linalg::interchangeGenericOp(rewriter, generic, permutation);
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

/// Tiles and vectorizes the linalg ops `vectorTileSizes` accepts with
/// upstream transformations: `scf::tileUsingSCF` (parallel tile loops
/// outermost, then the reduction loops in their order, step 1), then
/// `linalg::vectorize` of each tile, whose reduction dimensions all have
/// size 1, so no vector reduction is formed: a matmul tile becomes, per k,
/// a broadcast of A's column times B's row added to the accumulator tile.
/// Slices fold into the vector transfers, unit dimensions are dropped, and
/// the accumulator's read and write are hoisted out of the reduction loops
/// (it stays in registers). Ops it does not accept, or whose tile does not
/// vectorize, keep the loop path.
static void tileAndVectorize(ModuleOp module) {
  MLIRContext *ctx = module.getContext();
  ctx->loadDialect<vector::VectorDialect, affine::AffineDialect>();
  RegisterTile tile = hostRegisterTile();
  SmallVector<linalg::LinalgOp> candidates;
  module.walk([&](linalg::LinalgOp op) {
    if (succeeded(vectorTileSizes(op, tile)) &&
        succeeded(linalg::vectorizeOpPrecondition(op)))
      candidates.push_back(op);
  });
  if (candidates.empty())
    return;
  IRRewriter rewriter(ctx);
  for (linalg::LinalgOp op : candidates) {
    SmallVector<int64_t> sizes = *vectorTileSizes(op, tile);
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

static void buildLoweringPipeline(OpPassManager &pm, bool vectors) {
  // Memref results become out parameters (the caller allocates, or the
  // callee's allocation is hoisted into the caller), so that every buffer is
  // freed in the function that allocates it.
  mlir::pp::buildOutParamsAndDeallocationPipeline(pm);
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
  mlir::pp::buildHostToLLVMPipeline(pm, vectors, /*gpu=*/false);
}

//===----------------------------------------------------------------------===//
// Runtime support
//===----------------------------------------------------------------------===//

namespace {
struct UnrankedDescriptor {
  int64_t rank;
  void *descriptor;
};
} // namespace

/// `memrefCopy` as the MemRef-to-LLVM lowering calls it for copies between
/// non-contiguous memrefs (the same contract as mlir_c_runner_utils'), so
/// that pp-exec needs no runtime library.
extern "C" void ppExecMemrefCopy(int64_t elemSize, UnrankedDescriptor *src,
                                 UnrankedDescriptor *dst) {
  int64_t rank = src->rank;
  auto fields = [&](UnrankedDescriptor *d, char *&base, int64_t &offset,
                    int64_t *&sizes, int64_t *&strides) {
    char *raw = static_cast<char *>(d->descriptor);
    std::memcpy(&base, raw + sizeof(void *), sizeof(void *));
    offset = reinterpret_cast<int64_t *>(raw + 2 * sizeof(void *))[0];
    sizes = reinterpret_cast<int64_t *>(raw + 2 * sizeof(void *)) + 1;
    strides = sizes + rank;
  };
  char *srcBase, *dstBase;
  int64_t srcOffset, dstOffset, *sizes, *srcStrides, *dstSizes, *dstStrides;
  fields(src, srcBase, srcOffset, sizes, srcStrides);
  fields(dst, dstBase, dstOffset, dstSizes, dstStrides);
  for (int64_t d = 0; d < rank; ++d)
    if (sizes[d] == 0)
      return;
  SmallVector<int64_t> index(rank, 0);
  while (true) {
    int64_t s = srcOffset, t = dstOffset;
    for (int64_t d = 0; d < rank; ++d) {
      s += index[d] * srcStrides[d];
      t += index[d] * dstStrides[d];
    }
    std::memcpy(dstBase + t * elemSize, srcBase + s * elemSize, elemSize);
    int64_t d = rank - 1;
    for (; d >= 0; --d) {
      if (++index[d] < sizes[d])
        break;
      index[d] = 0;
    }
    if (d < 0)
      return;
  }
}

//===----------------------------------------------------------------------===//
// JitModule
//===----------------------------------------------------------------------===//

JitModule::~JitModule() = default;

const FunctionSignature *JitModule::signature(StringRef name) const {
  auto it = signatures.find(name);
  return it == signatures.end() ? nullptr : &it->second;
}

FailureOr<OwningOpRef<ModuleOp>>
ppexec::prepareForExecution(ModuleOp module, ArrayRef<std::string> entries) {
  MLIRContext *ctx = module.getContext();
  // The dialects whose ops are built here, outside of passes (which load
  // their own).
  ctx->loadDialect<arith::ArithDialect, bufferization::BufferizationDialect,
                   func::FuncDialect, linalg::LinalgDialect,
                   memref::MemRefDialect, scf::SCFDialect,
                   tensor::TensorDialect, LLVM::LLVMDialect>();
  OwningOpRef<ModuleOp> clone(cast<ModuleOp>(module->clone()));
  ModuleOp m = *clone;
  Location loc = entryLoc(m, entries);

  // Pipelines and schedules of the pp dialect describe the functions; only
  // the functions run.
  for (Operation &op : llvm::make_early_inc_range(m.getBody()->getOperations()))
    if (op.getName().getDialectNamespace() ==
        mlir::pp::PPDialect::getDialectNamespace())
      op.erase();
  pruneUnreachableFunctions(m, entries);
  if (failed(checkDeclarations(m)))
    return failure();

  if (containsDialect(m, "tosa")) {
    PassManager tosa(ctx);
    OpPassManager &fpm = tosa.nest<func::FuncOp>();
    fpm.addPass(tosa::createTosaToLinalgNamed());
    fpm.addPass(tosa::createTosaToLinalg());
    fpm.addPass(createTosaToArithPass());
    fpm.addPass(createTosaToTensorPass());
    fpm.addPass(createCanonicalizerPass());
    if (failed(tosa.run(m)))
      return emitFailure(emitError(loc, "converting TOSA to linalg failed"));
  }
  if (failed(decomposeAggregatedOps(m)))
    return failure();
  return clone;
}

double ppexec::countFlops(ModuleOp module, StringRef entry) {
  SymbolTable symbols(module);
  llvm::StringMap<double> memo;
  std::function<double(func::FuncOp)> ofFunction = [&](func::FuncOp fn) {
    auto it = memo.find(fn.getSymName());
    if (it != memo.end())
      return it->second;
    memo[fn.getSymName()] = 0.0; // Recursion counts once.
    double flops = 0.0;
    fn.walk([&](Operation *op) {
      if (auto call = dyn_cast<func::CallOp>(op)) {
        if (auto callee = symbols.lookup<func::FuncOp>(call.getCallee()))
          flops += ofFunction(callee);
        return;
      }
      flops += mlir::pp::flopsOf(op);
    });
    memo[fn.getSymName()] = flops;
    return flops;
  };
  auto fn = symbols.lookup<func::FuncOp>(entry);
  return fn ? ofFunction(fn) : 0.0;
}

LogicalResult ppexec::promoteF32ToF64(ModuleOp module, std::string &reason) {
  MLIRContext *ctx = module.getContext();
  Type f64 = Float64Type::get(ctx);
  bool unsupported = false;
  AttrTypeReplacer replacer;
  replacer.addReplacement([&](FloatType t) -> std::optional<Type> {
    if (t.isF32())
      return f64;
    return std::nullopt;
  });
  replacer.addReplacement(
      [&](FloatAttr a) -> std::optional<std::pair<Attribute, WalkResult>> {
        if (!a.getType().isF32())
          return std::nullopt;
        return std::make_pair(FloatAttr::get(f64, a.getValueAsDouble()),
                              WalkResult::skip());
      });
  replacer.addReplacement(
      [&](DenseFPElementsAttr a)
          -> std::optional<std::pair<Attribute, WalkResult>> {
        if (!a.getElementType().isF32())
          return std::nullopt;
        Attribute converted = a.mapValues(f64, [](const APFloat &v) {
          return APInt::doubleToBits(v.convertToFloat());
        });
        return std::make_pair(converted, WalkResult::skip());
      });
  replacer.addReplacement(
      [&](DenseResourceElementsAttr a) -> std::optional<Attribute> {
        if (a.getElementType().isF32())
          unsupported = true;
        return std::nullopt;
      });
  replacer.recursivelyReplaceElementsIn(module, /*replaceAttrs=*/true,
                                        /*replaceLocs=*/false,
                                        /*replaceTypes=*/true);
  if (unsupported) {
    reason = "it has f32 dense_resource constants";
    return failure();
  }
  // Ops whose meaning depends on f32 (extf/truncf to or from it, bitcasts)
  // no longer verify.
  std::string first;
  ScopedDiagnosticHandler capture(ctx, [&](Diagnostic &diag) {
    if (first.empty() && diag.getSeverity() == DiagnosticSeverity::Error)
      first = diag.str();
    return success();
  });
  if (failed(verify(module))) {
    reason = first.empty() ? "it does not verify with f64" : first;
    return failure();
  }
  return success();
}

/// Compiled functions allocate their intermediate buffers with `malloc` and
/// free them before returning, on every call. glibc serves large blocks with
/// fresh `mmap`s and unmaps them on `free`, so every call page-faults all of
/// its intermediates in again (on a virtual machine that costs more than the
/// arithmetic: a 1536x1536 transpose ran 30x slower). Serve every block from
/// the heap and keep freed memory mapped instead; repeated runs then reuse it.
static void keepFreedMemoryMapped() {
#ifdef __GLIBC__
  static bool done = [] {
    mallopt(M_MMAP_MAX, 0);
    mallopt(M_TRIM_THRESHOLD, std::numeric_limits<int>::max());
    return true;
  }();
  (void)done;
#endif
}

LogicalResult ppexec::lowerForGPU(ModuleOp m, StringRef chip, bool emulate) {
  PassManager pm(m.getContext());
  std::string text = ("pp-lower-stages-to-gpu{chip=" + chip +
                      (emulate ? " emulate=true" : "") +
                      "},pp-lower-gpu-host-to-llvm")
                         .str();
  if (failed(parsePassPipeline(text, pm, llvm::errs())))
    return emitError(m.getLoc(), "cannot build ") << text;
  return pm.run(m);
}

FailureOr<std::unique_ptr<JitModule>>
JitModule::compile(ModuleOp m, ArrayRef<std::string> entries,
                   const JitOptions &options,
                   ArrayRef<std::string> rawEntries) {
  MLIRContext *ctx = m.getContext();
  keepFreedMemoryMapped();
  // Errors about the whole compilation point at the (first) entry.
  Location loc = entryLoc(m, entries);
  std::vector<FunctionSignature> sigs;
  for (const std::string &name : entries) {
    auto fn = m.lookupSymbol<func::FuncOp>(name);
    if (!fn)
      return emitFailure(emitError(loc, "no function @") << name);
    FailureOr<FunctionSignature> sig = getSignature(fn);
    if (failed(sig))
      return failure();
    sigs.push_back(*sig);
  }
  if (!options.gpuChip.empty()) {
    if (!entries.empty())
      return emitFailure(emitError(loc, "a GPU module has raw entries only"));
    if (failed(lowerForGPU(m, options.gpuChip, options.gpuEmulate)))
      return failure();
    if (options.printLowered)
      m.print(*options.printLowered);
  } else {
    if (options.vectorize)
      tileAndVectorize(m);
    if (options.interchange)
      interchangeForLocality(m);
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
      return emitFailure(emitError(loc, "bufferization failed"));
    // The tile loops carry their output tensor, which bufferizes to a buffer
    // each loop yields unchanged; dropping those iteration arguments keeps the
    // deallocation pipeline from tracking (and testing) ownership per tile.
    if (options.vectorize) {
      RewritePatternSet patterns(ctx);
      scf::ForOp::getCanonicalizationPatterns(patterns, ctx);
      (void)applyPatternsGreedily(m, std::move(patterns));
    }

    PassManager pm(ctx);
    buildLoweringPipeline(pm, options.vectorize || containsDialect(m, "vector"));
    if (failed(pm.run(m)) || failed(checkLowered(m)))
      return failure();
    if (options.printLowered)
      m.print(*options.printLowered);
  }

  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  auto tmBuilder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!tmBuilder)
    return emitFailure(emitError(loc, "no JIT target for this host: ")
                       << llvm::toString(tmBuilder.takeError()));
  llvm::CodeGenOptLevel level =
      options.optLevel == 0   ? llvm::CodeGenOptLevel::None
      : options.optLevel == 1 ? llvm::CodeGenOptLevel::Less
      : options.optLevel == 2 ? llvm::CodeGenOptLevel::Default
                              : llvm::CodeGenOptLevel::Aggressive;
  tmBuilder->setCodeGenOptLevel(level);
  auto tm = tmBuilder->createTargetMachine();
  if (!tm)
    return emitFailure(emitError(loc, "cannot create the JIT target machine: ")
                       << llvm::toString(tm.takeError()));
  auto transformer = makeOptimizingTransformer(std::min(options.optLevel, 3u),
                                               /*sizeLevel=*/0, tm->get());
  ExecutionEngineOptions engineOptions;
  engineOptions.transformer = transformer;
  engineOptions.jitCodeGenOptLevel = level;
  engineOptions.enableGDBNotificationListener = false;
  engineOptions.enablePerfNotificationListener = false;
  auto engine = ExecutionEngine::create(m, engineOptions, std::move(*tm));
  if (!engine)
    return emitFailure(emitError(loc, "JIT compilation failed: ")
                       << llvm::toString(engine.takeError()));

  std::unique_ptr<JitModule> jit(new JitModule());
  jit->engine = std::move(*engine);
  jit->engine->registerSymbols([](llvm::orc::MangleAndInterner interner) {
    llvm::orc::SymbolMap map;
    map[interner("memrefCopy")] = {
        llvm::orc::ExecutorAddr::fromPtr(&ppExecMemrefCopy),
        llvm::JITSymbolFlags::Exported};
    return map;
  });
  for (const FunctionSignature &sig : sigs) {
    // Look every wrapper up now: unresolved symbols (a call to a function
    // the module only declares) are reported here, not on the first run.
    std::string name = ("_mlir_ciface_" + kWrapperPrefix + sig.name).str();
    if (auto fn = jit->engine->lookupPacked(name); !fn)
      return emitFailure(emitError(loc, "JIT linking of @")
                         << sig.name
                         << " failed: " << llvm::toString(fn.takeError()));
    jit->signatures[sig.name] = sig;
  }
  for (const std::string &name : rawEntries) {
    auto fn = jit->engine->lookup(name);
    if (!fn)
      return emitFailure(emitError(loc, "JIT linking of @")
                         << name << " failed: " << llvm::toString(fn.takeError()));
    jit->rawFunctions[name] = *fn;
  }
  // GPU modules load their kernels in global constructors (mgpuModuleLoad*
  // of the CUDA plugin, which must be loaded and have its device open).
  if (!options.gpuChip.empty())
    jit->engine->initialize();
  return jit;
}

void *JitModule::lookupRaw(StringRef name) const {
  auto it = rawFunctions.find(name);
  return it == rawFunctions.end() ? nullptr : it->second;
}

llvm::Error JitModule::run(StringRef name, ArrayRef<const HostTensor *> args,
                           std::vector<HostTensor> &results,
                           double *microseconds) {
  auto it = signatures.find(name);
  if (it == signatures.end())
    return llvm::createStringError("@" + name + " was not compiled");
  const FunctionSignature &sig = it->second;
  if (args.size() != sig.args.size())
    return llvm::createStringError(
        "@" + name + " takes " + std::to_string(sig.args.size()) +
        " arguments, got " + std::to_string(args.size()));
  for (auto [i, arg] : llvm::enumerate(args))
    if (arg->spec() != sig.args[i])
      return llvm::createStringError("argument " + std::to_string(i) + " of @" +
                                     name + " must be " + sig.args[i].str() +
                                     ", got " + arg->spec().str());
  results.clear();
  for (const TensorSpec &spec : sig.results)
    results.emplace_back(spec);

  // One strided memref descriptor per argument, then per result:
  // {allocated, aligned, offset, sizes[rank], strides[rank]}.
  size_t n = args.size() + results.size();
  std::vector<std::vector<int64_t>> descriptors;
  descriptors.reserve(n);
  auto addDescriptor = [&](const void *data, ArrayRef<int64_t> shape) {
    std::vector<int64_t> d(3 + 2 * shape.size());
    int64_t ptr = static_cast<int64_t>(reinterpret_cast<intptr_t>(data));
    d[0] = d[1] = ptr;
    d[2] = 0;
    int64_t stride = 1;
    for (size_t k = shape.size(); k-- > 0;) {
      d[3 + k] = shape[k];
      d[3 + shape.size() + k] = stride;
      stride *= shape[k];
    }
    descriptors.push_back(std::move(d));
  };
  for (const HostTensor *arg : args)
    addDescriptor(arg->data(), arg->shape());
  for (HostTensor &result : results)
    addDescriptor(result.data(), result.shape());
  // The C interface takes a pointer to each descriptor; the packed form
  // takes a pointer to each of those pointers.
  std::vector<void *> pointers(n), packed(n);
  for (size_t i = 0; i < n; ++i) {
    pointers[i] = descriptors[i].data();
    packed[i] = &pointers[i];
  }
  // Look the function up first so that a timed call is the compiled code
  // alone.
  auto fn =
      engine->lookupPacked(("_mlir_ciface_" + kWrapperPrefix + name).str());
  if (!fn)
    return fn.takeError();
  auto start = std::chrono::steady_clock::now();
  (*fn)(packed.data());
  auto end = std::chrono::steady_clock::now();
  if (microseconds)
    *microseconds =
        std::chrono::duration<double, std::micro>(end - start).count();
  return llvm::Error::success();
}
