//===- Transport.h - how messages move between ranks ------------*- C++ -*-===//

#ifndef PPRT_LIB_TRANSPORT_H
#define PPRT_LIB_TRANSPORT_H

#include "pprt/Runtime.h"

#include "Text.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
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

/// A message of pprt_send / pprt_recv: the other rank, the payload's key
/// (stage, micro-batch, kind) and its size.
struct Message {
  int peer;
  int64_t stage, microbatch, kind;
  int64_t bytes;
};
/// describeMessage() of `message`.
inline std::string describeMessage(const Message &message) {
  return describeMessage(message.kind, message.stage, message.microbatch);
}

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

/// The stages of one collective over the replicas (pprt_allreduce's
/// bucket): each a stage and the index of its trace event in rank.events.
/// Empty: every gradient no other collective of the step holds.
using ReplicaBucket = std::vector<std::pair<int64_t, size_t>>;

/// "stage 2", "stages 0, 2", or for an empty bucket "the remaining
/// gradients".
inline std::string replicaBucketName(const ReplicaBucket &bucket) {
  if (bucket.empty())
    return "the remaining gradients";
  std::string text = bucket.size() > 1 ? "stages " : "stage ";
  for (size_t i = 0; i < bucket.size(); ++i)
    text += (i ? ", " : "") + std::to_string(bucket[i].first);
  return text;
}

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
  /// pprt_allreduce after the common checks: starts summing the rank's
  /// gradients of the `bucket`'s stages over the replicas as one
  /// collective; each entry is a stage and the index in rank.events of its
  /// trace event. Default: nothing (the world sums the local replicas after
  /// the step; the events stay points).
  virtual void startReplicaReduce(pprt_rank &rank,
                                  const ReplicaBucket &bucket) {
    (void)rank;
    (void)bucket;
  }
  /// Whether the transport keeps WorldOptions::computeSlots itself (mpi:
  /// slots shared by the processes of a machine); then pprt_action_begin
  /// and pprt_action_end take and give them through acquireComputeSlot and
  /// releaseComputeSlot. Default: no (the step's in-process slots).
  virtual bool sharesComputeSlots() const { return false; }
  /// Waits for a free slot and takes it; false if the step failed meanwhile
  /// or the wait passed the step's timeout (then the step fails).
  virtual bool acquireComputeSlot(pprt_rank &rank) {
    (void)rank;
    return true;
  }
  virtual void releaseComputeSlot(pprt_rank &rank) { (void)rank; }
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

} // namespace detail
} // namespace pprt

#endif // PPRT_LIB_TRANSPORT_H
