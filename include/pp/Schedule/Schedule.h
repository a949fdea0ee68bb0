//===- Schedule.h - Pipeline schedules as plain data ------------*- C++ -*-===//
//
// The schedule library: pipeline-parallel schedules as plain C++ data, their
// generators, structural checks, deadlock detection, communication insertion
// and a discrete-event simulator. It does not depend on MLIR (only on
// LLVMSupport); the `pp` dialect's passes are thin adapters over it.
//
// Terms follow docs/Terms.md: P ranks, S stages (S = P * V), M micro-batches;
// F forward, B backward for inputs (B_I), W backward for weights (B_W), and a
// fused backward (B and W in one action).
//
// Units: every time is in microseconds (us); every memory size is in bytes.
//
//===----------------------------------------------------------------------===//

#ifndef PP_SCHEDULE_SCHEDULE_H
#define PP_SCHEDULE_SCHEDULE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir::pp::sched {

//===----------------------------------------------------------------------===//
// Pipelines
//===----------------------------------------------------------------------===//

/// Costs and placement of one pipeline stage.
struct StageInfo {
  /// Rank (0-based) that runs this stage.
  int rank = 0;
  /// Time of one forward (F) on one micro-batch, microseconds.
  double forwardTime = 1.0;
  /// Time of one backward-for-inputs (B) on one micro-batch, microseconds.
  double backwardInputTime = 1.0;
  /// Time of one backward-for-weights (W) on one micro-batch, microseconds.
  /// A fused backward takes backwardInputTime + backwardWeightTime.
  double backwardWeightTime = 0.0;
  /// Bytes one F stashes until its B (or fused backward) runs: M_B.
  int64_t stashBytes = 0;
  /// Bytes one B keeps until its W runs: M_W.
  int64_t weightStashBytes = 0;
};

/// How the activation memory of a split backward is counted (simulate(),
/// `auto`'s memory limit, the lower bounds). Forward and W are the same in
/// both: F(s, m) allocates its stash M_B when it starts, W(s, m) frees its
/// weight stash M_W when it ends. A fused backward frees M_B when it ends.
/// Pass option and pp-run flag `stash-accounting=hold|convert`.
enum class StashAccounting : uint8_t {
  /// B(s, m) allocates M_W when it starts and frees M_B when it ends, so both
  /// count while it runs ("hold"). An upper bound: a stage's M_W includes
  /// the parts of F's stash that W reads (pp-differentiate-stages), which
  /// this counts twice during B. What sizes pp-run's device memory pools;
  /// an option elsewhere.
  HoldDuringBackward,
  /// The zero-bubble paper's accounting ("convert"; Qi et al., "Zero Bubble
  /// Pipeline Parallelism", ICLR 2024, sec. 3 and appendix G: Delta M_F =
  /// M_B, Delta M_B = M_W - M_B, Delta M_W = -M_W): B turns its stash into
  /// the weight stash, so it never needs more than max(M_B, M_W) for its
  /// micro-batch. Since a rank's actions do not overlap and peaks are taken
  /// in program order, this is the same peak as B converting at its end:
  /// what the generated code's stash buffers measure (the parts of F's
  /// stash W does not read are freed after B, B's new weight stash is
  /// handed over then), so pp-run's plan. The paper's ZB-1p and ZB-2p
  /// figures (P M_B and 2P M_B limits) are counted this way. The default of
  /// every pass, tool and the driver.
  ConvertAtBackward,
};

/// "hold" or "convert" (the pass option's spelling).
llvm::StringRef stashAccountingName(StashAccounting accounting);

/// The accounting named `name` ("hold" or "convert"), or std::nullopt.
std::optional<StashAccounting> parseStashAccounting(llvm::StringRef name);

/// A pipeline: stages (indexed 0..S-1 in model order) placed on ranks.
struct PipelineModel {
  int numRanks = 1;
  std::vector<StageInfo> stages;
  /// Point-to-point latency of one message between two ranks, microseconds.
  double latency = 0.0;
  /// Bytes of one activation (or gradient) message between stages.
  int64_t activationBytes = 0;
  /// How split backwards count memory (see StashAccounting).
  StashAccounting stashAccounting = StashAccounting::ConvertAtBackward;
  /// Cores the ranks share: at most this many compute actions (F, B, W,
  /// an F&B pair) run at once, as pprt::WorldOptions::computeSlots makes
  /// the runtime run them when ranks outnumber cores; 0 (or >= numRanks):
  /// every rank has its own (see simulate()).
  int computeSlots = 0;

  int numStages() const { return static_cast<int>(stages.size()); }
  int rankOf(int stage) const { return stages[stage].rank; }

  /// A pipeline of `numRanks` ranks with one stage per rank (stage r on rank
  /// r), every stage with the given costs. Convenience for tests and benches.
  static PipelineModel uniform(int numRanks, double forwardTime,
                               double backwardInputTime,
                               double backwardWeightTime, int64_t stashBytes,
                               int64_t weightStashBytes = 0,
                               double latency = 0.0);
};

//===----------------------------------------------------------------------===//
// Schedules
//===----------------------------------------------------------------------===//

enum class ActionKind : uint8_t {
  Forward,        ///< F(stage, mb)
  Backward,       ///< fused backward (B and W) of (stage, mb)
  BackwardInput,  ///< B(stage, mb): gradient w.r.t. the stage input
  BackwardWeight, ///< W(stage, mb): gradient w.r.t. the stage parameters
  Send,           ///< send a payload to `peer`
  Recv,           ///< receive a payload from `peer`
};

/// What a Send/Recv carries.
enum class PayloadKind : uint8_t {
  Activation, ///< output of F(stage, mb), consumed by F(stage + 1, mb)
  Gradient,   ///< input gradient made by B(stage, mb) (or the fused
              ///< backward), consumed by the backward of (stage - 1, mb)
};

/// One action of a rank's program.
///
/// For Send and Recv, `stage` and `microbatch` name the action that *produced*
/// the payload (F(stage, mb) for an activation, B(stage, mb) for a gradient),
/// so a send and its recv carry the same (stage, microbatch, payload) key, and
/// `peer` is the rank at the other end.
struct Action {
  ActionKind kind = ActionKind::Forward;
  int stage = 0;
  int microbatch = 0;
  PayloadKind payload = PayloadKind::Activation; ///< Send/Recv only
  int peer = -1;                                 ///< Send/Recv only
  /// Forward only: this F runs overlapped with the next action of the rank,
  /// which must be a Backward or BackwardInput of another (stage,
  /// micro-batch), with no Send/Recv in between (DualPipe's "F&B" pair,
  /// DeepSeek-V3 report sec. 3.2.1). The pair is one unit: it starts when
  /// the rank is free and the inputs of both are there, and both end after F
  /// + B time (see simulate()); findDeadlock() and insertCommunication() treat
  /// it as one action too (the Recvs of either half come before it, the
  /// Sends after it).
  bool overlapWithNext = false;

  bool isCompute() const {
    return kind != ActionKind::Send && kind != ActionKind::Recv;
  }
  bool isComm() const { return !isCompute(); }
  bool operator==(const Action &o) const {
    return kind == o.kind && stage == o.stage && microbatch == o.microbatch &&
           overlapWithNext == o.overlapWithNext &&
           (isCompute() || (payload == o.payload && peer == o.peer));
  }
};

/// Per-rank programs. ranks[r] is the straight-line order of rank r.
struct Schedule {
  int numMicrobatches = 0;
  std::vector<std::vector<Action>> ranks;
};

/// True if program[index] starts an F&B pair: a Forward with
/// overlapWithNext directly followed by a Backward or BackwardInput. (A
/// Forward with overlapWithNext followed by anything else is an error that
/// checkSchedule() reports; the other functions then run it alone.)
inline bool startsOverlapPair(const std::vector<Action> &program,
                              size_t index) {
  if (index + 1 >= program.size())
    return false;
  const Action &first = program[index], &second = program[index + 1];
  return first.kind == ActionKind::Forward && first.overlapWithNext &&
         (second.kind == ActionKind::Backward ||
          second.kind == ActionKind::BackwardInput);
}

/// Short label: "F3", "B3", "W3" (fused backward is also "B3"),
/// "SEND_F3"/"RECV_B3" for communication (as in torch.distributed.pipelining).
std::string label(const Action &action);

/// Long name of an action, as used in diagnostics: "forward of stage 1
/// micro-batch 2", "backward of ..." (fused), "B of ...", "W of ...",
/// "send of activation of stage 0 micro-batch 1 to rank 1", "recv of gradient
/// of stage 2 micro-batch 0 from rank 2".
std::string describe(const Action &action);

/// Time `action` takes under `model`'s costs, microseconds: the stage's
/// forwardTime, backwardInputTime, backwardWeightTime or (fused backward)
/// backwardInputTime + backwardWeightTime; 0 for Send and Recv. Requires the
/// stage to be in range.
double actionTime(const PipelineModel &model, const Action &action);

//===----------------------------------------------------------------------===//
// Generators
//===----------------------------------------------------------------------===//

/// Stage placements: which rank runs which stage.
enum class Placement {
  Loop, ///< stage s on rank s mod P (Megatron-LM's interleaved placement)
  V,    ///< V = 2: rank r runs stages r and 2P - 1 - r (ZB-V, DualPipeV)
};

/// The rank of every stage of a pipeline of `numRanks` * `stagesPerRank`
/// stages under `placement`. Errors: numRanks < 1, stagesPerRank < 1, or
/// Placement::V with stagesPerRank != 2.
llvm::Expected<std::vector<int>> placeStages(Placement placement, int numRanks,
                                             int stagesPerRank);

/// True if every stage of `model` sits where `placement` puts it (and the
/// stage count is a multiple of the rank count).
bool hasPlacement(const PipelineModel &model, Placement placement);

/// What `auto` minimizes first. Ties: StepMakespan prefers a smaller
/// largest span (memory within the limit is the user's to spend), then less
/// peak memory; MaxRankSpan a smaller makespan, then less memory.
enum class AutoObjective : uint8_t {
  /// SimulationResult::makespan: one synchronous training step, time 0 to
  /// the last action of any rank. What pp-run's steps cost.
  StepMakespan,
  /// SimulationResult::maxRankSpan: one step when consecutive steps overlap
  /// (the zero-bubble paper's objective, Qi et al., ICLR 2024, appendix G).
  MaxRankSpan,
};

/// Whether the schedule named `name` places its stages in a V (two per
/// rank, stage s and 2P-1-s on rank s): zb-v, dualpipe-v, v-half, v-min.
bool isVShapedSchedule(llvm::StringRef name);

/// "step-makespan" or "max-rank-span" (pp-schedule's auto-objective).
llvm::StringRef autoObjectiveName(AutoObjective objective);
/// The objective autoObjectiveName() names `name`; std::nullopt for another
/// name.
std::optional<AutoObjective> parseAutoObjective(llvm::StringRef name);

/// Options of the schedule generators; each generator reads the ones it
/// documents and ignores the rest.
struct ScheduleOptions {
  /// interleaved-1f1b: micro-batch group size G, the number of consecutive
  /// micro-batches a rank runs on one model chunk before it moves to the
  /// next (Megatron-LM's microbatch_group_size_per_vp_stage). 0 means P.
  int groupSize = 0;
  /// Activation memory limit per rank, bytes (stashes alive at once, as
  /// simulate() counts them under the model's StashAccounting). 0 means no
  /// limit. `auto` returns the fastest schedule it finds within it; every
  /// other schedule is refused if its peak exceeds it, with a message saying
  /// on which rank and by how much (checkMemoryLimit()).
  int64_t memoryLimitBytes = 0;
  /// auto: what it minimizes.
  AutoObjective autoObjective = AutoObjective::StepMakespan;
  /// auto: wall-clock seconds the exact solver (a MIP solved by COIN-OR CBC,
  /// see docs/Schedules.md) may spend improving the best heuristic schedule
  /// and proving it optimal (StepMakespan only). 0 disables the solver. The
  /// solver only runs on instances with at most solverMaxActions compute
  /// actions and only when the heuristics do not already reach a lower
  /// bound.
  double solverTimeLimitSeconds = 1.0;
  /// auto: the largest number of compute actions (3 S M with split
  /// backwards) the exact solver is tried on.
  int solverMaxActions = 100;
  /// auto: rounds of local search (moving W's, swapping adjacent actions)
  /// on the best candidate under each objective; each round tries every move
  /// once. Deterministic.
  int localSearchRounds = 2;
};

/// One schedule generator of the registry (lib/Schedule/Generators.cpp).
struct ScheduleInfo {
  /// The name pp-schedule accepts, e.g. "1f1b".
  std::string name;
  /// One line for --help and reports, citing the source.
  std::string summary;
};

/// Every schedule buildSchedule() accepts, in the order reports list them.
std::vector<ScheduleInfo> schedules();

/// Names accepted by buildSchedule(), in registry order.
std::vector<std::string> scheduleNames();

/// Builds schedule `name` for `model` and `numMicrobatches`; see docs/
/// Schedules.md and each generator's comment for the orders and their
/// sources. Every generator accepts every M >= 1 and every P >= 1 its shape
/// allows (e.g. GPipe and 1F1B need one stage per rank; ZB-V and DualPipeV
/// the V placement); it refuses only what is impossible, with a message that
/// says why. Errors (llvm::StringError): unknown name (the message lists the
/// known names), numMicrobatches < 1, numRanks < 1, no stages, a stage on a
/// rank out of range, a shape the schedule cannot serve, or (every schedule
/// but "auto") options.memoryLimitBytes > 0 and a simulated peak above it
/// (see checkMemoryLimit()).
llvm::Expected<Schedule> buildSchedule(llvm::StringRef name,
                                       const PipelineModel &model,
                                       int numMicrobatches,
                                       const ScheduleOptions &options = {});

//===----------------------------------------------------------------------===//
// Checks
//===----------------------------------------------------------------------===//

/// A problem found in a schedule. `rank` and `index` locate the action
/// (index into Schedule::ranks[rank]); either may be -1 when the problem is
/// not tied to one action (e.g. an action that never runs).
struct Problem {
  int rank = -1;
  int index = -1;
  std::string message;
};

/// Structural checks, all of which a valid schedule passes:
/// - rank count equals model.numRanks; stage, micro-batch and peer in range;
/// - each action runs on the rank its stage is placed on (for Send/Recv: the
///   sender is the producing stage's rank, the receiver the consumer's);
/// - every (stage, mb) has exactly one F and either one fused backward or one
///   B and one W ("run twice" / "never run");
/// - on one rank, a backward comes after its forward and W after its B;
/// - every Send has exactly one Recv on the peer with the same key and
///   payload, and vice versa; a payload crossing ranks is sent and received
///   at most once and only between the producer's and consumer's ranks;
/// - overlapWithNext is set only on a Forward, and the action right after
///   it is a Backward or BackwardInput of another (stage, micro-batch): an
///   F&B pair "must be followed by a backward".
/// Messages are complete sentences naming stage, micro-batch and ranks.
std::vector<Problem> checkSchedule(const PipelineModel &model,
                                   const Schedule &schedule);

/// Result of executing a schedule with blocking (rendezvous) send/recv: a
/// Send completes only together with its matching Recv. Compute actions wait
/// for their inputs; an input from another rank with no explicit Recv (a
/// compute-only schedule) is available once its producer has run.
struct DeadlockReport {
  /// True if every action of every rank ran.
  bool completed = true;
  /// For each blocked rank: the rank, the index of the action it waits on,
  /// and a sentence saying what it waits for.
  std::vector<Problem> blocked;
};

/// Runs the schedule untimed with rendezvous semantics and reports whether it
/// can deadlock. An F&B pair is one unit: it runs once the inputs of both
/// halves are there (its B may not wait for its own F, nor for anything that
/// needs it). Requires checkSchedule() to pass.
DeadlockReport findDeadlock(const PipelineModel &model,
                            const Schedule &schedule);

/// Returns `schedule` (compute-only: no Send/Recv) with a Send after each
/// action whose output another rank needs and a Recv before it is needed.
/// Sends and receives are ordered consistently on all ranks (by one global
/// order taken from a simulation of the compute-only schedule), so the result
/// is deadlock-free under rendezvous semantics without relying on buffering.
/// Requires checkSchedule() to pass on the input.
Schedule insertCommunication(const PipelineModel &model,
                             const Schedule &schedule);

//===----------------------------------------------------------------------===//
// Simulation
//===----------------------------------------------------------------------===//

/// Start and end time of one action, microseconds. A Send starts and ends at
/// once; a Recv starts when its rank reaches it and ends when the payload is
/// there.
struct ActionTiming {
  double start = 0.0;
  double end = 0.0;
};

struct RankMetrics {
  /// Time the rank spends in compute actions, microseconds.
  double busyTime = 0.0;
  /// End time of the rank's last action (the rank starts at time 0).
  double endTime = 0.0;
  /// 1 - busyTime / makespan.
  double bubbleRate = 0.0;
  /// Start of the rank's first compute action and end of its last one,
  /// microseconds (0 and 0 for a rank without compute actions).
  double firstStart = 0.0;
  double lastEnd = 0.0;
  /// lastEnd - firstStart: the rank's span, from its first action to its
  /// last (the zero-bubble paper's per-stage "execution time", Qi et al.,
  /// ICLR 2024, sec. 5.3 and the ILP objective of appendix G).
  double span = 0.0;
  /// Peak bytes of stashes alive at once: F stashes M_B until its backward
  /// (B or fused); B stashes M_W until its W. A stash is alive from the start
  /// of the action that makes it to the end of the action that frees it, on
  /// the rank that runs them (so during a B both its M_B and its M_W count),
  /// unless the model counts StashAccounting::ConvertAtBackward (then B turns
  /// M_B into M_W when it starts).
  int64_t peakMemoryBytes = 0;
  /// peakMemoryBytes in units of M_B: divided by the largest stashBytes of
  /// the stages on this rank (0 if those are all 0).
  double peakMemoryInStashes = 0.0;
  /// Number of Send actions on this rank (explicit or, in a compute-only
  /// schedule, implied by cross-rank dependencies).
  int numSends = 0;
};

struct SimulationResult {
  /// Time from 0 until the last action of any rank ends, microseconds.
  double makespan = 0.0;
  /// Largest busy time of any rank (the ideal time of the busiest rank).
  double idealTime = 0.0;
  /// Bubble rate as in the zero-bubble paper (Qi et al., ICLR 2024, sec. 2):
  /// 1 - idealTime / makespan. With unit costs and S == P this is
  /// (P - 1) / (M + P - 1) for GPipe and 1F1B.
  double bubbleRate = 0.0;
  /// Bubble time relative to ideal time, Megatron-LM's form (Narayanan et
  /// al., SC'21, sec. 2.2): (makespan - idealTime) / idealTime; (P - 1) / M
  /// with unit costs.
  double bubbleOverIdeal = 0.0;
  /// The largest RankMetrics::span, microseconds: what one training step
  /// costs when consecutive steps overlap (each rank starts its next step as
  /// soon as it finished this one, the zero-bubble paper's post-validation
  /// setting, sec. 4), as opposed to `makespan`, the cost of a synchronous
  /// step (time 0 to the last action of any rank).
  double maxRankSpan = 0.0;
  /// The zero-bubble paper's bubble rate over per-stage spans (Qi et al.,
  /// ICLR 2024, sec. 5.3, Table 5): 1 - idealTime / maxRankSpan. Always <=
  /// bubbleRate.
  double spanBubbleRate = 0.0;
  std::vector<RankMetrics> ranks;
  /// timings[r][i] is the timing of schedule.ranks[r][i].
  std::vector<std::vector<ActionTiming>> timings;
};

/// Simulates the schedule under the model's costs.
///
/// Compute actions take their stage's cost. A Send is eager (takes no time,
/// never blocks); a Recv completes at max(now, time the payload was produced
/// + latency). In a compute-only schedule, an input produced on another rank
/// is available at producer end + latency; on the same rank at producer end.
///
/// An F&B pair (Action::overlapWithNext) runs as one unit: it starts when the
/// rank is free and the inputs of both the F and the B are there, and both
/// actions get the timing [start, start + time(F) + time(B)] (busy time
/// counts it once). The pair thus costs F + B: what DualPipe gains by
/// overlapping them is hiding the communication of one (the all-to-all of
/// expert parallelism, DeepSeek-V3 report sec. 3.2.1) behind the compute of
/// the other, and this model does not charge communication to compute. The
/// outputs of both are available at the end of the pair; memory counts the
/// F's stash and the B's weight stash from the start of the pair and frees
/// the B's stash at its end.
///
/// With computeSlots = K in [1, numRanks), a compute action also waits for
/// one of K slots (cores): among the actions whose rank and inputs are
/// ready, the one ready first takes the slot that frees first (ties: the
/// lower rank). The runtime's slots only approximate that order (a
/// semaphore or a condition variable wakes some waiter, not the first).
/// This is list scheduling on K machines (Graham, "Bounds on
/// multiprocessing timing anomalies", SIAM J. Appl. Math. 1969); with K =
/// 1 the step is at least the sum of all compute.
///
/// Requires checkSchedule() to pass and findDeadlock() to complete.
SimulationResult simulate(const PipelineModel &model, const Schedule &schedule);

//===----------------------------------------------------------------------===//
// Reports
//===----------------------------------------------------------------------===//

/// A data-parallel all-reduce of one rank for the Chrome trace and the
/// pictures: the stage whose gradients it sums, their bytes, and its
/// interval in microseconds (pp-simulate's sched::simulateDataParallel).
struct TraceSpan {
  int rank = 0, stage = 0;
  int64_t bytes = 0;
  double start = 0.0, end = 0.0;
};

/// ASCII timeline, one line per rank ("Rank 0: F0 F1 __ __ B1 B0"). Time is cut
/// into cells of the smallest positive action duration (or latency); each
/// action prints its label in its first cell and '-' in the rest; idle cells
/// print '_'. Every cell has the width of the longest label plus one space.
/// An F&B pair is drawn once, labelled "F3&B1". Micro-batches are 0-based, as
/// in the IR. Each rank with `allReduces` (data parallelism) gets a second
/// line under its own, "  AR 0:", with each all-reduce as "A<stage>" and
/// '=' for the rest of its cells, the timeline running to the last one's
/// end.
std::string renderTimeline(const PipelineModel &model, const Schedule &schedule,
                           const SimulationResult &result,
                           const std::vector<TraceSpan> &allReduces = {});

/// Per-rank text report: makespan, busy time, bubble rate, peak memory; then
/// the step makespan, ideal time, both bubble rates, the largest rank span,
/// and the lower bounds with the gap (renderBounds() of lowerBounds() with
/// this schedule's own peak as the memory limit: no schedule within the same
/// memory per rank can be faster than the bound).
std::string renderReport(const PipelineModel &model, const Schedule &schedule,
                         const SimulationResult &result);

/// The collectives of `spans`: a bucket's members, which follow one another
/// on their rank with one interval, are one collective of their stages
/// (in order) and their bytes together; any other span is one alone.
struct AllReduceInterval {
  int rank = 0;
  std::vector<int> stages;
  int64_t bytes = 0;
  double start = 0.0, end = 0.0;
};
std::vector<AllReduceInterval>
allReduceIntervals(const std::vector<TraceSpan> &spans);

/// Per rank (numRanks entries), the all-reduces of `spans` on it: their
/// time, microseconds (a bucket's members share one interval, counted
/// once), and when the last one ends (0 without any).
struct RankAllReduces {
  double time = 0.0, end = 0.0;
};
std::vector<RankAllReduces>
allReducesPerRank(const std::vector<TraceSpan> &spans, int numRanks);

/// Chrome trace JSON (the Trace Event Format, loads in Perfetto and
/// chrome://tracing): one complete ("X") event per compute action, pid 0,
/// tid = rank, ts/dur in microseconds, args {stage, microbatch}; then one
/// per entry of `allReduces`, named "ALLREDUCE_S<stage>" in category
/// "allreduce" (as pp-run's traces name them), pid 1 with a row (tid) per
/// (rank, stage), args {rank, stage, bytes}, and metadata events naming
/// the processes and rows.
std::string chromeTraceJSON(const PipelineModel &model,
                            const Schedule &schedule,
                            const SimulationResult &result,
                            const std::vector<TraceSpan> &allReduces = {});

/// Machine-readable metrics: {"num_ranks", "num_stages", "num_microbatches",
/// "makespan_us", "ideal_time_us", "bubble_rate", "bubble_over_ideal",
/// "max_rank_span_us", "span_bubble_rate", "ranks": [{"rank",
/// "busy_time_us", "end_time_us", "bubble_rate", "first_start_us", "span_us",
/// "peak_memory_bytes", "peak_memory_stashes", "num_sends"}]}. With
/// `allReduces` (data parallelism) also "step_with_allreduces_us" and per
/// rank "allreduce_time_us" and "end_with_allreduces_us"
/// (allReducesPerRank); with `allReducesAtEnd` (the same all-reduces
/// started after each rank's last action) "step_reduced_at_end_us".
std::string metricsJSON(const PipelineModel &model, const Schedule &schedule,
                        const SimulationResult &result,
                        const std::vector<TraceSpan> &allReduces = {},
                        const std::vector<TraceSpan> &allReducesAtEnd = {});

} // namespace mlir::pp::sched

#endif // PP_SCHEDULE_SCHEDULE_H
