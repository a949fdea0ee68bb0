//===- Bounds.cpp - lower bounds on the step makespan ---------------------===//
//
// Lower bounds on the step makespan of every schedule of a pipeline (see
// LowerBounds in pp/Schedule/AutoSchedule.h), the optimality gap, and the
// memory check of named schedules.
//
// The bounds reason about one micro-batch's dependency chain, which every
// schedule must respect: F(0) .. F(S-1) down the stages, then B(S-1) .. B(0)
// back, then W(0); a hop between stages on different ranks adds the latency.
// B (not the fused backward) is on the chain, so the bounds hold for split
// and fused backwards alike. The memory-limited warm-up bound is the one of
// Qi et al., "Zero Bubble Pipeline Parallelism", ICLR 2024, appendix B,
// generalized to any placement and per-stage costs.
//
//===----------------------------------------------------------------------===//

#include "Generators.h"
#include "pp/Schedule/AutoSchedule.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <numeric>

using namespace mlir::pp::sched;
using namespace mlir::pp::sched::detail;

namespace {

/// Per-stage quantities of one micro-batch's chain.
struct Chain {
  /// Earliest start of F(s, 0) and of B(s, 0).
  std::vector<double> headF, headB;
  /// Least time from the end of F(s, m) (resp. B(s, m)) to the end of the
  /// step: the rest of micro-batch m's chain, W(0) included.
  std::vector<double> tailF, tailB;
};

Chain chainOf(const PipelineModel &model) {
  int n = model.numStages();
  auto hop = [&](int a, int b) {
    return model.rankOf(a) == model.rankOf(b) ? 0.0 : model.latency;
  };
  Chain c;
  c.headF.assign(n, 0.0);
  c.headB.assign(n, 0.0);
  c.tailF.assign(n, 0.0);
  c.tailB.assign(n, 0.0);
  for (int s = 1; s < n; ++s)
    c.headF[s] =
        c.headF[s - 1] + model.stages[s - 1].forwardTime + hop(s - 1, s);
  c.headB[n - 1] = c.headF[n - 1] + model.stages[n - 1].forwardTime;
  for (int s = n - 2; s >= 0; --s)
    c.headB[s] =
        c.headB[s + 1] + model.stages[s + 1].backwardInputTime + hop(s + 1, s);
  // After B(0, m): W(0, m).
  c.tailB[0] = model.stages[0].backwardWeightTime;
  for (int s = 1; s < n; ++s)
    c.tailB[s] =
        hop(s, s - 1) + model.stages[s - 1].backwardInputTime + c.tailB[s - 1];
  c.tailF[n - 1] = model.stages[n - 1].backwardInputTime + c.tailB[n - 1];
  for (int s = n - 2; s >= 0; --s)
    c.tailF[s] =
        hop(s, s + 1) + model.stages[s + 1].forwardTime + c.tailF[s + 1];
  return c;
}

/// The most forward time a rank can run while holding at most `capacity`
/// bytes of stashes of its own stages, at most M forwards per stage: the
/// fractional knapsack (an upper bound on every integral choice).
double forwardTimeWithin(const PipelineModel &model,
                         const std::vector<int> &stages, int numMicrobatches,
                         int64_t capacity) {
  if (capacity < 0)
    return 0.0;
  std::vector<int> order(stages);
  // Most forward time per byte first; stages without a stash cost nothing.
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    const StageInfo &x = model.stages[a], &y = model.stages[b];
    return x.forwardTime * static_cast<double>(y.stashBytes) >
           y.forwardTime * static_cast<double>(x.stashBytes);
  });
  double time = 0.0, room = static_cast<double>(capacity);
  for (int s : order) {
    const StageInfo &stage = model.stages[s];
    double all = static_cast<double>(numMicrobatches);
    double units =
        stage.stashBytes > 0
            ? std::min(all, room / static_cast<double>(stage.stashBytes))
            : all;
    time += units * stage.forwardTime;
    room -= units * static_cast<double>(stage.stashBytes);
  }
  return time;
}

} // namespace

LowerBounds mlir::pp::sched::lowerBounds(const PipelineModel &model,
                                         int numMicrobatches,
                                         int64_t memoryLimitBytes) {
  LowerBounds bounds;
  int n = model.numStages();
  if (n == 0 || numMicrobatches < 1)
    return bounds;
  double m = numMicrobatches;
  Chain chain = chainOf(model);
  std::vector<std::vector<int>> stagesOf = stagesOfRanks(model);
  double allWork = 0.0;

  for (int r = 0; r < model.numRanks; ++r) {
    if (stagesOf[r].empty())
      continue;
    double work = 0.0, head = std::numeric_limits<double>::infinity();
    double backwardWork = 0.0, headBackward = head, tail = head;
    double forwardAndInput = 0.0, inputWork = 0.0;
    for (int s : stagesOf[r]) {
      const StageInfo &st = model.stages[s];
      work +=
          m * (st.forwardTime + st.backwardInputTime + st.backwardWeightTime);
      backwardWork += m * (st.backwardInputTime + st.backwardWeightTime);
      forwardAndInput += m * (st.forwardTime + st.backwardInputTime);
      inputWork += m * st.backwardInputTime;
      head = std::min(head, chain.headF[s]);
      headBackward = std::min(headBackward, chain.headB[s]);
      tail = std::min({tail, chain.tailF[s], chain.tailB[s]});
    }
    bounds.busiestRankWork = std::max(bounds.busiestRankWork, work);
    allWork += work;
    // Nothing runs on the rank before its first forward can; its B's and
    // W's not before its first B can. The last of its F's and B's (W's may
    // come after them) leaves the rest of its micro-batch's chain to run.
    bounds.criticalPath = std::max(
        {bounds.criticalPath, head + work, headBackward + backwardWork,
         head + forwardAndInput + tail, headBackward + inputWork + tail});

    // Before its first B (of its highest stage, micro-batch 0, which waits
    // for the whole chain down and back), the rank can only run forwards,
    // as many as its memory holds next to that B's own need.
    int top = *std::max_element(stagesOf[r].begin(), stagesOf[r].end());
    const StageInfo &topStage = model.stages[top];
    int64_t backwardNeed =
        model.stashAccounting == StashAccounting::HoldDuringBackward
            ? topStage.weightStashBytes
            : std::max<int64_t>(0, topStage.weightStashBytes -
                                       topStage.stashBytes);
    double before =
        memoryLimitBytes > 0
            ? forwardTimeWithin(model, stagesOf[r], numMicrobatches,
                                memoryLimitBytes - backwardNeed)
            : forwardTimeWithin(model, stagesOf[r], numMicrobatches,
                                std::numeric_limits<int64_t>::max() / 4);
    bounds.memoryWarmup =
        std::max({bounds.memoryWarmup, chain.headB[top] + work - before,
                  chain.headB[top] + forwardAndInput - before + tail});
  }
  // Per stage: its M forwards (resp. B's) run one after another on its
  // rank; the last of them still has the rest of its chain to go.
  for (int s = 0; s < n; ++s) {
    const StageInfo &st = model.stages[s];
    bounds.criticalPath =
        std::max({bounds.criticalPath,
                  chain.headF[s] + m * st.forwardTime + chain.tailF[s],
                  chain.headB[s] + m * st.backwardInputTime + chain.tailB[s]});
  }
  if (model.computeSlots > 0 && model.computeSlots < model.numRanks)
    bounds.sharedCores = allWork / model.computeSlots;
  bounds.best = std::max({bounds.busiestRankWork, bounds.criticalPath,
                          bounds.memoryWarmup, bounds.sharedCores});
  return bounds;
}

double mlir::pp::sched::optimalityGap(double makespan, double bound) {
  if (bound <= 0 || std::fabs(makespan - bound) <= 1e-9 * bound)
    return 0.0; // at the bound, up to rounding
  return makespan / bound - 1.0;
}

std::string mlir::pp::sched::renderBounds(const LowerBounds &bounds,
                                          double makespan) {
  std::string text = "lower bound: " + formatNumber(bounds.best) +
                     " us (busiest rank " +
                     formatNumber(bounds.busiestRankWork) + ", critical path " +
                     formatNumber(bounds.criticalPath) + ", memory warm-up " +
                     formatNumber(bounds.memoryWarmup);
  if (bounds.sharedCores > 0)
    text += ", shared cores " + formatNumber(bounds.sharedCores);
  if (bounds.lpRelaxation > 0)
    text += ", LP relaxation " + formatNumber(bounds.lpRelaxation);
  text += "), gap " + formatNumber(optimalityGap(makespan, bounds.best)) +
          " (makespan / bound - 1)";
  return text;
}

llvm::Error mlir::pp::sched::checkMemoryLimit(llvm::StringRef name,
                                              const PipelineModel &model,
                                              const Schedule &schedule,
                                              int64_t memoryLimitBytes) {
  if (memoryLimitBytes <= 0)
    return llvm::Error::success();
  SimulationResult result = simulate(model, schedule);
  int worst = -1;
  for (int r = 0; r < static_cast<int>(result.ranks.size()); ++r)
    if (worst < 0 ||
        result.ranks[r].peakMemoryBytes > result.ranks[worst].peakMemoryBytes)
      worst = r;
  if (worst < 0 || result.ranks[worst].peakMemoryBytes <= memoryLimitBytes)
    return llvm::Error::success();
  int64_t stash = 0;
  for (const StageInfo &stage : model.stages)
    stash = std::max(stash, stage.stashBytes);
  auto bytes = [&](int64_t b) {
    std::string text = std::to_string(b) + " bytes";
    if (stash > 0)
      text += " (" + formatNumber(static_cast<double>(b) / stash) + " M_B)";
    return text;
  };
  int64_t peak = result.ranks[worst].peakMemoryBytes;
  int64_t excess = peak - memoryLimitBytes;
  std::string percent;
  llvm::raw_string_ostream os(percent);
  os << llvm::format("%.1f%%", 100.0 * static_cast<double>(excess) /
                                   static_cast<double>(memoryLimitBytes));
  return llvm::createStringError(
      "schedule '%s' needs %s on rank %d, %lld bytes (%s) more than the "
      "memory limit of %s per rank",
      name.str().c_str(), bytes(peak).c_str(), worst,
      static_cast<long long>(excess), percent.c_str(),
      bytes(memoryLimitBytes).c_str());
}
