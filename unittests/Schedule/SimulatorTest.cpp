//===- SimulatorTest.cpp - Tests of the simulator and the reports --------===//

#include "pp/Schedule/Schedule.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include "TestUtil.h"
#include "gtest/gtest.h"

#include <algorithm>
#include <string>
#include <vector>

using namespace mlir::pp::sched;
using namespace pp_test;

namespace {

/// Checks the closed forms of GPipe and 1F1B with F = B (fused) = 1 on a
/// simulation of `schedule` (compute-only or with communication).
void expectUniformMetrics(const char *name, const SimulationResult &result,
                          int p, int m) {
  double expectedMakespan = 2.0 * (m + p - 1);
  EXPECT_DOUBLE_EQ(result.makespan, expectedMakespan);
  EXPECT_DOUBLE_EQ(result.idealTime, 2.0 * m);
  EXPECT_NEAR(result.bubbleRate, double(p - 1) / double(m + p - 1), 1e-12);
  EXPECT_NEAR(result.bubbleOverIdeal, double(p - 1) / double(m), 1e-12);
  ASSERT_EQ(result.ranks.size(), static_cast<size_t>(p));
  bool gpipe = std::string(name) == "gpipe";
  for (int r = 0; r < p; ++r) {
    const RankMetrics &metrics = result.ranks[r];
    SCOPED_TRACE("rank " + std::to_string(r));
    EXPECT_DOUBLE_EQ(metrics.busyTime, 2.0 * m);
    EXPECT_NEAR(metrics.bubbleRate, 1.0 - 2.0 * m / expectedMakespan, 1e-12);
    int64_t stashes = gpipe ? m : std::min(p - r, m);
    EXPECT_EQ(metrics.peakMemoryBytes, stashes);
    EXPECT_DOUBLE_EQ(metrics.peakMemoryInStashes, double(stashes));
    // An activation to the next rank, a gradient to the previous one.
    EXPECT_EQ(metrics.numSends, ((r + 1 < p) + (r > 0)) * m);
  }
  // Rank 0 ends at the makespan: its last backward is the last action.
  EXPECT_DOUBLE_EQ(result.ranks[0].endTime, expectedMakespan);
}

/// Number of compute actions of `withComm` whose timing in `result` differs
/// from that of the same action in `computeOnly` (the simulation of the
/// schedule without communication).
int movedComputeActions(const Schedule &withComm,
                        const SimulationResult &result,
                        const SimulationResult &computeOnly) {
  int moved = 0;
  for (size_t r = 0; r < withComm.ranks.size(); ++r) {
    size_t j = 0;
    for (size_t i = 0; i < withComm.ranks[r].size(); ++i) {
      if (!withComm.ranks[r][i].isCompute())
        continue;
      if (j >= computeOnly.timings[r].size() ||
          result.timings[r][i].start != computeOnly.timings[r][j].start ||
          result.timings[r][i].end != computeOnly.timings[r][j].end)
        ++moved;
      ++j;
    }
    if (j != computeOnly.timings[r].size())
      ++moved;
  }
  return moved;
}

TEST(Simulator, UniformCostsClosedForms) {
  for (int p = 1; p <= 16; ++p) {
    // F = B = 1, W = 0, fused backward (B = 1, W = 0); and the same fused
    // cost split as B = W = 0.5.
    PipelineModel models[] = {PipelineModel::uniform(p, 1, 1, 0, 1),
                              PipelineModel::uniform(p, 1, 0.5, 0.5, 1)};
    for (const PipelineModel &model : models)
      for (int m = 1; m <= 64; ++m)
        for (const char *name : {"gpipe", "1f1b"}) {
          // The split-cost variant on a sample of micro-batch counts.
          if (model.stages[0].backwardWeightTime > 0 && m > 8 && m % 8 != 0)
            continue;
          SCOPED_TRACE(std::string(name) + " P=" + std::to_string(p) +
                       " M=" + std::to_string(m) + " B=" +
                       std::to_string(model.stages[0].backwardInputTime));
          Schedule schedule = build(name, model, m);
          SimulationResult computeOnly = simulate(model, schedule);
          expectUniformMetrics(name, computeOnly, p, m);

          Schedule withComm = insertCommunication(model, schedule);
          SimulationResult result = simulate(model, withComm);
          expectUniformMetrics(name, result, p, m);
          // Communication does not move any compute action.
          EXPECT_EQ(movedComputeActions(withComm, result, computeOnly), 0);
        }
  }
}

TEST(Simulator, BubbleSpotValues) {
  PipelineModel model = PipelineModel::uniform(4, 1, 1, 0, 1);
  for (const char *name : {"gpipe", "1f1b"}) {
    SimulationResult r4 = simulate(model, build(name, model, 4));
    EXPECT_DOUBLE_EQ(r4.bubbleOverIdeal, 0.75);
    EXPECT_DOUBLE_EQ(r4.makespan, 14);
    EXPECT_DOUBLE_EQ(r4.bubbleRate, 3.0 / 7.0);
    SimulationResult r16 = simulate(model, build(name, model, 16));
    EXPECT_DOUBLE_EQ(r16.bubbleOverIdeal, 3.0 / 16.0);
    SimulationResult r32 = simulate(model, build(name, model, 32));
    EXPECT_DOUBLE_EQ(r32.bubbleOverIdeal, 3.0 / 32.0);
  }
}

/// [start, end] of every action of rank `r`.
std::vector<std::pair<double, double>> timesOf(const SimulationResult &result,
                                               int r) {
  std::vector<std::pair<double, double>> out;
  for (const ActionTiming &t : result.timings[r])
    out.push_back({t.start, t.end});
  return out;
}

TEST(Simulator, Timings) {
  // GPipe, P = 2, M = 2, F = 1, B = 2.
  PipelineModel model = PipelineModel::uniform(2, 1, 2, 0, 8);
  Schedule schedule = build("gpipe", model, 2);
  SimulationResult result = simulate(model, schedule);
  auto times = [&](int r) { return timesOf(result, r); };
  using Times = std::vector<std::pair<double, double>>;
  EXPECT_EQ(times(0), (Times{{0, 1}, {1, 2}, {5, 7}, {7, 9}}));
  EXPECT_EQ(times(1), (Times{{1, 2}, {2, 3}, {3, 5}, {5, 7}}));
  EXPECT_EQ(result.makespan, 9);
  EXPECT_EQ(result.idealTime, 6);
  EXPECT_EQ(result.ranks[0].endTime, 9);
  EXPECT_EQ(result.ranks[1].endTime, 7);
  EXPECT_EQ(result.ranks[0].peakMemoryBytes, 16);
  EXPECT_EQ(result.ranks[0].peakMemoryInStashes, 2);
  EXPECT_DOUBLE_EQ(result.bubbleRate, 1.0 / 3.0);
  EXPECT_DOUBLE_EQ(result.bubbleOverIdeal, 0.5);
}

TEST(Simulator, OneComputeSlot) {
  // The GPipe schedule of Simulator.Timings with one core for both ranks:
  // the slot goes to the action ready first (ties: the lower rank), and the
  // step is the sum of all compute.
  PipelineModel model = PipelineModel::uniform(2, 1, 2, 0, 8);
  model.computeSlots = 1;
  Schedule schedule = build("gpipe", model, 2);
  SimulationResult result = simulate(model, schedule);
  auto times = [&](int r) { return timesOf(result, r); };
  using Times = std::vector<std::pair<double, double>>;
  EXPECT_EQ(times(0), (Times{{0, 1}, {1, 2}, {6, 8}, {10, 12}}));
  EXPECT_EQ(times(1), (Times{{2, 3}, {3, 4}, {4, 6}, {8, 10}}));
  EXPECT_EQ(result.makespan, 12);
  // Busy time is work, not the wait for the core.
  EXPECT_EQ(result.ranks[0].busyTime, 6);
  EXPECT_EQ(result.ranks[1].busyTime, 6);
}

/// The largest number of compute actions of `result` that run at once.
static int mostAtOnce(const Schedule &schedule,
                      const SimulationResult &result) {
  std::vector<std::pair<double, int>> edges; // (time, +1 start / -1 end)
  for (size_t r = 0; r < schedule.ranks.size(); ++r)
    for (size_t i = 0; i < schedule.ranks[r].size(); ++i)
      if (schedule.ranks[r][i].isCompute() &&
          result.timings[r][i].end > result.timings[r][i].start) {
        edges.push_back({result.timings[r][i].start, 1});
        edges.push_back({result.timings[r][i].end, -1});
      }
  std::sort(edges.begin(), edges.end()); // ends before starts at a time
  int now = 0, most = 0;
  for (auto [time, delta] : edges)
    most = std::max(most, now += delta);
  return most;
}

TEST(Simulator, ComputeSlots) {
  PipelineModel model = PipelineModel::uniform(4, 1, 1, 1, 1);
  for (const char *name : {"1f1b", "zb-h1", "gpipe"}) {
    SCOPED_TRACE(name);
    Schedule schedule = build(name, model, 8);
    Schedule withComm = insertCommunication(model, schedule);
    SimulationResult free = simulate(model, withComm);
    EXPECT_EQ(mostAtOnce(withComm, free), 4);
    // As many slots as ranks: the same timeline as without slots.
    PipelineModel four = model;
    four.computeSlots = 4;
    SimulationResult same = simulate(four, withComm);
    EXPECT_EQ(same.makespan, free.makespan);
    for (size_t r = 0; r < withComm.ranks.size(); ++r)
      for (size_t i = 0; i < withComm.ranks[r].size(); ++i)
        EXPECT_EQ(same.timings[r][i].start, free.timings[r][i].start);
    // Two cores: never more than two at once, and the step is at least
    // half the total work, and longer than with a core per rank.
    PipelineModel two = model;
    two.computeSlots = 2;
    SimulationResult shared = simulate(two, withComm);
    EXPECT_EQ(mostAtOnce(withComm, shared), 2);
    EXPECT_GE(shared.makespan, 4 * 8 * 3 / 2.0);
    EXPECT_GT(shared.makespan, free.makespan);
    for (int r = 0; r < 4; ++r)
      EXPECT_EQ(shared.ranks[r].busyTime, free.ranks[r].busyTime);
    // One core: the sum of all compute, whatever the schedule.
    PipelineModel one = model;
    one.computeSlots = 1;
    EXPECT_EQ(simulate(one, withComm).makespan, 4 * 8 * 3);
    EXPECT_EQ(simulate(one, schedule).makespan, 4 * 8 * 3);
  }
}

TEST(Simulator, Latency) {
  // GPipe, P = 2, M = 1, latency 0.5: F0 on rank 1 waits for the activation.
  PipelineModel model = PipelineModel::uniform(2, 1, 1, 0, 1, 0, 0.5);
  Schedule schedule = build("gpipe", model, 1);
  SimulationResult result = simulate(model, schedule);
  EXPECT_EQ(result.timings[1][0].start, 1.5);
  EXPECT_EQ(result.timings[1][1].end, 3.5);
  EXPECT_EQ(result.timings[0][1].start, 4);
  EXPECT_EQ(result.makespan, 5);

  Schedule withComm = insertCommunication(model, schedule);
  SimulationResult commResult = simulate(model, withComm);
  EXPECT_EQ(commResult.makespan, 5);
  // Rank 1: RECV_F0 waits from 0 to 1.5 and F0 runs from 1.5.
  ASSERT_EQ(withComm.ranks[1][0].kind, ActionKind::Recv);
  EXPECT_EQ(commResult.timings[1][0].start, 0);
  EXPECT_EQ(commResult.timings[1][0].end, 1.5);
  EXPECT_EQ(commResult.timings[1][1].start, 1.5);
  EXPECT_EQ(commResult.ranks[0].numSends, 1);
  EXPECT_EQ(commResult.ranks[1].numSends, 1);
}

TEST(Simulator, LatencyKeepsComputeTimings) {
  // With latency, communication inserted by insertCommunication() still
  // leaves every compute action where the compute-only simulation put it.
  for (int p : {2, 3, 5, 8})
    for (int m : {1, 3, 8, 13})
      for (const char *name : {"gpipe", "1f1b"}) {
        SCOPED_TRACE(std::string(name) + " P=" + std::to_string(p) +
                     " M=" + std::to_string(m));
        PipelineModel model = PipelineModel::uniform(p, 1, 2, 0, 1, 0, 0.75);
        model.stages[0].forwardTime = 1.5; // Not uniform.
        Schedule schedule = build(name, model, m);
        SimulationResult computeOnly = simulate(model, schedule);
        Schedule withComm = insertCommunication(model, schedule);
        ASSERT_TRUE(checkSchedule(model, withComm).empty());
        ASSERT_TRUE(findDeadlock(model, withComm).completed);
        SimulationResult result = simulate(model, withComm);
        EXPECT_EQ(result.makespan, computeOnly.makespan);
        EXPECT_EQ(movedComputeActions(withComm, result, computeOnly), 0);
      }
}

TEST(Simulator, SplitBackwardMemory) {
  // One rank, F B W F B W with M_B = 10 and M_W = 3: during B both stashes
  // are live.
  PipelineModel model = PipelineModel::uniform(1, 1, 1, 1, 10, 3);
  Schedule schedule;
  schedule.numMicrobatches = 2;
  auto act = [](ActionKind kind, int mb) {
    Action a;
    a.kind = kind;
    a.microbatch = mb;
    return a;
  };
  schedule.ranks = {
      {act(ActionKind::Forward, 0), act(ActionKind::Forward, 1),
       act(ActionKind::BackwardInput, 0), act(ActionKind::BackwardInput, 1),
       act(ActionKind::BackwardWeight, 0), act(ActionKind::BackwardWeight, 1)}};
  ASSERT_TRUE(checkSchedule(model, schedule).empty());
  // Under hold: F0 F1: 20; B0: 20 + 3; then 10 + 3 + 3 in B1.
  model.stashAccounting = StashAccounting::HoldDuringBackward;
  SimulationResult result = simulate(model, schedule);
  EXPECT_EQ(result.ranks[0].peakMemoryBytes, 23);
  EXPECT_DOUBLE_EQ(result.ranks[0].peakMemoryInStashes, 2.3);
  // Under convert (the default): B0 turns 10 into 3, so F0 F1's 20 is the
  // peak.
  model.stashAccounting = StashAccounting::ConvertAtBackward;
  EXPECT_EQ(simulate(model, schedule).ranks[0].peakMemoryBytes, 20);
  result = simulate(model, schedule);
  EXPECT_EQ(result.makespan, 6);
  EXPECT_EQ(result.ranks[0].numSends, 0);
  EXPECT_EQ(result.bubbleRate, 0);
  EXPECT_EQ(result.bubbleOverIdeal, 0);
}

// The zero-bubble paper's accounting (StashAccounting::ConvertAtBackward):
// B turns M_B into M_W when it starts, so F0 F1 B0 B1 W0 W1 peaks at the two
// stashes, 20, instead of 23.
TEST(Simulator, SplitBackwardMemoryConverting) {
  PipelineModel model = PipelineModel::uniform(1, 1, 1, 1, 10, 3);
  model.stashAccounting = StashAccounting::ConvertAtBackward;
  Schedule schedule;
  schedule.numMicrobatches = 2;
  schedule.ranks = {{pp_test::F(0, 0), pp_test::F(0, 1), pp_test::BI(0, 0),
                     pp_test::BI(0, 1), pp_test::W(0, 0), pp_test::W(0, 1)}};
  SimulationResult result = simulate(model, schedule);
  EXPECT_EQ(result.ranks[0].peakMemoryBytes, 20);
  // With M_W > M_B the conversion raises the peak: 20 + 2 * (12 - 10).
  model.stages[0].weightStashBytes = 12;
  EXPECT_EQ(simulate(model, schedule).ranks[0].peakMemoryBytes, 24);
  // Holding: B0 holds 20 + 12, B1 then 10 + 12 + 12.
  model.stashAccounting = StashAccounting::HoldDuringBackward;
  EXPECT_EQ(simulate(model, schedule).ranks[0].peakMemoryBytes, 34);
}

// The option spellings (stash-accounting=hold|convert) round-trip.
TEST(Simulator, StashAccountingNames) {
  for (StashAccounting accounting : {StashAccounting::HoldDuringBackward,
                                     StashAccounting::ConvertAtBackward})
    EXPECT_EQ(parseStashAccounting(stashAccountingName(accounting)),
              accounting);
  EXPECT_EQ(stashAccountingName(StashAccounting::HoldDuringBackward), "hold");
  EXPECT_EQ(stashAccountingName(StashAccounting::ConvertAtBackward), "convert");
  EXPECT_EQ(parseStashAccounting("both"), std::nullopt);
  EXPECT_EQ(parseStashAccounting(""), std::nullopt);
}

// Per-rank spans and the span bubble rate: with a slow last stage, 1F1B's
// ranks idle at different times; the span of a rank runs from its first
// action's start to its last action's end.
TEST(Simulator, RankSpans) {
  PipelineModel model = PipelineModel::uniform(2, 1, 1, 0, 1);
  model.stages[1].forwardTime = 2;
  model.stages[1].backwardInputTime = 2;
  Schedule schedule = build("1f1b", model, 2);
  SimulationResult result = simulate(model, schedule);
  // Rank 0: F0 [0,1] F1 [1,2] B0 [5,6] B1 [9,10]; rank 1: F0 [1,3] B0 [3,5]
  // F1 [5,7] B1 [7,9].
  EXPECT_EQ(result.ranks[0].firstStart, 0);
  EXPECT_EQ(result.ranks[0].span, 10);
  EXPECT_EQ(result.ranks[1].firstStart, 1);
  EXPECT_EQ(result.ranks[1].lastEnd, 9);
  EXPECT_EQ(result.ranks[1].span, 8);
  EXPECT_EQ(result.makespan, 10);
  EXPECT_EQ(result.maxRankSpan, 10);
  EXPECT_EQ(result.idealTime, 8);
  EXPECT_DOUBLE_EQ(result.spanBubbleRate, 0.2);
}

TEST(Simulator, ZeroStash) {
  PipelineModel model = PipelineModel::uniform(2, 1, 1, 0, 0);
  SimulationResult result = simulate(model, build("1f1b", model, 4));
  EXPECT_EQ(result.ranks[0].peakMemoryBytes, 0);
  EXPECT_EQ(result.ranks[0].peakMemoryInStashes, 0);
}

//===----------------------------------------------------------------------===//
// Reports
//===----------------------------------------------------------------------===//

TEST(Report, TimelineUnitCosts) {
  PipelineModel model = PipelineModel::uniform(2, 1, 1, 0, 1);
  Schedule schedule = build("gpipe", model, 2);
  SimulationResult result = simulate(model, schedule);
  std::string expected = "Rank 0: F0 F1 __ __ B1 B0\n"
                         "Rank 1: __ F0 F1 B1 B0\n";
  EXPECT_EQ(renderTimeline(model, schedule, result), expected);
  // Send/Recv take no time and are not drawn.
  Schedule withComm = insertCommunication(model, schedule);
  EXPECT_EQ(renderTimeline(model, withComm, simulate(model, withComm)),
            expected);
}

TEST(Report, TimelineNonUniformCosts) {
  PipelineModel model = PipelineModel::uniform(2, 1, 2, 0, 1);
  Schedule schedule = build("gpipe", model, 2);
  EXPECT_EQ(renderTimeline(model, schedule, simulate(model, schedule)),
            "Rank 0: F0 F1 __ __ __ B1 -- B0 --\n"
            "Rank 1: __ F0 F1 B1 -- B0 --\n");
}

TEST(Report, TimelineWideLabelsAndManyRanks) {
  // Labels up to "F10" make cells 4 wide; 11 ranks pad the rank number.
  PipelineModel model = PipelineModel::uniform(11, 1, 1, 0, 1);
  Schedule schedule = build("1f1b", model, 11);
  std::string timeline =
      renderTimeline(model, schedule, simulate(model, schedule));
  std::vector<std::string> rows;
  for (size_t start = 0, end; start < timeline.size(); start = end + 1) {
    end = timeline.find('\n', start);
    rows.push_back(timeline.substr(start, end - start));
  }
  ASSERT_EQ(rows.size(), 11u);
  EXPECT_EQ(rows[0].substr(0, 30), "Rank  0: F0  F1  F2  F3  F4  F");
  EXPECT_EQ(rows[10].substr(0, 33), "Rank 10: ___ ___ ___ ___ ___ ___ ");
  EXPECT_EQ(rows[10].substr(9 + 4 * 10, 8), "F0  B0  ");
  EXPECT_EQ(rows[10].substr(rows[10].size() - 3), "B10");
}

TEST(Report, TimelineLatency) {
  // Latency 0.5 halves the cell: every action takes two cells.
  PipelineModel model = PipelineModel::uniform(2, 1, 1, 0, 1, 0, 0.5);
  Schedule schedule = build("gpipe", model, 1);
  EXPECT_EQ(renderTimeline(model, schedule, simulate(model, schedule)),
            "Rank 0: F0 -- __ __ __ __ __ __ B0 --\n"
            "Rank 1: __ __ __ F0 -- B0 --\n");
}

TEST(Report, TimelineScaled) {
  PipelineModel model = PipelineModel::uniform(64, 1, 1, 0, 1);
  Schedule schedule = build("1f1b", model, 1024);
  std::string timeline =
      renderTimeline(model, schedule, simulate(model, schedule));
  EXPECT_EQ(timeline.substr(0, timeline.find('\n')),
            "one cell is 2 us (scaled to fit 2000 cells)");
  // 1 + 64 lines; no row is longer than its prefix plus 2000 cells.
  EXPECT_EQ(std::count(timeline.begin(), timeline.end(), '\n'), 65);
  size_t longest = 0;
  for (size_t start = timeline.find('\n') + 1, end; start < timeline.size();
       start = end + 1) {
    end = timeline.find('\n', start);
    longest = std::max(longest, end - start);
  }
  EXPECT_LE(longest, 9 + 2000 * 6u);
}

TEST(Report, Text) {
  PipelineModel model = PipelineModel::uniform(2, 1, 1, 0, 1);
  Schedule schedule = build("gpipe", model, 2);
  SimulationResult result = simulate(model, schedule);
  EXPECT_EQ(renderReport(model, schedule, result),
            "pipeline: 2 ranks, 2 stages, 2 micro-batches\n"
            "rank 0: end 6 us, busy 4 us, bubble 0.333333 (33.3333%), peak "
            "memory 2 bytes (2 M_B), sends 2\n"
            "rank 1: end 5 us, busy 4 us, bubble 0.333333 (33.3333%), peak "
            "memory 2 bytes (2 M_B), sends 2\n"
            "makespan: 6 us\n"
            "ideal time: 4 us\n"
            "bubble rate: 0.333333 (33.3333%)\n"
            "bubble / ideal time: 0.5\n"
            "max rank span: 6 us (one step when steps overlap)\n"
            "span bubble rate: 0.333333 (33.3333%)\n"
            "lower bound: 6 us (busiest rank 4, critical path 6, memory "
            "warm-up 5), gap 0 (makespan / bound - 1)\n");

  PipelineModel big = PipelineModel::uniform(4, 1, 1, 0, 1);
  Schedule four = build("1f1b", big, 4);
  std::string report = renderReport(big, four, simulate(big, four));
  EXPECT_NE(report.find("bubble / ideal time: 0.75\n"), std::string::npos);
  EXPECT_NE(report.find("bubble rate: 0.428571 (42.8571%)\n"),
            std::string::npos);
  EXPECT_NE(report.find("rank 3: end 11 us, busy 8 us, bubble 0.428571 "
                        "(42.8571%), peak memory 1 byte (1 M_B), sends 4\n"),
            std::string::npos)
      << report;
}

TEST(Report, ChromeTrace) {
  PipelineModel model = PipelineModel::uniform(2, 1, 2, 0, 1);
  Schedule schedule = insertCommunication(model, build("gpipe", model, 2));
  SimulationResult result = simulate(model, schedule);
  llvm::Expected<llvm::json::Value> trace =
      llvm::json::parse(chromeTraceJSON(model, schedule, result));
  ASSERT_TRUE(static_cast<bool>(trace)) << llvm::toString(trace.takeError());
  const llvm::json::Array *events =
      trace->getAsObject()->getArray("traceEvents");
  ASSERT_NE(events, nullptr);
  ASSERT_EQ(events->size(), 8u); // Compute actions only.
  // Rank 1's B1: the seventh event (rank 0's four come first).
  const llvm::json::Object *event = (*events)[6].getAsObject();
  ASSERT_NE(event, nullptr);
  EXPECT_EQ(event->getString("name"), "B1");
  EXPECT_EQ(event->getString("ph"), "X");
  EXPECT_EQ(event->getString("cat"), "backward");
  EXPECT_EQ(event->getInteger("pid"), 0);
  EXPECT_EQ(event->getInteger("tid"), 1);
  EXPECT_EQ(event->getNumber("ts"), 3);
  EXPECT_EQ(event->getNumber("dur"), 2);
  const llvm::json::Object *args = event->getObject("args");
  ASSERT_NE(args, nullptr);
  EXPECT_EQ(args->getInteger("stage"), 1);
  EXPECT_EQ(args->getInteger("microbatch"), 1);
}

TEST(Report, MetricsJSON) {
  PipelineModel model = PipelineModel::uniform(4, 1, 1, 0, 1);
  Schedule schedule = build("1f1b", model, 4);
  SimulationResult result = simulate(model, schedule);
  llvm::Expected<llvm::json::Value> metrics =
      llvm::json::parse(metricsJSON(model, schedule, result));
  ASSERT_TRUE(static_cast<bool>(metrics))
      << llvm::toString(metrics.takeError());
  const llvm::json::Object *object = metrics->getAsObject();
  ASSERT_NE(object, nullptr);
  EXPECT_EQ(object->getInteger("num_ranks"), 4);
  EXPECT_EQ(object->getInteger("num_stages"), 4);
  EXPECT_EQ(object->getInteger("num_microbatches"), 4);
  EXPECT_EQ(object->getNumber("makespan_us"), 14);
  EXPECT_EQ(object->getNumber("ideal_time_us"), 8);
  EXPECT_DOUBLE_EQ(*object->getNumber("bubble_rate"), 3.0 / 7.0);
  EXPECT_EQ(object->getNumber("bubble_over_ideal"), 0.75);
  // 1F1B with unit costs: rank r runs from r to 14 - r, so rank 0's span is
  // the makespan.
  EXPECT_EQ(object->getNumber("max_rank_span_us"), 14);
  EXPECT_DOUBLE_EQ(*object->getNumber("span_bubble_rate"), 3.0 / 7.0);
  const llvm::json::Array *ranks = object->getArray("ranks");
  ASSERT_NE(ranks, nullptr);
  ASSERT_EQ(ranks->size(), 4u);
  for (int r = 0; r < 4; ++r) {
    const llvm::json::Object *rank = (*ranks)[r].getAsObject();
    ASSERT_NE(rank, nullptr);
    EXPECT_EQ(rank->getInteger("rank"), r);
    EXPECT_EQ(rank->getNumber("busy_time_us"), 8);
    EXPECT_EQ(rank->getInteger("peak_memory_bytes"), 4 - r);
    EXPECT_EQ(rank->getNumber("peak_memory_stashes"), 4 - r);
    EXPECT_EQ(rank->getInteger("num_sends"), r == 0 || r == 3 ? 4 : 8);
    EXPECT_TRUE(rank->getNumber("end_time_us").has_value());
    EXPECT_EQ(rank->getNumber("first_start_us"), r);
    EXPECT_EQ(rank->getNumber("span_us"), 14 - 2 * r);
    EXPECT_TRUE(rank->getNumber("bubble_rate").has_value());
  }
}

//===----------------------------------------------------------------------===//
// Scale
//===----------------------------------------------------------------------===//

TEST(Scale, OneFOneBSixtyFourRanks) {
  // 64 ranks x 1024 micro-batches: 131072 compute actions, 258048 with
  // communication. Everything is O(n log n); this runs well under a second.
  const int p = 64, m = 1024;
  PipelineModel model = PipelineModel::uniform(p, 1, 1, 0, 1);
  Schedule schedule = build("1f1b", model, m);
  ASSERT_TRUE(checkSchedule(model, schedule).empty());
  ASSERT_TRUE(findDeadlock(model, schedule).completed);
  Schedule withComm = insertCommunication(model, schedule);
  ASSERT_TRUE(checkSchedule(model, withComm).empty());
  ASSERT_TRUE(findDeadlock(model, withComm).completed);
  SimulationResult result = simulate(model, withComm);
  EXPECT_NEAR(result.bubbleRate, double(p - 1) / (m + p - 1), 1e-12);
  EXPECT_NEAR(result.bubbleOverIdeal, double(p - 1) / m, 1e-12);
  EXPECT_EQ(result.ranks[0].peakMemoryBytes, p);
  EXPECT_EQ(result.ranks[p - 1].peakMemoryBytes, 1);
}

} // namespace
