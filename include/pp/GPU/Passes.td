//===- Passes.td - the pp-gpu-* steps of the GPU lowering -*- tablegen -*-===//

#ifndef PP_GPU_PASSES_TD
#define PP_GPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def PPGPUConvolutionsToGemmPass
    : Pass<"pp-gpu-convolutions-to-gemm", "::mlir::func::FuncOp"> {
  let summary = "Rewrite 2-D convolutions as im2col and a GEMM";
  let description = [{
    On linalg ops on tensors: every 2-D convolution upstream's im2col
    patterns take (`linalg.conv_2d_nhwc_hwcf`, `linalg.conv_2d_nhwc_fhwc`,
    `linalg.conv_2d_nchw_fchw`, `linalg.depthwise_conv_2d_nhwc_hwc`) becomes
    an im2col `linalg.generic` (the input's sliding windows as a matrix) and
    a contraction, which `pp-gemm-to-runtime{target=gpu}` hands to cuBLAS when it is
    a GEMM (the batch of images merges into its m dimension; a depthwise
    convolution gives a batch of matrix-vector products, which stay
    kernels). Then the convolutions written as `linalg.generic` go through
    `pp-im2col{target=gpu}`, the detection the CPU lowering uses: their
    forward becomes a GEMM per image; their weight gradient (a reduction
    over the images, which cuBLAS's batched GEMM cannot accumulate) stays a
    kernel, and their input gradient is already a contraction (pp-autodiff's
    column matrix). Other ops (pooling) stay as they are and become kernels.
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
    `pp-gemm-to-runtime{target=gpu}` can hand them to cuBLAS. Last, a value a
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
           "Split reductions of at least this many elements (default 4096)">,
    Option<"maxRatio", "max-ratio", "int64_t", /*default=*/"1024",
           "At most this many partial reductions (default 1024)">,
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def PPGPUElideHostWaitsPass
    : Pass<"pp-gpu-elide-host-waits", "::mlir::func::FuncOp"> {
  let summary = "Drop host waits before calls that run on the stream";
  let description = [{
    Runs after `gpu-async-region`, which makes the host wait for the stream
    (`gpu.wait [%token]`) before every call, since a call may read what the
    GPU writes. Calls to functions marked `pp.stream_ordered` (the
    `pprt_gpu_gemm_*` declarations `pp-gemm-to-runtime{target=gpu}` makes: cuBLAS
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

#endif // PP_GPU_PASSES_TD
