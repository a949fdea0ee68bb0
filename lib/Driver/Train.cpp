//===- Train.cpp - step 6: train the compiled rank programs ---------------===//

#include "Trainer.h"
#include "pp/Support/Error.h"

#include "pp/Driver/ParameterInit.h"
#include "pp/Execution/Npy.h"
#include "pprt/Cuda.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <set>

using namespace mlir;
using namespace mlir::pp::driver;
using namespace mlir::pp::exec;

static std::string printfString(const char *format, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}

static std::vector<char> bytesOf(const HostTensor &t) {
  const char *p = static_cast<const char *>(t.data());
  return std::vector<char>(p, p + t.byteSize());
}

static pprt_dtype dtypeOf(ElemKind kind) {
  return kind == ElemKind::F64 ? PPRT_F64 : PPRT_F32;
}

/// A synthetic parameter drawn by `rule` (ParameterInit.h), seeded by the
/// seed and the argument index.
static HostTensor initialParameter(const TensorSpec &spec, uint64_t seed,
                                   uint64_t index, const InitRule &rule) {
  HostTensor t(spec);
  if (!isFloat(spec.kind) || rule.kind == InitRule::Zero)
    return t;
  if (rule.kind == InitRule::One) {
    for (int64_t i = 0; i < t.size(); ++i)
      t.set(i, 1.0);
    return t;
  }
  SplitMix64 rng(seed * 1000003u + 17 * index + 1);
  fillRandom(t, rng);
  if (rule.kind == InitRule::FanIn) {
    double a = 1.0 / std::sqrt(static_cast<double>(rule.fanIn));
    for (int64_t i = 0; i < t.size(); ++i)
      t.set(i, t.get(i) * a);
  }
  return t;
}

/// Synthetic data: argument `arg` of micro-batch `mb`. The same M
/// micro-batches every step (one fixed batch), so that training fits them
/// and the loss falls.
HostTensor Trainer::syntheticData(const TensorSpec &spec, int mb,
                                  unsigned arg) const {
  HostTensor t(spec);
  arg = model.argumentOrigins[arg].argument; // as prepared
  SplitMix64 rng((options.seed * 104729u + mb) * 131u + arg + 2);
  fillRandom(t, rng);
  return t;
}

std::string Trainer::argumentName(unsigned arg) const {
  const CompiledModel::ArgumentOrigin &from = model.argumentOrigins[arg];
  std::string name = "argument " + std::to_string(from.argument);
  if (from.dim >= 0)
    name += " (the piece at " + std::to_string(from.offset) +
            " along dimension " + std::to_string(from.dim) + ")";
  return name;
}

Trainer::Trainer(ModuleOp module, const CompiledModel &model, Session &session,
                 const TrainOptions &options, Progress &progress,
                 llvm::raw_ostream &out)
    : module(module), model(model), session(session), options(options),
      learningRates{options.learningRateSchedule, options.learningRate,
                    options.minLearningRate, options.warmupSteps,
                    options.steps},
      progress(progress), out(out), leader(session.leader()),
      numStages(model.pipeline.numStages()),
      numMicrobatches(session.options().numMicrobatches *
                      session.options().dataParallel),
      replicas(session.options().dataParallel) {
  std::vector<int> local = session.world().localPipelineRanks();
  for (int s = 0; s < numStages; ++s)
    for (auto [k, a] : llvm::enumerate(model.stageParameters[s])) {
      firstUse.emplace(a, std::make_pair(s, static_cast<int>(k)));
      if (llvm::is_contained(local, model.pipeline.rankOf(s)))
        localUses[a].emplace_back(s, static_cast<int>(k));
    }
}

std::vector<TensorSpec> Trainer::parameterSpecs() const {
  std::vector<TensorSpec> specs;
  for (unsigned a : model.parameterArgs)
    specs.push_back(model.argumentSpecs[a]);
  return specs;
}

llvm::Error Trainer::loadInputFiles() {
  std::vector<unsigned> dataArgs;
  for (unsigned a = 0; a < model.argumentSpecs.size(); ++a)
    if (!llvm::is_contained(model.parameterArgs, a))
      dataArgs.push_back(a);
  if (options.inputFiles.size() > dataArgs.size())
    return makeError("--inputs names " +
                     llvm::Twine(options.inputFiles.size()) + " files, but @" +
                     model.lossName + " has " + llvm::Twine(dataArgs.size()) +
                     " data arguments");
  for (auto [i, path] : llvm::enumerate(options.inputFiles)) {
    if (path.empty())
      continue;
    unsigned a = dataArgs[i];
    llvm::Expected<HostTensor> t = readNpy(path);
    if (!t)
      return makeError("--inputs: " + llvm::toString(t.takeError()));
    const TensorSpec &spec = model.argumentSpecs[a];
    TensorSpec expected = spec;
    expected.shape.insert(expected.shape.begin(), numMicrobatches);
    if (t->spec() != expected)
      return makeError(
          "--inputs: " + path + " holds " + elemKindName(t->kind()) + " " +
          t->spec().shapeStr() + ", but data argument " +
          llvm::Twine(model.argumentOrigins[a].argument) + " of @" +
          model.lossName + " takes " + spec.str() +
          " per micro-batch: expected " + elemKindName(expected.kind) + " " +
          expected.shapeStr() + " for " + llvm::Twine(numMicrobatches) +
          " micro-batches " + microbatchesOrigin());
    dataFiles.emplace(a, std::move(*t));
  }
  return llvm::Error::success();
}

llvm::Error Trainer::initializeParameters() {
  // In the terms of the loss function as prepared (before split ops made
  // pieces of some parameters, CompiledModel::ArgumentOrigin): synthetic
  // (ParameterInit.h), then the model's own values of lifted weights, then
  // --initial-parameters. Then every piece gets its slice.
  const auto &prepared = model.preparedParameters;
  if (options.initialParameterFiles.size() > prepared.size())
    return makeError("--initial-parameters names " +
                     llvm::Twine(options.initialParameterFiles.size()) +
                     " files, but @" + model.lossName + " has " +
                     llvm::Twine(prepared.size()) + " parameters");
  auto lossFn = module.lookupSymbol<func::FuncOp>(model.lossName);
  // The argument that holds a prepared parameter (its first piece): the
  // initialization rule follows its uses.
  std::map<unsigned, unsigned> holder;
  for (unsigned a : model.parameterArgs)
    holder.emplace(model.argumentOrigins[a].argument, a);
  // Values and where each came from, by argument as prepared.
  std::map<unsigned, HostTensor> values;
  std::map<unsigned, std::string> origin;
  for (const auto &[a, spec] : prepared) {
    InitRule rule = initRuleFor(lossFn, holder[a]);
    values[a] = initialParameter(spec, options.seed, a, rule);
    origin[a] = rule.str();
  }
  if (!model.initializerName.empty()) {
    std::vector<HostTensor> lifted;
    if (llvm::Error e = hostJit->run(model.initializerName, {}, lifted))
      return makeError("@" + model.initializerName +
                       " failed: " + llvm::toString(std::move(e)));
    for (auto [k, value] : llvm::enumerate(lifted)) {
      unsigned a = model.firstLifted + k;
      if (!values.count(a) || value.spec() != values[a].spec())
        return makeError("@" + model.initializerName + " result " +
                         llvm::Twine(k) +
                         " does not match parameter argument " +
                         llvm::Twine(a) + " of @" + model.lossName);
      values[a] = std::move(value);
      origin[a] = "the model's constant";
    }
  }
  for (auto [k, path] : llvm::enumerate(options.initialParameterFiles)) {
    if (path.empty())
      continue;
    const auto &[a, spec] = prepared[k];
    llvm::Expected<HostTensor> t = readNpy(path);
    if (!t)
      return makeError("--initial-parameters: " +
                       llvm::toString(t.takeError()));
    if (t->spec() != spec)
      return makeError("--initial-parameters: " + path + " holds " +
                       elemKindName(t->kind()) + " " + t->spec().shapeStr() +
                       ", but parameter argument " + llvm::Twine(a) + " of @" +
                       model.lossName + " is " + spec.str());
    values[a] = std::move(*t);
    origin[a] = path;
  }
  if (!options.resumeDirectory.empty())
    if (llvm::Error e = resumeFrom(values, origin))
      return e;
  std::string text;
  for (const auto &[a, spec] : prepared) {
    if (int64_t i = firstNonFinite(values[a]); i >= 0)
      return makeError("the initial value of parameter argument " +
                       llvm::Twine(a) + " (" + origin[a] +
                       ") is not finite at " + values[a].indexStr(i) + " (" +
                       formatDouble(values[a].get(i)) + ")");
    text += (text.empty() ? "" : ", ") + std::string("argument ") +
            std::to_string(a) + ": " + origin[a];
  }
  progress.phase("initial parameters: " + text);
  for (unsigned a : model.parameterArgs) {
    const CompiledModel::ArgumentOrigin &from = model.argumentOrigins[a];
    const HostTensor &whole = values[from.argument];
    parameters[a] = from.dim < 0
                        ? whole
                        : sliceAlong(whole, from.dim, from.offset,
                                     model.argumentSpecs[a].shape[from.dim]);
  }
  // Shared parameters first: then every use on a rank sets that rank's one
  // copy.
  for (const CompiledModel::SharedParameter &shared : model.sharedParameters) {
    std::vector<pprt::ParameterUse> uses;
    for (auto [s, k] : shared.uses)
      uses.push_back({model.pipeline.rankOf(s), s, k});
    std::string message;
    if (!session.world().shareParameter(uses, message))
      return makeError("shared parameter " + argumentName(shared.argument) +
                       ": " + message);
  }
  for (int s = 0; s < numStages; ++s)
    for (auto [k, a] : llvm::enumerate(model.stageParameters[s]))
      session.world().setParameter(
          s, k, {bytesOf(parameters[a]), dtypeOf(model.argumentSpecs[a].kind)});
  return llvm::Error::success();
}

llvm::Error Trainer::openDevicePools() {
  pprt::cuda::Device *gpu = session.gpu();
  if (!gpu)
    return llvm::Error::success();
  // Device memory of each local rank: the schedule's memory plan (the
  // stash peak pp-simulate predicts, counted under HoldDuringBackward, which
  // bounds the convert plan from above: B's new weight stash is live
  // together with F's whole stash until B returns), the rank's parameters
  // three times (values, gradients, a copy in flight), and a workspace for
  // the stage functions' intermediates.
  // (A shared parameter counts once on each rank that uses it.)
  sched::PipelineModel holding = model.pipeline;
  holding.stashAccounting = sched::StashAccounting::HoldDuringBackward;
  sched::SimulationResult held = sched::simulate(holding, model.schedule);
  std::vector<int64_t> parameterBytes(model.pipeline.numRanks, 0),
      largestParameter(model.pipeline.numRanks, 0);
  std::set<std::pair<int, unsigned>> counted;
  for (int s = 0; s < numStages; ++s)
    for (unsigned a : model.stageParameters[s]) {
      int p = model.pipeline.rankOf(s);
      int64_t bytes = parameters[a].byteSize();
      largestParameter[p] = std::max(largestParameter[p], bytes);
      if (counted.insert({p, a}).second)
        parameterBytes[p] += bytes;
    }
  // The optimizer's update of the largest parameter (TrainUpdateDevice.cpp):
  // parameter, gradient, state and new parameter and state, and the
  // scalars, each rounded up to the pool's 256-byte alignment.
  int64_t updateBuffers =
      3 + 2 * static_cast<int64_t>(
                  exec::optimizerStateNames(options.optimizer.kind).size());
  std::vector<int> localRanks = session.world().localRanks();
  for (int r : localRanks) {
    // Every replica's rank r runs pipeline rank r mod P's program.
    int p = r % model.pipeline.numRanks;
    int64_t plan = predicted.ranks[p].peakMemoryBytes;
    int64_t stash = std::max(plan, held.ranks[p].peakMemoryBytes);
    int64_t pool = stash + 3 * parameterBytes[p] +
                   updateBuffers * (largestParameter[p] + 256) +
                   (session.options().workspaceMiB << 20);
    std::string message;
    if (!gpu->addRank(r, pool, message))
      return makeError("rank " + llvm::Twine(r) + ": " + message);
    if (leader || localRanks.size() == 1)
      out << "rank " << r << ": " << gpu->description()
          << ", device memory pool " << pool << " bytes (stash plan " << plan
          << (stash != plan ? ", " + std::to_string(stash) +
                                  " holding B's weight stash from its start"
                            : std::string())
          << ")\n";
  }
  return llvm::Error::success();
}

void Trainer::setStepData(int step) {
  data.assign(numMicrobatches, {});
  for (int mb = 0; mb < numMicrobatches; ++mb)
    for (auto [k, a] : llvm::enumerate(model.stageData)) {
      const TensorSpec &spec = model.argumentSpecs[a];
      if (auto it = datasets.find(a); it != datasets.end()) {
        HostTensor t(spec);
        size_t bytes = t.byteSize();
        std::memcpy(t.data(),
                    static_cast<const char *>(it->second.data()) +
                        sampleOf(step, mb) * bytes,
                    bytes);
        data[mb].push_back(std::move(t));
      } else if (auto it = dataFiles.find(a); it != dataFiles.end()) {
        HostTensor t(spec);
        size_t bytes = t.byteSize();
        std::memcpy(t.data(),
                    static_cast<const char *>(it->second.data()) + mb * bytes,
                    bytes);
        data[mb].push_back(std::move(t));
      } else {
        data[mb].push_back(syntheticData(spec, mb, a));
      }
      session.world().setInput(mb, k, bytesOf(data[mb].back()));
    }
}

int64_t Trainer::localBadParameter(bool values, std::string &what) {
  int64_t best = -1;
  pprt::World &world = session.world();
  for (int st = 0; st < numStages; ++st)
    for (auto [k, a] : llvm::enumerate(model.stageParameters[st])) {
      const pprt::Buffer *g = world.gradient(st, k);
      if (!g || (best >= 0 && a >= best))
        continue;
      const pprt::Buffer &b = values ? world.parameter(st, k) : *g;
      HostTensor t(model.argumentSpecs[a]);
      if (b.bytes.size() != t.byteSize())
        continue;
      std::memcpy(t.data(), b.bytes.data(), t.byteSize());
      if (int64_t i = firstNonFinite(t); i >= 0) {
        best = a;
        what = "stage " + std::to_string(st) + ", element " + t.indexStr(i) +
               " = " + formatDouble(t.get(i));
      }
    }
  return best;
}

int64_t Trainer::firstBadParameter(bool values, std::string &what) {
  int64_t local = localBadParameter(values, what);
  constexpr double kNone = 1e18;
  double global = -session.world().allReduceMax(
      -(local >= 0 ? static_cast<double>(local) : kNone));
  if (global >= kNone)
    return -1;
  if (static_cast<int64_t>(global) != local)
    what = "on another process";
  return static_cast<int64_t>(global);
}

llvm::Error Trainer::checkFinite(int step, const std::vector<double> &losses) {
  int badMicrobatch = -1;
  for (int mb = 0; mb < numMicrobatches && badMicrobatch < 0; ++mb)
    if (!std::isfinite(losses[mb]))
      badMicrobatch = mb;
  std::string what;
  int64_t bad = firstBadParameter(/*values=*/false, what);
  if (badMicrobatch < 0 && bad < 0)
    return llvm::Error::success();
  std::string message = "step " + std::to_string(step) + ": ";
  if (badMicrobatch >= 0)
    message += "the loss of micro-batch " + std::to_string(badMicrobatch) +
               " is " + formatDouble(losses[badMicrobatch]);
  else
    message += "the loss is finite";
  if (bad >= 0)
    message += "; the first parameter whose gradient is not finite: " +
               argumentName(bad) + " (" + what + ")";
  else
    message += "; every parameter gradient is finite";
  return makeError(message);
}

void Trainer::reportRate(int step) {
  double elapsed = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - trainingStart)
                       .count();
  if (!progress.enabled() || elapsed <= 0 ||
      (step != options.steps && progress.seconds() - lastRateReport < 1.0))
    return;
  lastRateReport = progress.seconds();
  int64_t samplesPerMicrobatch = this->samplesPerMicrobatch();
  double stepsPerSecond = step / elapsed;
  progress.phase("step " + llvm::Twine(step) + "/" +
                 llvm::Twine(options.steps) + ": " +
                 printfString("%.3g", stepsPerSecond) + " steps/s, " +
                 printfString("%.4g", stepsPerSecond * numMicrobatches *
                                          samplesPerMicrobatch) +
                 " samples/s (" + llvm::Twine(numMicrobatches) + " x " +
                 llvm::Twine(samplesPerMicrobatch) + " samples per step)");
}

int64_t Trainer::samplesPerMicrobatch() const {
  if (model.stageData.empty() ||
      model.argumentSpecs[model.stageData.front()].shape.empty())
    return 1;
  return model.argumentSpecs[model.stageData.front()].shape.front();
}

llvm::Error Trainer::runStep(int step, TrainSummary &summary) {
  pprt::World &world = session.world();
  pprt::cuda::Device *gpu = session.gpu();
  double timeout = session.options().timeoutSeconds;
  setStepData(step);
  // A checked step after the first compares from the parameters as they
  // are now (every stage is in this process: run() checked).
  // A later checked step's reference starts from every stage's parameters
  // as they are now, gathered from every process.
  if (options.check && step > firstStep &&
      step < firstStep + options.checkSteps) {
    llvm::Expected<std::map<unsigned, HostTensor>> gathered = gatherTensors(-1);
    if (!gathered)
      return makeError("--check-steps: " +
                       llvm::toString(gathered.takeError()));
    for (auto &[a, value] : *gathered)
      parameters[a] = std::move(value);
  }
  auto start = std::chrono::steady_clock::now();
  bool ok = world.runStep([&](int rank, pprt_rank *handle) {
    if (!gpu) {
      programs[rank % programs.size()](handle);
      return;
    }
    std::string message;
    if (!gpu->bindRank(rank, handle, message)) {
      pprt_fail(handle, message.c_str());
      return;
    }
    programs[rank % programs.size()](handle);
    if (!gpu->synchronize(rank, timeout, message))
      pprt_fail(handle, message.c_str());
    gpu->unbind();
  });
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  if (!ok && world.ranksLeftRunning()) {
    // Rank threads still run this step's program, which uses this Trainer
    // and the JIT's code: nothing may be destroyed, so the process ends
    // here (as an MPI failure ends the job with MPI_Abort).
    llvm::outs().flush();
    llvm::errs() << "error: step " << step << " failed: " << world.error()
                 << "\n";
    llvm::errs().flush();
    std::_Exit(1);
  }
  if (!ok)
    return makeError("step " + llvm::Twine(step) + " failed: " + world.error());
  std::vector<double> losses = world.losses();
  double mean = 0;
  for (double l : losses)
    mean += l;
  mean /= losses.size();
  if (step == firstStep)
    summary.firstLoss = mean;
  summary.lastLoss = mean;
  pprt::StepTiming timing = world.stepTiming();
  stepTimings.push_back(timing);
  recordStepRatio(timing);
  double learningRate = learningRates.at(step);
  // --clip-grad-norm: torch.nn.utils.clip_grad_norm_'s factor
  // min(1, clip / (norm + 1e-6)), which scales the gradients in the update
  // (TrainUpdate.cpp).
  double norm = options.clipGradNorm > 0 ? gradientNorm() : 0.0;
  double clip = clipFactor(norm, options.clipGradNorm);
  if (leader) {
    out << "step " << step << ": loss " << llvm::format("%.9g", mean) << ", ";
    if (!learningRates.isConstant())
      out << "lr " << llvm::format("%.6g", learningRate) << ", ";
    if (options.clipGradNorm > 0)
      out << "grad norm " << llvm::format("%.9g", norm)
          << (clip < 1.0 ? " (clipped), " : ", ");
    out << llvm::format("%.1f", seconds * 1e3) << " ms ("
        << llvm::format("%.4g", numMicrobatches * samplesPerMicrobatch() /
                                    std::max(seconds, 1e-9))
        << " samples/s), bubble " << llvm::format("%.3f", timing.bubbleRate)
        << " (measured)\n";
  }
  bool checked = options.check && step < firstStep + options.checkSteps;
  if (checked) {
    checkedStep = step;
    llvm::Expected<bool> passed = checkStep(losses);
    if (!passed)
      return passed.takeError();
    summary.checkPassed = *passed;
    if (!*passed)
      return llvm::Error::success();
  }
  if (llvm::Error e = checkFinite(step, losses)) {
    if (!options.skipNonFinite)
      return e;
    // --skip-nonfinite: no update; the message without its "step N: ".
    std::string why = llvm::toString(std::move(e));
    why = why.substr(why.find(": ") + 2);
    if (leader)
      out << "step " << step << ": skipped, no update (" << why << ")\n";
    ++skippedSteps;
    reportRate(step);
    return saveIfDue(step);
  }
  reportRate(step);
  if (step == options.steps) {
    reportLastStep(timing);
    if (llvm::Error e = writeTrace())
      return e;
  }
  if (checked)
    stateBeforeUpdate = optimizerState;
  if (llvm::Error e = applyUpdate(learningRate, clip))
    return e;
  if (llvm::Error e = checkSharedCopies(step))
    return e;
  if (checked) {
    llvm::Expected<bool> passed = checkUpdate(learningRate);
    if (!passed)
      return passed.takeError();
    summary.checkPassed = *passed;
    if (!*passed)
      return llvm::Error::success();
  }
  std::string what;
  if (int64_t bad = firstBadParameter(/*values=*/true, what); bad >= 0)
    return makeError("step " + llvm::Twine(step) +
                     ": the update (learning rate " +
                     formatDouble(learningRate) + ") made parameter " +
                     argumentName(bad) + " not finite (" + what + ")");
  return saveIfDue(step);
}

void Trainer::reportSharedParameters() {
  for (const CompiledModel::SharedParameter &shared : model.sharedParameters) {
    std::set<int> ranks;
    out << "shared parameter: " << argumentName(shared.argument)
        << " is used by";
    for (auto [i, use] : llvm::enumerate(shared.uses)) {
      int rank = model.pipeline.rankOf(use.first);
      ranks.insert(rank);
      out << (i == 0                        ? " "
              : i + 1 == shared.uses.size() ? " and "
                                            : ", ")
          << "stage " << use.first << " (rank " << rank << ")";
    }
    if (ranks.size() == 1) {
      out << "; one copy on rank " << *ranks.begin()
          << ", gradients summed on the rank\n";
      continue;
    }
    out << "; one copy on each of ranks ";
    for (auto [i, r] : llvm::enumerate(ranks))
      out << (i == 0 ? "" : i + 1 == ranks.size() ? " and " : ", ") << r;
    out << ", gradients summed across ranks\n";
  }
}

llvm::Error Trainer::checkSharedCopies(int step) {
  std::string message;
  if (model.sharedParameters.empty() ||
      session.world().sharedCopiesEqual(message))
    return llvm::Error::success();
  return makeError("step " + llvm::Twine(step) + ": after the update, " +
                   message);
}

llvm::Error mlir::pp::driver::validate(const TrainOptions &options) {
  if (options.steps < 0)
    return makeError("--steps must be >= 0");
  if (llvm::Error e = validate(LearningRateSchedule{
          options.learningRateSchedule, options.learningRate,
          options.minLearningRate, options.warmupSteps, options.steps}))
    return e;
  if (llvm::Error e = exec::validate(options.optimizer))
    return e;
  if (!(options.allReduceBandwidth > 0) ||
      !std::isfinite(options.allReduceBandwidth) ||
      !(options.allReduceLatency >= 0) ||
      !std::isfinite(options.allReduceLatency))
    return makeError(
        "--allreduce-bandwidth must be > 0 and --allreduce-latency "
        ">= 0");
  if (!std::isfinite(options.clipGradNorm) || options.clipGradNorm < 0)
    return makeError("--clip-grad-norm must be a finite number >= 0 (0: off), "
                     "not " +
                     formatDouble(options.clipGradNorm));
  if (options.shuffle && options.datasetFiles.empty())
    return makeError("--shuffle shuffles a --dataset: give one");
  if (!options.resumeDirectory.empty() &&
      !options.initialParameterFiles.empty())
    return makeError("--resume and --initial-parameters both give the "
                     "parameters: use one");
  if (options.checkSteps < 1)
    return makeError("--check-steps must be >= 1, not " +
                     llvm::Twine(options.checkSteps));
  if (options.saveEvery < 0)
    return makeError("--save-every must be >= 0 (0: only after the last step)");
  return llvm::Error::success();
}

llvm::Expected<TrainSummary> Trainer::run() {
  if (llvm::Error e = validate(options))
    return std::move(e);
  if (options.check && model.referenceName.empty())
    return makeError("checking needs the reference: compile with "
                     "CompileOptions::reference");
  // The message layout first: a transport that cannot carry it (mpi tags
  // beyond MPI_TAG_UB) fails before anything is JIT-compiled.
  std::string layoutError;
  if (!session.world().setMessageLayout(numStages, model.boundaryParts,
                                        layoutError))
    return makeError(layoutError);
  if (llvm::Error e = loadInputFiles())
    return std::move(e);
  if (llvm::Error e = loadDatasets())
    return std::move(e);
  if (llvm::Error e = compilePrograms())
    return std::move(e);
  if (llvm::Error e = initializeParameters())
    return std::move(e);
  initializeOptimizerState();
  const SessionOptions &so = session.options();
  if (leader)
    out << "pp-run: @" << model.lossName << " on " << so.numRanks
        << (replicas > 1
                ? " ranks x " + std::to_string(replicas) + " replicas (" +
                      std::to_string(so.numRanks * replicas) + " ranks, "
                : std::string(" ranks ("))
        << so.transport
        << (so.device != Device::CPU ? std::string(", ") + deviceName(so.device)
                                     : std::string())
        << "), " << numStages << " stages, " << numMicrobatches / replicas
        << (replicas > 1 ? " micro-batches per replica, " : " micro-batches, ")
        << model.scheduleKind << "; compiled in "
        << llvm::format("%.2f", compileSeconds) << " s\n";
  if (leader)
    reportSharedParameters();
  calibrateAllReduce();
  predicted = sched::simulate(model.pipeline, model.schedule);
  if (llvm::Error e = openDevicePools())
    return std::move(e);
  accumulationOrder.assign(numStages, {});
  for (const auto &program : model.schedule.ranks)
    for (const sched::Action &a : program)
      if (a.kind == sched::ActionKind::Backward ||
          a.kind == sched::ActionKind::BackwardWeight)
        accumulationOrder[a.stage].push_back(a.microbatch);

  TrainSummary summary;
  trainingStart = std::chrono::steady_clock::now();
  lastRateReport = progress.seconds();
  int trained = options.steps - firstStep + 1;
  progress.phase("training " + llvm::Twine(trained) + " steps");
  for (int step = firstStep; step <= options.steps; ++step) {
    if (llvm::Error e = runStep(step, summary))
      return std::move(e);
    if (!summary.checkPassed)
      return summary;
  }
  if (leader && gpuJit)
    out << "optimizer: " << deviceUpdates
        << " parameter updates ran on the GPU (one kernel each, on the "
           "pool of the parameter's rank)\n";
  if (leader && !model.sharedParameters.empty() && trained >= 1)
    out << "shared parameters: every copy identical after " << trained
        << (trained == 1 ? " update\n" : " updates\n");
  if (leader && skippedSteps > 0)
    out << "warning: " << skippedSteps << " of " << trained
        << " steps skipped for values that are not finite "
           "(--skip-nonfinite)\n";
  if (leader && trained >= 2)
    out << "trained " << trained << " steps: the loss "
        << (summary.lastLoss < summary.firstLoss ? "fell" : "did not fall")
        << " from " << llvm::format("%.9g", summary.firstLoss) << " to "
        << llvm::format("%.9g", summary.lastLoss) << "\n";
  return summary;
}

llvm::Expected<TrainSummary>
mlir::pp::driver::train(ModuleOp module, const CompiledModel &model,
                        Session &session, const TrainOptions &options,
                        Progress &progress, llvm::raw_ostream &out) {
  Trainer trainer(module, model, session, options, progress, out);
  return trainer.run();
}
