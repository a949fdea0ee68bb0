//===- Module.cpp - Kernel modules and launches of the CUDA plugin --------===//
//
// The mgpu* functions that load GPU modules (cubin, fatbin, or PTX through
// the driver's JIT) and launch their kernels, with or without clusters.
//
//===----------------------------------------------------------------------===//

#include "Device.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

using namespace pprt;
using namespace pprt::cuda;

extern "C" {

/// Loads a cubin or fatbin (`bytes` long) into the device's context.
CUmodule mgpuModuleLoad(void *data, size_t bytes) {
  (void)bytes;
  if (!ensureContext())
    return nullptr;
  CUmodule module = nullptr;
  checkCu(cuModuleLoadData(&module, data), "cuModuleLoadData");
  return module;
}

/// Loads PTX (NUL-terminated) through the driver's JIT at `optLevel`
/// (0-4); a JIT error prints the JIT's log.
CUmodule mgpuModuleLoadJIT(void *data, int optLevel) {
  if (!ensureContext())
    return nullptr;
  char log[8192] = {0};
  CUjit_option keys[] = {CU_JIT_OPTIMIZATION_LEVEL, CU_JIT_ERROR_LOG_BUFFER,
                         CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {
      reinterpret_cast<void *>(
          static_cast<intptr_t>(std::clamp(optLevel, 0, 4))),
      log, reinterpret_cast<void *>(static_cast<intptr_t>(sizeof(log)))};
  CUmodule module = nullptr;
  CUresult result = cuModuleLoadDataEx(&module, data, 3, keys, values);
  if (result != CUDA_SUCCESS) {
    std::string message = describeCu(result, "cuModuleLoadDataEx (PTX JIT)");
    if (log[0])
      message += ": " + std::string(log);
    reportError(message);
    return nullptr;
  }
  return module;
}

void mgpuModuleUnload(CUmodule module) {
  if (module && ensureContext())
    checkCu(cuModuleUnload(module), "cuModuleUnload");
}

CUfunction mgpuModuleGetFunction(CUmodule module, const char *name) {
  CUfunction function = nullptr;
  if (!module)
    return nullptr; // the load reported its error
  if (!checkCu(cuModuleGetFunction(&function, module, name),
               "cuModuleGetFunction"))
    std::fprintf(stderr, "pprt: (kernel %s)\n", name);
  return function;
}

/// Launches on `stream` (the bound rank's compute stream, when the code
/// took it from mgpuStreamCreate). `paramsCount` is unused (the kernel's
/// signature gives it).
void mgpuLaunchKernel(CUfunction function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t smem, CUstream stream,
                      void **params, void **extra, size_t paramsCount) {
  (void)paramsCount;
  if (!function) {
    // The module did not load (its error was printed at startup, when no
    // rank was bound): fail the rank rather than skip the kernel.
    reportError("cuda error: mgpuLaunchKernel of a kernel whose module did "
                "not load (see the mgpuModuleLoad error above)");
    return;
  }
  if (!ensureContext())
    return;
  checkCu(cuLaunchKernel(function, gridX, gridY, gridZ, blockX, blockY, blockZ,
                         smem, stream, params, extra),
          "cuLaunchKernel");
}

void mgpuLaunchClusterKernel(CUfunction function, intptr_t clusterX,
                             intptr_t clusterY, intptr_t clusterZ,
                             intptr_t gridX, intptr_t gridY, intptr_t gridZ,
                             intptr_t blockX, intptr_t blockY, intptr_t blockZ,
                             int32_t smem, CUstream stream, void **params,
                             void **extra, size_t paramsCount) {
  (void)paramsCount;
  if (!function || !ensureContext())
    return;
  CUlaunchAttribute attribute;
  std::memset(&attribute, 0, sizeof(attribute));
  attribute.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
  attribute.value.clusterDim.x = static_cast<unsigned>(clusterX);
  attribute.value.clusterDim.y = static_cast<unsigned>(clusterY);
  attribute.value.clusterDim.z = static_cast<unsigned>(clusterZ);
  CUlaunchConfig config;
  std::memset(&config, 0, sizeof(config));
  config.gridDimX = static_cast<unsigned>(gridX);
  config.gridDimY = static_cast<unsigned>(gridY);
  config.gridDimZ = static_cast<unsigned>(gridZ);
  config.blockDimX = static_cast<unsigned>(blockX);
  config.blockDimY = static_cast<unsigned>(blockY);
  config.blockDimZ = static_cast<unsigned>(blockZ);
  config.sharedMemBytes = static_cast<unsigned>(smem);
  config.hStream = stream;
  config.attrs = &attribute;
  config.numAttrs = 1;
  if (smem > 48 * 1024)
    cuFuncSetAttribute(function,
                       CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, smem);
  checkCu(cuLaunchKernelEx(&config, function, params, extra),
          "cuLaunchKernelEx");
}

/// The plugin runs on the device pprt_cuda_open chose; asking for another
/// one is reported (generated code passes 0 by default, which is accepted
/// whatever the ordinal, as every process sees its own GPU as "its" device).
void mgpuSetDefaultDevice(int32_t device) {
  DeviceImpl *theDevice = openDevice();
  if (theDevice && device != 0 && device != theDevice->deviceOrdinal)
    std::fprintf(stderr,
                 "pprt: warning: mgpuSetDefaultDevice(%d) ignored: the CUDA "
                 "plugin runs on device %d\n",
                 device, theDevice->deviceOrdinal);
}

} // extern "C"
