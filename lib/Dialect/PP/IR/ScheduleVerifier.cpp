//===- ScheduleVerifier.cpp - the cross-rank checks of pp.schedule --------===//
//
// ScheduleOp::verifySymbolUses: the checks that need the pipeline (stage
// placement, counts, the wiring of every action's operands and results,
// message types); the structural checks of the schedule library
// (sched::checkSchedule) run on the schedule's model.
//
//===----------------------------------------------------------------------===//

#include "pp/Dialect/PP/IR/PPOps.h"
#include "pp/Dialect/PP/IR/ScheduleModel.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"

#include <array>
#include <tuple>

using namespace mlir;
using namespace mlir::pp;

namespace {
/// Identifies a value a rank program produces: (payload, stage, micro-batch).
using ValueKey = std::tuple<int, int64_t, int64_t>;

/// Checks that the operands and results of the actions of `op` are wired the
/// way the (already checked) keys say.
class WiringChecker {
public:
  WiringChecker(ScheduleOp op, PipelineOp pipeline)
      : op(op), numStages(pipeline.getNumStages()),
        stages(pipeline.getStagesByIndex()) {}

  LogicalResult check();
  LogicalResult checkGradientTypes();

private:
  int64_t rankOf(int64_t stage) { return stages[stage].getRank(); }
  LogicalResult checkStash(Operation *action, Value value, int64_t bytes,
                           StringRef what);
  LogicalResult checkProducer(Operation *user, Value value, int payload,
                              int64_t stage, int64_t mb, StringRef what);
  LogicalResult checkPresence(Operation *action, Value value, bool expected,
                              StringRef what, StringRef why);
  LogicalResult checkBackwardForm(Operation *action);

  ScheduleOp op;
  int64_t numStages;
  SmallVector<StageOp> stages;
};
} // namespace

/// The (payload, stage, micro-batch) key of the activation or gradient that
/// `value` holds, if it is one produced by an action or a recv.
static std::optional<ValueKey> keyOfValue(Value value) {
  Operation *def = value.getDefiningOp();
  if (!def)
    return std::nullopt;
  constexpr int act = static_cast<int>(PayloadKind::activation);
  constexpr int grad = static_cast<int>(PayloadKind::gradient);
  if (auto f = dyn_cast<ForwardOp>(def); f && value == f.getOutput())
    return ValueKey{act, f.getStage(), f.getMicrobatch()};
  if (auto b = dyn_cast<BackwardOp>(def); b && value == b.getInputGrad())
    return ValueKey{grad, b.getStage(), b.getMicrobatch()};
  if (auto b = dyn_cast<BackwardInputOp>(def); b && value == b.getInputGrad())
    return ValueKey{grad, b.getStage(), b.getMicrobatch()};
  if (auto r = dyn_cast<RecvOp>(def))
    return ValueKey{static_cast<int>(r.getPayload()), r.getStage(),
                    r.getMicrobatch()};
  return std::nullopt;
}

static StringRef payloadName(int payload) {
  return stringifyPayloadKind(static_cast<PayloadKind>(payload));
}

LogicalResult WiringChecker::checkProducer(Operation *user, Value value,
                                           int payload, int64_t stage,
                                           int64_t mb, StringRef what) {
  std::optional<ValueKey> key = keyOfValue(value);
  if (key && *key == ValueKey{payload, stage, mb})
    return success();
  return user->emitOpError(what)
         << " must be the " << payloadName(payload) << " of stage " << stage
         << " micro-batch " << mb
         << " (from that action on this rank or a pp.recv of it)";
}

LogicalResult WiringChecker::checkStash(Operation *action, Value value,
                                        int64_t bytes, StringRef what) {
  auto type = cast<StashType>(value.getType());
  if (type.getBytes() != bytes)
    return action->emitOpError(what)
           << " is " << type << ", but the stage keeps " << bytes << " bytes";
  return success();
}

LogicalResult WiringChecker::checkPresence(Operation *action, Value value,
                                           bool expected, StringRef what,
                                           StringRef why) {
  if (static_cast<bool>(value) == expected)
    return success();
  return action->emitOpError(expected ? "needs " : "must not have ")
         << what << ": " << why;
}

/// Every operand must be made earlier in the rank's program.
static LogicalResult checkProgramOrder(Operation *action) {
  for (Value operand : action->getOperands()) {
    Operation *def = operand.getDefiningOp();
    if (def && def->getBlock() == action->getBlock() &&
        def->isBeforeInBlock(action))
      continue;
    auto diag = action->emitOpError("uses a value before it is made: the ");
    if (def)
      diag << "'" << def->getName() << "' of stage "
           << def->getAttrOfType<IntegerAttr>("stage").getInt()
           << " micro-batch "
           << def->getAttrOfType<IntegerAttr>("microbatch").getInt()
           << " must come first on this rank";
    else
      diag << "operand is not made by an action of this rank";
    return diag;
  }
  return success();
}

LogicalResult WiringChecker::check() {
  constexpr int act = static_cast<int>(PayloadKind::activation);
  constexpr int grad = static_cast<int>(PayloadKind::gradient);
  for (auto [rankIndex, region] : llvm::enumerate(op.getRanks())) {
    int64_t rank = rankIndex;
    for (Operation &action : region.front()) {
      if (isa<AllReduceOp>(action))
        continue;
      if (failed(checkProgramOrder(&action)))
        return failure();
      LogicalResult result =
          llvm::TypeSwitch<Operation *, LogicalResult>(&action)
              .Case([&](ForwardOp f) -> LogicalResult {
                int64_t s = f.getStage(), m = f.getMicrobatch();
                if (failed(checkPresence(
                        f, f.getOutput(), s + 1 < numStages, "an output",
                        s + 1 < numStages ? "the next stage consumes it"
                                          : "it runs the last stage")) ||
                    failed(checkStash(f, f.getStash(),
                                      stages[s].getStashBytes(), "stash")))
                  return failure();
                if (s == 0)
                  return checkPresence(f, f.getInput(), false, "an input",
                                       "stage 0 reads the micro-batch");
                if (Value in = f.getInput())
                  return checkProducer(f, in, act, s - 1, m, "input");
                if (rankOf(s - 1) == rank)
                  return f.emitOpError("needs an input: the forward of stage ")
                         << s - 1 << " runs on the same rank";
                return success();
              })
              .Case<BackwardOp, BackwardInputOp>([&](auto b) -> LogicalResult {
                int64_t s = b.getStage(), m = b.getMicrobatch();
                if (failed(checkPresence(b, b.getInputGrad(), s > 0,
                                         "an input gradient",
                                         s > 0 ? "the previous stage needs it"
                                               : "stage 0 has no input")))
                  return failure();
                auto fwd = b.getStash().template getDefiningOp<ForwardOp>();
                if (!fwd || fwd.getStage() != s || fwd.getMicrobatch() != m)
                  return b.emitOpError("stash must come from the forward of "
                                       "stage ")
                         << s << " micro-batch " << m;
                if constexpr (std::is_same_v<decltype(b), BackwardInputOp>)
                  if (failed(checkStash(b, b.getWeightStash(),
                                        stages[s].getWeightStashBytes(),
                                        "weight stash")))
                    return failure();
                if (s + 1 == numStages)
                  return checkPresence(b, b.getGrad(), false,
                                       "an output gradient",
                                       "the last stage starts from its loss");
                if (Value g = b.getGrad())
                  return checkProducer(b, g, grad, s + 1, m, "gradient");
                if (rankOf(s + 1) == rank)
                  return b.emitOpError("needs a gradient: the backward of "
                                       "stage ")
                         << s + 1 << " runs on the same rank";
                return success();
              })
              .Case([&](BackwardWeightOp w) -> LogicalResult {
                auto bi = w.getWeightStash().getDefiningOp<BackwardInputOp>();
                if (!bi || bi.getStage() != w.getStage() ||
                    bi.getMicrobatch() != w.getMicrobatch())
                  return w.emitOpError("weight stash must come from the "
                                       "backward_input of stage ")
                         << w.getStage() << " micro-batch "
                         << w.getMicrobatch();
                return success();
              })
              .Case([&](SendOp send) -> LogicalResult {
                int payload = static_cast<int>(send.getPayload());
                std::optional<ValueKey> key = keyOfValue(send.getValue());
                if (!key ||
                    *key != ValueKey{payload, send.getStage(),
                                     send.getMicrobatch()} ||
                    isa_and_nonnull<RecvOp>(send.getValue().getDefiningOp()))
                  return send.emitOpError("sends a value that is not the ")
                         << payloadName(payload) << " of stage "
                         << send.getStage() << " micro-batch "
                         << send.getMicrobatch() << " made on this rank";
                return success();
              })
              .Default([](Operation *) { return success(); });
      if (failed(result))
        return failure();
      if (failed(checkBackwardForm(&action)))
        return failure();
    }
  }
  return success();
}

LogicalResult WiringChecker::checkBackwardForm(Operation *action) {
  auto stageAttr = action->getAttrOfType<IntegerAttr>("stage");
  StageOp stage = stages[stageAttr.getInt()];
  if (stage.isAbstract())
    return success();
  // A fused backward of a stage with B and W runs them back to back (the
  // schedules that mix both, DualPipeV's F&B pairs, need it).
  if (isa<BackwardInputOp, BackwardWeightOp>(action) && stage.getBackward())
    return action->emitOpError("runs a split backward, but stage ")
           << stage.getIndex()
           << " names only a fused 'backward' function; use pp.backward";
  return success();
}

/// A gradient has the type of the value it is the gradient of: the input
/// gradient of (s, m) that of the activation of (s - 1, m).
LogicalResult WiringChecker::checkGradientTypes() {
  DenseMap<std::pair<int64_t, int64_t>, Type> activationTypes;
  SmallVector<std::tuple<Operation *, int64_t, int64_t, Type>> gradients;
  for (Region &region : op.getRanks())
    for (Operation &action : region.front()) {
      for (Value result : action.getResults()) {
        std::optional<ValueKey> key = keyOfValue(result);
        if (!key)
          continue;
        auto [payload, s, m] = *key;
        if (payload == static_cast<int>(PayloadKind::activation))
          activationTypes[{s, m}] = result.getType();
        else
          gradients.push_back({&action, s, m, result.getType()});
      }
    }
  for (auto [action, s, m, type] : gradients) {
    auto it = activationTypes.find({s - 1, m});
    if (it == activationTypes.end() || it->second == type)
      continue;
    return action->emitOpError("makes the gradient of stage ")
           << s << " micro-batch " << m << " as " << type
           << ", but the activation it is the gradient of (output of stage "
           << s - 1 << ") is " << it->second;
  }
  return success();
}

/// Send/recv types must agree. The library matched their keys already
/// (sched::checkSchedule: one send and one recv per payload, stage and
/// micro-batch, with each other as peers), and every (stage, micro-batch)
/// has its forward, so a table by key has at most two entries per action.
static LogicalResult checkMessageTypes(ScheduleOp op,
                                       const ScheduleModel &schedule,
                                       int64_t numStages) {
  int64_t numMicrobatches = op.getNumMicrobatches();
  auto keyIndex = [&](PayloadKind payload, int64_t stage, int64_t mb) {
    int64_t p = payload == PayloadKind::activation ? 0 : 1;
    return static_cast<size_t>((p * numStages + stage) * numMicrobatches + mb);
  };
  std::vector<SendOp> sends(2 * numStages * numMicrobatches);
  for (ArrayRef<Operation *> ops : schedule.ops)
    for (Operation *action : ops)
      if (auto send = dyn_cast<SendOp>(action))
        sends[keyIndex(send.getPayload(), send.getStage(),
                       send.getMicrobatch())] = send;
  for (ArrayRef<Operation *> ops : schedule.ops)
    for (Operation *action : ops) {
      auto recv = dyn_cast<RecvOp>(action);
      if (!recv)
        continue;
      SendOp send = sends[keyIndex(recv.getPayload(), recv.getStage(),
                                   recv.getMicrobatch())];
      if (!send)
        continue;
      Type sent = send.getValue().getType();
      if (sent != recv.getType())
        return recv.emitOpError("receives ")
                   .append(recv.getType(), ", but rank ", recv.getPeer(),
                           " sends ", sent, " for ",
                           payloadName(static_cast<int>(recv.getPayload())),
                           " of stage ", recv.getStage(), " micro-batch ",
                           recv.getMicrobatch())
                   .attachNote(send.getLoc())
               << "the send is here";
    }
  return success();
}

/// Emits the first few of `problems` (from sched::checkSchedule on
/// `model`), each at its action's op; at the schedule op, prefixed with
/// "rank R, action I: ", for a compact schedule. Fails if there are any.
static LogicalResult reportProblems(ScheduleOp op, const ScheduleModel &model,
                                    ArrayRef<sched::Problem> problems) {
  // Report the first few problems; a broken schedule can have thousands.
  constexpr size_t kMaxReported = 8;
  for (const sched::Problem &problem : problems.take_front(kMaxReported)) {
    if (problem.rank < 0 || problem.index < 0)
      op.emitScheduleError() << problem.message;
    else if (op.isCompact())
      op.emitScheduleError() << "rank " << problem.rank << ", action "
                             << problem.index << ": " << problem.message;
    else
      model.ops[problem.rank][problem.index]->emitOpError(problem.message);
  }
  if (problems.size() > kMaxReported)
    op.emitScheduleError() << "has " << problems.size() - kMaxReported
                           << " more problems not shown";
  return failure(!problems.empty());
}

/// A compact schedule's all-reduces against its pipeline and actions: what
/// AllReduceOp's verifier checks for the op (the stage runs on the rank, no
/// backward or W of the stage follows, one per stage, a bucket's members
/// follow one another).
static LogicalResult verifyCompactAllReduces(ScheduleOp op, PipelineOp pipeline,
                                             const ScheduleModel &model) {
  std::vector<PackedAllReduce> entries = unpackAllReduces(op);
  if (entries.empty())
    return success();
  SmallVector<StageOp> stages = pipeline.getStagesByIndex();
  // (Each entry's stage is in range: verifyCompactActions checked it.)
  // The index of the last backward or W of (rank, stage).
  DenseMap<std::pair<int64_t, int64_t>, int64_t> lastGradient;
  for (auto [rank, actions] : llvm::enumerate(model.schedule.ranks))
    for (auto [index, a] : llvm::enumerate(actions))
      if (a.kind == sched::ActionKind::Backward ||
          a.kind == sched::ActionKind::BackwardWeight)
        lastGradient[{rank, a.stage}] = index;
  DenseSet<std::pair<int64_t, int64_t>> reduced;
  DenseMap<std::pair<int64_t, int64_t>, size_t> lastOfBucket;
  for (auto [i, e] : llvm::enumerate(entries)) {
    auto at = [&, i = i, rank = e.rank]() {
      return op.emitScheduleError()
             << "all-reduce " << i << " (rank " << rank << "): ";
    };
    if (stages[e.stage].getRank() != e.rank)
      return at() << "reduces stage " << e.stage << ", which runs on rank "
                  << stages[e.stage].getRank() << ", not on rank " << e.rank;
    auto last = lastGradient.find({e.rank, e.stage});
    if (last != lastGradient.end() && last->second > e.after) {
      const sched::Action &a = model.schedule.ranks[e.rank][last->second];
      return at() << "starts before the gradients of stage " << e.stage
                  << " are final: its "
                  << (a.kind == sched::ActionKind::Backward ? "backward" : "W")
                  << " of micro-batch " << a.microbatch
                  << " follows on this rank";
    }
    if (!reduced.insert({e.rank, e.stage}).second)
      return at() << "stage " << e.stage
                  << " has a second all-reduce on this rank";
    if (e.bucket < 0)
      continue;
    auto [member, first] = lastOfBucket.try_emplace({e.rank, e.bucket}, i);
    if (!first &&
        (member->second + 1 != i || entries[member->second].after != e.after))
      return at() << "is in bucket " << e.bucket
                  << ", whose all-reduces do not follow one another "
                  << "(another action comes between them)";
    member->second = i;
  }
  return success();
}

/// The schedule's all-reduces as a whole, in either form (`reduces`: each
/// one's rank, stage and replicas): with any, every stage that has a
/// backward or W on its rank has one (else that stage's gradients would
/// differ between the replicas, silently: pytorch issue 152849), and all
/// name the same number of replicas.
static LogicalResult
verifyAllReducesCover(ScheduleOp op, const ScheduleModel &model,
                      ArrayRef<std::array<int64_t, 3>> reduces) {
  if (reduces.empty())
    return success();
  for (auto [rank, stage, replicas] : reduces)
    if (replicas != reduces.front()[2])
      return op.emitScheduleError()
             << "the all-reduce of stage " << reduces.front()[1] << " is over "
             << reduces.front()[2] << " replicas, but stage " << stage
             << "'s is over " << replicas
             << "; a schedule's all-reduces are over one set of replicas";
  DenseSet<std::pair<int64_t, int64_t>> reduced;
  for (auto [rank, stage, replicas] : reduces)
    reduced.insert({rank, stage});
  for (auto [rank, actions] : llvm::enumerate(model.schedule.ranks))
    for (const sched::Action &a : actions)
      if ((a.kind == sched::ActionKind::Backward ||
           a.kind == sched::ActionKind::BackwardWeight) &&
          !reduced.count({static_cast<int64_t>(rank), a.stage}))
        return op.emitScheduleError()
               << "has all-reduces, but none for stage " << a.stage
               << " on rank " << rank
               << ": its gradients would differ between the "
               << reduces.front()[2]
               << " replicas (run pp-insert-allreduce to place one per stage)";
  return success();
}

/// A compact schedule's checks against its pipeline: the rank count, every
/// action's stage, micro-batch and peer in range, then the library's
/// checks. Its values have no types, so that is all there is to check.
static LogicalResult verifyCompactActions(ScheduleOp op, PipelineOp pipeline) {
  if (op.getNumRanks() != pipeline.getNumRanks())
    return op.emitScheduleError()
           << "lists the actions of " << op.getNumRanks()
           << " ranks, but pipeline " << op.getPipelineAttr() << " has "
           << pipeline.getNumRanks() << " ranks";
  // Before getScheduleModel, which sizes a table by the stages reduced.
  for (auto [i, e] : llvm::enumerate(unpackAllReduces(op)))
    if (e.stage < 0 || e.stage >= pipeline.getNumStages())
      return op.emitScheduleError()
             << "all-reduce " << i << " (rank " << e.rank << "): stage "
             << e.stage << " is not in pipeline " << op.getPipelineAttr();
  ScheduleModel model = getScheduleModel(op);
  SmallVector<StageOp> stages = pipeline.getStagesByIndex();
  int64_t numStages = pipeline.getNumStages(), numForwards = 0, numActions = 0;
  for (auto [rank, actions] : llvm::enumerate(model.schedule.ranks))
    for (auto [index, a] : llvm::enumerate(actions)) {
      auto at = [&, rank = rank, index = index]() {
        return op.emitScheduleError()
               << "rank " << rank << ", action " << index << ": ";
      };
      if (a.stage < 0 || a.stage >= numStages)
        return at() << "stage " << a.stage << " is out of range: pipeline "
                    << op.getPipelineAttr() << " has " << numStages
                    << " stages";
      if (a.microbatch < 0 || a.microbatch >= op.getNumMicrobatches())
        return at() << "micro-batch " << a.microbatch
                    << " is out of range: the schedule has "
                    << op.getNumMicrobatches() << " micro-batches";
      if (a.isComm() && (a.peer < 0 || a.peer >= pipeline.getNumRanks()))
        return at() << "peer rank " << a.peer << " is out of range: pipeline "
                    << op.getPipelineAttr() << " has " << pipeline.getNumRanks()
                    << " ranks";
      // As WiringChecker::checkBackwardForm for the SSA form.
      bool split = a.kind == sched::ActionKind::BackwardInput ||
                   a.kind == sched::ActionKind::BackwardWeight;
      if (split && !stages[a.stage].isAbstract() &&
          stages[a.stage].getBackward())
        return at() << sched::describe(a) << " is a split backward, but stage "
                    << a.stage
                    << " names only a fused 'backward' function; use backward";
      numForwards += a.kind == sched::ActionKind::Forward;
      ++numActions;
    }
  // As for the SSA form: say what is missing rather than let the library
  // allocate S x M tables far beyond the schedule's size.
  if (numForwards < numStages * op.getNumMicrobatches() &&
      numStages * op.getNumMicrobatches() > 4 * numActions + 65536)
    return op.emitScheduleError()
           << "runs " << numForwards << " forwards, but " << numStages
           << " stages x " << op.getNumMicrobatches() << " micro-batches need "
           << numStages * op.getNumMicrobatches();
  if (failed(reportProblems(
          op, model,
          sched::checkSchedule(getPipelineModel(pipeline), model.schedule))))
    return failure();
  if (failed(verifyCompactAllReduces(op, pipeline, model)))
    return failure();
  SmallVector<std::array<int64_t, 3>> reduces;
  for (const PackedAllReduce &e : unpackAllReduces(op))
    reduces.push_back({e.rank, e.stage, e.replicas});
  return verifyAllReducesCover(op, model, reduces);
}

LogicalResult ScheduleOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto pipeline =
      symbolTable.lookupNearestSymbolFrom<PipelineOp>(*this, getPipelineAttr());
  if (!pipeline)
    return emitScheduleError() << "refers to " << getPipelineAttr()
                               << ", which is not a pp.pipeline";
  if (getNumMicrobatches() < 1 || getNumMicrobatches() > kMaxIndex)
    return emitScheduleError()
           << "needs between 1 and " << kMaxIndex << " micro-batches, got "
           << getNumMicrobatches();
  if (isCompact())
    return verifyCompactActions(*this, pipeline);
  if (getNumRanks() != pipeline.getNumRanks())
    return emitScheduleError()
           << "has " << getNumRanks() << " rank regions, but pipeline "
           << getPipelineAttr() << " has " << pipeline.getNumRanks()
           << " ranks";
  for (Region &region : getRanks())
    for (Operation &action : region.front())
      if (action.getDialect() != (*this)->getDialect() ||
          isa<PipelineOp, StageOp, ScheduleOp>(action))
        return action.emitOpError(
            "is not a pipeline action; rank regions hold only pp.forward, "
            "pp.backward, pp.backward_input, pp.backward_weight, pp.send, "
            "pp.recv and pp.allreduce");

  // Cheap per-action range checks first so that the library sees sane data.
  int64_t numStages = pipeline.getNumStages();
  for (Region &region : getRanks())
    for (Operation &action : region.front()) {
      if (isa<AllReduceOp>(action))
        continue; // its own verifier checks it
      auto stage = action.getAttrOfType<IntegerAttr>("stage").getInt();
      auto mb = action.getAttrOfType<IntegerAttr>("microbatch").getInt();
      if (stage < 0 || stage >= numStages)
        return action.emitOpError("stage ")
               << stage << " is out of range: pipeline " << getPipelineAttr()
               << " has " << numStages << " stages";
      if (mb < 0 || mb >= getNumMicrobatches())
        return action.emitOpError("micro-batch ")
               << mb << " is out of range: the schedule has "
               << getNumMicrobatches() << " micro-batches";
      if (auto peer = action.getAttrOfType<IntegerAttr>("peer"))
        if (peer.getInt() < 0 || peer.getInt() >= pipeline.getNumRanks())
          return action.emitOpError("peer rank ")
                 << peer.getInt() << " is out of range: pipeline "
                 << getPipelineAttr() << " has " << pipeline.getNumRanks()
                 << " ranks";
    }

  // Every (stage, micro-batch) runs one forward. The library's checks build
  // tables of S x M entries, so when S x M is far beyond the schedule's size
  // say what is missing here instead of allocating them.
  int64_t numForwards = 0, numActions = 0;
  for (Region &region : getRanks()) {
    numForwards += llvm::range_size(region.front().getOps<ForwardOp>());
    numActions += region.front().getOperations().size();
  }
  if (numForwards < numStages * getNumMicrobatches() &&
      numStages * getNumMicrobatches() > 4 * numActions + 65536)
    return emitScheduleError()
           << "runs " << numForwards << " forwards, but " << numStages
           << " stages x " << getNumMicrobatches() << " micro-batches need "
           << numStages * getNumMicrobatches();

  sched::PipelineModel model = getPipelineModel(pipeline);
  ScheduleModel scheduleModel = getScheduleModel(*this);
  if (failed(
          reportProblems(*this, scheduleModel,
                         sched::checkSchedule(model, scheduleModel.schedule))))
    return failure();

  WiringChecker wiring(*this, pipeline);
  if (failed(wiring.check()) ||
      failed(checkMessageTypes(*this, scheduleModel, numStages)))
    return failure();
  if (failed(wiring.checkGradientTypes()))
    return failure();
  SmallVector<std::array<int64_t, 3>> reduces;
  for (auto [rank, region] : llvm::enumerate(getRanks()))
    for (AllReduceOp reduce : region.front().getOps<AllReduceOp>())
      reduces.push_back({static_cast<int64_t>(rank), reduce.getStage(),
                         reduce.getReplicas()});
  return verifyAllReducesCover(*this, scheduleModel, reduces);
}
