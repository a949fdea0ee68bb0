//===- Step.cpp - One step of a world: context, ranks, results ------------===//
//
// The transport-independent part of a step: the shared helpers of the
// runtime (names, message texts, dtypes), StepContext, running a rank
// program, the trace as numbers, the results of the local ranks, and the
// copies between a rank program's buffers and host memory.
//
//===----------------------------------------------------------------------===//

#include "Step.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

using namespace pprt;
using namespace pprt::detail;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

const char *pprt::detail::kindName(int64_t kind) {
  return (kind & 1) == PPRT_ACTIVATION ? "activation" : "gradient";
}

std::string pprt::detail::describeMessage(int64_t kind, int64_t stage,
                                          int64_t microbatch) {
  std::string part =
      kind >= 2 ? " part " + std::to_string(kind / 2) : std::string();
  return std::string(kindName(kind)) + part + " (stage " +
         std::to_string(stage) + ", micro-batch " + std::to_string(microbatch) +
         ")";
}

const char *pprt::detail::dtypeName(int64_t dtype) {
  return dtype == PPRT_F64 ? "f64" : "f32";
}

int64_t pprt::detail::dtypeSize(int64_t dtype) {
  switch (dtype) {
  case PPRT_F32:
    return 4;
  case PPRT_F64:
    return 8;
  }
  return 0;
}

const char *pprt::detail::actionCategory(pprt_action action) {
  switch (action) {
  case PPRT_FORWARD:
    return "forward";
  case PPRT_BACKWARD:
    return "backward";
  case PPRT_BACKWARD_INPUT:
    return "backward_input";
  case PPRT_BACKWARD_WEIGHT:
    return "backward_weight";
  case PPRT_SEND:
    return "send";
  case PPRT_RECV:
    return "recv";
  case PPRT_ALLREDUCE:
    return "allreduce";
  }
  return "unknown";
}

std::string pprt::detail::formatSeconds(double seconds) {
  char text[64];
  std::snprintf(text, sizeof(text), "%g", seconds);
  return text;
}

std::string pprt::detail::rankName(int rank) {
  return "rank " + std::to_string(rank);
}

std::string pprt::detail::describeAction(int64_t action, int64_t stage,
                                         int64_t microbatch) {
  const char *name = action >= PPRT_FORWARD && action <= PPRT_RECV
                         ? actionCategory(static_cast<pprt_action>(action))
                         : "action";
  return std::string(name) + " of stage " + std::to_string(stage) +
         ", micro-batch " + std::to_string(microbatch);
}

namespace {
template <typename T>
void addInto(std::vector<char> &to, const void *from, int64_t bytes) {
  size_t count = static_cast<size_t>(bytes) / sizeof(T);
  T *out = reinterpret_cast<T *>(to.data());
  for (size_t i = 0; i < count; ++i) {
    T value;
    std::memcpy(&value, static_cast<const char *>(from) + i * sizeof(T),
                sizeof(T));
    out[i] += value;
  }
}
} // namespace

double pprt::gradientAccumulationSeconds() {
  static const double secondsPerByte = [] {
    constexpr int64_t kBytes = int64_t(32) << 20;
    std::vector<char> sum(kBytes), gradient(kBytes);
    std::vector<double> runs;
    for (int run = 0; run < 5; ++run) {
      auto start = Clock::now();
      addBuffer(sum, gradient.data(), kBytes, PPRT_F32);
      runs.push_back(
          std::chrono::duration<double>(Clock::now() - start).count());
    }
    std::sort(runs.begin(), runs.end());
    return runs[runs.size() / 2] / kBytes;
  }();
  return secondsPerByte;
}

void pprt::detail::addBuffer(std::vector<char> &to, const void *from,
                             int64_t bytes, int64_t dtype) {
  if (dtype == PPRT_F64)
    addInto<double>(to, from, bytes);
  else
    addInto<float>(to, from, bytes);
}

//===----------------------------------------------------------------------===//
// StepContext, rank runner, results
//===----------------------------------------------------------------------===//

pprt::detail::Transport::~Transport() = default;

void StepContext::fail(const std::string &message) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (failed.load())
      return;
    error = message;
    failTime = Clock::now();
    failed.store(true, std::memory_order_release);
  }
  changed.notify_all();
  if (onFailure)
    onFailure(message);
}

void pprt::detail::runRank(StepContext &step, pprt_rank &rank,
                           const Program &program) {
  // Device buffers (the GPU path) are not pprt_memory_alloc's: nothing to
  // charge or classify.
  MemoryScope memory(step.options.deviceMemory ? nullptr : &rank.memory);
  try {
    program(rank.rank, &rank);
  } catch (const std::exception &e) {
    step.fail(rankName(rank.rank) + " threw: " + e.what());
  } catch (...) {
    step.fail(rankName(rank.rank) +
              " threw an exception that is not a std::exception");
  }
  if (!step.failed.load() && !rank.openBucket.empty())
    step.fail(rankName(rank.rank) + ": pprt_allreduce: stage " +
              std::to_string(rank.openBucket.front().first) +
              " joined a bucket of all-reduces that no call started");
  if (!step.failed.load() && !rank.open.empty()) {
    const pprt_rank::OpenAction &last = rank.open.back();
    step.fail(rankName(rank.rank) + " ended the step with " +
              std::to_string(rank.open.size()) +
              " action(s) still open (innermost: " +
              describeAction(last.action, last.stage, last.microbatch) + ")");
  }
}

void pprt::detail::encodeTraceEvent(const TraceEvent &e, double *fields) {
  const double values[kTraceFields] = {static_cast<double>(e.rank),
                                       static_cast<double>(e.action),
                                       static_cast<double>(e.stage),
                                       static_cast<double>(e.microbatch),
                                       e.start,
                                       e.end,
                                       static_cast<double>(e.kind),
                                       static_cast<double>(e.peer),
                                       e.cpu};
  std::copy(values, values + kTraceFields, fields);
}

TraceEvent pprt::detail::decodeTraceEvent(const double *f) {
  TraceEvent e{static_cast<int>(f[0]),
               static_cast<pprt_action>(static_cast<int>(f[1])),
               static_cast<int64_t>(f[2]),
               static_cast<int64_t>(f[3]),
               f[4],
               f[5]};
  e.kind = static_cast<int64_t>(f[6]);
  e.peer = static_cast<int64_t>(f[7]);
  e.cpu = f[8];
  return e;
}

void pprt::detail::collectLocalResults(StepContext &step) {
  int64_t numMicrobatches = step.options.microbatches * step.options.replicas;
  step.lossSum.assign(numMicrobatches, 0.0);
  step.lossCount.assign(numMicrobatches, 0.0);
  step.stashPeaks.assign(step.options.ranks, 0);
  step.memoryPeaks.assign(step.options.ranks, MemoryPeaks());
  step.trace.clear();
  for (const std::unique_ptr<pprt_rank> &rank : step.ranks) {
    if (!rank)
      continue;
    for (int64_t m = 0; m < numMicrobatches; ++m) {
      step.lossSum[m] += rank->lossSum[m];
      step.lossCount[m] += rank->lossCount[m];
    }
    step.stashPeaks[rank->rank] = rank->stashPeak;
    step.memoryPeaks[rank->rank] = rank->memory.peaks();
    step.trace.insert(step.trace.end(), rank->events.begin(),
                      rank->events.end());
  }
  std::sort(step.trace.begin(), step.trace.end(),
            [](const TraceEvent &a, const TraceEvent &b) {
              return a.rank != b.rank ? a.rank < b.rank : a.start < b.start;
            });
}

namespace {
/// Copies `bytes` bytes from `src` to `dst` for `rank` through `hook` (a
/// device-memory hook) if it is set, else with memcpy; nothing for 0 bytes.
template <typename Hook>
void copyThrough(const Hook &hook, pprt_rank &rank, void *dst, const void *src,
                 int64_t bytes) {
  if (bytes <= 0)
    return;
  if (hook)
    hook(rank.rank, dst, src, bytes);
  else
    std::memcpy(dst, src, static_cast<size_t>(bytes));
}
} // namespace

void pprt::detail::copyToHost(pprt_rank &rank, void *hostDst,
                              const void *programSrc, int64_t bytes) {
  copyThrough(rank.step->options.deviceMemory.toHost, rank, hostDst, programSrc,
              bytes);
}

void pprt::detail::copyFromHost(pprt_rank &rank, void *programDst,
                                const void *hostSrc, int64_t bytes) {
  copyThrough(rank.step->options.deviceMemory.toDevice, rank, programDst,
              hostSrc, bytes);
}
