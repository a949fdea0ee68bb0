//===- DataParallelTest.cpp - gradient all-reduce placement and cost ------===//

#include "pp/Schedule/DataParallel.h"

#include "TestUtil.h"

#include <gtest/gtest.h>

using namespace mlir::pp::sched;

namespace {

TEST(DataParallel, RingAllReduceTime) {
  DataParallelModel dp;
  dp.replicas = 4;
  dp.bandwidth = 1e9; // bytes per second
  dp.latency = 2.0;   // microseconds
  // 2 * 3/4 * 4e6 B / 1e9 B/s = 6000 us, plus 2 * 3 * 2 us.
  EXPECT_DOUBLE_EQ(ringAllReduceTime(4000000, dp), 6000.0 + 12.0);
  dp.replicas = 1;
  EXPECT_EQ(ringAllReduceTime(4000000, dp), 0.0);
  dp.replicas = 2;
  EXPECT_EQ(ringAllReduceTime(0, dp), 0.0);
}

TEST(DataParallel, PlacedAfterEachStagesLastGradientAction) {
  PipelineModel model = PipelineModel::uniform(3, 1, 1, 1, 8, 4);
  Schedule zb = pp_test::build("zb-h1", model, 4);
  std::vector<AllReducePlacement> placed = placeAllReduces(zb);
  ASSERT_EQ(placed.size(), 3u);
  for (const AllReducePlacement &p : placed) {
    EXPECT_EQ(p.stage, p.rank);
    const std::vector<Action> &program = zb.ranks[p.rank];
    EXPECT_EQ(program[p.after].kind, ActionKind::BackwardWeight);
    EXPECT_EQ(program[p.after].stage, p.stage);
    for (size_t i = p.after + 1; i < program.size(); ++i)
      EXPECT_NE(program[i].kind, ActionKind::BackwardWeight);
  }
}

TEST(DataParallel, OverlapNeverLongerThanAtTheEnd) {
  // Interleaved 1F1B, P = 2, V = 2: the later chunk's all-reduce overlaps.
  PipelineModel model = PipelineModel::uniform(2, 1, 2, 0, 8);
  model.stages.push_back(model.stages[0]);
  model.stages.push_back(model.stages[1]);
  model.stages[2].rank = 0;
  model.stages[3].rank = 1;
  Schedule s = pp_test::build("interleaved-1f1b", model, 4);
  SimulationResult sim = simulate(model, s);
  DataParallelModel dp;
  dp.replicas = 4;
  dp.bandwidth = 1e12;
  dp.latency = 0.5;
  dp.gradientBytes = {1000000, 1000000, 1000000, 1000000};
  DataParallelResult r =
      simulateDataParallel(model, s, sim, placeAllReduces(s), dp);
  EXPECT_DOUBLE_EQ(r.makespan, 32.0);
  EXPECT_DOUBLE_EQ(r.makespanAtEnd, 36.0);
  EXPECT_DOUBLE_EQ(r.allReduceTime, 9.0);
  EXPECT_LE(r.makespan, r.makespanAtEnd);
  EXPECT_GE(r.makespan, sim.makespan);
}

} // namespace
