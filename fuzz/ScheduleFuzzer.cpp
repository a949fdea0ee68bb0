//===- ScheduleFuzzer.cpp - the schedule library on fuzzed pipelines ------===//
//
// Builds a pipeline from the input bytes (ranks, stages per rank, loop, V or
// explicit placement, per-stage F/B/W costs and stash sizes, latency, the
// number of micro-batches, the interleaved group size and a memory limit),
// then every named schedule and "auto" on it. A schedule that
// buildSchedule() returns must pass checkSchedule(), complete findDeadlock()
// and satisfy every invariant of ScheduleInvariants.h (communication,
// simulation, reports, table round trip); "auto" under a memory limit must
// fit it and be no slower than any named schedule that fits. An error must
// have a message. Anything else aborts.
//
// Input layout (bytes past the end read as 0): P, V, placement, M, group
// size, latency, limit, then per stage: rank (explicit placement), F, B, W,
// M_B, M_W.
//
//===----------------------------------------------------------------------===//

#include "ScheduleInvariants.h"

using namespace ppfuzz;

static const double kTimes[] = {1, 0, 0.5, 2, 1.5, 3, 0.25, 4};
static const double kLatencies[] = {0, 0.1, 0.5, 1};
static const int64_t kBytes[] = {1, 0, 2, 4, 100, 1 << 20, 3, 7};

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  ByteReader in(data, size);
  PipelineModel model;
  model.numRanks = 1 + in.below(6);
  int stagesPerRank = 1 + in.below(3);
  unsigned placementKind = in.below(3);
  int numMicrobatches = 1 + in.below(12);
  ScheduleOptions options;
  options.groupSize = static_cast<int>(in.below(4)); // 0: P
  model.latency = in.pick(kLatencies);
  unsigned limitChoice = in.byte();

  int numStages;
  std::vector<int> ranks;
  if (placementKind == 2) {
    // Explicit: any rank for any stage (some ranks may get none).
    numStages = 1 + in.below(2 * model.numRanks + 2);
    for (int s = 0; s < numStages; ++s)
      ranks.push_back(static_cast<int>(in.below(model.numRanks)));
  } else {
    Placement placement = placementKind == 0 ? Placement::Loop : Placement::V;
    if (placement == Placement::V)
      stagesPerRank = 2;
    llvm::Expected<std::vector<int>> placed =
        placeStages(placement, model.numRanks, stagesPerRank);
    if (!placed)
      fail("placeStages refused a valid shape: " +
           llvm::toString(placed.takeError()));
    ranks = *placed;
    numStages = static_cast<int>(ranks.size());
  }
  for (int s = 0; s < numStages; ++s) {
    StageInfo stage;
    stage.rank = ranks[s];
    stage.forwardTime = in.pick(kTimes);
    stage.backwardInputTime = in.pick(kTimes);
    stage.backwardWeightTime = in.pick(kTimes);
    stage.stashBytes = in.pick(kBytes);
    stage.weightStashBytes = in.pick(kBytes);
    model.stages.push_back(stage);
  }
  model.activationBytes = 16;
  // No limit, or a limit between 0 and 8 of the largest stash.
  int64_t largest = 1;
  for (const StageInfo &stage : model.stages)
    largest = std::max(largest, stage.stashBytes);
  if (limitChoice % 4)
    options.memoryLimitBytes = largest * (limitChoice % 32) / 4;

  std::string shape = "P=" + std::to_string(model.numRanks) +
                      " S=" + std::to_string(numStages) +
                      " M=" + std::to_string(numMicrobatches);
  double bestNamedThatFits = -1;
  for (const std::string &name : scheduleNames()) {
    std::string what = "'" + name + "' (" + shape + ")";
    llvm::Expected<Schedule> schedule =
        buildSchedule(name, model, numMicrobatches, options);
    if (!schedule) {
      (void)takeMessage(schedule.takeError(), "buildSchedule");
      continue;
    }
    if (schedule->numMicrobatches != numMicrobatches ||
        static_cast<int>(schedule->ranks.size()) != model.numRanks)
      fail(what + ": the schedule has another M or rank count");
    std::vector<Problem> problems = checkSchedule(model, *schedule);
    if (!problems.empty())
      fail(what + " fails checkSchedule: " + firstProblem(problems));
    DeadlockReport deadlock = findDeadlock(model, *schedule);
    if (!deadlock.completed)
      fail(what + " deadlocks: " + firstProblem(deadlock.blocked));
    checkValidSchedule(model, *schedule, what);

    SimulationResult result = simulate(model, *schedule);
    int64_t peak = 0;
    for (const RankMetrics &rank : result.ranks)
      peak = std::max(peak, rank.peakMemoryBytes);
    bool fits =
        options.memoryLimitBytes <= 0 || peak <= options.memoryLimitBytes;
    if (name == "auto") {
      if (!fits)
        fail(what + ": peak memory " + std::to_string(peak) +
             " exceeds the limit " + std::to_string(options.memoryLimitBytes));
      // auto tries every named schedule (with the same options) and keeps
      // the fastest that fits.
      if (bestNamedThatFits >= 0 &&
          !nearlyLess(result.makespan, bestNamedThatFits))
        fail(what + ": makespan " + std::to_string(result.makespan) +
             " is worse than a named schedule's " +
             std::to_string(bestNamedThatFits) + " that fits");
    } else if (fits &&
               (bestNamedThatFits < 0 || result.makespan < bestNamedThatFits)) {
      bestNamedThatFits = result.makespan;
    }
  }
  return 0;
}
