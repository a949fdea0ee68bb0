//===- SharedParameterTest.cpp - Parameters several stages use ------------===//
//
// World::shareParameter on the inproc transport: one copy per rank, the
// uses on a rank adding into one gradient, the ranks' gradients summed in
// ascending rank order, every copy updated alike, and the errors.
//
//===----------------------------------------------------------------------===//

#include "RuntimeTestUtil.h"

#include <string>
#include <vector>

using namespace pprt;
using namespace pprt_test;

namespace {

void addGradient(pprt_rank *h, int64_t stage, int64_t index,
                 std::vector<float> g) {
  pprt_accumulate_gradient(h, stage, index, g.data(),
                           static_cast<int64_t>(g.size() * sizeof(float)),
                           PPRT_F32);
}

TEST(RuntimeSharedParameter, UsesOnOneRankShareOneCopyAndOneGradient) {
  auto world = makeWorld(2, 2);
  ASSERT_TRUE(world);
  // Stage 0 (parameter 0) and stage 3 (parameter 1) on rank 0, as ZB-V
  // places the first and the last stage: tied embeddings.
  std::string error;
  ASSERT_TRUE(world->shareParameter({{0, 0, 0}, {0, 3, 1}}, error)) << error;
  world->setParameter(3, 1, f32Buffer({1, 2}));
  EXPECT_EQ(valuesOf<float>(world->parameter(0, 0)),
            (std::vector<float>{1, 2}));
  ASSERT_TRUE(world->runStep([](int rank, pprt_rank *h) {
    if (rank != 0)
      return;
    float seen[2] = {0, 0};
    pprt_parameter(h, 3, 1, seen, sizeof(seen));
    EXPECT_EQ(seen[1], 2.0f);
    addGradient(h, 0, 0, {0.5f, 1.0f});
    addGradient(h, 3, 1, {0.25f, -4.0f});
    addGradient(h, 0, 0, {0.125f, 0.5f});
  })) << world->error();
  ASSERT_TRUE(world->gradient(0, 0));
  ASSERT_TRUE(world->gradient(3, 1));
  EXPECT_EQ(world->gradient(0, 0), world->gradient(3, 1));
  EXPECT_EQ(valuesOf<float>(*world->gradient(0, 0)),
            (std::vector<float>{0.875f, -2.5f}));
  world->sgdStep(0.5);
  EXPECT_EQ(valuesOf<float>(world->parameter(0, 0)),
            (std::vector<float>{0.5625f, 3.25f}));
  EXPECT_EQ(valuesOf<float>(world->parameter(3, 1)),
            (std::vector<float>{0.5625f, 3.25f}));
}

TEST(RuntimeSharedParameter, RanksSumInAscendingRankOrderAndNeverDrift) {
  // Stage s on rank s; stages 0, 1 and 2 share a parameter (index 0, 2, 1),
  // stage 3 does not use it.
  auto world = makeWorld(4, 1);
  ASSERT_TRUE(world);
  std::string error;
  ASSERT_TRUE(world->shareParameter({{2, 2, 1}, {0, 0, 0}, {1, 1, 2}}, error))
      << error;
  for (auto [stage, index] : {std::pair<int, int>{0, 0}, {1, 2}, {2, 1}})
    world->setParameter(stage, index, f32Buffer({1, 1}));
  for (int step = 1; step <= 3; ++step) {
    ASSERT_TRUE(world->runStep([](int rank, pprt_rank *h) {
      // Summed 0, 1, 2: (1e8 + -1e8) + 1 = 1 in float, where 1e8 + (-1e8
      // + 1) would be 0.
      if (rank == 0)
        addGradient(h, 0, 0, {1e8f, 0.5f});
      else if (rank == 1)
        addGradient(h, 1, 2, {-1e8f, 0.25f});
      else if (rank == 2)
        addGradient(h, 2, 1, {1.0f, 0.125f});
    })) << world->error();
    for (auto [stage, index] : {std::pair<int, int>{0, 0}, {1, 2}, {2, 1}}) {
      const Buffer *g = world->gradient(stage, index);
      ASSERT_TRUE(g) << "stage " << stage;
      EXPECT_EQ(valuesOf<float>(*g), (std::vector<float>{1.0f, 0.875f}))
          << "stage " << stage;
    }
    EXPECT_FALSE(world->gradient(3, 0));
    world->sgdStep(0.5);
    std::vector<float> want = {1.0f - 0.5f * step, 1.0f - 0.4375f * step};
    EXPECT_EQ(valuesOf<float>(world->parameter(0, 0)), want);
    EXPECT_EQ(world->parameter(1, 2).bytes, world->parameter(0, 0).bytes);
    EXPECT_EQ(world->parameter(2, 1).bytes, world->parameter(0, 0).bytes);
  }
}

TEST(RuntimeSharedParameter, TwoUsesOnOneRankAndOneOnAnother) {
  auto world = makeWorld(2, 1);
  ASSERT_TRUE(world);
  std::string error;
  ASSERT_TRUE(world->shareParameter({{0, 0, 0}, {1, 1, 0}, {0, 2, 0}}, error))
      << error;
  world->setParameter(0, 0, f64Buffer({2.0}));
  world->setParameter(1, 0, f64Buffer({2.0}));
  ASSERT_TRUE(world->runStep([](int rank, pprt_rank *h) {
    double g = rank == 0 ? 0.1 : 0.2;
    pprt_accumulate_gradient(h, rank == 0 ? 0 : 1, 0, &g, sizeof(g), PPRT_F64);
    if (rank == 0) {
      g = 0.3;
      pprt_accumulate_gradient(h, 2, 0, &g, sizeof(g), PPRT_F64);
    }
  })) << world->error();
  // Rank 0's copy holds 0.1 + 0.3, then rank 1's 0.2 is added.
  std::vector<double> want = {(0.1 + 0.3) + 0.2};
  for (int stage : {0, 1, 2})
    EXPECT_EQ(valuesOf<double>(*world->gradient(stage, 0)), want);
  world->sgdStep(1.0);
  EXPECT_EQ(valuesOf<double>(world->parameter(2, 0)),
            (std::vector<double>{2.0 - want[0]}));
  EXPECT_EQ(world->parameter(1, 0).bytes, world->parameter(2, 0).bytes);
}

TEST(RuntimeSharedParameter, ValueSetBeforeSharingMovesToTheRanksCopy) {
  auto world = makeWorld(1, 1);
  ASSERT_TRUE(world);
  world->setParameter(1, 0, f32Buffer({7}));
  std::string error;
  ASSERT_TRUE(world->shareParameter({{0, 0, 0}, {0, 1, 0}}, error)) << error;
  EXPECT_EQ(valuesOf<float>(world->parameter(0, 0)), (std::vector<float>{7}));
}

TEST(RuntimeSharedParameter, BadGroupsAreRefused) {
  auto world = makeWorld(2, 1);
  ASSERT_TRUE(world);
  std::string error;
  EXPECT_FALSE(world->shareParameter({{0, 0, 0}}, error));
  EXPECT_EQ(error, "a shared parameter needs at least 2 uses, not 1");
  EXPECT_FALSE(world->shareParameter({{0, 0, 0}, {2, 1, 0}}, error));
  EXPECT_EQ(error, "parameter 0 of stage 1 is on rank 2, outside the "
                   "world's 2 ranks");
  EXPECT_FALSE(world->shareParameter({{0, 0, 0}, {0, 0, 0}}, error));
  EXPECT_EQ(error, "parameter 0 of stage 0 is already shared");
  ASSERT_TRUE(world->shareParameter({{0, 0, 0}, {1, 1, 0}}, error)) << error;
  // The same group again is accepted (a second training run on the world).
  EXPECT_TRUE(world->shareParameter({{0, 0, 0}, {1, 1, 0}}, error)) << error;
  EXPECT_FALSE(world->shareParameter({{1, 1, 0}, {1, 1, 1}}, error));
  EXPECT_EQ(error, "parameter 0 of stage 1 is already shared");
}

TEST(RuntimeSharedParameter, CopiesOfDifferentSizesFailTheStep) {
  auto world = makeWorld(2, 1);
  ASSERT_TRUE(world);
  std::string error;
  ASSERT_TRUE(world->shareParameter({{0, 0, 0}, {1, 1, 0}}, error)) << error;
  world->setParameter(0, 0, f32Buffer({1, 2}));
  world->setParameter(1, 0, f32Buffer({1, 2, 3}));
  EXPECT_FALSE(world->runStep([](int rank, pprt_rank *h) {
    if (rank == 0)
      addGradient(h, 0, 0, {1, 1});
    else
      addGradient(h, 1, 0, {1, 1, 1});
  }));
  EXPECT_EQ(world->error(),
            "the gradients of a shared parameter differ: 8 bytes of f32 on "
            "rank 0 but 12 bytes of f32 on rank 1 (parameter 0 of stage 1)");
}

} // namespace

namespace {

TEST(RuntimeSharedParameter, CopiesThatDifferAreNamed) {
  auto world = makeWorld(3, 1);
  ASSERT_TRUE(world);
  std::string error;
  EXPECT_TRUE(world->sharedCopiesEqual(error));
  ASSERT_TRUE(world->shareParameter({{0, 0, 0}, {1, 1, 0}, {2, 2, 1}}, error))
      << error;
  for (auto [stage, index] : {std::pair<int, int>{0, 0}, {1, 0}, {2, 1}})
    world->setParameter(stage, index, f32Buffer({1, 2}));
  EXPECT_TRUE(world->sharedCopiesEqual(error)) << error;
  // A launcher that sets one rank's copy alone makes the copies differ.
  world->setParameter(2, 1, f32Buffer({1, 3}));
  EXPECT_FALSE(world->sharedCopiesEqual(error));
  EXPECT_EQ(error, "the copy of the shared parameter on rank 2 (parameter 1 "
                   "of stage 2) differs from the copy on rank 0 (parameter 0 "
                   "of stage 0)");
}

} // namespace
