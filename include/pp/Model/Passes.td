//===- Passes.td - passes on the model --------------------*- tablegen -*-===//

#ifndef PP_MODEL_PASSES_TD
#define PP_MODEL_PASSES_TD

include "mlir/Pass/PassBase.td"

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
           "Lift constants with at least this many elements (>= 1; default "
           "1024)">,
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
// (docs/ModelConventions.md)
//===----------------------------------------------------------------------===//

def PPPartitionPass : Pass<"pp-partition", "::mlir::ModuleOp"> {
  let summary = "Cut a model function into pipeline stages";
  let description = [{
    Cuts `function` (one block of ops on tensors) into `num-stages`
    contiguous stages in block order, minimizing the largest stage's FLOPs
    (each linalg op: its static iteration space times the arithmetic ops in
    its body) and, among equal cuts, the bytes that cross stage boundaries.
    Explicit cuts replace the search: option `cuts` (cut after these ops
    that do work, numbered from 0 in block order; ops that do no work,
    such as constants, `tensor.empty` and ops on parameters only, are
    recomputed where used and not numbered), else `pp.split_point` unit
    attributes on ops ("cut after this op"; on an op that does no work:
    after the last op before it that does). Either must give `num-stages`
    stages when that is set (0: as many as they make). Parameters are the arguments marked `pp.parameter` (see
    pp-lift-parameters) or listed in `parameters`; every other argument is
    data and enters at stage 0.

    Creates `@<function>_stage<s>` (its inputs from the previous stage, then
    its parameters; its outputs for the next stage, or the function's
    results), `@<function>_staged` calling the stages in order (equal to the
    original; `pp-exec --compare` checks it bitwise), and `pp.pipeline
    @<function>_pipeline` with one stage per rank, forward costs of
    FLOPs / `flops-per-us` (backward-input and backward-weight estimated as
    equal to the forward until measured) and the bytes each stage keeps.
    `@<function>_staged` records the cuts (`pp.cuts`, the last op of every
    stage but the last) and who chose them (`pp.cut_by`). Prints the cuts and
    per stage (to standard error, or to `report-file`): ops, FLOPs,
    parameter bytes, stash bytes, bytes sent to the next stage, and which
    ops it holds (`ops a..b`).
  }];
  let options = [
    Option<"functionName", "function", "std::string", /*default=*/"",
           "The model function; required">,
    Option<"numStages", "num-stages", "int64_t", /*default=*/"0",
           "Number of stages S (or mark cuts with pp.split_point)">,
    ListOption<"parameterIndices", "parameters", "int64_t",
               "Arguments that are parameters (besides those marked "
               "pp.parameter)">,
    ListOption<"cutList", "cuts", "int64_t",
               "Cut after these ops that do work, numbered from 0 in block "
               "order as the report's 'ops a..b' count them (strictly "
               "increasing; replaces pp.split_point markers and the search)">,
    Option<"flopsPerMicrosecond", "flops-per-us", "double", /*default=*/"1e4",
           "Throughput that turns FLOPs into stage times (FLOP per us; "
           "default 1e4)">,
    Option<"printReport", "print-report", "bool", /*default=*/"true",
           "Print the per-stage report (default true)">,
    Option<"reportFile", "report-file", "std::string", /*default=*/"",
           "Write the report to this file ('-': standard output); default: "
           "standard error">,
  ];
  let dependentDialects = ["::mlir::pp::PPDialect",
                           "::mlir::func::FuncDialect"];
}

def PPSplitOpsPass : Pass<"pp-split-ops", "::mlir::ModuleOp"> {
  let summary = "Split ops too large for one stage into pieces along a "
                "parallel loop";
  let description = [{
    A stage cut in block order cannot balance a model whose single ops take
    more than a stage's share of the work (a decoder layer's MLP projections,
    a convolution). This pass splits every linalg op of `function` that
    pp-partition places in a stage (not the ops on parameters only, which it
    recomputes where used) whose FLOPs (as pp-partition counts them) exceed
    `max-fraction` of those ops' total into k = ceil(FLOPs / (max-fraction * total)) pieces
    along one parallel loop: the largest one (ties: the outermost) that each
    operand indexes at most once and as a plain loop index, k capped by its
    range. Piece i computes the slice of the result along that loop (sizes
    differing by at most one) from `tensor.extract_slice`s of the operands
    that the loop indexes; the pieces are written in order into a
    `tensor.empty` by `tensor.insert_slice`s, whose last result replaces the
    op. Every element of the result is computed once, from the same
    operands, so the result equals the op's up to rounding (the code
    generator or a BLAS may sum a narrower piece in another order).

    An operand made by an all-parallel linalg op (a transposed weight, a
    broadcast bias) that only the split op uses is split with it, so each
    piece reads its slice of the weight (and pp-partition recomputes that
    slice in the stage that uses it: a weight split across stages becomes a
    parameter those stages share, unless pp-split-parameters makes each
    slice a parameter of its own). Splat constants and `tensor.empty`
    initial values are made at the piece's shape. Ops with more than one
    result, dynamic shapes or a `pp.split_point` marker are left alone.

    Emits one remark per split op: its FLOPs, share of the total, the loop
    and the piece count.

    ```mlir
    // -pp-split-ops="function=f max-fraction=0.5": a matmul that is 100%
    // of @f becomes two matmuls on halves of %w's columns.
    %a = tensor.extract_slice %w[0, 0] [16, 8] [1, 1]
    %p0 = linalg.generic ... ins(%x, %a) outs(%init0) -> tensor<4x8xf32>
    %r0 = tensor.insert_slice %p0 into %empty[0, 0] [4, 8] [1, 1]
    %b = tensor.extract_slice %w[0, 8] [16, 8] [1, 1]
    %p1 = linalg.generic ... ins(%x, %b) outs(%init1) -> tensor<4x8xf32>
    %r = tensor.insert_slice %p1 into %r0[0, 8] [4, 8] [1, 1]
    ```
  }];
  let options = [
    Option<"functionName", "function", "std::string", /*default=*/"",
           "The model function; required">,
    Option<"maxFraction", "max-fraction", "double", /*default=*/"0",
           "Split ops above this share of the function's FLOPs, in (0, 1]; "
           "required">,
  ];
  let dependentDialects = ["::mlir::tensor::TensorDialect",
                           "::mlir::arith::ArithDialect"];
}

def PPSplitParametersPass : Pass<"pp-split-parameters", "::mlir::ModuleOp"> {
  let summary = "Make a parameter read only in slices one parameter per slice";
  let description = [{
    After pp-split-ops a weight whose op was split is read only through
    `tensor.extract_slice`s, one per piece, and the pieces may land in
    different stages. As one parameter it would be shared by those stages:
    each keeps all of it, its W writes a full-size gradient and the runtime
    sums them. This pass replaces every `pp.parameter` argument of
    `function` that is read only by static, unit-stride, not rank-reducing
    `tensor.extract_slice`s along one dimension, whose ranges are pairwise
    equal or disjoint and together cover that dimension, by one argument per
    range (in order, where the argument was): each piece is then a parameter
    of its own, held, differentiated and updated by the stage that reads it.
    The slices are replaced by the pieces, so the function computes the same
    values; the gradient of piece i is slice i of the whole one's.

    Every piece keeps the argument's attributes and gets
    `pp.parameter_piece = array<i64: argument, dim, offset>`: the argument's
    position before any split (pieces an earlier run made count as the one
    argument they replaced), the dimension and the piece's offset along it
    (pp-run initializes the whole parameter and hands each piece its
    slice). Arguments that already are pieces are left alone. The function
    must not be called (its signature changes). One remark per split
    parameter.

    ```mlir
    // -pp-split-parameters="function=f"
    func.func @f(%x: tensor<4x16xf32>, %w: tensor<16x16xf32> {pp.parameter}) {
      %a = tensor.extract_slice %w[0, 0] [16, 8] [1, 1]
      %b = tensor.extract_slice %w[0, 8] [16, 8] [1, 1]
      ...
    // becomes
    func.func @f(%x: tensor<4x16xf32>,
        %w0: tensor<16x8xf32> {pp.parameter,
                               pp.parameter_piece = array<i64: 1, 1, 0>},
        %w1: tensor<16x8xf32> {pp.parameter,
                               pp.parameter_piece = array<i64: 1, 1, 8>}) {
    ```
  }];
  let options = [
    Option<"functionName", "function", "std::string", /*default=*/"",
           "The model function; required">,
  ];
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
           "How many leading results are input gradients (default 1; 0 on "
           "stage 0)">,
  ];
  let dependentDialects = ["::mlir::func::FuncDialect"];
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
    * with `recompute=full` or `selective`, moves forward ops into the
      backward, which makes them again from what F keeps instead of reading
      their results from the stash (activation recomputation): full keeps
      only the stage's inputs, selective also the outputs of contractions
      and convolutions, `selective:N` only those of more than N FLOPs per
      output element (the cheapest to remake per byte stashed, such as
      attention scores, are recomputed too). The forward still computes everything once; the
      recomputed ops repeat the same operations, so the gradients are the
      same bits. The backward's cost counts the recomputation;
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
    `--check-gradients`. docs/ModelConventions.md describes the conventions.
  }];
  let options = [
    Option<"pipelineName", "pipeline", "std::string", /*default=*/"",
           "The pipeline whose stages to differentiate (default: the only "
           "one in the module)">,
    Option<"splitBackward", "split-backward", "bool", /*default=*/"true",
           "Split each backward into B and W (default true; false: stages "
           "name the fused backward)">,
    Option<"flopsPerMicrosecond", "flops-per-us", "double", /*default=*/"1e4",
           "Throughput that turns FLOPs into stage times (FLOP per us; "
           "default 1e4)">,
    Option<"recompute", "recompute", "std::string", /*default=*/"\"none\"",
           "Activation recomputation: none (default: F stashes what the "
           "backward reads), full (F stashes only the stage's inputs; the "
           "backward recomputes the forward) or selective (GEMM and "
           "convolution outputs stay stashed; the cheap ops are recomputed), "
           "selective:N (selective, and the contractions and convolutions "
           "of at most N FLOPs per output element are recomputed too); or "
           "one of them per stage, comma-separated">,
  ];
  let dependentDialects = ["::mlir::pp::PPDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::tensor::TensorDialect"];
}

def PPSaveSplitPointsPass
    : Pass<"pp-save-split-points", "::mlir::ModuleOp"> {
  let summary = "Carry pp.split_point markers in locations through rewrites";
  let description = [{
    The first half of how `pp-prepare-model` keeps the user's cuts: moves
    every `pp.split_point` unit attribute ("cut after this op", read by
    `pp-partition`) into the op's location, as a fused location whose
    metadata is `{pp.split_point = N}`, and lists the original locations in
    the module attribute `pp.split_points`. Rewrites (TOSA to linalg, the
    inliner, elementwise to linalg, generalization, canonicalization) drop
    attributes but give the ops they make the location of the op they
    replace, so the marker reaches every op the marked op became.
    `pp-restore-split-points` turns it back into the attribute.
  }];
}

def PPRestoreSplitPointsPass
    : Pass<"pp-restore-split-points", "::mlir::ModuleOp"> {
  let summary = "Turn pp-save-split-points' locations back into pp.split_point";
  let description = [{
    The second half (see `pp-save-split-points`): in every function, marks
    with `pp.split_point` the last top-level op, in block order, whose
    location carries a saved marker, so that the cut falls after everything
    the marked op became. A marked op inlined from a callee marks each
    inlined copy (the call sites tell them apart). Removes the markers from
    all locations and the module attribute. A marker that no op carries any
    more (the marked op folded away or was erased) is an error at the marked
    op's location.
  }];
}

def PPRoundToBF16Pass : Pass<"pp-round-to-bf16", "::mlir::ModuleOp"> {
  let summary = "Compute every contraction on bf16 inputs, accumulating in f32";
  let description = [{
    Mixed precision as bf16 training uses it (GEMM inputs in bf16,
    accumulation, reductions, elementwise ops and the loss in f32, f32
    master weights): for every contraction and convolution (linalg ops that
    `linalg::isaContractionOpInterface` or `isaConvolutionOpInterface`
    accept, named or generic) of every `func.func` with a body, each of its
    two f32 tensor inputs is rounded to bf16 and back
    (`linalg.map { arith.truncf, arith.extf }`, round to nearest even), so
    the op computes the products of bf16 values and sums them in f32: what
    a bf16 GEMM with f32 accumulation computes, on any f32 GEMM path. A
    value that several contractions read is rounded once per function. A
    contraction of one value with itself (a sum of squares, a norm) is a
    reduction and stays f32.

    Run after the backward pass is derived: the gradient GEMMs take bf16
    inputs too and the rounding's derivative is the identity (the gradient
    reaches the f32 master weight unchanged), as in bf16 training.

    A contraction whose inputs are not f32 (f64, integers) cannot run in
    bf16: an error at the op naming its element type.
  }];
  let options = [
    ListOption<"exclude", "exclude", "std::string",
               "Functions to leave in f32 (the f32 reference of --check)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect"];
}

#endif // PP_MODEL_PASSES_TD
