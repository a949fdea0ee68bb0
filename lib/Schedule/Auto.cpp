//===- Auto.cpp - memory-aware automatic schedule --------------------------===//
//
// "auto" builds a schedule for the pipeline's own costs (F, B, W per stage,
// latency) that minimizes the makespan under a per-rank activation-memory
// limit.
//
// It follows the zero-bubble paper's approach (Qi et al., "Zero Bubble
// Pipeline Parallelism", ICLR 2024, sec. 3.1, "automatic scheduling"): a
// greedy list scheduler that, on every rank, starts forwards while memory
// allows, runs input-gradient work (B) as soon as it can because the previous
// stage waits for it, and uses weight-gradient work (W) to fill what would
// otherwise be bubbles or to free memory. Where the paper then refines the
// greedy schedule with an ILP, we instead try several greedy policies and
// every named schedule that applies to the pipeline's shape, simulate each
// under the same costs, and keep the fastest one that fits the limit. So
// "auto" is never worse than the best named schedule that fits, and as the
// limit grows its greedy candidates approach the lower bound, the busiest
// rank's total work.
//
//===----------------------------------------------------------------------===//

#include "Generators.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <deque>
#include <limits>
#include <queue>
#include <set>

using namespace mlir::pp::sched;
using namespace mlir::pp::sched::detail;

namespace {

/// How a greedy candidate orders the work a rank can start.
struct Policy {
  /// Prefer a ready forward over a ready backward (fill the pipeline first,
  /// GPipe-like) instead of the reverse (1F1B-like).
  bool forwardFirst;
  /// Run each W right after its B instead of only to fill idle time or to
  /// free memory.
  bool eagerWeight;
};

constexpr double kInf = std::numeric_limits<double>::infinity();

/// One greedy list-scheduling run. Returns false if the ranks stall (the
/// memory limit leaves no rank anything to run).
class Greedy {
public:
  Greedy(const PipelineModel &model, int numMicrobatches, int64_t limit,
         Policy policy)
      : model(model), numStages(model.numStages()), numMicrobatches(
                                                        numMicrobatches),
        limit(limit > 0 ? limit : std::numeric_limits<int64_t>::max()),
        policy(policy) {
    for (const StageInfo &stage : model.stages)
      split = split || stage.backwardWeightTime > 0;
    stagesOfRank = stagesOfRanks(model);
  }

  bool run(Schedule &schedule);

private:
  /// Memory a rank must have free to start F(s, m): its stash, the stashes
  /// of this micro-batch's later forwards on the same rank (so that a
  /// micro-batch once started can always go on), and room for one weight
  /// stash (so that a backward can always run and free memory).
  int64_t forwardNeed(int s, int rank) const {
    int64_t need = 0, weight = 0;
    for (int t : stagesOfRank[rank]) {
      if (t >= s)
        need += model.stages[t].stashBytes;
      if (split)
        weight = std::max(weight, model.stages[t].weightStashBytes);
    }
    return need + weight;
  }
  size_t key(int s, int m) const {
    return static_cast<size_t>(s) * numMicrobatches + m;
  }
  /// Time the output of (kind, s, m) reaches `rank`, or kInf if it is not
  /// scheduled yet.
  double arrival(const std::vector<double> &ends, int s, int m,
                 int rank) const {
    double end = ends[key(s, m)];
    if (end == kInf)
      return kInf;
    return model.rankOf(s) == rank ? end : end + model.latency;
  }
  double forwardReady(int s, int m, int rank) const {
    return s == 0 ? 0.0 : arrival(forwardEnd, s - 1, m, rank);
  }
  double backwardReady(int s, int m, int rank) const {
    double ready = forwardEnd[key(s, m)];
    if (s + 1 < numStages)
      ready = std::max(ready, arrival(backwardEnd, s + 1, m, rank));
    return ready;
  }

  const PipelineModel &model;
  int numStages, numMicrobatches;
  int64_t limit;
  Policy policy;
  bool split = false;
  std::vector<std::vector<int>> stagesOfRank;
  std::vector<double> forwardEnd, backwardEnd;
};

bool Greedy::run(Schedule &schedule) {
  int numRanks = model.numRanks;
  forwardEnd.assign(static_cast<size_t>(numStages) * numMicrobatches, kInf);
  backwardEnd.assign(forwardEnd.size(), kInf);
  const std::vector<std::vector<int>> &stagesOf = stagesOfRank;

  // Per rank: its clock, live stash bytes, the next micro-batch each of its
  // stages will run forward and backward (both in micro-batch order, as in
  // every named schedule), and the W it still owes (FIFO).
  std::vector<double> clock(numRanks, 0.0);
  std::vector<int64_t> memory(numRanks, 0);
  std::vector<std::vector<int>> nextForward(numRanks), nextBackward(numRanks);
  std::vector<std::deque<std::pair<int, int>>> pendingWeight(numRanks);
  for (int r = 0; r < numRanks; ++r) {
    nextForward[r].assign(stagesOf[r].size(), 0);
    nextBackward[r].assign(stagesOf[r].size(), 0);
  }
  int64_t remaining = static_cast<int64_t>(numStages) * numMicrobatches *
                      (split ? 3 : 2);

  auto emit = [&](int r, ActionKind kind, int s, int m, double start) {
    schedule.ranks[r].push_back(compute(kind, s, m));
    double end = start + actionTime(model, schedule.ranks[r].back());
    clock[r] = end;
    --remaining;
    return end;
  };

  while (remaining > 0) {
    // Pick the rank that can start something earliest; its choice cannot
    // depend on work other ranks have yet to schedule, since all of that
    // ends later.
    int bestRank = -1;
    double bestStart = kInf;
    for (int r = 0; r < numRanks; ++r) {
      // A forward counts only if it fits in memory: memory changes only by
      // this rank's own work, so a forward that does not fit now waits for
      // one of its backwards or weight passes.
      double earliest = kInf;
      for (size_t i = 0; i < stagesOf[r].size(); ++i) {
        int s = stagesOf[r][i];
        if (nextForward[r][i] < numMicrobatches &&
            memory[r] + forwardNeed(s, r) <= limit)
          earliest =
              std::min(earliest, forwardReady(s, nextForward[r][i], r));
        if (nextBackward[r][i] < numMicrobatches &&
            (!split ||
             memory[r] + model.stages[s].weightStashBytes <= limit))
          earliest =
              std::min(earliest, backwardReady(s, nextBackward[r][i], r));
      }
      if (!pendingWeight[r].empty())
        earliest = 0.0;
      earliest = std::max(earliest, clock[r]);
      if (earliest < bestStart) {
        bestStart = earliest;
        bestRank = r;
      }
    }
    if (bestRank < 0)
      return false; // every rank waits on work no rank can start

    int r = bestRank;
    double now = bestStart;
    // Candidates that can start at `now`.
    int bestF = -1, bestB = -1;
    for (size_t i = 0; i < stagesOf[r].size(); ++i) {
      int s = stagesOf[r][i];
      int mf = nextForward[r][i], mb = nextBackward[r][i];
      if (mf < numMicrobatches && forwardReady(s, mf, r) <= now &&
          memory[r] + forwardNeed(s, r) <= limit) {
        // Deeper stages first: finish micro-batches already in flight.
        if (bestF < 0 || s > stagesOf[r][bestF])
          bestF = static_cast<int>(i);
      }
      if (mb < numMicrobatches && backwardReady(s, mb, r) <= now &&
          (!split ||
           memory[r] + model.stages[s].weightStashBytes <= limit)) {
        if (bestB < 0 || nextBackward[r][i] < nextBackward[r][bestB] ||
            (nextBackward[r][i] == nextBackward[r][bestB] &&
             s > stagesOf[r][bestB]))
          bestB = static_cast<int>(i);
      }
    }
    auto runWeight = [&]() {
      auto [s, m] = pendingWeight[r].front();
      pendingWeight[r].pop_front();
      emit(r, ActionKind::BackwardWeight, s, m, now);
      memory[r] -= model.stages[s].weightStashBytes;
    };
    auto runForward = [&]() {
      int s = stagesOf[r][bestF], m = nextForward[r][bestF]++;
      memory[r] += model.stages[s].stashBytes;
      forwardEnd[key(s, m)] = emit(r, ActionKind::Forward, s, m, now);
    };
    auto runBackward = [&]() {
      int s = stagesOf[r][bestB], m = nextBackward[r][bestB]++;
      if (split) {
        memory[r] += model.stages[s].weightStashBytes;
        backwardEnd[key(s, m)] = emit(r, ActionKind::BackwardInput, s, m, now);
        pendingWeight[r].push_back({s, m});
      } else {
        backwardEnd[key(s, m)] = emit(r, ActionKind::Backward, s, m, now);
      }
      memory[r] -= model.stages[s].stashBytes;
      if (split && policy.eagerWeight) {
        now = clock[r];
        runWeight();
      }
    };

    if (bestF >= 0 && (policy.forwardFirst || bestB < 0))
      runForward();
    else if (bestB >= 0)
      runBackward();
    else
      runWeight(); // nothing else can start now: W fills the gap
  }
  return true;
}

/// The makespan and peak memory of a compute-only schedule.
struct Score {
  double makespan = kInf;
  int64_t peak = std::numeric_limits<int64_t>::max();
};

static Score score(const PipelineModel &model, const Schedule &schedule) {
  SimulationResult result = simulate(model, schedule);
  Score s;
  s.makespan = result.makespan;
  s.peak = 0;
  for (const RankMetrics &rank : result.ranks)
    s.peak = std::max(s.peak, rank.peakMemoryBytes);
  return s;
}

} // namespace

llvm::Error mlir::pp::sched::detail::buildAuto(const PipelineModel &model,
                                               int numMicrobatches,
                                               const ScheduleOptions &options,
                                               Schedule &schedule) {
  int64_t limit = options.memoryLimitBytes;
  bool split = false;
  for (const StageInfo &stage : model.stages)
    split = split || stage.backwardWeightTime > 0;

  // The floor: one micro-batch in flight on the busiest rank holds the
  // stashes of all its stages at once (a later stage's forward runs before
  // the earlier stage's backward), plus one weight stash while a B runs.
  std::vector<std::vector<int>> stagesOf = stagesOfRanks(model);
  int64_t floor = 0, smallestStash = std::numeric_limits<int64_t>::max();
  int floorRank = 0;
  for (int r = 0; r < model.numRanks; ++r) {
    int64_t need = 0, weight = 0;
    for (int s : stagesOf[r]) {
      need += model.stages[s].stashBytes;
      if (split)
        weight = std::max(weight, model.stages[s].weightStashBytes);
      if (model.stages[s].stashBytes > 0)
        smallestStash = std::min(smallestStash, model.stages[s].stashBytes);
    }
    if (need + weight > floor) {
      floor = need + weight;
      floorRank = r;
    }
  }
  if (limit > 0 && limit < floor)
    return llvm::createStringError(
        "'auto': the memory limit of %lld bytes per rank is below what one "
        "micro-batch needs on rank %d (the stashes of its stages plus one "
        "weight stash: %lld bytes); no schedule fits",
        static_cast<long long>(limit), floorRank, static_cast<long long>(floor));

  std::optional<Schedule> best;
  Score bestScore;
  auto consider = [&](Schedule candidate) {
    Score s = score(model, candidate);
    if (limit > 0 && s.peak > limit)
      return;
    if (!best || s.makespan < bestScore.makespan ||
        (s.makespan == bestScore.makespan && s.peak < bestScore.peak)) {
      best = std::move(candidate);
      bestScore = s;
    }
  };
  auto greedy = [&](int64_t runLimit, Policy policy) -> std::optional<Schedule> {
    Schedule candidate;
    candidate.numMicrobatches = numMicrobatches;
    candidate.ranks.resize(model.numRanks);
    Greedy run(model, numMicrobatches, runLimit, policy);
    if (!run.run(candidate))
      return std::nullopt;
    return candidate;
  };
  const Policy policies[] = {
      {false, false}, {false, true}, {true, false}, {true, true}};

  // Greedy candidates on a ladder of limits that depends only on the model:
  // from the floor up to the peak the unlimited runs reach, in at most 32
  // steps of at least one stash. A request runs every rung at or below its
  // limit, so a larger limit runs a superset of candidates and auto's
  // makespan never grows with the limit.
  int64_t unlimitedPeak = 0;
  for (const Policy &policy : policies)
    if (std::optional<Schedule> candidate = greedy(0, policy)) {
      Score s = score(model, *candidate);
      unlimitedPeak = std::max(unlimitedPeak, s.peak);
      consider(std::move(*candidate));
    }
  if (smallestStash == std::numeric_limits<int64_t>::max())
    smallestStash = 1;
  int64_t step =
      std::max(smallestStash, (unlimitedPeak - floor + 31) / 32);
  for (int64_t rung = floor; rung < unlimitedPeak; rung += step) {
    if (limit > 0 && rung > limit)
      break;
    for (const Policy &policy : policies)
      if (std::optional<Schedule> candidate = greedy(rung, policy))
        consider(std::move(*candidate));
  }
  // Every named schedule that applies.
  for (const std::string &name : scheduleNames()) {
    if (name == "auto")
      continue;
    llvm::Expected<Schedule> candidate =
        buildSchedule(name, model, numMicrobatches, options);
    if (!candidate) {
      llvm::consumeError(candidate.takeError());
      continue;
    }
    consider(std::move(*candidate));
  }

  if (!best)
    return llvm::createStringError(
        "'auto': no schedule fits the memory limit of %lld bytes per rank "
        "(one micro-batch needs %lld bytes on rank %d)",
        static_cast<long long>(limit), static_cast<long long>(floor),
        floorRank);
  schedule = std::move(*best);
  return llvm::Error::success();
}
