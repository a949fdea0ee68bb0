// Bad options of the GPU passes: pp-lower-stages-to-gpu's are refused when
// the pipeline is built, pp-gpu-split-reductions' at each function.
// RUN: not pp-opt %s -pp-lower-stages-to-gpu="chip=sm_999" 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not pp-opt %s -pp-lower-stages-to-gpu="chip=gfx90a" 2>&1 | FileCheck %s --check-prefix=AMD
// RUN: not pp-opt %s -pp-lower-stages-to-gpu="format=cubin" 2>&1 | FileCheck %s --check-prefix=FORMAT
// RUN: not pp-opt %s -pp-lower-stages-to-gpu="block-size=4096" 2>&1 | FileCheck %s --check-prefix=BLOCK
// RUN: not pp-opt %s -pass-pipeline='builtin.module(func.func(pp-gpu-split-reductions{max-ratio=1}))' -o /dev/null 2>&1 | FileCheck %s --check-prefix=RATIO

// CHIP: pp-lower-stages-to-gpu: unknown chip 'sm_999' (LLVM's NVPTX back end has no such processor; e.g. sm_80, sm_90, sm_90a)
// AMD: unknown chip 'gfx90a'
// FORMAT: pp-lower-stages-to-gpu: format must be isa, llvm, bin or fatbin, not 'cubin'
// BLOCK: pp-lower-stages-to-gpu: block-size must be 1-1024
// RATIO: :[[@LINE+1]]:1: error: max-ratio must be at least 2
func.func @f() {
  return
}
