//===- ZBGreedy.cpp - the zero-bubble paper's greedy scheduler ------------===//
//
// The heuristic of Qi et al., "Zero Bubble Pipeline Parallelism", ICLR 2024,
// sec. 3.1 ("the heuristic algorithm"), our own implementation after the
// paper's description and its reference (sail-sg/zero-bubble-pipeline-
// parallelism, megatron/core/pipeline_parallel/zerobubble/scheduler/zb.py,
// Graph.manual_order):
//
// - warm-up: stage 0..S-1 each run the forward of micro-batch 0; then, from
//   the last stage back to the first, each stage runs as many further
//   forwards as fit in memory before its first B could start (the estimated
//   arrival of micro-batch 0's gradient), optionally one more that leaves a
//   bubble of less than T_F ("allow a bubble before the first B"); every
//   stage keeps fewer warm-up forwards than the one before it; then every
//   stage runs the B of micro-batch 0, last stage first;
// - one round per further micro-batch i: every stage runs one forward
//   (unless "prioritize B" skips it on a stage two or more forwards ahead of
//   the next one, when that causes no more bubble), then every stage, last
//   first, runs B(i). Before each F or B, W's fill the time until its input
//   arrives: every W that ends by then, and one more if the gap left is
//   larger than the largest cumulative bubble of any stage allows (or, with
//   "fill small gaps", also when it is not); W's also run first when the
//   memory limit leaves no room for the F or B;
// - finally every stage runs its W's left.
//
// Memory is counted in bytes per rank under the model's StashAccounting, the
// paper's being StashAccounting::ConvertAtBackward (Delta M_F = M_B, Delta
// M_B = M_W - M_B, Delta M_W = -M_W). End times are estimated as the
// reference does (an action starts when its stage is free and its input has
// arrived, latency included), which is exactly what simulate() computes for
// the resulting order.
//
//===----------------------------------------------------------------------===//

#include "Generators.h"
#include "pp/Schedule/AutoSchedule.h"

#include <algorithm>
#include <limits>

using namespace mlir::pp::sched;
using namespace mlir::pp::sched::detail;

namespace {

enum Kind { KF = 0, KB = 1, KW = 2 };

/// One run of the heuristic under one policy.
class ZBGreedy {
public:
  ZBGreedy(const PipelineModel &model, int numMicrobatches, int64_t limit,
           ZeroBubbleGreedyPolicy policy, std::vector<int> rankOfStage)
      : model(model), numStages(model.numStages()),
        numMicrobatches(numMicrobatches),
        limit(limit > 0 ? limit : std::numeric_limits<int64_t>::max() / 4),
        policy(policy), rankOfStage(std::move(rankOfStage)) {}

  /// Fills `schedule` (ranks sized); false if memory cannot fit.
  bool run(Schedule &schedule);

private:
  const StageInfo &stage(int s) const { return model.stages[s]; }
  double cost(Kind kind, int s) const {
    const StageInfo &st = stage(s);
    return kind == KF   ? st.forwardTime
           : kind == KB ? st.backwardInputTime
                        : st.backwardWeightTime;
  }
  /// Live bytes after the action ends, minus before it.
  int64_t delta(Kind kind, int s) const {
    const StageInfo &st = stage(s);
    return kind == KF   ? st.stashBytes
           : kind == KB ? st.weightStashBytes - st.stashBytes
                        : -st.weightStashBytes;
  }
  /// Bytes above the live bytes before the action that it needs while it
  /// runs (simulate()'s peak).
  int64_t need(Kind kind, int s) const {
    const StageInfo &st = stage(s);
    if (kind == KF)
      return st.stashBytes;
    if (kind == KW)
      return 0;
    return model.stashAccounting == StashAccounting::HoldDuringBackward
               ? st.weightStashBytes
               : st.weightStashBytes - st.stashBytes;
  }
  double hop(int from, int to) const {
    return rankOfStage[from] == rankOfStage[to] ? 0.0 : model.latency;
  }
  size_t key(int s, int m) const {
    return static_cast<size_t>(s) * numMicrobatches + m;
  }
  double maxBubble() const {
    return *std::max_element(bubble.begin(), bubble.end());
  }
  bool fits(Kind kind, int s) const {
    return memory[s] + need(kind, s) <= limit;
  }
  void put(int s, Kind kind);
  /// Runs W's while the memory limit leaves no room for (kind, s); false if
  /// no W is left to run.
  bool makeRoom(int s, Kind kind);
  /// W's that fill the time until an input arriving at `arrival` is there.
  void fillUntil(int s, double arrival);
  void warmUp();
  bool round(int i);

  const PipelineModel &model;
  int numStages, numMicrobatches;
  int64_t limit;
  ZeroBubbleGreedyPolicy policy;
  std::vector<int> rankOfStage;
  Schedule *out = nullptr;
  // Per stage: actions run so far of each kind, end of its last action,
  // live bytes, cumulative bubble after its first action.
  std::vector<int> count[3];
  std::vector<double> stageEnd, bubble;
  std::vector<int64_t> memory;
  std::vector<double> endF, endB;
};

void ZBGreedy::put(int s, Kind kind) {
  int m = count[kind][s];
  double c = cost(kind, s);
  double noBubble = stageEnd[s] + c, end = noBubble;
  if (kind == KF && s > 0)
    end = std::max(end, endF[key(s - 1, m)] + hop(s - 1, s) + c);
  if (kind == KB && s + 1 < numStages)
    end = std::max(end, endB[key(s + 1, m)] + hop(s + 1, s) + c);
  if (count[KF][s] > 0)
    bubble[s] += end - noBubble;
  stageEnd[s] = end;
  if (kind == KF)
    endF[key(s, m)] = end;
  if (kind == KB)
    endB[key(s, m)] = end;
  memory[s] += delta(kind, s);
  ++count[kind][s];
  ActionKind action = kind == KF   ? ActionKind::Forward
                      : kind == KB ? ActionKind::BackwardInput
                                   : ActionKind::BackwardWeight;
  out->ranks[rankOfStage[s]].push_back(compute(action, s, m));
}

bool ZBGreedy::makeRoom(int s, Kind kind) {
  while (!fits(kind, s)) {
    if (count[KW][s] >= count[KB][s])
      return false;
    put(s, KW);
  }
  return true;
}

void ZBGreedy::fillUntil(int s, double arrival) {
  auto pending = [&] { return count[KW][s] < count[KB][s]; };
  while (pending() && stageEnd[s] + cost(KW, s) <= arrival)
    put(s, KW);
  if (!pending() || stageEnd[s] >= arrival)
    return;
  // A gap shorter than T_W: a W delays the input's consumer. Run it anyway
  // if the gap would make this stage's bubble the largest (or under the
  // policy's "fill small gaps").
  if (arrival - stageEnd[s] > maxBubble() - bubble[s] ||
      policy.fillSmallGapsWithW)
    put(s, KW);
}

void ZBGreedy::warmUp() {
  for (int s = 0; s < numStages; ++s)
    put(s, KF);
  // From the last stage back: how many more forwards fit before the stage's
  // first B could start (the estimated arrival of micro-batch 0's gradient).
  std::vector<int> extra(numStages, 0);
  double lastEnd = 0.0;
  for (int s = numStages - 1; s >= 0; --s) {
    if (s == numStages - 1) {
      lastEnd = endF[key(s, 0)] + cost(KB, s);
      continue;
    }
    int64_t live = memory[s];
    double t = stageEnd[s];
    double arrival = lastEnd + hop(s + 1, s);
    // Room for the first B's own need after the forwards.
    int64_t backwardNeed = std::max<int64_t>(0, need(KB, s));
    while (count[KF][s] + extra[s] < numMicrobatches &&
           live + stage(s).stashBytes + backwardNeed <= limit) {
      if (policy.allowBubbleBeforeFirstB ? t + cost(KF, s) > arrival
                                         : t >= arrival)
        break;
      live += stage(s).stashBytes;
      t += cost(KF, s);
      ++extra[s];
    }
    lastEnd = std::max(t, arrival) + cost(KB, s);
  }
  // Every stage keeps fewer warm-up forwards than the one before it.
  for (int s = 1; s < numStages; ++s)
    while (extra[s] > 0 && extra[s] >= extra[s - 1] &&
           count[KF][s] + extra[s] < numMicrobatches)
      --extra[s];
  for (int s = 0; s < numStages; ++s)
    for (int k = 0; k < extra[s]; ++k)
      put(s, KF);
}

bool ZBGreedy::round(int i) {
  std::vector<int> wantF(numStages, 0);
  for (int s = 0; s < numStages; ++s) {
    if (count[KF][s] >= numMicrobatches)
      continue;
    if (s + 1 < numStages && count[KF][s] >= count[KF][s + 1] + 2 &&
        policy.prioritizeB) {
      // The next stage's F and B end about here; a forward now that ends
      // later delays this stage's next B.
      double next =
          stageEnd[s + 1] + cost(KF, s + 1) + cost(KB, s + 1) + hop(s + 1, s);
      if (stageEnd[s] >= next)
        continue;
      int64_t live = memory[s] + stage(s).stashBytes;
      double weightTime = 0.0;
      for (int w = count[KW][s]; live > limit && w < count[KB][s]; ++w) {
        weightTime += cost(KW, s);
        live += delta(KW, s);
      }
      if (stageEnd[s] + cost(KF, s) + weightTime <= next) {
        wantF[s] = 1;
        continue;
      }
      if (next - stageEnd[s] <= maxBubble() - bubble[s])
        continue;
    }
    wantF[s] = 1;
  }
  for (int s = numStages - 2; s >= 0; --s)
    wantF[s] = std::min(wantF[s], wantF[s + 1]);
  for (int s = 0; s < numStages; ++s) {
    if (!wantF[s])
      continue;
    if (!makeRoom(s, KF))
      return false;
    if (s > 0)
      fillUntil(s, endF[key(s - 1, count[KF][s])] + hop(s - 1, s));
    put(s, KF);
  }
  for (int s = numStages - 1; s >= 0; --s) {
    if (count[KB][s] != i)
      return false; // a B would run before its F: not for this shape
    if (!makeRoom(s, KB))
      return false;
    if (s + 1 < numStages)
      fillUntil(s, endB[key(s + 1, i)] + hop(s + 1, s));
    if (s == 0 && count[KF][s] == numMicrobatches)
      while (count[KW][s] < count[KB][s])
        put(s, KW);
    put(s, KB);
  }
  return true;
}

bool ZBGreedy::run(Schedule &schedule) {
  out = &schedule;
  for (std::vector<int> &c : count)
    c.assign(numStages, 0);
  stageEnd.assign(numStages, 0.0);
  bubble.assign(numStages, 0.0);
  memory.assign(numStages, 0);
  endF.assign(static_cast<size_t>(numStages) * numMicrobatches, 0.0);
  endB.assign(endF.size(), 0.0);
  for (int s = 0; s < numStages; ++s)
    if (!fits(KF, s))
      return false;
  warmUp();
  for (int s = numStages - 1; s >= 0; --s) {
    if (!makeRoom(s, KB))
      return false;
    put(s, KB);
  }
  for (int i = 1; i < numMicrobatches; ++i)
    if (!round(i))
      return false;
  for (int s = 0; s < numStages; ++s)
    while (count[KW][s] < numMicrobatches)
      put(s, KW);
  return true;
}

} // namespace

llvm::Expected<Schedule> mlir::pp::sched::buildZeroBubbleGreedy(
    const PipelineModel &model, int numMicrobatches, int64_t memoryLimitBytes,
    ZeroBubbleGreedyPolicy policy) {
  if (numMicrobatches < 1)
    return llvm::createStringError("num-microbatches must be >= 1, got %d",
                                   numMicrobatches);
  llvm::Expected<std::vector<int>> stageOfRank =
      stagePerRank("zb-greedy", model);
  if (!stageOfRank)
    return stageOfRank.takeError();
  std::vector<int> rankOfStage(model.numStages());
  for (int r = 0; r < model.numRanks; ++r)
    rankOfStage[(*stageOfRank)[r]] = r;
  Schedule schedule;
  schedule.numMicrobatches = numMicrobatches;
  schedule.ranks.resize(model.numRanks);
  ZBGreedy greedy(model, numMicrobatches, memoryLimitBytes, policy,
                  std::move(rankOfStage));
  if (!greedy.run(schedule))
    return llvm::createStringError(
        "'zb-greedy': cannot fit the memory limit of %lld bytes per rank",
        static_cast<long long>(memoryLimitBytes));
  return schedule;
}

std::vector<ZeroBubbleGreedyPolicy>
mlir::pp::sched::detail::zeroBubbleGreedyPolicies() {
  std::vector<ZeroBubbleGreedyPolicy> policies;
  for (int bits = 0; bits < 8; ++bits)
    policies.push_back({(bits & 1) != 0, (bits & 2) != 0, (bits & 4) != 0});
  return policies;
}

llvm::Expected<Schedule> mlir::pp::sched::buildZeroBubbleGreedyBest(
    const PipelineModel &model, int numMicrobatches, int64_t memoryLimitBytes) {
  std::optional<Schedule> best;
  double bestSpan = 0, bestMakespan = 0;
  std::string lastError;
  for (const ZeroBubbleGreedyPolicy &policy : zeroBubbleGreedyPolicies()) {
    llvm::Expected<Schedule> schedule =
        buildZeroBubbleGreedy(model, numMicrobatches, memoryLimitBytes, policy);
    if (!schedule) {
      lastError = llvm::toString(schedule.takeError());
      continue;
    }
    SimulationResult result = simulate(model, *schedule);
    if (!best || result.maxRankSpan < bestSpan ||
        (result.maxRankSpan == bestSpan && result.makespan < bestMakespan)) {
      best = std::move(*schedule);
      bestSpan = result.maxRankSpan;
      bestMakespan = result.makespan;
    }
  }
  if (!best)
    return llvm::createStringError(lastError);
  return std::move(*best);
}
