//===- Schedule.cpp - pp-schedule -----------------------------------------===//
//
// Builds compute-only pp.schedule ops with the generators of the schedule
// library (lib/Schedule/Generators.cpp, where each schedule cites its paper).
//
//===----------------------------------------------------------------------===//

#include "pp/Dialect/PP/IR/PPOps.h"
#include "pp/Dialect/PP/IR/ScheduleModel.h"
#include "pp/Dialect/PP/Transforms/Passes.h"
#include "pp/Schedule/AutoSchedule.h"
#include "pp/Schedule/Table.h"
#include "pp/Support/Diagnostics.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cmath>
#include <limits>

namespace mlir::pp {
#define GEN_PASS_DEF_PPSCHEDULEPASS
#include "pp/Dialect/PP/Transforms/Passes.h.inc"
} // namespace mlir::pp

using namespace mlir;
using namespace mlir::pp;

/// Micro-batch counts, ranks and stages are `int` in the schedule library.

/// `schedule` as pp-schedule builds it: with `communicate` and no messages
/// yet, with its sends and receives placed (as pp-insert-communication
/// would place them: one schedule op built instead of two). Errors, at the
/// pipeline, for a compute-only schedule that deadlocks.
static FailureOr<sched::Schedule>
finishSchedule(PipelineOp pipeline, StringRef name,
               const sched::PipelineModel &model, sched::Schedule schedule,
               bool communicate) {
  bool hasMessages = llvm::any_of(schedule.ranks, [](const auto &actions) {
    return llvm::any_of(actions,
                        [](const sched::Action &a) { return !a.isCompute(); });
  });
  if (!communicate || hasMessages)
    return schedule;
  // findDeadlock and insertCommunication need a schedule that passes the
  // library's checks (what the verifier would have checked between
  // pp-schedule and pp-insert-communication); a generator's is one.
  std::vector<sched::Problem> problems = sched::checkSchedule(model, schedule);
  if (!problems.empty())
    return mlir::emitError(pipeline.getLoc(), "schedule @")
           << name << " is not valid: " << problems.front().message;
  return addCommunication(
      model, schedule, pipeline.getLoc(), name,
      [&](int, int) -> Location { return pipeline.getLoc(); });
}

namespace {
/// pp-schedule's `form`.
enum class ScheduleForm { SSA, Compact, Auto };
} // namespace

/// Above this many actions (messages included), `form=auto` builds the
/// compact form. P = 64, V = 4, M = 128 interleaved 1F1B has 196 096.
static constexpr size_t kCompactAbove = 100000;

static FailureOr<ScheduleForm> parseScheduleForm(StringRef text, Location loc) {
  if (text == "ssa")
    return ScheduleForm::SSA;
  if (text == "compact")
    return ScheduleForm::Compact;
  if (text == "auto")
    return ScheduleForm::Auto;
  return mlir::emitError(loc)
         << "option 'form' must be ssa, compact or auto, not '" << text << "'";
}

/// Builds `schedule` as `@<name>` right after `pipeline` in `form`,
/// replacing an earlier schedule of that name; errors at the pipeline if
/// the name belongs to anything else.
static LogicalResult placeSchedule(SymbolTable &symbols, PipelineOp pipeline,
                                   StringRef name,
                                   const sched::Schedule &schedule,
                                   ScheduleForm form) {
  if (Operation *old = symbols.lookup(name)) {
    auto oldSchedule = dyn_cast<ScheduleOp>(old);
    if (!oldSchedule) {
      mlir::emitError(pipeline.getLoc(), "cannot name the schedule @")
              .append(name, ": that symbol is a '", old->getName(), "'")
              .attachNote(old->getLoc())
          << "the symbol is defined here";
      return failure();
    }
    symbols.erase(oldSchedule);
  }
  if (form == ScheduleForm::Auto) {
    size_t numActions = 0;
    for (const std::vector<sched::Action> &actions : schedule.ranks)
      numActions += actions.size();
    form =
        numActions > kCompactAbove ? ScheduleForm::Compact : ScheduleForm::SSA;
  }
  OpBuilder builder(pipeline);
  builder.setInsertionPointAfter(pipeline);
  symbols.insert(form == ScheduleForm::Compact
                     ? buildCompactScheduleOp(builder, pipeline.getLoc(), name,
                                              pipeline, schedule)
                     : buildScheduleOp(builder, pipeline.getLoc(), name,
                                       pipeline, schedule));
  return success();
}

/// `schedule=file:PATH`: reads a torch.distributed.pipelining schedule table
/// (CSV, either format; see pp/Schedule/Table.h), checks that it fits each
/// selected pipeline (same stage count and placement; M from the table, which
/// `num-microbatches`, if given, must equal), verifies it (checkSchedule()
/// and findDeadlock(), problems named by rank and step of the table) and
/// builds it as `pp.schedule @<pipeline>_file`. A compute_comms table keeps
/// its sends and receives.
static LogicalResult scheduleFromTable(ModuleOp module, StringRef path,
                                       int64_t numMicrobatches,
                                       StringRef pipelineName, bool communicate,
                                       ScheduleForm form) {
  std::string tableName = ("schedule table '" + path + "'").str();
  std::string what = "" + tableName;
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!file)
    return mlir::emitError(module.getLoc(), "cannot read "
                                            "schedule table '")
           << path << "': " << file.getError().message();
  llvm::Expected<sched::ImportedTable> table =
      sched::importTable((*file)->getBuffer());
  if (!table)
    return mlir::emitError(module.getLoc(), what)
           << ": " << llvm::toString(table.takeError());
  if (numMicrobatches != 0 &&
      numMicrobatches != table->schedule.numMicrobatches)
    return mlir::emitError(module.getLoc(), "option "
                                            "'num-microbatches' is ")
           << numMicrobatches << ", but " << tableName << " has "
           << table->schedule.numMicrobatches
           << " micro-batches; give the table's or leave the option out";

  FailureOr<SmallVector<PipelineOp>> pipelines =
      selectPipelines(module, pipelineName);
  if (failed(pipelines))
    return failure();

  SymbolTable symbols(module);
  for (PipelineOp pipeline : *pipelines) {
    sched::PipelineModel model = getPipelineModel(pipeline);
    StringRef name = pipeline.getSymName();
    if (table->numStages() != model.numStages())
      return mlir::emitError(pipeline.getLoc(), what)
             << " has " << table->numStages() << " stages, but pipeline @"
             << name << " has " << model.numStages();
    for (int s = 0; s < model.numStages(); ++s)
      if (table->stageRanks[s] != model.rankOf(s))
        return mlir::emitError(pipeline.getLoc(), what)
               << " places stage " << s << " on rank " << table->stageRanks[s]
               << ", but pipeline @" << name << " places it on rank "
               << model.rankOf(s);
    // Every action is on its stage's rank (checked above), so rows beyond
    // the pipeline's ranks are empty, and missing rows are idle ranks.
    // "schedule table 'PATH', rank R, step T: <what>".
    std::vector<sched::TableProblem> problems =
        sched::checkTable(model, *table);
    for (const sched::TableProblem &p : problems) {
      std::string where = what;
      if (p.rank >= 0)
        where += ", rank " + std::to_string(p.rank);
      if (p.step >= 0)
        where += ", step " + std::to_string(p.step);
      mlir::emitError(pipeline.getLoc(), where + ": " + p.message);
    }
    if (!problems.empty())
      return failure();
    std::string scheduleName = (name + "_file").str();
    FailureOr<sched::Schedule> schedule =
        finishSchedule(pipeline, scheduleName, model,
                       sched::scheduleOf(model, *table), communicate);
    if (failed(schedule) ||
        failed(placeSchedule(symbols, pipeline, scheduleName, *schedule, form)))
      return failure();
  }
  return success();
}

/// buildSchedule(), except that `auto` also reports, as a remark at the
/// pipeline, what it chose and what it proves: "auto: zb-greedy (...);
/// makespan 51.3 us; lower bound: 50 us (...), gap 2.6%; not proven
/// optimal (solver: ...)".
static llvm::Expected<sched::Schedule>
planSchedule(PipelineOp pipeline, StringRef name,
             const sched::PipelineModel &model, int64_t numMicrobatches,
             const sched::ScheduleOptions &options) {
  if (name != "auto")
    return sched::buildSchedule(name, model, numMicrobatches, options);
  llvm::Expected<sched::AutoReport> report =
      sched::planAuto(model, numMicrobatches, options);
  if (!report)
    return report.takeError();
  mlir::emitRemark(pipeline.getLoc())
      << "auto: " << report->winner << "; makespan "
      << llvm::formatv("{0}", llvm::format("%g", report->makespan)).str()
      << " us; " << sched::renderBounds(report->bounds, report->makespan)
      << "; "
      << (report->provenOptimal ? "proven optimal" : "not proven optimal")
      << " (solver: " << report->solverStatus << ")";
  return std::move(report->schedule);
}

namespace {
struct PPSchedulePass : mlir::pp::impl::PPSchedulePassBase<PPSchedulePass> {
  using Base::Base;
  void runOnOperation() override;
};
} // namespace

void PPSchedulePass::runOnOperation() {
  ModuleOp module = getOperation();
  FailureOr<ScheduleForm> scheduleForm =
      parseScheduleForm(form, module.getLoc());
  if (failed(scheduleForm))
    return signalPassFailure();
  // schedule=file:PATH loads a schedule table instead of generating one.
  if (StringRef(scheduleName).starts_with("file:")) {
    if (failed(scheduleFromTable(module, StringRef(scheduleName).drop_front(5),
                                 numMicrobatches, pipelineName, communicate,
                                 *scheduleForm)))
      signalPassFailure();
    return;
  }
  std::string known = llvm::join(sched::scheduleNames(), ", ");
  if (scheduleName.empty()) {
    mlir::emitError(module.getLoc(), "option 'schedule' is required; known "
                                     "schedules: ")
        << known;
    return signalPassFailure();
  }
  if (failed(checkOptionRange(module.getLoc(), "num-microbatches",
                              numMicrobatches, 1, kMaxIndex,
                              /*required=*/true)) ||
      failed(checkOptionRange(module.getLoc(), "group-size", groupSize, 0,
                              kMaxIndex)))
    return signalPassFailure();
  sched::ScheduleOptions options;
  options.groupSize = groupSize;
  if (std::optional<sched::AutoObjective> objective =
          sched::parseAutoObjective(autoObjective)) {
    options.autoObjective = *objective;
  } else {
    mlir::emitError(module.getLoc())
        << "option 'auto-objective' must be step-makespan or max-rank-span, "
           "not '"
        << autoObjective << "'";
    return signalPassFailure();
  }
  if (!std::isfinite(solverTimeLimit) || solverTimeLimit < 0 ||
      solverTimeLimit > 86400) {
    mlir::emitError(module.getLoc())
        << "option 'solver-time-limit' must be in [0, 86400] seconds, got "
        << solverTimeLimit.getValue();
    return signalPassFailure();
  }
  options.solverTimeLimitSeconds = solverTimeLimit;
  FailureOr<sched::StashAccounting> accounting =
      parseStashAccountingOption(stashAccounting, module.getLoc());
  if (failed(accounting))
    return signalPassFailure();

  FailureOr<SmallVector<PipelineOp>> pipelines =
      selectPipelines(module, pipelineName);
  if (failed(pipelines))
    return signalPassFailure();

  SymbolTable symbols(module);
  for (PipelineOp pipeline : *pipelines) {
    sched::PipelineModel model = getPipelineModel(pipeline);
    model.stashAccounting = *accounting;
    llvm::Expected<int64_t> memoryLimit =
        parseMemoryLimit(memoryLimitText, model);
    if (!memoryLimit) {
      mlir::emitError(pipeline.getLoc())
          << llvm::toString(memoryLimit.takeError());
      return signalPassFailure();
    }
    options.memoryLimitBytes = *memoryLimit;
    llvm::Expected<sched::Schedule> schedule =
        planSchedule(pipeline, scheduleName, model, numMicrobatches, options);
    if (!schedule) {
      mlir::emitError(pipeline.getLoc())
          << llvm::toString(schedule.takeError());
      return signalPassFailure();
    }
    std::string suffix = scheduleName;
    std::replace(suffix.begin(), suffix.end(), '-', '_');
    std::string name = (pipeline.getSymName() + "_" + suffix).str();
    FailureOr<sched::Schedule> finished = finishSchedule(
        pipeline, name, model, std::move(*schedule), communicate);
    if (failed(finished) || failed(placeSchedule(symbols, pipeline, name,
                                                 *finished, *scheduleForm)))
      return signalPassFailure();
  }
}
