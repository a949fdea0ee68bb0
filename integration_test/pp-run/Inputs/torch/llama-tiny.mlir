// Exported from PyTorch by python/pp-import-torch (docs/Frontends.md):
//   pp-import-torch integration_test/pp-run/Inputs/torch/models.py:llama --input 2x8:i64 --target 16:i32 --weights-dir none -o integration_test/pp-run/Inputs/torch/llama-tiny.mlir
// torch 2.15.0, torch-mlir 20261001, output type tosa.
// Arguments: 21 parameters (pp.parameter, pp.name = the PyTorch name), then 1 data (pp.data).
//   0: model.model.embed_tokens.weight 64x32
//   1: model.model.layers.0.self_attn.q_proj.weight 32x32
//   2: model.model.layers.0.self_attn.k_proj.weight 16x32
//   3: model.model.layers.0.self_attn.v_proj.weight 16x32
//   4: model.model.layers.0.self_attn.o_proj.weight 32x32
//   5: model.model.layers.0.mlp.gate_proj.weight 64x32
//   6: model.model.layers.0.mlp.up_proj.weight 64x32
//   7: model.model.layers.0.mlp.down_proj.weight 32x64
//   8: model.model.layers.0.input_layernorm.weight 32
//   9: model.model.layers.0.post_attention_layernorm.weight 32
//   10: model.model.layers.1.self_attn.q_proj.weight 32x32
//   11: model.model.layers.1.self_attn.k_proj.weight 16x32
//   12: model.model.layers.1.self_attn.v_proj.weight 16x32
//   13: model.model.layers.1.self_attn.o_proj.weight 32x32
//   14: model.model.layers.1.mlp.gate_proj.weight 64x32
//   15: model.model.layers.1.mlp.up_proj.weight 64x32
//   16: model.model.layers.1.mlp.down_proj.weight 32x64
//   17: model.model.layers.1.input_layernorm.weight 32
//   18: model.model.layers.1.post_attention_layernorm.weight 32
//   19: model.model.norm.weight 32
//   20: model.lm_head.weight 64x32
module {
  func.func @llama_tiny(%arg0: tensor<64x32xf32> {pp.name = "model.model.embed_tokens.weight", pp.parameter}, %arg1: tensor<32x32xf32> {pp.name = "model.model.layers.0.self_attn.q_proj.weight", pp.parameter}, %arg2: tensor<16x32xf32> {pp.name = "model.model.layers.0.self_attn.k_proj.weight", pp.parameter}, %arg3: tensor<16x32xf32> {pp.name = "model.model.layers.0.self_attn.v_proj.weight", pp.parameter}, %arg4: tensor<32x32xf32> {pp.name = "model.model.layers.0.self_attn.o_proj.weight", pp.parameter}, %arg5: tensor<64x32xf32> {pp.name = "model.model.layers.0.mlp.gate_proj.weight", pp.parameter}, %arg6: tensor<64x32xf32> {pp.name = "model.model.layers.0.mlp.up_proj.weight", pp.parameter}, %arg7: tensor<32x64xf32> {pp.name = "model.model.layers.0.mlp.down_proj.weight", pp.parameter}, %arg8: tensor<32xf32> {pp.name = "model.model.layers.0.input_layernorm.weight", pp.parameter}, %arg9: tensor<32xf32> {pp.name = "model.model.layers.0.post_attention_layernorm.weight", pp.parameter}, %arg10: tensor<32x32xf32> {pp.name = "model.model.layers.1.self_attn.q_proj.weight", pp.parameter}, %arg11: tensor<16x32xf32> {pp.name = "model.model.layers.1.self_attn.k_proj.weight", pp.parameter}, %arg12: tensor<16x32xf32> {pp.name = "model.model.layers.1.self_attn.v_proj.weight", pp.parameter}, %arg13: tensor<32x32xf32> {pp.name = "model.model.layers.1.self_attn.o_proj.weight", pp.parameter}, %arg14: tensor<64x32xf32> {pp.name = "model.model.layers.1.mlp.gate_proj.weight", pp.parameter}, %arg15: tensor<64x32xf32> {pp.name = "model.model.layers.1.mlp.up_proj.weight", pp.parameter}, %arg16: tensor<32x64xf32> {pp.name = "model.model.layers.1.mlp.down_proj.weight", pp.parameter}, %arg17: tensor<32xf32> {pp.name = "model.model.layers.1.input_layernorm.weight", pp.parameter}, %arg18: tensor<32xf32> {pp.name = "model.model.layers.1.post_attention_layernorm.weight", pp.parameter}, %arg19: tensor<32xf32> {pp.name = "model.model.norm.weight", pp.parameter}, %arg20: tensor<64x32xf32> {pp.name = "model.lm_head.weight", pp.parameter}, %arg21: tensor<2x8xi64> {pp.data}) -> tensor<16x64xf32> {
    %0 = "tosa.const"() <{values = dense<[[8, 1]]> : tensor<1x2xi32>}> : () -> tensor<1x2xi32>
    %1 = tosa.const_shape  {values = dense<[1, 64, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %2 = tosa.const_shape  {values = dense<[1, 16]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %3 = tosa.const_shape  {values = dense<[2, 8, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %4 = "tosa.const"() <{values = dense<[0, 1, 2, 3, 4, 5, 6, 7]> : tensor<8xi64>}> : () -> tensor<8xi64>
    %5 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %6 = tosa.const_shape  {values = dense<[1, 8]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %7 = tosa.const_shape  {values = dense<[2, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %8 = tosa.const_shape  {values = dense<0> : tensor<2xindex>} : () -> !tosa.shape<2>
    %9 = tosa.const_shape  {values = dense<[2, 8]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %10 = tosa.const_shape  {values = dense<[2, 8, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %11 = "tosa.const"() <{values = dense<0> : tensor<1xi64>}> : () -> tensor<1xi64>
    %12 = tosa.const_shape  {values = dense<0> : tensor<3xindex>} : () -> !tosa.shape<3>
    %13 = tosa.const_shape  {values = dense<[0, 0, 1, 0, 0, 0]> : tensor<6xindex>} : () -> !tosa.shape<6>
    %14 = tosa.const_shape  {values = dense<[0, 0, 2, 0, 0, 0]> : tensor<6xindex>} : () -> !tosa.shape<6>
    %15 = tosa.const_shape  {values = dense<[0, 0, 4, 0, 0, 0]> : tensor<6xindex>} : () -> !tosa.shape<6>
    %16 = tosa.const_shape  {values = dense<[1, 1, 8, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %17 = tosa.const_shape  {values = dense<[1, 1, 1, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %18 = tosa.const_shape  {values = dense<[2, 1, 1, 1, 1]> : tensor<5xindex>} : () -> !tosa.shape<5>
    %19 = tosa.const_shape  {values = dense<[1, 1, 8, 1, 1]> : tensor<5xindex>} : () -> !tosa.shape<5>
    %20 = tosa.const_shape  {values = dense<[1, 16, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %21 = tosa.const_shape  {values = dense<[16, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %22 = tosa.const_shape  {values = dense<[2, 1, 8, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %23 = tosa.const_shape  {values = dense<[1, 1, 1, 8, 1]> : tensor<5xindex>} : () -> !tosa.shape<5>
    %24 = tosa.const_shape  {values = dense<[2, 1, 1, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %25 = tosa.const_shape  {values = dense<[1, 8, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %26 = tosa.const_shape  {values = dense<[1, 1, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %27 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %28 = tosa.const_shape  {values = dense<[1, 16, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %29 = tosa.const_shape  {values = dense<[1, 32, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %30 = tosa.const_shape  {values = dense<[2, 8, 4, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %31 = tosa.const_shape  {values = dense<[1, 32, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %32 = tosa.const_shape  {values = dense<[2, 8, 2, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %33 = tosa.const_shape  {values = dense<[1, 1, 8, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %34 = tosa.const_shape  {values = dense<[2, 4, 8, 4]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %35 = tosa.const_shape  {values = dense<0> : tensor<4xindex>} : () -> !tosa.shape<4>
    %36 = tosa.const_shape  {values = dense<[0, 0, 0, 4]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %37 = tosa.const_shape  {values = dense<[2, 2, 8, 4]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %38 = tosa.const_shape  {values = dense<[2, 2, 1, 8, 8]> : tensor<5xindex>} : () -> !tosa.shape<5>
    %39 = tosa.const_shape  {values = dense<[1, 1, 2, 1, 1]> : tensor<5xindex>} : () -> !tosa.shape<5>
    %40 = tosa.const_shape  {values = dense<[2, 4, 8, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %41 = tosa.const_shape  {values = dense<8> : tensor<3xindex>} : () -> !tosa.shape<3>
    %42 = tosa.const_shape  {values = dense<[1, 32, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %43 = tosa.const_shape  {values = dense<[16, 64]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %44 = tosa.const_shape  {values = dense<[2, 8, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %45 = tosa.const_shape  {values = dense<[1, 16, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %46 = "tosa.const"() <{values = dense<1> : tensor<1x1xi32>}> : () -> tensor<1x1xi32>
    %47 = "tosa.const"() <{values = dense<1> : tensor<1x1xi64>}> : () -> tensor<1x1xi64>
    %48 = "tosa.const"() <{values = dense<0> : tensor<1x1x1x1xi32>}> : () -> tensor<1x1x1x1xi32>
    %49 = "tosa.const"() <{values = dense<2> : tensor<1x1x1x1xi32>}> : () -> tensor<1x1x1x1xi32>
    %50 = "tosa.const"() <{values = dense<8> : tensor<1x1x1x1xi32>}> : () -> tensor<1x1x1x1xi32>
    %51 = "tosa.const"() <{values = dense<true> : tensor<1x1x1x1xi1>}> : () -> tensor<1x1x1x1xi1>
    %52 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
    %53 = "tosa.const"() <{values = dense<-3.40282347E+38> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
    %54 = "tosa.const"() <{values = dense_resource<torch_tensor_4_torch.float32> : tensor<1x1x4xf32>}> : () -> tensor<1x1x4xf32>
    %55 = "tosa.const"() <{values = dense<2.000000e+00> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
    %56 = "tosa.const"() <{values = dense<3.125000e-02> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
    %57 = "tosa.const"() <{values = dense<9.99999997E-7> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
    %58 = "tosa.const"() <{values = dense<0.353553385> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
    %cst = arith.constant dense<[[[[0]]], [[[1]]]]> : tensor<2x1x1x1xi64>
    %59 = tosa.reshape %arg0, %1 : (tensor<64x32xf32>, !tosa.shape<3>) -> tensor<1x64x32xf32>
    %60 = tosa.reshape %arg21, %2 : (tensor<2x8xi64>, !tosa.shape<2>) -> tensor<1x16xi64>
    %61 = tosa.cast %60 : (tensor<1x16xi64>) -> tensor<1x16xi32>
    %62 = tosa.gather %59, %61 : (tensor<1x64x32xf32>, tensor<1x16xi32>) -> tensor<1x16x32xf32>
    %63 = tosa.reshape %62, %3 : (tensor<1x16x32xf32>, !tosa.shape<3>) -> tensor<2x8x32xf32>
    %64 = tosa.cast %4 : (tensor<8xi64>) -> tensor<8xi32>
    %65 = tosa.cast %64 : (tensor<8xi32>) -> tensor<8xi64>
    %66 = tosa.reshape %65, %6 : (tensor<8xi64>, !tosa.shape<2>) -> tensor<1x8xi64>
    %67 = tosa.tile %66, %7 : (tensor<1x8xi64>, !tosa.shape<2>) -> tensor<2x8xi64>
    %68 = tosa.slice %67, %8, %7 : (tensor<2x8xi64>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<2x1xi64>
    %69 = tosa.cast %68 : (tensor<2x1xi64>) -> tensor<2x1xi32>
    %70 = tosa.sub %69, %46 : (tensor<2x1xi32>, tensor<1x1xi32>) -> tensor<2x1xi32>
    %71 = tosa.cast %70 : (tensor<2x1xi32>) -> tensor<2x1xi64>
    %72 = tosa.concat %71, %67 {axis = 1 : i32} : (tensor<2x1xi64>, tensor<2x8xi64>) -> tensor<2x9xi64>
    %73 = tosa.slice %72, %8, %9 : (tensor<2x9xi64>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<2x8xi64>
    %74 = tosa.cast %73 : (tensor<2x8xi64>) -> tensor<2x8xi32>
    %75 = tosa.cast %67 : (tensor<2x8xi64>) -> tensor<2x8xi32>
    %76 = tosa.sub %75, %74 : (tensor<2x8xi32>, tensor<2x8xi32>) -> tensor<2x8xi32>
    %77 = tosa.cast %76 : (tensor<2x8xi32>) -> tensor<2x8xi64>
    %78 = tosa.equal %77, %47 : (tensor<2x8xi64>, tensor<1x1xi64>) -> tensor<2x8xi1>
    %79 = tosa.logical_not %78 : (tensor<2x8xi1>) -> tensor<2x8xi1>
    %80 = tosa.cast %79 : (tensor<2x8xi1>) -> tensor<2x8xi64>
    %81 = tosa.reshape %80, %10 : (tensor<2x8xi64>, !tosa.shape<3>) -> tensor<2x8x1xi64>
    %82 = tosa.pad %81, %13, %11 : (tensor<2x8x1xi64>, !tosa.shape<6>, tensor<1xi64>) -> tensor<2x9x1xi64>
    %83 = tosa.slice %82, %12, %10 : (tensor<2x9x1xi64>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<2x8x1xi64>
    %84 = tosa.add %81, %83 : (tensor<2x8x1xi64>, tensor<2x8x1xi64>) -> tensor<2x8x1xi64>
    %85 = tosa.pad %84, %14, %11 : (tensor<2x8x1xi64>, !tosa.shape<6>, tensor<1xi64>) -> tensor<2x10x1xi64>
    %86 = tosa.slice %85, %12, %10 : (tensor<2x10x1xi64>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<2x8x1xi64>
    %87 = tosa.add %84, %86 : (tensor<2x8x1xi64>, tensor<2x8x1xi64>) -> tensor<2x8x1xi64>
    %88 = tosa.pad %87, %15, %11 : (tensor<2x8x1xi64>, !tosa.shape<6>, tensor<1xi64>) -> tensor<2x12x1xi64>
    %89 = tosa.slice %88, %12, %10 : (tensor<2x12x1xi64>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<2x8x1xi64>
    %90 = tosa.add %87, %89 : (tensor<2x8x1xi64>, tensor<2x8x1xi64>) -> tensor<2x8x1xi64>
    %91 = tosa.reshape %65, %16 : (tensor<8xi64>, !tosa.shape<4>) -> tensor<1x1x8x1xi64>
    %92 = tosa.reshape %65, %17 : (tensor<8xi64>, !tosa.shape<4>) -> tensor<1x1x1x8xi64>
    %93 = tosa.cast %cst : (tensor<2x1x1x1xi64>) -> tensor<2x1x1x1xi32>
    %94 = tosa.add %93, %49 : (tensor<2x1x1x1xi32>, tensor<1x1x1x1xi32>) -> tensor<2x1x1x1xi32>
    %95 = tosa.greater %48, %93 : (tensor<1x1x1x1xi32>, tensor<2x1x1x1xi32>) -> tensor<2x1x1x1xi1>
    %96 = tosa.select %95, %94, %93 : (tensor<2x1x1x1xi1>, tensor<2x1x1x1xi32>, tensor<2x1x1x1xi32>) -> tensor<2x1x1x1xi32>
    %97 = tosa.reshape %96, %18 : (tensor<2x1x1x1xi32>, !tosa.shape<5>) -> tensor<2x1x1x1x1xi32>
    %98 = tosa.cast %91 : (tensor<1x1x8x1xi64>) -> tensor<1x1x8x1xi32>
    %99 = tosa.add %98, %50 : (tensor<1x1x8x1xi32>, tensor<1x1x1x1xi32>) -> tensor<1x1x8x1xi32>
    %100 = tosa.greater %48, %98 : (tensor<1x1x1x1xi32>, tensor<1x1x8x1xi32>) -> tensor<1x1x8x1xi1>
    %101 = tosa.select %100, %99, %98 : (tensor<1x1x8x1xi1>, tensor<1x1x8x1xi32>, tensor<1x1x8x1xi32>) -> tensor<1x1x8x1xi32>
    %102 = tosa.reshape %101, %19 : (tensor<1x1x8x1xi32>, !tosa.shape<5>) -> tensor<1x1x8x1x1xi32>
    %103 = tosa.tile %97, %19 : (tensor<2x1x1x1x1xi32>, !tosa.shape<5>) -> tensor<2x1x8x1x1xi32>
    %104 = tosa.tile %102, %18 : (tensor<1x1x8x1x1xi32>, !tosa.shape<5>) -> tensor<2x1x8x1x1xi32>
    %105 = tosa.concat %103, %104 {axis = 4 : i32} : (tensor<2x1x8x1x1xi32>, tensor<2x1x8x1x1xi32>) -> tensor<2x1x8x1x2xi32>
    %106 = tosa.reshape %90, %20 : (tensor<2x8x1xi64>, !tosa.shape<3>) -> tensor<1x16x1xi64>
    %107 = tosa.reshape %105, %21 : (tensor<2x1x8x1x2xi32>, !tosa.shape<2>) -> tensor<16x2xi32>
    %108 = tosa.mul %107, %0, %5 : (tensor<16x2xi32>, tensor<1x2xi32>, tensor<1xi8>) -> tensor<16x2xi32>
    %109 = tosa.reduce_sum %108 {axis = 1 : i32} : (tensor<16x2xi32>) -> tensor<16x1xi32>
    %110 = tosa.reshape %109, %2 : (tensor<16x1xi32>, !tosa.shape<2>) -> tensor<1x16xi32>
    %111 = tosa.gather %106, %110 : (tensor<1x16x1xi64>, tensor<1x16xi32>) -> tensor<1x16x1xi64>
    %112 = tosa.reshape %111, %22 : (tensor<1x16x1xi64>, !tosa.shape<4>) -> tensor<2x1x8x1xi64>
    %113 = tosa.cast %92 : (tensor<1x1x1x8xi64>) -> tensor<1x1x1x8xi32>
    %114 = tosa.add %113, %50 : (tensor<1x1x1x8xi32>, tensor<1x1x1x1xi32>) -> tensor<1x1x1x8xi32>
    %115 = tosa.greater %48, %113 : (tensor<1x1x1x1xi32>, tensor<1x1x1x8xi32>) -> tensor<1x1x1x8xi1>
    %116 = tosa.select %115, %114, %113 : (tensor<1x1x1x8xi1>, tensor<1x1x1x8xi32>, tensor<1x1x1x8xi32>) -> tensor<1x1x1x8xi32>
    %117 = tosa.reshape %116, %23 : (tensor<1x1x1x8xi32>, !tosa.shape<5>) -> tensor<1x1x1x8x1xi32>
    %118 = tosa.tile %97, %23 : (tensor<2x1x1x1x1xi32>, !tosa.shape<5>) -> tensor<2x1x1x8x1xi32>
    %119 = tosa.tile %117, %18 : (tensor<1x1x1x8x1xi32>, !tosa.shape<5>) -> tensor<2x1x1x8x1xi32>
    %120 = tosa.concat %118, %119 {axis = 4 : i32} : (tensor<2x1x1x8x1xi32>, tensor<2x1x1x8x1xi32>) -> tensor<2x1x1x8x2xi32>
    %121 = tosa.reshape %120, %21 : (tensor<2x1x1x8x2xi32>, !tosa.shape<2>) -> tensor<16x2xi32>
    %122 = tosa.mul %121, %0, %5 : (tensor<16x2xi32>, tensor<1x2xi32>, tensor<1xi8>) -> tensor<16x2xi32>
    %123 = tosa.reduce_sum %122 {axis = 1 : i32} : (tensor<16x2xi32>) -> tensor<16x1xi32>
    %124 = tosa.reshape %123, %2 : (tensor<16x1xi32>, !tosa.shape<2>) -> tensor<1x16xi32>
    %125 = tosa.gather %106, %124 : (tensor<1x16x1xi64>, tensor<1x16xi32>) -> tensor<1x16x1xi64>
    %126 = tosa.reshape %125, %24 : (tensor<1x16x1xi64>, !tosa.shape<4>) -> tensor<2x1x1x8xi64>
    %127 = tosa.equal %112, %126 : (tensor<2x1x8x1xi64>, tensor<2x1x1x8xi64>) -> tensor<2x1x8x8xi1>
    %128 = tosa.logical_and %127, %51 : (tensor<2x1x8x8xi1>, tensor<1x1x1x1xi1>) -> tensor<2x1x8x8xi1>
    %129 = tosa.reshape %67, %20 : (tensor<2x8xi64>, !tosa.shape<3>) -> tensor<1x16x1xi64>
    %130 = tosa.gather %129, %110 : (tensor<1x16x1xi64>, tensor<1x16xi32>) -> tensor<1x16x1xi64>
    %131 = tosa.reshape %130, %22 : (tensor<1x16x1xi64>, !tosa.shape<4>) -> tensor<2x1x8x1xi64>
    %132 = tosa.gather %129, %124 : (tensor<1x16x1xi64>, tensor<1x16xi32>) -> tensor<1x16x1xi64>
    %133 = tosa.reshape %132, %24 : (tensor<1x16x1xi64>, !tosa.shape<4>) -> tensor<2x1x1x8xi64>
    %134 = tosa.greater_equal %131, %133 : (tensor<2x1x8x1xi64>, tensor<2x1x1x8xi64>) -> tensor<2x1x8x8xi1>
    %135 = tosa.logical_and %128, %134 : (tensor<2x1x8x8xi1>, tensor<2x1x8x8xi1>) -> tensor<2x1x8x8xi1>
    %136 = tosa.select %135, %52, %53 : (tensor<2x1x8x8xi1>, tensor<1x1x1x1xf32>, tensor<1x1x1x1xf32>) -> tensor<2x1x8x8xf32>
    %137 = tosa.reshape %65, %25 : (tensor<8xi64>, !tosa.shape<3>) -> tensor<1x8x1xi64>
    %138 = tosa.cast %137 : (tensor<1x8x1xi64>) -> tensor<1x8x1xf32>
    %139 = tosa.mul %138, %54, %5 : (tensor<1x8x1xf32>, tensor<1x1x4xf32>, tensor<1xi8>) -> tensor<1x8x4xf32>
    %140 = tosa.concat %139, %139 {axis = 2 : i32} : (tensor<1x8x4xf32>, tensor<1x8x4xf32>) -> tensor<1x8x8xf32>
    %141 = tosa.cos %140 : (tensor<1x8x8xf32>) -> tensor<1x8x8xf32>
    %142 = tosa.sin %140 : (tensor<1x8x8xf32>) -> tensor<1x8x8xf32>
    %143 = tosa.pow %63, %55 : (tensor<2x8x32xf32>, tensor<1x1x1xf32>) -> tensor<2x8x32xf32>
    %144 = tosa.reduce_sum %143 {axis = 2 : i32} : (tensor<2x8x32xf32>) -> tensor<2x8x1xf32>
    %145 = tosa.mul %144, %56, %5 : (tensor<2x8x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x8x1xf32>
    %146 = tosa.add %145, %57 : (tensor<2x8x1xf32>, tensor<1x1x1xf32>) -> tensor<2x8x1xf32>
    %147 = tosa.rsqrt %146 : (tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
    %148 = tosa.mul %63, %147, %5 : (tensor<2x8x32xf32>, tensor<2x8x1xf32>, tensor<1xi8>) -> tensor<2x8x32xf32>
    %149 = tosa.reshape %arg8, %26 : (tensor<32xf32>, !tosa.shape<3>) -> tensor<1x1x32xf32>
    %150 = tosa.mul %149, %148, %5 : (tensor<1x1x32xf32>, tensor<2x8x32xf32>, tensor<1xi8>) -> tensor<2x8x32xf32>
    %151 = tosa.transpose %arg1 {perms = array<i32: 1, 0>} : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %152 = tosa.reshape %150, %28 : (tensor<2x8x32xf32>, !tosa.shape<3>) -> tensor<1x16x32xf32>
    %153 = tosa.reshape %151, %29 : (tensor<32x32xf32>, !tosa.shape<3>) -> tensor<1x32x32xf32>
    %154 = tosa.matmul %152, %153, %27, %27 : (tensor<1x16x32xf32>, tensor<1x32x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x32xf32>
    %155 = tosa.reshape %154, %30 : (tensor<1x16x32xf32>, !tosa.shape<4>) -> tensor<2x8x4x8xf32>
    %156 = tosa.transpose %155 {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x8x4x8xf32>) -> tensor<2x4x8x8xf32>
    %157 = tosa.transpose %arg2 {perms = array<i32: 1, 0>} : (tensor<16x32xf32>) -> tensor<32x16xf32>
    %158 = tosa.reshape %157, %31 : (tensor<32x16xf32>, !tosa.shape<3>) -> tensor<1x32x16xf32>
    %159 = tosa.matmul %152, %158, %27, %27 : (tensor<1x16x32xf32>, tensor<1x32x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16xf32>
    %160 = tosa.reshape %159, %32 : (tensor<1x16x16xf32>, !tosa.shape<4>) -> tensor<2x8x2x8xf32>
    %161 = tosa.transpose %160 {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x8x2x8xf32>) -> tensor<2x2x8x8xf32>
    %162 = tosa.transpose %arg3 {perms = array<i32: 1, 0>} : (tensor<16x32xf32>) -> tensor<32x16xf32>
    %163 = tosa.reshape %162, %31 : (tensor<32x16xf32>, !tosa.shape<3>) -> tensor<1x32x16xf32>
    %164 = tosa.matmul %152, %163, %27, %27 : (tensor<1x16x32xf32>, tensor<1x32x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16xf32>
    %165 = tosa.reshape %164, %32 : (tensor<1x16x16xf32>, !tosa.shape<4>) -> tensor<2x8x2x8xf32>
    %166 = tosa.transpose %165 {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x8x2x8xf32>) -> tensor<2x2x8x8xf32>
    %167 = tosa.reshape %141, %33 : (tensor<1x8x8xf32>, !tosa.shape<4>) -> tensor<1x1x8x8xf32>
    %168 = tosa.reshape %142, %33 : (tensor<1x8x8xf32>, !tosa.shape<4>) -> tensor<1x1x8x8xf32>
    %169 = tosa.mul %156, %167, %5 : (tensor<2x4x8x8xf32>, tensor<1x1x8x8xf32>, tensor<1xi8>) -> tensor<2x4x8x8xf32>
    %170 = tosa.slice %156, %35, %34 : (tensor<2x4x8x8xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<2x4x8x4xf32>
    %171 = tosa.slice %156, %36, %34 : (tensor<2x4x8x8xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<2x4x8x4xf32>
    %172 = tosa.negate %171, %27, %27 : (tensor<2x4x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x4x8x4xf32>
    %173 = tosa.concat %172, %170 {axis = 3 : i32} : (tensor<2x4x8x4xf32>, tensor<2x4x8x4xf32>) -> tensor<2x4x8x8xf32>
    %174 = tosa.mul %173, %168, %5 : (tensor<2x4x8x8xf32>, tensor<1x1x8x8xf32>, tensor<1xi8>) -> tensor<2x4x8x8xf32>
    %175 = tosa.add %169, %174 : (tensor<2x4x8x8xf32>, tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
    %176 = tosa.mul %161, %167, %5 : (tensor<2x2x8x8xf32>, tensor<1x1x8x8xf32>, tensor<1xi8>) -> tensor<2x2x8x8xf32>
    %177 = tosa.slice %161, %35, %37 : (tensor<2x2x8x8xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<2x2x8x4xf32>
    %178 = tosa.slice %161, %36, %37 : (tensor<2x2x8x8xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<2x2x8x4xf32>
    %179 = tosa.negate %178, %27, %27 : (tensor<2x2x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x2x8x4xf32>
    %180 = tosa.concat %179, %177 {axis = 3 : i32} : (tensor<2x2x8x4xf32>, tensor<2x2x8x4xf32>) -> tensor<2x2x8x8xf32>
    %181 = tosa.mul %180, %168, %5 : (tensor<2x2x8x8xf32>, tensor<1x1x8x8xf32>, tensor<1xi8>) -> tensor<2x2x8x8xf32>
    %182 = tosa.add %176, %181 : (tensor<2x2x8x8xf32>, tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
    %183 = tosa.reshape %182, %38 : (tensor<2x2x8x8xf32>, !tosa.shape<5>) -> tensor<2x2x1x8x8xf32>
    %184 = tosa.tile %183, %39 : (tensor<2x2x1x8x8xf32>, !tosa.shape<5>) -> tensor<2x2x2x8x8xf32>
    %185 = tosa.reshape %184, %40 : (tensor<2x2x2x8x8xf32>, !tosa.shape<4>) -> tensor<2x4x8x8xf32>
    %186 = tosa.reshape %166, %38 : (tensor<2x2x8x8xf32>, !tosa.shape<5>) -> tensor<2x2x1x8x8xf32>
    %187 = tosa.tile %186, %39 : (tensor<2x2x1x8x8xf32>, !tosa.shape<5>) -> tensor<2x2x2x8x8xf32>
    %188 = tosa.transpose %185 {perms = array<i32: 0, 1, 3, 2>} : (tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
    %189 = tosa.reshape %175, %41 : (tensor<2x4x8x8xf32>, !tosa.shape<3>) -> tensor<8x8x8xf32>
    %190 = tosa.reshape %188, %41 : (tensor<2x4x8x8xf32>, !tosa.shape<3>) -> tensor<8x8x8xf32>
    %191 = tosa.matmul %189, %190, %27, %27 : (tensor<8x8x8xf32>, tensor<8x8x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x8x8xf32>
    %192 = tosa.reshape %191, %40 : (tensor<8x8x8xf32>, !tosa.shape<4>) -> tensor<2x4x8x8xf32>
    %193 = tosa.mul %192, %58, %5 : (tensor<2x4x8x8xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<2x4x8x8xf32>
    %194 = tosa.add %193, %136 : (tensor<2x4x8x8xf32>, tensor<2x1x8x8xf32>) -> tensor<2x4x8x8xf32>
    %195 = tosa.reduce_max %194 {axis = 3 : i32} : (tensor<2x4x8x8xf32>) -> tensor<2x4x8x1xf32>
    %196 = tosa.sub %194, %195 : (tensor<2x4x8x8xf32>, tensor<2x4x8x1xf32>) -> tensor<2x4x8x8xf32>
    %197 = tosa.exp %196 : (tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
    %198 = tosa.reduce_sum %197 {axis = 3 : i32} : (tensor<2x4x8x8xf32>) -> tensor<2x4x8x1xf32>
    %199 = tosa.reciprocal %198 : (tensor<2x4x8x1xf32>) -> tensor<2x4x8x1xf32>
    %200 = tosa.mul %197, %199, %5 : (tensor<2x4x8x8xf32>, tensor<2x4x8x1xf32>, tensor<1xi8>) -> tensor<2x4x8x8xf32>
    %201 = tosa.reshape %200, %41 : (tensor<2x4x8x8xf32>, !tosa.shape<3>) -> tensor<8x8x8xf32>
    %202 = tosa.reshape %187, %41 : (tensor<2x2x2x8x8xf32>, !tosa.shape<3>) -> tensor<8x8x8xf32>
    %203 = tosa.matmul %201, %202, %27, %27 : (tensor<8x8x8xf32>, tensor<8x8x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x8x8xf32>
    %204 = tosa.reshape %203, %40 : (tensor<8x8x8xf32>, !tosa.shape<4>) -> tensor<2x4x8x8xf32>
    %205 = tosa.transpose %204 {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x4x8x8xf32>) -> tensor<2x8x4x8xf32>
    %206 = tosa.transpose %arg4 {perms = array<i32: 1, 0>} : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %207 = tosa.reshape %205, %28 : (tensor<2x8x4x8xf32>, !tosa.shape<3>) -> tensor<1x16x32xf32>
    %208 = tosa.reshape %206, %29 : (tensor<32x32xf32>, !tosa.shape<3>) -> tensor<1x32x32xf32>
    %209 = tosa.matmul %207, %208, %27, %27 : (tensor<1x16x32xf32>, tensor<1x32x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x32xf32>
    %210 = tosa.reshape %209, %3 : (tensor<1x16x32xf32>, !tosa.shape<3>) -> tensor<2x8x32xf32>
    %211 = tosa.add %63, %210 : (tensor<2x8x32xf32>, tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
    %212 = tosa.pow %211, %55 : (tensor<2x8x32xf32>, tensor<1x1x1xf32>) -> tensor<2x8x32xf32>
    %213 = tosa.reduce_sum %212 {axis = 2 : i32} : (tensor<2x8x32xf32>) -> tensor<2x8x1xf32>
    %214 = tosa.mul %213, %56, %5 : (tensor<2x8x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x8x1xf32>
    %215 = tosa.add %214, %57 : (tensor<2x8x1xf32>, tensor<1x1x1xf32>) -> tensor<2x8x1xf32>
    %216 = tosa.rsqrt %215 : (tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
    %217 = tosa.mul %211, %216, %5 : (tensor<2x8x32xf32>, tensor<2x8x1xf32>, tensor<1xi8>) -> tensor<2x8x32xf32>
    %218 = tosa.reshape %arg9, %26 : (tensor<32xf32>, !tosa.shape<3>) -> tensor<1x1x32xf32>
    %219 = tosa.mul %218, %217, %5 : (tensor<1x1x32xf32>, tensor<2x8x32xf32>, tensor<1xi8>) -> tensor<2x8x32xf32>
    %220 = tosa.transpose %arg5 {perms = array<i32: 1, 0>} : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %221 = tosa.reshape %219, %28 : (tensor<2x8x32xf32>, !tosa.shape<3>) -> tensor<1x16x32xf32>
    %222 = tosa.reshape %220, %42 : (tensor<32x64xf32>, !tosa.shape<3>) -> tensor<1x32x64xf32>
    %223 = tosa.matmul %221, %222, %27, %27 : (tensor<1x16x32xf32>, tensor<1x32x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x64xf32>
    %224 = tosa.reshape %223, %44 : (tensor<1x16x64xf32>, !tosa.shape<3>) -> tensor<2x8x64xf32>
    %225 = tosa.sigmoid %224 : (tensor<2x8x64xf32>) -> tensor<2x8x64xf32>
    %226 = tosa.mul %224, %225, %5 : (tensor<2x8x64xf32>, tensor<2x8x64xf32>, tensor<1xi8>) -> tensor<2x8x64xf32>
    %227 = tosa.transpose %arg6 {perms = array<i32: 1, 0>} : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %228 = tosa.reshape %227, %42 : (tensor<32x64xf32>, !tosa.shape<3>) -> tensor<1x32x64xf32>
    %229 = tosa.matmul %221, %228, %27, %27 : (tensor<1x16x32xf32>, tensor<1x32x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x64xf32>
    %230 = tosa.reshape %229, %44 : (tensor<1x16x64xf32>, !tosa.shape<3>) -> tensor<2x8x64xf32>
    %231 = tosa.mul %226, %230, %5 : (tensor<2x8x64xf32>, tensor<2x8x64xf32>, tensor<1xi8>) -> tensor<2x8x64xf32>
    %232 = tosa.transpose %arg7 {perms = array<i32: 1, 0>} : (tensor<32x64xf32>) -> tensor<64x32xf32>
    %233 = tosa.reshape %231, %45 : (tensor<2x8x64xf32>, !tosa.shape<3>) -> tensor<1x16x64xf32>
    %234 = tosa.reshape %232, %1 : (tensor<64x32xf32>, !tosa.shape<3>) -> tensor<1x64x32xf32>
    %235 = tosa.matmul %233, %234, %27, %27 : (tensor<1x16x64xf32>, tensor<1x64x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x32xf32>
    %236 = tosa.reshape %235, %3 : (tensor<1x16x32xf32>, !tosa.shape<3>) -> tensor<2x8x32xf32>
    %237 = tosa.add %211, %236 : (tensor<2x8x32xf32>, tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
    %238 = tosa.pow %237, %55 : (tensor<2x8x32xf32>, tensor<1x1x1xf32>) -> tensor<2x8x32xf32>
    %239 = tosa.reduce_sum %238 {axis = 2 : i32} : (tensor<2x8x32xf32>) -> tensor<2x8x1xf32>
    %240 = tosa.mul %239, %56, %5 : (tensor<2x8x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x8x1xf32>
    %241 = tosa.add %240, %57 : (tensor<2x8x1xf32>, tensor<1x1x1xf32>) -> tensor<2x8x1xf32>
    %242 = tosa.rsqrt %241 : (tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
    %243 = tosa.mul %237, %242, %5 : (tensor<2x8x32xf32>, tensor<2x8x1xf32>, tensor<1xi8>) -> tensor<2x8x32xf32>
    %244 = tosa.reshape %arg17, %26 : (tensor<32xf32>, !tosa.shape<3>) -> tensor<1x1x32xf32>
    %245 = tosa.mul %244, %243, %5 : (tensor<1x1x32xf32>, tensor<2x8x32xf32>, tensor<1xi8>) -> tensor<2x8x32xf32>
    %246 = tosa.transpose %arg10 {perms = array<i32: 1, 0>} : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %247 = tosa.reshape %245, %28 : (tensor<2x8x32xf32>, !tosa.shape<3>) -> tensor<1x16x32xf32>
    %248 = tosa.reshape %246, %29 : (tensor<32x32xf32>, !tosa.shape<3>) -> tensor<1x32x32xf32>
    %249 = tosa.matmul %247, %248, %27, %27 : (tensor<1x16x32xf32>, tensor<1x32x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x32xf32>
    %250 = tosa.reshape %249, %30 : (tensor<1x16x32xf32>, !tosa.shape<4>) -> tensor<2x8x4x8xf32>
    %251 = tosa.transpose %250 {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x8x4x8xf32>) -> tensor<2x4x8x8xf32>
    %252 = tosa.transpose %arg11 {perms = array<i32: 1, 0>} : (tensor<16x32xf32>) -> tensor<32x16xf32>
    %253 = tosa.reshape %252, %31 : (tensor<32x16xf32>, !tosa.shape<3>) -> tensor<1x32x16xf32>
    %254 = tosa.matmul %247, %253, %27, %27 : (tensor<1x16x32xf32>, tensor<1x32x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16xf32>
    %255 = tosa.reshape %254, %32 : (tensor<1x16x16xf32>, !tosa.shape<4>) -> tensor<2x8x2x8xf32>
    %256 = tosa.transpose %255 {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x8x2x8xf32>) -> tensor<2x2x8x8xf32>
    %257 = tosa.transpose %arg12 {perms = array<i32: 1, 0>} : (tensor<16x32xf32>) -> tensor<32x16xf32>
    %258 = tosa.reshape %257, %31 : (tensor<32x16xf32>, !tosa.shape<3>) -> tensor<1x32x16xf32>
    %259 = tosa.matmul %247, %258, %27, %27 : (tensor<1x16x32xf32>, tensor<1x32x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16xf32>
    %260 = tosa.reshape %259, %32 : (tensor<1x16x16xf32>, !tosa.shape<4>) -> tensor<2x8x2x8xf32>
    %261 = tosa.transpose %260 {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x8x2x8xf32>) -> tensor<2x2x8x8xf32>
    %262 = tosa.mul %251, %167, %5 : (tensor<2x4x8x8xf32>, tensor<1x1x8x8xf32>, tensor<1xi8>) -> tensor<2x4x8x8xf32>
    %263 = tosa.slice %251, %35, %34 : (tensor<2x4x8x8xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<2x4x8x4xf32>
    %264 = tosa.slice %251, %36, %34 : (tensor<2x4x8x8xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<2x4x8x4xf32>
    %265 = tosa.negate %264, %27, %27 : (tensor<2x4x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x4x8x4xf32>
    %266 = tosa.concat %265, %263 {axis = 3 : i32} : (tensor<2x4x8x4xf32>, tensor<2x4x8x4xf32>) -> tensor<2x4x8x8xf32>
    %267 = tosa.mul %266, %168, %5 : (tensor<2x4x8x8xf32>, tensor<1x1x8x8xf32>, tensor<1xi8>) -> tensor<2x4x8x8xf32>
    %268 = tosa.add %262, %267 : (tensor<2x4x8x8xf32>, tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
    %269 = tosa.mul %256, %167, %5 : (tensor<2x2x8x8xf32>, tensor<1x1x8x8xf32>, tensor<1xi8>) -> tensor<2x2x8x8xf32>
    %270 = tosa.slice %256, %35, %37 : (tensor<2x2x8x8xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<2x2x8x4xf32>
    %271 = tosa.slice %256, %36, %37 : (tensor<2x2x8x8xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<2x2x8x4xf32>
    %272 = tosa.negate %271, %27, %27 : (tensor<2x2x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x2x8x4xf32>
    %273 = tosa.concat %272, %270 {axis = 3 : i32} : (tensor<2x2x8x4xf32>, tensor<2x2x8x4xf32>) -> tensor<2x2x8x8xf32>
    %274 = tosa.mul %273, %168, %5 : (tensor<2x2x8x8xf32>, tensor<1x1x8x8xf32>, tensor<1xi8>) -> tensor<2x2x8x8xf32>
    %275 = tosa.add %269, %274 : (tensor<2x2x8x8xf32>, tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
    %276 = tosa.reshape %275, %38 : (tensor<2x2x8x8xf32>, !tosa.shape<5>) -> tensor<2x2x1x8x8xf32>
    %277 = tosa.tile %276, %39 : (tensor<2x2x1x8x8xf32>, !tosa.shape<5>) -> tensor<2x2x2x8x8xf32>
    %278 = tosa.reshape %277, %40 : (tensor<2x2x2x8x8xf32>, !tosa.shape<4>) -> tensor<2x4x8x8xf32>
    %279 = tosa.reshape %261, %38 : (tensor<2x2x8x8xf32>, !tosa.shape<5>) -> tensor<2x2x1x8x8xf32>
    %280 = tosa.tile %279, %39 : (tensor<2x2x1x8x8xf32>, !tosa.shape<5>) -> tensor<2x2x2x8x8xf32>
    %281 = tosa.transpose %278 {perms = array<i32: 0, 1, 3, 2>} : (tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
    %282 = tosa.reshape %268, %41 : (tensor<2x4x8x8xf32>, !tosa.shape<3>) -> tensor<8x8x8xf32>
    %283 = tosa.reshape %281, %41 : (tensor<2x4x8x8xf32>, !tosa.shape<3>) -> tensor<8x8x8xf32>
    %284 = tosa.matmul %282, %283, %27, %27 : (tensor<8x8x8xf32>, tensor<8x8x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x8x8xf32>
    %285 = tosa.reshape %284, %40 : (tensor<8x8x8xf32>, !tosa.shape<4>) -> tensor<2x4x8x8xf32>
    %286 = tosa.mul %285, %58, %5 : (tensor<2x4x8x8xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<2x4x8x8xf32>
    %287 = tosa.add %286, %136 : (tensor<2x4x8x8xf32>, tensor<2x1x8x8xf32>) -> tensor<2x4x8x8xf32>
    %288 = tosa.reduce_max %287 {axis = 3 : i32} : (tensor<2x4x8x8xf32>) -> tensor<2x4x8x1xf32>
    %289 = tosa.sub %287, %288 : (tensor<2x4x8x8xf32>, tensor<2x4x8x1xf32>) -> tensor<2x4x8x8xf32>
    %290 = tosa.exp %289 : (tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
    %291 = tosa.reduce_sum %290 {axis = 3 : i32} : (tensor<2x4x8x8xf32>) -> tensor<2x4x8x1xf32>
    %292 = tosa.reciprocal %291 : (tensor<2x4x8x1xf32>) -> tensor<2x4x8x1xf32>
    %293 = tosa.mul %290, %292, %5 : (tensor<2x4x8x8xf32>, tensor<2x4x8x1xf32>, tensor<1xi8>) -> tensor<2x4x8x8xf32>
    %294 = tosa.reshape %293, %41 : (tensor<2x4x8x8xf32>, !tosa.shape<3>) -> tensor<8x8x8xf32>
    %295 = tosa.reshape %280, %41 : (tensor<2x2x2x8x8xf32>, !tosa.shape<3>) -> tensor<8x8x8xf32>
    %296 = tosa.matmul %294, %295, %27, %27 : (tensor<8x8x8xf32>, tensor<8x8x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x8x8xf32>
    %297 = tosa.reshape %296, %40 : (tensor<8x8x8xf32>, !tosa.shape<4>) -> tensor<2x4x8x8xf32>
    %298 = tosa.transpose %297 {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x4x8x8xf32>) -> tensor<2x8x4x8xf32>
    %299 = tosa.transpose %arg13 {perms = array<i32: 1, 0>} : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %300 = tosa.reshape %298, %28 : (tensor<2x8x4x8xf32>, !tosa.shape<3>) -> tensor<1x16x32xf32>
    %301 = tosa.reshape %299, %29 : (tensor<32x32xf32>, !tosa.shape<3>) -> tensor<1x32x32xf32>
    %302 = tosa.matmul %300, %301, %27, %27 : (tensor<1x16x32xf32>, tensor<1x32x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x32xf32>
    %303 = tosa.reshape %302, %3 : (tensor<1x16x32xf32>, !tosa.shape<3>) -> tensor<2x8x32xf32>
    %304 = tosa.add %237, %303 : (tensor<2x8x32xf32>, tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
    %305 = tosa.pow %304, %55 : (tensor<2x8x32xf32>, tensor<1x1x1xf32>) -> tensor<2x8x32xf32>
    %306 = tosa.reduce_sum %305 {axis = 2 : i32} : (tensor<2x8x32xf32>) -> tensor<2x8x1xf32>
    %307 = tosa.mul %306, %56, %5 : (tensor<2x8x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x8x1xf32>
    %308 = tosa.add %307, %57 : (tensor<2x8x1xf32>, tensor<1x1x1xf32>) -> tensor<2x8x1xf32>
    %309 = tosa.rsqrt %308 : (tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
    %310 = tosa.mul %304, %309, %5 : (tensor<2x8x32xf32>, tensor<2x8x1xf32>, tensor<1xi8>) -> tensor<2x8x32xf32>
    %311 = tosa.reshape %arg18, %26 : (tensor<32xf32>, !tosa.shape<3>) -> tensor<1x1x32xf32>
    %312 = tosa.mul %311, %310, %5 : (tensor<1x1x32xf32>, tensor<2x8x32xf32>, tensor<1xi8>) -> tensor<2x8x32xf32>
    %313 = tosa.transpose %arg14 {perms = array<i32: 1, 0>} : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %314 = tosa.reshape %312, %28 : (tensor<2x8x32xf32>, !tosa.shape<3>) -> tensor<1x16x32xf32>
    %315 = tosa.reshape %313, %42 : (tensor<32x64xf32>, !tosa.shape<3>) -> tensor<1x32x64xf32>
    %316 = tosa.matmul %314, %315, %27, %27 : (tensor<1x16x32xf32>, tensor<1x32x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x64xf32>
    %317 = tosa.reshape %316, %44 : (tensor<1x16x64xf32>, !tosa.shape<3>) -> tensor<2x8x64xf32>
    %318 = tosa.sigmoid %317 : (tensor<2x8x64xf32>) -> tensor<2x8x64xf32>
    %319 = tosa.mul %317, %318, %5 : (tensor<2x8x64xf32>, tensor<2x8x64xf32>, tensor<1xi8>) -> tensor<2x8x64xf32>
    %320 = tosa.transpose %arg15 {perms = array<i32: 1, 0>} : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %321 = tosa.reshape %320, %42 : (tensor<32x64xf32>, !tosa.shape<3>) -> tensor<1x32x64xf32>
    %322 = tosa.matmul %314, %321, %27, %27 : (tensor<1x16x32xf32>, tensor<1x32x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x64xf32>
    %323 = tosa.reshape %322, %44 : (tensor<1x16x64xf32>, !tosa.shape<3>) -> tensor<2x8x64xf32>
    %324 = tosa.mul %319, %323, %5 : (tensor<2x8x64xf32>, tensor<2x8x64xf32>, tensor<1xi8>) -> tensor<2x8x64xf32>
    %325 = tosa.transpose %arg16 {perms = array<i32: 1, 0>} : (tensor<32x64xf32>) -> tensor<64x32xf32>
    %326 = tosa.reshape %324, %45 : (tensor<2x8x64xf32>, !tosa.shape<3>) -> tensor<1x16x64xf32>
    %327 = tosa.reshape %325, %1 : (tensor<64x32xf32>, !tosa.shape<3>) -> tensor<1x64x32xf32>
    %328 = tosa.matmul %326, %327, %27, %27 : (tensor<1x16x64xf32>, tensor<1x64x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x32xf32>
    %329 = tosa.reshape %328, %3 : (tensor<1x16x32xf32>, !tosa.shape<3>) -> tensor<2x8x32xf32>
    %330 = tosa.add %304, %329 : (tensor<2x8x32xf32>, tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
    %331 = tosa.pow %330, %55 : (tensor<2x8x32xf32>, tensor<1x1x1xf32>) -> tensor<2x8x32xf32>
    %332 = tosa.reduce_sum %331 {axis = 2 : i32} : (tensor<2x8x32xf32>) -> tensor<2x8x1xf32>
    %333 = tosa.mul %332, %56, %5 : (tensor<2x8x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x8x1xf32>
    %334 = tosa.add %333, %57 : (tensor<2x8x1xf32>, tensor<1x1x1xf32>) -> tensor<2x8x1xf32>
    %335 = tosa.rsqrt %334 : (tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
    %336 = tosa.mul %330, %335, %5 : (tensor<2x8x32xf32>, tensor<2x8x1xf32>, tensor<1xi8>) -> tensor<2x8x32xf32>
    %337 = tosa.reshape %arg19, %26 : (tensor<32xf32>, !tosa.shape<3>) -> tensor<1x1x32xf32>
    %338 = tosa.mul %337, %336, %5 : (tensor<1x1x32xf32>, tensor<2x8x32xf32>, tensor<1xi8>) -> tensor<2x8x32xf32>
    %339 = tosa.transpose %arg20 {perms = array<i32: 1, 0>} : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %340 = tosa.reshape %338, %28 : (tensor<2x8x32xf32>, !tosa.shape<3>) -> tensor<1x16x32xf32>
    %341 = tosa.reshape %339, %42 : (tensor<32x64xf32>, !tosa.shape<3>) -> tensor<1x32x64xf32>
    %342 = tosa.matmul %340, %341, %27, %27 : (tensor<1x16x32xf32>, tensor<1x32x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x64xf32>
    %343 = tosa.reshape %342, %43 : (tensor<1x16x64xf32>, !tosa.shape<2>) -> tensor<16x64xf32>
    return %343 : tensor<16x64xf32>
  }
}

{-#
  dialect_resources: {
    builtin: {
      torch_tensor_4_torch.float32: "0x040000000000803FCDCCCC3D0AD7233C6F12833A"
    }
  }
#-}
