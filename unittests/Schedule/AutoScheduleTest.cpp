// Tests of auto's search and proofs (pp/Schedule/AutoSchedule.h): the
// zero-bubble paper's greedy scheduler against the paper's own figures, auto
// against it on all twelve setups of the paper, auto against an exhaustive
// search on small instances, the lower bounds, and the memory check of named
// schedules.

#include "pp/Schedule/AutoSchedule.h"
#include "pp/Schedule/PaperData.h"
#include "pp/Schedule/Schedule.h"

#include "TestUtil.h"
#include "gtest/gtest.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <random>

using namespace mlir::pp::sched;

namespace {

std::string errorOf(llvm::Error error) {
  return error ? llvm::toString(std::move(error)) : std::string();
}

using pp_test::peakOf;

AutoReport plan(const PipelineModel &model, int numMicrobatches,
                const ScheduleOptions &options) {
  llvm::Expected<AutoReport> report = planAuto(model, numMicrobatches, options);
  if (!report) {
    ADD_FAILURE() << llvm::toString(report.takeError());
    return AutoReport();
  }
  EXPECT_TRUE(checkSchedule(model, report->schedule).empty());
  EXPECT_TRUE(findDeadlock(model, report->schedule).completed);
  SimulationResult result = simulate(model, report->schedule);
  EXPECT_EQ(result.makespan, report->makespan);
  EXPECT_EQ(result.maxRankSpan, report->maxRankSpan);
  if (options.memoryLimitBytes > 0)
    EXPECT_LE(peakOf(result), options.memoryLimitBytes);
  return std::move(*report);
}

//===----------------------------------------------------------------------===//
// The zero-bubble paper's twelve setups
//===----------------------------------------------------------------------===//

class PaperSetup : public testing::TestWithParam<int> {};

// Qi et al., ICLR 2024: with the profiled costs of Table 6 (arXiv: Table 9),
// our implementation of the paper's greedy scheduler reproduces Table 5's
// ZB-1p (p M_B) and ZB-2p (2p M_B) bubble rates, and our simulation of 1F1B
// its 1F1B column, to the four decimals printed. auto, at the same limits,
// has a step makespan no larger than the paper's scheduler's; with the
// paper's objective (the largest rank span) it also has a bubble rate no
// larger than Table 5's, still at no larger a step makespan.
TEST_P(PaperSetup, AutoBeatsThePapersScheduler) {
  const ZeroBubblePaperSetup &setup = zeroBubblePaperSetups()[GetParam()];
  SCOPED_TRACE(std::string(setup.model) +
               " M=" + std::to_string(setup.numMicrobatches));
  PipelineModel model = setup.pipeline();
  int m = setup.numMicrobatches, p = setup.numStages;
  SimulationResult oneFOneB = simulate(model, pp_test::build("1f1b", model, m));
  EXPECT_NEAR(oneFOneB.spanBubbleRate, setup.bubble1F1B, 5e-5);
  for (int k : {1, 2}) {
    int64_t limit = k * p * setup.stashBytes();
    double table = k == 1 ? setup.bubbleZB1p : setup.bubbleZB2p;
    llvm::Expected<Schedule> greedy =
        buildZeroBubbleGreedyBest(model, m, limit);
    ASSERT_TRUE(static_cast<bool>(greedy))
        << llvm::toString(greedy.takeError());
    SimulationResult paper = simulate(model, *greedy);
    EXPECT_NEAR(paper.spanBubbleRate, table, 5e-5) << k << "p";
    EXPECT_LE(peakOf(paper), limit);

    ScheduleOptions options;
    options.memoryLimitBytes = limit;
    AutoReport report = plan(model, m, options);
    EXPECT_LE(report.makespan, paper.makespan + 1e-9) << k << "p";
    EXPECT_LT(report.makespan, oneFOneB.makespan);
    EXPECT_GE(report.gap, -1e-12);

    options.autoObjective = AutoObjective::MaxRankSpan;
    AutoReport span = plan(model, m, options);
    double spanBubble =
        1.0 - simulate(model, span.schedule).idealTime / span.maxRankSpan;
    EXPECT_LE(spanBubble, paper.spanBubbleRate + 1e-12) << k << "p";
    EXPECT_LE(spanBubble, table + 5e-5) << k << "p";
    EXPECT_LE(span.makespan, paper.makespan + 1e-9) << k << "p";
  }
}

INSTANTIATE_TEST_SUITE_P(Table9, PaperSetup, testing::Range(0, 12));

// The example, 1.5B with P = 8, M = 24 (profiled costs of the
// paper): 1F1B takes 1456.7 us; at 1F1B's memory, P M_B, the paper's
// scheduler (and auto) 1310.4 us; at 2P M_B auto reaches the lower bound
// (the last rank's start plus its work) and proves its step optimal.
TEST(PaperSetup, FirstRowFigures) {
  const ZeroBubblePaperSetup &setup = zeroBubblePaperSetups()[0];
  PipelineModel model = setup.pipeline();
  EXPECT_EQ(setup.stashBytes(), 34 * 2304 + 5 * 24 * 1024);
  EXPECT_EQ(setup.weightStashBytes(), 32 * 2304);
  EXPECT_NEAR(simulate(model, pp_test::build("1f1b", model, 24)).makespan,
              1456.7, 0.05);
  ScheduleOptions options;
  options.memoryLimitBytes = 8 * setup.stashBytes();
  AutoReport one = plan(model, 24, options);
  EXPECT_NEAR(one.makespan, 1310.4, 0.05);
  // Memory warm-up bound (appendix B): P T_F + (P-1)(T_B + 2 T_comm) +
  // M (T_F + T_B + T_W) - k T_F with k = 8 forwards in P M_B.
  double warmup = 8 * 18.522 + 7 * (18.086 + 2 * 0.601) +
                  24 * (18.522 + 18.086 + 9.337) - 8 * 18.522;
  EXPECT_NEAR(one.bounds.memoryWarmup, warmup, 1e-9);
  EXPECT_NEAR(one.bounds.best, warmup, 1e-9);
  EXPECT_NEAR(one.gap, 1310.4 / warmup - 1, 1e-4);
  EXPECT_FALSE(one.provenOptimal);

  options.memoryLimitBytes = 16 * setup.stashBytes();
  AutoReport two = plan(model, 24, options);
  double lastRank = 7 * (18.522 + 0.601) + 24 * (18.522 + 18.086 + 9.337);
  EXPECT_NEAR(two.bounds.criticalPath, lastRank, 1e-9);
  EXPECT_NEAR(two.makespan, lastRank, 1e-9);
  EXPECT_TRUE(two.provenOptimal);
  EXPECT_EQ(two.solverStatus, "not run (the makespan reaches a lower bound)");
}

// Under pp-run's accounting (a B holds M_B and M_W at once) ZB-H1 needs P
// M_B + M_W (8 * 201216 + 73728 bytes); auto fuses the first stage's B and W
// (nobody waits for stage 0's input gradient) and reaches ZB-1p's figure within
// P M_B all the same.
TEST(PaperSetup, HoldingAccountingReachesZB1p) {
  const ZeroBubblePaperSetup &setup = zeroBubblePaperSetups()[0];
  PipelineModel model = setup.pipeline();
  model.stashAccounting = StashAccounting::HoldDuringBackward;
  ScheduleOptions options;
  options.memoryLimitBytes = 8 * setup.stashBytes();
  llvm::Expected<Schedule> h1 = buildSchedule("zb-h1", model, 24, options);
  ASSERT_FALSE(static_cast<bool>(h1));
  EXPECT_EQ(llvm::toString(h1.takeError()),
            "schedule 'zb-h1' needs 1683456 bytes (8.36641 M_B) on rank 0, "
            "73728 bytes (4.6%) more than the memory limit of 1609728 bytes "
            "(8 M_B) per rank");
  AutoReport report = plan(model, 24, options);
  EXPECT_NEAR(report.makespan, 1310.4, 0.05);
  EXPECT_NEAR(simulate(model, report.schedule).spanBubbleRate, 0.1585, 5e-5);
}

//===----------------------------------------------------------------------===//
// Small instances: auto against an exhaustive search
//===----------------------------------------------------------------------===//

/// The smallest makespan of any schedule of one stage per rank within
/// `limit`, by trying every combination of per-rank orders: each rank runs
/// its stage's F, B and W of every micro-batch, each kind in micro-batch
/// order, F before B before W. (Fixing micro-batch order loses nothing, the
/// micro-batches being identical; split backwards lose nothing against
/// fused ones when a B needs no more memory than a fused backward, which
/// the instances below ensure.) Independent of the library's search.
double exhaustiveOptimum(const PipelineModel &model, int m, int64_t limit) {
  int p = model.numRanks;
  std::vector<std::vector<std::vector<Action>>> orders(p);
  for (int r = 0; r < p; ++r) {
    std::vector<Action> prefix;
    std::function<void(int, int, int)> extend = [&](int f, int b, int w) {
      if (w == m) {
        orders[r].push_back(prefix);
        return;
      }
      auto push = [&](Action a, int nf, int nb, int nw) {
        prefix.push_back(a);
        extend(nf, nb, nw);
        prefix.pop_back();
      };
      if (f < m)
        push(pp_test::F(r, f), f + 1, b, w);
      if (b < f)
        push(pp_test::BI(r, b), f, b + 1, w);
      if (w < b)
        push(pp_test::W(r, w), f, b, w + 1);
    };
    extend(0, 0, 0);
  }
  Schedule schedule;
  schedule.numMicrobatches = m;
  schedule.ranks.resize(p);
  double best = std::numeric_limits<double>::infinity();
  std::function<void(int)> choose = [&](int r) {
    if (r == p) {
      SimulationResult result = simulate(model, schedule);
      for (int q = 0; q < p; ++q)
        for (const ActionTiming &t : result.timings[q])
          if (t.end == 0)
            return; // deadlock: an action never ran
      if (limit <= 0 || peakOf(result) <= limit)
        best = std::min(best, result.makespan);
      return;
    }
    for (const std::vector<Action> &order : orders[r]) {
      schedule.ranks[r] = order;
      choose(r + 1);
    }
  };
  choose(0);
  return best;
}

/// A pipeline of `p` stages with random costs (multiples of 0.25 in [0.5,
/// 2]) and latency (0, 0.1 or 0.25).
PipelineModel randomModel(std::mt19937 &rng, int p, StashAccounting counting,
                          int64_t weightStash) {
  std::uniform_int_distribution<int> quarter(2, 8);
  std::uniform_int_distribution<int> latency(0, 2);
  PipelineModel model;
  model.numRanks = p;
  const double latencies[] = {0.0, 0.1, 0.25};
  model.latency = latencies[latency(rng)];
  model.stashAccounting = counting;
  for (int s = 0; s < p; ++s) {
    StageInfo stage;
    stage.rank = s;
    stage.forwardTime = quarter(rng) / 4.0;
    stage.backwardInputTime = quarter(rng) / 4.0;
    stage.backwardWeightTime = quarter(rng) / 4.0;
    stage.stashBytes = 100;
    stage.weightStashBytes = weightStash;
    model.stages.push_back(stage);
  }
  return model;
}

// Random heterogeneous instances with P <= 3 and M <= 4 under several
// memory limits: auto's makespan equals the exhaustive optimum, and auto
// says it is proven (by a lower bound or by the exact solver).
TEST(AutoExact, EqualsTheExhaustiveOptimum) {
  std::mt19937 rng(20240113);
  struct Shape {
    int p, m;
  };
  int proven = 0, solved = 0;
  for (Shape shape :
       {Shape{2, 2}, Shape{2, 3}, Shape{2, 4}, Shape{3, 2}, Shape{3, 3}})
    for (int trial = 0; trial < 2; ++trial)
      for (StashAccounting counting : {StashAccounting::ConvertAtBackward,
                                       StashAccounting::HoldDuringBackward}) {
        // Holding: no weight stash, so that a split B needs no more memory
        // than a fused backward.
        PipelineModel model = randomModel(
            rng, shape.p, counting,
            counting == StashAccounting::ConvertAtBackward ? 40 : 0);
        for (int64_t limit :
             {int64_t(0), int64_t(100) * shape.p, int64_t(200), int64_t(100)}) {
          SCOPED_TRACE("P=" + std::to_string(shape.p) +
                       " M=" + std::to_string(shape.m) +
                       " limit=" + std::to_string(limit));
          double optimum = exhaustiveOptimum(model, shape.m, limit);
          ASSERT_LT(optimum, std::numeric_limits<double>::infinity());
          ScheduleOptions options;
          options.memoryLimitBytes = limit;
          options.solverTimeLimitSeconds = 60;
          AutoReport report = plan(model, shape.m, options);
          EXPECT_NEAR(report.makespan, optimum, 1e-9);
          EXPECT_TRUE(report.provenOptimal) << report.solverStatus;
          proven += report.provenOptimal;
          solved += report.solverStatus == "optimal";
        }
      }
  EXPECT_EQ(proven, 80);
  // Most are proven by a lower bound alone; the solver proves the rest.
  EXPECT_GT(solved, 0);
}

// P = 4 and M up to 8, random heterogeneous costs, the paper's accounting:
// the exact solver proves auto's makespan optimal (the bound it reports is
// the makespan itself). Not always: on the M = 8 instance without a limit
// auto finds 39.25 us and the solver cannot raise its bound above the LP's
// 37.5 us within a minute (docs/Schedules.md, "What auto proves").
TEST(AutoExact, SolverProvesFourRanks) {
  std::mt19937 rng(7);
  for (int m : {4, 6, 8}) {
    PipelineModel model =
        randomModel(rng, 4, StashAccounting::ConvertAtBackward, 40);
    for (int64_t limit : {int64_t(0), int64_t(200)}) {
      if (m == 8 && limit == 0)
        continue;
      SCOPED_TRACE("M=" + std::to_string(m) +
                   " limit=" + std::to_string(limit));
      ScheduleOptions options;
      options.memoryLimitBytes = limit;
      options.solverTimeLimitSeconds = 60;
      AutoReport report = plan(model, m, options);
      EXPECT_TRUE(report.provenOptimal) << report.solverStatus;
      EXPECT_NEAR(report.bounds.best, report.makespan, 1e-6);
      EXPECT_NEAR(report.gap, 0, 1e-6);
    }
  }
}

//===----------------------------------------------------------------------===//
// Lower bounds
//===----------------------------------------------------------------------===//

// Fused backwards, F = B = 1, P = 4, M = 8: the last rank cannot start
// before 3, runs 16 of work, and its last backward leaves three more on the
// chain: 22, which 1F1B reaches ((M + P - 1)(F + B)).
TEST(LowerBounds, CriticalPathOfOneFOneB) {
  PipelineModel model = PipelineModel::uniform(4, 1, 1, 0, 1);
  LowerBounds bounds = lowerBounds(model, 8);
  EXPECT_EQ(bounds.busiestRankWork, 16);
  EXPECT_EQ(bounds.criticalPath, 22);
  EXPECT_EQ(bounds.best, 22);
  EXPECT_EQ(simulate(model, pp_test::build("1f1b", model, 8)).makespan, 22);
  EXPECT_EQ(optimalityGap(22, bounds.best), 0);
  EXPECT_EQ(renderBounds(bounds, 24),
            "lower bound: 22 us (busiest rank 16, critical path 22, memory "
            "warm-up 15), gap 0.0909091 (makespan / bound - 1)");
}

// The memory warm-up bound grows as the limit shrinks: rank 0 holds k
// forwards before its first B, which waits for micro-batch 0 to go down the
// pipeline and back (appendix B of the paper).
TEST(LowerBounds, MemoryWarmup) {
  PipelineModel model = PipelineModel::uniform(4, 1, 1, 1, 10, 4, 0.5);
  model.stashAccounting = StashAccounting::ConvertAtBackward;
  // B(0, 0) starts at 4 + 3 * (1 + 0.5) + 3 * 0.5 = 10; the work is 24.
  for (int k : {1, 2, 4, 8}) {
    LowerBounds bounds = lowerBounds(model, 8, 10 * k);
    EXPECT_DOUBLE_EQ(bounds.memoryWarmup, 10 + 24 - k) << k;
  }
  // Holding, the first B needs its M_W next to the k stashes: 4 M_B + M_W
  // holds only 4 forwards.
  model.stashAccounting = StashAccounting::HoldDuringBackward;
  EXPECT_DOUBLE_EQ(lowerBounds(model, 8, 44).memoryWarmup, 10 + 24 - 4);
  EXPECT_DOUBLE_EQ(lowerBounds(model, 8, 43).memoryWarmup, 10 + 24 - 3.9);
}

//===----------------------------------------------------------------------===//
// auto's report and the memory check of named schedules
//===----------------------------------------------------------------------===//

TEST(AutoReport, SaysWhatWonAndWhy) {
  PipelineModel model = PipelineModel::uniform(4, 1, 1, 1, 100, 40);
  ScheduleOptions options;
  AutoReport unlimited = plan(model, 8, options);
  EXPECT_EQ(unlimited.makespan, 27);
  EXPECT_TRUE(unlimited.provenOptimal);
  EXPECT_EQ(unlimited.solverStatus,
            "not run (the makespan reaches a lower bound)");
  EXPECT_GT(unlimited.numCandidates, 20);
  EXPECT_FALSE(unlimited.winner.empty());
  // A limit the heuristics cannot meet optimally: the solver runs.
  options.memoryLimitBytes = 300;
  options.solverTimeLimitSeconds = 0;
  AutoReport noSolver = plan(model, 8, options);
  EXPECT_EQ(noSolver.solverStatus, "not run (no time given)");
  options.solverTimeLimitSeconds = 1;
  options.solverMaxActions = 50;
  EXPECT_EQ(plan(model, 8, options).solverStatus,
            "not run (96 actions, more than 50)");
}

TEST(MemoryLimit, NamedScheduleAboveTheLimitIsAnError) {
  PipelineModel model = PipelineModel::uniform(4, 1, 1, 1, 100, 50, 0.1);
  model.stashAccounting = StashAccounting::HoldDuringBackward;
  ScheduleOptions options;
  options.memoryLimitBytes = 450;
  llvm::Expected<Schedule> h2 = buildSchedule("zb-h2", model, 12, options);
  ASSERT_FALSE(static_cast<bool>(h2));
  EXPECT_EQ(llvm::toString(h2.takeError()),
            "schedule 'zb-h2' needs 750 bytes (7.5 M_B) on rank 0, 300 bytes "
            "(66.7%) more than the memory limit of 450 bytes (4.5 M_B) per "
            "rank");
  // Within the limit, or without one, it builds.
  EXPECT_TRUE(static_cast<bool>(buildSchedule("zb-h1", model, 12, options)));
  options.memoryLimitBytes = 0;
  EXPECT_TRUE(static_cast<bool>(buildSchedule("zb-h2", model, 12, options)));
  Schedule schedule = pp_test::build("zb-h2", model, 12);
  EXPECT_EQ(errorOf(checkMemoryLimit("x", model, schedule, 750)), "");
  EXPECT_EQ(errorOf(checkMemoryLimit("x", model, schedule, 0)), "");
  EXPECT_EQ(errorOf(checkMemoryLimit("x", model, schedule, 749)),
            "schedule 'x' needs 750 bytes (7.5 M_B) on rank 0, 1 bytes "
            "(0.1%) more than the memory limit of 749 bytes (7.49 M_B) per "
            "rank");
}

} // namespace
