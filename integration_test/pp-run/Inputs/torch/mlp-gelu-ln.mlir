// Exported from PyTorch by python/pp-import-torch (docs/Frontends.md):
//   pp-import-torch integration_test/pp-run/Inputs/torch/models.py:mlp_gelu_ln --input 4x32 --target 4x10 --weights-dir none -o integration_test/pp-run/Inputs/torch/mlp-gelu-ln.mlir
// torch 2.15.0, torch-mlir 20261001, output type tosa.
// Arguments: 10 parameters (pp.parameter, pp.name = the PyTorch name), then 1 data (pp.data).
//   0: 0.weight 64x32
//   1: 0.bias 64
//   2: 1.weight 64
//   3: 1.bias 64
//   4: 3.weight 64x64
//   5: 3.bias 64
//   6: 4.weight 64
//   7: 4.bias 64
//   8: 6.weight 10x64
//   9: 6.bias 10
module {
  func.func @mlp_gelu_ln(%arg0: tensor<64x32xf32> {pp.name = "0.weight", pp.parameter}, %arg1: tensor<64xf32> {pp.name = "0.bias", pp.parameter}, %arg2: tensor<64xf32> {pp.name = "1.weight", pp.parameter}, %arg3: tensor<64xf32> {pp.name = "1.bias", pp.parameter}, %arg4: tensor<64x64xf32> {pp.name = "3.weight", pp.parameter}, %arg5: tensor<64xf32> {pp.name = "3.bias", pp.parameter}, %arg6: tensor<64xf32> {pp.name = "4.weight", pp.parameter}, %arg7: tensor<64xf32> {pp.name = "4.bias", pp.parameter}, %arg8: tensor<10x64xf32> {pp.name = "6.weight", pp.parameter}, %arg9: tensor<10xf32> {pp.name = "6.bias", pp.parameter}, %arg10: tensor<4x32xf32> {pp.data}) -> tensor<4x10xf32> {
    %0 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %1 = tosa.const_shape  {values = dense<[1, 4, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %2 = tosa.const_shape  {values = dense<[1, 32, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %3 = tosa.const_shape  {values = dense<[4, 64]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %4 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %5 = tosa.const_shape  {values = dense<[1, 64]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %6 = tosa.const_shape  {values = dense<[1, 4, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %7 = tosa.const_shape  {values = dense<[1, 64, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %8 = tosa.const_shape  {values = dense<[1, 64, 10]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %9 = tosa.const_shape  {values = dense<[4, 10]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %10 = tosa.const_shape  {values = dense<[1, 10]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %11 = "tosa.const"() <{values = dense<1.562500e-02> : tensor<1x1xf64>}> : () -> tensor<1x1xf64>
    %12 = "tosa.const"() <{values = dense<1.562500e-02> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
    %13 = "tosa.const"() <{values = dense<9.99999974E-6> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
    %14 = "tosa.const"() <{values = dense<4.471500e-02> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
    %15 = "tosa.const"() <{values = dense<0.797884583> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
    %16 = "tosa.const"() <{values = dense<5.000000e-01> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
    %17 = "tosa.const"() <{values = dense<1.000000e+00> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
    %18 = tosa.transpose %arg0 {perms = array<i32: 1, 0>} : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %19 = tosa.reshape %arg10, %1 : (tensor<4x32xf32>, !tosa.shape<3>) -> tensor<1x4x32xf32>
    %20 = tosa.reshape %18, %2 : (tensor<32x64xf32>, !tosa.shape<3>) -> tensor<1x32x64xf32>
    %21 = tosa.matmul %19, %20, %0, %0 : (tensor<1x4x32xf32>, tensor<1x32x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x64xf32>
    %22 = tosa.reshape %21, %3 : (tensor<1x4x64xf32>, !tosa.shape<2>) -> tensor<4x64xf32>
    %23 = tosa.reshape %arg1, %5 : (tensor<64xf32>, !tosa.shape<2>) -> tensor<1x64xf32>
    %24 = tosa.add %22, %23 : (tensor<4x64xf32>, tensor<1x64xf32>) -> tensor<4x64xf32>
    %25 = tosa.cast %24 : (tensor<4x64xf32>) -> tensor<4x64xf64>
    %26 = tosa.reduce_sum %25 {axis = 1 : i32} : (tensor<4x64xf64>) -> tensor<4x1xf64>
    %27 = tosa.mul %26, %11, %4 : (tensor<4x1xf64>, tensor<1x1xf64>, tensor<1xi8>) -> tensor<4x1xf64>
    %28 = tosa.sub %25, %27 : (tensor<4x64xf64>, tensor<4x1xf64>) -> tensor<4x64xf64>
    %29 = tosa.mul %28, %28, %4 : (tensor<4x64xf64>, tensor<4x64xf64>, tensor<1xi8>) -> tensor<4x64xf64>
    %30 = tosa.reduce_sum %29 {axis = 1 : i32} : (tensor<4x64xf64>) -> tensor<4x1xf64>
    %31 = tosa.mul %30, %11, %4 : (tensor<4x1xf64>, tensor<1x1xf64>, tensor<1xi8>) -> tensor<4x1xf64>
    %32 = tosa.cast %31 : (tensor<4x1xf64>) -> tensor<4x1xf32>
    %33 = tosa.reduce_sum %24 {axis = 1 : i32} : (tensor<4x64xf32>) -> tensor<4x1xf32>
    %34 = tosa.mul %33, %12, %4 : (tensor<4x1xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<4x1xf32>
    %35 = tosa.add %32, %13 : (tensor<4x1xf32>, tensor<1x1xf32>) -> tensor<4x1xf32>
    %36 = tosa.rsqrt %35 : (tensor<4x1xf32>) -> tensor<4x1xf32>
    %37 = tosa.sub %24, %34 : (tensor<4x64xf32>, tensor<4x1xf32>) -> tensor<4x64xf32>
    %38 = tosa.mul %37, %36, %4 : (tensor<4x64xf32>, tensor<4x1xf32>, tensor<1xi8>) -> tensor<4x64xf32>
    %39 = tosa.reshape %arg2, %5 : (tensor<64xf32>, !tosa.shape<2>) -> tensor<1x64xf32>
    %40 = tosa.mul %38, %39, %4 : (tensor<4x64xf32>, tensor<1x64xf32>, tensor<1xi8>) -> tensor<4x64xf32>
    %41 = tosa.reshape %arg3, %5 : (tensor<64xf32>, !tosa.shape<2>) -> tensor<1x64xf32>
    %42 = tosa.add %40, %41 : (tensor<4x64xf32>, tensor<1x64xf32>) -> tensor<4x64xf32>
    %43 = tosa.mul %42, %42, %4 : (tensor<4x64xf32>, tensor<4x64xf32>, tensor<1xi8>) -> tensor<4x64xf32>
    %44 = tosa.mul %43, %42, %4 : (tensor<4x64xf32>, tensor<4x64xf32>, tensor<1xi8>) -> tensor<4x64xf32>
    %45 = tosa.mul %44, %14, %4 : (tensor<4x64xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<4x64xf32>
    %46 = tosa.add %42, %45 : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<4x64xf32>
    %47 = tosa.mul %46, %15, %4 : (tensor<4x64xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<4x64xf32>
    %48 = tosa.mul %42, %16, %4 : (tensor<4x64xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<4x64xf32>
    %49 = tosa.tanh %47 : (tensor<4x64xf32>) -> tensor<4x64xf32>
    %50 = tosa.add %49, %17 : (tensor<4x64xf32>, tensor<1x1xf32>) -> tensor<4x64xf32>
    %51 = tosa.mul %48, %50, %4 : (tensor<4x64xf32>, tensor<4x64xf32>, tensor<1xi8>) -> tensor<4x64xf32>
    %52 = tosa.transpose %arg4 {perms = array<i32: 1, 0>} : (tensor<64x64xf32>) -> tensor<64x64xf32>
    %53 = tosa.reshape %51, %6 : (tensor<4x64xf32>, !tosa.shape<3>) -> tensor<1x4x64xf32>
    %54 = tosa.reshape %52, %7 : (tensor<64x64xf32>, !tosa.shape<3>) -> tensor<1x64x64xf32>
    %55 = tosa.matmul %53, %54, %0, %0 : (tensor<1x4x64xf32>, tensor<1x64x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x64xf32>
    %56 = tosa.reshape %55, %3 : (tensor<1x4x64xf32>, !tosa.shape<2>) -> tensor<4x64xf32>
    %57 = tosa.reshape %arg5, %5 : (tensor<64xf32>, !tosa.shape<2>) -> tensor<1x64xf32>
    %58 = tosa.add %56, %57 : (tensor<4x64xf32>, tensor<1x64xf32>) -> tensor<4x64xf32>
    %59 = tosa.cast %58 : (tensor<4x64xf32>) -> tensor<4x64xf64>
    %60 = tosa.reduce_sum %59 {axis = 1 : i32} : (tensor<4x64xf64>) -> tensor<4x1xf64>
    %61 = tosa.mul %60, %11, %4 : (tensor<4x1xf64>, tensor<1x1xf64>, tensor<1xi8>) -> tensor<4x1xf64>
    %62 = tosa.sub %59, %61 : (tensor<4x64xf64>, tensor<4x1xf64>) -> tensor<4x64xf64>
    %63 = tosa.mul %62, %62, %4 : (tensor<4x64xf64>, tensor<4x64xf64>, tensor<1xi8>) -> tensor<4x64xf64>
    %64 = tosa.reduce_sum %63 {axis = 1 : i32} : (tensor<4x64xf64>) -> tensor<4x1xf64>
    %65 = tosa.mul %64, %11, %4 : (tensor<4x1xf64>, tensor<1x1xf64>, tensor<1xi8>) -> tensor<4x1xf64>
    %66 = tosa.cast %65 : (tensor<4x1xf64>) -> tensor<4x1xf32>
    %67 = tosa.reduce_sum %58 {axis = 1 : i32} : (tensor<4x64xf32>) -> tensor<4x1xf32>
    %68 = tosa.mul %67, %12, %4 : (tensor<4x1xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<4x1xf32>
    %69 = tosa.add %66, %13 : (tensor<4x1xf32>, tensor<1x1xf32>) -> tensor<4x1xf32>
    %70 = tosa.rsqrt %69 : (tensor<4x1xf32>) -> tensor<4x1xf32>
    %71 = tosa.sub %58, %68 : (tensor<4x64xf32>, tensor<4x1xf32>) -> tensor<4x64xf32>
    %72 = tosa.mul %71, %70, %4 : (tensor<4x64xf32>, tensor<4x1xf32>, tensor<1xi8>) -> tensor<4x64xf32>
    %73 = tosa.reshape %arg6, %5 : (tensor<64xf32>, !tosa.shape<2>) -> tensor<1x64xf32>
    %74 = tosa.mul %72, %73, %4 : (tensor<4x64xf32>, tensor<1x64xf32>, tensor<1xi8>) -> tensor<4x64xf32>
    %75 = tosa.reshape %arg7, %5 : (tensor<64xf32>, !tosa.shape<2>) -> tensor<1x64xf32>
    %76 = tosa.add %74, %75 : (tensor<4x64xf32>, tensor<1x64xf32>) -> tensor<4x64xf32>
    %77 = tosa.mul %76, %76, %4 : (tensor<4x64xf32>, tensor<4x64xf32>, tensor<1xi8>) -> tensor<4x64xf32>
    %78 = tosa.mul %77, %76, %4 : (tensor<4x64xf32>, tensor<4x64xf32>, tensor<1xi8>) -> tensor<4x64xf32>
    %79 = tosa.mul %78, %14, %4 : (tensor<4x64xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<4x64xf32>
    %80 = tosa.add %76, %79 : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<4x64xf32>
    %81 = tosa.mul %80, %15, %4 : (tensor<4x64xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<4x64xf32>
    %82 = tosa.mul %76, %16, %4 : (tensor<4x64xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<4x64xf32>
    %83 = tosa.tanh %81 : (tensor<4x64xf32>) -> tensor<4x64xf32>
    %84 = tosa.add %83, %17 : (tensor<4x64xf32>, tensor<1x1xf32>) -> tensor<4x64xf32>
    %85 = tosa.mul %82, %84, %4 : (tensor<4x64xf32>, tensor<4x64xf32>, tensor<1xi8>) -> tensor<4x64xf32>
    %86 = tosa.transpose %arg8 {perms = array<i32: 1, 0>} : (tensor<10x64xf32>) -> tensor<64x10xf32>
    %87 = tosa.reshape %85, %6 : (tensor<4x64xf32>, !tosa.shape<3>) -> tensor<1x4x64xf32>
    %88 = tosa.reshape %86, %8 : (tensor<64x10xf32>, !tosa.shape<3>) -> tensor<1x64x10xf32>
    %89 = tosa.matmul %87, %88, %0, %0 : (tensor<1x4x64xf32>, tensor<1x64x10xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x10xf32>
    %90 = tosa.reshape %89, %9 : (tensor<1x4x10xf32>, !tosa.shape<2>) -> tensor<4x10xf32>
    %91 = tosa.reshape %arg9, %10 : (tensor<10xf32>, !tosa.shape<2>) -> tensor<1x10xf32>
    %92 = tosa.add %90, %91 : (tensor<4x10xf32>, tensor<1x10xf32>) -> tensor<4x10xf32>
    return %92 : tensor<4x10xf32>
  }
}
