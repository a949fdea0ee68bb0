// pp-autodiff on the input of a convolution, whose indexing map is a
// window (d0, d1 * 2 + d3, d4). The adjoint generic writes into an expanded
// tensor indexed by every loop dimension of that map, (d0, d1, d3, d4):
// batch, output position, kernel position, channel, with the output
// channels d2 reduced. It is then folded into the input's shape: for each
// kernel position k (unrolled), the slice of the expanded tensor at k is
// added into the input's adjoint at offset k with stride 2, in place (the
// adjoint's slice is the addition's init).
// RUN: pp-opt %s "-pp-autodiff=function=f wrt=0" | FileCheck %s

// CHECK-DAG: #[[$X:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1 * 2 + d3, d4)>
// CHECK-DAG: #[[$W:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d3, d4, d2)>
// CHECK-DAG: #[[$Y:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
// CHECK-DAG: #[[$EXPANDED:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
// CHECK-DAG: #[[$ID:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>

// CHECK-LABEL: func.func @f_grad(
// CHECK-SAME:    %[[X:.+]]: tensor<1x9x2xf32>, %[[W:.+]]: tensor<3x2x4xf32>)
// CHECK-SAME:    -> (tensor<f32>, tensor<1x9x2xf32>)
// The forward convolution, generalized.
// CHECK:       linalg.generic {indexing_maps = [#[[$X]], #[[$W]], #[[$Y]]], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%[[X]], %[[W]]
// The adjoint of the convolution's result (a broadcast of the seed).
// CHECK:       %[[DY:.+]] = linalg.generic {{.+}} ins(%{{.+}} : tensor<f32>) outs(%{{.+}} : tensor<1x4x4xf32>)
// dX_expanded[n, o, k, c] = sum_f dY[n, o, f] * W[k, c, f].
// CHECK:       %[[ZE:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<1x4x3x2xf32>)
// CHECK:       %[[DXE:.+]] = linalg.generic {indexing_maps = [#[[$W]], #[[$Y]], #[[$EXPANDED]]], iterator_types = ["parallel", "parallel", "reduction", "parallel", "parallel"]} ins(%[[W]], %[[DY]] : tensor<3x2x4xf32>, tensor<1x4x4xf32>) outs(%[[ZE]] : tensor<1x4x3x2xf32>)
// CHECK-NEXT:  ^bb0(%[[W_EL:.+]]: f32, %[[DY_EL:.+]]: f32, %[[ACC:.+]]: f32):
// CHECK-NEXT:    %[[P:.+]] = arith.mulf %[[DY_EL]], %[[W_EL]] : f32
// CHECK-NEXT:    %[[S:.+]] = arith.addf %[[ACC]], %[[P]] : f32
// CHECK-NEXT:    linalg.yield %[[S]] : f32
// The fold. Kernel position 0: inserted into zeros at rows 0, 2, 4, 6.
// CHECK:       %[[Z:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<1x9x2xf32>)
// CHECK:       %[[K0:.+]] = tensor.extract_slice %[[DXE]][0, 0, 0, 0] [1, 4, 1, 2] [1, 1, 1, 1] : tensor<1x4x3x2xf32> to tensor<1x4x2xf32>
// CHECK:       %[[A0:.+]] = tensor.insert_slice %[[K0]] into %[[Z]][0, 0, 0] [1, 4, 2] [1, 2, 1] : tensor<1x4x2xf32> into tensor<1x9x2xf32>
// Kernel position 1: added at rows 1, 3, 5, 7.
// CHECK:       %[[K1:.+]] = tensor.extract_slice %[[DXE]][0, 0, 1, 0] [1, 4, 1, 2] [1, 1, 1, 1] : tensor<1x4x3x2xf32> to tensor<1x4x2xf32>
// CHECK:       %[[OLD1:.+]] = tensor.extract_slice %[[A0]][0, 1, 0] [1, 4, 2] [1, 2, 1] : tensor<1x9x2xf32> to tensor<1x4x2xf32>
// CHECK:       %[[SUM1:.+]] = linalg.generic {indexing_maps = [#[[$ID]], #[[$ID]]], iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[K1]] : tensor<1x4x2xf32>) outs(%[[OLD1]] : tensor<1x4x2xf32>)
// CHECK-NEXT:  ^bb0(%[[K_EL:.+]]: f32, %[[OLD_EL:.+]]: f32):
// CHECK-NEXT:    %[[ADD:.+]] = arith.addf %[[OLD_EL]], %[[K_EL]] : f32
// CHECK-NEXT:    linalg.yield %[[ADD]] : f32
// CHECK:       %[[A1:.+]] = tensor.insert_slice %[[SUM1]] into %[[A0]][0, 1, 0] [1, 4, 2] [1, 2, 1] : tensor<1x4x2xf32> into tensor<1x9x2xf32>
// Kernel position 2: added at rows 2, 4, 6, 8 (overlapping position 0's).
// CHECK:       %[[K2:.+]] = tensor.extract_slice %[[DXE]][0, 0, 2, 0] [1, 4, 1, 2] [1, 1, 1, 1] : tensor<1x4x3x2xf32> to tensor<1x4x2xf32>
// CHECK:       %[[OLD2:.+]] = tensor.extract_slice %[[A1]][0, 2, 0] [1, 4, 2] [1, 2, 1] : tensor<1x9x2xf32> to tensor<1x4x2xf32>
// CHECK:       %[[SUM2:.+]] = linalg.generic {{.+}} ins(%[[K2]] : tensor<1x4x2xf32>) outs(%[[OLD2]] : tensor<1x4x2xf32>)
// CHECK:       %[[DX:.+]] = tensor.insert_slice %[[SUM2]] into %[[A1]][0, 2, 0] [1, 4, 2] [1, 2, 1] : tensor<1x4x2xf32> into tensor<1x9x2xf32>
// CHECK-NOT:   tensor.insert_slice
// CHECK:       return %{{.+}}, %[[DX]] : tensor<f32>, tensor<1x9x2xf32>

// sum(conv_1d(x, w)) with stride 2: 4 output positions, a kernel of 3.
func.func @f(%x: tensor<1x9x2xf32>, %w: tensor<3x2x4xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %c = linalg.conv_1d_nwc_wcf {dilations = dense<1> : tensor<1xi64>, strides = dense<2> : tensor<1xi64>} ins(%x, %w : tensor<1x9x2xf32>, tensor<3x2x4xf32>) outs(%z : tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %e0 = tensor.empty() : tensor<f32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %r = linalg.reduce { arith.addf } ins(%c : tensor<1x4x4xf32>) outs(%z0 : tensor<f32>) dimensions = [0, 1, 2]
  return %r : tensor<f32>
}
