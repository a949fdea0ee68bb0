// bf16 GEMM on the CPU: is oneDNN's bf16 GEMM (bf16 inputs, f32 accumulation
// and output) worth using instead of OpenBLAS's f32 sgemm? Standalone (no
// MLIR, no project headers); bench/bf16-gemm.sh builds and runs it.
//
// For each (M, N, K) of a transformer decoder layer (40 tokens, hidden 1536,
// kv 256, MLP 8960), row-major C = A B with A MxK, B KxN, C MxN, it times:
//   OpenBLAS f32     cblas_sgemm
//   oneDNN f32       dnnl_sgemm (reference)
//   oneDNN bf16      dnnl_gemm_bf16bf16f32: exported by libdnnl but not
//                    declared in its public headers (oneDNN's own tests declare
//                    it, as below); same convention as dnnl_sgemm (row-major).
//                    oneDNN 2.6 implements it only with AVX-512 (avx512_core)
//                    and returns dnnl_unimplemented otherwise.
//   oneDNN matmul    the matmul primitive with bf16 src/weights and f32 dst,
//                    the other bf16 path oneDNN offers (whatever implementation
//                    it picks on this CPU; its name is printed).
// Every transpose of the backward pass is run as a plain NN product of the
// same shape. Inputs are uniform in [-1, 1) (fixed seed); the bf16 operands
// are the f32 ones rounded to nearest even, once, outside the timing.
// Times: best of R repetitions after one warm-up call; GFLOP/s = 2MNK / s.
// Threads: OMP_NUM_THREADS (oneDNN, OpenMP) and openblas_set_num_threads,
// both from the first argument (default 1); the script pins the process.
// Accuracy: max |C_bf16 - C_f32| / max |C_f32| against sgemm on the f32
// inputs (shows a bf16-input product) and against sgemm on the bf16-rounded
// inputs held in f32 (shows f32 accumulation: only summation order differs).
// Deterministic: two calls give identical bytes.
#include "BenchCommon.h"

#include <cblas.h>
#include <oneapi/dnnl/dnnl.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

extern "C" dnnl_status_t
dnnl_gemm_bf16bf16f32(char transa, char transb, dnnl_dim_t M, dnnl_dim_t N,
                      dnnl_dim_t K, float alpha, const uint16_t *A,
                      dnnl_dim_t lda, const uint16_t *B, dnnl_dim_t ldb,
                      float beta, float *C, dnnl_dim_t ldc);

namespace {

struct Shape {
  long m, n, k;
  const char *pass;
};

const Shape kShapes[] = {
    {40, 1536, 1536, "fwd: q, o projection"},
    {40, 256, 1536, "fwd: k, v projection"},
    {40, 8960, 1536, "fwd: MLP up/gate; bwd input-grad of MLP down"},
    {40, 1536, 8960, "fwd: MLP down; bwd input-grad of MLP up/gate"},
    {1536, 1536, 40, "bwd weight-grad: q, o"},
    {8960, 1536, 40, "bwd weight-grad: MLP up/gate"},
    {1536, 8960, 40, "bwd weight-grad: MLP down"},
    {256, 1536, 40, "bwd weight-grad: k, v"},
};

uint16_t toBf16(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  if ((u & 0x7fffffffu) > 0x7f800000u)
    return uint16_t((u >> 16) | 0x40);
  u += 0x7fffu + ((u >> 16) & 1u); // round to nearest, ties to even
  return uint16_t(u >> 16);
}

float fromBf16(uint16_t h) {
  uint32_t u = uint32_t(h) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

double now() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Best time of R calls after one warm-up; R so that the calls take about
// `budget` seconds, 3 <= R <= 50.
double best(const std::function<void()> &f, double budget = 0.3) {
  double t0 = now();
  f();
  double first = now() - t0;
  int reps = std::clamp(int(budget / std::max(first, 1e-6)), 3, 50);
  double b = first;
  for (int r = 0; r < reps; ++r) {
    t0 = now();
    f();
    b = std::min(b, now() - t0);
  }
  return b;
}

void check(dnnl_status_t s, const char *what) {
  if (s != dnnl_success) {
    std::fprintf(stderr, "bf16-gemm: %s failed (dnnl status %d)\n", what,
                 int(s));
    std::exit(1);
  }
}

// The matmul primitive with bf16 src and weights and f32 dst, created once;
// `ok` is false where oneDNN has no implementation for this CPU.
struct Bf16Matmul {
  dnnl_primitive_t prim = nullptr;
  dnnl_memory_t a = nullptr, b = nullptr, c = nullptr;
  std::string impl = "unimplemented";
  bool ok = false;

  Bf16Matmul(dnnl_engine_t eng, long m, long n, long k, uint16_t *ha,
             uint16_t *hb, float *hc) {
    dnnl_memory_desc_t ad, bd, cd;
    dnnl_dims_t adims = {m, k}, bdims = {k, n}, cdims = {m, n};
    check(dnnl_memory_desc_init_by_tag(&ad, 2, adims, dnnl_bf16, dnnl_ab),
          "src desc");
    check(dnnl_memory_desc_init_by_tag(&bd, 2, bdims, dnnl_bf16, dnnl_ab),
          "weights desc");
    check(dnnl_memory_desc_init_by_tag(&cd, 2, cdims, dnnl_f32, dnnl_ab),
          "dst desc");
    dnnl_matmul_desc_t md;
    check(dnnl_matmul_desc_init(&md, &ad, &bd, nullptr, &cd), "matmul desc");
    dnnl_primitive_desc_t pd;
    dnnl_status_t st =
        dnnl_primitive_desc_create(&pd, &md, nullptr, eng, nullptr);
    if (st == dnnl_unimplemented)
      return;
    check(st, "matmul primitive desc");
    ok = true;
    const char *name = nullptr;
    dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &name);
    impl = name ? name : "?";
    check(dnnl_primitive_create(&prim, pd), "matmul primitive");
    dnnl_primitive_desc_destroy(pd);
    check(dnnl_memory_create(&a, &ad, eng, ha), "src memory");
    check(dnnl_memory_create(&b, &bd, eng, hb), "weights memory");
    check(dnnl_memory_create(&c, &cd, eng, hc), "dst memory");
  }
  ~Bf16Matmul() {
    if (!ok)
      return;
    dnnl_memory_destroy(a);
    dnnl_memory_destroy(b);
    dnnl_memory_destroy(c);
    dnnl_primitive_destroy(prim);
  }
  void run(dnnl_stream_t stream) {
    dnnl_exec_arg_t args[] = {
        {DNNL_ARG_SRC, a}, {DNNL_ARG_WEIGHTS, b}, {DNNL_ARG_DST, c}};
    check(dnnl_primitive_execute(prim, stream, 3, args), "matmul execute");
    check(dnnl_stream_wait(stream), "stream wait");
  }
};

std::string fmtRate(double gflop, double secs) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", gflop / secs);
  return buf;
}

std::string fmtRatio(double r) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", r);
  return buf;
}

std::string fmtSci(double d) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1e", d);
  return buf;
}

} // namespace

int main(int argc, char **argv) {
  int threads = argc > 1 ? std::atoi(argv[1]) : 1;
  if (threads < 1)
    threads = 1;
  openblas_set_num_threads(threads);
  const char *omp = std::getenv("OMP_NUM_THREADS");
  if (!omp || std::atoi(omp) != threads)
    std::fprintf(stderr,
                 "bf16-gemm: warning: OMP_NUM_THREADS=%s, oneDNN may not use "
                 "%d thread(s)\n",
                 omp ? omp : "(unset)", threads);

  dnnl_engine_t eng;
  dnnl_stream_t stream;
  check(dnnl_engine_create(&eng, dnnl_cpu, 0), "engine");
  check(dnnl_stream_create(&stream, eng, dnnl_stream_default_flags), "stream");

  std::printf("Threads: %d. GFLOP/s, best of R after a warm-up; ratios over "
              "OpenBLAS f32. Accuracy and determinism are those of "
              "gemm_bf16bf16f32 where it runs, else of the bf16 matmul.\n\n",
              threads);
  std::printf("| M x N x K | pass (as NN) | OpenBLAS f32 | oneDNN sgemm | "
              "oneDNN gemm_bf16bf16f32 | bf16 gemm / OpenBLAS | oneDNN bf16 "
              "matmul | matmul / OpenBLAS | bf16 rel. diff vs f32 | vs f32 on "
              "bf16-rounded inputs | bf16 deterministic |\n");
  std::printf("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | "
              "---: | --- |\n");

  std::mt19937 rng(1234);
  std::uniform_real_distribution<float> dist(-1.f, 1.f);
  std::string matmulImpl;
  for (const Shape &s : kShapes) {
    const long m = s.m, n = s.n, k = s.k;
    const double gflop = 2.0 * m * n * k * 1e-9;
    std::vector<float> a(m * k), b(k * n), aR(m * k), bR(k * n);
    std::vector<uint16_t> ah(m * k), bh(k * n);
    for (auto &x : a)
      x = dist(rng);
    for (auto &x : b)
      x = dist(rng);
    for (size_t i = 0; i < a.size(); ++i)
      aR[i] = fromBf16(ah[i] = toBf16(a[i]));
    for (size_t i = 0; i < b.size(); ++i)
      bR[i] = fromBf16(bh[i] = toBf16(b[i]));
    std::vector<float> cF(m * n), cR(m * n), cD(m * n), c1(m * n, 0.f),
        c2(m * n, 1.f);

    auto blas = [&](const float *x, const float *y, float *c) {
      cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.f, x, k,
                  y, n, 0.f, c, n);
    };
    double tBlas = best([&] { blas(a.data(), b.data(), cF.data()); });
    blas(aR.data(), bR.data(), cR.data());
    double tDnnlF = best([&] {
      check(dnnl_sgemm('N', 'N', m, n, k, 1.f, a.data(), k, b.data(), n, 0.f,
                       cD.data(), n),
            "dnnl_sgemm");
    });
    if (maxRelativeError(cD, cF) > 1e-5)
      std::fprintf(stderr, "bf16-gemm: dnnl_sgemm differs from cblas_sgemm\n");

    auto bf16Gemm = [&](float *c) {
      return dnnl_gemm_bf16bf16f32('N', 'N', m, n, k, 1.f, ah.data(), k,
                                   bh.data(), n, 0.f, c, n);
    };
    dnnl_status_t st = bf16Gemm(c1.data());
    std::string gemmRate = "unimplemented", gemmRatio = "-";
    bool gemmRuns = st == dnnl_success;
    if (gemmRuns) {
      double t = best([&] { bf16Gemm(c1.data()); });
      gemmRate = fmtRate(gflop, t);
      gemmRatio = fmtRatio(tBlas / t);
    } else if (st != dnnl_unimplemented) {
      check(st, "dnnl_gemm_bf16bf16f32");
    }

    std::vector<float> cM(m * n, 0.f), cM2(m * n, 1.f);
    Bf16Matmul mm(eng, m, n, k, ah.data(), bh.data(), cM.data());
    matmulImpl = mm.impl;
    std::string mmRate = "unimplemented", mmRatio = "-";
    if (mm.ok) {
      double t = best([&] { mm.run(stream); }, 0.1);
      mmRate = fmtRate(gflop, t);
      mmRatio = fmtRatio(tBlas / t);
    }

    // Accuracy and determinism: of gemm_bf16bf16f32 if it runs, else of the
    // matmul (second run into a buffer that starts different), else n/a.
    bool any = true;
    if (gemmRuns) {
      check(bf16Gemm(c1.data()), "dnnl_gemm_bf16bf16f32");
      check(bf16Gemm(c2.data()), "dnnl_gemm_bf16bf16f32");
    } else if (mm.ok) {
      mm.run(stream);
      c1 = cM;
      Bf16Matmul mm2(eng, m, n, k, ah.data(), bh.data(), cM2.data());
      mm2.run(stream);
      c2 = cM2;
      mmRate += "*";
    } else {
      any = false;
    }
    std::string diffF = "n/a", diffR = "n/a", det = "n/a";
    if (any) {
      diffF = fmtSci(maxRelativeError(c1, cF));
      diffR = fmtSci(maxRelativeError(c1, cR));
      det =
          std::memcmp(c1.data(), c2.data(), c1.size() * 4) == 0 ? "yes" : "no";
    }

    std::printf("| %ld x %ld x %ld | %s | %s | %s | %s | %s | %s | %s | %s "
                "| %s | %s |\n",
                m, n, k, s.pass, fmtRate(gflop, tBlas).c_str(),
                fmtRate(gflop, tDnnlF).c_str(), gemmRate.c_str(),
                gemmRatio.c_str(), mmRate.c_str(), mmRatio.c_str(),
                diffF.c_str(), diffR.c_str(), det.c_str());
    std::fflush(stdout);
  }
  std::printf("\nbf16 matmul implementation chosen by oneDNN %d.%d.%d: %s. "
              "* = accuracy and determinism columns are the matmul's; n/a = "
              "no bf16 path ran.\n",
              dnnl_version()->major, dnnl_version()->minor,
              dnnl_version()->patch, matmulImpl.c_str());
  dnnl_stream_destroy(stream);
  dnnl_engine_destroy(eng);
  return 0;
}
