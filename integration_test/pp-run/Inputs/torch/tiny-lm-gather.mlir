// Exported from PyTorch by python/pp-import-torch (docs/Frontends.md):
//   pp-import-torch integration_test/pp-run/Inputs/torch/models.py:tiny_lm --input 4x8:i64 --target 32:i32 --weights-dir none -o integration_test/pp-run/Inputs/torch/tiny-lm-gather.mlir
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
  func.func @tiny_lm_gather(%arg0: tensor<8x16xf32> {pp.name = "pos", pp.parameter}, %arg1: tensor<32x16xf32> {pp.aliases = ["head.weight"], pp.name = "embed.weight", pp.parameter}, %arg2: tensor<16xf32> {pp.name = "layers.0.ln1.weight", pp.parameter}, %arg3: tensor<16xf32> {pp.name = "layers.0.ln1.bias", pp.parameter}, %arg4: tensor<48x16xf32> {pp.name = "layers.0.qkv.weight", pp.parameter}, %arg5: tensor<48xf32> {pp.name = "layers.0.qkv.bias", pp.parameter}, %arg6: tensor<16x16xf32> {pp.name = "layers.0.proj.weight", pp.parameter}, %arg7: tensor<16xf32> {pp.name = "layers.0.proj.bias", pp.parameter}, %arg8: tensor<16xf32> {pp.name = "layers.0.ln2.weight", pp.parameter}, %arg9: tensor<16xf32> {pp.name = "layers.0.ln2.bias", pp.parameter}, %arg10: tensor<32x16xf32> {pp.name = "layers.0.fc1.weight", pp.parameter}, %arg11: tensor<32xf32> {pp.name = "layers.0.fc1.bias", pp.parameter}, %arg12: tensor<16x32xf32> {pp.name = "layers.0.fc2.weight", pp.parameter}, %arg13: tensor<16xf32> {pp.name = "layers.0.fc2.bias", pp.parameter}, %arg14: tensor<16xf32> {pp.name = "layers.1.ln1.weight", pp.parameter}, %arg15: tensor<16xf32> {pp.name = "layers.1.ln1.bias", pp.parameter}, %arg16: tensor<48x16xf32> {pp.name = "layers.1.qkv.weight", pp.parameter}, %arg17: tensor<48xf32> {pp.name = "layers.1.qkv.bias", pp.parameter}, %arg18: tensor<16x16xf32> {pp.name = "layers.1.proj.weight", pp.parameter}, %arg19: tensor<16xf32> {pp.name = "layers.1.proj.bias", pp.parameter}, %arg20: tensor<16xf32> {pp.name = "layers.1.ln2.weight", pp.parameter}, %arg21: tensor<16xf32> {pp.name = "layers.1.ln2.bias", pp.parameter}, %arg22: tensor<32x16xf32> {pp.name = "layers.1.fc1.weight", pp.parameter}, %arg23: tensor<32xf32> {pp.name = "layers.1.fc1.bias", pp.parameter}, %arg24: tensor<16x32xf32> {pp.name = "layers.1.fc2.weight", pp.parameter}, %arg25: tensor<16xf32> {pp.name = "layers.1.fc2.bias", pp.parameter}, %arg26: tensor<16xf32> {pp.name = "ln.weight", pp.parameter}, %arg27: tensor<16xf32> {pp.name = "ln.bias", pp.parameter}, %arg28: tensor<4x8xi64> {pp.data}) -> tensor<32x32xf32> {
    %0 = tosa.const_shape  {values = dense<[1, 32, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %1 = tosa.const_shape  {values = dense<[1, 32]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %2 = tosa.const_shape  {values = dense<[4, 8, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %3 = tosa.const_shape  {values = dense<[1, 8, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %4 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %5 = tosa.const_shape  {values = dense<[1, 1, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %6 = tosa.const_shape  {values = dense<[32, 16]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %7 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %8 = tosa.const_shape  {values = dense<[1, 16, 48]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %9 = tosa.const_shape  {values = dense<[32, 48]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %10 = tosa.const_shape  {values = dense<[1, 48]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %11 = tosa.const_shape  {values = dense<[4, 8, 48]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %12 = tosa.const_shape  {values = dense<0> : tensor<3xindex>} : () -> !tosa.shape<3>
    %13 = tosa.const_shape  {values = dense<[0, 0, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %14 = tosa.const_shape  {values = dense<[0, 0, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %15 = tosa.const_shape  {values = dense<[4, 8, 2, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %16 = tosa.const_shape  {values = dense<8> : tensor<3xindex>} : () -> !tosa.shape<3>
    %17 = tosa.const_shape  {values = dense<[4, 2, 8, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %18 = tosa.const_shape  {values = dense<[1, 16, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %19 = tosa.const_shape  {values = dense<[1, 16]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %20 = tosa.const_shape  {values = dense<[1, 16, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %21 = tosa.const_shape  {values = dense<32> : tensor<2xindex>} : () -> !tosa.shape<2>
    %22 = tosa.const_shape  {values = dense<[4, 8, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %23 = tosa.const_shape  {values = dense<[1, 32, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %24 = "tosa.const"() <{values = dense<6.250000e-02> : tensor<1x1x1xf64>}> : () -> tensor<1x1x1xf64>
    %25 = "tosa.const"() <{values = dense<6.250000e-02> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
    %26 = "tosa.const"() <{values = dense<9.99999974E-6> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
    %27 = "tosa.const"() <{values = dense<0.353553385> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
    %28 = "tosa.const"() <{values = dense<4.471500e-02> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
    %29 = "tosa.const"() <{values = dense<0.797884583> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
    %30 = "tosa.const"() <{values = dense<5.000000e-01> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
    %31 = "tosa.const"() <{values = dense<1.000000e+00> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
    %32 = tosa.reshape %arg1, %0 : (tensor<32x16xf32>, !tosa.shape<3>) -> tensor<1x32x16xf32>
    %33 = tosa.reshape %arg28, %1 : (tensor<4x8xi64>, !tosa.shape<2>) -> tensor<1x32xi64>
    %34 = tosa.cast %33 : (tensor<1x32xi64>) -> tensor<1x32xi32>
    %35 = tosa.gather %32, %34 : (tensor<1x32x16xf32>, tensor<1x32xi32>) -> tensor<1x32x16xf32>
    %36 = tosa.reshape %35, %2 : (tensor<1x32x16xf32>, !tosa.shape<3>) -> tensor<4x8x16xf32>
    %37 = tosa.reshape %arg0, %3 : (tensor<8x16xf32>, !tosa.shape<3>) -> tensor<1x8x16xf32>
    %38 = tosa.add %36, %37 : (tensor<4x8x16xf32>, tensor<1x8x16xf32>) -> tensor<4x8x16xf32>
    %39 = tosa.cast %38 : (tensor<4x8x16xf32>) -> tensor<4x8x16xf64>
    %40 = tosa.reduce_sum %39 {axis = 2 : i32} : (tensor<4x8x16xf64>) -> tensor<4x8x1xf64>
    %41 = tosa.mul %40, %24, %4 : (tensor<4x8x1xf64>, tensor<1x1x1xf64>, tensor<1xi8>) -> tensor<4x8x1xf64>
    %42 = tosa.sub %39, %41 : (tensor<4x8x16xf64>, tensor<4x8x1xf64>) -> tensor<4x8x16xf64>
    %43 = tosa.mul %42, %42, %4 : (tensor<4x8x16xf64>, tensor<4x8x16xf64>, tensor<1xi8>) -> tensor<4x8x16xf64>
    %44 = tosa.reduce_sum %43 {axis = 2 : i32} : (tensor<4x8x16xf64>) -> tensor<4x8x1xf64>
    %45 = tosa.mul %44, %24, %4 : (tensor<4x8x1xf64>, tensor<1x1x1xf64>, tensor<1xi8>) -> tensor<4x8x1xf64>
    %46 = tosa.cast %45 : (tensor<4x8x1xf64>) -> tensor<4x8x1xf32>
    %47 = tosa.reduce_sum %38 {axis = 2 : i32} : (tensor<4x8x16xf32>) -> tensor<4x8x1xf32>
    %48 = tosa.mul %47, %25, %4 : (tensor<4x8x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x1xf32>
    %49 = tosa.add %46, %26 : (tensor<4x8x1xf32>, tensor<1x1x1xf32>) -> tensor<4x8x1xf32>
    %50 = tosa.rsqrt %49 : (tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
    %51 = tosa.sub %38, %48 : (tensor<4x8x16xf32>, tensor<4x8x1xf32>) -> tensor<4x8x16xf32>
    %52 = tosa.mul %51, %50, %4 : (tensor<4x8x16xf32>, tensor<4x8x1xf32>, tensor<1xi8>) -> tensor<4x8x16xf32>
    %53 = tosa.reshape %arg2, %5 : (tensor<16xf32>, !tosa.shape<3>) -> tensor<1x1x16xf32>
    %54 = tosa.mul %52, %53, %4 : (tensor<4x8x16xf32>, tensor<1x1x16xf32>, tensor<1xi8>) -> tensor<4x8x16xf32>
    %55 = tosa.reshape %arg3, %5 : (tensor<16xf32>, !tosa.shape<3>) -> tensor<1x1x16xf32>
    %56 = tosa.add %54, %55 : (tensor<4x8x16xf32>, tensor<1x1x16xf32>) -> tensor<4x8x16xf32>
    %57 = tosa.transpose %arg4 {perms = array<i32: 1, 0>} : (tensor<48x16xf32>) -> tensor<16x48xf32>
    %58 = tosa.reshape %56, %0 : (tensor<4x8x16xf32>, !tosa.shape<3>) -> tensor<1x32x16xf32>
    %59 = tosa.reshape %57, %8 : (tensor<16x48xf32>, !tosa.shape<3>) -> tensor<1x16x48xf32>
    %60 = tosa.matmul %58, %59, %7, %7 : (tensor<1x32x16xf32>, tensor<1x16x48xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x32x48xf32>
    %61 = tosa.reshape %60, %9 : (tensor<1x32x48xf32>, !tosa.shape<2>) -> tensor<32x48xf32>
    %62 = tosa.reshape %arg5, %10 : (tensor<48xf32>, !tosa.shape<2>) -> tensor<1x48xf32>
    %63 = tosa.add %61, %62 : (tensor<32x48xf32>, tensor<1x48xf32>) -> tensor<32x48xf32>
    %64 = tosa.reshape %63, %11 : (tensor<32x48xf32>, !tosa.shape<3>) -> tensor<4x8x48xf32>
    %65 = tosa.slice %64, %12, %2 : (tensor<4x8x48xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<4x8x16xf32>
    %66 = tosa.slice %64, %13, %2 : (tensor<4x8x48xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<4x8x16xf32>
    %67 = tosa.slice %64, %14, %2 : (tensor<4x8x48xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<4x8x16xf32>
    %68 = tosa.reshape %65, %15 : (tensor<4x8x16xf32>, !tosa.shape<4>) -> tensor<4x8x2x8xf32>
    %69 = tosa.transpose %68 {perms = array<i32: 0, 2, 1, 3>} : (tensor<4x8x2x8xf32>) -> tensor<4x2x8x8xf32>
    %70 = tosa.reshape %66, %15 : (tensor<4x8x16xf32>, !tosa.shape<4>) -> tensor<4x8x2x8xf32>
    %71 = tosa.reshape %67, %15 : (tensor<4x8x16xf32>, !tosa.shape<4>) -> tensor<4x8x2x8xf32>
    %72 = tosa.transpose %71 {perms = array<i32: 0, 2, 1, 3>} : (tensor<4x8x2x8xf32>) -> tensor<4x2x8x8xf32>
    %73 = tosa.transpose %70 {perms = array<i32: 0, 2, 3, 1>} : (tensor<4x8x2x8xf32>) -> tensor<4x2x8x8xf32>
    %74 = tosa.reshape %69, %16 : (tensor<4x2x8x8xf32>, !tosa.shape<3>) -> tensor<8x8x8xf32>
    %75 = tosa.reshape %73, %16 : (tensor<4x2x8x8xf32>, !tosa.shape<3>) -> tensor<8x8x8xf32>
    %76 = tosa.matmul %74, %75, %7, %7 : (tensor<8x8x8xf32>, tensor<8x8x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x8x8xf32>
    %77 = tosa.reshape %76, %17 : (tensor<8x8x8xf32>, !tosa.shape<4>) -> tensor<4x2x8x8xf32>
    %78 = tosa.mul %77, %27, %4 : (tensor<4x2x8x8xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<4x2x8x8xf32>
    %79 = tosa.reduce_max %78 {axis = 3 : i32} : (tensor<4x2x8x8xf32>) -> tensor<4x2x8x1xf32>
    %80 = tosa.sub %78, %79 : (tensor<4x2x8x8xf32>, tensor<4x2x8x1xf32>) -> tensor<4x2x8x8xf32>
    %81 = tosa.exp %80 : (tensor<4x2x8x8xf32>) -> tensor<4x2x8x8xf32>
    %82 = tosa.reduce_sum %81 {axis = 3 : i32} : (tensor<4x2x8x8xf32>) -> tensor<4x2x8x1xf32>
    %83 = tosa.reciprocal %82 : (tensor<4x2x8x1xf32>) -> tensor<4x2x8x1xf32>
    %84 = tosa.mul %81, %83, %4 : (tensor<4x2x8x8xf32>, tensor<4x2x8x1xf32>, tensor<1xi8>) -> tensor<4x2x8x8xf32>
    %85 = tosa.reshape %84, %16 : (tensor<4x2x8x8xf32>, !tosa.shape<3>) -> tensor<8x8x8xf32>
    %86 = tosa.reshape %72, %16 : (tensor<4x2x8x8xf32>, !tosa.shape<3>) -> tensor<8x8x8xf32>
    %87 = tosa.matmul %85, %86, %7, %7 : (tensor<8x8x8xf32>, tensor<8x8x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x8x8xf32>
    %88 = tosa.reshape %87, %17 : (tensor<8x8x8xf32>, !tosa.shape<4>) -> tensor<4x2x8x8xf32>
    %89 = tosa.transpose %88 {perms = array<i32: 0, 2, 1, 3>} : (tensor<4x2x8x8xf32>) -> tensor<4x8x2x8xf32>
    %90 = tosa.transpose %arg6 {perms = array<i32: 1, 0>} : (tensor<16x16xf32>) -> tensor<16x16xf32>
    %91 = tosa.reshape %89, %0 : (tensor<4x8x2x8xf32>, !tosa.shape<3>) -> tensor<1x32x16xf32>
    %92 = tosa.reshape %90, %18 : (tensor<16x16xf32>, !tosa.shape<3>) -> tensor<1x16x16xf32>
    %93 = tosa.matmul %91, %92, %7, %7 : (tensor<1x32x16xf32>, tensor<1x16x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x32x16xf32>
    %94 = tosa.reshape %93, %6 : (tensor<1x32x16xf32>, !tosa.shape<2>) -> tensor<32x16xf32>
    %95 = tosa.reshape %arg7, %19 : (tensor<16xf32>, !tosa.shape<2>) -> tensor<1x16xf32>
    %96 = tosa.add %94, %95 : (tensor<32x16xf32>, tensor<1x16xf32>) -> tensor<32x16xf32>
    %97 = tosa.reshape %96, %2 : (tensor<32x16xf32>, !tosa.shape<3>) -> tensor<4x8x16xf32>
    %98 = tosa.add %38, %97 : (tensor<4x8x16xf32>, tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
    %99 = tosa.cast %98 : (tensor<4x8x16xf32>) -> tensor<4x8x16xf64>
    %100 = tosa.reduce_sum %99 {axis = 2 : i32} : (tensor<4x8x16xf64>) -> tensor<4x8x1xf64>
    %101 = tosa.mul %100, %24, %4 : (tensor<4x8x1xf64>, tensor<1x1x1xf64>, tensor<1xi8>) -> tensor<4x8x1xf64>
    %102 = tosa.sub %99, %101 : (tensor<4x8x16xf64>, tensor<4x8x1xf64>) -> tensor<4x8x16xf64>
    %103 = tosa.mul %102, %102, %4 : (tensor<4x8x16xf64>, tensor<4x8x16xf64>, tensor<1xi8>) -> tensor<4x8x16xf64>
    %104 = tosa.reduce_sum %103 {axis = 2 : i32} : (tensor<4x8x16xf64>) -> tensor<4x8x1xf64>
    %105 = tosa.mul %104, %24, %4 : (tensor<4x8x1xf64>, tensor<1x1x1xf64>, tensor<1xi8>) -> tensor<4x8x1xf64>
    %106 = tosa.cast %105 : (tensor<4x8x1xf64>) -> tensor<4x8x1xf32>
    %107 = tosa.reduce_sum %98 {axis = 2 : i32} : (tensor<4x8x16xf32>) -> tensor<4x8x1xf32>
    %108 = tosa.mul %107, %25, %4 : (tensor<4x8x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x1xf32>
    %109 = tosa.add %106, %26 : (tensor<4x8x1xf32>, tensor<1x1x1xf32>) -> tensor<4x8x1xf32>
    %110 = tosa.rsqrt %109 : (tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
    %111 = tosa.sub %98, %108 : (tensor<4x8x16xf32>, tensor<4x8x1xf32>) -> tensor<4x8x16xf32>
    %112 = tosa.mul %111, %110, %4 : (tensor<4x8x16xf32>, tensor<4x8x1xf32>, tensor<1xi8>) -> tensor<4x8x16xf32>
    %113 = tosa.reshape %arg8, %5 : (tensor<16xf32>, !tosa.shape<3>) -> tensor<1x1x16xf32>
    %114 = tosa.mul %112, %113, %4 : (tensor<4x8x16xf32>, tensor<1x1x16xf32>, tensor<1xi8>) -> tensor<4x8x16xf32>
    %115 = tosa.reshape %arg9, %5 : (tensor<16xf32>, !tosa.shape<3>) -> tensor<1x1x16xf32>
    %116 = tosa.add %114, %115 : (tensor<4x8x16xf32>, tensor<1x1x16xf32>) -> tensor<4x8x16xf32>
    %117 = tosa.transpose %arg10 {perms = array<i32: 1, 0>} : (tensor<32x16xf32>) -> tensor<16x32xf32>
    %118 = tosa.reshape %116, %0 : (tensor<4x8x16xf32>, !tosa.shape<3>) -> tensor<1x32x16xf32>
    %119 = tosa.reshape %117, %20 : (tensor<16x32xf32>, !tosa.shape<3>) -> tensor<1x16x32xf32>
    %120 = tosa.matmul %118, %119, %7, %7 : (tensor<1x32x16xf32>, tensor<1x16x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x32x32xf32>
    %121 = tosa.reshape %120, %21 : (tensor<1x32x32xf32>, !tosa.shape<2>) -> tensor<32x32xf32>
    %122 = tosa.reshape %arg11, %1 : (tensor<32xf32>, !tosa.shape<2>) -> tensor<1x32xf32>
    %123 = tosa.add %121, %122 : (tensor<32x32xf32>, tensor<1x32xf32>) -> tensor<32x32xf32>
    %124 = tosa.reshape %123, %22 : (tensor<32x32xf32>, !tosa.shape<3>) -> tensor<4x8x32xf32>
    %125 = tosa.mul %124, %124, %4 : (tensor<4x8x32xf32>, tensor<4x8x32xf32>, tensor<1xi8>) -> tensor<4x8x32xf32>
    %126 = tosa.mul %125, %124, %4 : (tensor<4x8x32xf32>, tensor<4x8x32xf32>, tensor<1xi8>) -> tensor<4x8x32xf32>
    %127 = tosa.mul %126, %28, %4 : (tensor<4x8x32xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x32xf32>
    %128 = tosa.add %124, %127 : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %129 = tosa.mul %128, %29, %4 : (tensor<4x8x32xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x32xf32>
    %130 = tosa.mul %124, %30, %4 : (tensor<4x8x32xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x32xf32>
    %131 = tosa.tanh %129 : (tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %132 = tosa.add %131, %31 : (tensor<4x8x32xf32>, tensor<1x1x1xf32>) -> tensor<4x8x32xf32>
    %133 = tosa.mul %130, %132, %4 : (tensor<4x8x32xf32>, tensor<4x8x32xf32>, tensor<1xi8>) -> tensor<4x8x32xf32>
    %134 = tosa.transpose %arg12 {perms = array<i32: 1, 0>} : (tensor<16x32xf32>) -> tensor<32x16xf32>
    %135 = tosa.reshape %133, %23 : (tensor<4x8x32xf32>, !tosa.shape<3>) -> tensor<1x32x32xf32>
    %136 = tosa.reshape %134, %0 : (tensor<32x16xf32>, !tosa.shape<3>) -> tensor<1x32x16xf32>
    %137 = tosa.matmul %135, %136, %7, %7 : (tensor<1x32x32xf32>, tensor<1x32x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x32x16xf32>
    %138 = tosa.reshape %137, %6 : (tensor<1x32x16xf32>, !tosa.shape<2>) -> tensor<32x16xf32>
    %139 = tosa.reshape %arg13, %19 : (tensor<16xf32>, !tosa.shape<2>) -> tensor<1x16xf32>
    %140 = tosa.add %138, %139 : (tensor<32x16xf32>, tensor<1x16xf32>) -> tensor<32x16xf32>
    %141 = tosa.reshape %140, %2 : (tensor<32x16xf32>, !tosa.shape<3>) -> tensor<4x8x16xf32>
    %142 = tosa.add %98, %141 : (tensor<4x8x16xf32>, tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
    %143 = tosa.cast %142 : (tensor<4x8x16xf32>) -> tensor<4x8x16xf64>
    %144 = tosa.reduce_sum %143 {axis = 2 : i32} : (tensor<4x8x16xf64>) -> tensor<4x8x1xf64>
    %145 = tosa.mul %144, %24, %4 : (tensor<4x8x1xf64>, tensor<1x1x1xf64>, tensor<1xi8>) -> tensor<4x8x1xf64>
    %146 = tosa.sub %143, %145 : (tensor<4x8x16xf64>, tensor<4x8x1xf64>) -> tensor<4x8x16xf64>
    %147 = tosa.mul %146, %146, %4 : (tensor<4x8x16xf64>, tensor<4x8x16xf64>, tensor<1xi8>) -> tensor<4x8x16xf64>
    %148 = tosa.reduce_sum %147 {axis = 2 : i32} : (tensor<4x8x16xf64>) -> tensor<4x8x1xf64>
    %149 = tosa.mul %148, %24, %4 : (tensor<4x8x1xf64>, tensor<1x1x1xf64>, tensor<1xi8>) -> tensor<4x8x1xf64>
    %150 = tosa.cast %149 : (tensor<4x8x1xf64>) -> tensor<4x8x1xf32>
    %151 = tosa.reduce_sum %142 {axis = 2 : i32} : (tensor<4x8x16xf32>) -> tensor<4x8x1xf32>
    %152 = tosa.mul %151, %25, %4 : (tensor<4x8x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x1xf32>
    %153 = tosa.add %150, %26 : (tensor<4x8x1xf32>, tensor<1x1x1xf32>) -> tensor<4x8x1xf32>
    %154 = tosa.rsqrt %153 : (tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
    %155 = tosa.sub %142, %152 : (tensor<4x8x16xf32>, tensor<4x8x1xf32>) -> tensor<4x8x16xf32>
    %156 = tosa.mul %155, %154, %4 : (tensor<4x8x16xf32>, tensor<4x8x1xf32>, tensor<1xi8>) -> tensor<4x8x16xf32>
    %157 = tosa.reshape %arg14, %5 : (tensor<16xf32>, !tosa.shape<3>) -> tensor<1x1x16xf32>
    %158 = tosa.mul %156, %157, %4 : (tensor<4x8x16xf32>, tensor<1x1x16xf32>, tensor<1xi8>) -> tensor<4x8x16xf32>
    %159 = tosa.reshape %arg15, %5 : (tensor<16xf32>, !tosa.shape<3>) -> tensor<1x1x16xf32>
    %160 = tosa.add %158, %159 : (tensor<4x8x16xf32>, tensor<1x1x16xf32>) -> tensor<4x8x16xf32>
    %161 = tosa.transpose %arg16 {perms = array<i32: 1, 0>} : (tensor<48x16xf32>) -> tensor<16x48xf32>
    %162 = tosa.reshape %160, %0 : (tensor<4x8x16xf32>, !tosa.shape<3>) -> tensor<1x32x16xf32>
    %163 = tosa.reshape %161, %8 : (tensor<16x48xf32>, !tosa.shape<3>) -> tensor<1x16x48xf32>
    %164 = tosa.matmul %162, %163, %7, %7 : (tensor<1x32x16xf32>, tensor<1x16x48xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x32x48xf32>
    %165 = tosa.reshape %164, %9 : (tensor<1x32x48xf32>, !tosa.shape<2>) -> tensor<32x48xf32>
    %166 = tosa.reshape %arg17, %10 : (tensor<48xf32>, !tosa.shape<2>) -> tensor<1x48xf32>
    %167 = tosa.add %165, %166 : (tensor<32x48xf32>, tensor<1x48xf32>) -> tensor<32x48xf32>
    %168 = tosa.reshape %167, %11 : (tensor<32x48xf32>, !tosa.shape<3>) -> tensor<4x8x48xf32>
    %169 = tosa.slice %168, %12, %2 : (tensor<4x8x48xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<4x8x16xf32>
    %170 = tosa.slice %168, %13, %2 : (tensor<4x8x48xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<4x8x16xf32>
    %171 = tosa.slice %168, %14, %2 : (tensor<4x8x48xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<4x8x16xf32>
    %172 = tosa.reshape %169, %15 : (tensor<4x8x16xf32>, !tosa.shape<4>) -> tensor<4x8x2x8xf32>
    %173 = tosa.transpose %172 {perms = array<i32: 0, 2, 1, 3>} : (tensor<4x8x2x8xf32>) -> tensor<4x2x8x8xf32>
    %174 = tosa.reshape %170, %15 : (tensor<4x8x16xf32>, !tosa.shape<4>) -> tensor<4x8x2x8xf32>
    %175 = tosa.reshape %171, %15 : (tensor<4x8x16xf32>, !tosa.shape<4>) -> tensor<4x8x2x8xf32>
    %176 = tosa.transpose %175 {perms = array<i32: 0, 2, 1, 3>} : (tensor<4x8x2x8xf32>) -> tensor<4x2x8x8xf32>
    %177 = tosa.transpose %174 {perms = array<i32: 0, 2, 3, 1>} : (tensor<4x8x2x8xf32>) -> tensor<4x2x8x8xf32>
    %178 = tosa.reshape %173, %16 : (tensor<4x2x8x8xf32>, !tosa.shape<3>) -> tensor<8x8x8xf32>
    %179 = tosa.reshape %177, %16 : (tensor<4x2x8x8xf32>, !tosa.shape<3>) -> tensor<8x8x8xf32>
    %180 = tosa.matmul %178, %179, %7, %7 : (tensor<8x8x8xf32>, tensor<8x8x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x8x8xf32>
    %181 = tosa.reshape %180, %17 : (tensor<8x8x8xf32>, !tosa.shape<4>) -> tensor<4x2x8x8xf32>
    %182 = tosa.mul %181, %27, %4 : (tensor<4x2x8x8xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<4x2x8x8xf32>
    %183 = tosa.reduce_max %182 {axis = 3 : i32} : (tensor<4x2x8x8xf32>) -> tensor<4x2x8x1xf32>
    %184 = tosa.sub %182, %183 : (tensor<4x2x8x8xf32>, tensor<4x2x8x1xf32>) -> tensor<4x2x8x8xf32>
    %185 = tosa.exp %184 : (tensor<4x2x8x8xf32>) -> tensor<4x2x8x8xf32>
    %186 = tosa.reduce_sum %185 {axis = 3 : i32} : (tensor<4x2x8x8xf32>) -> tensor<4x2x8x1xf32>
    %187 = tosa.reciprocal %186 : (tensor<4x2x8x1xf32>) -> tensor<4x2x8x1xf32>
    %188 = tosa.mul %185, %187, %4 : (tensor<4x2x8x8xf32>, tensor<4x2x8x1xf32>, tensor<1xi8>) -> tensor<4x2x8x8xf32>
    %189 = tosa.reshape %188, %16 : (tensor<4x2x8x8xf32>, !tosa.shape<3>) -> tensor<8x8x8xf32>
    %190 = tosa.reshape %176, %16 : (tensor<4x2x8x8xf32>, !tosa.shape<3>) -> tensor<8x8x8xf32>
    %191 = tosa.matmul %189, %190, %7, %7 : (tensor<8x8x8xf32>, tensor<8x8x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x8x8xf32>
    %192 = tosa.reshape %191, %17 : (tensor<8x8x8xf32>, !tosa.shape<4>) -> tensor<4x2x8x8xf32>
    %193 = tosa.transpose %192 {perms = array<i32: 0, 2, 1, 3>} : (tensor<4x2x8x8xf32>) -> tensor<4x8x2x8xf32>
    %194 = tosa.transpose %arg18 {perms = array<i32: 1, 0>} : (tensor<16x16xf32>) -> tensor<16x16xf32>
    %195 = tosa.reshape %193, %0 : (tensor<4x8x2x8xf32>, !tosa.shape<3>) -> tensor<1x32x16xf32>
    %196 = tosa.reshape %194, %18 : (tensor<16x16xf32>, !tosa.shape<3>) -> tensor<1x16x16xf32>
    %197 = tosa.matmul %195, %196, %7, %7 : (tensor<1x32x16xf32>, tensor<1x16x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x32x16xf32>
    %198 = tosa.reshape %197, %6 : (tensor<1x32x16xf32>, !tosa.shape<2>) -> tensor<32x16xf32>
    %199 = tosa.reshape %arg19, %19 : (tensor<16xf32>, !tosa.shape<2>) -> tensor<1x16xf32>
    %200 = tosa.add %198, %199 : (tensor<32x16xf32>, tensor<1x16xf32>) -> tensor<32x16xf32>
    %201 = tosa.reshape %200, %2 : (tensor<32x16xf32>, !tosa.shape<3>) -> tensor<4x8x16xf32>
    %202 = tosa.add %142, %201 : (tensor<4x8x16xf32>, tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
    %203 = tosa.cast %202 : (tensor<4x8x16xf32>) -> tensor<4x8x16xf64>
    %204 = tosa.reduce_sum %203 {axis = 2 : i32} : (tensor<4x8x16xf64>) -> tensor<4x8x1xf64>
    %205 = tosa.mul %204, %24, %4 : (tensor<4x8x1xf64>, tensor<1x1x1xf64>, tensor<1xi8>) -> tensor<4x8x1xf64>
    %206 = tosa.sub %203, %205 : (tensor<4x8x16xf64>, tensor<4x8x1xf64>) -> tensor<4x8x16xf64>
    %207 = tosa.mul %206, %206, %4 : (tensor<4x8x16xf64>, tensor<4x8x16xf64>, tensor<1xi8>) -> tensor<4x8x16xf64>
    %208 = tosa.reduce_sum %207 {axis = 2 : i32} : (tensor<4x8x16xf64>) -> tensor<4x8x1xf64>
    %209 = tosa.mul %208, %24, %4 : (tensor<4x8x1xf64>, tensor<1x1x1xf64>, tensor<1xi8>) -> tensor<4x8x1xf64>
    %210 = tosa.cast %209 : (tensor<4x8x1xf64>) -> tensor<4x8x1xf32>
    %211 = tosa.reduce_sum %202 {axis = 2 : i32} : (tensor<4x8x16xf32>) -> tensor<4x8x1xf32>
    %212 = tosa.mul %211, %25, %4 : (tensor<4x8x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x1xf32>
    %213 = tosa.add %210, %26 : (tensor<4x8x1xf32>, tensor<1x1x1xf32>) -> tensor<4x8x1xf32>
    %214 = tosa.rsqrt %213 : (tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
    %215 = tosa.sub %202, %212 : (tensor<4x8x16xf32>, tensor<4x8x1xf32>) -> tensor<4x8x16xf32>
    %216 = tosa.mul %215, %214, %4 : (tensor<4x8x16xf32>, tensor<4x8x1xf32>, tensor<1xi8>) -> tensor<4x8x16xf32>
    %217 = tosa.reshape %arg20, %5 : (tensor<16xf32>, !tosa.shape<3>) -> tensor<1x1x16xf32>
    %218 = tosa.mul %216, %217, %4 : (tensor<4x8x16xf32>, tensor<1x1x16xf32>, tensor<1xi8>) -> tensor<4x8x16xf32>
    %219 = tosa.reshape %arg21, %5 : (tensor<16xf32>, !tosa.shape<3>) -> tensor<1x1x16xf32>
    %220 = tosa.add %218, %219 : (tensor<4x8x16xf32>, tensor<1x1x16xf32>) -> tensor<4x8x16xf32>
    %221 = tosa.transpose %arg22 {perms = array<i32: 1, 0>} : (tensor<32x16xf32>) -> tensor<16x32xf32>
    %222 = tosa.reshape %220, %0 : (tensor<4x8x16xf32>, !tosa.shape<3>) -> tensor<1x32x16xf32>
    %223 = tosa.reshape %221, %20 : (tensor<16x32xf32>, !tosa.shape<3>) -> tensor<1x16x32xf32>
    %224 = tosa.matmul %222, %223, %7, %7 : (tensor<1x32x16xf32>, tensor<1x16x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x32x32xf32>
    %225 = tosa.reshape %224, %21 : (tensor<1x32x32xf32>, !tosa.shape<2>) -> tensor<32x32xf32>
    %226 = tosa.reshape %arg23, %1 : (tensor<32xf32>, !tosa.shape<2>) -> tensor<1x32xf32>
    %227 = tosa.add %225, %226 : (tensor<32x32xf32>, tensor<1x32xf32>) -> tensor<32x32xf32>
    %228 = tosa.reshape %227, %22 : (tensor<32x32xf32>, !tosa.shape<3>) -> tensor<4x8x32xf32>
    %229 = tosa.mul %228, %228, %4 : (tensor<4x8x32xf32>, tensor<4x8x32xf32>, tensor<1xi8>) -> tensor<4x8x32xf32>
    %230 = tosa.mul %229, %228, %4 : (tensor<4x8x32xf32>, tensor<4x8x32xf32>, tensor<1xi8>) -> tensor<4x8x32xf32>
    %231 = tosa.mul %230, %28, %4 : (tensor<4x8x32xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x32xf32>
    %232 = tosa.add %228, %231 : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %233 = tosa.mul %232, %29, %4 : (tensor<4x8x32xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x32xf32>
    %234 = tosa.mul %228, %30, %4 : (tensor<4x8x32xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x32xf32>
    %235 = tosa.tanh %233 : (tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %236 = tosa.add %235, %31 : (tensor<4x8x32xf32>, tensor<1x1x1xf32>) -> tensor<4x8x32xf32>
    %237 = tosa.mul %234, %236, %4 : (tensor<4x8x32xf32>, tensor<4x8x32xf32>, tensor<1xi8>) -> tensor<4x8x32xf32>
    %238 = tosa.transpose %arg24 {perms = array<i32: 1, 0>} : (tensor<16x32xf32>) -> tensor<32x16xf32>
    %239 = tosa.reshape %237, %23 : (tensor<4x8x32xf32>, !tosa.shape<3>) -> tensor<1x32x32xf32>
    %240 = tosa.reshape %238, %0 : (tensor<32x16xf32>, !tosa.shape<3>) -> tensor<1x32x16xf32>
    %241 = tosa.matmul %239, %240, %7, %7 : (tensor<1x32x32xf32>, tensor<1x32x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x32x16xf32>
    %242 = tosa.reshape %241, %6 : (tensor<1x32x16xf32>, !tosa.shape<2>) -> tensor<32x16xf32>
    %243 = tosa.reshape %arg25, %19 : (tensor<16xf32>, !tosa.shape<2>) -> tensor<1x16xf32>
    %244 = tosa.add %242, %243 : (tensor<32x16xf32>, tensor<1x16xf32>) -> tensor<32x16xf32>
    %245 = tosa.reshape %244, %2 : (tensor<32x16xf32>, !tosa.shape<3>) -> tensor<4x8x16xf32>
    %246 = tosa.add %202, %245 : (tensor<4x8x16xf32>, tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
    %247 = tosa.cast %246 : (tensor<4x8x16xf32>) -> tensor<4x8x16xf64>
    %248 = tosa.reduce_sum %247 {axis = 2 : i32} : (tensor<4x8x16xf64>) -> tensor<4x8x1xf64>
    %249 = tosa.mul %248, %24, %4 : (tensor<4x8x1xf64>, tensor<1x1x1xf64>, tensor<1xi8>) -> tensor<4x8x1xf64>
    %250 = tosa.sub %247, %249 : (tensor<4x8x16xf64>, tensor<4x8x1xf64>) -> tensor<4x8x16xf64>
    %251 = tosa.mul %250, %250, %4 : (tensor<4x8x16xf64>, tensor<4x8x16xf64>, tensor<1xi8>) -> tensor<4x8x16xf64>
    %252 = tosa.reduce_sum %251 {axis = 2 : i32} : (tensor<4x8x16xf64>) -> tensor<4x8x1xf64>
    %253 = tosa.mul %252, %24, %4 : (tensor<4x8x1xf64>, tensor<1x1x1xf64>, tensor<1xi8>) -> tensor<4x8x1xf64>
    %254 = tosa.cast %253 : (tensor<4x8x1xf64>) -> tensor<4x8x1xf32>
    %255 = tosa.reduce_sum %246 {axis = 2 : i32} : (tensor<4x8x16xf32>) -> tensor<4x8x1xf32>
    %256 = tosa.mul %255, %25, %4 : (tensor<4x8x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x1xf32>
    %257 = tosa.add %254, %26 : (tensor<4x8x1xf32>, tensor<1x1x1xf32>) -> tensor<4x8x1xf32>
    %258 = tosa.rsqrt %257 : (tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
    %259 = tosa.sub %246, %256 : (tensor<4x8x16xf32>, tensor<4x8x1xf32>) -> tensor<4x8x16xf32>
    %260 = tosa.mul %259, %258, %4 : (tensor<4x8x16xf32>, tensor<4x8x1xf32>, tensor<1xi8>) -> tensor<4x8x16xf32>
    %261 = tosa.reshape %arg26, %5 : (tensor<16xf32>, !tosa.shape<3>) -> tensor<1x1x16xf32>
    %262 = tosa.mul %260, %261, %4 : (tensor<4x8x16xf32>, tensor<1x1x16xf32>, tensor<1xi8>) -> tensor<4x8x16xf32>
    %263 = tosa.reshape %arg27, %5 : (tensor<16xf32>, !tosa.shape<3>) -> tensor<1x1x16xf32>
    %264 = tosa.add %262, %263 : (tensor<4x8x16xf32>, tensor<1x1x16xf32>) -> tensor<4x8x16xf32>
    %265 = tosa.transpose %arg1 {perms = array<i32: 1, 0>} : (tensor<32x16xf32>) -> tensor<16x32xf32>
    %266 = tosa.reshape %264, %0 : (tensor<4x8x16xf32>, !tosa.shape<3>) -> tensor<1x32x16xf32>
    %267 = tosa.reshape %265, %20 : (tensor<16x32xf32>, !tosa.shape<3>) -> tensor<1x16x32xf32>
    %268 = tosa.matmul %266, %267, %7, %7 : (tensor<1x32x16xf32>, tensor<1x16x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x32x32xf32>
    %269 = tosa.reshape %268, %21 : (tensor<1x32x32xf32>, !tosa.shape<2>) -> tensor<32x32xf32>
    return %269 : tensor<32x32xf32>
  }
}
