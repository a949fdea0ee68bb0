//===- DataParallelTest.cpp - gradient all-reduce placement and cost ------===//

#include "pp/Schedule/DataParallel.h"

#include "TestUtil.h"

#include <gtest/gtest.h>

#include <limits>

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
  // No bytes: the messages' latency alone, 2 * 1 * 2 us.
  dp.replicas = 2;
  EXPECT_EQ(ringAllReduceTime(0, dp), 4.0);
}

TEST(DataParallel, FitRingRecoversTheModelFromTwoSizes) {
  // Times the model itself gives, D = 4: the fit must give the model back,
  // and ringAllReduceTime under the fit must give the times back.
  DataParallelModel dp;
  dp.replicas = 4;
  dp.bandwidth = 2e9;
  dp.latency = 7.0;
  std::vector<AllReduceTiming> timings = {
      {4096, ringAllReduceTime(4096, dp)},
      {1 << 20, ringAllReduceTime(1 << 20, dp)},
      // Late wake-ups: the median of each size ignores them.
      {4096, 10 * ringAllReduceTime(4096, dp)},
      {4096, ringAllReduceTime(4096, dp)},
  };
  std::optional<RingFit> fit = fitRing(timings, 4, /*priorLatency=*/0.0);
  ASSERT_TRUE(fit);
  EXPECT_NEAR(fit->bandwidth, 2e9, 2e9 * 1e-9);
  EXPECT_NEAR(fit->latency, 7.0, 1e-6);
}

TEST(DataParallel, FitRingWithOneSizeKeepsThePriorLatency) {
  // D = 2: T = n / bandwidth + 2 latency; 1e6 bytes in 1000 us with a
  // 50 us latency leaves 900 us for the bytes.
  std::optional<RingFit> fit = fitRing({{1000000, 1000.0}}, 2, 50.0);
  ASSERT_TRUE(fit);
  EXPECT_DOUBLE_EQ(fit->latency, 50.0);
  EXPECT_NEAR(fit->bandwidth, 1e6 / 900e-6, 1e-3);
  // A prior latency longer than the time allows is clamped to half of it,
  // an infinite one too; a NaN one counts as 0.
  fit = fitRing({{1000000, 100.0}}, 2, 1000.0);
  ASSERT_TRUE(fit);
  EXPECT_DOUBLE_EQ(fit->latency, 25.0);
  EXPECT_NEAR(fit->bandwidth, 1e6 / 50e-6, 1e-3);
  fit = fitRing({{1000000, 100.0}}, 2, std::numeric_limits<double>::infinity());
  ASSERT_TRUE(fit);
  EXPECT_DOUBLE_EQ(fit->latency, 25.0);
  fit =
      fitRing({{1000000, 100.0}}, 2, std::numeric_limits<double>::quiet_NaN());
  ASSERT_TRUE(fit);
  EXPECT_DOUBLE_EQ(fit->latency, 0.0);
  EXPECT_NEAR(fit->bandwidth, 1e6 / 100e-6, 1e-3);
}

TEST(DataParallel, FitRingFallsBackWhenTheLineDoesNotRise) {
  // The small all-reduce waited for a core longer than the large one took:
  // the largest size alone decides.
  std::optional<RingFit> fit =
      fitRing({{20000, 500.0}, {1600000, 400.0}}, 2, 10.0);
  ASSERT_TRUE(fit);
  EXPECT_DOUBLE_EQ(fit->latency, 10.0);
  EXPECT_NEAR(fit->bandwidth, 1600000 / 380e-6, 1e-2);
}

TEST(DataParallel, FitRingThroughTheOriginForANegativeIntercept) {
  // 1000 B in 1 us and 2000 B in 3 us: the line's intercept is -1 us, so
  // the fit goes through the origin (slope 7/5 us per 1000 B).
  std::optional<RingFit> fit = fitRing({{1000, 1.0}, {2000, 3.0}}, 2, 5.0);
  ASSERT_TRUE(fit);
  EXPECT_EQ(fit->latency, 0.0);
  EXPECT_NEAR(fit->bandwidth, 1e6 / (7.0 / 5000.0), 1e-3);
}

TEST(DataParallel, FitRingNeedsReplicasAndTimings) {
  EXPECT_FALSE(fitRing({{1000, 1.0}}, 1, 0.0));
  EXPECT_FALSE(fitRing({}, 2, 0.0));
  EXPECT_FALSE(fitRing({{0, 1.0}, {1000, 0.0}, {1000, -1.0}}, 2, 0.0));
  EXPECT_FALSE(
      fitRing({{1000, std::numeric_limits<double>::quiet_NaN()}}, 2, 0.0));
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

/// Interleaved 1F1B on interleavedTwoByTwo(), M = 4, simulated, with
/// fourReplicasOfOneMegabyte() and the all-reduces placeAllReduces() places.
struct InterleavedStep {
  PipelineModel model = interleavedTwoByTwo();
  Schedule s = pp_test::build("interleaved-1f1b", model, 4);
  SimulationResult sim = simulate(model, s);
  DataParallelModel dp = fourReplicasOfOneMegabyte();
  std::vector<AllReducePlacement> placed = placeAllReduces(s);
};

TEST(DataParallel, OverlapNeverLongerThanAtTheEnd) {
  // Interleaved 1F1B, P = 2, V = 2: the later chunk's all-reduce overlaps.
  InterleavedStep step;
  auto &[model, s, sim, dp, placed] = step;
  DataParallelResult r = simulateDataParallel(model, s, sim, placed, dp);
  EXPECT_DOUBLE_EQ(r.makespan, 32.0);
  EXPECT_DOUBLE_EQ(r.makespanAtEnd, 36.0);
  EXPECT_DOUBLE_EQ(r.allReduceTime, 9.0);
  EXPECT_LE(r.makespan, r.makespanAtEnd);
  EXPECT_GE(r.makespan, sim.makespan);
}

TEST(DataParallel, Buckets) {
  // The pipeline of OverlapNeverLongerThanAtTheEnd: rank 0 runs stages 0
  // and 2, whose last backwards end at 27 and 23 us.
  InterleavedStep step;
  auto &[model, s, sim, dp, placed] = step;

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
  // Per rank, the bucket's one interval counts once.
  std::vector<RankAllReduces> perRank =
      allReducesPerRank(allReduceSpans(one, dp.gradientBytes), 2);
  ASSERT_EQ(perRank.size(), 2u);
  EXPECT_DOUBLE_EQ(perRank[0].time, 6.0);
  EXPECT_DOUBLE_EQ(perRank[0].end, 33.0);
  // Where the latency dominates, merging wins: 2 x 31.5 us against 33.
  dp.latency = 5;
  EXPECT_DOUBLE_EQ(simulateDataParallel(model, s, sim, placed, dp).makespan,
                   23 + 2 * 31.5);
  EXPECT_DOUBLE_EQ(simulateDataParallel(model, s, sim, paired, dp).makespan,
                   27 + 33.0);
}

TEST(DataParallel, DeferredAllReducesStartAfterTheRanksLastAction) {
  // The pipeline of OverlapNeverLongerThanAtTheEnd: deferred, the
  // overlapped step is the one reduced at the end (36 us, not 32).
  InterleavedStep step;
  auto &[model, s, sim, dp, placed] = step;
  std::vector<AllReducePlacement> deferred = deferAllReduces(placed, s);
  ASSERT_EQ(deferred.size(), placed.size());
  for (size_t i = 0; i < placed.size(); ++i) {
    EXPECT_EQ(deferred[i].rank, placed[i].rank);
    EXPECT_EQ(deferred[i].stage, placed[i].stage);
    EXPECT_EQ(deferred[i].bucket, placed[i].bucket);
    EXPECT_EQ(deferred[i].after, s.ranks[placed[i].rank].size() - 1);
  }
  DataParallelResult r = simulateDataParallel(model, s, sim, deferred, dp);
  EXPECT_DOUBLE_EQ(r.makespan, 36.0);
  EXPECT_DOUBLE_EQ(r.makespanAtEnd, 36.0);
  // Still no deadlock: every replica reaches them in the same order.
  EXPECT_TRUE(findDataParallelDeadlock(model, s, deferred, 2).completed);
}

TEST(DataParallel, AStragglerDelaysEveryReplicasAllReduce) {
  // The pipeline of OverlapNeverLongerThanAtTheEnd, two replicas: one as
  // simulated, one 2 us late at every action from rank 0's last backward
  // (27 us) on. Each all-reduce starts when the later replica reaches it.
  InterleavedStep step;
  auto &[model, s, sim, dp, placed] = step;
  DataParallelResult same = simulateDataParallel(model, s, sim, placed, dp);
  // D equal simulations are the one-simulation form.
  DataParallelResult equal =
      simulateDataParallel(model, s, {sim, sim}, placed, dp);
  EXPECT_DOUBLE_EQ(equal.makespan, same.makespan);
  EXPECT_DOUBLE_EQ(equal.makespanAtEnd, same.makespanAtEnd);
  ASSERT_EQ(equal.overlapped.size(), same.overlapped.size());
  SimulationResult late = sim;
  for (auto &rank : late.timings)
    for (ActionTiming &t : rank)
      if (t.end >= 27.0) {
        t.start += 2.0;
        t.end += 2.0;
      }
  DataParallelResult r =
      simulateDataParallel(model, s, {sim, late}, placed, dp);
  ASSERT_EQ(r.overlapped.size(), same.overlapped.size());
  for (size_t i = 0; i < r.overlapped.size(); ++i) {
    const DataParallelResult::Timing &t = r.overlapped[i];
    double ready = 0;
    for (const SimulationResult *replica : {&sim, &late})
      ready = std::max(ready, replica->timings[t.rank][placed[i].after].end);
    EXPECT_GE(t.start, ready);
  }
  // Rank 0's stage-0 all-reduce (4.5 us) waited for stage 2's until 27.5
  // and ended at 32; now it waits for the late replica until 29.
  EXPECT_DOUBLE_EQ(same.makespan, 32.0);
  EXPECT_DOUBLE_EQ(r.makespan, 29.0 + 4.5);
  EXPECT_TRUE(simulateDataParallel(model, s, std::vector<SimulationResult>{},
                                   placed, dp)
                  .overlapped.empty());
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
