//===- RecomputePlan.cpp - --recompute=auto -------------------------------===//
//
// The planner's choice of activation recomputation per stage under a memory
// limit (docs/Recompute.md, "The planner's choice"): exhaustive over the
// per-stage choices for a fixed cut and schedule, so the choice is the best
// of its search space under the simulator's model.
//
//===----------------------------------------------------------------------===//

#include "RecomputePlan.h"

#include "pp/Dialect/PP/IR/PPOps.h"
#include "pp/Dialect/PP/IR/ScheduleModel.h"

#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"

#include <array>
#include <limits>

using namespace mlir;
using namespace mlir::pp;
using namespace mlir::pp::driver;

static llvm::Error error(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

static constexpr std::array<StringRef, 3> kChoices = {"none", "selective",
                                                      "full"};

namespace {
/// The best combination found: choice index per stage, its step and peak.
struct Candidate {
  std::vector<int> choice;
  double makespan = std::numeric_limits<double>::infinity();
  int64_t peak = 0;
  int recomputed = 0; // sum of choice indices: less is simpler
};
} // namespace

llvm::Expected<std::string> mlir::pp::driver::chooseRecompute(
    ModuleOp module, StringRef pipelineName, const CompileOptions &options,
    const std::function<std::unique_ptr<Pass>(StringRef)> &differentiate,
    CompiledModel &model, int64_t &limitBytes) {
  // Each stage's costs and stash under each choice.
  std::array<sched::PipelineModel, 3> models;
  for (size_t c = 0; c < kChoices.size(); ++c) {
    OwningOpRef<ModuleOp> copy(module.clone());
    PassManager pm(module.getContext());
    pm.addPass(differentiate(kChoices[c]));
    if (failed(pm.run(*copy)))
      return error("--recompute=auto: differentiating the stages with "
                   "recompute=" +
                   kChoices[c] + " failed");
    auto pipeline = copy->lookupSymbol<PipelineOp>(pipelineName);
    if (!pipeline)
      return error("--recompute=auto: no pipeline @" + pipelineName);
    models[c] = getPipelineModel(pipeline);
    models[c].stashAccounting =
        *sched::parseStashAccounting(options.stashAccounting);
  }
  int64_t limit = 0;
  if (llvm::Expected<int64_t> parsed =
          parseMemoryLimit(options.memoryLimit, models[0]))
    limit = *parsed;
  else
    return parsed.takeError();
  if (limit <= 0)
    return error("--recompute=auto chooses under a memory limit: give "
                 "--memory-limit (bytes per rank, or a multiple of M_B)");

  int numStages = models[0].numStages();
  bool exhaustive = numStages <= 8 && options.schedule != "auto";
  sched::ScheduleOptions scheduleOptions;
  scheduleOptions.groupSize = options.groupSize;
  // The limit is what this search enforces: a schedule is built without it
  // (auto gets it, as it plans within it).
  if (options.schedule == "auto")
    scheduleOptions.memoryLimitBytes = limit;
  scheduleOptions.solverTimeLimitSeconds = 0;
  std::string firstScheduleError;
  auto evaluate = [&](const std::vector<int> &choice,
                      Candidate &out) -> llvm::Error {
    sched::PipelineModel pipeline = models[0];
    for (int s = 0; s < numStages; ++s)
      pipeline.stages[s] = models[choice[s]].stages[s];
    llvm::Expected<sched::Schedule> schedule = sched::buildSchedule(
        options.schedule, pipeline, options.numMicrobatches, scheduleOptions);
    if (!schedule) {
      std::string why = llvm::toString(schedule.takeError());
      if (firstScheduleError.empty())
        firstScheduleError = why;
      out.makespan = std::numeric_limits<double>::infinity();
      out.peak = std::numeric_limits<int64_t>::max();
      return llvm::Error::success();
    }
    sched::SimulationResult result = sched::simulate(pipeline, *schedule);
    out.choice = choice;
    out.makespan = result.makespan;
    out.peak = 0;
    for (const sched::RankMetrics &r : result.ranks)
      out.peak = std::max(out.peak, r.peakMemoryBytes);
    out.recomputed = 0;
    for (int c : choice)
      out.recomputed += c;
    return llvm::Error::success();
  };
  Candidate best, smallest;
  smallest.peak = std::numeric_limits<int64_t>::max();
  int64_t evaluated = 0;
  auto consider = [&](const std::vector<int> &choice) -> llvm::Error {
    Candidate c;
    if (llvm::Error e = evaluate(choice, c))
      return e;
    ++evaluated;
    if (c.peak < smallest.peak)
      smallest = c;
    if (c.peak <= limit &&
        (c.makespan < best.makespan ||
         (c.makespan == best.makespan && c.recomputed < best.recomputed)))
      best = c;
    return llvm::Error::success();
  };
  if (exhaustive) {
    std::vector<int> choice(numStages, 0);
    while (true) {
      if (llvm::Error e = consider(choice))
        return std::move(e);
      int s = 0;
      while (s < numStages && ++choice[s] == 3)
        choice[s++] = 0;
      if (s == numStages)
        break;
    }
  } else {
    for (int c = 0; c < 3; ++c)
      if (llvm::Error e = consider(std::vector<int>(numStages, c)))
        return std::move(e);
  }
  if (smallest.choice.empty())
    return error("--recompute=auto: no schedule " + options.schedule +
                 " for any recomputation: " + firstScheduleError);
  if (best.choice.empty())
    return error("--recompute=auto: no recomputation fits --memory-limit=" +
                 llvm::Twine(limit) + " bytes with " + options.schedule +
                 ": the smallest activation peak of any choice is " +
                 llvm::Twine(smallest.peak) + " bytes (" +
                 llvm::join(llvm::map_range(smallest.choice,
                                            [](int c) {
                                              return kChoices[c].str();
                                            }),
                            ",") +
                 "), " + llvm::Twine(smallest.peak - limit) +
                 " bytes over the limit");

  std::vector<std::string> names;
  for (int s = 0; s < numStages; ++s) {
    int c = best.choice[s];
    names.push_back(kChoices[c].str());
    const sched::StageInfo &mine = models[c].stages[s];
    const sched::StageInfo &plain = models[0].stages[s];
    double added = (mine.backwardInputTime + mine.backwardWeightTime) -
                   (plain.backwardInputTime + plain.backwardWeightTime);
    std::string line;
    llvm::raw_string_ostream os(line);
    os << "recompute: stage " << s << " " << kChoices[c];
    if (c > 0)
      os << ": stash " << mine.stashBytes << " of " << plain.stashBytes
         << " bytes per micro-batch (weight stash " << mine.weightStashBytes
         << " of " << plain.weightStashBytes << "), backward +"
         << llvm::format("%.3g", added) << " us";
    model.planNotes.push_back(line);
  }
  std::string summary;
  llvm::raw_string_ostream os(summary);
  os << "recompute (auto, under " << limit << " bytes per rank): predicted "
     << llvm::format("%.3g", best.makespan) << " us, activation peak "
     << best.peak << " bytes; "
     << (exhaustive ? "the best of all " + std::to_string(evaluated) +
                          " per-stage choices for " + options.schedule +
                          " (exhaustive: optimal within them under the "
                          "simulator's costs)"
                    : "the best of the 3 uniform choices (" +
                          std::string(options.schedule == "auto"
                                          ? "schedule auto"
                                          : "more than 8 stages") +
                          "): not proven optimal over per-stage choices");
  model.planNotes.push_back(summary);
  limitBytes = limit;
  return llvm::join(names, ",");
}
