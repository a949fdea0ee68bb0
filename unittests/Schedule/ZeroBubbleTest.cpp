//===- ZeroBubbleTest.cpp - Tests of ZB-H1 and ZB-H2 ----------------------===//
//
// The figures come from Qi et al., "Zero Bubble Pipeline Parallelism" (ICLR
// 2024; arXiv 2401.10241), sec. 2 (handcrafted schedules, Figure 3 and the
// table comparing 1F1B, ZB-H1 and ZB-H2): with uniform costs T_F, T_B, T_W
// per stage and M >= P (ZB-H2: M >= 2P - 1, enough for its warm-up),
//   ZB-H1: bubble (P - 1)(T_F + T_B - T_W), peak memory P M_B;
//   ZB-H2: bubble (P - 1)(T_F + T_B - 2 T_W), peak memory (2P - 1) M_B.
// The bubble is the time a stage is idle between its first and its last
// action, taken on the stage where it is largest: the paper's schedules are
// timed per stage (ZB-H2 is a parallelogram, stage s starting s T_F after
// stage 0 and ending s T_F after it; the authors replace the optimizer's
// global synchronization by post-validation so that no stage waits for the
// others). Both figures need T_W <= T_F (a W fills a gap of one T_F in the
// cool-down of ZB-H1; with a larger T_W the ZB-H1 bubble is (P - 1) T_B), and
// ZB-H2's is 0 when 2 T_W >= T_F + T_B.
//
//===----------------------------------------------------------------------===//

#include "pp/Schedule/Schedule.h"

#include "llvm/Support/Error.h"

#include "TestUtil.h"
#include "gtest/gtest.h"

#include <algorithm>
#include <string>
#include <vector>

using namespace mlir::pp::sched;
using namespace pp_test;

namespace {

/// The labels of every rank, one string per rank: "F0 B0 W0" (B is the
/// backward for inputs, W the backward for weights).

/// Largest time any rank spends from the start of its first action to the
/// end of its last one (the paper's per-stage execution time).
double largestSpan(const SimulationResult &result) {
  double span = 0;
  for (size_t r = 0; r < result.ranks.size(); ++r)
    if (!result.timings[r].empty())
      span = std::max(span, result.ranks[r].endTime -
                                result.timings[r].front().start);
  return span;
}

/// Structural checks (every F, B and W exactly once, on its stage's rank, in
/// dependency order), deadlock freedom with and without communication, a
/// simulation.
void expectValid(const PipelineModel &model, const Schedule &schedule) {
  std::vector<Problem> problems = checkSchedule(model, schedule);
  ASSERT_TRUE(problems.empty()) << problems.front().message;
  ASSERT_TRUE(findDeadlock(model, schedule).completed);
  Schedule withComm = insertCommunication(model, schedule);
  problems = checkSchedule(model, withComm);
  ASSERT_TRUE(problems.empty()) << problems.front().message;
  ASSERT_TRUE(findDeadlock(model, withComm).completed);
  SimulationResult result = simulate(model, withComm);
  EXPECT_GT(result.makespan, 0);
  for (const std::vector<Action> &program : schedule.ranks) {
    EXPECT_EQ(program.size(), 3u * schedule.numMicrobatches);
    for (const Action &action : program)
      EXPECT_NE(action.kind, ActionKind::Backward); // Split backward only.
  }
}

std::vector<int> sampleMicrobatches(int p) {
  std::vector<int> ms = {1, 2, 3, p - 1, p, p + 1, 2 * p, 2 * p + 1, 37, 64};
  std::sort(ms.begin(), ms.end());
  ms.erase(std::unique(ms.begin(), ms.end()), ms.end());
  ms.erase(std::remove_if(ms.begin(), ms.end(),
                          [](int m) { return m < 1 || m > 64; }),
           ms.end());
  return ms;
}

struct Costs {
  double f, b, w;
};

std::string describeCase(int p, int m, Costs c) {
  return "P=" + std::to_string(p) + " M=" + std::to_string(m) +
         " T_F=" + std::to_string(c.f) + " T_B=" + std::to_string(c.b) +
         " T_W=" + std::to_string(c.w);
}

//===----------------------------------------------------------------------===//
// ZB-H1
//===----------------------------------------------------------------------===//

// P = 3, M = 4, checked by hand: 1F1B's warm-up (2, 1, 0 forwards), steady
// F B pairs, and stage s starts its W's after its B of micro-batch s (so
// every stage has P micro-batches in flight), the s W's left at the end.
TEST(ZeroBubbleH1, OrderP3M4) {
  PipelineModel model = PipelineModel::uniform(3, 1, 1, 1, 1);
  Schedule schedule = build("zb-h1", model, 4);
  EXPECT_EQ(labels(schedule), (std::vector<std::string>{
                                  "F0 F1 F2 B0 W0 F3 B1 W1 B2 W2 B3 W3",
                                  "F0 F1 B0 F2 B1 W0 F3 B2 W1 B3 W2 W3",
                                  "F0 B0 F1 B1 F2 B2 W0 F3 B3 W1 W2 W3",
                              }));
  for (int r = 0; r < 3; ++r)
    for (const Action &action : schedule.ranks[r]) {
      EXPECT_EQ(action.stage, r);
      if (label(action)[0] == 'B')
        EXPECT_EQ(action.kind, ActionKind::BackwardInput);
    }
  // Unit costs: stage 0 waits 2 (P - 1 = 2 B hops) before B0, then runs
  // without a gap; makespan 3M + (P - 1)(T_F + T_B - T_W) = 14.
  SimulationResult result = simulate(model, schedule);
  EXPECT_DOUBLE_EQ(result.makespan, 14);
}

TEST(ZeroBubbleH1, FewerMicrobatchesThanRanks) {
  PipelineModel model = PipelineModel::uniform(4, 1, 1, 1, 1);
  EXPECT_EQ(labels(build("zb-h1", model, 2)), (std::vector<std::string>{
                                                  "F0 F1 B0 W0 B1 W1",
                                                  "F0 F1 B0 B1 W0 W1",
                                                  "F0 F1 B0 B1 W0 W1",
                                                  "F0 B0 F1 B1 W0 W1",
                                              }));
  EXPECT_EQ(labels(build("zb-h1", PipelineModel::uniform(1, 1, 1, 1, 1), 2)),
            (std::vector<std::string>{"F0 B0 W0 F1 B1 W1"}));
}

// Qi et al., ICLR 2024, sec. 2.1 and Figure 3 (top): ZB-H1's bubble is
// (P - 1)(T_F + T_B - T_W), a third of 1F1B's (P - 1)(T_F + T_B + T_W) when
// T_F = T_B = T_W, and its peak memory is 1F1B's, P M_B, on the first stage.
// Condition: T_W <= T_F (and M >= P). Here the makespan too equals
// M(T_F + T_B + T_W) plus that bubble (stage 0 starts first and ends last)
// when T_W <= min(T_F, T_B).
TEST(ZeroBubbleH1, PublishedBubbleAndMemory) {
  struct Case {
    int p, m;
    Costs costs;
  };
  for (Case c :
       {Case{4, 8, {1, 1, 1}}, Case{8, 16, {1, 1, 1}}, Case{4, 8, {1, 1, 0.5}},
        Case{8, 16, {1, 1, 0.5}}, Case{4, 8, {2, 3, 1}}, Case{4, 8, {2, 1, 1}},
        Case{4, 4, {1, 1, 1}}, Case{4, 37, {1, 2, 1}}, Case{8, 9, {3, 2, 1}},
        Case{4, 8, {2, 1, 1.5}}}) {
    SCOPED_TRACE(describeCase(c.p, c.m, c.costs));
    Costs t = c.costs;
    PipelineModel model = PipelineModel::uniform(c.p, t.f, t.b, t.w, 1);
    Schedule schedule = build("zb-h1", model, c.m);
    SimulationResult result = simulate(model, schedule);
    double work = c.m * (t.f + t.b + t.w);
    double bubble = (c.p - 1) * (t.f + t.b - t.w);
    EXPECT_DOUBLE_EQ(result.idealTime, work);
    EXPECT_DOUBLE_EQ(largestSpan(result) - work, bubble);
    if (t.w <= t.b)
      EXPECT_DOUBLE_EQ(result.makespan - work, bubble);
    // Peak memory with M_B = 1, M_W = 0: P - r stashes on rank r, as 1F1B:
    // P M_B on rank 0.
    for (int r = 0; r < c.p; ++r)
      EXPECT_EQ(result.ranks[r].peakMemoryBytes, c.p - r);
    // Communication delays nothing.
    SimulationResult withComm =
        simulate(model, insertCommunication(model, schedule));
    EXPECT_DOUBLE_EQ(withComm.makespan, result.makespan);
  }
  // With T_W > T_F the W's overfill the T_F gaps of the cool-down; the bubble
  // is (P - 1) T_B instead.
  PipelineModel model = PipelineModel::uniform(4, 1, 1, 1.5, 1);
  SimulationResult result = simulate(model, build("zb-h1", model, 16));
  EXPECT_DOUBLE_EQ(largestSpan(result) - 16 * 3.5, 3 * 1.0);
}

// With a weight stash M_W the simulator counts, on rank r, the stashes of its
// P - r micro-batches between F and B, and M_W for each of the r + 1 between
// B and W (including the one of the B running, under hold): P M_B + M_W on
// rank 0, at most that elsewhere when M_W <= M_B. Under convert (the
// default) the running B's stash has become its M_W: one M_W less.
TEST(ZeroBubbleH1, MemoryWithWeightStash) {
  for (int p : {4, 8}) {
    PipelineModel model = PipelineModel::uniform(p, 1, 1, 1, 2, 1);
    model.stashAccounting = StashAccounting::HoldDuringBackward;
    SimulationResult result = simulate(model, build("zb-h1", model, 3 * p));
    for (int r = 0; r < p; ++r)
      EXPECT_EQ(result.ranks[r].peakMemoryBytes, 2 * (p - r) + (r + 1));
    model.stashAccounting = StashAccounting::ConvertAtBackward;
    result = simulate(model, build("zb-h1", model, 3 * p));
    for (int r = 0; r < p; ++r)
      EXPECT_EQ(result.ranks[r].peakMemoryBytes, 2 * (p - r) + r);
  }
}

// Under the paper's accounting (a B turns M_B into M_W) the same schedule
// needs the paper's figure (Qi et al., ICLR 2024, sec. 2.3): (P - r) M_B +
// r M_W on rank r, so P M_B on rank 0, 1F1B's memory.
TEST(ZeroBubbleH1, MemoryUnderThePapersAccounting) {
  for (int p : {4, 8}) {
    PipelineModel model = PipelineModel::uniform(p, 1, 1, 1, 2, 1);
    model.stashAccounting = StashAccounting::ConvertAtBackward;
    SimulationResult result = simulate(model, build("zb-h1", model, 3 * p));
    for (int r = 0; r < p; ++r)
      EXPECT_EQ(result.ranks[r].peakMemoryBytes, 2 * (p - r) + r);
  }
}

TEST(ZeroBubbleH1, Grid) {
  for (int p = 1; p <= 16; ++p) {
    PipelineModel model = PipelineModel::uniform(p, 1, 1, 1, 1, 1);
    for (int m : sampleMicrobatches(p)) {
      SCOPED_TRACE("P=" + std::to_string(p) + " M=" + std::to_string(m));
      expectValid(model, build("zb-h1", model, m));
    }
  }
}

//===----------------------------------------------------------------------===//
// ZB-H2
//===----------------------------------------------------------------------===//

// P = 3, M = 6, checked by hand: warm-up 2(P - s - 1) forwards (4, 2, 0), so
// 2(P - s) - 1 forwards before the first B; stage s starts its W's after its
// B of micro-batch 2s (2P - 1 micro-batches in flight on every stage) and
// ends with the 2s W's left.
TEST(ZeroBubbleH2, OrderP3M6) {
  PipelineModel model = PipelineModel::uniform(3, 1, 1, 1, 1);
  Schedule schedule = build("zb-h2", model, 6);
  EXPECT_EQ(labels(schedule),
            (std::vector<std::string>{
                "F0 F1 F2 F3 F4 B0 W0 F5 B1 W1 B2 W2 B3 W3 B4 W4 B5 W5",
                "F0 F1 F2 B0 F3 B1 F4 B2 W0 F5 B3 W1 B4 W2 B5 W3 W4 W5",
                "F0 B0 F1 B1 F2 B2 F3 B3 F4 B4 W0 F5 B5 W1 W2 W3 W4 W5",
            }));
  // Unit costs: no stage is ever idle between its first and last action;
  // stage s runs [s, 3M + s] (the parallelogram).
  SimulationResult result = simulate(model, schedule);
  for (int s = 0; s < 3; ++s) {
    EXPECT_DOUBLE_EQ(result.timings[s].front().start, s);
    EXPECT_DOUBLE_EQ(result.ranks[s].endTime, 18 + s);
    EXPECT_DOUBLE_EQ(result.ranks[s].busyTime, 18);
  }
}

TEST(ZeroBubbleH2, FewerMicrobatchesThanRanks) {
  PipelineModel model = PipelineModel::uniform(4, 1, 1, 1, 1);
  EXPECT_EQ(labels(build("zb-h2", model, 2)), (std::vector<std::string>{
                                                  "F0 F1 B0 W0 B1 W1",
                                                  "F0 F1 B0 B1 W0 W1",
                                                  "F0 F1 B0 B1 W0 W1",
                                                  "F0 B0 F1 B1 W0 W1",
                                              }));
}

// Qi et al., ICLR 2024, sec. 2.2 and Figure 3 (bottom): ZB-H2's bubble is
// (P - 1)(T_F + T_B - 2 T_W), zero when T_F = T_B = T_W, at a peak memory of
// (2P - 1) M_B on the first stage. Conditions: T_W <= T_F, M >= 2P - 1; the
// bubble is max(0, that) (it cannot be negative). The makespan is larger by
// the parallelogram's skew: with unit costs 3M + (P - 1) T_F.
TEST(ZeroBubbleH2, PublishedBubbleAndMemory) {
  struct Case {
    int p, m;
    Costs costs;
  };
  for (Case c :
       {Case{4, 8, {1, 1, 1}}, Case{8, 16, {1, 1, 1}}, Case{4, 8, {1, 1, 0.5}},
        Case{8, 16, {1, 1, 0.5}}, Case{4, 8, {2, 3, 1}}, Case{4, 8, {2, 1, 1}},
        Case{4, 7, {1, 1, 1}}, Case{4, 37, {1, 2, 1}}, Case{8, 15, {3, 2, 1}},
        Case{4, 8, {1, 1, 0.8}}, Case{4, 8, {2, 1, 1.5}}}) {
    SCOPED_TRACE(describeCase(c.p, c.m, c.costs));
    Costs t = c.costs;
    PipelineModel model = PipelineModel::uniform(c.p, t.f, t.b, t.w, 1);
    Schedule schedule = build("zb-h2", model, c.m);
    SimulationResult result = simulate(model, schedule);
    double work = c.m * (t.f + t.b + t.w);
    double bubble = std::max(0.0, (c.p - 1) * (t.f + t.b - 2 * t.w));
    EXPECT_NEAR(largestSpan(result) - work, bubble, 1e-9);
    if (t.f == t.b && t.b == t.w)
      EXPECT_DOUBLE_EQ(result.makespan, work + (c.p - 1) * t.f);
    // Peak memory with M_B = 1, M_W = 0: 2(P - r) - 1 stashes on rank r,
    // (2P - 1) M_B on rank 0.
    for (int r = 0; r < c.p; ++r)
      EXPECT_EQ(result.ranks[r].peakMemoryBytes, 2 * (c.p - r) - 1);
    SimulationResult withComm =
        simulate(model, insertCommunication(model, schedule));
    EXPECT_DOUBLE_EQ(withComm.makespan, result.makespan);
  }
}

// Below 2P - 1 micro-batches the warm-up cannot fill the first stage's wait
// for its first B: with unit costs the bubble is 2P - 1 - M for P <= M.
TEST(ZeroBubbleH2, ShortWarmup) {
  for (int m = 4; m <= 7; ++m) {
    PipelineModel model = PipelineModel::uniform(4, 1, 1, 1, 1);
    SimulationResult result = simulate(model, build("zb-h2", model, m));
    EXPECT_DOUBLE_EQ(largestSpan(result) - 3 * m, 7 - m);
  }
}

TEST(ZeroBubbleH2, Grid) {
  for (int p = 1; p <= 16; ++p) {
    PipelineModel model = PipelineModel::uniform(p, 1, 1, 1, 1, 1);
    for (int m : sampleMicrobatches(p)) {
      SCOPED_TRACE("P=" + std::to_string(p) + " M=" + std::to_string(m));
      expectValid(model, build("zb-h2", model, m));
    }
  }
}

//===----------------------------------------------------------------------===//
// Both
//===----------------------------------------------------------------------===//

// The generators follow the stages, not the ranks: with stage s on rank
// P - 1 - s, rank r runs stage P - 1 - r's program.
TEST(ZeroBubble, StagesFollowPlacement) {
  for (const char *name : {"zb-h1", "zb-h2"}) {
    PipelineModel model = PipelineModel::uniform(3, 1, 1, 1, 1);
    Schedule straight = build(name, model, 5);
    for (int s = 0; s < 3; ++s)
      model.stages[s].rank = 2 - s;
    Schedule reversed = build(name, model, 5);
    EXPECT_EQ(labels(reversed)[0], labels(straight)[2]);
    EXPECT_EQ(labels(reversed)[2], labels(straight)[0]);
    expectValid(model, reversed);
  }
}

TEST(ZeroBubble, Errors) {
  PipelineModel model = PipelineModel::uniform(8, 1, 1, 1, 1);
  model.numRanks = 4;
  for (int s = 0; s < 8; ++s)
    model.stages[s].rank = s % 4;
  for (const char *name : {"zb-h1", "zb-h2"}) {
    llvm::Expected<Schedule> schedule = buildSchedule(name, model, 4);
    ASSERT_FALSE(static_cast<bool>(schedule));
    EXPECT_EQ(llvm::toString(schedule.takeError()),
              "'" + std::string(name) +
                  "' needs one stage per rank, but the pipeline has 8 stages "
                  "on 4 ranks");
  }
}

} // namespace
