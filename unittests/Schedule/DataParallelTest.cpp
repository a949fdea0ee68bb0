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

/// P = 2, V = 2 (stages 0 and 2 on rank 0, 1 and 3 on rank 1), F = 1,
/// B = 2 (fused), stash 8.
PipelineModel interleavedTwoByTwo() {
  PipelineModel model = PipelineModel::uniform(2, 1, 2, 0, 8);
  model.stages.push_back(model.stages[0]);
  model.stages.push_back(model.stages[1]);
  model.stages[2].rank = 0;
  model.stages[3].rank = 1;
  return model;
}

/// Four replicas, a ring of 1e12 B/s and 0.5 us, 1 MB of gradients per
/// stage of interleavedTwoByTwo().
DataParallelModel fourReplicasOfOneMegabyte() {
  DataParallelModel dp;
  dp.replicas = 4;
  dp.bandwidth = 1e12;
  dp.latency = 0.5;
  dp.gradientBytes = {1000000, 1000000, 1000000, 1000000};
  return dp;
}

TEST(DataParallel, OverlapNeverLongerThanAtTheEnd) {
  // Interleaved 1F1B, P = 2, V = 2: the later chunk's all-reduce overlaps.
  PipelineModel model = interleavedTwoByTwo();
  Schedule s = pp_test::build("interleaved-1f1b", model, 4);
  SimulationResult sim = simulate(model, s);
  DataParallelModel dp = fourReplicasOfOneMegabyte();
  DataParallelResult r =
      simulateDataParallel(model, s, sim, placeAllReduces(s), dp);
  EXPECT_DOUBLE_EQ(r.makespan, 32.0);
  EXPECT_DOUBLE_EQ(r.makespanAtEnd, 36.0);
  EXPECT_DOUBLE_EQ(r.allReduceTime, 9.0);
  EXPECT_LE(r.makespan, r.makespanAtEnd);
  EXPECT_GE(r.makespan, sim.makespan);
}

TEST(DataParallel, Buckets) {
  // The pipeline of OverlapNeverLongerThanAtTheEnd: rank 0 runs stages 0
  // and 2, whose last backwards end at 27 and 23 us.
  PipelineModel model = interleavedTwoByTwo();
  Schedule s = pp_test::build("interleaved-1f1b", model, 4);
  SimulationResult sim = simulate(model, s);
  DataParallelModel dp = fourReplicasOfOneMegabyte();
  std::vector<AllReducePlacement> placed = placeAllReduces(s);

  // No cap, or a cap below two stages: one collective per stage.
  for (int64_t cap : {int64_t(0), int64_t(1999999)}) {
    std::vector<AllReducePlacement> same =
        bucketAllReduces(placed, dp.gradientBytes, cap);
    ASSERT_EQ(same.size(), placed.size());
    for (size_t i = 0; i < same.size(); ++i) {
      EXPECT_EQ(same[i].after, placed[i].after);
      EXPECT_EQ(same[i].bucket, cap ? static_cast<int>(i % 2) : -1);
    }
  }

  // Two stages per bucket: each rank's pair goes after its later W.
  std::vector<AllReducePlacement> paired =
      bucketAllReduces(placed, dp.gradientBytes, 2000000);
  ASSERT_EQ(paired.size(), 4u);
  for (size_t i = 0; i < 4; i += 2) {
    EXPECT_EQ(paired[i].rank, paired[i + 1].rank);
    EXPECT_EQ(paired[i].bucket, 0);
    EXPECT_EQ(paired[i + 1].bucket, 0);
    EXPECT_EQ(paired[i].after, placed[i + 1].after);
    EXPECT_EQ(paired[i + 1].after, placed[i + 1].after);
  }
  // One ring of 2 MB: 2 * 3/4 * 2e6 / 1e12 s = 3 us + 2 * 3 * 0.5 us,
  // from rank 0's last backward at 27 us; the two of 1 MB took 4.5 us each
  // from 23 and 27.5 (32 us).
  DataParallelResult one = simulateDataParallel(model, s, sim, paired, dp);
  ASSERT_EQ(one.overlapped.size(), 4u);
  EXPECT_DOUBLE_EQ(one.overlapped[0].start, 27.0);
  EXPECT_DOUBLE_EQ(one.overlapped[0].end, 33.0);
  EXPECT_DOUBLE_EQ(one.overlapped[1].end, 33.0);
  EXPECT_DOUBLE_EQ(one.makespan, 33.0);
  EXPECT_DOUBLE_EQ(one.allReduceTime, 6.0);
  // Where the latency dominates, merging wins: 2 x 31.5 us against 33.
  dp.latency = 5;
  EXPECT_DOUBLE_EQ(simulateDataParallel(model, s, sim, placed, dp).makespan,
                   23 + 2 * 31.5);
  EXPECT_DOUBLE_EQ(simulateDataParallel(model, s, sim, paired, dp).makespan,
                   27 + 33.0);
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
