// RUN: pp-opt %s -allow-unregistered-dialect -pp-lift-parameters="function=mlp min-elements=3" | FileCheck %s
// RUN: pp-opt %s -allow-unregistered-dialect -pp-lift-parameters="function=mlp min-elements=3 parameters=0 data=1 include-splats=true initializer=weights" | FileCheck %s --check-prefix=OPTS
// RUN: pp-opt %s -allow-unregistered-dialect -pp-lift-parameters="function=mlp" | FileCheck %s --check-prefix=DEFAULT

// Weights (dense, dense_resource) of at least 3 elements become trailing
// arguments marked pp.parameter, in the order they appear; the splat
// accumulator, the small constant and the integer constant stay.

// CHECK-LABEL: func.func @mlp(
// CHECK-SAME:      %[[X:.*]]: tensor<2x4xf32>, %[[Y:.*]]: tensor<2x3xf32>,
// CHECK-SAME:      %[[W:.*]]: tensor<4x3xf32> {pp.parameter},
// CHECK-SAME:      %[[B:.*]]: tensor<3xf32> {pp.parameter},
// CHECK-SAME:      %[[R:.*]]: tensor<2x2xf32> {pp.parameter})
// CHECK-SAME:      -> tensor<2x3xf32> attributes {pp.initializer = @mlp_init}
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<2x3xf32>
// CHECK-DAG:     arith.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK-DAG:     arith.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
// CHECK:         linalg.matmul ins(%[[X]], %[[W]] : {{.*}}) outs(%[[ZERO]] :
// CHECK:         linalg.broadcast ins(%[[B]] :
// CHECK:         "test.use"(%[[R]]
// CHECK:         call @mlp(%[[X]], %{{.*}}, %[[W]], %[[B]], %[[R]])
// CHECK:         return

// The initial values, in parameter order.
// CHECK-LABEL: func.func @mlp_init() -> (tensor<4x3xf32>, tensor<3xf32>, tensor<2x2xf32>)
// CHECK-NEXT:    %[[C0:.*]] = arith.constant dense<{{\[\[}}1.000000e+00, 2.000000e+00, 3.000000e+00], {{.*}}> : tensor<4x3xf32>
// CHECK-NEXT:    %[[C1:.*]] = arith.constant dense<[5.000000e-01, 2.500000e-01, 1.250000e-01]> : tensor<3xf32>
// CHECK-NEXT:    %[[C2:.*]] = arith.constant dense_resource<blob> : tensor<2x2xf32>
// CHECK-NEXT:    return %[[C0]], %[[C1]], %[[C2]]

// Callers pass the initial values; a recursive call passes the parameters.
// CHECK-LABEL: func.func @caller(
// CHECK-DAG:     %[[C0:.*]] = arith.constant dense<{{\[\[}}1.000000e+00{{.*}}> : tensor<4x3xf32>
// CHECK-DAG:     %[[C1:.*]] = arith.constant dense<[5.000000e-01{{.*}}> : tensor<3xf32>
// CHECK-DAG:     %[[C2:.*]] = arith.constant dense_resource<blob> : tensor<2x2xf32>
// CHECK:         call @mlp(%{{.*}}, %{{.*}}, %[[C0]], %[[C1]], %[[C2]])

// OPTS-LABEL: func.func @mlp(
// OPTS-SAME:      tensor<2x4xf32> {pp.parameter}, %{{.*}}: tensor<2x3xf32> {pp.data},
// OPTS-SAME:      tensor<2x3xf32> {pp.parameter}, %{{.*}}: tensor<4x3xf32> {pp.parameter},
// OPTS-SAME:      tensor<3xf32> {pp.parameter}, %{{.*}}: tensor<2x2xf32> {pp.parameter})
// OPTS-SAME:      attributes {pp.initializer = @weights}
// OPTS:        func.func @weights() -> (tensor<2x3xf32>, tensor<4x3xf32>, tensor<3xf32>, tensor<2x2xf32>)

// With the default threshold (1024 elements), nothing here is lifted and no
// initializer is created.
// DEFAULT-LABEL: func.func @mlp(%{{.*}}: tensor<2x4xf32>, %{{.*}}: tensor<2x3xf32>) -> tensor<2x3xf32> {
// DEFAULT-NOT:   pp.parameter
// DEFAULT-NOT:   @mlp_init

func.func @mlp(%x: tensor<2x4xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %zero = arith.constant dense<0.0> : tensor<2x3xf32>
  %w = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0], [10.0, 11.0, 12.0]]> : tensor<4x3xf32>
  %small = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %ints = arith.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %b = arith.constant dense<[0.5, 0.25, 0.125]> : tensor<3xf32>
  %r = arith.constant dense_resource<blob> : tensor<2x2xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<2x4xf32>, tensor<4x3xf32>) outs(%zero : tensor<2x3xf32>) -> tensor<2x3xf32>
  %e = tensor.empty() : tensor<2x3xf32>
  %bb = linalg.broadcast ins(%b : tensor<3xf32>) outs(%e : tensor<2x3xf32>) dimensions = [0]
  %sum = linalg.add ins(%mm, %bb : tensor<2x3xf32>, tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  "test.use"(%r, %small, %ints) : (tensor<2x2xf32>, tensor<2xf32>, tensor<4xi32>) -> ()
  %again = func.call @mlp(%x, %sum) : (tensor<2x4xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %again : tensor<2x3xf32>
}

func.func @caller(%x: tensor<2x4xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %r = func.call @mlp(%x, %y) : (tensor<2x4xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

{-#
  dialect_resources: {
    builtin: {
      blob: "0x040000000000803F000000400000404000008040"
    }
  }
#-}
