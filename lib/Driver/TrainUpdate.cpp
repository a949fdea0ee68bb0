//===- TrainUpdate.cpp - the trainer's update and gradient norm -----------===//
//
// The update: every parameter this process holds goes through its
// generated update function (pp/Execution/Optimizer.h, compiled with the
// stage code: on the host, or on the GPU for --device=cuda and cuda-emu,
// TrainUpdateDevice.cpp) once per step, in place, with its state beside
// it; a shared
// parameter is updated once per process and the result copied to its other
// copies there (each process that holds a copy computes the same bits from
// the same summed gradient and state).
//
// --clip-grad-norm (TrainOptions::clipGradNorm): the global L2 norm of the
// step's gradients, as torch.nn.utils.clip_grad_norm_ defines it (the norm
// of the concatenated gradients; the update then scales them by
// clip / (norm + 1e-6) when the norm exceeds clip), computed in one fixed
// order so that a pipelined run gets the bits an unpipelined one would:
// each parameter's squares summed in f64 in element order, then the
// parameters in ascending argument order, whatever stage, rank or process
// holds them (docs/Training.md, "Gradient clipping").
//
//===----------------------------------------------------------------------===//

#include "Trainer.h"

#include "llvm/ADT/Twine.h"

#include <cmath>
#include <cstring>

using namespace mlir;
using namespace mlir::pp;
using namespace mlir::pp::driver;
using namespace mlir::pp::exec;

double mlir::pp::driver::clipFactor(double norm, double maxNorm) {
  if (!(maxNorm > 0) || !std::isfinite(norm))
    return 1.0;
  return std::min(1.0, maxNorm / (norm + 1e-6));
}

double Trainer::gradientNorm() {
  pprt::World &world = session.world();
  std::vector<int> local = world.localPipelineRanks();
  // (argument, sum of squares) of the arguments this process holds, at
  // their first use: a shared parameter's copies all hold the summed
  // gradient after the step, so one of them counts.
  std::vector<std::pair<int64_t, double>> mine;
  for (const auto &[a, use] : firstUse) {
    if (!llvm::is_contained(local, model.pipeline.rankOf(use.first)))
      continue;
    double sum = 0;
    if (const pprt::Buffer *g = world.gradient(use.first, use.second)) {
      HostTensor t(model.argumentSpecs[a]);
      if (g->bytes.size() == t.byteSize()) {
        std::memcpy(t.data(), g->bytes.data(), t.byteSize());
        sum = sumOfSquares(t);
      }
    }
    mine.emplace_back(a, sum);
  }
  std::vector<char> bytes(mine.size() * sizeof(mine[0]));
  if (!mine.empty())
    std::memcpy(bytes.data(), static_cast<const void *>(mine.data()),
                bytes.size());
  std::map<int64_t, double> squares;
  for (const std::vector<char> &part : world.allGather(bytes)) {
    std::vector<std::pair<int64_t, double>> theirs(part.size() /
                                                   sizeof(mine[0]));
    if (!theirs.empty())
      std::memcpy(static_cast<void *>(theirs.data()), part.data(),
                  theirs.size() * sizeof(mine[0]));
    for (const auto &[a, sum] : theirs)
      squares.emplace(a, sum);
  }
  double total = 0;
  for (const auto &[a, sum] : squares)
    total += sum;
  return std::sqrt(total);
}

void Trainer::initializeOptimizerState() {
  size_t numState = optimizerStateNames(options.optimizer.kind).size();
  for (const auto &[a, uses] : localUses) {
    std::vector<HostTensor> state;
    const CompiledModel::ArgumentOrigin &from = model.argumentOrigins[a];
    auto resumed = resumedState.find(from.argument);
    for (size_t k = 0; k < numState; ++k) {
      if (resumed == resumedState.end()) {
        state.emplace_back(model.argumentSpecs[a]);
        continue;
      }
      const HostTensor &whole = resumed->second[k];
      state.push_back(from.dim < 0
                          ? whole
                          : sliceAlong(whole, from.dim, from.offset,
                                       model.argumentSpecs[a].shape[from.dim]));
    }
    optimizerState[a] = std::move(state);
  }
  resumedState.clear();
}

llvm::Error Trainer::runUpdate(unsigned arg, void *param, const void *grad,
                               std::vector<HostTensor> &state,
                               double learningRate, double gradScale,
                               int64_t t) {
  const TensorSpec &spec = model.argumentSpecs[arg];
  std::vector<double> s =
      updateScalars(options.optimizer, learningRate, t, gradScale);
  HostTensor scalars(TensorSpec{spec.kind, {static_cast<int64_t>(s.size())}});
  for (auto [k, v] : llvm::enumerate(s))
    scalars.set(k, v);
  std::vector<const void *> args = {param, grad};
  std::vector<void *> results = {param};
  for (HostTensor &x : state) {
    args.push_back(x.data());
    results.push_back(x.data());
  }
  args.push_back(scalars.data());
  if (llvm::Error e = hostJit->runOnBuffers(
          updateFunctionName(options.optimizer, spec), args, results))
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "the update of parameter " + argumentName(arg) +
            " failed: " + llvm::toString(std::move(e)));
  return llvm::Error::success();
}

int Trainer::localRankOf(int pipelineRank) {
  for (int r : session.world().localRanks())
    if (r % model.pipeline.numRanks == pipelineRank)
      return r;
  return pipelineRank;
}

llvm::Error Trainer::applyUpdate(double learningRate, double gradScale) {
  pprt::World &world = session.world();
  ++updates;
  for (auto &[a, uses] : localUses) {
    auto [stage, index] = uses.front();
    const pprt::Buffer *grad = world.gradient(stage, index);
    pprt::Buffer *param = world.mutableParameter(stage, index);
    // A parameter the loss does not reach has no gradient and keeps its
    // value (as PyTorch's optimizers skip a parameter whose grad is None).
    if (!grad || !param || grad->bytes.size() != param->bytes.size() ||
        grad->dtype != param->dtype)
      continue;
    // On a GPU the update runs there, as the stages do.
    if (llvm::Error e =
            gpuJit ? runUpdateOnDevice(
                         localRankOf(model.pipeline.rankOf(stage)), a,
                         param->bytes.data(), grad->bytes.data(),
                         optimizerState[a], learningRate, gradScale, updates)
                   : runUpdate(a, param->bytes.data(), grad->bytes.data(),
                               optimizerState[a], learningRate, gradScale,
                               updates))
      return e;
    for (auto [s, k] : llvm::drop_begin(uses))
      if (pprt::Buffer *copy = world.mutableParameter(s, k); copy != param)
        world.setParameter(s, k, *param);
  }
  return llvm::Error::success();
}
