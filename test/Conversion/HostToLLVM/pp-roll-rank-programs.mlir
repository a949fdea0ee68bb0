// pp-roll-rank-programs: the steady state of a rank program on buffers
// becomes an scf.for over its repeats; the ops, their order and the
// buffers they use stay the same (docs/Execution.md, "Rank programs").
// RUN: pp-opt %s --pass-pipeline='builtin.module(func.func(pp-roll-rank-programs))' | FileCheck %s
// RUN: pp-opt %s --pass-pipeline='builtin.module(func.func(pp-roll-rank-programs{min-iterations=2}))' | FileCheck %s --check-prefix=TWO

func.func private @f(memref<4xf32>, memref<4xf32>, i64)
func.func private @g(memref<4xf32>, i64)

// 1F1B on a rank with two micro-batches in flight: F(0), F(1) warm up,
// F(m + 2), B(m) repeat for m = 0..3, B(4), B(5) cool down. F's output (a
// stash) reaches its B two repeats later through two iteration arguments;
// the warm-up's stashes are their initial values, the last two repeats'
// the loop's results; the micro-batch numbers are 2 + iv and iv.
// CHECK-LABEL: func.func @one_f_one_b(
// CHECK-SAME:      %[[RT:.*]]: !llvm.ptr)
// CHECK:         %[[C4:.*]] = arith.constant 4 : i64
// CHECK:         %[[C5:.*]] = arith.constant 5 : i64
// CHECK:         %[[IN:.*]] = memref.alloc()
// CHECK:         %[[S0:.*]] = memref.alloc()
// CHECK:         call @f(%[[IN]], %[[S0]], %{{.*}})
// CHECK:         %[[S1:.*]] = memref.alloc()
// CHECK:         call @f(%[[IN]], %[[S1]], %{{.*}})
// CHECK:         %[[LB:.*]] = arith.constant 0 : index
// CHECK:         %[[UB:.*]] = arith.constant 4 : index
// CHECK:         %[[STEP:.*]] = arith.constant 1 : index
// CHECK:         %[[LOOP:.*]]:2 = scf.for %[[IV:.*]] = %[[LB]] to %[[UB]] step %[[STEP]] iter_args(%[[Q0:.*]] = %[[S0]], %[[Q1:.*]] = %[[S1]])
// CHECK-NEXT:      %[[S:.*]] = memref.alloc() : memref<4xf32>
// CHECK-NEXT:      %[[I:.*]] = arith.index_cast %[[IV]] : index to i64
// CHECK-NEXT:      %[[BASE_F:.*]] = arith.constant 2 : i64
// CHECK-NEXT:      %[[STEP_F:.*]] = arith.constant 1 : i64
// CHECK-NEXT:      %[[MUL_F:.*]] = arith.muli %[[STEP_F]], %[[I]] : i64
// CHECK-NEXT:      %[[MB_F:.*]] = arith.addi %[[BASE_F]], %[[MUL_F]] : i64
// CHECK-NEXT:      func.call @f(%[[IN]], %[[S]], %[[MB_F]])
// CHECK-NEXT:      %[[BASE_B:.*]] = arith.constant 0 : i64
// CHECK-NEXT:      %[[STEP_B:.*]] = arith.constant 1 : i64
// CHECK-NEXT:      %[[MUL_B:.*]] = arith.muli %[[STEP_B]], %[[I]] : i64
// CHECK-NEXT:      %[[MB_B:.*]] = arith.addi %[[BASE_B]], %[[MUL_B]] : i64
// CHECK-NEXT:      func.call @g(%[[Q0]], %[[MB_B]])
// CHECK-NEXT:      memref.dealloc %[[Q0]]
// CHECK-NEXT:      scf.yield %[[Q1]], %[[S]] : memref<4xf32>, memref<4xf32>
// CHECK-NEXT:    } {pp.rolled}
// CHECK-NEXT:    call @g(%[[LOOP]]#0, %[[C4]])
// CHECK-NEXT:    memref.dealloc %[[LOOP]]#0
// CHECK-NEXT:    call @g(%[[LOOP]]#1, %[[C5]])
// CHECK-NEXT:    memref.dealloc %[[LOOP]]#1
// CHECK-NEXT:    memref.dealloc %[[IN]]
// CHECK-NEXT:    return
func.func @one_f_one_b(%rt: !llvm.ptr) attributes {pp.rank = 0 : i64} {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %c2 = arith.constant 2 : i64
  %c3 = arith.constant 3 : i64
  %c4 = arith.constant 4 : i64
  %c5 = arith.constant 5 : i64
  %in = memref.alloc() : memref<4xf32>
  %s0 = memref.alloc() : memref<4xf32>
  call @f(%in, %s0, %c0) : (memref<4xf32>, memref<4xf32>, i64) -> ()
  %s1 = memref.alloc() : memref<4xf32>
  call @f(%in, %s1, %c1) : (memref<4xf32>, memref<4xf32>, i64) -> ()
  %s2 = memref.alloc() : memref<4xf32>
  call @f(%in, %s2, %c2) : (memref<4xf32>, memref<4xf32>, i64) -> ()
  call @g(%s0, %c0) : (memref<4xf32>, i64) -> ()
  memref.dealloc %s0 : memref<4xf32>
  %s3 = memref.alloc() : memref<4xf32>
  call @f(%in, %s3, %c3) : (memref<4xf32>, memref<4xf32>, i64) -> ()
  call @g(%s1, %c1) : (memref<4xf32>, i64) -> ()
  memref.dealloc %s1 : memref<4xf32>
  %s4 = memref.alloc() : memref<4xf32>
  call @f(%in, %s4, %c4) : (memref<4xf32>, memref<4xf32>, i64) -> ()
  call @g(%s2, %c2) : (memref<4xf32>, i64) -> ()
  memref.dealloc %s2 : memref<4xf32>
  %s5 = memref.alloc() : memref<4xf32>
  call @f(%in, %s5, %c5) : (memref<4xf32>, memref<4xf32>, i64) -> ()
  call @g(%s3, %c3) : (memref<4xf32>, i64) -> ()
  memref.dealloc %s3 : memref<4xf32>
  call @g(%s4, %c4) : (memref<4xf32>, i64) -> ()
  memref.dealloc %s4 : memref<4xf32>
  call @g(%s5, %c5) : (memref<4xf32>, i64) -> ()
  memref.dealloc %s5 : memref<4xf32>
  memref.dealloc %in : memref<4xf32>
  return
}

// Two repeats: a loop only with min-iterations=2. The constant that does
// not change (the index 7) stays the value it was.
// CHECK-LABEL: func.func @two_repeats(
// CHECK-NOT:     scf.for
// CHECK:         return
// TWO-LABEL:   func.func @two_repeats(
// TWO-SAME:        %[[RT:.*]]: !llvm.ptr)
// TWO:           %[[C7:.*]] = arith.constant 7 : i64
// TWO:           scf.for
// TWO:             %[[A:.*]] = memref.alloc()
// TWO-NEXT:        func.call @g(%[[A]], %[[C7]])
// TWO-NEXT:        memref.dealloc %[[A]]
// TWO-NEXT:      } {pp.rolled}
// TWO-NEXT:      return
func.func @two_repeats(%rt: !llvm.ptr) attributes {pp.rank = 1 : i64} {
  %c7 = arith.constant 7 : i64
  %a = memref.alloc() : memref<4xf32>
  call @g(%a, %c7) : (memref<4xf32>, i64) -> ()
  memref.dealloc %a : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  call @g(%b, %c7) : (memref<4xf32>, i64) -> ()
  memref.dealloc %b : memref<4xf32>
  return
}

// Not a rank program (no pp.rank): left alone.
// CHECK-LABEL: func.func @not_a_rank_program(
// CHECK-NOT:     scf.for
// CHECK-COUNT-3: call @g(
// CHECK-NOT:     scf.for
// CHECK:         return
func.func @not_a_rank_program(%x: memref<4xf32>) {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %c2 = arith.constant 2 : i64
  call @g(%x, %c0) : (memref<4xf32>, i64) -> ()
  call @g(%x, %c1) : (memref<4xf32>, i64) -> ()
  call @g(%x, %c2) : (memref<4xf32>, i64) -> ()
  return
}

// A stack buffer in the period: one alloca in a loop would be one buffer
// for every iteration, so nothing is rolled.
// CHECK-LABEL: func.func @stack_buffers(
// CHECK-NOT:     scf.for
// CHECK-COUNT-3: memref.alloca()
// CHECK-NOT:     scf.for
// CHECK:         return
func.func @stack_buffers(%rt: !llvm.ptr) attributes {pp.rank = 0 : i64} {
  %c0 = arith.constant 0 : i64
  %a = memref.alloca() : memref<4xf32>
  call @g(%a, %c0) : (memref<4xf32>, i64) -> ()
  %b = memref.alloca() : memref<4xf32>
  call @g(%b, %c0) : (memref<4xf32>, i64) -> ()
  %c = memref.alloca() : memref<4xf32>
  call @g(%c, %c0) : (memref<4xf32>, i64) -> ()
  return
}

// Micro-batch numbers that do not grow by a fixed step (0, 1, 3): the
// longest run that does is too short.
// CHECK-LABEL: func.func @irregular(
// CHECK-NOT:     scf.for
// CHECK:         return
func.func @irregular(%rt: !llvm.ptr, %x: memref<4xf32>) attributes {pp.rank = 0 : i64} {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %c3 = arith.constant 3 : i64
  call @g(%x, %c0) : (memref<4xf32>, i64) -> ()
  call @g(%x, %c1) : (memref<4xf32>, i64) -> ()
  call @g(%x, %c3) : (memref<4xf32>, i64) -> ()
  return
}

// Numbers 0, 1, 2, 3, 8, 9, 10: the step on the side of the jump holds for
// fewer repeats, so 0..3 become one loop and 8..10 another.
// CHECK-LABEL: func.func @two_steady_phases(
// CHECK-SAME:      %[[RT:.*]]: !llvm.ptr, %[[X:.*]]: memref<4xf32>)
// CHECK:         %[[UB1:.*]] = arith.constant 4 : index
// CHECK:         scf.for %[[IV1:.*]] = %{{.*}} to %[[UB1]]
// CHECK-NEXT:      %[[I1:.*]] = arith.index_cast %[[IV1]]
// CHECK-NEXT:      %[[B1:.*]] = arith.constant 0 : i64
// CHECK-NEXT:      %[[S1:.*]] = arith.constant 1 : i64
// CHECK-NEXT:      %[[M1:.*]] = arith.muli %[[S1]], %[[I1]]
// CHECK-NEXT:      %[[N1:.*]] = arith.addi %[[B1]], %[[M1]]
// CHECK-NEXT:      func.call @g(%[[X]], %[[N1]])
// CHECK-NEXT:    } {pp.rolled}
// CHECK:         %[[UB2:.*]] = arith.constant 3 : index
// CHECK:         scf.for %[[IV2:.*]] = %{{.*}} to %[[UB2]]
// CHECK-NEXT:      %[[I2:.*]] = arith.index_cast %[[IV2]]
// CHECK-NEXT:      %[[B2:.*]] = arith.constant 8 : i64
// CHECK-NEXT:      %[[S2:.*]] = arith.constant 1 : i64
// CHECK-NEXT:      %[[M2:.*]] = arith.muli %[[S2]], %[[I2]]
// CHECK-NEXT:      %[[N2:.*]] = arith.addi %[[B2]], %[[M2]]
// CHECK-NEXT:      func.call @g(%[[X]], %[[N2]])
// CHECK-NEXT:    } {pp.rolled}
// CHECK-NEXT:    return
func.func @two_steady_phases(%rt: !llvm.ptr, %x: memref<4xf32>) attributes {pp.rank = 0 : i64} {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %c2 = arith.constant 2 : i64
  %c3 = arith.constant 3 : i64
  %c8 = arith.constant 8 : i64
  %c9 = arith.constant 9 : i64
  %c10 = arith.constant 10 : i64
  call @g(%x, %c0) : (memref<4xf32>, i64) -> ()
  call @g(%x, %c1) : (memref<4xf32>, i64) -> ()
  call @g(%x, %c2) : (memref<4xf32>, i64) -> ()
  call @g(%x, %c3) : (memref<4xf32>, i64) -> ()
  call @g(%x, %c8) : (memref<4xf32>, i64) -> ()
  call @g(%x, %c9) : (memref<4xf32>, i64) -> ()
  call @g(%x, %c10) : (memref<4xf32>, i64) -> ()
  return
}

func.func private @h(memref<*xf32>, i64)

// A cast to an unranked memref (its descriptor becomes a stack slot,
// which the JIT hoists to the entry block) is rolled when the call it is
// made for is in the same repeat, with steps other than 1 (i32: 5, 2, -1;
// index: 6, 4, 2)...
// CHECK-LABEL: func.func @descriptors(
// CHECK:         scf.for
// CHECK:           %[[U:.*]] = memref.cast %{{.*}} : memref<4xf32> to memref<*xf32>
// CHECK:           arith.constant 5 : i64
// CHECK:           arith.constant -3 : i64
// CHECK:           func.call @h(%[[U]],
// CHECK:           arith.index_cast %{{.*}} : index to i32
// CHECK:           arith.constant 6 : i32
// CHECK:           arith.constant -2 : i32
// CHECK:           arith.constant 6 : index
// CHECK:           arith.constant -2 : index
// CHECK:           func.call @k(
// CHECK:         } {pp.rolled}
// CHECK-NOT:     call @h(
// CHECK:         return
func.func private @k(i32, index)
func.func @descriptors(%rt: !llvm.ptr, %x: memref<4xf32>) attributes {pp.rank = 0 : i64} {
  %c5 = arith.constant 5 : i64
  %c2 = arith.constant 2 : i64
  %cm1 = arith.constant -1 : i64
  %i6 = arith.constant 6 : i32
  %i4 = arith.constant 4 : i32
  %i2 = arith.constant 2 : i32
  %x6 = arith.constant 6 : index
  %x4 = arith.constant 4 : index
  %x2 = arith.constant 2 : index
  %u0 = memref.cast %x : memref<4xf32> to memref<*xf32>
  call @h(%u0, %c5) : (memref<*xf32>, i64) -> ()
  call @k(%i6, %x6) : (i32, index) -> ()
  %u1 = memref.cast %x : memref<4xf32> to memref<*xf32>
  call @h(%u1, %c2) : (memref<*xf32>, i64) -> ()
  call @k(%i4, %x4) : (i32, index) -> ()
  %u2 = memref.cast %x : memref<4xf32> to memref<*xf32>
  call @h(%u2, %cm1) : (memref<*xf32>, i64) -> ()
  call @k(%i2, %x2) : (i32, index) -> ()
  return
}

// ...but not when a later repeat reads it.
// CHECK-LABEL: func.func @descriptor_across_repeats(
// CHECK-NOT:     scf.for
// CHECK-COUNT-4: call @h(
// CHECK-NOT:     scf.for
// CHECK:         return
func.func @descriptor_across_repeats(%rt: !llvm.ptr, %x: memref<4xf32>) attributes {pp.rank = 0 : i64} {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %c2 = arith.constant 2 : i64
  %c3 = arith.constant 3 : i64
  %u0 = memref.cast %x : memref<4xf32> to memref<*xf32>
  %u1 = memref.cast %x : memref<4xf32> to memref<*xf32>
  call @h(%u0, %c0) : (memref<*xf32>, i64) -> ()
  %u2 = memref.cast %x : memref<4xf32> to memref<*xf32>
  call @h(%u1, %c1) : (memref<*xf32>, i64) -> ()
  %u3 = memref.cast %x : memref<4xf32> to memref<*xf32>
  call @h(%u2, %c2) : (memref<*xf32>, i64) -> ()
  %u4 = memref.cast %x : memref<4xf32> to memref<*xf32>
  call @h(%u3, %c3) : (memref<*xf32>, i64) -> ()
  return
}

// A period in which every op occurs twice (interleaved 1F1B's holds two
// micro-batches of each stage): the period is the distance to an op's
// second previous occurrence, not to its previous one.
// CHECK-LABEL: func.func @each_op_twice_per_period(
// CHECK-SAME:      %[[RT:.*]]: !llvm.ptr, %[[X:.*]]: memref<4xf32>)
// CHECK:         %[[UB:.*]] = arith.constant 3 : index
// CHECK:         scf.for %[[IV:.*]] = %{{.*}} to %[[UB]]
// CHECK:           %[[B0:.*]] = arith.constant 0 : i64
// CHECK:           func.call @g(%[[X]], %{{.*}})
// CHECK:           %[[B1:.*]] = arith.constant 10 : i64
// CHECK:           func.call @g(%[[X]], %{{.*}})
// CHECK-NEXT:    } {pp.rolled}
// CHECK-NEXT:    return
func.func @each_op_twice_per_period(%rt: !llvm.ptr, %x: memref<4xf32>) attributes {pp.rank = 0 : i64} {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %c2 = arith.constant 2 : i64
  %c10 = arith.constant 10 : i64
  %c11 = arith.constant 11 : i64
  %c12 = arith.constant 12 : i64
  call @g(%x, %c0) : (memref<4xf32>, i64) -> ()
  call @g(%x, %c10) : (memref<4xf32>, i64) -> ()
  call @g(%x, %c1) : (memref<4xf32>, i64) -> ()
  call @g(%x, %c11) : (memref<4xf32>, i64) -> ()
  call @g(%x, %c2) : (memref<4xf32>, i64) -> ()
  call @g(%x, %c12) : (memref<4xf32>, i64) -> ()
  return
}
