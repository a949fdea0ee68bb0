//===- MemoryTest.cpp - The generated code's allocator, charged per rank --===//
//
// pprt_memory_alloc / _aligned_alloc / _free and the classes the memref
// entry points give buffers (pprt.h, pprt_memref.h): each rank's measured
// peaks (World::memoryPeaks) in exact bytes.
//
//===----------------------------------------------------------------------===//

#include "RuntimeTestUtil.h"

#include "pprt/pprt_memref.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>

using namespace pprt;
using namespace pprt_test;

namespace {

/// A 1-D memref descriptor of `bytes` f32 bytes at `pointer`, as the LLVM
/// lowering passes it.
struct Descriptor1D {
  void *allocated;
  void *aligned;
  int64_t offset;
  int64_t size;
  int64_t stride;
};

Descriptor1D describe(void *pointer, int64_t bytes) {
  return {pointer, pointer, 0, bytes / 4, 1};
}

TEST(Memory, PeaksPerRankByClass) {
  std::unique_ptr<World> world = makeWorld(2);
  ASSERT_TRUE(world);
  ASSERT_TRUE(world->runStep([](int rank, pprt_rank *handle) {
    int64_t k = rank + 1;
    // A temporary of a stage function: only in the total.
    void *temporary = pprt_memory_alloc(100 * k);
    // F's stash and output (allocated as Other, then handed over).
    void *stash = pprt_memory_alloc(64 * k);
    void *output = pprt_memory_alloc(32 * k);
    Descriptor1D ds = describe(stash, 64 * k);
    Descriptor1D dout = describe(output, 32 * k);
    pprt_memref_stash(handle, 4, 1, &ds);
    pprt_memref_activation(handle, 4, 1, &dout);
    pprt_memory_free(temporary);
    pprt_memory_free(output);
    // B: input gradient, then the stash is freed.
    void *gradient = pprt_memory_aligned_alloc(64, 48 * k);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(gradient) % 64, 0u);
    Descriptor1D dg = describe(gradient, 48 * k);
    pprt_memref_activation(handle, 4, 1, &dg);
    pprt_memory_free(stash);
    pprt_memory_free(gradient);
  }));
  std::vector<MemoryPeaks> peaks = world->memoryPeaks();
  ASSERT_EQ(peaks.size(), 2u);
  for (int64_t r = 0; r < 2; ++r) {
    int64_t k = r + 1;
    EXPECT_EQ(peaks[r].stash, 64 * k);
    // Stash + output, then stash + input gradient.
    EXPECT_EQ(peaks[r].activations, 112 * k);
    // Temporary + stash + output.
    EXPECT_EQ(peaks[r].total, 196 * k);
    EXPECT_EQ(peaks[r].allocations, 4);
  }
}

TEST(Memory, NothingChargedOutsideRanks) {
  // Allocated and freed outside any rank program (pp-exec, the check).
  void *p = pprt_memory_alloc(1 << 20);
  ASSERT_NE(p, nullptr);
  void *q = pprt_memory_aligned_alloc(128, 10);
  ASSERT_NE(q, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(q) % 128, 0u);
  pprt_memory_free(p);
  pprt_memory_free(q);
  pprt_memory_free(nullptr);
  EXPECT_EQ(pprt_memory_aligned_alloc(3, 8), nullptr);

  std::unique_ptr<World> world = makeWorld(1);
  ASSERT_TRUE(world);
  ASSERT_TRUE(world->runStep([](int, pprt_rank *) {}));
  std::vector<MemoryPeaks> peaks = world->memoryPeaks();
  EXPECT_EQ(peaks[0].allocations, 0);
  EXPECT_EQ(peaks[0].total, 0);
}

TEST(Memory, ForeignBuffersAreNotClassified) {
  std::unique_ptr<World> world = makeWorld(1);
  ASSERT_TRUE(world);
  ASSERT_TRUE(world->runStep([](int, pprt_rank *handle) {
    // A buffer of another allocator (a constant, say): left alone.
    alignas(64) static float constant[64] = {};
    Descriptor1D d = describe(constant + 16, 4 * 16);
    pprt_memref_stash(handle, 4, 1, &d);
    void *p = pprt_memory_alloc(8);
    pprt_memory_free(p);
  }));
  MemoryPeaks peaks = world->memoryPeaks()[0];
  EXPECT_EQ(peaks.stash, 0);
  EXPECT_EQ(peaks.total, 8);
  EXPECT_EQ(peaks.allocations, 1);
}

TEST(GradientAccumulation, MeasuredOncePlausibly) {
  // Between 1 TB/s and 10 MB/s of gradient bytes added: the machine's
  // memory bandwidth, not a clock artefact; one measurement per process.
  double perByte = pprt::gradientAccumulationSeconds();
  EXPECT_GT(perByte, 1e-12);
  EXPECT_LT(perByte, 1e-7);
  EXPECT_EQ(pprt::gradientAccumulationSeconds(), perByte);
}

} // namespace

TEST(Memory, LargeFreedBlocksAreReused) {
  // A freed block of 1 MiB or more comes back for the next allocation of
  // the same size and alignment (no new pages to fault in); other sizes get
  // other blocks. The accounting is unchanged by the reuse.
  if (const char *cache = std::getenv("PPRT_BLOCK_CACHE");
      cache && std::strcmp(cache, "0") == 0)
    GTEST_SKIP() << "PPRT_BLOCK_CACHE=0 turns the block cache off";
  void *a = pprt_memory_alloc(4 << 20);
  ASSERT_NE(a, nullptr);
  std::memset(a, 1, 4 << 20);
  pprt_memory_free(a);
  void *b = pprt_memory_alloc(4 << 20);
  EXPECT_EQ(b, a);
  void *c = pprt_memory_alloc((4 << 20) + 4096);
  EXPECT_NE(c, a);
  pprt_memory_free(b);
  pprt_memory_free(c);
  void *d = pprt_memory_aligned_alloc(64, 2 << 20);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(d) % 64, 0u);
  pprt_memory_free(d);
  void *e = pprt_memory_aligned_alloc(64, 2 << 20);
  EXPECT_EQ(e, d);
  // The same size at another alignment is another block.
  void *f = pprt_memory_aligned_alloc(128, 2 << 20);
  EXPECT_NE(f, e);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(f) % 128, 0u);
  pprt_memory_free(e);
  pprt_memory_free(f);
}
