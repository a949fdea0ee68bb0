//===- Events.h - Events of a run of a schedule (internal) ------*- C++ -*-===//
//
// The event table shared by the two event-driven runs of a schedule, the
// timed simulation (Simulator.cpp) and the untimed deadlock search
// (Deadlock.cpp). Every rank runs its program in order; a rank whose head
// action needs an event (a payload made, a Recv completed) that has not
// happened yet is parked on that event's intrusive waiter list, and firing
// the event hands its waiters back to the caller's worklist. A rank waits
// for one event at a time, so the lists take O(ranks + events) memory.
//
//===----------------------------------------------------------------------===//

#ifndef PP_LIB_SCHEDULE_EVENTS_H
#define PP_LIB_SCHEDULE_EVENTS_H

#include "pp/Schedule/Schedule.h"

#include <cassert>
#include <cstdint>
#include <vector>

namespace mlir::pp::sched::detail {

class EventTable {
public:
  /// What happened to a (stage, micro-batch).
  enum Kind { ForwardDone, BackwardDone, RecvActivation, RecvGradient };
  static constexpr int kNumKinds = 4;

  /// Sizes the table for `numRanks` ranks and `numStages` x
  /// `numMicrobatches` keys: nothing has happened and no rank waits.
  void reset(int numRanks, int numStages, int numMicrobatches) {
    this->numMicrobatches = numMicrobatches;
    keys = static_cast<size_t>(numStages) * numMicrobatches;
    done.assign(kNumKinds * keys, 0);
    waitHead.assign(kNumKinds * keys, -1);
    waitNext.assign(numRanks, -1);
    waitingOn.assign(numRanks, -1);
  }

  size_t numKeys() const { return keys; }
  /// The key of (stage, micro-batch).
  size_t keyOf(int stage, int microbatch) const {
    return static_cast<size_t>(stage) * numMicrobatches + microbatch;
  }
  /// The event `kind` of (stage, micro-batch).
  int event(Kind kind, int stage, int microbatch) const {
    return static_cast<int>(kind * keys + keyOf(stage, microbatch));
  }
  /// The event of the payload `payload` being made.
  static Kind madeKind(PayloadKind payload) {
    return payload == PayloadKind::Activation ? ForwardDone : BackwardDone;
  }
  /// The event of a Recv of `payload` completing.
  static Kind recvKind(PayloadKind payload) {
    return payload == PayloadKind::Activation ? RecvActivation : RecvGradient;
  }
  /// The kind, stage and micro-batch of event `e`.
  Kind kindOf(int e) const { return static_cast<Kind>(e / keys); }
  int stageOf(int e) const {
    return static_cast<int>(e % keys) / numMicrobatches;
  }
  int microbatchOf(int e) const {
    return static_cast<int>(e % keys) % numMicrobatches;
  }

  bool happened(int e) const { return done[e] != 0; }
  /// The event `rank` is parked on, or -1.
  int parkedOn(int rank) const { return waitingOn[rank]; }
  /// Parks `rank` on event `e` (nothing if it waits for `e` already).
  void park(int rank, int e) {
    if (waitingOn[rank] == e)
      return;
    assert(waitingOn[rank] < 0 && "a rank waits for one event at a time");
    waitingOn[rank] = e;
    waitNext[rank] = waitHead[e];
    waitHead[e] = rank;
  }
  /// Marks event `e` as happened and appends the ranks parked on it to
  /// `woken`, the last parked first.
  void fire(int e, std::vector<int> &woken) {
    done[e] = 1;
    for (int r = waitHead[e]; r >= 0;) {
      int next = waitNext[r];
      waitingOn[r] = -1;
      waitNext[r] = -1;
      woken.push_back(r);
      r = next;
    }
    waitHead[e] = -1;
  }

private:
  int numMicrobatches = 0;
  size_t keys = 0;
  std::vector<uint8_t> done;
  /// Per event, the last rank parked on it; per rank, the one parked before
  /// it on the same event, and the event it waits for.
  std::vector<int> waitHead, waitNext, waitingOn;
};

/// What the two runs share: the schedule and its model, their sizes, the
/// event table, where the explicit Recvs are, every rank's next action and
/// the worklist of ranks to advance.
class ScheduleRun {
protected:
  ScheduleRun(const PipelineModel &model, const Schedule &schedule)
      : model(model), schedule(schedule),
        numRanks(static_cast<int>(schedule.ranks.size())),
        numStages(model.numStages()),
        numMicrobatches(schedule.numMicrobatches) {}

  /// Starts the run (needs a stage and a micro-batch): no event has
  /// happened, every rank stands at its first action, recvRank is filled.
  void reset() {
    events.reset(numRanks, numStages, numMicrobatches);
    for (std::vector<int> &ranks : recvRank)
      ranks.assign(events.numKeys(), -1);
    for (int r = 0; r < numRanks; ++r)
      for (const Action &action : schedule.ranks[r])
        if (action.kind == ActionKind::Recv)
          recvRank[action.payload == PayloadKind::Activation ? 0 : 1]
                  [events.keyOf(action.stage, action.microbatch)] = r;
    pc.assign(numRanks, 0);
  }

  /// Advances every rank with `advance(rank)`, rank 0 first, then the ranks
  /// the fired events woke, until no rank can go on. `advance` parks a rank
  /// on the event it waits for or leaves it at a Send/Recv whose peer will
  /// push it back on the worklist.
  template <typename Fn> void runRanks(Fn advance) {
    for (int r = numRanks - 1; r >= 0; --r)
      worklist.push_back(r);
    drain(advance);
  }
  /// Advances the ranks on the worklist, and those the fired events woke,
  /// until no rank can go on.
  template <typename Fn> void drain(Fn advance) {
    while (!worklist.empty()) {
      int r = worklist.back();
      worklist.pop_back();
      if (events.parkedOn(r) < 0)
        advance(r);
    }
  }

  const PipelineModel &model;
  const Schedule &schedule;
  int numRanks, numStages, numMicrobatches;
  EventTable events;
  /// recvRank[payload][key]: the rank holding an explicit Recv of the
  /// payload (0: activations, 1: gradients) of (stage, micro-batch) `key`,
  /// or -1.
  std::vector<int> recvRank[2];
  /// pc[r]: the index of rank r's next action.
  std::vector<size_t> pc;
  /// Ranks to advance (see runRanks()).
  std::vector<int> worklist;
};

} // namespace mlir::pp::sched::detail

#endif // PP_LIB_SCHEDULE_EVENTS_H
