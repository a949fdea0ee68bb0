// The full grid of issue 2/5: every named schedule, P in 1..16, V in 1..4
// (where the schedule's shape uses V), every M in 1..64: the schedule builds,
// passes every structural check (each forward and backward of each stage and
// micro-batch exactly once, in dependency order), completes under rendezvous
// send/recv after pp-insert-communication's message placement, and the
// simulation of the communicating schedule equals that of the compute-only
// one. One test case per (schedule, P) so that lit runs them in parallel.
// "auto" is covered on a sampled grid in AutoTest.cpp (each build simulates
// every candidate).

#include "pp/Schedule/Schedule.h"

#include "gtest/gtest.h"

#include <string>
#include <tuple>

using namespace mlir::pp::sched;

namespace {

/// The stages-per-rank values and placement a schedule's shape allows.
std::pair<std::vector<int>, Placement> shapesOf(const std::string &name) {
  if (name == "interleaved-1f1b" || name == "looped-bfs")
    return {{1, 2, 3, 4}, Placement::Loop};
  if (name == "zb-v" || name == "dualpipe-v" || name == "v-half" ||
      name == "v-min")
    return {{2}, Placement::V};
  return {{1}, Placement::Loop};
}

PipelineModel makeModel(int p, int v, Placement placement) {
  PipelineModel model;
  model.numRanks = p;
  model.latency = 0.25;
  std::vector<int> ranks = llvm::cantFail(placeStages(placement, p, v));
  for (int s = 0; s < p * v; ++s) {
    StageInfo stage;
    stage.rank = ranks[s];
    stage.forwardTime = 1.0 + 0.25 * (s % 3); // heterogeneous stages
    stage.backwardInputTime = 1.0;
    stage.backwardWeightTime = 0.5;
    stage.stashBytes = 8;
    stage.weightStashBytes = 2;
    model.stages.push_back(stage);
  }
  return model;
}

class Grid : public testing::TestWithParam<std::tuple<std::string, int>> {};

TEST_P(Grid, EveryShapeAndMicrobatchCount) {
  auto [name, p] = GetParam();
  auto [stagesPerRank, placement] = shapesOf(name);
  for (int v : stagesPerRank) {
    PipelineModel model = makeModel(p, v, placement);
    for (int m = 1; m <= 64; ++m) {
      SCOPED_TRACE(name + " P=" + std::to_string(p) +
                   " V=" + std::to_string(v) + " M=" + std::to_string(m));
      llvm::Expected<Schedule> schedule = buildSchedule(name, model, m);
      ASSERT_TRUE(static_cast<bool>(schedule))
          << llvm::toString(schedule.takeError());
      ASSERT_TRUE(checkSchedule(model, *schedule).empty());
      Schedule withComm = insertCommunication(model, *schedule);
      std::vector<Problem> problems = checkSchedule(model, withComm);
      ASSERT_TRUE(problems.empty()) << problems.front().message;
      ASSERT_TRUE(findDeadlock(model, withComm).completed);
      EXPECT_DOUBLE_EQ(simulate(model, withComm).makespan,
                       simulate(model, *schedule).makespan);
    }
  }
}

std::vector<std::string> namedSchedules() {
  std::vector<std::string> names;
  for (const std::string &name : scheduleNames())
    if (name != "auto")
      names.push_back(name);
  return names;
}

INSTANTIATE_TEST_SUITE_P(
    AllNamedSchedules, Grid,
    testing::Combine(testing::ValuesIn(namedSchedules()),
                     testing::Range(1, 17)),
    [](const testing::TestParamInfo<Grid::ParamType> &info) {
      std::string name = std::get<0>(info.param);
      for (char &c : name)
        if (c == '-')
          c = '_';
      return name + "_P" + std::to_string(std::get<1>(info.param));
    });

} // namespace
