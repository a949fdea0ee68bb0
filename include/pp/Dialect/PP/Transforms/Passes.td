//===- Passes.td - passes on pp ops ----------------------*- tablegen -*-===//

#ifndef PP_DIALECT_PP_TRANSFORMS_PASSES_TD
#define PP_DIALECT_PP_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def PPSchedulePass : Pass<"pp-schedule", "::mlir::ModuleOp"> {
  let summary = "Order every rank's forward and backward work by a schedule";
  let description = [{
    For each `pp.pipeline` in the module (or only the one named by
    `pipeline`), builds a compute-only `pp.schedule` named
    `@<pipeline>_<schedule>` right after it, replacing a schedule of that
    name if there is one. Values that stay on a rank are wired through SSA;
    values that cross ranks are left to `pp-insert-communication`. With
    `communicate`, the schedule gets its sends and receives here, placed
    as `pp-insert-communication` places them (the same IR, built once: at
    P = 64, V = 4, M = 1024 interleaved 1F1B's compute-only schedule is
    524 288 actions that the verifier would check and the next pass
    replace); `pp-plan` sets it.

    Schedules (docs/Schedules.md gives the exact orders, their sources, what
    each does where its source refuses a configuration, and the published
    figures each reproduces):
    - `gpipe`: GPipe (Huang et al., NeurIPS 2019): all forwards, then all
      backwards in reverse micro-batch order. One stage per rank.
    - `1f1b`: PipeDream-Flush / Megatron-LM 1F1B (Narayanan et al., SC'21):
      stage s of S runs min(S-s-1, M) warm-up forwards, then alternates one
      forward with one backward, then the cool-down backwards. One stage per
      rank.
    - `interleaved-1f1b`: Megatron-LM's interleaved 1F1B (SC'21 sec. 2.2.2),
      loop placement, warm-up 2(P-r-1)+(V-1)G with `group-size` G (default
      P); any M.
    - `looped-bfs`: breadth-first over the chunks of the loop placement.
    - `zb-h1`, `zb-h2`: Qi et al., "Zero Bubble Pipeline Parallelism" (ICLR
      2024), split backward; one stage per rank.
    - `zb-v`: the same paper's V-shaped schedule (V placement).
    - `dualpipe-v`: DeepSeek's DualPipeV (V placement), with overlapped
      forward/backward pairs.
    - `v-half`, `v-min`: the controllable-memory V schedules (Qi et al.
      2024, "Pipeline Parallelism with Controllable Memory"), V placement.
    - `auto`: the best schedule the search finds within `memory-limit`
      (bytes, or a multiple of M_B such as `4M_B`): the zero-bubble paper's
      greedy scheduler, our greedy policies and every named schedule that
      fits, refined by local search and, on small instances, an exact MIP
      (COIN-OR CBC) under `solver-time-limit`; it minimizes
      `auto-objective`. A remark at the pipeline names the winner, the
      lower bound, the gap and whether the result is proven optimal.

    A named schedule whose peak activation memory exceeds `memory-limit` is
    an error that says on which rank and by how much.
    - `file:PATH`: a schedule table in the CSV format of PyTorch's
      torch.distributed.pipelining, checked against the pipeline.

    `num-microbatches` (M) must be given and be at least 1; M smaller than
    the number of ranks is legal for every schedule.

    `form` chooses the schedule's form: `ssa` (one op per action, as
    below), `compact` (one op listing every rank's actions; see
    `pp.schedule`) or `auto` (the default): compact when the schedule has
    more than 100 000 actions (sends and receives included), where the SSA
    form is millions of ops that take seconds to verify and write.

    Before:
    ```mlir
    pp.pipeline @p ranks(2) activation_bytes(16) {
      pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1, backward_weight = 0) memory(stash = 64, weight_stash = 0)
      pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1, backward_weight = 0) memory(stash = 64, weight_stash = 0)
    }
    ```
    After `-pp-schedule="schedule=gpipe num-microbatches=1"`:
    ```mlir
    pp.schedule @p_gpipe pipeline(@p) microbatches(1)
    rank 0 {
      %act_s0_mb0, %stash_s0_mb0 = pp.forward stage 0 microbatch 0 : () -> (tensor<16xi8>, !pp.stash<64>)
      pp.backward stage 0 microbatch 0 (%stash_s0_mb0) : (!pp.stash<64>) -> ()
    }
    rank 1 {
      %stash_s1_mb0 = pp.forward stage 1 microbatch 0 : () -> !pp.stash<64>
      %grad_s1_mb0 = pp.backward stage 1 microbatch 0 (%stash_s1_mb0) : (!pp.stash<64>) -> tensor<16xi8>
    }
    ```
  }];
  let options = [
    Option<"scheduleName", "schedule", "std::string", /*default=*/"",
           "Schedule to build: gpipe, 1f1b, interleaved-1f1b, looped-bfs, "
           "zb-h1, zb-h2, zb-v, dualpipe-v, v-half, v-min, auto, or "
           "file:PATH">,
    Option<"numMicrobatches", "num-microbatches", "int64_t", /*default=*/"0",
           "Micro-batches per training step (M >= 1); required">,
    Option<"pipelineName", "pipeline", "std::string", /*default=*/"",
           "Only schedule the pp.pipeline with this symbol name">,
    Option<"groupSize", "group-size", "int64_t", /*default=*/"0",
           "interleaved-1f1b: micro-batches per group on one chunk (0: P)">,
    Option<"memoryLimitText", "memory-limit", "std::string", /*default=*/"",
           "Activation memory per rank, bytes or a multiple of M_B (e.g. "
           "4M_B): auto plans within it, a named schedule above it is an "
           "error; empty: no limit">,
    Option<"communicate", "communicate", "bool", /*default=*/"false",
           "Also place the sends and receives, as pp-insert-communication "
           "does, building the schedule once (pp-plan sets it; default "
           "false: compute-only)">,
    Option<"autoObjective", "auto-objective", "std::string",
           /*default=*/"\"step-makespan\"",
           "auto: minimize the step makespan (step-makespan, one "
           "synchronous step; default) or the largest rank span "
           "(max-rank-span, steps that overlap)">,
    Option<"solverTimeLimit", "solver-time-limit", "double",
           /*default=*/"1.0",
           "auto: seconds the exact solver may spend (default 1; 0: do not "
           "run it)">,
    Option<"form", "form", "std::string", /*default=*/"\"auto\"",
           "The schedule's form: ssa (one op per action, values wired "
           "through SSA), compact (one op listing the actions; see "
           "pp.schedule) or auto (default: compact above 100000 actions)">,
    Option<"stashAccounting", "stash-accounting", "std::string",
           /*default=*/"\"convert\"",
           "How a split backward counts memory: convert (default: B turns "
           "M_B into M_W, what the generated code's stash buffers measure; "
           "the zero-bubble paper's accounting) or hold (B holds its weight "
           "stash M_W from its start and F's stash M_B until its end; an "
           "upper bound)">,
  ];
}

def PPPlaceStagesPass : Pass<"pp-place-stages", "::mlir::ModuleOp"> {
  let summary = "Place the stages of each pipeline on ranks";
  let description = [{
    Sets the rank of every `pp.stage` of each `pp.pipeline` (or the one named
    by `pipeline`), and with `ranks` the pipeline's rank count P:
    - `loop`: stage s on rank s mod P (Megatron-LM's interleaved placement;
      S must be a multiple of P);
    - `v`: rank r runs stages r and 2P-1-r (ZB-V, DualPipeV; S = 2P);
    - an explicit list `r0,r1,...`: stage s on rank r_s (one entry per stage).

    ```mlir
    // -pp-place-stages="ranks=2 placement=v"
    pp.pipeline @p ranks(2) {
      pp.stage 0 on rank 0 ...
      pp.stage 1 on rank 1 ...
      pp.stage 2 on rank 1 ...
      pp.stage 3 on rank 0 ...
    }
    ```
  }];
  let options = [
    Option<"placement", "placement", "std::string", /*default=*/"",
           "loop, v, or a comma-separated rank per stage; required">,
    Option<"numRanks", "ranks", "int64_t", /*default=*/"0",
           "Number of ranks P (0: keep the pipeline's)">,
    Option<"pipelineName", "pipeline", "std::string", /*default=*/"",
           "Only place the pp.pipeline with this symbol name">,
  ];
}

def PPCompareSchedulesPass
    : Pass<"pp-compare-schedules", "::mlir::ModuleOp"> {
  let summary = "Compare every schedule on each pipeline and recommend one";
  let description = [{
    For each `pp.pipeline` (or the one named by `pipeline`), builds every
    schedule `pp-schedule` knows, simulates it under the pipeline's costs and
    latency, and prints a Markdown table (to standard error, or to
    `report-file`): makespan, bubble rate, peak activation memory of the
    busiest rank (bytes and M_B), the peak of every rank, point-to-point messages per step, and whether it fits
    `memory-limit`. Schedules whose shape does not fit the pipeline (e.g.
    ZB-V without the V placement) get a row saying why. The last line names
    the recommended schedule: the fastest that fits the limit (ties: less
    memory). The IR is not changed.

    With `replicas` = D > 1 (data parallelism), every row also gives the
    step of D replicas with each stage's gradient all-reduce started after
    its last W (as pp-insert-allreduce places it) over a ring of
    `allreduce-bandwidth` and `allreduce-latency` (pp-simulate's model),
    and the same all-reduces reduced at the end; the recommendation then
    goes by the step with the all-reduces, since schedules differ in how
    much work is left after a stage's last W to overlap. The bytes are the
    stages' parameters, or `gradient-bytes` for abstract stages.
  }];
  let options = [
    Option<"numMicrobatches", "num-microbatches", "int64_t", /*default=*/"0",
           "Micro-batches per training step (M >= 1); required">,
    Option<"pipelineName", "pipeline", "std::string", /*default=*/"",
           "Only compare on the pp.pipeline with this symbol name">,
    Option<"groupSize", "group-size", "int64_t", /*default=*/"0",
           "interleaved-1f1b: micro-batches per group on one chunk (0: P)">,
    Option<"memoryLimitText", "memory-limit", "std::string", /*default=*/"",
           "Activation memory per rank, bytes or a multiple of M_B (e.g. "
           "4M_B); empty: no limit">,
    Option<"stashAccounting", "stash-accounting", "std::string",
           /*default=*/"\"convert\"",
           "How a split backward counts memory: convert (default: B turns "
           "M_B into M_W, what the generated code's stash buffers measure; "
           "the zero-bubble paper's accounting) or hold (B holds its weight "
           "stash M_W from its start and F's stash M_B until its end; an "
           "upper bound)">,
    Option<"reportFile", "report-file", "std::string", /*default=*/"",
           "Write the report to this file ('-': standard output); default: "
           "standard error">,
    Option<"replicas", "replicas", "int64_t", /*default=*/"1",
           "Data-parallel replicas D of the pipeline (1-4096; default 1: "
           "none): compare the steps with the gradient all-reduces">,
    ListOption<"gradientBytes", "gradient-bytes", "int64_t",
               "With replicas: bytes of the parameter gradients of each "
               "stage, for abstract stages (one per stage, or one for every "
               "stage; default: from the stages' functions)">,
    Option<"allReduceBandwidth", "allreduce-bandwidth", "double",
           /*default=*/"1e10",
           "With replicas: bandwidth of one link of the replicas' ring, "
           "bytes per second (default 1e10)">,
    Option<"allReduceLatency", "allreduce-latency", "double",
           /*default=*/"5.0",
           "With replicas: latency of one ring message, microseconds "
           "(default 5)">,
  ];
}

def PPInsertCommunicationPass
    : Pass<"pp-insert-communication", "::mlir::ModuleOp"> {
  let summary = "Add send/recv for every value that crosses ranks";
  let description = [{
    Rewrites every compute-only `pp.schedule` so that each activation or
    gradient needed on another rank is sent right after it is produced
    (`pp.send`) and received before it is used (`pp.recv`), and the consumer
    takes the received value as its operand.

    Sends and receives block (rendezvous). To make the result deadlock-free
    without relying on buffering, the pass simulates the compute-only
    schedule under the pipeline's costs, numbers every compute action and
    message in the order of that simulation, and places every send and recv
    on both ranks at its message's number: every rank's program is then a
    subsequence of one global order, so the lowest pending message always
    has both ends ready. Schedules that already communicate are left alone.
    A schedule it rewrites keeps its form (SSA or compact) and loses its
    all-reduces: run pp-insert-allreduce after it.
  }];
}

def PPExpandSchedulePass
    : Pass<"pp-expand-schedule", "::mlir::ModuleOp"> {
  let summary = "Turn compact pp.schedule ops into their SSA form";
  let description = [{
    Rewrites every compact `pp.schedule` (the form `pp-schedule{form=auto}`
    builds above 100 000 actions) into the SSA form: one op per action,
    values wired through SSA, sends and receives as `pp.send`/`pp.recv`,
    activations and gradients as `tensor<activation_bytes x i8>`, at the
    schedule's location. The actions and their order are the same.
    Its all-reduces become `pp.allreduce` ops after the actions they
    follow. Schedules in the SSA form are left alone. convert-pp-to-runtime
    expands the schedule it lowers itself.

    Before:
    ```mlir
    pp.pipeline @p ranks(2) activation_bytes(16) {
      pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1, backward_weight = 0) memory(stash = 64, weight_stash = 0)
      pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1, backward_weight = 0) memory(stash = 64, weight_stash = 0)
    }
    pp.schedule @s pipeline(@p) microbatches(1) compact
    rank 0 [forward 0 0, backward 0 0]
    rank 1 [forward 1 0, backward 1 0]
    ```
    After (the pipeline unchanged):
    ```mlir
    pp.schedule @s pipeline(@p) microbatches(1)
    rank 0 {
      %act_s0_mb0, %stash_s0_mb0 = pp.forward stage 0 microbatch 0 : () -> (tensor<16xi8>, !pp.stash<64>)
      pp.backward stage 0 microbatch 0 (%stash_s0_mb0) : (!pp.stash<64>) -> ()
    }
    rank 1 {
      %stash_s1_mb0 = pp.forward stage 1 microbatch 0 : () -> !pp.stash<64>
      %grad_s1_mb0 = pp.backward stage 1 microbatch 0 (%stash_s1_mb0) : (!pp.stash<64>) -> tensor<16xi8>
    }
    ```
  }];
}

def PPVerifySchedulePass : Pass<"pp-verify-schedule", "::mlir::ModuleOp"> {
  let summary = "Check schedules across ranks, including deadlock freedom";
  let description = [{
    Executes every `pp.schedule` with blocking (rendezvous) send/recv and
    no timing. The op verifier's checks (wiring, value and message types)
    are not run again: the pass manager verifies after parsing and after
    every pass. The schedule library's structural checks (every action
    once, in range, placed on its stage's rank, each message matched), which
    the execution needs, are run here, so that an input that skipped the
    verifier (`--verify-each=false`, a pass manager built in code) gets an
    error, not a crash. If some rank can never finish, reports the
    deadlock: one note per blocked rank naming the action it waits on and
    what it waits for. The IR is not changed.

    A schedule with `pp.allreduce` ops (`pp-insert-allreduce`) is then run
    as its D replicas (sched::findDataParallelDeadlock): the point-to-point
    messages of each replica as rendezvous and every all-reduce as a
    blocking collective over the D copies of its rank, which must all reach
    it. That run completing proves the collectives cannot deadlock with the
    messages: every replica runs the same program, so the D copies of a
    rank reach its all-reduces in the same order. With `explain`, a remark
    per schedule says what was proved.
  }];
  let options = [
    Option<"explain", "explain", "bool", /*default=*/"false",
           "Emit a remark per schedule saying what was checked and proved">,
  ];
}

def PPSimulatePass : Pass<"pp-simulate", "::mlir::ModuleOp"> {
  let summary = "Simulate schedules under stage costs: timeline, bubble, memory";
  let description = [{
    Simulates every `pp.schedule` under its pipeline's stage costs and
    latency (sends are eager, a receive waits for the payload plus latency)
    and prints (to standard error, or to `report-file`) per rank the end
    time, busy time, bubble rate and peak activation memory (bytes and units
    of M_B), the makespan and the bubble rate (zero-bubble paper definition: 1 - busiest rank's
    busy time / makespan) and Megatron's bubble / ideal-time ratio, then an
    ASCII timeline. Optionally writes a Chrome trace (Perfetto) and a metrics
    JSON file. The IR is not changed.

    A schedule with `pp.allreduce` ops (`pp-insert-allreduce`) also gets
    each all-reduce's interval (a ring over the replicas,
    sched::ringAllReduceTime, run beside the rank's compute from its
    placement on) and the step with the all-reduces overlapped against the
    same all-reduces started after each rank's last action. The Chrome
    trace shows the overlapped ones in a process of their own (pid 1, a row
    per rank and stage; "ALLREDUCE_S<s>", category "allreduce", as in
    pp-run's traces).

    With `compute-slots` = K below the number of ranks, the ranks share K
    cores (sched::simulate, list scheduling): what a run with more ranks
    than cores measures.
  }];
  let options = [
    Option<"traceFile", "trace", "std::string", /*default=*/"",
           "Write a Chrome trace JSON (Trace Event Format) to this file">,
    Option<"metricsFile", "metrics", "std::string", /*default=*/"",
           "Write the metrics as JSON to this file">,
    Option<"printTimeline", "timeline", "bool", /*default=*/"true",
           "Print the ASCII timeline (default: for pipelines of at most 16 "
           "ranks; set it to print or omit it whatever the size)">,
    Option<"stashAccounting", "stash-accounting", "std::string",
           /*default=*/"\"convert\"",
           "How a split backward counts memory: convert (default: B turns "
           "M_B into M_W, what the generated code's stash buffers measure; "
           "the zero-bubble paper's accounting) or hold (B holds its weight "
           "stash M_W from its start and F's stash M_B until its end; an "
           "upper bound)">,
    Option<"reportFile", "report-file", "std::string", /*default=*/"",
           "Write the report to this file ('-': standard output); default: "
           "standard error">,
    Option<"computeSlots", "compute-slots", "int64_t", /*default=*/"0",
           "Cores the ranks share: at most this many compute actions run at "
           "once, the one ready first taking the core that frees first, as "
           "pp-run's --compute-slots runs them (default 0: a core per "
           "rank)">,
    Option<"allReduceBandwidth", "allreduce-bandwidth", "double",
           /*default=*/"1e10",
           "Schedules with pp.allreduce: bandwidth of one link of the "
           "replicas' ring, bytes per second (default 1e10)">,
    Option<"allReduceLatency", "allreduce-latency", "double",
           /*default=*/"5",
           "Schedules with pp.allreduce: latency of one ring message, "
           "microseconds (default 5)">,
  ];
}

def PPInsertAllReducePass
    : Pass<"pp-insert-allreduce", "::mlir::ModuleOp"> {
  let summary = "Place each stage's gradient all-reduce after its last W";
  let description = [{
    Data parallelism over the pipeline: for `replicas` = D >= 2 copies of
    the pipeline, inserts into every `pp.schedule` (of `pipeline`, or of all
    pipelines) one `pp.allreduce` per stage, on the stage's rank right after
    the stage's last `pp.backward_weight` or `pp.backward` of the step: where
    its gradients are final, so that the collective overlaps the rank's
    remaining work (sched::placeAllReduces, docs/DataParallel.md).
    All-reduces already in a schedule are replaced. A compact schedule stays
    compact, with the all-reduces as entries of its lists (`allreduce S
    replicas D bytes B`; see `pp.schedule`).

    The bytes each all-reduce carries are the stage's parameters: the
    tensors its backward (or B) function takes as `pp.parameter`
    arguments, or for an abstract stage the entry of `gradient-bytes`.
    With D = 1 the pass removes the all-reduces and inserts none.

    With `bucket-bytes` = N > 0, a rank's all-reduces are grouped, in
    program order, into buckets of at most N bytes (PyTorch DDP's
    bucket_cap_mb; sched::bucketAllReduces): a bucket is one collective of
    its stages' gradients, placed (as consecutive ops with the same
    `bucket`) after the W that completes it. The unit is a stage, whose
    gradients all become final at its last W; a stage larger than N is a
    bucket alone.

    With `at-end`, every all-reduce goes after its rank's last action
    instead, in the same order and buckets (sched::deferAllReduces): the
    frameworks' reduce-at-the-end, which overlaps nothing. It is there to
    measure what the placement after the last W saves (`pp-run
    --allreduce-at-end`, bench/data-parallel.sh).
  }];
  let options = [
    Option<"pipelineName", "pipeline", "std::string", /*default=*/"",
           "Only the schedules of this pipeline (default: all)">,
    Option<"replicas", "replicas", "int64_t", /*default=*/"2",
           "Data-parallel replicas D of the pipeline (1-4096; default 2)">,
    ListOption<"gradientBytes", "gradient-bytes", "int64_t",
               "Bytes of the parameter gradients of each stage, for "
               "abstract stages (comma-separated, one per stage, or one "
               "for every stage; default: from the stages' functions)">,
    Option<"bucketBytes", "bucket-bytes", "int64_t", /*default=*/"0",
           "Merge a rank's consecutive all-reduces into one collective "
           "while it carries at most this many bytes (default 0: one per "
           "stage)">,
    Option<"atEnd", "at-end", "bool", /*default=*/"false",
           "Place every all-reduce after its rank's last action, not after "
           "its stage's last W (no overlap; to measure the overlap's "
           "saving)">,
  ];
}

#endif // PP_DIALECT_PP_TRANSFORMS_PASSES_TD
