//===- Step.h - one step of a world -----------------------------*- C++ -*-===//
//
// One step of a world is a StepContext: the failed flag and first error,
// the handles of the local ranks and, on inproc, the mailboxes. A rank's
// pprt_* calls see only their handle and its step, and check the failed
// flag before anything else, so a rank thread left running after a failed
// step (inproc) touches nothing but that step's context, which it keeps
// alive. A Transport moves messages and runs the step on its ranks.
//
//===----------------------------------------------------------------------===//

#ifndef PPRT_LIB_STEP_H
#define PPRT_LIB_STEP_H

#include "pprt/Runtime.h"

#include "Memory.h"
#include "Text.h"
#include "Transport.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace pprt {
namespace detail {

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
  /// pprt_allreduce calls that joined a bucket no call has started yet:
  /// the stage and the index of its trace event.
  pprt::detail::ReplicaBucket openBucket;

  int64_t stash = 0, stashPeak = 0;
  /// The rank program's buffers as allocated (pprt_memory_alloc).
  pprt::detail::MemoryAccount memory;
  std::map<pprt::detail::Key2, pprt::Buffer> gradients;
  /// Per micro-batch: sum and number of the losses recorded.
  std::vector<double> lossSum, lossCount;
  /// Messages sent to / received from each rank (mpi checks them).
  std::vector<int64_t> sentTo, receivedFrom;
};

#endif // PPRT_LIB_STEP_H
