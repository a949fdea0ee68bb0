//===- NcclTransport.cpp - The nccl transport: one process per GPU --------===//
//
// Every process is one rank on its own GPU (the device pprt_cuda_open chose,
// by default LOCAL_RANK / OMPI_COMM_WORLD_LOCAL_RANK). The P processes form
// one NCCL communicator, created non-blocking (ncclConfig_t::blocking = 0)
// so that every wait can poll ncclCommGetAsyncError with the world's
// timeout. The ncclUniqueId travels (NcclBootstrap.cpp):
// - under mpirun (OMPI_COMM_WORLD_SIZE or PMI_SIZE set, plugin built with
//   MPI): MPI_Bcast from rank 0 (MPI_Init here if nobody did);
// - under torchrun-style launchers (RANK, WORLD_SIZE, MASTER_ADDR,
//   MASTER_PORT): TCP, rank 0 listens on PPRT_NCCL_PORT (default
//   MASTER_PORT + 1, as torchrun's own store holds MASTER_PORT) and sends
//   the id to each peer; bounded by the timeout;
// - a world of one rank: locally.
//
// Point to point: the pprt_send / pprt_recv calls between two compute
// actions of a rank program (one step of the schedule: e.g. 1F1B's "send
// the activation, receive the gradient") form one NCCL group: the first
// opens it (ncclGroupStart), each adds its ncclSend / ncclRecv on a
// communication stream of the rank (peer % commStreams), ordered after the
// compute stream by an event, and the group ends (ncclGroupEnd issues them
// together, so a pair of ranks that send to each other in the same step
// cannot deadlock whatever their order) when the next compute action
// begins (Transport::computeBegins), before a device-memory hook copies,
// and at the end of the step. Blocks the program frees while the group is
// open become reusable only after the group's operations (see
// settleFreedInGroup). After the group end, the compute stream waits for
// an event recorded after the receives (not the sends: a send overlaps the
// compute that follows it; the compiled programs never write a buffer
// after sending it, and the device-memory hooks wait for the communication
// streams before writing device memory). pprt_send and pprt_recv return
// without waiting; the host waits for a received message only when the
// compiled code synchronizes the compute stream (gpu-async-region does
// before each host call), so messages of one micro-batch overlap compute of
// another. One group may hold operations with several peers: NCCL
// completes a group as a unit, so a receive's wait also covers the group's
// other operations; a schedule that pp-verify-schedule accepts (deadlock
// free under blocking send and receive) keeps that safe, since a group
// only relaxes the order of the operations between two compute actions. NCCL
// matches messages of a pair of ranks in order, without tags: sender and
// receiver must issue a pair's messages in the same order (rank programs do);
// the end of the step checks it (counts, bytes and an order-sensitive hash per
// pair).
//
// Data parallelism (WorldOptions::replicas = D > 1; process r is replica
// r / P, pipeline rank r % P): the D processes of a pipeline rank share a
// communicator split from the world's (ncclCommSplit, color r % P, key
// r / P). pprt_allreduce starts one ncclAllReduce (sum) per gradient of
// the stages of its bucket (its host bytes copied into a device buffer)
// in one group on the first communication stream, so the reduction
// overlaps the rank's
// later compute; the end of the step reduces what no pprt_allreduce
// covered (shared copies, stages without one) the same way, waits for all
// (bounded by the timeout) and copies the sums back. The sum's order is
// NCCL's (ring or tree), not ours: --check reports the max relative error.
//
// Control plane (epoch barrier, losses, stash peaks, message checks, trace,
// allReduceMax): NCCL collectives on a small device buffer, so no MPI is
// needed after the id exchange.
//
// Failure: as on the mpi transport, a process that sees the first error
// prints "pprt: error: <message>", aborts the communicator (ncclCommAbort)
// and ends the job (MPI_Abort under MPI, else exit code 1); its peers time
// out or their launcher ends them. A wait that times out names the oldest
// pending message ("send of activation (stage 1, micro-batch 3) to rank 2").
//
//===----------------------------------------------------------------------===//

#include "CudaInternal.h"
#include "Nccl.h"

#ifdef PPRT_CUDA_HAVE_MPI
#include <mpi.h>
#endif

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <thread>

using namespace pprt;
using namespace pprt::cuda;
using namespace pprt::detail;

namespace {

//===----------------------------------------------------------------------===//
// The transport
//===----------------------------------------------------------------------===//

/// A message in flight on a communication stream.
struct PendingOp {
  CUevent done;
  std::string what;
};

class NcclTransport final : public ProcessTransport {
public:
  NcclTransport(const WorldOptions &options, int rank, ncclComm_t comm)
      : ProcessTransport(options, rank), comm(comm) {}
  ~NcclTransport() override;

  void runStep(const std::shared_ptr<StepContext> &step,
               const Program &program) override;
  void send(pprt_rank &handle, const Message &message,
            const void *data) override;
  void recv(pprt_rank &handle, const Message &message, void *data) override;
  double allReduceMax(double value) override;
  std::vector<std::vector<char>> allGatherBytes(const std::vector<char> &mine,
                                                StepContext *step) override;
  void computeBegins(pprt_rank &handle) override { endGroup(handle.step); }
  void startReplicaReduce(pprt_rank &handle,
                          const ReplicaBucket &bucket) override {
    startReduce(handle, bucket);
  }
  bool reducesReplicas() const override { return options.replicas > 1; }
  /// The communicator of this pipeline rank's replicas (null for D = 1).
  ncclComm_t replicaComm = nullptr;

  /// The oldest message still in flight, "" if none.
  std::string oldestPending();

private:
  /// Enqueues one point-to-point operation (see the file comment).
  void pointToPoint(pprt_rank &handle, bool isSend, const Message &message,
                    void *data);
  /// Ends a group (or any NCCL call) on the non-blocking communicator:
  /// polls until it is no longer in progress, at most the timeout.
  bool settle(ncclResult_t result, const char *call, StepContext *step);
  /// Waits for `event` and the communicator, at most the timeout; on
  /// timeout aborts the communicator and fails (or ends the job).
  void wait(CUevent event, StepContext *step, const std::string &what);
  /// Runs a collective on `values` (in place for allreduce; allgather:
  /// `values` is this rank's part, the result all P parts).
  void collective(std::vector<double> &values, bool gather, ncclRedOp_t op,
                  StepContext *step, const std::string &what);
  [[noreturn]] void failJob(StepContext *step, const std::string &message);
  void progress();
  /// Ends the open group (see the file comment); nothing if none is open.
  void endGroup(StepContext *step);
  /// settle() on another communicator.
  bool settleOn(ncclComm_t on, ncclResult_t result, const char *call,
                StepContext *step);
  /// Starts the replicas' sum of the gradients of the `bucket`'s stages
  /// this rank holds (empty: every one not started yet), in one NCCL group,
  /// and records it in `reduces`.
  void startReduce(pprt_rank &handle, const ReplicaBucket &bucket);
  /// Waits for every started reduce, copies the sums into the gradients.
  void finishReplicaReduces(StepContext &step, pprt_rank &handle);

  /// One started replica reduce: the gradients it sums (key, device
  /// buffer), the trace event to close, the event after it on the stream.
  struct ReplicaReduce {
    ReplicaBucket bucket;
    std::vector<std::pair<Key2, CUdeviceptr>> buffers;
    CUevent done = nullptr;
  };
  std::vector<ReplicaReduce> reduces;

  /// The rank's device resources, looked up at the first step (the
  /// launcher adds the rank to the device after World::create, once it
  /// knows the pool size).
  RankState *resources = nullptr;
  RankState &state() { return *resources; }
  void ensureResources(StepContext *step) {
    if (!resources && !(resources = rankState(rank)))
      failJob(step, "transport nccl: rank " + std::to_string(rank) +
                        " was not added to the CUDA device (Device::addRank) "
                        "before its first step or collective");
  }
  ncclComm_t comm;
  std::deque<PendingOp> pending;
  CUdeviceptr control = 0;
  /// Pinned host twin of `control` (same size).
  double *controlHost = nullptr;
  size_t controlBytes = 0;
  /// The open group: per communication stream used, whether it received,
  /// and what it carries (for timeout messages).
  struct GroupStream {
    bool used = false, received = false;
    std::string what;
  };
  std::vector<GroupStream> group;
  StepContext *groupStep = nullptr;
  /// Per peer: bytes and order hash of the messages of this step.
  std::vector<double> sentBytes, receivedBytes, sentHash, receivedHash;
};

NcclTransport *current = nullptr;

NcclTransport::~NcclTransport() {
  if (current == this) {
    current = nullptr;
    stallHint = nullptr;
  }
  endCommunicationGroup = nullptr;
  ensureContext();
  for (PendingOp &op : pending)
    cuEventDestroy(op.done);
  if (control)
    cuMemFree(control);
  if (controlHost)
    cuMemFreeHost(controlHost);
  // The communicators are non-blocking: finalize may return
  // ncclInProgress; poll until it is done (at most the timeout), else
  // abort.
  auto close = [&](ncclComm_t c) {
    ncclResult_t result = ncclCommFinalize(c);
    Clock::time_point deadline = deadlineAfter(options.timeoutSeconds);
    int64_t tries = 0;
    while (result == ncclInProgress && Clock::now() < deadline) {
      ncclPause(tries);
      ncclCommGetAsyncError(c, &result);
    }
    if (result == ncclSuccess)
      ncclCommDestroy(c);
    else
      ncclCommAbort(c);
  };
  if (replicaComm)
    close(replicaComm);
  close(comm);
  // MPI_Init was ours (to share the id): finalize it, or mpirun reports
  // the job as failed.
  finalizeBootstrapMpi();
}

std::string NcclTransport::oldestPending() {
  progress();
  return pending.empty()
             ? std::string()
             : "the oldest message in flight is the " + pending.front().what;
}

void NcclTransport::progress() {
  for (auto it = pending.begin(); it != pending.end();) {
    if (cuEventQuery(it->done) == CUDA_SUCCESS) {
      giveEvent(state(), it->done);
      it = pending.erase(it);
    } else {
      ++it;
    }
  }
}

void NcclTransport::failJob(StepContext *step, const std::string &message) {
  if (step && !step->failed.load())
    step->fail(message); // onFailure ends the job
  std::fprintf(stderr, "pprt: error: %s\n", message.c_str());
  std::fflush(stderr);
  if (replicaComm)
    ncclCommAbort(replicaComm);
  ncclCommAbort(comm);
#ifdef PPRT_CUDA_HAVE_MPI
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (initialized && !finalized)
    MPI_Abort(MPI_COMM_WORLD, 1);
#endif
  _exit(1);
}

bool NcclTransport::settle(ncclResult_t result, const char *call,
                           StepContext *step) {
  return settleOn(comm, result, call, step);
}

bool NcclTransport::settleOn(ncclComm_t on, ncclResult_t result,
                             const char *call, StepContext *step) {
  Clock::time_point deadline = deadlineAfter(options.timeoutSeconds);
  int64_t tries = 0;
  while (result == ncclInProgress) {
    if (Clock::now() > deadline)
      failJob(step, "rank " + std::to_string(rank) + ": " + call +
                        " still in progress after " +
                        formatSeconds(options.timeoutSeconds) + " s");
    ncclPause(tries);
    ncclCommGetAsyncError(on, &result);
  }
  if (result != ncclSuccess)
    failJob(step, "rank " + std::to_string(rank) + ": " +
                      ncclText(result, call) + " (" + ncclGetLastError(on) +
                      ")");
  return true;
}

void NcclTransport::wait(CUevent event, StepContext *step,
                         const std::string &what) {
  Clock::time_point deadline = deadlineAfter(options.timeoutSeconds);
  int64_t tries = 0;
  for (;;) {
    CUresult result = cuEventQuery(event);
    if (result == CUDA_SUCCESS)
      return;
    if (result != CUDA_ERROR_NOT_READY)
      failJob(step, "rank " + std::to_string(rank) + ": " +
                        describeCu(result, "cuEventQuery"));
    ncclResult_t async = ncclSuccess;
    ncclCommGetAsyncError(comm, &async);
    if (async != ncclSuccess && async != ncclInProgress)
      failJob(step, "rank " + std::to_string(rank) + ": " +
                        ncclText(async, "the communicator") + " (" +
                        ncclGetLastError(comm) + ")");
    if (Clock::now() > deadline) {
      std::string stalled = oldestPending();
      failJob(step, "rank " + std::to_string(rank) + " timed out after " +
                        formatSeconds(options.timeoutSeconds) +
                        " s waiting for " + what +
                        (stalled.empty() ? "" : " (" + stalled + ")"));
    }
    ncclPause(tries);
  }
}

void NcclTransport::pointToPoint(pprt_rank &handle, bool isSend,
                                 const Message &message, void *data) {
  StepContext &step = *handle.step;
  int peer = message.peer;
  int64_t bytes = message.bytes;
  if (!ensureContext())
    return;
  progress();
  CUstream stream =
      state().comm[static_cast<size_t>(peer) % state().comm.size()];
  // The communication stream starts after what the compute stream did so
  // far (it produced the data to send, or last used the receive buffer).
  CUevent ready = takeEvent(state());
  if (!checkCu(cuEventRecord(ready, state().compute), "cuEventRecord") ||
      !checkCu(cuStreamWaitEvent(stream, ready, 0), "cuStreamWaitEvent")) {
    giveEvent(state(), ready);
    return;
  }
  giveEvent(state(), ready);
  std::string what =
      std::string(isSend ? "send of " : "receive of ") +
      describeMessage(message) + (isSend ? " to rank " : " from rank ") +
      std::to_string(peer) + " (" + std::to_string(bytes) + " bytes)";
  if (!state().groupOpen) {
    settle(ncclGroupStart(), "ncclGroupStart", &step);
    state().groupOpen = true;
    groupStep = &step;
    group.assign(state().comm.size(), GroupStream());
    endCommunicationGroup = [this] { endGroup(groupStep); };
  }
  ncclResult_t result = isSend ? ncclSend(data, static_cast<size_t>(bytes),
                                          ncclInt8, peer, comm, stream)
                               : ncclRecv(data, static_cast<size_t>(bytes),
                                          ncclInt8, peer, comm, stream);
  if (result != ncclSuccess && result != ncclInProgress)
    failJob(&step, "rank " + std::to_string(rank) + ": " +
                       ncclText(result, isSend ? "ncclSend" : "ncclRecv") +
                       " (" + what + ")");
  GroupStream &used = group[static_cast<size_t>(peer) % group.size()];
  used.used = true;
  used.received |= !isSend;
  used.what += (used.what.empty() ? "" : ", then the ") + what;

  // Bytes and an order-sensitive hash of (stage, micro-batch, kind, size).
  uint64_t key = ((static_cast<uint64_t>(message.stage) * 1000003u +
                   static_cast<uint64_t>(message.microbatch)) *
                      131u +
                  static_cast<uint64_t>(message.kind)) *
                     2654435761u +
                 static_cast<uint64_t>(bytes);
  int64_t index = isSend ? handle.sentTo[peer] : handle.receivedFrom[peer];
  double term = static_cast<double>(((key + 1) * (index + 7)) % 2147483647u);
  std::vector<double> &hash = isSend ? sentHash : receivedHash;
  hash[peer] = std::fmod(hash[peer] + term, 2147483647.0);
  (isSend ? sentBytes : receivedBytes)[peer] += static_cast<double>(bytes);
}

void NcclTransport::endGroup(StepContext *step) {
  if (!state().groupOpen)
    return;
  state().groupOpen = false;
  endCommunicationGroup = nullptr;
  settle(ncclGroupEnd(), "ncclGroupEnd", step);
  for (size_t i = 0; i < group.size(); ++i) {
    if (!group[i].used)
      continue;
    CUevent done = takeEvent(state());
    if (!checkCu(cuEventRecord(done, state().comm[i]), "cuEventRecord")) {
      giveEvent(state(), done);
      continue;
    }
    // The compute stream uses a received buffer only once it arrived.
    if (group[i].received)
      checkCu(cuStreamWaitEvent(state().compute, done, 0), "cuStreamWaitEvent");
    pending.push_back({done, group[i].what});
  }
  group.clear();
  settleFreedInGroup(state());
}

void NcclTransport::send(pprt_rank &handle, const Message &message,
                         const void *data) {
  // pprt_send counted it already; hash it with its index.
  --handle.sentTo[message.peer];
  pointToPoint(handle, true, message, const_cast<void *>(data));
  ++handle.sentTo[message.peer];
}

void NcclTransport::recv(pprt_rank &handle, const Message &message,
                         void *data) {
  pointToPoint(handle, false, message, data);
}

void NcclTransport::collective(std::vector<double> &values, bool gather,
                               ncclRedOp_t op, StepContext *step,
                               const std::string &what) {
  ensureResources(step);
  if (!ensureContext())
    failJob(step, "rank " + std::to_string(rank) +
                      ": cannot make the CUDA context current");
  endGroup(step);
  size_t count = values.size();
  size_t resultCount = gather ? count * options.ranks : count;
  size_t need = std::max<size_t>(resultCount + count, 1) * sizeof(double);
  if (need > controlBytes) {
    if (control)
      cuMemFree(control);
    if (controlHost)
      cuMemFreeHost(controlHost);
    control = 0;
    controlHost = nullptr;
    CUresult result = cuMemAlloc(&control, need);
    if (result == CUDA_SUCCESS)
      result = cuMemAllocHost(reinterpret_cast<void **>(&controlHost), need);
    if (result != CUDA_SUCCESS)
      failJob(step, "rank " + std::to_string(rank) + ": " +
                        describeCu(result, "cuMemAlloc (control buffers)"));
    controlBytes = need;
  }
  CUstream stream = state().comm[0];
  CUdeviceptr in = control, out = control + count * sizeof(double);
  // Pinned host memory: the copies are asynchronous, so the only wait is
  // the bounded one below (pageable copies could block on a stalled peer).
  double *hostIn = controlHost, *hostOut = controlHost + count;
  std::memcpy(hostIn, values.data(), count * sizeof(double));
  bool ok =
      checkCu(cuMemcpyHtoDAsync(in, hostIn, count * sizeof(double), stream),
              "cuMemcpyHtoDAsync");
  if (ok) {
    settle(ncclGroupStart(), "ncclGroupStart", step);
    ncclResult_t r = gather
                         ? ncclAllGather(reinterpret_cast<void *>(in),
                                         reinterpret_cast<void *>(out), count,
                                         ncclFloat64, comm, stream)
                         : ncclAllReduce(reinterpret_cast<void *>(in),
                                         reinterpret_cast<void *>(out), count,
                                         ncclFloat64, op, comm, stream);
    if (r != ncclSuccess && r != ncclInProgress)
      failJob(step,
              "rank " + std::to_string(rank) + ": " +
                  ncclText(r, gather ? "ncclAllGather" : "ncclAllReduce"));
    settle(ncclGroupEnd(), "ncclGroupEnd", step);
    ok = checkCu(
        cuMemcpyDtoHAsync(hostOut, out, resultCount * sizeof(double), stream),
        "cuMemcpyDtoHAsync");
  }
  if (!ok)
    failJob(step, "rank " + std::to_string(rank) +
                      ": a CUDA call of the control plane failed");
  CUevent done = takeEvent(state());
  checkCu(cuEventRecord(done, stream), "cuEventRecord");
  wait(done, step, what);
  giveEvent(state(), done);
  values.assign(hostOut, hostOut + resultCount);
}

double NcclTransport::allReduceMax(double value) {
  std::vector<double> values = {value};
  collective(values, false, ncclMax, nullptr,
             "the other processes in allReduceMax");
  return values[0];
}

std::vector<std::vector<char>>
NcclTransport::allGatherBytes(const std::vector<char> &mine,
                              StepContext *step) {
  // Sizes first, then every part padded to the largest, carried bit for bit
  // in doubles (an all-gather moves them unchanged).
  int numRanks = options.ranks;
  std::vector<double> sizes = {static_cast<double>(mine.size())};
  collective(sizes, true, ncclSum, step,
             "the other processes to gather shared gradients");
  size_t largest = 0;
  for (double size : sizes)
    largest = std::max(largest, static_cast<size_t>(size));
  size_t words = (largest + sizeof(double) - 1) / sizeof(double);
  std::vector<double> values(words, 0.0);
  if (!mine.empty())
    std::memcpy(values.data(), mine.data(), mine.size());
  if (words > 0)
    collective(values, true, ncclSum, step,
               "the other processes to gather shared gradients");
  std::vector<std::vector<char>> parts(numRanks);
  for (int r = 0; r < numRanks && words > 0; ++r) {
    const char *at = reinterpret_cast<const char *>(values.data() + r * words);
    parts[r].assign(at, at + static_cast<size_t>(sizes[r]));
  }
  return parts;
}

void NcclTransport::runStep(const std::shared_ptr<StepContext> &step,
                            const Program &program) {
  step->onFailure = [this](const std::string &message) {
    failJob(nullptr, message);
  };
  ensureResources(step.get());
  int numRanks = options.ranks;
  int64_t numMicrobatches = options.microbatches;
  sentBytes.assign(numRanks, 0.0);
  receivedBytes.assign(numRanks, 0.0);
  sentHash.assign(numRanks, 0.0);
  receivedHash.assign(numRanks, 0.0);

  // The epoch: every process leaves this allreduce at about the same time.
  std::vector<double> barrier = {0.0};
  collective(barrier, false, ncclSum, step.get(),
             "the other processes to start the step");
  step->epoch = Clock::now();

  pprt_rank &self = *step->ranks[rank];
  runRank(*step, self, program);
  endGroup(step.get());
  if (options.replicas > 1)
    finishReplicaReduces(*step, self);

  // Every message and the compute stream done.
  for (CUstream stream : state().comm) {
    CUevent done = takeEvent(state());
    checkCu(cuEventRecord(done, stream), "cuEventRecord");
    wait(done, step.get(), "its messages to complete");
    giveEvent(state(), done);
  }
  CUevent computeDone = takeEvent(state());
  checkCu(cuEventRecord(computeDone, state().compute), "cuEventRecord");
  wait(computeDone, step.get(), "its compute stream to finish the step");
  giveEvent(state(), computeDone);
  progress();

  // Losses, stash peaks, message counts, bytes and hashes, summed:
  // [loss sums M][loss counts M][stash P] then six P x P blocks: sent,
  // received, sent bytes, received bytes, sent hash, received hash; entry
  // [s][d] of a "sent" block is from s to d, of a "received" block [d][s].
  collectLocalResults(*step);
  size_t stashAt = 2 * numMicrobatches, pairsAt = stashAt + numRanks;
  size_t block = static_cast<size_t>(numRanks) * numRanks;
  std::vector<double> values(pairsAt + 6 * block, 0.0);
  for (int64_t m = 0; m < numMicrobatches; ++m) {
    values[m] = step->lossSum[m];
    values[numMicrobatches + m] = step->lossCount[m];
  }
  values[stashAt + rank] = static_cast<double>(step->stashPeaks[rank]);
  for (int r = 0; r < numRanks; ++r) {
    size_t at = pairsAt + static_cast<size_t>(rank) * numRanks + r;
    values[at] = static_cast<double>(self.sentTo[r]);
    values[at + block] = static_cast<double>(self.receivedFrom[r]);
    values[at + 2 * block] = sentBytes[r];
    values[at + 3 * block] = receivedBytes[r];
    values[at + 4 * block] = sentHash[r];
    values[at + 5 * block] = receivedHash[r];
  }
  collective(values, false, ncclSum, step.get(),
             "the other processes to end the step");
  for (int64_t m = 0; m < numMicrobatches; ++m) {
    step->lossSum[m] = values[m];
    step->lossCount[m] = values[numMicrobatches + m];
  }
  for (int r = 0; r < numRanks; ++r)
    step->stashPeaks[r] = static_cast<int64_t>(values[stashAt + r]);
  for (int src = 0; src < numRanks; ++src)
    for (int dst = 0; dst < numRanks; ++dst) {
      size_t s = pairsAt + static_cast<size_t>(src) * numRanks + dst;
      size_t d = pairsAt + static_cast<size_t>(dst) * numRanks + src;
      auto sent = static_cast<int64_t>(values[s]);
      auto received = static_cast<int64_t>(values[d + block]);
      if (sent != received)
        step->fail("rank " + std::to_string(src) + " sent " +
                   std::to_string(sent) + " message(s) to rank " +
                   std::to_string(dst) + ", which received " +
                   std::to_string(received));
      else if (values[s + 2 * block] != values[d + 3 * block] ||
               values[s + 4 * block] != values[d + 5 * block])
        step->fail("the messages from rank " + std::to_string(src) +
                   " to rank " + std::to_string(dst) +
                   " were received in another order or with other (stage, "
                   "micro-batch, kind, size) than sent (NCCL matches a pair's "
                   "messages in order)");
    }

  // The trace: every rank pads its events to the longest count.
  constexpr int kFields = kTraceFields;
  std::vector<double> counts = {static_cast<double>(step->trace.size())};
  collective(counts, true, ncclSum, step.get(),
             "the other processes to share the trace");
  size_t longest = 0;
  for (double c : counts)
    longest = std::max(longest, static_cast<size_t>(c));
  std::vector<double> mine(std::max<size_t>(longest, 1) * kFields, -1.0);
  for (size_t i = 0; i < step->trace.size(); ++i)
    encodeTraceEvent(step->trace[i], &mine[i * kFields]);
  size_t perRank = mine.size();
  collective(mine, true, ncclSum, step.get(),
             "the other processes to share the trace");
  step->trace.clear();
  for (int r = 0; r < numRanks; ++r)
    for (size_t i = 0; i < static_cast<size_t>(counts[r]); ++i)
      step->trace.push_back(decodeTraceEvent(&mine[r * perRank + i * kFields]));
}

void NcclTransport::startReduce(pprt_rank &handle,
                                const ReplicaBucket &bucket) {
  StepContext *step = handle.step;
  if (!replicaComm)
    failJob(step, "transport nccl: rank " + std::to_string(rank) +
                      " has no replica communicator");
  endGroup(step);
  ReplicaReduce &r = reduces.emplace_back();
  r.bucket = bucket;
  auto inBucket = [&](int64_t stage) {
    return std::any_of(bucket.begin(), bucket.end(),
                       [&](const auto &b) { return b.first == stage; });
  };
  // As the mpi transport: a shared parameter's copy may still receive the
  // gradient of another of its stages on this rank, so it waits for the
  // end; every replica takes the same keys in the same order.
  const std::map<Key2, Key2> &aliases = step->data->aliases;
  auto shared = [&](Key2 key) {
    return std::any_of(aliases.begin(), aliases.end(),
                       [&](const auto &a) { return a.second == key; });
  };
  CUstream stream = state().comm[0];
  settleOn(replicaComm, ncclGroupStart(), "ncclGroupStart", step);
  for (auto &entry : handle.gradients) {
    Key2 key = entry.first;
    Buffer &grad = entry.second;
    bool started = std::any_of(
        reduces.begin(), reduces.end() - 1, [&](const ReplicaReduce &o) {
          return std::any_of(o.buffers.begin(), o.buffers.end(),
                             [&](const auto &b) { return b.first == key; });
        });
    if (started || (!bucket.empty() && (!inBucket(key.first) || shared(key))) ||
        grad.bytes.empty())
      continue;
    ncclDataType_t type = grad.dtype == PPRT_F64 ? ncclFloat64 : ncclFloat32;
    if (grad.dtype != PPRT_F32 && grad.dtype != PPRT_F64)
      failJob(step, rankName(handle.rank) + ": the replicas' sum of a " +
                        dtypeName(grad.dtype) + " gradient (f32 and f64 only)");
    // The copy in is ordered before the all-reduce on the same stream
    // (from pageable memory, it returns once the bytes are staged).
    CUdeviceptr buffer = 0;
    if (!checkCu(cuMemAlloc(&buffer, grad.bytes.size()), "cuMemAlloc") ||
        !checkCu(cuMemcpyHtoDAsync(buffer, grad.bytes.data(), grad.bytes.size(),
                                   stream),
                 "cuMemcpyHtoDAsync"))
      failJob(step, rankName(handle.rank) +
                        ": cannot stage a gradient for the replicas' sum");
    r.buffers.emplace_back(key, buffer);
    size_t count = grad.bytes.size() / (type == ncclFloat64 ? 8 : 4);
    ncclResult_t result = ncclAllReduce(reinterpret_cast<void *>(buffer),
                                        reinterpret_cast<void *>(buffer), count,
                                        type, ncclSum, replicaComm, stream);
    if (result != ncclSuccess && result != ncclInProgress)
      failJob(step,
              rankName(handle.rank) + ": " + ncclText(result, "ncclAllReduce"));
  }
  settleOn(replicaComm, ncclGroupEnd(), "ncclGroupEnd", step);
  r.done = takeEvent(state());
  checkCu(cuEventRecord(r.done, stream), "cuEventRecord");
}

void NcclTransport::finishReplicaReduces(StepContext &step, pprt_rank &handle) {
  startReduce(handle, {});
  for (ReplicaReduce &r : reduces) {
    wait(r.done, &step,
         "the replicas' all-reduce of " + replicaBucketName(r.bucket));
    giveEvent(state(), r.done);
    double done = step.now(); // the bucket's stages complete together
    for (auto [stage, event] : r.bucket)
      if (event < handle.events.size())
        handle.events[event].end = done;
    // The sums out, on the stream that made them, then one bounded wait.
    CUstream stream = state().comm[0];
    for (auto &[key, buffer] : r.buffers) {
      std::vector<char> &bytes = handle.gradients[key].bytes;
      checkCu(cuMemcpyDtoHAsync(bytes.data(), buffer, bytes.size(), stream),
              "cuMemcpyDtoHAsync");
    }
    CUevent copied = takeEvent(state());
    checkCu(cuEventRecord(copied, stream), "cuEventRecord");
    wait(copied, &step, "the replicas' sums to reach host memory");
    giveEvent(state(), copied);
    for (auto &[key, buffer] : r.buffers)
      cuMemFree(buffer);
  }
  reduces.clear();
}

std::unique_ptr<Transport> createNcclTransport(const WorldOptions &options,
                                               std::string &error) {
  int rank = 0, size = 1;
  bool viaMpi = false;
  if (!findRank(options, rank, size, viaMpi, error))
    return nullptr;
  if (!options.deviceMemory) {
    error = "transport nccl: WorldOptions::deviceMemory is not set "
            "(Device::fillDeviceMemory)";
    return nullptr;
  }
  if (!ensureContext()) {
    error = "transport nccl: cannot make the CUDA context current";
    return nullptr;
  }
  ncclComm_t comm = createCommunicator(options, rank, size, viaMpi, error);
  if (!comm)
    return nullptr;
  auto transport = std::make_unique<NcclTransport>(options, rank, comm);
  if (options.replicas > 1 && size % options.replicas != 0) {
    error = "transport nccl: " + std::to_string(size) +
            " processes are not a whole number of " +
            std::to_string(options.replicas) + " replicas";
    return nullptr;
  }
  if (options.replicas > 1) {
    // The replicas of each pipeline rank, ordered by replica.
    int pipelineRanks = size / options.replicas;
    ncclConfig_t config = NCCL_CONFIG_INITIALIZER;
    config.blocking = 0;
    ncclResult_t result =
        ncclCommSplit(comm, rank % pipelineRanks, rank / pipelineRanks,
                      &transport->replicaComm, &config);
    Clock::time_point deadline = deadlineAfter(options.timeoutSeconds);
    int64_t tries = 0;
    while (result == ncclInProgress && Clock::now() < deadline) {
      ncclPause(tries);
      ncclCommGetAsyncError(
          transport->replicaComm ? transport->replicaComm : comm, &result);
    }
    if (result != ncclSuccess) {
      error = "transport nccl: " + ncclText(result, "ncclCommSplit");
      return nullptr;
    }
  }
  current = transport.get();
  stallHint = [](int) {
    return current ? current->oldestPending() : std::string();
  };
  return transport;
}

} // namespace

bool pprt::cuda::registerNccl(std::string &error) {
  if (!registerTransport("nccl", createNcclTransport)) {
    error = "cannot register transport nccl";
    return false;
  }
  return true;
}
