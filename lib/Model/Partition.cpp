//===- Partition.cpp - pp-partition ----------------------------------------===//
//
// Cuts a model function (one block of ops on tensors) into S pipeline stages.
//
// Cost model: the FLOPs of a linalg op are the product of its static loop
// ranges times the number of arithmetic ops in its body (at least one); other
// ops cost nothing. Ops without operands (constants, tensor.empty) are cloned
// into every stage that uses them instead of crossing a boundary.
//
// The cut: the ops are taken in block order; a partition into S contiguous
// stages is chosen by dynamic programming to minimize the largest stage's
// FLOPs and, among partitions with the same largest stage, the bytes that
// cross stage boundaries (the classical linear-partition problem, e.g.
// Bokhari, "Partitioning problems in parallel, pipeline, and distributed
// computing", IEEE TC 1988; here O(n^2 S) for n ops). Explicit split points,
// `pp.split_point` unit attributes on ops ("cut after this op"), replace the
// search.
//
//===----------------------------------------------------------------------===//

#include "StageFunctions.h"

#include "pp/Dialect/PP/IR/PPOps.h"
#include "pp/Model/Passes.h"
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
  explicit Rematerializable(
      std::function<bool(Value)> isParameter)
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

struct PPPartitionPass
    : mlir::pp::impl::PPPartitionPassBase<PPPartitionPass> {
  using Base::Base;
  void runOnOperation() override;
};

} // namespace

void PPPartitionPass::runOnOperation() {
  ModuleOp module = getOperation();
  auto func = lookupFunction(module, functionName);
  if (!func)
    return signalPassFailure();
  if (func.isExternal() || !func.getBody().hasOneBlock()) {
    mlir::emitError(func.getLoc(), "the model function must have one block");
    return signalPassFailure();
  }
  Block &body = func.getBody().front();

  // Parameters: arguments marked pp.parameter, or those listed.
  llvm::SmallDenseSet<unsigned> parameters;
  for (unsigned i = 0; i < func.getNumArguments(); ++i)
    if (func.getArgAttr(i, "pp.parameter"))
      parameters.insert(i);
  for (int64_t index : parameterIndices) {
    if (index < 0 || index >= func.getNumArguments()) {
      mlir::emitError(func.getLoc(), "parameter index ")
          << index << " is out of range: @" << functionName << " has "
          << func.getNumArguments() << " arguments";
      return signalPassFailure();
    }
    parameters.insert(index);
  }

  Rematerializable isRematerializable([&](Value v) {
    auto arg = dyn_cast<BlockArgument>(v);
    return arg && arg.getOwner() == &body &&
           parameters.count(arg.getArgNumber());
  });

  // The ops that do work, in block order; their costs.
  SmallVector<Operation *> work;
  for (Operation &op : body.without_terminator())
    if (!isRematerializable(&op))
      work.push_back(&op);
  int64_t n = work.size();
  DenseMap<Operation *, int64_t> position;
  for (auto [i, op] : llvm::enumerate(work))
    position[op] = i;
  SmallVector<double> prefix(n + 1, 0.0);
  for (int64_t i = 0; i < n; ++i)
    prefix[i + 1] = prefix[i] + flopsOf(work[i]);

  // crossing[k]: bytes of values made at or before work[k] (or data
  // arguments) that are used after it: what a cut after work[k] sends.
  auto lastUse = [&](Value value) {
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
  };
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

  // Choose the cuts: cuts[j] = index of the last op of stage j.
  SmallVector<int64_t> cuts;
  SmallVector<int64_t> explicitCuts;
  for (int64_t i = 0; i < n; ++i)
    if (work[i]->hasAttr("pp.split_point") && i + 1 < n)
      explicitCuts.push_back(i);
  int64_t numStagesWanted = numStages;
  if (!explicitCuts.empty()) {
    if (numStagesWanted != 0 &&
        numStagesWanted != static_cast<int64_t>(explicitCuts.size()) + 1) {
      mlir::emitError(func.getLoc(), "the function has ")
          << explicitCuts.size() << " pp.split_point markers ("
          << explicitCuts.size() + 1 << " stages), but num-stages is "
          << numStagesWanted;
      return signalPassFailure();
    }
    cuts = explicitCuts;
    numStagesWanted = cuts.size() + 1;
  } else {
    if (numStagesWanted < 1) {
      mlir::emitError(module.getLoc(),
                      "option 'num-stages' is required and must "
                      "be at least 1 (or mark cuts with pp.split_point)");
      return signalPassFailure();
    }
    if (numStagesWanted > n) {
      mlir::emitError(func.getLoc(), "cannot cut @")
          << functionName << " into " << numStagesWanted
          << " stages: it has only " << n
          << " ops that do work, so at most " << n << " stages ("
          << std::max<int64_t>(n - 1, 0) << " cuts)";
      return signalPassFailure();
    }
    // best[s][i]: (largest stage FLOPs, crossing bytes) of ops [0, i) in s
    // stages; choice[s][i] the start of the last stage.
    using Score = std::pair<double, int64_t>;
    const Score inf{std::numeric_limits<double>::infinity(), 0};
    int64_t S = numStagesWanted;
    std::vector<std::vector<Score>> best(S + 1, std::vector<Score>(n + 1, inf));
    std::vector<std::vector<int64_t>> choice(S + 1,
                                             std::vector<int64_t>(n + 1, -1));
    best[0][0] = {0.0, 0};
    for (int64_t s = 1; s <= S; ++s)
      for (int64_t i = s; i <= n; ++i)
        for (int64_t j = s - 1; j < i; ++j) {
          if (best[s - 1][j].first == inf.first)
            continue;
          double stage = prefix[i] - prefix[j];
          Score candidate{std::max(best[s - 1][j].first, stage),
                          best[s - 1][j].second + (j > 0 ? crossing[j - 1] : 0)};
          if (candidate < best[s][i]) {
            best[s][i] = candidate;
            choice[s][i] = j;
          }
        }
    for (int64_t s = S, i = n; s > 1; --s) {
      int64_t j = choice[s][i];
      cuts.insert(cuts.begin(), j - 1);
      i = j;
    }
  }

  // Stage of every work op.
  SmallVector<int64_t> stageOf(n, 0);
  for (int64_t i = 0, s = 0; i < n; ++i) {
    stageOf[i] = s;
    if (s < static_cast<int64_t>(cuts.size()) && i == cuts[s])
      ++s;
  }
  int64_t S = numStagesWanted;

  // Every value that is not a parameter or a rematerialized constant is
  // made in a stage d (data arguments: d = -1, before stage 0) and last used
  // in a stage u (a result of the function: the last stage). It is an input
  // of the stages d < s <= u and an output of the stages d <= s < u: values
  // that skip a stage travel through it, since a stage only talks to its
  // neighbours.
  auto isParameter = [&](Value v) {
    auto arg = dyn_cast<BlockArgument>(v);
    return arg && arg.getOwner() == &body &&
           parameters.count(arg.getArgNumber());
  };
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
  std::vector<llvm::SetVector<Value>> inputs(S), outputs(S);
  std::vector<llvm::SetVector<unsigned>> params(S);
  for (Value v : values) {
    int64_t d = defStage(v), u = -2;
    for (OpOperand &use : v.getUses()) {
      Operation *top = body.findAncestorOpInBlock(*use.getOwner());
      if (!top)
        continue;
      u = std::max(u, top == returnOp.getOperation() ? S - 1
                                                     : stageOf[position[top]]);
    }
    for (int64_t s = d + 1; s <= u; ++s)
      inputs[s].insert(v);
    for (int64_t s = std::max<int64_t>(d, 0); s < u; ++s)
      outputs[s].insert(v);
  }
  // Parameters a stage uses, directly or through the rematerialized ops it
  // clones (a transposed weight needs the weight).
  std::function<void(Value, int64_t)> collectParams = [&](Value v,
                                                          int64_t s) {
    if (isParameter(v)) {
      params[s].insert(cast<BlockArgument>(v).getArgNumber());
      return;
    }
    Operation *def = v.getDefiningOp();
    if (!def || def->getBlock() != &body || !isRematerializable(def))
      return;
    def->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands())
        collectParams(operand, s);
    });
  };
  for (int64_t i = 0; i < n; ++i)
    work[i]->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands())
        collectParams(operand, stageOf[i]);
    });
  for (Value v : returnOp.getOperands())
    collectParams(v, S - 1);
  std::vector<llvm::SetVector<Value>> &finalInputs = inputs;

  // Build the stage functions.
  OpBuilder builder(module.getContext());
  builder.setInsertionPointAfter(func);
  SmallVector<func::FuncOp> stageFuncs;
  for (int64_t s = 0; s < S; ++s) {
    SmallVector<Value> ins(finalInputs[s].begin(), finalInputs[s].end());
    SmallVector<Type> argTypes;
    for (Value v : ins)
      argTypes.push_back(v.getType());
    for (unsigned p : params[s])
      argTypes.push_back(func.getArgument(p).getType());
    SmallVector<Value> outs;
    if (s + 1 < S)
      outs.assign(outputs[s].begin(), outputs[s].end());
    else
      outs.assign(returnOp.getOperands().begin(),
                  returnOp.getOperands().end());
    // A returned parameter is an argument of the last stage.
    SmallVector<Type> resultTypes;
    for (Value v : outs)
      resultTypes.push_back(v.getType());
    std::string name = (functionName + "_stage" + Twine(s)).str();
    auto stageFunc = func::FuncOp::create(builder, func.getLoc(), name,
                                          builder.getFunctionType(argTypes,
                                                                  resultTypes));
    // Parameters keep their attributes and are marked pp.parameter, which
    // pp-differentiate-stages reads.
    for (auto [k, p] : llvm::enumerate(params[s])) {
      if (DictionaryAttr attrs = func.getArgAttrDict(p))
        stageFunc.setArgAttrs(ins.size() + k, attrs);
      stageFunc.setArgAttr(ins.size() + k, "pp.parameter",
                           builder.getUnitAttr());
    }
    Block *entry = stageFunc.addEntryBlock();
    OpBuilder inner = OpBuilder::atBlockEnd(entry);
    IRMapping mapping;
    for (auto [k, v] : llvm::enumerate(ins))
      mapping.map(v, entry->getArgument(k));
    for (auto [k, p] : llvm::enumerate(params[s]))
      mapping.map(func.getArgument(p), entry->getArgument(ins.size() + k));
    std::function<void(Value)> cloneRematValue = [&](Value value) {
      // Only top-level values: ops nested in a region (linalg.index in a
      // generic's body) are cloned with their parent.
      Operation *def = value.getDefiningOp();
      if (!def || def->getBlock() != &body || !isRematerializable(def) ||
          mapping.contains(value))
        return;
      for (Value operand : def->getOperands())
        cloneRematValue(operand);
      inner.clone(*def, mapping);
    };
    auto cloneRemat = [&](Operation *op) {
      for (Value operand : op->getOperands())
        cloneRematValue(operand);
    };
    for (int64_t i = 0; i < n; ++i) {
      if (stageOf[i] != s)
        continue;
      work[i]->walk([&](Operation *nested) { cloneRemat(nested); });
      inner.clone(*work[i], mapping);
    }
    SmallVector<Value> results;
    for (Value v : outs) {
      cloneRematValue(v);
      results.push_back(mapping.lookup(v));
    }
    func::ReturnOp::create(inner, func.getLoc(), results);
    stageFunc->setAttr("pp.stage", builder.getI64IntegerAttr(s));
    stageFuncs.push_back(stageFunc);
    builder.setInsertionPointAfter(stageFunc);
    outputs[s] = llvm::SetVector<Value>(outs.begin(), outs.end());
  }

  // @NAME_staged: the stages called in order, equal to @NAME by
  // construction (pp-exec --compare checks it bitwise).
  auto staged = func::FuncOp::create(builder, func.getLoc(),
                                     functionName + "_staged",
                                     func.getFunctionType());
  {
    Block *entry = staged.addEntryBlock();
    OpBuilder inner = OpBuilder::atBlockEnd(entry);
    IRMapping valueMap;
    for (BlockArgument arg : func.getArguments())
      valueMap.map(arg, entry->getArgument(arg.getArgNumber()));
    for (int64_t s = 0; s < S; ++s) {
      SmallVector<Value> operands;
      for (Value v : finalInputs[s])
        operands.push_back(valueMap.lookup(v));
      for (unsigned p : params[s])
        operands.push_back(entry->getArgument(p));
      auto call = func::CallOp::create(inner, func.getLoc(), stageFuncs[s],
                                       operands);
      for (auto [v, r] : llvm::zip(outputs[s], call.getResults()))
        valueMap.map(v, r);
    }
    SmallVector<Value> results;
    for (Value v : returnOp.getOperands())
      results.push_back(valueMap.lookup(v));
    func::ReturnOp::create(inner, func.getLoc(), results);
  }
  builder.setInsertionPointAfter(staged);

  // The pipeline, one stage per rank, with estimated costs.
  int64_t activationBytes = 0;
  for (int64_t s = 0; s + 1 < S; ++s) {
    int64_t bytes = 0;
    for (Value v : outputs[s])
      bytes += bytesOf(v.getType());
    activationBytes = std::max(activationBytes, bytes);
  }
  OperationState state(func.getLoc(), PipelineOp::getOperationName());
  state.addAttribute(PipelineOp::getSymNameAttrName(state.name),
                     builder.getStringAttr(functionName + "_pipeline"));
  state.addAttribute(PipelineOp::getNumRanksAttrName(state.name),
                     builder.getI64IntegerAttr(S));
  state.addAttribute(PipelineOp::getActivationBytesAttrName(state.name),
                     builder.getI64IntegerAttr(activationBytes));
  state.addRegion()->emplaceBlock();
  auto pipeline = cast<PipelineOp>(builder.create(state));
  OpBuilder stages = OpBuilder::atBlockEnd(&pipeline.getBody().front());

  ReportStream report;
  if (printReport && failed(report.open(reportFile, module.getLoc())))
    return signalPassFailure();
  llvm::raw_ostream &os = printReport ? report.os() : llvm::nulls();
  os << "pp-partition @" << functionName << ": " << S << " stages\n";
  for (int64_t s = 0; s < S; ++s) {
    double flops = 0;
    int64_t paramBytes = 0, stash = 0, sent = 0, numOps = 0;
    for (int64_t i = 0; i < n; ++i)
      if (stageOf[i] == s) {
        flops += flopsOf(work[i]);
        ++numOps;
        for (Value result : work[i]->getResults())
          stash += bytesOf(result.getType());
      }
    for (unsigned p : params[s])
      paramBytes += bytesOf(func.getArgument(p).getType());
    if (s + 1 < S)
      for (Value v : outputs[s])
        sent += bytesOf(v.getType());
    double time = flops / flopsPerMicrosecond;
    OperationState stageState(func.getLoc(), StageOp::getOperationName());
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
                            builder.getI64IntegerAttr(stash));
    stages.create(stageState);
    os << "  stage " << s << ": " << numOps << " ops, "
       << llvm::format("%.6g", flops) << " FLOP, parameters " << paramBytes
       << " bytes, stash " << stash << " bytes, sends " << sent
       << " bytes\n";
  }
  os.flush();
}
