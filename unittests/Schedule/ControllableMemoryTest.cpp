// Tests of V-Half and V-Min (Qi et al., "Pipeline Parallelism with
// Controllable Memory", NeurIPS 2024; lib/Schedule/ControllableMemory.cpp):
// their memory and bubble claims, and auto on V placements.
//
// The claims, from the authors' repository (sail-sg/zero-bubble-pipeline-
// parallelism, README, "Pipeline Parallelism with Controllable Memory"
// table), with T_F = T_B = T_W and B = (p - 1) / (m + p - 1), 1F1B's bubble
// rate: activation memory 1/2 (V-Half) and 1/3 (V-Min) of 1F1B's; bubble
// rate B/2 (V-Half) and 2B/3 plus an O(n) overhead (V-Min).
//
// Units as the reference counts them: every chunk (stage) has F = B = W = 1
// and a stash of 1 that its W frees (M_W = M_B, ConvertAtBackward); 1F1B on
// the same model cut into P stages of two chunks holds 2P on rank 0.

#include "pp/Schedule/AutoSchedule.h"
#include "pp/Schedule/Schedule.h"

#include "TestUtil.h"
#include "gtest/gtest.h"

#include <algorithm>

using namespace mlir::pp::sched;

namespace {

PipelineModel unitV(int numRanks) {
  PipelineModel model;
  model.numRanks = numRanks;
  model.stashAccounting = StashAccounting::ConvertAtBackward;
  std::vector<int> ranks =
      llvm::cantFail(placeStages(Placement::V, numRanks, 2));
  for (int s = 0; s < 2 * numRanks; ++s) {
    StageInfo stage;
    stage.rank = ranks[s];
    stage.forwardTime = stage.backwardInputTime = stage.backwardWeightTime = 1;
    stage.stashBytes = stage.weightStashBytes = 1;
    model.stages.push_back(stage);
  }
  return model;
}

using pp_test::peakOf;

double oneFOneBBubble(int p, int m) { return double(p - 1) / (m + p - 1); }

// Memory: V-Half holds P + 2 chunk stashes on every rank, half of 1F1B's 2P
// plus two; V-Min 2P/3 + O(1), a third of 1F1B's plus a constant (8 at P =
// 8, where the constant still dominates; 24 at P = 32: 0.375 of 1F1B).
TEST(ControllableMemory, Memory) {
  struct Expected {
    int p, half, min;
  };
  for (Expected e :
       {Expected{4, 6, 4}, Expected{8, 10, 8}, Expected{16, 18, 12},
        Expected{24, 26, 18}, Expected{32, 34, 24}}) {
    PipelineModel model = unitV(e.p);
    int m = 4 * e.p;
    SimulationResult half = simulate(model, pp_test::build("v-half", model, m));
    SimulationResult min = simulate(model, pp_test::build("v-min", model, m));
    for (const RankMetrics &rank : half.ranks)
      EXPECT_EQ(rank.peakMemoryBytes, e.half) << "P=" << e.p;
    EXPECT_EQ(peakOf(min), e.min) << "P=" << e.p;
    // Against 1F1B (2P) and ZB-V (2P on every rank, the same as 1F1B).
    EXPECT_EQ(peakOf(simulate(model, pp_test::build("zb-v", model, m))),
              2 * e.p);
    EXPECT_LE(2 * e.half, 2 * e.p + 4);
    EXPECT_LE(3 * e.min, 2 * e.p + 8);
  }
}

// Bubble over rank spans with unit costs: V-Half within B/2 once M >= 2P at
// P = 8 (0.49 B at M = 16, 0.43 B at M = 64); V-Min about 2B/3 (0.67 B at
// P = 8, M = 64; 0.68 B at P = 16, M = 128; 0.72 B at P = 8, M = 16: the
// O(n) overhead).
TEST(ControllableMemory, Bubble) {
  struct Expected {
    int p, m;
    double half, min; // makespans
  };
  for (Expected e : {Expected{4, 8, 53, 59}, Expected{4, 32, 197, 203},
                     Expected{8, 16, 113, 123}, Expected{8, 64, 401, 411},
                     Expected{16, 128, 809, 827}}) {
    SCOPED_TRACE("P=" + std::to_string(e.p) + " M=" + std::to_string(e.m));
    PipelineModel model = unitV(e.p);
    SimulationResult half =
        simulate(model, pp_test::build("v-half", model, e.m));
    SimulationResult min = simulate(model, pp_test::build("v-min", model, e.m));
    EXPECT_EQ(half.makespan, e.half);
    EXPECT_EQ(min.makespan, e.min);
    double ideal = 6.0 * e.m;
    EXPECT_EQ(half.idealTime, ideal);
    // Rank 0 starts first and ends last: its span is the makespan.
    EXPECT_EQ(half.maxRankSpan, half.makespan);
    double b = oneFOneBBubble(e.p, e.m);
    EXPECT_LE(half.spanBubbleRate, b / 2 + 1e-12);
    EXPECT_LE(min.spanBubbleRate, 0.74 * b);
    EXPECT_GE(min.spanBubbleRate, 0.62 * b);
  }
}

// Every rank's program is F, B, W of both chunks, B and W split, each chunk
// in micro-batch order; tiny pipelines too.
TEST(ControllableMemory, SmallShapes) {
  PipelineModel model = unitV(2);
  EXPECT_EQ(pp_test::labels(pp_test::build("v-half", model, 2)),
            (std::vector<std::string>{"F0 F1 F0 B0 W0 F1 B0 B1 W1 W0 B1 W1",
                                      "F0 F0 F1 F1 B0 W0 B0 W0 B1 W1 B1 W1"}));
  for (int p = 1; p <= 3; ++p)
    for (int m = 1; m <= 3; ++m)
      for (const char *name : {"v-half", "v-min"}) {
        PipelineModel small = unitV(p);
        Schedule schedule = pp_test::build(name, small, m);
        EXPECT_TRUE(checkSchedule(small, schedule).empty());
        EXPECT_TRUE(findDeadlock(small, schedule).completed);
      }
}

TEST(ControllableMemory, NeedsTheVPlacement) {
  PipelineModel model = PipelineModel::uniform(4, 1, 1, 1, 1, 1);
  llvm::Expected<Schedule> schedule = buildSchedule("v-half", model, 8);
  ASSERT_FALSE(static_cast<bool>(schedule));
  EXPECT_EQ(llvm::toString(schedule.takeError()),
            "'v-half' needs the V placement (2 stages per rank, rank r "
            "holding stages r and 2P-1-r); place the stages with the V "
            "placement (`v`)");
}

// auto considers V-Half and V-Min on V placements: within V-Min's memory
// it is no slower than V-Min, within V-Half's no slower than V-Half, with
// uniform and with heterogeneous costs.
TEST(ControllableMemory, AutoConsidersThem) {
  for (double skew : {1.0, 2.0}) {
    PipelineModel model = unitV(8);
    model.stages.back().forwardTime = skew;
    model.stages.back().backwardInputTime = skew;
    model.latency = skew > 1 ? 0.1 : 0.0;
    for (const char *name : {"v-half", "v-min"}) {
      SimulationResult named = simulate(model, pp_test::build(name, model, 32));
      ScheduleOptions options;
      options.memoryLimitBytes = peakOf(named);
      llvm::Expected<AutoReport> report = planAuto(model, 32, options);
      ASSERT_TRUE(static_cast<bool>(report))
          << llvm::toString(report.takeError());
      EXPECT_LE(report->makespan, named.makespan + 1e-9) << name;
      EXPECT_LE(report->peakMemoryBytes, options.memoryLimitBytes);
    }
  }
}

} // namespace
