// pp-opt parses what pp-run and pp-exec parse: every tool registers the
// dialects a model may contain (pp/InitAllDialects.h). A model as a front end
// writes it: the trained function on tensors (linalg, tensor, arith, math),
// beside a decode step that reads its KV cache with vector.load (buddy-mlir's
// DeepSeek decode step does), and ops of other dialects such code carries.
// integration_test/pp-run/model-dialects.test trains this file with pp-run
// and runs it with pp-exec.
// RUN: pp-opt %s | pp-opt | FileCheck %s
// The staged form still reads in pp-translate.
// RUN: cat %s %examples/p4-m16.mlir | pp-opt --pp-plan="schedule=1f1b num-microbatches=4" | pp-translate --export-svg | FileCheck %s --check-prefix=SVG

// CHECK-LABEL: func.func @mlp
// CHECK: linalg.matmul
// CHECK-LABEL: ml_program.global private mutable @position
// CHECK-LABEL: func.func @decode_step
// CHECK: affine.apply
// CHECK: index.add
// CHECK: vector.load %{{.*}} : memref<16x8xf32>, vector<8xf32>
// CHECK: scf.for
// CHECK: vector.reduction <add>
// CHECK: complex.create
// CHECK: bufferization.to_tensor
// CHECK: shape.shape_of

// SVG: <svg
// SVG: @p4_1f1b

func.func @mlp(%x: tensor<2x4xf32>, %t: tensor<2x3xf32>,
               %w1: tensor<4x8xf32> {pp.parameter}, %w2: tensor<8x3xf32> {pp.parameter}) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e8 = tensor.empty() : tensor<2x8xf32>
  %z8 = linalg.fill ins(%zero : f32) outs(%e8 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %h1 = linalg.matmul ins(%x, %w1 : tensor<2x4xf32>, tensor<4x8xf32>) outs(%z8 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %a1 = linalg.map { math.tanh } ins(%h1 : tensor<2x8xf32>) outs(%e8 : tensor<2x8xf32>) {pp.split_point}
  %e3 = tensor.empty() : tensor<2x3xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x3xf32>) -> tensor<2x3xf32>
  %y = linalg.matmul ins(%a1, %w2 : tensor<2x8xf32>, tensor<8x3xf32>) outs(%z3 : tensor<2x3xf32>) -> tensor<2x3xf32>
  %d = linalg.sub ins(%y, %t : tensor<2x3xf32>, tensor<2x3xf32>) outs(%e3 : tensor<2x3xf32>) -> tensor<2x3xf32>
  %sq = linalg.mul ins(%d, %d : tensor<2x3xf32>, tensor<2x3xf32>) outs(%e3 : tensor<2x3xf32>) -> tensor<2x3xf32>
  %e0 = tensor.empty() : tensor<f32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %loss = linalg.reduce { arith.addf } ins(%sq : tensor<2x3xf32>) outs(%z0 : tensor<f32>) dimensions = [0, 1]
  return %loss : tensor<f32>
}

ml_program.global private mutable @position(dense<0> : tensor<i64>) : tensor<i64>

func.func @decode_step(%cache: memref<16x8xf32>, %pos: index) -> (f32, complex<f32>, tensor<?xindex>, tensor<16x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %row = affine.apply affine_map<(d0) -> (d0 mod 16)>(%pos)
  %at = index.add %row, %c0
  %v = vector.load %cache[%at, %c0] : memref<16x8xf32>, vector<8xf32>
  %init = arith.constant 0.0 : f32
  %sum = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %init) -> (f32) {
    %r = vector.reduction <add>, %v : vector<8xf32> into f32
    %next = arith.addf %acc, %r : f32
    scf.yield %next : f32
  }
  %z = complex.create %sum, %init : complex<f32>
  %whole = bufferization.to_tensor %cache restrict : memref<16x8xf32> to tensor<16x8xf32>
  %shape = shape.shape_of %whole : tensor<16x8xf32> -> tensor<?xindex>
  return %sum, %z, %shape, %whole : f32, complex<f32>, tensor<?xindex>, tensor<16x8xf32>
}
