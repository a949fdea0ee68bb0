//===- ConvertPPToRuntime.cpp - convert-pp-to-runtime ---------------------===//
//
// Turns each rank's program of a communicating `pp.schedule` into a function
// `@<schedule>_rank<r>(%rank: !llvm.ptr)` on tensors that calls the stage
// functions (F, B, W or the fused backward, with the calling conventions of
// pp-differentiate-stages, docs/ModelConventions.md) and the runtime's C entry
// points (runtime/include/pprt/pprt.h, pprt_memref.h) for parameters,
// micro-batch data, messages, gradients, losses, the trace and the stash
// accounting. The result is lowered like any tensor code (one-shot
// bufferization, LLVM) and run by pp-run (docs/Runtime.md).
//
// Values are tracked by the action that produced them, not by the schedule's
// SSA values (which carry abstract sizes): the outputs of F(s, m), the input
// gradients of B(s, m), F's stash and B's weight stash. A message carries
// every tensor of a payload as one part: part k of (stage, micro-batch,
// kind) travels with kind + 2k, for any number of parts. Every rank function
// records the most parts any stage boundary carries (its pprt.boundary_parts
// attribute), which the launcher gives the runtime's world
// (pprt::World::setMessageLayout).
//
//===----------------------------------------------------------------------===//

#include "pp/Model/CostModel.h"
#include "pp/Support/Diagnostics.h"
#include "pprt/pprt.h"

#include "pp/Conversion/Passes.h"
#include "pp/Dialect/PP/IR/PPOps.h"
#include "pp/Dialect/PP/IR/ScheduleModel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"

#include <map>

namespace mlir::pp {
#define GEN_PASS_DEF_CONVERTPPTORUNTIMEPASS
#include "pp/Conversion/Passes.h.inc"
} // namespace mlir::pp

using namespace mlir;
using namespace mlir::pp;

namespace {
struct ConvertPPToRuntimePass
    : mlir::pp::impl::ConvertPPToRuntimePassBase<ConvertPPToRuntimePass> {
  using Base::Base;
  void runOnOperation() override;
};

// The runtime's own numbering of actions and payloads (pprt.h).
constexpr int64_t kForward = PPRT_FORWARD;
constexpr int64_t kBackward = PPRT_BACKWARD;
constexpr int64_t kBackwardInput = PPRT_BACKWARD_INPUT;
constexpr int64_t kBackwardWeight = PPRT_BACKWARD_WEIGHT;
constexpr int64_t kSend = PPRT_SEND;
constexpr int64_t kRecv = PPRT_RECV;
constexpr int64_t kActivation = PPRT_ACTIVATION;
constexpr int64_t kGradient = PPRT_GRADIENT;

/// A stage's functions and how their arguments and results line up.
struct StageFunctionsInfo {
  int64_t index = 0, rank = 0;
  func::FuncOp forward, backward, input, weight;
  /// Arguments of F that are parameters / data or activations.
  SmallVector<unsigned> parameters, inputs;
  /// F's results: outputs, then `numStash` stash values.
  unsigned numOutputs = 0, numStash = 0;
  /// The backward (B or fused): input gradients first; cotangent count.
  unsigned numInputGradients = 0, numCotangents = 0;
  /// W: weight-stash arguments, then B's arguments at `weightArguments`.
  unsigned numWeightStash = 0;
  SmallVector<int64_t> weightArguments;
  /// M_B and M_W as pp-simulate counts them (the stage's memory): F's stash
  /// lives from the start of F to the end of B; B's weight stash and the
  /// part of F's stash that W reads from the start of B to the end of W.
  int64_t stashBytes = 0, weightStashBytes = 0;
};

using Key = std::pair<int64_t, int64_t>; // (stage, micro-batch)
} // namespace

/// Reads and checks the functions of `stage`.
static FailureOr<StageFunctionsInfo> analyzeStage(StageOp stage,
                                                  SymbolTable &symbols) {
  StageFunctionsInfo info;
  info.index = stage.getIndex();
  info.rank = stage.getRank();
  auto lookup = [&](FlatSymbolRefAttr ref) -> func::FuncOp {
    return ref ? symbols.lookup<func::FuncOp>(ref.getValue()) : func::FuncOp();
  };
  info.forward = lookup(stage.getForwardAttr());
  info.backward = lookup(stage.getBackwardAttr());
  info.input = lookup(stage.getBackwardInputAttr());
  info.weight = lookup(stage.getBackwardWeightAttr());
  if (!info.forward || !(info.backward || (info.input && info.weight)))
    return stage.emitError("stage ")
           << info.index
           << " must name existing forward and backward (or backward_input "
              "and backward_weight) functions; run pp-differentiate-stages "
              "first";
  for (func::FuncOp fn :
       {info.forward, info.backward, info.input, info.weight}) {
    if (!fn)
      continue;
    if (fn.isExternal())
      return stage.emitError("@")
             << fn.getSymName() << " of stage " << info.index
             << " is a declaration; it needs a body";
    for (Type t :
         llvm::concat<const Type>(fn.getArgumentTypes(), fn.getResultTypes())) {
      auto tensor = dyn_cast<RankedTensorType>(t);
      if (!tensor || !tensor.hasStaticShape() ||
          !tensor.getElementType().isIntOrFloat())
        return stage.emitError("@")
               << fn.getSymName() << " of stage " << info.index
               << " takes or returns " << typeList(t)
               << "; stage functions must use statically shaped tensors of "
                  "integers or floats";
    }
  }
  func::FuncOp f = info.forward;
  for (unsigned i = 0, e = f.getNumArguments(); i < e; ++i)
    (f.getArgAttr(i, "pp.parameter") ? info.parameters : info.inputs)
        .push_back(i);
  for (unsigned r = 0, e = f.getNumResults(); r < e; ++r)
    (f.getResultAttr(r, "pp.stash") ? info.numStash : info.numOutputs) += 1;
  func::FuncOp b = info.backward ? info.backward : info.input;
  for (unsigned i = 0, e = b.getNumArguments(); i < e; ++i)
    if (b.getArgAttr(i, "pp.gradient"))
      ++info.numCotangents;
  unsigned expectedArgs =
      info.parameters.size() + info.numStash + info.numCotangents;
  if (b.getNumArguments() != expectedArgs)
    return stage.emitError("@")
           << b.getSymName() << " of stage " << info.index << " takes "
           << b.getNumArguments() << " arguments, but the conventions of "
           << "pp-differentiate-stages give " << expectedArgs
           << " (parameters, the stash of @" << f.getSymName()
           << ", the output gradients)";
  if (info.backward) {
    if (info.backward.getNumResults() < info.parameters.size())
      return stage.emitError("@")
             << info.backward.getSymName()
             << " returns fewer results than the stage has parameters";
    info.numInputGradients =
        info.backward.getNumResults() - info.parameters.size();
  } else {
    auto indices =
        info.weight->getAttrOfType<DenseI64ArrayAttr>("pp.weight_arguments");
    if (!indices)
      return stage.emitError("@")
             << info.weight.getSymName()
             << " has no pp.weight_arguments attribute (made by "
                "pp-split-backward)";
    info.weightArguments.assign(indices.asArrayRef().begin(),
                                indices.asArrayRef().end());
    int64_t numStash = static_cast<int64_t>(info.weight.getNumArguments()) -
                       static_cast<int64_t>(info.weightArguments.size());
    if (numStash < 0 || numStash > info.input.getNumResults() ||
        info.weight.getNumResults() != info.parameters.size())
      return stage.emitError("@")
             << info.input.getSymName() << " and @" << info.weight.getSymName()
             << " of stage " << info.index
             << " do not fit together (B returns input gradients then the "
                "weight stash; W takes the weight stash, then B's arguments "
                "listed in pp.weight_arguments, and returns one gradient per "
                "parameter)";
    info.numWeightStash = numStash;
    info.numInputGradients = info.input.getNumResults() - numStash;
    for (Type t :
         info.input.getResultTypes().drop_front(info.numInputGradients))
      info.weightStashBytes += bytesOf(t);
    unsigned stashBegin = info.parameters.size();
    for (int64_t i : info.weightArguments)
      if (i >= stashBegin && i < stashBegin + info.numStash)
        info.weightStashBytes += bytesOf(info.input.getArgumentTypes()[i]);
  }
  for (Type t : f.getResultTypes().drop_front(info.numOutputs))
    info.stashBytes += bytesOf(t);
  return info;
}

/// The last stage's first output is the loss the runtime reports, and its
/// backward is seeded with 1/M (pprt_loss_seed): both need one float
/// element. Anything larger would be seeded in its first element only.
static LogicalResult checkLoss(StageOp stage, const StageFunctionsInfo &info) {
  func::FuncOp f = info.forward;
  if (info.numOutputs == 0)
    return stage.emitError("the last stage's @")
           << f.getSymName() << " returns no loss";
  auto loss = cast<RankedTensorType>(f.getResultTypes().front());
  if (!isa<FloatType>(loss.getElementType()) || loss.getNumElements() != 1)
    return stage.emitError("the last stage's @")
           << f.getSymName() << " returns " << typeList(loss)
           << " as the loss; the loss must be one float element (append one "
              "with pp-append-loss)";
  if (info.numCotangents > 1)
    return stage.emitError("the last stage's backward takes ")
           << info.numCotangents
           << " output gradients; only the loss (one) is seeded";
  return success();
}

namespace {
/// Builds one rank's program.
class RankProgramBuilder {
public:
  RankProgramBuilder(ModuleOp module, OpBuilder &b, Value rank,
                     int64_t rankIndex, std::vector<StageFunctionsInfo> stages,
                     int64_t numStages, sched::StashAccounting accounting)
      : module(module), b(b), rank(rank), rankIndex(rankIndex), stages(stages),
        numStages(numStages), accounting(accounting) {}

  /// Emits the calls for the actions of one rank's region, in order.
  LogicalResult build(Region &program);

private:
  ModuleOp module;
  OpBuilder &b;
  Value rank;
  int64_t rankIndex;
  std::vector<StageFunctionsInfo> stages;
  int64_t numStages;
  /// How a split backward is accounted (pprt_stash), as pp-simulate counts.
  sched::StashAccounting accounting;
  std::map<int64_t, SmallVector<Value>> parameters;
  std::map<Key, SmallVector<Value>> activations, inputGradients, stashes,
      backwardArgs, weightStashes;
  llvm::DenseMap<int64_t, Value> constants;
  Operation *lastConstant = nullptr;

  /// The i64 constant `v`, one per rank program, at its start: a rank
  /// program of many micro-batches repeats few numbers thousands of times.
  Value i64(int64_t v) {
    Value &c = constants[v];
    if (!c) {
      OpBuilder::InsertionGuard guard(b);
      Block *entry = cast<BlockArgument>(rank).getOwner();
      if (lastConstant)
        b.setInsertionPointAfter(lastConstant);
      else
        b.setInsertionPointToStart(entry);
      auto op = arith::ConstantIntOp::create(b, b.getUnknownLoc(), v, 64);
      lastConstant = op;
      c = op;
    }
    return c;
  }
  func::FuncOp declare(StringRef name, TypeRange args);
  void callRuntime(StringRef name, ValueRange args);
  /// Calls the memref entry point `name` (pprt_memref_<name>_<type>) with
  /// `scalars` and `buffer` (cast to an unranked memref).
  void callMemRef(StringRef name, ValueRange scalars, Value buffer);
  Value tensorToBuffer(Value tensor);
  /// A new tensor of `type` that the runtime fills (`name`, `scalars`).
  Value fromRuntime(StringRef name, ValueRange scalars, RankedTensorType type);
  void toRuntime(StringRef name, ValueRange scalars, Value tensor);
  /// Tells the runtime what the buffers of `tensors` hold ("stash" or
  /// "activation"), for the memory it measures (pprt_memref.h).
  void markMemory(StringRef what, ValueRange tensors) {
    for (Value v : tensors)
      toRuntime(what, {}, v);
  }
  void traceBegin(int64_t action, int64_t stage, int64_t microbatch) {
    callRuntime("pprt_action_begin",
                {rank, i64(action), i64(stage), i64(microbatch)});
  }
  void traceEnd() { callRuntime("pprt_action_end", {rank}); }
  void accountStash(int64_t delta) {
    if (delta != 0)
      callRuntime("pprt_stash", {rank, i64(delta)});
  }
  StageFunctionsInfo &stage(int64_t s) { return stages[s]; }
  /// W(s, m): its call, the stash accounting and the gradients.
  /// Inside a fused backward (B then W), W is neither traced nor accounted
  /// on its own.
  LogicalResult emitWeight(Operation &op, int64_t s, int64_t m,
                           bool inFusedBackward = false);
  LogicalResult emitForward(ForwardOp fwd);
  /// B (pp.backward_input) or the fused backward (pp.backward) of (s, m).
  LogicalResult emitBackward(Operation &op, int64_t s, int64_t m);
  LogicalResult emitSend(SendOp send);
  LogicalResult emitRecv(RecvOp recv);
  InFlightDiagnostic missing(Operation &op, StringRef what, int64_t s,
                             int64_t m);
};
} // namespace

func::FuncOp RankProgramBuilder::declare(StringRef name, TypeRange args) {
  if (auto fn = module.lookupSymbol<func::FuncOp>(name))
    return fn;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(module.getBody());
  auto fn = func::FuncOp::create(b, module.getLoc(), name,
                                 b.getFunctionType(args, {}));
  fn.setPrivate();
  return fn;
}

void RankProgramBuilder::callRuntime(StringRef name, ValueRange args) {
  func::FuncOp fn = declare(name, args.getTypes());
  func::CallOp::create(b, b.getUnknownLoc(), fn, args);
}

void RankProgramBuilder::callMemRef(StringRef name, ValueRange scalars,
                                    Value buffer) {
  auto type = cast<MemRefType>(buffer.getType());
  Type elem = type.getElementType();
  auto unranked = UnrankedMemRefType::get(elem, type.getMemorySpace());
  Value cast = memref::CastOp::create(b, b.getUnknownLoc(), unranked, buffer);
  SmallVector<Value> args{rank};
  args.append(scalars.begin(), scalars.end());
  args.push_back(i64((elem.getIntOrFloatBitWidth() + 7) / 8));
  args.push_back(cast);
  callRuntime(("pprt_memref_" + name + "_" + typeList(elem)).str(), args);
}

Value RankProgramBuilder::tensorToBuffer(Value tensor) {
  auto type = cast<RankedTensorType>(tensor.getType());
  auto memrefType = MemRefType::get(type.getShape(), type.getElementType());
  return bufferization::ToBufferOp::create(b, b.getUnknownLoc(), memrefType,
                                           tensor, /*readOnly=*/true);
}

Value RankProgramBuilder::fromRuntime(StringRef name, ValueRange scalars,
                                      RankedTensorType type) {
  Location loc = b.getUnknownLoc();
  auto memrefType = MemRefType::get(type.getShape(), type.getElementType());
  Value buffer = memref::AllocOp::create(b, loc, memrefType);
  callMemRef(name, scalars, buffer);
  return bufferization::ToTensorOp::create(b, loc, type, buffer,
                                           /*restrict=*/true,
                                           /*writable=*/true);
}

void RankProgramBuilder::toRuntime(StringRef name, ValueRange scalars,
                                   Value tensor) {
  callMemRef(name, scalars, tensorToBuffer(tensor));
}

LogicalResult RankProgramBuilder::emitWeight(Operation &op, int64_t s,
                                             int64_t m, bool inFusedBackward) {
  StageFunctionsInfo &info = stage(s);
  auto it = weightStashes.find({s, m});
  if (!info.weight || it == weightStashes.end())
    return op.emitError("W of stage ")
           << s << ", micro-batch " << m
           << " runs before its B (or the stage has no W function)";
  SmallVector<Value> operands(it->second);
  const SmallVector<Value> &args = backwardArgs[{s, m}];
  for (int64_t i : info.weightArguments)
    operands.push_back(args[i]);
  if (!inFusedBackward)
    traceBegin(kBackwardWeight, s, m);
  auto call = func::CallOp::create(b, b.getUnknownLoc(), info.weight, operands);
  if (!inFusedBackward)
    accountStash(-info.weightStashBytes);
  // Adding the gradients into the step's sum is part of W (its time, its
  // compute slot), as the plan counts it.
  for (auto [k, g] : llvm::enumerate(call.getResults()))
    toRuntime("accumulate_gradient", {i64(s), i64(k)}, g);
  if (!inFusedBackward)
    traceEnd();
  weightStashes.erase(it);
  backwardArgs.erase({s, m});
  return success();
}

/// "<what> of stage s, micro-batch m is not available on rank r here".
InFlightDiagnostic RankProgramBuilder::missing(Operation &op, StringRef what,
                                               int64_t s, int64_t m) {
  return op.emitError() << what << " of stage " << s << ", micro-batch " << m
                        << " is not available on rank " << rankIndex
                        << " here; the schedule must communicate (run "
                           "pp-insert-communication first)";
}

LogicalResult RankProgramBuilder::emitForward(ForwardOp fwd) {
  int64_t s = fwd.getStage(), m = fwd.getMicrobatch();
  StageFunctionsInfo &info = stage(s);
  SmallVector<Value> operands;
  if (s == 0) {
    for (auto [k, arg] : llvm::enumerate(info.inputs))
      operands.push_back(fromRuntime(
          "input", {i64(m), i64(k)},
          cast<RankedTensorType>(info.forward.getArgumentTypes()[arg])));
  } else {
    auto it = activations.find({s - 1, m});
    if (it == activations.end())
      return missing(*fwd, "the activation", s - 1, m);
    operands.append(it->second);
  }
  operands.append(parameters[s]);
  traceBegin(kForward, s, m);
  accountStash(info.stashBytes);
  auto call =
      func::CallOp::create(b, b.getUnknownLoc(), info.forward, operands);
  traceEnd();
  SmallVector<Value> outputs(call.getResults().take_front(info.numOutputs));
  SmallVector<Value> stash(call.getResults().drop_front(info.numOutputs));
  markMemory("stash", stash);
  markMemory("activation", outputs);
  if (s == numStages - 1)
    toRuntime("loss", {i64(m)}, outputs.front());
  activations[{s, m}] = outputs;
  stashes[{s, m}] = stash;
  return success();
}

LogicalResult RankProgramBuilder::emitBackward(Operation &op, int64_t s,
                                               int64_t m) {
  StageFunctionsInfo &info = stage(s);
  func::FuncOp fn = info.backward ? info.backward : info.input;
  if (isa<BackwardInputOp>(op) && info.backward)
    return op.emitError("stage ")
           << s << " has a fused backward but the schedule runs "
           << "pp.backward_input";
  // pp.backward on a stage with B and W: B, then W right away.
  bool thenWeight = isa<BackwardOp>(op) && !info.backward;
  auto stashIt = stashes.find({s, m});
  if (stashIt == stashes.end())
    return missing(op, "the forward", s, m);
  SmallVector<Value> operands(parameters[s]);
  operands.append(stashIt->second);
  if (s == numStages - 1) {
    for (unsigned k = 0; k < info.numCotangents; ++k) {
      Type t = fn.getArgumentTypes()[operands.size()];
      operands.push_back(
          fromRuntime("loss_seed", {}, cast<RankedTensorType>(t)));
    }
  } else {
    auto it = inputGradients.find({s + 1, m});
    if (it == inputGradients.end())
      return missing(op, "the gradient", s + 1, m);
    if (it->second.size() != info.numCotangents)
      return op.emitError("stage ")
             << s + 1 << " returns " << it->second.size()
             << " input gradients, but stage " << s << " takes "
             << info.numCotangents << " output gradients";
    operands.append(it->second);
  }
  traceBegin(info.backward || thenWeight ? kBackward : kBackwardInput, s, m);
  // A fused backward frees M_B at its end and keeps no M_W, as pp-simulate
  // counts it, even when it runs as B then W. A split B holds M_W from its
  // start and M_B to its end, or (convert) turns M_B into M_W at its end.
  bool convert =
      !thenWeight && accounting == sched::StashAccounting::ConvertAtBackward;
  if (!thenWeight && !convert)
    accountStash(info.weightStashBytes);
  auto call = func::CallOp::create(b, b.getUnknownLoc(), fn, operands);
  accountStash((convert ? info.weightStashBytes : 0) - info.stashBytes);
  ValueRange rest = call.getResults().drop_front(info.numInputGradients);
  // A fused backward's gradients go into the step's sum within the action.
  if (info.backward)
    for (auto [k, g] : llvm::enumerate(rest))
      toRuntime("accumulate_gradient", {i64(s), i64(k)}, g);
  if (!thenWeight)
    traceEnd();
  inputGradients[{s, m}] =
      SmallVector<Value>(call.getResults().take_front(info.numInputGradients));
  markMemory("activation", inputGradients[{s, m}]);
  if (!info.backward) {
    backwardArgs[{s, m}] = operands;
    weightStashes[{s, m}] = SmallVector<Value>(rest);
    // Inside a fused backward (B then W) the weight stash is a temporary
    // of the action, as pp-simulate counts it (no M_W).
    if (!thenWeight)
      markMemory("stash", rest);
  }
  stashes.erase(stashIt);
  if (thenWeight) {
    if (failed(emitWeight(op, s, m, /*inFusedBackward=*/true)))
      return failure();
    traceEnd();
  }
  return success();
}

LogicalResult RankProgramBuilder::emitSend(SendOp send) {
  int64_t s = send.getStage(), m = send.getMicrobatch();
  bool activation = send.getPayload() == PayloadKind::activation;
  auto &map = activation ? activations : inputGradients;
  auto it = map.find({s, m});
  if (it == map.end())
    return missing(*send, activation ? "the activation" : "the gradient", s, m);
  int64_t kind = activation ? kActivation : kGradient;
  traceBegin(kSend, s, m);
  for (auto [k, v] : llvm::enumerate(it->second))
    toRuntime("send",
              {i64(send.getPeer()), i64(s), i64(m),
               i64(kind + 2 * static_cast<int64_t>(k))},
              v);
  traceEnd();
  return success();
}

LogicalResult RankProgramBuilder::emitRecv(RecvOp recv) {
  int64_t s = recv.getStage(), m = recv.getMicrobatch();
  bool activation = recv.getPayload() == PayloadKind::activation;
  if (s < 0 || s >= numStages)
    return recv.emitError("no stage ") << s;
  StageFunctionsInfo &producer = stage(s);
  // The types of the parts: F's outputs, or B's input gradients.
  SmallVector<Type> types;
  if (activation) {
    auto results = producer.forward.getResultTypes();
    types.assign(results.begin(), results.begin() + producer.numOutputs);
  } else {
    func::FuncOp fn = producer.backward ? producer.backward : producer.input;
    auto results = fn.getResultTypes();
    types.assign(results.begin(), results.begin() + producer.numInputGradients);
  }
  int64_t kind = activation ? kActivation : kGradient;
  traceBegin(kRecv, s, m);
  SmallVector<Value> values;
  for (auto [k, t] : llvm::enumerate(types))
    values.push_back(fromRuntime("recv",
                                 {i64(recv.getPeer()), i64(s), i64(m),
                                  i64(kind + 2 * static_cast<int64_t>(k))},
                                 cast<RankedTensorType>(t)));
  traceEnd();
  (activation ? activations : inputGradients)[{s, m}] = values;
  return success();
}

LogicalResult RankProgramBuilder::build(Region &program) {
  // Parameters of this rank's stages, read once per step.
  for (StageFunctionsInfo &info : stages) {
    if (info.rank != rankIndex)
      continue;
    SmallVector<Value> values;
    for (auto [k, arg] : llvm::enumerate(info.parameters))
      values.push_back(fromRuntime(
          "parameter", {i64(info.index), i64(k)},
          cast<RankedTensorType>(info.forward.getArgumentTypes()[arg])));
    parameters[info.index] = values;
  }
  for (Operation &op : program.front()) {
    LogicalResult result = failure();
    if (auto fwd = dyn_cast<ForwardOp>(op))
      result = emitForward(fwd);
    else if (auto bwd = dyn_cast<BackwardOp>(op))
      result = emitBackward(op, bwd.getStage(), bwd.getMicrobatch());
    else if (auto bwdIn = dyn_cast<BackwardInputOp>(op))
      result = emitBackward(op, bwdIn.getStage(), bwdIn.getMicrobatch());
    else if (auto bw = dyn_cast<BackwardWeightOp>(op))
      result = emitWeight(op, bw.getStage(), bw.getMicrobatch());
    else if (auto send = dyn_cast<SendOp>(op))
      result = emitSend(send);
    else if (auto recv = dyn_cast<RecvOp>(op))
      result = emitRecv(recv);
    else if (auto reduce = dyn_cast<AllReduceOp>(op)) {
      // The runtime starts summing the stage's gradients over the replicas
      // here (pprt_allreduce), with those of the stages of its bucket
      // before it: the last member of a bucket starts the collective.
      auto next = dyn_cast_or_null<AllReduceOp>(op.getNextNode());
      bool joinsNext =
          reduce.getBucket() && next && next.getBucket() == reduce.getBucket();
      callRuntime("pprt_allreduce",
                  {rank, i64(reduce.getStage()), i64(joinsNext ? 0 : 1)});
      result = success();
    } else
      return op.emitError("unexpected op in a rank's program");
    if (failed(result))
      return failure();
  }
  func::ReturnOp::create(b, b.getUnknownLoc());
  return success();
}

void ConvertPPToRuntimePass::runOnOperation() {
  ModuleOp module = getOperation();
  FailureOr<sched::StashAccounting> accounting =
      parseStashAccountingOption(stashAccounting, module.getLoc());
  if (failed(accounting))
    return signalPassFailure();
  auto schedule =
      lookupNamedOrOnly<ScheduleOp>(module, scheduleName, "schedule");
  if (!schedule)
    return signalPassFailure();
  // The rank programs are made from the actions' ops.
  schedule = expandSchedule(schedule);
  SymbolTable symbols(module);
  auto pipeline = symbols.lookup<PipelineOp>(schedule.getPipeline());
  SmallVector<StageOp> stageOps = pipeline.getStagesByIndex();
  std::vector<StageFunctionsInfo> stages;
  for (StageOp stage : stageOps) {
    FailureOr<StageFunctionsInfo> info = analyzeStage(stage, symbols);
    if (failed(info))
      return signalPassFailure();
    stages.push_back(*info);
  }
  if (!stages.empty() && failed(checkLoss(stageOps.back(), stages.back())))
    return signalPassFailure();

  // The most tensors one boundary carries in one direction: the outputs a
  // stage sends to the next, the input gradients it sends to the previous.
  int64_t boundaryParts = 1;
  for (auto [s, info] : llvm::enumerate(stages)) {
    if (s + 1 < stages.size())
      boundaryParts = std::max<int64_t>(boundaryParts, info.numOutputs);
    if (s > 0)
      boundaryParts = std::max<int64_t>(boundaryParts, info.numInputGradients);
  }

  OpBuilder b(module.getContext());
  auto ptrType = LLVM::LLVMPointerType::get(module.getContext());
  for (auto [r, region] : llvm::enumerate(schedule->getRegions())) {
    std::string name = (schedule.getSymName() + "_rank" + Twine(r)).str();
    if (symbols.lookup(name)) {
      schedule.emitScheduleError() << "cannot create '@" << name
                                   << "': a symbol of that name already exists";
      return signalPassFailure();
    }
    b.setInsertionPointToEnd(module.getBody());
    auto fn = func::FuncOp::create(b, schedule.getLoc(), name,
                                   b.getFunctionType({ptrType}, {}));
    fn->setAttr("pp.rank", b.getI64IntegerAttr(r));
    fn->setAttr("pp.schedule", FlatSymbolRefAttr::get(schedule));
    fn->setAttr("pprt.boundary_parts", b.getI64IntegerAttr(boundaryParts));
    Block *entry = fn.addEntryBlock();
    b.setInsertionPointToStart(entry);
    RankProgramBuilder builder(module, b, entry->getArgument(0), r, stages,
                               stages.size(), *accounting);
    if (failed(builder.build(region)))
      return signalPassFailure();
  }
}
