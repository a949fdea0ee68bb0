// Exported from PyTorch by python/pp-import-torch (docs/Frontends.md):
//   pp-import-torch integration_test/pp-run/Inputs/torch/models.py:tiny_lm --input 4x8:i64 --target 32:i32 --one-hot-embedding --weights-dir none -o integration_test/pp-run/Inputs/torch/tiny-lm.mlir
// torch 2.15.0, torch-mlir 20261001, output type tosa.
// Arguments: 28 parameters (pp.parameter, pp.name = the PyTorch name), then 1 data (pp.data).
//   0: pos 8x16
//   1: embed.weight 32x16 (tied: head.weight)
//   2: layers.0.ln1.weight 16
//   3: layers.0.ln1.bias 16
//   4: layers.0.qkv.weight 48x16
//   5: layers.0.qkv.bias 48
//   6: layers.0.proj.weight 16x16
//   7: layers.0.proj.bias 16
//   8: layers.0.ln2.weight 16
//   9: layers.0.ln2.bias 16
//   10: layers.0.fc1.weight 32x16
//   11: layers.0.fc1.bias 32
//   12: layers.0.fc2.weight 16x32
//   13: layers.0.fc2.bias 16
//   14: layers.1.ln1.weight 16
//   15: layers.1.ln1.bias 16
//   16: layers.1.qkv.weight 48x16
//   17: layers.1.qkv.bias 48
//   18: layers.1.proj.weight 16x16
//   19: layers.1.proj.bias 16
//   20: layers.1.ln2.weight 16
//   21: layers.1.ln2.bias 16
//   22: layers.1.fc1.weight 32x16
//   23: layers.1.fc1.bias 32
//   24: layers.1.fc2.weight 16x32
//   25: layers.1.fc2.bias 16
//   26: ln.weight 16
//   27: ln.bias 16
module {
  func.func @tiny_lm(%arg0: tensor<8x16xf32> {pp.name = "pos", pp.parameter}, %arg1: tensor<32x16xf32> {pp.aliases = ["head.weight"], pp.name = "embed.weight", pp.parameter}, %arg2: tensor<16xf32> {pp.name = "layers.0.ln1.weight", pp.parameter}, %arg3: tensor<16xf32> {pp.name = "layers.0.ln1.bias", pp.parameter}, %arg4: tensor<48x16xf32> {pp.name = "layers.0.qkv.weight", pp.parameter}, %arg5: tensor<48xf32> {pp.name = "layers.0.qkv.bias", pp.parameter}, %arg6: tensor<16x16xf32> {pp.name = "layers.0.proj.weight", pp.parameter}, %arg7: tensor<16xf32> {pp.name = "layers.0.proj.bias", pp.parameter}, %arg8: tensor<16xf32> {pp.name = "layers.0.ln2.weight", pp.parameter}, %arg9: tensor<16xf32> {pp.name = "layers.0.ln2.bias", pp.parameter}, %arg10: tensor<32x16xf32> {pp.name = "layers.0.fc1.weight", pp.parameter}, %arg11: tensor<32xf32> {pp.name = "layers.0.fc1.bias", pp.parameter}, %arg12: tensor<16x32xf32> {pp.name = "layers.0.fc2.weight", pp.parameter}, %arg13: tensor<16xf32> {pp.name = "layers.0.fc2.bias", pp.parameter}, %arg14: tensor<16xf32> {pp.name = "layers.1.ln1.weight", pp.parameter}, %arg15: tensor<16xf32> {pp.name = "layers.1.ln1.bias", pp.parameter}, %arg16: tensor<48x16xf32> {pp.name = "layers.1.qkv.weight", pp.parameter}, %arg17: tensor<48xf32> {pp.name = "layers.1.qkv.bias", pp.parameter}, %arg18: tensor<16x16xf32> {pp.name = "layers.1.proj.weight", pp.parameter}, %arg19: tensor<16xf32> {pp.name = "layers.1.proj.bias", pp.parameter}, %arg20: tensor<16xf32> {pp.name = "layers.1.ln2.weight", pp.parameter}, %arg21: tensor<16xf32> {pp.name = "layers.1.ln2.bias", pp.parameter}, %arg22: tensor<32x16xf32> {pp.name = "layers.1.fc1.weight", pp.parameter}, %arg23: tensor<32xf32> {pp.name = "layers.1.fc1.bias", pp.parameter}, %arg24: tensor<16x32xf32> {pp.name = "layers.1.fc2.weight", pp.parameter}, %arg25: tensor<16xf32> {pp.name = "layers.1.fc2.bias", pp.parameter}, %arg26: tensor<16xf32> {pp.name = "ln.weight", pp.parameter}, %arg27: tensor<16xf32> {pp.name = "ln.bias", pp.parameter}, %arg28: tensor<4x8xi64> {pp.data}) -> tensor<32x32xf32> {
    %0 = "tosa.const"() <{values = dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31]> : tensor<32xi64>}> : () -> tensor<32xi64>
    %1 = tosa.const_shape  {values = dense<[4, 8, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %2 = tosa.const_shape  {values = dense<[1, 1, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %3 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %4 = tosa.const_shape  {values = dense<32> : tensor<2xindex>} : () -> !tosa.shape<2>
    %5 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %6 = tosa.const_shape  {values = dense<[1, 32, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %7 = tosa.const_shape  {values = dense<[1, 32, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %8 = tosa.const_shape  {values = dense<[32, 16]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %9 = tosa.const_shape  {values = dense<[4, 8, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %10 = tosa.const_shape  {values = dense<[1, 8, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %11 = tosa.const_shape  {values = dense<[1, 1, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %12 = tosa.const_shape  {values = dense<[1, 16, 48]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %13 = tosa.const_shape  {values = dense<[32, 48]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %14 = tosa.const_shape  {values = dense<[1, 48]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %15 = tosa.const_shape  {values = dense<[4, 8, 48]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %16 = tosa.const_shape  {values = dense<0> : tensor<3xindex>} : () -> !tosa.shape<3>
    %17 = tosa.const_shape  {values = dense<[0, 0, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %18 = tosa.const_shape  {values = dense<[0, 0, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %19 = tosa.const_shape  {values = dense<[4, 8, 2, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %20 = tosa.const_shape  {values = dense<8> : tensor<3xindex>} : () -> !tosa.shape<3>
    %21 = tosa.const_shape  {values = dense<[4, 2, 8, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %22 = tosa.const_shape  {values = dense<[1, 16, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %23 = tosa.const_shape  {values = dense<[1, 16]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %24 = tosa.const_shape  {values = dense<[1, 16, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %25 = tosa.const_shape  {values = dense<[1, 32]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %26 = tosa.const_shape  {values = dense<[4, 8, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %27 = "tosa.const"() <{values = dense<-9223372036854775808> : tensor<1x1x1xi64>}> : () -> tensor<1x1x1xi64>
    %28 = "tosa.const"() <{values = dense<1> : tensor<1x1x1xi64>}> : () -> tensor<1x1x1xi64>
    %29 = "tosa.const"() <{values = dense<1> : tensor<1x1x1xi32>}> : () -> tensor<1x1x1xi32>
    %30 = "tosa.const"() <{values = dense<6.250000e-02> : tensor<1x1x1xf64>}> : () -> tensor<1x1x1xf64>
    %31 = "tosa.const"() <{values = dense<6.250000e-02> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
    %32 = "tosa.const"() <{values = dense<9.99999974E-6> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
    %33 = "tosa.const"() <{values = dense<0.353553385> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
    %34 = "tosa.const"() <{values = dense<4.471500e-02> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
    %35 = "tosa.const"() <{values = dense<0.797884583> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
    %36 = "tosa.const"() <{values = dense<5.000000e-01> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
    %37 = "tosa.const"() <{values = dense<1.000000e+00> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
    %38 = tosa.reshape %arg28, %1 : (tensor<4x8xi64>, !tosa.shape<3>) -> tensor<4x8x1xi64>
    %39 = tosa.cast %0 : (tensor<32xi64>) -> tensor<32xi32>
    %40 = tosa.reshape %39, %2 : (tensor<32xi32>, !tosa.shape<3>) -> tensor<1x1x32xi32>
    %41 = tosa.cast %38 : (tensor<4x8x1xi64>) -> tensor<4x8x1xi32>
    %42 = tosa.sub %41, %40 : (tensor<4x8x1xi32>, tensor<1x1x32xi32>) -> tensor<4x8x32xi32>
    %43 = tosa.cast %42 : (tensor<4x8x32xi32>) -> tensor<4x8x32xi64>
    %44 = tosa.mul %43, %43, %3 : (tensor<4x8x32xi64>, tensor<4x8x32xi64>, tensor<1xi8>) -> tensor<4x8x32xi64>
    %45 = tosa.maximum %44, %27 : (tensor<4x8x32xi64>, tensor<1x1x1xi64>) -> tensor<4x8x32xi64>
    %46 = tosa.minimum %45, %28 : (tensor<4x8x32xi64>, tensor<1x1x1xi64>) -> tensor<4x8x32xi64>
    %47 = tosa.cast %46 : (tensor<4x8x32xi64>) -> tensor<4x8x32xi32>
    %48 = tosa.sub %29, %47 : (tensor<1x1x1xi32>, tensor<4x8x32xi32>) -> tensor<4x8x32xi32>
    %49 = tosa.cast %48 : (tensor<4x8x32xi32>) -> tensor<4x8x32xf32>
    %50 = tosa.reshape %49, %6 : (tensor<4x8x32xf32>, !tosa.shape<3>) -> tensor<1x32x32xf32>
    %51 = tosa.reshape %arg1, %7 : (tensor<32x16xf32>, !tosa.shape<3>) -> tensor<1x32x16xf32>
    %52 = tosa.matmul %50, %51, %5, %5 : (tensor<1x32x32xf32>, tensor<1x32x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x32x16xf32>
    %53 = tosa.reshape %52, %9 : (tensor<1x32x16xf32>, !tosa.shape<3>) -> tensor<4x8x16xf32>
    %54 = tosa.reshape %arg0, %10 : (tensor<8x16xf32>, !tosa.shape<3>) -> tensor<1x8x16xf32>
    %55 = tosa.add %53, %54 : (tensor<4x8x16xf32>, tensor<1x8x16xf32>) -> tensor<4x8x16xf32>
    %56 = tosa.cast %55 : (tensor<4x8x16xf32>) -> tensor<4x8x16xf64>
    %57 = tosa.reduce_sum %56 {axis = 2 : i32} : (tensor<4x8x16xf64>) -> tensor<4x8x1xf64>
    %58 = tosa.mul %57, %30, %3 : (tensor<4x8x1xf64>, tensor<1x1x1xf64>, tensor<1xi8>) -> tensor<4x8x1xf64>
    %59 = tosa.sub %56, %58 : (tensor<4x8x16xf64>, tensor<4x8x1xf64>) -> tensor<4x8x16xf64>
    %60 = tosa.mul %59, %59, %3 : (tensor<4x8x16xf64>, tensor<4x8x16xf64>, tensor<1xi8>) -> tensor<4x8x16xf64>
    %61 = tosa.reduce_sum %60 {axis = 2 : i32} : (tensor<4x8x16xf64>) -> tensor<4x8x1xf64>
    %62 = tosa.mul %61, %30, %3 : (tensor<4x8x1xf64>, tensor<1x1x1xf64>, tensor<1xi8>) -> tensor<4x8x1xf64>
    %63 = tosa.cast %62 : (tensor<4x8x1xf64>) -> tensor<4x8x1xf32>
    %64 = tosa.reduce_sum %55 {axis = 2 : i32} : (tensor<4x8x16xf32>) -> tensor<4x8x1xf32>
    %65 = tosa.mul %64, %31, %3 : (tensor<4x8x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x1xf32>
    %66 = tosa.add %63, %32 : (tensor<4x8x1xf32>, tensor<1x1x1xf32>) -> tensor<4x8x1xf32>
    %67 = tosa.rsqrt %66 : (tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
    %68 = tosa.sub %55, %65 : (tensor<4x8x16xf32>, tensor<4x8x1xf32>) -> tensor<4x8x16xf32>
    %69 = tosa.mul %68, %67, %3 : (tensor<4x8x16xf32>, tensor<4x8x1xf32>, tensor<1xi8>) -> tensor<4x8x16xf32>
    %70 = tosa.reshape %arg2, %11 : (tensor<16xf32>, !tosa.shape<3>) -> tensor<1x1x16xf32>
    %71 = tosa.mul %69, %70, %3 : (tensor<4x8x16xf32>, tensor<1x1x16xf32>, tensor<1xi8>) -> tensor<4x8x16xf32>
    %72 = tosa.reshape %arg3, %11 : (tensor<16xf32>, !tosa.shape<3>) -> tensor<1x1x16xf32>
    %73 = tosa.add %71, %72 : (tensor<4x8x16xf32>, tensor<1x1x16xf32>) -> tensor<4x8x16xf32>
    %74 = tosa.transpose %arg4 {perms = array<i32: 1, 0>} : (tensor<48x16xf32>) -> tensor<16x48xf32>
    %75 = tosa.reshape %73, %7 : (tensor<4x8x16xf32>, !tosa.shape<3>) -> tensor<1x32x16xf32>
    %76 = tosa.reshape %74, %12 : (tensor<16x48xf32>, !tosa.shape<3>) -> tensor<1x16x48xf32>
    %77 = tosa.matmul %75, %76, %5, %5 : (tensor<1x32x16xf32>, tensor<1x16x48xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x32x48xf32>
    %78 = tosa.reshape %77, %13 : (tensor<1x32x48xf32>, !tosa.shape<2>) -> tensor<32x48xf32>
    %79 = tosa.reshape %arg5, %14 : (tensor<48xf32>, !tosa.shape<2>) -> tensor<1x48xf32>
    %80 = tosa.add %78, %79 : (tensor<32x48xf32>, tensor<1x48xf32>) -> tensor<32x48xf32>
    %81 = tosa.reshape %80, %15 : (tensor<32x48xf32>, !tosa.shape<3>) -> tensor<4x8x48xf32>
    %82 = tosa.slice %81, %16, %9 : (tensor<4x8x48xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<4x8x16xf32>
    %83 = tosa.slice %81, %17, %9 : (tensor<4x8x48xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<4x8x16xf32>
    %84 = tosa.slice %81, %18, %9 : (tensor<4x8x48xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<4x8x16xf32>
    %85 = tosa.reshape %82, %19 : (tensor<4x8x16xf32>, !tosa.shape<4>) -> tensor<4x8x2x8xf32>
    %86 = tosa.transpose %85 {perms = array<i32: 0, 2, 1, 3>} : (tensor<4x8x2x8xf32>) -> tensor<4x2x8x8xf32>
    %87 = tosa.reshape %83, %19 : (tensor<4x8x16xf32>, !tosa.shape<4>) -> tensor<4x8x2x8xf32>
    %88 = tosa.reshape %84, %19 : (tensor<4x8x16xf32>, !tosa.shape<4>) -> tensor<4x8x2x8xf32>
    %89 = tosa.transpose %88 {perms = array<i32: 0, 2, 1, 3>} : (tensor<4x8x2x8xf32>) -> tensor<4x2x8x8xf32>
    %90 = tosa.transpose %87 {perms = array<i32: 0, 2, 3, 1>} : (tensor<4x8x2x8xf32>) -> tensor<4x2x8x8xf32>
    %91 = tosa.reshape %86, %20 : (tensor<4x2x8x8xf32>, !tosa.shape<3>) -> tensor<8x8x8xf32>
    %92 = tosa.reshape %90, %20 : (tensor<4x2x8x8xf32>, !tosa.shape<3>) -> tensor<8x8x8xf32>
    %93 = tosa.matmul %91, %92, %5, %5 : (tensor<8x8x8xf32>, tensor<8x8x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x8x8xf32>
    %94 = tosa.reshape %93, %21 : (tensor<8x8x8xf32>, !tosa.shape<4>) -> tensor<4x2x8x8xf32>
    %95 = tosa.mul %94, %33, %3 : (tensor<4x2x8x8xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<4x2x8x8xf32>
    %96 = tosa.reduce_max %95 {axis = 3 : i32} : (tensor<4x2x8x8xf32>) -> tensor<4x2x8x1xf32>
    %97 = tosa.sub %95, %96 : (tensor<4x2x8x8xf32>, tensor<4x2x8x1xf32>) -> tensor<4x2x8x8xf32>
    %98 = tosa.exp %97 : (tensor<4x2x8x8xf32>) -> tensor<4x2x8x8xf32>
    %99 = tosa.reduce_sum %98 {axis = 3 : i32} : (tensor<4x2x8x8xf32>) -> tensor<4x2x8x1xf32>
    %100 = tosa.reciprocal %99 : (tensor<4x2x8x1xf32>) -> tensor<4x2x8x1xf32>
    %101 = tosa.mul %98, %100, %3 : (tensor<4x2x8x8xf32>, tensor<4x2x8x1xf32>, tensor<1xi8>) -> tensor<4x2x8x8xf32>
    %102 = tosa.reshape %101, %20 : (tensor<4x2x8x8xf32>, !tosa.shape<3>) -> tensor<8x8x8xf32>
    %103 = tosa.reshape %89, %20 : (tensor<4x2x8x8xf32>, !tosa.shape<3>) -> tensor<8x8x8xf32>
    %104 = tosa.matmul %102, %103, %5, %5 : (tensor<8x8x8xf32>, tensor<8x8x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x8x8xf32>
    %105 = tosa.reshape %104, %21 : (tensor<8x8x8xf32>, !tosa.shape<4>) -> tensor<4x2x8x8xf32>
    %106 = tosa.transpose %105 {perms = array<i32: 0, 2, 1, 3>} : (tensor<4x2x8x8xf32>) -> tensor<4x8x2x8xf32>
    %107 = tosa.transpose %arg6 {perms = array<i32: 1, 0>} : (tensor<16x16xf32>) -> tensor<16x16xf32>
    %108 = tosa.reshape %106, %7 : (tensor<4x8x2x8xf32>, !tosa.shape<3>) -> tensor<1x32x16xf32>
    %109 = tosa.reshape %107, %22 : (tensor<16x16xf32>, !tosa.shape<3>) -> tensor<1x16x16xf32>
    %110 = tosa.matmul %108, %109, %5, %5 : (tensor<1x32x16xf32>, tensor<1x16x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x32x16xf32>
    %111 = tosa.reshape %110, %8 : (tensor<1x32x16xf32>, !tosa.shape<2>) -> tensor<32x16xf32>
    %112 = tosa.reshape %arg7, %23 : (tensor<16xf32>, !tosa.shape<2>) -> tensor<1x16xf32>
    %113 = tosa.add %111, %112 : (tensor<32x16xf32>, tensor<1x16xf32>) -> tensor<32x16xf32>
    %114 = tosa.reshape %113, %9 : (tensor<32x16xf32>, !tosa.shape<3>) -> tensor<4x8x16xf32>
    %115 = tosa.add %55, %114 : (tensor<4x8x16xf32>, tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
    %116 = tosa.cast %115 : (tensor<4x8x16xf32>) -> tensor<4x8x16xf64>
    %117 = tosa.reduce_sum %116 {axis = 2 : i32} : (tensor<4x8x16xf64>) -> tensor<4x8x1xf64>
    %118 = tosa.mul %117, %30, %3 : (tensor<4x8x1xf64>, tensor<1x1x1xf64>, tensor<1xi8>) -> tensor<4x8x1xf64>
    %119 = tosa.sub %116, %118 : (tensor<4x8x16xf64>, tensor<4x8x1xf64>) -> tensor<4x8x16xf64>
    %120 = tosa.mul %119, %119, %3 : (tensor<4x8x16xf64>, tensor<4x8x16xf64>, tensor<1xi8>) -> tensor<4x8x16xf64>
    %121 = tosa.reduce_sum %120 {axis = 2 : i32} : (tensor<4x8x16xf64>) -> tensor<4x8x1xf64>
    %122 = tosa.mul %121, %30, %3 : (tensor<4x8x1xf64>, tensor<1x1x1xf64>, tensor<1xi8>) -> tensor<4x8x1xf64>
    %123 = tosa.cast %122 : (tensor<4x8x1xf64>) -> tensor<4x8x1xf32>
    %124 = tosa.reduce_sum %115 {axis = 2 : i32} : (tensor<4x8x16xf32>) -> tensor<4x8x1xf32>
    %125 = tosa.mul %124, %31, %3 : (tensor<4x8x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x1xf32>
    %126 = tosa.add %123, %32 : (tensor<4x8x1xf32>, tensor<1x1x1xf32>) -> tensor<4x8x1xf32>
    %127 = tosa.rsqrt %126 : (tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
    %128 = tosa.sub %115, %125 : (tensor<4x8x16xf32>, tensor<4x8x1xf32>) -> tensor<4x8x16xf32>
    %129 = tosa.mul %128, %127, %3 : (tensor<4x8x16xf32>, tensor<4x8x1xf32>, tensor<1xi8>) -> tensor<4x8x16xf32>
    %130 = tosa.reshape %arg8, %11 : (tensor<16xf32>, !tosa.shape<3>) -> tensor<1x1x16xf32>
    %131 = tosa.mul %129, %130, %3 : (tensor<4x8x16xf32>, tensor<1x1x16xf32>, tensor<1xi8>) -> tensor<4x8x16xf32>
    %132 = tosa.reshape %arg9, %11 : (tensor<16xf32>, !tosa.shape<3>) -> tensor<1x1x16xf32>
    %133 = tosa.add %131, %132 : (tensor<4x8x16xf32>, tensor<1x1x16xf32>) -> tensor<4x8x16xf32>
    %134 = tosa.transpose %arg10 {perms = array<i32: 1, 0>} : (tensor<32x16xf32>) -> tensor<16x32xf32>
    %135 = tosa.reshape %133, %7 : (tensor<4x8x16xf32>, !tosa.shape<3>) -> tensor<1x32x16xf32>
    %136 = tosa.reshape %134, %24 : (tensor<16x32xf32>, !tosa.shape<3>) -> tensor<1x16x32xf32>
    %137 = tosa.matmul %135, %136, %5, %5 : (tensor<1x32x16xf32>, tensor<1x16x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x32x32xf32>
    %138 = tosa.reshape %137, %4 : (tensor<1x32x32xf32>, !tosa.shape<2>) -> tensor<32x32xf32>
    %139 = tosa.reshape %arg11, %25 : (tensor<32xf32>, !tosa.shape<2>) -> tensor<1x32xf32>
    %140 = tosa.add %138, %139 : (tensor<32x32xf32>, tensor<1x32xf32>) -> tensor<32x32xf32>
    %141 = tosa.reshape %140, %26 : (tensor<32x32xf32>, !tosa.shape<3>) -> tensor<4x8x32xf32>
    %142 = tosa.mul %141, %141, %3 : (tensor<4x8x32xf32>, tensor<4x8x32xf32>, tensor<1xi8>) -> tensor<4x8x32xf32>
    %143 = tosa.mul %142, %141, %3 : (tensor<4x8x32xf32>, tensor<4x8x32xf32>, tensor<1xi8>) -> tensor<4x8x32xf32>
    %144 = tosa.mul %143, %34, %3 : (tensor<4x8x32xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x32xf32>
    %145 = tosa.add %141, %144 : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %146 = tosa.mul %145, %35, %3 : (tensor<4x8x32xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x32xf32>
    %147 = tosa.mul %141, %36, %3 : (tensor<4x8x32xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x32xf32>
    %148 = tosa.tanh %146 : (tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %149 = tosa.add %148, %37 : (tensor<4x8x32xf32>, tensor<1x1x1xf32>) -> tensor<4x8x32xf32>
    %150 = tosa.mul %147, %149, %3 : (tensor<4x8x32xf32>, tensor<4x8x32xf32>, tensor<1xi8>) -> tensor<4x8x32xf32>
    %151 = tosa.transpose %arg12 {perms = array<i32: 1, 0>} : (tensor<16x32xf32>) -> tensor<32x16xf32>
    %152 = tosa.reshape %150, %6 : (tensor<4x8x32xf32>, !tosa.shape<3>) -> tensor<1x32x32xf32>
    %153 = tosa.reshape %151, %7 : (tensor<32x16xf32>, !tosa.shape<3>) -> tensor<1x32x16xf32>
    %154 = tosa.matmul %152, %153, %5, %5 : (tensor<1x32x32xf32>, tensor<1x32x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x32x16xf32>
    %155 = tosa.reshape %154, %8 : (tensor<1x32x16xf32>, !tosa.shape<2>) -> tensor<32x16xf32>
    %156 = tosa.reshape %arg13, %23 : (tensor<16xf32>, !tosa.shape<2>) -> tensor<1x16xf32>
    %157 = tosa.add %155, %156 : (tensor<32x16xf32>, tensor<1x16xf32>) -> tensor<32x16xf32>
    %158 = tosa.reshape %157, %9 : (tensor<32x16xf32>, !tosa.shape<3>) -> tensor<4x8x16xf32>
    %159 = tosa.add %115, %158 : (tensor<4x8x16xf32>, tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
    %160 = tosa.cast %159 : (tensor<4x8x16xf32>) -> tensor<4x8x16xf64>
    %161 = tosa.reduce_sum %160 {axis = 2 : i32} : (tensor<4x8x16xf64>) -> tensor<4x8x1xf64>
    %162 = tosa.mul %161, %30, %3 : (tensor<4x8x1xf64>, tensor<1x1x1xf64>, tensor<1xi8>) -> tensor<4x8x1xf64>
    %163 = tosa.sub %160, %162 : (tensor<4x8x16xf64>, tensor<4x8x1xf64>) -> tensor<4x8x16xf64>
    %164 = tosa.mul %163, %163, %3 : (tensor<4x8x16xf64>, tensor<4x8x16xf64>, tensor<1xi8>) -> tensor<4x8x16xf64>
    %165 = tosa.reduce_sum %164 {axis = 2 : i32} : (tensor<4x8x16xf64>) -> tensor<4x8x1xf64>
    %166 = tosa.mul %165, %30, %3 : (tensor<4x8x1xf64>, tensor<1x1x1xf64>, tensor<1xi8>) -> tensor<4x8x1xf64>
    %167 = tosa.cast %166 : (tensor<4x8x1xf64>) -> tensor<4x8x1xf32>
    %168 = tosa.reduce_sum %159 {axis = 2 : i32} : (tensor<4x8x16xf32>) -> tensor<4x8x1xf32>
    %169 = tosa.mul %168, %31, %3 : (tensor<4x8x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x1xf32>
    %170 = tosa.add %167, %32 : (tensor<4x8x1xf32>, tensor<1x1x1xf32>) -> tensor<4x8x1xf32>
    %171 = tosa.rsqrt %170 : (tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
    %172 = tosa.sub %159, %169 : (tensor<4x8x16xf32>, tensor<4x8x1xf32>) -> tensor<4x8x16xf32>
    %173 = tosa.mul %172, %171, %3 : (tensor<4x8x16xf32>, tensor<4x8x1xf32>, tensor<1xi8>) -> tensor<4x8x16xf32>
    %174 = tosa.reshape %arg14, %11 : (tensor<16xf32>, !tosa.shape<3>) -> tensor<1x1x16xf32>
    %175 = tosa.mul %173, %174, %3 : (tensor<4x8x16xf32>, tensor<1x1x16xf32>, tensor<1xi8>) -> tensor<4x8x16xf32>
    %176 = tosa.reshape %arg15, %11 : (tensor<16xf32>, !tosa.shape<3>) -> tensor<1x1x16xf32>
    %177 = tosa.add %175, %176 : (tensor<4x8x16xf32>, tensor<1x1x16xf32>) -> tensor<4x8x16xf32>
    %178 = tosa.transpose %arg16 {perms = array<i32: 1, 0>} : (tensor<48x16xf32>) -> tensor<16x48xf32>
    %179 = tosa.reshape %177, %7 : (tensor<4x8x16xf32>, !tosa.shape<3>) -> tensor<1x32x16xf32>
    %180 = tosa.reshape %178, %12 : (tensor<16x48xf32>, !tosa.shape<3>) -> tensor<1x16x48xf32>
    %181 = tosa.matmul %179, %180, %5, %5 : (tensor<1x32x16xf32>, tensor<1x16x48xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x32x48xf32>
    %182 = tosa.reshape %181, %13 : (tensor<1x32x48xf32>, !tosa.shape<2>) -> tensor<32x48xf32>
    %183 = tosa.reshape %arg17, %14 : (tensor<48xf32>, !tosa.shape<2>) -> tensor<1x48xf32>
    %184 = tosa.add %182, %183 : (tensor<32x48xf32>, tensor<1x48xf32>) -> tensor<32x48xf32>
    %185 = tosa.reshape %184, %15 : (tensor<32x48xf32>, !tosa.shape<3>) -> tensor<4x8x48xf32>
    %186 = tosa.slice %185, %16, %9 : (tensor<4x8x48xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<4x8x16xf32>
    %187 = tosa.slice %185, %17, %9 : (tensor<4x8x48xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<4x8x16xf32>
    %188 = tosa.slice %185, %18, %9 : (tensor<4x8x48xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<4x8x16xf32>
    %189 = tosa.reshape %186, %19 : (tensor<4x8x16xf32>, !tosa.shape<4>) -> tensor<4x8x2x8xf32>
    %190 = tosa.transpose %189 {perms = array<i32: 0, 2, 1, 3>} : (tensor<4x8x2x8xf32>) -> tensor<4x2x8x8xf32>
    %191 = tosa.reshape %187, %19 : (tensor<4x8x16xf32>, !tosa.shape<4>) -> tensor<4x8x2x8xf32>
    %192 = tosa.reshape %188, %19 : (tensor<4x8x16xf32>, !tosa.shape<4>) -> tensor<4x8x2x8xf32>
    %193 = tosa.transpose %192 {perms = array<i32: 0, 2, 1, 3>} : (tensor<4x8x2x8xf32>) -> tensor<4x2x8x8xf32>
    %194 = tosa.transpose %191 {perms = array<i32: 0, 2, 3, 1>} : (tensor<4x8x2x8xf32>) -> tensor<4x2x8x8xf32>
    %195 = tosa.reshape %190, %20 : (tensor<4x2x8x8xf32>, !tosa.shape<3>) -> tensor<8x8x8xf32>
    %196 = tosa.reshape %194, %20 : (tensor<4x2x8x8xf32>, !tosa.shape<3>) -> tensor<8x8x8xf32>
    %197 = tosa.matmul %195, %196, %5, %5 : (tensor<8x8x8xf32>, tensor<8x8x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x8x8xf32>
    %198 = tosa.reshape %197, %21 : (tensor<8x8x8xf32>, !tosa.shape<4>) -> tensor<4x2x8x8xf32>
    %199 = tosa.mul %198, %33, %3 : (tensor<4x2x8x8xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<4x2x8x8xf32>
    %200 = tosa.reduce_max %199 {axis = 3 : i32} : (tensor<4x2x8x8xf32>) -> tensor<4x2x8x1xf32>
    %201 = tosa.sub %199, %200 : (tensor<4x2x8x8xf32>, tensor<4x2x8x1xf32>) -> tensor<4x2x8x8xf32>
    %202 = tosa.exp %201 : (tensor<4x2x8x8xf32>) -> tensor<4x2x8x8xf32>
    %203 = tosa.reduce_sum %202 {axis = 3 : i32} : (tensor<4x2x8x8xf32>) -> tensor<4x2x8x1xf32>
    %204 = tosa.reciprocal %203 : (tensor<4x2x8x1xf32>) -> tensor<4x2x8x1xf32>
    %205 = tosa.mul %202, %204, %3 : (tensor<4x2x8x8xf32>, tensor<4x2x8x1xf32>, tensor<1xi8>) -> tensor<4x2x8x8xf32>
    %206 = tosa.reshape %205, %20 : (tensor<4x2x8x8xf32>, !tosa.shape<3>) -> tensor<8x8x8xf32>
    %207 = tosa.reshape %193, %20 : (tensor<4x2x8x8xf32>, !tosa.shape<3>) -> tensor<8x8x8xf32>
    %208 = tosa.matmul %206, %207, %5, %5 : (tensor<8x8x8xf32>, tensor<8x8x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x8x8xf32>
    %209 = tosa.reshape %208, %21 : (tensor<8x8x8xf32>, !tosa.shape<4>) -> tensor<4x2x8x8xf32>
    %210 = tosa.transpose %209 {perms = array<i32: 0, 2, 1, 3>} : (tensor<4x2x8x8xf32>) -> tensor<4x8x2x8xf32>
    %211 = tosa.transpose %arg18 {perms = array<i32: 1, 0>} : (tensor<16x16xf32>) -> tensor<16x16xf32>
    %212 = tosa.reshape %210, %7 : (tensor<4x8x2x8xf32>, !tosa.shape<3>) -> tensor<1x32x16xf32>
    %213 = tosa.reshape %211, %22 : (tensor<16x16xf32>, !tosa.shape<3>) -> tensor<1x16x16xf32>
    %214 = tosa.matmul %212, %213, %5, %5 : (tensor<1x32x16xf32>, tensor<1x16x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x32x16xf32>
    %215 = tosa.reshape %214, %8 : (tensor<1x32x16xf32>, !tosa.shape<2>) -> tensor<32x16xf32>
    %216 = tosa.reshape %arg19, %23 : (tensor<16xf32>, !tosa.shape<2>) -> tensor<1x16xf32>
    %217 = tosa.add %215, %216 : (tensor<32x16xf32>, tensor<1x16xf32>) -> tensor<32x16xf32>
    %218 = tosa.reshape %217, %9 : (tensor<32x16xf32>, !tosa.shape<3>) -> tensor<4x8x16xf32>
    %219 = tosa.add %159, %218 : (tensor<4x8x16xf32>, tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
    %220 = tosa.cast %219 : (tensor<4x8x16xf32>) -> tensor<4x8x16xf64>
    %221 = tosa.reduce_sum %220 {axis = 2 : i32} : (tensor<4x8x16xf64>) -> tensor<4x8x1xf64>
    %222 = tosa.mul %221, %30, %3 : (tensor<4x8x1xf64>, tensor<1x1x1xf64>, tensor<1xi8>) -> tensor<4x8x1xf64>
    %223 = tosa.sub %220, %222 : (tensor<4x8x16xf64>, tensor<4x8x1xf64>) -> tensor<4x8x16xf64>
    %224 = tosa.mul %223, %223, %3 : (tensor<4x8x16xf64>, tensor<4x8x16xf64>, tensor<1xi8>) -> tensor<4x8x16xf64>
    %225 = tosa.reduce_sum %224 {axis = 2 : i32} : (tensor<4x8x16xf64>) -> tensor<4x8x1xf64>
    %226 = tosa.mul %225, %30, %3 : (tensor<4x8x1xf64>, tensor<1x1x1xf64>, tensor<1xi8>) -> tensor<4x8x1xf64>
    %227 = tosa.cast %226 : (tensor<4x8x1xf64>) -> tensor<4x8x1xf32>
    %228 = tosa.reduce_sum %219 {axis = 2 : i32} : (tensor<4x8x16xf32>) -> tensor<4x8x1xf32>
    %229 = tosa.mul %228, %31, %3 : (tensor<4x8x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x1xf32>
    %230 = tosa.add %227, %32 : (tensor<4x8x1xf32>, tensor<1x1x1xf32>) -> tensor<4x8x1xf32>
    %231 = tosa.rsqrt %230 : (tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
    %232 = tosa.sub %219, %229 : (tensor<4x8x16xf32>, tensor<4x8x1xf32>) -> tensor<4x8x16xf32>
    %233 = tosa.mul %232, %231, %3 : (tensor<4x8x16xf32>, tensor<4x8x1xf32>, tensor<1xi8>) -> tensor<4x8x16xf32>
    %234 = tosa.reshape %arg20, %11 : (tensor<16xf32>, !tosa.shape<3>) -> tensor<1x1x16xf32>
    %235 = tosa.mul %233, %234, %3 : (tensor<4x8x16xf32>, tensor<1x1x16xf32>, tensor<1xi8>) -> tensor<4x8x16xf32>
    %236 = tosa.reshape %arg21, %11 : (tensor<16xf32>, !tosa.shape<3>) -> tensor<1x1x16xf32>
    %237 = tosa.add %235, %236 : (tensor<4x8x16xf32>, tensor<1x1x16xf32>) -> tensor<4x8x16xf32>
    %238 = tosa.transpose %arg22 {perms = array<i32: 1, 0>} : (tensor<32x16xf32>) -> tensor<16x32xf32>
    %239 = tosa.reshape %237, %7 : (tensor<4x8x16xf32>, !tosa.shape<3>) -> tensor<1x32x16xf32>
    %240 = tosa.reshape %238, %24 : (tensor<16x32xf32>, !tosa.shape<3>) -> tensor<1x16x32xf32>
    %241 = tosa.matmul %239, %240, %5, %5 : (tensor<1x32x16xf32>, tensor<1x16x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x32x32xf32>
    %242 = tosa.reshape %241, %4 : (tensor<1x32x32xf32>, !tosa.shape<2>) -> tensor<32x32xf32>
    %243 = tosa.reshape %arg23, %25 : (tensor<32xf32>, !tosa.shape<2>) -> tensor<1x32xf32>
    %244 = tosa.add %242, %243 : (tensor<32x32xf32>, tensor<1x32xf32>) -> tensor<32x32xf32>
    %245 = tosa.reshape %244, %26 : (tensor<32x32xf32>, !tosa.shape<3>) -> tensor<4x8x32xf32>
    %246 = tosa.mul %245, %245, %3 : (tensor<4x8x32xf32>, tensor<4x8x32xf32>, tensor<1xi8>) -> tensor<4x8x32xf32>
    %247 = tosa.mul %246, %245, %3 : (tensor<4x8x32xf32>, tensor<4x8x32xf32>, tensor<1xi8>) -> tensor<4x8x32xf32>
    %248 = tosa.mul %247, %34, %3 : (tensor<4x8x32xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x32xf32>
    %249 = tosa.add %245, %248 : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %250 = tosa.mul %249, %35, %3 : (tensor<4x8x32xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x32xf32>
    %251 = tosa.mul %245, %36, %3 : (tensor<4x8x32xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x32xf32>
    %252 = tosa.tanh %250 : (tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %253 = tosa.add %252, %37 : (tensor<4x8x32xf32>, tensor<1x1x1xf32>) -> tensor<4x8x32xf32>
    %254 = tosa.mul %251, %253, %3 : (tensor<4x8x32xf32>, tensor<4x8x32xf32>, tensor<1xi8>) -> tensor<4x8x32xf32>
    %255 = tosa.transpose %arg24 {perms = array<i32: 1, 0>} : (tensor<16x32xf32>) -> tensor<32x16xf32>
    %256 = tosa.reshape %254, %6 : (tensor<4x8x32xf32>, !tosa.shape<3>) -> tensor<1x32x32xf32>
    %257 = tosa.reshape %255, %7 : (tensor<32x16xf32>, !tosa.shape<3>) -> tensor<1x32x16xf32>
    %258 = tosa.matmul %256, %257, %5, %5 : (tensor<1x32x32xf32>, tensor<1x32x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x32x16xf32>
    %259 = tosa.reshape %258, %8 : (tensor<1x32x16xf32>, !tosa.shape<2>) -> tensor<32x16xf32>
    %260 = tosa.reshape %arg25, %23 : (tensor<16xf32>, !tosa.shape<2>) -> tensor<1x16xf32>
    %261 = tosa.add %259, %260 : (tensor<32x16xf32>, tensor<1x16xf32>) -> tensor<32x16xf32>
    %262 = tosa.reshape %261, %9 : (tensor<32x16xf32>, !tosa.shape<3>) -> tensor<4x8x16xf32>
    %263 = tosa.add %219, %262 : (tensor<4x8x16xf32>, tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
    %264 = tosa.cast %263 : (tensor<4x8x16xf32>) -> tensor<4x8x16xf64>
    %265 = tosa.reduce_sum %264 {axis = 2 : i32} : (tensor<4x8x16xf64>) -> tensor<4x8x1xf64>
    %266 = tosa.mul %265, %30, %3 : (tensor<4x8x1xf64>, tensor<1x1x1xf64>, tensor<1xi8>) -> tensor<4x8x1xf64>
    %267 = tosa.sub %264, %266 : (tensor<4x8x16xf64>, tensor<4x8x1xf64>) -> tensor<4x8x16xf64>
    %268 = tosa.mul %267, %267, %3 : (tensor<4x8x16xf64>, tensor<4x8x16xf64>, tensor<1xi8>) -> tensor<4x8x16xf64>
    %269 = tosa.reduce_sum %268 {axis = 2 : i32} : (tensor<4x8x16xf64>) -> tensor<4x8x1xf64>
    %270 = tosa.mul %269, %30, %3 : (tensor<4x8x1xf64>, tensor<1x1x1xf64>, tensor<1xi8>) -> tensor<4x8x1xf64>
    %271 = tosa.cast %270 : (tensor<4x8x1xf64>) -> tensor<4x8x1xf32>
    %272 = tosa.reduce_sum %263 {axis = 2 : i32} : (tensor<4x8x16xf32>) -> tensor<4x8x1xf32>
    %273 = tosa.mul %272, %31, %3 : (tensor<4x8x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x1xf32>
    %274 = tosa.add %271, %32 : (tensor<4x8x1xf32>, tensor<1x1x1xf32>) -> tensor<4x8x1xf32>
    %275 = tosa.rsqrt %274 : (tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
    %276 = tosa.sub %263, %273 : (tensor<4x8x16xf32>, tensor<4x8x1xf32>) -> tensor<4x8x16xf32>
    %277 = tosa.mul %276, %275, %3 : (tensor<4x8x16xf32>, tensor<4x8x1xf32>, tensor<1xi8>) -> tensor<4x8x16xf32>
    %278 = tosa.reshape %arg26, %11 : (tensor<16xf32>, !tosa.shape<3>) -> tensor<1x1x16xf32>
    %279 = tosa.mul %277, %278, %3 : (tensor<4x8x16xf32>, tensor<1x1x16xf32>, tensor<1xi8>) -> tensor<4x8x16xf32>
    %280 = tosa.reshape %arg27, %11 : (tensor<16xf32>, !tosa.shape<3>) -> tensor<1x1x16xf32>
    %281 = tosa.add %279, %280 : (tensor<4x8x16xf32>, tensor<1x1x16xf32>) -> tensor<4x8x16xf32>
    %282 = tosa.transpose %arg1 {perms = array<i32: 1, 0>} : (tensor<32x16xf32>) -> tensor<16x32xf32>
    %283 = tosa.reshape %281, %7 : (tensor<4x8x16xf32>, !tosa.shape<3>) -> tensor<1x32x16xf32>
    %284 = tosa.reshape %282, %24 : (tensor<16x32xf32>, !tosa.shape<3>) -> tensor<1x16x32xf32>
    %285 = tosa.matmul %283, %284, %5, %5 : (tensor<1x32x16xf32>, tensor<1x16x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x32x32xf32>
    %286 = tosa.reshape %285, %4 : (tensor<1x32x32xf32>, !tosa.shape<2>) -> tensor<32x32xf32>
    return %286 : tensor<32x32xf32>
  }
}
