//===- Compile.cpp - steps 1-5: from a model to lowered rank programs -----===//
//
// compileModel() (Driver.h): runs the pipelines of Pipelines.cpp, the
// partition of Partition.cpp and the recomputation search of
// RecomputeSearch.cpp, then reads what they made.
//
//===----------------------------------------------------------------------===//

#include "pp/Driver/Driver.h"
#include "pp/Support/Error.h"
#include "pp/Support/PassManagerOptions.h"

#include "Partition.h"
#include "Pipelines.h"
#include "Precision.h"
#include "RecomputeSearch.h"

#include "pp/Conversion/Passes.h"
#include "pp/Dialect/PP/IR/PPOps.h"
#include "pp/Dialect/PP/IR/ScheduleModel.h"
#include "pp/Dialect/PP/Transforms/Passes.h"
#include "pp/Execution/Jit.h"
#include "pp/Model/CostModel.h"
#include "pp/Model/Partition.h"
#include "pp/Model/Passes.h"
#include "pp/Support/Diagnostics.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

using namespace mlir;
using namespace mlir::pp;
using namespace mlir::pp::driver;
using exec::TensorSpec;

/// What the recomputation planner needs of the partitioned `module`.
static RecomputeRequest
recomputeRequest(ModuleOp module, const CompiledModel &model,
                 ArrayRef<std::array<double, 3>> measuredCosts) {
  RecomputeRequest request;
  request.module = module;
  request.pipelineName = model.pipelineName;
  request.cuts = model.cuts;
  request.differentiate = [](StringRef choice) {
    return differentiateStages(choice);
  };
  request.measuredCosts.assign(measuredCosts.begin(), measuredCosts.end());
  return request;
}

/// Partitions and places `module` at `cuts` (pp-partition's numbering).
static llvm::Error partitionAt(ModuleOp module, const CompileOptions &options,
                               ArrayRef<int64_t> cuts) {
  CompileOptions at = options;
  at.cuts.assign(cuts.begin(), cuts.end());
  PassManager pm(module.getContext());
  pp::applyPassManagerOptions(pm);
  buildPartitionPipeline(pm, at);
  if (failed(pm.run(module)))
    return makeError("partitioning the model into " + describeStages(cuts) +
                     " failed");
  return llvm::Error::success();
}

/// --recompute=auto: chooses the recomputation, the cut (when `beforeCut`,
/// the model before pp-partition, lets it move) and, with the schedule
/// auto, the schedule; re-partitions `module` when the cut moved.
static llvm::Expected<RecomputeChoice>
chooseRecomputation(ModuleOp module, ModuleOp beforeCut,
                    const CompileOptions &options, CompiledModel &model,
                    Progress &progress,
                    ArrayRef<std::array<double, 3>> measuredCosts) {
  progress.phase("choosing the recomputation of each stage");
  RecomputeRequest request = recomputeRequest(module, model, measuredCosts);
  if (beforeCut)
    if (auto lossFn = beforeCut.lookupSymbol<func::FuncOp>(model.lossName))
      request.numWorkOps =
          static_cast<int64_t>(partitionWorkOps(lossFn).size());
  request.partitionAt =
      [&](ArrayRef<int64_t> cuts) -> llvm::Expected<OwningOpRef<ModuleOp>> {
    OwningOpRef<ModuleOp> copy(beforeCut.clone());
    if (llvm::Error e = partitionAt(*copy, options, cuts))
      return std::move(e);
    return std::move(copy);
  };
  llvm::Expected<RecomputeChoice> chosen =
      chooseRecompute(request, options, model);
  if (!chosen || chosen->cuts == model.cuts)
    return chosen;
  // The chosen cut: the module becomes the model partitioned there.
  OwningOpRef<ModuleOp> copy(beforeCut.clone());
  if (llvm::Error e = partitionAt(*copy, options, chosen->cuts))
    return std::move(e);
  module.getBodyRegion().takeBody(copy->getBodyRegion());
  model.cuts = chosen->cuts;
  model.cutBy = "--recompute=auto";
  progress.phase("stages: " + describeStages(model.cuts) + " (" + model.cutBy +
                 ")");
  return chosen;
}

void mlir::pp::driver::registerDriverDialects(DialectRegistry &registry) {
  exec::registerExecDialects(registry);
}

//===----------------------------------------------------------------------===//
// compileModel
//===----------------------------------------------------------------------===//

/// Runs the passes `build` adds on `module`.
static llvm::Error runPasses(ModuleOp module, const llvm::Twine &what,
                             llvm::function_ref<void(OpPassManager &)> build) {
  PassManager pm(module.getContext());
  pp::applyPassManagerOptions(pm);
  build(pm);
  if (failed(pm.run(module)))
    return makeError(what + " failed");
  return llvm::Error::success();
}

/// Whether `fn` returns exactly one float scalar or one-element float
/// tensor: a loss the runtime can report and seed.
static bool returnsScalarLoss(func::FuncOp fn) {
  if (fn.getNumResults() != 1)
    return false;
  Type t = fn.getResultTypes().front();
  if (isa<FloatType>(t))
    return true;
  auto tensor = dyn_cast<RankedTensorType>(t);
  return tensor && tensor.hasStaticShape() && tensor.getNumElements() == 1 &&
         isa<FloatType>(tensor.getElementType());
}

static llvm::Expected<TensorSpec> specOf(Type type, StringRef function) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  std::optional<exec::ElemKind> kind;
  if (tensor && tensor.hasStaticShape())
    kind = exec::elemKindOf(tensor.getElementType());
  if (!kind)
    return makeError(
        "@" + function + " takes " + typeList(type) +
        "; pp-run needs statically shaped tensors of f32, f64, i32 "
        "or i64");
  TensorSpec spec;
  spec.kind = *kind;
  spec.shape.assign(tensor.getShape().begin(), tensor.getShape().end());
  return spec;
}

/// Fills stageParameters and stageData from the calls of @<loss>_staged,
/// which pp-partition writes: stage s is its s-th call, and a call operand
/// that is an argument of @<loss>_staged is that model argument.
static llvm::Error mapArguments(SymbolTable &symbols, func::FuncOp staged,
                                int numStages, CompiledModel &model) {
  SmallVector<func::CallOp> calls(
      staged.getBody().front().getOps<func::CallOp>());
  if (static_cast<int>(calls.size()) != numStages)
    return makeError("@" + staged.getSymName() +
                     " does not call every stage once");
  model.stageParameters.assign(numStages, {});
  // Per model argument, every (stage, index) that reads it as a parameter.
  std::map<unsigned, std::vector<std::pair<int, int>>> uses;
  for (int s = 0; s < numStages; ++s) {
    auto fn = symbols.lookup<func::FuncOp>(calls[s].getCallee());
    for (unsigned i = 0, e = fn.getNumArguments(); i < e; ++i) {
      auto arg = dyn_cast<BlockArgument>(calls[s].getOperand(i));
      if (!fn.getArgAttr(i, "pp.parameter")) {
        if (s != 0)
          continue;
        if (!arg)
          return makeError(
              "stage 0 takes a value that is not a model argument");
        model.stageData.push_back(arg.getArgNumber());
        continue;
      }
      if (!arg)
        return makeError("a parameter of stage " + llvm::Twine(s) +
                         " is not a model argument");
      uses[arg.getArgNumber()].emplace_back(
          s, static_cast<int>(model.stageParameters[s].size()));
      model.stageParameters[s].push_back(arg.getArgNumber());
    }
  }
  for (auto &[argument, list] : uses)
    if (list.size() > 1)
      model.sharedParameters.push_back({argument, std::move(list)});
  return llvm::Error::success();
}

/// Fills model.argumentSpecs, argumentOrigins (from the pieces'
/// pp.parameter_piece = [argument, dim, offset], pp-split-parameters) and
/// preparedParameters from the compiled loss function `lossFn`; when it is
/// the model function itself (no loss appended), moves model.firstLifted
/// back to the prepared numbering. Errors: pieces that do not tile their
/// argument in place.
static llvm::Error describeArguments(func::FuncOp lossFn, bool lossIsModel,
                                     CompiledModel &model) {
  // Pieces replaced their argument in place: every piece after the first
  // of its argument moves the arguments behind it one place.
  unsigned shift = 0;
  for (unsigned i = 0, e = lossFn.getNumArguments(); i < e; ++i) {
    llvm::Expected<TensorSpec> spec =
        specOf(lossFn.getArgumentTypes()[i], model.lossName);
    if (!spec)
      return spec.takeError();
    model.argumentSpecs.push_back(*spec);
    CompiledModel::ArgumentOrigin origin;
    origin.argument = i - shift;
    if (auto piece = lossFn.getArgAttrOfType<DenseI64ArrayAttr>(
            i, "pp.parameter_piece")) {
      const CompiledModel::ArgumentOrigin *previous =
          model.argumentOrigins.empty() ? nullptr
                                        : &model.argumentOrigins.back();
      bool next = previous && previous->dim >= 0 && piece.size() == 3 &&
                  piece[2] != 0 && previous->argument == piece[0] &&
                  previous->dim == piece[1] &&
                  piece[2] == previous->offset +
                                  model.argumentSpecs[i - 1].shape[piece[1]];
      bool first = piece.size() == 3 && piece[2] == 0 &&
                   piece[0] == static_cast<int64_t>(i - shift);
      if ((!first && !next) || piece[1] < 0 ||
          piece[1] >= static_cast<int64_t>(spec->shape.size()))
        return makeError("argument " + llvm::Twine(i) + " of @" +
                         model.lossName +
                         " has a pp.parameter_piece that does not continue a "
                         "split of one argument in place");
      origin = {static_cast<unsigned>(piece[0]), piece[1], piece[2]};
      if (next)
        ++shift;
    }
    model.argumentOrigins.push_back(origin);
  }
  if (lossIsModel)
    model.firstLifted -= shift;
  for (unsigned a : model.parameterArgs) {
    const CompiledModel::ArgumentOrigin &origin = model.argumentOrigins[a];
    auto &prepared = model.preparedParameters;
    if (!prepared.empty() && prepared.back().first == origin.argument)
      prepared.back().second.shape[origin.dim] +=
          model.argumentSpecs[a].shape[origin.dim];
    else
      prepared.emplace_back(origin.argument, model.argumentSpecs[a]);
  }
  return llvm::Error::success();
}

/// A parameter the loss does not depend on (the prepared model no longer
/// reads it: a layer whose output nothing uses) trains nothing: its
/// gradient is zero, and no use gives it an initialization rule. Named as
/// prepared, as the initial-parameters line names them, once each.
static void warnUnreachedParameters(func::FuncOp lossFn, CompiledModel &model) {
  std::set<unsigned> warned;
  for (unsigned a : model.parameterArgs) {
    unsigned prepared = model.argumentOrigins[a].argument;
    if (!lossFn.getArgument(a).use_empty() || !warned.insert(prepared).second)
      continue;
    model.planWarnings.push_back(
        ("parameter argument " + llvm::Twine(prepared) + " of @" +
         model.lossName +
         " does not reach the loss (the code that reads it is dead: check "
         "what the model's calls and results are wired to); its gradient "
         "is zero and training never changes it")
            .str());
  }
}

/// Reads the cut pp-partition made into model.cuts and model.cutBy; an
/// error when it is not P*V stages (the pp.split_point markers chose
/// another count).
static llvm::Error readCut(ModuleOp module, const CompileOptions &options,
                           CompiledModel &model) {
  int numStages = options.numRanks * options.stagesPerRank;
  SymbolTable symbols(module);
  auto pipeline = symbols.lookup<PipelineOp>(model.pipelineName);
  auto lossFn = symbols.lookup<func::FuncOp>(model.lossName);
  auto staged = symbols.lookup<func::FuncOp>(model.lossName + "_staged");
  if (!pipeline || !lossFn || !staged)
    return makeError("pp-partition did not produce @" + model.pipelineName);
  if (auto cuts = staged->getAttrOfType<DenseI64ArrayAttr>("pp.cuts"))
    model.cuts.assign(cuts.asArrayRef().begin(), cuts.asArrayRef().end());
  if (auto by = staged->getAttrOfType<StringAttr>("pp.cut_by"))
    model.cutBy = by.str();
  int64_t cutStages = static_cast<int64_t>(model.cuts.size()) + 1;
  if (cutStages != numStages)
    return makeError(
        "the pp.split_point markers of @" + model.lossName + " cut it into " +
        llvm::Twine(cutStages) +
        " stages, but --ranks=" + llvm::Twine(options.numRanks) +
        " x --stages-per-rank=" + llvm::Twine(options.stagesPerRank) +
        " make " + llvm::Twine(numStages) + " stages: make P x V equal " +
        llvm::Twine(cutStages) + ", or choose the stages with --cuts");
  return llvm::Error::success();
}

/// The recomputation to differentiate the stages with: --recompute=auto
/// chooses it (with the cut, re-partitioning `module`, and with the schedule
/// auto the schedule), writing the schedule and the limit in bytes it chose
/// under into `planned` (a multiple of M_B means the M_B without
/// recomputation); a fixed choice with measured costs adds what it costs to
/// `stageCosts`. `beforeCut` is the model before pp-partition (null when
/// the cut is fixed).
static llvm::Expected<std::string>
resolveRecomputation(ModuleOp module, ModuleOp beforeCut, CompiledModel &model,
                     Progress &progress,
                     std::vector<std::array<double, 3>> &stageCosts,
                     CompileOptions &planned) {
  const CompileOptions options = planned;
  std::string recompute = options.recompute;
  if (recompute == "auto") {
    llvm::Expected<RecomputeChoice> chosen = chooseRecomputation(
        module, beforeCut, options, model, progress, stageCosts);
    if (!chosen)
      return chosen.takeError();
    recompute = chosen->recompute;
    planned.memoryLimit = std::to_string(chosen->limitBytes);
    planned.schedule = chosen->schedule;
    // auto as the search built it: without the exact solver.
    if (chosen->schedule == "auto")
      planned.solverTimeLimit = 0;
    if (!stageCosts.empty())
      stageCosts = chosen->stageCosts;
  } else if (recompute != "none" && !stageCosts.empty()) {
    // The measured costs are without recomputation: add what it costs.
    llvm::Expected<std::vector<std::array<double, 3>>> costs =
        measuredWithRecompute(recomputeRequest(module, model, stageCosts),
                              recompute, options);
    if (!costs)
      return makeError("--recompute=" + recompute + " with measured costs: " +
                       llvm::toString(costs.takeError()));
    stageCosts = std::move(*costs);
  }
  return recompute;
}

/// Reads what the passes made of `module` into `model`: the schedule, the
/// rank programs, the precision, the initializer and how the model's
/// arguments reach the stages. The passes since replaced ops, so everything
/// is looked up again; the schedule is the one pp-plan made (the only
/// pp.schedule of the pipeline).
static llvm::Error readLowered(ModuleOp module, const CompileOptions &options,
                               CompiledModel &model) {
  SymbolTable lowered(module);
  auto pipeline = lowered.lookup<PipelineOp>(model.pipelineName);
  auto staged = lowered.lookup<func::FuncOp>(model.lossName + "_staged");
  auto lossFn = lowered.lookup<func::FuncOp>(model.lossName);
  auto modelFn = lowered.lookup<func::FuncOp>(options.function);
  if (!pipeline || !staged || !lossFn || !modelFn)
    return makeError("the passes removed @" + model.pipelineName);
  for (auto op : module.getOps<ScheduleOp>())
    if (op.getPipeline() == StringRef(model.pipelineName))
      model.scheduleName = op.getSymName().str();
  auto scheduleOp = lowered.lookup<ScheduleOp>(model.scheduleName);
  if (!scheduleOp)
    return makeError("pp-plan did not produce a schedule of @" +
                     model.pipelineName);
  for (int r = 0; r < options.numRanks; ++r) {
    model.rankFunctions.push_back(model.scheduleName + "_rank" +
                                  std::to_string(r));
    auto rankFn = lowered.lookup<func::FuncOp>(model.rankFunctions.back());
    if (!rankFn)
      return makeError("convert-pp-to-runtime did not produce @" +
                       model.rankFunctions.back());
    if (auto parts = rankFn->getAttrOfType<IntegerAttr>("pprt.boundary_parts"))
      model.boundaryParts = std::max(model.boundaryParts, parts.getInt());
  }
  model.pipeline = getPipelineModel(pipeline);
  model.pipeline.stashAccounting = options.stashAccounting;
  ScheduleModel scheduleModel = getScheduleModel(scheduleOp);
  model.schedule = std::move(scheduleModel.schedule);
  model.allReduces = std::move(scheduleModel.allReduces);
  model.allReducesAtEnd = options.dataParallel > 1 && options.allReduceAtEnd;
  if (options.reference)
    model.referenceName = model.lossName + "_grad";
  if (llvm::Error e = applyPrecision(module, options, model))
    return e;
  // Weights pp-lift-parameters lifted from constants start from the model's
  // own values: @<function>_init returns them, in the order of the trailing
  // arguments it appended (pp-append-loss adds its target after them).
  if (auto ref = modelFn->getAttrOfType<FlatSymbolRefAttr>("pp.initializer"))
    if (auto init = lowered.lookup<func::FuncOp>(ref.getValue())) {
      model.initializerName = init.getSymName().str();
      model.firstLifted = modelFn.getNumArguments() - init.getNumResults();
    }

  int numStages = options.numRanks * options.stagesPerRank;
  if (llvm::Error e = mapArguments(lowered, staged, numStages, model))
    return e;
  if (llvm::Error e = describeArguments(lossFn, lossFn == modelFn, model))
    return e;
  warnUnreachedParameters(lossFn, model);
  return llvm::Error::success();
}

llvm::Expected<CompiledModel>
mlir::pp::driver::compileModel(ModuleOp module, const CompileOptions &requested,
                               Progress &progress) {
  if (llvm::Error e = validate(requested))
    return std::move(e);
  CompileOptions options = withDefaults(requested);
  auto modelFn = module.lookupSymbol<func::FuncOp>(options.function);
  if (!modelFn)
    return makeError("no function named @" + options.function);
  if (options.loss == LossKind::None && !returnsScalarLoss(modelFn))
    return makeError(
        "@" + options.function + " returns " +
        typeList(modelFn.getResultTypes()) +
        ", not a scalar loss: with --loss=none (the default) the "
        "model must return one float loss (f32 or a one-element "
        "tensor); pass --loss=mse or --loss=cross-entropy to append "
        "a loss to its output");

  CompiledModel model;
  model.lossName = lossFunctionName(options);
  model.pipelineName = model.lossName + "_pipeline";
  model.scheduleKind = options.schedule;
  if (requested.recompute.empty() && options.recompute == "auto")
    model.planNotes.push_back(
        "recompute: auto, the default with --memory-limit in bytes "
        "(--recompute=none keeps every stash)");

  progress.phase("preparing @" + options.function);
  if (llvm::Error e =
          runPasses(module, "preparing the model", [&](OpPassManager &pm) {
            buildPreparePipeline(pm, options);
          }))
    return std::move(e);
  std::vector<std::array<double, 3>> stageCosts;
  OwningOpRef<ModuleOp> beforeCut;
  if (llvm::Error e =
          partitionModel(module, options, model, progress, stageCosts,
                         options.recompute == "auto" ? &beforeCut : nullptr))
    return std::move(e);

  if (llvm::Error e = readCut(module, options, model))
    return std::move(e);
  progress.phase("stages: " + describeStages(model.cuts) + " (" + model.cutBy +
                 ")");
  if (llvm::Error e =
          runPasses(module, "placing the stages",
                    [&](OpPassManager &pm) { addPlacement(pm, options); }))
    return std::move(e);
  auto lossFn = module.lookupSymbol<func::FuncOp>(model.lossName);
  for (unsigned i = 0, e = lossFn.getNumArguments(); i < e; ++i)
    if (lossFn.getArgAttr(i, "pp.parameter"))
      model.parameterArgs.push_back(i);
  if (model.parameterArgs.empty())
    return makeError("@" + model.lossName +
                     " has no parameters: mark them with --parameters or "
                     "pp.parameter");

  // The plan's options: with --recompute=auto, the schedule and limit it
  // chose.
  CompileOptions planned = options;
  llvm::Expected<std::string> recompute = resolveRecomputation(
      module, beforeCut.get(), model, progress, stageCosts, planned);
  if (!recompute)
    return recompute.takeError();
  progress.phase("differentiating the stages (F, B, W)");
  if (llvm::Error e = runPasses(module, "differentiating the stages",
                                [&](OpPassManager &pm) {
                                  pm.addPass(differentiateStages(*recompute));
                                }))
    return std::move(e);
  // Measured planning: the schedule is planned with the measured costs.
  if (!stageCosts.empty()) {
    Builder b(module.getContext());
    auto differentiated = module.lookupSymbol<PipelineOp>(model.pipelineName);
    if (!differentiated)
      return makeError("pp-differentiate-stages removed @" +
                       model.pipelineName);
    for (StageOp stage : differentiated.getStagesByIndex()) {
      const std::array<double, 3> &c = stageCosts[stage.getIndex()];
      stage.setForwardTimeAttr(b.getF64FloatAttr(c[0]));
      stage.setBackwardInputTimeAttr(b.getF64FloatAttr(c[1]));
      stage.setBackwardWeightTimeAttr(b.getF64FloatAttr(c[2]));
    }
  }
  if (options.sharePlan && options.schedule == "auto" &&
      options.solverTimeLimit > 0)
    model.planNotes.push_back(
        "auto: the exact solver is off with ranks in several processes (its "
        "time limit could let the processes choose different schedules)");
  progress.phase("planning: " + options.schedule + ", " +
                 llvm::Twine(options.numMicrobatches) + " micro-batches");
  if (llvm::Error e =
          runPasses(module, "planning the schedule", [&](OpPassManager &pm) {
            buildPlanPipeline(pm, planOptions(planned));
          }))
    return std::move(e);
  progress.phase("lowering the rank programs");
  if (llvm::Error e =
          runPasses(module, "lowering the pipeline", [&](OpPassManager &pm) {
            buildLowerPipeline(pm, options, model.parameterArgs);
          }))
    return std::move(e);

  if (llvm::Error e = readLowered(module, options, model))
    return std::move(e);
  return model;
}
