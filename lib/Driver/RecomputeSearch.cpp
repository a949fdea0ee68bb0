//===- RecomputeSearch.cpp - --recompute=auto ----------------------------===//
//
// The planner's choice of activation recomputation under a memory limit,
// searched together with the cut and the schedule (docs/Recompute.md, "The
// planner's choice"): every stage range a candidate cut makes is
// differentiated once per choice, then every (cut, schedule, per-stage
// choice) is scheduled and simulated, so the plan is the best of its search
// space under the simulator's model, with a lower bound beside it.
//
//===----------------------------------------------------------------------===//

#include "RecomputeSearch.h"
#include "pp/Support/Error.h"

#include "pp/Dialect/PP/IR/PPOps.h"
#include "pp/Dialect/PP/IR/ScheduleModel.h"
#include "pp/Model/CostModel.h"

#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"

#include <array>
#include <cstdio>
#include <limits>
#include <map>
#include <tuple>

using namespace mlir;
using namespace mlir::pp;
using namespace mlir::pp::driver;

/// selective:N choices tried, at the smallest contraction intensities.
static constexpr size_t kMaxThresholds = 2;
/// Above this many simulations per-stage choices are not enumerated.
static constexpr int64_t kMaxSimulations = 20000;
/// Above this many cut combinations (S > 6), one boundary moves at a time.
static constexpr int64_t kMaxCuts = 243;

namespace {
/// A stage's costs and stash under each choice.
using StageChoices = std::vector<sched::StageInfo>;
/// (stage, first work op, last work op).
using RangeKey = std::tuple<int, int64_t, int64_t>;

/// One evaluated plan.
struct Candidate {
  std::vector<int64_t> cuts;
  std::string schedule;
  std::vector<int> choice;
  double makespan = std::numeric_limits<double>::infinity();
  int64_t peak = std::numeric_limits<int64_t>::max();
  int recomputed = 0; // sum of choice indices: less is simpler
};

class Search {
public:
  Search(const RecomputeRequest &request, const CompileOptions &options,
         CompiledModel &model)
      : request(request), options(options), model(model) {}
  llvm::Expected<RecomputeChoice> run();

private:
  llvm::Error addRanges(ModuleOp module, ArrayRef<int64_t> cuts);
  llvm::Error collectRanges(const std::vector<std::vector<int64_t>> &cuts);
  std::vector<std::vector<int64_t>> candidateCuts() const;
  /// Whether the candidate cuts are every combination of moves (else one
  /// boundary at a time).
  bool allMoves() const;
  void evaluate(const std::vector<int64_t> &cuts,
                const std::vector<std::string> &schedules, bool perStage);
  void consider(const std::vector<int64_t> &cuts, StringRef schedule,
                const std::vector<int> &choice,
                const sched::PipelineModel &pipeline);
  sched::PipelineModel pipelineFor(const std::vector<int64_t> &cuts,
                                   const std::vector<int> &choice) const;
  RangeKey key(ArrayRef<int64_t> cuts, int stage) const;
  void describe(const Candidate &best, int64_t simulations, bool perStage,
                const std::vector<std::string> &schedules, size_t numCuts);

  const RecomputeRequest &request;
  const CompileOptions &options;
  CompiledModel &model;
  /// The pipeline at the partitioner's cut without recomputation: the
  /// ranks, latency and message size every candidate shares.
  sched::PipelineModel base;
  int numStages = 0;
  int64_t limit = 0;
  /// The choices, from least to most recomputation: none, selective,
  /// selective:N for the smallest contraction intensities, full.
  std::vector<std::string> choices;
  std::map<RangeKey, StageChoices> ranges;
  sched::ScheduleOptions scheduleOptions;
  Candidate best, smallest;
  double bound = std::numeric_limits<double>::infinity();
  std::string firstScheduleError;
};
} // namespace

/// The pipeline model of `module` differentiated under `choice`.
static llvm::Expected<sched::PipelineModel>
differentiated(const RecomputeRequest &request, ModuleOp module,
               StringRef choice, const CompileOptions &options) {
  OwningOpRef<ModuleOp> copy(module.clone());
  PassManager pm(module.getContext());
  pm.addPass(request.differentiate(choice));
  if (failed(pm.run(*copy)))
    return makeError("differentiating the stages with recompute=" + choice +
                     " failed");
  auto pipeline = copy->lookupSymbol<PipelineOp>(request.pipelineName);
  if (!pipeline)
    return makeError("no pipeline @" + request.pipelineName);
  sched::PipelineModel result = getPipelineModel(pipeline);
  result.stashAccounting = options.stashAccounting;
  return result;
}

/// `with` (a stage's FLOP costs under a choice) timed from `measured` (its
/// measured F, B, W without recomputation) and `without` (its FLOP costs
/// without recomputation): measuredWithRecompute()'s rule.
static void applyMeasured(sched::StageInfo &with,
                          const sched::StageInfo &without,
                          const std::array<double, 3> &measured) {
  double rate =
      without.forwardTime > 0 ? measured[0] / without.forwardTime : 0.0;
  with.backwardInputTime =
      measured[1] + rate * (with.backwardInputTime - without.backwardInputTime);
  with.backwardWeightTime = measured[2] + rate * (with.backwardWeightTime -
                                                  without.backwardWeightTime);
  with.forwardTime = measured[0];
}

/// Times every model of `models` (the same pipeline differentiated under
/// choices) from the measured costs without recomputation, with `without`
/// its FLOP costs without recomputation (applyMeasured()).
static llvm::Error timeMeasured(ArrayRef<std::array<double, 3>> measured,
                                const sched::PipelineModel &without,
                                MutableArrayRef<sched::PipelineModel> models) {
  if (static_cast<int>(measured.size()) != without.numStages())
    return makeError("the measured costs have " + llvm::Twine(measured.size()) +
                     " stages, the pipeline " +
                     llvm::Twine(without.numStages()));
  for (sched::PipelineModel &m : models)
    for (int s = 0; s < without.numStages(); ++s)
      applyMeasured(m.stages[s], without.stages[s], measured[s]);
  return llvm::Error::success();
}

llvm::Expected<std::vector<std::array<double, 3>>>
mlir::pp::driver::measuredWithRecompute(const RecomputeRequest &request,
                                        StringRef choice,
                                        const CompileOptions &options) {
  llvm::Expected<sched::PipelineModel> none =
      differentiated(request, request.module, "none", options);
  if (!none)
    return none.takeError();
  llvm::Expected<sched::PipelineModel> with =
      differentiated(request, request.module, choice, options);
  if (!with)
    return with.takeError();
  if (with->numStages() != none->numStages())
    return makeError("differentiating with recompute=" + choice +
                     " changed the number of stages");
  if (llvm::Error e =
          timeMeasured(request.measuredCosts, *none,
                       MutableArrayRef<sched::PipelineModel>(*with)))
    return std::move(e);
  std::vector<std::array<double, 3>> costs;
  for (const sched::StageInfo &stage : with->stages)
    costs.push_back(
        {stage.forwardTime, stage.backwardInputTime, stage.backwardWeightTime});
  return costs;
}

RangeKey Search::key(ArrayRef<int64_t> cuts, int stage) const {
  int64_t first = stage == 0 ? 0 : cuts[stage - 1] + 1;
  int64_t last = stage == numStages - 1 ? request.numWorkOps - 1 : cuts[stage];
  return {stage, first, last};
}

/// Differentiates `module` (partitioned at `cuts`) under each choice and
/// records every stage's range.
llvm::Error Search::addRanges(ModuleOp module, ArrayRef<int64_t> cuts) {
  std::vector<sched::PipelineModel> models(choices.size());
  for (size_t c = 0; c < choices.size(); ++c) {
    llvm::Expected<sched::PipelineModel> m =
        differentiated(request, module, choices[c], options);
    if (!m)
      return makeError("--recompute=auto: " + llvm::toString(m.takeError()));
    models[c] = std::move(*m);
  }
  if (!request.measuredCosts.empty()) {
    sched::PipelineModel flops = models[0];
    if (llvm::Error e = timeMeasured(request.measuredCosts, flops, models))
      return makeError("--recompute=auto: " + llvm::toString(std::move(e)));
  }
  if (ranges.empty())
    base = models[0];
  for (int s = 0; s < numStages; ++s) {
    StageChoices &range = ranges[key(cuts, s)];
    range.resize(choices.size());
    for (size_t c = 0; c < choices.size(); ++c)
      range[c] = models[c].stages[s];
  }
  return llvm::Error::success();
}

/// The candidate cuts: the partitioner's and, for a free cut, every
/// strictly increasing cut that moves each boundary by at most one op
/// (3^(S-1) of them while that is at most kMaxCuts), else those that move
/// one boundary alone.
std::vector<std::vector<int64_t>> Search::candidateCuts() const {
  std::vector<std::vector<int64_t>> result = {request.cuts};
  if (request.numWorkOps == 0 || numStages < 2)
    return result;
  auto valid = [&](const std::vector<int64_t> &cuts) {
    for (size_t i = 0; i < cuts.size(); ++i)
      if (cuts[i] < 0 || cuts[i] > request.numWorkOps - 2 ||
          (i > 0 && cuts[i] <= cuts[i - 1]))
        return false;
    return cuts != request.cuts;
  };
  if (!allMoves()) {
    for (int i = 0; i < numStages - 1; ++i)
      for (int d : {-1, 1}) {
        std::vector<int64_t> cuts = request.cuts;
        cuts[i] += d;
        if (valid(cuts))
          result.push_back(std::move(cuts));
      }
    return result;
  }
  int64_t count = 1;
  for (int i = 0; i < numStages - 1; ++i)
    count *= 3;
  for (int64_t n = 0; n < count; ++n) {
    std::vector<int64_t> cuts = request.cuts;
    int64_t rest = n;
    for (int i = 0; i < numStages - 1; ++i, rest /= 3)
      cuts[i] += rest % 3 - 1;
    if (valid(cuts))
      result.push_back(std::move(cuts));
  }
  return result;
}

bool Search::allMoves() const {
  int64_t count = 1;
  for (int i = 0; i < numStages - 1 && count <= kMaxCuts; ++i)
    count *= 3;
  return count <= kMaxCuts;
}

/// Every stage range of `cuts` (candidateCuts()) under every choice. With
/// all moves, 9 partitions cover most ranges: cut i moves by k mod 3 - 1
/// for even i and k div 3 - 1 for odd i (k = 0..8), so every pair of
/// neighbouring moves occurs; a range one of them could not make (a
/// partition whose moves collide at the ends is skipped) comes from
/// partitioning at a candidate that has it.
llvm::Error
Search::collectRanges(const std::vector<std::vector<int64_t>> &cuts) {
  if (llvm::Error e = addRanges(request.module, request.cuts))
    return e;
  if (request.numWorkOps == 0 || numStages < 2)
    return llvm::Error::success();
  auto known = [&](const std::vector<int64_t> &c) {
    for (int s = 0; s < numStages; ++s)
      if (!ranges.count(key(c, s)))
        return false;
    return true;
  };
  auto partition = [&](const std::vector<int64_t> &c) -> llvm::Error {
    llvm::Expected<OwningOpRef<ModuleOp>> copy = request.partitionAt(c);
    if (!copy)
      return copy.takeError();
    return addRanges(**copy, c);
  };
  if (allMoves()) {
    int runs = numStages == 2 ? 3 : 9;
    for (int k = 0; k < runs; ++k) {
      std::vector<int64_t> c = request.cuts;
      for (int i = 0; i < numStages - 1; ++i)
        c[i] += (i % 2 == 0 ? k % 3 : k / 3) - 1;
      if (llvm::is_contained(cuts, c) && !known(c))
        if (llvm::Error e = partition(c))
          return e;
    }
  }
  for (const std::vector<int64_t> &c : cuts)
    if (!known(c))
      if (llvm::Error e = partition(c))
        return e;
  return llvm::Error::success();
}

sched::PipelineModel Search::pipelineFor(const std::vector<int64_t> &cuts,
                                         const std::vector<int> &choice) const {
  sched::PipelineModel pipeline = base;
  for (int s = 0; s < numStages; ++s)
    pipeline.stages[s] = ranges.at(key(cuts, s))[choice[s]];
  return pipeline;
}

void Search::consider(const std::vector<int64_t> &cuts, StringRef schedule,
                      const std::vector<int> &choice,
                      const sched::PipelineModel &pipeline) {
  // auto plans within the limit itself.
  scheduleOptions.memoryLimitBytes = schedule == "auto" ? limit : 0;
  llvm::Expected<sched::Schedule> built = sched::buildSchedule(
      schedule, pipeline, options.numMicrobatches, scheduleOptions);
  if (!built) {
    std::string why = llvm::toString(built.takeError());
    if (firstScheduleError.empty())
      firstScheduleError = schedule.str() + ": " + why;
    return;
  }
  sched::SimulationResult result = sched::simulate(pipeline, *built);
  Candidate c{cuts, schedule.str(), choice, result.makespan, 0, 0};
  for (const sched::RankMetrics &r : result.ranks)
    c.peak = std::max(c.peak, r.peakMemoryBytes);
  for (int x : choice)
    c.recomputed += x;
  if (c.peak < smallest.peak)
    smallest = c;
  if (c.peak <= limit &&
      (c.makespan < best.makespan ||
       (c.makespan == best.makespan && c.recomputed < best.recomputed)))
    best = c;
}

/// Every choice (or the uniform ones) at `cuts` with every schedule; the
/// lower bound of each choice: the busiest rank's work.
void Search::evaluate(const std::vector<int64_t> &cuts,
                      const std::vector<std::string> &schedules,
                      bool perStage) {
  auto visit = [&](const std::vector<int> &choice) {
    sched::PipelineModel pipeline = pipelineFor(cuts, choice);
    std::vector<double> work(pipeline.numRanks, 0.0);
    for (const sched::StageInfo &s : pipeline.stages)
      work[s.rank] +=
          s.forwardTime + s.backwardInputTime + s.backwardWeightTime;
    bound = std::min(bound, options.numMicrobatches *
                                *std::max_element(work.begin(), work.end()));
    for (const std::string &schedule : schedules)
      consider(cuts, schedule, choice, pipeline);
  };
  if (!perStage) {
    for (int c = 0; c < static_cast<int>(choices.size()); ++c)
      visit(std::vector<int>(numStages, c));
    return;
  }
  std::vector<int> choice(numStages, 0);
  while (true) {
    visit(choice);
    int s = 0;
    while (s < numStages && ++choice[s] == static_cast<int>(choices.size()))
      choice[s++] = 0;
    if (s == numStages)
      return;
  }
}

/// N of selective:N as pp-differentiate-stages parses it back: "32",
/// "12.5".
static std::string formatIntensity(double value) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.17g", value);
  return text;
}

/// "selective,full": a choice list as pp-differentiate-stages takes it.
static std::string joinChoices(ArrayRef<std::string> choices,
                               ArrayRef<int> choice) {
  return llvm::join(llvm::map_range(choice, [&](int c) { return choices[c]; }),
                    ",");
}

static std::string joinCuts(ArrayRef<int64_t> cuts) {
  return llvm::join(
      llvm::map_range(cuts, [](int64_t c) { return std::to_string(c); }), ",");
}

void Search::describe(const Candidate &chosen, int64_t simulations,
                      bool perStage, const std::vector<std::string> &schedules,
                      size_t numCuts) {
  for (int s = 0; s < numStages; ++s) {
    int c = chosen.choice[s];
    const StageChoices &mine = ranges.at(key(chosen.cuts, s));
    const sched::StageInfo &plain = mine[0];
    double added = (mine[c].backwardInputTime + mine[c].backwardWeightTime) -
                   (plain.backwardInputTime + plain.backwardWeightTime);
    std::string line;
    llvm::raw_string_ostream os(line);
    os << "recompute: stage " << s << " " << choices[c];
    if (c > 0)
      os << ": stash " << mine[c].stashBytes << " of " << plain.stashBytes
         << " bytes per micro-batch (weight stash " << mine[c].weightStashBytes
         << " of " << plain.weightStashBytes << "), backward +"
         << llvm::format("%.3g", added) << " us";
    model.planNotes.push_back(line);
  }
  std::string summary;
  llvm::raw_string_ostream os(summary);
  os << "recompute (auto, under " << limit << " bytes per rank): predicted "
     << llvm::format("%.3g", chosen.makespan) << " us, activation peak "
     << chosen.peak << " bytes";
  if (request.numWorkOps > 0)
    os << ", cut after ops " << joinCuts(chosen.cuts)
       << (chosen.cuts == request.cuts
               ? " (the partitioner's)"
               : " (partitioner's: " + joinCuts(request.cuts) + ")");
  if (schedules.size() > 1)
    os << ", schedule " << chosen.schedule;
  os << "; the best of " << simulations << " plans (" << numCuts
     << (numCuts == 1 ? " cut" : " cuts")
     << (numCuts > 1 && !allMoves() ? " moving one boundary at a time" : "")
     << " x " << schedules.size()
     << (schedules.size() == 1 ? " schedule" : " schedules") << " x "
     << (perStage ? "every per-stage choice"
                  : std::to_string(choices.size()) + " uniform choices")
     << " of " << llvm::join(choices, ", ")
     << "): optimal within them under the simulator's costs; lower bound "
     << llvm::format("%.3g", bound) << " us (busiest rank's work), gap "
     << llvm::format("%.1f",
                     std::max(0.0, 100.0 * (chosen.makespan / bound - 1.0)))
     << "%";
  model.planNotes.push_back(summary);
}

llvm::Expected<RecomputeChoice> Search::run() {
  numStages = static_cast<int>(request.cuts.size()) + 1;
  // selective:N at the smallest contraction intensities below the largest
  // (recomputing every contraction is full's business).
  SmallVector<double> intensities = recomputeIntensities(request.module);
  choices = {"none", "selective"};
  for (size_t i = 0; i + 1 < intensities.size() && i < kMaxThresholds; ++i)
    choices.push_back("selective:" + formatIntensity(intensities[i]));
  choices.push_back("full");
  std::vector<std::vector<int64_t>> cuts = candidateCuts();
  if (llvm::Error e = collectRanges(cuts))
    return std::move(e);
  numStages = base.numStages();
  if (llvm::Expected<int64_t> parsed =
          parseMemoryLimit(options.memoryLimit, base))
    limit = *parsed;
  else
    return parsed.takeError();
  if (limit <= 0)
    return makeError("--recompute=auto chooses under a memory limit: give "
                     "--memory-limit (bytes per rank, or a multiple of M_B)");

  // The limit is what this search enforces: a named schedule is built
  // without it (auto gets it, as it plans within it), and auto's exact
  // solver is off (a time limit would make the choice nondeterministic).
  scheduleOptions.groupSize = options.groupSize;
  scheduleOptions.solverTimeLimitSeconds = 0;
  scheduleOptions.autoObjective = options.autoObjective;
  std::vector<std::string> schedules = {options.schedule};
  if (options.schedule == "auto")
    schedules = sched::scheduleNames();
  // C^S, saturated above the budget.
  int64_t perCut = 1;
  for (int s = 0; s < numStages && perCut <= kMaxSimulations; ++s)
    perCut *= static_cast<int64_t>(choices.size());
  bool perStage = static_cast<int64_t>(cuts.size()) * perCut *
                      static_cast<int64_t>(schedules.size()) <=
                  kMaxSimulations;
  int64_t simulations =
      static_cast<int64_t>(cuts.size()) *
      (perStage ? perCut : static_cast<int64_t>(choices.size())) *
      static_cast<int64_t>(schedules.size());
  for (const std::vector<int64_t> &c : cuts)
    evaluate(c, schedules, perStage);
  if (smallest.choice.empty())
    return makeError("--recompute=auto: no schedule " + options.schedule +
                     " for any recomputation: " + firstScheduleError);
  if (best.choice.empty())
    return makeError(
        "--recompute=auto: no plan fits --memory-limit=" + llvm::Twine(limit) +
        " bytes with " + options.schedule +
        ": the smallest activation peak of any is " +
        llvm::Twine(smallest.peak) + " bytes (" +
        joinChoices(choices, smallest.choice) +
        (request.numWorkOps > 0 ? ", cut after ops " + joinCuts(smallest.cuts)
                                : std::string()) +
        "), " + llvm::Twine(smallest.peak - limit) + " bytes over the limit");
  describe(best, simulations, perStage, schedules, cuts.size());
  RecomputeChoice result;
  result.recompute = joinChoices(choices, best.choice);
  result.cuts = best.cuts;
  result.schedule = best.schedule;
  result.limitBytes = limit;
  if (!request.measuredCosts.empty())
    for (int s = 0; s < numStages; ++s) {
      const sched::StageInfo &stage =
          ranges.at(key(best.cuts, s))[best.choice[s]];
      result.stageCosts.push_back({stage.forwardTime, stage.backwardInputTime,
                                   stage.backwardWeightTime});
    }
  return result;
}

llvm::Expected<RecomputeChoice>
mlir::pp::driver::chooseRecompute(const RecomputeRequest &request,
                                  const CompileOptions &options,
                                  CompiledModel &model) {
  return Search(request, options, model).run();
}
