// Exported from PyTorch by python/pp-import-torch (docs/Frontends.md):
//   pp-import-torch integration_test/pp-run/Inputs/torch/models.py:conv_bn --input 4x1x8x8 --target 4:i32 --train-mode --weights-dir none -o integration_test/pp-run/Inputs/torch/conv-bn.mlir
// torch 2.15.0, torch-mlir 20261001, output type tosa.
// Arguments: 6 parameters (pp.parameter, pp.name = the PyTorch name), then 1 data (pp.data).
//   0: 0.weight 4x1x3x3
//   1: 0.bias 4
//   2: 1.weight 4
//   3: 1.bias 4
//   4: 5.weight 3x4
//   5: 5.bias 3
module {
  func.func @conv_bn(%arg0: tensor<4x1x3x3xf32> {pp.name = "0.weight", pp.parameter}, %arg1: tensor<4xf32> {pp.name = "0.bias", pp.parameter}, %arg2: tensor<4xf32> {pp.name = "1.weight", pp.parameter}, %arg3: tensor<4xf32> {pp.name = "1.bias", pp.parameter}, %arg4: tensor<3x4xf32> {pp.name = "5.weight", pp.parameter}, %arg5: tensor<3xf32> {pp.name = "5.bias", pp.parameter}, %arg6: tensor<4x1x8x8xf32> {pp.data}) -> tensor<4x3xf32> {
    %0 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %1 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %2 = tosa.const_shape  {values = dense<[1, 4, 1, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %3 = tosa.const_shape  {values = dense<[1, 4, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %4 = tosa.const_shape  {values = dense<[1, 4, 3]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %5 = tosa.const_shape  {values = dense<[4, 3]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %6 = tosa.const_shape  {values = dense<[1, 3]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %7 = tosa.const_shape  {values = dense<[4, 8, 8, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %8 = tosa.const_shape  {values = dense<[4, 3, 3, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %9 = "tosa.const"() <{values = dense<3.906250e-03> : tensor<1x1x1x1xf64>}> : () -> tensor<1x1x1x1xf64>
    %10 = "tosa.const"() <{values = dense<3.906250e-03> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
    %11 = "tosa.const"() <{values = dense<9.99999974E-6> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
    %12 = "tosa.const"() <{values = dense<1.562500e-02> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
    %13 = tosa.reshape %arg6, %7 : (tensor<4x1x8x8xf32>, !tosa.shape<4>) -> tensor<4x8x8x1xf32>
    %14 = tosa.reshape %arg0, %8 : (tensor<4x1x3x3xf32>, !tosa.shape<4>) -> tensor<4x3x3x1xf32>
    %15 = tosa.conv2d %13, %14, %arg1, %0, %0 {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<4x8x8x1xf32>, tensor<4x3x3x1xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x8x8x4xf32>
    %16 = tosa.transpose %15 {perms = array<i32: 0, 3, 1, 2>} : (tensor<4x8x8x4xf32>) -> tensor<4x4x8x8xf32>
    %17 = tosa.cast %16 : (tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf64>
    %18 = tosa.reduce_sum %17 {axis = 0 : i32} : (tensor<4x4x8x8xf64>) -> tensor<1x4x8x8xf64>
    %19 = tosa.reduce_sum %18 {axis = 2 : i32} : (tensor<1x4x8x8xf64>) -> tensor<1x4x1x8xf64>
    %20 = tosa.reduce_sum %19 {axis = 3 : i32} : (tensor<1x4x1x8xf64>) -> tensor<1x4x1x1xf64>
    %21 = tosa.mul %20, %9, %1 : (tensor<1x4x1x1xf64>, tensor<1x1x1x1xf64>, tensor<1xi8>) -> tensor<1x4x1x1xf64>
    %22 = tosa.sub %17, %21 : (tensor<4x4x8x8xf64>, tensor<1x4x1x1xf64>) -> tensor<4x4x8x8xf64>
    %23 = tosa.mul %22, %22, %1 : (tensor<4x4x8x8xf64>, tensor<4x4x8x8xf64>, tensor<1xi8>) -> tensor<4x4x8x8xf64>
    %24 = tosa.reduce_sum %23 {axis = 0 : i32} : (tensor<4x4x8x8xf64>) -> tensor<1x4x8x8xf64>
    %25 = tosa.reduce_sum %24 {axis = 2 : i32} : (tensor<1x4x8x8xf64>) -> tensor<1x4x1x8xf64>
    %26 = tosa.reduce_sum %25 {axis = 3 : i32} : (tensor<1x4x1x8xf64>) -> tensor<1x4x1x1xf64>
    %27 = tosa.mul %26, %9, %1 : (tensor<1x4x1x1xf64>, tensor<1x1x1x1xf64>, tensor<1xi8>) -> tensor<1x4x1x1xf64>
    %28 = tosa.cast %27 : (tensor<1x4x1x1xf64>) -> tensor<1x4x1x1xf32>
    %29 = tosa.reduce_sum %16 {axis = 0 : i32} : (tensor<4x4x8x8xf32>) -> tensor<1x4x8x8xf32>
    %30 = tosa.reduce_sum %29 {axis = 2 : i32} : (tensor<1x4x8x8xf32>) -> tensor<1x4x1x8xf32>
    %31 = tosa.reduce_sum %30 {axis = 3 : i32} : (tensor<1x4x1x8xf32>) -> tensor<1x4x1x1xf32>
    %32 = tosa.mul %31, %10, %1 : (tensor<1x4x1x1xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<1x4x1x1xf32>
    %33 = tosa.add %28, %11 : (tensor<1x4x1x1xf32>, tensor<1x1x1x1xf32>) -> tensor<1x4x1x1xf32>
    %34 = tosa.rsqrt %33 : (tensor<1x4x1x1xf32>) -> tensor<1x4x1x1xf32>
    %35 = tosa.sub %16, %32 : (tensor<4x4x8x8xf32>, tensor<1x4x1x1xf32>) -> tensor<4x4x8x8xf32>
    %36 = tosa.mul %35, %34, %1 : (tensor<4x4x8x8xf32>, tensor<1x4x1x1xf32>, tensor<1xi8>) -> tensor<4x4x8x8xf32>
    %37 = tosa.reshape %arg2, %2 : (tensor<4xf32>, !tosa.shape<4>) -> tensor<1x4x1x1xf32>
    %38 = tosa.mul %36, %37, %1 : (tensor<4x4x8x8xf32>, tensor<1x4x1x1xf32>, tensor<1xi8>) -> tensor<4x4x8x8xf32>
    %39 = tosa.reshape %arg3, %2 : (tensor<4xf32>, !tosa.shape<4>) -> tensor<1x4x1x1xf32>
    %40 = tosa.add %38, %39 : (tensor<4x4x8x8xf32>, tensor<1x4x1x1xf32>) -> tensor<4x4x8x8xf32>
    %41 = tosa.clamp %40 {max_val = 3.40282347E+38 : f32, min_val = 0.000000e+00 : f32} : (tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %42 = tosa.reduce_sum %41 {axis = 3 : i32} : (tensor<4x4x8x8xf32>) -> tensor<4x4x8x1xf32>
    %43 = tosa.reduce_sum %42 {axis = 2 : i32} : (tensor<4x4x8x1xf32>) -> tensor<4x4x1x1xf32>
    %44 = tosa.mul %43, %12, %1 : (tensor<4x4x1x1xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<4x4x1x1xf32>
    %45 = tosa.transpose %arg4 {perms = array<i32: 1, 0>} : (tensor<3x4xf32>) -> tensor<4x3xf32>
    %46 = tosa.reshape %44, %3 : (tensor<4x4x1x1xf32>, !tosa.shape<3>) -> tensor<1x4x4xf32>
    %47 = tosa.reshape %45, %4 : (tensor<4x3xf32>, !tosa.shape<3>) -> tensor<1x4x3xf32>
    %48 = tosa.matmul %46, %47, %0, %0 : (tensor<1x4x4xf32>, tensor<1x4x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x3xf32>
    %49 = tosa.reshape %48, %5 : (tensor<1x4x3xf32>, !tosa.shape<2>) -> tensor<4x3xf32>
    %50 = tosa.reshape %arg5, %6 : (tensor<3xf32>, !tosa.shape<2>) -> tensor<1x3xf32>
    %51 = tosa.add %49, %50 : (tensor<4x3xf32>, tensor<1x3xf32>) -> tensor<4x3xf32>
    return %51 : tensor<4x3xf32>
  }
}
