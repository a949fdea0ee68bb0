// The example model, prepared (pp-prepare-model) and compiled whole by
// pp-lower-stages-to-gpu. The three matmuls become cuBLAS calls
// (pprt_gpu_gemm_f32); the rest is six kernels: two fills, the copy of a
// fill bufferization makes, bias add + tanh (fused), tanh, and the loss
// (sub, square, full sum, fused) as a one-thread kernel because it reduces
// to a scalar. Every buffer is device memory. Every kernel's PTX assembles
// for sm_90.
// REQUIRES: ptxas
// math.tanh becomes a call to libdevice's __nv_tanhf; the pipeline links
// libdevice (CUDA's nvvm/libdevice/libdevice.10.bc) into every kernel module.
// RUN: pp-opt %examples/tanh-mlp3.mlir -pp-prepare-model -pp-lower-stages-to-gpu -o %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir
// RUN: rm -rf %t.dir && %extract_ptx %t.mlir -o %t.dir > %t.files
// RUN: cat %t.dir/*.ptx | FileCheck %s --check-prefix=PTX
// RUN: for f in %t.dir/*.ptx; do %ptxas -arch=sm_90 $f -o $f.cubin || exit 1; done
// RUN: ls %t.dir | grep -c 'ptx.cubin$' | FileCheck %s --check-prefix=COUNT
// The host side lowers to the LLVM dialect: kernel launches stay
// gpu.launch_func (the LLVM IR translation emits mgpuLaunchKernel), memory
// and streams become mgpu* calls.
// RUN: pp-opt %t.mlir -pp-lower-gpu-host-to-llvm | FileCheck %s --check-prefix=HOST

// CHECK-LABEL: func.func @mlp(
// CHECK-SAME:    %arg6: memref<f32>) {
// CHECK:         gpu.alloc
// CHECK:         gpu.launch_func @mlp_kernel::@mlp_kernel
// CHECK:         gpu.launch_func @mlp_kernel_0::@mlp_kernel
// CHECK:         call @pprt_gpu_gemm_f32(
// CHECK:         gpu.launch_func @mlp_kernel_1::@mlp_kernel
// CHECK:         call @pprt_gpu_gemm_f32(
// CHECK:         gpu.launch_func @mlp_kernel_2::@mlp_kernel
// CHECK:         gpu.launch_func @mlp_kernel_3::@mlp_kernel
// CHECK:         call @pprt_gpu_gemm_f32(
// CHECK:         gpu.launch_func @mlp_kernel_4::@mlp_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
// CHECK-NOT:     memref.alloc
// CHECK-NOT:     memref.load
// CHECK:         gpu.dealloc
// CHECK:         return
// CHECK: gpu.binary @mlp_kernel [#gpu.object<#nvvm.target<chip = "sm_90", link = ["{{.*}}libdevice.10.bc"]>
// CHECK: func.func private @pprt_gpu_gemm_f32(i64, i64, i64, i64, i64, i64, !llvm.ptr, i64, i64, !llvm.ptr, i64, i64, !llvm.ptr, i64, i64, i64)

// PTX: .target sm_90
// PTX: .visible .entry mlp_kernel(
// libdevice's tanhf, inlined:
// PTX: ex2.approx.ftz.f32

// Six kernels, each assembled:
// COUNT: 6

// HOST-LABEL: llvm.func @mlp(
// HOST:         llvm.call @mgpuStreamCreate()
// HOST:         llvm.call @mgpuMemAlloc(
// HOST:         gpu.launch_func <%{{.*}} : !llvm.ptr> @mlp_kernel::@mlp_kernel
// The GEMMs run on the stream: no host wait before them
// (pp-gpu-elide-host-waits), only one at the end of the function.
// HOST-NOT:     mgpuStreamSynchronize
// HOST:         llvm.call @pprt_gpu_gemm_f32(
// HOST-NOT:     mgpuStreamSynchronize
// HOST:         llvm.call @pprt_gpu_gemm_f32(
// HOST-NOT:     mgpuStreamSynchronize
// HOST:         llvm.call @pprt_gpu_gemm_f32(
// HOST:         llvm.call @mgpuMemFree(
// HOST:         llvm.call @mgpuStreamSynchronize(
// HOST-NOT:     mgpuStreamSynchronize
// HOST:         llvm.return
