//===- Passes.td - pp dialect passes -----------------------*- tablegen -*-===//

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
    values that cross ranks are left to `pp-insert-communication`.

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
    - `auto`: the fastest of memory-aware greedy schedules and every named
      schedule that fits `memory-limit` (bytes, or a multiple of M_B such as
      `4M_B`), after the zero-bubble paper's automatic scheduling.
    - `file:PATH`: a schedule table in the CSV format of PyTorch's
      torch.distributed.pipelining, checked against the pipeline.

    `num-microbatches` (M) must be given and be at least 1; M smaller than
    the number of ranks is legal for every schedule.

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
      %output, %stash = pp.forward stage 0 microbatch 0 : () -> (tensor<16xi8>, !pp.stash<64>)
      pp.backward stage 0 microbatch 0 (%stash) : (!pp.stash<64>) -> ()
    }
    rank 1 {
      %stash = pp.forward stage 1 microbatch 0 : () -> !pp.stash<64>
      %input_grad = pp.backward stage 1 microbatch 0 (%stash) : (!pp.stash<64>) -> tensor<16xi8>
    }
    ```
  }];
  let options = [
    Option<"scheduleName", "schedule", "std::string", /*default=*/"",
           "Schedule to build: gpipe, 1f1b, interleaved-1f1b, looped-bfs, "
           "zb-h1, zb-h2, zb-v, dualpipe-v, auto, or file:PATH">,
    Option<"numMicrobatches", "num-microbatches", "int64_t", /*default=*/"0",
           "Micro-batches per training step (M >= 1); required">,
    Option<"pipelineName", "pipeline", "std::string", /*default=*/"",
           "Only schedule the pp.pipeline with this symbol name">,
    Option<"groupSize", "group-size", "int64_t", /*default=*/"0",
           "interleaved-1f1b: micro-batches per group on one chunk (0: P)">,
    Option<"memoryLimitText", "memory-limit", "std::string", /*default=*/"",
           "auto: activation memory per rank, bytes or a multiple of M_B "
           "(e.g. 4M_B); empty: no limit">,
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
    Option<"reportFile", "report-file", "std::string", /*default=*/"",
           "Write the report to this file ('-': standard output); default: "
           "standard error">,
  ];
}

def PPPartitionPass : Pass<"pp-partition", "::mlir::ModuleOp"> {
  let summary = "Cut a model function into pipeline stages";
  let description = [{
    Cuts `function` (one block of ops on tensors) into `num-stages`
    contiguous stages in block order, minimizing the largest stage's FLOPs
    (each linalg op: its static iteration space times the arithmetic ops in
    its body) and, among equal cuts, the bytes that cross stage boundaries;
    `pp.split_point` unit attributes on ops ("cut after this op") fix the cuts
    instead. Parameters are the arguments marked `pp.parameter` (see
    pp-lift-parameters) or listed in `parameters`; every other argument is
    data and enters at stage 0.

    Creates `@<function>_stage<s>` (its inputs from the previous stage, then
    its parameters; its outputs for the next stage, or the function's
    results), `@<function>_staged` calling the stages in order (equal to the
    original; `pp-exec --compare` checks it bitwise), and `pp.pipeline
    @<function>_pipeline` with one stage per rank, forward costs of
    FLOPs / `flops-per-us` (backward-input and backward-weight estimated as
    equal to the forward until measured) and the bytes each stage keeps.
    Prints per stage (to standard error, or to `report-file`): ops, FLOPs,
    parameter bytes, stash bytes, bytes sent to the next stage.
  }];
  let options = [
    Option<"functionName", "function", "std::string", /*default=*/"",
           "The model function; required">,
    Option<"numStages", "num-stages", "int64_t", /*default=*/"0",
           "Number of stages S (or mark cuts with pp.split_point)">,
    ListOption<"parameterIndices", "parameters", "int64_t",
               "Arguments that are parameters (besides those marked "
               "pp.parameter)">,
    Option<"flopsPerMicrosecond", "flops-per-us", "double", /*default=*/"1e4",
           "Throughput that turns FLOPs into stage times (FLOP per us)">,
    Option<"printReport", "print-report", "bool", /*default=*/"true",
           "Print the per-stage report">,
    Option<"reportFile", "report-file", "std::string", /*default=*/"",
           "Write the report to this file ('-': standard output); default: "
           "standard error">,
  ];
  let dependentDialects = ["::mlir::pp::PPDialect",
                           "::mlir::func::FuncDialect"];
}

def PPDifferentiateStagesPass
    : Pass<"pp-differentiate-stages", "::mlir::ModuleOp"> {
  let summary = "Give every stage of a pipeline its F, B and W functions";
  let description = [{
    For each stage of `pipeline` that names only a `forward` function (as
    `pp-partition` makes them; parameters are the arguments marked
    `pp.parameter`), in stage order:

    * decides which inputs carry gradients: none on stage 0 (its inputs are
      data); on stage s > 0, the inputs that stage s-1 returns at the same
      position and that depend on a parameter there. Outputs that depend on
      a parameter or such an input take a gradient (a cotangent);
    * differentiates the forward function as `pp-autodiff cotangents=true`
      does, and cuts the result into `@<f>_forward` (the forward; returns
      its outputs, then the activation stash, each stash result marked
      `pp.stash`) and `@<f>_backward` (takes the stage's parameters, the
      stash, then one gradient per output that takes one; returns the input
      gradients, then the parameter gradients). Every op lands in exactly
      one of them, so the forward computes bit for bit what `@<f>` computes;
    * splits `@<f>_backward` as `pp-split-backward` does into
      `@<f>_backward_input` (B) and `@<f>_backward_weight` (W), with
      `@<f>_backward_split` calling both (unless `split-backward=false`);
    * points the stage at the new functions and sets its costs (FLOPs /
      `flops-per-us`, as `pp-partition` counts them) and memory (stash
      bytes of F, weight-stash bytes of B) from them.

    The last stage's output gradient is an argument too: the runtime seeds
    a scalar loss with 1 (or 1/M to average over M micro-batches).

    When the module holds `@<name>_staged` for the pipeline
    `@<name>_pipeline` (made by `pp-partition`), also creates
    `@<name>_staged_grad`, which runs the stage functions one micro-batch
    through forward, then backward in reverse stage order, with the calling
    convention of `pp-autodiff` on `@<name>` (`wrt` = the parameters): the
    loss and the parameter gradients, for `pp-exec --compare` and
    `--check-gradients`. docs/ModelPasses.md describes the conventions.
  }];
  let options = [
    Option<"pipelineName", "pipeline", "std::string", /*default=*/"",
           "The pipeline whose stages to differentiate (default: the only "
           "one in the module)">,
    Option<"splitBackward", "split-backward", "bool", /*default=*/"true",
           "Split each backward into B and W (false: stages name the fused "
           "backward)">,
    Option<"flopsPerMicrosecond", "flops-per-us", "double", /*default=*/"1e4",
           "Throughput that turns FLOPs into stage times (FLOP per us)">,
  ];
  let dependentDialects = ["::mlir::pp::PPDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::tensor::TensorDialect"];
}

def ConvertPPToRuntimePass
    : Pass<"convert-pp-to-runtime", "::mlir::ModuleOp"> {
  let summary = "Turn each rank's program into a function calling the runtime";
  let description = [{
    For the communicating `pp.schedule` `schedule` (default: the only one),
    whose pipeline's stages name their functions as `pp-differentiate-stages`
    makes them, creates one function per rank,

    ```mlir
    func.func @<schedule>_rank<r>(%rank: !llvm.ptr) attributes {pp.rank = r}
    ```

    that runs the rank's actions in order on tensors: it reads the rank's
    parameters and stage 0's micro-batch data from the runtime, calls F, B,
    W (or the fused backward) of each action's stage, passes every tensor a
    `pp.send`/`pp.recv` carries to the runtime (one part per tensor: part k
    of a payload travels as kind + 2k), hands the loss of the last stage
    and every parameter gradient to the runtime, seeds the last stage's
    backward with the runtime's loss seed (1/M), brackets every action for
    the trace and accounts the activation stash (+ when F keeps it, - when
    the last backward that reads it ends). Runtime entry points are declared
    as private functions: `pprt_action_begin/end` and `pprt_stash`
    (runtime/include/pprt/pprt.h), and `pprt_memref_<op>_<element type>`
    taking unranked memrefs (runtime/include/pprt/pprt_memref.h). The
    result is ordinary tensor code: bufferize it and lower it to LLVM
    (pp-run does; docs/Runtime.md).
  }];
  let options = [
    Option<"scheduleName", "schedule", "std::string", /*default=*/"",
           "The schedule to convert (default: the only one in the module)">,
  ];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::bufferization::BufferizationDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

def PPSplitBackwardPass : Pass<"pp-split-backward", "::mlir::ModuleOp"> {
  let summary = "Split a backward function into B (input gradients) and W";
  let description = [{
    `function` returns `input-gradients` input gradients first, then the
    parameter gradients. Creates `@<function>_input` (B: the backward slice
    of the input gradients; same arguments; returns the input gradients, then
    the weight stash) and `@<function>_weight` (W: the rest of the parameter
    gradients' slice; takes the weight stash, then the original arguments it
    uses, listed in its `pp.weight_arguments` attribute), and
    `@<function>_split` calling B then W, which computes exactly what the
    fused backward computes (every op lands in exactly one of B and W).
    The weight stash holds only what W needs from B. Stages that named the
    function as `backward` name B and W instead.

    The first stage has no input gradient to return (`input-gradients=0`):
    its B is empty and its W computes every gradient. Schedules still run
    that B (it costs nothing), so every stage has the same actions; the
    first stage's W then carries its whole backward.
  }];
  let options = [
    Option<"functionName", "function", "std::string", /*default=*/"",
           "The backward function to split; required">,
    Option<"numInputGradients", "input-gradients", "int64_t",
           /*default=*/"1",
           "How many leading results are input gradients (0 on stage 0)">,
  ];
  let dependentDialects = ["::mlir::func::FuncDialect"];
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
  }];
}

def PPVerifySchedulePass : Pass<"pp-verify-schedule", "::mlir::ModuleOp"> {
  let summary = "Check schedules across ranks, including deadlock freedom";
  let description = [{
    Runs, for every `pp.schedule`, the checks of the op verifier and then
    executes the schedule with blocking (rendezvous) send/recv and no
    timing. If some rank can never finish, reports the deadlock: one note per
    blocked rank naming the action it waits on and what it waits for. The IR
    is not changed.
  }];
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
  }];
  let options = [
    Option<"traceFile", "trace", "std::string", /*default=*/"",
           "Write a Chrome trace JSON (Trace Event Format) to this file">,
    Option<"metricsFile", "metrics", "std::string", /*default=*/"",
           "Write the metrics as JSON to this file">,
    Option<"printTimeline", "timeline", "bool", /*default=*/"true",
           "Print the ASCII timeline">,
    Option<"reportFile", "report-file", "std::string", /*default=*/"",
           "Write the report to this file ('-': standard output); default: "
           "standard error">,
  ];
}

def PPNormalizeLinalgPass : Pass<"pp-normalize-linalg"> {
  let summary = "Bring linalg ops to the linalg.generic form pp-autodiff reads";
  let description = [{
    Decomposes aggregated linalg ops (`linalg.softmax`, through
    `AggregatedOpInterface::decomposeOperation`) and turns every named
    structured op (`linalg.matmul`, `batch_matmul`, `transpose`,
    `broadcast`, `map`, `reduce`, `fill`, `elementwise`, ...) into the
    equivalent `linalg.generic`. Convolutions and pooling stay named, so
    that diagnostics can name them (`pp-autodiff` generalizes them in the
    gradient function). Part of `pp-prepare-model`.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::tensor::TensorDialect"];
}

def PPAutodiffPass : Pass<"pp-autodiff", "::mlir::ModuleOp"> {
  let summary = "Reverse-mode gradients of a scalar loss function";
  let description = [{
    For `function`, which returns one scalar loss (`f32`, `tensor<f32>`,
    `tensor<1xf32>`, any one-element float tensor), creates
    `@<function>_grad` with the same arguments, returning the loss and then
    the gradient of the loss with respect to each differentiated argument,
    in argument order (every float tensor argument, or those listed in
    `wrt`). This is the convention `pp-exec --check-gradients
    --entry=<function> --gradient=<function>_grad` checks.

    With `cotangents=true` the function may return anything (a pipeline
    stage returns activations): `@<function>_grad` takes, after the
    arguments, one cotangent per float result (the gradient of some later
    loss with respect to that result) and returns every result, then the
    vector-Jacobian products (the gradient with respect to each
    differentiated argument).

    Works on the form `pp-prepare-model` produces (named linalg ops and
    `linalg.softmax` are also generalized on the fly). One rule covers every
    `linalg.generic`: the scalar body is differentiated in reverse mode and,
    for each differentiated operand, an adjoint `linalg.generic` over the
    same iteration space writes into a tensor indexed like that operand,
    iteration dimensions missing from its map becoming reductions. Sum
    reductions pass the output gradient to every term; max/min reductions
    route it to the elements equal to the result (ties all receive it).

    Inputs read through a window, as in convolutions and pooling with
    strides and dilations (map results such as `d1 * 2 + d4 * 3 + 1`: loop
    dimensions times positive constants plus a constant, no dimension used
    twice), get their adjoint written into an expanded tensor with one
    dimension per loop dimension of the map, then folded into the input's
    shape: the kernel positions are unrolled and each slice is added into
    the gradient at its offset with the stride, with
    `tensor.extract_slice`/`insert_slice`. Max pooling routes each window's
    gradient to the elements equal to its maximum.

    Tensor reshapes, slices, pad, concat, fill, extract and constants have
    their own rules; docs/Autodiff.md lists them.

    Anything else on the path from the arguments to the loss (unknown ops,
    calls such as timers or prints, indexing maps with `floordiv`, `mod`,
    negative coefficients or a loop dimension used twice, dynamic shapes)
    is an error at the op, saying what to do.
  }];
  let options = [
    Option<"functionName", "function", "std::string", /*default=*/"",
           "The loss function to differentiate; required">,
    ListOption<"wrt", "wrt", "int64_t",
               "Arguments to differentiate with respect to (default: every "
               "float tensor argument)">,
    Option<"cotangents", "cotangents", "bool", /*default=*/"false",
           "Vector-Jacobian product of a function with any results: take "
           "one gradient (cotangent) per float result as an extra argument">,
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::tensor::TensorDialect"];
}

//===----------------------------------------------------------------------===//
// Model preparation: parameters, loss, instrumentation, differentiability
// (docs/ModelPasses.md)
//===----------------------------------------------------------------------===//

def PPLiftParametersPass : Pass<"pp-lift-parameters", "::mlir::ModuleOp"> {
  let summary = "Turn the weight constants of a model function into parameters";
  let description = [{
    Every `arith.constant` in the body of `function` whose value is a `dense`
    or `dense_resource` float tensor of static shape with at least
    `min-elements` elements becomes a new argument, appended after the
    existing ones in the order the constants appear, with the argument
    attribute `pp.parameter`. Splat constants (every element equal, e.g. the
    zero accumulator of a matmul) are fills, not weights, and stay unless
    `include-splats`; smaller constants and integer constants stay too.

    The initial values are kept: `@<function>_init() -> (...)` (or the name
    given by `initializer`) returns the lifted constants in parameter order,
    and the function gets `pp.initializer = @<function>_init`. Every
    `func.call` of the function in the module passes the constants; any other
    use of its symbol is an error.

    `parameters` and `data` mark existing arguments (by index) with
    `pp.parameter` or `pp.data`; arguments marked neither are left as they
    are.

    ```mlir
    // -pp-lift-parameters="function=f min-elements=4"
    func.func @f(%x: tensor<2x4xf32>, %w: tensor<4x4xf32> {pp.parameter})
        -> tensor<2x4xf32> attributes {pp.initializer = @f_init} { ... }
    func.func @f_init() -> tensor<4x4xf32> {
      %cst = arith.constant dense<...> : tensor<4x4xf32>
      return %cst : tensor<4x4xf32>
    }
    ```
  }];
  let options = [
    Option<"functionName", "function", "std::string", /*default=*/"",
           "The model function; required">,
    Option<"minElements", "min-elements", "int64_t", /*default=*/"1024",
           "Lift constants with at least this many elements (>= 1)">,
    ListOption<"parameterIndices", "parameters", "int64_t",
               "Existing arguments to mark pp.parameter">,
    ListOption<"dataIndices", "data", "int64_t",
               "Existing arguments to mark pp.data">,
    Option<"initializerName", "initializer", "std::string", /*default=*/"",
           "Name of the function returning the initial values (default: "
           "<function>_init)">,
    Option<"includeSplats", "include-splats", "bool", /*default=*/"false",
           "Also lift splat constants (every element equal)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect"];
}

def PPAppendLossPass : Pass<"pp-append-loss", "::mlir::ModuleOp"> {
  let summary = "Add a scalar loss function after a model function";
  let description = [{
    Creates `@<function>_loss(<the function's arguments>..., %target)`: a
    copy of `function` that returns, instead of the output `y`, a scalar loss
    `tensor<f32>` (`tensor<f64>` for an `f64` output; narrower floats are
    extended to `f32`), computed in `linalg.generic`, `linalg.fill`,
    `tensor.empty`, `arith` and `math` so that pp-autodiff can differentiate
    it. The target argument gets `pp.data`; the function gets
    `pp.loss = "<kind>"`.
    - `kind=mse`: `mean((y - target)^2)`, target of the type of `y` (any
      static float tensor).
    - `kind=cross-entropy`: `y : tensor<BxCxf32>` are logits and the target
      is `tensor<Bxi32>` class labels; the loss is the mean over the rows
      with a label in [0, C) of `logsumexp(y[b]) - y[b, label[b]]`,
      computed stably (the row maximum is subtracted before `exp`). Rows
      with any other label (e.g. -100) are ignored, as PyTorch's
      `ignore_index`.

    A function that already returns a single scalar (`f32`, `tensor<f32>`,
    `tensor<1xf32>`, any float) is left alone with a remark.
  }];
  let options = [
    Option<"functionName", "function", "std::string", /*default=*/"",
           "The model function; required">,
    Option<"kind", "kind", "std::string", /*default=*/"",
           "Loss: mse or cross-entropy; required">,
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::func::FuncDialect"];
}

def PPStripInstrumentationPass
    : Pass<"pp-strip-instrumentation", "::mlir::ModuleOp"> {
  let summary = "Remove timer, print and other side-effecting calls";
  let description = [{
    Removes from `function` (default: every `func.func` with a body) the
    instrumentation that exported models carry: calls (`func.call`,
    `llvm.call`) to functions with no tensor results whose results are
    unused or feed only other removed operations, and the side-effect-free
    operations (`arith.subf` of two timestamps, `llvm.mlir.addressof` of a
    name string, ...) whose results feed only removed operations. Calls whose
    results reach the model's computation stay. Then erases the private
    declarations, functions and `llvm.mlir.global`s that were referenced by
    removed operations and are no longer used.

    Reports what it removed: one remark per function that changed (calls by
    callee, other operations), and one at the module listing the erased
    symbols.
  }];
  let options = [
    Option<"functionName", "function", "std::string", /*default=*/"",
           "Only strip this function (default: every function)">,
  ];
}

def PPCheckDifferentiablePass
    : Pass<"pp-check-differentiable", "::mlir::ModuleOp"> {
  let summary = "Report the operations pp-autodiff cannot differentiate";
  let description = [{
    Walks `function` (default: every public function with a body) and the
    private functions it calls, and emits an error at every operation
    outside the set the compiler differentiates, saying why and what to do:
    - `linalg` structured ops on tensors (named ops, `linalg.generic`,
      `linalg.map`, `linalg.reduce`, convolutions, pooling, ...) whose input
      indexing maps are projected permutations or windows (every result a
      sum of loop dimensions times positive constants plus a constant, no
      dimension used twice, as in convolutions and pooling) and whose body
      holds only `arith`, `math`, `linalg.index` and `linalg.yield`; and
      `linalg.softmax`;
    - `tensor.empty`, `reshape`, `expand_shape`, `collapse_shape`,
      `extract_slice`, `insert_slice`, `pad`, `concat`;
    - `arith` and `math` ops;
    - `func.call` to a private function with a body in the module (checked
      as well), `func.return`.
    Succeeds, changing nothing, when every operation is supported.
  }];
  let options = [
    Option<"functionName", "function", "std::string", /*default=*/"",
           "Only check this function (default: every public function)">,
  ];
}

//===----------------------------------------------------------------------===//
// GPU lowering steps (pp-lower-stages-to-gpu; docs/GPU.md)
//===----------------------------------------------------------------------===//

def PPGPUConvolutionsToGemmPass
    : Pass<"pp-gpu-convolutions-to-gemm", "::mlir::func::FuncOp"> {
  let summary = "Rewrite 2-D convolutions as im2col and a GEMM";
  let description = [{
    On linalg ops on tensors: every 2-D convolution upstream's im2col
    patterns take (`linalg.conv_2d_nhwc_hwcf`, `linalg.conv_2d_nhwc_fhwc`,
    `linalg.conv_2d_nchw_fchw`, `linalg.depthwise_conv_2d_nhwc_hwc`) becomes
    an im2col `linalg.generic` (the input's sliding windows as a matrix) and
    a contraction, which `pp-gpu-gemm-to-runtime` hands to cuBLAS when it is
    a GEMM (the batch of images merges into its m dimension; a depthwise
    convolution gives a batch of matrix-vector products, which stay
    kernels). Other ops (pooling, convolution gradients, which pp-autodiff
    writes as generics) stay as they are and become kernels.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def PPGPUFuseElementwisePass
    : Pass<"pp-gpu-fuse-elementwise", "::mlir::func::FuncOp"> {
  let summary = "Fuse elementwise linalg ops so that each chain is one kernel";
  let description = [{
    On linalg ops on tensors: generalizes every named op that is not a
    contraction or a copy (`linalg.add`, `linalg.map`, `linalg.broadcast`,
    `linalg.reduce`, convolutions, ... become `linalg.generic`; a
    `linalg.copy`, whose generic form is an identity that canonicalization
    folds, keeps the distinct result it makes), then fuses
    each elementwise producer into its consumer (upstream's elementwise
    fusion patterns) when the producer's result has no other use and the
    consumer is not a contraction: contractions (`linalg.matmul`,
    `linalg.batch_matmul` and generic equivalents) stay as they are so that
    `pp-gpu-gemm-to-runtime` can hand them to cuBLAS. Last, a value a
    function returns more than once (folding can make two results one) is
    returned as a `linalg.copy` after its first occurrence:
    `buffer-results-to-out-params`, which the GPU pipeline runs after
    bufferization, needs distinct results.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def PPGPUSplitReductionsPass
    : Pass<"pp-gpu-split-reductions", "::mlir::func::FuncOp"> {
  let summary = "Split full reductions into parallel partial sums";
  let description = [{
    A `linalg.generic` on tensors with no parallel dimension (a loss summed
    to a scalar) has nothing to spread over GPU threads: lowered as it is,
    it runs as a kernel of one thread. For such ops with static shapes and
    at least `min-size` reduced elements, this pass folds the reduction
    dimensions into one (when every operand lays them out contiguously)
    and splits it (upstream's `splitReduction`) into `ratio` partial
    reductions, one per thread, and a final reduction of the partial
    results; `ratio` is the largest divisor of the size not above
    `max-ratio`, and ops whose best ratio is below 32 stay as they are. The
    summation order changes (partial sums first).
  }];
  let options = [
    Option<"minSize", "min-size", "int64_t", /*default=*/"4096",
           "Split reductions of at least this many elements">,
    Option<"maxRatio", "max-ratio", "int64_t", /*default=*/"1024",
           "At most this many partial reductions">,
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def PPGPUGemmToRuntimePass
    : Pass<"pp-gpu-gemm-to-runtime", "::mlir::ModuleOp"> {
  let summary = "Turn GEMM-class linalg ops on buffers into cuBLAS calls";
  let description = [{
    Replaces every contraction on memrefs (`linalg.matmul`,
    `linalg.batch_matmul` and any `linalg.generic` with a multiply-add body,
    at most one batch dimension, and m, n and k dimensions that each
    operand lays out contiguously, so that several loop dimensions can
    merge into one GEMM dimension, as an im2col'd convolution's image and
    pixel dimensions do) whose operands are all `f32` or all `f64` with a
    call to the runtime's
    `pprt_gpu_gemm_f32` / `pprt_gpu_gemm_f64` (runtime/include/pprt/Cuda.h),
    which runs cuBLAS on the rank's compute stream:

    ```
    pprt_gpu_gemm_f32(batch, m, n, k, transA, transB,
                      A, lda, strideA, B, ldb, strideB, C, ldc, strideC,
                      accumulate = 1)
    ```

    row-major, `C_b += op(A_b) op(B_b)` (linalg's semantics: the output is
    accumulated into). The declarations are marked `pp.stream_ordered` (they
    enqueue on the compute stream; see `pp-gpu-elide-host-waits`). An operand whose innermost dimension (of the two
    GEMM dimensions) has unit stride is passed as it is; one whose other
    dimension has unit stride is passed transposed. Contractions whose
    strides are not static, or that fit neither form, are left to be
    compiled as kernels, with a remark.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

def PPGPUElideHostWaitsPass
    : Pass<"pp-gpu-elide-host-waits", "::mlir::func::FuncOp"> {
  let summary = "Drop host waits before calls that run on the stream";
  let description = [{
    Runs after `gpu-async-region`, which makes the host wait for the stream
    (`gpu.wait [%token]`) before every call, since a call may read what the
    GPU writes. Calls to functions marked `pp.stream_ordered` (the
    `pprt_gpu_gemm_*` declarations `pp-gpu-gemm-to-runtime` makes: cuBLAS
    runs on the rank's compute stream, after the kernels before it) need no
    wait: this pass erases a host wait directly before such a call, so that
    a stage function no longer synchronizes at every GEMM.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

def PPGPUDeviceMemoryPass
    : Pass<"pp-gpu-device-memory", "::mlir::func::FuncOp"> {
  let summary = "Put every buffer of host code in GPU memory";
  let description = [{
    On bufferized functions whose buffers kernels will read: `memref.alloc`
    and `memref.alloca` become `gpu.alloc` (an alloca gets a `gpu.dealloc`
    before the return), `memref.dealloc` becomes `gpu.dealloc` placed right
    after the buffer's last use (upstream's ownership-based deallocation
    frees at the end of the block, which would keep every buffer of a rank
    program's step alive at once),
    `memref.get_global` (bufferized constants, which live in host memory)
    becomes a device buffer filled by `gpu.memcpy` and freed before the
    return, and `memref.copy` becomes `linalg.copy` (a kernel once the
    linalg ops are lowered). Function arguments are device buffers by
    convention: the runtime passes device memory.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::linalg::LinalgDialect"];
}

def PPGPUWrapHostLoopsPass
    : Pass<"pp-gpu-wrap-host-loops", "::mlir::func::FuncOp"> {
  let summary = "Move serial host code that touches buffers into one-thread kernels";
  let description = [{
    Runs after `convert-linalg-to-parallel-loops` and
    `scf-parallel-loop-tiling`. Loops without a parallel dimension (full
    reductions to a scalar, 0-d ops) become plain `scf.for` nests and loads
    and stores at the top of a function, which would run on the host over
    device memory. Each maximal run of such operations (with the scalar
    arithmetic between them; a `gpu.dealloc` in between moves after it) is
    wrapped in a two-level `scf.parallel` of one iteration each, which `gpu-map-parallel-loops` and
    `convert-parallel-loops-to-gpu` turn into a kernel of one block of one
    thread. Correct, not fast: a parallel reduction kernel is future work.

    Then checks that no host code is left that loads, stores or copies a
    buffer; each such operation is an error (the function cannot run on the
    GPU).
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect"];
}

#endif // PP_DIALECT_PP_TRANSFORMS_PASSES_TD
