//===- TrainUpdate.cpp - the trainer's gradient norm ----------------------===//
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

#include <cmath>
#include <cstring>

using namespace mlir;
using namespace mlir::pp;
using namespace mlir::pp::driver;
using namespace mlir::pp::exec;

double Trainer::gradientNorm() {
  pprt::World &world = session.world();
  std::vector<int> local = world.localRanks();
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
    std::memcpy(bytes.data(), mine.data(), bytes.size());
  std::map<int64_t, double> squares;
  for (const std::vector<char> &part : world.allGather(bytes)) {
    std::vector<std::pair<int64_t, double>> theirs(part.size() /
                                                   sizeof(mine[0]));
    if (!theirs.empty())
      std::memcpy(theirs.data(), part.data(), theirs.size() * sizeof(mine[0]));
    for (const auto &[a, sum] : theirs)
      squares.emplace(a, sum);
  }
  double total = 0;
  for (const auto &[a, sum] : squares)
    total += sum;
  return std::sqrt(total);
}
