//===- Validity.cpp - Structural checks of a schedule ---------------------===//
//
// checkSchedule(): counts, ranges, placement, same-rank dependency order and
// send/recv matching. (findDeadlock() is in Deadlock.cpp.)
//
//===----------------------------------------------------------------------===//

#include "pp/Schedule/Schedule.h"

#include "Text.h"

#include "llvm/ADT/STLExtras.h"

#include <cassert>
#include <string>

using namespace mlir::pp::sched;
using mlir::pp::sched::detail::plural;

namespace {

/// Where an action sits: rank and index into that rank's program.
struct Loc {
  int rank = -1;
  int index = -1;
  bool valid() const { return rank >= 0; }
};

std::string key(int stage, int microbatch) {
  return "stage " + std::to_string(stage) + " micro-batch " +
         std::to_string(microbatch);
}

const char *payloadName(PayloadKind payload) {
  return payload == PayloadKind::Activation ? "activation" : "gradient";
}

/// describe(), but with both ends of a Send/Recv: "send of ... from rank 0 to
/// rank 1", "recv of ... from rank 0 on rank 1".
std::string describeAt(const Action &action, int rank) {
  if (action.isCompute())
    return describe(action);
  std::string what = std::string(payloadName(action.payload)) + " of " +
                     key(action.stage, action.microbatch);
  if (action.kind == ActionKind::Send)
    return "send of " + what + " from rank " + std::to_string(rank) +
           " to rank " + std::to_string(action.peer);
  return "recv of " + what + " from rank " + std::to_string(action.peer) +
         " on rank " + std::to_string(rank);
}

/// Stage that consumes the payload `payload` made by `stage`, or -1 if none
/// (activation of the last stage, gradient of the first).
int consumerStage(PayloadKind payload, int stage, int numStages) {
  int consumer = payload == PayloadKind::Activation ? stage + 1 : stage - 1;
  return consumer >= 0 && consumer < numStages ? consumer : -1;
}

/// Everything checkSchedule() learns about one (stage, micro-batch).
struct KeyInfo {
  Loc forward, fused, input, weight;
};

struct CommInfo {
  Loc send, recv;
};

class Checker {
public:
  Checker(const PipelineModel &model, const Schedule &schedule)
      : model(model), schedule(schedule) {}

  std::vector<Problem> run();

private:
  void report(int rank, int index, std::string message) {
    problems.push_back({rank, index, std::move(message)});
  }
  void report(Loc loc, std::string message) {
    report(loc.rank, loc.index, std::move(message));
  }
  bool checkRanges(int rank, int index, const Action &action);
  void checkPlacement(int rank, int index, const Action &action);
  void record(int rank, int index, const Action &action);
  void checkOverlap(int rank, int index);
  void checkCounts(int stage, int microbatch);
  void checkOrder(int stage, int microbatch);
  void checkMatching(PayloadKind payload, int stage, int microbatch);
  void checkCarried(PayloadKind payload, int stage, int microbatch);
  const Action &at(Loc loc) const {
    return schedule.ranks[loc.rank][loc.index];
  }
  /// Producer of the payload: F for activations, B or fused backward for
  /// gradients.
  Loc producer(PayloadKind payload, int stage, int microbatch) const {
    const KeyInfo &info = keys[index(stage, microbatch)];
    if (payload == PayloadKind::Activation)
      return info.forward;
    return info.fused.valid() ? info.fused : info.input;
  }
  /// Action that consumes the payload (F of the next stage for activations,
  /// B or fused backward of the previous stage for gradients), if any.
  Loc consumer(PayloadKind payload, int stage, int microbatch) const {
    int c = consumerStage(payload, stage, numStages);
    if (c < 0)
      return {};
    const KeyInfo &info = keys[index(c, microbatch)];
    if (payload == PayloadKind::Activation)
      return info.forward;
    return info.fused.valid() ? info.fused : info.input;
  }
  size_t index(int stage, int microbatch) const {
    return static_cast<size_t>(stage) * numMicrobatches + microbatch;
  }
  CommInfo &comm(PayloadKind payload, int stage, int microbatch) {
    return comms[payload == PayloadKind::Activation ? 0 : 1]
                [index(stage, microbatch)];
  }

  const PipelineModel &model;
  const Schedule &schedule;
  int numStages = 0, numMicrobatches = 0;
  /// validStage[s]: stage s is placed on a rank in range.
  std::vector<bool> validStage;
  std::vector<KeyInfo> keys;
  std::vector<CommInfo> comms[2];
  std::vector<Problem> problems;
};

} // namespace

bool Checker::checkRanges(int rank, int index, const Action &action) {
  auto where = [&] {
    return " in action " + std::to_string(index) + " (" + label(action) +
           ") of rank " + std::to_string(rank);
  };
  bool ok = true;
  if (action.stage < 0 || action.stage >= numStages) {
    report(rank, index,
           "stage " + std::to_string(action.stage) + " is out of range [0, " +
               std::to_string(numStages) + ")" + where());
    ok = false;
  }
  if (action.microbatch < 0 || action.microbatch >= numMicrobatches) {
    report(rank, index,
           "micro-batch " + std::to_string(action.microbatch) +
               " is out of range [0, " + std::to_string(numMicrobatches) + ")" +
               where());
    ok = false;
  }
  if (action.isComm() && (action.peer < 0 || action.peer >= model.numRanks)) {
    report(rank, index,
           "peer " + std::to_string(action.peer) + " is out of range [0, " +
               std::to_string(model.numRanks) + ")" + where());
    ok = false;
  }
  return ok;
}

void Checker::checkPlacement(int rank, int index, const Action &action) {
  int stage = action.stage;
  if (!validStage[stage])
    return; // Already reported as a problem of the pipeline.
  int placed = model.rankOf(stage);
  if (action.isCompute()) {
    if (placed != rank)
      report(rank, index,
             "stage " + std::to_string(stage) + " is placed on rank " +
                 std::to_string(placed) + " but scheduled on rank " +
                 std::to_string(rank) + " (" + describe(action) + ")");
    return;
  }

  auto what = [&] { return describeAt(action, rank); };
  int c = consumerStage(action.payload, stage, numStages);
  if (c < 0) {
    report(rank, index,
           what() + " carries the " +
               (action.payload == PayloadKind::Activation
                    ? std::string("output of the last stage")
                    : std::string("input gradient of the first stage")) +
               ", which no stage consumes");
    return;
  }
  if (!validStage[c])
    return;
  int consumerRank = model.rankOf(c);
  if (consumerRank == placed) {
    report(rank, index,
           what() + " does not cross ranks: stages " + std::to_string(stage) +
               " and " + std::to_string(c) + " are both on rank " +
               std::to_string(placed));
    return;
  }
  int from = action.kind == ActionKind::Send ? rank : action.peer;
  int to = action.kind == ActionKind::Send ? action.peer : rank;
  if (from != placed)
    report(rank, index,
           what() + " comes from rank " + std::to_string(from) +
               ", but its producer stage " + std::to_string(stage) +
               " is placed on rank " + std::to_string(placed));
  if (to != consumerRank)
    report(rank, index,
           what() + " goes to rank " + std::to_string(to) +
               ", but its consumer stage " + std::to_string(c) +
               " is placed on rank " + std::to_string(consumerRank));
}

void Checker::record(int rank, int index, const Action &action) {
  Loc here{rank, index};
  Loc *slot = nullptr;
  const char *verb = "run";
  if (action.isCompute()) {
    KeyInfo &info = keys[this->index(action.stage, action.microbatch)];
    switch (action.kind) {
    case ActionKind::Forward:
      slot = &info.forward;
      break;
    case ActionKind::Backward:
      slot = &info.fused;
      break;
    case ActionKind::BackwardInput:
      slot = &info.input;
      break;
    default:
      slot = &info.weight;
      break;
    }
  } else {
    CommInfo &info = comm(action.payload, action.stage, action.microbatch);
    bool send = action.kind == ActionKind::Send;
    slot = send ? &info.send : &info.recv;
    verb = send ? "sent" : "received";
  }
  if (!slot->valid()) {
    *slot = here;
    return;
  }
  std::string what = action.isCompute()
                         ? describe(action) + " is run"
                         : std::string(payloadName(action.payload)) + " of " +
                               key(action.stage, action.microbatch) + " is " +
                               verb;
  report(here,
         what + " twice" +
             (slot->rank == rank ? " on rank " + std::to_string(rank)
                                 : " (ranks " + std::to_string(slot->rank) +
                                       " and " + std::to_string(rank) + ")"));
}

void Checker::checkCounts(int stage, int microbatch) {
  const KeyInfo &info = keys[index(stage, microbatch)];
  bool fused = info.fused.valid(), split = info.input.valid();
  if (info.forward.valid() &&
      (fused ? !split && !info.weight.valid() : split && info.weight.valid()))
    return; // The common case: nothing to report.
  int rank = validStage[stage] ? model.rankOf(stage) : -1;
  std::string k = key(stage, microbatch);
  if (!info.forward.valid())
    report(rank, -1, "forward of " + k + " never runs");
  if (info.fused.valid()) {
    if (info.input.valid())
      report(info.input, k + " has both a fused backward (on rank " +
                             std::to_string(info.fused.rank) +
                             ") and a B (on rank " +
                             std::to_string(info.input.rank) + ")");
    if (info.weight.valid())
      report(info.weight, k + " has both a fused backward (on rank " +
                              std::to_string(info.fused.rank) +
                              ") and a W (on rank " +
                              std::to_string(info.weight.rank) + ")");
    return;
  }
  if (!info.input.valid() && !info.weight.valid()) {
    report(rank, -1, "backward of " + k + " never runs");
    return;
  }
  if (!info.input.valid())
    report(rank, -1, "B of " + k + " never runs");
  if (!info.weight.valid())
    report(rank, -1, "W of " + k + " never runs");
}

void Checker::checkOrder(int stage, int microbatch) {
  const KeyInfo &info = keys[index(stage, microbatch)];
  auto before = [](Loc a, Loc b) {
    return a.valid() && b.valid() && a.rank == b.rank && a.index < b.index;
  };
  // A backward needs its own forward's stash.
  for (Loc bwd : {info.fused, info.input})
    if (before(bwd, info.forward))
      report(bwd, describe(at(bwd)) + " runs before its forward on rank " +
                      std::to_string(bwd.rank));
  // W needs its B.
  if (before(info.weight, info.input))
    report(info.weight, describe(at(info.weight)) +
                            " runs before its B on rank " +
                            std::to_string(info.weight.rank));
  // Payloads made on the same rank as their consumer.
  for (PayloadKind payload : {PayloadKind::Activation, PayloadKind::Gradient}) {
    Loc made = producer(payload, stage, microbatch);
    Loc used = consumer(payload, stage, microbatch);
    if (before(used, made))
      report(used, describe(at(used)) + " runs before " + describe(at(made)) +
                       ", whose " + payloadName(payload) +
                       " it needs, on rank " + std::to_string(used.rank));
  }
}

void Checker::checkMatching(PayloadKind payload, int stage, int microbatch) {
  CommInfo &info = comm(payload, stage, microbatch);
  // Hint for a payload mismatch: the peer has the other payload of the same
  // (stage, micro-batch) with the right ends.
  auto hint = [&](ActionKind kind, int rank, int peer) -> std::string {
    PayloadKind other = payload == PayloadKind::Activation
                            ? PayloadKind::Gradient
                            : PayloadKind::Activation;
    CommInfo &o = comm(other, stage, microbatch);
    Loc loc = kind == ActionKind::Send ? o.send : o.recv;
    if (loc.valid() && loc.rank == rank && at(loc).peer == peer)
      return " (rank " + std::to_string(rank) + " has " +
             describeAt(at(loc), rank) + " instead)";
    return "";
  };
  // One end of the pair without the other, or with another peer.
  auto checkEnd = [&](Loc mine, Loc theirs, ActionKind theirKind) {
    if (!mine.valid())
      return;
    const Action &action = at(mine);
    // Described only for a report: a large schedule has millions of ends.
    auto what = [&] {
      return describeAt(action, mine.rank) + " has no matching " +
             (theirKind == ActionKind::Recv ? "recv" : "send") + " on rank " +
             std::to_string(action.peer);
    };
    if (!theirs.valid())
      report(mine, what() + hint(theirKind, action.peer, mine.rank));
    else if (theirs.rank != action.peer || at(theirs).peer != mine.rank)
      report(mine, what() + "; the " + describeAt(at(theirs), theirs.rank) +
                       " does not match it");
  };
  checkEnd(info.send, info.recv, ActionKind::Recv);
  checkEnd(info.recv, info.send, ActionKind::Send);
  // A send must follow the action that makes its payload, a recv must
  // precede the action that uses it (same rank; placement is checked apart).
  Loc made = producer(payload, stage, microbatch);
  if (info.send.valid() && made.valid() && made.rank == info.send.rank &&
      made.index > info.send.index)
    report(info.send, describeAt(at(info.send), info.send.rank) +
                          " runs before " + describe(at(made)) +
                          ", which makes its payload");
  Loc used = consumer(payload, stage, microbatch);
  if (info.recv.valid() && used.valid() && used.rank == info.recv.rank &&
      used.index < info.recv.index)
    report(used, describe(at(used)) + " runs before " +
                     describeAt(at(info.recv), info.recv.rank) +
                     ", which delivers its input");
}

/// In a schedule that communicates explicitly, every payload that crosses
/// ranks must travel in a send/recv pair: a schedule that mixes explicit and
/// implied messages would run as if the missing data arrived by itself.
void Checker::checkCarried(PayloadKind payload, int stage, int microbatch) {
  int consumerStage =
      payload == PayloadKind::Activation ? stage + 1 : stage - 1;
  if (consumerStage < 0 || consumerStage >= numStages || !validStage[stage] ||
      !validStage[consumerStage] ||
      model.rankOf(stage) == model.rankOf(consumerStage))
    return;
  CommInfo &info = comm(payload, stage, microbatch);
  if (info.send.valid() || info.recv.valid())
    return; // checkMatching reports a half pair
  Loc used = consumer(payload, stage, microbatch);
  if (!used.valid())
    return;
  report(used, describe(at(used)) + " on rank " + std::to_string(used.rank) +
                   " needs the " + payloadName(payload) + " of stage " +
                   std::to_string(stage) + " micro-batch " +
                   std::to_string(microbatch) + " from rank " +
                   std::to_string(model.rankOf(stage)) +
                   ", but no send/recv carries it; the schedule communicates "
                   "explicitly, so every value that crosses ranks needs one");
}

/// An F&B pair (Action::overlapWithNext) is a Forward directly followed by a
/// Backward or BackwardInput of another (stage, micro-batch).
void Checker::checkOverlap(int rank, int index) {
  const std::vector<Action> &program = schedule.ranks[rank];
  const Action &action = program[index];
  if (!action.overlapWithNext)
    return;
  std::string r = std::to_string(rank);
  if (action.kind != ActionKind::Forward) {
    report(rank, index,
           "overlapWithNext is set on " + describeAt(action, rank) +
               " on rank " + r +
               ", which is not a forward; only a forward starts an F&B pair");
    return;
  }
  std::string pair = "F&B pair of " + describe(action) + " on rank " + r;
  if (static_cast<size_t>(index) + 1 >= program.size()) {
    report(rank, index,
           pair + " must be followed by a backward, but it is the last "
                  "action of the rank");
    return;
  }
  const Action &next = program[index + 1];
  if (next.kind != ActionKind::Backward &&
      next.kind != ActionKind::BackwardInput) {
    report(rank, index,
           pair + " must be followed by a backward, but the next action is " +
               describeAt(next, rank) +
               (next.isComm() ? " (no send/recv may split a pair)" : ""));
    return;
  }
  if (next.stage == action.stage && next.microbatch == action.microbatch)
    report(rank, index,
           pair + " pairs it with its own backward, which needs its output");
}

std::vector<Problem> Checker::run() {
  numStages = model.numStages();
  numMicrobatches = schedule.numMicrobatches;
  int numRanks = model.numRanks;

  if (numRanks < 1)
    report(-1, -1,
           "the pipeline has " + plural(numRanks, "rank", "ranks") +
               "; it needs at least one");
  if (numStages < 1)
    report(-1, -1, "the pipeline has no stages");
  validStage.assign(numStages, true);
  for (int s = 0; s < numStages; ++s) {
    int rank = model.rankOf(s);
    if (rank < 0 || rank >= numRanks) {
      validStage[s] = false;
      report(-1, -1,
             "stage " + std::to_string(s) + " is placed on rank " +
                 std::to_string(rank) + ", but the pipeline has " +
                 plural(numRanks, "rank", "ranks"));
    }
  }
  if (static_cast<int64_t>(schedule.ranks.size()) != numRanks)
    report(-1, -1,
           "the schedule has " +
               plural(static_cast<int64_t>(schedule.ranks.size()), "rank",
                      "ranks") +
               ", but the pipeline has " + plural(numRanks, "rank", "ranks"));
  if (numMicrobatches < 1) {
    report(-1, -1,
           "the schedule has " +
               plural(numMicrobatches, "micro-batch", "micro-batches") +
               "; it needs at least one");
    return std::move(problems);
  }
  if (numStages < 1)
    return std::move(problems);

  size_t numKeys = static_cast<size_t>(numStages) * numMicrobatches;
  // Every (stage, micro-batch) runs one forward. When S x M is far beyond
  // the schedule's size (an imported table naming micro-batch 2000000),
  // say what is missing once instead of building S x M tables and reporting
  // every key that never runs, which takes minutes and gigabytes.
  size_t numActions = 0, numForwards = 0;
  for (const std::vector<Action> &program : schedule.ranks) {
    numActions += program.size();
    numForwards += llvm::count_if(program, [](const Action &action) {
      return action.kind == ActionKind::Forward;
    });
  }
  if (numForwards < numKeys && numKeys > 4 * numActions + 65536) {
    report(
        -1, -1,
        "the schedule runs " +
            plural(static_cast<int64_t>(numForwards), "forward", "forwards") +
            ", but " + plural(numStages, "stage", "stages") + " x " +
            plural(numMicrobatches, "micro-batch", "micro-batches") + " need " +
            std::to_string(numKeys));
    return std::move(problems);
  }
  bool communicates = false;
  keys.assign(numKeys, KeyInfo());
  comms[0].assign(numKeys, CommInfo());
  comms[1].assign(numKeys, CommInfo());

  for (size_t r = 0; r < schedule.ranks.size(); ++r) {
    int rank = static_cast<int>(r);
    const std::vector<Action> &program = schedule.ranks[r];
    for (size_t i = 0; i < program.size(); ++i) {
      int index = static_cast<int>(i);
      const Action &action = program[i];
      checkOverlap(rank, index);
      if (!checkRanges(rank, index, action))
        continue;
      checkPlacement(rank, index, action);
      record(rank, index, action);
      communicates = communicates || action.isComm();
    }
  }

  for (int s = 0; s < numStages; ++s)
    for (int m = 0; m < numMicrobatches; ++m) {
      checkCounts(s, m);
      checkOrder(s, m);
      checkMatching(PayloadKind::Activation, s, m);
      checkMatching(PayloadKind::Gradient, s, m);
      if (communicates) {
        checkCarried(PayloadKind::Activation, s, m);
        checkCarried(PayloadKind::Gradient, s, m);
      }
    }
  return std::move(problems);
}

std::vector<Problem> mlir::pp::sched::checkSchedule(const PipelineModel &model,
                                                    const Schedule &schedule) {
  return Checker(model, schedule).run();
}
