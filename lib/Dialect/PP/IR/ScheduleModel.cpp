//===- ScheduleModel.cpp - pp IR <-> schedule library ---------------------===//

#include "pp/Dialect/PP/IR/ScheduleModel.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>
#include <tuple>

using namespace mlir;
using namespace mlir::pp;

sched::PipelineModel mlir::pp::getPipelineModel(PipelineOp pipeline) {
  sched::PipelineModel model;
  model.numRanks = pipeline.getNumRanks();
  model.latency = pipeline.getLatency().convertToDouble();
  model.activationBytes = pipeline.getActivationBytes();
  for (StageOp stage : pipeline.getStagesByIndex()) {
    sched::StageInfo info;
    info.rank = stage.getRank();
    // Concrete stages without measured costs count as unit forward and
    // backward-input work and free weight work.
    info.forwardTime = stage.getForwardTime()
                           ? stage.getForwardTime()->convertToDouble()
                           : 1.0;
    info.backwardInputTime =
        stage.getBackwardInputTime()
            ? stage.getBackwardInputTime()->convertToDouble()
            : 1.0;
    info.backwardWeightTime =
        stage.getBackwardWeightTime()
            ? stage.getBackwardWeightTime()->convertToDouble()
            : 0.0;
    info.stashBytes = stage.getStashBytes();
    info.weightStashBytes = stage.getWeightStashBytes();
    model.stages.push_back(info);
  }
  return model;
}

static sched::PayloadKind toLibrary(PayloadKind kind) {
  return kind == PayloadKind::activation ? sched::PayloadKind::Activation
                                         : sched::PayloadKind::Gradient;
}

static PayloadKind fromLibrary(sched::PayloadKind kind) {
  return kind == sched::PayloadKind::Activation ? PayloadKind::activation
                                                : PayloadKind::gradient;
}

ScheduleModel mlir::pp::getScheduleModel(ScheduleOp op) {
  ScheduleModel result;
  result.schedule.numMicrobatches = op.getNumMicrobatches();
  if (op.isCompact()) {
    // Problems are reported at the schedule op, naming rank and index.
    result.schedule.ranks = unpackCompactSchedule(op);
    for (const std::vector<sched::Action> &actions : result.schedule.ranks)
      result.ops.emplace_back(actions.size(), op.getOperation());
    for (const PackedAllReduce &e : unpackAllReduces(op)) {
      result.allReduces.push_back(
          {static_cast<int>(e.rank), static_cast<int>(e.stage),
           static_cast<size_t>(e.after), static_cast<int>(e.bucket)});
      result.replicas = static_cast<int>(e.replicas);
      if (result.gradientBytes.size() <= static_cast<size_t>(e.stage))
        result.gradientBytes.resize(e.stage + 1, 0);
      result.gradientBytes[e.stage] = e.bytes;
    }
    return result;
  }
  for (Region &region : op.getRanks()) {
    std::vector<sched::Action> &actions = result.schedule.ranks.emplace_back();
    std::vector<Operation *> &ops = result.ops.emplace_back();
    if (region.empty())
      continue;
    for (Operation &operation : region.front()) {
      sched::Action action;
      bool known = llvm::TypeSwitch<Operation *, bool>(&operation)
                       .Case([&](ForwardOp f) {
                         action = {sched::ActionKind::Forward,
                                   (int)f.getStage(), (int)f.getMicrobatch()};
                         action.overlapWithNext = f.getOverlapped();
                         return true;
                       })
                       .Case([&](BackwardOp b) {
                         action = {sched::ActionKind::Backward,
                                   (int)b.getStage(), (int)b.getMicrobatch()};
                         return true;
                       })
                       .Case([&](BackwardInputOp b) {
                         action = {sched::ActionKind::BackwardInput,
                                   (int)b.getStage(), (int)b.getMicrobatch()};
                         return true;
                       })
                       .Case([&](BackwardWeightOp w) {
                         action = {sched::ActionKind::BackwardWeight,
                                   (int)w.getStage(), (int)w.getMicrobatch()};
                         return true;
                       })
                       .Case([&](SendOp s) {
                         action = {sched::ActionKind::Send, (int)s.getStage(),
                                   (int)s.getMicrobatch(),
                                   toLibrary(s.getPayload()), (int)s.getPeer()};
                         return true;
                       })
                       .Case([&](RecvOp r) {
                         action = {sched::ActionKind::Recv, (int)r.getStage(),
                                   (int)r.getMicrobatch(),
                                   toLibrary(r.getPayload()), (int)r.getPeer()};
                         return true;
                       })
                       .Default([](Operation *) { return false; });
      if (auto reduce = dyn_cast<AllReduceOp>(&operation);
          reduce && !actions.empty()) {
        int stage = static_cast<int>(reduce.getStage());
        result.allReduces.push_back(
            {static_cast<int>(result.schedule.ranks.size() - 1), stage,
             actions.size() - 1,
             static_cast<int>(reduce.getBucket().value_or(-1))});
        result.replicas = static_cast<int>(reduce.getReplicas());
        if (result.gradientBytes.size() <= static_cast<size_t>(stage))
          result.gradientBytes.resize(stage + 1, 0);
        result.gradientBytes[stage] = reduce.getBytes();
      }
      if (!known)
        continue;
      actions.push_back(action);
      ops.push_back(&operation);
    }
  }
  return result;
}

sched::DataParallelResult mlir::pp::ScheduleModel::simulateAllReduces(
    const sched::PipelineModel &model,
    const sched::SimulationResult &simulation, double bandwidth,
    double latency) const {
  sched::DataParallelModel dp;
  dp.replicas = replicas;
  dp.bandwidth = bandwidth;
  dp.latency = latency;
  dp.gradientBytes = gradientBytes;
  return sched::simulateDataParallel(model, schedule, simulation, allReduces,
                                     dp);
}

namespace {
/// What buildScheduleOp keeps from the schedule it replaces (`like`):
/// locations by (kind, stage, micro-batch) of the compute actions and value
/// types by (payload, stage, micro-batch). Tables, not hash maps: `like` is
/// a verified schedule, every stage and micro-batch runs in it, so they
/// hold a few entries per action. Without `like`, every lookup gives the
/// fallback location and type.
class ScheduleLikeness {
public:
  ScheduleLikeness(ScheduleOp like, int64_t numStages, Location fallbackLoc,
                   Type fallbackType)
      : numStages(numStages),
        numMicrobatches(like ? like.getNumMicrobatches() : 0),
        fallbackLoc(fallbackLoc), fallbackType(fallbackType) {
    if (!like)
      return;
    locations.resize(kNumKinds * numStages * numMicrobatches);
    valueTypes.resize(2 * numStages * numMicrobatches);
    ScheduleModel model = getScheduleModel(like);
    for (auto [actions, ops] : llvm::zip(model.schedule.ranks, model.ops))
      for (auto [a, op] : llvm::zip(actions, ops))
        record(a, op);
  }

  Location locationOf(sched::ActionKind kind, int s, int m) const {
    LocationAttr found = find(kind, s, m);
    return found ? Location(found) : fallbackLoc;
  }
  Type typeOf(PayloadKind payload, int s, int m) const {
    int64_t at = slot(tableOf(payload), s, m);
    return at >= 0 && valueTypes[at] ? valueTypes[at] : fallbackType;
  }
  /// A message's: that of the action that makes its payload.
  Location producerLocation(PayloadKind payload, int s, int m) const {
    if (payload == PayloadKind::activation)
      return locationOf(sched::ActionKind::Forward, s, m);
    LocationAttr fused = find(sched::ActionKind::Backward, s, m);
    return fused ? Location(fused)
                 : locationOf(sched::ActionKind::BackwardInput, s, m);
  }

private:
  /// Locations are kept for the compute kinds (F, fused backward, B, W).
  static constexpr int64_t kNumKinds =
      static_cast<int64_t>(sched::ActionKind::BackwardWeight) + 1;
  static int64_t tableOf(PayloadKind payload) {
    return payload == PayloadKind::activation ? 0 : 1;
  }
  int64_t slot(int64_t table, int64_t s, int64_t m) const {
    if (s < 0 || s >= numStages || m < 0 || m >= numMicrobatches)
      return -1;
    return (table * numStages + s) * numMicrobatches + m;
  }
  LocationAttr find(sched::ActionKind kind, int s, int m) const {
    int64_t at = slot(static_cast<int64_t>(kind), s, m);
    return at >= 0 ? locations[at] : LocationAttr();
  }
  void record(const sched::Action &a, Operation *op) {
    int64_t at = a.isCompute()
                     ? slot(static_cast<int64_t>(a.kind), a.stage, a.microbatch)
                     : -1;
    if (at >= 0 && !locations[at])
      locations[at] = op->getLoc();
    PayloadKind payload =
        a.kind == sched::ActionKind::Forward ? PayloadKind::activation
        : a.kind == sched::ActionKind::Recv  ? fromLibrary(a.payload)
                                             : PayloadKind::gradient;
    int64_t typeAt = slot(tableOf(payload), a.stage, a.microbatch);
    for (Value result : op->getResults())
      if (isa<RankedTensorType>(result.getType()) && typeAt >= 0 &&
          !valueTypes[typeAt])
        valueTypes[typeAt] = result.getType();
  }

  int64_t numStages, numMicrobatches;
  Location fallbackLoc;
  Type fallbackType;
  std::vector<LocationAttr> locations;
  std::vector<Type> valueTypes;
};
} // namespace

/// The attributes both forms of a schedule op have.
static void addScheduleAttributes(OperationState &state, OpBuilder &builder,
                                  StringRef name, PipelineOp pipeline,
                                  int64_t numMicrobatches) {
  state.addAttribute(ScheduleOp::getSymNameAttrName(state.name),
                     builder.getStringAttr(name));
  state.addAttribute(ScheduleOp::getPipelineAttrName(state.name),
                     FlatSymbolRefAttr::get(pipeline.getSymNameAttr()));
  state.addAttribute(ScheduleOp::getNumMicrobatchesAttrName(state.name),
                     builder.getI64IntegerAttr(numMicrobatches));
}

ScheduleOp mlir::pp::buildScheduleOp(OpBuilder &builder, Location loc,
                                     StringRef name, PipelineOp pipeline,
                                     const sched::Schedule &schedule,
                                     ScheduleOp like) {
  MLIRContext *ctx = builder.getContext();
  SmallVector<StageOp> stages = pipeline.getStagesByIndex();
  int64_t numStages = stages.size();
  auto defaultType = RankedTensorType::get({pipeline.getActivationBytes()},
                                           builder.getIntegerType(8));

  ScheduleLikeness from(like, numStages, loc, defaultType);

  OperationState state(loc, ScheduleOp::getOperationName());
  addScheduleAttributes(state, builder, name, pipeline,
                        schedule.numMicrobatches);
  for (size_t r = 0; r < schedule.ranks.size(); ++r)
    state.addRegion();
  auto op = cast<ScheduleOp>(builder.create(state));

  constexpr int act = static_cast<int>(PayloadKind::activation);
  constexpr int grad = static_cast<int>(PayloadKind::gradient);
  // The attributes every action repeats, made once: getting one from the
  // context is a locked hash lookup, millions of them at scale.
  auto i64Attrs = [&](int64_t count) {
    SmallVector<IntegerAttr> attrs;
    attrs.reserve(count);
    for (int64_t i = 0; i < count; ++i)
      attrs.push_back(builder.getI64IntegerAttr(i));
    return attrs;
  };
  SmallVector<IntegerAttr> stageAttrs = i64Attrs(numStages);
  SmallVector<IntegerAttr> microbatchAttrs = i64Attrs(schedule.numMicrobatches);
  SmallVector<IntegerAttr> rankAttrs = i64Attrs(schedule.ranks.size());
  PayloadKindAttr payloadAttrs[] = {
      PayloadKindAttr::get(ctx, PayloadKind::activation),
      PayloadKindAttr::get(ctx, PayloadKind::gradient)};
  auto attrOf = [&](ArrayRef<IntegerAttr> attrs, int64_t value) {
    return value >= 0 && value < static_cast<int64_t>(attrs.size())
               ? attrs[value]
               : builder.getI64IntegerAttr(value);
  };
  auto payloadAttr = [&](PayloadKind payload) {
    return payloadAttrs[payload == PayloadKind::activation ? 0 : 1];
  };
  for (auto [rank, actions] : llvm::enumerate(schedule.ranks)) {
    Block *block = builder.createBlock(&op.getRanks()[rank]);
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToEnd(block);
    // Values on this rank, by (payload, stage, micro-batch), and stashes by
    // (stage, micro-batch).
    DenseMap<std::tuple<int, int, int>, Value> values;
    DenseMap<std::pair<int, int>, Value> stashes, weightStashes;
    values.reserve(actions.size());
    stashes.reserve(actions.size());
    auto lookup = [&](int payload, int stage, int mb) -> Value {
      return values.lookup({payload, stage, mb});
    };
    for (const sched::Action &a : actions) {
      int s = a.stage, m = a.microbatch;
      IntegerAttr stageAttr = attrOf(stageAttrs, s);
      IntegerAttr mbAttr = attrOf(microbatchAttrs, m);
      switch (a.kind) {
      case sched::ActionKind::Forward: {
        Type output = s + 1 < numStages
                          ? from.typeOf(PayloadKind::activation, s, m)
                          : Type();
        auto stash = StashType::get(ctx, stages[s].getStashBytes());
        Value input = s > 0 ? lookup(act, s - 1, m) : Value();
        auto f = ForwardOp::create(builder, from.locationOf(a.kind, s, m),
                                   output, stash, stageAttr, mbAttr,
                                   a.overlapWithNext, input);
        if (f.getOutput())
          values[{act, s, m}] = f.getOutput();
        stashes[{s, m}] = f.getStash();
        break;
      }
      case sched::ActionKind::Backward: {
        Type inGrad = s > 0 ? from.typeOf(PayloadKind::gradient, s, m) : Type();
        Value g = s + 1 < numStages ? lookup(grad, s + 1, m) : Value();
        auto b =
            BackwardOp::create(builder, from.locationOf(a.kind, s, m), inGrad,
                               stageAttr, mbAttr, g, stashes.lookup({s, m}));
        if (b.getInputGrad())
          values[{grad, s, m}] = b.getInputGrad();
        break;
      }
      case sched::ActionKind::BackwardInput: {
        Type inGrad = s > 0 ? from.typeOf(PayloadKind::gradient, s, m) : Type();
        auto wstash = StashType::get(ctx, stages[s].getWeightStashBytes());
        Value g = s + 1 < numStages ? lookup(grad, s + 1, m) : Value();
        auto b = BackwardInputOp::create(builder, from.locationOf(a.kind, s, m),
                                         inGrad, wstash, stageAttr, mbAttr, g,
                                         stashes.lookup({s, m}));
        if (b.getInputGrad())
          values[{grad, s, m}] = b.getInputGrad();
        weightStashes[{s, m}] = b.getWeightStash();
        break;
      }
      case sched::ActionKind::BackwardWeight:
        BackwardWeightOp::create(builder, from.locationOf(a.kind, s, m),
                                 stageAttr, mbAttr,
                                 weightStashes.lookup({s, m}));
        break;
      case sched::ActionKind::Send: {
        PayloadKind payload = fromLibrary(a.payload);
        SendOp::create(builder, from.producerLocation(payload, s, m),
                       payloadAttr(payload), stageAttr, mbAttr,
                       attrOf(rankAttrs, a.peer),
                       lookup(static_cast<int>(payload), s, m));
        break;
      }
      case sched::ActionKind::Recv: {
        PayloadKind payload = fromLibrary(a.payload);
        auto r =
            RecvOp::create(builder, from.producerLocation(payload, s, m),
                           from.typeOf(payload, s, m), payloadAttr(payload),
                           stageAttr, mbAttr, attrOf(rankAttrs, a.peer));
        values[{static_cast<int>(payload), s, m}] = r.getValue();
        break;
      }
      }
    }
  }
  return op;
}

FailureOr<sched::Schedule> mlir::pp::addCommunication(
    const sched::PipelineModel &model, const sched::Schedule &compute,
    Location loc, StringRef name,
    llvm::function_ref<Location(int rank, int index)> actionLoc) {
  sched::DeadlockReport deadlock = sched::findDeadlock(model, compute);
  if (!deadlock.completed) {
    InFlightDiagnostic diag =
        mlir::emitError(loc, "schedule @")
        << name
        << " deadlocks before any message is added: " << deadlock.blocked.size()
        << " ranks wait forever";
    for (const sched::Problem &blocked : deadlock.blocked)
      diag.attachNote(actionLoc(blocked.rank, blocked.index))
          << blocked.message;
    return failure();
  }
  return sched::insertCommunication(model, compute);
}

/// Parses the memory-limit option: bytes ("1048576"), or a multiple of the
/// largest stash of any stage ("4M_B", "2.5M_B"); "" or "0" is no limit.
llvm::Expected<int64_t>
mlir::pp::parseMemoryLimit(StringRef text, const sched::PipelineModel &model) {
  text = text.trim();
  if (text.empty())
    return 0;
  double multiple = 0;
  if (text.consume_back("M_B")) {
    text = text.trim();
    text.consume_back("*");
    text.consume_back("x");
    if (text.trim().getAsDouble(multiple) || !(multiple >= 0) ||
        !std::isfinite(multiple))
      return llvm::createStringError(
          "option 'memory-limit' must be bytes or a multiple of M_B such as "
          "'4M_B'");
    int64_t stash = 0;
    for (const sched::StageInfo &stage : model.stages)
      stash = std::max(stash, stage.stashBytes);
    return static_cast<int64_t>(std::llround(multiple * stash));
  }
  int64_t bytes;
  if (text.getAsInteger(10, bytes) || bytes < 0)
    return llvm::createStringError(
        "option 'memory-limit' must be bytes or a multiple of M_B such as "
        "'4M_B', got '%s'",
        text.str().c_str());
  return bytes;
}

FailureOr<sched::StashAccounting>
mlir::pp::parseStashAccountingOption(StringRef text, Location loc) {
  if (std::optional<sched::StashAccounting> accounting =
          sched::parseStashAccounting(text.trim()))
    return *accounting;
  emitError(loc, "option 'stash-accounting' must be hold or convert, not '")
      << text << "'";
  return failure();
}

FailureOr<SmallVector<PipelineOp>>
mlir::pp::selectPipelines(ModuleOp module, StringRef name, bool required) {
  SmallVector<PipelineOp> pipelines;
  for (auto pipeline : module.getOps<PipelineOp>())
    if (name.empty() || pipeline.getSymName() == name)
      pipelines.push_back(pipeline);
  if (!name.empty() && pipelines.empty())
    return mlir::emitError(module.getLoc()) << "no pp.pipeline named @" << name;
  if (required && pipelines.empty())
    return mlir::emitError(module.getLoc()) << "the module has no pp.pipeline";
  return pipelines;
}

//===----------------------------------------------------------------------===//
// The compact form
//===----------------------------------------------------------------------===//

ScheduleOp mlir::pp::buildCompactScheduleOp(
    OpBuilder &builder, Location loc, StringRef name, PipelineOp pipeline,
    const sched::Schedule &schedule, ArrayRef<PackedAllReduce> allReduces) {
  SmallVector<int64_t> counts;
  SmallVector<int32_t> packed;
  packSchedule(schedule, counts, packed);
  OperationState state(loc, ScheduleOp::getOperationName());
  addScheduleAttributes(state, builder, name, pipeline,
                        schedule.numMicrobatches);
  state.addAttribute(ScheduleOp::getRankActionCountsAttrName(state.name),
                     builder.getDenseI64ArrayAttr(counts));
  state.addAttribute(ScheduleOp::getPackedActionsAttrName(state.name),
                     builder.getDenseI32ArrayAttr(packed));
  if (!allReduces.empty())
    state.addAttribute(
        ScheduleOp::getPackedAllReducesAttrName(state.name),
        builder.getDenseI64ArrayAttr(packAllReduces(allReduces)));
  return cast<ScheduleOp>(builder.create(state));
}

ScheduleOp mlir::pp::expandSchedule(ScheduleOp op) {
  if (!op.isCompact())
    return op;
  OpBuilder builder(op);
  ScheduleModel model = getScheduleModel(op);
  ScheduleOp expanded = buildScheduleOp(builder, op.getLoc(), op.getSymName(),
                                        op.getPipelineOp(), model.schedule);
  expanded->setDiscardableAttrs(op->getDiscardableAttrDictionary());
  if (std::vector<PackedAllReduce> entries = unpackAllReduces(op);
      !entries.empty())
    insertAllReduceOps(getScheduleModel(expanded), entries);
  op.erase();
  return expanded;
}

void mlir::pp::insertAllReduceOps(const ScheduleModel &schedule,
                                  ArrayRef<PackedAllReduce> entries) {
  // In program order per rank; the members of a bucket all follow the
  // same action, so each goes after the one placed before it.
  Operation *previous = nullptr;
  const PackedAllReduce *previousEntry = nullptr;
  for (const PackedAllReduce &e : entries) {
    Operation *after = schedule.ops[e.rank][e.after];
    if (previous && previousEntry->rank == e.rank &&
        previousEntry->after == e.after)
      after = previous;
    OpBuilder b(after->getContext());
    b.setInsertionPointAfter(after);
    auto reduce = AllReduceOp::create(b, after->getLoc(), e.stage, e.replicas,
                                      e.bytes, /*bucket=*/nullptr);
    if (e.bucket >= 0)
      reduce.setBucket(e.bucket);
    previous = reduce;
    previousEntry = &e;
  }
}
