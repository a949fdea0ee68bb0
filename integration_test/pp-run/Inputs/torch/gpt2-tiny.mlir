// Exported from PyTorch by python/pp-import-torch (docs/Frontends.md):
//   pp-import-torch integration_test/pp-run/Inputs/torch/models.py:gpt2 --input 4x8:i64 --target 32:i32 --weights-dir none -o integration_test/pp-run/Inputs/torch/gpt2-tiny.mlir
// torch 2.15.0, torch-mlir 20261001, output type tosa.
// Arguments: 28 parameters (pp.parameter, pp.name = the PyTorch name), then 1 data (pp.data).
//   0: model.transformer.wte.weight 32x16 (tied: model.lm_head.weight)
//   1: model.transformer.wpe.weight 8x16
//   2: model.transformer.h.0.ln_1.weight 16
//   3: model.transformer.h.0.ln_1.bias 16
//   4: model.transformer.h.0.attn.c_attn.weight 16x48
//   5: model.transformer.h.0.attn.c_attn.bias 48
//   6: model.transformer.h.0.attn.c_proj.weight 16x16
//   7: model.transformer.h.0.attn.c_proj.bias 16
//   8: model.transformer.h.0.ln_2.weight 16
//   9: model.transformer.h.0.ln_2.bias 16
//   10: model.transformer.h.0.mlp.c_fc.weight 16x64
//   11: model.transformer.h.0.mlp.c_fc.bias 64
//   12: model.transformer.h.0.mlp.c_proj.weight 64x16
//   13: model.transformer.h.0.mlp.c_proj.bias 16
//   14: model.transformer.h.1.ln_1.weight 16
//   15: model.transformer.h.1.ln_1.bias 16
//   16: model.transformer.h.1.attn.c_attn.weight 16x48
//   17: model.transformer.h.1.attn.c_attn.bias 48
//   18: model.transformer.h.1.attn.c_proj.weight 16x16
//   19: model.transformer.h.1.attn.c_proj.bias 16
//   20: model.transformer.h.1.ln_2.weight 16
//   21: model.transformer.h.1.ln_2.bias 16
//   22: model.transformer.h.1.mlp.c_fc.weight 16x64
//   23: model.transformer.h.1.mlp.c_fc.bias 64
//   24: model.transformer.h.1.mlp.c_proj.weight 64x16
//   25: model.transformer.h.1.mlp.c_proj.bias 16
//   26: model.transformer.ln_f.weight 16
//   27: model.transformer.ln_f.bias 16
module {
  func.func @gpt2_tiny(%arg0: tensor<32x16xf32> {pp.aliases = ["model.lm_head.weight"], pp.name = "model.transformer.wte.weight", pp.parameter}, %arg1: tensor<8x16xf32> {pp.name = "model.transformer.wpe.weight", pp.parameter}, %arg2: tensor<16xf32> {pp.name = "model.transformer.h.0.ln_1.weight", pp.parameter}, %arg3: tensor<16xf32> {pp.name = "model.transformer.h.0.ln_1.bias", pp.parameter}, %arg4: tensor<16x48xf32> {pp.name = "model.transformer.h.0.attn.c_attn.weight", pp.parameter}, %arg5: tensor<48xf32> {pp.name = "model.transformer.h.0.attn.c_attn.bias", pp.parameter}, %arg6: tensor<16x16xf32> {pp.name = "model.transformer.h.0.attn.c_proj.weight", pp.parameter}, %arg7: tensor<16xf32> {pp.name = "model.transformer.h.0.attn.c_proj.bias", pp.parameter}, %arg8: tensor<16xf32> {pp.name = "model.transformer.h.0.ln_2.weight", pp.parameter}, %arg9: tensor<16xf32> {pp.name = "model.transformer.h.0.ln_2.bias", pp.parameter}, %arg10: tensor<16x64xf32> {pp.name = "model.transformer.h.0.mlp.c_fc.weight", pp.parameter}, %arg11: tensor<64xf32> {pp.name = "model.transformer.h.0.mlp.c_fc.bias", pp.parameter}, %arg12: tensor<64x16xf32> {pp.name = "model.transformer.h.0.mlp.c_proj.weight", pp.parameter}, %arg13: tensor<16xf32> {pp.name = "model.transformer.h.0.mlp.c_proj.bias", pp.parameter}, %arg14: tensor<16xf32> {pp.name = "model.transformer.h.1.ln_1.weight", pp.parameter}, %arg15: tensor<16xf32> {pp.name = "model.transformer.h.1.ln_1.bias", pp.parameter}, %arg16: tensor<16x48xf32> {pp.name = "model.transformer.h.1.attn.c_attn.weight", pp.parameter}, %arg17: tensor<48xf32> {pp.name = "model.transformer.h.1.attn.c_attn.bias", pp.parameter}, %arg18: tensor<16x16xf32> {pp.name = "model.transformer.h.1.attn.c_proj.weight", pp.parameter}, %arg19: tensor<16xf32> {pp.name = "model.transformer.h.1.attn.c_proj.bias", pp.parameter}, %arg20: tensor<16xf32> {pp.name = "model.transformer.h.1.ln_2.weight", pp.parameter}, %arg21: tensor<16xf32> {pp.name = "model.transformer.h.1.ln_2.bias", pp.parameter}, %arg22: tensor<16x64xf32> {pp.name = "model.transformer.h.1.mlp.c_fc.weight", pp.parameter}, %arg23: tensor<64xf32> {pp.name = "model.transformer.h.1.mlp.c_fc.bias", pp.parameter}, %arg24: tensor<64x16xf32> {pp.name = "model.transformer.h.1.mlp.c_proj.weight", pp.parameter}, %arg25: tensor<16xf32> {pp.name = "model.transformer.h.1.mlp.c_proj.bias", pp.parameter}, %arg26: tensor<16xf32> {pp.name = "model.transformer.ln_f.weight", pp.parameter}, %arg27: tensor<16xf32> {pp.name = "model.transformer.ln_f.bias", pp.parameter}, %arg28: tensor<4x8xi64> {pp.data}) -> tensor<32x32xf32> {
    %0 = tosa.const_shape  {values = dense<[1, 32, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %1 = tosa.const_shape  {values = dense<[1, 32]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %2 = tosa.const_shape  {values = dense<[4, 8, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %3 = "tosa.const"() <{values = dense<[0, 1, 2, 3, 4, 5, 6, 7]> : tensor<8xi64>}> : () -> tensor<8xi64>
    %4 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %5 = tosa.const_shape  {values = dense<[1, 8]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %6 = tosa.const_shape  {values = dense<[1, 8, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %7 = tosa.const_shape  {values = dense<[1, 1, 8, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %8 = tosa.const_shape  {values = dense<[1, 1, 1, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %9 = tosa.const_shape  {values = dense<[4, 1, 1, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %10 = tosa.const_shape  {values = dense<[1, 1, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %11 = tosa.const_shape  {values = dense<[32, 16]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %12 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %13 = tosa.const_shape  {values = dense<[1, 16, 48]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %14 = tosa.const_shape  {values = dense<[32, 48]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %15 = tosa.const_shape  {values = dense<[1, 48]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %16 = tosa.const_shape  {values = dense<[4, 8, 48]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %17 = tosa.const_shape  {values = dense<0> : tensor<3xindex>} : () -> !tosa.shape<3>
    %18 = tosa.const_shape  {values = dense<[0, 0, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %19 = tosa.const_shape  {values = dense<[0, 0, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %20 = tosa.const_shape  {values = dense<[4, 8, 2, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %21 = tosa.const_shape  {values = dense<8> : tensor<3xindex>} : () -> !tosa.shape<3>
    %22 = tosa.const_shape  {values = dense<[4, 2, 8, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %23 = tosa.const_shape  {values = dense<[1, 16, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %24 = tosa.const_shape  {values = dense<[1, 16]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %25 = tosa.const_shape  {values = dense<[1, 16, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %26 = tosa.const_shape  {values = dense<[32, 64]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %27 = tosa.const_shape  {values = dense<[1, 64]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %28 = tosa.const_shape  {values = dense<[4, 8, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %29 = tosa.const_shape  {values = dense<[1, 32, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %30 = tosa.const_shape  {values = dense<[1, 64, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %31 = tosa.const_shape  {values = dense<[1, 16, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %32 = tosa.const_shape  {values = dense<32> : tensor<2xindex>} : () -> !tosa.shape<2>
    %33 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
    %34 = "tosa.const"() <{values = dense<-3.40282347E+38> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
    %35 = "tosa.const"() <{values = dense<6.250000e-02> : tensor<1x1x1xf64>}> : () -> tensor<1x1x1xf64>
    %36 = "tosa.const"() <{values = dense<6.250000e-02> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
    %37 = "tosa.const"() <{values = dense<9.99999974E-6> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
    %38 = "tosa.const"() <{values = dense<0.353553385> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
    %39 = "tosa.const"() <{values = dense<5.000000e-01> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
    %40 = "tosa.const"() <{values = dense<3.000000e+00> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
    %41 = "tosa.const"() <{values = dense<4.471500e-02> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
    %42 = "tosa.const"() <{values = dense<0.797884583> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
    %43 = "tosa.const"() <{values = dense<1.000000e+00> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
    %44 = tosa.reshape %arg0, %0 : (tensor<32x16xf32>, !tosa.shape<3>) -> tensor<1x32x16xf32>
    %45 = tosa.reshape %arg28, %1 : (tensor<4x8xi64>, !tosa.shape<2>) -> tensor<1x32xi64>
    %46 = tosa.cast %45 : (tensor<1x32xi64>) -> tensor<1x32xi32>
    %47 = tosa.gather %44, %46 : (tensor<1x32x16xf32>, tensor<1x32xi32>) -> tensor<1x32x16xf32>
    %48 = tosa.reshape %47, %2 : (tensor<1x32x16xf32>, !tosa.shape<3>) -> tensor<4x8x16xf32>
    %49 = tosa.cast %3 : (tensor<8xi64>) -> tensor<8xi32>
    %50 = tosa.cast %49 : (tensor<8xi32>) -> tensor<8xi64>
    %51 = tosa.reshape %50, %5 : (tensor<8xi64>, !tosa.shape<2>) -> tensor<1x8xi64>
    %52 = tosa.reshape %arg1, %6 : (tensor<8x16xf32>, !tosa.shape<3>) -> tensor<1x8x16xf32>
    %53 = tosa.cast %51 : (tensor<1x8xi64>) -> tensor<1x8xi32>
    %54 = tosa.gather %52, %53 : (tensor<1x8x16xf32>, tensor<1x8xi32>) -> tensor<1x8x16xf32>
    %55 = tosa.add %48, %54 : (tensor<4x8x16xf32>, tensor<1x8x16xf32>) -> tensor<4x8x16xf32>
    %56 = tosa.reshape %50, %7 : (tensor<8xi64>, !tosa.shape<4>) -> tensor<1x1x8x1xi64>
    %57 = tosa.reshape %50, %8 : (tensor<8xi64>, !tosa.shape<4>) -> tensor<1x1x1x8xi64>
    %58 = tosa.greater_equal %56, %57 : (tensor<1x1x8x1xi64>, tensor<1x1x1x8xi64>) -> tensor<1x1x8x8xi1>
    %59 = tosa.tile %58, %9 : (tensor<1x1x8x8xi1>, !tosa.shape<4>) -> tensor<4x1x8x8xi1>
    %60 = tosa.select %59, %33, %34 : (tensor<4x1x8x8xi1>, tensor<1x1x1x1xf32>, tensor<1x1x1x1xf32>) -> tensor<4x1x8x8xf32>
    %61 = tosa.cast %55 : (tensor<4x8x16xf32>) -> tensor<4x8x16xf64>
    %62 = tosa.reduce_sum %61 {axis = 2 : i32} : (tensor<4x8x16xf64>) -> tensor<4x8x1xf64>
    %63 = tosa.mul %62, %35, %4 : (tensor<4x8x1xf64>, tensor<1x1x1xf64>, tensor<1xi8>) -> tensor<4x8x1xf64>
    %64 = tosa.sub %61, %63 : (tensor<4x8x16xf64>, tensor<4x8x1xf64>) -> tensor<4x8x16xf64>
    %65 = tosa.mul %64, %64, %4 : (tensor<4x8x16xf64>, tensor<4x8x16xf64>, tensor<1xi8>) -> tensor<4x8x16xf64>
    %66 = tosa.reduce_sum %65 {axis = 2 : i32} : (tensor<4x8x16xf64>) -> tensor<4x8x1xf64>
    %67 = tosa.mul %66, %35, %4 : (tensor<4x8x1xf64>, tensor<1x1x1xf64>, tensor<1xi8>) -> tensor<4x8x1xf64>
    %68 = tosa.cast %67 : (tensor<4x8x1xf64>) -> tensor<4x8x1xf32>
    %69 = tosa.reduce_sum %55 {axis = 2 : i32} : (tensor<4x8x16xf32>) -> tensor<4x8x1xf32>
    %70 = tosa.mul %69, %36, %4 : (tensor<4x8x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x1xf32>
    %71 = tosa.add %68, %37 : (tensor<4x8x1xf32>, tensor<1x1x1xf32>) -> tensor<4x8x1xf32>
    %72 = tosa.rsqrt %71 : (tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
    %73 = tosa.sub %55, %70 : (tensor<4x8x16xf32>, tensor<4x8x1xf32>) -> tensor<4x8x16xf32>
    %74 = tosa.mul %73, %72, %4 : (tensor<4x8x16xf32>, tensor<4x8x1xf32>, tensor<1xi8>) -> tensor<4x8x16xf32>
    %75 = tosa.reshape %arg2, %10 : (tensor<16xf32>, !tosa.shape<3>) -> tensor<1x1x16xf32>
    %76 = tosa.mul %74, %75, %4 : (tensor<4x8x16xf32>, tensor<1x1x16xf32>, tensor<1xi8>) -> tensor<4x8x16xf32>
    %77 = tosa.reshape %arg3, %10 : (tensor<16xf32>, !tosa.shape<3>) -> tensor<1x1x16xf32>
    %78 = tosa.add %76, %77 : (tensor<4x8x16xf32>, tensor<1x1x16xf32>) -> tensor<4x8x16xf32>
    %79 = tosa.reshape %78, %0 : (tensor<4x8x16xf32>, !tosa.shape<3>) -> tensor<1x32x16xf32>
    %80 = tosa.reshape %arg4, %13 : (tensor<16x48xf32>, !tosa.shape<3>) -> tensor<1x16x48xf32>
    %81 = tosa.matmul %79, %80, %12, %12 : (tensor<1x32x16xf32>, tensor<1x16x48xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x32x48xf32>
    %82 = tosa.reshape %81, %14 : (tensor<1x32x48xf32>, !tosa.shape<2>) -> tensor<32x48xf32>
    %83 = tosa.reshape %arg5, %15 : (tensor<48xf32>, !tosa.shape<2>) -> tensor<1x48xf32>
    %84 = tosa.add %82, %83 : (tensor<32x48xf32>, tensor<1x48xf32>) -> tensor<32x48xf32>
    %85 = tosa.reshape %84, %16 : (tensor<32x48xf32>, !tosa.shape<3>) -> tensor<4x8x48xf32>
    %86 = tosa.slice %85, %17, %2 : (tensor<4x8x48xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<4x8x16xf32>
    %87 = tosa.slice %85, %18, %2 : (tensor<4x8x48xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<4x8x16xf32>
    %88 = tosa.slice %85, %19, %2 : (tensor<4x8x48xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<4x8x16xf32>
    %89 = tosa.reshape %87, %20 : (tensor<4x8x16xf32>, !tosa.shape<4>) -> tensor<4x8x2x8xf32>
    %90 = tosa.reshape %88, %20 : (tensor<4x8x16xf32>, !tosa.shape<4>) -> tensor<4x8x2x8xf32>
    %91 = tosa.transpose %90 {perms = array<i32: 0, 2, 1, 3>} : (tensor<4x8x2x8xf32>) -> tensor<4x2x8x8xf32>
    %92 = tosa.reshape %86, %20 : (tensor<4x8x16xf32>, !tosa.shape<4>) -> tensor<4x8x2x8xf32>
    %93 = tosa.transpose %92 {perms = array<i32: 0, 2, 1, 3>} : (tensor<4x8x2x8xf32>) -> tensor<4x2x8x8xf32>
    %94 = tosa.transpose %89 {perms = array<i32: 0, 2, 3, 1>} : (tensor<4x8x2x8xf32>) -> tensor<4x2x8x8xf32>
    %95 = tosa.reshape %93, %21 : (tensor<4x2x8x8xf32>, !tosa.shape<3>) -> tensor<8x8x8xf32>
    %96 = tosa.reshape %94, %21 : (tensor<4x2x8x8xf32>, !tosa.shape<3>) -> tensor<8x8x8xf32>
    %97 = tosa.matmul %95, %96, %12, %12 : (tensor<8x8x8xf32>, tensor<8x8x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x8x8xf32>
    %98 = tosa.reshape %97, %22 : (tensor<8x8x8xf32>, !tosa.shape<4>) -> tensor<4x2x8x8xf32>
    %99 = tosa.mul %98, %38, %4 : (tensor<4x2x8x8xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<4x2x8x8xf32>
    %100 = tosa.add %99, %60 : (tensor<4x2x8x8xf32>, tensor<4x1x8x8xf32>) -> tensor<4x2x8x8xf32>
    %101 = tosa.reduce_max %100 {axis = 3 : i32} : (tensor<4x2x8x8xf32>) -> tensor<4x2x8x1xf32>
    %102 = tosa.sub %100, %101 : (tensor<4x2x8x8xf32>, tensor<4x2x8x1xf32>) -> tensor<4x2x8x8xf32>
    %103 = tosa.exp %102 : (tensor<4x2x8x8xf32>) -> tensor<4x2x8x8xf32>
    %104 = tosa.reduce_sum %103 {axis = 3 : i32} : (tensor<4x2x8x8xf32>) -> tensor<4x2x8x1xf32>
    %105 = tosa.reciprocal %104 : (tensor<4x2x8x1xf32>) -> tensor<4x2x8x1xf32>
    %106 = tosa.mul %103, %105, %4 : (tensor<4x2x8x8xf32>, tensor<4x2x8x1xf32>, tensor<1xi8>) -> tensor<4x2x8x8xf32>
    %107 = tosa.reshape %106, %21 : (tensor<4x2x8x8xf32>, !tosa.shape<3>) -> tensor<8x8x8xf32>
    %108 = tosa.reshape %91, %21 : (tensor<4x2x8x8xf32>, !tosa.shape<3>) -> tensor<8x8x8xf32>
    %109 = tosa.matmul %107, %108, %12, %12 : (tensor<8x8x8xf32>, tensor<8x8x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x8x8xf32>
    %110 = tosa.reshape %109, %22 : (tensor<8x8x8xf32>, !tosa.shape<4>) -> tensor<4x2x8x8xf32>
    %111 = tosa.transpose %110 {perms = array<i32: 0, 2, 1, 3>} : (tensor<4x2x8x8xf32>) -> tensor<4x8x2x8xf32>
    %112 = tosa.reshape %111, %0 : (tensor<4x8x2x8xf32>, !tosa.shape<3>) -> tensor<1x32x16xf32>
    %113 = tosa.reshape %arg6, %23 : (tensor<16x16xf32>, !tosa.shape<3>) -> tensor<1x16x16xf32>
    %114 = tosa.matmul %112, %113, %12, %12 : (tensor<1x32x16xf32>, tensor<1x16x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x32x16xf32>
    %115 = tosa.reshape %114, %11 : (tensor<1x32x16xf32>, !tosa.shape<2>) -> tensor<32x16xf32>
    %116 = tosa.reshape %arg7, %24 : (tensor<16xf32>, !tosa.shape<2>) -> tensor<1x16xf32>
    %117 = tosa.add %115, %116 : (tensor<32x16xf32>, tensor<1x16xf32>) -> tensor<32x16xf32>
    %118 = tosa.reshape %117, %2 : (tensor<32x16xf32>, !tosa.shape<3>) -> tensor<4x8x16xf32>
    %119 = tosa.add %118, %55 : (tensor<4x8x16xf32>, tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
    %120 = tosa.cast %119 : (tensor<4x8x16xf32>) -> tensor<4x8x16xf64>
    %121 = tosa.reduce_sum %120 {axis = 2 : i32} : (tensor<4x8x16xf64>) -> tensor<4x8x1xf64>
    %122 = tosa.mul %121, %35, %4 : (tensor<4x8x1xf64>, tensor<1x1x1xf64>, tensor<1xi8>) -> tensor<4x8x1xf64>
    %123 = tosa.sub %120, %122 : (tensor<4x8x16xf64>, tensor<4x8x1xf64>) -> tensor<4x8x16xf64>
    %124 = tosa.mul %123, %123, %4 : (tensor<4x8x16xf64>, tensor<4x8x16xf64>, tensor<1xi8>) -> tensor<4x8x16xf64>
    %125 = tosa.reduce_sum %124 {axis = 2 : i32} : (tensor<4x8x16xf64>) -> tensor<4x8x1xf64>
    %126 = tosa.mul %125, %35, %4 : (tensor<4x8x1xf64>, tensor<1x1x1xf64>, tensor<1xi8>) -> tensor<4x8x1xf64>
    %127 = tosa.cast %126 : (tensor<4x8x1xf64>) -> tensor<4x8x1xf32>
    %128 = tosa.reduce_sum %119 {axis = 2 : i32} : (tensor<4x8x16xf32>) -> tensor<4x8x1xf32>
    %129 = tosa.mul %128, %36, %4 : (tensor<4x8x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x1xf32>
    %130 = tosa.add %127, %37 : (tensor<4x8x1xf32>, tensor<1x1x1xf32>) -> tensor<4x8x1xf32>
    %131 = tosa.rsqrt %130 : (tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
    %132 = tosa.sub %119, %129 : (tensor<4x8x16xf32>, tensor<4x8x1xf32>) -> tensor<4x8x16xf32>
    %133 = tosa.mul %132, %131, %4 : (tensor<4x8x16xf32>, tensor<4x8x1xf32>, tensor<1xi8>) -> tensor<4x8x16xf32>
    %134 = tosa.reshape %arg8, %10 : (tensor<16xf32>, !tosa.shape<3>) -> tensor<1x1x16xf32>
    %135 = tosa.mul %133, %134, %4 : (tensor<4x8x16xf32>, tensor<1x1x16xf32>, tensor<1xi8>) -> tensor<4x8x16xf32>
    %136 = tosa.reshape %arg9, %10 : (tensor<16xf32>, !tosa.shape<3>) -> tensor<1x1x16xf32>
    %137 = tosa.add %135, %136 : (tensor<4x8x16xf32>, tensor<1x1x16xf32>) -> tensor<4x8x16xf32>
    %138 = tosa.reshape %137, %0 : (tensor<4x8x16xf32>, !tosa.shape<3>) -> tensor<1x32x16xf32>
    %139 = tosa.reshape %arg10, %25 : (tensor<16x64xf32>, !tosa.shape<3>) -> tensor<1x16x64xf32>
    %140 = tosa.matmul %138, %139, %12, %12 : (tensor<1x32x16xf32>, tensor<1x16x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x32x64xf32>
    %141 = tosa.reshape %140, %26 : (tensor<1x32x64xf32>, !tosa.shape<2>) -> tensor<32x64xf32>
    %142 = tosa.reshape %arg11, %27 : (tensor<64xf32>, !tosa.shape<2>) -> tensor<1x64xf32>
    %143 = tosa.add %141, %142 : (tensor<32x64xf32>, tensor<1x64xf32>) -> tensor<32x64xf32>
    %144 = tosa.reshape %143, %28 : (tensor<32x64xf32>, !tosa.shape<3>) -> tensor<4x8x64xf32>
    %145 = tosa.mul %144, %39, %4 : (tensor<4x8x64xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x64xf32>
    %146 = tosa.pow %144, %40 : (tensor<4x8x64xf32>, tensor<1x1x1xf32>) -> tensor<4x8x64xf32>
    %147 = tosa.mul %146, %41, %4 : (tensor<4x8x64xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x64xf32>
    %148 = tosa.add %144, %147 : (tensor<4x8x64xf32>, tensor<4x8x64xf32>) -> tensor<4x8x64xf32>
    %149 = tosa.mul %148, %42, %4 : (tensor<4x8x64xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x64xf32>
    %150 = tosa.tanh %149 : (tensor<4x8x64xf32>) -> tensor<4x8x64xf32>
    %151 = tosa.add %150, %43 : (tensor<4x8x64xf32>, tensor<1x1x1xf32>) -> tensor<4x8x64xf32>
    %152 = tosa.mul %145, %151, %4 : (tensor<4x8x64xf32>, tensor<4x8x64xf32>, tensor<1xi8>) -> tensor<4x8x64xf32>
    %153 = tosa.reshape %152, %29 : (tensor<4x8x64xf32>, !tosa.shape<3>) -> tensor<1x32x64xf32>
    %154 = tosa.reshape %arg12, %30 : (tensor<64x16xf32>, !tosa.shape<3>) -> tensor<1x64x16xf32>
    %155 = tosa.matmul %153, %154, %12, %12 : (tensor<1x32x64xf32>, tensor<1x64x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x32x16xf32>
    %156 = tosa.reshape %155, %11 : (tensor<1x32x16xf32>, !tosa.shape<2>) -> tensor<32x16xf32>
    %157 = tosa.reshape %arg13, %24 : (tensor<16xf32>, !tosa.shape<2>) -> tensor<1x16xf32>
    %158 = tosa.add %156, %157 : (tensor<32x16xf32>, tensor<1x16xf32>) -> tensor<32x16xf32>
    %159 = tosa.reshape %158, %2 : (tensor<32x16xf32>, !tosa.shape<3>) -> tensor<4x8x16xf32>
    %160 = tosa.add %119, %159 : (tensor<4x8x16xf32>, tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
    %161 = tosa.cast %160 : (tensor<4x8x16xf32>) -> tensor<4x8x16xf64>
    %162 = tosa.reduce_sum %161 {axis = 2 : i32} : (tensor<4x8x16xf64>) -> tensor<4x8x1xf64>
    %163 = tosa.mul %162, %35, %4 : (tensor<4x8x1xf64>, tensor<1x1x1xf64>, tensor<1xi8>) -> tensor<4x8x1xf64>
    %164 = tosa.sub %161, %163 : (tensor<4x8x16xf64>, tensor<4x8x1xf64>) -> tensor<4x8x16xf64>
    %165 = tosa.mul %164, %164, %4 : (tensor<4x8x16xf64>, tensor<4x8x16xf64>, tensor<1xi8>) -> tensor<4x8x16xf64>
    %166 = tosa.reduce_sum %165 {axis = 2 : i32} : (tensor<4x8x16xf64>) -> tensor<4x8x1xf64>
    %167 = tosa.mul %166, %35, %4 : (tensor<4x8x1xf64>, tensor<1x1x1xf64>, tensor<1xi8>) -> tensor<4x8x1xf64>
    %168 = tosa.cast %167 : (tensor<4x8x1xf64>) -> tensor<4x8x1xf32>
    %169 = tosa.reduce_sum %160 {axis = 2 : i32} : (tensor<4x8x16xf32>) -> tensor<4x8x1xf32>
    %170 = tosa.mul %169, %36, %4 : (tensor<4x8x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x1xf32>
    %171 = tosa.add %168, %37 : (tensor<4x8x1xf32>, tensor<1x1x1xf32>) -> tensor<4x8x1xf32>
    %172 = tosa.rsqrt %171 : (tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
    %173 = tosa.sub %160, %170 : (tensor<4x8x16xf32>, tensor<4x8x1xf32>) -> tensor<4x8x16xf32>
    %174 = tosa.mul %173, %172, %4 : (tensor<4x8x16xf32>, tensor<4x8x1xf32>, tensor<1xi8>) -> tensor<4x8x16xf32>
    %175 = tosa.reshape %arg14, %10 : (tensor<16xf32>, !tosa.shape<3>) -> tensor<1x1x16xf32>
    %176 = tosa.mul %174, %175, %4 : (tensor<4x8x16xf32>, tensor<1x1x16xf32>, tensor<1xi8>) -> tensor<4x8x16xf32>
    %177 = tosa.reshape %arg15, %10 : (tensor<16xf32>, !tosa.shape<3>) -> tensor<1x1x16xf32>
    %178 = tosa.add %176, %177 : (tensor<4x8x16xf32>, tensor<1x1x16xf32>) -> tensor<4x8x16xf32>
    %179 = tosa.reshape %178, %0 : (tensor<4x8x16xf32>, !tosa.shape<3>) -> tensor<1x32x16xf32>
    %180 = tosa.reshape %arg16, %13 : (tensor<16x48xf32>, !tosa.shape<3>) -> tensor<1x16x48xf32>
    %181 = tosa.matmul %179, %180, %12, %12 : (tensor<1x32x16xf32>, tensor<1x16x48xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x32x48xf32>
    %182 = tosa.reshape %181, %14 : (tensor<1x32x48xf32>, !tosa.shape<2>) -> tensor<32x48xf32>
    %183 = tosa.reshape %arg17, %15 : (tensor<48xf32>, !tosa.shape<2>) -> tensor<1x48xf32>
    %184 = tosa.add %182, %183 : (tensor<32x48xf32>, tensor<1x48xf32>) -> tensor<32x48xf32>
    %185 = tosa.reshape %184, %16 : (tensor<32x48xf32>, !tosa.shape<3>) -> tensor<4x8x48xf32>
    %186 = tosa.slice %185, %17, %2 : (tensor<4x8x48xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<4x8x16xf32>
    %187 = tosa.slice %185, %18, %2 : (tensor<4x8x48xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<4x8x16xf32>
    %188 = tosa.slice %185, %19, %2 : (tensor<4x8x48xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<4x8x16xf32>
    %189 = tosa.reshape %187, %20 : (tensor<4x8x16xf32>, !tosa.shape<4>) -> tensor<4x8x2x8xf32>
    %190 = tosa.reshape %188, %20 : (tensor<4x8x16xf32>, !tosa.shape<4>) -> tensor<4x8x2x8xf32>
    %191 = tosa.transpose %190 {perms = array<i32: 0, 2, 1, 3>} : (tensor<4x8x2x8xf32>) -> tensor<4x2x8x8xf32>
    %192 = tosa.reshape %186, %20 : (tensor<4x8x16xf32>, !tosa.shape<4>) -> tensor<4x8x2x8xf32>
    %193 = tosa.transpose %192 {perms = array<i32: 0, 2, 1, 3>} : (tensor<4x8x2x8xf32>) -> tensor<4x2x8x8xf32>
    %194 = tosa.transpose %189 {perms = array<i32: 0, 2, 3, 1>} : (tensor<4x8x2x8xf32>) -> tensor<4x2x8x8xf32>
    %195 = tosa.reshape %193, %21 : (tensor<4x2x8x8xf32>, !tosa.shape<3>) -> tensor<8x8x8xf32>
    %196 = tosa.reshape %194, %21 : (tensor<4x2x8x8xf32>, !tosa.shape<3>) -> tensor<8x8x8xf32>
    %197 = tosa.matmul %195, %196, %12, %12 : (tensor<8x8x8xf32>, tensor<8x8x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x8x8xf32>
    %198 = tosa.reshape %197, %22 : (tensor<8x8x8xf32>, !tosa.shape<4>) -> tensor<4x2x8x8xf32>
    %199 = tosa.mul %198, %38, %4 : (tensor<4x2x8x8xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<4x2x8x8xf32>
    %200 = tosa.add %199, %60 : (tensor<4x2x8x8xf32>, tensor<4x1x8x8xf32>) -> tensor<4x2x8x8xf32>
    %201 = tosa.reduce_max %200 {axis = 3 : i32} : (tensor<4x2x8x8xf32>) -> tensor<4x2x8x1xf32>
    %202 = tosa.sub %200, %201 : (tensor<4x2x8x8xf32>, tensor<4x2x8x1xf32>) -> tensor<4x2x8x8xf32>
    %203 = tosa.exp %202 : (tensor<4x2x8x8xf32>) -> tensor<4x2x8x8xf32>
    %204 = tosa.reduce_sum %203 {axis = 3 : i32} : (tensor<4x2x8x8xf32>) -> tensor<4x2x8x1xf32>
    %205 = tosa.reciprocal %204 : (tensor<4x2x8x1xf32>) -> tensor<4x2x8x1xf32>
    %206 = tosa.mul %203, %205, %4 : (tensor<4x2x8x8xf32>, tensor<4x2x8x1xf32>, tensor<1xi8>) -> tensor<4x2x8x8xf32>
    %207 = tosa.reshape %206, %21 : (tensor<4x2x8x8xf32>, !tosa.shape<3>) -> tensor<8x8x8xf32>
    %208 = tosa.reshape %191, %21 : (tensor<4x2x8x8xf32>, !tosa.shape<3>) -> tensor<8x8x8xf32>
    %209 = tosa.matmul %207, %208, %12, %12 : (tensor<8x8x8xf32>, tensor<8x8x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x8x8xf32>
    %210 = tosa.reshape %209, %22 : (tensor<8x8x8xf32>, !tosa.shape<4>) -> tensor<4x2x8x8xf32>
    %211 = tosa.transpose %210 {perms = array<i32: 0, 2, 1, 3>} : (tensor<4x2x8x8xf32>) -> tensor<4x8x2x8xf32>
    %212 = tosa.reshape %211, %0 : (tensor<4x8x2x8xf32>, !tosa.shape<3>) -> tensor<1x32x16xf32>
    %213 = tosa.reshape %arg18, %23 : (tensor<16x16xf32>, !tosa.shape<3>) -> tensor<1x16x16xf32>
    %214 = tosa.matmul %212, %213, %12, %12 : (tensor<1x32x16xf32>, tensor<1x16x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x32x16xf32>
    %215 = tosa.reshape %214, %11 : (tensor<1x32x16xf32>, !tosa.shape<2>) -> tensor<32x16xf32>
    %216 = tosa.reshape %arg19, %24 : (tensor<16xf32>, !tosa.shape<2>) -> tensor<1x16xf32>
    %217 = tosa.add %215, %216 : (tensor<32x16xf32>, tensor<1x16xf32>) -> tensor<32x16xf32>
    %218 = tosa.reshape %217, %2 : (tensor<32x16xf32>, !tosa.shape<3>) -> tensor<4x8x16xf32>
    %219 = tosa.add %218, %160 : (tensor<4x8x16xf32>, tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
    %220 = tosa.cast %219 : (tensor<4x8x16xf32>) -> tensor<4x8x16xf64>
    %221 = tosa.reduce_sum %220 {axis = 2 : i32} : (tensor<4x8x16xf64>) -> tensor<4x8x1xf64>
    %222 = tosa.mul %221, %35, %4 : (tensor<4x8x1xf64>, tensor<1x1x1xf64>, tensor<1xi8>) -> tensor<4x8x1xf64>
    %223 = tosa.sub %220, %222 : (tensor<4x8x16xf64>, tensor<4x8x1xf64>) -> tensor<4x8x16xf64>
    %224 = tosa.mul %223, %223, %4 : (tensor<4x8x16xf64>, tensor<4x8x16xf64>, tensor<1xi8>) -> tensor<4x8x16xf64>
    %225 = tosa.reduce_sum %224 {axis = 2 : i32} : (tensor<4x8x16xf64>) -> tensor<4x8x1xf64>
    %226 = tosa.mul %225, %35, %4 : (tensor<4x8x1xf64>, tensor<1x1x1xf64>, tensor<1xi8>) -> tensor<4x8x1xf64>
    %227 = tosa.cast %226 : (tensor<4x8x1xf64>) -> tensor<4x8x1xf32>
    %228 = tosa.reduce_sum %219 {axis = 2 : i32} : (tensor<4x8x16xf32>) -> tensor<4x8x1xf32>
    %229 = tosa.mul %228, %36, %4 : (tensor<4x8x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x1xf32>
    %230 = tosa.add %227, %37 : (tensor<4x8x1xf32>, tensor<1x1x1xf32>) -> tensor<4x8x1xf32>
    %231 = tosa.rsqrt %230 : (tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
    %232 = tosa.sub %219, %229 : (tensor<4x8x16xf32>, tensor<4x8x1xf32>) -> tensor<4x8x16xf32>
    %233 = tosa.mul %232, %231, %4 : (tensor<4x8x16xf32>, tensor<4x8x1xf32>, tensor<1xi8>) -> tensor<4x8x16xf32>
    %234 = tosa.reshape %arg20, %10 : (tensor<16xf32>, !tosa.shape<3>) -> tensor<1x1x16xf32>
    %235 = tosa.mul %233, %234, %4 : (tensor<4x8x16xf32>, tensor<1x1x16xf32>, tensor<1xi8>) -> tensor<4x8x16xf32>
    %236 = tosa.reshape %arg21, %10 : (tensor<16xf32>, !tosa.shape<3>) -> tensor<1x1x16xf32>
    %237 = tosa.add %235, %236 : (tensor<4x8x16xf32>, tensor<1x1x16xf32>) -> tensor<4x8x16xf32>
    %238 = tosa.reshape %237, %0 : (tensor<4x8x16xf32>, !tosa.shape<3>) -> tensor<1x32x16xf32>
    %239 = tosa.reshape %arg22, %25 : (tensor<16x64xf32>, !tosa.shape<3>) -> tensor<1x16x64xf32>
    %240 = tosa.matmul %238, %239, %12, %12 : (tensor<1x32x16xf32>, tensor<1x16x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x32x64xf32>
    %241 = tosa.reshape %240, %26 : (tensor<1x32x64xf32>, !tosa.shape<2>) -> tensor<32x64xf32>
    %242 = tosa.reshape %arg23, %27 : (tensor<64xf32>, !tosa.shape<2>) -> tensor<1x64xf32>
    %243 = tosa.add %241, %242 : (tensor<32x64xf32>, tensor<1x64xf32>) -> tensor<32x64xf32>
    %244 = tosa.reshape %243, %28 : (tensor<32x64xf32>, !tosa.shape<3>) -> tensor<4x8x64xf32>
    %245 = tosa.mul %244, %39, %4 : (tensor<4x8x64xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x64xf32>
    %246 = tosa.pow %244, %40 : (tensor<4x8x64xf32>, tensor<1x1x1xf32>) -> tensor<4x8x64xf32>
    %247 = tosa.mul %246, %41, %4 : (tensor<4x8x64xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x64xf32>
    %248 = tosa.add %244, %247 : (tensor<4x8x64xf32>, tensor<4x8x64xf32>) -> tensor<4x8x64xf32>
    %249 = tosa.mul %248, %42, %4 : (tensor<4x8x64xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x64xf32>
    %250 = tosa.tanh %249 : (tensor<4x8x64xf32>) -> tensor<4x8x64xf32>
    %251 = tosa.add %250, %43 : (tensor<4x8x64xf32>, tensor<1x1x1xf32>) -> tensor<4x8x64xf32>
    %252 = tosa.mul %245, %251, %4 : (tensor<4x8x64xf32>, tensor<4x8x64xf32>, tensor<1xi8>) -> tensor<4x8x64xf32>
    %253 = tosa.reshape %252, %29 : (tensor<4x8x64xf32>, !tosa.shape<3>) -> tensor<1x32x64xf32>
    %254 = tosa.reshape %arg24, %30 : (tensor<64x16xf32>, !tosa.shape<3>) -> tensor<1x64x16xf32>
    %255 = tosa.matmul %253, %254, %12, %12 : (tensor<1x32x64xf32>, tensor<1x64x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x32x16xf32>
    %256 = tosa.reshape %255, %11 : (tensor<1x32x16xf32>, !tosa.shape<2>) -> tensor<32x16xf32>
    %257 = tosa.reshape %arg25, %24 : (tensor<16xf32>, !tosa.shape<2>) -> tensor<1x16xf32>
    %258 = tosa.add %256, %257 : (tensor<32x16xf32>, tensor<1x16xf32>) -> tensor<32x16xf32>
    %259 = tosa.reshape %258, %2 : (tensor<32x16xf32>, !tosa.shape<3>) -> tensor<4x8x16xf32>
    %260 = tosa.add %219, %259 : (tensor<4x8x16xf32>, tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
    %261 = tosa.cast %260 : (tensor<4x8x16xf32>) -> tensor<4x8x16xf64>
    %262 = tosa.reduce_sum %261 {axis = 2 : i32} : (tensor<4x8x16xf64>) -> tensor<4x8x1xf64>
    %263 = tosa.mul %262, %35, %4 : (tensor<4x8x1xf64>, tensor<1x1x1xf64>, tensor<1xi8>) -> tensor<4x8x1xf64>
    %264 = tosa.sub %261, %263 : (tensor<4x8x16xf64>, tensor<4x8x1xf64>) -> tensor<4x8x16xf64>
    %265 = tosa.mul %264, %264, %4 : (tensor<4x8x16xf64>, tensor<4x8x16xf64>, tensor<1xi8>) -> tensor<4x8x16xf64>
    %266 = tosa.reduce_sum %265 {axis = 2 : i32} : (tensor<4x8x16xf64>) -> tensor<4x8x1xf64>
    %267 = tosa.mul %266, %35, %4 : (tensor<4x8x1xf64>, tensor<1x1x1xf64>, tensor<1xi8>) -> tensor<4x8x1xf64>
    %268 = tosa.cast %267 : (tensor<4x8x1xf64>) -> tensor<4x8x1xf32>
    %269 = tosa.reduce_sum %260 {axis = 2 : i32} : (tensor<4x8x16xf32>) -> tensor<4x8x1xf32>
    %270 = tosa.mul %269, %36, %4 : (tensor<4x8x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x1xf32>
    %271 = tosa.add %268, %37 : (tensor<4x8x1xf32>, tensor<1x1x1xf32>) -> tensor<4x8x1xf32>
    %272 = tosa.rsqrt %271 : (tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
    %273 = tosa.sub %260, %270 : (tensor<4x8x16xf32>, tensor<4x8x1xf32>) -> tensor<4x8x16xf32>
    %274 = tosa.mul %273, %272, %4 : (tensor<4x8x16xf32>, tensor<4x8x1xf32>, tensor<1xi8>) -> tensor<4x8x16xf32>
    %275 = tosa.reshape %arg26, %10 : (tensor<16xf32>, !tosa.shape<3>) -> tensor<1x1x16xf32>
    %276 = tosa.mul %274, %275, %4 : (tensor<4x8x16xf32>, tensor<1x1x16xf32>, tensor<1xi8>) -> tensor<4x8x16xf32>
    %277 = tosa.reshape %arg27, %10 : (tensor<16xf32>, !tosa.shape<3>) -> tensor<1x1x16xf32>
    %278 = tosa.add %276, %277 : (tensor<4x8x16xf32>, tensor<1x1x16xf32>) -> tensor<4x8x16xf32>
    %279 = tosa.transpose %arg0 {perms = array<i32: 1, 0>} : (tensor<32x16xf32>) -> tensor<16x32xf32>
    %280 = tosa.reshape %278, %0 : (tensor<4x8x16xf32>, !tosa.shape<3>) -> tensor<1x32x16xf32>
    %281 = tosa.reshape %279, %31 : (tensor<16x32xf32>, !tosa.shape<3>) -> tensor<1x16x32xf32>
    %282 = tosa.matmul %280, %281, %12, %12 : (tensor<1x32x16xf32>, tensor<1x16x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x32x32xf32>
    %283 = tosa.reshape %282, %32 : (tensor<1x32x32xf32>, !tosa.shape<2>) -> tensor<32x32xf32>
    return %283 : tensor<32x32xf32>
  }
}
