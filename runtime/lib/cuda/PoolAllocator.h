//===- PoolAllocator.h - First-fit sub-allocator over offsets ---*- C++ -*-===//
//
// The bookkeeping of the CUDA plugin's per-rank device memory pool, free of
// CUDA so that it can be unit-tested: one region of `size` bytes, handed
// out as blocks at `alignment`-byte aligned offsets, first fit (the lowest
// free offset that fits), freed blocks coalesced with free neighbours.
// Sizes and offsets are bytes. Not thread-safe (one per rank).
//
//===----------------------------------------------------------------------===//

#ifndef PPRT_LIB_CUDA_POOLALLOCATOR_H
#define PPRT_LIB_CUDA_POOLALLOCATOR_H

#include <cstddef>
#include <cstdint>
#include <map>

namespace pprt {
namespace cuda {

class PoolAllocator {
public:
  /// A region of `size` bytes (rounded down to a multiple of `alignment`,
  /// which must be a power of two).
  explicit PoolAllocator(uint64_t size, uint64_t alignment = 256);

  /// Reserves a block of at least `bytes` bytes (rounded up to the
  /// alignment; 0 counts as one aligned unit, so every block has its own
  /// offset). Returns false, changing nothing, if no free range fits.
  bool allocate(uint64_t bytes, uint64_t &offset);
  /// Frees the block at `offset`. Returns false if no block starts there.
  bool release(uint64_t offset);
  /// The rounded size of the block at `offset`, 0 if none starts there.
  uint64_t blockSize(uint64_t offset) const;

  uint64_t size() const { return total; }
  uint64_t alignment() const { return align; }
  /// Bytes in allocated blocks (rounded sizes).
  uint64_t inUse() const { return used; }
  /// Highest inUse() since construction or resetPeak().
  uint64_t peak() const { return peakUsed; }
  void resetPeak() { peakUsed = used; }
  /// Size of the largest free range (what one allocate can get at most).
  uint64_t largestFree() const;
  /// Number of allocated blocks / free ranges.
  size_t blocks() const { return allocated.size(); }
  size_t freeRanges() const { return freeList.size(); }
  /// `bytes` rounded up to the alignment (and 0 to one unit).
  uint64_t roundUp(uint64_t bytes) const;

private:
  uint64_t total, align, used = 0, peakUsed = 0;
  /// offset -> size of the free ranges, and of the allocated blocks.
  std::map<uint64_t, uint64_t> freeList, allocated;
};

} // namespace cuda
} // namespace pprt

#endif // PPRT_LIB_CUDA_POOLALLOCATOR_H
