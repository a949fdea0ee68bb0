//===- CpuGemm.cpp - pprt_cpu_gemm_* on OpenBLAS --------------------------===//
//
// The CPU back end of pp-gemm-to-runtime (pprt.h): GEMMs of stage functions
// on OpenBLAS's cblas_sgemm / cblas_dgemm. OpenBLAS was chosen over BLIS
// (both Debian packages) by measurement on the GEMM shapes of the shared
// models (bench/README.md, "CPU GEMMs"): one thread, OpenBLAS was faster on
// the 40-row GEMMs of the decoder layer's F, B and W.
//
// Determinism: OpenBLAS splits a GEMM between threads along m and n, never
// along k, so every C element is accumulated by one kernel in one order: the
// same call on the same shapes gives the same bits, which keeps pp-run
// --check bitwise (the pipeline and the unpipelined reference call the same
// GEMMs).
//
//===----------------------------------------------------------------------===//

#include "pprt/pprt.h"

#include <cblas.h>

#include <algorithm>

namespace {
template <typename T>
using Gemm = void (*)(CBLAS_ORDER, CBLAS_TRANSPOSE, CBLAS_TRANSPOSE, blasint,
                      blasint, blasint, T, const T *, blasint, const T *,
                      blasint, T, T *, blasint);

template <typename T>
void gemm(Gemm<T> kernel, int64_t batch, int64_t m, int64_t n, int64_t k,
          int64_t transA, int64_t transB, const T *a, int64_t lda,
          int64_t strideA, const T *b, int64_t ldb, int64_t strideB, T *c,
          int64_t ldc, int64_t strideC, int64_t accumulate) {
  if (batch < 0 || m < 0 || n < 0 || k < 0)
    return;
  T beta = accumulate ? T(1) : T(0);
  for (int64_t p = 0; p < batch; ++p)
    kernel(CblasRowMajor, transA ? CblasTrans : CblasNoTrans,
           transB ? CblasTrans : CblasNoTrans, m, n, k, T(1), a + p * strideA,
           std::max<int64_t>(lda, 1), b + p * strideB,
           std::max<int64_t>(ldb, 1), beta, c + p * strideC,
           std::max<int64_t>(ldc, 1));
}
} // namespace

extern "C" {

void pprt_cpu_gemm_f32(int64_t batch, int64_t m, int64_t n, int64_t k,
                       int64_t transA, int64_t transB, const float *a,
                       int64_t lda, int64_t strideA, const float *b,
                       int64_t ldb, int64_t strideB, float *c, int64_t ldc,
                       int64_t strideC, int64_t accumulate) {
  gemm<float>(cblas_sgemm, batch, m, n, k, transA, transB, a, lda, strideA, b,
              ldb, strideB, c, ldc, strideC, accumulate);
}

void pprt_cpu_gemm_f64(int64_t batch, int64_t m, int64_t n, int64_t k,
                       int64_t transA, int64_t transB, const double *a,
                       int64_t lda, int64_t strideA, const double *b,
                       int64_t ldb, int64_t strideB, double *c, int64_t ldc,
                       int64_t strideC, int64_t accumulate) {
  gemm<double>(cblas_dgemm, batch, m, n, k, transA, transB, a, lda, strideA, b,
               ldb, strideB, c, ldc, strideC, accumulate);
}

int pprt_cpu_blas_threads(int threads) {
  int previous = openblas_get_num_threads();
  openblas_set_num_threads(std::max(threads, 1));
  return previous;
}

} // extern "C"
