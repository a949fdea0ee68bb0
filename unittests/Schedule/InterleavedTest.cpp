//===- InterleavedTest.cpp - Tests of interleaved 1F1B and looped BFS ----===//

#include "pp/Schedule/Schedule.h"

#include "llvm/Support/Error.h"

#include "TestUtil.h"
#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

using namespace mlir::pp::sched;
using namespace pp_test;

namespace {

/// P ranks, V stages per rank in the loop placement (stage s on rank s mod P),
/// every stage with forward F and fused backward B (W = 0), stash 1 byte.
PipelineModel loopModel(int numRanks, int stagesPerRank, double forward = 1,
                        double backward = 1) {
  PipelineModel model =
      PipelineModel::uniform(numRanks * stagesPerRank, forward, backward, 0, 1);
  model.numRanks = numRanks;
  for (int s = 0; s < model.numStages(); ++s)
    model.stages[s].rank = s % numRanks;
  return model;
}

std::string buildError(llvm::StringRef name, const PipelineModel &model,
                       int numMicrobatches, int groupSize = 0) {
  ScheduleOptions options;
  options.groupSize = groupSize;
  llvm::Expected<Schedule> schedule =
      buildSchedule(name, model, numMicrobatches, options);
  if (schedule)
    return "";
  return llvm::toString(schedule.takeError());
}

/// Per rank, the actions as in PyTorch's schedule CSV: stage, kind, micro-
/// batch ("2F0": forward of stage 2 on micro-batch 0; B is a fused backward).
std::vector<std::string> table(const Schedule &schedule) {
  std::vector<std::string> rows;
  for (const std::vector<Action> &program : schedule.ranks) {
    std::string row;
    for (const Action &action : program) {
      if (!row.empty())
        row += ' ';
      row += std::to_string(action.stage) + label(action).substr(0, 1) +
             std::to_string(action.microbatch);
    }
    rows.push_back(row);
  }
  return rows;
}

/// Everything a valid schedule must pass: structural checks (each F and
/// backward exactly once, on the right rank, in dependency order), deadlock
/// freedom of the compute-only schedule and of the schedule with
/// communication, and a simulation.
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
  size_t actions = 0;
  for (const std::vector<Action> &program : schedule.ranks)
    actions += program.size();
  EXPECT_EQ(actions, 2u * model.numStages() * schedule.numMicrobatches);
}

/// The micro-batch counts of the grid tests: 1, 2, 3, P-1, P, P+1, 2P, 2P+1,
/// 37 and 64, those in [1, 64].
std::vector<int> sampleMicrobatches(int p) {
  std::vector<int> ms = {1, 2, 3, p - 1, p, p + 1, 2 * p, 2 * p + 1, 37, 64};
  std::sort(ms.begin(), ms.end());
  ms.erase(std::unique(ms.begin(), ms.end()), ms.end());
  ms.erase(std::remove_if(ms.begin(), ms.end(),
                          [](int m) { return m < 1 || m > 64; }),
           ms.end());
  return ms;
}

//===----------------------------------------------------------------------===//
// Interleaved 1F1B
//===----------------------------------------------------------------------===//

// P = 2, V = 2, M = 4, G = P = 2, checked by hand against Megatron-LM's
// forward_backward_pipelining_with_interleaving: warm-up 2(P-r-1) + (V-1)G
// = 4 on rank 0 and 2 on rank 1; the forward table (chunk, micro-batch) is
// (0,0) (0,1) (1,0) (1,1) (0,2) (0,3) (1,2) (1,3), the backward table the
// same with the chunks reversed. Chunk c of rank r is stage 2c + r.
TEST(Interleaved, OrderP2V2M4) {
  Schedule schedule = build("interleaved-1f1b", loopModel(2, 2), 4);
  EXPECT_EQ(table(schedule),
            (std::vector<std::string>{
                "0F0 0F1 2F0 2F1 0F2 2B0 0F3 2B1 2F2 0B0 2F3 0B1 "
                "2B2 2B3 0B2 0B3",
                "1F0 1F1 3F0 3B0 3F1 3B1 1F2 1B0 1F3 1B1 3F2 3B2 3F3 3B3 "
                "1B2 1B3",
            }));
  for (const std::vector<Action> &program : schedule.ranks)
    for (const Action &action : program)
      EXPECT_TRUE(action.kind == ActionKind::Forward ||
                  action.kind == ActionKind::Backward);
}

// Megatron-LM's own example of its schedule table (schedules.py, comment of
// get_schedule_table: "PP2 N3M5 with VP2", i.e. P = 2, G = 3, M = 5, V = 2):
// micro-batches 0 1 2 0 1 2 3 4 3 4 on chunks 0 0 0 1 1 1 0 0 1 1. The last
// group has 2 >= P micro-batches, a shape Megatron-LM accepts: its order
// unchanged, warm-up 2 + 3 = 5 on rank 0 and 3 on rank 1.
TEST(Interleaved, OrderMegatronTableExample) {
  Schedule schedule = build("interleaved-1f1b", loopModel(2, 2), 5, 3);
  EXPECT_EQ(table(schedule),
            (std::vector<std::string>{
                "0F0 0F1 0F2 2F0 2F1 2F2 2B0 0F3 2B1 0F4 2B2 2F3 0B0 2F4 "
                "0B1 0B2 2B3 2B4 0B3 0B4",
                "1F0 1F1 1F2 3F0 3B0 3F1 3B1 3F2 3B2 1F3 1B0 1F4 1B1 3F3 "
                "1B2 3F4 3B3 3B4 1B3 1B4",
            }));
  std::vector<int> microbatches, chunks;
  for (const Action &action : schedule.ranks[0])
    if (action.kind == ActionKind::Forward) {
      microbatches.push_back(action.microbatch);
      chunks.push_back(action.stage / 2);
    }
  EXPECT_EQ(microbatches, (std::vector<int>{0, 1, 2, 0, 1, 2, 3, 4, 3, 4}));
  EXPECT_EQ(chunks, (std::vector<int>{0, 0, 0, 1, 1, 1, 0, 0, 1, 1}));
}

// The generalization (docs/Schedules.md): M = 3 on P = 2 leaves a remainder
// of 1 < P, which joins the last full group: one group of 3, warm-up
// (V-1) 3 + 2(P-r-1) = 5 on rank 0 and 3 on rank 1.
TEST(Interleaved, OrderRemainderJoinsLastGroup) {
  EXPECT_EQ(table(build("interleaved-1f1b", loopModel(2, 2), 3)),
            (std::vector<std::string>{
                "0F0 0F1 0F2 2F0 2F1 2F2 2B0 2B1 2B2 0B0 0B1 0B2",
                "1F0 1F1 1F2 3F0 3B0 3F1 3B1 3F2 3B2 1B0 1B1 1B2",
            }));
  // P = 4, M = 5: Megatron-LM refuses (remainder 1 < P); the table is one
  // group of 5, and the schedule is valid.
  PipelineModel model = loopModel(4, 3);
  Schedule schedule = build("interleaved-1f1b", model, 5);
  std::vector<int> microbatches;
  for (const Action &action : schedule.ranks[0])
    if (action.kind == ActionKind::Forward)
      microbatches.push_back(action.microbatch);
  EXPECT_EQ(microbatches,
            (std::vector<int>{0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 0, 1, 2, 3, 4}));
  expectValid(model, schedule);
}

// With V = 1, Megatron-LM runs its non-interleaved 1F1B; so do we.
TEST(Interleaved, OneChunkIsOneFOneB) {
  for (int p = 1; p <= 8; ++p)
    for (int m = 1; m <= 20; ++m) {
      SCOPED_TRACE("P=" + std::to_string(p) + " M=" + std::to_string(m));
      PipelineModel model = loopModel(p, 1);
      Schedule interleaved = build("interleaved-1f1b", model, m);
      Schedule oneFOneB = build("1f1b", model, m);
      EXPECT_EQ(interleaved.ranks, oneFOneB.ranks);
    }
}

// Narayanan et al., SC'21, sec. 2.2.2: with V model chunks per device the
// bubble time fraction of interleaved 1F1B is (1/V) (P-1)/M ("the pipeline
// bubble is reduced by a factor of v"), for M a multiple of P. With unit
// costs (F = B = 1 per stage, W = 0) that is bubbleOverIdeal: makespan
// 2VM + 2(P-1) against ideal time 2VM.
TEST(Interleaved, PublishedBubble) {
  struct Case {
    int p, v, m;
  };
  for (Case c : {Case{4, 2, 8}, Case{4, 2, 16}, Case{4, 3, 8}, Case{4, 3, 16},
                 Case{4, 4, 8}, Case{4, 4, 16}, Case{8, 2, 16}, Case{8, 4, 64},
                 Case{2, 2, 4}}) {
    SCOPED_TRACE("P=" + std::to_string(c.p) + " V=" + std::to_string(c.v) +
                 " M=" + std::to_string(c.m));
    PipelineModel model = loopModel(c.p, c.v);
    Schedule schedule = build("interleaved-1f1b", model, c.m);
    SimulationResult result = simulate(model, schedule);
    EXPECT_DOUBLE_EQ(result.idealTime, 2.0 * c.v * c.m);
    EXPECT_DOUBLE_EQ(result.makespan, 2.0 * c.v * c.m + 2.0 * (c.p - 1));
    EXPECT_NEAR(result.bubbleOverIdeal, double(c.p - 1) / (c.v * c.m), 1e-12);
    // The same with communication: it does not delay any compute.
    SimulationResult withComm =
        simulate(model, insertCommunication(model, schedule));
    EXPECT_DOUBLE_EQ(withComm.makespan, result.makespan);
  }
}

// Not a published figure: with the generalization (a remainder < P joins the
// last group), the bubble stays (P-1)/(VM) for every M >= P with G = P, so M
// need not be a multiple of P. Checked on a sample here (the whole range
// P <= 16, V <= 4, P <= M <= 64 holds too).
TEST(Interleaved, BubbleForEveryMAtLeastP) {
  for (int p : {2, 3, 4, 5, 8})
    for (int v = 2; v <= 4; ++v)
      for (int m = p; m <= 3 * p + 1; ++m) {
        SCOPED_TRACE("P=" + std::to_string(p) + " V=" + std::to_string(v) +
                     " M=" + std::to_string(m));
        PipelineModel model = loopModel(p, v);
        SimulationResult result =
            simulate(model, build("interleaved-1f1b", model, m));
        EXPECT_NEAR(result.bubbleOverIdeal, double(p - 1) / (v * m), 1e-12);
      }
}

// Peak memory: rank r holds its w_r warm-up stashes and one more during its
// first steady-state forward, w_r = min(2(P-r-1) + (V-1)G, MV) (Megatron-LM's
// warm-up), so rank 0 of P = 4, V = 2, M = 8 holds 6 + 4 + 1 = 11 stashes.
TEST(Interleaved, PeakMemory) {
  for (int v = 2; v <= 4; ++v)
    for (int m : {4, 8, 16}) {
      int p = 4;
      SCOPED_TRACE("V=" + std::to_string(v) + " M=" + std::to_string(m));
      PipelineModel model = loopModel(p, v);
      SimulationResult result =
          simulate(model, build("interleaved-1f1b", model, m));
      for (int r = 0; r < p; ++r) {
        int warmup = std::min(2 * (p - r - 1) + (v - 1) * p, m * v);
        EXPECT_EQ(result.ranks[r].peakMemoryBytes, std::min(warmup + 1, m * v));
      }
    }
}

TEST(Interleaved, Grid) {
  for (int p = 1; p <= 16; ++p)
    for (int v = 1; v <= 4; ++v) {
      PipelineModel model = loopModel(p, v);
      for (int m : sampleMicrobatches(p)) {
        SCOPED_TRACE("P=" + std::to_string(p) + " V=" + std::to_string(v) +
                     " M=" + std::to_string(m));
        expectValid(model, build("interleaved-1f1b", model, m));
      }
    }
}

// Every group size G >= 1 (Megatron-LM accepts only P <= G <= M) gives a
// valid, deadlock-free schedule; G below P costs bubbles, not correctness.
TEST(Interleaved, GroupSizes) {
  for (int p : {1, 2, 3, 4, 5, 7, 8})
    for (int v = 2; v <= 4; ++v) {
      PipelineModel model = loopModel(p, v);
      for (int g = 1; g <= p + 2; ++g)
        for (int m : {1, 2, p - 1, p, p + 1, 2 * p + 1, 3 * p - 1, 19}) {
          if (m < 1)
            continue;
          SCOPED_TRACE("P=" + std::to_string(p) + " V=" + std::to_string(v) +
                       " G=" + std::to_string(g) + " M=" + std::to_string(m));
          expectValid(model, build("interleaved-1f1b", model, m, g));
        }
    }
  // G = M is one group, the same as any larger G.
  PipelineModel model = loopModel(3, 2);
  EXPECT_EQ(build("interleaved-1f1b", model, 7, 7).ranks,
            build("interleaved-1f1b", model, 7, 100).ranks);
  // G = P is the default.
  EXPECT_EQ(build("interleaved-1f1b", model, 7, 3).ranks,
            build("interleaved-1f1b", model, 7, 0).ranks);
}

TEST(Interleaved, Errors) {
  PipelineModel sixOnFour = loopModel(6, 1);
  sixOnFour.numRanks = 4;
  for (int s = 0; s < 6; ++s)
    sixOnFour.stages[s].rank = s % 4;
  EXPECT_EQ(buildError("interleaved-1f1b", sixOnFour, 4),
            "'interleaved-1f1b' needs the loop placement (P*V stages, stage s "
            "on rank s mod P), but the pipeline has 6 stages on 4 ranks, not a "
            "multiple of the rank count; place the stages with the loop "
            "placement (`loop`)");
  PipelineModel vShape = loopModel(2, 2);
  vShape.stages[2].rank = 1;
  vShape.stages[3].rank = 0;
  EXPECT_EQ(buildError("looped-bfs", vShape, 4),
            "'looped-bfs' needs the loop placement (P*V stages, stage s on "
            "rank s mod P), but stage 2 is on rank 1 instead of rank 0; place "
            "the stages with the loop placement (`loop`)");
  EXPECT_EQ(buildError("interleaved-1f1b", loopModel(2, 2), 4, -1),
            "'interleaved-1f1b' needs a micro-batch group size >= 1 (0 means "
            "the number of ranks), got -1");
}

//===----------------------------------------------------------------------===//
// Looped BFS
//===----------------------------------------------------------------------===//

// PyTorch's ScheduleLoopedBFS order (torch.distributed.pipelining,
// _calculate_single_rank_operations): all forwards of each local stage in
// increasing stage order, then all backwards of each local stage in
// decreasing stage order, micro-batches reversed.
TEST(LoopedBFS, OrderP2V2M3) {
  EXPECT_EQ(table(build("looped-bfs", loopModel(2, 2), 3)),
            (std::vector<std::string>{
                "0F0 0F1 0F2 2F0 2F1 2F2 2B2 2B1 2B0 0B2 0B1 0B0",
                "1F0 1F1 1F2 3F0 3F1 3F2 3B2 3B1 3B0 1B2 1B1 1B0",
            }));
}

TEST(LoopedBFS, OneChunkIsGPipe) {
  for (int p = 1; p <= 6; ++p)
    for (int m = 1; m <= 9; ++m) {
      PipelineModel model = loopModel(p, 1);
      EXPECT_EQ(build("looped-bfs", model, m).ranks,
                build("gpipe", model, m).ranks);
    }
}

// Looping over the ranks V times cuts the bubble like interleaving does
// (Lamy-Poirier, MLSys 2023, sec. 3): with unit costs the simulator gives
// makespan 2VM + 2(P-1), i.e. bubble (P-1)/(VM) of the ideal time, for every
// M >= P (our measurement); every rank keeps all V M stashes (GPipe-like
// memory).
TEST(LoopedBFS, BubbleAndMemory) {
  for (int p : {2, 4, 8})
    for (int v = 1; v <= 4; ++v)
      for (int m : {p, p + 1, 2 * p, 37}) {
        SCOPED_TRACE("P=" + std::to_string(p) + " V=" + std::to_string(v) +
                     " M=" + std::to_string(m));
        PipelineModel model = loopModel(p, v);
        SimulationResult result =
            simulate(model, build("looped-bfs", model, m));
        EXPECT_DOUBLE_EQ(result.makespan, 2.0 * v * m + 2.0 * (p - 1));
        EXPECT_NEAR(result.bubbleOverIdeal, double(p - 1) / (v * m), 1e-12);
        for (const RankMetrics &rank : result.ranks)
          EXPECT_EQ(rank.peakMemoryBytes, int64_t(v) * m);
      }
}

TEST(LoopedBFS, Grid) {
  for (int p = 1; p <= 16; ++p)
    for (int v = 1; v <= 4; ++v) {
      PipelineModel model = loopModel(p, v);
      for (int m : sampleMicrobatches(p)) {
        SCOPED_TRACE("P=" + std::to_string(p) + " V=" + std::to_string(v) +
                     " M=" + std::to_string(m));
        expectValid(model, build("looped-bfs", model, m));
      }
    }
}

} // namespace
