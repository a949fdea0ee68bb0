// The shared MNIST MLP (google/heir, Apache-2.0; see ../shared/models/
// SOURCES.md) cut into 1, 2 and 4 stages: weights (arguments 0-3) and their
// transposes and broadcasts go to the stage that uses them; the staged
// forward equals the original bit for bit.
// REQUIRES: shared-models
// RUN: pp-opt %shared_models/google_heir__mnist_mlp.mlir -pp-partition="function=mnist num-stages=1 parameters=0,1,2,3" -o %tm1.mlir 2>&1 | FileCheck %s --check-prefix=MNIST1
// RUN: pp-exec %tm1.mlir --entry=mnist --compare=mnist_staged | FileCheck %s --check-prefix=EQUAL
// RUN: pp-opt %shared_models/google_heir__mnist_mlp.mlir -pp-partition="function=mnist num-stages=2 parameters=0,1,2,3" -o %tm2.mlir 2>&1 | FileCheck %s --check-prefix=MNIST2
// RUN: pp-exec %tm2.mlir --entry=mnist --compare=mnist_staged | FileCheck %s --check-prefix=EQUAL
// RUN: pp-opt %shared_models/google_heir__mnist_mlp.mlir -pp-partition="function=mnist num-stages=4 parameters=0,1,2,3" -o %tm4.mlir 2>&1 | FileCheck %s --check-prefix=MNIST4
// RUN: pp-exec %tm4.mlir --entry=mnist --compare=mnist_staged | FileCheck %s --check-prefix=EQUAL

// MNIST1: stage 0: 7 ops, 814100 FLOP, parameters 1628200 bytes
// The first matmul (1x784 by 784x512, 802816 FLOP) dominates: a stage alone.
// MNIST2: stage 0: 1 ops, 802816 FLOP, parameters 1605632 bytes, stash 2048 bytes, sends 2048 bytes
// MNIST2: stage 1: 6 ops, 11284 FLOP, parameters 22568 bytes
// MNIST4: stage 0: 1 ops, 802816 FLOP
// MNIST4: stage 3:
// EQUAL: compare: results bitwise equal
