//===- Jit.h - lower tensor functions and run them with the JIT -*- C++ -*-===//
//
// pp-exec's execution engine: takes a module whose functions are on tensors,
// lowers a clone of it to the LLVM dialect (one-shot bufferization at
// function boundaries with identity layouts, results turned into out
// parameters, ownership-based deallocation, loop nests outlined, LLVM),
// compiles it to an object (kept in a JIT cache, if given) and links that
// into the process with an ORC LLJIT (GPU modules: MLIR's ExecutionEngine).
// Each requested function gets a wrapper `__pp_exec_<name>(memref args...,
// memref outs...)` with `llvm.emit_c_interface`, called through
// `__pp_exec_packed_<name>(void **descriptors)`. See docs/Execution.md.
//
//===----------------------------------------------------------------------===//

#ifndef PP_EXECUTION_JIT_H
#define PP_EXECUTION_JIT_H

#include "pp/Execution/HostTensor.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
class DialectRegistry;
class ExecutionEngine;
} // namespace mlir
namespace llvm {
class MemoryBuffer;
namespace orc {
class LLJIT;
class JITTargetMachineBuilder;
} // namespace orc
} // namespace llvm

namespace mlir::pp::exec {

/// Registers every dialect, interface and translation pp-exec needs to parse
/// and lower its inputs: the dialects of every pp-mlir tool
/// (registerModelDialects, pp/InitAllDialects.h), LLVM IR translation and the
/// GPU lowering's registrations.
void registerExecDialects(mlir::DialectRegistry &registry);

/// The element kind pp-exec runs for an MLIR element type (f32, f64, i32,
/// i64), or none.
std::optional<ElemKind> elemKindOf(mlir::Type elem);

/// The argument and result types of a function pp-exec can run.
struct FunctionSignature {
  std::string name;
  std::vector<TensorSpec> args;
  std::vector<TensorSpec> results;
};

/// Checks that `fn` can be run (a definition whose arguments and results are
/// all statically shaped ranked tensors of f32, f64, i32 or i64, with at
/// least one result) and returns its signature; otherwise emits an error at
/// the function and fails.
mlir::FailureOr<FunctionSignature> getSignature(mlir::func::FuncOp fn);

/// Where JitModule::compile() spends its time, seconds (added to, so one
/// record can sum several compilations).
struct CompileTimes {
  /// The MLIR passes that lower the module to the LLVM dialect (CPU or GPU
  /// lowering, with the kernels' PTX for a GPU).
  double mlirLowering = 0;
  /// Translating the LLVM dialect to LLVM IR.
  double llvmTranslation = 0;
  /// LLVM's optimization pipeline (JitOptions::optLevel) on that IR.
  double llvmOptimization = 0;
  /// Code generation to an object, and linking it into the process.
  double codeGeneration = 0;
  /// Hashing the module and reading the JIT cache (JitOptions::cacheDir).
  double cacheLookup = 0;
  /// Modules compiled or loaded (a count, not seconds), and how many of
  /// them came from the JIT cache.
  unsigned modules = 0, cachedModules = 0;
  double total() const {
    return mlirLowering + llvmTranslation + llvmOptimization + codeGeneration +
           cacheLookup;
  }
  CompileTimes &operator+=(const CompileTimes &other) {
    mlirLowering += other.mlirLowering;
    llvmTranslation += other.llvmTranslation;
    llvmOptimization += other.llvmOptimization;
    codeGeneration += other.codeGeneration;
    cacheLookup += other.cacheLookup;
    modules += other.modules;
    cachedModules += other.cachedModules;
    return *this;
  }
};

struct JitOptions {
  /// LLVM optimization level (0-3) of the IR optimizer and code generator.
  /// 2 by default: against 3, the decoder layer compiled in 2.9 s instead of
  /// 3.9 s and the small ResNet in 10.4 s instead of 11-13 s, with the same
  /// step times within noise (bench/README.md).
  unsigned optLevel = 2;
  /// Move the innermost parallel output dimension inside reduction loops
  /// (matmul i,j,k -> i,k,j) so that LLVM can vectorize it; never changes
  /// the order in which any result element accumulates, so results are
  /// bitwise the same.
  bool interchange = true;
  /// Tile the parallel loops of linalg ops into register tiles and vectorize
  /// them along the output's contiguous dimension (upstream tiling and
  /// vectorization); reduction loops stay sequential scalar loops, so
  /// results are bitwise the same as with the plain loop nests.
  bool vectorize = true;
  /// Run GEMM-class contractions on OpenBLAS through the runtime
  /// (pprt_cpu_gemm_*, pp-gemm-to-runtime{target=cpu}) instead of generated
  /// loops. Deterministic: the same GEMM on the same shapes gives the same
  /// bits, but not the bits of the loops.
  bool blas = true;
  /// With `blas`, convolutions (the forward and weight gradient of
  /// convolution-shaped linalg ops) go to OpenBLAS too: im2col's column
  /// matrix, then one GEMM per image (pp-im2col). False keeps those loops
  /// (the input gradient, which pp-autodiff writes as a contraction, stays
  /// a GEMM either way).
  bool im2col = true;
  /// If not empty, compile for an NVIDIA GPU of this architecture (sm_90,
  /// ...) instead of the host: pp-lower-stages-to-gpu{chip=...} and
  /// pp-lower-gpu-host-to-llvm (docs/GPU.md) replace the CPU lowering, every
  /// buffer is device memory, and only raw entries are allowed. The mgpu*
  /// and pprt_gpu_* functions the code calls must be in the process (the
  /// CUDA plugin, runtime/include/pprt/Cuda.h, loaded with its device open):
  /// compile() runs the module's constructors, which load the kernels.
  std::string gpuChip;
  /// With gpuChip: pp-lower-stages-to-gpu{emulate=true}: the would-be
  /// kernels stay loops the host runs (the emulated CUDA plugin,
  /// libPPRuntimeGPUEmu.so, must be loaded instead of the real one).
  bool gpuEmulate = false;
  /// If not empty, the JIT cache: a directory of compiled objects, one per
  /// module, keyed by the module, the options above, the host CPU, the
  /// LLVM version and the compiler's own binary (docs/Execution.md, "The
  /// JIT cache"). A module found there is linked without lowering or
  /// compiling it; one not found is compiled and stored (a failure to
  /// store is a warning). Host code only: a GPU module compiles every time,
  /// and so does one with printLowered or gemmCalls set.
  std::string cacheDir;
  /// If set, the lowered LLVM-dialect module is printed here.
  llvm::raw_ostream *printLowered = nullptr;
  /// If set, the CPU lowering appends the GEMM calls it emits (with static
  /// sizes) here: the work OpenBLAS does for the module (timeGemmCalls).
  std::vector<struct GemmCall> *gemmCalls = nullptr;
  /// If set, compile() adds the time of each of its phases here.
  CompileTimes *times = nullptr;
};

/// One call of pprt_cpu_gemm_* (pp-gemm-to-runtime{target=cpu}) with static
/// sizes.
struct GemmCall {
  bool f64 = false;
  int64_t batch = 1, m = 0, n = 0, k = 0;
  bool transA = false, transB = false;
  /// 2 batch m n k: a multiply and an add per term.
  double flops() const { return 2.0 * batch * m * n * k; }
};

/// Seconds OpenBLAS (pprt_cpu_gemm_*, in the calling thread's OpenBLAS
/// threads) takes for every call of `calls` once, on scratch operands with
/// packed leading dimensions: the best of `repetitions` runs after a
/// warm-up. The baseline bench/jit.sh compares stage functions with.
double timeGemmCalls(llvm::ArrayRef<GemmCall> calls, unsigned repetitions);

/// The top-level ops of the module `symbols` indexes (functions, globals)
/// that the symbols `entries` reach through symbol references (calls), the
/// entries included. One table serves every call on the same module.
llvm::SmallPtrSet<mlir::Operation *, 16>
reachableSymbols(const mlir::SymbolTable &symbols,
                 llvm::ArrayRef<std::string> entries);

/// Clones `module` for execution: drops pp-dialect ops, keeps only the
/// functions `entries` reach (a function they call that the module only
/// declares is an error), converts TOSA to linalg and decomposes aggregate
/// linalg ops (softmax). Diagnostics go to the context's handler.
mlir::FailureOr<mlir::OwningOpRef<mlir::ModuleOp>>
prepareForExecution(mlir::ModuleOp module, llvm::ArrayRef<std::string> entries);

/// Floating-point work of one call of @`entry` in a prepared module, as
/// pp-partition counts it: each linalg op contributes its static iteration
/// space times the ops in its body (at least one); calls count their
/// callee's work. For throughput figures (`--timing`).
double countFlops(mlir::ModuleOp module, llvm::StringRef entry);

/// Rewrites a prepared module so that it computes in f64 wherever it
/// computed in f32 (types, constants): the reference for finite
/// differences. Fails, with the reason, when the module does not verify
/// afterwards (ops that depend on f32, such as extf/truncf or bitcasts).
mlir::LogicalResult promoteF32ToF64(mlir::ModuleOp module, std::string &reason);

/// Lowers a prepared module for an NVIDIA GPU of architecture `chip`
/// (sm_90, ...): pp-lower-stages-to-gpu{chip=... emulate=...}, then
/// pp-lower-gpu-host-to-llvm (docs/GPU.md). The result is the LLVM dialect
/// plus gpu.binary ops; JitModule::compile with JitOptions::gpuChip runs it.
mlir::LogicalResult lowerForGPU(mlir::ModuleOp module, llvm::StringRef chip,
                                bool emulate = false);

/// The default JIT cache directory: $PP_JIT_CACHE if it is set (empty
/// when it is "none": no cache), else $XDG_CACHE_HOME/pp-mlir/jit, else
/// $HOME/.cache/pp-mlir/jit, else empty.
std::string defaultJitCacheDir();

class JitModule {
public:
  ~JitModule();

  /// Lowers the prepared module `module` in place and JIT-compiles it; each
  /// of `entries` gets a wrapper it can be run through. Diagnostics go to the
  /// context's handler; fails if lowering or compilation fails.
  /// `rawEntries` are functions without tensors in their signature (such
  /// as convert-pp-to-runtime's rank programs, which take one pointer);
  /// they get no wrapper and are called through lookupRaw().
  static mlir::FailureOr<std::unique_ptr<JitModule>>
  compile(mlir::ModuleOp module, llvm::ArrayRef<std::string> entries,
          const JitOptions &options,
          llvm::ArrayRef<std::string> rawEntries = {});
  /// The address of the compiled raw entry `name` (its C ABI is that of the
  /// lowered function), or null.
  void *lookupRaw(llvm::StringRef name) const;

  /// The signature of entry `name`, or null.
  const FunctionSignature *signature(llvm::StringRef name) const;

  /// Runs function `name` (one of the entries) on `args`; `results` is
  /// resized and allocated to the function's result types. If
  /// `microseconds` is set, it receives the wall time of the call into the
  /// compiled code alone (not the argument checks or allocating `results`).
  llvm::Error run(llvm::StringRef name, llvm::ArrayRef<const HostTensor *> args,
                  std::vector<HostTensor> &results,
                  double *microseconds = nullptr);

  /// Runs entry `name` on raw row-major buffers: `args[i]` and `results[i]`
  /// hold the signature's tensors (their sizes are not checked). Results
  /// may be the buffers of arguments when the function is elementwise (an
  /// optimizer's update writes the parameter and state it read).
  llvm::Error runOnBuffers(llvm::StringRef name,
                           llvm::ArrayRef<const void *> args,
                           llvm::ArrayRef<void *> results,
                           double *microseconds = nullptr);

private:
  JitModule() = default;
  mlir::LogicalResult compileForHost(mlir::ModuleOp m, mlir::Location loc,
                                     llvm::ArrayRef<std::string> entries,
                                     llvm::ArrayRef<std::string> rawEntries,
                                     const JitOptions &options,
                                     CompileTimes &times);
  /// Links `objects` (host code: one module's) and looks up every entry's
  /// packed wrapper and every raw entry; on failure nothing is kept.
  llvm::Error link(std::vector<std::unique_ptr<llvm::MemoryBuffer>> objects,
                   llvm::orc::JITTargetMachineBuilder builder,
                   llvm::ArrayRef<std::string> entries,
                   llvm::ArrayRef<std::string> rawEntries);
  mlir::LogicalResult compileForGPU(mlir::ModuleOp m, mlir::Location loc,
                                    llvm::ArrayRef<std::string> entries,
                                    llvm::ArrayRef<std::string> rawEntries,
                                    const JitOptions &options,
                                    CompileTimes &times);

  /// An entry's packed wrapper: takes an array of pointers to the memref
  /// descriptors of its arguments, then of its results.
  using PackedFunction = void (*)(void **);
  /// Host code: the LLJIT that linked the module's object.
  std::unique_ptr<llvm::orc::LLJIT> hostJit;
  /// GPU code: MLIR's ExecutionEngine (it runs the module's constructors).
  std::unique_ptr<mlir::ExecutionEngine> engine;
  llvm::StringMap<FunctionSignature> signatures;
  llvm::StringMap<PackedFunction> packedFunctions;
  llvm::StringMap<void *> rawFunctions;
};

} // namespace mlir::pp::exec

#endif // PP_EXECUTION_JIT_H
