//===- GeneratorsTest.cpp - Tests of the schedule generators -------------===//

#include "pp/Schedule/Schedule.h"

#include "llvm/Support/Error.h"

#include "TestUtil.h"
#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace mlir::pp::sched;
using namespace pp_test;

namespace {

/// The labels of every rank, one string per rank: "F0 F1 B1 B0".

Schedule build(llvm::StringRef name, int numRanks, int numMicrobatches) {
  PipelineModel model = PipelineModel::uniform(numRanks, 1, 1, 0, 1);
  llvm::Expected<Schedule> schedule =
      buildSchedule(name, model, numMicrobatches);
  EXPECT_TRUE(static_cast<bool>(schedule));
  if (!schedule) {
    llvm::consumeError(schedule.takeError());
    return Schedule();
  }
  return std::move(*schedule);
}

/// The message of the error buildSchedule() returns, or "" on success.
std::string buildError(llvm::StringRef name, const PipelineModel &model,
                       int numMicrobatches) {
  llvm::Expected<Schedule> schedule =
      buildSchedule(name, model, numMicrobatches);
  if (schedule)
    return "";
  return llvm::toString(schedule.takeError());
}

TEST(Generators, ScheduleNames) {
  EXPECT_EQ(scheduleNames(),
            (std::vector<std::string>{
                "gpipe", "1f1b", "interleaved-1f1b", "looped-bfs", "zb-h1",
                "zb-h2", "zb-v", "dualpipe-v", "v-half", "v-min", "auto"}));
}

TEST(Generators, Uniform) {
  PipelineModel model = PipelineModel::uniform(3, 1.5, 2, 0.5, 10, 4, 0.25);
  EXPECT_EQ(model.numRanks, 3);
  ASSERT_EQ(model.numStages(), 3);
  EXPECT_EQ(model.latency, 0.25);
  for (int s = 0; s < 3; ++s) {
    EXPECT_EQ(model.rankOf(s), s);
    EXPECT_EQ(model.stages[s].forwardTime, 1.5);
    EXPECT_EQ(model.stages[s].backwardInputTime, 2);
    EXPECT_EQ(model.stages[s].backwardWeightTime, 0.5);
    EXPECT_EQ(model.stages[s].stashBytes, 10);
    EXPECT_EQ(model.stages[s].weightStashBytes, 4);
  }
}

TEST(Generators, Labels) {
  Action a;
  a.kind = ActionKind::Forward;
  a.stage = 2;
  a.microbatch = 3;
  EXPECT_EQ(label(a), "F3");
  EXPECT_EQ(describe(a), "forward of stage 2 micro-batch 3");
  a.kind = ActionKind::Backward;
  EXPECT_EQ(label(a), "B3");
  EXPECT_EQ(describe(a), "backward of stage 2 micro-batch 3");
  a.kind = ActionKind::BackwardInput;
  EXPECT_EQ(label(a), "B3");
  EXPECT_EQ(describe(a), "B of stage 2 micro-batch 3");
  a.kind = ActionKind::BackwardWeight;
  EXPECT_EQ(label(a), "W3");
  EXPECT_EQ(describe(a), "W of stage 2 micro-batch 3");
  a.kind = ActionKind::Send;
  a.peer = 3;
  EXPECT_EQ(label(a), "SEND_F3");
  EXPECT_EQ(describe(a),
            "send of activation of stage 2 micro-batch 3 to rank 3");
  a.kind = ActionKind::Recv;
  a.payload = PayloadKind::Gradient;
  a.peer = 1;
  EXPECT_EQ(label(a), "RECV_B3");
  EXPECT_EQ(describe(a),
            "recv of gradient of stage 2 micro-batch 3 from rank 1");
}

TEST(Generators, ActionTime) {
  PipelineModel model = PipelineModel::uniform(1, 1, 2, 4, 0);
  Action a;
  EXPECT_EQ(actionTime(model, a), 1);
  a.kind = ActionKind::BackwardInput;
  EXPECT_EQ(actionTime(model, a), 2);
  a.kind = ActionKind::BackwardWeight;
  EXPECT_EQ(actionTime(model, a), 4);
  a.kind = ActionKind::Backward;
  EXPECT_EQ(actionTime(model, a), 6);
  a.kind = ActionKind::Send;
  EXPECT_EQ(actionTime(model, a), 0);
  a.kind = ActionKind::Recv;
  EXPECT_EQ(actionTime(model, a), 0);
}

TEST(Generators, GPipeOrder) {
  Schedule schedule = build("gpipe", 4, 4);
  EXPECT_EQ(schedule.numMicrobatches, 4);
  EXPECT_EQ(labels(schedule), (std::vector<std::string>{
                                  "F0 F1 F2 F3 B3 B2 B1 B0",
                                  "F0 F1 F2 F3 B3 B2 B1 B0",
                                  "F0 F1 F2 F3 B3 B2 B1 B0",
                                  "F0 F1 F2 F3 B3 B2 B1 B0",
                              }));
  for (int r = 0; r < 4; ++r)
    for (const Action &action : schedule.ranks[r]) {
      EXPECT_EQ(action.stage, r);
      EXPECT_TRUE(action.kind == ActionKind::Forward ||
                  action.kind == ActionKind::Backward);
    }
}

TEST(Generators, OneFOneBOrder) {
  Schedule schedule = build("1f1b", 4, 4);
  EXPECT_EQ(labels(schedule), (std::vector<std::string>{
                                  "F0 F1 F2 F3 B0 B1 B2 B3",
                                  "F0 F1 F2 B0 F3 B1 B2 B3",
                                  "F0 F1 B0 F2 B1 F3 B2 B3",
                                  "F0 B0 F1 B1 F2 B2 F3 B3",
                              }));
  for (int r = 0; r < 4; ++r)
    for (const Action &action : schedule.ranks[r]) {
      EXPECT_EQ(action.stage, r);
      EXPECT_TRUE(action.kind == ActionKind::Forward ||
                  action.kind == ActionKind::Backward);
    }
}

TEST(Generators, OneFOneBFewerMicrobatchesThanRanks) {
  EXPECT_EQ(labels(build("1f1b", 4, 2)), (std::vector<std::string>{
                                             "F0 F1 B0 B1",
                                             "F0 F1 B0 B1",
                                             "F0 F1 B0 B1",
                                             "F0 B0 F1 B1",
                                         }));
  EXPECT_EQ(labels(build("1f1b", 3, 1)),
            (std::vector<std::string>{"F0 B0", "F0 B0", "F0 B0"}));
  EXPECT_EQ(labels(build("gpipe", 3, 1)),
            (std::vector<std::string>{"F0 B0", "F0 B0", "F0 B0"}));
}

TEST(Generators, OneFOneBSingleRank) {
  EXPECT_EQ(labels(build("1f1b", 1, 3)),
            (std::vector<std::string>{"F0 B0 F1 B1 F2 B2"}));
}

TEST(Generators, StagesFollowPlacement) {
  // Stage s on rank P - 1 - s: the program of rank r runs stage P - 1 - r.
  PipelineModel model = PipelineModel::uniform(3, 1, 1, 0, 1);
  for (int s = 0; s < 3; ++s)
    model.stages[s].rank = 2 - s;
  llvm::Expected<Schedule> schedule = buildSchedule("1f1b", model, 3);
  ASSERT_TRUE(static_cast<bool>(schedule));
  EXPECT_EQ(labels(*schedule), (std::vector<std::string>{
                                   "F0 B0 F1 B1 F2 B2",
                                   "F0 F1 B0 F2 B1 B2",
                                   "F0 F1 F2 B0 B1 B2",
                               }));
  for (int r = 0; r < 3; ++r)
    for (const Action &action : schedule->ranks[r])
      EXPECT_EQ(action.stage, 2 - r);
  EXPECT_TRUE(checkSchedule(model, *schedule).empty());
}

TEST(Generators, Errors) {
  PipelineModel model = PipelineModel::uniform(4, 1, 1, 0, 1);
  EXPECT_EQ(buildError("foo", model, 4),
            "schedule 'foo' is unknown; known schedules: gpipe, 1f1b, "
            "interleaved-1f1b, looped-bfs, zb-h1, zb-h2, zb-v, dualpipe-v, "
            "v-half, v-min, "
            "auto");
  EXPECT_EQ(buildError("gpipe", model, 0),
            "num-microbatches must be >= 1, got 0");
  EXPECT_EQ(buildError("1f1b", model, -3),
            "num-microbatches must be >= 1, got -3");

  PipelineModel empty = PipelineModel::uniform(0, 1, 1, 0, 1);
  EXPECT_EQ(buildError("gpipe", empty, 4), "num-ranks must be >= 1, got 0");

  PipelineModel noStages = model;
  noStages.stages.clear();
  EXPECT_EQ(buildError("gpipe", noStages, 4), "the pipeline has no stages");

  PipelineModel eightStages = PipelineModel::uniform(8, 1, 1, 0, 1);
  eightStages.numRanks = 4;
  for (int s = 0; s < 8; ++s)
    eightStages.stages[s].rank = s % 4;
  EXPECT_EQ(buildError("1f1b", eightStages, 4),
            "'1f1b' needs one stage per rank, but the pipeline has 8 stages "
            "on 4 ranks");
  PipelineModel oneStage = model;
  oneStage.stages.resize(1);
  EXPECT_EQ(buildError("gpipe", oneStage, 4),
            "'gpipe' needs one stage per rank, but the pipeline has 1 stage "
            "on 4 ranks");

  PipelineModel shared = model;
  shared.stages[2].rank = 1; // Rank 2 holds no stage.
  EXPECT_EQ(buildError("gpipe", shared, 4),
            "'gpipe' needs one stage per rank, but stages 1 and 2 are both on "
            "rank 1");

  PipelineModel outside = model;
  outside.stages[3].rank = 7;
  EXPECT_EQ(buildError("1f1b", outside, 4),
            "stage 3 is placed on rank 7, but the pipeline has 4 ranks");
}

} // namespace
