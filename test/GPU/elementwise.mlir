// pp-lower-stages-to-gpu on an elementwise function, tanh(a * b + c): the
// loop nest becomes one gpu.launch (blocks of 128 threads), outlined into a
// kernel, lowered to NVVM and serialized to PTX for sm_90, which ptxas
// assembles.
// REQUIRES: ptxas
// math.tanh becomes a call to libdevice's __nv_tanhf, which ptxas cannot
// resolve (no libdevice linked yet; docs/GPU.md). Expected to fail until fixed.
// XFAIL: *
// RUN: pp-opt %s -pp-lower-stages-to-gpu="chip=sm_90" -mlir-print-ir-after=convert-parallel-loops-to-gpu -o %t.mlir 2>&1 | FileCheck %s --check-prefix=LAUNCH
// RUN: FileCheck %s --input-file=%t.mlir --check-prefix=HOST
// RUN: %extract_ptx %t.mlir > %t.ptx
// RUN: FileCheck %s --input-file=%t.ptx --check-prefix=PTX
// RUN: %ptxas -arch=sm_90 %t.ptx -o %t.cubin

// LAUNCH-LABEL: func.func @ew(
// LAUNCH: gpu.launch blocks(
// LAUNCH: math.tanh
// LAUNCH: gpu.terminator

// HOST: module attributes {gpu.container_module}
// HOST: func.func @ew(%{{.*}}: memref<256x8xf32>, %{{.*}}: memref<256x8xf32>, %{{.*}}: memref<256x8xf32>) -> memref<256x8xf32>
// HOST: gpu.launch_func @ew_kernel::@ew_kernel
// HOST: gpu.binary @ew_kernel [#gpu.object<#nvvm.target<chip = "sm_90">

// PTX: .target sm_90
// PTX: .address_size 64
// PTX: .visible .entry ew_kernel(
// PTX: mov.u32 {{.*}}%tid.x
// PTX: mov.u32 {{.*}}%ctaid.x
// PTX: ld.global
// PTX: mul.rn.f32
// PTX: add.rn.f32
// PTX: ex2.approx
// PTX: st.global
// PTX: ret;

#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @ew(%a: tensor<256x8xf32>, %b: tensor<256x8xf32>,
              %c: tensor<256x8xf32>) -> tensor<256x8xf32> {
  %e = tensor.empty() : tensor<256x8xf32>
  %r = linalg.generic {indexing_maps = [#map, #map, #map, #map],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a, %b, %c : tensor<256x8xf32>, tensor<256x8xf32>, tensor<256x8xf32>)
      outs(%e : tensor<256x8xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %m, %z : f32
    %t = math.tanh %s : f32
    linalg.yield %t : f32
  } -> tensor<256x8xf32>
  return %r : tensor<256x8xf32>
}
