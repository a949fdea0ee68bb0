//===- Partition.cpp - pp-partition ---------------------------------------===//
//
// Cuts a model function (one block of ops on tensors) into S pipeline stages.
//
// Cost model: the FLOPs of a linalg op are the product of its static loop
// ranges times the number of arithmetic ops in its body (at least one); other
// ops cost nothing. Ops without operands (constants, tensor.empty) are cloned
// into every stage that uses them instead of crossing a boundary.
//
// The cut: the ops are taken in block order; a partition into S contiguous
// stages is chosen by dynamic programming (linearPartition(),
// pp/Support/LinearPartition.h, the classical linear-partition problem) to
// minimize the largest stage's FLOPs, then, among those, to maximize the
// smallest stage's, then to minimize the bytes that cross stage boundaries;
// O(n^2 S) for n ops. Explicit cuts replace
// the search: option `cuts` (after which work ops, numbered from 0 in block
// order), else `pp.split_point` unit attributes on ops ("cut after this
// op"; on an op that does no work: after the last work op before it).
//
//===----------------------------------------------------------------------===//

#include "StageFunctions.h"

#include "pp/Dialect/PP/IR/PPOps.h"
#include "pp/Model/Partition.h"
#include "pp/Model/Passes.h"
#include "pp/Support/LinearPartition.h"
#include "pp/Support/ReportStream.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <limits>

namespace mlir::pp {
#define GEN_PASS_DEF_PPPARTITIONPASS
#include "pp/Model/Passes.h.inc"
} // namespace mlir::pp

using namespace mlir;
using namespace mlir::pp;

namespace {

/// Ops recomputed where used and never sent: ops without operands
/// (constants, tensor.empty) and ops whose operands are all parameters or
/// such values (fills, transposes and broadcasts of weights): they belong to
/// whichever stage uses them.
class Rematerializable {
public:
  explicit Rematerializable(std::function<bool(Value)> isParameter)
      : isParameter(std::move(isParameter)) {}
  bool operator()(Operation *op) {
    auto it = memo.find(op);
    if (it != memo.end())
      return it->second;
    bool result = true;
    op->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands()) {
        if (op->isAncestor(operand.getParentBlock()->getParentOp()))
          continue; // defined inside `op`
        if (isParameter(operand))
          continue;
        Operation *def = operand.getDefiningOp();
        if (!def || !(*this)(def))
          result = false;
      }
    });
    if (op->getNumResults() == 0)
      result = false;
    memo[op] = result;
    return result;
  }

private:
  std::function<bool(Value)> isParameter;
  DenseMap<Operation *, bool> memo;
};

/// Where the values of a cut model go: for every stage, the values it
/// receives from the previous stage (inputs) and sends to the next
/// (outputs), in the order they are made, and the parameters it uses
/// (argument numbers of the model function).
struct StageInterfaces {
  std::vector<llvm::SetVector<Value>> inputs, outputs;
  std::vector<llvm::SetVector<unsigned>> params;
};

/// One model function (one block) being cut into stages: its parameters,
/// the ops that do work in block order and, once the cuts are chosen, the
/// stage of each. The other ops are rematerialized: cloned into every stage
/// that uses them.
class Partitioner {
public:
  Partitioner(func::FuncOp func, const llvm::SmallDenseSet<unsigned> &params)
      : func(func), body(func.getBody().front()), parameters(params),
        isRematerializable([this](Value v) { return isParameter(v); }) {
    for (Operation &op : body.without_terminator())
      if (!isRematerializable(&op))
        work.push_back(&op);
    for (auto [i, op] : llvm::enumerate(work))
      position[op] = i;
  }

  /// The ops that do work, in block order.
  ArrayRef<Operation *> workOps() const { return work; }
  /// Whether `v` is a parameter: an argument of the model function that is
  /// marked or listed as one.
  bool isParameter(Value v) const {
    auto arg = dyn_cast<BlockArgument>(v);
    return arg && arg.getOwner() == &body &&
           parameters.count(arg.getArgNumber());
  }

  /// prefix[i]: the FLOPs of the first i work ops.
  SmallVector<double> prefixFlops() const;
  /// crossing[k]: bytes of values made at or before work op k (or data
  /// arguments) that are used after it: what a cut after work op k sends.
  SmallVector<int64_t> crossingBytes();
  /// The cuts the pp.split_point markers ask for: after the last work op
  /// at or before each marked op, increasing, without duplicates, and
  /// none after the last work op.
  SmallVector<int64_t> splitPointCuts() const;
  /// Puts the work ops in stages, cutting after the work ops `cuts`
  /// (increasing).
  void assignStages(ArrayRef<int64_t> cuts);
  /// The inputs, outputs and parameters of every stage.
  StageInterfaces stageInterfaces();
  /// Builds @<name>_stage<s> for every stage s after the model function,
  /// and replaces the outputs of each stage with the results of its
  /// function (for the last one: the model's results).
  SmallVector<func::FuncOp> buildStageFunctions(OpBuilder &builder,
                                                StringRef name,
                                                StageInterfaces &interfaces);
  /// Builds @<name>_staged: the stage functions called in order, equal to
  /// the model function by construction.
  func::FuncOp buildStagedFunction(OpBuilder &builder, StringRef name,
                                   ArrayRef<func::FuncOp> stageFuncs,
                                   const StageInterfaces &interfaces);
  /// What the pipeline and the report say of stage `s`.
  struct StageSummary {
    double flops = 0;
    int64_t numOps = 0, paramBytes = 0, stash = 0, sent = 0;
    /// The stage's work ops are firstOp..lastOp (-1 if it has none).
    int64_t firstOp = -1, lastOp = -1;
  };
  StageSummary summarize(int64_t s, const StageInterfaces &interfaces);

private:
  func::FuncOp func;
  Block &body;
  llvm::SmallDenseSet<unsigned> parameters;
  Rematerializable isRematerializable;
  SmallVector<Operation *> work;
  DenseMap<Operation *, int64_t> position;
  /// The stage of every work op, and the number of stages.
  SmallVector<int64_t> stageOf;
  int64_t numStages = 0;

  /// The index in `work` of the last work op that uses `value` (n for the
  /// model's results, -1 if none).
  int64_t lastUse(Value value);
  /// Adds to `params[s]` the parameters `v` is, or that the
  /// rematerialized op making `v` uses (a transposed weight needs the
  /// weight).
  void collectParams(Value v, int64_t s,
                     std::vector<llvm::SetVector<unsigned>> &params);
  /// Clones into `inner` the rematerialized ops making `value` that
  /// `mapping` does not have yet, their operands first.
  void cloneRematerialized(Value value, OpBuilder &inner, IRMapping &mapping);
  /// Builds the function of stage `s`, which takes `ins` and its
  /// parameters and returns `outs`.
  func::FuncOp buildStageFunction(OpBuilder &builder, StringRef name, int64_t s,
                                  ArrayRef<Value> ins,
                                  const llvm::SetVector<unsigned> &params,
                                  ArrayRef<Value> outs);
};

struct PPPartitionPass : mlir::pp::impl::PPPartitionPassBase<PPPartitionPass> {
  using Base::Base;
  void runOnOperation() override;

private:
  /// The parameters of `func`: arguments marked pp.parameter, or those
  /// listed in option 'parameters'.
  FailureOr<llvm::SmallDenseSet<unsigned>> collectParameters(func::FuncOp func);
  /// The cuts (index of the last work op of every stage but the last):
  /// option 'cuts', the pp.split_point markers, or the balanced cut into
  /// 'num-stages' stages. Sets `cutSource` to say which.
  FailureOr<SmallVector<int64_t>> chooseCuts(func::FuncOp func,
                                             Partitioner &partitioner);
  /// Checks option 'cuts' against the `n` work ops and 'num-stages'.
  LogicalResult checkCutOption(func::FuncOp func, int64_t n);

  /// "option cuts", "pp.split_point markers" or "balanced by FLOPs".
  std::string cutSource;
  /// Builds the pipeline of the stage functions, one stage per rank with
  /// its estimated costs, and prints the report if asked.
  LogicalResult buildPipeline(OpBuilder &builder, Partitioner &partitioner,
                              ArrayRef<func::FuncOp> stageFuncs,
                              func::FuncOp staged,
                              const StageInterfaces &interfaces);
};

} // namespace

//===----------------------------------------------------------------------===//
// Costs and cuts
//===----------------------------------------------------------------------===//

SmallVector<double> Partitioner::prefixFlops() const {
  int64_t n = work.size();
  SmallVector<double> prefix(n + 1, 0.0);
  for (int64_t i = 0; i < n; ++i)
    prefix[i + 1] = prefix[i] + flopsOf(work[i]);
  return prefix;
}

int64_t Partitioner::lastUse(Value value) {
  int64_t n = work.size();
  int64_t last = -1;
  for (Operation *user : value.getUsers()) {
    Operation *top = body.findAncestorOpInBlock(*user);
    if (!top)
      continue;
    if (top == body.getTerminator())
      last = n; // the result leaves the last stage
    else if (position.count(top))
      last = std::max(last, position[top]);
  }
  return last;
}

SmallVector<int64_t> Partitioner::crossingBytes() {
  int64_t n = work.size();
  SmallVector<int64_t> crossing(std::max<int64_t>(n, 1), 0);
  auto addCrossing = [&](Value value, int64_t def) {
    int64_t last = lastUse(value);
    int64_t bytes = bytesOf(value.getType());
    for (int64_t k = std::max<int64_t>(def, 0); k < std::min(last, n - 1); ++k)
      crossing[k] += bytes;
  };
  for (BlockArgument arg : func.getArguments())
    if (!parameters.count(arg.getArgNumber()))
      addCrossing(arg, 0);
  for (int64_t i = 0; i < n; ++i)
    for (Value result : work[i]->getResults())
      addCrossing(result, i);
  return crossing;
}

SmallVector<int64_t> Partitioner::splitPointCuts() const {
  int64_t n = work.size(), lastWork = -1;
  SmallVector<int64_t> cuts;
  for (Operation &op : body.without_terminator()) {
    auto it = position.find(&op);
    if (it != position.end())
      lastWork = it->second;
    if (!op.hasAttr("pp.split_point") || lastWork < 0 || lastWork + 1 >= n)
      continue;
    if (cuts.empty() || cuts.back() != lastWork)
      cuts.push_back(lastWork);
  }
  return cuts;
}

void Partitioner::assignStages(ArrayRef<int64_t> cuts) {
  int64_t n = work.size();
  stageOf.assign(n, 0);
  for (int64_t i = 0, s = 0; i < n; ++i) {
    stageOf[i] = s;
    if (s < static_cast<int64_t>(cuts.size()) && i == cuts[s])
      ++s;
  }
  numStages = cuts.size() + 1;
}

//===----------------------------------------------------------------------===//
// What crosses between stages
//===----------------------------------------------------------------------===//

void Partitioner::collectParams(
    Value v, int64_t s, std::vector<llvm::SetVector<unsigned>> &params) {
  if (isParameter(v)) {
    params[s].insert(cast<BlockArgument>(v).getArgNumber());
    return;
  }
  Operation *def = v.getDefiningOp();
  if (!def || def->getBlock() != &body || !isRematerializable(def))
    return;
  def->walk([&](Operation *nested) {
    for (Value operand : nested->getOperands())
      collectParams(operand, s, params);
  });
}

// Every value that is not a parameter or a rematerialized constant is made
// in a stage d (data arguments: d = -1, before stage 0) and last used in a
// stage u (a result of the function: the last stage). It is an input of the
// stages d < s <= u and an output of the stages d <= s < u: values that skip
// a stage travel through it, since a stage only talks to its neighbours.
StageInterfaces Partitioner::stageInterfaces() {
  auto defStage = [&](Value v) -> int64_t {
    if (isa<BlockArgument>(v))
      return -1;
    return stageOf[position[v.getDefiningOp()]];
  };
  auto returnOp = cast<func::ReturnOp>(body.getTerminator());
  llvm::SetVector<Value> values;
  for (BlockArgument arg : func.getArguments())
    if (!isParameter(arg))
      values.insert(arg);
  for (Operation *op : work)
    for (Value result : op->getResults())
      values.insert(result);
  StageInterfaces interfaces;
  interfaces.inputs.resize(numStages);
  interfaces.outputs.resize(numStages);
  interfaces.params.resize(numStages);
  for (Value v : values) {
    int64_t d = defStage(v), u = -2;
    for (OpOperand &use : v.getUses()) {
      Operation *top = body.findAncestorOpInBlock(*use.getOwner());
      if (!top)
        continue;
      u = std::max(u, top == returnOp.getOperation() ? numStages - 1
                                                     : stageOf[position[top]]);
    }
    for (int64_t s = d + 1; s <= u; ++s)
      interfaces.inputs[s].insert(v);
    for (int64_t s = std::max<int64_t>(d, 0); s < u; ++s)
      interfaces.outputs[s].insert(v);
  }
  // Parameters a stage uses, directly or through the rematerialized ops it
  // clones.
  for (size_t i = 0; i < work.size(); ++i)
    work[i]->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands())
        collectParams(operand, stageOf[i], interfaces.params);
    });
  for (Value v : returnOp.getOperands())
    collectParams(v, numStages - 1, interfaces.params);
  return interfaces;
}

//===----------------------------------------------------------------------===//
// Stage functions
//===----------------------------------------------------------------------===//

void Partitioner::cloneRematerialized(Value value, OpBuilder &inner,
                                      IRMapping &mapping) {
  // Only top-level values: ops nested in a region (linalg.index in a
  // generic's body) are cloned with their parent.
  Operation *def = value.getDefiningOp();
  if (!def || def->getBlock() != &body || !isRematerializable(def) ||
      mapping.contains(value))
    return;
  // Its operands, and the values its regions read from above (a gather's
  // table in a linalg body).
  def->walk([&](Operation *nested) {
    for (Value operand : nested->getOperands())
      if (!def->isAncestor(operand.getParentBlock()->getParentOp()))
        cloneRematerialized(operand, inner, mapping);
  });
  inner.clone(*def, mapping);
}

func::FuncOp Partitioner::buildStageFunction(
    OpBuilder &builder, StringRef name, int64_t s, ArrayRef<Value> ins,
    const llvm::SetVector<unsigned> &params, ArrayRef<Value> outs) {
  SmallVector<Type> argTypes;
  for (Value v : ins)
    argTypes.push_back(v.getType());
  for (unsigned p : params)
    argTypes.push_back(func.getArgument(p).getType());
  // A returned parameter is an argument of the last stage.
  SmallVector<Type> resultTypes;
  for (Value v : outs)
    resultTypes.push_back(v.getType());
  auto stageFunc =
      func::FuncOp::create(builder, func.getLoc(), name,
                           builder.getFunctionType(argTypes, resultTypes));
  // Parameters keep their attributes and are marked pp.parameter, which
  // pp-differentiate-stages reads.
  for (auto [k, p] : llvm::enumerate(params)) {
    if (DictionaryAttr attrs = func.getArgAttrDict(p))
      stageFunc.setArgAttrs(ins.size() + k, attrs);
    stageFunc.setArgAttr(ins.size() + k, "pp.parameter", builder.getUnitAttr());
  }
  Block *entry = stageFunc.addEntryBlock();
  OpBuilder inner = OpBuilder::atBlockEnd(entry);
  IRMapping mapping;
  for (auto [k, v] : llvm::enumerate(ins))
    mapping.map(v, entry->getArgument(k));
  for (auto [k, p] : llvm::enumerate(params))
    mapping.map(func.getArgument(p), entry->getArgument(ins.size() + k));
  for (auto [i, op] : llvm::enumerate(work)) {
    if (stageOf[i] != s)
      continue;
    op->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands())
        cloneRematerialized(operand, inner, mapping);
    });
    inner.clone(*op, mapping);
  }
  SmallVector<Value> results;
  for (Value v : outs) {
    cloneRematerialized(v, inner, mapping);
    results.push_back(mapping.lookup(v));
  }
  func::ReturnOp::create(inner, func.getLoc(), results);
  stageFunc->setAttr("pp.stage", builder.getI64IntegerAttr(s));
  return stageFunc;
}

SmallVector<func::FuncOp>
Partitioner::buildStageFunctions(OpBuilder &builder, StringRef name,
                                 StageInterfaces &interfaces) {
  auto returnOp = cast<func::ReturnOp>(body.getTerminator());
  SmallVector<func::FuncOp> stageFuncs;
  for (int64_t s = 0; s < numStages; ++s) {
    SmallVector<Value> ins(interfaces.inputs[s].begin(),
                           interfaces.inputs[s].end());
    SmallVector<Value> outs;
    if (s + 1 < numStages)
      outs.assign(interfaces.outputs[s].begin(), interfaces.outputs[s].end());
    else
      outs.assign(returnOp.getOperands().begin(), returnOp.getOperands().end());
    func::FuncOp stageFunc =
        buildStageFunction(builder, (name + "_stage" + Twine(s)).str(), s, ins,
                           interfaces.params[s], outs);
    stageFuncs.push_back(stageFunc);
    builder.setInsertionPointAfter(stageFunc);
    interfaces.outputs[s] = llvm::SetVector<Value>(outs.begin(), outs.end());
  }
  return stageFuncs;
}

func::FuncOp
Partitioner::buildStagedFunction(OpBuilder &builder, StringRef name,
                                 ArrayRef<func::FuncOp> stageFuncs,
                                 const StageInterfaces &interfaces) {
  auto returnOp = cast<func::ReturnOp>(body.getTerminator());
  auto staged = func::FuncOp::create(
      builder, func.getLoc(), (name + "_staged").str(), func.getFunctionType());
  Block *entry = staged.addEntryBlock();
  OpBuilder inner = OpBuilder::atBlockEnd(entry);
  IRMapping valueMap;
  for (BlockArgument arg : func.getArguments())
    valueMap.map(arg, entry->getArgument(arg.getArgNumber()));
  for (int64_t s = 0; s < numStages; ++s) {
    SmallVector<Value> operands;
    for (Value v : interfaces.inputs[s])
      operands.push_back(valueMap.lookup(v));
    for (unsigned p : interfaces.params[s])
      operands.push_back(entry->getArgument(p));
    auto call =
        func::CallOp::create(inner, func.getLoc(), stageFuncs[s], operands);
    for (auto [v, r] : llvm::zip(interfaces.outputs[s], call.getResults()))
      valueMap.map(v, r);
  }
  SmallVector<Value> results;
  for (Value v : returnOp.getOperands())
    results.push_back(valueMap.lookup(v));
  func::ReturnOp::create(inner, func.getLoc(), results);
  return staged;
}

Partitioner::StageSummary
Partitioner::summarize(int64_t s, const StageInterfaces &interfaces) {
  StageSummary summary;
  for (auto [i, op] : llvm::enumerate(work))
    if (stageOf[i] == s) {
      summary.flops += flopsOf(op);
      ++summary.numOps;
      if (summary.firstOp < 0)
        summary.firstOp = i;
      summary.lastOp = i;
      for (Value result : op->getResults())
        summary.stash += bytesOf(result.getType());
    }
  for (unsigned p : interfaces.params[s])
    summary.paramBytes += bytesOf(func.getArgument(p).getType());
  if (s + 1 < numStages)
    for (Value v : interfaces.outputs[s])
      summary.sent += bytesOf(v.getType());
  return summary;
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

FailureOr<llvm::SmallDenseSet<unsigned>>
PPPartitionPass::collectParameters(func::FuncOp func) {
  llvm::SmallDenseSet<unsigned> parameters;
  for (unsigned i = 0; i < func.getNumArguments(); ++i)
    if (func.getArgAttr(i, "pp.parameter"))
      parameters.insert(i);
  for (int64_t index : parameterIndices) {
    if (index < 0 || index >= func.getNumArguments()) {
      mlir::emitError(func.getLoc(), "parameter index ")
          << index << " is out of range: @" << functionName << " has "
          << func.getNumArguments() << " arguments";
      return failure();
    }
    parameters.insert(index);
  }
  return parameters;
}

LogicalResult PPPartitionPass::checkCutOption(func::FuncOp func, int64_t n) {
  Location loc = func.getLoc();
  for (auto [i, cut] : llvm::enumerate(cutList)) {
    if (cut < 0 || cut + 1 >= n) {
      mlir::emitError(loc, "option 'cuts': cannot cut after op ")
          << cut << ": @" << functionName << " has " << n
          << " ops that do work (numbered 0.." << n - 1
          << "), so a cut goes after op 0.." << n - 2;
      return failure();
    }
    if (i > 0 && cut <= cutList[i - 1]) {
      mlir::emitError(loc, "option 'cuts' must be strictly increasing: ")
          << cut << " follows " << cutList[i - 1];
      return failure();
    }
  }
  int64_t stages = cutList.size() + 1, wanted = numStages;
  if (wanted != 0 && wanted != stages) {
    mlir::emitError(loc, "option 'cuts' makes ")
        << stages << " stages (" << cutList.size()
        << " cuts), but num-stages is " << wanted;
    return failure();
  }
  return success();
}

FailureOr<SmallVector<int64_t>>
PPPartitionPass::chooseCuts(func::FuncOp func, Partitioner &partitioner) {
  ArrayRef<Operation *> work = partitioner.workOps();
  int64_t n = work.size();
  Location loc = func.getLoc();
  if (!cutList.empty()) {
    if (failed(checkCutOption(func, n)))
      return failure();
    cutSource = "option cuts";
    return SmallVector<int64_t>(cutList.begin(), cutList.end());
  }
  SmallVector<int64_t> explicitCuts = partitioner.splitPointCuts();
  int64_t numStagesWanted = numStages;
  if (!explicitCuts.empty()) {
    cutSource = "pp.split_point markers";
    if (numStagesWanted != 0 &&
        numStagesWanted != static_cast<int64_t>(explicitCuts.size()) + 1) {
      mlir::emitError(loc, "the function has ")
          << explicitCuts.size() << " pp.split_point markers ("
          << explicitCuts.size() + 1 << " stages), but num-stages is "
          << numStagesWanted;
      return failure();
    }
    return explicitCuts;
  }
  bool marked = llvm::any_of(func.getBody().front(), [](Operation &op) {
    return op.hasAttr("pp.split_point");
  });
  if (marked && numStagesWanted == 0) {
    // Markers only after the last op that does work: one stage.
    cutSource = "pp.split_point markers";
    return SmallVector<int64_t>();
  }
  if (numStagesWanted < 1) {
    mlir::emitError(getOperation().getLoc(),
                    "option 'num-stages' is required and must "
                    "be at least 1 (or mark cuts with pp.split_point)");
    return failure();
  }
  if (numStagesWanted > n) {
    mlir::emitError(loc, "cannot cut @")
        << functionName << " into " << numStagesWanted
        << " stages: it has only " << n << " ops that do work, so at most " << n
        << " stages (" << std::max<int64_t>(n - 1, 0) << " cuts)";
    return failure();
  }
  cutSource = "balanced by FLOPs";
  SmallVector<double> prefix = partitioner.prefixFlops();
  SmallVector<int64_t> crossing = partitioner.crossingBytes();
  LinearPartitionProblem problem;
  problem.prefixCost = prefix;
  // crossing[k]: the bytes a cut after op k sends.
  problem.crossingBytes = [&](size_t i) { return crossing[i - 1]; };
  std::optional<std::vector<int64_t>> cuts =
      linearPartition(problem, numStagesWanted);
  if (!cuts) { // cannot happen: 1 <= S <= n and no budget
    mlir::emitError(loc, "cannot cut @")
        << functionName << " into " << numStagesWanted << " stages";
    return failure();
  }
  return SmallVector<int64_t>(cuts->begin(), cuts->end());
}

LogicalResult
PPPartitionPass::buildPipeline(OpBuilder &builder, Partitioner &partitioner,
                               ArrayRef<func::FuncOp> stageFuncs,
                               func::FuncOp staged,
                               const StageInterfaces &interfaces) {
  ModuleOp module = getOperation();
  Location loc = stageFuncs.front()->getLoc(); // the model function's
  int64_t stageCount = stageFuncs.size();
  int64_t activationBytes = 0;
  for (int64_t s = 0; s + 1 < stageCount; ++s) {
    int64_t bytes = 0;
    for (Value v : interfaces.outputs[s])
      bytes += bytesOf(v.getType());
    activationBytes = std::max(activationBytes, bytes);
  }
  OperationState state(loc, PipelineOp::getOperationName());
  state.addAttribute(PipelineOp::getSymNameAttrName(state.name),
                     builder.getStringAttr(functionName + "_pipeline"));
  state.addAttribute(PipelineOp::getNumRanksAttrName(state.name),
                     builder.getI64IntegerAttr(stageCount));
  state.addAttribute(PipelineOp::getActivationBytesAttrName(state.name),
                     builder.getI64IntegerAttr(activationBytes));
  state.addRegion()->emplaceBlock();
  auto pipeline = cast<PipelineOp>(builder.create(state));
  OpBuilder stages = OpBuilder::atBlockEnd(&pipeline.getBody().front());

  ReportStream report;
  if (printReport && failed(report.open(reportFile, module.getLoc())))
    return failure();
  llvm::raw_ostream &os = printReport ? report.os() : llvm::nulls();
  SmallVector<int64_t> cuts;
  for (int64_t s = 0; s + 1 < stageCount; ++s)
    cuts.push_back(partitioner.summarize(s, interfaces).lastOp);
  // Where the cuts are and who chose them, for drivers (pp-run reports it),
  // on @<function>_staged, the stages called in order.
  staged->setAttr("pp.cuts", builder.getDenseI64ArrayAttr(cuts));
  staged->setAttr("pp.cut_by", builder.getStringAttr(cutSource));
  os << "pp-partition @" << functionName << ": " << stageCount << " stages; ";
  if (cuts.empty())
    os << "no cuts";
  else
    os << "cuts after ops "
       << llvm::join(llvm::map_range(
                         cuts, [](int64_t c) { return std::to_string(c); }),
                     ", ");
  os << " (" << cutSource << ")\n";
  for (int64_t s = 0; s < stageCount; ++s) {
    Partitioner::StageSummary summary = partitioner.summarize(s, interfaces);
    double time = summary.flops / flopsPerMicrosecond;
    OperationState stageState(loc, StageOp::getOperationName());
    auto name = stageState.name;
    stageState.addAttribute(StageOp::getIndexAttrName(name),
                            builder.getI64IntegerAttr(s));
    stageState.addAttribute(StageOp::getRankAttrName(name),
                            builder.getI64IntegerAttr(s));
    stageState.addAttribute(StageOp::getForwardAttrName(name),
                            FlatSymbolRefAttr::get(stageFuncs[s]));
    stageState.addAttribute(StageOp::getForwardTimeAttrName(name),
                            builder.getF64FloatAttr(time));
    stageState.addAttribute(StageOp::getBackwardInputTimeAttrName(name),
                            builder.getF64FloatAttr(time));
    stageState.addAttribute(StageOp::getBackwardWeightTimeAttrName(name),
                            builder.getF64FloatAttr(time));
    stageState.addAttribute(StageOp::getStashBytesAttrName(name),
                            builder.getI64IntegerAttr(summary.stash));
    stages.create(stageState);
    os << "  stage " << s << ": " << summary.numOps << " ops, "
       << llvm::format("%.6g", summary.flops) << " FLOP, parameters "
       << summary.paramBytes << " bytes, stash " << summary.stash
       << " bytes, sends " << summary.sent << " bytes, ops " << summary.firstOp
       << ".." << summary.lastOp << "\n";
  }
  os.flush();
  return success();
}

void PPPartitionPass::runOnOperation() {
  ModuleOp module = getOperation();
  auto func = lookupFunction(module, functionName);
  if (!func)
    return signalPassFailure();
  if (func.isExternal() || !func.getBody().hasOneBlock()) {
    mlir::emitError(func.getLoc(), "the model function must have one block");
    return signalPassFailure();
  }
  FailureOr<llvm::SmallDenseSet<unsigned>> parameters = collectParameters(func);
  if (failed(parameters))
    return signalPassFailure();

  Partitioner partitioner(func, *parameters);
  FailureOr<SmallVector<int64_t>> cuts = chooseCuts(func, partitioner);
  if (failed(cuts))
    return signalPassFailure();
  partitioner.assignStages(*cuts);
  StageInterfaces interfaces = partitioner.stageInterfaces();

  OpBuilder builder(module.getContext());
  builder.setInsertionPointAfter(func);
  SmallVector<func::FuncOp> stageFuncs =
      partitioner.buildStageFunctions(builder, functionName, interfaces);
  // @NAME_staged: the stages called in order, equal to @NAME by
  // construction (pp-exec --compare checks it bitwise).
  func::FuncOp staged = partitioner.buildStagedFunction(builder, functionName,
                                                        stageFuncs, interfaces);
  builder.setInsertionPointAfter(staged);
  if (failed(
          buildPipeline(builder, partitioner, stageFuncs, staged, interfaces)))
    return signalPassFailure();
}

SmallVector<Operation *> mlir::pp::partitionWorkOps(func::FuncOp func) {
  llvm::SmallDenseSet<unsigned> parameters;
  for (unsigned i = 0; i < func.getNumArguments(); ++i)
    if (func.getArgAttr(i, "pp.parameter"))
      parameters.insert(i);
  Partitioner partitioner(func, parameters);
  ArrayRef<Operation *> work = partitioner.workOps();
  return SmallVector<Operation *>(work.begin(), work.end());
}
