//===- Jit.cpp - lower tensor functions and run them with the JIT ---------===//

#include "pp/Execution/Jit.h"
#include "pp/Support/CacheDirectory.h"
#include "pp/Support/PassManagerOptions.h"

#include "CPULowering.h"
#include "HostJit.h"

#include "pprt/pprt.h"

#include "pp/Conversion/HostToLLVM.h"
#include "pp/GPU/Passes.h"
#include "pp/InitAllDialects.h"
#include "pp/Model/Passes.h"

#include "pp/Dialect/PP/IR/PPDialect.h"
#include "pp/Model/CostModel.h"

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
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"

#include <chrono>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <cstring>
#include <functional>
#include <limits>

using namespace mlir;
using namespace mlir::pp::exec;
using namespace mlir::pp::exec::detail;

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

void mlir::pp::exec::registerExecDialects(DialectRegistry &registry) {
  // The dialects every pp-mlir tool registers (pp/InitAllDialects.h).
  mlir::pp::registerModelDialects(registry);
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

std::optional<ElemKind> mlir::pp::exec::elemKindOf(Type elem) {
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

FailureOr<FunctionSignature> mlir::pp::exec::getSignature(func::FuncOp fn) {
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

llvm::SmallPtrSet<Operation *, 16>
mlir::pp::exec::reachableSymbols(const SymbolTable &symbols,
                                 ArrayRef<std::string> entries) {
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
  return live;
}

/// Erases the functions that no entry reaches through symbol references
/// (calls), so that unrelated functions of the module need not lower.
static void pruneUnreachableFunctions(ModuleOp module,
                                      ArrayRef<std::string> entries) {
  llvm::SmallPtrSet<Operation *, 16> live =
      reachableSymbols(SymbolTable(module), entries);
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

//===----------------------------------------------------------------------===//
// JitModule
//===----------------------------------------------------------------------===//

std::string mlir::pp::exec::defaultJitCacheDir() {
  if (const char *env = std::getenv("PP_JIT_CACHE"))
    return StringRef(env) == "none" ? "" : env;
  return userCachePath("jit");
}

JitModule::~JitModule() = default;

const FunctionSignature *JitModule::signature(StringRef name) const {
  auto it = signatures.find(name);
  return it == signatures.end() ? nullptr : &it->second;
}

FailureOr<OwningOpRef<ModuleOp>>
mlir::pp::exec::prepareForExecution(ModuleOp module,
                                    ArrayRef<std::string> entries) {
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
    mlir::pp::buildTosaToLinalgPipeline(tosa);
    tosa.nest<func::FuncOp>().addPass(createCanonicalizerPass());
    if (failed(tosa.run(m)))
      return emitFailure(emitError(loc, "converting TOSA to linalg failed"));
  }
  if (failed(decomposeAggregatedOps(m)))
    return failure();
  return clone;
}

double mlir::pp::exec::countFlops(ModuleOp module, StringRef entry) {
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

LogicalResult mlir::pp::exec::promoteF32ToF64(ModuleOp module,
                                              std::string &reason) {
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

LogicalResult mlir::pp::exec::lowerForGPU(ModuleOp m, StringRef chip,
                                          bool emulate) {
  PassManager pm(m.getContext());
  pp::applyPassManagerOptions(pm);
  std::string text =
      ("pp-lower-stages-to-gpu{chip=" + chip +
       (emulate ? " emulate=true" : "") + "},pp-lower-gpu-host-to-llvm")
          .str();
  if (failed(parsePassPipeline(text, pm, llvm::errs())))
    return emitError(m.getLoc(), "cannot build ") << text;
  return pm.run(m);
}

using Clock = std::chrono::steady_clock;
static double secondsSince(Clock::time_point since) {
  return std::chrono::duration<double>(Clock::now() - since).count();
}

namespace {
/// The host's JIT target machine builder, and a target machine from it.
struct HostTarget {
  llvm::orc::JITTargetMachineBuilder builder;
  std::unique_ptr<llvm::TargetMachine> machine;
  /// The same target at CodeGenOptLevel::None, for the functions compiled
  /// without optimization (emitObjects).
  std::unique_ptr<llvm::TargetMachine> unoptimized;
};
} // namespace

/// The host's JIT target at `optLevel`.
static FailureOr<HostTarget> hostTarget(Location loc, unsigned optLevel) {
  // Once per process: registering the targets from two compiling threads
  // at once can link the target registry's list into a cycle, where
  // lookupTarget then spins forever.
  static const bool initialized = [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    return true;
  }();
  (void)initialized;
  auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!builder)
    return emitFailure(emitError(loc, "no JIT target for this host: ")
                       << llvm::toString(builder.takeError()));
  builder->setCodeGenOptLevel(optLevel == 0   ? llvm::CodeGenOptLevel::None
                              : optLevel == 1 ? llvm::CodeGenOptLevel::Less
                              : optLevel == 2
                                  ? llvm::CodeGenOptLevel::Default
                                  : llvm::CodeGenOptLevel::Aggressive);
  auto machine = builder->createTargetMachine();
  if (!machine)
    return emitFailure(emitError(loc, "cannot create the JIT target machine: ")
                       << llvm::toString(machine.takeError()));
  llvm::orc::JITTargetMachineBuilder unoptimizedBuilder = *builder;
  unoptimizedBuilder.setCodeGenOptLevel(llvm::CodeGenOptLevel::None);
  // Fast instruction selection selects no call under the large code model
  // (the JIT's on x86-64); position-independent code under the small one
  // calls through the stubs and reads through the GOT that the JIT's
  // linker (RuntimeDyld) builds, wherever the callee lies.
  unoptimizedBuilder.setCodeModel(llvm::CodeModel::Small);
  unoptimizedBuilder.setRelocationModel(llvm::Reloc::PIC_);
  auto unoptimized = unoptimizedBuilder.createTargetMachine();
  if (!unoptimized)
    return emitFailure(emitError(loc, "cannot create the JIT target machine: ")
                       << llvm::toString(unoptimized.takeError()));
  return HostTarget{std::move(*builder), std::move(*machine),
                    std::move(*unoptimized)};
}

FailureOr<std::unique_ptr<JitModule>>
JitModule::compile(ModuleOp m, ArrayRef<std::string> entries,
                   const JitOptions &options,
                   ArrayRef<std::string> rawEntries) {
  keepFreedMemoryMapped();
  // Errors about the whole compilation point at the (first) entry.
  Location loc = entryLoc(m, entries);
  std::unique_ptr<JitModule> jit(new JitModule());
  for (const std::string &name : entries) {
    auto fn = m.lookupSymbol<func::FuncOp>(name);
    if (!fn)
      return emitFailure(emitError(loc, "no function @") << name);
    FailureOr<FunctionSignature> sig = getSignature(fn);
    if (failed(sig))
      return failure();
    jit->signatures[name] = *sig;
  }
  CompileTimes times;
  LogicalResult result =
      options.gpuChip.empty()
          ? jit->compileForHost(m, loc, entries, rawEntries, options, times)
          : jit->compileForGPU(m, loc, entries, rawEntries, options, times);
  if (failed(result))
    return failure();
  if (options.times)
    *options.times += times;
  return jit;
}

LogicalResult JitModule::compileForHost(ModuleOp m, Location loc,
                                        ArrayRef<std::string> entries,
                                        ArrayRef<std::string> rawEntries,
                                        const JitOptions &options,
                                        CompileTimes &times) {
  FailureOr<HostTarget> target = hostTarget(loc, options.optLevel);
  if (failed(target))
    return failure();
  // The cache stores the object alone: a compilation whose side outputs
  // are wanted (the lowered module, the GEMM calls) compiles.
  bool useCache =
      !options.cacheDir.empty() && !options.printLowered && !options.gemmCalls;
  std::string key;
  ObjectFiles objects;
  Clock::time_point phase = Clock::now();
  if (useCache) {
    key = jitCacheKey(m, entries, rawEntries, options, *target->machine);
    objects = readCachedObjects(options.cacheDir, key);
    times.cacheLookup += secondsSince(phase);
  }
  ++times.modules;
  if (!objects.empty()) {
    // Cached objects that parse but do not link (damaged, or written by a
    // compiler the key cannot tell apart) are compiled again.
    phase = Clock::now();
    llvm::Error error =
        link(std::move(objects), target->builder, entries, rawEntries);
    if (!error) {
      ++times.cachedModules;
      times.codeGeneration += secondsSince(phase);
      return success();
    }
    emitWarning(loc, "the JIT cache's entry ")
        << key << " does not link (" << llvm::toString(std::move(error))
        << "); compiling the module again";
    removeCachedObjects(options.cacheDir, key);
  }
  phase = Clock::now();
  if (failed(lowerForCPU(m, entries, options))) // (prints it, if asked)
    return failure();
  times.mlirLowering += secondsSince(phase);
  auto emitted = emitObjects(m, *target->machine, *target->unoptimized, entries,
                             options.optLevel, times);
  if (!emitted)
    return emitFailure(emitError(loc, "JIT compilation failed: ")
                       << llvm::toString(emitted.takeError()));
  objects = std::move(*emitted);
  if (useCache)
    if (llvm::Error error = writeCachedObjects(options.cacheDir, key, objects))
      emitWarning(loc, "not stored in the JIT cache: ")
          << llvm::toString(std::move(error));
  phase = Clock::now();
  if (llvm::Error error = link(std::move(objects), std::move(target->builder),
                               entries, rawEntries))
    return emitFailure(emitError(loc) << llvm::toString(std::move(error)));
  times.codeGeneration += secondsSince(phase);
  return success();
}

llvm::Error JitModule::link(ObjectFiles objects,
                            llvm::orc::JITTargetMachineBuilder builder,
                            ArrayRef<std::string> entries,
                            ArrayRef<std::string> rawEntries) {
  hostJit.reset();
  packedFunctions.clear();
  rawFunctions.clear();
  auto linked =
      linkObjects(std::move(objects), std::move(builder), runtimeSymbols);
  if (!linked)
    return llvm::createStringError("JIT linking failed: " +
                                   llvm::toString(linked.takeError()));
  hostJit = std::move(*linked);
  // Every entry is looked up now: unresolved symbols (a call to a function
  // the module only declares) are reported here, not on the first run.
  auto lookup = [&](StringRef symbol,
                    StringRef name) -> llvm::Expected<void *> {
    auto address = hostJit->lookup(symbol);
    if (!address)
      return llvm::createStringError("JIT linking of @" + name + " failed: " +
                                     llvm::toString(address.takeError()));
    return address->toPtr<void *>();
  };
  for (const std::string &name : entries) {
    llvm::Expected<void *> fn = lookup(packedWrapperName(name), name);
    if (!fn)
      return fn.takeError();
    packedFunctions[name] = reinterpret_cast<PackedFunction>(*fn);
  }
  for (const std::string &name : rawEntries) {
    llvm::Expected<void *> fn = lookup(name, name);
    if (!fn)
      return fn.takeError();
    rawFunctions[name] = *fn;
  }
  return llvm::Error::success();
}

LogicalResult JitModule::compileForGPU(ModuleOp m, Location loc,
                                       ArrayRef<std::string> entries,
                                       ArrayRef<std::string> rawEntries,
                                       const JitOptions &options,
                                       CompileTimes &times) {
  if (!entries.empty())
    return emitFailure(emitError(loc, "a GPU module has raw entries only"));
  Clock::time_point phase = Clock::now();
  if (failed(lowerForGPU(m, options.gpuChip, options.gpuEmulate)))
    return failure();
  if (options.printLowered)
    m.print(*options.printLowered);
  times.mlirLowering += secondsSince(phase);
  ++times.modules;
  FailureOr<HostTarget> target = hostTarget(loc, options.optLevel);
  if (failed(target))
    return failure();
  // MLIR's ExecutionEngine: its module constructors load the kernels
  // (initialize() below), which a bare object linked by LLJIT would not run.
  auto transformer =
      makeOptimizingTransformer(std::min(options.optLevel, 3u),
                                /*sizeLevel=*/0, target->machine.get());
  double optimization = 0;
  // The optimizer runs inside ExecutionEngine::create, after the
  // translation: timed apart. (transformer is a function_ref: the lambda
  // lives until create returns.)
  auto timedTransformer = [&](llvm::Module *module) {
    Clock::time_point start = Clock::now();
    llvm::Error error = transformer(module);
    optimization += secondsSince(start);
    return error;
  };
  ExecutionEngineOptions engineOptions;
  engineOptions.transformer = timedTransformer;
  engineOptions.jitCodeGenOptLevel = target->machine->getOptLevel();
  engineOptions.enableGDBNotificationListener = false;
  engineOptions.enablePerfNotificationListener = false;
  phase = Clock::now();
  auto created =
      ExecutionEngine::create(m, engineOptions, std::move(target->machine));
  times.llvmTranslation += secondsSince(phase) - optimization;
  times.llvmOptimization += optimization;
  if (!created)
    return emitFailure(emitError(loc, "JIT compilation failed: ")
                       << llvm::toString(created.takeError()));
  engine = std::move(*created);
  engine->registerSymbols(runtimeSymbols);
  phase = Clock::now();
  for (const std::string &name : rawEntries) {
    auto fn = engine->lookup(name);
    if (!fn)
      return emitFailure(emitError(loc, "JIT linking of @")
                         << name
                         << " failed: " << llvm::toString(fn.takeError()));
    rawFunctions[name] = *fn;
  }
  // GPU modules load their kernels in global constructors (mgpuModuleLoad*
  // of the CUDA plugin, which must be loaded and have its device open).
  engine->initialize();
  times.codeGeneration += secondsSince(phase);
  return success();
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
  std::vector<const void *> argData;
  for (const HostTensor *arg : args)
    argData.push_back(arg->data());
  std::vector<void *> resultData;
  for (HostTensor &result : results)
    resultData.push_back(result.data());
  return runOnBuffers(name, argData, resultData, microseconds);
}

llvm::Error JitModule::runOnBuffers(StringRef name, ArrayRef<const void *> args,
                                    ArrayRef<void *> results,
                                    double *microseconds) {
  auto it = signatures.find(name);
  if (it == signatures.end())
    return llvm::createStringError("@" + name + " was not compiled");
  const FunctionSignature &sig = it->second;
  if (args.size() != sig.args.size() || results.size() != sig.results.size())
    return llvm::createStringError(
        "@" + name + " takes " + std::to_string(sig.args.size()) +
        " arguments and " + std::to_string(sig.results.size()) +
        " results, got " + std::to_string(args.size()) + " and " +
        std::to_string(results.size()));

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
  for (auto [data, spec] : llvm::zip_equal(args, sig.args))
    addDescriptor(data, spec.shape);
  for (auto [data, spec] : llvm::zip_equal(results, sig.results))
    addDescriptor(data, spec.shape);
  // The packed wrapper takes an array of pointers to the descriptors.
  std::vector<void *> pointers(n);
  for (size_t i = 0; i < n; ++i)
    pointers[i] = descriptors[i].data();
  PackedFunction fn = packedFunctions.lookup(name);
  auto start = std::chrono::steady_clock::now();
  fn(pointers.data());
  auto end = std::chrono::steady_clock::now();
  if (microseconds)
    *microseconds =
        std::chrono::duration<double, std::micro>(end - start).count();
  return llvm::Error::success();
}

double mlir::pp::exec::timeGemmCalls(ArrayRef<GemmCall> calls,
                                     unsigned repetitions) {
  struct Operands {
    std::vector<double> a, b, c; // as bytes for either type
  };
  std::vector<Operands> operands(calls.size());
  for (auto [call, o] : llvm::zip_equal(calls, operands)) {
    size_t scale = call.f64 ? 1 : 2; // doubles hold two floats
    o.a.assign((call.batch * call.m * call.k + scale - 1) / scale + 1, 0.25);
    o.b.assign((call.batch * call.k * call.n + scale - 1) / scale + 1, 0.5);
    o.c.assign((call.batch * call.m * call.n + scale - 1) / scale + 1, 0.0);
  }
  auto runAll = [&] {
    for (auto [call, o] : llvm::zip_equal(calls, operands)) {
      int64_t lda = call.transA ? call.m : call.k;
      int64_t ldb = call.transB ? call.k : call.n;
      int64_t sa = call.m * call.k, sb = call.k * call.n, sc = call.m * call.n;
      if (call.f64)
        pprt_cpu_gemm_f64(call.batch, call.m, call.n, call.k, call.transA,
                          call.transB, o.a.data(), lda, sa, o.b.data(), ldb, sb,
                          o.c.data(), call.n, sc, 1);
      else
        pprt_cpu_gemm_f32(call.batch, call.m, call.n, call.k, call.transA,
                          call.transB, reinterpret_cast<float *>(o.a.data()),
                          lda, sa, reinterpret_cast<float *>(o.b.data()), ldb,
                          sb, reinterpret_cast<float *>(o.c.data()), call.n, sc,
                          1);
    }
  };
  runAll();
  double best = std::numeric_limits<double>::infinity();
  for (unsigned r = 0; r < std::max(1u, repetitions); ++r) {
    auto start = std::chrono::steady_clock::now();
    runAll();
    best = std::min(best, std::chrono::duration<double>(
                              std::chrono::steady_clock::now() - start)
                              .count());
  }
  return best;
}
