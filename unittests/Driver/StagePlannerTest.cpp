//===- StagePlannerTest.cpp - the measured stage cut and its cache --------===//

#include "pp/Driver/StagePlanner.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include <gtest/gtest.h>

using namespace mlir::pp::driver;

namespace {

std::vector<UnitCost> units(std::initializer_list<double> times) {
  std::vector<UnitCost> out;
  for (double t : times) {
    UnitCost u;
    u.forward = t;
    out.push_back(u);
  }
  return out;
}

PlanRequest request(int stages) {
  PlanRequest r;
  r.numStages = stages;
  r.numMicrobatches = 4;
  return r;
}

TEST(PlanStages, MinimizesTheBusiestStage) {
  auto plan = planStages(units({1, 2, 3, 4, 5, 6}), request(2));
  ASSERT_TRUE(static_cast<bool>(plan));
  // 1+2+3+4 = 10 against 5+6 = 11: the smallest possible busiest stage.
  EXPECT_EQ(plan->cuts, std::vector<int64_t>({3}));
  EXPECT_DOUBLE_EQ(plan->stages[0].total(), 10);
  EXPECT_DOUBLE_EQ(plan->stages[1].total(), 11);
  EXPECT_DOUBLE_EQ(plan->imbalance, 1.1);
  EXPECT_FALSE(plan->suggestedStages);
}

TEST(PlanStages, AmongEqualBusiestStagesTheLeastBusyIsLargest) {
  // The 10 is the busiest stage either way; [2 1][1][10] would leave 1 in
  // stage 1, [2][1 1][10] leaves at least 2 everywhere.
  auto plan = planStages(units({2, 1, 1, 10}), request(3));
  ASSERT_TRUE(static_cast<bool>(plan));
  EXPECT_EQ(plan->cuts, std::vector<int64_t>({0, 2}));
  EXPECT_DOUBLE_EQ(plan->stages[1].total(), 2);
  EXPECT_DOUBLE_EQ(plan->imbalance, 5);
}

TEST(PlanStages, NearEmptyStageSuggestsFewerStages) {
  // 100, 1, 1, 1 into 3: a stage of 1 is 1% of the busiest; 2 stages still
  // leave one of 3 (3%), so only 1 stage is sensible.
  auto plan = planStages(units({100, 1, 1, 1}), request(3));
  ASSERT_TRUE(static_cast<bool>(plan));
  ASSERT_TRUE(plan->suggestedStages.has_value());
  EXPECT_EQ(*plan->suggestedStages, 1);
  // 10, 10, 10, 1, 1 into 4: [10][10][10][1 1], the last stage at 20% of
  // the busiest, above the 10% bound.
  auto even = planStages(units({10, 10, 10, 1, 1}), request(4));
  ASSERT_TRUE(static_cast<bool>(even));
  EXPECT_FALSE(even->suggestedStages);
  EXPECT_EQ(even->cuts, std::vector<int64_t>({0, 1, 2}));
}

TEST(PlanStages, MemoryBudget) {
  std::vector<UnitCost> u = units({1, 1, 1, 1});
  for (UnitCost &c : u)
    c.parameterBytes = 100;
  u[0].stashBytes = 10;
  PlanRequest r = request(2);
  // Stage 0 holds min(M, S - 0) = 2 stashes: [0 1 2] = 300 + 20 = 320.
  r.memoryBudget = 250;
  auto plan = planStages(u, r);
  ASSERT_TRUE(static_cast<bool>(plan));
  EXPECT_EQ(plan->cuts, std::vector<int64_t>({1}));
  EXPECT_EQ(plan->memory, std::vector<int64_t>({220, 200}));
  r.memoryBudget = 150;
  auto none = planStages(u, r);
  ASSERT_FALSE(static_cast<bool>(none));
  EXPECT_EQ(llvm::toString(none.takeError()),
            "no cut of the model into 2 stages keeps every stage's "
            "parameters and stashes under 150 bytes (--memory-limit); raise "
            "the limit or use more ranks");
}

TEST(PlanStages, MoreStagesThanUnits) {
  auto plan = planStages(units({1, 2}), request(3));
  ASSERT_FALSE(static_cast<bool>(plan));
  EXPECT_EQ(llvm::toString(plan.takeError()),
            "cannot cut the model into 3 stages: it has only 2 ops that do "
            "work, so at most 2 stages (P*V <= 2)");
}

TEST(CostCache, RoundTripAndKeys) {
  llvm::SmallString<128> path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("plan", "txt", path));
  llvm::sys::fs::remove(path);
  UnitCosts costs{"abc", "host/cpu/2c/1t", units({1.5, 2.25})};
  costs.units[1].backwardWeight = 3;
  costs.units[0].crossingBytes = 64;
  ASSERT_FALSE(static_cast<bool>(writeCostCache(path, costs)));
  UnitCosts other{"def", "host/cpu/2c/1t", units({7})};
  ASSERT_FALSE(static_cast<bool>(writeCostCache(path, other)));
  auto read = readCostCache(path, "abc", "host/cpu/2c/1t", 2);
  ASSERT_TRUE(static_cast<bool>(read));
  ASSERT_TRUE(read->has_value());
  EXPECT_DOUBLE_EQ((**read).units[0].forward, 1.5);
  EXPECT_DOUBLE_EQ((**read).units[1].backwardWeight, 3);
  EXPECT_EQ((**read).units[0].crossingBytes, 64);
  auto second = readCostCache(path, "def", "host/cpu/2c/1t", 1);
  ASSERT_TRUE(static_cast<bool>(second));
  ASSERT_TRUE(second->has_value());
  EXPECT_DOUBLE_EQ((**second).units[0].forward, 7);
  // Another machine or unit count: no entry.
  auto miss = readCostCache(path, "abc", "other/cpu/2c/1t", 2);
  ASSERT_TRUE(static_cast<bool>(miss));
  EXPECT_FALSE(miss->has_value());
  auto count = readCostCache(path, "abc", "host/cpu/2c/1t", 3);
  ASSERT_TRUE(static_cast<bool>(count));
  EXPECT_FALSE(count->has_value());
  // A later entry of the same key (calibrated costs) replaces the first.
  EXPECT_EQ((**read).calibratedStages, 0);
  UnitCosts calibrated{"abc", "host/cpu/2c/1t", units({3, 4.5}), 4};
  ASSERT_FALSE(static_cast<bool>(writeCostCache(path, calibrated)));
  auto last = readCostCache(path, "abc", "host/cpu/2c/1t", 2);
  ASSERT_TRUE(static_cast<bool>(last));
  ASSERT_TRUE(last->has_value());
  EXPECT_EQ((**last).calibratedStages, 4);
  EXPECT_DOUBLE_EQ((**last).units[0].forward, 3);
  EXPECT_DOUBLE_EQ((**last).units[1].forward, 4.5);
  llvm::sys::fs::remove(path);
}

TEST(CalibrateUnits, StagesMeasuredWholeScaleTheirUnits) {
  // Units 1+2+3 | 4+5+6 (cut after unit 2) predict stages of 6 and 15; the
  // stages measured whole took 12 (F) and 15 (F), and stage 1's W 2 where
  // its units predicted none.
  std::vector<UnitCost> u = units({1, 2, 3, 4, 5, 6});
  std::vector<UnitCost> stages = units({12, 15});
  stages[1].backwardWeight = 2;
  calibrateUnits(u, {2}, stages);
  EXPECT_DOUBLE_EQ(u[0].forward, 2);
  EXPECT_DOUBLE_EQ(u[1].forward, 4);
  EXPECT_DOUBLE_EQ(u[2].forward, 6);
  EXPECT_DOUBLE_EQ(u[3].forward, 4);
  EXPECT_DOUBLE_EQ(u[5].forward, 6);
  // A kind the units predict as 0 stays 0: nothing says which unit has it.
  EXPECT_DOUBLE_EQ(u[5].backwardWeight, 0);
  // Planned again with the calibrated units (2 4 6 | 4 5 6), the best cut
  // is still after unit 2: 12 | 15, against 16 | 11 after unit 3.
  auto plan = planStages(u, request(2));
  ASSERT_TRUE(static_cast<bool>(plan));
  EXPECT_EQ(plan->cuts, std::vector<int64_t>({2}));
  EXPECT_DOUBLE_EQ(plan->stages[0].total(), 12);
  EXPECT_DOUBLE_EQ(plan->stages[1].total(), 15);
}

} // namespace
