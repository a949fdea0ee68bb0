//===- ReferenceCheck.cpp - the steps against the unpipelined model -------===//
//
// The reference is @<loss>_grad (pp-autodiff cotangents=true of the whole
// loss) on the same M micro-batches, seeded with 1/M like the pipeline; each
// parameter's gradients are summed from zero in the order its stage
// accumulated them, so that the pipeline can match it bit for bit
// (docs/Runtime.md, "--check").
//
//===----------------------------------------------------------------------===//

#include "Trainer.h"
#include "pp/Support/Error.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <cstring>
#include <functional>
#include <set>

using namespace mlir;
using namespace mlir::pp::driver;
using namespace mlir::pp::exec;

/// acc += g elementwise, in the tensors' float type (as the runtime adds
/// gradients).
template <typename T>
static void addElements(HostTensor &acc, const HostTensor &g) {
  T *a = static_cast<T *>(acc.data());
  const T *b = static_cast<const T *>(g.data());
  for (int64_t i = 0, e = g.size(); i < e; ++i)
    a[i] += b[i];
}
static void addInto(HostTensor &acc, const HostTensor &g) {
  if (g.kind() == ElemKind::F64)
    addElements<double>(acc, g);
  else
    addElements<float>(acc, g);
}

namespace {
/// The world's gradients against the reference, over every process: the
/// max relative error (|got - want| / max |want| per parameter) and whether
/// all are bitwise equal, [0] of the parameters one stage uses, [1] of the
/// shared ones.
struct GradientComparison {
  double worst[2] = {0, 0};
  bool bitwise[2] = {true, true};

  /// Folds `got` (bytes of `ref`'s type) against `ref` into `group`: bitwise
  /// equality and the relative error |got - ref| / max |ref|.
  void add(int group, const void *got, size_t bytes, const HostTensor &ref) {
    bitwise[group] &= bytes == ref.byteSize() &&
                      std::memcmp(got, ref.data(), ref.byteSize()) == 0;
    double scale = 0;
    for (int64_t i = 0; i < ref.size(); ++i)
      scale = std::max(scale, std::abs(ref.get(i)));
    HostTensor value(ref.spec());
    std::memcpy(value.data(), got, std::min(bytes, value.byteSize()));
    for (int64_t i = 0; i < ref.size(); ++i)
      worst[group] =
          std::max(worst[group], std::abs(value.get(i) - ref.get(i)) /
                                     std::max(scale, 1e-30));
  }
  /// Makes the verdicts those of every process (collectives).
  void reduce(pprt::World &world) {
    for (int group = 0; group < 2; ++group) {
      worst[group] = world.allReduceMax(worst[group]);
      bitwise[group] = world.allReduceMax(bitwise[group] ? 0.0 : 1.0) == 0;
    }
  }
};
} // namespace

/// Compares the buffers `bufferOf(stage, index)` gives (null: not held
/// by this process) with `reference` by argument, over every process.
static GradientComparison
compareBuffers(pprt::World &world, const CompiledModel &model, int numStages,
               std::map<unsigned, HostTensor> &reference,
               const std::set<unsigned> &shared,
               const std::function<const pprt::Buffer *(int, int)> &bufferOf) {
  GradientComparison cmp;
  for (int s = 0; s < numStages; ++s)
    for (auto [k, a] : llvm::enumerate(model.stageParameters[s])) {
      const pprt::Buffer *g = bufferOf(s, static_cast<int>(k));
      if (!g)
        continue;
      cmp.add(shared.count(a) ? 1 : 0, g->bytes.data(), g->bytes.size(),
              reference[a]);
    }
  cmp.reduce(world);
  return cmp;
}

/// The arguments of the shared parameters (compared in group 1).
static std::set<unsigned> sharedArguments(const CompiledModel &model) {
  std::set<unsigned> shared;
  for (const CompiledModel::SharedParameter &p : model.sharedParameters)
    shared.insert(p.argument);
  return shared;
}

/// "bitwise equal", or "2 unshared bitwise equal, 1 shared max relative
/// error 1.5e-07" when the shared parameters (group 1) are not.
static std::string describe(const GradientComparison &cmp, size_t count,
                            size_t numShared) {
  auto verdict = [&](int group) {
    return cmp.bitwise[group]
               ? std::string("bitwise equal")
               : "max relative error " +
                     llvm::formatv("{0:e3}", cmp.worst[group]).str();
  };
  // (With no shared parameter, group 1 is empty and bitwise.)
  if (cmp.bitwise[1])
    return verdict(0);
  return std::to_string(count - numShared) + " unshared " + verdict(0) + ", " +
         std::to_string(numShared) + " shared " + verdict(1);
}

/// The reference gradients summed as the pipeline sums them: in each
/// stage's accumulation order (`accumulationOrder[s]`, micro-batches of one
/// replica) per replica, then the replicas' sums in replica order (the
/// runtime's reduction, pprt::WorldOptions::replicas). A shared parameter
/// is summed in its first use's order: the pipeline sums each use's
/// micro-batches, then the uses, so its order differs from any order of the
/// reference's per-micro-batch totals (docs/Runtime.md, "Shared
/// parameters"). `perMicrobatch[a]` holds argument a's gradient of every
/// micro-batch of the step, replica by replica.
static std::map<unsigned, HostTensor>
sumAsThePipeline(const CompiledModel &model,
                 std::map<unsigned, std::vector<HostTensor>> &perMicrobatch,
                 const std::vector<std::vector<int>> &accumulationOrder,
                 int numMicrobatches, int replicas) {
  std::map<unsigned, HostTensor> reference;
  int perReplica = numMicrobatches / replicas;
  for (auto [st, parameters] : llvm::enumerate(model.stageParameters))
    for (unsigned a : parameters) {
      if (reference.count(a))
        continue;
      const std::vector<HostTensor> &gs = perMicrobatch[a];
      HostTensor total(gs.front().spec());
      for (int d = 0; d < replicas; ++d) {
        HostTensor acc(gs.front().spec());
        for (int mb : accumulationOrder[st])
          addInto(acc, gs[d * perReplica + mb]);
        if (d == 0)
          total = std::move(acc);
        else
          addInto(total, acc);
      }
      reference.emplace(a, std::move(total));
    }
  return reference;
}

llvm::Expected<bool> Trainer::checkStep(const std::vector<double> &losses) {
  pprt::World &world = session.world();
  // The reference, micro-batch by micro-batch.
  std::map<unsigned, std::vector<HostTensor>> perMicrobatch;
  std::vector<double> referenceLosses, f32Losses;
  auto lossFn = module.lookupSymbol<func::FuncOp>(model.lossName);
  auto seedType = cast<RankedTensorType>(lossFn.getResultTypes().front());
  TensorSpec seedSpec;
  seedSpec.kind = *elemKindOf(seedType.getElementType());
  seedSpec.shape.assign(seedType.getShape().begin(), seedType.getShape().end());
  for (int mb = 0; mb < numMicrobatches; ++mb) {
    std::vector<HostTensor> args;
    for (unsigned a = 0; a < model.argumentSpecs.size(); ++a) {
      if (parameters.count(a)) {
        args.push_back(parameters[a]);
        continue;
      }
      // Data the stages never read (an argument the model ignores) still
      // needs a value.
      auto pos = llvm::find(model.stageData, a);
      if (pos == model.stageData.end()) {
        args.push_back(syntheticData(model.argumentSpecs[a], mb, a));
      } else {
        args.push_back(data[mb][pos - model.stageData.begin()]);
      }
    }
    HostTensor seedTensor(seedSpec);
    seedTensor.set(0, 1.0 / numMicrobatches);
    args.push_back(seedTensor);
    std::vector<const HostTensor *> argPtrs;
    for (const HostTensor &t : args)
      argPtrs.push_back(&t);
    std::vector<HostTensor> results;
    if (llvm::Error e = hostJit->run(model.referenceName, argPtrs, results))
      return makeError("the reference failed: " + llvm::toString(std::move(e)));
    referenceLosses.push_back(results[0].get(0));
    for (auto [k, a] : llvm::enumerate(model.parameterArgs))
      perMicrobatch[a].push_back(std::move(results[1 + k]));
    // --precision=bf16: the same micro-batch through the f32 model.
    if (!model.f32ReferenceName.empty()) {
      if (llvm::Error e =
              hostJit->run(model.f32ReferenceName, argPtrs, results))
        return makeError("the f32 reference failed: " +
                         llvm::toString(std::move(e)));
      f32Losses.push_back(results[0].get(0));
    }
  }
  std::map<unsigned, HostTensor> reference = sumAsThePipeline(
      model, perMicrobatch, accumulationOrder, numMicrobatches, replicas);
  std::set<unsigned> shared = sharedArguments(model);

  double worstLoss = 0;
  bool lossesEqual = true;
  for (int mb = 0; mb < numMicrobatches; ++mb) {
    double a = losses[mb], b = referenceLosses[mb];
    lossesEqual &= a == b;
    worstLoss =
        std::max(worstLoss, std::abs(a - b) / std::max(std::abs(b), 1e-30));
  }
  GradientComparison cmp =
      compareBuffers(world, model, numStages, reference, shared,
                     [&](int s, int k) { return world.gradient(s, k); });
  double worst = std::max(cmp.worst[0], cmp.worst[1]);
  if (leader) {
    out << "check (step " << checkedStep
        << ", against the unpipelined model): loss "
        << (lossesEqual ? std::string("bitwise equal")
                        : "max relative error " +
                              llvm::formatv("{0:e3}", worstLoss).str())
        << "; " << model.parameterArgs.size() << " parameter gradients: "
        << describe(cmp, model.parameterArgs.size(), shared.size())
        << (cmp.bitwise[1] ? ""
                           : " (summed over their stages in another order)")
        << "\n";
    if (!f32Losses.empty()) {
      double worstF32 = 0;
      for (auto [a, b] : llvm::zip_equal(losses, f32Losses))
        worstF32 =
            std::max(worstF32, std::abs(a - b) / std::max(std::abs(b), 1e-30));
      out << "check (step " << checkedStep
          << ", bf16 against the f32 model): loss max relative difference "
          << llvm::formatv("{0:e3}", worstF32).str() << "\n";
    }
  }

  // NaN equals NaN bitwise: a check of values that are not finite fails,
  // naming the first one.
  std::string nonFinite;
  for (int mb = 0; mb < numMicrobatches && nonFinite.empty(); ++mb) {
    if (!std::isfinite(losses[mb]))
      nonFinite = "the loss of micro-batch " + std::to_string(mb) + " is " +
                  formatDouble(losses[mb]);
    else if (!std::isfinite(referenceLosses[mb]))
      nonFinite = "the unpipelined model's loss of micro-batch " +
                  std::to_string(mb) + " is " +
                  formatDouble(referenceLosses[mb]);
  }
  if (nonFinite.empty()) {
    std::string what;
    if (int64_t bad = firstBadParameter(false, what); bad >= 0)
      nonFinite = "the gradient of parameter " + argumentName(bad) +
                  " is not finite (" + what + ")";
  }
  if (nonFinite.empty())
    for (unsigned a : model.parameterArgs)
      if (int64_t i = firstNonFinite(reference[a]); i >= 0) {
        nonFinite = "the unpipelined model's gradient of parameter " +
                    argumentName(a) + " is not finite (element " +
                    reference[a].indexStr(i) + " = " +
                    formatDouble(reference[a].get(i)) + ")";
        break;
      }
  if (!nonFinite.empty()) {
    if (leader)
      out << "check FAILED: " << nonFinite << "\n";
    return false;
  }
  // On a GPU the loss is summed in another order (cuBLAS, split
  // reductions): a float32 sum of n terms may differ in its relative error
  // by about sqrt(n) ulps, so the loss gets the gradients' bound.
  double lossBound = session.options().device != Device::CPU ? 1e-4 : 1e-5;
  bool passed = worst <= 1e-4 && worstLoss <= lossBound;
  if (leader)
    out << (passed ? "check PASSED\n" : "check FAILED\n");
  referenceGradients = std::move(reference);
  return passed;
}

llvm::Expected<bool> Trainer::checkUpdate(double learningRate) {
  pprt::World &world = session.world();
  // The reference's clipping factor, from the reference's gradients in
  // the order gradientNorm() adds them.
  double factor = 1.0;
  if (options.clipGradNorm > 0) {
    double total = 0;
    for (const auto &[a, g] : referenceGradients)
      total += sumOfSquares(g);
    factor = clipFactor(std::sqrt(total), options.clipGradNorm);
  }
  // The unpipelined run's update: the same generated update function on
  // the reference gradients, from the parameters and state as they were
  // before this step's update (for the parameters this process holds).
  std::map<unsigned, HostTensor> expected;
  std::map<unsigned, std::vector<HostTensor>> expectedState;
  for (const auto &[a, g] : referenceGradients) {
    HostTensor p = parameters[a];
    auto before = stateBeforeUpdate.find(a);
    // A parameter without a gradient (one the loss does not reach) keeps
    // its value and state, as applyUpdate skips it.
    if (before != stateBeforeUpdate.end() && g.size() == p.size() &&
        g.kind() == p.kind()) {
      std::vector<HostTensor> state = before->second;
      if (llvm::Error e = runUpdate(a, p.data(), g.data(), state, learningRate,
                                    factor, updates))
        return std::move(e);
      expectedState.emplace(a, std::move(state));
    } else if (before != stateBeforeUpdate.end()) {
      expectedState.emplace(a, before->second);
    }
    expected.emplace(a, std::move(p));
  }
  std::set<unsigned> shared = sharedArguments(model);
  std::vector<int> local = world.localPipelineRanks();
  GradientComparison cmp =
      compareBuffers(world, model, numStages, expected, shared,
                     [&](int s, int k) -> const pprt::Buffer * {
                       if (!llvm::is_contained(local, model.pipeline.rankOf(s)))
                         return nullptr;
                       return &world.parameter(s, k);
                     });
  double worstState = 0;
  std::string state = compareState(expectedState, worstState);
  if (leader)
    out << "check (the update of step " << checkedStep
        << ", against the unpipelined model's): " << model.parameterArgs.size()
        << " parameters: "
        << describe(cmp, model.parameterArgs.size(), shared.size()) << state
        << "\n";
  bool passed = std::max({cmp.worst[0], cmp.worst[1], worstState}) <= 1e-4;
  if (!passed && leader)
    out << "check FAILED\n";
  return passed;
}

std::string Trainer::compareState(
    const std::map<unsigned, std::vector<HostTensor>> &expected,
    double &worst) {
  std::vector<std::string> names = optimizerStateNames(options.optimizer.kind);
  worst = 0;
  if (names.empty())
    return "";
  std::set<unsigned> shared = sharedArguments(model);
  GradientComparison cmp;
  for (const auto &[a, want] : expected) {
    auto it = optimizerState.find(a);
    if (it == optimizerState.end())
      continue;
    for (auto [got, ref] : llvm::zip_equal(it->second, want))
      cmp.add(shared.count(a) ? 1 : 0, got.data(), got.byteSize(), ref);
  }
  cmp.reduce(session.world());
  worst = std::max(cmp.worst[0], cmp.worst[1]);
  size_t count = model.parameterArgs.size() * names.size();
  return "; " + std::to_string(count) + " state tensors (" +
         llvm::join(names, ", ") +
         "): " + describe(cmp, count, shared.size() * names.size());
}
