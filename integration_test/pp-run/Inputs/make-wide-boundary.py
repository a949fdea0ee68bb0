"""Writes a model whose one stage boundary carries K tensors:
make-wide-boundary.py K > model.mlir

@wide(%x: 2x4, %w1: 4x4, %w2: 4x4) -> tensor<f32>: stage 0 computes
h = x w1 and K branches a_k = tanh(c_k h) (c_k = 0.05 (k + 1)); a
pp.split_point after the last branch cuts there, so all K branches cross to
stage 1, which sums them, multiplies by w2 and returns the mean square.
Written for the tests of any number of tensors per boundary (pp-run)."""
import sys

k_count = int(sys.argv[1])
t = "tensor<2x4xf32>"
lines = []
emit = lines.append
emit("#id = affine_map<(i, j) -> (i, j)>")
emit("func.func @wide(%%x: %s, %%w1: tensor<4x4xf32> {pp.parameter}, "
     "%%w2: tensor<4x4xf32> {pp.parameter}) -> tensor<f32> {" % t)
emit("  %zero = arith.constant 0.0 : f32")
emit("  %%e = tensor.empty() : %s" % t)
emit("  %%z = linalg.fill ins(%%zero : f32) outs(%%e : %s) -> %s" % (t, t))
emit("  %%h = linalg.matmul ins(%%x, %%w1 : %s, tensor<4x4xf32>) outs(%%z : %s) -> %s"
     % (t, t, t))
for k in range(k_count):
    mark = " attrs = {pp.split_point}" if k == k_count - 1 else ""
    emit("  %%a%d = linalg.generic {indexing_maps = [#id, #id], "
         "iterator_types = [\"parallel\", \"parallel\"]} ins(%%h : %s) "
         "outs(%%e : %s)%s {" % (k, t, t, mark))
    emit("  ^bb0(%v: f32, %o: f32):")
    emit("    %%c = arith.constant %.2f : f32" % (0.05 * (k + 1)))
    emit("    %m = arith.mulf %v, %c : f32")
    emit("    %r = math.tanh %m : f32")
    emit("    linalg.yield %r : f32")
    emit("  } -> %s" % t)
acc = "%a0"
for k in range(1, k_count):
    emit("  %%s%d = linalg.add ins(%s, %%a%d : %s, %s) outs(%%e : %s) -> %s"
         % (k, acc, k, t, t, t, t))
    acc = "%%s%d" % k
emit("  %%y = linalg.matmul ins(%s, %%w2 : %s, tensor<4x4xf32>) outs(%%z : %s) -> %s"
     % (acc, t, t, t))
emit("  %%sq = linalg.mul ins(%%y, %%y : %s, %s) outs(%%e : %s) -> %s" % (t, t, t, t))
emit("  %e0 = tensor.empty() : tensor<f32>")
emit("  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>")
emit("  %%loss = linalg.reduce { arith.addf } ins(%%sq : %s) outs(%%z0 : tensor<f32>) "
     "dimensions = [0, 1]" % t)
emit("  return %loss : tensor<f32>")
emit("}")
print("\n".join(lines))
