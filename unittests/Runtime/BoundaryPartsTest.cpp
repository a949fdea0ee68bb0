//===- BoundaryPartsTest.cpp - Any number of tensors per stage boundary ---===//
//
// A payload of K tensors travels as K messages, kinds PPRT_ACTIVATION + 2k
// and PPRT_GRADIENT + 2k for k < K, where K is the world's boundaryParts
// (WorldOptions, World::setMessageLayout): no fixed ceiling (earlier
// versions refused k >= 16). The mpi transport's tags are checked in
// integration_test/Runtime/mpi.test (scenario parts of pprt-mpi-test).
//
//===----------------------------------------------------------------------===//

#include "RuntimeTestUtil.h"

#include <cstdint>
#include <string>
#include <vector>

using namespace pprt;
using namespace pprt_test;

namespace {

/// The value part k of (stage, micro-batch, kind) carries.
int32_t partValue(int64_t stage, int64_t mb, int64_t kind) {
  return static_cast<int32_t>(stage * 100000 + mb * 1000 + kind);
}

/// Rank 0 sends `parts` activation parts of stage 0 to rank 1 for every
/// micro-batch; rank 1 receives them in reverse order and sends `parts`
/// gradient parts of stage 1 back, which rank 0 receives in reverse order.
/// Returns the number of parts that arrived with the right value.
int64_t exchange(World &world, int64_t parts) {
  int64_t microbatches = world.options().microbatches;
  std::vector<int64_t> good(2, 0);
  bool ok = world.runStep([&](int rank, pprt_rank *h) {
    int peer = 1 - rank;
    int64_t stage = rank, payload = rank == 0 ? PPRT_ACTIVATION : PPRT_GRADIENT;
    int64_t from = 1 - rank,
            expect = rank == 0 ? PPRT_GRADIENT : PPRT_ACTIVATION;
    auto send = [&] {
      for (int64_t mb = 0; mb < microbatches; ++mb)
        for (int64_t k = 0; k < parts; ++k) {
          int32_t value = partValue(stage, mb, payload + 2 * k);
          pprt_send(h, peer, stage, mb, payload + 2 * k, &value, sizeof(value));
        }
    };
    auto receive = [&] {
      for (int64_t mb = microbatches; mb-- > 0;)
        for (int64_t k = parts; k-- > 0;) {
          int32_t value = -1;
          pprt_recv(h, peer, from, mb, expect + 2 * k, &value, sizeof(value));
          good[rank] += value == partValue(from, mb, expect + 2 * k);
        }
    };
    if (rank == 0) {
      send();
      receive();
    } else {
      receive();
      send();
    }
  });
  EXPECT_TRUE(ok) << world.error();
  return good[0] + good[1];
}

TEST(RuntimeBoundaryParts, FortyPartsPerBoundaryFromOptions) {
  WorldOptions options;
  options.ranks = 2;
  options.microbatches = 3;
  options.timeoutSeconds = 10;
  options.boundaryParts = 40;
  options.stages = 2;
  std::string error;
  std::unique_ptr<World> world = World::create(options, error);
  ASSERT_TRUE(world) << error;
  // 40 parts x 3 micro-batches each way: kinds up to 79.
  EXPECT_EQ(exchange(*world, 40), 2 * 3 * 40);
}

TEST(RuntimeBoundaryParts, SetMessageLayoutAfterCreation) {
  auto world = makeWorld(2, 2);
  ASSERT_TRUE(world);
  EXPECT_EQ(world->options().boundaryParts, 16);
  EXPECT_EQ(world->options().stages, 0);
  std::string error;
  ASSERT_TRUE(world->setMessageLayout(2, 100, error)) << error;
  EXPECT_EQ(world->options().boundaryParts, 100);
  EXPECT_EQ(world->options().stages, 2);
  EXPECT_EQ(exchange(*world, 100), 2 * 2 * 100);
  // Fewer parts again: 16 .. 99 are refused from now on.
  ASSERT_TRUE(world->setMessageLayout(2, 16, error)) << error;
  EXPECT_EQ(exchange(*world, 16), 2 * 2 * 16);
}

TEST(RuntimeBoundaryParts, KindBeyondTheLayoutFails) {
  auto world = makeWorld(2, 1);
  ASSERT_TRUE(world);
  int value = 0;
  // The default layout: 16 parts, kinds 0 .. 31.
  EXPECT_FALSE(world->runStep([&](int rank, pprt_rank *h) {
    if (rank == 0)
      pprt_send(h, 1, 0, 0, PPRT_ACTIVATION + 2 * 16, &value, sizeof(value));
  }));
  EXPECT_EQ(world->error(),
            "rank 0: pprt_send: unknown kind 32 (expected PPRT_ACTIVATION or "
            "PPRT_GRADIENT plus twice a part number below 16, the world's "
            "boundaryParts)");
  std::string error;
  ASSERT_TRUE(world->setMessageLayout(3, 20, error)) << error;
  EXPECT_FALSE(world->runStep([&](int rank, pprt_rank *h) {
    if (rank == 1)
      pprt_recv(h, 0, 0, 0, PPRT_GRADIENT + 2 * 20, &value, sizeof(value));
  }));
  EXPECT_EQ(world->error(),
            "rank 1: pprt_recv: unknown kind 41 (expected PPRT_ACTIVATION or "
            "PPRT_GRADIENT plus twice a part number below 20, the world's "
            "boundaryParts)");
  EXPECT_FALSE(world->runStep([&](int rank, pprt_rank *h) {
    if (rank == 0)
      pprt_send(h, 1, 3, 0, PPRT_ACTIVATION, &value, sizeof(value));
  }));
  EXPECT_EQ(world->error(), "rank 0: pprt_send: stage 3 is out of range (the "
                            "world's rank programs have 3 stages)");
}

TEST(RuntimeBoundaryParts, InvalidLayoutsAreRefused) {
  std::string error;
  WorldOptions options;
  options.ranks = 2;
  options.boundaryParts = 0;
  EXPECT_FALSE(World::create(options, error));
  EXPECT_EQ(error, "a stage boundary carries at least 1 part, not 0 "
                   "(boundaryParts)");
  options.boundaryParts = (int64_t(1) << 30) + 1;
  EXPECT_FALSE(World::create(options, error));
  EXPECT_EQ(error, "a stage boundary carries at most 1073741824 parts, not "
                   "1073741825 (boundaryParts)");
  options.boundaryParts = 1;
  options.stages = -1;
  EXPECT_FALSE(World::create(options, error));
  EXPECT_EQ(error, "the number of stages must be >= 0 (0: unknown), not -1");

  auto world = makeWorld(2, 1);
  ASSERT_TRUE(world);
  EXPECT_FALSE(world->setMessageLayout(2, -3, error));
  EXPECT_EQ(error, "a stage boundary carries at least 1 part, not -3 "
                   "(boundaryParts)");
  // A refused layout changes nothing.
  EXPECT_EQ(world->options().boundaryParts, 16);
  EXPECT_EQ(world->options().stages, 0);
}

} // namespace
