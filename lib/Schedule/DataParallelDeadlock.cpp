//===- DataParallelDeadlock.cpp - deadlock freedom with all-reduces -------===//
//
// findDataParallelDeadlock(): D replicas of a schedule run untimed, the
// point-to-point messages of each replica as rendezvous (findDeadlock()'s
// semantics) and every all-reduce as a blocking collective over the D
// copies of its rank. See pp/Schedule/DataParallel.h.
//
//===----------------------------------------------------------------------===//

#include "pp/Schedule/DataParallel.h"

#include <algorithm>
#include <string>

using namespace mlir::pp::sched;

namespace {

class ReplicaRun {
public:
  ReplicaRun(const PipelineModel &model, const Schedule &schedule,
             const std::vector<AllReducePlacement> &placements, int replicas)
      : model(model), schedule(schedule), replicas(replicas),
        numRanks(static_cast<int>(schedule.ranks.size())),
        numStages(model.numStages()),
        numMicrobatches(std::max(0, schedule.numMicrobatches)),
        pc(replicas, std::vector<size_t>(numRanks, 0)),
        reduced(replicas, std::vector<size_t>(numRanks, 0)),
        made(replicas, std::vector<char>(numKeys(), 0)),
        receivedBy(replicas, std::vector<int>(numKeys(), -1)), byRank(numRanks),
        receiver(numKeys(), -1) {
    for (const AllReducePlacement &p : placements)
      if (p.rank >= 0 && p.rank < numRanks)
        byRank[p.rank].push_back(p);
    // In program order: a rank meets its all-reduces by `after`.
    for (std::vector<AllReducePlacement> &rank : byRank)
      std::sort(rank.begin(), rank.end(),
                [](const AllReducePlacement &a, const AllReducePlacement &b) {
                  return a.after != b.after ? a.after < b.after
                                            : a.stage < b.stage;
                });
    for (int r = 0; r < numRanks; ++r)
      for (const Action &a : schedule.ranks[r])
        if (a.kind == ActionKind::Recv) {
          int64_t k = key(a.payload, a.stage, a.microbatch);
          if (k >= 0)
            receiver[k] = r;
        }
  }

  DeadlockReport run();

private:
  bool inputReady(int d, int r, PayloadKind payload, int stage, int mb) const;
  bool ready(int d, int r, const Action &a) const;
  void execute(int d, const Action &a);
  /// Whether (d, r) stands at an all-reduce: its next placement is after
  /// the action it last ran.
  bool atAllReduce(int d, int r) const;
  bool step(int d, int r);
  std::string blockedMessage(int d, int r) const;

  /// Tables indexed by (payload, stage, micro-batch): flat, since a
  /// replicated schedule at scale has millions of actions (P = 64, V = 4,
  /// M = 1024, D = 2: 3.1 M).
  size_t numKeys() const {
    return 2 * static_cast<size_t>(numStages) * numMicrobatches;
  }
  /// The index of (payload, stage, micro-batch), or -1 out of range.
  int64_t key(PayloadKind payload, int stage, int mb) const {
    if (stage < 0 || stage >= numStages || mb < 0 || mb >= numMicrobatches)
      return -1;
    return (static_cast<int64_t>(payload == PayloadKind::Gradient) * numStages +
            stage) *
               numMicrobatches +
           mb;
  }
  bool isMade(int d, PayloadKind payload, int stage, int mb) const {
    int64_t k = key(payload, stage, mb);
    return k >= 0 && made[d][k];
  }

  const PipelineModel &model;
  const Schedule &schedule;
  int replicas, numRanks, numStages, numMicrobatches;
  std::vector<std::vector<size_t>> pc;
  /// All-reduces of each rank completed, per replica.
  std::vector<std::vector<size_t>> reduced;
  /// Payloads made in each replica.
  std::vector<std::vector<char>> made;
  /// The rank of each replica that received each payload, or -1.
  std::vector<std::vector<int>> receivedBy;
  std::vector<std::vector<AllReducePlacement>> byRank;
  /// The rank whose program receives each payload, or -1 (a payload
  /// crossing ranks is received once, by its consumer: checkSchedule()).
  std::vector<int> receiver;
};

} // namespace

bool ReplicaRun::inputReady(int d, int r, PayloadKind payload, int stage,
                            int mb) const {
  int64_t k = key(payload, stage, mb);
  if (k < 0 || !made[d][k])
    return false;
  // Another rank's payload arrives by a Recv where the program has one.
  return model.rankOf(stage) == r || receiver[k] != r || receivedBy[d][k] == r;
}

bool ReplicaRun::ready(int d, int r, const Action &a) const {
  int s = a.stage, m = a.microbatch;
  switch (a.kind) {
  case ActionKind::Forward:
    return s == 0 || inputReady(d, r, PayloadKind::Activation, s - 1, m);
  case ActionKind::Backward:
  case ActionKind::BackwardInput:
    return isMade(d, PayloadKind::Activation, s, m) &&
           (s + 1 >= model.numStages() ||
            inputReady(d, r, PayloadKind::Gradient, s + 1, m));
  case ActionKind::BackwardWeight:
    return isMade(d, PayloadKind::Gradient, s, m);
  case ActionKind::Send:
  case ActionKind::Recv:
    return true;
  }
  return false;
}

void ReplicaRun::execute(int d, const Action &a) {
  // F makes its activation, a fused backward or B its input gradient.
  if (a.kind != ActionKind::Forward && a.kind != ActionKind::Backward &&
      a.kind != ActionKind::BackwardInput)
    return;
  PayloadKind payload = a.kind == ActionKind::Forward ? PayloadKind::Activation
                                                      : PayloadKind::Gradient;
  if (int64_t k = key(payload, a.stage, a.microbatch); k >= 0)
    made[d][k] = 1;
}

bool ReplicaRun::atAllReduce(int d, int r) const {
  size_t k = reduced[d][r];
  return k < byRank[r].size() && pc[d][r] > 0 &&
         byRank[r][k].after == pc[d][r] - 1;
}

/// Runs one action (or F&B pair, or rendezvous) of (d, r) if it can.
bool ReplicaRun::step(int d, int r) {
  const std::vector<Action> &program = schedule.ranks[r];
  size_t i = pc[d][r];
  if (i >= program.size() || atAllReduce(d, r))
    return false;
  const Action &a = program[i];
  if (a.isCompute()) {
    bool pair = a.overlapWithNext && i + 1 < program.size();
    if (!ready(d, r, a) || (pair && !ready(d, r, program[i + 1])))
      return false;
    execute(d, a);
    if (pair)
      execute(d, program[i + 1]);
    pc[d][r] += pair ? 2 : 1;
    return true;
  }
  // Rendezvous inside the replica: both sides at the pair, payload made.
  int peer = a.peer;
  size_t j = pc[d][peer];
  if (j >= schedule.ranks[peer].size() || atAllReduce(d, peer))
    return false;
  const Action &other = schedule.ranks[peer][j];
  ActionKind want =
      a.kind == ActionKind::Send ? ActionKind::Recv : ActionKind::Send;
  if (other.kind != want || other.payload != a.payload ||
      other.stage != a.stage || other.microbatch != a.microbatch ||
      other.peer != r)
    return false;
  int64_t k = key(a.payload, a.stage, a.microbatch);
  if (k < 0 || !made[d][k])
    return false;
  receivedBy[d][k] = a.kind == ActionKind::Recv ? r : peer;
  ++pc[d][r];
  ++pc[d][peer];
  return true;
}

std::string ReplicaRun::blockedMessage(int d, int r) const {
  std::string who =
      "rank " + std::to_string(r) + " of replica " + std::to_string(d);
  if (pc[d][r] >= schedule.ranks[r].size() && !atAllReduce(d, r))
    return who + " ended without reaching its all-reduce of stage " +
           std::to_string(byRank[r][reduced[d][r]].stage) +
           " (placed after action " +
           std::to_string(byRank[r][reduced[d][r]].after) +
           ", which it never stood after)";
  if (atAllReduce(d, r)) {
    const AllReducePlacement &p = byRank[r][reduced[d][r]];
    std::string waiting;
    for (int e = 0; e < replicas; ++e)
      if (!atAllReduce(e, r) || reduced[e][r] != reduced[d][r])
        waiting += (waiting.empty() ? "" : ", ") + std::to_string(e);
    return who + " waits at the all-reduce of stage " +
           std::to_string(p.stage) + " for replica" +
           (waiting.find(',') == std::string::npos ? " " : "s ") + waiting;
  }
  return who + " waits at " + describe(schedule.ranks[r][pc[d][r]]);
}

DeadlockReport ReplicaRun::run() {
  bool progress = true;
  while (progress) {
    progress = false;
    for (int d = 0; d < replicas; ++d)
      for (int r = 0; r < numRanks; ++r)
        while (step(d, r))
          progress = true;
    // A collective completes when every copy of the rank stands at it.
    for (int r = 0; r < numRanks; ++r) {
      bool all = true;
      for (int d = 0; d < replicas && all; ++d)
        all = atAllReduce(d, r) && reduced[d][r] == reduced[0][r];
      if (!all)
        continue;
      for (int d = 0; d < replicas; ++d)
        ++reduced[d][r];
      progress = true;
    }
  }
  DeadlockReport report;
  for (int d = 0; d < replicas; ++d)
    for (int r = 0; r < numRanks; ++r)
      if (pc[d][r] < schedule.ranks[r].size() || atAllReduce(d, r) ||
          reduced[d][r] < byRank[r].size()) {
        report.completed = false;
        report.blocked.push_back(
            {r, static_cast<int>(pc[d][r]), blockedMessage(d, r)});
      }
  return report;
}

DeadlockReport mlir::pp::sched::findDataParallelDeadlock(
    const PipelineModel &model, const Schedule &schedule,
    const std::vector<AllReducePlacement> &placements, int replicas) {
  if (replicas < 1)
    return {false, {{-1, -1, "the replica count must be >= 1"}}};
  return ReplicaRun(model, schedule, placements, replicas).run();
}
