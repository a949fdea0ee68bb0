//===- VerifySchedule.cpp - pp-verify-schedule ----------------------------===//

#include "pp/Dialect/PP/IR/PPOps.h"
#include "pp/Dialect/PP/IR/ScheduleModel.h"
#include "pp/Dialect/PP/Transforms/Passes.h"
#include "pp/Schedule/DataParallel.h"

namespace mlir::pp {
#define GEN_PASS_DEF_PPVERIFYSCHEDULEPASS
#include "pp/Dialect/PP/Transforms/Passes.h.inc"
} // namespace mlir::pp

using namespace mlir;
using namespace mlir::pp;

namespace {
struct PPVerifySchedulePass
    : mlir::pp::impl::PPVerifySchedulePassBase<PPVerifySchedulePass> {
  using Base::Base;
  void runOnOperation() override;
};

/// Reports a deadlock of `op` found by `report`: one note per blocked rank
/// at the op it stands at.
void reportDeadlock(ScheduleOp op, const ScheduleModel &schedule,
                    const sched::DeadlockReport &report, StringRef what) {
  InFlightDiagnostic diag = mlir::emitError(op.getLoc(), "schedule @")
                            << op.getSymName() << " deadlocks" << what << ": "
                            << report.blocked.size() << " ranks wait forever";
  for (const sched::Problem &blocked : report.blocked) {
    Location loc = blocked.rank >= 0 && blocked.index >= 0 &&
                           static_cast<size_t>(blocked.index) <
                               schedule.ops[blocked.rank].size()
                       ? schedule.ops[blocked.rank][blocked.index]->getLoc()
                       : op.getLoc();
    // A compact schedule's actions have no locations of their own.
    Diagnostic &note = diag.attachNote(loc);
    note << blocked.message;
    if (op.isCompact() && blocked.index >= 0)
      note << " (action " << blocked.index << " of rank " << blocked.rank
           << ")";
  }
}
} // namespace

void PPVerifySchedulePass::runOnOperation() {
  ModuleOp module = getOperation();
  // The op verifier's checks (wiring, types, ...) ran on this pass's input
  // when the pass manager verified it; running them again here took as
  // long as the deadlock check at scale (1.1 s of pp-plan's 5.5 s at P=64,
  // V=4, M=1024). The deadlock check needs only the library's structural
  // checks, which are cheap, and an input that skipped the verifier (a
  // pass manager built in code, --verify-each=false) gets them here.
  bool failedAny = false;
  for (ScheduleOp op : module.getOps<ScheduleOp>()) {
    PipelineOp pipeline = op.getPipelineOp();
    if (!pipeline) {
      op.emitScheduleError() << "refers to " << op.getPipelineAttr()
                             << ", which is not a pp.pipeline";
      failedAny = true;
      continue;
    }
    sched::PipelineModel model = getPipelineModel(pipeline);
    ScheduleModel schedule = getScheduleModel(op);
    std::vector<sched::Problem> problems =
        sched::checkSchedule(model, schedule.schedule);
    if (!problems.empty()) {
      const sched::Problem &first = problems.front();
      (first.rank >= 0 && first.index >= 0
           ? schedule.ops[first.rank][first.index]->emitOpError(first.message)
           : op.emitScheduleError() << first.message)
          << " (the schedule did not pass the verifier; " << problems.size()
          << " problem(s))";
      failedAny = true;
      continue;
    }
    sched::DeadlockReport report =
        sched::findDeadlock(model, schedule.schedule);
    if (!report.completed) {
      failedAny = true;
      reportDeadlock(op, schedule, report, "");
      continue;
    }
    int replicas = schedule.allReduces.empty() ? 1 : schedule.replicas;
    if (replicas > 1) {
      sched::DeadlockReport withReplicas = sched::findDataParallelDeadlock(
          model, schedule.schedule, schedule.allReduces, replicas);
      if (!withReplicas.completed) {
        failedAny = true;
        reportDeadlock(op, schedule, withReplicas,
                       " with " + std::to_string(replicas) + " replicas");
        continue;
      }
    }
    if (!explain)
      continue;
    int64_t actions = 0;
    for (const std::vector<sched::Action> &rank : schedule.schedule.ranks)
      actions += static_cast<int64_t>(rank.size());
    InFlightDiagnostic remark = mlir::emitRemark(op.getLoc(), "schedule @")
                                << op.getSymName()
                                << ": no deadlock: " << model.numRanks
                                << " ranks, " << actions
                                << " actions ran to the end with rendezvous "
                                   "send/recv";
    if (replicas > 1)
      remark << "; so did its " << replicas << " replicas ("
             << replicas * model.numRanks << " ranks) with the "
             << schedule.allReduces.size()
             << " all-reduces of each as blocking collectives over the "
                "replicas of their rank, which every replica reaches in the "
                "same order (one program per rank)";
  }
  if (failedAny)
    signalPassFailure();
  markAllAnalysesPreserved();
}
