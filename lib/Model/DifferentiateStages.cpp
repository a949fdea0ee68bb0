//===- DifferentiateStages.cpp - pp-differentiate-stages ------------------===//
//
// Gives every stage of a pipeline real forward (F), backward-input (B) and
// backward-weight (W) functions.
//
// For the forward function f(x, p) -> y of a stage (x: inputs from the
// previous stage, p: parameters), pp-autodiff's vector-Jacobian product
// g(x, p, dy) -> (y, dx, dp) is cut in two:
//
//   F(x, p) -> (y, stash)           the backward slice of y in g
//   backward(p, stash, dy) -> (dx, dp)   everything else g needs
//
// The stash is what the backward reads from the forward: values the forward
// computes and the inputs x themselves (activations kept from F to B, the
// M_B of Qi et al., "Zero Bubble Pipeline Parallelism", ICLR 2024, sec. 2).
// What depends only on parameters and constants (fills, transposes and
// broadcasts of weights) is made again in the backward instead of being
// stashed once per micro-batch. Every op of g lands in exactly one of F
// and backward, so F computes bit for bit what f computes (pp-autodiff only
// generalizes named ops, which keeps their arithmetic). The backward is then
// split into B and W by the same code as pp-split-backward.
//
//===----------------------------------------------------------------------===//

#include "GemmLike.h"
#include "StageFunctions.h"

#include "pp/Dialect/PP/IR/PPOps.h"
#include "pp/Model/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::pp {
#define GEN_PASS_DEF_PPDIFFERENTIATESTAGESPASS
#include "pp/Model/Passes.h.inc"
} // namespace mlir::pp

using namespace mlir;
using namespace mlir::pp;

namespace {
/// The functions made for one stage and how they connect.
struct StageFunctions {
  StageOp stage;
  func::FuncOp original, forward, backward, input, weight;
  /// Inputs of the original that take a gradient (increasing).
  SmallVector<unsigned> activeInputs;
  /// Outputs of the original that take a gradient (increasing).
  SmallVector<unsigned> activeOutputs;
  /// Arguments of the original that are parameters (increasing).
  SmallVector<unsigned> parameters;
  /// Number of stash results of the forward (after the outputs).
  unsigned numStash = 0;
};

struct PPDifferentiateStagesPass
    : mlir::pp::impl::PPDifferentiateStagesPassBase<PPDifferentiateStagesPass> {
  using Base::Base;
  void runOnOperation() override;

private:
  /// Gives `sf`'s stage its F and backward (or B and W) functions, with
  /// their costs and stash sizes.
  LogicalResult differentiateStage(StageFunctions &sf, SymbolTable &symbols);
  /// Records the fused backward of `sf` on its stage (B's time, W = 0).
  void recordFusedBackward(StageFunctions &sf);
  /// Splits the backward of `sf` into B and W and records them, with their
  /// costs and M_W, on its stage.
  LogicalResult recordSplitBackward(StageFunctions &sf, StringRef base);
  /// The recomputation of each stage, by stage index (the option).
  SmallVector<std::string> stageRecompute;
};
} // namespace

/// Values used by `op` or the ops nested in it that are defined outside it.
static void forEachUse(Operation *op, function_ref<void(Value)> fn) {
  for (Value v : op->getOperands())
    fn(v);
  llvm::SetVector<Value> captured;
  for (Region &region : op->getRegions())
    getUsedValuesDefinedAbove(region, captured);
  for (Value v : captured)
    fn(v);
}

/// Results of `fn` that depend on one of the arguments `seeds`.
static SmallVector<unsigned> dependentResults(func::FuncOp fn,
                                              ArrayRef<unsigned> seeds) {
  Block &block = fn.getBody().front();
  DenseSet<Value> dependent;
  for (unsigned i : seeds)
    dependent.insert(block.getArgument(i));
  for (Operation &op : block.without_terminator()) {
    bool any = false;
    forEachUse(&op, [&](Value v) { any |= dependent.contains(v); });
    if (any)
      for (Value r : op.getResults())
        dependent.insert(r);
  }
  SmallVector<unsigned> results;
  for (auto [k, v] : llvm::enumerate(block.getTerminator()->getOperands()))
    if (dependent.contains(v) && isDifferentiableType(v.getType()))
      results.push_back(k);
  return results;
}

/// Top-level ops of `block` that the backward makes again rather than
/// reading from the stash: ops that depend on nothing but parameters
/// (arguments `parameters`), constants and empty tensors, such as fills,
/// transposes and broadcasts of weights. They are the same for every
/// micro-batch, so stashing them would keep one copy per micro-batch in
/// flight.
static llvm::SmallPtrSet<Operation *, 32>
parameterOnlyOps(Block &block, ArrayRef<unsigned> parameters) {
  llvm::SmallPtrSet<Operation *, 32> ops;
  for (Operation &op : block.without_terminator()) {
    bool onlyParameters = true;
    forEachUse(&op, [&](Value v) {
      if (auto arg = dyn_cast<BlockArgument>(v))
        onlyParameters &= arg.getOwner() == &block &&
                          llvm::is_contained(parameters, arg.getArgNumber());
      else
        onlyParameters &= ops.contains(v.getDefiningOp());
    });
    if (onlyParameters && isMemoryEffectFree(&op))
      ops.insert(&op);
  }
  return ops;
}

/// Whether the backward makes `op`, a top-level op of F, again from the
/// stash instead of reading its results from it (activation
/// recomputation): every side-effect-free op under "full"; under
/// "selective" those that are not contractions or convolutions (the cheap
/// ops: norms, activations, softmax, elementwise; Korthikanti et al.,
/// "Reducing Activation Recomputation in Large Transformer Models", MLSys
/// 2023, sec. 4.2), so GEMM and convolution outputs stay stashed; under
/// "selective:N" also the contractions and convolutions of at most N FLOPs
/// per output element, the cheapest to remake per byte saved (in a
/// transformer the attention scores, Q K^T, first: their output is
/// tokens x tokens per head for a head-dimension reduction, the case the
/// same paper recomputes).
static bool recomputes(Operation *op, StringRef recompute) {
  if (recompute == "none" || !isMemoryEffectFree(op))
    return false;
  if (recompute == "full")
    return true;
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || !isGemmLike(linalgOp))
    return true;
  double threshold = -1;
  std::optional<double> intensity = recomputeIntensity(op);
  return parseRecomputeChoice(recompute, threshold) && threshold >= 0 &&
         intensity && *intensity <= threshold;
}

/// FLOPs of the top-level ops of `fn`.
static double functionFlops(func::FuncOp fn) {
  double flops = 0.0;
  for (Operation &op : fn.getBody().front())
    flops += flopsOf(&op);
  return flops;
}

/// Cuts the VJP `grad` of `f` (arguments: f's, then one cotangent per active
/// output; results: f's, then the gradients) into F and the fused backward.
static LogicalResult cutForward(StageFunctions &sf, func::FuncOp grad,
                                StringRef forwardName, StringRef backwardName,
                                StringRef recompute) {
  func::FuncOp f = sf.original;
  unsigned numArgs = f.getNumArguments();
  unsigned numOutputs = f.getNumResults();
  Block &block = grad.getBody().front();
  Operation *ret = block.getTerminator();
  SmallVector<Value> outputs(ret->getOperands().take_front(numOutputs));
  SmallVector<Value> grads(ret->getOperands().drop_front(numOutputs));

  llvm::SetVector<Operation *> forwardOps = sliceOf(block, outputs);
  llvm::SetVector<Operation *> needed = sliceOf(block, grads);
  // The backward: what the gradients need beyond the forward, plus the
  // remade values (and what they are made from) it reads from the forward.
  llvm::SmallPtrSet<Operation *, 32> backwardSet;
  for (Operation *op : needed)
    if (!forwardOps.contains(op))
      backwardSet.insert(op);
  SmallVector<Operation *> worklist(backwardSet.begin(), backwardSet.end());
  llvm::SmallPtrSet<Operation *, 32> remade =
      parameterOnlyOps(block, sf.parameters);
  // Recomputation: forward ops the backward makes again from what it keeps.
  for (Operation *op : forwardOps)
    if (recomputes(op, recompute))
      remade.insert(op);
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    forEachUse(op, [&](Value v) {
      Operation *def = v.getDefiningOp();
      if (def && def->getBlock() == &block && remade.contains(def) &&
          backwardSet.insert(def).second)
        worklist.push_back(def);
    });
  }
  // Gradients that are forward values are read from the stash as well.
  SmallVector<Operation *> backwardOps;
  for (Operation &op : block)
    if (backwardSet.contains(&op))
      backwardOps.push_back(&op);

  // What the backward reads from outside itself.
  llvm::SetVector<Value> stash;
  llvm::SmallBitVector usedArgs(block.getNumArguments());
  auto noteUse = [&](Value v) {
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (arg.getOwner() != &block)
        return;
      unsigned i = arg.getArgNumber();
      // Inputs (not parameters, not cotangents) are activations: stashed.
      if (i < numArgs && !llvm::is_contained(sf.parameters, i))
        stash.insert(v);
      usedArgs.set(i);
      return;
    }
    Operation *def = v.getDefiningOp();
    if (def->getBlock() == &block && !backwardSet.contains(def))
      stash.insert(v);
  };
  for (Operation *op : backwardOps)
    forEachUse(op, noteUse);
  for (Value v : grads)
    noteUse(v);

  OpBuilder builder(f.getContext());
  builder.setInsertionPointAfter(f);
  Location loc = f.getLoc();
  UnitAttr unit = builder.getUnitAttr();

  // F: f's arguments; returns f's outputs, then the stash.
  SmallVector<Value> forwardResults(outputs);
  forwardResults.append(stash.begin(), stash.end());
  func::FuncOp forward =
      outlineOps(builder, loc, forwardName,
                 SmallVector<Value>(block.getArguments().take_front(numArgs)),
                 forwardOps.getArrayRef(), forwardResults);
  forward.setAllArgAttrs(f.getAllArgAttrs());
  for (unsigned k = 0; k < stash.size(); ++k)
    forward.setResultAttr(numOutputs + k, "pp.stash", unit);
  sf.numStash = stash.size();
  builder.setInsertionPointAfter(forward);

  // The fused backward: parameters, stash, output gradients; returns the
  // input gradients, then the parameter gradients.
  SmallVector<Value> backwardArgs;
  SmallVector<StringRef> argKinds;
  for (unsigned p : sf.parameters) {
    backwardArgs.push_back(block.getArgument(p));
    argKinds.push_back("pp.parameter");
  }
  for (Value v : stash) {
    backwardArgs.push_back(v);
    argKinds.push_back("pp.stash");
  }
  for (BlockArgument cotangent : block.getArguments().drop_front(numArgs)) {
    backwardArgs.push_back(cotangent);
    argKinds.push_back("pp.gradient");
  }
  func::FuncOp backward =
      outlineOps(builder, loc, backwardName, backwardArgs, backwardOps, grads);
  for (auto [k, kind] : llvm::enumerate(argKinds))
    backward.setArgAttr(k, kind, unit);
  sf.forward = forward;
  sf.backward = backward;
  return success();
}

/// Builds `@<name>_staged_grad` from `@<name>_staged` (calls of the stage
/// forward functions): forward through F, backward through B and W in
/// reverse; returns the loss and the gradient of every argument that is a
/// parameter of some stage, in argument order (pp-autodiff's convention).
/// Returns failure (and creates nothing) if `staged` is not of that shape.
static LogicalResult buildStagedGradient(func::FuncOp staged,
                                         ArrayRef<StageFunctions> stages,
                                         bool split) {
  Block &body = staged.getBody().front();
  auto ret = dyn_cast<func::ReturnOp>(body.getTerminator());
  if (!ret || ret.getNumOperands() != 1)
    return failure();
  Type lossType = ret.getOperand(0).getType();
  if (!isScalarLoss(lossType))
    return failure();
  DenseMap<StringRef, const StageFunctions *> byName;
  for (const StageFunctions &sf : stages)
    byName[func::FuncOp(sf.original).getSymName()] = &sf;
  SmallVector<std::pair<func::CallOp, const StageFunctions *>> calls;
  for (Operation &op : body.without_terminator()) {
    auto call = dyn_cast<func::CallOp>(op);
    if (!call)
      return failure();
    auto it = byName.find(call.getCallee());
    if (it == byName.end())
      return failure();
    calls.push_back({call, it->second});
  }

  OpBuilder builder(staged);
  builder.setInsertionPointAfter(staged);
  Location loc = staged.getLoc();
  auto grad = func::FuncOp::create(
      builder, loc, (staged.getSymName() + "_grad").str(),
      builder.getFunctionType(staged.getArgumentTypes(), {}));
  Block *entry = grad.addEntryBlock();
  OpBuilder b = OpBuilder::atBlockEnd(entry);
  IRMapping map;
  map.map(body.getArguments(), entry->getArguments());

  // Forward: F of every stage; keep the stashes.
  SmallVector<SmallVector<Value>> stashes;
  for (auto [call, sf] : calls) {
    SmallVector<Value> operands;
    for (Value v : call.getOperands())
      operands.push_back(map.lookup(v));
    auto fcall = func::CallOp::create(b, loc, sf->forward, operands);
    unsigned numOutputs = call.getNumResults();
    for (unsigned k = 0; k < numOutputs; ++k)
      map.map(call.getResult(k), fcall.getResult(k));
    stashes.emplace_back(fcall.getResults().drop_front(numOutputs));
  }

  // Backward in reverse stage order, seeding the loss with 1.
  DenseMap<Value, Value> gradients;
  auto accumulate = [&](Value v, Value d) {
    auto [it, inserted] = gradients.try_emplace(v, d);
    if (!inserted)
      it->second = addValues(b, loc, it->second, d);
  };
  Value loss = ret.getOperand(0);
  accumulate(loss, lossSeed(b, loc, lossType));
  for (auto [index, entryPair] : llvm::enumerate(llvm::reverse(calls))) {
    auto [call, sf] = entryPair;
    const SmallVector<Value> &stash = stashes[calls.size() - 1 - index];
    SmallVector<Value> operands;
    for (unsigned p : sf->parameters)
      operands.push_back(map.lookup(call.getOperand(p)));
    operands.append(stash.begin(), stash.end());
    for (unsigned k : sf->activeOutputs) {
      Value out = call.getResult(k);
      Value d = gradients.lookup(out);
      operands.push_back(d ? d : zeros(b, loc, out.getType()));
    }
    SmallVector<Value> results;
    if (split) {
      auto bcall = func::CallOp::create(b, loc, sf->input, operands);
      unsigned numInput = sf->activeInputs.size();
      results.append(bcall.getResults().begin(),
                     bcall.getResults().begin() + numInput);
      SmallVector<Value> wOperands(bcall.getResults().drop_front(numInput));
      auto indices =
          sf->weight->getAttrOfType<DenseI64ArrayAttr>("pp.weight_arguments");
      for (int64_t i : indices.asArrayRef())
        wOperands.push_back(operands[i]);
      auto wcall = func::CallOp::create(b, loc, sf->weight, wOperands);
      results.append(wcall.getResults().begin(), wcall.getResults().end());
    } else {
      auto bwcall = func::CallOp::create(b, loc, sf->backward, operands);
      results.append(bwcall.getResults().begin(), bwcall.getResults().end());
    }
    unsigned next = 0;
    for (unsigned i : sf->activeInputs)
      accumulate(call.getOperand(i), results[next++]);
    for (unsigned p : sf->parameters)
      accumulate(call.getOperand(p), results[next++]);
  }

  SmallVector<Value> results{map.lookup(loss)};
  SmallVector<Type> resultTypes{lossType};
  for (BlockArgument arg : body.getArguments()) {
    bool isParameter = llvm::any_of(calls, [&](auto &entryPair) {
      func::CallOp call = entryPair.first;
      return llvm::any_of(entryPair.second->parameters, [&](unsigned p) {
        return call.getOperand(p) == arg;
      });
    });
    if (!isParameter)
      continue;
    results.push_back(gradients.lookup(arg));
    resultTypes.push_back(arg.getType());
  }
  func::ReturnOp::create(b, loc, results);
  grad.setFunctionType(
      builder.getFunctionType(staged.getArgumentTypes(), resultTypes));
  return success();
}

/// The stages of `pipeline` in index order, each with its forward function
/// and which of its inputs and outputs take a gradient. Reports stages that
/// already have backward functions, forward functions that are missing or
/// have several blocks, and stages that do not take the previous stage's
/// outputs first.
static FailureOr<SmallVector<StageFunctions>>
collectStages(PipelineOp pipeline, SymbolTable &symbols) {
  SmallVector<StageOp> stageOps(pipeline.getBody().getOps<StageOp>());
  llvm::sort(stageOps,
             [](StageOp a, StageOp b) { return a.getIndex() < b.getIndex(); });
  SmallVector<StageFunctions> stages;
  for (StageOp stage : stageOps) {
    if (!stage.getForwardAttr() || stage.getBackwardAttr() ||
        stage.getBackwardInputAttr() || stage.getBackwardWeightAttr()) {
      stage.emitError("stage ")
          << stage.getIndex()
          << " must name only a forward function (as pp-partition makes "
             "it), but it "
          << (stage.getForwardAttr() ? "already has backward functions"
                                     : "has no forward function");
      return failure();
    }
    auto f = symbols.lookup<func::FuncOp>(stage.getForwardAttr().getValue());
    if (!f || f.isExternal() || !f.getBody().hasOneBlock()) {
      stage.emitError("the forward function @")
          << stage.getForwardAttr().getValue() << " of stage "
          << stage.getIndex()
          << (f ? " must have a body of one block" : " does not exist");
      return failure();
    }
    StageFunctions sf;
    sf.stage = stage;
    sf.original = f;
    for (unsigned i = 0, e = f.getNumArguments(); i < e; ++i)
      if (f.getArgAttr(i, "pp.parameter"))
        sf.parameters.push_back(i);
    // Inputs take a gradient where the previous stage's output does.
    if (!stages.empty()) {
      StageFunctions &prev = stages.back();
      unsigned numInputs = f.getNumArguments() - sf.parameters.size();
      bool inputsFirst = llvm::all_of(
          sf.parameters, [&](unsigned p) { return p >= numInputs; });
      ArrayRef<Type> prevOutputs = prev.original.getResultTypes();
      if (!inputsFirst ||
          ArrayRef<Type>(f.getArgumentTypes()).take_front(numInputs) !=
              prevOutputs) {
        stage.emitError("stage ")
            << stage.getIndex()
            << " must take the outputs of the previous stage ("
            << typeList(prevOutputs)
            << ") first, then its parameters (marked pp.parameter), but @"
            << f.getSymName() << " takes (" << typeList(f.getArgumentTypes())
            << ")";
        return failure();
      }
      for (unsigned k : prev.activeOutputs)
        sf.activeInputs.push_back(k);
    }
    SmallVector<unsigned> wrt(sf.activeInputs);
    wrt.append(sf.parameters.begin(), sf.parameters.end());
    sf.activeOutputs = dependentResults(f, wrt);
    stages.push_back(std::move(sf));
  }
  return stages;
}

LogicalResult
PPDifferentiateStagesPass::differentiateStage(StageFunctions &sf,
                                              SymbolTable &symbols) {
  func::FuncOp f = sf.original;
  std::string base = f.getSymName().str();
  for (StringRef suffix : {"_vjp", "_forward", "_backward", "_backward_input",
                           "_backward_weight", "_backward_split"})
    if (symbols.lookup(base + suffix.str())) {
      sf.stage.emitError("cannot create '@")
          << base << suffix << "': a symbol of that name already exists";
      return failure();
    }
  SmallVector<unsigned> wrt(sf.activeInputs);
  wrt.append(sf.parameters.begin(), sf.parameters.end());
  FailureOr<func::FuncOp> grad = buildGradient(
      f, base + "_vjp", wrt, ArrayRef<unsigned>(sf.activeOutputs));
  if (failed(grad)) {
    sf.stage.emitError("cannot differentiate stage ")
        << sf.stage.getIndex() << " (@" << base << ")";
    return failure();
  }
  LogicalResult cut =
      cutForward(sf, *grad, base + "_forward", base + "_backward",
                 stageRecompute[sf.stage.getIndex()]);
  grad->erase();
  if (failed(cut))
    return failure();
  symbols.insert(sf.forward);
  symbols.insert(sf.backward);

  OpBuilder builder(sf.stage);
  sf.stage.setForwardAttr(FlatSymbolRefAttr::get(sf.forward));
  int64_t stashBytes = 0;
  for (Type t : sf.forward.getResultTypes().drop_front(f.getNumResults()))
    stashBytes += bytesOf(t);
  sf.stage.setStashBytes(stashBytes);
  sf.stage.setForwardTimeAttr(
      builder.getF64FloatAttr(functionFlops(sf.forward) / flopsPerMicrosecond));
  if (!splitBackward) {
    recordFusedBackward(sf);
    return success();
  }
  return recordSplitBackward(sf, base);
}

void PPDifferentiateStagesPass::recordFusedBackward(StageFunctions &sf) {
  OpBuilder builder(sf.stage);
  sf.stage.setBackwardAttr(FlatSymbolRefAttr::get(sf.backward));
  sf.stage.setWeightStashBytes(0);
  double flops = functionFlops(sf.backward);
  // A fused backward's time is recorded as B with W = 0.
  sf.stage.setBackwardInputTimeAttr(
      builder.getF64FloatAttr(flops / flopsPerMicrosecond));
  sf.stage.setBackwardWeightTimeAttr(builder.getF64FloatAttr(0.0));
}

LogicalResult PPDifferentiateStagesPass::recordSplitBackward(StageFunctions &sf,
                                                             StringRef base) {
  FailureOr<BackwardSplit> split = mlir::pp::splitBackward(
      sf.backward, sf.activeInputs.size(), (base + "_backward_input").str(),
      (base + "_backward_weight").str(), (base + "_backward_split").str());
  if (failed(split))
    return failure();
  OpBuilder builder(sf.stage);
  sf.input = split->input;
  sf.weight = split->weight;
  sf.stage.setBackwardInputAttr(FlatSymbolRefAttr::get(sf.input));
  sf.stage.setBackwardWeightAttr(FlatSymbolRefAttr::get(sf.weight));
  // M_W: what lives from B to W: B's weight stash, and the part of F's
  // stash that W reads (after B, only W needs it).
  int64_t weightStashBytes = 0;
  for (Type t : sf.input.getResultTypes().drop_front(sf.activeInputs.size()))
    weightStashBytes += bytesOf(t);
  unsigned stashBegin = sf.parameters.size();
  for (int64_t i :
       sf.weight->getAttrOfType<DenseI64ArrayAttr>("pp.weight_arguments")
           .asArrayRef())
    if (i >= stashBegin && i < stashBegin + sf.numStash)
      weightStashBytes += bytesOf(sf.backward.getArgumentTypes()[i]);
  sf.stage.setWeightStashBytes(weightStashBytes);
  sf.stage.setBackwardInputTimeAttr(
      builder.getF64FloatAttr(functionFlops(sf.input) / flopsPerMicrosecond));
  sf.stage.setBackwardWeightTimeAttr(
      builder.getF64FloatAttr(functionFlops(sf.weight) / flopsPerMicrosecond));
  return success();
}

void PPDifferentiateStagesPass::runOnOperation() {
  // One choice for every stage, or one per stage.
  SmallVector<StringRef> choices;
  StringRef(recompute).split(choices, ',');
  for (StringRef c : choices) {
    double threshold = 0;
    if (!parseRecomputeChoice(c, threshold)) {
      mlir::emitError(getOperation().getLoc(),
                      "option 'recompute' must be none, full, selective or "
                      "selective:N with N >= 0 FLOPs per output element (or "
                      "one of them per stage, comma-separated), not '")
          << c << "'";
      return signalPassFailure();
    }
  }
  ModuleOp module = getOperation();
  auto pipeline =
      lookupNamedOrOnly<PipelineOp>(module, pipelineName, "pipeline");
  if (!pipeline)
    return signalPassFailure();
  if (!(flopsPerMicrosecond > 0.0)) {
    mlir::emitError(module.getLoc(), "option 'flops-per-us' must be positive");
    return signalPassFailure();
  }

  SymbolTable symbols(module);
  FailureOr<SmallVector<StageFunctions>> stages =
      collectStages(pipeline, symbols);
  if (failed(stages))
    return signalPassFailure();
  size_t numStages = pipeline.getNumStages();
  if (choices.size() != 1 && choices.size() != numStages) {
    mlir::emitError(getOperation().getLoc(), "option 'recompute' names ")
        << choices.size() << " choices, but the pipeline has " << numStages
        << " stages";
    return signalPassFailure();
  }
  stageRecompute.clear();
  for (size_t s = 0; s < numStages; ++s)
    stageRecompute.push_back(
        (choices.size() == 1 ? choices[0] : choices[s]).str());
  for (StageFunctions &sf : *stages)
    if (failed(differentiateStage(sf, symbols)))
      return signalPassFailure();

  // The whole model's gradient through the stages, when pp-partition's
  // @<name>_staged is there.
  StringRef name = pipeline.getSymName();
  if (name.consume_back("_pipeline"))
    if (auto staged = symbols.lookup<func::FuncOp>((name + "_staged").str()))
      if (!symbols.lookup((name + "_staged_grad").str()))
        (void)buildStagedGradient(staged, *stages, splitBackward);
}
