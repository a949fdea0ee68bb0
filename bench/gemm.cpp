//===- gemm.cpp - cuBLAS GEMM through the CUDA plugin vs cuBLAS directly --===//
//
// pp-bench-gemm [--shapes=S,...] [--repetitions=N] [--warmup=W] [--calls=C]
//               [--tolerance=T] [--plugin=PATH] [--device=D]
//
// What it measures: for each GEMM shape, the FP32 throughput of
//   (a) cuBLAS called directly (cublasSgemm, or cublasSgemmStridedBatched
//       for a batch), on a handle of its own with the plugin's math mode
//       (CUBLAS_PEDANTIC_MATH: pure FP32, no TF32), and
//   (b) pprt_gpu_gemm_f32 through libPPRuntimeCUDA.so, the call that code
//       compiled by pp-lower-stages-to-gpu makes (rank 0's cuBLAS handle),
// both on rank 0's compute stream, with the operands in rank 0's device
// memory pool. Each figure is the median over N repetitions (default 20) of
// the time of C back-to-back calls (default 10) between two CUDA events,
// divided by C, after W warm-up calls (default 3). Units: GFLOP/s =
// 2*B*M*N*K / seconds / 1e9; "fraction of cuBLAS" = (b) / (a).
//
// Results: both C matrices start as NaN (so an element left unwritten
// shows), then (b)'s result is compared with (a)'s over all elements, and
// (a)'s with a double-precision CPU computation of 64 sampled elements.
// Errors are normwise relative: max |x - ref| / max |ref|. The last line is
// "gemm check PASSED" or "gemm check FAILED" against --tolerance (1e-4).
//
// A shape is [B x] M x N x K [:op]: C (M x N) = op(A) (M x K) * op(B)
// (K x N), row-major as pprt_gpu_gemm_f32 defines it, B of them (strided
// batch) when B is given; op is nn (default), nt, tn or tt (transposition
// of A, then of B). The default shapes are the matmuls of the shared models
// (../shared/models: the MNIST MLP with one sample per micro-batch, the
// transformer layer with 40 tokens; forward and weight-gradient products)
// plus 1024^3 and 4096^3.
//
// Exit status: 0 when every check passed; 1 when it cannot run (the plugin
// does not load, no GPU, bad options; the reason is printed); 2 when a
// result check failed. Output is Markdown.
//
// The program links no CUDA library: the driver and cuBLAS functions it
// calls are looked up (dlsym) in the libraries the plugin loaded, so on a
// machine without a driver it starts and prints the plugin's error.
//
//===----------------------------------------------------------------------===//

#include "pprt/Cuda.h"

#include <cublas_v2.h>
#include <cuda.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <dlfcn.h>

namespace {

// The symbol a header name stands for (cuda.h and cublas_v2.h map e.g.
// cuEventDestroy to cuEventDestroy_v2 by macros).
#define PP_SYMBOL_NAME(f) PP_SYMBOL_NAME2(f)
#define PP_SYMBOL_NAME2(f) #f

struct Api {
  decltype(&cuEventCreate) eventCreate = nullptr;
  decltype(&cuEventDestroy) eventDestroy = nullptr;
  decltype(&cuEventRecord) eventRecord = nullptr;
  decltype(&cuEventSynchronize) eventSynchronize = nullptr;
  decltype(&cuEventElapsedTime) eventElapsedTime = nullptr;
  decltype(&cublasCreate) blasCreate = nullptr;
  decltype(&cublasDestroy) blasDestroy = nullptr;
  decltype(&cublasSetStream) blasSetStream = nullptr;
  decltype(&cublasSetMathMode) blasSetMathMode = nullptr;
  decltype(&cublasSgemm) sgemm = nullptr;
  decltype(&cublasSgemmStridedBatched) sgemmBatched = nullptr;
  // The plugin's C ABI (runtime/lib/cuda: Streams.cpp, Memory.cpp, Gemm.cpp).
  CUstream (*streamCreate)() = nullptr;
  void (*streamSynchronize)(CUstream) = nullptr;
  void *(*memAlloc)(uint64_t, CUstream, bool) = nullptr;
  void (*memFree)(void *, CUstream) = nullptr;
  void (*memcpy)(void *, void *, size_t, CUstream) = nullptr;
  void (*memset32)(void *, unsigned int, size_t, CUstream) = nullptr;
  decltype(&pprt_gpu_gemm_f32) gemm = nullptr;
};

template <typename F>
bool lookUp(F &out, const char *name, std::string &missing) {
  out = reinterpret_cast<F>(dlsym(RTLD_DEFAULT, name));
  if (!out)
    missing += std::string(missing.empty() ? "" : ", ") + name;
  return out != nullptr;
}

#define PP_LOOK_UP(field, f) lookUp(api.field, PP_SYMBOL_NAME(f), missing)

bool loadApi(Api &api, std::string &error) {
  std::string missing;
  PP_LOOK_UP(eventCreate, cuEventCreate);
  PP_LOOK_UP(eventDestroy, cuEventDestroy);
  PP_LOOK_UP(eventRecord, cuEventRecord);
  PP_LOOK_UP(eventSynchronize, cuEventSynchronize);
  PP_LOOK_UP(eventElapsedTime, cuEventElapsedTime);
  PP_LOOK_UP(blasCreate, cublasCreate);
  PP_LOOK_UP(blasDestroy, cublasDestroy);
  PP_LOOK_UP(blasSetStream, cublasSetStream);
  PP_LOOK_UP(blasSetMathMode, cublasSetMathMode);
  PP_LOOK_UP(sgemm, cublasSgemm);
  PP_LOOK_UP(sgemmBatched, cublasSgemmStridedBatched);
  PP_LOOK_UP(streamCreate, mgpuStreamCreate);
  PP_LOOK_UP(streamSynchronize, mgpuStreamSynchronize);
  PP_LOOK_UP(memAlloc, mgpuMemAlloc);
  PP_LOOK_UP(memFree, mgpuMemFree);
  PP_LOOK_UP(memcpy, mgpuMemcpy);
  PP_LOOK_UP(memset32, mgpuMemset32);
  PP_LOOK_UP(gemm, pprt_gpu_gemm_f32);
  if (missing.empty())
    return true;
  error = "symbols not found after loading the plugin: " + missing;
  return false;
}

struct Shape {
  int64_t batch = 1, m = 0, n = 0, k = 0;
  bool transA = false, transB = false;
  std::string origin = "-";

  std::string name() const {
    std::string s;
    if (batch != 1)
      s = std::to_string(batch) + "x";
    s += std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k);
    if (transA || transB)
      s += std::string(":") + (transA ? "t" : "n") + (transB ? "t" : "n");
    return s;
  }
  int64_t sizeA() const { return batch * m * k; }
  int64_t sizeB() const { return batch * k * n; }
  int64_t sizeC() const { return batch * m * n; }
  // Row-major leading dimensions, as pprt_gpu_gemm_f32 takes them.
  int64_t lda() const { return transA ? m : k; }
  int64_t ldb() const { return transB ? k : n; }
  double flops() const { return 2.0 * batch * m * n * k; }
};

bool parseShape(const std::string &text, Shape &shape, std::string &error) {
  std::string dims = text, op;
  if (auto colon = text.find(':'); colon != std::string::npos) {
    dims = text.substr(0, colon);
    op = text.substr(colon + 1);
  }
  std::vector<int64_t> values;
  size_t pos = 0;
  while (pos <= dims.size()) {
    size_t end = dims.find('x', pos);
    if (end == std::string::npos)
      end = dims.size();
    std::string part = dims.substr(pos, end - pos);
    char *rest = nullptr;
    long long v = part.empty() ? 0 : std::strtoll(part.c_str(), &rest, 10);
    if (part.empty() || *rest || v < 1) {
      error = "bad shape '" + text +
              "': expected [B x] M x N x K [:op], "
              "positive integers, e.g. 64x512x784 or 12x40x40x128:nt";
      return false;
    }
    values.push_back(v);
    pos = end + 1;
  }
  if (values.size() != 3 && values.size() != 4) {
    error = "bad shape '" + text + "': expected 3 or 4 dimensions";
    return false;
  }
  if (values.size() == 4)
    shape.batch = values[0];
  size_t i = values.size() - 3;
  shape.m = values[i];
  shape.n = values[i + 1];
  shape.k = values[i + 2];
  if (!op.empty()) {
    if (op.size() != 2 || (op[0] != 'n' && op[0] != 't') ||
        (op[1] != 'n' && op[1] != 't')) {
      error = "bad shape '" + text + "': op must be nn, nt, tn or tt";
      return false;
    }
    shape.transA = op[0] == 't';
    shape.transB = op[1] == 't';
  }
  return true;
}

std::vector<Shape> defaultShapes() {
  struct Entry {
    const char *shape, *origin;
  };
  // The shared models' matmuls (see the file comment). MNIST: x (1x784) *
  // W1^T (784x512), h (1x512) * W2^T (512x10); their weight gradients
  // dW = dY^T x (K = 1). Transformer layer (40 tokens, hidden 1536): the
  // q/o projections (1536x1536), k/v (1536 -> 256), the MLP (1536 -> 8960
  // twice, 8960 -> 1536), the 12-head attention products, and the weight
  // gradients of the square and MLP projections (K = 40 tokens).
  static const Entry entries[] = {
      {"1x512x784", "mnist fc1 forward"},
      {"1x10x512", "mnist fc2 forward"},
      {"512x784x1:tn", "mnist fc1 weight grad"},
      {"10x512x1:tn", "mnist fc2 weight grad"},
      {"40x1536x1536", "transformer q/o proj forward"},
      {"40x256x1536", "transformer k/v proj forward"},
      {"40x8960x1536", "transformer mlp up forward"},
      {"40x1536x8960", "transformer mlp down forward"},
      {"12x40x40x128", "transformer attention scores"},
      {"12x40x128x40", "transformer attention values"},
      {"1536x1536x40:tn", "transformer q/o proj weight grad"},
      {"8960x1536x40:tn", "transformer mlp up weight grad"},
      {"1024x1024x1024", "square"},
      {"4096x4096x4096", "square"},
  };
  std::vector<Shape> shapes;
  for (const Entry &e : entries) {
    Shape s;
    std::string error;
    parseShape(e.shape, s, error);
    s.origin = e.origin;
    shapes.push_back(s);
  }
  return shapes;
}

/// Row-major element (i, l) of op(A) of batch entry b, etc.
float elementA(const std::vector<float> &a, const Shape &s, int64_t b,
               int64_t i, int64_t l) {
  return a[b * s.m * s.k + (s.transA ? l * s.m + i : i * s.k + l)];
}
float elementB(const std::vector<float> &bm, const Shape &s, int64_t b,
               int64_t l, int64_t j) {
  return bm[b * s.k * s.n + (s.transB ? j * s.k + l : l * s.n + j)];
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t h = v.size() / 2;
  return v.size() % 2 ? v[h] : (v[h - 1] + v[h]) / 2;
}

/// Normwise relative error of x against ref; NaN anywhere gives infinity.
double relativeError(const std::vector<float> &x,
                     const std::vector<float> &ref) {
  double diff = 0, scale = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    if (!std::isfinite(x[i]) || !std::isfinite(ref[i]))
      return INFINITY;
    diff = std::max(diff, std::fabs(double(x[i]) - double(ref[i])));
    scale = std::max(scale, std::fabs(double(ref[i])));
  }
  return diff / std::max(scale, 1e-30);
}

void usage(FILE *out) {
  std::fprintf(
      out,
      "usage: pp-bench-gemm [--shapes=[B x]MxNxK[:op],...] [--repetitions=N]\n"
      "                     [--warmup=W] [--calls=C] [--tolerance=T]\n"
      "                     [--plugin=PATH] [--device=D]\n"
      "Times FP32 GEMM on the GPU: cuBLAS called directly vs\n"
      "pprt_gpu_gemm_f32 through the CUDA plugin (see bench/gemm.cpp).\n"
      "  --shapes       C (MxN) = op(A) (MxK) op(B) (KxN), B of them; op nn\n"
      "                 (default), nt, tn, tt (default: the shared models'\n"
      "                 matmuls, 1024^3, 4096^3)\n"
      "  --repetitions  timed repetitions, the median is reported (20)\n"
      "  --warmup       untimed calls first (3)\n"
      "  --calls        back-to-back calls per timed repetition (10)\n"
      "  --tolerance    largest normwise relative error accepted (1e-4)\n"
      "  --plugin       libPPRuntimeCUDA.so (default: $PPRT_CUDA_PLUGIN,\n"
      "                 else beside libPPRuntime.so)\n"
      "  --device       CUDA device ordinal (default: the plugin's choice)\n"
      "Exit status: 0 passed, 1 cannot run (e.g. no GPU), 2 a check failed.\n");
}

/// --plugin, else $PPRT_CUDA_PLUGIN, else libPPRuntimeCUDA.so in the
/// directory libPPRuntime.so was loaded from (as pp-run does).
std::string pluginPath(const std::string &option) {
  if (!option.empty())
    return option;
  if (const char *env = std::getenv("PPRT_CUDA_PLUGIN"))
    return env;
  Dl_info info;
  if (dladdr(reinterpret_cast<void *>(&pprt_send), &info) && info.dli_fname) {
    std::string dir(info.dli_fname);
    size_t slash = dir.rfind('/');
    dir = slash == std::string::npos ? "" : dir.substr(0, slash + 1);
    return dir + "libPPRuntimeCUDA.so";
  }
  return "libPPRuntimeCUDA.so";
}

bool parseInt(const std::string &text, int64_t &out, int64_t min) {
  char *rest = nullptr;
  long long v = std::strtoll(text.c_str(), &rest, 10);
  if (text.empty() || *rest || v < min)
    return false;
  out = v;
  return true;
}

/// The command line (see usage()).
struct Options {
  std::vector<Shape> shapes = defaultShapes();
  int64_t repetitions = 20, warmup = 3, calls = 10, deviceOrdinal = -1;
  double tolerance = 1e-4;
  std::string plugin;
};

/// Prints "pp-bench-gemm: <message>" to stderr; returns exit status 1.
int fail(const std::string &message) {
  std::fprintf(stderr, "pp-bench-gemm: %s\n", message.c_str());
  return 1;
}

/// Parses --shapes=S,... into `shapes`; false and `error` on a bad shape.
bool parseShapes(const std::string &list, std::vector<Shape> &shapes,
                 std::string &error) {
  shapes.clear();
  size_t pos = 0;
  while (pos <= list.size()) {
    size_t end = list.find(',', pos);
    if (end == std::string::npos)
      end = list.size();
    Shape s;
    if (!parseShape(list.substr(pos, end - pos), s, error))
      return false;
    shapes.push_back(s);
    pos = end + 1;
  }
  return true;
}

/// Parses the command line into `options`; the exit status if the program
/// should end now (0 after --help, 1 on a bad argument), else nothing.
std::optional<int> parseOptions(int argc, char **argv, Options &options) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&](const char *name, std::string &out) {
      std::string prefix = std::string(name) + "=";
      if (arg.compare(0, prefix.size(), prefix) != 0)
        return false;
      out = arg.substr(prefix.size());
      return true;
    };
    std::string v, error;
    if (arg == "--help" || arg == "-h") {
      usage(stdout);
      return 0;
    } else if (value("--shapes", v)) {
      if (!parseShapes(v, options.shapes, error))
        return fail(error);
    } else if (value("--repetitions", v)) {
      if (!parseInt(v, options.repetitions, 1))
        return fail("--repetitions must be an integer >= 1");
    } else if (value("--warmup", v)) {
      if (!parseInt(v, options.warmup, 0))
        return fail("--warmup must be an integer >= 0");
    } else if (value("--calls", v)) {
      if (!parseInt(v, options.calls, 1))
        return fail("--calls must be an integer >= 1");
    } else if (value("--device", v)) {
      if (!parseInt(v, options.deviceOrdinal, 0))
        return fail("--device must be an integer >= 0");
    } else if (value("--tolerance", v)) {
      char *rest = nullptr;
      options.tolerance = std::strtod(v.c_str(), &rest);
      if (v.empty() || *rest || !(options.tolerance >= 0))
        return fail("--tolerance must be a number >= 0");
    } else if (value("--plugin", v)) {
      options.plugin = v;
    } else {
      usage(stderr);
      return fail("unknown argument '" + arg + "'");
    }
  }
  return std::nullopt;
}

/// The device pool: the largest shape's A, B and two Cs (256-byte aligned
/// blocks), plus slack.
int64_t poolBytesFor(const std::vector<Shape> &shapes) {
  int64_t poolBytes = 0;
  for (const Shape &s : shapes) {
    auto block = [](int64_t elements) {
      return (elements * 4 + 255) / 256 * 256;
    };
    poolBytes = std::max(poolBytes, block(s.sizeA()) + block(s.sizeB()) +
                                        2 * block(s.sizeC()));
  }
  return poolBytes + (16 << 20);
}

/// The benchmark on rank 0 of an open device: its cuBLAS handle, stream and
/// timing events, and the worst error so far.
class Bench {
public:
  Bench(const Options &options, Api &api) : options(options), api(api) {}

  /// Creates the stream, the cuBLAS handle and the events; "" or an error.
  std::string setUp();
  /// Measures and checks shape `s`, printing its table row; "" or an error
  /// that ends the program.
  std::string run(const Shape &s);
  /// Destroys what setUp() created.
  void tearDown();

  double worst = 0;
  bool cudaFailed = false;

private:
  /// The median time of one call, in ms (NaN and cudaFailed on an error).
  double timeMs(const std::function<void()> &call);
  /// The largest relative error of 64 sampled elements of `result`
  /// against a double-precision CPU computation.
  double sampledCpuError(const Shape &s, const std::vector<float> &hostA,
                         const std::vector<float> &hostB,
                         const std::vector<float> &result);

  const Options &options;
  Api &api;
  CUstream stream = nullptr;
  cublasHandle_t handle = nullptr;
  CUevent start = nullptr, stop = nullptr;
  std::mt19937 random{12345};
  std::uniform_real_distribution<float> uniform{-1.0f, 1.0f};
};

} // namespace

std::string Bench::setUp() {
  stream = api.streamCreate();
  if (api.blasCreate(&handle) != CUBLAS_STATUS_SUCCESS ||
      api.blasSetStream(handle, stream) != CUBLAS_STATUS_SUCCESS ||
      api.blasSetMathMode(handle, CUBLAS_PEDANTIC_MATH) !=
          CUBLAS_STATUS_SUCCESS)
    return "cannot create a cuBLAS handle";
  if (api.eventCreate(&start, CU_EVENT_DEFAULT) != CUDA_SUCCESS ||
      api.eventCreate(&stop, CU_EVENT_DEFAULT) != CUDA_SUCCESS)
    return "cannot create CUDA events";
  return "";
}

void Bench::tearDown() {
  api.eventDestroy(start);
  api.eventDestroy(stop);
  api.blasDestroy(handle);
}

double Bench::timeMs(const std::function<void()> &call) {
  for (int64_t i = 0; i < options.warmup; ++i)
    call();
  std::vector<double> times;
  for (int64_t r = 0; r < options.repetitions; ++r) {
    float ms = 0;
    bool ok = api.eventRecord(start, stream) == CUDA_SUCCESS;
    for (int64_t c = 0; c < options.calls; ++c)
      call();
    ok = ok && api.eventRecord(stop, stream) == CUDA_SUCCESS &&
         api.eventSynchronize(stop) == CUDA_SUCCESS &&
         api.eventElapsedTime(&ms, start, stop) == CUDA_SUCCESS;
    if (!ok) {
      cudaFailed = true;
      return double(NAN);
    }
    times.push_back(double(ms) / double(options.calls));
  }
  return median(times);
}

double Bench::sampledCpuError(const Shape &s, const std::vector<float> &hostA,
                              const std::vector<float> &hostB,
                              const std::vector<float> &result) {
  std::vector<float> sampled, reference;
  std::uniform_int_distribution<int64_t> pickB(0, s.batch - 1),
      pickI(0, s.m - 1), pickJ(0, s.n - 1);
  for (int i = 0; i < 64; ++i) {
    int64_t bi = pickB(random), ii = pickI(random), jj = pickJ(random);
    double sum = 0;
    for (int64_t l = 0; l < s.k; ++l)
      sum += double(elementA(hostA, s, bi, ii, l)) *
             double(elementB(hostB, s, bi, l, jj));
    reference.push_back(float(sum));
    sampled.push_back(result[bi * s.m * s.n + ii * s.n + jj]);
  }
  return relativeError(sampled, reference);
}

std::string Bench::run(const Shape &s) {
  std::vector<float> hostA(s.sizeA()), hostB(s.sizeB());
  for (float &x : hostA)
    x = uniform(random);
  for (float &x : hostB)
    x = uniform(random);
  auto *a = static_cast<float *>(api.memAlloc(s.sizeA() * 4, stream, false));
  auto *b = static_cast<float *>(api.memAlloc(s.sizeB() * 4, stream, false));
  auto *ca = static_cast<float *>(api.memAlloc(s.sizeC() * 4, stream, false));
  auto *cb = static_cast<float *>(api.memAlloc(s.sizeC() * 4, stream, false));
  if (!a || !b || !ca || !cb)
    return "cannot allocate the operands of " + s.name() +
           " in the device pool";
  api.memcpy(a, hostA.data(), hostA.size() * 4, stream);
  api.memcpy(b, hostB.data(), hostB.size() * 4, stream);
  const unsigned quietNaN = 0x7fc00000u;
  api.memset32(ca, quietNaN, s.sizeC(), stream);
  api.memset32(cb, quietNaN, s.sizeC(), stream);

  const float one = 1.0f, zero = 0.0f;
  cublasStatus_t status = CUBLAS_STATUS_SUCCESS;
  // Column-major cuBLAS computes C^T = op(B)^T op(A)^T (see the plugin).
  std::function<void()> direct = [&] {
    cublasOperation_t opA = s.transB ? CUBLAS_OP_T : CUBLAS_OP_N;
    cublasOperation_t opB = s.transA ? CUBLAS_OP_T : CUBLAS_OP_N;
    cublasStatus_t st =
        s.batch == 1
            ? api.sgemm(handle, opA, opB, int(s.n), int(s.m), int(s.k), &one, b,
                        int(s.ldb()), a, int(s.lda()), &zero, ca, int(s.n))
            : api.sgemmBatched(handle, opA, opB, int(s.n), int(s.m), int(s.k),
                               &one, b, int(s.ldb()), s.k * s.n, a,
                               int(s.lda()), s.m * s.k, &zero, ca, int(s.n),
                               s.m * s.n, int(s.batch));
    if (st != CUBLAS_STATUS_SUCCESS)
      status = st;
  };
  std::function<void()> plugin = [&] {
    api.gemm(s.batch, s.m, s.n, s.k, s.transA, s.transB, a, s.lda(), s.m * s.k,
             b, s.ldb(), s.k * s.n, cb, s.n, s.m * s.n, 0);
  };
  double msDirect = timeMs(direct);
  double msPlugin = timeMs(plugin);
  if (status != CUBLAS_STATUS_SUCCESS) {
    std::fprintf(stderr, "pp-bench-gemm: %s: cuBLAS failed (status %d)\n",
                 s.name().c_str(), int(status));
    cudaFailed = true;
  }

  std::vector<float> resultA(s.sizeC()), resultB(s.sizeC());
  api.memcpy(resultA.data(), ca, resultA.size() * 4, stream);
  api.memcpy(resultB.data(), cb, resultB.size() * 4, stream);
  api.streamSynchronize(stream);
  double errPlugin = relativeError(resultB, resultA);
  double errCpu = sampledCpuError(s, hostA, hostB, resultA);
  worst = std::max({worst, std::isnan(errPlugin) ? INFINITY : errPlugin,
                    std::isnan(errCpu) ? INFINITY : errCpu});

  double gflopDirect = s.flops() / (msDirect * 1e-3) / 1e9;
  double gflopPlugin = s.flops() / (msPlugin * 1e-3) / 1e9;
  std::printf("| %s | %s | %.1f | %.1f | %.3f | %.1e | %.1e |\n",
              s.name().c_str(), s.origin.c_str(), gflopDirect, gflopPlugin,
              gflopPlugin / gflopDirect, errPlugin, errCpu);
  std::fflush(stdout);
  api.memFree(cb, stream);
  api.memFree(ca, stream);
  api.memFree(b, stream);
  api.memFree(a, stream);
  api.streamSynchronize(stream);
  return "";
}

int main(int argc, char **argv) {
  Options options;
  if (std::optional<int> status = parseOptions(argc, argv, options))
    return *status;

  std::string path = pluginPath(options.plugin), error;
  pprt::cuda::DeviceOptions deviceOptions;
  deviceOptions.device = static_cast<int>(options.deviceOrdinal);
  std::unique_ptr<pprt::cuda::Device> device =
      pprt::cuda::openCudaPlugin(path, deviceOptions, error);
  if (!device)
    return fail(error);
  Api api;
  if (!loadApi(api, error))
    return fail(error);
  if (!device->addRank(0, poolBytesFor(options.shapes), error) ||
      !device->bindRank(0, nullptr, error))
    return fail(error);
  Bench bench(options, api);
  if (std::string problem = bench.setUp(); !problem.empty())
    return fail(problem);

  std::printf("pp-bench-gemm: %s; FP32, pedantic math (no TF32); median of "
              "%lld repetitions of %lld calls, after %lld warm-up calls\n\n",
              device->description().c_str(), (long long)options.repetitions,
              (long long)options.calls, (long long)options.warmup);
  std::printf("| shape | origin | cuBLAS GFLOP/s | pprt GFLOP/s | fraction "
              "of cuBLAS | max rel err pprt vs cuBLAS | max rel err cuBLAS "
              "vs CPU (64 samples) |\n");
  std::printf("|---|---|---:|---:|---:|---:|---:|\n");
  std::fflush(stdout);
  for (const Shape &s : options.shapes)
    if (std::string problem = bench.run(s); !problem.empty())
      return fail(problem);
  bench.tearDown();
  device->unbind();

  bool passed = !bench.cudaFailed && bench.worst <= options.tolerance;
  std::printf("\ngemm check %s: max relative error %.1e (tolerance %.1e)%s\n",
              passed ? "PASSED" : "FAILED", bench.worst, options.tolerance,
              bench.cudaFailed ? "; a CUDA or cuBLAS call failed" : "");
  return passed ? 0 : 2;
}
