//===- ScheduleModel.h - pp IR <-> schedule library -------------*- C++ -*-===//
//
// Converts between the `pp` dialect's pipelines and schedules and the plain
// data of the schedule library (pp/Schedule/Schedule.h), keeping for every
// library action the operation it came from so that problems found by the
// library are reported at the right location.
//
//===----------------------------------------------------------------------===//

#ifndef PP_DIALECT_PP_IR_SCHEDULEMODEL_H
#define PP_DIALECT_PP_IR_SCHEDULEMODEL_H

#include "pp/Dialect/PP/IR/CompactSchedule.h"
#include "pp/Dialect/PP/IR/PPOps.h"
#include "pp/Schedule/DataParallel.h"
#include "pp/Schedule/Schedule.h"

namespace mlir::pp {

/// The schedule library's view of a verified pipeline.
sched::PipelineModel getPipelineModel(PipelineOp pipeline);

/// A schedule op as library data. ops[r][i] is the operation of
/// schedule.ranks[r][i]. The `pp.allreduce` ops are not actions: they are
/// listed in `allReduces` (each after the action before it, in program
/// order) with their replicas and bytes.
struct ScheduleModel {
  sched::Schedule schedule;
  std::vector<std::vector<Operation *>> ops;
  std::vector<sched::AllReducePlacement> allReduces;
  /// D of the all-reduces (1 if none) and each stage's gradient bytes (0
  /// for a stage without an all-reduce).
  int replicas = 1;
  std::vector<int64_t> gradientBytes;

  /// sched::simulateDataParallel of these all-reduces (their replicas and
  /// bytes) around `simulation` (sched::simulate of `schedule` under
  /// `model`), under a ring of `bandwidth` bytes/s and `latency` us.
  sched::DataParallelResult
  simulateAllReduces(const sched::PipelineModel &model,
                     const sched::SimulationResult &simulation,
                     double bandwidth, double latency) const;
};

/// Reads the actions of `op` (which must have one single-block region per
/// rank and only pp action ops in it).
ScheduleModel getScheduleModel(ScheduleOp op);

/// Builds a `pp.schedule` named `name` for `pipeline` from library data at
/// the builder's insertion point, wiring every value that stays on a rank
/// through SSA and materializing sends and receives. Values that cross ranks
/// without a send/recv are left out (a compute-only schedule).
/// Activations and gradients have type tensor<activation_bytes x i8>;
/// stashes !pp.stash<M_B> and !pp.stash<M_W>.
///
/// If `like` is given (a verified schedule of the same pipeline and
/// micro-batches),
/// every action takes the location of the action with the same kind, stage
/// and micro-batch in `like`, and activations and gradients take their types
/// from there; messages take those of the action that produces them.
ScheduleOp buildScheduleOp(OpBuilder &builder, Location loc, StringRef name,
                           PipelineOp pipeline, const sched::Schedule &schedule,
                           ScheduleOp like = {});

/// Builds a compact `pp.schedule` named `name` for `pipeline` at the
/// builder's insertion point: the same schedule as buildScheduleOp's, in
/// about 16 bytes per action and one op, with `allReduces` (in program
/// order) as its all-reduces.
ScheduleOp buildCompactScheduleOp(OpBuilder &builder, Location loc,
                                  StringRef name, PipelineOp pipeline,
                                  const sched::Schedule &schedule,
                                  ArrayRef<PackedAllReduce> allReduces = {});

/// Inserts one pp.allreduce per entry into the SSA schedule that
/// `schedule` (getScheduleModel) reads, whose actions the entries index,
/// right after the entry's action, or after the entry before it when both
/// follow the same action (a bucket's members).
void insertAllReduceOps(const ScheduleModel &schedule,
                        ArrayRef<PackedAllReduce> entries);

/// Replaces the compact schedule `op` (verified) by its SSA form, with its
/// all-reduces as pp.allreduce ops, built by
/// buildScheduleOp at the same place with the same name and location, and
/// returns it; returns `op` itself when it is not compact.
ScheduleOp expandSchedule(ScheduleOp op);

/// `compute` (a compute-only schedule of `model`) with its sends and
/// receives placed (sched::insertCommunication), for pp-insert-communication
/// and pp-schedule{communicate}. A compute-only schedule whose ranks wait on
/// each other in a cycle has no deadlock-free placement: then emits "schedule
/// @<name> deadlocks before any message is added" at `loc`, with a note per
/// blocked rank at `actionLoc(rank, index)` (an action of `compute`, or -1
/// for none), and fails.
FailureOr<sched::Schedule>
addCommunication(const sched::PipelineModel &model,
                 const sched::Schedule &compute, Location loc, StringRef name,
                 llvm::function_ref<Location(int rank, int index)> actionLoc);

/// The pp.pipeline ops a pass with a `pipeline` option acts on: the one
/// named `name`, or all of them when `name` is empty. Emits "no pp.pipeline
/// named @<name>" at the module and fails when there is none of that name;
/// with `required`, also "the module has no pp.pipeline" when the module
/// has none at all.
FailureOr<SmallVector<PipelineOp>>
selectPipelines(ModuleOp module, StringRef name, bool required = false);

/// Parses a memory-limit pass option: bytes ("1048576"), or a multiple of the
/// largest stash (M_B) of any stage of `model` ("4M_B", "2.5M_B"); "" means
/// no limit (0).
llvm::Expected<int64_t> parseMemoryLimit(StringRef text,
                                         const sched::PipelineModel &model);

/// Parses a stash-accounting pass option: "hold" or "convert"
/// (sched::StashAccounting); emits an error at `loc` for anything else.
FailureOr<sched::StashAccounting> parseStashAccountingOption(StringRef text,
                                                             Location loc);

} // namespace mlir::pp

#endif // PP_DIALECT_PP_IR_SCHEDULEMODEL_H
