//===- TrainCompile.cpp - step 6a: compile the rank programs --------------===//
//
// Trainer::compilePrograms(): the JIT modules of a training run - the host
// module (reference, initializer, optimizer updates) and the rank programs,
// on the CPU one module per group of ranks compiled in parallel, on a GPU
// one module for it.
//
//===----------------------------------------------------------------------===//

#include "Trainer.h"
#include "pp/Support/Error.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/ThreadPool.h"

#include <chrono>

using namespace mlir;
using namespace mlir::pp::driver;
using namespace mlir::pp::exec;

namespace {
/// One module the JIT compiles: what it keeps of the model, its entries
/// (run through wrappers) and raw entries (looked up), and the result.
struct CompileJob {
  OwningOpRef<ModuleOp> module;
  std::vector<std::string> entries, raw;
  JitOptions options;
  CompileTimes times;
  std::unique_ptr<JitModule> jit;
};
} // namespace

/// Compiles every job, in parallel on `threads` threads when the context
/// may be used from several threads; false if one failed (its diagnostics
/// went to the context).
static bool compileJobs(MLIRContext *context, std::vector<CompileJob> &jobs,
                        unsigned threads, StringRef cacheDir) {
  auto compileOne = [cacheDir](CompileJob &job) {
    job.options.times = &job.times;
    job.options.cacheDir = cacheDir;
    FailureOr<std::unique_ptr<JitModule>> jit =
        JitModule::compile(*job.module, job.entries, job.options, job.raw);
    if (succeeded(jit))
      job.jit = std::move(*jit);
  };
  if (threads <= 1 || jobs.size() <= 1 || !context->isMultithreadingEnabled()) {
    for (CompileJob &job : jobs)
      compileOne(job);
  } else {
    llvm::DefaultThreadPool pool(llvm::hardware_concurrency(threads));
    for (CompileJob &job : jobs)
      pool.async([&job, &compileOne] { compileOne(job); });
    pool.wait();
  }
  return llvm::all_of(jobs,
                      [](const CompileJob &job) { return job.jit != nullptr; });
}

/// Puts the rank programs into `numGroups` modules compiled in parallel:
/// the largest first, each into the group with the least so far (longest
/// processing time first), so that one module is not the whole compile.
/// Returns each rank's group.
static std::vector<size_t> groupRanks(ModuleOp module,
                                      ArrayRef<std::string> rankFunctions,
                                      size_t numGroups) {
  if (numGroups <= 1)
    return std::vector<size_t>(rankFunctions.size(), 0);
  // A rank's weight: the ops of its program and of every function it
  // reaches (what its module compiles).
  SymbolTable symbols(module);
  std::vector<int64_t> weights;
  for (const std::string &name : rankFunctions) {
    int64_t ops = 0;
    for (Operation *symbol : reachableSymbols(symbols, {name}))
      symbol->walk([&](Operation *) { ++ops; });
    weights.push_back(ops);
  }
  std::vector<size_t> order(rankFunctions.size());
  for (size_t r = 0; r < order.size(); ++r)
    order[r] = r;
  llvm::stable_sort(
      order, [&](size_t a, size_t b) { return weights[a] > weights[b]; });
  std::vector<int64_t> load(numGroups, 0);
  std::vector<size_t> groupOf(rankFunctions.size(), 0);
  for (size_t r : order) {
    size_t lightest = 0;
    for (size_t g = 1; g < numGroups; ++g)
      if (load[g] < load[lightest])
        lightest = g;
    groupOf[r] = lightest;
    load[lightest] += weights[r];
  }
  return groupOf;
}

llvm::Error Trainer::compilePrograms() {
  const SessionOptions &so = session.options();
  bool onGPU = so.device != Device::CPU;
  std::vector<std::string> entries;
  if (!model.referenceName.empty() && options.check)
    entries.push_back(model.referenceName);
  if (!model.f32ReferenceName.empty() && options.check)
    entries.push_back(model.f32ReferenceName);
  if (!model.initializerName.empty())
    entries.push_back(model.initializerName);
  progress.phase(
      "compiling " + llvm::Twine(model.rankFunctions.size()) +
      " rank programs" +
      (onGPU ? llvm::Twine(" for ") + deviceName(so.device) : llvm::Twine()));
  auto start = std::chrono::steady_clock::now();
  // Job 0, the host module: the reference, the initializer and the
  // optimizer's update functions (one per parameter type, compiled with the
  // stage code: here for the CPU and for checkUpdate's reference; on a GPU
  // they are compiled for it too, below).
  std::vector<CompileJob> jobs(1);
  {
    FailureOr<OwningOpRef<ModuleOp>> prepared =
        entries.empty()
            ? OwningOpRef<ModuleOp>(ModuleOp::create(module.getLoc()))
            : prepareForExecution(module, entries);
    if (failed(prepared))
      return makeError("preparing the compiled module for the JIT failed");
    jobs[0].module = std::move(*prepared);
  }
  llvm::Expected<std::vector<std::string>> updates =
      addUpdateFunctions(*jobs[0].module, options.optimizer, parameterSpecs());
  if (!updates)
    return updates.takeError();
  jobs[0].entries = entries;
  llvm::append_range(jobs[0].entries, *updates);
  // The emulated GPU runs its GEMMs as loops in k order (it checks the GPU
  // path, not BLAS): its host code, the reference and the initializer then
  // use loops too, so that --check stays bitwise.
  jobs[0].options.blas = so.blas && so.device != Device::CUDAEmulated;
  jobs[0].options.im2col = so.im2col;
  // The rank programs: on the CPU in groups of ranks balanced by size
  // (groupRanks), each group's module with the stage functions its ranks
  // call (ranks share none), compiled in parallel with the host module; on a
  // GPU in one module for it, with the update functions (runUpdateOnDevice
  // calls their C interface).
  unsigned threads = session.coresOfThisProcess();
  size_t numGroups = onGPU ? 1
                           : std::min<size_t>(model.rankFunctions.size(),
                                              std::max<unsigned>(1, threads));
  std::vector<size_t> groupOf =
      groupRanks(module, model.rankFunctions, numGroups);
  for (size_t g = 0; g < numGroups; ++g) {
    CompileJob job;
    for (size_t r = 0; r < model.rankFunctions.size(); ++r)
      if (groupOf[r] == g)
        job.raw.push_back(model.rankFunctions[r]);
    FailureOr<OwningOpRef<ModuleOp>> prepared =
        prepareForExecution(module, job.raw);
    if (failed(prepared))
      return makeError("preparing the rank programs for the JIT failed");
    job.module = std::move(*prepared);
    if (onGPU) {
      llvm::Expected<std::vector<std::string>> deviceUpdates =
          addUpdateFunctions(*job.module, options.optimizer, parameterSpecs());
      if (!deviceUpdates)
        return deviceUpdates.takeError();
      for (const std::string &name : *deviceUpdates)
        job.raw.push_back("_mlir_ciface_" + name);
      job.options.gpuChip = so.chip;
      job.options.gpuEmulate = so.device == Device::CUDAEmulated;
    } else {
      job.options.blas = so.blas;
      job.options.im2col = so.im2col;
    }
    jobs.push_back(std::move(job));
  }
  if (!compileJobs(module.getContext(), jobs, onGPU ? 1 : threads, so.jitCache))
    return makeError(onGPU ? "compiling the rank programs for the GPU failed"
                           : "JIT compilation failed");
  compileSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  for (const CompileJob &job : jobs)
    jitTimes += job.times;
  progress.phase(
      llvm::formatv("compiled {0} modules{1}{6}: MLIR lowering {2:f2} s, LLVM "
                    "IR {3:f2} s, LLVM optimization {4:f2} s, code generation "
                    "{5:f2} s",
                    jobs.size(),
                    !onGPU && threads > 1 && jobs.size() > 1
                        ? llvm::formatv(" on {0} threads (times summed)",
                                        std::min<size_t>(threads, jobs.size()))
                              .str()
                        : std::string(),
                    jitTimes.mlirLowering, jitTimes.llvmTranslation,
                    jitTimes.llvmOptimization, jitTimes.codeGeneration,
                    so.jitCache.empty()
                        ? std::string()
                        : llvm::formatv(", {0} from the JIT cache ({1:f2} s)",
                                        jitTimes.cachedModules,
                                        jitTimes.cacheLookup)
                              .str())
          .str());
  hostJit = std::move(jobs[0].jit);
  for (size_t j = 1; j < jobs.size(); ++j)
    rankJits.push_back(std::move(jobs[j].jit));
  if (onGPU)
    gpuJit = std::move(rankJits.front());
  for (auto [r, name] : llvm::enumerate(model.rankFunctions))
    programs.push_back(reinterpret_cast<RankProgram>(
        (onGPU ? gpuJit : rankJits[groupOf[r]])->lookupRaw(name)));
  return llvm::Error::success();
}
