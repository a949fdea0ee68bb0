//===- Partition.cpp - step 2: cut the prepared model into stages ---------===//
//
// partitionModel() (Partition.h): FLOP-balanced by pp-partition, or over the
// measured F, B and W costs of every op (StagePlanner.h), and checked for
// stages with nearly no work either way.
//
//===----------------------------------------------------------------------===//

#include "Partition.h"
#include "Pipelines.h"
#include "pp/Driver/StagePlanner.h"
#include "pp/Support/Error.h"
#include "pp/Support/PassManagerOptions.h"

#include "pp/Dialect/PP/IR/PPOps.h"
#include "pp/Dialect/PP/IR/ScheduleModel.h"
#include "pp/Model/CostModel.h"
#include "pp/Model/Partition.h"
#include "pp/Model/Passes.h"
#include "pprt/pprt.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <limits>

using namespace mlir;
using namespace mlir::pp;
using namespace mlir::pp::driver;

/// Busiest / least-busy stage at which a plan counts as balanced.
static constexpr double kBalanced = 1.3;

/// The OpenBLAS threads per GEMM this process uses now (set by the
/// session): part of the machine key, since the times depend on it.
static int currentBlasThreads() {
  int threads = pprt_cpu_blas_threads(1);
  pprt_cpu_blas_threads(threads);
  return threads;
}

/// The request for `options`: the budget is --memory-limit when it is a
/// number of bytes (a limit in M_B depends on the cut, so it only binds
/// the schedule) and nothing is recomputed (the units' stashes are those
/// without recomputation: with it, the recomputation's choice keeps to the
/// limit, docs/Recompute.md).
static PlanRequest planRequest(const CompileOptions &options) {
  PlanRequest request;
  request.numStages = options.numRanks * options.stagesPerRank;
  request.numMicrobatches = options.numMicrobatches;
  request.stashAll =
      options.schedule == "gpipe" || options.schedule == "looped-bfs";
  std::optional<int64_t> bytes = memoryLimitBytes(options);
  if (bytes && (options.recompute.empty() || options.recompute == "none"))
    request.memoryBudget = *bytes;
  request.nearEmptyFraction = options.nearEmptyFraction;
  return request;
}

/// The cost cache file of `options`; empty: none.
static std::string costCachePath(const CompileOptions &options) {
  return options.costCache.empty()     ? defaultCostCachePath()
         : options.costCache == "none" ? std::string()
                                       : options.costCache;
}

/// The unit costs of @`function`: from the cache when it has them
/// (UnitCosts::calibratedStages says for how many stages they were
/// calibrated), else measured (and written to the cache).
static llvm::Expected<UnitCosts> unitCosts(ModuleOp module, StringRef function,
                                           size_t numUnits,
                                           const CompileOptions &options,
                                           CompiledModel &model,
                                           Progress &progress) {
  std::string path = costCachePath(options);
  std::string hash = modelHash(module, function);
  std::string machine = machineKey(currentBlasThreads());
  bool replace = false;
  if (!path.empty()) {
    llvm::Expected<std::optional<UnitCosts>> entry =
        readCostCache(path, hash, machine, numUnits);
    // The default cache, which every run reads, does not stop a run when
    // it cannot be read: it is measured again and replaced. A cache the
    // user named does.
    if (!entry && options.costCache.empty()) {
      model.planWarnings.push_back("the cost cache cannot be used (" +
                                   llvm::toString(entry.takeError()) +
                                   "): measuring again and replacing it");
      entry = std::optional<UnitCosts>();
      replace = true;
    }
    if (!entry)
      return entry.takeError();
    if (*entry) {
      model.planNotes.push_back(
          llvm::formatv("plan costs: measured, {0} units read from the cache "
                        "{1} (model {2}, machine {3})",
                        numUnits, path, hash, machine)
              .str());
      return std::move(**entry);
    }
  }
  progress.phase("measuring F, B and W of " + llvm::Twine(numUnits) +
                 " units of @" + function);
  auto start = std::chrono::steady_clock::now();
  llvm::Expected<UnitCosts> costs =
      measureUnitCosts(module, function, options.measureRepetitions);
  if (!costs)
    return costs.takeError();
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  costs->modelHash = hash;
  costs->machine = machine;
  std::string where = "not cached (--cost-cache=none)";
  if (!path.empty()) {
    if (llvm::Error e = writeCostCache(path, *costs, replace))
      return std::move(e);
    where = "written to the cache " + path;
  }
  model.planNotes.push_back(
      llvm::formatv("plan costs: measured, {0} units (F, B and W of each op, "
                    "median of {1}) in {2:F1} s, {3} (model {4}, machine {5})",
                    numUnits, options.measureRepetitions, seconds, where, hash,
                    machine)
          .str());
  return costs;
}

/// The warning for a plan whose least-busy stage is below the fraction.
static std::string nearEmptyWarning(int stage, double fraction, int numStages,
                                    int suggested, StringRef what) {
  return llvm::formatv("stage {0} has nearly no work ({1:F2}% of the busiest "
                       "stage's {2}): the model's ops do not balance {3} "
                       "stages; the largest sensible P*V is {4}",
                       stage, fraction * 100, what, numStages, suggested)
      .str();
}

/// Measures the planned stages whole, scales their units to match
/// (calibrateUnits) and plans again, until the cut stays (at most
/// kCalibrationRounds measurements); appends the calibrated units to the
/// cost cache, where they replace the first entry.
static llvm::Error calibratePlan(ModuleOp module, const CompileOptions &options,
                                 const PlanRequest &request,
                                 CompiledModel &model, Progress &progress,
                                 UnitCosts &units, StagePlan &plan) {
  constexpr int kCalibrationRounds = 2;
  for (int round = 0; round < kCalibrationRounds; ++round) {
    progress.phase("measuring the " + llvm::Twine(request.numStages) +
                   " planned stages");
    llvm::Expected<std::vector<UnitCost>> stages = measureStageCosts(
        module, model.lossName, plan.cuts, options.measureRepetitions);
    if (!stages)
      return stages.takeError();
    std::string whole, sums;
    for (auto [s, stage] : llvm::enumerate(*stages)) {
      whole += (s ? " / " : "") + llvm::formatv("{0:F1}", stage.total()).str();
      sums += (s ? " / " : "") +
              llvm::formatv("{0:F1}", plan.stages[s].total()).str();
    }
    calibrateUnits(units.units, plan.cuts, *stages);
    llvm::Expected<StagePlan> next = planStages(units.units, request);
    if (!next)
      return next.takeError();
    bool same = next->cuts == plan.cuts;
    model.planNotes.push_back(
        llvm::formatv("plan: stages measured whole: {0} us (F + B + W; their "
                      "units' sums {1} us); units calibrated, {2}",
                      whole, sums, same ? "the cut stays" : "the cut moves")
            .str());
    plan = std::move(*next);
    if (same)
      break;
  }
  units.calibratedStages = request.numStages;
  std::string path = costCachePath(options);
  if (!path.empty())
    return writeCostCache(path, units);
  return llvm::Error::success();
}

/// The measured units of a model and the cut planned from them.
struct MeasuredPlan {
  UnitCosts units;
  StagePlan plan;
};

/// Measures the units of @<loss> in `module` (or reads them from the
/// cache), plans the cut and calibrates it (calibratePlan).
static llvm::Expected<MeasuredPlan>
measureAndPlan(ModuleOp module, size_t numUnits, const CompileOptions &options,
               CompiledModel &model, Progress &progress) {
  PlanRequest request = planRequest(options);
  if (static_cast<size_t>(request.numStages) > numUnits)
    return makeError("cannot cut the model into " +
                     llvm::Twine(request.numStages) + " stages: it has only " +
                     llvm::Twine(numUnits) + " ops that do work, so at most " +
                     llvm::Twine(numUnits) +
                     " stages (P*V <= " + llvm::Twine(numUnits) + ")");
  llvm::Expected<UnitCosts> units =
      unitCosts(module, model.lossName, numUnits, options, model, progress);
  if (!units)
    return units.takeError();
  llvm::Expected<StagePlan> plan = planStages(units->units, request);
  if (!plan)
    return plan.takeError();
  // Units are calibrated against the stages they make, unless the cache
  // holds them calibrated for this many stages already.
  if (request.numStages > 1 && units->calibratedStages != request.numStages)
    if (llvm::Error e = calibratePlan(module, options, request, model, progress,
                                      *units, *plan))
      return std::move(e);
  return MeasuredPlan{std::move(*units), std::move(*plan)};
}

/// Measured planning: marks the cuts of `measured` as pp.split_point on the
/// work ops and reports the stages.
static void applyMeasuredPlan(ModuleOp module, ArrayRef<Operation *> work,
                              const CompileOptions &options,
                              CompiledModel &model,
                              const MeasuredPlan &measured,
                              std::vector<std::array<double, 3>> &costs) {
  PlanRequest request = planRequest(options);
  const StagePlan &plan = measured.plan;
  UnitAttr unit = UnitAttr::get(module.getContext());
  for (int64_t c : plan.cuts)
    work[c]->setAttr("pp.split_point", unit);
  double busiest = plan.busiest;
  int64_t first = 0;
  for (auto [s, stage] : llvm::enumerate(plan.stages)) {
    int64_t last =
        s < plan.cuts.size() ? plan.cuts[s] : (int64_t)work.size() - 1;
    model.planNotes.push_back(
        llvm::formatv("plan: stage {0}: units {1}-{2}, F {3:F1} us, B {4:F1} "
                      "us, W {5:F1} us (total {6:F1} us), parameters {7} "
                      "bytes, stash {8} bytes",
                      s, first, last, stage.forward, stage.backwardInput,
                      stage.backwardWeight, stage.total(), stage.parameterBytes,
                      stage.stashBytes)
            .str());
    costs.push_back({stage.forward, stage.backwardInput, stage.backwardWeight});
    if (plan.suggestedStages && busiest > 0 &&
        stage.total() < request.nearEmptyFraction * busiest)
      model.planWarnings.push_back(
          nearEmptyWarning(s, stage.total() / busiest, request.numStages,
                           *plan.suggestedStages, "measured time"));
    first = last + 1;
  }
  std::string note =
      llvm::formatv("plan: busiest / least-busy stage {0:F2} (measured costs)",
                    plan.imbalance)
          .str();
  // When the ops do not balance this many stages: the most that do.
  if (plan.imbalance > kBalanced) {
    int most = 1;
    for (int S = request.numStages - 1; S > 1 && most == 1; --S) {
      PlanRequest fewer = request;
      fewer.numStages = S;
      llvm::Expected<StagePlan> other = planStages(measured.units.units, fewer);
      if (!other)
        llvm::consumeError(other.takeError());
      else if (other->imbalance <= kBalanced)
        most = S;
    }
    note += llvm::formatv("; the ops balance within {0:F1}x only up to P*V "
                          "= {1} (single ops take most of a stage: split them "
                          "or use fewer stages)",
                          kBalanced, most)
                .str();
  }
  model.planNotes.push_back(note);
}

/// FLOP planning: after pp-partition, a stage below the fraction of the
/// busiest one's FLOPs is reported, with the largest number of stages a
/// FLOP-balanced cut fills.
static void checkFlopPlan(ModuleOp module, ArrayRef<Operation *> work,
                          const CompileOptions &options, CompiledModel &model) {
  auto pipeline = module.lookupSymbol<PipelineOp>(model.pipelineName);
  if (!pipeline)
    return;
  // FLOP estimates: pp-partition sets F = B = W = FLOPs / rate.
  sched::PipelineModel planned = getPipelineModel(pipeline);
  double busiest = 0;
  for (const sched::StageInfo &stage : planned.stages)
    busiest = std::max(busiest, stage.forwardTime);
  if (busiest <= 0)
    return;
  PlanRequest request = planRequest(options);
  std::vector<UnitCost> units;
  for (Operation *op : work) {
    UnitCost unit;
    unit.forward = flopsOf(op);
    units.push_back(unit);
  }
  std::optional<int> suggested;
  for (auto [index, stage] : llvm::enumerate(planned.stages)) {
    double fraction = stage.forwardTime / busiest;
    if (fraction >= request.nearEmptyFraction)
      continue;
    if (!suggested) {
      llvm::Expected<StagePlan> plan = planStages(units, request);
      suggested = 1;
      if (plan)
        suggested = plan->suggestedStages.value_or(request.numStages);
      else
        llvm::consumeError(plan.takeError());
    }
    model.planWarnings.push_back(nearEmptyWarning(static_cast<int>(index),
                                                  fraction, request.numStages,
                                                  *suggested, "FLOPs"));
  }
}

/// The share of the model's FLOPs above which an op is split
/// (CompileOptions::splitOps), std::nullopt for none. `autoSplits`: whether
/// "auto" splits (with measured costs, or FLOP estimates chosen by
/// --plan-costs=auto because nothing can be measured).
static std::optional<double> splitFraction(const CompileOptions &options,
                                           bool autoSplits) {
  if (options.splitOps == "none")
    return std::nullopt;
  if (options.splitOps == "auto") {
    if (!autoSplits)
      return std::nullopt;
    int numStages = options.numRanks * options.stagesPerRank;
    if (numStages < 2)
      return std::nullopt;
    return 1.0 / (4.0 * numStages);
  }
  double fraction = 0;
  if (StringRef(options.splitOps).getAsDouble(fraction))
    return std::nullopt; // validate() refused it
  return fraction;
}

/// pp-split-ops on the loss function, then pp-split-parameters (a weight
/// the split reads only in slices becomes one parameter per slice, so that
/// stages holding different pieces share nothing); their remarks (one per
/// split op or parameter) become plan notes.
static llvm::Error splitLargeOps(ModuleOp module, CompiledModel &model,
                                 double fraction) {
  MLIRContext *context = module.getContext();
  std::vector<std::string> remarks;
  ScopedDiagnosticHandler handler(context, [&](Diagnostic &diagnostic) {
    if (diagnostic.getSeverity() != DiagnosticSeverity::Remark)
      return failure(); // to the outer handler
    remarks.push_back(diagnostic.str());
    return success();
  });
  auto run = [&](std::unique_ptr<Pass> pass, const std::string &prefix) {
    remarks.clear();
    PassManager pm(context);
    pm.addPass(std::move(pass));
    if (failed(pm.run(module)))
      return false;
    for (const std::string &remark : remarks)
      model.planNotes.push_back(prefix + remark);
    return true;
  };
  PPSplitOpsPassOptions splitOps;
  splitOps.functionName = model.lossName;
  splitOps.maxFraction = fraction;
  if (!run(createPPSplitOpsPass(splitOps),
           llvm::formatv("split ops (above {0:F4} of the FLOPs): ", fraction)))
    return makeError("splitting the model's large ops failed");
  PPSplitParametersPassOptions splitParameters;
  splitParameters.functionName = model.lossName;
  if (!run(createPPSplitParametersPass(splitParameters), "split parameters: "))
    return makeError("splitting the parameters of the split ops failed");
  return llvm::Error::success();
}

/// How much slower the busiest stage of a split plan may be than the
/// whole plan's, as a fraction, and still be used when it is better
/// balanced: about the spread of the calibrated stage times from run to run
/// on a shared machine (the same stages measured 10-20% apart in
/// bench/README.md), within which the two are a tie.
constexpr double kSplitTieFraction = 0.10;

/// Measured planning with ops split: plans a copy of the model with its
/// large ops split (pp-split-ops above `fraction`) and keeps it, replacing
/// the loss function (body and signature: pp-split-parameters makes pieces
/// of weights) and `whole` (the plan with the ops whole), when its busiest
/// stage is smaller, or within kSplitTieFraction of the whole plan's and
/// better balanced: splitting balances, but the pieces may run slower than
/// the whole op (smaller GEMMs, more ops), so the split can also make every
/// stage slower. A split that fails leaves `whole` and says why in a plan
/// note. Returns whether the split is used.
static bool planWithSplitOps(ModuleOp module, func::FuncOp lossFn,
                             const CompileOptions &options,
                             CompiledModel &model, Progress &progress,
                             double fraction, MeasuredPlan &whole) {
  OwningOpRef<ModuleOp> copy(cast<ModuleOp>(module->clone()));
  size_t before = model.planNotes.size();
  auto notUsed = [&](llvm::Error e) {
    model.planNotes.push_back("split ops: not used: " +
                              llvm::toString(std::move(e)));
    return false;
  };
  if (llvm::Error e = splitLargeOps(*copy, model, fraction))
    return notUsed(std::move(e));
  if (model.planNotes.size() == before)
    return false; // nothing was large enough
  auto splitFn = copy->lookupSymbol<func::FuncOp>(model.lossName);
  llvm::Expected<MeasuredPlan> split = measureAndPlan(
      *copy, partitionWorkOps(splitFn).size(), options, model, progress);
  if (!split)
    return notUsed(split.takeError());
  bool faster = split->plan.busiest < whole.plan.busiest;
  bool tie =
      !faster &&
      split->plan.busiest <= (1.0 + kSplitTieFraction) * whole.plan.busiest &&
      split->plan.imbalance < whole.plan.imbalance;
  bool better = faster || tie;
  model.planNotes.push_back(
      llvm::formatv(
          "split ops: {0}: busiest stage {1:F1} us with the ops "
          "split against {2:F1} us whole{3}",
          better ? "used" : "not used", split->plan.busiest, whole.plan.busiest,
          tie ? llvm::formatv(" (within {0:F0}%, and balanced {1:F2} "
                              "against {2:F2})",
                              100 * kSplitTieFraction, split->plan.imbalance,
                              whole.plan.imbalance)
                    .str()
              : std::string())
          .str());
  if (!better)
    return false;
  lossFn.getBody().takeBody(splitFn.getBody());
  lossFn.setFunctionType(splitFn.getFunctionType());
  lossFn.setArgAttrsAttr(splitFn.getArgAttrsAttr());
  whole = std::move(*split);
  return true;
}

//===----------------------------------------------------------------------===//
// The plan shared between processes (CompileOptions::sharePlan)
//===----------------------------------------------------------------------===//
//
//   split <fraction as %a, or none>
//   cuts <c> <c> ...
//   stage <F us> <B us> <W us>     (one line per stage, %a: bit for bit)
//
// or "error <message>" when the leader's planning failed.

/// The text of a measured plan: what the other processes need to cut the
/// model as the leader did (the split ops' share, the cuts in the split
/// model's op numbers, every stage's measured F, B and W for the schedule).
static std::string serializePlan(std::optional<double> splitUsed,
                                 ArrayRef<int64_t> cuts,
                                 ArrayRef<std::array<double, 3>> stageCosts) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "split ";
  if (splitUsed)
    os << llvm::format("%a", *splitUsed);
  else
    os << "none";
  os << "\ncuts";
  for (int64_t c : cuts)
    os << " " << c;
  os << "\n";
  for (const std::array<double, 3> &c : stageCosts)
    os << llvm::format("stage %a %a %a\n", c[0], c[1], c[2]);
  return text;
}

/// A finite double as serializePlan() writes it (%a: hexadecimal, exact).
static std::optional<double> parseDouble(StringRef word) {
  std::string copy = word.str();
  char *end = nullptr;
  double value = std::strtod(copy.c_str(), &end);
  if (copy.empty() || end != copy.c_str() + copy.size() ||
      !std::isfinite(value))
    return std::nullopt;
  return value;
}

/// A process that did not plan (CompileOptions::planLeader false): splits
/// the ops and marks the cuts as the leader's `text` says, and takes its
/// stage costs.
static llvm::Error applySharedPlan(ModuleOp module, func::FuncOp lossFn,
                                   int numStages, CompiledModel &model,
                                   StringRef text,
                                   std::vector<std::array<double, 3>> &costs) {
  if (text.consume_front("error "))
    return makeError("rank 0's process could not plan: " + text);
  auto bad = [&](const llvm::Twine &what) {
    return makeError("the plan received from rank 0's process is malformed (" +
                     what + ")");
  };
  SmallVector<StringRef> lines;
  text.split(lines, '\n', -1, /*KeepEmpty=*/false);
  std::optional<double> split;
  SmallVector<int64_t> cuts;
  bool sawSplit = false, sawCuts = false;
  for (StringRef line : lines) {
    SmallVector<StringRef> words;
    line.split(words, ' ', -1, /*KeepEmpty=*/false);
    if (words.size() == 2 && words[0] == "split" && !sawSplit) {
      sawSplit = true;
      if (words[1] != "none" && !(split = parseDouble(words[1])))
        return bad(line);
    } else if (!words.empty() && words[0] == "cuts" && !sawCuts) {
      sawCuts = true;
      for (StringRef w : llvm::drop_begin(words)) {
        int64_t c = 0;
        if (w.getAsInteger(10, c) || c < 0 ||
            (!cuts.empty() && c <= cuts.back()))
          return bad(line);
        cuts.push_back(c);
      }
    } else if (words.size() == 4 && words[0] == "stage") {
      std::array<double, 3> c;
      for (int k = 0; k < 3; ++k) {
        std::optional<double> v = parseDouble(words[k + 1]);
        if (!v)
          return bad(line);
        c[k] = *v;
      }
      costs.push_back(c);
    } else {
      return bad(line);
    }
  }
  if (!sawSplit || !sawCuts || static_cast<int>(cuts.size()) + 1 != numStages ||
      costs.size() != cuts.size() + 1)
    return bad(llvm::Twine(cuts.size()) + " cuts and " +
               llvm::Twine(costs.size()) + " stage costs for " +
               llvm::Twine(numStages) + " stages");
  if (split)
    if (llvm::Error e = splitLargeOps(module, model, *split))
      return e;
  SmallVector<Operation *> work = partitionWorkOps(lossFn);
  UnitAttr unit = UnitAttr::get(module.getContext());
  for (int64_t c : cuts) {
    if (c >= static_cast<int64_t>(work.size()))
      return bad("cut " + llvm::Twine(c) + " of " + llvm::Twine(work.size()) +
                 " ops");
    work[c]->setAttr("pp.split_point", unit);
  }
  model.planNotes.push_back("plan costs: measured by rank 0's process");
  return llvm::Error::success();
}

/// Measured planning on the process that plans: measures (or reads the
/// cache), tries the ops split, marks the cut and fills `stageCosts`.
/// Returns the share at which ops were split, if they were.
static llvm::Expected<std::optional<double>>
planMeasured(ModuleOp module, func::FuncOp lossFn, size_t numUnits,
             std::optional<double> fraction, const CompileOptions &options,
             CompiledModel &model, Progress &progress,
             std::vector<std::array<double, 3>> &stageCosts) {
  llvm::Expected<MeasuredPlan> plan =
      measureAndPlan(module, numUnits, options, model, progress);
  if (!plan)
    return plan.takeError();
  std::optional<double> used;
  if (fraction && planWithSplitOps(module, lossFn, options, model, progress,
                                   *fraction, *plan))
    used = fraction;
  SmallVector<Operation *> work = partitionWorkOps(lossFn);
  applyMeasuredPlan(module, work, options, model, *plan, stageCosts);
  return used;
}

llvm::Error
mlir::pp::driver::partitionModel(ModuleOp module, const CompileOptions &options,
                                 CompiledModel &model, Progress &progress,
                                 std::vector<std::array<double, 3>> &stageCosts,
                                 OwningOpRef<ModuleOp> *beforeCut) {
  auto lossFn = module.lookupSymbol<func::FuncOp>(model.lossName);
  SmallVector<Operation *> work;
  if (lossFn && !lossFn.isExternal() && lossFn.getBody().hasOneBlock())
    work = partitionWorkOps(lossFn);
  auto marked = [&] {
    return llvm::any_of(
        work, [](Operation *op) { return op->hasAttr("pp.split_point"); });
  };
  // The user's cuts (--cuts, else the model's pp.split_point markers) fix
  // the stages.
  bool fixed = !options.cuts.empty() || marked();
  StringRef fixedBy =
      options.cuts.empty() ? "the model's pp.split_point markers" : "--cuts";
  bool measured = options.planCosts == PlanCosts::Measured;
  bool autoSplits = measured;
  // One stage has no cut to balance: nothing is measured.
  bool oneStage = options.numRanks * options.stagesPerRank == 1;
  if (options.planCosts == PlanCosts::Auto && !fixed && !oneStage) {
    measured = options.measurable;
    autoSplits = true;
    if (!measured)
      model.planNotes.push_back(
          "plan costs: FLOP estimates (--plan-costs=auto: the stage code does "
          "not run on this CPU, so it is not timed)");
  }
  if (measured && fixed) {
    model.planNotes.push_back(
        ("plan costs: not measured, " + fixedBy + " fix the cut").str());
    measured = false;
  }
  model.planCosts = measured ? PlanCosts::Measured : PlanCosts::Flops;
  std::optional<double> fraction = splitFraction(options, autoSplits);
  if (fixed)
    fraction.reset();
  if (measured && options.sharePlan && !options.planLeader) {
    if (llvm::Error e = applySharedPlan(
            module, lossFn, options.numRanks * options.stagesPerRank, model,
            options.sharePlan(""), stageCosts))
      return e;
    work = partitionWorkOps(lossFn);
  } else if (measured) {
    llvm::Expected<std::optional<double>> split =
        planMeasured(module, lossFn, work.size(), fraction, options, model,
                     progress, stageCosts);
    if (!split) {
      if (!options.sharePlan)
        return split.takeError();
      // The other processes wait for the plan: tell them why there is none.
      std::string message = llvm::toString(split.takeError());
      options.sharePlan("error " + message);
      return makeError(message);
    }
    work = partitionWorkOps(lossFn);
    if (options.sharePlan) {
      SmallVector<int64_t> cuts;
      for (auto [i, op] : llvm::enumerate(work))
        if (op->hasAttr("pp.split_point"))
          cuts.push_back(static_cast<int64_t>(i));
      options.sharePlan(serializePlan(*split, cuts, stageCosts));
      model.planNotes.push_back("plan: sent to the other processes");
    }
  } else if (fraction) {
    if (llvm::Error e = splitLargeOps(module, model, *fraction))
      return e;
    work = partitionWorkOps(lossFn);
  }
  // Markers (the model's, or the measured plan's) give the stage count,
  // which compileModel checks against P*V.
  bool byMarkers = options.cuts.empty() && marked();
  progress.phase("partitioning into " +
                 llvm::Twine(options.numRanks * options.stagesPerRank) +
                 " stages");
  if (beforeCut) {
    *beforeCut = OwningOpRef<ModuleOp>();
    // The cut is free when the partitioner balances FLOPs.
    if (!fixed && !measured)
      *beforeCut = module.clone();
  }
  PassManager pm(module.getContext());
  pp::applyPassManagerOptions(pm);
  buildCutPipeline(pm, options, byMarkers);
  if (failed(pm.run(module)))
    return makeError("partitioning the model failed");
  if (measured) { // the markers planMeasured() set
    module.walk([](Operation *op) { op->removeAttr("pp.split_point"); });
    if (auto staged =
            module.lookupSymbol<func::FuncOp>(model.lossName + "_staged"))
      staged->setAttr("pp.cut_by",
                      StringAttr::get(module.getContext(), "measured costs"));
  } else {
    checkFlopPlan(module, work, options, model);
  }
  return llvm::Error::success();
}
