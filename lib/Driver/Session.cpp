//===- Session.cpp - the runtime's world and the device plugin ------------===//

#include "pp/Driver/Driver.h"
#include "pp/Support/Error.h"

#include "pp/Execution/Jit.h"
#include "pprt/Cuda.h"
#include "pprt/Runtime.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <cstdlib>
#include <dlfcn.h>
#include <sched.h>
#include <thread>
#include <unistd.h>

using namespace mlir;
using namespace mlir::pp::driver;

/// The cores this process may run on (its CPU affinity, which a container
/// or taskset limits), at least 1.
static unsigned usableCores() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0)
    return std::max(1, CPU_COUNT(&set));
  return std::max(1u, std::thread::hardware_concurrency());
}

/// The processes of this job on this machine, as the MPI launcher says
/// (Open MPI's OMPI_COMM_WORLD_LOCAL_SIZE, MPICH's MPI_LOCALNRANKS); 1
/// without one. They share the machine's cores.
static unsigned processesOnThisMachine() {
  for (const char *name : {"OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS"})
    if (const char *value = std::getenv(name)) {
      unsigned n = 0;
      if (!llvm::StringRef(value).getAsInteger(10, n) && n > 0)
        return n;
    }
  return 1;
}

unsigned Session::coresOfThisProcess() {
  // A launcher that pins each process (mpirun binding to a core or socket)
  // has shared the cores already; otherwise they are shared here.
  unsigned cores = usableCores();
  long online = sysconf(_SC_NPROCESSORS_ONLN);
  if (online > 0 && cores < static_cast<unsigned>(online))
    return cores;
  return std::max(1u, cores / processesOnThisMachine());
}

/// --compute-slots=0 on the CPU: the cores, when the ranks that share them
/// outnumber them (in-process: the world's ranks; under mpi: this job's
/// processes on the machine, unless the launcher pinned each to its own
/// cores); otherwise 0, no limit.
static int automaticComputeSlots(const pprt::WorldOptions &world) {
  unsigned cores = usableCores();
  if (world.transport == "inproc")
    return static_cast<unsigned>(world.ranks) > cores ? static_cast<int>(cores)
                                                      : 0;
  if (world.transport != "mpi")
    return 0;
  long online = sysconf(_SC_NPROCESSORS_ONLN);
  if (online > 0 && cores < static_cast<unsigned>(online))
    return 0; // pinned
  return processesOnThisMachine() > cores ? static_cast<int>(cores) : 0;
}

/// The CUDA plugin: the option, else $PPRT_CUDA_PLUGIN, else the plugin in
/// the directory libPPRuntime.so was loaded from.
static std::string cudaPluginPath(const SessionOptions &options) {
  bool emulated = options.device == Device::CUDAEmulated;
  if (!options.cudaPlugin.empty())
    return options.cudaPlugin;
  const char *name = emulated ? "libPPRuntimeGPUEmu.so" : "libPPRuntimeCUDA.so";
  if (const char *env = std::getenv("PPRT_CUDA_PLUGIN"); env && !emulated)
    return env;
  Dl_info info;
  if (dladdr(reinterpret_cast<void *>(&pprt_send), &info) && info.dli_fname) {
    llvm::SmallString<256> dir(info.dli_fname);
    llvm::sys::path::remove_filename(dir);
    llvm::sys::path::append(dir, name);
    return std::string(dir);
  }
  return name;
}

llvm::Error mlir::pp::driver::validate(const CompileOptions &compile,
                                       const SessionOptions &session) {
  if (compile.planCosts == PlanCosts::Measured && session.device != Device::CPU)
    return makeError(llvm::Twine("--plan-costs=measured times the stage code "
                                 "on the CPU; with --device=") +
                     deviceName(session.device) +
                     " use --plan-costs=flops for now");
  if (compile.numRanks != session.numRanks ||
      compile.numMicrobatches != session.numMicrobatches ||
      compile.dataParallel != session.dataParallel)
    return makeError("the compile and session options disagree: ranks " +
                     llvm::Twine(compile.numRanks) + " and " +
                     llvm::Twine(session.numRanks) + ", micro-batches " +
                     llvm::Twine(compile.numMicrobatches) + " and " +
                     llvm::Twine(session.numMicrobatches) +
                     ", data-parallel replicas " +
                     llvm::Twine(compile.dataParallel) + " and " +
                     llvm::Twine(session.dataParallel));
  return llvm::Error::success();
}

llvm::Expected<std::unique_ptr<Session>>
Session::create(const SessionOptions &options) {
  bool onGPU = options.device != Device::CPU;
  if (!std::isfinite(options.timeoutSeconds) || !(options.timeoutSeconds > 0) ||
      options.timeoutSeconds > 1e6)
    return makeError(
        "--timeout must be a finite number of seconds in (0, 1e6], "
        "not " +
        exec::formatDouble(options.timeoutSeconds));
  if (options.transport == "nccl" && !onGPU)
    return makeError("--transport=nccl needs --device=cuda");
  if (options.workspaceMiB < 0 || options.workspaceMiB > (int64_t(1) << 30))
    return makeError("--gpu-workspace-mib must be in [0, 2^30]");
  if (options.blasThreads < 0 || options.blasThreads > 4096)
    return makeError("--blas-threads must be in [0, 4096]");
  if (options.computeSlots < -1 || options.computeSlots > 4096)
    return makeError("--compute-slots must be -1 (no limit), 0 (automatic) or "
                     "in [1, 4096]");

  std::unique_ptr<Session> session(new Session());
  session->options_ = options;
  if (options.dataParallel < 1 || options.dataParallel > 4096)
    return makeError("--data-parallel must be in [1, 4096], not " +
                     llvm::Twine(options.dataParallel));
  pprt::WorldOptions world;
  world.ranks = options.numRanks * options.dataParallel;
  world.replicas = options.dataParallel;
  // Compiling only needs no plugin (so no nccl transport).
  world.transport =
      options.compileOnly ? std::string("inproc") : options.transport;
  world.timeoutSeconds = options.timeoutSeconds;
  world.microbatches = options.numMicrobatches;
  world.computeSlots = std::max(0, options.computeSlots);
  if (options.computeSlots == 0 && !onGPU)
    world.computeSlots = automaticComputeSlots(world);
  // On a GPU: the plugin first (its device hooks go into the world's
  // options, and it registers the nccl transport).
  if (onGPU && !options.compileOnly) {
    std::string message;
    session->gpu_ =
        pprt::cuda::openCudaPlugin(cudaPluginPath(options), {}, message);
    if (!session->gpu_ && message.find("libcuda.so") != std::string::npos)
      message += " (no NVIDIA driver on this machine?)";
    if (!session->gpu_)
      return makeError(llvm::Twine("--device=") + deviceName(options.device) +
                       ": " + message);
    session->gpu_->fillDeviceMemory(world);
    if (options.transport == "nccl" &&
        !session->gpu_->registerNcclTransport(message))
      return makeError("--transport=nccl: " + message);
  }
  std::string message;
  session->world_ = pprt::World::create(world, message);
  if (!session->world_ && options.dataParallel > 1)
    return makeError(message + " (--ranks=" + llvm::Twine(options.numRanks) +
                     " x --data-parallel=" + llvm::Twine(options.dataParallel) +
                     ")");
  if (!session->world_)
    return makeError(message);
  // Each rank's GEMMs get its share of the process's cores, which count
  // the other processes of an MPI job on this machine (mpirun -np 4 on 2
  // cores: 1 thread each, not 2, which would put 8 threads on 2 cores).
  int threads = options.blasThreads;
  if (threads <= 0) {
    size_t ranks = std::max<size_t>(1, session->world_->localRanks().size());
    threads = std::max<int>(1, static_cast<int>(coresOfThisProcess() / ranks));
  }
  pprt_cpu_blas_threads(threads);
  return std::move(session);
}

Session::~Session() = default;

bool Session::leader() const {
  return llvm::is_contained(world_->localRanks(), 0);
}

llvm::Error mlir::pp::driver::printRankPrograms(ModuleOp module,
                                                const CompiledModel &model,
                                                Device device, StringRef chip,
                                                llvm::raw_ostream &os) {
  if (device == Device::CPU) {
    module.print(os);
    return llvm::Error::success();
  }
  // On a GPU: the rank programs as compiled for it (LLVM dialect, the
  // kernels' PTX in gpu.binary ops).
  FailureOr<OwningOpRef<ModuleOp>> prepared =
      exec::prepareForExecution(module, model.rankFunctions);
  if (failed(prepared) ||
      failed(
          exec::lowerForGPU(**prepared, chip, device == Device::CUDAEmulated)))
    return makeError("compiling the rank programs for the GPU failed");
  (*prepared)->print(os);
  return llvm::Error::success();
}
