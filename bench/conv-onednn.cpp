// Convolutions on the CPU: oneDNN's convolution primitives against im2col +
// OpenBLAS as pp-im2col and pp-gemm-to-runtime run them (issue 6/8: "measure
// both ... and choose by measurement"). Standalone (no MLIR, no project
// headers); bench/conv-onednn.sh builds and runs it.
//
// For each convolution (NCHW input already padded, OIHW weights, stride 1),
// it times the three functions of a pipeline stage:
//   F  y = conv(x, w)
//   B  dx = the input gradient, from dy and w
//   W  dw = the weight gradient, from dy and x
// two ways:
//   im2col + OpenBLAS  what the JIT runs (docs/Execution.md, steps 1b and
//                      6b): F copies x into the column matrix (n, c, kh, kw,
//                      oh, ow) and runs one cblas_sgemm per image, W[f, ckk]
//                      x col[ckk, oh ow]; B runs one GEMM per image, w^T x
//                      dy, into a column matrix and adds it back into dx
//                      (col2im: pp-autodiff's folded input gradient); W
//                      copies x into (n, oh, ow, c, kh, kw) and accumulates
//                      dy[f, oh ow] x col[oh ow, ckk] over the images.
//   oneDNN             convolution_forward (forward_training),
//                      convolution_backward_data and
//                      convolution_backward_weights on the same plain
//                      layouts (nchw, oihw: the layouts of pp-mlir's
//                      buffers, so no reorder is timed or needed); the
//                      implementation oneDNN picks is printed.
//   oneDNN, blocked    the same primitives on the layouts oneDNN prefers
//                      (format_tag::any: blocked, such as nChw8c), timed
//                      alone and with the reorders from and to the plain
//                      layouts that pp-mlir's buffers would need.
// Times: best of R repetitions after one warm-up call, one thread
// (OMP_NUM_THREADS=1, openblas_set_num_threads(1); the script pins the
// process to one core). Each oneDNN result is compared with im2col's (max
// |a - b| / max |b|): the two compute the same sums in different orders.
#include "BenchCommon.h"

#include <cblas.h>
#include <oneapi/dnnl/dnnl.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <random>
#include <string>
#include <vector>

extern "C" void openblas_set_num_threads(int);

namespace {

struct Conv {
  const char *name;
  long n, c, h, w, f, k; // h, w: the padded input; k x k filters
  long oh() const { return h - k + 1; }
  long ow() const { return w - k + 1; }
};

// bench/jit/conv.mlir's two (LeNet's conv2; a 3 x 3 convolution of the
// small ResNet's middle stage, padded) and a ResNet-18 layer1 3 x 3
// convolution of one 56 x 56 image (torchvision's, padded).
const Conv kConvs[] = {
    {"LeNet conv2: 8 x 6 x 12 x 12, 16 filters 5 x 5", 8, 6, 12, 12, 16, 5},
    {"small ResNet 3x3: 2 x 32 x 18 x 18, 32 filters", 2, 32, 18, 18, 32, 3},
    {"ResNet-18 layer1 3x3: 1 x 64 x 58 x 58, 64 filters", 1, 64, 58, 58, 64,
     3},
};

double bestSeconds(int repetitions, const std::function<void()> &f) {
  f();
  double best = 1e30;
  for (int r = 0; r < repetitions; ++r) {
    auto start = std::chrono::steady_clock::now();
    f();
    best = std::min(best, std::chrono::duration<double>(
                              std::chrono::steady_clock::now() - start)
                              .count());
  }
  return best;
}

/// im2col + OpenBLAS, the layouts and GEMMs of pp-im2col.
struct Im2col {
  const Conv &s;
  long ckk, ohow;
  std::vector<float> col;
  explicit Im2col(const Conv &s)
      : s(s), ckk(s.c * s.k * s.k), ohow(s.oh() * s.ow()),
        col(s.n * ckk * ohow) {}

  /// Calls `f(xIndex, colIndex)` for every element of the forward's column
  /// matrix (n, c, kh, kw, oh, ow): its index and that of the element of x
  /// (n, c, oh + kh, ow + kw) it copies.
  template <typename F> void forEachForwardColumn(F f) {
    for (long n = 0; n < s.n; ++n)
      for (long c = 0; c < s.c; ++c)
        for (long kh = 0; kh < s.k; ++kh)
          for (long kw = 0; kw < s.k; ++kw)
            for (long oh = 0; oh < s.oh(); ++oh)
              for (long ow = 0; ow < s.ow(); ++ow)
                f(((n * s.c + c) * s.h + oh + kh) * s.w + ow + kw,
                  (((n * s.c + c) * s.k + kh) * s.k + kw) * ohow + oh * s.ow() +
                      ow);
  }

  void forward(const float *x, const float *w, float *y) {
    forEachForwardColumn([&](long xi, long ci) { col[ci] = x[xi]; });
    for (long n = 0; n < s.n; ++n)
      cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, s.f, ohow, ckk,
                  1.0f, w, ckk, &col[n * ckk * ohow], ohow, 0.0f,
                  y + n * s.f * ohow, ohow);
  }

  void backwardData(const float *dy, const float *w, float *dx) {
    for (long n = 0; n < s.n; ++n)
      cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, ckk, ohow, s.f, 1.0f,
                  w, ckk, dy + n * s.f * ohow, ohow, 0.0f, &col[n * ckk * ohow],
                  ohow);
    std::fill(dx, dx + s.n * s.c * s.h * s.w, 0.0f);
    // col2im: the column matrix added back into the input's shape.
    forEachForwardColumn([&](long xi, long ci) { dx[xi] += col[ci]; });
  }

  void backwardWeights(const float *dy, const float *x, float *dw) {
    for (long n = 0; n < s.n; ++n)
      for (long oh = 0; oh < s.oh(); ++oh)
        for (long ow = 0; ow < s.ow(); ++ow)
          for (long c = 0; c < s.c; ++c)
            for (long kh = 0; kh < s.k; ++kh)
              for (long kw = 0; kw < s.k; ++kw)
                col[((n * ohow + oh * s.ow() + ow) * s.c + c) * s.k * s.k +
                    kh * s.k + kw] =
                    x[((n * s.c + c) * s.h + oh + kh) * s.w + ow + kw];
    for (long n = 0; n < s.n; ++n)
      cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, s.f, ckk, ohow,
                  1.0f, dy + n * s.f * ohow, ohow, &col[n * ohow * ckk], ckk,
                  n == 0 ? 0.0f : 1.0f, dw, ckk);
  }
};

/// The primitive descriptors of F, B and W of `s` with the layouts `source`
/// (x, dx, y, dy) and `weights` (w, dw): plain (nchw, oihw) or `any`.
struct PrimitiveDescs {
  dnnl::convolution_forward::primitive_desc forward;
  dnnl::convolution_backward_data::primitive_desc data;
  dnnl::convolution_backward_weights::primitive_desc weights;
};

PrimitiveDescs makePrimitiveDescs(const Conv &s, dnnl::engine &cpu,
                                  dnnl::memory::format_tag source,
                                  dnnl::memory::format_tag weights) {
  using namespace dnnl;
  using dt = memory::data_type;
  memory::desc x({s.n, s.c, s.h, s.w}, dt::f32, source);
  memory::desc w({s.f, s.c, s.k, s.k}, dt::f32, weights);
  memory::desc y({s.n, s.f, s.oh(), s.ow()}, dt::f32, source);
  memory::dims strides{1, 1}, padding{0, 0};
  convolution_forward::primitive_desc forward(
      convolution_forward::desc(prop_kind::forward_training,
                                algorithm::convolution_direct, x, w, y, strides,
                                padding, padding),
      cpu);
  convolution_backward_data::primitive_desc data(
      convolution_backward_data::desc(algorithm::convolution_direct, x, w, y,
                                      strides, padding, padding),
      cpu, forward);
  convolution_backward_weights::primitive_desc weightsPd(
      convolution_backward_weights::desc(algorithm::convolution_direct, x, w, y,
                                         strides, padding, padding),
      cpu, forward);
  return {forward, data, weightsPd};
}

/// The three primitives on oneDNN's preferred (blocked) layouts: each
/// timed alone, and with the reorders of its inputs from the plain layouts
/// and of its output back.
struct Blocked {
  double seconds[3], withReorders[3];
  std::string impl[3];
};

Blocked timeBlocked(const Conv &s, dnnl::engine &cpu, dnnl::stream &strm,
                    int repetitions, std::vector<float> &x,
                    std::vector<float> &w, std::vector<float> &dy) {
  using namespace dnnl;
  using tag = memory::format_tag;
  using dt = memory::data_type;
  PrimitiveDescs pds = makePrimitiveDescs(s, cpu, tag::any, tag::any);
  auto &fwdPd = pds.forward;
  auto &dataPd = pds.data;
  auto &weightsPd = pds.weights;
  memory::desc xPlain({s.n, s.c, s.h, s.w}, dt::f32, tag::nchw),
      wPlain({s.f, s.c, s.k, s.k}, dt::f32, tag::oihw),
      yPlain({s.n, s.f, s.oh(), s.ow()}, dt::f32, tag::nchw);
  std::vector<float> yOut(s.n * s.f * s.oh() * s.ow()), dxOut(x.size()),
      dwOut(w.size());
  memory xUser(xPlain, cpu, x.data()), wUser(wPlain, cpu, w.data()),
      dyUser(yPlain, cpu, dy.data()), yUser(yPlain, cpu, yOut.data()),
      dxUser(xPlain, cpu, dxOut.data()), dwUser(wPlain, cpu, dwOut.data());
  // Blocked buffers, one per (primitive, argument) layout.
  memory fx(fwdPd.src_desc(), cpu), fw(fwdPd.weights_desc(), cpu),
      fy(fwdPd.dst_desc(), cpu);
  memory bdy(dataPd.diff_dst_desc(), cpu), bw(dataPd.weights_desc(), cpu),
      bdx(dataPd.diff_src_desc(), cpu);
  memory wx(weightsPd.src_desc(), cpu), wdy(weightsPd.diff_dst_desc(), cpu),
      wdw(weightsPd.diff_weights_desc(), cpu);
  auto reorderInto = [&](memory &from, memory &to) {
    reorder(from, to).execute(strm, from, to);
  };
  Blocked result;
  convolution_forward fwd(fwdPd);
  convolution_backward_data data(dataPd);
  convolution_backward_weights weights(weightsPd);
  auto runForward = [&] {
    fwd.execute(
        strm, {{DNNL_ARG_SRC, fx}, {DNNL_ARG_WEIGHTS, fw}, {DNNL_ARG_DST, fy}});
  };
  auto runData = [&] {
    data.execute(strm, {{DNNL_ARG_DIFF_DST, bdy},
                        {DNNL_ARG_WEIGHTS, bw},
                        {DNNL_ARG_DIFF_SRC, bdx}});
  };
  auto runWeights = [&] {
    weights.execute(strm, {{DNNL_ARG_SRC, wx},
                           {DNNL_ARG_DIFF_DST, wdy},
                           {DNNL_ARG_DIFF_WEIGHTS, wdw}});
  };
  reorderInto(xUser, fx), reorderInto(wUser, fw), reorderInto(dyUser, bdy),
      reorderInto(wUser, bw), reorderInto(xUser, wx), reorderInto(dyUser, wdy);
  strm.wait();
  result.seconds[0] = bestSeconds(repetitions, [&] {
    runForward();
    strm.wait();
  });
  result.seconds[1] = bestSeconds(repetitions, [&] {
    runData();
    strm.wait();
  });
  result.seconds[2] = bestSeconds(repetitions, [&] {
    runWeights();
    strm.wait();
  });
  result.withReorders[0] = bestSeconds(repetitions, [&] {
    reorderInto(xUser, fx), reorderInto(wUser, fw), runForward();
    reorderInto(fy, yUser);
    strm.wait();
  });
  result.withReorders[1] = bestSeconds(repetitions, [&] {
    reorderInto(dyUser, bdy), reorderInto(wUser, bw), runData();
    reorderInto(bdx, dxUser);
    strm.wait();
  });
  result.withReorders[2] = bestSeconds(repetitions, [&] {
    reorderInto(xUser, wx), reorderInto(dyUser, wdy), runWeights();
    reorderInto(wdw, dwUser);
    strm.wait();
  });
  result.impl[0] = fwdPd.impl_info_str();
  result.impl[1] = dataPd.impl_info_str();
  result.impl[2] = weightsPd.impl_info_str();
  return result;
}

void run(const Conv &s, int repetitions) {
  using namespace dnnl;
  using tag = memory::format_tag;
  using dt = memory::data_type;
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  auto randomVector = [&](long size) {
    std::vector<float> v(size);
    for (float &e : v)
      e = uniform(rng);
    return v;
  };
  long xSize = s.n * s.c * s.h * s.w, wSize = s.f * s.c * s.k * s.k,
       ySize = s.n * s.f * s.oh() * s.ow();
  std::vector<float> x = randomVector(xSize), w = randomVector(wSize),
                     dy = randomVector(ySize);
  std::vector<float> y(ySize), dx(xSize), dw(wSize);
  std::vector<float> yRef(ySize), dxRef(xSize), dwRef(wSize);

  Im2col im2col(s);
  double fIm2col = bestSeconds(
      repetitions, [&] { im2col.forward(x.data(), w.data(), yRef.data()); });
  double bIm2col = bestSeconds(repetitions, [&] {
    im2col.backwardData(dy.data(), w.data(), dxRef.data());
  });
  double wIm2col = bestSeconds(repetitions, [&] {
    im2col.backwardWeights(dy.data(), x.data(), dwRef.data());
  });

  engine cpu(engine::kind::cpu, 0);
  stream strm(cpu);
  PrimitiveDescs plain = makePrimitiveDescs(s, cpu, tag::nchw, tag::oihw);
  auto &fwdPd = plain.forward;
  auto &bwdDataPd = plain.data;
  auto &bwdWeightsPd = plain.weights;
  memory::desc xMd = fwdPd.src_desc(), wMd = fwdPd.weights_desc(),
               yMd = fwdPd.dst_desc();
  memory xMem(xMd, cpu, x.data()), wMem(wMd, cpu, w.data()),
      yMem(yMd, cpu, y.data()), dyMem(yMd, cpu, dy.data()),
      dxMem(xMd, cpu, dx.data()), dwMem(wMd, cpu, dw.data());
  convolution_forward fwd(fwdPd);
  convolution_backward_data bwdData(bwdDataPd);
  convolution_backward_weights bwdWeights(bwdWeightsPd);
  double fDnnl = bestSeconds(repetitions, [&] {
    fwd.execute(
        strm,
        {{DNNL_ARG_SRC, xMem}, {DNNL_ARG_WEIGHTS, wMem}, {DNNL_ARG_DST, yMem}});
    strm.wait();
  });
  double bDnnl = bestSeconds(repetitions, [&] {
    bwdData.execute(strm, {{DNNL_ARG_DIFF_DST, dyMem},
                           {DNNL_ARG_WEIGHTS, wMem},
                           {DNNL_ARG_DIFF_SRC, dxMem}});
    strm.wait();
  });
  double wDnnl = bestSeconds(repetitions, [&] {
    bwdWeights.execute(strm, {{DNNL_ARG_SRC, xMem},
                              {DNNL_ARG_DIFF_DST, dyMem},
                              {DNNL_ARG_DIFF_WEIGHTS, dwMem}});
    strm.wait();
  });

  Blocked blocked = timeBlocked(s, cpu, strm, repetitions, x, w, dy);

  struct Row {
    const char *pass;
    double im2col, dnnl, error;
    std::string impl;
    double blocked, blockedWithReorders;
    std::string blockedImpl;
  } rows[] = {
      {"F", fIm2col, fDnnl, maxRelativeError(y, yRef), fwdPd.impl_info_str(),
       blocked.seconds[0], blocked.withReorders[0], blocked.impl[0]},
      {"B (input gradient)", bIm2col, bDnnl, maxRelativeError(dx, dxRef),
       bwdDataPd.impl_info_str(), blocked.seconds[1], blocked.withReorders[1],
       blocked.impl[1]},
      {"W (weight gradient)", wIm2col, wDnnl, maxRelativeError(dw, dwRef),
       bwdWeightsPd.impl_info_str(), blocked.seconds[2],
       blocked.withReorders[2], blocked.impl[2]},
  };
  for (const Row &r : rows)
    std::printf("| %s | %s | %.1f | %.1f (%s) | %.1f / %.1f (%s) | %.2f | "
                "%.2f | %.1e |\n",
                s.name, r.pass, r.im2col * 1e6, r.dnnl * 1e6, r.impl.c_str(),
                r.blocked * 1e6, r.blockedWithReorders * 1e6,
                r.blockedImpl.c_str(), r.im2col / r.dnnl,
                r.im2col / r.blockedWithReorders, r.error);
}

} // namespace

int main(int argc, char **argv) {
  int repetitions = argc > 1 ? std::atoi(argv[1]) : 50;
  if (repetitions < 1) {
    std::fprintf(stderr, "usage: conv-onednn [REPETITIONS >= 1]\n");
    return 1;
  }
  openblas_set_num_threads(1);
  std::printf("| convolution | function | im2col + OpenBLAS (us) | oneDNN, "
              "plain layouts (us) | oneDNN, blocked: alone / with reorders "
              "(us) | im2col / plain | im2col / blocked with reorders | max "
              "rel. diff (plain) |\n");
  std::printf("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n");
  for (const Conv &s : kConvs)
    run(s, repetitions);
  return 0;
}
