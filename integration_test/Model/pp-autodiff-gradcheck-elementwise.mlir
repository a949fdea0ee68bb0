// Gradient checks of elementwise arith and math: addf, subf, mulf, divf,
// negf, maximumf/minimumf/maxnumf/minnumf, cmpf + select (@arith); exp,
// log, tanh, sqrt, rsqrt, powf, fpowi, erf, sigmoid written out as
// 1 / (1 + exp(-x)) (@math). Each function is brought to canonical form,
// differentiated, and its gradient checked against central finite
// differences by pp-exec, in f32 and (the same file with f32 replaced by
// f64) in f64.
// RUN: pp-opt %s --pp-prepare-model --pp-autodiff=function=arith -o %t.arith.mlir
// RUN: pp-exec %t.arith.mlir --check-gradients --entry=arith --gradient=arith_grad | FileCheck %s
// RUN: sed 's/f32/f64/g' %s | pp-opt --pp-prepare-model --pp-autodiff=function=arith -o %t.arith.f64.mlir
// RUN: pp-exec %t.arith.f64.mlir --check-gradients --entry=arith --gradient=arith_grad | FileCheck %s
// RUN: pp-opt %s --pp-prepare-model --pp-autodiff=function=math -o %t.math.mlir
// RUN: pp-exec %t.math.mlir --check-gradients --entry=math --gradient=math_grad | FileCheck %s
// RUN: sed 's/f32/f64/g' %s | pp-opt --pp-prepare-model --pp-autodiff=function=math -o %t.math.f64.mlir
// RUN: pp-exec %t.math.f64.mlir --check-gradients --entry=math --gradient=math_grad | FileCheck %s

// CHECK: gradient check PASSED

// The sum of all elements: the loss of the functions below.
func.func private @sum(%t: tensor<4x5xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %r = linalg.reduce { arith.addf } ins(%t : tensor<4x5xf32>) outs(%init : tensor<f32>) dimensions = [0, 1]
  return %r : tensor<f32>
}

func.func @arith(%x: tensor<4x5xf32>, %y: tensor<4x5xf32>) -> tensor<f32> {
  %one = arith.constant dense<1.0> : tensor<4x5xf32>
  %0 = arith.mulf %x, %y : tensor<4x5xf32>
  %1 = arith.mulf %y, %y : tensor<4x5xf32>
  %2 = arith.addf %1, %one : tensor<4x5xf32>
  %3 = arith.divf %x, %2 : tensor<4x5xf32>
  %4 = arith.subf %0, %3 : tensor<4x5xf32>
  %5 = arith.negf %x : tensor<4x5xf32>
  %6 = arith.maximumf %x, %y : tensor<4x5xf32>
  %7 = arith.minimumf %4, %5 : tensor<4x5xf32>
  %8 = arith.maxnumf %6, %7 : tensor<4x5xf32>
  %9 = arith.minnumf %8, %1 : tensor<4x5xf32>
  %c = arith.cmpf ogt, %x, %y : tensor<4x5xf32>
  %10 = arith.select %c, %0, %9 : tensor<4x5xi1>, tensor<4x5xf32>
  %11 = arith.addf %10, %4 : tensor<4x5xf32>
  %s = call @sum(%11) : (tensor<4x5xf32>) -> tensor<f32>
  return %s : tensor<f32>
}

func.func @math(%x: tensor<4x5xf32>, %y: tensor<4x5xf32>) -> tensor<f32> {
  %half = arith.constant dense<0.5> : tensor<4x5xf32>
  %one = arith.constant dense<1.0> : tensor<4x5xf32>
  %three = arith.constant dense<3> : tensor<4x5xi32>
  %sq = arith.mulf %x, %x : tensor<4x5xf32>
  %pos = arith.addf %sq, %half : tensor<4x5xf32>
  %0 = math.exp %x : tensor<4x5xf32>
  %1 = math.log %pos : tensor<4x5xf32>
  %2 = math.tanh %y : tensor<4x5xf32>
  %3 = math.sqrt %pos : tensor<4x5xf32>
  %4 = math.rsqrt %pos : tensor<4x5xf32>
  %5 = math.powf %pos, %y : tensor<4x5xf32>
  %6 = math.fpowi %y, %three : tensor<4x5xf32>, tensor<4x5xi32>
  %7 = math.erf %x : tensor<4x5xf32>
  %n = arith.negf %y : tensor<4x5xf32>
  %en = math.exp %n : tensor<4x5xf32>
  %den = arith.addf %one, %en : tensor<4x5xf32>
  %8 = arith.divf %one, %den : tensor<4x5xf32>
  %a0 = arith.addf %0, %1 : tensor<4x5xf32>
  %a1 = arith.mulf %a0, %2 : tensor<4x5xf32>
  %a2 = arith.addf %a1, %3 : tensor<4x5xf32>
  %a3 = arith.mulf %a2, %4 : tensor<4x5xf32>
  %a4 = arith.addf %a3, %5 : tensor<4x5xf32>
  %a5 = arith.addf %a4, %6 : tensor<4x5xf32>
  %a6 = arith.mulf %a5, %7 : tensor<4x5xf32>
  %a7 = arith.addf %a6, %8 : tensor<4x5xf32>
  %s = call @sum(%a7) : (tensor<4x5xf32>) -> tensor<f32>
  return %s : tensor<f32>
}
