// A module with pp ops: pp-exec runs its functions (any stage function on
// given inputs) and ignores the pipeline that names them.

// RUN: pp-exec %s --entry=stage1 | FileCheck %s --check-prefix=STAGE
// STAGE:      @stage1 result 0: tensor<2xf32>
// STAGE-NEXT:   sum = {{.*}}
// STAGE-NEXT:   values = [{{.*}}, {{.*}}]
// RUN: pp-exec %s --entry=model --compare=staged --seed=4 | FileCheck %s --check-prefix=CMP
// CMP: compare: results bitwise equal

pp.pipeline @p ranks(2) {
  pp.stage 0 on rank 0 forward @stage0
  pp.stage 1 on rank 1 forward @stage1
}

func.func @stage0(%x: tensor<2xf32>) -> tensor<2xf32> {
  %e = tensor.empty() : tensor<2xf32>
  %r = linalg.exp ins(%x : tensor<2xf32>) outs(%e : tensor<2xf32>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}

func.func @stage1(%h: tensor<2xf32>) -> tensor<2xf32> {
  %e = tensor.empty() : tensor<2xf32>
  %t = linalg.map { math.tanh } ins(%h : tensor<2xf32>) outs(%e : tensor<2xf32>)
  return %t : tensor<2xf32>
}

func.func @model(%x: tensor<2xf32>) -> tensor<2xf32> {
  %e = tensor.empty() : tensor<2xf32>
  %h = linalg.exp ins(%x : tensor<2xf32>) outs(%e : tensor<2xf32>) -> tensor<2xf32>
  %t = linalg.map { math.tanh } ins(%h : tensor<2xf32>) outs(%e : tensor<2xf32>)
  return %t : tensor<2xf32>
}

func.func @staged(%x: tensor<2xf32>) -> tensor<2xf32> {
  %h = call @stage0(%x) : (tensor<2xf32>) -> tensor<2xf32>
  %r = call @stage1(%h) : (tensor<2xf32>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}
