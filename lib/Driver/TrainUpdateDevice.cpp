//===- TrainUpdateDevice.cpp - the optimizer's update on the GPU ----------===//
//
// With --device=cuda (and cuda-emu, which runs the same host code on an
// emulated device) the update functions are compiled for the GPU with the
// rank programs (pp-lower-stages-to-gpu: one kernel per update) and run
// here on device buffers from the pool of this process's rank that holds
// the parameter (openDevicePools sizes the pools for it). The runtime keeps
// parameters and gradients in host memory between steps (pprt::World), so each
// update copies the parameter, its gradient, its state and the step's scalars
// to the device and the new parameter and state back.
//
// The compiled function is called through its C interface
// (_mlir_ciface_<name>, llvm.emit_c_interface): one pointer to a rank-1
// memref descriptor per operand, the inputs (p, g, state..., scalars) then
// the results as out-parameters (p', state'...), which
// buffer-results-to-out-params made of them.
//
//===----------------------------------------------------------------------===//

#include "Trainer.h"

#include "pp/Support/Error.h"
#include "pprt/Cuda.h"

#include "mlir/ExecutionEngine/CRunnerUtils.h"
#include "llvm/ADT/Twine.h"

#include <cstring>
#include <dlfcn.h>

using namespace mlir;
using namespace mlir::pp;
using namespace mlir::pp::driver;
using namespace mlir::pp::exec;

namespace {

/// A rank-1 memref descriptor, MLIR's own (the element type only types
/// the two pointers; f32 and f64 share the layout).
using Descriptor1D = StridedMemRefType<char, 1>;

/// The CUDA plugin's allocator (loaded RTLD_GLOBAL by openCudaPlugin, so
/// visible to dlsym: the bound rank's pool) and the world's device-memory
/// hooks (synchronous copies on the rank's compute stream, the stream the
/// update's kernel runs on, so copies and kernel are ordered).
struct DeviceCalls {
  void *(*alloc)(uint64_t, void *, bool) = nullptr;
  void (*free)(void *, void *) = nullptr;
  const pprt::DeviceMemory *memory = nullptr;
  int rank = 0;

  bool load(const pprt::DeviceMemory &hooks, int boundRank) {
    // Looked up once per process: the plugin stays loaded.
    static auto *const allocFn =
        reinterpret_cast<decltype(alloc)>(dlsym(RTLD_DEFAULT, "mgpuMemAlloc"));
    static auto *const freeFn =
        reinterpret_cast<decltype(free)>(dlsym(RTLD_DEFAULT, "mgpuMemFree"));
    alloc = allocFn;
    free = freeFn;
    memory = &hooks;
    rank = boundRank;
    return alloc && free && static_cast<bool>(hooks);
  }
  void toDevice(void *device, const void *host, size_t bytes) const {
    memory->toDevice(rank, device, host, static_cast<int64_t>(bytes));
  }
  void toHost(void *host, const void *device, size_t bytes) const {
    memory->toHost(rank, host, device, static_cast<int64_t>(bytes));
  }
};

/// Device buffers freed when it goes out of scope.
class DeviceBuffers {
public:
  explicit DeviceBuffers(const DeviceCalls &calls) : calls(calls) {}
  ~DeviceBuffers() {
    for (void *p : blocks)
      calls.free(p, nullptr);
  }
  /// A device buffer of `bytes`, filled from `host` when given; null if
  /// the pool has no room.
  void *make(size_t bytes, const void *host) {
    void *p = calls.alloc(bytes, nullptr, false);
    if (!p)
      return nullptr;
    blocks.push_back(p);
    if (host)
      calls.toDevice(p, host, bytes);
    return p;
  }

private:
  const DeviceCalls &calls;
  std::vector<void *> blocks;
};

using Fn4 = void (*)(void *, void *, void *, void *);
using Fn6 = void (*)(void *, void *, void *, void *, void *, void *);
using Fn8 = void (*)(void *, void *, void *, void *, void *, void *, void *,
                     void *);

/// Calls the C interface `fn` with `args` (4, 6 or 8 descriptors: sgd,
/// momentum, adamw).
bool callWith(void *fn, std::vector<Descriptor1D> &args) {
  std::vector<void *> p;
  for (Descriptor1D &d : args)
    p.push_back(&d);
  switch (p.size()) {
  case 4:
    reinterpret_cast<Fn4>(fn)(p[0], p[1], p[2], p[3]);
    return true;
  case 6:
    reinterpret_cast<Fn6>(fn)(p[0], p[1], p[2], p[3], p[4], p[5]);
    return true;
  case 8:
    reinterpret_cast<Fn8>(fn)(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7]);
    return true;
  default:
    return false;
  }
}

} // namespace

llvm::Error Trainer::runUpdateOnDevice(int rank, unsigned arg, void *param,
                                       const void *grad,
                                       std::vector<HostTensor> &state,
                                       double learningRate, double gradScale,
                                       int64_t t) {
  const TensorSpec &spec = model.argumentSpecs[arg];
  auto fail = [&](const llvm::Twine &why) {
    return makeError("the update of parameter " + argumentName(arg) +
                     " on the GPU of rank " + llvm::Twine(rank) + ": " + why);
  };
  std::string name = updateFunctionName(options.optimizer, spec);
  void *fn = gpuJit->lookupRaw("_mlir_ciface_" + name);
  pprt::cuda::Device *gpu = session.gpu();
  DeviceCalls calls;
  if (!fn || !gpu || !calls.load(session.world().options().deviceMemory, rank))
    return fail("its compiled function or the CUDA plugin is missing");
  std::string message;
  if (!gpu->bindRank(rank, nullptr, message))
    return fail(message);
  struct Unbind {
    pprt::cuda::Device *gpu;
    ~Unbind() { gpu->unbind(); }
  } unbind{gpu};

  std::vector<double> s =
      updateScalars(options.optimizer, learningRate, t, gradScale);
  HostTensor scalars(TensorSpec{spec.kind, {static_cast<int64_t>(s.size())}});
  for (auto [k, v] : llvm::enumerate(s))
    scalars.set(k, v);
  size_t bytes = static_cast<size_t>(spec.numElements()) * elemSize(spec.kind);
  int64_t n = spec.numElements();
  DeviceBuffers buffers(calls);
  std::vector<Descriptor1D> args;
  auto add = [&](size_t size, int64_t elements, const void *host) {
    char *p = static_cast<char *>(buffers.make(size, host));
    Descriptor1D d;
    d.basePtr = d.data = p;
    d.offset = 0;
    d.sizes[0] = elements;
    d.strides[0] = 1;
    args.push_back(d);
    return p != nullptr;
  };
  bool ok = add(bytes, n, param) && add(bytes, n, grad);
  for (HostTensor &x : state)
    ok = ok && add(bytes, n, x.data());
  ok = ok && add(scalars.byteSize(), scalars.size(), scalars.data());
  size_t firstResult = args.size();
  for (size_t k = 0; k <= state.size(); ++k)
    ok = ok && add(bytes, n, nullptr);
  if (!ok)
    return fail("the rank's device memory pool has no room for " +
                llvm::Twine(2 * (state.size() + 1) + 1) + " buffers of " +
                llvm::Twine(bytes) + " bytes");
  if (!callWith(fn, args))
    return fail("an update of " + llvm::Twine(args.size()) + " operands");
  double timeout = session.options().timeoutSeconds;
  if (!gpu->synchronize(rank, timeout, message))
    return fail(message);
  calls.toHost(param, args[firstResult].data, bytes);
  for (auto [k, x] : llvm::enumerate(state))
    calls.toHost(x.data(), args[firstResult + 1 + k].data, bytes);
  if (!gpu->synchronize(rank, timeout, message))
    return fail(message);
  ++deviceUpdates;
  return llvm::Error::success();
}
