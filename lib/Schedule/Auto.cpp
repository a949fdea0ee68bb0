//===- Auto.cpp - memory-aware automatic schedule -------------------------===//
//
// "auto" builds a schedule for the pipeline's own costs (F, B, W per stage,
// latency, any placement) that minimizes the step makespan (or the largest
// rank span, AutoObjective) under a per-rank activation-memory limit, and
// reports how good it is (planAuto(), pp/Schedule/AutoSchedule.h).
//
// After the zero-bubble paper's automatic scheduling (Qi et al., "Zero
// Bubble Pipeline Parallelism", ICLR 2024, sec. 3: a heuristic, refined by
// an ILP where small), it simulates and keeps the best of
// - the paper's greedy scheduler under its eight policies (ZBGreedy.cpp),
// - our own list-scheduling greedy (below) under four policies, on a ladder
//   of memory limits (any placement),
// - every named schedule that applies,
// then refines the best by local search (LocalSearch.cpp) and, on small
// instances, by an exact MIP solved by COIN-OR CBC (Exact.cpp), and bounds
// it from below (Bounds.cpp). So auto is never worse than the best named
// schedule or the paper's scheduler within the same limit.
//
//===----------------------------------------------------------------------===//

#include "Generators.h"
#include "Refine.h"
#include "pp/Schedule/AutoSchedule.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <chrono>
#include <deque>
#include <limits>
#include <optional>
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
      : model(model), numStages(model.numStages()),
        numMicrobatches(numMicrobatches),
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
        weight = std::max(weight, backwardNeed(t));
    }
    return need + weight;
  }
  /// Bytes a B of stage s needs on top of the live ones while it runs.
  int64_t backwardNeed(int s) const {
    const StageInfo &stage = model.stages[s];
    return model.stashAccounting == StashAccounting::HoldDuringBackward
               ? stage.weightStashBytes
               : std::max<int64_t>(0,
                                   stage.weightStashBytes - stage.stashBytes);
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
  int64_t remaining =
      static_cast<int64_t>(numStages) * numMicrobatches * (split ? 3 : 2);

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
          earliest = std::min(earliest, forwardReady(s, nextForward[r][i], r));
        if (nextBackward[r][i] < numMicrobatches &&
            (!split || memory[r] + backwardNeed(s) <= limit))
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
          (!split || memory[r] + backwardNeed(s) <= limit)) {
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

bool hasSplitBackward(const PipelineModel &model) {
  for (const StageInfo &stage : model.stages)
    if (stage.backwardWeightTime > 0)
      return true;
  return false;
}

/// What one micro-batch needs on a rank: the stashes of all the rank's
/// stages (a later stage's forward runs before the earlier stage's
/// backward), plus what one of its B's needs on top while it runs.
struct Floor {
  int64_t bytes = 0;
  int rank = 0;
};

Floor floorOf(const PipelineModel &model, bool split) {
  std::vector<std::vector<int>> stagesOf = stagesOfRanks(model);
  Floor floor;
  for (int r = 0; r < model.numRanks; ++r) {
    int64_t need = 0, weight = 0;
    for (int s : stagesOf[r]) {
      const StageInfo &stage = model.stages[s];
      need += stage.stashBytes;
      if (!split)
        continue;
      weight = std::max(
          weight, model.stashAccounting == StashAccounting::HoldDuringBackward
                      ? stage.weightStashBytes
                      : stage.weightStashBytes - stage.stashBytes);
    }
    if (need + weight > floor.bytes) {
      floor.bytes = need + weight;
      floor.rank = r;
    }
  }
  return floor;
}

/// A pipeline without W work runs fused backwards: B then W(0 us) becomes
/// one Backward.
void fuseBackwards(Schedule &schedule) {
  for (std::vector<Action> &program : schedule.ranks) {
    std::vector<Action> fused;
    fused.reserve(program.size());
    for (Action action : program) {
      if (action.kind == ActionKind::BackwardWeight)
        continue;
      if (action.kind == ActionKind::BackwardInput)
        action.kind = ActionKind::Backward;
      fused.push_back(action);
    }
    program = std::move(fused);
  }
}

/// Under StashAccounting::HoldDuringBackward a B holds its weight stash and
/// its stash at once; a fused backward does not. On the first stage, whose
/// input gradient nobody waits for, a B directly followed by its W runs just
/// as fast fused, so fuse it: same timings, less memory (ZB-H1's rank 0,
/// whose every B is followed by its W, then fits 1F1B's P M_B).
void fuseFirstStage(const PipelineModel &model, Schedule &schedule) {
  if (model.stashAccounting != StashAccounting::HoldDuringBackward ||
      model.stages.empty() || model.stages[0].weightStashBytes <= 0)
    return;
  for (std::vector<Action> &program : schedule.ranks)
    for (size_t i = 0; i + 1 < program.size(); ++i) {
      Action &b = program[i];
      const Action &w = program[i + 1];
      if (b.kind == ActionKind::BackwardInput && b.stage == 0 &&
          w.kind == ActionKind::BackwardWeight && w.stage == 0 &&
          w.microbatch == b.microbatch && !b.overlapWithNext &&
          !(i > 0 && startsOverlapPair(program, i - 1))) {
        b.kind = ActionKind::Backward;
        program.erase(program.begin() + i + 1);
      }
    }
}

/// The candidates auto has seen: the best one under its objective, and the
/// best one under the other objective (a second start for the local
/// search).
class Candidates {
public:
  Candidates(const PipelineModel &model, int64_t limit, AutoObjective objective)
      : model(model), limit(limit), objective(objective) {}

  /// Simulates `schedule`; keeps it if it fits and beats a best one.
  void consider(std::string name, Schedule schedule) {
    fuseFirstStage(model, schedule);
    Score s = scoreOf(model, schedule);
    ++count;
    if (!s.complete || (limit > 0 && s.peak > limit))
      return;
    AutoObjective other = objective == AutoObjective::StepMakespan
                              ? AutoObjective::MaxRankSpan
                              : AutoObjective::StepMakespan;
    if (!alternate || s.betterThan(alternateScore, other)) {
      alternate = schedule;
      alternateScore = s;
      alternateName = name;
    }
    if (best && !s.betterThan(bestScore, objective))
      return;
    best = std::move(schedule);
    bestScore = s;
    bestName = std::move(name);
  }

  const PipelineModel &model;
  int64_t limit;
  AutoObjective objective;
  std::optional<Schedule> best, alternate;
  Score bestScore, alternateScore;
  std::string bestName, alternateName;
  int count = 0;
};

std::string policyName(ZeroBubbleGreedyPolicy policy) {
  std::string flags;
  auto add = [&](bool on, const char *name) {
    if (on)
      flags += (flags.empty() ? "" : ", ") + std::string(name);
  };
  add(policy.allowBubbleBeforeFirstB, "allow-bubble");
  add(policy.prioritizeB, "prioritize-b");
  add(policy.fillSmallGapsWithW, "fill-small-gaps");
  return "zb-greedy" + (flags.empty() ? std::string() : " (" + flags + ")");
}

/// Every heuristic candidate: auto's own greedy under four policies on a
/// ladder of memory limits, the paper's greedy under its eight policies on
/// the same ladder and at the limit itself, and every named schedule.
void runHeuristics(Candidates &candidates, int numMicrobatches,
                   const ScheduleOptions &options, const Floor &floor,
                   bool split) {
  const PipelineModel &model = candidates.model;
  int64_t limit = options.memoryLimitBytes;
  auto greedy = [&](int64_t runLimit,
                    Policy policy) -> std::optional<Schedule> {
    Schedule candidate;
    candidate.numMicrobatches = numMicrobatches;
    candidate.ranks.resize(model.numRanks);
    Greedy run(model, numMicrobatches, runLimit, policy);
    if (!run.run(candidate))
      return std::nullopt;
    return candidate;
  };
  auto paperGreedy = [&](int64_t runLimit) {
    for (const ZeroBubbleGreedyPolicy &policy : zeroBubbleGreedyPolicies()) {
      llvm::Expected<Schedule> candidate =
          buildZeroBubbleGreedy(model, numMicrobatches, runLimit, policy);
      if (!candidate) {
        llvm::consumeError(candidate.takeError());
        return; // the shape (or this limit) does not suit it
      }
      if (!split)
        fuseBackwards(*candidate);
      candidates.consider(policyName(policy), std::move(*candidate));
    }
  };
  const Policy policies[] = {
      {false, false}, {false, true}, {true, false}, {true, true}};
  const char *policyNames[] = {
      "greedy (backward first)", "greedy (backward first, eager W)",
      "greedy (forward first)", "greedy (forward first, eager W)"};

  // The ladder depends only on the model: from the floor up to the peak
  // the unlimited runs reach, in at most 32 steps of at least one stash. A
  // request runs every rung at or below its limit, so a larger limit runs a
  // superset of the ladder's candidates.
  int64_t unlimitedPeak = 0, smallestStash = 0;
  for (const StageInfo &stage : model.stages)
    if (stage.stashBytes > 0)
      smallestStash = smallestStash ? std::min(smallestStash, stage.stashBytes)
                                    : stage.stashBytes;
  for (size_t i = 0; i < 4; ++i)
    if (std::optional<Schedule> candidate = greedy(0, policies[i])) {
      unlimitedPeak = std::max(unlimitedPeak, scoreOf(model, *candidate).peak);
      candidates.consider(policyNames[i], std::move(*candidate));
    }
  int64_t step = std::max<int64_t>(std::max<int64_t>(smallestStash, 1),
                                   (unlimitedPeak - floor.bytes + 31) / 32);
  for (int64_t rung = floor.bytes; rung < unlimitedPeak; rung += step) {
    if (limit > 0 && rung > limit)
      break;
    for (size_t i = 0; i < 4; ++i)
      if (std::optional<Schedule> candidate = greedy(rung, policies[i]))
        candidates.consider(policyNames[i], std::move(*candidate));
    paperGreedy(rung);
  }
  paperGreedy(limit);

  // Every named schedule, built without the limit (buildSchedule would
  // refuse those above it); consider() drops the ones that do not fit.
  ScheduleOptions named = options;
  named.memoryLimitBytes = 0;
  for (const std::string &name : scheduleNames()) {
    if (name == "auto")
      continue;
    llvm::Expected<Schedule> candidate =
        buildSchedule(name, model, numMicrobatches, named);
    if (!candidate) {
      llvm::consumeError(candidate.takeError());
      continue;
    }
    candidates.consider(name, std::move(*candidate));
  }
}

/// Local search, then (on small instances) the exact solver, on the best
/// candidate; fills the report's bounds, proof and solver status.
void refine(Candidates &candidates, int numMicrobatches,
            const ScheduleOptions &options, AutoReport &report) {
  const PipelineModel &model = candidates.model;
  int64_t limit = options.memoryLimitBytes;
  if (options.localSearchRounds > 0) {
    // From the best candidate, and from the best one under the other
    // measure (which the search may bring down on this one's).
    std::pair<Schedule, std::string> starts[] = {
        {*candidates.best, candidates.bestName},
        {*candidates.alternate, candidates.alternateName}};
    for (auto &[copy, name] : starts)
      if (localSearch(model, copy, limit, options.localSearchRounds,
                      options.autoObjective) &&
          checkSchedule(model, copy).empty() &&
          findDeadlock(model, copy).completed)
        candidates.consider(name + " + local search", std::move(copy));
  }
  report.bounds = lowerBounds(model, numMicrobatches, limit);
  auto reachesBound = [&] {
    double bound = report.bounds.best;
    return candidates.bestScore.makespan <= bound * (1 + 1e-9) + 1e-12;
  };
  if (options.autoObjective == AutoObjective::MaxRankSpan) {
    report.solverStatus =
        "not run (the exact model minimizes the step makespan)";
    report.provenOptimal = candidates.bestScore.maxRankSpan <=
                           report.bounds.busiestRankWork * (1 + 1e-9) + 1e-12;
    return;
  }
  int64_t numActions = 0;
  for (const StageInfo &stage : model.stages)
    numActions += numMicrobatches * (stage.backwardWeightTime > 0 ? 3 : 2);
  if (reachesBound()) {
    report.provenOptimal = true;
    report.solverStatus = "not run (the makespan reaches a lower bound)";
    return;
  }
  if (options.solverTimeLimitSeconds <= 0) {
    report.solverStatus = "not run (no time given)";
    return;
  }
  if (numActions > options.solverMaxActions) {
    report.solverStatus = "not run (" + std::to_string(numActions) +
                          " actions, more than " +
                          std::to_string(options.solverMaxActions) + ")";
    return;
  }
  ExactResult exact =
      solveExact(model, numMicrobatches, limit, *candidates.best,
                 options.solverTimeLimitSeconds, report.bounds.best);
  report.solverStatus = exact.status;
  if (exact.improved)
    candidates.consider(candidates.bestName + " + exact",
                        std::move(*exact.improved));
  report.bounds.lpRelaxation = exact.lpRelaxation;
  double makespan = candidates.bestScore.makespan;
  report.bounds.best = std::max({report.bounds.best, report.bounds.lpRelaxation,
                                 std::min(exact.bound, makespan)});
  if (exact.provenOptimal) {
    report.provenOptimal = true;
    report.bounds.best = std::max(report.bounds.best, makespan);
  } else if (exact.status == "time limit") {
    report.solverStatus +=
        " (gap " + formatNumber(optimalityGap(makespan, report.bounds.best)) +
        ")";
  }
}

} // namespace

llvm::Expected<AutoReport>
mlir::pp::sched::planAuto(const PipelineModel &model, int numMicrobatches,
                          const ScheduleOptions &options) {
  auto start = std::chrono::steady_clock::now();
  if (llvm::Error error = checkRequest(model, numMicrobatches))
    return std::move(error);
  int64_t limit = options.memoryLimitBytes;
  bool split = hasSplitBackward(model);
  Floor floor = floorOf(model, split);
  if (limit > 0 && limit < floor.bytes) {
    const char *what =
        !split ? "the stashes of its stages"
        : model.stashAccounting == StashAccounting::HoldDuringBackward
            ? "the stashes of its stages plus one weight stash"
            : "the stashes of its stages, and one B's weight stash beyond "
              "its stash";
    return llvm::createStringError(
        "'auto': the memory limit of %lld bytes per rank is below what one "
        "micro-batch needs on rank %d (%s: %lld bytes); no schedule fits",
        static_cast<long long>(limit), floor.rank, what,
        static_cast<long long>(floor.bytes));
  }

  Candidates candidates(model, limit, options.autoObjective);
  runHeuristics(candidates, numMicrobatches, options, floor, split);
  if (!candidates.best)
    return llvm::createStringError(
        "'auto': no schedule fits the memory limit of %lld bytes per rank "
        "(one micro-batch needs %lld bytes on rank %d)",
        static_cast<long long>(limit), static_cast<long long>(floor.bytes),
        floor.rank);
  AutoReport report;
  refine(candidates, numMicrobatches, options, report);
  report.winner = candidates.bestName;
  report.makespan = candidates.bestScore.makespan;
  report.maxRankSpan = candidates.bestScore.maxRankSpan;
  report.peakMemoryBytes = candidates.bestScore.peak;
  report.gap = optimalityGap(report.makespan, report.bounds.best);
  report.numCandidates = candidates.count;
  report.schedule = std::move(*candidates.best);
  report.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  return report;
}

llvm::Error mlir::pp::sched::detail::buildAuto(llvm::StringRef,
                                               const PipelineModel &model,
                                               int numMicrobatches,
                                               const ScheduleOptions &options,
                                               Schedule &schedule) {
  llvm::Expected<AutoReport> report = planAuto(model, numMicrobatches, options);
  if (!report)
    return report.takeError();
  schedule = std::move(report->schedule);
  return llvm::Error::success();
}
