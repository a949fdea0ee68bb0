//===- Runtime.cpp - The pprt_* C ABI -------------------------------------===//
//
// The functions rank programs call (pprt.h): argument checks, messages,
// inputs, parameters, gradients, losses, actions (and the fault injection
// at their start), stash. Messages go through the step's Transport; the
// world and its steps are in World.cpp and Step.cpp.
//
//===----------------------------------------------------------------------===//

#include "Step.h"

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <ctime>
#include <stdexcept>
#include <unistd.h>

using namespace pprt;
using namespace pprt::detail;

namespace {

/// CPU seconds the calling thread has used (0 where the clock is missing).
double threadCpuSeconds() {
  timespec now{};
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now) != 0)
    return 0.0;
  return static_cast<double>(now.tv_sec) + 1e-9 * now.tv_nsec;
}

/// True if `rank` may go on: not null and its step has not failed.
bool live(pprt_rank *rank) {
  return rank && !rank->step->failed.load(std::memory_order_acquire);
}

/// The pipeline's ranks P (WorldOptions::replicas).
int pipelineRanks(const pprt_rank &rank) {
  return rank.step->options.ranks / std::max(1, rank.step->options.replicas);
}

/// The replica `rank` belongs to.
int64_t replicaOf(const pprt_rank &rank) {
  return rank.rank / pipelineRanks(rank);
}

/// The rank of pipeline rank `peer` in `rank`'s replica.
int64_t replicaRank(const pprt_rank &rank, int64_t peer) {
  return replicaOf(rank) * pipelineRanks(rank) + peer;
}

/// The step's micro-batch of micro-batch `microbatch` of `rank`'s replica.
int64_t stepMicrobatch(const pprt_rank &rank, int64_t microbatch) {
  return replicaOf(rank) * rank.step->options.microbatches + microbatch;
}

/// Fails the step of `rank` with "rank R: <function>: <message>".
void failCall(pprt_rank &rank, const char *function,
              const std::string &message) {
  rank.step->fail(rankName(rank.rank) + ": " + function + ": " + message);
}

bool checkMicrobatch(pprt_rank &rank, const char *function,
                     int64_t microbatch) {
  int64_t numMicrobatches = rank.step->options.microbatches;
  if (microbatch >= 0 && microbatch < numMicrobatches)
    return true;
  failCall(rank, function,
           "micro-batch " + std::to_string(microbatch) +
               " is out of range (the world has " +
               std::to_string(numMicrobatches) + " micro-batches)");
  return false;
}

bool checkBuffer(pprt_rank &rank, const char *function, const void *data,
                 int64_t bytes) {
  if (bytes < 0) {
    failCall(rank, function, "negative size " + std::to_string(bytes));
    return false;
  }
  if (bytes > 0 && !data) {
    failCall(rank, function,
             "null buffer of " + std::to_string(bytes) + " bytes");
    return false;
  }
  return true;
}

bool checkDtype(pprt_rank &rank, const char *function, int64_t dtype) {
  if (dtypeSize(dtype) != 0)
    return true;
  failCall(rank, function,
           "unknown dtype " + std::to_string(dtype) +
               " (expected PPRT_F32 = 0 or PPRT_F64 = 1)");
  return false;
}

/// Checks the arguments of pprt_send / pprt_recv.
bool checkMessage(pprt_rank &rank, const char *function, int64_t peer,
                  int64_t stage, int64_t microbatch, int64_t kind,
                  const void *data, int64_t bytes) {
  // Peers are pipeline ranks (WorldOptions::replicas).
  int numRanks = pipelineRanks(rank);
  if (peer < 0 || peer >= numRanks) {
    failCall(rank, function,
             "peer " + std::to_string(peer) + " is not a rank (the world has " +
                 std::to_string(numRanks) + " ranks)");
    return false;
  }
  const WorldOptions &options = rank.step->options;
  if (stage < 0) {
    failCall(rank, function, "negative stage " + std::to_string(stage));
    return false;
  }
  if (options.stages > 0 && stage >= options.stages) {
    failCall(rank, function,
             "stage " + std::to_string(stage) +
                 " is out of range (the world's rank programs have " +
                 std::to_string(options.stages) + " stages)");
    return false;
  }
  if (kind < 0 || kind >= 2 * options.boundaryParts) {
    failCall(rank, function,
             "unknown kind " + std::to_string(kind) +
                 " (expected PPRT_ACTIVATION or PPRT_GRADIENT plus twice a "
                 "part number below " +
                 std::to_string(options.boundaryParts) +
                 ", the world's boundaryParts)");
    return false;
  }
  return checkMicrobatch(rank, function, microbatch) &&
         checkBuffer(rank, function, data, bytes);
}

/// Copies what the launcher set (`set`, null if it set nothing) into the
/// rank program's buffer `data` of `bytes` bytes for `function`; fails the
/// step naming `what` if it is missing or has another size.
void copyLauncherData(pprt_rank &rank, const char *function,
                      const std::string &what, const std::vector<char> *set,
                      void *data, int64_t bytes) {
  if (!set) {
    failCall(rank, function, "the launcher set no " + what);
    return;
  }
  if (static_cast<int64_t>(set->size()) != bytes) {
    rank.step->fail(rankName(rank.rank) + " expected " + std::to_string(bytes) +
                    " bytes of " + what + ", which has " +
                    std::to_string(set->size()) + " bytes");
    return;
  }
  copyFromHost(rank, data, set->data(), bytes);
}

/// Records `kind` and `peer` in the innermost open action if it is
/// `action` (a send inside a PPRT_SEND bracket names its payload).
void noteMessage(pprt_rank &rank, pprt_action action, int64_t kind,
                 int64_t peer) {
  if (!rank.open.empty() && rank.open.back().action == action) {
    rank.open.back().kind = kind;
    rank.open.back().peer = peer;
  }
}

void injectFault(pprt_rank &rank, const FaultInjection &fault, int64_t action,
                 int64_t stage, int64_t microbatch) {
  StepContext &step = *rank.step;
  std::string what = "fault injection: " + rankName(rank.rank) +
                     " at its action " + std::to_string(rank.actionsBegun) +
                     " (" + describeAction(action, stage, microbatch) + ")";
  switch (fault.mode) {
  case FaultInjection::Mode::Throw:
    throw std::runtime_error(what);
  case FaultInjection::Mode::Fail:
    step.fail(what);
    return;
  case FaultInjection::Mode::Exit:
    std::fprintf(stderr, "pprt: %s: exiting with code 3\n", what.c_str());
    std::fflush(stderr);
    _exit(3);
  case FaultInjection::Mode::Kill:
    std::fprintf(stderr, "pprt: %s: SIGKILL\n", what.c_str());
    std::fflush(stderr);
    std::raise(SIGKILL);
    _exit(3);
  case FaultInjection::Mode::Hang: {
    double limit = 10.0 * step.options.timeoutSeconds;
    std::unique_lock<std::mutex> lock(step.mutex);
    bool failed =
        step.changed.wait_for(lock, std::chrono::duration<double>(limit),
                              [&] { return step.failed.load(); });
    lock.unlock();
    if (!failed)
      step.fail(what + ": hung for " + formatSeconds(limit) +
                " s without any rank noticing");
    return;
  }
  }
}

} // namespace

//===----------------------------------------------------------------------===//
// The C ABI
//===----------------------------------------------------------------------===//

extern "C" {

void pprt_send(pprt_rank *rank, int64_t peer, int64_t stage, int64_t microbatch,
               int64_t kind, const void *data, int64_t bytes) {
  if (!live(rank) || !checkMessage(*rank, "pprt_send", peer, stage, microbatch,
                                   kind, data, bytes))
    return;
  peer = replicaRank(*rank, peer);
  noteMessage(*rank, PPRT_SEND, kind, peer);
  ++rank->sentTo[peer];
  rank->step->transport->send(
      *rank, {static_cast<int>(peer), stage, microbatch, kind, bytes}, data);
}

void pprt_recv(pprt_rank *rank, int64_t peer, int64_t stage, int64_t microbatch,
               int64_t kind, void *data, int64_t bytes) {
  if (!live(rank) || !checkMessage(*rank, "pprt_recv", peer, stage, microbatch,
                                   kind, data, bytes))
    return;
  peer = replicaRank(*rank, peer);
  noteMessage(*rank, PPRT_RECV, kind, peer);
  rank->step->transport->recv(
      *rank, {static_cast<int>(peer), stage, microbatch, kind, bytes}, data);
  if (live(rank))
    ++rank->receivedFrom[peer];
}

void pprt_input(pprt_rank *rank, int64_t microbatch, int64_t index, void *data,
                int64_t bytes) {
  if (!live(rank) || !checkMicrobatch(*rank, "pprt_input", microbatch) ||
      !checkBuffer(*rank, "pprt_input", data, bytes))
    return;
  const auto &inputs = rank->step->data->inputs;
  auto it = inputs.find({stepMicrobatch(*rank, microbatch), index});
  copyLauncherData(*rank, "pprt_input",
                   "data argument " + std::to_string(index) +
                       " of micro-batch " + std::to_string(microbatch),
                   it == inputs.end() ? nullptr : &it->second, data, bytes);
}

void pprt_parameter(pprt_rank *rank, int64_t stage, int64_t index, void *data,
                    int64_t bytes) {
  if (!live(rank) || !checkBuffer(*rank, "pprt_parameter", data, bytes))
    return;
  const WorldData &world = *rank->step->data;
  const auto &parameters = world.parameters;
  auto it = parameters.find(world.copyOf({stage, index}));
  copyLauncherData(*rank, "pprt_parameter",
                   "parameter " + std::to_string(index) + " of stage " +
                       std::to_string(stage),
                   it == parameters.end() ? nullptr : &it->second.bytes, data,
                   bytes);
}

void pprt_accumulate_gradient(pprt_rank *rank, int64_t stage, int64_t index,
                              const void *data, int64_t bytes, int64_t dtype) {
  const char *fn = "pprt_accumulate_gradient";
  if (!live(rank) || !checkBuffer(*rank, fn, data, bytes) ||
      !checkDtype(*rank, fn, dtype))
    return;
  std::string what = "parameter " + std::to_string(index) + " of stage " +
                     std::to_string(stage);
  // A shared parameter's uses on one rank add into their copy's gradient.
  const WorldData &world = *rank->step->data;
  Key2 copy = world.copyOf({stage, index});
  const auto &parameters = world.parameters;
  auto param = parameters.find(copy);
  if (param == parameters.end()) {
    failCall(*rank, fn,
             "gradient of " + what +
                 ", which the launcher did "
                 "not set");
    return;
  }
  if (static_cast<int64_t>(param->second.bytes.size()) != bytes ||
      param->second.dtype != dtype) {
    rank->step->fail(rankName(rank->rank) + " added a gradient of " +
                     std::to_string(bytes) + " bytes of " + dtypeName(dtype) +
                     " to " + what + ", which has " +
                     std::to_string(param->second.bytes.size()) + " bytes of " +
                     dtypeName(param->second.dtype));
    return;
  }
  if (bytes % dtypeSize(dtype) != 0) {
    failCall(*rank, fn,
             std::to_string(bytes) + " bytes is not a whole number of " +
                 dtypeName(dtype) + " elements");
    return;
  }
  // The gradient as host bytes (a copy from the device when the rank
  // program's buffers live there).
  std::vector<char> hostCopy;
  const void *host = data;
  if (rank->step->options.deviceMemory) {
    hostCopy.resize(static_cast<size_t>(bytes));
    copyToHost(*rank, hostCopy.data(), data, bytes);
    if (!live(rank))
      return;
    host = hostCopy.data();
  }
  auto [it, inserted] = rank->gradients.try_emplace(copy);
  Buffer &grad = it->second;
  if (inserted) {
    grad.dtype = static_cast<pprt_dtype>(dtype);
    std::vector<char> spare;
    {
      StepContext &step = *rank->step;
      std::lock_guard<std::mutex> lock(step.recycledMutex);
      auto it = step.recycledGradients.find(copy);
      if (it != step.recycledGradients.end()) {
        spare = std::move(it->second);
        step.recycledGradients.erase(it);
      }
    }
    if (!hostCopy.empty() || bytes == 0) {
      grad.bytes = std::move(hostCopy);
      return;
    }
    grad.bytes = std::move(spare);
    grad.bytes.assign(static_cast<const char *>(host),
                      static_cast<const char *>(host) + bytes);
    return;
  }
  addBuffer(grad.bytes, host, bytes, dtype);
}

void pprt_allreduce(pprt_rank *rank, int64_t stage, int64_t start) {
  if (!live(rank))
    return;
  const WorldOptions &options = rank->step->options;
  if (stage < 0 || (options.stages > 0 && stage >= options.stages)) {
    failCall(*rank, "pprt_allreduce",
             "stage " + std::to_string(stage) + " is out of range");
    return;
  }
  if (options.replicas <= 1)
    return;
  // Every call leaves an all-reduce event in this step's trace.
  if (std::any_of(rank->events.begin(), rank->events.end(),
                  [&](const TraceEvent &e) {
                    return e.action == PPRT_ALLREDUCE && e.stage == stage;
                  })) {
    failCall(*rank, "pprt_allreduce",
             "stage " + std::to_string(stage) +
                 " was reduced already this step");
    return;
  }
  double now = rank->step->now();
  TraceEvent event;
  event.rank = rank->rank;
  event.action = PPRT_ALLREDUCE;
  event.stage = stage;
  event.microbatch = -1;
  event.start = event.end = now;
  rank->events.push_back(event);
  rank->openBucket.push_back({stage, rank->events.size() - 1});
  if (!start)
    return;
  ReplicaBucket bucket;
  bucket.swap(rank->openBucket);
  rank->step->transport->startReplicaReduce(*rank, bucket);
}

void pprt_loss(pprt_rank *rank, int64_t microbatch, const void *data,
               int64_t dtype) {
  if (!live(rank) || !checkMicrobatch(*rank, "pprt_loss", microbatch) ||
      !checkDtype(*rank, "pprt_loss", dtype) ||
      !checkBuffer(*rank, "pprt_loss", data, dtypeSize(dtype)))
    return;
  double value;
  if (dtype == PPRT_F64) {
    copyToHost(*rank, &value, data, sizeof(double));
  } else {
    float f;
    copyToHost(*rank, &f, data, sizeof(float));
    value = f;
  }
  if (!live(rank))
    return;
  rank->lossSum[stepMicrobatch(*rank, microbatch)] += value;
  rank->lossCount[stepMicrobatch(*rank, microbatch)] += 1;
}

void pprt_loss_seed(pprt_rank *rank, void *data, int64_t dtype) {
  if (!live(rank) || !checkDtype(*rank, "pprt_loss_seed", dtype) ||
      !checkBuffer(*rank, "pprt_loss_seed", data, dtypeSize(dtype)))
    return;
  double seed = 1.0 / static_cast<double>(rank->step->options.microbatches *
                                          rank->step->options.replicas);
  if (dtype == PPRT_F64) {
    copyFromHost(*rank, data, &seed, sizeof(double));
  } else {
    float f = static_cast<float>(seed);
    copyFromHost(*rank, data, &f, sizeof(float));
  }
}

/// Waits for a free compute slot (WorldOptions::computeSlots) and takes
/// it; false if the step failed meanwhile or the wait passed the timeout
/// (then the step fails).
static bool acquireComputeSlot(pprt_rank &rank) {
  StepContext &step = *rank.step;
  if (step.transport && step.transport->sharesComputeSlots())
    return step.transport->acquireComputeSlot(rank);
  Clock::time_point deadline = deadlineAfter(step.options.timeoutSeconds);
  std::unique_lock<std::mutex> lock(step.slotMutex);
  while (step.freeSlots == 0) {
    if (step.failed)
      return false;
    if (Clock::now() >= deadline) {
      lock.unlock();
      step.fail(rankName(rank.rank) + ": waited more than " +
                formatSeconds(step.options.timeoutSeconds) +
                " s for a compute slot");
      return false;
    }
    // Wakes up now and then to see whether the step failed.
    step.slotFreed.wait_for(lock, std::chrono::milliseconds(20));
  }
  --step.freeSlots;
  return true;
}

static void releaseComputeSlot(pprt_rank &rank) {
  StepContext &step = *rank.step;
  if (step.transport && step.transport->sharesComputeSlots()) {
    step.transport->releaseComputeSlot(rank);
    return;
  }
  {
    std::lock_guard<std::mutex> lock(step.slotMutex);
    ++step.freeSlots;
  }
  step.slotFreed.notify_one();
}

void pprt_action_begin(pprt_rank *rank, int64_t action, int64_t stage,
                       int64_t microbatch) {
  if (!live(rank))
    return;
  if (action < PPRT_FORWARD || action > PPRT_RECV) {
    failCall(*rank, "pprt_action_begin",
             "unknown action " + std::to_string(action));
    return;
  }
  ++rank->actionsBegun;
  const FaultInjection &fault = rank->step->options.fault;
  if (fault.rank == rank->rank && fault.action == rank->actionsBegun &&
      (fault.step == 0 || fault.step == rank->step->step)) {
    injectFault(*rank, fault, action, stage, microbatch);
    if (!live(rank))
      return;
  }
  bool compute = action <= PPRT_BACKWARD_WEIGHT;
  if (compute && rank->step->transport) {
    rank->step->transport->computeBegins(*rank);
    if (!live(rank))
      return;
  }
  pprt_rank::OpenAction open;
  if (compute && rank->step->options.computeSlots > 0) {
    if (!acquireComputeSlot(*rank))
      return;
    open.holdsSlot = true;
  }
  open.action = static_cast<pprt_action>(action);
  open.stage = stage;
  open.microbatch = microbatch;
  open.start = rank->step->now();
  open.cpuStart = threadCpuSeconds();
  rank->open.push_back(open);
}

void pprt_action_end(pprt_rank *rank) {
  if (!live(rank))
    return;
  if (rank->open.empty()) {
    failCall(*rank, "pprt_action_end", "no action is open");
    return;
  }
  pprt_rank::OpenAction open = rank->open.back();
  rank->open.pop_back();
  TraceEvent event{rank->rank,      open.action, open.stage,
                   open.microbatch, open.start,  rank->step->now()};
  event.kind = open.kind;
  event.peer = open.peer;
  event.cpu = threadCpuSeconds() - open.cpuStart;
  rank->events.push_back(event);
  if (open.holdsSlot) // after the end time: the next action starts later
    releaseComputeSlot(*rank);
}

void pprt_fail(pprt_rank *rank, const char *message) {
  if (!live(rank))
    return;
  rank->step->fail(rankName(rank->rank) + ": " +
                   (message ? message : "failed"));
}

void pprt_stash(pprt_rank *rank, int64_t delta) {
  if (!live(rank))
    return;
  rank->stash += delta;
  rank->stashPeak = std::max(rank->stashPeak, rank->stash);
}

} // extern "C"
