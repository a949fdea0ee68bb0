/*===- pprt.h - the pp-mlir pipeline runtime, C ABI -------------*- C -*-===*
 *
 * The runtime that executes compiled pipeline schedules. Rank programs made
 * by `convert-pp-to-runtime` call the `pprt_*` functions below; a launcher
 * (pp-run) creates a world of P ranks, gives every rank its parameters and
 * micro-batch data, runs each rank's program, then reads back losses and
 * gradients (runtime/include/pprt/Runtime.h, C++).
 *
 * Conventions
 * - Every buffer is a contiguous, row-major array given by its address and
 *   its size in bytes.
 * - Messages are matched by (source rank, destination rank, stage,
 *   micro-batch, kind) and their sizes are checked on receipt: a mismatch is
 *   an error naming both sides.
 * - Errors do not return to generated code. The first error on any rank
 *   (a size mismatch, a timeout, a peer that failed or vanished) puts the
 *   whole world in the failed state: from then on every pprt_* call on every
 *   rank returns at once without waiting (receives leave their buffer as it
 *   is), so every rank program finishes the step in bounded time, and the
 *   launcher reports the first error. Nothing waits longer than the world's
 *   timeout.
 * - Times are seconds; sizes bytes.
 *
 *===---------------------------------------------------------------------===*/

#ifndef PPRT_PPRT_H
#define PPRT_PPRT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One rank's handle; owned by the world. */
typedef struct pprt_rank pprt_rank;

/* What a message carries: the activation a forward sends to the next stage,
 * or the gradient a backward-input sends to the previous stage. A payload of
 * several tensors (everything that crosses one stage boundary in one
 * direction) travels as several messages: part k has kind
 * PPRT_ACTIVATION + 2k or PPRT_GRADIENT + 2k. There is no fixed ceiling on
 * k: the launcher tells the world the most parts any boundary carries
 * (pprt::WorldOptions::boundaryParts, pprt::World::setMessageLayout;
 * convert-pp-to-runtime records it on every rank program as the attribute
 * pprt.boundary_parts), and pprt_send / pprt_recv refuse a kind at or above
 * twice that count. */
enum pprt_kind { PPRT_ACTIVATION = 0, PPRT_GRADIENT = 1 };

/* What an action is, for the trace. */
enum pprt_action {
  PPRT_FORWARD = 0,
  PPRT_BACKWARD = 1, /* B and W fused */
  PPRT_BACKWARD_INPUT = 2,
  PPRT_BACKWARD_WEIGHT = 3,
  PPRT_SEND = 4,
  PPRT_RECV = 5,
  PPRT_ALLREDUCE = 6 /* the replicas' gradient all-reduce of a stage */
};

/* Element types of buffers the runtime interprets (gradients, losses). */
enum pprt_dtype { PPRT_F32 = 0, PPRT_F64 = 1 };

/* Sends `bytes` bytes at `data` to rank `peer`, tagged (stage, microbatch,
 * kind); `stage` is the stage that produced the value. May return before the
 * peer receives (the data is copied or the send completes). */
void pprt_send(pprt_rank *rank, int64_t peer, int64_t stage, int64_t microbatch,
               int64_t kind, const void *data, int64_t bytes);

/* Receives the message (stage, microbatch, kind) from rank `peer` into
 * `data`, which holds `bytes` bytes; waits at most the world's timeout. */
void pprt_recv(pprt_rank *rank, int64_t peer, int64_t stage, int64_t microbatch,
               int64_t kind, void *data, int64_t bytes);

/* Copies data argument `index` of micro-batch `microbatch` (as the launcher
 * set it for this step) into `data` (`bytes` bytes; checked). */
void pprt_input(pprt_rank *rank, int64_t microbatch, int64_t index, void *data,
                int64_t bytes);

/* Copies the current value of parameter `index` of stage `stage` into
 * `data` (`bytes` bytes; checked). */
void pprt_parameter(pprt_rank *rank, int64_t stage, int64_t index, void *data,
                    int64_t bytes);

/* Adds the gradient at `data` (`bytes` bytes of `dtype`) to the accumulated
 * gradient of parameter `index` of stage `stage` for this step. */
void pprt_accumulate_gradient(pprt_rank *rank, int64_t stage, int64_t index,
                              const void *data, int64_t bytes, int64_t dtype);

/* pp.allreduce: the gradients of stage `stage` on this rank are final for
 * the step; with `start` = 1, start summing them over the data-parallel
 * replicas (WorldOptions::replicas), together with those of the stages
 * whose calls since the last start passed `start` = 0 (a bucket: one
 * collective). mpi: a non-blocking all-gather among the D processes of
 * this pipeline rank, completed and summed in replica order at the end of
 * the step; nccl: the stages' ncclAllReduces; inproc: the ranks' gradients
 * are summed in replica order at the end of the step. The trace shows the
 * interval. With one replica, nothing. A step that ends with stages joined
 * and not started fails. */
void pprt_allreduce(pprt_rank *rank, int64_t stage, int64_t start);

/* Records the loss of micro-batch `microbatch` (one element of `dtype`). */
void pprt_loss(pprt_rank *rank, int64_t microbatch, const void *data,
               int64_t dtype);

/* Writes the seed of the loss gradient for one micro-batch (1 / M, so that
 * the accumulated gradients are those of the mean loss) into `data`, one
 * element of `dtype`. */
void pprt_loss_seed(pprt_rank *rank, void *data, int64_t dtype);

/* Brackets one action for the trace (Chrome trace JSON, as pp-simulate
 * writes it: one complete event per action, tid = rank). */
void pprt_action_begin(pprt_rank *rank, int64_t action, int64_t stage,
                       int64_t microbatch);
void pprt_action_end(pprt_rank *rank);

/* Accounts `delta` bytes of activation stash (+ when F keeps it, - when the
 * last backward using it ends); the runtime records the peak per rank. */
void pprt_stash(pprt_rank *rank, int64_t delta);

/* The allocator of the generated code: the CPU lowering makes every
 * memref.alloc / memref.dealloc of rank programs and stage functions call
 * these (finalize-memref-to-llvm{use-generic-functions}: the JIT binds
 * _mlir_memref_to_llvm_alloc, _aligned_alloc and _free to them). Each
 * allocation carries a small header (size, owner, class) in front of the
 * returned address. An allocation made on a thread that runs a rank
 * program is charged to that rank: one add on its live bytes at the
 * allocation and one at the free, and a compare for the peaks; the runtime
 * reclassifies a buffer when the rank program hands it over (a parameter,
 * an accumulated gradient, a stash, an activation or gradient between
 * stages; pprt_memref.h), so that each rank's peak of live stash and
 * activation buffers is measured where the buffers are really allocated
 * and freed (pprt::World::memoryPeaks). Elsewhere (pp-exec, pp-run's
 * unpipelined check) nothing is counted. `bytes` and `alignment` in bytes;
 * `alignment` a power of two. Null when out of memory. */
void *pprt_memory_alloc(int64_t bytes);
void *pprt_memory_aligned_alloc(int64_t alignment, int64_t bytes);
void pprt_memory_free(void *pointer);

/* Fails the step of `rank` with `message` (the world's first error wins;
 * later ones are dropped), as any runtime error would: every pprt_* call
 * returns at once from then on. For code outside the runtime that the rank
 * program calls, e.g. the CUDA plugin when a CUDA call fails. A null `rank`
 * or a step that failed already: nothing happens. */
void pprt_fail(pprt_rank *rank, const char *message);

/* GEMMs of stage functions on the CPU (pp-gemm-to-runtime{target=cpu}), the
 * convention of pprt_gpu_gemm_* (pprt/Cuda.h) on OpenBLAS: for each p <
 * batch, row-major, C_p = op(A_p) op(B_p) + (accumulate ? C_p : 0), where
 * X_p starts at X + p * strideX, op(A) is A (m x k, row stride lda) or,
 * with transA, the transpose of A stored k x m; likewise B (k x n).
 * cblas_sgemm/dgemm with beta = accumulate, in the calling thread's share
 * of OpenBLAS's threads (pprt_cpu_blas_threads). Results are deterministic:
 * the same call on the same shapes gives the same bits. Negative sizes are
 * ignored (nothing is written). */
void pprt_cpu_gemm_f32(int64_t batch, int64_t m, int64_t n, int64_t k,
                       int64_t transA, int64_t transB, const float *a,
                       int64_t lda, int64_t strideA, const float *b,
                       int64_t ldb, int64_t strideB, float *c, int64_t ldc,
                       int64_t strideC, int64_t accumulate);
void pprt_cpu_gemm_f64(int64_t batch, int64_t m, int64_t n, int64_t k,
                       int64_t transA, int64_t transB, const double *a,
                       int64_t lda, int64_t strideA, const double *b,
                       int64_t ldb, int64_t strideB, double *c, int64_t ldc,
                       int64_t strideC, int64_t accumulate);

/* Sets the number of threads OpenBLAS uses for each pprt_cpu_gemm_* call
 * (process-wide; at least 1). Launchers give each rank its share of the
 * cores: ranks x threads <= cores (pp-run sets it). Returns the previous
 * count. */
int pprt_cpu_blas_threads(int threads);

#ifdef __cplusplus
}
#endif

#endif /* PPRT_PPRT_H */
