/*===- pprt_memref.h - pprt entry points taking MLIR memrefs ----*- C -*-===*
 *
 * What `convert-pp-to-runtime` calls: the pprt.h entry points with each
 * buffer passed as an MLIR unranked memref, which the LLVM lowering of
 * `memref<*xT>` passes as two arguments, the rank and a pointer to the
 * ranked descriptor {T *allocated, T *aligned, int64_t offset, int64_t
 * sizes[rank], int64_t strides[rank]}. `element_bytes` is sizeof(T). The
 * buffer must be contiguous and row-major (what bufferization with identity
 * layouts gives); anything else is a compiler bug and aborts.
 *
 * One symbol per element type T, named pprt_memref_<op>_<T> with T one of
 * f32 f64 f16 bf16 i64 i32 i16 i8 i1 (send, recv, input, parameter, stash,
 * activation) or f32
 * f64 (accumulate_gradient, loss, loss_seed); they all share these
 * signatures:
 *
 *   send(pprt_rank*, int64_t peer, int64_t stage, int64_t microbatch,
 *        int64_t kind, int64_t element_bytes, int64_t rank, void *desc)
 *   recv(same as send)
 *   input(pprt_rank*, int64_t microbatch, int64_t index,
 *         int64_t element_bytes, int64_t rank, void *desc)
 *   parameter(pprt_rank*, int64_t stage, int64_t index,
 *             int64_t element_bytes, int64_t rank, void *desc)
 *   accumulate_gradient(pprt_rank*, int64_t stage, int64_t index,
 *                       int64_t element_bytes, int64_t rank, void *desc)
 *   loss(pprt_rank*, int64_t microbatch, int64_t element_bytes,
 *        int64_t rank, void *desc)
 *   loss_seed(pprt_rank*, int64_t element_bytes, int64_t rank, void *desc)
 *   stash(pprt_rank*, int64_t element_bytes, int64_t rank, void *desc)
 *   activation(same as stash)
 *
 * stash and activation (every T of send) only say what the buffer holds:
 * F's stash or B's weight stash, and F's outputs or B's input gradients.
 * They, and every other entry point here, move the buffer to that class
 * of the rank's measured memory (pprt_memory_alloc, pprt.h;
 * pprt::MemoryPeaks).
 *
 *===---------------------------------------------------------------------===*/

#ifndef PPRT_PPRT_MEMREF_H
#define PPRT_PPRT_MEMREF_H

#include "pprt/pprt.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The generic forms the per-type symbols forward to. */
void pprt_memref_send(pprt_rank *rank, int64_t peer, int64_t stage,
                      int64_t microbatch, int64_t kind, int64_t element_bytes,
                      int64_t memref_rank, void *descriptor);
void pprt_memref_recv(pprt_rank *rank, int64_t peer, int64_t stage,
                      int64_t microbatch, int64_t kind, int64_t element_bytes,
                      int64_t memref_rank, void *descriptor);
void pprt_memref_input(pprt_rank *rank, int64_t microbatch, int64_t index,
                       int64_t element_bytes, int64_t memref_rank,
                       void *descriptor);
void pprt_memref_parameter(pprt_rank *rank, int64_t stage, int64_t index,
                           int64_t element_bytes, int64_t memref_rank,
                           void *descriptor);
void pprt_memref_stash(pprt_rank *rank, int64_t element_bytes,
                       int64_t memref_rank, void *descriptor);
void pprt_memref_activation(pprt_rank *rank, int64_t element_bytes,
                            int64_t memref_rank, void *descriptor);
void pprt_memref_accumulate_gradient(pprt_rank *rank, int64_t stage,
                                     int64_t index, int64_t dtype,
                                     int64_t element_bytes, int64_t memref_rank,
                                     void *descriptor);
void pprt_memref_loss(pprt_rank *rank, int64_t microbatch, int64_t dtype,
                      int64_t element_bytes, int64_t memref_rank,
                      void *descriptor);
void pprt_memref_loss_seed(pprt_rank *rank, int64_t dtype,
                           int64_t element_bytes, int64_t memref_rank,
                           void *descriptor);

#ifdef __cplusplus
}
#endif

#endif /* PPRT_PPRT_MEMREF_H */
