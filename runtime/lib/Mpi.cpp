//===- Mpi.cpp - The mpi transport: one process per rank ------------------===//
//
// Every process of `mpirun -np P` is one rank. Messages are MPI messages on
// MPI_COMM_WORLD whose tag encodes (stage, micro-batch, kind) as
// (stage * M + micro-batch) * 2K + kind, with K the world's boundaryParts
// (kinds are below 2K). With the number of stages S known, the world
// checks up front that the largest tag, S * M * 2K - 1, fits MPI_TAG_UB;
// otherwise each send and receive checks its own tag. A send copies the payload
// and starts an MPI_Isend; the pending sends are tested at every later send or
// receive and completed at the end of the step. A receive polls MPI_Iprobe
// until the message is there or the timeout passes, checks its size, then
// MPI_Recv's it. Collectives (the epoch barrier, the sharing of results)
// are the non-blocking MPI-3 ones, polled with the same timeout, so a
// process whose peer hangs or died does not wait forever.
//
// Failure: a process cannot tell its peers that it failed once they may be
// blocked on it, and it cannot do collectives with a peer that died. So the
// first failure a process sees (timeout, size mismatch, an exception of its
// rank program, unmatched messages) prints "pprt: error: <message>" to
// stderr, flushes it and calls MPI_Abort(MPI_COMM_WORLD, 1): the job ends
// with exit code 1 and mpirun kills the other processes.
//
//===----------------------------------------------------------------------===//

#include "Step.h"

#ifdef PPRT_HAVE_MPI

#include <mpi.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <semaphore.h>
#include <unistd.h>

using namespace pprt;
using namespace pprt::detail;

namespace {

/// Finalizes MPI at exit if the runtime initialized it (a process that ends
/// without MPI_Finalize makes mpirun report a failure).
struct MpiFinalizer {
  bool initializedHere = false;
  ~MpiFinalizer() {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (initializedHere && !finalized)
      MPI_Finalize();
  }
};

MpiFinalizer &finalizer() {
  static MpiFinalizer instance;
  return instance;
}

[[noreturn]] void abortJob(const std::string &message) {
  std::fprintf(stderr, "pprt: error: %s\n", message.c_str());
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, 1);
  _exit(1);
}

class MpiTransport final : public ProcessTransport {
public:
  MpiTransport(const WorldOptions &options, int rank, int tagUpperBound,
               MPI_Comm replicaComm, sem_t *slots)
      : ProcessTransport(options, rank), tagUpperBound(tagUpperBound),
        replicaComm(replicaComm), slots(slots) {}
  ~MpiTransport() override {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (replicaComm != MPI_COMM_NULL && !finalized)
      MPI_Comm_free(&replicaComm);
    if (slots != SEM_FAILED)
      sem_close(slots);
  }

  bool sharesComputeSlots() const override { return slots != SEM_FAILED; }
  bool acquireComputeSlot(pprt_rank &rank) override;
  void releaseComputeSlot(pprt_rank &) override { sem_post(slots); }

  void runStep(const std::shared_ptr<StepContext> &step,
               const Program &program) override;
  void send(pprt_rank &rank, const Message &message, const void *data) override;
  void recv(pprt_rank &rank, const Message &message, void *data) override;
  double allReduceMax(double value) override;
  bool checkLayout(const WorldOptions &layout, std::string &error) override;
  std::vector<std::vector<char>> allGatherBytes(const std::vector<char> &mine,
                                                StepContext *step) override;
  std::vector<char> bytesOfFirst(const std::vector<char> &mine,
                                 double timeoutSeconds,
                                 const std::string &what) override;
  void startReplicaReduce(pprt_rank &rank,
                          const ReplicaBucket &bucket) override {
    startReduce(rank, bucket);
  }
  bool reducesReplicas() const override { return options.replicas > 1; }
  double timeReplicaAllGather(int64_t bytes, int repetitions) override;

private:
  /// An all-gather of the gradients of a bucket of stages among the
  /// replicas, started by pprt_allreduce (or at the end of the step for
  /// the stages without one).
  struct ReplicaReduce {
    /// The bucket's stages and the rank.events index of each one's trace
    /// event; empty: every gradient no other reduce holds.
    ReplicaBucket bucket;
    /// The gradients' keys, dtypes and sizes, in key order, as packed.
    std::vector<std::pair<Key2, Buffer>> layout;
    std::vector<char> sent, gathered;
    MPI_Request request;
  };
  /// Starts the all-gather of `rank`'s gradients of the `bucket`'s stages
  /// (empty: all the others).
  void startReduce(pprt_rank &rank, const ReplicaBucket &bucket);
  /// Completes every started all-gather (and starts those of the stages no
  /// pprt_allreduce started, in stage order), summing each gradient over
  /// the replicas in replica order into the rank's gradients.
  void finishReplicaReduces(StepContext &step, pprt_rank &rank);
  std::vector<ReplicaReduce> reduces;

  struct PendingSend {
    MPI_Request request;
    std::vector<char> payload;
  };

  /// The tag of the message's (stage, micro-batch, kind); -1 (and the step
  /// failed) if it exceeds MPI_TAG_UB.
  int tagOf(StepContext &step, const Message &message);
  /// Tests the pending sends and drops the completed ones.
  void progress();
  /// Waits for `request` at most `seconds` (negative: the timeout); then
  /// fails with "timed out ... waiting for <what>" (the step's, or aborts
  /// outside a step).
  void wait(MPI_Request &request, StepContext *step, const std::string &what,
            double seconds = -1);
  [[noreturn]] void timeout(StepContext *step, const std::string &what,
                            double seconds);

  int tagUpperBound;
  /// The D processes of this pipeline rank, ordered by replica (null
  /// without replicas).
  MPI_Comm replicaComm;
  /// The compute slots of this machine's processes (WorldOptions::
  /// computeSlots), or SEM_FAILED: none.
  sem_t *slots;
  std::vector<PendingSend> pending;
};

bool MpiTransport::checkLayout(const WorldOptions &layout, std::string &error) {
  if (layout.stages == 0)
    return true; // checked per message
  // Tags 0 .. S * M * 2K - 1 must be <= MPI_TAG_UB, i.e. S * M * 2K <= n
  // with n = MPI_TAG_UB + 1, compared step by step without overflow
  // (K <= 2^30, n <= 2^31).
  int64_t n = static_cast<int64_t>(tagUpperBound) + 1;
  bool fits =
      layout.microbatches <= n &&
      layout.microbatches * 2 * layout.boundaryParts <= n &&
      layout.stages <= n / (layout.microbatches * 2 * layout.boundaryParts);
  if (!fits) {
    error = "transport mpi: the tags of " + std::to_string(layout.stages) +
            " stages x " + std::to_string(layout.microbatches) +
            " micro-batches x " + std::to_string(2 * layout.boundaryParts) +
            " kinds (" + std::to_string(layout.boundaryParts) +
            " tensors per stage boundary and direction) exceed MPI_TAG_UB (" +
            std::to_string(tagUpperBound) +
            "): use fewer micro-batches or stages, or fewer tensors per "
            "boundary";
    return false;
  }
  return true;
}

int MpiTransport::tagOf(StepContext &step, const Message &message) {
  int64_t stage = message.stage, microbatch = message.microbatch;
  int64_t kinds = 2 * step.options.boundaryParts;
  int64_t microbatches = step.options.microbatches;
  // The checks of pprt_send / pprt_recv bound microbatch and kind; a stage
  // beyond this bound would overflow (and exceed any MPI_TAG_UB).
  bool overflows = stage > (INT64_MAX / 2 / kinds) / microbatches;
  int64_t tag =
      overflows ? 0
                : (stage * microbatches + microbatch) * kinds + message.kind;
  if (overflows || tag > tagUpperBound) {
    step.fail("rank " + std::to_string(rank) + ": the MPI tag of stage " +
              std::to_string(stage) + ", micro-batch " +
              std::to_string(microbatch) + " exceeds MPI_TAG_UB (" +
              std::to_string(tagUpperBound) + ")");
    return -1;
  }
  return static_cast<int>(tag);
}

void MpiTransport::progress() {
  pending.erase(std::remove_if(pending.begin(), pending.end(),
                               [](PendingSend &send) {
                                 int done = 0;
                                 MPI_Test(&send.request, &done,
                                          MPI_STATUS_IGNORE);
                                 return done != 0;
                               }),
                pending.end());
}

void MpiTransport::timeout(StepContext *step, const std::string &what,
                           double seconds) {
  std::string message = "rank " + std::to_string(rank) + " timed out after " +
                        formatSeconds(seconds) + " s waiting for " + what;
  if (step)
    step->fail(message);
  abortJob(message);
}

double MpiTransport::timeReplicaAllGather(int64_t bytes, int repetitions) {
  if (replicaComm == MPI_COMM_NULL || bytes < 0 || bytes > INT_MAX / 2)
    return 0.0;
  std::vector<char> sent(bytes), gathered(bytes * options.replicas);
  std::vector<double> times;
  // Every pipeline rank's replicas at once, each through MPI_Iallgather and
  // wait() as pprt_allreduce's all-gathers run at the end of a step: the
  // link as the step finds it, shared by the stages' collectives (and, with
  // more processes than cores, by the time-sliced cores and the polling
  // that makes a non-blocking collective progress).
  MPI_Request request;
  for (int i = 0; i <= std::max(1, repetitions); ++i) {
    MPI_Ibarrier(MPI_COMM_WORLD, &request);
    wait(request, nullptr, "the other processes to time all-gathers");
    double start = MPI_Wtime();
    MPI_Iallgather(sent.data(), static_cast<int>(bytes), MPI_BYTE,
                   gathered.data(), static_cast<int>(bytes), MPI_BYTE,
                   replicaComm, &request);
    wait(request, nullptr, "the replicas to time an all-gather");
    if (i > 0) // the first warms up
      times.push_back(MPI_Wtime() - start);
  }
  // Each process's median (a typical all-gather, not the least disturbed
  // one), the slowest process's: every process gets the same figure.
  std::sort(times.begin(), times.end());
  double typical = times[times.size() / 2];
  double slowest = typical;
  MPI_Iallreduce(&typical, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD,
                 &request);
  wait(request, nullptr, "the other processes to time all-gathers");
  return slowest;
}

bool MpiTransport::acquireComputeSlot(pprt_rank &rank) {
  StepContext &step = *rank.step;
  Clock::time_point deadline = deadlineAfter(options.timeoutSeconds);
  for (;;) {
    // Wakes up now and then to see whether the step failed.
    timespec until{};
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_nsec += 20 * 1000 * 1000;
    if (until.tv_nsec >= 1000 * 1000 * 1000) {
      until.tv_nsec -= 1000 * 1000 * 1000;
      ++until.tv_sec;
    }
    if (sem_timedwait(slots, &until) == 0)
      return true;
    int waitError = errno;
    if (waitError != ETIMEDOUT && waitError != EINTR)
      abortJob(rankName(rank.rank) +
               ": waiting for a compute slot: " + std::strerror(waitError));
    progress(); // the sends already posted keep moving
    if (step.failed)
      return false;
    if (Clock::now() >= deadline)
      timeout(&step, "a compute slot", options.timeoutSeconds);
  }
}

/// The compute slots shared by the processes of this machine: the first
/// process of each node (MPI_COMM_TYPE_SHARED) creates a named POSIX
/// semaphore of its `count` (none if its count is 0: the node's processes
/// do not outnumber its cores), the others open it, and once all have it
/// the name is removed (the semaphore lives while it is open). A
/// collective of every process, called by all when any wants slots (a
/// count decided per machine must not leave another machine's processes
/// out of the split). SEM_FAILED without slots, or with `error` set if a
/// process of the node could not share them.
static sem_t *openComputeSlots(int count, std::string &error) {
  int worldRank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &worldRank);
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, worldRank,
                      MPI_INFO_NULL, &node);
  int nodeRank = 0;
  MPI_Comm_rank(node, &nodeRank);
  // name[0] == 0: no slots on this node; the last int: the first process's
  // errno when it could not create them.
  struct {
    char name[64];
    int error;
  } shared{};
  sem_t *slots = SEM_FAILED;
  if (nodeRank == 0 && count > 0) {
    timespec now{};
    clock_gettime(CLOCK_REALTIME, &now);
    std::snprintf(shared.name, sizeof(shared.name), "/pprt-slots-%d-%lld",
                  static_cast<int>(getpid()),
                  static_cast<long long>(now.tv_sec) * 1000000000LL +
                      now.tv_nsec);
    slots = sem_open(shared.name, O_CREAT | O_EXCL, 0600, count);
    if (slots == SEM_FAILED)
      shared.error = errno;
  }
  MPI_Bcast(&shared, sizeof(shared), MPI_BYTE, 0, node);
  bool wanted = shared.name[0] != 0;
  int openError = shared.error;
  if (wanted && nodeRank != 0 && !shared.error) {
    slots = sem_open(shared.name, 0);
    if (slots == SEM_FAILED)
      openError = errno;
  }
  int mine = !wanted || slots != SEM_FAILED ? 1 : 0, all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, node);
  if (wanted && nodeRank == 0 && !shared.error)
    sem_unlink(shared.name);
  MPI_Comm_free(&node);
  if (all)
    return slots;
  if (slots != SEM_FAILED)
    sem_close(slots);
  error = "transport mpi: the processes of a machine could not share " +
          std::to_string(count) + " compute slot(s) (a POSIX semaphore" +
          (openError ? std::string(": ") + std::strerror(openError) : "") + ")";
  return SEM_FAILED;
}

void MpiTransport::wait(MPI_Request &request, StepContext *step,
                        const std::string &what, double seconds) {
  if (seconds < 0)
    seconds = options.timeoutSeconds;
  Clock::time_point deadline = deadlineAfter(seconds);
  Backoff backoff;
  for (;;) {
    int done = 0;
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    if (done)
      return;
    progress();
    if (Clock::now() > deadline)
      timeout(step, what, seconds);
    backoff.pause();
  }
}

void MpiTransport::send(pprt_rank &handle, const Message &message,
                        const void *data) {
  StepContext &step = *handle.step;
  int tag = tagOf(step, message);
  if (tag < 0)
    return;
  int64_t bytes = message.bytes;
  if (bytes > INT_MAX) {
    step.fail("rank " + std::to_string(rank) + ": a message of " +
              std::to_string(bytes) +
              " bytes is too large for the mpi "
              "transport (at most INT_MAX bytes)");
    return;
  }
  progress();
  PendingSend send;
  send.payload.resize(static_cast<size_t>(bytes));
  copyToHost(handle, send.payload.data(), data, bytes);
  if (step.failed.load())
    return;
  MPI_Isend(send.payload.data(), static_cast<int>(bytes), MPI_BYTE,
            message.peer, tag, MPI_COMM_WORLD, &send.request);
  // Moving the vector keeps its buffer where MPI_Isend was told it is.
  pending.push_back(std::move(send));
}

void MpiTransport::recv(pprt_rank &handle, const Message &message, void *data) {
  StepContext &step = *handle.step;
  int tag = tagOf(step, message);
  if (tag < 0)
    return;
  int peer = message.peer;
  int64_t bytes = message.bytes;
  std::string what = describeMessage(message);
  Clock::time_point deadline = deadlineAfter(options.timeoutSeconds);
  Backoff backoff;
  MPI_Status status;
  for (;;) {
    int arrived = 0;
    MPI_Iprobe(peer, tag, MPI_COMM_WORLD, &arrived, &status);
    if (arrived)
      break;
    progress();
    if (Clock::now() > deadline)
      timeout(&step, what + " from rank " + std::to_string(peer),
              options.timeoutSeconds);
    backoff.pause();
  }
  int count = 0;
  MPI_Get_count(&status, MPI_BYTE, &count);
  if (count != bytes) {
    step.fail("rank " + std::to_string(rank) + " expected " +
              std::to_string(bytes) + " bytes of " + what + " from rank " +
              std::to_string(peer) + ", which sent " + std::to_string(count) +
              " bytes");
    return;
  }
  if (!options.deviceMemory) {
    MPI_Recv(data, count, MPI_BYTE, peer, tag, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
    return;
  }
  // Device memory: receive into host memory, then copy.
  std::vector<char> payload(static_cast<size_t>(count));
  MPI_Recv(payload.data(), count, MPI_BYTE, peer, tag, MPI_COMM_WORLD,
           MPI_STATUS_IGNORE);
  copyFromHost(handle, data, payload.data(), bytes);
}

double MpiTransport::allReduceMax(double value) {
  double result = value;
  MPI_Request request;
  MPI_Iallreduce(&value, &result, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD,
                 &request);
  wait(request, nullptr, "the other processes in allReduceMax");
  return result;
}

std::vector<std::vector<char>>
MpiTransport::allGatherBytes(const std::vector<char> &mine, StepContext *step) {
  int numRanks = options.ranks;
  if (mine.size() > INT_MAX)
    abortJob("rank " + std::to_string(rank) + ": " +
             std::to_string(mine.size()) + " bytes to gather exceed INT_MAX");
  int count = static_cast<int>(mine.size());
  std::vector<int> counts(numRanks, 0), displacements(numRanks, 0);
  MPI_Request request;
  MPI_Iallgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, MPI_COMM_WORLD,
                 &request);
  wait(request, step, "the other processes to gather shared gradients");
  int64_t total = 0;
  for (int r = 0; r < numRanks; ++r) {
    if (total > INT_MAX)
      abortJob("rank " + std::to_string(rank) +
               ": the shared gradients to gather exceed INT_MAX bytes");
    displacements[r] = static_cast<int>(total);
    total += counts[r];
  }
  std::vector<char> all(static_cast<size_t>(total));
  MPI_Iallgatherv(mine.data(), count, MPI_BYTE, all.data(), counts.data(),
                  displacements.data(), MPI_BYTE, MPI_COMM_WORLD, &request);
  wait(request, step, "the other processes to gather shared gradients");
  std::vector<std::vector<char>> parts(numRanks);
  for (int r = 0; r < numRanks; ++r)
    parts[r].assign(all.begin() + displacements[r],
                    all.begin() + displacements[r] + counts[r]);
  return parts;
}

std::vector<char> MpiTransport::bytesOfFirst(const std::vector<char> &mine,
                                             double timeoutSeconds,
                                             const std::string &what) {
  // The size first, then the bytes, both from process 0.
  int64_t size = static_cast<int64_t>(mine.size());
  if (rank == 0 && size > INT_MAX)
    abortJob("rank 0: " + std::to_string(size) +
             " bytes to broadcast exceed INT_MAX");
  MPI_Request request;
  MPI_Ibcast(&size, 1, MPI_INT64_T, 0, MPI_COMM_WORLD, &request);
  wait(request, nullptr, what, timeoutSeconds);
  std::vector<char> bytes = rank == 0 ? mine : std::vector<char>(size);
  MPI_Ibcast(bytes.data(), static_cast<int>(size), MPI_BYTE, 0, MPI_COMM_WORLD,
             &request);
  wait(request, nullptr, what, timeoutSeconds);
  return bytes;
}

void MpiTransport::runStep(const std::shared_ptr<StepContext> &step,
                           const Program &program) {
  step->onFailure = [](const std::string &message) { abortJob(message); };
  int numRanks = options.ranks;
  int64_t numMicrobatches = options.microbatches * options.replicas;

  // The epoch: every process leaves the barrier at about the same time.
  MPI_Request request;
  MPI_Ibarrier(MPI_COMM_WORLD, &request);
  wait(request, step.get(), "the other processes to start the step");
  step->epoch = Clock::now();

  pprt_rank &self = *step->ranks[rank];
  runRank(*step, self, program);

  // Complete the sends (large ones wait for their receiver).
  Clock::time_point deadline = deadlineAfter(options.timeoutSeconds);
  Backoff backoff;
  for (progress(); !pending.empty(); progress()) {
    if (Clock::now() > deadline)
      timeout(step.get(),
              std::to_string(pending.size()) +
                  " send(s) to complete (a peer did not receive)",
              options.timeoutSeconds);
    backoff.pause();
  }
  if (options.replicas > 1 && !step->failed.load())
    finishReplicaReduces(*step, self);

  // Losses, stash and memory peaks and message counts, summed over the
  // processes: [loss sums M][loss counts M][peaks P x kPeakFields]
  // [sent P x P][received P x P]
  // where sent[s][d] counts messages from s to d and received[d][s] those d
  // got from s.
  collectLocalResults(*step);
  size_t lossAt = 0, countAt = numMicrobatches, stashAt = 2 * numMicrobatches,
         sentAt = stashAt + numRanks * kPeakFields,
         receivedAt = sentAt + numRanks * numRanks;
  std::vector<double> local(receivedAt + numRanks * numRanks, 0.0);
  for (int64_t m = 0; m < numMicrobatches; ++m) {
    local[lossAt + m] = step->lossSum[m];
    local[countAt + m] = step->lossCount[m];
  }
  encodePeaks(*step, rank, &local[stashAt + rank * kPeakFields]);
  for (int r = 0; r < numRanks; ++r) {
    local[sentAt + rank * numRanks + r] = static_cast<double>(self.sentTo[r]);
    local[receivedAt + rank * numRanks + r] =
        static_cast<double>(self.receivedFrom[r]);
  }
  std::vector<double> total(local.size(), 0.0);
  MPI_Iallreduce(local.data(), total.data(), static_cast<int>(local.size()),
                 MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &request);
  wait(request, step.get(), "the other processes to end the step");
  for (int64_t m = 0; m < numMicrobatches; ++m) {
    step->lossSum[m] = total[lossAt + m];
    step->lossCount[m] = total[countAt + m];
  }
  for (int r = 0; r < numRanks; ++r)
    decodePeaks(*step, r, &total[stashAt + r * kPeakFields]);
  for (int src = 0; src < numRanks; ++src)
    for (int dst = 0; dst < numRanks; ++dst) {
      auto sent = static_cast<int64_t>(total[sentAt + src * numRanks + dst]);
      auto received =
          static_cast<int64_t>(total[receivedAt + dst * numRanks + src]);
      if (sent != received)
        step->fail("rank " + std::to_string(src) + " sent " +
                   std::to_string(sent) + " message(s) to rank " +
                   std::to_string(dst) + ", which received " +
                   std::to_string(received));
    }

  // The trace, gathered on every process: kTraceFields doubles per event.
  constexpr int kFields = kTraceFields;
  std::vector<double> mine(step->trace.size() * kFields);
  for (size_t i = 0; i < step->trace.size(); ++i)
    encodeTraceEvent(step->trace[i], &mine[i * kFields]);
  int myCount = static_cast<int>(mine.size());
  std::vector<int> counts(numRanks, 0), displacements(numRanks, 0);
  MPI_Iallgather(&myCount, 1, MPI_INT, counts.data(), 1, MPI_INT,
                 MPI_COMM_WORLD, &request);
  wait(request, step.get(), "the other processes to share the trace");
  int all = 0;
  for (int r = 0; r < numRanks; ++r) {
    displacements[r] = all;
    all += counts[r];
  }
  std::vector<double> gathered(std::max(all, 1));
  MPI_Iallgatherv(mine.data(), myCount, MPI_DOUBLE, gathered.data(),
                  counts.data(), displacements.data(), MPI_DOUBLE,
                  MPI_COMM_WORLD, &request);
  wait(request, step.get(), "the other processes to share the trace");
  step->trace.clear();
  for (int i = 0; i + kFields <= all; i += kFields)
    step->trace.push_back(decodeTraceEvent(&gathered[i]));
  // Gathered in rank order; each rank's events are already by start.
}

void MpiTransport::startReduce(pprt_rank &rank, const ReplicaBucket &bucket) {
  ReplicaReduce &r = reduces.emplace_back();
  r.bucket = bucket;
  auto inBucket = [&](int64_t stage) {
    return std::any_of(bucket.begin(), bucket.end(),
                       [&](const auto &b) { return b.first == stage; });
  };
  // A shared parameter's copy (World::shareParameter) may still receive the
  // gradient of another of its stages on this rank: it waits for the end.
  const std::map<Key2, Key2> &aliases = rank.step->data->aliases;
  auto shared = [&](Key2 key) {
    return std::any_of(aliases.begin(), aliases.end(),
                       [&](const auto &a) { return a.second == key; });
  };
  for (const auto &entry : rank.gradients) {
    const Key2 &key = entry.first;
    const Buffer &grad = entry.second;
    bool reduced = std::any_of(
        reduces.begin(), reduces.end() - 1, [&](const ReplicaReduce &other) {
          return std::any_of(other.layout.begin(), other.layout.end(),
                             [&](const auto &l) { return l.first == key; });
        });
    if (reduced || (!bucket.empty() && (!inBucket(key.first) || shared(key))))
      continue;
    Buffer shape;
    shape.dtype = grad.dtype;
    shape.bytes.resize(grad.bytes.size());
    r.layout.emplace_back(key, std::move(shape));
    r.sent.insert(r.sent.end(), grad.bytes.begin(), grad.bytes.end());
  }
  if (r.sent.size() > static_cast<size_t>(INT_MAX))
    abortJob(rankName(rank.rank) + ": the gradients of " +
             replicaBucketName(r.bucket) + " are " +
             std::to_string(r.sent.size()) +
             " bytes, more than one MPI all-gather carries (2^31 - 1)");
  r.gathered.resize(r.sent.size() * options.replicas);
  // Every replica packs the same gradients (the same program), so the
  // sizes agree.
  MPI_Iallgather(r.sent.data(), static_cast<int>(r.sent.size()), MPI_BYTE,
                 r.gathered.data(), static_cast<int>(r.sent.size()), MPI_BYTE,
                 replicaComm, &r.request);
}

void MpiTransport::finishReplicaReduces(StepContext &step, pprt_rank &rank) {
  // Everything no pprt_allreduce started (stages without one, shared
  // copies), in key order: the same on every replica.
  startReduce(rank, {});
  for (ReplicaReduce &r : reduces) {
    wait(r.request, &step,
         "the replicas' all-reduce of " + replicaBucketName(r.bucket));
    double done = step.now(); // the bucket's stages complete together
    for (auto [stage, event] : r.bucket)
      if (event < rank.events.size())
        rank.events[event].end = done;
    size_t n = r.sent.size(), at = 0;
    for (auto &[key, shape] : r.layout) {
      size_t bytes = shape.bytes.size();
      Buffer &sum = rank.gradients[key];
      std::memcpy(sum.bytes.data(), r.gathered.data() + at, bytes);
      for (int d = 1; d < options.replicas; ++d)
        addBuffer(sum.bytes, r.gathered.data() + d * n + at,
                  static_cast<int64_t>(bytes), sum.dtype);
      at += bytes;
    }
  }
  reduces.clear();
}

} // namespace

std::unique_ptr<Transport>
pprt::detail::createMpiTransport(const WorldOptions &options,
                                 std::string &error) {
  int initialized = 0, finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) {
    error = "transport mpi: MPI was already finalized in this process";
    return nullptr;
  }
  MPI_Initialized(&initialized);
  if (!initialized) {
    int provided = 0;
    // Only the thread that runs the step calls MPI.
    MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
    finalizer().initializedHere = true;
  }
  int size = 0, rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (size != options.ranks) {
    error = "transport mpi: the world has " + std::to_string(options.ranks) +
            " ranks but MPI runs " + std::to_string(size) +
            " process(es) (start it with mpirun -np " +
            std::to_string(options.ranks) + ")";
    return nullptr;
  }
  int *tagUpperBound = nullptr, found = 0;
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tagUpperBound, &found);
  // The replicas of each pipeline rank, by replica (a collective of every
  // process).
  MPI_Comm replicaComm = MPI_COMM_NULL;
  if (options.replicas > 1 && options.ranks % options.replicas == 0) {
    int pipelineRanks = options.ranks / options.replicas;
    MPI_Comm_split(MPI_COMM_WORLD, rank % pipelineRanks, rank / pipelineRanks,
                   &replicaComm);
  }
  // Slots if any process wants them (each machine's first process decides
  // for its machine).
  int wantSlots = options.computeSlots > 0 ? 1 : 0, anyWants = 0;
  MPI_Allreduce(&wantSlots, &anyWants, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  sem_t *slots = SEM_FAILED;
  if (anyWants) {
    slots = openComputeSlots(std::max(0, options.computeSlots), error);
    if (slots == SEM_FAILED && !error.empty()) {
      if (replicaComm != MPI_COMM_NULL)
        MPI_Comm_free(&replicaComm);
      return nullptr;
    }
  }
  return std::make_unique<MpiTransport>(
      options, rank, found && tagUpperBound ? *tagUpperBound : 32767,
      replicaComm, slots);
}

#else // !PPRT_HAVE_MPI

std::unique_ptr<pprt::detail::Transport>
pprt::detail::createMpiTransport(const pprt::WorldOptions &options,
                                 std::string &error) {
  (void)options;
  error = "transport mpi is not available: the pp-mlir runtime was built "
          "without MPI (install libopenmpi-dev and reconfigure)";
  return nullptr;
}

#endif // PPRT_HAVE_MPI
