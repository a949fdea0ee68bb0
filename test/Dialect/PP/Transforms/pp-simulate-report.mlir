// Reports go to standard error (or to report-file), never into the IR on
// standard output: the simulated schedule pipes straight into pp-translate.
// RUN: pp-opt %examples/hetero-p4.mlir --pp-plan="schedule=zb-h1 num-microbatches=8" --pp-simulate 2>%t.stderr | pp-translate --export-svg | FileCheck %s --check-prefix=SVG
// RUN: FileCheck %s --check-prefix=REPORT < %t.stderr
// RUN: pp-opt %examples/hetero-p4.mlir --pp-plan="schedule=zb-h1 num-microbatches=8" --pp-simulate 2>/dev/null | FileCheck %s --check-prefix=IR
// '-' is standard output; any other name a file.
// RUN: pp-opt %examples/hetero-p4.mlir --pp-plan="schedule=zb-h1 num-microbatches=8" --pp-simulate="report-file=- timeline=false" -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=REPORT
// RUN: rm -f %t.report
// RUN: pp-opt %examples/hetero-p4.mlir --pp-plan="schedule=zb-h1 num-microbatches=8" --pp-simulate="report-file=%t.report" -o /dev/null 2>&1 | count 0
// RUN: FileCheck %s --check-prefix=REPORT < %t.report
// pp-compare-schedules and pp-partition do the same.
// RUN: pp-opt %examples/hetero-p4.mlir --pp-compare-schedules="num-microbatches=8" 2>/dev/null | FileCheck %s --check-prefix=IR
// RUN: pp-opt %examples/hetero-p4.mlir --pp-compare-schedules="num-microbatches=8 report-file=-" -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=COMPARE
// RUN: pp-opt %examples/tanh-mlp3.mlir --pp-partition="function=mlp report-file=-" -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=PARTITION
// RUN: pp-opt %examples/tanh-mlp3.mlir --pp-partition="function=mlp" 2>/dev/null | FileCheck %s --check-prefix=IR-PARTITION

// SVG: <?xml version="1.0" encoding="UTF-8"?>
// SVG: <svg

// REPORT: schedule @hetero_zb_h1 (pipeline @hetero)
// REPORT: makespan:

// IR-NOT: makespan
// IR-NOT: | schedule |
// IR: pp.pipeline @hetero

// COMPARE: | schedule | makespan (us) |
// COMPARE: recommended under no memory limit:

// PARTITION: pp-partition @mlp: 3 stages

// IR-PARTITION-NOT: pp-partition @mlp
// IR-PARTITION: func.func @mlp_stage0
