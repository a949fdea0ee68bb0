//===- Passes.td - conversions of pp IR to code ----------*- tablegen -*-===//

#ifndef PP_CONVERSION_PASSES_TD
#define PP_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertPPToRuntimePass
    : Pass<"convert-pp-to-runtime", "::mlir::ModuleOp"> {
  let summary = "Turn each rank's program into a function calling the runtime";
  let description = [{
    For the communicating `pp.schedule` `schedule` (default: the only one),
    whose pipeline's stages name their functions as `pp-differentiate-stages`
    makes them, creates one function per rank,

    ```mlir
    func.func @<schedule>_rank<r>(%rank: !llvm.ptr)
        attributes {pp.rank = r, pprt.boundary_parts = K}
    ```

    that runs the rank's actions in order on tensors: it reads the rank's
    parameters and stage 0's micro-batch data from the runtime, calls F, B,
    W (or the fused backward) of each action's stage, passes every tensor a
    `pp.send`/`pp.recv` carries to the runtime (one part per tensor: part k
    of a payload travels as kind + 2k, for any number of parts; K is the
    most parts any stage boundary carries in one direction, which the
    launcher passes to the runtime's world), hands the loss of the last stage
    and every parameter gradient to the runtime, seeds the last stage's
    backward with the runtime's loss seed (1/M), brackets every action for
    the trace and accounts the activation stash (+ when F keeps it, - when
    the last backward that reads it ends; a split backward under
    `stash-accounting`). Runtime entry points are declared
    as private functions: `pprt_action_begin/end` and `pprt_stash`
    (runtime/include/pprt/pprt.h), and `pprt_memref_<op>_<element type>`
    taking unranked memrefs (runtime/include/pprt/pprt_memref.h). The
    result is ordinary tensor code: bufferize it and lower it to LLVM
    (pp-run does; docs/Runtime.md).
  }];
  let options = [
    Option<"scheduleName", "schedule", "std::string", /*default=*/"",
           "The schedule to convert (default: the only one in the module)">,
    Option<"stashAccounting", "stash-accounting", "std::string",
           /*default=*/"\"convert\"",
           "How pprt_stash accounts a split backward, as pp-simulate's "
           "option of the same name: convert (M_W - M_B after B; default) "
           "or hold (+M_W before B, -M_B after it)">,
  ];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::bufferization::BufferizationDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

def PPGemmToRuntimePass : Pass<"pp-gemm-to-runtime", "::mlir::ModuleOp"> {
  let summary = "Turn GEMM-class linalg ops on buffers into BLAS calls";
  let description = [{
    Replaces every contraction on memrefs (`linalg.matmul`,
    `linalg.batch_matmul` and any `linalg.generic` with a multiply-add body,
    at most one batch dimension, and m, n and k dimensions that each
    operand lays out contiguously, so that several loop dimensions can
    merge into one GEMM dimension, as an im2col'd convolution's image and
    pixel dimensions do) whose operands are all `f32` or all `f64` with a
    call into the runtime, one calling convention for both back ends:

    ```
    pprt_<target>_gemm_f32(batch, m, n, k, transA, transB,
                           A, lda, strideA, B, ldb, strideB, C, ldc, strideC,
                           accumulate = 1)
    ```

    row-major, `C_b += op(A_b) op(B_b)` (linalg's semantics: the output is
    accumulated into). `target=cpu` calls `pprt_cpu_gemm_f32/_f64`
    (runtime/include/pprt/pprt.h: OpenBLAS's cblas_sgemm/dgemm, one call per
    batch entry, in the calling thread); `target=gpu` calls
    `pprt_gpu_gemm_f32/_f64` (runtime/include/pprt/Cuda.h: cuBLAS on the
    rank's compute stream; the declarations are marked `pp.stream_ordered`,
    see `pp-gpu-elide-host-waits`). An operand whose innermost dimension (of
    the two GEMM dimensions) has unit stride is passed as it is; one whose
    other dimension has unit stride is passed transposed. A contraction
    without a batch dimension whose merged dimensions are not contiguous
    (im2col's convolutions, `pp-im2col`: the image dimension sits between
    the channels and the pixels) takes one of its output's dimensions as
    the batch, or on the CPU one of its reductions (the batch's products
    then accumulate into one C, in order); an operand that the batch does
    not index gets batch stride 0. Contractions whose strides are not
    static, or that fit none of these forms, stay linalg ops (the CPU
    lowering makes loops of them, the GPU lowering kernels), with a remark.
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"gpu\"",
           "cpu (pprt_cpu_gemm_*, OpenBLAS) or gpu (pprt_gpu_gemm_*, "
           "cuBLAS)">,
  ];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

def PPIm2colPass : Pass<"pp-im2col"> {
  let summary = "Copy the windowed input of convolutions into im2col's "
                "column matrix, making them GEMMs";
  let description = [{
    Rewrites each convolution-shaped linalg op on tensors: a
    `linalg.generic` (or a named convolution, generalized) whose body
    multiplies its two inputs and adds the product to its output, all `f32`
    or all `f64` with static shapes, one input read through a window (each
    result a sum of loop dimensions times positive constants plus a
    constant, each dimension in one result, as `d2 * 2 + d5` for a stride of
    2) and the other input and the output through projected permutations,
    each loop dimension of the window shared with exactly one of them.

    That input is copied by a `linalg.generic` into im2col's column matrix,
    a tensor indexed by the window's loop dimensions: the batch (the
    window's first result, if a plain dimension) outermost, then the
    dimensions shared with the other input in that input's order, then
    those shared with the output in the output's order; the op then reads
    the matrix through a projected permutation, which makes it a contraction
    that `pp-gemm-to-runtime` turns into one GEMM per image. For an NCHW
    convolution `y[n, f, oh, ow] += x[n, c, oh*s + kh, ow*s + kw] *
    w[f, c, kh, kw]` the matrix is `(n, c, kh, kw, oh, ow)`; for its weight
    gradient `dw[f, c, kh, kw] += x[...] * dy[n, f, oh, ow]` it is
    `(n, oh, ow, c, kh, kw)`. The input gradient needs none: `pp-autodiff`
    already writes it into a column matrix and folds that (col2im).

    The CPU lowering of `pp-exec` and `pp-run` runs this before
    bufferization (unless `--no-blas` or `--no-im2col`); the GPU lowering's
    `pp-gpu-convolutions-to-gemm` runs it too, with `target=gpu`, which
    leaves the weight gradient alone (its batch, the image, is a reduction:
    cuBLAS's batched GEMM cannot accumulate over it). Other ops are left
    alone.
    Reference: K. Chellapilla, S. Puri, P. Simard, "High performance
    convolutional neural networks for document processing", 2006, section 3.
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"cpu\"",
           "cpu (every form) or gpu (only convolutions whose batch the "
           "output indexes)">,
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def ConvertHostToLLVMPass
    : Pass<"convert-host-to-llvm", "::mlir::ModuleOp"> {
  let summary = "Lower host code on buffers to the LLVM dialect in one "
                "dialect conversion";
  let description = [{
    The last step of the CPU JIT's lowering (`pp-run`, `pp-exec`;
    docs/Execution.md), once stage functions and rank programs are on
    buffers, their loops are `cf` branches and their math ops are calls or
    LLVM intrinsics:

    1. `convert-vector-to-llvm` on each function that has vector ops (its
       progressive lowering of transfers, contractions and masks is a
       greedy rewrite of every op it walks);
    2. `memref`, `arith`, `index`, `cf`, `ub` and `func` to the LLVM
       dialect with the patterns of `finalize-memref-to-llvm`,
       `convert-arith-to-llvm`, `convert-index-to-llvm`,
       `convert-cf-to-llvm`, `convert-ub-to-llvm` and
       `convert-func-to-llvm`, in one dialect conversion.

    Those passes one after another each walk the whole module and legalize
    every op in it; a rank program is one block with several ops per
    action, so at 32 micro-batches their walks were most of the lowering's
    time. The conversion casts are left for `reconcile-unrealized-casts`.
  }];
  let options = [
    Option<"genericAllocator", "generic-allocator", "bool",
           /*default=*/"false",
           "memref.alloc and memref.dealloc call _mlir_memref_to_llvm_alloc "
           "and _free instead of malloc and free (finalize-memref-to-llvm's "
           "use-generic-functions; the CPU JIT binds them to the runtime's "
           "measuring allocator; default false)">,
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def PPRollRankProgramsPass
    : Pass<"pp-roll-rank-programs", "::mlir::func::FuncOp"> {
  let summary = "Roll the repeated steady state of a rank program on "
                "buffers into a loop";
  let description = [{
    A step of the CPU JIT's lowering (docs/Execution.md, "Rank programs"),
    after bufferization and the placement of deallocations, on each
    function with the `pp.rank` attribute (a rank program of
    convert-pp-to-runtime; others are left alone).

    A rank program is one block of calls in the schedule's order, so its
    size grows with the number of micro-batches. In a schedule's steady
    state the same ops repeat, period after period, with only the integer
    constants they take (micro-batch numbers) growing by a fixed step. The
    pass finds the longest such run (at least `min-iterations` repeats of
    one period) and replaces it with an `scf.for` (attribute `pp.rolled`)
    whose body is one period:

    - an operand that is the same value in every repeat, defined before
      the run, stays that value;
    - an integer constant that grows by a fixed step per repeat becomes
      `base + iv * step`;
    - a result of the period's op at slot `s`, `d` repeats earlier (an F's
      stash that B frees `d` iterations later), travels through a queue of
      `d` iteration arguments; the first `d` repeats read the values from
      before the run that the original ops read, and uses after the run
      read the loop's results.

    Then it looks again at what is left (a schedule may have several
    steady phases), up to 8 loops. The ops run in the same order as
    before, on the same buffers: what the program computes, and when each
    buffer is freed, do not change. Ops with regions and stack allocations
    are never rolled; a run where a value is used more than 64 repeats
    after it is made, or where a cast to an unranked memref (a stack slot
    once lowered) is read in a later repeat, stays unrolled.
  }];
  let options = [
    Option<"minIterations", "min-iterations", "int64_t", /*default=*/"3",
           "The fewest repeats of a period worth a loop (at least 2; "
           "default 3)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::ub::UBDialect"];
}

#endif // PP_CONVERSION_PASSES_TD
