//===- Streams.cpp - Streams and events of the CUDA plugin ----------------===//
//
// Bounded waits for events (the world's timeout, polling cuEventQuery), the
// ranks' spare events, and the mgpu* stream and event functions: a rank's
// compute stream is what mgpuStreamCreate returns while the rank is bound.
//
//===----------------------------------------------------------------------===//

#include "Device.h"
#include "Step.h"

#include <chrono>
#include <cstdio>

using namespace pprt;
using namespace pprt::cuda;
using pprt::detail::Backoff;

bool pprt::cuda::waitEvent(CUevent event, const std::string &what,
                           std::string &error, double timeout) {
  if (timeout < 0)
    timeout = waitTimeout();
  auto deadline =
      std::chrono::steady_clock::now() +
      std::chrono::duration_cast<std::chrono::steady_clock::duration>(
          std::chrono::duration<double>(timeout));
  Backoff backoff;
  for (;;) {
    CUresult result = cuEventQuery(event);
    if (result == CUDA_SUCCESS)
      return true;
    if (result != CUDA_ERROR_NOT_READY) {
      error = describeCu(result, "cuEventQuery");
      return false;
    }
    if (std::chrono::steady_clock::now() > deadline) {
      char seconds[32];
      std::snprintf(seconds, sizeof(seconds), "%g", timeout);
      error = std::string("timed out after ") + seconds + " s waiting for " +
              what + " on the GPU";
      if (stallHint && boundRank()) {
        std::string hint = stallHint(boundRank()->rank);
        if (!hint.empty())
          error += " (" + hint + ")";
      }
      return false;
    }
    backoff.pause();
  }
}

CUevent pprt::cuda::takeEvent(RankState &rank) {
  {
    std::lock_guard<std::mutex> lock(rank.mutex);
    if (!rank.spareEvents.empty()) {
      CUevent event = rank.spareEvents.back();
      rank.spareEvents.pop_back();
      return event;
    }
  }
  CUevent event = nullptr;
  checkCu(cuEventCreate(&event, CU_EVENT_DISABLE_TIMING), "cuEventCreate");
  return event;
}

void pprt::cuda::giveEvent(RankState &rank, CUevent event) {
  if (!event)
    return;
  std::lock_guard<std::mutex> lock(rank.mutex);
  rank.spareEvents.push_back(event);
}

namespace {
/// A stream or event made by `create(&handle, flags)` (cuStreamCreate or
/// cuEventCreate, named `name` in errors) in the device's context; null on
/// failure (reported).
template <typename Handle, typename Create>
Handle createInContext(Create create, unsigned flags, const char *name) {
  if (!ensureContext())
    return nullptr;
  Handle handle = nullptr;
  checkCu(create(&handle, flags), name);
  return handle;
}
} // namespace

extern "C" {

/// The bound rank's compute stream; without a binding a new stream.
CUstream mgpuStreamCreate() {
  if (RankState *bound = boundRank())
    return bound->compute;
  return createInContext<CUstream>(cuStreamCreate, CU_STREAM_NON_BLOCKING,
                                   "cuStreamCreate");
}

/// No-op for a rank's compute stream; destroys streams made unbound.
void mgpuStreamDestroy(CUstream stream) {
  RankState *bound = boundRank();
  if (!stream || (bound && stream == bound->compute))
    return;
  if (DeviceImpl *device = openDevice();
      device && device->isComputeStream(stream))
    return;
  checkCu(cuStreamDestroy(stream), "cuStreamDestroy");
}

/// Waits for `stream`, at most the world's timeout (polling an event).
void mgpuStreamSynchronize(CUstream stream) {
  if (!ensureContext())
    return;
  CUevent event = nullptr;
  if (!checkCu(cuEventCreate(&event, CU_EVENT_DISABLE_TIMING), "cuEventCreate"))
    return;
  std::string error;
  if (checkCu(cuEventRecord(event, stream), "cuEventRecord") &&
      !waitEvent(event, "a stream synchronization", error))
    reportError(error);
  cuEventDestroy(event);
}

void mgpuStreamWaitEvent(CUstream stream, CUevent event) {
  if (ensureContext())
    checkCu(cuStreamWaitEvent(stream, event, 0), "cuStreamWaitEvent");
}

CUevent mgpuEventCreate() {
  return createInContext<CUevent>(cuEventCreate, CU_EVENT_DISABLE_TIMING,
                                  "cuEventCreate");
}

void mgpuEventDestroy(CUevent event) {
  if (event && ensureContext())
    checkCu(cuEventDestroy(event), "cuEventDestroy");
}

/// Waits for `event`, at most the world's timeout.
void mgpuEventSynchronize(CUevent event) {
  if (!event || !ensureContext())
    return;
  std::string error;
  if (!waitEvent(event, "an event", error))
    reportError(error);
}

void mgpuEventRecord(CUevent event, CUstream stream) {
  if (ensureContext())
    checkCu(cuEventRecord(event, stream), "cuEventRecord");
}

} // extern "C"
