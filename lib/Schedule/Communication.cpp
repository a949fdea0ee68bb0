//===- Communication.cpp - Send/recv insertion ---------------------------===//
//
// insertCommunication(): lowers a compute-only schedule to one with explicit
// Send/Recv pairs, in the spirit of torch.distributed.pipelining's
// _add_send_recv (compute-only to compute+comm lowering in
// torch/distributed/pipelining/schedules.py). Unlike that pass, which
// advances the ranks in turn, the order comes from a list-scheduling
// simulation (Graham, "Bounds on Multiprocessing Timing Anomalies", SIAM J.
// Appl. Math. 1969): all ranks and all messages are put into one global
// order, and every rank's program is a subsequence of it, which makes the
// result deadlock-free under rendezvous send/recv.
//
//===----------------------------------------------------------------------===//

#include "pp/Schedule/Schedule.h"

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <functional>
#include <queue>
#include <vector>

using namespace mlir::pp::sched;

namespace {

/// One entry of the list scheduler's queue: the head compute action of a
/// rank, ready to start at `time`, or a message that reaches its consumer's
/// rank at `time`.
struct Item {
  double time;
  /// 0: message, 1: compute. At equal times a message goes first, so that a
  /// Recv lands before any compute action that starts when it arrives.
  int type;
  /// Tie-break: rank for compute, creation order for messages.
  int64_t tie;
  /// Compute: rank. Message: index into Inserter::messages.
  int64_t id;
  bool operator>(const Item &o) const {
    if (time != o.time)
      return time > o.time;
    if (type != o.type)
      return type > o.type;
    return tie > o.tie;
  }
};

struct Message {
  PayloadKind payload;
  int stage, microbatch, from, to;
};

/// The list scheduler. See insertCommunication() for the algorithm.
class Inserter {
public:
  Inserter(const PipelineModel &model, const Schedule &schedule)
      : model(model), schedule(schedule) {}

  Schedule run();

private:
  enum EventKind {
    ForwardDone,
    BackwardDone,
    ActivationArrived,
    GradientArrived
  };

  size_t keyOf(int stage, int microbatch) const {
    return static_cast<size_t>(stage) * numMicrobatches + microbatch;
  }
  size_t event(EventKind kind, int stage, int microbatch) const {
    return kind * numKeys + keyOf(stage, microbatch);
  }
  /// If event `e` happened, raises `start` to its time and returns true;
  /// otherwise makes `rank` wait for it and returns false.
  bool need(int rank, size_t e, double &start);
  /// Event after which `rank` has the payload made by (stage, mb): the
  /// producer itself on the same rank, the arrival of its message otherwise.
  size_t inputEvent(int rank, PayloadKind payload, int stage,
                    int microbatch) const;
  /// Raises `start` to the time the inputs of compute action `action` are
  /// there on `rank`, or makes the rank wait for the first missing one.
  bool inputsReady(int rank, const Action &action, double &start);
  /// The payload `action` (just run on `rank`, ending at `end`) makes: fires
  /// its event and queues its message if another rank consumes it.
  void produce(int rank, const Action &action, double end);
  void tryReady(int rank);
  void fire(size_t e, double time);
  void wakeUp();
  void runCompute(int rank, double start);
  void runMessage(int64_t id, double time);

  const PipelineModel &model;
  const Schedule &schedule;
  /// The compute actions of each rank (Send/Recv of the input are dropped).
  std::vector<std::vector<Action>> programs;
  int numRanks = 0, numStages = 0, numMicrobatches = 0;
  size_t numKeys = 0;
  std::vector<size_t> pc;
  std::vector<double> clock;
  /// Per event: whether it happened, when, and the ranks waiting for it.
  std::vector<uint8_t> happened;
  std::vector<double> eventTime;
  std::vector<int64_t> waitHead;
  std::vector<int64_t> waitNext;
  std::vector<int> woken;
  std::vector<Message> messages;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> queue;
  Schedule result;
};

} // namespace

size_t Inserter::inputEvent(int rank, PayloadKind payload, int stage,
                            int microbatch) const {
  bool local = model.rankOf(stage) == rank;
  EventKind kind;
  if (payload == PayloadKind::Activation)
    kind = local ? ForwardDone : ActivationArrived;
  else
    kind = local ? BackwardDone : GradientArrived;
  return event(kind, stage, microbatch);
}

bool Inserter::need(int rank, size_t e, double &start) {
  if (!happened[e]) {
    waitNext[rank] = waitHead[e];
    waitHead[e] = rank;
    return false;
  }
  start = std::max(start, eventTime[e]);
  return true;
}

bool Inserter::inputsReady(int rank, const Action &action, double &start) {
  int s = action.stage, m = action.microbatch;
  switch (action.kind) {
  case ActionKind::Forward:
    return s == 0 ||
           need(rank, inputEvent(rank, PayloadKind::Activation, s - 1, m),
                start);
  case ActionKind::Backward:
  case ActionKind::BackwardInput:
    // The own forward's stash, then the next stage's gradient.
    return need(rank, event(ForwardDone, s, m), start) &&
           (s + 1 >= numStages ||
            need(rank, inputEvent(rank, PayloadKind::Gradient, s + 1, m),
                 start));
  case ActionKind::BackwardWeight:
    return need(rank, event(BackwardDone, s, m), start);
  default:
    assert(false && "communication was stripped");
    return false;
  }
}

void Inserter::tryReady(int rank) {
  const std::vector<Action> &program = programs[rank];
  size_t i = pc[rank];
  if (i >= program.size())
    return;
  double start = clock[rank];
  if (!inputsReady(rank, program[i], start))
    return;
  // An F&B pair is one unit: it also waits for the inputs of its B.
  if (startsOverlapPair(program, i) &&
      !inputsReady(rank, program[i + 1], start))
    return;
  queue.push({start, 1, rank, rank});
}

void Inserter::fire(size_t e, double time) {
  happened[e] = 1;
  eventTime[e] = time;
  for (int64_t r = waitHead[e]; r >= 0;) {
    int64_t next = waitNext[r];
    waitNext[r] = -1;
    woken.push_back(static_cast<int>(r));
    r = next;
  }
  waitHead[e] = -1;
}

void Inserter::wakeUp() {
  while (!woken.empty()) {
    int rank = woken.back();
    woken.pop_back();
    tryReady(rank);
  }
}

void Inserter::produce(int rank, const Action &action, double end) {
  if (action.kind == ActionKind::BackwardWeight)
    return;
  int s = action.stage, m = action.microbatch;
  bool forward = action.kind == ActionKind::Forward;
  fire(event(forward ? ForwardDone : BackwardDone, s, m), end);
  // The payload this action makes, if another rank consumes it.
  int consumer = forward ? s + 1 : s - 1;
  if (consumer >= 0 && consumer < numStages && model.rankOf(consumer) != rank) {
    int64_t id = static_cast<int64_t>(messages.size());
    messages.push_back(
        {forward ? PayloadKind::Activation : PayloadKind::Gradient, s, m, rank,
         model.rankOf(consumer)});
    queue.push({end + model.latency, 0, id, id});
  }
}

void Inserter::runCompute(int rank, double start) {
  const std::vector<Action> &program = programs[rank];
  size_t i = pc[rank];
  // An F&B pair runs as one unit and stays adjacent: its Recvs came before
  // it (it was ready only once they arrived), its Sends come after it.
  size_t count = startsOverlapPair(program, i) ? 2 : 1;
  double end = start;
  for (size_t k = i; k < i + count; ++k) {
    result.ranks[rank].push_back(program[k]);
    end += actionTime(model, program[k]);
  }
  pc[rank] += count;
  clock[rank] = end;
  for (size_t k = i; k < i + count; ++k)
    produce(rank, program[k], end);
  tryReady(rank);
  wakeUp();
}

void Inserter::runMessage(int64_t id, double time) {
  const Message &msg = messages[id];
  Action send;
  send.kind = ActionKind::Send;
  send.stage = msg.stage;
  send.microbatch = msg.microbatch;
  send.payload = msg.payload;
  send.peer = msg.to;
  Action recv = send;
  recv.kind = ActionKind::Recv;
  recv.peer = msg.from;
  result.ranks[msg.from].push_back(send);
  result.ranks[msg.to].push_back(recv);
  fire(event(msg.payload == PayloadKind::Activation ? ActivationArrived
                                                    : GradientArrived,
             msg.stage, msg.microbatch),
       time);
  wakeUp();
}

Schedule Inserter::run() {
  numRanks = static_cast<int>(schedule.ranks.size());
  numStages = model.numStages();
  numMicrobatches = schedule.numMicrobatches;
  result.numMicrobatches = numMicrobatches;
  result.ranks.resize(numRanks);

  // Existing Send/Recv are dropped: the input is meant to be compute-only.
  pc.assign(numRanks, 0);
  programs.assign(numRanks, {});
  for (int r = 0; r < numRanks; ++r) {
    programs[r].reserve(schedule.ranks[r].size());
    for (const Action &action : schedule.ranks[r])
      if (action.isCompute())
        programs[r].push_back(action);
  }
  if (numStages < 1 || numMicrobatches < 1) {
    for (int r = 0; r < numRanks; ++r)
      result.ranks[r] = programs[r];
    return result;
  }

  numKeys = static_cast<size_t>(numStages) * numMicrobatches;
  happened.assign(4 * numKeys, 0);
  eventTime.assign(4 * numKeys, 0.0);
  waitHead.assign(4 * numKeys, -1);
  waitNext.assign(numRanks, -1);
  clock.assign(numRanks, 0.0);
  for (int r = 0; r < numRanks; ++r)
    result.ranks[r].reserve(schedule.ranks[r].size() * 2);

  for (int r = 0; r < numRanks; ++r)
    tryReady(r);
  while (!queue.empty()) {
    Item item = queue.top();
    queue.pop();
    if (item.type == 0)
      runMessage(item.id, item.time);
    else
      runCompute(static_cast<int>(item.id), item.time);
  }

  // A schedule that cannot run (it fails checkSchedule or deadlocks even
  // with unbounded buffering) keeps its remaining actions, unconnected.
  for (int r = 0; r < numRanks; ++r)
    for (size_t i = pc[r]; i < programs[r].size(); ++i)
      result.ranks[r].push_back(programs[r][i]);
  return result;
}

/// List-scheduling simulation of the compute-only schedule (the semantics of
/// simulate(): each rank runs its program in order; an input from another
/// rank arrives at producer end + latency). The queue holds each rank's head
/// action once its inputs exist, at its earliest start time, and every
/// cross-rank message, at its arrival time; the earliest entry goes next,
/// messages before compute at equal times, then compute by rank. Executing an
/// entry appends it to the global order: a compute action to its rank's
/// program; a message as a Send on the producer's rank and a Recv on the
/// consumer's rank, at the same position of the global order.
///
/// Every rank's new program is thus a subsequence of one global order in
/// which each Send directly meets its Recv, so executing the global order
/// one entry at a time runs every program with rendezvous semantics: no
/// deadlock. A Send follows its producer (the message is queued when the
/// producer runs) and a Recv precedes its consumer (the consumer becomes ready
/// only once the message arrived).
///
/// An F&B pair (Action::overlapWithNext) is one entry of the queue: it is
/// ready once the inputs of both halves are there, ends after F + B time (as
/// in simulate()) and goes into its rank's program as two adjacent actions,
/// with the Recvs of both before it and the Sends of both after it; the
/// global-order argument then holds with the pair as one action, which is
/// how findDeadlock() runs it.
///
/// Unlike numbering a message right after its producer, queueing it at its
/// arrival time puts each Recv after the compute actions of its rank that
/// start before the payload arrives, so the blocking Recv delays nothing:
/// simulate() gives the same timings for the result as for the input.
Schedule mlir::pp::sched::insertCommunication(const PipelineModel &model,
                                              const Schedule &schedule) {
  return Inserter(model, schedule).run();
}
