// The MNIST MLP of ../shared/models (784-512-10, weights as arguments, ReLU
// in a private function called with func.call) runs on seeded inputs. With
// its GEMMs as generated loops (--no-blas) the checksum is pinned, and is
// the same without optimization and without the loop interchange (which
// never changes results); on OpenBLAS (the default) the sums agree to the
// digits float32 GEMMs in another order can keep.

// REQUIRES: shared-models
// RUN: pp-exec %shared_models/google_heir__mnist_mlp.mlir --entry=mnist --seed=1 --no-blas | FileCheck %s
// RUN: pp-exec %shared_models/google_heir__mnist_mlp.mlir --entry=mnist --seed=1 --no-blas -O0 --no-interchange | FileCheck %s
// RUN: pp-exec %shared_models/google_heir__mnist_mlp.mlir --entry=mnist --seed=1 | FileCheck %s --check-prefix=BLAS
// CHECK:      @mnist result 0: tensor<1x10xf32>
// CHECK-NEXT:   sum = -281.241507, sum of squares = 91183.0862
// CHECK-NEXT:   values (first 8 of 10) = [47.29563, 54.01877, -132.53853, -178.57373, 40.007385, 8.693877, 95.16258, -102.23065]
// BLAS:      @mnist result 0: tensor<1x10xf32>
// BLAS-NEXT:   sum = -281.24{{[0-9]+}}, sum of squares = 91183.0{{[0-9]+}}

// The ReLU helper alone is a function like any other.
// RUN: pp-exec %shared_models/google_heir__mnist_mlp.mlir --entry=relu --seed=1 --print-values=4 | FileCheck %s --check-prefix=RELU
// RELU:      @relu result 0: tensor<1x512xf32>
// RELU-NEXT:   sum = 120.153731, sum of squares = 79.7552054
// RELU-NEXT:   values (first 4 of 512) = [0.13312304, 0.49156344, 0.9420054, 0]
