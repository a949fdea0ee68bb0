//===- Simulator.cpp - Discrete-event schedule simulator -----------------===//
//
// simulate(): times every action of a schedule under a PipelineModel's costs.
// Each rank runs its program in order and an action starts at
// max(rank clock, time its inputs are ready): the discrete-event model of
// pipeline schedules used by the zero-bubble paper's simulator (Qi et al.,
// "Zero Bubble Pipeline Parallelism", ICLR 2024, sec. 3 and its
// auto-scheduler) and torch.distributed.pipelining's schedule simulator.
//
//===----------------------------------------------------------------------===//

#include "Events.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <queue>

using namespace mlir::pp::sched;
using namespace mlir::pp::sched::detail;

namespace {

/// Event-driven simulation. Since every rank runs its program in order and
/// an action's times depend only on its rank's clock and on the end times of
/// its producers, the times do not depend on the order in which ranks are
/// advanced: a worklist advances a rank until its head action needs an event
/// (a payload made, a Recv completed) that has not happened yet, and parks it
/// on that event's intrusive waiter list. O(ranks + actions + stages *
/// micro-batches) time and memory.
class Simulator : ScheduleRun {
public:
  Simulator(const PipelineModel &model, const Schedule &schedule)
      : ScheduleRun(model, schedule) {}

  SimulationResult run();

private:
  /// The event `kind` of (stage, micro-batch).
  int event(EventTable::Kind kind, int stage, int microbatch) const {
    return events.event(kind, stage, microbatch);
  }
  /// The event of the payload made by (stage, micro-batch).
  int made(PayloadKind payload, int stage, int microbatch) const {
    return event(EventTable::madeKind(payload), stage, microbatch);
  }
  /// If event `e` happened, raises `ready` to its time plus `delay` and
  /// returns true; otherwise parks `rank` on it and returns false.
  bool need(int rank, int e, double delay, double &ready);
  /// Waits for the payload made by (stage, mb) as an input on `rank`.
  bool needInput(int rank, PayloadKind payload, int stage, int microbatch,
                 double &ready);
  /// Raises `ready` to the time the inputs of `action` on `rank` are there,
  /// or parks the rank on the first missing one and returns false.
  bool inputsReady(int rank, const Action &action, double &ready);
  /// Runs the F&B pair at program[i], program[i + 1] of `rank` as one unit,
  /// or parks the rank and returns false.
  bool runPair(int rank, size_t i);
  void fire(int e, double time);
  void advance(int rank);
  /// Compute slots (PipelineModel::computeSlots): true with `ready` raised
  /// to the start the slot granted `rank`'s compute action at the head of
  /// its program; false after making the action a candidate for the next
  /// free slot (run() grants it). Always true without slots.
  bool takeSlot(int rank, double &ready);
  /// The slot taken by the action starting at `start` frees at `end`.
  void releaseSlot(double end);
  /// Grants the next free slot to the candidate ready first; false if
  /// there is none.
  bool grantSlot();

  /// [payload][key]: rank with an explicit Send of it, or -1.
  std::vector<int> sendRank[2];
  std::vector<double> eventTime;
  std::vector<double> clock;
  std::vector<int64_t> liveBytes;
  SimulationResult result;

  bool slotsLimited = false;
  template <typename T>
  using MinHeap = std::priority_queue<T, std::vector<T>, std::greater<T>>;
  /// When each slot frees (one entry per slot that is not granted).
  MinHeap<double> slotFree;
  /// Compute actions waiting for a slot: (ready time, rank).
  MinHeap<std::pair<double, int>> candidates;
  /// Per rank, the start its head action was granted, or -1.
  std::vector<double> granted;
};

} // namespace

bool Simulator::need(int rank, int e, double delay, double &ready) {
  if (!events.happened(e)) {
    events.park(rank, e);
    return false;
  }
  ready = std::max(ready, eventTime[e] + delay);
  return true;
}

bool Simulator::needInput(int rank, PayloadKind payload, int stage,
                          int microbatch, double &ready) {
  int p = payload == PayloadKind::Activation ? 0 : 1;
  if (model.rankOf(stage) == rank)
    return need(rank, made(payload, stage, microbatch), 0.0, ready);
  if (recvRank[p][events.keyOf(stage, microbatch)] == rank)
    return need(rank, event(EventTable::recvKind(payload), stage, microbatch),
                0.0, ready);
  // Compute-only: the payload travels implicitly.
  return need(rank, made(payload, stage, microbatch), model.latency, ready);
}

void Simulator::fire(int e, double time) {
  eventTime[e] = time;
  events.fire(e, worklist);
}

bool Simulator::inputsReady(int rank, const Action &action, double &ready) {
  int s = action.stage, m = action.microbatch;
  switch (action.kind) {
  case ActionKind::Forward:
    return s == 0 || needInput(rank, PayloadKind::Activation, s - 1, m, ready);
  case ActionKind::Backward:
  case ActionKind::BackwardInput:
    return need(rank, event(EventTable::ForwardDone, s, m), 0.0, ready) &&
           (s + 1 == numStages ||
            needInput(rank, PayloadKind::Gradient, s + 1, m, ready));
  case ActionKind::BackwardWeight:
    return need(rank, event(EventTable::BackwardDone, s, m), 0.0, ready);
  case ActionKind::Send:
    // Eager: takes no time and never blocks (its payload is made earlier
    // on this rank).
    return need(rank, made(action.payload, s, m), 0.0, ready);
  case ActionKind::Recv:
    return need(rank, made(action.payload, s, m), model.latency, ready);
  }
  return true;
}

bool Simulator::takeSlot(int rank, double &ready) {
  if (!slotsLimited)
    return true;
  if (granted[rank] >= 0) {
    ready = granted[rank];
    granted[rank] = -1;
    return true;
  }
  candidates.push({ready, rank});
  return false;
}

void Simulator::releaseSlot(double end) {
  if (slotsLimited)
    slotFree.push(end);
}

bool Simulator::grantSlot() {
  if (candidates.empty() || slotFree.empty())
    return false;
  auto [ready, rank] = candidates.top();
  candidates.pop();
  granted[rank] = std::max(ready, slotFree.top());
  slotFree.pop();
  worklist.push_back(rank);
  return true;
}

bool Simulator::runPair(int rank, size_t i) {
  const std::vector<Action> &program = schedule.ranks[rank];
  const Action &forward = program[i], &backward = program[i + 1];
  double ready = clock[rank];
  if (!inputsReady(rank, forward, ready) ||
      !inputsReady(rank, backward, ready) || !takeSlot(rank, ready))
    return false;
  double end = ready + actionTime(model, forward) + actionTime(model, backward);
  releaseSlot(end);
  result.timings[rank][i] = result.timings[rank][i + 1] = {ready, end};
  clock[rank] = end;
  pc[rank] += 2;
  RankMetrics &metrics = result.ranks[rank];
  metrics.busyTime += end - ready;
  // Both run during [ready, end]: the F's stash and the B's weight stash are
  // alive all along, the B's stash until the end (or, converting, the B's
  // stash turns into its weight stash after the F's stash is counted).
  const StageInfo &f = model.stages[forward.stage];
  const StageInfo &b = model.stages[backward.stage];
  int64_t &live = liveBytes[rank];
  int64_t weight =
      backward.kind == ActionKind::BackwardInput ? b.weightStashBytes : 0;
  live += f.stashBytes;
  if (model.stashAccounting == StashAccounting::ConvertAtBackward) {
    metrics.peakMemoryBytes = std::max(metrics.peakMemoryBytes, live);
    live += weight - b.stashBytes;
    metrics.peakMemoryBytes = std::max(metrics.peakMemoryBytes, live);
  } else {
    live += weight;
    metrics.peakMemoryBytes = std::max(metrics.peakMemoryBytes, live);
    live -= b.stashBytes;
  }
  fire(event(EventTable::ForwardDone, forward.stage, forward.microbatch), end);
  fire(event(EventTable::BackwardDone, backward.stage, backward.microbatch),
       end);
  return true;
}

void Simulator::advance(int rank) {
  const std::vector<Action> &program = schedule.ranks[rank];
  RankMetrics &metrics = result.ranks[rank];
  while (pc[rank] < program.size()) {
    size_t i = pc[rank];
    if (startsOverlapPair(program, i)) {
      if (!runPair(rank, i))
        return;
      continue;
    }
    const Action &action = program[i];
    int s = action.stage, m = action.microbatch;
    double ready = clock[rank];
    if (!inputsReady(rank, action, ready) ||
        (action.isCompute() && !takeSlot(rank, ready)))
      return;

    // A Recv is posted when the rank gets to it and ends when the payload
    // is there; every other action starts when it is ready.
    double start = action.kind == ActionKind::Recv ? clock[rank] : ready;
    double end = std::max(ready, start + actionTime(model, action));
    if (action.isCompute())
      releaseSlot(end);
    result.timings[rank][i] = {start, end};
    clock[rank] = end;
    ++pc[rank];
    if (action.isCompute())
      metrics.busyTime += end - start;

    // Stash memory (see simulate()): F holds M_B from its start to the end of
    // its backward; B holds M_W from its start to the end of its W.
    const StageInfo &stage = model.stages[s];
    int64_t &live = liveBytes[rank];
    switch (action.kind) {
    case ActionKind::Forward:
      live += stage.stashBytes;
      metrics.peakMemoryBytes = std::max(metrics.peakMemoryBytes, live);
      fire(event(EventTable::ForwardDone, s, m), end);
      break;
    case ActionKind::Backward:
      live -= stage.stashBytes;
      fire(event(EventTable::BackwardDone, s, m), end);
      break;
    case ActionKind::BackwardInput:
      if (model.stashAccounting == StashAccounting::ConvertAtBackward) {
        live += stage.weightStashBytes - stage.stashBytes;
        metrics.peakMemoryBytes = std::max(metrics.peakMemoryBytes, live);
      } else {
        live += stage.weightStashBytes;
        metrics.peakMemoryBytes = std::max(metrics.peakMemoryBytes, live);
        live -= stage.stashBytes;
      }
      fire(event(EventTable::BackwardDone, s, m), end);
      break;
    case ActionKind::BackwardWeight:
      live -= stage.weightStashBytes;
      break;
    case ActionKind::Send:
      break;
    case ActionKind::Recv:
      fire(event(EventTable::recvKind(action.payload), s, m), end);
      break;
    }
  }
}

SimulationResult Simulator::run() {
  result.ranks.assign(numRanks, RankMetrics());
  result.timings.resize(numRanks);
  for (int r = 0; r < numRanks; ++r)
    result.timings[r].assign(schedule.ranks[r].size(), ActionTiming());
  if (numStages < 1 || numMicrobatches < 1)
    return result;

  reset();
  for (std::vector<int> &ranks : sendRank)
    ranks.assign(events.numKeys(), -1);
  for (int r = 0; r < numRanks; ++r)
    for (const Action &action : schedule.ranks[r])
      if (action.kind == ActionKind::Send) {
        sendRank[action.payload == PayloadKind::Activation ? 0 : 1]
                [events.keyOf(action.stage, action.microbatch)] = r;
        ++result.ranks[r].numSends;
      }

  eventTime.assign(EventTable::kNumKinds * events.numKeys(), 0.0);
  clock.assign(numRanks, 0.0);
  liveBytes.assign(numRanks, 0);
  slotsLimited = model.computeSlots > 0 && model.computeSlots < numRanks;
  granted.assign(numRanks, -1.0);
  for (int k = 0; slotsLimited && k < model.computeSlots; ++k)
    slotFree.push(0.0);
  runRanks([&](int r) { advance(r); });
  // Every rank that can go on waits for a slot (or for an event that only a
  // waiting action fires, which cannot happen before the earliest grant).
  while (grantSlot())
    drain([&](int r) { advance(r); });

  // The largest M_B of the stages placed on each rank.
  std::vector<int64_t> largestStash(numRanks, 0);
  for (const StageInfo &stage : model.stages)
    if (stage.rank >= 0 && stage.rank < numRanks)
      largestStash[stage.rank] =
          std::max(largestStash[stage.rank], stage.stashBytes);
  for (int r = 0; r < numRanks; ++r) {
    RankMetrics &metrics = result.ranks[r];
    const std::vector<Action> &program = schedule.ranks[r];
    bool anyCompute = false;
    for (size_t i = 0; i < program.size(); ++i) {
      const Action &action = program[i];
      const ActionTiming &timing = result.timings[r][i];
      metrics.endTime = std::max(metrics.endTime, timing.end);
      if (action.isCompute()) {
        metrics.firstStart = anyCompute
                                 ? std::min(metrics.firstStart, timing.start)
                                 : timing.start;
        metrics.lastEnd = std::max(metrics.lastEnd, timing.end);
        anyCompute = true;
      }
      if (!action.isCompute() || action.kind == ActionKind::BackwardWeight)
        continue;
      // A payload that crosses ranks without an explicit Send is an implied
      // send of this rank.
      bool forward = action.kind == ActionKind::Forward;
      int consumer = forward ? action.stage + 1 : action.stage - 1;
      if (consumer < 0 || consumer >= numStages || model.rankOf(consumer) == r)
        continue;
      if (sendRank[forward ? 0 : 1]
                  [events.keyOf(action.stage, action.microbatch)] < 0)
        ++metrics.numSends;
    }
    metrics.peakMemoryInStashes =
        largestStash[r] > 0 ? static_cast<double>(metrics.peakMemoryBytes) /
                                  static_cast<double>(largestStash[r])
                            : 0.0;
    metrics.span = metrics.lastEnd - metrics.firstStart;
    result.makespan = std::max(result.makespan, metrics.endTime);
    result.idealTime = std::max(result.idealTime, metrics.busyTime);
    result.maxRankSpan = std::max(result.maxRankSpan, metrics.span);
  }
  for (RankMetrics &metrics : result.ranks)
    metrics.bubbleRate =
        result.makespan > 0 ? 1.0 - metrics.busyTime / result.makespan : 0.0;
  result.bubbleRate =
      result.makespan > 0 ? 1.0 - result.idealTime / result.makespan : 0.0;
  // A span is an end minus a start, the ideal time a sum of durations: one
  // rounding apart when equal, which would print as 2.2e-16.
  result.spanBubbleRate = result.maxRankSpan > 0
                              ? 1.0 - result.idealTime / result.maxRankSpan
                              : 0.0;
  if (std::abs(result.spanBubbleRate) < 1e-12)
    result.spanBubbleRate = 0.0;
  result.bubbleOverIdeal =
      result.idealTime > 0
          ? (result.makespan - result.idealTime) / result.idealTime
          : 0.0;
  return result;
}

/// A Recv's timing spans from the moment its rank reaches it (the rank's
/// clock) to its completion at max(clock, producer end + latency); every
/// other action starts when its rank and its inputs are ready. An F&B pair
/// starts when the inputs of both halves are ready and gives both the same
/// timing (see simulate() in the header). Memory
/// convention: the stash of F(s, m) (stashBytes of stage s, M_B) is
/// live from the start of F to the end of its backward (fused or B), and the
/// weight stash of B(s, m) (weightStashBytes, M_W) from the start of B to the
/// end of its W; both count on the rank that runs the action (with
/// StashAccounting::ConvertAtBackward, B instead changes the live bytes by
/// M_W - M_B when it starts). Since a rank's
/// actions do not overlap, the peak is taken in program order, right after
/// each allocation. numSends counts the explicit Sends of a rank plus the
/// cross-rank payloads it makes that no explicit Send carries (all of them in
/// a compute-only schedule). A schedule that deadlocks leaves the actions it
/// cannot reach at time 0.
SimulationResult mlir::pp::sched::simulate(const PipelineModel &model,
                                           const Schedule &schedule) {
  return Simulator(model, schedule).run();
}

llvm::StringRef
mlir::pp::sched::stashAccountingName(StashAccounting accounting) {
  return accounting == StashAccounting::ConvertAtBackward ? "convert" : "hold";
}

llvm::StringRef mlir::pp::sched::autoObjectiveName(AutoObjective objective) {
  return objective == AutoObjective::StepMakespan ? "step-makespan"
                                                  : "max-rank-span";
}

std::optional<AutoObjective>
mlir::pp::sched::parseAutoObjective(llvm::StringRef name) {
  if (name == "step-makespan")
    return AutoObjective::StepMakespan;
  if (name == "max-rank-span")
    return AutoObjective::MaxRankSpan;
  return std::nullopt;
}

std::optional<StashAccounting>
mlir::pp::sched::parseStashAccounting(llvm::StringRef name) {
  if (name == "hold")
    return StashAccounting::HoldDuringBackward;
  if (name == "convert")
    return StashAccounting::ConvertAtBackward;
  return std::nullopt;
}
