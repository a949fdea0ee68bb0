//===- SplitBackward.cpp - pp-split-backward ------------------------------===//
//
// Splits a backward function into B (the input gradients, which the previous
// stage waits for) and W (the parameter gradients, which can wait), as the
// zero-bubble schedules need (Qi et al., "Zero Bubble Pipeline Parallelism",
// ICLR 2024, sec. 2: B and W of one stage depend only through what B
// computes).
//
// The backward function returns the input gradients first, then the
// parameter gradients. B is the backward slice of the input-gradient
// results; W is the backward slice of the parameter-gradient results minus
// what B already computes. The values W uses that B computes are the weight
// stash: B returns them after the input gradients, W takes them first,
// followed by the original arguments it uses. Every op is cloned unchanged
// into exactly one of B and W, so B followed by W computes exactly what the
// fused backward computes, bit for bit.
//
//===----------------------------------------------------------------------===//

#include "StageFunctions.h"

#include "pp/Dialect/PP/IR/PPOps.h"
#include "pp/Model/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::pp {
#define GEN_PASS_DEF_PPSPLITBACKWARDPASS
#include "pp/Model/Passes.h.inc"
} // namespace mlir::pp

using namespace mlir;
using namespace mlir::pp;

namespace {
struct PPSplitBackwardPass
    : mlir::pp::impl::PPSplitBackwardPassBase<PPSplitBackwardPass> {
  using Base::Base;
  void runOnOperation() override;
};
} // namespace

llvm::SetVector<Operation *> mlir::pp::sliceOf(Block &block,
                                               ArrayRef<Value> roots) {
  llvm::SmallPtrSet<Operation *, 32> needed;
  SmallVector<Value> worklist(roots.begin(), roots.end());
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    Operation *def = value.getDefiningOp();
    if (!def || def->getBlock() != &block || !needed.insert(def).second)
      continue;
    // Operands of the op and of the ops nested in its regions.
    def->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands())
        worklist.push_back(operand);
    });
  }
  llvm::SetVector<Operation *> ordered;
  for (Operation &op : block)
    if (needed.contains(&op))
      ordered.insert(&op);
  return ordered;
}

func::FuncOp mlir::pp::outlineOps(OpBuilder &builder, Location loc,
                                  StringRef name, ArrayRef<Value> args,
                                  ArrayRef<Operation *> ops,
                                  ArrayRef<Value> results) {
  SmallVector<Type> argTypes, resultTypes;
  for (Value v : args)
    argTypes.push_back(v.getType());
  for (Value v : results)
    resultTypes.push_back(v.getType());
  auto fn = func::FuncOp::create(
      builder, loc, name, builder.getFunctionType(argTypes, resultTypes));
  Block *entry = fn.addEntryBlock();
  OpBuilder b = OpBuilder::atBlockEnd(entry);
  IRMapping map;
  for (auto [k, v] : llvm::enumerate(args))
    map.map(v, entry->getArgument(k));
  for (Operation *op : ops)
    b.clone(*op, map);
  SmallVector<Value> mapped;
  for (Value v : results)
    mapped.push_back(map.lookup(v));
  func::ReturnOp::create(b, loc, mapped);
  return fn;
}

/// Values defined outside `ops` (arguments of `block` or results of ops not
/// in `ops`) that `ops` use, in first-use order.
static llvm::SetVector<Value>
externalUses(Block &block, const llvm::SetVector<Operation *> &ops) {
  llvm::SetVector<Value> uses;
  for (Operation *op : ops)
    op->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands()) {
        if (auto arg = dyn_cast<BlockArgument>(operand)) {
          if (arg.getOwner() == &block)
            uses.insert(operand);
          continue;
        }
        Operation *def = operand.getDefiningOp();
        if (def->getBlock() == &block && !ops.contains(def))
          uses.insert(operand);
      }
    });
  return uses;
}

FailureOr<BackwardSplit>
mlir::pp::splitBackward(func::FuncOp fn, unsigned numInput, StringRef inputName,
                        StringRef weightName, StringRef composedName) {
  if (fn.isExternal() || !fn.getBody().hasOneBlock())
    return fn.emitError("@")
           << fn.getSymName() << " must have a body of one block";
  Block &block = fn.getBody().front();
  auto ret = cast<func::ReturnOp>(block.getTerminator());
  if (numInput > ret.getNumOperands())
    return fn.emitError("@")
           << fn.getSymName() << " returns " << ret.getNumOperands()
           << " gradients, fewer than the " << numInput
           << " input gradients asked for";
  SmallVector<Value> inputGrads(ret.getOperands().take_front(numInput));
  SmallVector<Value> weightGrads(ret.getOperands().drop_front(numInput));

  llvm::SetVector<Operation *> inputOps = sliceOf(block, inputGrads);
  llvm::SetVector<Operation *> weightOps;
  for (Operation *op : sliceOf(block, weightGrads))
    if (!inputOps.contains(op))
      weightOps.insert(op);
  // Ops that neither slice needs (dead code) are dropped.

  // Constants and empty tensors that W uses are made again in W, never
  // stashed.
  llvm::SetVector<Operation *> remade;
  for (Value v : externalUses(block, weightOps))
    if (Operation *def = v.getDefiningOp();
        def && def->getNumOperands() == 0 && def->getNumRegions() == 0)
      remade.insert(def);
  for (Operation *op : weightOps)
    remade.insert(op);
  llvm::SetVector<Operation *> weightAll;
  for (Operation &op : block)
    if (remade.contains(&op))
      weightAll.insert(&op);
  weightOps = std::move(weightAll);

  // The weight stash: results of B's ops that W uses (and W's results that
  // B makes directly).
  llvm::SetVector<Value> stash;
  for (Value v : externalUses(block, weightOps))
    if (!isa<BlockArgument>(v))
      stash.insert(v);
  for (Value v : weightGrads)
    if (Operation *def = v.getDefiningOp(); def && inputOps.contains(def))
      stash.insert(v);
  llvm::SetVector<Value> weightArgs;
  for (Value v : externalUses(block, weightOps))
    if (isa<BlockArgument>(v))
      weightArgs.insert(v);
  for (Value v : weightGrads)
    if (isa<BlockArgument>(v))
      weightArgs.insert(v);

  OpBuilder builder(fn);
  builder.setInsertionPointAfter(fn);
  Location loc = fn.getLoc();

  // B: the original arguments; returns input gradients, then the stash.
  SmallVector<Value> inputResults(inputGrads);
  inputResults.append(stash.begin(), stash.end());
  func::FuncOp input = outlineOps(builder, loc, inputName,
                                  SmallVector<Value>(block.getArguments()),
                                  inputOps.getArrayRef(), inputResults);
  input.setAllArgAttrs(fn.getAllArgAttrs());
  builder.setInsertionPointAfter(input);

  // W: the stash, then the original arguments it uses; returns the
  // parameter gradients. pp.weight_arguments records which arguments.
  SmallVector<Value> weightInputs(stash.begin(), stash.end());
  weightInputs.append(weightArgs.begin(), weightArgs.end());
  func::FuncOp weight = outlineOps(builder, loc, weightName, weightInputs,
                                   weightOps.getArrayRef(), weightGrads);
  SmallVector<int64_t> argIndices;
  for (Value v : weightArgs)
    argIndices.push_back(cast<BlockArgument>(v).getArgNumber());
  weight->setAttr("pp.weight_arguments",
                  builder.getDenseI64ArrayAttr(argIndices));
  builder.setInsertionPointAfter(weight);

  // B then W, for checking against the fused backward.
  auto composed =
      func::FuncOp::create(builder, loc, composedName, fn.getFunctionType());
  {
    Block *entry = composed.addEntryBlock();
    OpBuilder b = OpBuilder::atBlockEnd(entry);
    auto callB = func::CallOp::create(b, loc, input, entry->getArguments());
    SmallVector<Value> wOperands(
        callB.getResults().drop_front(inputGrads.size()));
    for (Value v : weightArgs)
      wOperands.push_back(
          entry->getArgument(cast<BlockArgument>(v).getArgNumber()));
    auto callW = func::CallOp::create(b, loc, weight, wOperands);
    SmallVector<Value> results(
        callB.getResults().take_front(inputGrads.size()));
    results.append(callW.getResults().begin(), callW.getResults().end());
    func::ReturnOp::create(b, loc, results);
  }
  return BackwardSplit{input, weight, composed};
}

void PPSplitBackwardPass::runOnOperation() {
  ModuleOp module = getOperation();
  auto fn = lookupFunction(module, functionName);
  if (!fn)
    return signalPassFailure();
  if (numInputGradients < 0) {
    mlir::emitError(module.getLoc(), "option "
                                     "'input-gradients' must be >= 0");
    return signalPassFailure();
  }
  FailureOr<BackwardSplit> split =
      splitBackward(fn, numInputGradients, functionName + "_input",
                    functionName + "_weight", functionName + "_split");
  if (failed(split))
    return signalPassFailure();

  // Stages whose fused backward is this function now use B and W.
  for (PipelineOp pipeline : module.getOps<PipelineOp>())
    for (StageOp stage : pipeline.getBody().getOps<StageOp>())
      if (stage.getBackwardAttr() &&
          stage.getBackwardAttr().getValue() == functionName) {
        stage.removeBackwardAttr();
        stage.setBackwardInputAttr(FlatSymbolRefAttr::get(split->input));
        stage.setBackwardWeightAttr(FlatSymbolRefAttr::get(split->weight));
      }
}
