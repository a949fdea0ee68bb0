// Gradient checks of gathers: a tensor read from above by tensor.extract in
// a linalg.generic body at data-dependent indices (tosa.gather as
// tosa-to-linalg lowers it, @gather; an embedding lookup written in linalg,
// with a repeated id and a weight read twice in one body, @embedding; a
// loop index over half of a table dimension, @subrange). The
// table's adjoint is a scatter-add: ids that repeat add up. In f32 and f64.
// RUN: pp-opt %s --pp-prepare-model --pp-autodiff=function=gather -o %t.gather.mlir
// RUN: pp-exec %t.gather.mlir --check-gradients --entry=gather --gradient=gather_grad | FileCheck %s
// RUN: sed 's/f32/f64/g' %s | pp-opt --pp-prepare-model --pp-autodiff=function=gather -o %t.gather.f64.mlir
// RUN: pp-exec %t.gather.f64.mlir --check-gradients --entry=gather --gradient=gather_grad | FileCheck %s
// RUN: pp-opt %s --pp-prepare-model --pp-autodiff=function=embedding -o %t.embedding.mlir
// RUN: pp-exec %t.embedding.mlir --check-gradients --entry=embedding --gradient=embedding_grad | FileCheck %s
// RUN: sed 's/f32/f64/g' %s | pp-opt --pp-prepare-model --pp-autodiff=function=embedding -o %t.embedding.f64.mlir
// RUN: pp-exec %t.embedding.f64.mlir --check-gradients --entry=embedding --gradient=embedding_grad | FileCheck %s
// The adjoint is one generic over the forward's space and one dimension
// per compared index, summing where the index matches.
// RUN: pp-opt %s --pp-prepare-model --pp-autodiff=function=subrange -o %t.subrange.mlir
// RUN: pp-exec %t.subrange.mlir --check-gradients --entry=subrange --gradient=subrange_grad | FileCheck %s
// RUN: FileCheck %s --check-prefix=IR < %t.gather.mlir
// CHECK: gradient check PASSED
// IR-LABEL: func.func @gather_grad(
// IR: linalg.generic {{.*}}iterator_types = ["reduction", "reduction", "parallel", "parallel", "parallel"]
// IR: arith.cmpi eq
// IR: arith.select

func.func @gather(%table: tensor<1x16x8xf32>, %ids: tensor<1x5xi32>, %t: tensor<1x5x8xf32>) -> tensor<f32> {
  %g = tosa.gather %table, %ids : (tensor<1x16x8xf32>, tensor<1x5xi32>) -> tensor<1x5x8xf32>
  %d = tosa.sub %g, %t : (tensor<1x5x8xf32>, tensor<1x5x8xf32>) -> tensor<1x5x8xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %s = tosa.mul %d, %d, %shift : (tensor<1x5x8xf32>, tensor<1x5x8xf32>, tensor<1xi8>) -> tensor<1x5x8xf32>
  %e = tensor.empty() : tensor<f32>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %r = linalg.reduce ins(%s : tensor<1x5x8xf32>) outs(%f : tensor<f32>) dimensions = [0, 1, 2]
    (%a: f32, %b: f32) {
      %x = arith.addf %a, %b : f32
      linalg.yield %x : f32
    }
  return %r : tensor<f32>
}

// Ids 3, 7, 3, 0: row 3 is read twice, so its gradient is the sum of two.
// The body reads the table at (id, j) and at (id, 7 - j) and scales by w.
func.func @embedding(%table: tensor<10x8xf32>, %unused: tensor<4xi64>, %w: tensor<8xf32>) -> tensor<f32> {
  %ids = arith.constant dense<[3, 7, 3, 0]> : tensor<4xi64>
  %e = tensor.empty() : tensor<4x8xf32>
  %c7 = arith.constant 7 : index
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%ids, %w : tensor<4xi64>, tensor<8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%id: i64, %wj: f32, %o: f32):
    %i = arith.index_cast %id : i64 to index
    %j = linalg.index 1 : index
    %k = arith.subi %c7, %j : index
    %v = tensor.extract %table[%i, %j] : tensor<10x8xf32>
    %u = tensor.extract %table[%i, %k] : tensor<10x8xf32>
    %p = arith.mulf %v, %u : f32
    %q = arith.mulf %p, %wj : f32
    linalg.yield %q : f32
  } -> tensor<4x8xf32>
  %z = arith.constant 0.0 : f32
  %s = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%z : f32) outs(%s : tensor<f32>) -> tensor<f32>
  %r = linalg.reduce ins(%g : tensor<4x8xf32>) outs(%f : tensor<f32>) dimensions = [0, 1]
    (%a: f32, %b: f32) {
      %x = arith.mulf %a, %a : f32
      %y = arith.addf %x, %b : f32
      linalg.yield %y : f32
    }
  return %r : tensor<f32>
}

// The body reads columns 0..3 of an 8-column table at loop index 1, which
// ranges over 4: that index is compared, not written at its loop dimension.
func.func @subrange(%table: tensor<6x8xf32>, %unused: tensor<2xi64>) -> tensor<f32> {
  %ids = arith.constant dense<[5, 2]> : tensor<2xi64>
  %e = tensor.empty() : tensor<2x4xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%ids : tensor<2xi64>) outs(%e : tensor<2x4xf32>) {
  ^bb0(%id: i64, %o: f32):
    %i = arith.index_cast %id : i64 to index
    %j = linalg.index 1 : index
    %v = tensor.extract %table[%i, %j] : tensor<6x8xf32>
    %q = arith.mulf %v, %v : f32
    linalg.yield %q : f32
  } -> tensor<2x4xf32>
  %z = arith.constant 0.0 : f32
  %s = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%z : f32) outs(%s : tensor<f32>) -> tensor<f32>
  %r = linalg.reduce ins(%g : tensor<2x4xf32>) outs(%f : tensor<f32>) dimensions = [0, 1]
    (%a: f32, %b: f32) {
      %y = arith.addf %a, %b : f32
      linalg.yield %y : f32
    }
  return %r : tensor<f32>
}
