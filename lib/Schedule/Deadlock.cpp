//===- Deadlock.cpp - Deadlock detection ----------------------------------===//
//
// findDeadlock(): untimed execution with rendezvous send/recv, as the
// deadlock check of torch.distributed.pipelining's schedule simulator
// (_simulate_comms_compute in torch/distributed/pipelining/schedules.py)
// does, but event driven so that it runs in O(actions).
//
//===----------------------------------------------------------------------===//

#include "Events.h"

#include <string>

using namespace mlir::pp::sched;
using namespace mlir::pp::sched::detail;

namespace {

/// Untimed execution of a schedule with rendezvous send/recv.
///
/// Every rank runs its program in order. A compute action runs once its
/// inputs exist; a Send and its matching Recv complete together, when both
/// ranks stand at them and the payload has been made. The run is event
/// driven: a rank that cannot go on either waits for one event (an action
/// made a payload, a Recv completed) on an intrusive waiter list, or stands
/// at a Send/Recv until its peer arrives at the matching Recv/Send and
/// completes both. Every action runs at most once and every event wakes its
/// waiters once, so the run is O(ranks + actions + stages * micro-batches).
class DeadlockFinder : ScheduleRun {
public:
  DeadlockFinder(const PipelineModel &model, const Schedule &schedule)
      : ScheduleRun(model, schedule) {}

  DeadlockReport run();

private:
  /// Event of a payload being made.
  int madeEvent(PayloadKind payload, int stage, int microbatch) const {
    return events.event(EventTable::madeKind(payload), stage, microbatch);
  }
  /// Event after which `rank` may use the payload made by (stage, mb).
  int inputEvent(int rank, PayloadKind payload, int stage,
                 int microbatch) const;
  /// The first event `action` on `rank` still waits for, or -1. Send and
  /// Recv wait only for their payload here, not for the peer.
  int pendingEvent(int rank, const Action &action) const;
  void fire(int e) { events.fire(e, worklist); }
  bool matches(int rank, const Action &action) const;
  void advance(int rank);
  /// "forward of ..." or, at an F&B pair, "F&B pair of forward of ... and
  /// backward of ...".
  std::string describeHead(int rank) const;
  std::string peerState(int peer) const;
  std::string blockedMessage(int rank) const;
};

} // namespace

int DeadlockFinder::inputEvent(int rank, PayloadKind payload, int stage,
                               int microbatch) const {
  int p = payload == PayloadKind::Activation ? 0 : 1;
  if (model.rankOf(stage) != rank &&
      recvRank[p][events.keyOf(stage, microbatch)] == rank)
    return events.event(EventTable::recvKind(payload), stage, microbatch);
  return madeEvent(payload, stage, microbatch);
}

int DeadlockFinder::pendingEvent(int rank, const Action &action) const {
  int s = action.stage, m = action.microbatch;
  auto pending = [&](int e) { return events.happened(e) ? -1 : e; };
  switch (action.kind) {
  case ActionKind::Forward:
    return s > 0 ? pending(inputEvent(rank, PayloadKind::Activation, s - 1, m))
                 : -1;
  case ActionKind::Backward:
  case ActionKind::BackwardInput: {
    int e = pending(events.event(EventTable::ForwardDone, s, m));
    if (e < 0 && s + 1 < numStages)
      e = pending(inputEvent(rank, PayloadKind::Gradient, s + 1, m));
    return e;
  }
  case ActionKind::BackwardWeight:
    return pending(events.event(EventTable::BackwardDone, s, m));
  case ActionKind::Send:
    return pending(madeEvent(action.payload, s, m));
  case ActionKind::Recv:
    return -1;
  }
  return -1;
}

/// True if `rank` stands at the counterpart of `action` (which stands on
/// action.peer's side): same payload key, peers pointing at each other.
bool DeadlockFinder::matches(int rank, const Action &action) const {
  const std::vector<Action> &program = schedule.ranks[action.peer];
  size_t i = pc[action.peer];
  if (i >= program.size())
    return false;
  const Action &other = program[i];
  ActionKind want =
      action.kind == ActionKind::Send ? ActionKind::Recv : ActionKind::Send;
  return other.kind == want && other.payload == action.payload &&
         other.stage == action.stage && other.microbatch == action.microbatch &&
         other.peer == rank;
}

void DeadlockFinder::advance(int rank) {
  const std::vector<Action> &program = schedule.ranks[rank];
  while (pc[rank] < program.size()) {
    if (startsOverlapPair(program, pc[rank])) {
      // An F&B pair runs as one unit, once the inputs of both are there.
      const Action &forward = program[pc[rank]];
      const Action &backward = program[pc[rank] + 1];
      int e = pendingEvent(rank, forward);
      if (e < 0)
        e = pendingEvent(rank, backward);
      if (e >= 0) {
        events.park(rank, e);
        return;
      }
      pc[rank] += 2;
      fire(events.event(EventTable::ForwardDone, forward.stage,
                        forward.microbatch));
      fire(events.event(EventTable::BackwardDone, backward.stage,
                        backward.microbatch));
      continue;
    }
    const Action &action = program[pc[rank]];
    if (int e = pendingEvent(rank, action); e >= 0) {
      events.park(rank, e);
      return;
    }
    if (action.isCompute()) {
      ++pc[rank];
      if (action.kind == ActionKind::Forward)
        fire(events.event(EventTable::ForwardDone, action.stage,
                          action.microbatch));
      else if (action.kind != ActionKind::BackwardWeight)
        fire(events.event(EventTable::BackwardDone, action.stage,
                          action.microbatch));
      continue;
    }
    // Rendezvous: both sides must stand at the pair, and the payload of the
    // Send must exist (the Send side waited for it above).
    int peer = action.peer;
    if (!matches(rank, action))
      return; // The peer completes the pair when it gets there.
    const Action &other = schedule.ranks[peer][pc[peer]];
    if (action.kind == ActionKind::Recv && pendingEvent(peer, other) >= 0)
      return; // The peer waits for the payload and comes back.
    ++pc[rank];
    ++pc[peer];
    fire(events.event(EventTable::recvKind(action.payload), action.stage,
                      action.microbatch));
    worklist.push_back(peer);
  }
}

std::string DeadlockFinder::describeHead(int rank) const {
  const std::vector<Action> &program = schedule.ranks[rank];
  size_t i = pc[rank];
  if (startsOverlapPair(program, i))
    return "F&B pair of " + describe(program[i]) + " and " +
           describe(program[i + 1]);
  return describe(program[i]);
}

std::string DeadlockFinder::peerState(int peer) const {
  const std::vector<Action> &program = schedule.ranks[peer];
  if (pc[peer] >= program.size())
    return "has finished";
  return "waits at " + describeHead(peer);
}

std::string DeadlockFinder::blockedMessage(int rank) const {
  const std::vector<Action> &program = schedule.ranks[rank];
  const Action *head = &program[pc[rank]];
  std::string message =
      "rank " + std::to_string(rank) + " waits at " + describeHead(rank);
  if (startsOverlapPair(program, pc[rank])) {
    // Explain the half that waits.
    const Action &forward = *head, &backward = program[pc[rank] + 1];
    if (pendingEvent(rank, forward) < 0) {
      head = &backward;
      if (pendingEvent(rank, backward) == events.event(EventTable::ForwardDone,
                                                       forward.stage,
                                                       forward.microbatch))
        return message + ": the backward needs the output of the forward it "
                         "is paired with";
    }
    message +=
        ": the " + std::string(head == &forward ? "forward" : "backward");
  }
  const Action &action = *head;
  int e = pendingEvent(rank, action);
  if (e < 0) {
    // Waiting for the peer of a Send/Recv.
    return message + ", which " + peerState(action.peer);
  }
  EventTable::Kind kind = events.kindOf(e);
  int stage = events.stageOf(e), microbatch = events.microbatchOf(e);
  std::string k = "stage " + std::to_string(stage) + " micro-batch " +
                  std::to_string(microbatch);
  std::string r = std::to_string(rank);
  bool own = stage == action.stage && microbatch == action.microbatch;
  if (action.kind == ActionKind::Send)
    return message + " for its payload, which is not made yet";
  if (kind == EventTable::ForwardDone && own)
    return message + " for its forward, which has not run on rank " + r;
  if (kind == EventTable::BackwardDone && own)
    return message + " for its B, which has not run on rank " + r;
  if (kind == EventTable::RecvActivation || kind == EventTable::RecvGradient)
    return message + " for recv of " +
           (kind == EventTable::RecvActivation ? "activation" : "gradient") +
           " of " + k + ", which comes later on rank " + r;
  std::string payload =
      kind == EventTable::ForwardDone ? "activation" : "gradient";
  int producerRank = model.rankOf(stage);
  if (producerRank == rank)
    return message + " for the " + payload + " of " + k +
           ", which has not been made on rank " + r;
  return message + " for the " + payload + " of " + k + " from rank " +
         std::to_string(producerRank) + ", which " + peerState(producerRank);
}

DeadlockReport DeadlockFinder::run() {
  DeadlockReport report;
  if (numStages < 1 || numMicrobatches < 1) {
    for (int r = 0; r < numRanks; ++r)
      if (!schedule.ranks[r].empty()) {
        report.completed = false;
        report.blocked.push_back(
            {r, 0,
             "rank " + std::to_string(r) +
                 " cannot run: the schedule has no stages or no "
                 "micro-batches"});
      }
    return report;
  }
  reset();
  runRanks([&](int r) { advance(r); });

  for (int r = 0; r < numRanks; ++r) {
    if (pc[r] >= schedule.ranks[r].size())
      continue;
    report.completed = false;
    report.blocked.push_back({r, static_cast<int>(pc[r]), blockedMessage(r)});
  }
  return report;
}

DeadlockReport mlir::pp::sched::findDeadlock(const PipelineModel &model,
                                             const Schedule &schedule) {
  return DeadlockFinder(model, schedule).run();
}
