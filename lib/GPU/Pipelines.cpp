//===- Pipelines.cpp - pp-lower-stages-to-gpu, pp-lower-gpu-host-to-llvm --===//
//
// The pass pipeline that compiles stage functions for NVIDIA GPUs: linalg on
// tensors is bufferized, turned into parallel loops, tiled into blocks of
// threads, mapped onto gpu.launch, outlined into kernels, lowered to NVVM and
// serialized to PTX (or LLVM IR) with LLVM's NVPTX back end. No CUDA toolkit
// and no GPU are needed; docs/GPU.md describes the steps and what is missing.
//
//===----------------------------------------------------------------------===//

#include "pp/Conversion/HostToLLVM.h"
#include "pp/Conversion/Passes.h"
#include "pp/GPU/Passes.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVM.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToGPU/SCFToGPUPass.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVMPass.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/FuncBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Linalg/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Dialect/Tensor/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/FileSystem.h"

#include "llvm/TargetParser/Triple.h"
#include <cstdlib>

#include <memory>
#include <mutex>

extern "C" void LLVMInitializeNVPTXTargetInfo();
extern "C" void LLVMInitializeNVPTXTargetMC();

using namespace mlir;

namespace {
struct LowerStagesToGPUOptions
    : public PassPipelineOptions<LowerStagesToGPUOptions> {
  Option<std::string> chip{
      *this, "chip", llvm::cl::desc("GPU architecture (sm_XX; default sm_90)"),
      llvm::cl::init("sm_90")};
  Option<std::string> features{
      *this, "features",
      llvm::cl::desc("PTX features, e.g. +ptx80 (empty: LLVM's default for "
                     "the chip)"),
      llvm::cl::init("")};
  Option<unsigned> optLevel{
      *this, "opt-level",
      llvm::cl::desc("LLVM optimization level (0-3; default 2)"),
      llvm::cl::init(2)};
  Option<int64_t> blockSize{
      *this, "block-size",
      llvm::cl::desc("Threads per block along the outermost parallel loop "
                     "(default 128)"),
      llvm::cl::init(128)};
  Option<std::string> libdevice{
      *this, "libdevice",
      llvm::cl::desc("libdevice bitcode linked into every kernel module for "
                     "the math functions (default: "
                     "$CUDA_HOME/nvvm/libdevice/libdevice.10.bc, then "
                     "/usr/local/cuda/...; empty if neither exists)"),
      llvm::cl::init("")};
  Option<std::string> format{
      *this, "format",
      llvm::cl::desc("What the gpu.binary holds: isa (PTX text, default), "
                     "llvm (LLVM IR), bin or fatbin (need the CUDA toolkit)"),
      llvm::cl::init("isa")};
  Option<bool> cublas{
      *this, "cublas",
      llvm::cl::desc("GEMM-class ops become pprt_gpu_gemm_* calls (cuBLAS "
                     "in the runtime; default); false: kernels like any "
                     "other op"),
      llvm::cl::init(true)};
  Option<bool> emulate{
      *this, "emulate",
      llvm::cl::desc("Stop before mapping loops to the GPU: the would-be "
                     "kernels stay scf.parallel loops that the host runs, "
                     "while buffers, frees, cuBLAS calls and the host "
                     "lowering are as for the GPU (pp-run --device=cuda-emu "
                     "runs this with an emulated CUDA plugin, to test "
                     "everything but the kernels without a GPU)"),
      llvm::cl::init(false)};
};
} // namespace

static constexpr llvm::StringLiteral kNVPTXTriple = "nvptx64-nvidia-cuda";

/// Whether LLVM's NVPTX back end knows `chip` (sm_90, sm_90a, sm_80, ...).
static bool isKnownNVPTXChip(StringRef chip) {
  static std::once_flag initialized;
  std::call_once(initialized, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTargetMC();
  });
  llvm::Triple triple(kNVPTXTriple);
  std::string error;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return false;
  std::unique_ptr<llvm::MCSubtargetInfo> info(
      target->createMCSubtargetInfo(triple, "", ""));
  return info && info->isCPUStringValid(chip);
}

static void buildLowerStagesToGPUPipeline(OpPassManager &pm,
                                          const LowerStagesToGPUOptions &opts) {
  // 1. Convolutions to im2col + GEMM, elementwise chains fused
  //    (contractions kept for cuBLAS).
  pm.addPass(createCanonicalizerPass());
  if (opts.cublas)
    pm.addNestedPass<func::FuncOp>(pp::createPPGPUConvolutionsToGemmPass());
  pm.addNestedPass<func::FuncOp>(pp::createPPGPUFuseElementwisePass());
  pm.addNestedPass<func::FuncOp>(pp::createPPGPUSplitReductionsPass());

  // 2. Tensors to buffers, across function boundaries; function arguments
  //    become identity-layout memrefs and results out-parameters (the
  //    caller allocates), so every buffer is freed where it is allocated.
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  pm.addPass(createCanonicalizerPass());
  pp::buildOutParamsAndDeallocationPipeline(pm);

  // 3. GEMMs to cuBLAS calls; every buffer in device memory.
  if (opts.cublas)
    pm.addPass(pp::createPPGemmToRuntimePass({/*target=*/"gpu"}));
  pm.addNestedPass<func::FuncOp>(pp::createPPGPUDeviceMemoryPass());

  // 4. linalg to scf.parallel (reductions stay sequential scf.for inside),
  //    tiled so the inner loop is a block of threads; serial host loops
  //    wrapped into one-thread loops; mapped to blocks and threads, then
  //    turned into gpu.launch.
  OpPassManager &func = pm.nest<func::FuncOp>();
  func.addPass(createConvertLinalgToParallelLoopsPass());
  func.addPass(createParallelLoopTilingPass({opts.blockSize},
                                            /*noMinMaxBounds=*/true));
  func.addPass(pp::createPPGPUWrapHostLoopsPass());
  // Emulation: the parallel loops stay loops, run by the host (see the
  // option); no kernels.
  if (opts.emulate) {
    func.addPass(createCanonicalizerPass());
    return;
  }
  func.addPass(createGpuMapParallelLoopsPass());
  func.addPass(createConvertParallelLoopToGpuPass());
  func.addPass(createCanonicalizerPass());

  // 5. Kernels into gpu.module, with the NVVM target attached.
  pm.addPass(createGpuKernelOutliningPass());
  GpuNVVMAttachTargetOptions target;
  target.triple = kNVPTXTriple.str();
  target.chip = opts.chip;
  target.features = opts.features;
  target.optLevel = opts.optLevel;
  // Math functions (tanh, exp, log, ...) become calls into libdevice; link
  // it so that the PTX is complete.
  std::string libdevice = opts.libdevice;
  if (libdevice.empty()) {
    SmallVector<std::string> candidates;
    if (const char *home = std::getenv("CUDA_HOME"))
      candidates.push_back(std::string(home) +
                           "/nvvm/libdevice/libdevice.10.bc");
    candidates.push_back("/usr/local/cuda/nvvm/libdevice/libdevice.10.bc");
    for (const std::string &path : candidates)
      if (llvm::sys::fs::exists(path)) {
        libdevice = path;
        break;
      }
  }
  if (!libdevice.empty())
    target.linkLibs.push_back(libdevice);
  pm.addPass(createGpuNVVMAttachTarget(target));

  // 6. Kernels to the NVVM and LLVM dialects (loops and guards to cf first).
  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  // Views (subview, transposes) become plain offsets and strides, and the
  // index arithmetic of tiling (affine.apply) arith, before NVVM.
  kernels.addPass(memref::createExpandStridedMetadataPass());
  kernels.addPass(createLowerAffinePass());
  kernels.addPass(createSCFToControlFlowPass());
  kernels.addPass(createConvertGpuOpsToNVVMOps());
  kernels.addPass(createCanonicalizerPass());
  kernels.addPass(createCSEPass());
  kernels.addPass(createReconcileUnrealizedCastsPass());

  // 7. Serialize each gpu.module with the NVPTX back end.
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = opts.format;
  pm.addPass(createGpuModuleToBinaryPass(binary));
}

/// Host code (functions calling kernels through gpu.launch_func, gpu.alloc,
/// gpu.memcpy) to the LLVM dialect: every function's GPU work becomes one
/// stream-ordered chain (gpu-async-region), then calls into the mgpu*
/// runtime functions (gpu-to-llvm); memrefs, arith, control flow and
/// functions follow as on the CPU path. The gpu.binary ops stay; the LLVM IR
/// translation embeds them and loads them at startup.
static void buildLowerGPUHostToLLVMPipeline(OpPassManager &pm) {
  pm.addNestedPass<func::FuncOp>(createGpuAsyncRegionPass());
  pm.addNestedPass<func::FuncOp>(pp::createPPGPUElideHostWaitsPass());
  pp::buildHostToLLVMPipeline(pm, /*gpu=*/true);
}

void mlir::pp::registerLowerStagesToGPUPipeline() {
  registerPassPipeline(
      "pp-lower-stages-to-gpu",
      "Compile stage functions (linalg on tensors) to NVIDIA GPU kernels: "
      "one-shot-bufferize, convert-linalg-to-parallel-loops, "
      "scf-parallel-loop-tiling, gpu-map-parallel-loops, "
      "convert-parallel-loops-to-gpu, gpu-kernel-outlining, "
      "nvvm-attach-target, convert-scf-to-cf, convert-gpu-to-nvvm, "
      "gpu-module-to-binary (PTX)",
      [](OpPassManager &pm, StringRef text,
         function_ref<LogicalResult(const Twine &)> errorHandler) {
        LowerStagesToGPUOptions opts;
        if (failed(opts.parseFromString(text)))
          return failure();
        if (!isKnownNVPTXChip(opts.chip))
          return errorHandler("pp-lower-stages-to-gpu: unknown chip '" +
                              opts.chip +
                              "' (LLVM's NVPTX back end has no such "
                              "processor; e.g. sm_80, sm_90, sm_90a)");
        if (opts.optLevel > 3)
          return errorHandler("pp-lower-stages-to-gpu: opt-level must be 0-3");
        if (opts.blockSize < 1 || opts.blockSize > 1024)
          return errorHandler(
              "pp-lower-stages-to-gpu: block-size must be 1-1024");
        StringRef format = opts.format;
        if (!llvm::is_contained({"isa", "llvm", "bin", "fatbin"}, format))
          return errorHandler("pp-lower-stages-to-gpu: format must be isa, "
                              "llvm, bin or fatbin, not '" +
                              format + "'");
        buildLowerStagesToGPUPipeline(pm, opts);
        return success();
      },
      [](function_ref<void(const detail::PassOptions &)> optHandler) {
        optHandler(LowerStagesToGPUOptions());
      });

  registerPassPipeline(
      "pp-lower-gpu-host-to-llvm",
      "Lower the host side of pp-lower-stages-to-gpu's output to the LLVM "
      "dialect: gpu-async-region, pp-gpu-elide-host-waits, convert-scf-to-cf, "
      "expand-strided-metadata, lower-affine, arith-expand, "
      "convert-math-to-{llvm,libm}, finalize-memref-to-llvm, gpu-to-llvm, "
      "convert-{arith,index,cf,func}"
      "-to-llvm, reconcile-unrealized-casts",
      [](OpPassManager &pm, StringRef text,
         function_ref<LogicalResult(const Twine &)> errorHandler) {
        if (!text.trim().empty())
          return errorHandler("pp-lower-gpu-host-to-llvm takes no options");
        buildLowerGPUHostToLLVMPipeline(pm);
        return success();
      },
      [](function_ref<void(const detail::PassOptions &)>) {});
}

/// What pp-lower-stages-to-gpu needs beyond the passes' own dependent
/// dialects: bufferization models of the ops it bufferizes, the to-LLVM
/// patterns convert-gpu-to-nvvm collects from each dialect, and the LLVM IR
/// translations and NVVM target serialization gpu-module-to-binary uses.
void mlir::pp::registerGPULoweringDependencies(DialectRegistry &registry) {
  registry.insert<mlir::affine::AffineDialect, mlir::gpu::GPUDialect,
                  mlir::NVVM::NVVMDialect, mlir::scf::SCFDialect>();
  mlir::arith::registerBufferizableOpInterfaceExternalModels(registry);
  mlir::bufferization::func_ext::registerBufferizableOpInterfaceExternalModels(
      registry);
  mlir::linalg::registerBufferizableOpInterfaceExternalModels(registry);
  mlir::scf::registerBufferizableOpInterfaceExternalModels(registry);
  mlir::tensor::registerBufferizableOpInterfaceExternalModels(registry);

  mlir::arith::registerConvertArithToLLVMInterface(registry);
  mlir::cf::registerConvertControlFlowToLLVMInterface(registry);
  mlir::registerConvertFuncToLLVMInterface(registry);
  mlir::index::registerConvertIndexToLLVMInterface(registry);
  mlir::registerConvertMathToLLVMInterface(registry);
  mlir::registerConvertMemRefToLLVMInterface(registry);
  mlir::registerConvertNVVMToLLVMInterface(registry);
  mlir::NVVM::registerConvertGpuToNVVMInterface(registry);
  mlir::ub::registerConvertUBToLLVMInterface(registry);

  mlir::registerBuiltinDialectTranslation(registry);
  mlir::registerGPUDialectTranslation(registry);
  mlir::registerLLVMDialectTranslation(registry);
  mlir::registerNVVMDialectTranslation(registry);
  mlir::NVVM::registerNVVMTargetInterfaceExternalModels(registry);
}
