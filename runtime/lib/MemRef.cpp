//===- MemRef.cpp - pprt entry points taking MLIR memrefs -----------------===//
//
// See pprt/pprt_memref.h.
//
//===----------------------------------------------------------------------===//

#include "pprt/pprt_memref.h"

#include "Step.h"

#include <cstdio>
#include <cstdlib>

namespace {
/// The start and size of a contiguous row-major buffer.
struct Span {
  char *data;
  int64_t bytes;
};

/// The ranked descriptor's fixed part; sizes and strides follow it.
struct DescriptorHeader {
  char *allocated;
  char *aligned;
  int64_t offset;
};
} // namespace

/// Moves the buffer of `descriptor` to class `c` of the rank's measured
/// memory (Memory.cpp).
static void classify(void *descriptor, pprt::detail::MemoryClass c) {
  pprt::detail::classifyBuffer(
      static_cast<DescriptorHeader *>(descriptor)->allocated, c);
}

static Span spanOf(int64_t elementBytes, int64_t rank, void *descriptor) {
  auto *header = static_cast<DescriptorHeader *>(descriptor);
  auto *sizes = reinterpret_cast<int64_t *>(header + 1);
  int64_t *strides = sizes + rank;
  int64_t elements = 1, expected = 1;
  for (int64_t i = rank - 1; i >= 0; --i) {
    if (sizes[i] != 1 && strides[i] != expected) {
      std::fprintf(stderr,
                   "pprt: internal error: a buffer passed to the runtime is "
                   "not contiguous (dimension %lld has stride %lld, expected "
                   "%lld)\n",
                   static_cast<long long>(i),
                   static_cast<long long>(strides[i]),
                   static_cast<long long>(expected));
      std::abort();
    }
    expected *= sizes[i];
    elements *= sizes[i];
  }
  return {header->aligned + header->offset * elementBytes,
          elements * elementBytes};
}

extern "C" {

void pprt_memref_send(pprt_rank *rank, int64_t peer, int64_t stage,
                      int64_t microbatch, int64_t kind, int64_t elementBytes,
                      int64_t memrefRank, void *descriptor) {
  Span s = spanOf(elementBytes, memrefRank, descriptor);
  classify(descriptor, pprt::detail::MemoryClass::Activation);
  pprt_send(rank, peer, stage, microbatch, kind, s.data, s.bytes);
}

void pprt_memref_recv(pprt_rank *rank, int64_t peer, int64_t stage,
                      int64_t microbatch, int64_t kind, int64_t elementBytes,
                      int64_t memrefRank, void *descriptor) {
  Span s = spanOf(elementBytes, memrefRank, descriptor);
  classify(descriptor, pprt::detail::MemoryClass::Activation);
  pprt_recv(rank, peer, stage, microbatch, kind, s.data, s.bytes);
}

void pprt_memref_input(pprt_rank *rank, int64_t microbatch, int64_t index,
                       int64_t elementBytes, int64_t memrefRank,
                       void *descriptor) {
  Span s = spanOf(elementBytes, memrefRank, descriptor);
  classify(descriptor, pprt::detail::MemoryClass::Activation);
  pprt_input(rank, microbatch, index, s.data, s.bytes);
}

void pprt_memref_parameter(pprt_rank *rank, int64_t stage, int64_t index,
                           int64_t elementBytes, int64_t memrefRank,
                           void *descriptor) {
  Span s = spanOf(elementBytes, memrefRank, descriptor);
  classify(descriptor, pprt::detail::MemoryClass::Parameter);
  pprt_parameter(rank, stage, index, s.data, s.bytes);
}

void pprt_memref_stash(pprt_rank *rank, int64_t elementBytes,
                       int64_t memrefRank, void *descriptor) {
  (void)rank;
  (void)spanOf(elementBytes, memrefRank, descriptor);
  classify(descriptor, pprt::detail::MemoryClass::Stash);
}

void pprt_memref_activation(pprt_rank *rank, int64_t elementBytes,
                            int64_t memrefRank, void *descriptor) {
  (void)rank;
  (void)spanOf(elementBytes, memrefRank, descriptor);
  classify(descriptor, pprt::detail::MemoryClass::Activation);
}

void pprt_memref_accumulate_gradient(pprt_rank *rank, int64_t stage,
                                     int64_t index, int64_t dtype,
                                     int64_t elementBytes, int64_t memrefRank,
                                     void *descriptor) {
  Span s = spanOf(elementBytes, memrefRank, descriptor);
  classify(descriptor, pprt::detail::MemoryClass::Gradient);
  pprt_accumulate_gradient(rank, stage, index, s.data, s.bytes, dtype);
}

/// A loss is one element: anything larger would be read (pprt_loss) or
/// seeded (pprt_loss_seed) in its first element only, leaving the rest
/// unwritten. Fails the rank and returns false otherwise.
static bool isOneElement(pprt_rank *rank, const char *entry, Span s,
                         int64_t elementBytes) {
  if (s.bytes == elementBytes)
    return true;
  char message[160];
  std::snprintf(message, sizeof message,
                "%s: the loss has %lld elements; a loss must be one element",
                entry, static_cast<long long>(s.bytes / elementBytes));
  pprt_fail(rank, message);
  return false;
}

void pprt_memref_loss(pprt_rank *rank, int64_t microbatch, int64_t dtype,
                      int64_t elementBytes, int64_t memrefRank,
                      void *descriptor) {
  Span s = spanOf(elementBytes, memrefRank, descriptor);
  if (isOneElement(rank, "pprt_loss", s, elementBytes))
    pprt_loss(rank, microbatch, s.data, dtype);
}

void pprt_memref_loss_seed(pprt_rank *rank, int64_t dtype, int64_t elementBytes,
                           int64_t memrefRank, void *descriptor) {
  Span s = spanOf(elementBytes, memrefRank, descriptor);
  classify(descriptor, pprt::detail::MemoryClass::Activation);
  if (isOneElement(rank, "pprt_loss_seed", s, elementBytes))
    pprt_loss_seed(rank, s.data, dtype);
}

// The per-element-type symbols convert-pp-to-runtime declares.
#define PPRT_MEMREF_ANY(T)                                                     \
  void pprt_memref_send_##T(pprt_rank *r, int64_t peer, int64_t stage,         \
                            int64_t mb, int64_t kind, int64_t eb, int64_t n,   \
                            void *d) {                                         \
    pprt_memref_send(r, peer, stage, mb, kind, eb, n, d);                      \
  }                                                                            \
  void pprt_memref_recv_##T(pprt_rank *r, int64_t peer, int64_t stage,         \
                            int64_t mb, int64_t kind, int64_t eb, int64_t n,   \
                            void *d) {                                         \
    pprt_memref_recv(r, peer, stage, mb, kind, eb, n, d);                      \
  }                                                                            \
  void pprt_memref_input_##T(pprt_rank *r, int64_t mb, int64_t index,          \
                             int64_t eb, int64_t n, void *d) {                 \
    pprt_memref_input(r, mb, index, eb, n, d);                                 \
  }                                                                            \
  void pprt_memref_parameter_##T(pprt_rank *r, int64_t stage, int64_t index,   \
                                 int64_t eb, int64_t n, void *d) {             \
    pprt_memref_parameter(r, stage, index, eb, n, d);                          \
  }                                                                            \
  void pprt_memref_stash_##T(pprt_rank *r, int64_t eb, int64_t n, void *d) {   \
    pprt_memref_stash(r, eb, n, d);                                            \
  }                                                                            \
  void pprt_memref_activation_##T(pprt_rank *r, int64_t eb, int64_t n,         \
                                  void *d) {                                   \
    pprt_memref_activation(r, eb, n, d);                                       \
  }
#define PPRT_MEMREF_FLOAT(T, DTYPE)                                            \
  void pprt_memref_accumulate_gradient_##T(pprt_rank *r, int64_t stage,        \
                                           int64_t index, int64_t eb,          \
                                           int64_t n, void *d) {               \
    pprt_memref_accumulate_gradient(r, stage, index, DTYPE, eb, n, d);         \
  }                                                                            \
  void pprt_memref_loss_##T(pprt_rank *r, int64_t mb, int64_t eb, int64_t n,   \
                            void *d) {                                         \
    pprt_memref_loss(r, mb, DTYPE, eb, n, d);                                  \
  }                                                                            \
  void pprt_memref_loss_seed_##T(pprt_rank *r, int64_t eb, int64_t n,          \
                                 void *d) {                                    \
    pprt_memref_loss_seed(r, DTYPE, eb, n, d);                                 \
  }

PPRT_MEMREF_ANY(f32)
PPRT_MEMREF_ANY(f64)
PPRT_MEMREF_ANY(f16)
PPRT_MEMREF_ANY(bf16)
PPRT_MEMREF_ANY(i64)
PPRT_MEMREF_ANY(i32)
PPRT_MEMREF_ANY(i16)
PPRT_MEMREF_ANY(i8)
PPRT_MEMREF_ANY(i1)
PPRT_MEMREF_FLOAT(f32, PPRT_F32)
PPRT_MEMREF_FLOAT(f64, PPRT_F64)

} // extern "C"
