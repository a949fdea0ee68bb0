//===- Internal.h - The runtime's shared internals -------------*- C++ -*-===//
//
// One step of a world is a StepContext: the failed flag and first error,
// the handles of the local ranks and, on inproc, the mailboxes. A rank's
// pprt_* calls see only their handle and its step, and check the failed
// flag before anything else, so a rank thread left running after a failed
// step (inproc) touches nothing but that step's context, which it keeps
// alive. A Transport moves messages and runs the step on its ranks.
//
//===----------------------------------------------------------------------===//

#ifndef PPRT_LIB_INTERNAL_H
#define PPRT_LIB_INTERNAL_H

#include "pprt/Runtime.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace pprt {
namespace detail {

using Clock = std::chrono::steady_clock;
/// (stage, index) of a parameter or gradient; (micro-batch, index) of an
/// input.
using Key2 = std::pair<int64_t, int64_t>;
using Program = std::function<void(int rank, pprt_rank *handle)>;

struct StepContext;

/// What a buffer of a rank program holds, as far as the runtime was told
/// (the class of its allocation header, see Memory.cpp).
enum class MemoryClass : int32_t {
  /// Not handed to the runtime: temporaries of stage functions, and
  /// results until they are.
  Other = 0,
  Stash,
  Activation,
  Parameter,
  Gradient,
};
constexpr int kMemoryClasses = 5;

/// One rank's live bytes by class and their peaks (MemoryPeaks). Written by
/// the rank's thread only (relaxed atomics: the launcher reads them after
/// the step, and a rank thread left running after a failure may still
/// write).
struct MemoryAccount {
  std::atomic<int64_t> live[kMemoryClasses] = {};
  std::atomic<int64_t> stashPeak{0}, activationPeak{0}, totalPeak{0},
      allocations{0};
  /// live[c] += bytes; updates the peaks.
  void add(MemoryClass c, int64_t bytes);
  MemoryPeaks peaks() const;
};

/// Charges the allocations of the calling thread to `account` while it
/// lives (runRank: the rank program's thread); null charges nothing.
class MemoryScope {
public:
  explicit MemoryScope(MemoryAccount *account);
  ~MemoryScope();
  MemoryScope(const MemoryScope &) = delete;
  MemoryScope &operator=(const MemoryScope &) = delete;

private:
  MemoryAccount *previous;
};

/// Moves the buffer that starts at `allocated` (the allocated pointer of a
/// memref descriptor) to class `c` if pprt_memory_alloc made it on this
/// thread's account; anything else (host memory of another allocator,
/// device memory) is left alone: nothing is read unless the calling
/// thread has an account.
void classifyBuffer(const void *allocated, MemoryClass c);

/// Memory peaks as doubles for transports that share results as numbers
/// (mpi, nccl): kPeakFields per rank, the stash account first.
constexpr int kPeakFields = 5;
void encodePeaks(const StepContext &step, int rank, double *fields);
void decodePeaks(StepContext &step, int rank, const double *fields);

/// A message of pprt_send / pprt_recv: the other rank, the payload's key
/// (stage, micro-batch, kind) and its size.
struct Message {
  int peer;
  int64_t stage, microbatch, kind;
  int64_t bytes;
};

/// "activation" or "gradient".
const char *kindName(int64_t kind);
/// "activation (stage 1, micro-batch 3)", "gradient part 1 (stage ...)":
/// a message for error texts.
std::string describeMessage(int64_t kind, int64_t stage, int64_t microbatch);
inline std::string describeMessage(const Message &message) {
  return describeMessage(message.kind, message.stage, message.microbatch);
}
/// "rank 3".
std::string rankName(int rank);
/// "forward of stage 1, micro-batch 3".
std::string describeAction(int64_t action, int64_t stage, int64_t microbatch);
/// "f32" or "f64".
const char *dtypeName(int64_t dtype);
/// Size of one element of `dtype` in bytes; 0 if it is not a pprt_dtype.
int64_t dtypeSize(int64_t dtype);
/// "forward", "backward", "backward_input", "backward_weight", "send",
/// "recv" (the trace categories of pp-simulate).
const char *actionCategory(pprt_action action);
/// Seconds as text without trailing zeros ("0.2", "60").
std::string formatSeconds(double seconds);
/// `seconds` from now.
inline Clock::time_point deadlineAfter(double seconds) {
  return Clock::now() + std::chrono::duration_cast<Clock::duration>(
                            std::chrono::duration<double>(seconds));
}
/// to += from (`bytes` bytes), elementwise in `dtype` (a pprt_dtype).
void addBuffer(std::vector<char> &to, const void *from, int64_t bytes,
               int64_t dtype);

/// Waits with a growing pause in a polling loop: spins first, then sleeps up
/// to 200 us.
class Backoff {
public:
  void pause() {
    if (++tries < 200) {
      std::this_thread::yield();
      return;
    }
    std::this_thread::sleep_for(std::chrono::microseconds(
        std::min<int64_t>(200, (tries - 200) / 10 + 1)));
  }

private:
  int64_t tries = 0;
};

/// Moves messages between ranks and runs a step on the local ranks.
class Transport {
public:
  virtual ~Transport();
  virtual std::vector<int> localRanks() const = 0;
  /// Runs `program` on every local rank of `step` and waits for them,
  /// sharing the results (losses, trace, stash peaks) so that every process
  /// has all of them. Called with step.ranks filled for the local ranks.
  virtual void runStep(const std::shared_ptr<StepContext> &step,
                       const Program &program) = 0;
  /// pprt_send / pprt_recv after the common checks (the step has not
  /// failed, the arguments are in range): `message.bytes` bytes at `data`.
  virtual void send(pprt_rank &rank, const Message &message,
                    const void *data) = 0;
  virtual void recv(pprt_rank &rank, const Message &message, void *data) = 0;
  virtual double allReduceMax(double value) = 0;
  /// Whether messages of `options`' layout (stages, boundaryParts, with
  /// microbatches) fit the transport; if not, sets `error` and returns
  /// false. Default: any layout fits (inproc and nccl match messages by
  /// their full key).
  virtual bool checkLayout(const WorldOptions &options, std::string &error) {
    (void)options;
    (void)error;
    return true;
  }
  /// Gathers `mine` (any size, possibly empty) from every process: the
  /// result holds one entry per process in the order of their ranks
  /// (inproc, one process: just `mine`). A collective, bounded by the
  /// timeout like allReduceMax; `step` (may be null) fails on timeout.
  virtual std::vector<std::vector<char>>
  allGatherBytes(const std::vector<char> &mine, StepContext *step) = 0;
  /// The bytes the first process (rank order) passes, on every process: a
  /// collective; the others' `mine` is ignored (inproc: `mine`). Waits at
  /// most `timeoutSeconds`, not the step timeout: the first process may be
  /// busy for long before it calls (measuring a plan), then fails naming
  /// `what`. Default: through allGatherBytes.
  virtual std::vector<char> bytesOfFirst(const std::vector<char> &mine,
                                         double timeoutSeconds,
                                         const std::string &what) {
    (void)timeoutSeconds;
    (void)what;
    std::vector<std::vector<char>> parts = allGatherBytes(mine, nullptr);
    return parts.empty() ? mine : parts.front();
  }
  /// Called by pprt_action_begin when `rank` starts a compute action (F, B,
  /// W, fused backward): the messages since the last compute action form
  /// one step of the schedule (the nccl transport issues them as one NCCL
  /// group). Default: nothing.
  virtual void computeBegins(pprt_rank &rank) { (void)rank; }
  /// pprt_allreduce after the common checks, with the rank's trace event
  /// of it at rank.events[event]: starts summing the rank's gradients of
  /// `stage` over the replicas. Default: nothing (the world sums the local
  /// replicas after the step; the event stays a point).
  virtual void startReplicaReduce(pprt_rank &rank, int64_t stage,
                                  size_t event) {
    (void)rank;
    (void)stage;
    (void)event;
  }
  /// Whether runStep leaves every local rank's gradients summed over the
  /// replicas (mpi). World::create refuses replicas in other processes on
  /// a transport that does not.
  virtual bool reducesReplicas() const { return false; }
  /// World::timeReplicaAllGather. Default: 0 (no transfer).
  virtual double timeReplicaAllGather(int64_t bytes, int repetitions) {
    (void)bytes;
    (void)repetitions;
    return 0.0;
  }
};

/// Runs `program` for `rank`, turning an exception into a failure of the
/// step, and checks that the rank closed its actions.
void runRank(StepContext &step, pprt_rank &rank, const Program &program);
/// A trace event as kTraceFields doubles, for transports that gather traces
/// as numbers (mpi, nccl): rank, action, stage, micro-batch, start, end,
/// kind, peer, cpu; and back.
constexpr int kTraceFields = 9;
void encodeTraceEvent(const TraceEvent &event, double *fields);
TraceEvent decodeTraceEvent(const double *fields);

/// Fills the step's results from its local ranks (remote ranks count as
/// nothing recorded).
void collectLocalResults(StepContext &step);

/// Copies `bytes` bytes between a rank program's buffer and host memory:
/// through options.deviceMemory when it is set, else memcpy. No-op for 0
/// bytes.
void copyToHost(pprt_rank &rank, void *hostDst, const void *programSrc,
                int64_t bytes);
void copyFromHost(pprt_rank &rank, void *programDst, const void *hostSrc,
                  int64_t bytes);

/// Makes a transport for World::create: null and `error` set on failure.
using TransportFactory = std::function<std::unique_ptr<Transport>(
    const WorldOptions &options, std::string &error)>;
/// Registers transport `name` for World::create (plugins call it, e.g. the
/// CUDA plugin's "nccl"). "inproc" and "mpi" are built in and cannot be
/// replaced (returns false); registering a name again replaces its factory.
/// Thread-safe.
bool registerTransport(const std::string &name, TransportFactory factory);
/// The names World::create accepts: inproc, mpi, then the registered ones
/// in the order they were first registered.
std::vector<std::string> knownTransports();

/// A transport that runs one rank per process (mpi, nccl): this process's
/// rank is its only local rank.
class ProcessTransport : public Transport {
public:
  ProcessTransport(const WorldOptions &options, int rank)
      : options(options), rank(rank) {}
  std::vector<int> localRanks() const final { return {rank}; }

protected:
  WorldOptions options;
  /// This process's rank.
  int rank;
};

std::unique_ptr<Transport> createInProcTransport(const WorldOptions &options);
/// Null and `error` set if MPI is missing, or the world size is not
/// options.ranks.
std::unique_ptr<Transport> createMpiTransport(const WorldOptions &options,
                                              std::string &error);

/// What a rank program reads: the world's parameters and inputs. Only read
/// while the step has not failed.
struct WorldData {
  std::map<Key2, Buffer> parameters;
  std::map<Key2, std::vector<char>> inputs;
  /// Uses of shared parameters, each to its rank's copy
  /// (World::shareParameter); a key not in it is its own copy.
  std::map<Key2, Key2> aliases;
  /// The key a parameter's value and gradient are kept under.
  Key2 copyOf(Key2 use) const {
    auto it = aliases.find(use);
    return it == aliases.end() ? use : it->second;
  }
};

/// One step of a world.
struct StepContext {
  WorldOptions options;
  /// Step number, from 1.
  int64_t step = 0;
  const WorldData *data = nullptr;
  Transport *transport = nullptr;
  /// Start of the step; trace times are seconds since it.
  Clock::time_point epoch;

  std::atomic<bool> failed{false};
  /// Guards error, failTime, finished and the waits on `changed`.
  std::mutex mutex;
  /// Notified when the step fails and when a rank finishes.
  std::condition_variable changed;
  std::string error;
  /// Set by a transport that detached rank threads still running.
  bool ranksLeftRunning = false;
  Clock::time_point failTime;
  int finished = 0;
  /// Called (once, outside `mutex`) after the first failure: inproc wakes
  /// the receives; mpi prints the error and aborts the job.
  std::function<void(const std::string &)> onFailure;

  /// The previous step's gradient sums by parameter, whose storage a rank's
  /// first gradient of that parameter this step is copied into
  /// (pprt_accumulate_gradient): the pages are already there, and a
  /// decoder stage's 55 MB of gradients no longer fault in every step.
  /// Guarded by recycledMutex.
  std::map<Key2, std::vector<char>> recycledGradients;
  std::mutex recycledMutex;

  /// Free compute slots (WorldOptions::computeSlots), guarded by
  /// slotMutex; slotFreed is notified when one is given back.
  int freeSlots = 0;
  std::mutex slotMutex;
  std::condition_variable slotFreed;

  /// The transport's own state for this step (inproc: the mailboxes).
  std::shared_ptr<void> transportData;

  /// Handles of the local ranks, indexed by rank (null for remote ranks).
  std::vector<std::unique_ptr<pprt_rank>> ranks;

  /// Results of the step over all ranks (Transport::runStep fills them):
  /// per micro-batch the sum and number of recorded losses, the trace
  /// sorted by rank and start, the stash peak of every rank.
  std::vector<double> lossSum, lossCount;
  std::vector<TraceEvent> trace;
  std::vector<int64_t> stashPeaks;
  std::vector<MemoryPeaks> memoryPeaks;

  /// Puts the step in the failed state with `message` unless it failed
  /// already (then `message` is dropped).
  void fail(const std::string &message);
  double now() const {
    return std::chrono::duration<double>(Clock::now() - epoch).count();
  }
};

} // namespace detail
} // namespace pprt

/// One rank's state in one step. Only its rank's thread touches it during
/// the step; the transport reads it after the rank finished.
struct pprt_rank {
  pprt::detail::StepContext *step = nullptr;
  int rank = 0;

  struct OpenAction {
    pprt_action action;
    int64_t stage, microbatch;
    double start, cpuStart;
    int64_t kind = -1, peer = -1;
    /// Holds a compute slot (WorldOptions::computeSlots) until it ends.
    bool holdsSlot = false;
  };
  std::vector<OpenAction> open;
  std::vector<pprt::TraceEvent> events;
  int64_t actionsBegun = 0;

  int64_t stash = 0, stashPeak = 0;
  /// The rank program's buffers as allocated (pprt_memory_alloc).
  pprt::detail::MemoryAccount memory;
  std::map<pprt::detail::Key2, pprt::Buffer> gradients;
  /// Per micro-batch: sum and number of the losses recorded.
  std::vector<double> lossSum, lossCount;
  /// Messages sent to / received from each rank (mpi checks them).
  std::vector<int64_t> sentTo, receivedFrom;
};

#endif // PPRT_LIB_INTERNAL_H
