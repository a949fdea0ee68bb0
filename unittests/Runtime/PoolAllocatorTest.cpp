//===- PoolAllocatorTest.cpp - The CUDA plugin's pool bookkeeping ---------===//
//
// pprt::cuda::PoolAllocator has no CUDA in it, so it is tested here whether
// or not the plugin is built.
//
//===----------------------------------------------------------------------===//

#include "../../runtime/lib/cuda/PoolAllocator.h"

#include "gtest/gtest.h"

#include <random>
#include <vector>

using pprt::cuda::PoolAllocator;

namespace {

TEST(PoolAllocator, AlignsAndFitsFirst) {
  PoolAllocator pool(4096);
  uint64_t a, b, c;
  ASSERT_TRUE(pool.allocate(1, a));
  ASSERT_TRUE(pool.allocate(300, b));
  ASSERT_TRUE(pool.allocate(0, c));
  EXPECT_EQ(a, 0u);
  EXPECT_EQ(b, 256u);
  EXPECT_EQ(c, 768u);
  EXPECT_EQ(pool.blockSize(b), 512u);
  EXPECT_EQ(pool.inUse(), 1024u);
  // Freeing a leaves a hole of 256 at 0: a 256-byte block goes there,
  // a 257-byte one after c.
  ASSERT_TRUE(pool.release(a));
  uint64_t d, e;
  ASSERT_TRUE(pool.allocate(257, d));
  EXPECT_EQ(d, 1024u);
  ASSERT_TRUE(pool.allocate(256, e));
  EXPECT_EQ(e, 0u);
}

TEST(PoolAllocator, ExhaustionChangesNothing) {
  PoolAllocator pool(1000); // rounded down to 768
  EXPECT_EQ(pool.size(), 768u);
  uint64_t a, b;
  ASSERT_TRUE(pool.allocate(512, a));
  EXPECT_FALSE(pool.allocate(512, b));
  EXPECT_EQ(pool.inUse(), 512u);
  EXPECT_EQ(pool.largestFree(), 256u);
  EXPECT_FALSE(pool.allocate(UINT64_MAX, b));
  EXPECT_FALSE(pool.release(a + 256));
  EXPECT_FALSE(pool.release(12345));
}

TEST(PoolAllocator, CoalescesBothNeighbours) {
  PoolAllocator pool(256 * 4);
  uint64_t o[4];
  for (uint64_t &offset : o)
    ASSERT_TRUE(pool.allocate(256, offset));
  EXPECT_EQ(pool.largestFree(), 0u);
  ASSERT_TRUE(pool.release(o[0]));
  ASSERT_TRUE(pool.release(o[2]));
  EXPECT_EQ(pool.freeRanges(), 2u);
  ASSERT_TRUE(pool.release(o[1])); // joins 0 and 2
  EXPECT_EQ(pool.freeRanges(), 1u);
  EXPECT_EQ(pool.largestFree(), 768u);
  ASSERT_TRUE(pool.release(o[3]));
  EXPECT_EQ(pool.largestFree(), 1024u);
  EXPECT_EQ(pool.inUse(), 0u);
  EXPECT_EQ(pool.peak(), 1024u);
}

TEST(PoolAllocator, RandomRoundTripsNeverOverlap) {
  PoolAllocator pool(1 << 20);
  std::mt19937 random(42);
  std::vector<std::pair<uint64_t, uint64_t>> live; // offset, size
  for (int i = 0; i < 5000; ++i) {
    if (live.empty() || random() % 3 != 0) {
      uint64_t bytes = random() % 20000, offset;
      if (!pool.allocate(bytes, offset))
        continue;
      uint64_t size = pool.blockSize(offset);
      ASSERT_GE(size, bytes);
      ASSERT_EQ(offset % 256, 0u);
      ASSERT_LE(offset + size, pool.size());
      for (auto &[o, s] : live)
        ASSERT_TRUE(offset + size <= o || o + s <= offset);
      live.emplace_back(offset, size);
    } else {
      size_t k = random() % live.size();
      ASSERT_TRUE(pool.release(live[k].first));
      live.erase(live.begin() + k);
    }
  }
  for (auto &[o, s] : live)
    ASSERT_TRUE(pool.release(o));
  EXPECT_EQ(pool.inUse(), 0u);
  EXPECT_EQ(pool.freeRanges(), 1u);
  EXPECT_EQ(pool.largestFree(), pool.size());
}

} // namespace
