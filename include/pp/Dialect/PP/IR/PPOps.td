//===- PPOps.td - pp dialect operations --------------------*- tablegen -*-===//

#ifndef PP_DIALECT_PP_IR_PPOPS_TD
#define PP_DIALECT_PP_IR_PPOPS_TD

include "pp/Dialect/PP/IR/PPDialect.td"
include "pp/Dialect/PP/IR/PPTypes.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/IR/RegionKindInterface.td"
include "mlir/IR/OpAsmInterface.td"

/// A 64-bit integer attribute read as a signed value (I64Attr reads as
/// uint64_t, which would hide negative stage, rank and size values from the
/// verifiers).
def PP_IntAttr : TypedSignlessIntegerAttrBase<I64, "int64_t",
                                               "64-bit signless integer attribute"> {
  let convertFromStorage = "$_self.getValue().getSExtValue()";
}

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def PP_PayloadActivation : I32EnumAttrCase<"activation", 0>;
def PP_PayloadGradient : I32EnumAttrCase<"gradient", 1>;
def PP_PayloadKindAttr : I32EnumAttr<"PayloadKind",
    "what a message between ranks carries",
    [PP_PayloadActivation, PP_PayloadGradient]> {
  let cppNamespace = "::mlir::pp";
}

//===----------------------------------------------------------------------===//
// Pipelines and stages
//===----------------------------------------------------------------------===//

def PP_PipelineOp : PP_Op<"pipeline", [
    Symbol, NoTerminator, SingleBlock, IsolatedFromAbove,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "A model cut into pipeline stages placed on ranks";
  let description = [{
    Holds one `pp.stage` per stage, in any order; stage indices must cover
    `0 .. S-1` exactly once. `num_ranks` is P, the number of ranks the stages
    are placed on. `latency` is the time of one point-to-point message
    between two ranks, in microseconds; `activation_bytes` the size of one
    activation (or gradient) message between consecutive stages.

    ```mlir
    pp.pipeline @two ranks(2) latency(0.5) activation_bytes(4096) {
      pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1, backward_weight = 1) memory(stash = 8192, weight_stash = 4096)
      pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1, backward_weight = 1) memory(stash = 8192, weight_stash = 4096)
    }
    ```
  }];
  let arguments = (ins
    SymbolNameAttr:$sym_name,
    PP_IntAttr:$num_ranks,
    DefaultValuedAttr<F64Attr, "0.0">:$latency,
    DefaultValuedAttr<PP_IntAttr, "0">:$activation_bytes);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// The stages, ordered by index (only valid on a verified op).
    ::llvm::SmallVector<StageOp, 8> getStagesByIndex();
    unsigned getNumStages();
  }];
}

def PP_StageOp : PP_Op<"stage", [HasParent<"PipelineOp">]> {
  let summary = "One pipeline stage: its rank, functions and costs";
  let description = [{
    Stage `index` runs on rank `rank`. A *concrete* stage names its
    functions: `forward` (F), and either `backward` (B and W fused) or
    `backward_input` (B) with `backward_weight` (W); each is a `func.func`
    symbol in the enclosing module. A stage with only `forward` is what
    `pp-partition` makes before the backward functions exist. An *abstract* stage names no function and
    must give its costs, so that schedules can be planned and simulated
    without a model.

    Costs (`costs(...)`) are the times of F, B and W on one micro-batch, in
    microseconds; a fused backward takes B + W. Memory (`memory(...)`) is
    `stash`, the bytes one F keeps until its backward (M_B), and
    `weight_stash`, the bytes one B keeps until its W (M_W).

    ```mlir
    pp.stage 0 on rank 0 costs(forward = 2, backward_input = 2, backward_weight = 1) memory(stash = 1024, weight_stash = 512)
    pp.stage 1 on rank 1 forward @f1 backward_input @b1 backward_weight @w1
    ```
  }];
  let arguments = (ins
    PP_IntAttr:$index,
    PP_IntAttr:$rank,
    OptionalAttr<FlatSymbolRefAttr>:$forward,
    OptionalAttr<FlatSymbolRefAttr>:$backward,
    OptionalAttr<FlatSymbolRefAttr>:$backward_input,
    OptionalAttr<FlatSymbolRefAttr>:$backward_weight,
    OptionalAttr<F64Attr>:$forward_time,
    OptionalAttr<F64Attr>:$backward_input_time,
    OptionalAttr<F64Attr>:$backward_weight_time,
    DefaultValuedAttr<PP_IntAttr, "0">:$stash_bytes,
    DefaultValuedAttr<PP_IntAttr, "0">:$weight_stash_bytes);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// True if the stage names no function.
    bool isAbstract() {
      return !getForward() && !getBackward() && !getBackwardInput() &&
             !getBackwardWeight();
    }
  }];
}

//===----------------------------------------------------------------------===//
// Schedules
//===----------------------------------------------------------------------===//

def PP_ScheduleOp : PP_Op<"schedule", [
    Symbol, NoTerminator, IsolatedFromAbove,
    DeclareOpInterfaceMethods<RegionKindInterface>,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "Per-rank programs of pipeline actions";
  let description = [{
    In the SSA form, one region per rank of the pipeline `pipeline`, in rank
    order (the compact form, below, lists the actions instead). Each
    region is a straight-line SSA program of actions (`pp.forward`,
    `pp.backward`, `pp.backward_input`, `pp.backward_weight`, `pp.send`,
    `pp.recv`); values carry activations, gradients and stashes from action
    to action, so the values live at a point of a rank's program are the
    memory it holds there.

    The rank regions are graph regions as far as MLIR's dominance check is
    concerned: the verifier checks program order itself, so that a backward
    placed before its forward is reported as exactly that.

    A schedule is *compact* when it lists each rank's actions as plain
    (kind, stage, micro-batch, peer) entries instead of ops: `compact`
    after the attributes, then `rank R [action, ...]` per rank, each action
    `forward S M` (`forward S M overlapped`), `backward S M`,
    `backward_input S M`, `backward_weight S M`, `send activation|gradient
    S M to R` or `recv activation|gradient S M from R`. It has no regions
    and no SSA values: every value's producer is implied by (payload, stage,
    micro-batch), activations and gradients are
    `tensor<activation_bytes x i8>`, and stashes have the stage's sizes. It
    is the same schedule as one op (16 bytes per action in memory), for
    pipelines whose SSA form would be millions of ops to build, verify and
    write (`pp-schedule{form=auto}` picks it above 100 000 actions); its
    bytecode is about as large as the SSA form's. Errors name the rank and
    the action's index in the rank's list, counted from 0. The verifier runs the same library checks on
    it, and checks that a stage naming only a fused backward function runs
    no B or W, naming the rank and the action's index; each compute action
    is stored with no payload bit and peer -1, so a schedule has one
    encoding. `pp-expand-schedule` turns it into the SSA form (its
    all-reduces into `pp.allreduce` ops), and convert-pp-to-runtime, which
    needs that form, expands it first; pp-insert-allreduce lists its
    all-reduces in it.

    ```mlir
    pp.schedule @s pipeline(@p) microbatches(1) compact
    rank 0 [forward 0 0, send activation 0 0 to 1, recv gradient 1 0 from 1, backward 0 0]
    rank 1 [recv activation 0 0 from 0, forward 1 0, backward 1 0, send gradient 1 0 to 0]
    ```

    `pp.allreduce` ops are entries of the lists too (`allreduce S replicas
    D bytes B`, with `bucket K` in a bucket), right after the action they
    follow, held in `packed_all_reduces` (six i64 each: rank, index of the
    action before it, stage, replicas, bytes, bucket or -1) and checked as
    the op's verifier checks them.

    A schedule is *compute-only* when a value that crosses ranks has no
    `pp.send`/`pp.recv`: the consuming action then has no operand for it and
    the dependency is implied by (stage, micro-batch). `pp-schedule` builds
    compute-only schedules (with `communicate`, as `pp-plan` runs it, it
    adds the messages itself); `pp-insert-communication` adds the messages.

    The verifier checks every action against the pipeline: stage, rank and
    micro-batch in range, each stage on its own rank, every (stage,
    micro-batch) forward and backward run exactly once, each backward after
    its forward and each W after its B, operands produced by the right
    action, and every send matched by one recv with the same payload, type
    and peers. `pp-verify-schedule` adds deadlock freedom.

    ```mlir
    pp.schedule @s pipeline(@p) microbatches(1)
    rank 0 {
      %a, %s0 = pp.forward stage 0 microbatch 0 : () -> (tensor<16xi8>, !pp.stash<64>)
      pp.send activation stage 0 microbatch 0 to rank 1 (%a) : tensor<16xi8>
      %g = pp.recv gradient stage 1 microbatch 0 from rank 1 : tensor<16xi8>
      pp.backward stage 0 microbatch 0 (%g, %s0) : (tensor<16xi8>, !pp.stash<64>) -> ()
    }
    rank 1 {
      %a = pp.recv activation stage 0 microbatch 0 from rank 0 : tensor<16xi8>
      %s1 = pp.forward stage 1 microbatch 0 (%a) : (tensor<16xi8>) -> !pp.stash<64>
      %g = pp.backward stage 1 microbatch 0 (%s1) : (!pp.stash<64>) -> tensor<16xi8>
      pp.send gradient stage 1 microbatch 0 to rank 0 (%g) : tensor<16xi8>
    }
    ```
  }];
  let arguments = (ins
    SymbolNameAttr:$sym_name,
    FlatSymbolRefAttr:$pipeline,
    PP_IntAttr:$num_microbatches,
    OptionalAttr<DenseI64ArrayAttr>:$rank_action_counts,
    OptionalAttr<DenseI32ArrayAttr>:$packed_actions,
    OptionalAttr<DenseI64ArrayAttr>:$packed_all_reduces);
  let regions = (region VariadicRegion<SizedRegion<1>>:$ranks);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// True for the compact form: actions in `packed_actions` (four i32 per
    /// action: kind | payload << 3 | overlapped << 4, stage, micro-batch,
    /// peer or -1), `rank_action_counts` per rank, no regions.
    bool isCompact() { return getRankActionCounts().has_value(); }
    unsigned getNumRanks() {
      return isCompact() ? getRankActionCounts()->size() : getRanks().size();
    }
    /// The pipeline this schedule refers to, or null.
    PipelineOp getPipelineOp();
    /// emitOpError without the note that prints the op: a schedule can
    /// have millions of actions, and one error would print them all.
    InFlightDiagnostic emitScheduleError();
  }];
}

def PP_NamedResults
    : DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>;

class PP_ActionOp<string mnemonic, list<Trait> traits = []>
    : PP_Op<mnemonic, !listconcat(traits, [HasParent<"ScheduleOp">])> {
  code extraActionDeclaration = [{
    /// Stage and micro-batch as plain integers.
    int64_t getStageIndex() { return getStage(); }
    int64_t getMicrobatchIndex() { return getMicrobatch(); }
  }];
}

def PP_ForwardOp : PP_ActionOp<"forward", [PP_NamedResults]> {
  let summary = "F: forward of one stage on one micro-batch";
  let description = [{
    Runs the forward of stage `stage` on micro-batch `microbatch`. `input`,
    the activation from the previous stage, is absent on stage 0 (which reads
    the micro-batch) and in compute-only schedules when the previous stage is
    on another rank. `output`, the activation for the next stage, is absent
    on the last stage. `stash` is what the backward will need (M_B bytes).

    With `overlapped`, the forward runs overlapped with the next compute
    action of the rank, which must be a backward of another (stage,
    micro-batch): DualPipe's "F&B" pair (DeepSeek-V3 technical report, sec.
    3.2.1). The pair starts when both are ready.

    ```mlir
    %y, %st = pp.forward stage 1 microbatch 3 (%x) : (tensor<16xi8>) -> (tensor<16xi8>, !pp.stash<64>)
    %y2, %st2 = pp.forward stage 1 microbatch 4 overlapped (%x2) : (tensor<16xi8>) -> (tensor<16xi8>, !pp.stash<64>)
    ```
  }];
  let arguments = (ins PP_IntAttr:$stage, PP_IntAttr:$microbatch,
                       UnitProp:$overlapped,
                       Optional<AnyRankedTensor>:$input);
  let results = (outs Optional<AnyRankedTensor>:$output, PP_StashType:$stash);
  let assemblyFormat = [{
    `stage` $stage `microbatch` $microbatch (`overlapped` $overlapped^)?
    (` ` `(` $input^ `)`)? attr-dict `:` functional-type(operands, results)
  }];
  let extraClassDeclaration = extraActionDeclaration;
}

def PP_BackwardOp : PP_ActionOp<"backward", [PP_NamedResults]> {
  let summary = "Fused backward (B and W) of one stage on one micro-batch";
  let description = [{
    Computes the gradients of stage `stage` on micro-batch `microbatch` for
    its input and its parameters in one action. `grad`, the gradient of the
    stage's output, is absent on the last stage (which starts from its loss)
    and in compute-only schedules when the next stage is on another rank.
    `stash` comes from the forward of the same (stage, micro-batch).
    `input_grad` is absent on stage 0.
    On a stage that names B and W functions, a fused backward runs them back
    to back (schedules that mix both forms, such as DualPipeV, need it).

    ```mlir
    %gx = pp.backward stage 1 microbatch 3 (%gy, %st) : (tensor<16xi8>, !pp.stash<64>) -> tensor<16xi8>
    ```
  }];
  let arguments = (ins PP_IntAttr:$stage, PP_IntAttr:$microbatch,
                       Optional<AnyRankedTensor>:$grad, PP_StashType:$stash);
  let results = (outs Optional<AnyRankedTensor>:$input_grad);
  let assemblyFormat = [{
    `stage` $stage `microbatch` $microbatch ` ` `(` operands `)` attr-dict `:`
    functional-type(operands, results)
  }];
  let extraClassDeclaration = extraActionDeclaration;
}

def PP_BackwardInputOp : PP_ActionOp<"backward_input", [PP_NamedResults]> {
  let summary = "B: gradient of one stage's input on one micro-batch";
  let description = [{
    The input-gradient half of the backward (B, also B_I). Operands as for
    `pp.backward`; `weight_stash` is what the matching `pp.backward_weight`
    needs (M_W bytes).

    ```mlir
    %gx, %ws = pp.backward_input stage 1 microbatch 3 (%gy, %st) : (tensor<16xi8>, !pp.stash<64>) -> (tensor<16xi8>, !pp.stash<32>)
    ```
  }];
  let arguments = (ins PP_IntAttr:$stage, PP_IntAttr:$microbatch,
                       Optional<AnyRankedTensor>:$grad, PP_StashType:$stash);
  let results = (outs Optional<AnyRankedTensor>:$input_grad,
                      PP_StashType:$weight_stash);
  let assemblyFormat = [{
    `stage` $stage `microbatch` $microbatch ` ` `(` operands `)` attr-dict `:`
    functional-type(operands, results)
  }];
  let extraClassDeclaration = extraActionDeclaration;
}

def PP_BackwardWeightOp : PP_ActionOp<"backward_weight"> {
  let summary = "W: gradient of one stage's parameters on one micro-batch";
  let description = [{
    The weight-gradient half of the backward (W, also B_W); accumulates into
    the stage's parameter gradients. May run any time after its B.

    ```mlir
    pp.backward_weight stage 1 microbatch 3 (%ws) : !pp.stash<32>
    ```
  }];
  let arguments = (ins PP_IntAttr:$stage, PP_IntAttr:$microbatch,
                       PP_StashType:$weight_stash);
  let assemblyFormat = [{
    `stage` $stage `microbatch` $microbatch ` ` `(` $weight_stash `)`
    attr-dict `:` qualified(type($weight_stash))
  }];
  let extraClassDeclaration = extraActionDeclaration;
}

def PP_SendOp : PP_ActionOp<"send"> {
  let summary = "Send an activation or gradient to another rank";
  let description = [{
    Sends `value` to rank `peer`. `stage` and `microbatch` name the action
    that produced it (the forward of `stage` for an activation, the backward
    of `stage` for a gradient), so a send and its `pp.recv` carry the same
    (stage, micro-batch, payload) key. The send blocks until the peer posts
    the matching receive; `pp-insert-communication` orders sends and
    receives so that this cannot deadlock.

    ```mlir
    pp.send activation stage 0 microbatch 1 to rank 1 (%a) : tensor<16xi8>
    ```
  }];
  let arguments = (ins PP_PayloadKindAttr:$payload, PP_IntAttr:$stage,
                       PP_IntAttr:$microbatch, PP_IntAttr:$peer,
                       AnyRankedTensor:$value);
  let assemblyFormat = [{
    $payload `stage` $stage `microbatch` $microbatch `to` `rank` $peer
    ` ` `(` $value `)` attr-dict `:` type($value)
  }];
  let extraClassDeclaration = extraActionDeclaration;
}

def PP_RecvOp : PP_ActionOp<"recv", [PP_NamedResults]> {
  let summary = "Receive an activation or gradient from another rank";
  let description = [{
    Receives from rank `peer` the payload that the action (`stage`,
    `microbatch`) produced there; see `pp.send`.

    ```mlir
    %a = pp.recv activation stage 0 microbatch 1 from rank 0 : tensor<16xi8>
    ```
  }];
  let arguments = (ins PP_PayloadKindAttr:$payload, PP_IntAttr:$stage,
                       PP_IntAttr:$microbatch, PP_IntAttr:$peer);
  let results = (outs AnyRankedTensor:$value);
  let assemblyFormat = [{
    $payload `stage` $stage `microbatch` $microbatch `from` `rank` $peer
    attr-dict `:` type($value)
  }];
  let extraClassDeclaration = extraActionDeclaration;
}

def PP_AllReduceOp : PP_Op<"allreduce", [HasParent<"ScheduleOp">]> {
  let summary = "Sum a stage's parameter gradients over the pipeline's replicas";
  let description = [{
    Data parallelism over the pipeline (`pp-insert-allreduce`): the
    pipeline runs as `replicas` copies (D >= 2), each on its own
    micro-batches, and this op starts the collective that sums stage
    `stage`'s parameter gradients, `bytes` bytes, over the D ranks that run
    the stage in the D replicas. It starts here, where the stage's gradients
    of the step are final, and completes before the update, so the rank's
    later actions overlap it. Every replica runs the same programs, so the
    D ranks of a stage reach their all-reduces in the same order.

    With `bucket` (`pp-insert-allreduce{bucket-bytes=N}`), the consecutive
    all-reduces of a rank with the same bucket are one collective of their
    stages' gradients together, started at the last of them.

    The verifier checks that the stage runs on this rank, that no backward
    or W of the stage follows on the rank (the gradients would not be
    final), that a stage has one all-reduce, and that the members of a
    bucket follow one another. The schedule's verifier checks the
    all-reduces as a whole: with any, every stage that runs a backward or
    W on its rank has one (a stage without would keep gradients that differ
    between the replicas), and all are over the same number of replicas.

    ```mlir
    pp.backward_weight stage 1 microbatch 3 (%ws) : !pp.stash<32>
    pp.allreduce gradients stage 1 replicas 2 bytes 4096
    // Stages 0 and 2 of a rank in one collective:
    pp.allreduce gradients stage 2 replicas 2 bytes 4096 bucket 0
    pp.allreduce gradients stage 0 replicas 2 bytes 4096 bucket 0
    ```
  }];
  let arguments = (ins PP_IntAttr:$stage, PP_IntAttr:$replicas,
                       PP_IntAttr:$bytes, OptionalAttr<PP_IntAttr>:$bucket);
  let assemblyFormat = [{
    `gradients` `stage` $stage `replicas` $replicas `bytes` $bytes
    (`bucket` $bucket^)? attr-dict
  }];
  let hasVerifier = 1;
}

#endif // PP_DIALECT_PP_IR_PPOPS_TD
