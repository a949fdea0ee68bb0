// A pp.split_point whose op folds away during pp-prepare-model is an error
// at that op (the cut it asked for would silently vanish otherwise).
// RUN: pp-opt %s -pp-prepare-model -verify-diagnostics -o /dev/null

func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %a = linalg.map { math.exp } ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>)
  // expected-error @below {{this op's pp.split_point did not survive pp-prepare-model: the op was folded away or erased; mark the op that makes the value it returned instead}}
  %c = tensor.cast %a {pp.split_point} : tensor<4xf32> to tensor<4xf32>
  %b = linalg.map { math.exp } ins(%c : tensor<4xf32>) outs(%e : tensor<4xf32>)
  return %b : tensor<4xf32>
}
