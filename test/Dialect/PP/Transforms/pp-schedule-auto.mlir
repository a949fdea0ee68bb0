// auto reports what it chose and what it proves, as a remark at the
// pipeline. examples/hetero-p4.mlir at M = 12: with 4.5 M_B per rank the
// zero-bubble paper's greedy scheduler reaches the lower bound (the
// critical path, 51.3 us), so the result is proven optimal without the
// solver.
// RUN: pp-opt %examples/hetero-p4.mlir --pp-plan="schedule=auto num-microbatches=12 memory-limit=4.5M_B" -o /dev/null 2>&1 | FileCheck %s --check-prefix=AUTO
// AUTO: remark: auto: zb-greedy; makespan 51.3 us; lower bound: 51.3 us (busiest rank 48, critical path 51.3, memory warm-up 46.05), gap 0 (makespan / bound - 1); proven optimal (solver: not run (the makespan reaches a lower bound))

// A named schedule that does not fit the limit is an error that says by how
// much.
// RUN: not pp-opt %examples/hetero-p4.mlir --pp-plan="schedule=zb-h2 num-microbatches=12 memory-limit=4.5M_B" -o /dev/null 2>&1 | FileCheck %s --check-prefix=OVER
// OVER: error: schedule 'zb-h2' needs 700 bytes (7 M_B) on rank 0, 250 bytes (55.6%) more than the memory limit of 450 bytes (4.5 M_B) per rank

// The auto options are checked.
// RUN: not pp-opt %examples/hetero-p4.mlir --pp-schedule="schedule=auto num-microbatches=12 auto-objective=fastest" -o /dev/null 2>&1 | FileCheck %s --check-prefix=OBJECTIVE
// OBJECTIVE: error: option 'auto-objective' must be step-makespan or max-rank-span, not 'fastest'
// RUN: not pp-opt %examples/hetero-p4.mlir --pp-schedule="schedule=auto num-microbatches=12 solver-time-limit=-1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=LIMIT
// LIMIT: error: option 'solver-time-limit' must be in [0, 86400] seconds, got -1
// With the largest rank span as the objective (steps that overlap).
// RUN: pp-opt %examples/hetero-p4.mlir --pp-schedule="schedule=auto num-microbatches=12 auto-objective=max-rank-span solver-time-limit=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SPAN
// SPAN: remark: auto: {{.*}}(solver: not run
