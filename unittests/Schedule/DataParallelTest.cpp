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

namespace {

// D replicas with the all-reduces as blocking collectives complete exactly
// when the schedule does: every named schedule, with its messages, at D = 2
// and 3.
TEST(DataParallel, ReplicasWithAllReducesDoNotDeadlock) {
  PipelineModel model = PipelineModel::uniform(3, 1, 1, 1, 8, 4);
  for (const char *name : {"gpipe", "1f1b", "zb-h1", "zb-h2"}) {
    Schedule schedule =
        insertCommunication(model, pp_test::build(name, model, 5));
    ASSERT_TRUE(findDeadlock(model, schedule).completed) << name;
    std::vector<AllReducePlacement> placed = placeAllReduces(schedule);
    for (int d : {1, 2, 3}) {
      DeadlockReport report =
          findDataParallelDeadlock(model, schedule, placed, d);
      EXPECT_TRUE(report.completed) << name << " D=" << d;
      EXPECT_TRUE(report.blocked.empty());
    }
  }
}

// A schedule that deadlocks alone deadlocks in every replica, each rank
// named with its replica.
TEST(DataParallel, ReplicasOfADeadlockedScheduleDeadlock) {
  PipelineModel model = PipelineModel::uniform(2, 1, 1, 0, 8);
  Schedule schedule;
  schedule.numMicrobatches = 1;
  auto act = [](ActionKind kind, int stage, PayloadKind payload, int peer) {
    Action a;
    a.kind = kind;
    a.stage = stage;
    a.microbatch = 0;
    a.payload = payload;
    a.peer = peer;
    return a;
  };
  // Rank 0 waits for the gradient before it sends the activation rank 1
  // waits for.
  schedule.ranks = {{act(ActionKind::Recv, 1, PayloadKind::Gradient, 1),
                     act(ActionKind::Forward, 0, PayloadKind::Activation, 0),
                     act(ActionKind::Send, 0, PayloadKind::Activation, 1),
                     act(ActionKind::Backward, 0, PayloadKind::Activation, 0)},
                    {act(ActionKind::Recv, 0, PayloadKind::Activation, 0),
                     act(ActionKind::Forward, 1, PayloadKind::Activation, 0),
                     act(ActionKind::Backward, 1, PayloadKind::Activation, 0),
                     act(ActionKind::Send, 1, PayloadKind::Gradient, 0)}};
  ASSERT_FALSE(findDeadlock(model, schedule).completed);
  DeadlockReport report =
      findDataParallelDeadlock(model, schedule, placeAllReduces(schedule), 2);
  EXPECT_FALSE(report.completed);
  ASSERT_EQ(report.blocked.size(), 4u);
  EXPECT_EQ(report.blocked[0].message,
            "rank 0 of replica 0 waits at recv of gradient of stage 1 "
            "micro-batch 0 from rank 1");
  EXPECT_EQ(report.blocked[3].rank, 1);
  EXPECT_EQ(report.blocked[3].index, 0);

  EXPECT_FALSE(findDataParallelDeadlock(model, schedule, {}, 0).completed);
}

} // namespace
