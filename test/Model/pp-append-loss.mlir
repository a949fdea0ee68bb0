// RUN: pp-opt %s -split-input-file -pp-append-loss="function=f kind=mse" | FileCheck %s --check-prefix=MSE
// RUN: pp-opt %s -split-input-file -pp-append-loss="function=f kind=cross-entropy" | FileCheck %s --check-prefix=CE

// The model is kept; @f_loss is a copy with the target appended (pp.data),
// the argument attributes and pp.initializer kept, the result attributes
// dropped, and the loss computed in f32 from the f16 output.

// MSE-DAG:   #[[$ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// MSE-DAG:   #[[$ALL:.*]] = affine_map<(d0, d1) -> ()>
// MSE-DAG:   #[[$SCALAR:.*]] = affine_map<() -> ()>
// MSE-LABEL: func.func @f(
// MSE-SAME:      -> (tensor<2x3xf16> {test.result})
// MSE:         return %{{.*}} : tensor<2x3xf16>
// MSE-LABEL: func.func @f_loss(
// MSE-SAME:      %[[X:.*]]: tensor<2x3xf16>, %[[W:.*]]: tensor<3xf16> {pp.parameter},
// MSE-SAME:      %[[T:.*]]: tensor<2x3xf16> {pp.data}) -> tensor<f32>
// MSE-SAME:      attributes {pp.initializer = @f_init, pp.loss = "mse"}
// MSE:         %[[Y:.*]] = linalg.mul
// MSE:         %[[ZERO:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<f32>)
// MSE:         %[[SUM:.*]] = linalg.generic {indexing_maps = [#[[$ID]], #[[$ID]], #[[$ALL]]], iterator_types = ["reduction", "reduction"]}
// MSE-SAME:        ins(%[[Y]], %[[T]] : tensor<2x3xf16>, tensor<2x3xf16>) outs(%[[ZERO]] : tensor<f32>)
// MSE:           %[[A:.*]] = arith.extf %{{.*}} : f16 to f32
// MSE:           %[[B:.*]] = arith.extf %{{.*}} : f16 to f32
// MSE:           %[[D:.*]] = arith.subf %[[A]], %[[B]] : f32
// MSE:           %[[SQ:.*]] = arith.mulf %[[D]], %[[D]] : f32
// MSE:           arith.addf %{{.*}}, %[[SQ]] : f32
// MSE:         %[[MEAN:.*]] = linalg.generic {indexing_maps = [#[[$SCALAR]], #[[$SCALAR]]], iterator_types = []} ins(%[[SUM]] : tensor<f32>)
// MSE:           arith.constant 6.000000e+00 : f32
// MSE:           arith.divf
// MSE:         return %[[MEAN]] : tensor<f32>

// CE-LABEL: func.func @f_loss(
// CE-SAME:      %[[X:.*]]: tensor<2x3xf16>, %[[W:.*]]: tensor<3xf16> {pp.parameter},
// CE-SAME:      %[[L:.*]]: tensor<2xi32> {pp.data}) -> tensor<f32>
// CE-SAME:      attributes {pp.initializer = @f_init, pp.loss = "cross-entropy"}
// CE:         %[[Y:.*]] = linalg.mul
// Row maximum, from -inf.
// CE:         %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
// CE:         %[[M0:.*]] = linalg.fill ins(%[[NEGINF]] : f32) outs(%{{.*}} : tensor<2xf32>)
// CE:         %[[M:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%[[Y]] : tensor<2x3xf16>) outs(%[[M0]] : tensor<2xf32>)
// CE:           arith.maximumf
// Sum of exp(y - max).
// CE:         %[[S:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%[[Y]], %[[M]] : tensor<2x3xf16>, tensor<2xf32>)
// CE:           arith.subf
// CE:           math.exp
// The logit of the label.
// CE:         %[[P:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%[[Y]], %[[L]] : tensor<2x3xf16>, tensor<2xi32>)
// CE:           linalg.index 1 : index
// CE:           arith.cmpi eq
// CE:           arith.select
// Sum over the rows with a label in [0, 3) of log(s) + m - p.
// CE:         %[[TOTAL:.*]] = linalg.generic {{.*}} iterator_types = ["reduction"]} ins(%[[S]], %[[M]], %[[P]], %[[L]] : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xi32>) outs(%{{.*}} : tensor<f32>)
// CE:           math.log
// CE:           arith.constant 3 : i32
// CE:           arith.cmpi sge
// CE:           arith.cmpi slt
// CE:           arith.select
// CE:         %[[COUNT:.*]] = linalg.generic {{.*}} iterator_types = ["reduction"]} ins(%[[L]] : tensor<2xi32>) outs(%{{.*}} : tensor<f32>)
// CE:         %[[MEAN:.*]] = linalg.generic {{.*}} iterator_types = []} ins(%[[TOTAL]], %[[COUNT]] : tensor<f32>, tensor<f32>)
// CE:           arith.divf
// CE:         return %[[MEAN]] : tensor<f32>

func.func @f(%x: tensor<2x3xf16>, %w: tensor<3xf16> {pp.parameter}) -> (tensor<2x3xf16> {test.result}) attributes {pp.initializer = @f_init} {
  %e = tensor.empty() : tensor<2x3xf16>
  %b = linalg.broadcast ins(%w : tensor<3xf16>) outs(%e : tensor<2x3xf16>) dimensions = [0]
  %y = linalg.mul ins(%x, %b : tensor<2x3xf16>, tensor<2x3xf16>) outs(%e : tensor<2x3xf16>) -> tensor<2x3xf16>
  return %y : tensor<2x3xf16>
}

func.func @f_init() -> tensor<3xf16> {
  %c = arith.constant dense<1.0> : tensor<3xf16>
  return %c : tensor<3xf16>
}

// -----

// An f64 output gives an f64 loss.

// MSE-LABEL: func.func @f_loss(%{{.*}}: tensor<2x2xf64>, %{{.*}}: tensor<2x2xf64> {pp.data}) -> tensor<f64>
// MSE:         arith.subf %{{.*}}, %{{.*}} : f64
// MSE:         arith.constant 4.000000e+00 : f64
// MSE:         return %{{.*}} : tensor<f64>

// CE-LABEL: func.func @f_loss(%{{.*}}: tensor<2x2xf64>, %{{.*}}: tensor<2xi32> {pp.data}) -> tensor<f64>
// CE:         math.exp %{{.*}} : f64
// CE:         math.log %{{.*}} : f64
// CE:         return %{{.*}} : tensor<f64>
func.func @f(%x: tensor<2x2xf64>) -> tensor<2x2xf64> {
  return %x : tensor<2x2xf64>
}
