//===- Cuda.h - The CUDA plugin of the pp-mlir runtime ----------*- C++ -*-===//
//
// libPPRuntimeCUDA.so runs rank programs whose buffers live in GPU memory.
// It is a plugin: it links libcuda.so.1 (the driver), cuBLAS and NCCL, which
// machines without a GPU lack, so a launcher dlopen()s it only when asked to
// run on a GPU (openCudaPlugin below) and libPPRuntime.so stays CUDA-free.
//
// What it provides:
// - pprt::cuda::Device (from the one C entry point pprt_cuda_open): device
//   setup, per-rank resources (a compute stream, communication streams, a
//   cuBLAS handle, a device memory pool), bindRank, the device-memory hooks
//   of WorldOptions, the "nccl" transport;
// - the mgpu* C ABI that MLIR 22's gpu-to-llvm lowering and the
//   #gpu.select_object translation call (module load/unload, kernel launch,
//   streams, events, memory), running on the bound rank's stream and pool;
// - pprt_gpu_gemm_f32 / pprt_gpu_gemm_f64 (below), on cuBLAS.
//
// One Device per process. Several ranks may share it (inproc: ranks are
// threads); each thread that runs a rank program calls bindRank first.
// Sizes are bytes, times seconds.
//
//===----------------------------------------------------------------------===//

#ifndef PPRT_CUDA_H
#define PPRT_CUDA_H

#include "pprt/Runtime.h"
#include "pprt/pprt.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include <dlfcn.h>

namespace pprt {
namespace cuda {

struct DeviceOptions {
  /// CUDA device ordinal. -1: the environment's LOCAL_RANK (torchrun), else
  /// OMPI_COMM_WORLD_LOCAL_RANK (mpirun), else 0.
  int device = -1;
  /// Communication streams per rank (at least 1). Messages of one rank go
  /// round-robin over them by peer (peer % commStreams).
  int commStreams = 1;
};

/// A rank's device memory pool, in bytes.
struct PoolStats {
  int64_t size = 0;
  int64_t inUse = 0;
  /// Highest inUse since the rank was added or the last resetPeak.
  int64_t peak = 0;
  int64_t largestFree = 0;
  /// Bytes freed by the program but not yet reusable (a communication
  /// stream may still read them).
  int64_t pendingFree = 0;
  /// Bytes allocated outside the pool since the rank was added because the
  /// pool was full while messages in flight held part of it (waiting for
  /// them in the allocator could deadlock).
  int64_t overflow = 0;
};

class Device {
public:
  virtual ~Device() = default;

  /// The device ordinal in use.
  virtual int ordinal() const = 0;
  /// "NVIDIA H200 (device 0, sm_90, 139 GiB)".
  virtual std::string description() const = 0;

  /// Creates the resources of `rank`: a compute stream, the communication
  /// streams, a cuBLAS handle on the compute stream (pure FP32: pedantic
  /// math, no TF32) and a pool of `poolBytes` bytes (one cuMemAlloc,
  /// sub-allocated first fit at 256-byte alignment). Call once per local
  /// rank, before any step. False and `error` set on failure (e.g. the
  /// device has not that much free memory).
  virtual bool addRank(int rank, int64_t poolBytes, std::string &error) = 0;

  /// Makes `rank` current on the calling thread: the mgpu* functions,
  /// pprt_gpu_gemm_* and the hooks use its context, compute stream, pool
  /// and cuBLAS handle. `handle` is the rank's pprt_rank of the current
  /// step (the second argument of World::runStep's program; may be null):
  /// a CUDA error in this thread then fails the step through pprt_fail
  /// instead of only printing. Call on the rank's thread at the start of
  /// its program. False and `error` set if the rank was not added.
  virtual bool bindRank(int rank, pprt_rank *handle, std::string &error) = 0;
  /// Forgets the calling thread's binding (the ABI then runs on the
  /// legacy default stream with plain cuMemAlloc).
  virtual void unbind() = 0;

  /// Waits until all work of `rank` (compute and communication streams)
  /// is done, at most `timeoutSeconds`. False and `error` set on timeout or
  /// a CUDA error. The launcher calls it after a step, before reading
  /// results that the program left in device memory.
  virtual bool synchronize(int rank, double timeoutSeconds,
                           std::string &error) = 0;

  /// The pool of `rank` (zeros if it was not added).
  virtual PoolStats poolStats(int rank) const = 0;
  virtual void resetPeak(int rank) = 0;

  /// Sets options.deviceMemory to synchronous copies on the rank's compute
  /// stream (cuMemcpy{DtoH,HtoD}Async, then a wait on an event bounded by
  /// options.timeoutSeconds, which is also the bound of the mgpu*
  /// synchronizations), so that pprt_* calls reach device buffers. With
  /// the inproc transport, messages are staged through host memory this way
  /// (P ranks sharing one GPU). Call before World::create.
  virtual void fillDeviceMemory(WorldOptions &options) = 0;

  /// Registers transport "nccl" for World::create (one process per GPU;
  /// see runtime/README.md for the environment it reads). False and `error`
  /// set if the plugin was built without NCCL.
  virtual bool registerNcclTransport(std::string &error) = 0;
};

} // namespace cuda
} // namespace pprt

extern "C" {

/// Opens the device (cuInit, device choice, primary context) and returns
/// the process's Device, owned by the caller; null and `error` (a
/// NUL-terminated text of at most errorBytes bytes) on failure, e.g. "no
/// CUDA device: cuInit failed: CUDA_ERROR_NO_DEVICE (no CUDA-capable device
/// is detected)". At most one Device exists at a time.
pprt::cuda::Device *pprt_cuda_open(const pprt::cuda::DeviceOptions *options,
                                   char *error, size_t errorBytes);
typedef pprt::cuda::Device *(*pprt_cuda_open_fn)(
    const pprt::cuda::DeviceOptions *, char *, size_t);

/// Batched GEMM on the bound rank's compute stream (cuBLAS, pure FP32 or
/// FP64), row-major: for each b < batch,
///   C_b (m x n) = op(A_b) (m x k) * op(B_b) (k x n) + (accumulate ? C_b : 0)
/// with
///   op(A_b)(i, l) = a[b*strideA + i*lda + l]   if transA == 0
///                 = a[b*strideA + l*lda + i]   otherwise,
///   op(B_b)(l, j) = b[b*strideB + l*ldb + j]   if transB == 0
///                 = b[b*strideB + j*ldb + l]   otherwise,
///   C_b(i, j)     = c[b*strideC + i*ldc + j].
/// Leading dimensions and strides are in elements; all pointers are device
/// memory. Asynchronous (stream-ordered). Errors fail the bound rank.
void pprt_gpu_gemm_f32(int64_t batch, int64_t m, int64_t n, int64_t k,
                       int64_t transA, int64_t transB, const float *a,
                       int64_t lda, int64_t strideA, const float *b,
                       int64_t ldb, int64_t strideB, float *c, int64_t ldc,
                       int64_t strideC, int64_t accumulate);
void pprt_gpu_gemm_f64(int64_t batch, int64_t m, int64_t n, int64_t k,
                       int64_t transA, int64_t transB, const double *a,
                       int64_t lda, int64_t strideA, const double *b,
                       int64_t ldb, int64_t strideB, double *c, int64_t ldc,
                       int64_t strideC, int64_t accumulate);

} // extern "C"

namespace pprt {
namespace cuda {

/// Loads the plugin at `path` (e.g. <prefix>/lib/libPPRuntimeCUDA.so) with
/// RTLD_NOW | RTLD_GLOBAL, so that JIT-compiled code finds its mgpu* and
/// pprt_gpu_* symbols in the process, and opens the device. The library
/// stays loaded for the life of the process. Null and `error` set on
/// failure (a missing libcuda.so.1 shows as the dlopen error).
inline std::unique_ptr<Device> openCudaPlugin(const std::string &path,
                                              const DeviceOptions &options,
                                              std::string &error) {
  void *library = dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (!library) {
    const char *why = dlerror();
    error = "cannot load the CUDA plugin " + path + ": " +
            (why ? why : "unknown error");
    return nullptr;
  }
  auto open =
      reinterpret_cast<pprt_cuda_open_fn>(dlsym(library, "pprt_cuda_open"));
  if (!open) {
    error = path + " has no pprt_cuda_open (not the pp-mlir CUDA plugin?)";
    return nullptr;
  }
  char text[1024] = {0};
  std::unique_ptr<Device> device(open(&options, text, sizeof(text)));
  if (!device)
    error = text;
  return device;
}

} // namespace cuda
} // namespace pprt

#endif // PPRT_CUDA_H
