//===- Runtime.h - the pp-mlir pipeline runtime, launcher API ---*- C++ -*-===//
//
// The launcher side of the runtime (pprt.h is the side rank programs call).
// A World is P ranks: threads of this process (transport "inproc") or one
// process per rank under mpirun (transport "mpi"). The launcher sets the
// parameters and, for every step, the micro-batch data; runs every local
// rank's program; then reads the losses, the accumulated gradients, the
// trace and the stash peaks, and applies SGD.
//
//===----------------------------------------------------------------------===//

#ifndef PPRT_RUNTIME_H
#define PPRT_RUNTIME_H

#include "pprt/pprt.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace pprt {
namespace detail {
struct StepContext;
} // namespace detail

/// A contiguous buffer and its element type (for parameters, gradients).
struct Buffer {
  std::vector<char> bytes;
  pprt_dtype dtype = PPRT_F32;
};

/// One action that ran, in seconds since the world's epoch (the start of
/// the step on inproc; MPI_Wtime aligned by a barrier on mpi).
struct TraceEvent {
  int rank;
  pprt_action action;
  int64_t stage, microbatch;
  double start, end;
  /// For PPRT_SEND / PPRT_RECV: the kind (pprt_kind) and the peer of the
  /// last pprt_send / pprt_recv made inside the action; -1 otherwise.
  int64_t kind = -1, peer = -1;
  /// Seconds of CPU time the rank's thread spent in the action
  /// (CLOCK_THREAD_CPUTIME_ID): its work without the time it waited for a
  /// core, when more threads than cores run. Work that other threads do
  /// for it (OpenBLAS threads beyond the first, a GPU) is not counted.
  double cpu = 0.0;
};

/// Makes one rank fail on purpose, for tests of failure handling. Set in
/// WorldOptions::fault or by the environment variable PPRT_FAULT, which
/// World::create reads and which wins over the options:
///   PPRT_FAULT="rank=1,action=3,mode=exit[,step=2]"
/// The fault fires on rank `rank` at its `action`-th pprt_action_begin
/// (counted from 1 in every step) of step `step` (counted from 1 over the
/// world's runStep calls; 0 = every step).
struct FaultInjection {
  enum class Mode {
    /// pprt_action_begin throws std::runtime_error, as if the rank program
    /// had thrown (the frames between must unwind: C++ programs, not
    /// generated code without unwind tables; use Fail for those).
    Throw,
    /// The rank fails with a "fault injection" error, without unwinding.
    Fail,
    /// The process exits with code 3 at once, without cleanup (mpi: a
    /// process that dies; inproc: the whole process ends).
    Exit,
    /// The process sends itself SIGKILL.
    Kill,
    /// The rank stops (sleeps) so that its peers time out: on inproc until
    /// the world fails; on either transport at most 10 timeouts, after which
    /// the rank fails the world itself.
    Hang
  };
  /// The rank that fails; -1 = no fault.
  int rank = -1;
  int64_t action = 1;
  int64_t step = 0;
  Mode mode = Mode::Throw;

  /// Parses "rank=R,action=N,mode=throw|fail|exit|kill|hang[,step=S]"
  /// (keys in any order; rank and mode required, action defaults to 1).
  /// Returns false and sets `error` if the text is malformed.
  static bool parse(const std::string &text, FaultInjection &fault,
                    std::string &error);
};

/// Measured timing of the last step, from the trace (all ranks, seconds).
/// Compute actions are PPRT_FORWARD, PPRT_BACKWARD, PPRT_BACKWARD_INPUT and
/// PPRT_BACKWARD_WEIGHT; they are not expected to nest.
///
/// The step spans from the earliest start of any traced action on any rank
/// to the latest end (`makespan`); pp-simulate's makespan likewise runs from
/// time 0, when every rank starts, to the end of the last action.
/// Bubble rates, as pp-simulate defines them (lib/Schedule/Simulator.cpp):
/// - rank r: 1 - busy[r] / makespan (RankMetrics::bubbleRate);
/// - `bubbleRate`: 1 - idealTime / makespan with idealTime = max_r busy[r],
///   the zero-bubble paper's rate (SimulationResult::bubbleRate);
/// - `meanBubbleRate`: 1 - sum_r busy[r] / (P * makespan), the mean of the
///   ranks' rates, i.e. the idle fraction of all P * makespan rank-seconds.
/// With balanced stages the two agree. All are 0 when makespan is 0.
struct StepTiming {
  /// Per rank: seconds spent in compute actions.
  std::vector<double> busy;
  /// Per rank: CPU seconds its thread spent in compute actions
  /// (TraceEvent::cpu).
  std::vector<double> cpuBusy;
  /// Per rank: end of its last traced action, seconds since the epoch (0 if
  /// the rank traced nothing).
  std::vector<double> end;
  /// Per rank: 1 - busy / makespan.
  std::vector<double> rankBubbleRate;
  double makespan = 0.0;
  double idealTime = 0.0;
  double bubbleRate = 0.0;
  double meanBubbleRate = 0.0;
};

/// One rank's peaks of live buffers in a step, in bytes, measured by the
/// allocator of the generated code (pprt_memory_alloc / pprt_memory_free,
/// pprt.h): a buffer counts from its allocation to its free, in the class
/// the rank program handed it to the runtime as. All zero when the rank
/// programs were not compiled with that allocator (the GPU path).
struct MemoryPeaks {
  /// F's activation stash and B's weight stash (pprt_memref_stash): what
  /// pp-simulate's "peak memory" (M_B, M_W) plans.
  int64_t stash = 0;
  /// Stash plus the activations and input gradients between stages (F's
  /// outputs, B's input gradients, received messages, micro-batch inputs,
  /// the loss seed).
  int64_t activations = 0;
  /// Every buffer the generated code allocates: the above plus the rank's
  /// parameters, its parameter gradients before they are accumulated and
  /// the temporaries inside stage functions.
  int64_t total = 0;
  /// Allocations charged to the rank (0: nothing was measured).
  int64_t allocations = 0;
};

/// How the runtime reaches the buffers of rank programs whose buffers live
/// in device (GPU) memory. When set, every pprt_* function that reads or
/// writes a rank program's buffer (pprt_input, pprt_parameter,
/// pprt_accumulate_gradient, pprt_loss, pprt_loss_seed, and the send and
/// receive of the inproc and mpi transports, which stage messages through
/// host memory) copies through these hooks instead of memcpy. Both hooks
/// must be synchronous: the copy is complete when they return. They run on
/// the rank's thread. A hook that cannot copy fails the rank itself (e.g.
/// pprt_fail on the handle it knows) and returns.
/// The CUDA plugin fills them (pprt::cuda::Device::fillDeviceMemory).
struct DeviceMemory {
  /// Copies `bytes` bytes from device address `deviceSrc` of `rank` into
  /// host memory at `hostDst`.
  std::function<void(int rank, void *hostDst, const void *deviceSrc,
                     int64_t bytes)>
      toHost;
  /// Copies `bytes` bytes from host memory at `hostSrc` to device address
  /// `deviceDst` of `rank`.
  std::function<void(int rank, void *deviceDst, const void *hostSrc,
                     int64_t bytes)>
      toDevice;
  /// True if the hooks are set (World::create requires both or neither).
  explicit operator bool() const { return toHost || toDevice; }
};

/// One use of a shared parameter: parameter `index` of stage `stage`, which
/// rank `rank` runs (World::shareParameter).
struct ParameterUse {
  int rank = 0;
  int64_t stage = 0, index = 0;
};

struct WorldOptions {
  /// Number of ranks (mpi: must equal the MPI world size): P * replicas.
  int ranks = 1;
  /// Data-parallel replicas D of the pipeline (docs/Runtime.md, "Data
  /// parallelism"): rank r runs pipeline rank r % P of replica r / P
  /// (replica-major; P = ranks / replicas). Rank programs name pipeline
  /// ranks and micro-batches 0 .. M-1 of their replica: a message to peer
  /// p goes to rank d*P + p of the same replica d, and micro-batch m of
  /// replica d is the step's micro-batch d*M + m (pprt_input, pprt_loss;
  /// the launcher sets and reads D*M micro-batches). The loss seed is
  /// 1 / (D*M), and after the step each parameter's gradient is summed
  /// over its D replicas in replica order (a collective on mpi), so every
  /// replica holds the gradient of the mean loss over all D*M
  /// micro-batches.
  int replicas = 1;
  /// "inproc", "mpi", or a transport a plugin registered
  /// (pprt::detail::registerTransport; the CUDA plugin registers "nccl").
  std::string transport = "inproc";
  /// Longest wait of any receive, in seconds; then the world fails.
  double timeoutSeconds = 60.0;
  /// Micro-batches per step M (the loss seed is 1/M); messages, inputs and
  /// losses name micro-batches 0 .. M-1.
  int64_t microbatches = 1;
  /// The message layout of the rank programs (pprt.h, pprt_kind): the most
  /// tensors one stage boundary carries in one direction. pprt_send and
  /// pprt_recv take kinds below 2 * boundaryParts (parts 0 .. boundaryParts
  /// - 1 of an activation or gradient) and refuse others. Any count >= 1;
  /// convert-pp-to-runtime records it on each rank program
  /// (pprt.boundary_parts) and pp-run sets it (World::setMessageLayout).
  /// The default, 16, is the fixed ceiling of earlier versions.
  int64_t boundaryParts = 16;
  /// Number of stages S of the rank programs; 0: not known. When known,
  /// pprt_send / pprt_recv refuse stages >= S, and the mpi transport checks
  /// up front that the tag of every (stage, micro-batch, kind) fits
  /// MPI_TAG_UB; otherwise it checks each message's tag when sent.
  int64_t stages = 0;
  /// At most this many ranks of this machine run a compute action (F, B,
  /// W: between pprt_action_begin and pprt_action_end) at once; 0: no
  /// limit. For ranks that outnumber the cores: a rank waits for a slot
  /// before its action starts, so an action's time is its work rather than
  /// its share of an oversubscribed core. In-process the slots are the
  /// process's; under mpi they are shared by the processes of one machine
  /// (a POSIX semaphore per node of MPI_COMM_TYPE_SHARED). A compute
  /// action waits for no other rank, so slots cannot deadlock; a wait
  /// longer than timeoutSeconds fails the step.
  int computeSlots = 0;
  /// A fault to inject (tests); PPRT_FAULT overrides it.
  FaultInjection fault;
  /// Unset: rank programs' buffers are host memory (memcpy). Set: they are
  /// device memory, reached through these hooks (see DeviceMemory).
  DeviceMemory deviceMemory;
};

/// Seconds per byte that adding one gradient into another takes on this
/// machine, as pprt_accumulate_gradient does after every W for each
/// parameter (f32, 32 MiB buffers out of cache: two reads and a write per
/// element): the median of five runs of that addition, measured once per
/// process. Planners count it into W (55 MB take about 14 ms on a 2-core
/// EPYC VM).
double gradientAccumulationSeconds();

class World {
public:
  virtual ~World();

  /// Creates a world; on failure returns null and sets `error`. The mpi
  /// transport calls MPI_Init (if needed) and checks the world size.
  static std::unique_ptr<World> create(const WorldOptions &options,
                                       std::string &error);

  const WorldOptions &options() const;
  /// Sets WorldOptions::stages and WorldOptions::boundaryParts for the
  /// steps to come, for launchers that create the world before they know
  /// the rank programs (pp-run: MPI_Init comes first). Returns false, sets
  /// `error` and changes nothing if the layout is invalid (boundaryParts <
  /// 1, stages < 0) or the transport cannot carry it (mpi: the largest tag,
  /// S * M * 2 * boundaryParts - 1, exceeds MPI_TAG_UB). World::create
  /// checks the options' layout the same way.
  bool setMessageLayout(int64_t stages, int64_t boundaryParts,
                        std::string &error);
  /// The ranks this process runs: all of them (inproc) or its own (mpi).
  virtual std::vector<int> localRanks() const = 0;
  /// The pipeline ranks (rank % P, WorldOptions::replicas) of localRanks(),
  /// ascending, each once: the stages whose parameters and gradients this
  /// process holds.
  std::vector<int> localPipelineRanks() const;

  /// Sets the value of parameter `index` of stage `stage`.
  void setParameter(int64_t stage, int64_t index, Buffer value);
  /// The parameter's value (an empty f32 buffer if it was never set).
  const Buffer &parameter(int64_t stage, int64_t index) const;
  /// The parameter's value to update in place between steps (the
  /// launcher's optimizer), or null if it was never set. Uses that share a
  /// copy (shareParameter, on one rank) give the same buffer.
  Buffer *mutableParameter(int64_t stage, int64_t index);
  /// Declares that `uses` read one parameter (tied embeddings, a weight a
  /// model applies twice). Every rank that uses it keeps one copy: its
  /// uses alias the copy of the first of them (in the order given), so that
  /// setParameter, parameter, gradient and the rank programs' pprt_parameter
  /// and pprt_accumulate_gradient of any of them reach that copy, and the
  /// rank's stages add their gradients into one buffer in the order they
  /// run. After every step the copies' gradients are summed in ascending
  /// rank order (mpi, nccl: gathered from every process, a collective) and
  /// every copy gets the sum, so sgdStep gives every copy the same update
  /// and the copies never drift. Call it on every process with the same
  /// groups in the same order, before the first step; a value already set
  /// for a use moves to its rank's copy; declaring the same group again
  /// (the same uses in the same order) does nothing. Returns false and sets
  /// `error` for fewer than 2 uses, a rank outside [0, ranks), or a use
  /// that is already in another group.
  bool shareParameter(const std::vector<ParameterUse> &uses,
                      std::string &error);
  /// Whether every copy of every shared parameter holds the same bytes
  /// (compared by a 64-bit FNV-1a hash of each copy, gathered from every
  /// process on mpi and nccl: a collective). If not, returns false with
  /// `error` naming the parameter and the first rank whose copy differs
  /// from the lowest rank's.
  bool sharedCopiesEqual(std::string &error);
  /// The bytes the process that holds rank 0 passes, on every process: a
  /// collective every process must call (mpi: a broadcast; nccl: gathered
  /// from every process; inproc returns `mine`). What the other processes
  /// pass is ignored. They wait at most `timeoutSeconds` (not the step
  /// timeout: rank 0 may measure for minutes first), then the job fails
  /// naming `what` ("rank 1 timed out after ... waiting for <what>").
  /// pp-run shares the measured plan this way (docs/Runtime.md).
  std::vector<char> bytesOfRankZero(const std::vector<char> &mine,
                                    double timeoutSeconds,
                                    const std::string &what);
  /// `mine` from every process, one entry per process in rank order
  /// (inproc: just `mine`): a collective every process must call, bounded
  /// by the timeout. pp-run gathers the gradients' sums of squares this way
  /// for --clip-grad-norm.
  std::vector<std::vector<char>> allGather(const std::vector<char> &mine);
  /// Seconds one all-gather of `bytes` bytes per replica takes among the
  /// replicas of this process's pipeline rank (the collective pprt_allreduce
  /// starts), the median of `repetitions` after a warm-up, the slowest
  /// process's; a collective of every process. Every pipeline rank's
  /// replicas gather at once, non-blocking and polled as in a step (the
  /// link as the step's all-reduces find it, cores shared included).
  /// 0 where the replicas share a process (inproc: no transfer) or there
  /// is one replica.
  double timeReplicaAllGather(int64_t bytes, int repetitions);
  /// Sets data argument `index` of micro-batch `microbatch` for this step.
  void setInput(int64_t microbatch, int64_t index, std::vector<char> bytes);

  /// Runs `program` once for every local rank (inproc: one thread each)
  /// and waits for all. Returns false if any rank failed (a pprt error, an
  /// exception thrown by `program`, a peer process that vanished), with
  /// `error()` describing the first failure; never waits longer than the
  /// timeout after a failure. Clears losses, gradients, trace and stash
  /// peaks first. After the ranks finish, sums the gradients of shared
  /// parameters over their ranks (shareParameter; a collective on mpi and
  /// nccl); copies whose gradients differ in size or dtype fail the step.
  ///
  /// inproc: a rank thread that has not returned one timeout after the
  /// failure is detached (left running; its pprt_* calls return at once)
  /// and error() says so.
  /// mpi: the step starts and ends with collectives (aligning the epoch;
  /// sharing losses, trace and stash peaks; checking that every message
  /// sent was received), each also bounded by the timeout. A failure does
  /// not return: the process that sees it prints "pprt: error: <message>"
  /// to stderr, flushes it and calls MPI_Abort(MPI_COMM_WORLD, 1), so the
  /// job ends with exit code 1 and mpirun tears down the other processes
  /// (a process whose peer died could not do the collectives with it).
  /// A process that dies makes its peers time out, or mpirun ends the job.
  ///
  /// Not to be called concurrently with itself or the setters.
  bool runStep(const std::function<void(int rank, pprt_rank *handle)> &program);
  /// The first failure of the last step ("" if none).
  std::string error() const;
  /// Whether a failed step left rank threads running (inproc; see runStep).
  /// They may still execute the step's program and the code it calls, so
  /// nothing that program uses may be destroyed: the caller should end the
  /// process (pp-run prints the error and calls std::_Exit(1)).
  bool ranksLeftRunning() const;

  /// Losses of the last step by micro-batch, on every process (mpi: shared
  /// by the ranks that computed them). NaN where no rank recorded one.
  std::vector<double> losses() const;
  /// Accumulated gradient of a parameter of a local stage (null if none);
  /// for a shared parameter, the sum over every rank that uses it.
  const Buffer *gradient(int64_t stage, int64_t index) const;
  /// param -= learningRate * gradient, for every parameter with a gradient
  /// (computed in the parameter's dtype). pprt_accumulate_gradient checks
  /// that a gradient matches its parameter's size and dtype; a parameter
  /// that setParameter changed since is skipped.
  void sgdStep(double learningRate);

  /// The actions of the last step on every rank (mpi: gathered on every
  /// process), and as Chrome trace JSON in pp-simulate's shape.
  std::vector<TraceEvent> trace() const;
  std::string chromeTraceJson() const;
  /// Peak stash bytes of each rank in the last step (pprt_stash).
  std::vector<int64_t> stashPeaks() const;
  /// Measured peaks of live buffers of each rank in the last step (see
  /// MemoryPeaks; mpi: gathered on every process).
  std::vector<MemoryPeaks> memoryPeaks() const;
  /// Busy time, makespan and bubble rates of the last step (see StepTiming);
  /// on mpi the same on every process.
  StepTiming stepTiming() const;

  /// For tests: the maximum of `value` over all processes (inproc: itself;
  /// mpi: bounded by the timeout like any collective).
  virtual double allReduceMax(double value) = 0;

protected:
  explicit World(WorldOptions options);
  /// After a step: sums the gradients of shared parameters over their
  /// ranks (see shareParameter); returns an error message or "".
  std::string reduceSharedGradients(detail::StepContext *step);
  struct State;
  std::unique_ptr<State> state;
};

} // namespace pprt

#endif // PPRT_RUNTIME_H
