//===- gemm-fake-plugin.cpp - a CPU stand-in for pp-bench-gemm's tests ----===//
//
// libPPBenchGemmFakePlugin.so exports what pp-bench-gemm looks up after it
// loads the CUDA plugin (pprt_cuda_open, the mgpu* memory functions,
// pprt_gpu_gemm_f32, the cuEvent* driver functions and the cuBLAS calls),
// implemented on the CPU: host memory, steady-clock "events", a
// column-major reference GEMM for the cuBLAS entry points and an
// independent row-major one for pprt_gpu_gemm_f32 (as pprt/Cuda.h defines
// it). `pp-bench-gemm --plugin=<this library>` then exercises the
// benchmark's argument translation, timing and result checks on machines
// without a GPU (integration_test/GPU/pp-bench-gemm-fake.test). Its GFLOP/s
// mean nothing. With PP_FAKE_GEMM_BROKEN set, pprt_gpu_gemm_f32 leaves the last
// element of every C unwritten (the check must then fail).
//
//===----------------------------------------------------------------------===//

#include "pprt/Cuda.h"
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <cublas_v2.h>
#include <cuda.h>
#include <vector>
using namespace pprt::cuda;
namespace {
struct FakeDevice : Device {
  int ordinal() const override { return 0; }
  std::string description() const override { return "FAKE CPU device"; }
  bool addRank(int, int64_t, std::string &) override { return true; }
  bool bindRank(int, pprt_rank *, std::string &) override { return true; }
  void unbind() override {}
  bool synchronize(int, double, std::string &) override { return true; }
  PoolStats poolStats(int) const override { return {}; }
  void resetPeak(int) override {}
  void fillDeviceMemory(pprt::WorldOptions &) override {}
  bool registerNcclTransport(std::string &) override { return false; }
};
struct Ev {
  std::chrono::steady_clock::time_point t;
};
} // namespace
extern "C" {
Device *pprt_cuda_open(const DeviceOptions *, char *, size_t) {
  return new FakeDevice;
}
CUresult cuEventCreate(CUevent *e, unsigned) {
  *e = reinterpret_cast<CUevent>(new Ev);
  return CUDA_SUCCESS;
}
CUresult cuEventDestroy(CUevent e) {
  delete reinterpret_cast<Ev *>(e);
  return CUDA_SUCCESS;
}
CUresult cuEventRecord(CUevent e, CUstream) {
  reinterpret_cast<Ev *>(e)->t = std::chrono::steady_clock::now();
  return CUDA_SUCCESS;
}
CUresult cuEventSynchronize(CUevent) { return CUDA_SUCCESS; }
CUresult cuEventElapsedTime(float *ms, CUevent a, CUevent b) {
  *ms = std::chrono::duration<float, std::milli>(reinterpret_cast<Ev *>(b)->t -
                                                 reinterpret_cast<Ev *>(a)->t)
            .count();
  return CUDA_SUCCESS;
}
cublasStatus_t cublasCreate(cublasHandle_t *h) {
  *h = reinterpret_cast<cublasHandle_t>(new int);
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasDestroy(cublasHandle_t h) {
  delete reinterpret_cast<int *>(h);
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasSetStream(cublasHandle_t, cudaStream_t) {
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasSetMathMode(cublasHandle_t, cublasMath_t) {
  return CUBLAS_STATUS_SUCCESS;
}
// Column-major reference BLAS.
static void colGemm(cublasOperation_t ta, cublasOperation_t tb, int m, int n,
                    int k, const float *A, int lda, const float *B, int ldb,
                    float *C, int ldc) {
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      float s = 0;
      for (int l = 0; l < k; ++l) {
        float a = ta == CUBLAS_OP_N ? A[i + l * lda] : A[l + i * lda];
        float b = tb == CUBLAS_OP_N ? B[l + j * ldb] : B[j + l * ldb];
        s += a * b;
      }
      C[i + j * ldc] = s;
    }
}
cublasStatus_t cublasSgemm(cublasHandle_t, cublasOperation_t ta,
                           cublasOperation_t tb, int m, int n, int k,
                           const float *, const float *A, int lda,
                           const float *B, int ldb, const float *, float *C,
                           int ldc) {
  colGemm(ta, tb, m, n, k, A, lda, B, ldb, C, ldc);
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasSgemmStridedBatched(cublasHandle_t, cublasOperation_t ta,
                                         cublasOperation_t tb, int m, int n,
                                         int k, const float *, const float *A,
                                         int lda, long long sa, const float *B,
                                         int ldb, long long sb, const float *,
                                         float *C, int ldc, long long sc,
                                         int batch) {
  for (int b = 0; b < batch; ++b)
    colGemm(ta, tb, m, n, k, A + b * sa, lda, B + b * sb, ldb, C + b * sc, ldc);
  return CUBLAS_STATUS_SUCCESS;
}
CUstream mgpuStreamCreate() { return nullptr; }
void mgpuStreamSynchronize(CUstream) {}
void *mgpuMemAlloc(uint64_t n, CUstream, bool) {
  return std::malloc(n ? n : 1);
}
void mgpuMemFree(void *p, CUstream) { std::free(p); }
void mgpuMemcpy(void *d, void *s, size_t n, CUstream) { std::memcpy(d, s, n); }
void mgpuMemset32(void *d, unsigned v, size_t n, CUstream) {
  for (size_t i = 0; i < n; ++i)
    static_cast<unsigned *>(d)[i] = v;
}
// Row-major, as Cuda.h documents pprt_gpu_gemm_f32 (independent of the
// column-major path).
void pprt_gpu_gemm_f32(int64_t batch, int64_t m, int64_t n, int64_t k,
                       int64_t tA, int64_t tB, const float *a, int64_t lda,
                       int64_t sA, const float *b, int64_t ldb, int64_t sB,
                       float *c, int64_t ldc, int64_t sC, int64_t acc) {
  bool broken = std::getenv("PP_FAKE_GEMM_BROKEN") != nullptr;
  for (int64_t q = 0; q < batch; ++q)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        if (broken && i == m - 1 && j == n - 1)
          continue;
        double s = 0;
        for (int64_t l = 0; l < k; ++l)
          s += double(a[q * sA + (tA ? l * lda + i : i * lda + l)]) *
               double(b[q * sB + (tB ? j * ldb + l : l * ldb + j)]);
        float &out = c[q * sC + i * ldc + j];
        out = acc ? out + float(s) : float(s);
      }
}
}
