//===- CudaInternal.cpp - The CUDA plugin's shared state and helpers -----===//
//
// What every part of the plugin uses (CudaInternal.h, Device.h): the open
// device, the calling thread's bound rank and context, the timeout, and the
// error reports. Device.cpp opens the device and binds ranks; Gemm.cpp,
// Memory.cpp, Streams.cpp and Module.cpp call the helpers.
//
//===----------------------------------------------------------------------===//

#include "Device.h"

#include <cstdio>

using namespace pprt;
using namespace pprt::cuda;

DeviceImpl *pprt::cuda::state::device = nullptr;
std::mutex pprt::cuda::state::deviceMutex;
thread_local RankState *pprt::cuda::state::bound = nullptr;
std::atomic<double> pprt::cuda::state::timeoutSeconds{60.0};

namespace {
thread_local CUcontext currentContext = nullptr;
} // namespace

DeviceImpl *pprt::cuda::openDevice() { return state::device; }

DeviceImpl *pprt::cuda::requireDevice(const char *function) {
  if (state::device)
    return state::device;
  reportError(std::string("cuda error: ") + function +
              ": the CUDA plugin's device is not open (pprt_cuda_open)");
  return nullptr;
}

//===----------------------------------------------------------------------===//
// Shared helpers (CudaInternal.h)
//===----------------------------------------------------------------------===//

std::function<std::string(int)> pprt::cuda::stallHint;

RankState *pprt::cuda::boundRank() { return state::bound; }

RankState *pprt::cuda::rankState(int rank) {
  return state::device ? state::device->find(rank) : nullptr;
}

const DeviceOptions &pprt::cuda::deviceOptions() {
  static const DeviceOptions none;
  return state::device ? state::device->options : none;
}

double pprt::cuda::waitTimeout() { return state::timeoutSeconds; }

std::string pprt::cuda::describeCu(CUresult result, const char *call) {
  const char *name = nullptr, *text = nullptr;
  cuGetErrorName(result, &name);
  cuGetErrorString(result, &text);
  return std::string("cuda error: ") + call +
         " failed: " + (name ? name : "CUDA_ERROR_UNKNOWN") + " (" +
         (text ? text : "no description") + ")";
}

void pprt::cuda::reportError(const std::string &message) {
  std::fprintf(stderr, "pprt: %s\n", message.c_str());
  std::fflush(stderr);
  if (state::bound && state::bound->handle)
    pprt_fail(state::bound->handle, message.c_str());
}

bool pprt::cuda::checkCu(CUresult result, const char *call) {
  if (result == CUDA_SUCCESS)
    return true;
  reportError(describeCu(result, call));
  return false;
}

bool pprt::cuda::ensureContext() {
  if (!state::device) {
    reportError("cuda error: the CUDA plugin's device is not open "
                "(pprt_cuda_open)");
    return false;
  }
  if (currentContext == state::device->context)
    return true;
  if (!checkCu(cuCtxSetCurrent(state::device->context), "cuCtxSetCurrent"))
    return false;
  currentContext = state::device->context;
  return true;
}
