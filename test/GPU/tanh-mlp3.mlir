// The example model, prepared (pp-prepare-model) and compiled whole by
// pp-lower-stages-to-gpu: fills, the bias add, tanh and the loss's sub/mul
// become kernels; the matmuls are lowered naively for now (one thread per
// output element, the k loop in the thread; cuBLAS is a later step). The
// loss's full reduction to a scalar has no parallel dimension and stays a
// host loop (docs/GPU.md). Every kernel's PTX assembles for sm_90.
// REQUIRES: ptxas
// math.tanh becomes a call to libdevice's __nv_tanhf; the pipeline links
// libdevice (CUDA's nvvm/libdevice/libdevice.10.bc) into every kernel module.
// RUN: pp-opt %examples/tanh-mlp3.mlir -pp-prepare-model -pp-lower-stages-to-gpu -o %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir
// RUN: rm -rf %t.dir && %extract_ptx %t.mlir -o %t.dir > %t.files
// RUN: cat %t.dir/*.ptx | FileCheck %s --check-prefix=PTX
// RUN: for f in %t.dir/*.ptx; do %ptxas -arch=sm_90 $f -o $f.cubin || exit 1; done
// RUN: ls %t.dir | grep -c 'ptx.cubin$' | FileCheck %s --check-prefix=COUNT

// CHECK: func.func @mlp(
// CHECK-COUNT-3: gpu.launch_func
// CHECK: scf.for
// CHECK: gpu.binary @mlp_kernel [#gpu.object<#nvvm.target<chip = "sm_90", link = ["{{.*}}libdevice.10.bc"]>

// PTX: .target sm_90
// PTX: .visible .entry mlp_kernel(
// libdevice's tanhf, inlined:
// PTX: ex2.approx.ftz.f32

// Eleven kernels, each assembled:
// COUNT: 11
