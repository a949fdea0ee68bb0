// Gradient checks of tensor ops: tensor.expand_shape, collapse_shape and
// reshape (@reshapes); extract_slice (strided and rank-reducing),
// insert_slice, pad, concat and a one-element tensor<1xf32> loss
// (@slices); tensor.extract, from_elements and scalar arith/math between
// them (@scalars); a scalar read by a linalg.generic body from above and
// filled by linalg.fill (@captured: its gradient is a full reduction). In
// f32 and f64.
// RUN: pp-opt %s --pp-prepare-model --pp-autodiff=function=reshapes -o %t.reshapes.mlir
// RUN: pp-exec %t.reshapes.mlir --check-gradients --entry=reshapes --gradient=reshapes_grad | FileCheck %s
// RUN: sed 's/f32/f64/g' %s | pp-opt --pp-prepare-model --pp-autodiff=function=reshapes -o %t.reshapes.f64.mlir
// RUN: pp-exec %t.reshapes.f64.mlir --check-gradients --entry=reshapes --gradient=reshapes_grad | FileCheck %s
// RUN: pp-opt %s --pp-prepare-model --pp-autodiff=function=slices -o %t.slices.mlir
// RUN: pp-exec %t.slices.mlir --check-gradients --entry=slices --gradient=slices_grad | FileCheck %s
// RUN: sed 's/f32/f64/g' %s | pp-opt --pp-prepare-model --pp-autodiff=function=slices -o %t.slices.f64.mlir
// RUN: pp-exec %t.slices.f64.mlir --check-gradients --entry=slices --gradient=slices_grad | FileCheck %s
// RUN: pp-opt %s --pp-prepare-model --pp-autodiff=function=scalars -o %t.scalars.mlir
// RUN: pp-exec %t.scalars.mlir --check-gradients --entry=scalars --gradient=scalars_grad | FileCheck %s
// RUN: sed 's/f32/f64/g' %s | pp-opt --pp-prepare-model --pp-autodiff=function=scalars -o %t.scalars.f64.mlir
// RUN: pp-exec %t.scalars.f64.mlir --check-gradients --entry=scalars --gradient=scalars_grad | FileCheck %s
// RUN: pp-opt %s --pp-prepare-model --pp-autodiff=function=captured -o %t.captured.mlir
// RUN: pp-exec %t.captured.mlir --check-gradients --entry=captured --gradient=captured_grad | FileCheck %s
// RUN: sed 's/f32/f64/g' %s | pp-opt --pp-prepare-model --pp-autodiff=function=captured -o %t.captured.f64.mlir
// RUN: pp-exec %t.captured.f64.mlir --check-gradients --entry=captured --gradient=captured_grad | FileCheck %s

// CHECK: gradient check PASSED

#id = affine_map<(i, j) -> (i, j)>
#none = affine_map<(i, j) -> ()>

func.func private @sum3(%t: tensor<2x3x4xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %r = linalg.reduce { arith.addf } ins(%t : tensor<2x3x4xf32>) outs(%init : tensor<f32>) dimensions = [0, 1, 2]
  return %r : tensor<f32>
}
func.func @reshapes(%x: tensor<6x4xf32>, %y: tensor<24xf32>) -> tensor<f32> {
  %a = tensor.expand_shape %x [[0, 1], [2]] output_shape [2, 3, 4] : tensor<6x4xf32> into tensor<2x3x4xf32>
  %shape = arith.constant dense<[2, 3, 4]> : tensor<3xindex>
  %b = tensor.reshape %y(%shape) : (tensor<24xf32>, tensor<3xindex>) -> tensor<2x3x4xf32>
  %c = arith.mulf %a, %b : tensor<2x3x4xf32>
  %d = tensor.collapse_shape %c [[0, 1], [2]] : tensor<2x3x4xf32> into tensor<6x4xf32>
  %e = tensor.expand_shape %d [[0, 1], [2]] output_shape [2, 3, 4] : tensor<6x4xf32> into tensor<2x3x4xf32>
  %f = math.sin %e : tensor<2x3x4xf32>
  %g = arith.mulf %f, %a : tensor<2x3x4xf32>
  %s = call @sum3(%g) : (tensor<2x3x4xf32>) -> tensor<f32>
  return %s : tensor<f32>
}
func.func @slices(%x: tensor<4x6xf32>, %y: tensor<2x3xf32>, %z: tensor<4x2xf32>) -> tensor<1xf32> {
  %zero = arith.constant 0.0 : f32
  // a window of x, and a rank-reducing row of x
  %s = tensor.extract_slice %x[1, 2] [2, 3] [1, 1] : tensor<4x6xf32> to tensor<2x3xf32>
  %row = tensor.extract_slice %x[3, 0] [1, 3] [1, 2] : tensor<4x6xf32> to tensor<3xf32>
  %p = arith.mulf %s, %y : tensor<2x3xf32>
  // write p into x (overwriting a window), then pad, concat with z
  %ins = tensor.insert_slice %p into %x[0, 3] [2, 3] [1, 1] : tensor<2x3xf32> into tensor<4x6xf32>
  %pad = tensor.pad %ins low[1, 0] high[0, 2] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<4x6xf32> to tensor<5x8xf32>
  %pz = tensor.pad %z low[0, 1] high[1, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<4x2xf32> to tensor<5x3xf32>
  %cat = tensor.concat dim(1) %pad, %pz : (tensor<5x8xf32>, tensor<5x3xf32>) -> tensor<5x11xf32>
  %sq = arith.mulf %cat, %cat : tensor<5x11xf32>
  %t = math.tanh %sq : tensor<5x11xf32>
  %e0 = tensor.empty() : tensor<f32>
  %i0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %r = linalg.reduce { arith.addf } ins(%t : tensor<5x11xf32>) outs(%i0 : tensor<f32>) dimensions = [0, 1]
  %rr = linalg.reduce { arith.addf } ins(%row : tensor<3xf32>) outs(%r : tensor<f32>) dimensions = [0]
  %out = tensor.expand_shape %rr [] output_shape [1] : tensor<f32> into tensor<1xf32>
  return %out : tensor<1xf32>
}
// Scalar arithmetic on extracted elements, the loss returned as tensor<f32>.
func.func @scalars(%x: tensor<3xf32>, %y: tensor<2x2xf32>) -> tensor<f32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %a = tensor.extract %x[%c0] : tensor<3xf32>
  %b = tensor.extract %x[%c2] : tensor<3xf32>
  %c = tensor.extract %y[%c1, %c0] : tensor<2x2xf32>
  %t = tensor.from_elements %a, %b, %c, %a : tensor<2x2xf32>
  %u = arith.mulf %t, %y : tensor<2x2xf32>
  %d = tensor.extract %u[%c1, %c1] : tensor<2x2xf32>
  %e = tensor.extract %u[%c0, %c1] : tensor<2x2xf32>
  %m = arith.mulf %d, %e : f32
  %l = math.exp %m : f32
  %s = arith.addf %l, %c : f32
  %r = tensor.from_elements %s : tensor<f32>
  return %r : tensor<f32>
}

// sum(tanh(x * s^2) * s), s = w[] read inside the body.
func.func @captured(%x: tensor<3x4xf32>, %w: tensor<f32>) -> tensor<f32> {
  %s = tensor.extract %w[] : tensor<f32>
  %s2 = arith.mulf %s, %s : f32
  %e = tensor.empty() : tensor<3x4xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<3x4xf32>) outs(%e : tensor<3x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %s2 : f32
    %t = math.tanh %m : f32
    linalg.yield %t : f32
  } -> tensor<3x4xf32>
  %e2 = tensor.empty() : tensor<3x4xf32>
  %f = linalg.fill ins(%s : f32) outs(%e2 : tensor<3x4xf32>) -> tensor<3x4xf32>
  %z = arith.constant dense<0.0> : tensor<f32>
  %l = linalg.generic {indexing_maps = [#id, #id, #none], iterator_types = ["reduction", "reduction"]} ins(%y, %f : tensor<3x4xf32>, tensor<3x4xf32>) outs(%z : tensor<f32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  return %l : tensor<f32>
}
