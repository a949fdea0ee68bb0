//===- DataParallel.h -------------------------------------------*- C++ -*-===//
//
// D replicas of a pipeline, gradient all-reduce.
//
// Data parallelism over the pipeline: D replicas of the P-rank pipeline, each
// on its own micro-batches, with each stage's parameter gradients summed over
// its D replicas once per step. The pipeline knows the action after which a
// stage's gradients are final (its last W, or its last fused backward), so
// the stage's all-reduce can start there and overlap the rank's remaining
// work (docs/DataParallel.md). This library places the
// all-reduces and predicts the step with them, overlapped or at the end.
//
// Units: times in microseconds, bandwidths in bytes per second, sizes in
// bytes, as everywhere in the schedule library.
//
//===----------------------------------------------------------------------===//

#ifndef PP_SCHEDULE_DATAPARALLEL_H
#define PP_SCHEDULE_DATAPARALLEL_H

#include "pp/Schedule/Schedule.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace mlir::pp::sched {

/// The replicas and the network between them.
struct DataParallelModel {
  /// D >= 1 replicas of the pipeline.
  int replicas = 1;
  /// Bandwidth of one link of the ring, bytes per second (> 0 when
  /// replicas > 1).
  double bandwidth = 0.0;
  /// Latency of one message of the ring, microseconds (>= 0).
  double latency = 0.0;
  /// Bytes of the parameter gradients of each stage (one entry per stage).
  std::vector<int64_t> gradientBytes;
};

/// Time of a ring all-reduce of `bytes` over D replicas, microseconds:
/// 2 (D - 1) / D * bytes / bandwidth + 2 (D - 1) * latency (a
/// reduce-scatter and an all-gather of D - 1 steps each, each step moving
/// bytes / D; Thakur, Rabenseifner & Gropp, "Optimization of Collective
/// Communication Operations in MPICH", IJHPCA 2005, sec. 4; Patarasuk &
/// Yuan, JPDC 2009). 0 for D = 1; with 0 bytes (a stage without
/// parameters, whose collective the MPI transport still runs with no data)
/// the latency alone.
double ringAllReduceTime(int64_t bytes, const DataParallelModel &model);

/// One all-reduce (or all-gather of the same bytes) as a transport timed
/// it: the gradient bytes each replica contributed and the time it took,
/// microseconds.
struct AllReduceTiming {
  int64_t bytes = 0;
  double time = 0.0;
};

/// The ring model's bandwidth (bytes per second) and latency
/// (microseconds) under which ringAllReduceTime() gives `timings`' times
/// for their bytes over `replicas` replicas, so that the simulator predicts
/// what the transport measured whatever algorithm it runs (pp-run's MPI
/// transport all-gathers and sums in a fixed order: (D - 1) n bytes per
/// replica, not the ring's 2 (D - 1) / D n; for D = 2 the same).
///
/// The timings of each size are taken as their median (robust to the odd
/// late wake-up on a shared machine). With two sizes or more, a least-
/// squares line through the medians: bandwidth = 2 (D - 1) / D / slope,
/// latency = intercept / (2 (D - 1)); a negative intercept refits the line
/// through the origin (latency 0). With one size, or a line that does not
/// rise with the bytes, the largest size alone: `priorLatency` (clamped to
/// half its time) and the bandwidth the rest of its time gives. nullopt
/// when nothing fits: replicas < 2, or no timing with bytes > 0 and a
/// positive finite time.
struct RingFit {
  double bandwidth = 0.0, latency = 0.0;
};
std::optional<RingFit> fitRing(const std::vector<AllReduceTiming> &timings,
                               int replicas, double priorLatency);

/// Where the all-reduce of one stage's gradients starts: on `rank`, right
/// after action `after` of its program (the stage's last W or fused
/// backward of the step).
struct AllReducePlacement {
  int rank = 0;
  int stage = 0;
  size_t after = 0;
  /// -1: the stage's gradients are one collective. Otherwise the placements
  /// of `rank` with the same bucket (consecutive in program order, all
  /// after the same action) are one collective of their stages' gradients
  /// together, started after the last of them (bucketAllReduces()).
  int bucket = -1;
};

/// One placement per stage that has a backward on its rank, in program order
/// per rank (ranks ascending): the stage's gradients are final after its last
/// BackwardWeight or Backward action. Every replica runs the same programs,
/// so each replica reaches the all-reduces of a rank in the same order,
/// which is what lets them match (no two replicas wait on different
/// collectives).
std::vector<AllReducePlacement> placeAllReduces(const Schedule &schedule);

/// Groups each rank's all-reduces into buckets of at most `bucketBytes`
/// bytes (PyTorch DDP's bucket_cap_mb; Li et al., "PyTorch Distributed",
/// VLDB 2020, sec. 3.2.3): in program order, a stage joins the open bucket
/// while the bucket's bytes (gradientBytes per stage) stay within the cap,
/// else it opens the next one. The unit is a stage, since all of a stage's
/// gradients become final at its last W: a bucket only merges stages of
/// one rank (fewer collectives, each paying the ring's latency once),
/// started after the W that completes it, i.e. its last stage's
/// placement. A stage larger than the cap is a bucket alone. Returns the
/// placements with `after` moved to their bucket's last and `bucket` set
/// (numbered per rank from 0); bucketBytes <= 0 returns them unchanged.
std::vector<AllReducePlacement>
bucketAllReduces(std::vector<AllReducePlacement> placements,
                 const std::vector<int64_t> &gradientBytes,
                 int64_t bucketBytes);

/// The same all-reduces, each started after its rank's last action instead
/// (`after` = the rank program's last index; order and buckets kept): the
/// frameworks' reduce-at-the-end, which overlaps nothing. For measuring
/// what starting each at its stage's last W saves.
std::vector<AllReducePlacement>
deferAllReduces(std::vector<AllReducePlacement> placements,
                const Schedule &schedule);

/// Deadlock freedom of D replicas of `schedule` with the all-reduces of
/// `placements`: runs the D x P programs untimed, the point-to-point
/// messages of each replica as rendezvous (as findDeadlock()) and each
/// all-reduce as a blocking collective that completes when the D copies of
/// its rank all stand at it (MPI_Allreduce's or ncclAllReduce's worst case;
/// pprt_allreduce only starts it there, which can only wait less). Each
/// rank's collectives go to a communicator of that rank's replicas alone,
/// so only their order among the D copies matters, and every replica runs
/// the same program: completed is true exactly when the schedule alone
/// completes, and the run is the mechanical proof. Blocked entries name
/// the rank (Problem::rank), the action it stands at (index) and, in the
/// message, the replica and what it waits for. replicas < 1 is an error
/// entry with rank -1.
DeadlockReport
findDataParallelDeadlock(const PipelineModel &model, const Schedule &schedule,
                         const std::vector<AllReducePlacement> &placements,
                         int replicas);

/// The step with all-reduces, from the pipeline's simulation (the replicas
/// all run that timeline; an all-reduce starts when every replica reached
/// it, which is at the same time).
struct DataParallelResult {
  struct Timing {
    int rank = 0, stage = 0;
    double start = 0.0, end = 0.0;
  };
  /// All-reduces started at their placements: each rank runs its own one
  /// at a time, in placement order, beside its compute (a communication
  /// stream), so they overlap the rank's later actions.
  std::vector<Timing> overlapped;
  /// The step: every rank's last action and last all-reduce done.
  double makespan = 0.0;
  /// The same all-reduces all started after the rank's last action (the
  /// frameworks' reduce-at-the-end), and that step.
  std::vector<Timing> atEnd;
  double makespanAtEnd = 0.0;
  /// Sum of all-reduce time on the busiest rank, microseconds.
  double allReduceTime = 0.0;
};

/// Predicts the step of `schedule` under `model` with the all-reduces of
/// `placements` (placeAllReduces, maybe bucketAllReduces), from
/// `simulation` (simulate() of the same schedule and model). A bucket is
/// one ring all-reduce of its stages' bytes, which every member's Timing
/// shows. Ranks with no placement end with their last action.
DataParallelResult
simulateDataParallel(const PipelineModel &model, const Schedule &schedule,
                     const SimulationResult &simulation,
                     const std::vector<AllReducePlacement> &placements,
                     const DataParallelModel &dataParallel);

/// The step of D replicas that each ran at their own speed:
/// `replicaSimulations` holds one simulate() of `schedule` per replica
/// (each with the stage times that replica measured, say). An all-reduce
/// starts when the last replica has reached its placement, so one slow
/// replica (a straggler) delays every replica's collective; the step ends
/// with the last replica's last action or all-reduce. With D equal
/// simulations this is the form above. Empty: an empty result.
DataParallelResult
simulateDataParallel(const PipelineModel &model, const Schedule &schedule,
                     const std::vector<SimulationResult> &replicaSimulations,
                     const std::vector<AllReducePlacement> &placements,
                     const DataParallelModel &dataParallel);

/// The overlapped all-reduces of `step` as spans of a Chrome trace
/// (chromeTraceJSON), each with its stage's bytes from `gradientBytes`.
std::vector<TraceSpan>
allReduceSpans(const DataParallelResult &step,
               const std::vector<int64_t> &gradientBytes);

} // namespace mlir::pp::sched

#endif // PP_SCHEDULE_DATAPARALLEL_H
