//===- VShapeTest.cpp - Tests of ZB-V, DualPipeV and F&B pairs ------------===//
//
// The V-shaped schedules (lib/Schedule/VShape.cpp) and the F&B pairs
// (Action::overlapWithNext) in the checks, the deadlock finder, communication
// insertion, the simulator and the timeline.
//
//===----------------------------------------------------------------------===//

#include "pp/Schedule/Schedule.h"

#include "llvm/Support/Error.h"

#include "TestUtil.h"
#include "gtest/gtest.h"

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

using namespace mlir::pp::sched;
using namespace pp_test;

namespace {

/// 2P stages in the V placement (rank r holds stages r and 2P - 1 - r), each
/// with the given costs and stash sizes.
PipelineModel vModel(int numRanks, double forward = 1, double input = 1,
                     double weight = 1, int64_t stash = 1,
                     int64_t weightStash = 0, double latency = 0) {
  PipelineModel model = PipelineModel::uniform(
      2 * numRanks, forward, input, weight, stash, weightStash, latency);
  model.numRanks = numRanks;
  llvm::Expected<std::vector<int>> ranks =
      placeStages(Placement::V, numRanks, 2);
  EXPECT_TRUE(static_cast<bool>(ranks));
  for (int s = 0; s < 2 * numRanks; ++s)
    model.stages[s].rank = (*ranks)[s];
  return model;
}

std::string buildError(llvm::StringRef name, const PipelineModel &model,
                       int numMicrobatches) {
  llvm::Expected<Schedule> schedule =
      buildSchedule(name, model, numMicrobatches);
  if (schedule)
    return "";
  return llvm::toString(schedule.takeError());
}

/// One string per rank, with the chunk visible: F, B (fused), I (B of a
/// split backward), W on the rank's first stage (chunk 0), f, b, i, w on its
/// second (chunk 1), then the micro-batch; an F&B pair is one token "F3&b1".
std::vector<std::string> vLabels(const PipelineModel &model,
                                 const Schedule &schedule) {
  std::vector<std::string> rows;
  for (const std::vector<Action> &program : schedule.ranks) {
    std::string row;
    for (size_t i = 0; i < program.size(); ++i) {
      const Action &a = program[i];
      char kind = '?';
      switch (a.kind) {
      case ActionKind::Forward:
        kind = 'F';
        break;
      case ActionKind::Backward:
        kind = 'B';
        break;
      case ActionKind::BackwardInput:
        kind = 'I';
        break;
      case ActionKind::BackwardWeight:
        kind = 'W';
        break;
      default:
        break;
      }
      if (a.stage >= model.numRanks)
        kind = static_cast<char>(std::tolower(kind));
      if (!row.empty() && !(i > 0 && startsOverlapPair(program, i - 1)))
        row += ' ';
      row += kind + std::to_string(a.microbatch);
      if (startsOverlapPair(program, i))
        row += '&';
    }
    rows.push_back(row);
  }
  return rows;
}

/// The problems of checkSchedule(), one message each.
std::vector<std::string> problems(const PipelineModel &model,
                                  const Schedule &schedule) {
  std::vector<std::string> out;
  for (const Problem &p : checkSchedule(model, schedule))
    out.push_back(p.message);
  return out;
}

Action act(ActionKind kind, int stage, int microbatch, bool overlap = false) {
  Action a;
  a.kind = kind;
  a.stage = stage;
  a.microbatch = microbatch;
  a.overlapWithNext = overlap;
  return a;
}

/// Time rank r is busy minus the span from its first start to its end: 0 if
/// the rank never idles once it has started.
double idleAfterStart(const SimulationResult &result, int rank) {
  double first = result.ranks[rank].endTime;
  for (const ActionTiming &t : result.timings[rank])
    first = std::min(first, t.start);
  return result.ranks[rank].endTime - first - result.ranks[rank].busyTime;
}

//===----------------------------------------------------------------------===//
// Shape
//===----------------------------------------------------------------------===//

TEST(VShape, NeedsTheVPlacement) {
  // One stage per rank.
  PipelineModel flat = PipelineModel::uniform(4, 1, 1, 1, 1);
  EXPECT_EQ(buildError("zb-v", flat, 8),
            "'zb-v' needs the V placement (2 stages per rank, rank r holding "
            "stages r and 2P-1-r), but the pipeline has 4 stages on 4 ranks; "
            "place the stages with the V placement (`v`)");
  // Two stages per rank, but in the loop placement (stage s on rank s mod P).
  PipelineModel loop = vModel(4);
  for (int s = 0; s < 8; ++s)
    loop.stages[s].rank = s % 4;
  EXPECT_EQ(buildError("dualpipe-v", loop, 8),
            "'dualpipe-v' needs the V placement (2 stages per rank, rank r "
            "holding stages r and 2P-1-r), but stage 4 is on rank 0 instead of "
            "rank 3; place the stages with the V placement (`v`)");
  // 1 rank, 2 stages: the loop and V placements agree.
  EXPECT_EQ(buildError("zb-v", vModel(1), 3), "");
  EXPECT_EQ(buildError("dualpipe-v", vModel(1), 3), "");
}

//===----------------------------------------------------------------------===//
// Orders, checked by hand
//===----------------------------------------------------------------------===//

TEST(VShape, ZBVOrder) {
  // P = 2, M = 3 = 2P - 1. Rank 0 (stages 0 and 3): warm-up 2(P - 0) - 1 = 3
  // F, no (f F), P - 0 = 2 x (f I w); steady: F left? no (3 of 3), so I W f
  // i w once; cool-down: no (I i), P x (I W).
  // Rank 1 (stages 1 and 2): warm-up 1 F, 1 x (f F), 1 x (f i w); steady:
  // F I W f i w; cool-down: 1 x (I i), 1 x (I W) with the oldest W (mb 1),
  // then the remaining w (mb 2), then W (mb 2).
  PipelineModel model = vModel(2);
  EXPECT_EQ(vLabels(model, build("zb-v", model, 3)),
            (std::vector<std::string>{
                "F0 F1 F2 f0 i0 w0 f1 i1 w1 I0 W0 f2 i2 w2 I1 W1 I2 W2",
                "F0 f0 F1 f1 i0 w0 F2 I0 W0 f2 i1 w1 I1 i2 I2 W1 w2 W2",
            }));
  // M = 2 < 2P - 1: the same order without micro-batch 2.
  EXPECT_EQ(vLabels(model, build("zb-v", model, 2)),
            (std::vector<std::string>{
                "F0 F1 f0 i0 w0 f1 i1 w1 I0 W0 I1 W1",
                "F0 f0 F1 f1 i0 w0 I0 W0 i1 w1 I1 W1",
            }));
  // P = 1: stages 0 and 1 on rank 0.
  PipelineModel one = vModel(1);
  EXPECT_EQ(vLabels(one, build("zb-v", one, 2)),
            (std::vector<std::string>{"F0 f0 i0 w0 F1 I0 W0 f1 i1 w1 I1 W1"}));
}

TEST(VShape, DualPipeVOrder) {
  // P = 2, M = 4 = 2P, dualpipev.py's eight steps. Rank 0 (stages 0 and 3):
  //   1. 2(P-1) = 2 F0          F0 F1
  //   2. 1 x (F0 F1)            F2 f0
  //   3. 1 x (B1 W F1), split   i0 w0 f1
  //   4. M-2P+1 = 1 x (F0&B1 F1&B0)   F3&b1 f2&B0
  //   5. 1 x (B1 F1&B0)         b2 f3&B1
  //   6. 1 x (B1 B0), the B0 split (r even: split after B1 of iteration 0)
  //                             b3 I2
  //   7. 1 x (W B0), split      W2 I3
  //   8. 1 x W                  W3
  // Rank 1 (stages 1 and 2, the last rank):
  //   2. 2 x (F0 F1)            F0 f0 F1 f1
  //   4. M-2P+2 = 2 x (F0&B1 F1&B0), the first F0 and B1 not overlapped
  //                             F2 b0 f2&B0 F3&b1 f3&B1
  //   6. 2 x (B1 B0), split from B1 of iteration (r+1)/2 = 1 (r odd)
  //                             b2 B2 i3 I3
  //   8. 2 x W, oldest first    w3 W3
  PipelineModel model = vModel(2);
  Schedule schedule = build("dualpipe-v", model, 4);
  EXPECT_EQ(vLabels(model, schedule),
            (std::vector<std::string>{
                "F0 F1 F2 f0 i0 w0 f1 F3&b1 f2&B0 b2 f3&B1 b3 I2 W2 I3 W3",
                "F0 f0 F1 f1 F2 b0 f2&B0 F3&b1 f3&B1 b2 B2 i3 I3 w3 W3",
            }));
  // The pairs are fused backwards of the other chunk.
  for (const std::vector<Action> &program : schedule.ranks)
    for (size_t i = 0; i < program.size(); ++i)
      if (program[i].overlapWithNext) {
        ASSERT_TRUE(startsOverlapPair(program, i));
        EXPECT_EQ(program[i + 1].kind, ActionKind::Backward);
        EXPECT_NE(program[i + 1].stage, program[i].stage);
      }

  // M = 1 < 2P: the order for M = 2P without micro-batches 1..3; the pair
  // f2&B0 loses its F and leaves a plain B0.
  EXPECT_EQ(vLabels(model, build("dualpipe-v", model, 1)),
            (std::vector<std::string>{"F0 f0 i0 w0 B0", "F0 f0 b0 B0"}));
  // M = 3: F3&b1 and f3&B1 lose their F.
  EXPECT_EQ(vLabels(model, build("dualpipe-v", model, 3)),
            (std::vector<std::string>{
                "F0 F1 F2 f0 i0 w0 f1 b1 f2&B0 b2 B1 I2 W2",
                "F0 f0 F1 f1 F2 b0 f2&B0 b1 B1 b2 B2",
            }));
}

TEST(VShape, DualPipeVTimeline) {
  // P = 2, M = 4, F = B = W = 1 (a fused B is 2, an F&B pair 3). By hand:
  // rank 1 runs F0 [1,2], f0 [2,3], F1 [3,4], f1 [4,5], F2 [5,6] (not
  // overlapped), b0 [6,8] (after rank 0's i0 [4,5]), then f2&B0 [8,11].
  // Rank 0 runs F0 F1 F2 [0,3], f0 [3,4], i0 w0 [4,6], f1 [6,7], F3&b1
  // [7,10]; its f2&B0 needs rank 1's f2 and B0, both made by the pair ending
  // at 11: idle at [10,11]. Makespan 26 = 24 busy + (P-1)(F&B + B - 3W) =
  // 24 + (3 + 2 - 3).
  PipelineModel model = vModel(2);
  Schedule schedule = build("dualpipe-v", model, 4);
  SimulationResult result = simulate(model, schedule);
  EXPECT_EQ(renderTimeline(model, schedule, result),
            // Ranks run two stages, so labels carry the stage ("3F0").
            "Rank 0: 0F0     0F1     0F2     3F0     3B0     3W0     3F1     "
            "0F3&3B1 ------- ------- _______ 3F2&0B0 ------- ------- 3B2     "
            "------- _______ 3F3&0B1 ------- ------- 3B3     ------- 0B2     "
            "0W2     0B3     0W3\n"
            "Rank 1: _______ 1F0     2F0     1F1     2F1     1F2     2B0     "
            "------- 2F2&1B0 ------- ------- 1F3&2B1 ------- ------- 2F3&1B1 "
            "------- ------- 2B2     ------- 1B2     ------- _______ 2B3     "
            "1B3     2W3     1W3\n");
  EXPECT_DOUBLE_EQ(result.makespan, 26);
  EXPECT_DOUBLE_EQ(result.idealTime, 24);
  // Both halves of a pair get its whole span; busy time counts it once.
  const std::vector<ActionTiming> &t = result.timings[0];
  EXPECT_DOUBLE_EQ(t[7].start, 7);
  EXPECT_DOUBLE_EQ(t[7].end, 10);
  EXPECT_DOUBLE_EQ(t[8].start, 7);
  EXPECT_DOUBLE_EQ(t[8].end, 10);
  EXPECT_DOUBLE_EQ(t[9].start, 11);
  EXPECT_DOUBLE_EQ(result.ranks[0].busyTime, 24);
}

//===----------------------------------------------------------------------===//
// Published figures
//===----------------------------------------------------------------------===//

// ZB-V: Qi et al., "Zero Bubble Pipeline Parallelism" (ICLR 2024; arXiv
// 2401.10241, sec. 6, ZB-V) and the authors' summary (huggingface.co/spaces/
// sail/zero-bubble-pipeline-parallellism, "Comparison assuming
// T_F=T_B=T_W": ZB-V bubble rate 0, activation memory 1x that of 1F1B).
//
// In our units: each of the 2P stages stashes M_B(chunk) = stashBytes; the
// paper's M_B is that of a 1F1B stage, which holds two chunks, so "P·M_B"
// is 2P stashes. "Zero bubble" is the paper's per-device accounting, in which
// optimizer post-validation ("bypassing optimizer synchronizations") lets rank
// r start its next iteration r·T_F late without idling: no rank idles between
// its first and its last action. The one idle time left is that start offset,
// so makespan - idealTime = (P - 1)·T_F (the last rank ends (P - 1)·T_F after
// the first).
TEST(VShape, ZBVZeroBubbleAtOneFOneBMemory) {
  for (double t : {1.0, 2.5})
    for (int p : {1, 2, 3, 4, 8})
      for (int m : {2 * p - 1, 2 * p, 3 * p + 1, 24}) {
        if (m < 1)
          continue;
        SCOPED_TRACE("T " + std::to_string(t) + " P " + std::to_string(p) +
                     " M " + std::to_string(m));
        PipelineModel model = vModel(p, t, t, t, /*stash=*/1);
        SimulationResult result = simulate(model, build("zb-v", model, m));
        EXPECT_DOUBLE_EQ(result.idealTime, 2 * m * 3 * t);
        EXPECT_DOUBLE_EQ(result.makespan - result.idealTime, (p - 1) * t);
        for (int r = 0; r < p; ++r) {
          SCOPED_TRACE("rank " + std::to_string(r));
          EXPECT_DOUBLE_EQ(idleAfterStart(result, r), 0);
          EXPECT_DOUBLE_EQ(result.ranks[r].busyTime, result.idealTime);
          EXPECT_EQ(result.ranks[r].peakMemoryBytes, 2 * p);
        }
        // The same memory as 1F1B on the same model cut into P stages of two
        // chunks each (M_B = 2): P·M_B on its first rank.
        PipelineModel stages = PipelineModel::uniform(p, 2 * t, 2 * t, 2 * t,
                                                      /*stash=*/2);
        SimulationResult oneFOneB = simulate(stages, build("1f1b", stages, m));
        EXPECT_EQ(oneFOneB.ranks[0].peakMemoryBytes, 2 * p);
        EXPECT_EQ(result.ranks[0].peakMemoryBytes,
                  oneFOneB.ranks[0].peakMemoryBytes);
      }
}

// DualPipeV: deepseek-ai/DualPipe, README.md, "Pipeline Bubbles and Memory
// Usage Comparison": DualPipeV bubble (PP/2 - 1)(F&B + B - 3W), activation
// PP + 1 per device, on PP/2 devices, where PP is the number of stages
// (2P here), B a full backward and F&B an overlapped forward-backward pair;
// its figure is "4 PP ranks (8 PP stages) and 10 micro-batches".
//
// In our units: P ranks, PP/2 - 1 = P - 1; B = backwardInputTime +
// backwardWeightTime (a fused backward); F&B = F + B = F + B_I + W, since the
// B of a pair is fused and simulate() charges a pair F + B. Bubble =
// makespan - idealTime. Activation: PP + 1 = 2P + 1 stashes of a stage
// (weightStashBytes = 0, as the README counts activations only) on every
// rank.
TEST(VShape, DualPipeVReadmeFigure) {
  // The README's figure: P = 4, M = 10, F = B_I = W = 1: F&B = 3, B = 2,
  // bubble 3 x (3 + 2 - 3) = 6 on 60 busy.
  PipelineModel model = vModel(4, 1, 1, 1, /*stash=*/1);
  SimulationResult result = simulate(model, build("dualpipe-v", model, 10));
  EXPECT_DOUBLE_EQ(result.idealTime, 60);
  EXPECT_DOUBLE_EQ(result.makespan, 66);
  for (int r = 0; r < 4; ++r)
    EXPECT_EQ(result.ranks[r].peakMemoryBytes, 9) << "rank " << r;

  // Every M >= 2P the reference accepts; costs with T_F = T_B and W <= F.
  struct Costs {
    double f, b, w;
  };
  for (Costs c :
       {Costs{1, 1, 1}, Costs{2, 2, 1}, Costs{1, 1, 0.5}, Costs{1, 1, 0}})
    for (int p : {1, 2, 3, 4, 8})
      for (int m : {2 * p, 2 * p + 1, 3 * p, 20}) {
        if (m < 2 * p)
          continue;
        SCOPED_TRACE("F " + std::to_string(c.f) + " B " + std::to_string(c.b) +
                     " W " + std::to_string(c.w) + " P " + std::to_string(p) +
                     " M " + std::to_string(m));
        PipelineModel model = vModel(p, c.f, c.b, c.w, /*stash=*/1);
        SimulationResult result =
            simulate(model, build("dualpipe-v", model, m));
        double full = c.b + c.w, pair = c.f + full;
        EXPECT_DOUBLE_EQ(result.idealTime, 2 * m * (c.f + full));
        EXPECT_DOUBLE_EQ(result.makespan - result.idealTime,
                         (p - 1) * (pair + full - 3 * c.w));
        for (int r = 0; r < p; ++r)
          EXPECT_EQ(result.ranks[r].peakMemoryBytes, 2 * p + 1) << "rank " << r;
      }
}

//===----------------------------------------------------------------------===//
// Grid: P 1..16, M sampled in 1..64
//===----------------------------------------------------------------------===//

/// True if every F&B pair of `schedule` has its F directly followed by its B.
bool pairsAdjacent(const Schedule &schedule) {
  for (const std::vector<Action> &program : schedule.ranks)
    for (size_t i = 0; i < program.size(); ++i)
      if (program[i].overlapWithNext && !startsOverlapPair(program, i))
        return false;
  return true;
}

TEST(VShape, Grid) {
  for (const char *name : {"zb-v", "dualpipe-v"})
    for (int p = 1; p <= 16; ++p) {
      std::vector<int> ms = {1,     2,     3,         p - 1, p,
                             p + 1, 2 * p, 2 * p + 1, 37,    64};
      std::sort(ms.begin(), ms.end());
      ms.erase(std::unique(ms.begin(), ms.end()), ms.end());
      for (int m : ms) {
        if (m < 1 || m > 64)
          continue;
        SCOPED_TRACE(std::string(name) + " P " + std::to_string(p) + " M " +
                     std::to_string(m));
        // Latency makes messages matter; W < B makes the costs uneven.
        PipelineModel model = vModel(p, 1, 1.5, 0.5, 3, 1, 0.25);
        llvm::Expected<Schedule> built = buildSchedule(name, model, m);
        ASSERT_TRUE(static_cast<bool>(built))
            << llvm::toString(built.takeError());
        const Schedule &schedule = *built;
        ASSERT_EQ(schedule.numMicrobatches, m);
        // Every action present exactly once, on its rank, in order.
        ASSERT_EQ(problems(model, schedule), std::vector<std::string>());
        int forwards = 0;
        for (const std::vector<Action> &program : schedule.ranks)
          forwards += std::count_if(
              program.begin(), program.end(),
              [](const Action &a) { return a.kind == ActionKind::Forward; });
        EXPECT_EQ(forwards, 2 * p * m);
        DeadlockReport deadlock = findDeadlock(model, schedule);
        ASSERT_TRUE(deadlock.completed) << deadlock.blocked[0].message;

        Schedule withComm = insertCommunication(model, schedule);
        ASSERT_EQ(problems(model, withComm), std::vector<std::string>());
        EXPECT_TRUE(pairsAdjacent(withComm));
        DeadlockReport commDeadlock = findDeadlock(model, withComm);
        ASSERT_TRUE(commDeadlock.completed) << commDeadlock.blocked[0].message;

        SimulationResult result = simulate(model, schedule);
        SimulationResult commResult = simulate(model, withComm);
        EXPECT_GT(result.makespan, 0);
        EXPECT_DOUBLE_EQ(result.idealTime, 2 * m * (1 + 1.5 + 0.5));
        // Inserted Recvs delay nothing.
        EXPECT_DOUBLE_EQ(commResult.makespan, result.makespan);
      }
    }
}

//===----------------------------------------------------------------------===//
// F&B pairs in the library
//===----------------------------------------------------------------------===//

TEST(OverlapPair, SimulatorRunsThePairAsOneUnit) {
  // One rank with stages 0 and 1; F = 1, B = 2, W = 0.5; M_B = 10, M_W = 4.
  PipelineModel model = vModel(1, 1, 2, 0.5, 10, 4);
  Schedule schedule;
  schedule.numMicrobatches = 2;
  schedule.ranks = {{
      act(ActionKind::Forward, 0, 0),                   // [0, 1]
      act(ActionKind::Forward, 1, 0),                   // [1, 2]
      act(ActionKind::Forward, 0, 1, /*overlap=*/true), // [2, 5.5]
      act(ActionKind::Backward, 1, 0),                  // [2, 5.5]
      act(ActionKind::Forward, 1, 1, /*overlap=*/true), // [5.5, 8.5]
      act(ActionKind::BackwardInput, 0, 0),             // [5.5, 8.5]
      act(ActionKind::BackwardInput, 1, 1),             // [8.5, 10.5]
      act(ActionKind::BackwardWeight, 0, 0),            // [10.5, 11]
      act(ActionKind::BackwardInput, 0, 1),             // [11, 13]
      act(ActionKind::BackwardWeight, 1, 1),            // [13, 13.5]
      act(ActionKind::BackwardWeight, 0, 1),            // [13.5, 14]
  }};
  ASSERT_EQ(problems(model, schedule), std::vector<std::string>());
  ASSERT_TRUE(findDeadlock(model, schedule).completed);
  SimulationResult result = simulate(model, schedule);
  const std::vector<ActionTiming> &t = result.timings[0];
  EXPECT_DOUBLE_EQ(t[2].start, 2);
  EXPECT_DOUBLE_EQ(t[2].end, 5.5);
  EXPECT_DOUBLE_EQ(t[3].start, 2);
  EXPECT_DOUBLE_EQ(t[3].end, 5.5);
  EXPECT_DOUBLE_EQ(t[4].start, 5.5);
  EXPECT_DOUBLE_EQ(t[5].end, 8.5);
  EXPECT_DOUBLE_EQ(t[10].end, 14);
  EXPECT_DOUBLE_EQ(result.makespan, 14);
  EXPECT_DOUBLE_EQ(result.ranks[0].busyTime, 14);
  // 2 stashes, then the pair F1&I0 holds 3 M_B and, under hold, I0's M_W:
  // 34 bytes; under convert (the default) I0 turns its M_B into M_W instead
  // of adding M_W: 30.
  EXPECT_EQ(result.ranks[0].peakMemoryBytes, 30);
  model.stashAccounting = StashAccounting::HoldDuringBackward;
  EXPECT_EQ(simulate(model, schedule).ranks[0].peakMemoryBytes, 34);
  model.stashAccounting = StashAccounting::ConvertAtBackward;
  // Cells of 0.5 us (the W); each pair is drawn once, with both labels.
  EXPECT_EQ(renderTimeline(model, schedule, result),
            "Rank 0: 0F0     ------- 1F0     ------- 0F1&1B0 ------- ------- "
            "------- ------- ------- ------- 1F1&0B0 ------- ------- ------- "
            "------- ------- 1B1     ------- ------- ------- 0W0     0B1     "
            "------- ------- ------- 1W1     0W1\n");
}

TEST(OverlapPair, PairWaitsForTheInputsOfItsBackward) {
  // P = 2, V placement: rank 0 holds stages 0 and 3, rank 1 stages 1 and 2.
  // F = 1, fused B = 2. Rank 0's pair F(3, 1)&B(0, 0) has its F's input at 5
  // but its B's gradient (B(1, 0) on rank 1) only at 10: it runs [10, 13].
  PipelineModel model = vModel(2, 1, 2, 0, 1);
  Schedule schedule;
  schedule.numMicrobatches = 2;
  schedule.ranks = {
      {act(ActionKind::Forward, 0, 0), act(ActionKind::Forward, 0, 1),
       act(ActionKind::Forward, 3, 0), act(ActionKind::Backward, 3, 0),
       act(ActionKind::Forward, 3, 1, true), act(ActionKind::Backward, 0, 0),
       act(ActionKind::Backward, 3, 1), act(ActionKind::Backward, 0, 1)},
      {act(ActionKind::Forward, 1, 0), act(ActionKind::Forward, 2, 0),
       act(ActionKind::Forward, 1, 1), act(ActionKind::Forward, 2, 1),
       act(ActionKind::Backward, 2, 0), act(ActionKind::Backward, 1, 0),
       act(ActionKind::Backward, 2, 1), act(ActionKind::Backward, 1, 1)}};
  ASSERT_EQ(problems(model, schedule), std::vector<std::string>());
  ASSERT_TRUE(findDeadlock(model, schedule).completed);
  SimulationResult result = simulate(model, schedule);
  EXPECT_DOUBLE_EQ(result.timings[0][4].start, 10);
  EXPECT_DOUBLE_EQ(result.timings[0][4].end, 13);
  EXPECT_DOUBLE_EQ(result.timings[0][5].start, 10);
  EXPECT_DOUBLE_EQ(result.timings[0][5].end, 13);
  EXPECT_DOUBLE_EQ(result.makespan, 21);

  // With communication: the Recvs of both halves come before the pair, the
  // Sends of both after it, and nothing moves.
  model.latency = 0.5;
  SimulationResult computeOnly = simulate(model, schedule);
  Schedule withComm = insertCommunication(model, schedule);
  ASSERT_EQ(problems(model, withComm), std::vector<std::string>());
  ASSERT_TRUE(findDeadlock(model, withComm).completed);
  EXPECT_TRUE(pairsAdjacent(withComm));
  std::vector<std::string> row;
  for (const Action &a : withComm.ranks[0])
    row.push_back(label(a) + (a.overlapWithNext ? "&" : ""));
  // Rank 0, with latency 0.5 (messages in the order they arrive): RECV_F1
  // (activation of stage 2 for F(3, 1), at 6) and RECV_B0 (gradient of stage
  // 1 for B(0, 0), at 12) before the pair, which runs [12, 15].
  EXPECT_EQ(row, (std::vector<std::string>{"F0", "F1", "SEND_F0", "SEND_F1",
                                           "RECV_F0", "F0", "B0", "RECV_F1",
                                           "SEND_B0", "RECV_B0", "F1&", "B0",
                                           "B1", "SEND_B1", "RECV_B1", "B1"}));
  SimulationResult commResult = simulate(model, withComm);
  EXPECT_DOUBLE_EQ(commResult.makespan, computeOnly.makespan);
  EXPECT_DOUBLE_EQ(commResult.timings[0][10].start, 12);
  EXPECT_DOUBLE_EQ(computeOnly.timings[0][4].start, 12);
}

TEST(OverlapPair, ChecksReportMalformedPairs) {
  PipelineModel model = vModel(1);
  auto base = [] {
    Schedule s;
    s.numMicrobatches = 1;
    s.ranks = {{act(ActionKind::Forward, 0, 0), act(ActionKind::Forward, 1, 0),
                act(ActionKind::Backward, 1, 0),
                act(ActionKind::Backward, 0, 0)}};
    return s;
  };
  ASSERT_EQ(problems(model, base()), std::vector<std::string>());

  Schedule onBackward = base();
  onBackward.ranks[0][2].overlapWithNext = true;
  std::vector<Problem> found = checkSchedule(model, onBackward);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].rank, 0);
  EXPECT_EQ(found[0].index, 2);
  EXPECT_EQ(found[0].message,
            "overlapWithNext is set on backward of stage 1 micro-batch 0 on "
            "rank 0, which is not a forward; only a forward starts an F&B "
            "pair");

  Schedule ontoForward = base();
  ontoForward.ranks[0][0].overlapWithNext = true;
  EXPECT_EQ(
      problems(model, ontoForward),
      std::vector<std::string>{
          "F&B pair of forward of stage 0 micro-batch 0 on rank 0 must be "
          "followed by a backward, but the next action is forward of "
          "stage 1 micro-batch 0"});

  Schedule own = base();
  own.ranks[0][1].overlapWithNext = true; // F(1, 0) & B(1, 0)
  EXPECT_EQ(problems(model, own),
            std::vector<std::string>{
                "F&B pair of forward of stage 1 micro-batch 0 on rank 0 pairs "
                "it with its own backward, which needs its output"});
  // The deadlock finder cannot run it either.
  DeadlockReport deadlock = findDeadlock(model, own);
  EXPECT_FALSE(deadlock.completed);
  ASSERT_EQ(deadlock.blocked.size(), 1u);
  EXPECT_EQ(deadlock.blocked[0].index, 1);
  EXPECT_EQ(deadlock.blocked[0].message,
            "rank 0 waits at F&B pair of forward of stage 1 micro-batch 0 and "
            "backward of stage 1 micro-batch 0: the backward needs the output "
            "of the forward it is paired with");

  Schedule last;
  last.numMicrobatches = 1;
  last.ranks = {{act(ActionKind::Forward, 0, 0), act(ActionKind::Forward, 1, 0),
                 act(ActionKind::Backward, 1, 0),
                 act(ActionKind::Backward, 0, 0),
                 act(ActionKind::Forward, 0, 0, true)}};
  std::vector<std::string> lastProblems = problems(model, last);
  EXPECT_NE(std::find(lastProblems.begin(), lastProblems.end(),
                      "F&B pair of forward of stage 0 micro-batch 0 on rank 0 "
                      "must be followed by a backward, but it is the last "
                      "action of the rank"),
            lastProblems.end());

  // A Send/Recv may not split a pair.
  PipelineModel two = vModel(2);
  Schedule split = insertCommunication(two, build("dualpipe-v", two, 4));
  std::vector<Action> &program = split.ranks[1];
  size_t pair = 0;
  while (!startsOverlapPair(program, pair))
    ++pair;
  // Move the Send after the pair in between its halves.
  size_t send = pair + 2;
  while (program[send].kind != ActionKind::Send)
    ++send;
  Action moved = program[send];
  program.erase(program.begin() + send);
  program.insert(program.begin() + pair + 1, moved);
  std::vector<std::string> splitProblems = problems(two, split);
  ASSERT_FALSE(splitProblems.empty());
  EXPECT_NE(splitProblems[0].find("must be followed by a backward, but the "
                                  "next action is send of"),
            std::string::npos)
      << splitProblems[0];
  EXPECT_NE(splitProblems[0].find("(no send/recv may split a pair)"),
            std::string::npos);
}

TEST(OverlapPair, DeadlockThroughAPair) {
  // Rank 0 pairs F(0, 1) with B(0, 0), whose gradient rank 1 makes only after
  // F(1, 1), which needs F(0, 1): run one after the other it completes, as
  // one unit it cannot.
  PipelineModel model = vModel(2);
  Schedule schedule;
  schedule.numMicrobatches = 2;
  schedule.ranks = {
      {act(ActionKind::Forward, 0, 0), act(ActionKind::Forward, 3, 0),
       act(ActionKind::Backward, 3, 0), act(ActionKind::Forward, 0, 1),
       act(ActionKind::Backward, 0, 0), act(ActionKind::Forward, 3, 1),
       act(ActionKind::Backward, 3, 1), act(ActionKind::Backward, 0, 1)},
      {act(ActionKind::Forward, 1, 0), act(ActionKind::Forward, 2, 0),
       act(ActionKind::Forward, 1, 1), act(ActionKind::Backward, 2, 0),
       act(ActionKind::Backward, 1, 0), act(ActionKind::Forward, 2, 1),
       act(ActionKind::Backward, 2, 1), act(ActionKind::Backward, 1, 1)}};
  ASSERT_EQ(problems(model, schedule), std::vector<std::string>());
  ASSERT_TRUE(findDeadlock(model, schedule).completed);

  schedule.ranks[0][3].overlapWithNext = true;
  ASSERT_EQ(problems(model, schedule), std::vector<std::string>());
  DeadlockReport report = findDeadlock(model, schedule);
  EXPECT_FALSE(report.completed);
  ASSERT_EQ(report.blocked.size(), 2u);
  EXPECT_EQ(report.blocked[0].index, 3);
  EXPECT_EQ(report.blocked[0].message,
            "rank 0 waits at F&B pair of forward of stage 0 micro-batch 1 and "
            "backward of stage 0 micro-batch 0: the backward for the gradient "
            "of stage 1 micro-batch 0 from rank 1, which waits at forward of "
            "stage 1 micro-batch 1");
  EXPECT_EQ(report.blocked[1].message,
            "rank 1 waits at forward of stage 1 micro-batch 1 for the "
            "activation of stage 0 micro-batch 1 from rank 0, which waits at "
            "F&B pair of forward of stage 0 micro-batch 1 and backward of "
            "stage 0 micro-batch 0");
}

} // namespace
