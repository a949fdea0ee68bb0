//===- Gemm.cpp - GEMM on cuBLAS for generated code -----------------------===//
//
// pprt_gpu_gemm_f32 / _f64: row-major (batched, strided) GEMM on the bound
// rank's cuBLAS handle (pedantic FP32/FP64 math, on its compute stream).
//
//===----------------------------------------------------------------------===//

#include "Device.h"

#include <algorithm>

using namespace pprt;
using namespace pprt::cuda;

std::string pprt::cuda::describeBlas(cublasStatus_t status, const char *call) {
  const char *name = cublasGetStatusName(status);
  const char *text = cublasGetStatusString(status);
  return std::string("cuda error: ") + call +
         " failed: " + (name ? name : "?") + " (" + (text ? text : "?") + ")";
}

bool pprt::cuda::checkBlas(cublasStatus_t status, const char *call) {
  if (status == CUBLAS_STATUS_SUCCESS)
    return true;
  reportError(describeBlas(status, call));
  return false;
}

namespace {

/// cuBLAS is column-major: a row-major X (r x c, leading dimension ld) is
/// the column-major X^T. So row-major C = op(A) op(B) is column-major
/// C^T = op(B)^T op(A)^T: cuBLAS's "A" is our B and its "B" our A, with
/// the transposition flags as given, m and n swapped.
template <typename T, typename Gemm>
void gemm(const char *name, Gemm call, int64_t batch, int64_t m, int64_t n,
          int64_t k, int64_t transA, int64_t transB, const T *a, int64_t lda,
          int64_t strideA, const T *b, int64_t ldb, int64_t strideB, T *c,
          int64_t ldc, int64_t strideC, int64_t accumulate) {
  if (batch <= 0 || m <= 0 || n <= 0)
    return;
  DeviceImpl *dev = requireDevice(name);
  if (!dev || !ensureContext())
    return;
  RankState *bound = boundRank();
  cublasHandle_t handle = bound ? bound->blas : dev->fallbackBlas();
  if (!handle)
    return;
  // Leading dimensions (elements) of the row-major storage: a row of
  // op(A) stored untransposed needs lda >= k, transposed lda >= m, etc.
  // A dimension of 1 leaves its leading dimension free; cuBLAS still wants
  // it at least as large as the rows it sees, so it is raised then.
  auto leading = [&](int64_t ld, int64_t need, int64_t rows, const char *which,
                     int64_t &out) {
    need = std::max<int64_t>(need, 1);
    if (ld >= need || rows <= 1) {
      out = std::max(ld, need);
      return true;
    }
    reportError(std::string("cuda error: ") + name + ": " + which + " " +
                std::to_string(ld) + " is less than " + std::to_string(need));
    return false;
  };
  int64_t ldaEff, ldbEff, ldcEff;
  if (k < 0) {
    reportError(std::string("cuda error: ") + name + ": negative k " +
                std::to_string(k));
    return;
  }
  if (!leading(lda, transA ? m : k, transA ? k : m, "lda", ldaEff) ||
      !leading(ldb, transB ? k : n, transB ? n : k, "ldb", ldbEff) ||
      !leading(ldc, n, m, "ldc", ldcEff))
    return;
  T alpha = 1, beta = accumulate ? 1 : 0;
  checkBlas(call(handle, transB ? CUBLAS_OP_T : CUBLAS_OP_N,
                 transA ? CUBLAS_OP_T : CUBLAS_OP_N, n, m, k, &alpha, b, ldbEff,
                 strideB, a, ldaEff, strideA, &beta, c, ldcEff, strideC, batch),
            name);
}

} // namespace

extern "C" void pprt_gpu_gemm_f32(int64_t batch, int64_t m, int64_t n,
                                  int64_t k, int64_t transA, int64_t transB,
                                  const float *a, int64_t lda, int64_t strideA,
                                  const float *b, int64_t ldb, int64_t strideB,
                                  float *c, int64_t ldc, int64_t strideC,
                                  int64_t accumulate) {
  gemm<float>("cublasSgemmStridedBatched_64", cublasSgemmStridedBatched_64,
              batch, m, n, k, transA, transB, a, lda, strideA, b, ldb, strideB,
              c, ldc, strideC, accumulate);
}

extern "C" void pprt_gpu_gemm_f64(int64_t batch, int64_t m, int64_t n,
                                  int64_t k, int64_t transA, int64_t transB,
                                  const double *a, int64_t lda, int64_t strideA,
                                  const double *b, int64_t ldb, int64_t strideB,
                                  double *c, int64_t ldc, int64_t strideC,
                                  int64_t accumulate) {
  gemm<double>("cublasDgemmStridedBatched_64", cublasDgemmStridedBatched_64,
               batch, m, n, k, transA, transB, a, lda, strideA, b, ldb, strideB,
               c, ldc, strideC, accumulate);
}