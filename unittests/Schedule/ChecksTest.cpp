//===- ChecksTest.cpp - Tests of checks, deadlocks and comm insertion ----===//

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

std::vector<std::string> messages(const std::vector<Problem> &problems) {
  std::vector<std::string> out;
  for (const Problem &problem : problems)
    out.push_back(problem.message);
  return out;
}

/// True if some problem's message contains `text`.
bool mentions(const std::vector<Problem> &problems, const std::string &text) {
  return std::any_of(problems.begin(), problems.end(), [&](const Problem &p) {
    return p.message.find(text) != std::string::npos;
  });
}

std::string dump(const std::vector<Problem> &problems) {
  std::string out;
  for (const Problem &p : problems)
    out += "  [" + std::to_string(p.rank) + ":" + std::to_string(p.index) +
           "] " + p.message + "\n";
  return out;
}

/// Removes the first action equal to `action` from rank `rank`.
void erase(Schedule &schedule, int rank, const Action &action) {
  std::vector<Action> &program = schedule.ranks[rank];
  auto it = std::find(program.begin(), program.end(), action);
  ASSERT_NE(it, program.end());
  program.erase(it);
}

/// Index of the first action equal to `action` on rank `rank`, or -1.
int find(const Schedule &schedule, int rank, const Action &action) {
  const std::vector<Action> &program = schedule.ranks[rank];
  auto it = std::find(program.begin(), program.end(), action);
  return it == program.end() ? -1 : static_cast<int>(it - program.begin());
}

//===----------------------------------------------------------------------===//
// Valid schedules
//===----------------------------------------------------------------------===//

TEST(Checks, GeneratedSchedulesAreValid) {
  for (int p = 1; p <= 16; ++p) {
    PipelineModel model = PipelineModel::uniform(p, 1, 1, 0, 1);
    for (int m = 1; m <= 64; ++m)
      for (const char *name : {"gpipe", "1f1b"}) {
        SCOPED_TRACE(std::string(name) + " P=" + std::to_string(p) +
                     " M=" + std::to_string(m));
        Schedule schedule = build(name, model, m);
        std::vector<Problem> problems = checkSchedule(model, schedule);
        ASSERT_TRUE(problems.empty()) << dump(problems);
        DeadlockReport report = findDeadlock(model, schedule);
        ASSERT_TRUE(report.completed) << dump(report.blocked);
        EXPECT_TRUE(report.blocked.empty());

        Schedule withComm = insertCommunication(model, schedule);
        problems = checkSchedule(model, withComm);
        ASSERT_TRUE(problems.empty()) << dump(problems);
        report = findDeadlock(model, withComm);
        ASSERT_TRUE(report.completed) << dump(report.blocked);

        // Every cross-rank payload is sent and received once: an activation
        // from every stage but the last, a gradient from every stage but the
        // first.
        size_t numComm = 0, numCompute = 0;
        for (const std::vector<Action> &program : withComm.ranks)
          for (const Action &action : program)
            (action.isComm() ? numComm : numCompute) += 1;
        EXPECT_EQ(numCompute, static_cast<size_t>(2 * p * m));
        EXPECT_EQ(numComm, static_cast<size_t>(2 * 2 * (p - 1) * m));
        // The compute actions keep their order.
        for (int r = 0; r < p; ++r) {
          std::vector<Action> computeOnly;
          for (const Action &action : withComm.ranks[r])
            if (action.isCompute())
              computeOnly.push_back(action);
          EXPECT_EQ(computeOnly, schedule.ranks[r]);
        }
      }
  }
}

TEST(Checks, SplitBackwardIsValid) {
  // GPipe with B and W split: F0..F3, then B3 W3 ... B0 W0, on 2 ranks.
  PipelineModel model = PipelineModel::uniform(2, 1, 1, 1, 1, 1);
  Schedule schedule;
  schedule.numMicrobatches = 4;
  schedule.ranks.resize(2);
  for (int r = 0; r < 2; ++r) {
    for (int m = 0; m < 4; ++m)
      schedule.ranks[r].push_back(F(r, m));
    for (int m = 3; m >= 0; --m) {
      schedule.ranks[r].push_back(BI(r, m));
      schedule.ranks[r].push_back(W(r, m));
    }
  }
  EXPECT_TRUE(checkSchedule(model, schedule).empty());
  EXPECT_TRUE(findDeadlock(model, schedule).completed);
  Schedule withComm = insertCommunication(model, schedule);
  std::vector<Problem> problems = checkSchedule(model, withComm);
  EXPECT_TRUE(problems.empty()) << dump(problems);
  EXPECT_TRUE(findDeadlock(model, withComm).completed);
}

TEST(Checks, TwoStagesOnOneRank) {
  // Stages 0 and 1 on rank 0, stage 2 on rank 1: only 1 -> 2 crosses ranks.
  PipelineModel model = PipelineModel::uniform(3, 1, 1, 0, 1);
  model.numRanks = 2;
  model.stages[1].rank = 0;
  model.stages[2].rank = 1;
  Schedule schedule;
  schedule.numMicrobatches = 1;
  schedule.ranks = {{F(0, 0), F(1, 0), B(1, 0), B(0, 0)}, {F(2, 0), B(2, 0)}};
  EXPECT_TRUE(checkSchedule(model, schedule).empty());
  EXPECT_TRUE(findDeadlock(model, schedule).completed);
  Schedule withComm = insertCommunication(model, schedule);
  EXPECT_EQ(withComm.ranks[0],
            (std::vector<Action>{F(0, 0), F(1, 0), sendF(1, 0, 1),
                                 recvB(2, 0, 1), B(1, 0), B(0, 0)}));
  EXPECT_EQ(withComm.ranks[1], (std::vector<Action>{recvF(1, 0, 0), F(2, 0),
                                                    B(2, 0), sendB(2, 0, 0)}));
  EXPECT_TRUE(checkSchedule(model, withComm).empty());
  EXPECT_TRUE(findDeadlock(model, withComm).completed);

  // Same-rank dependencies out of order.
  Schedule wrong = schedule;
  wrong.ranks[0] = {F(1, 0), F(0, 0), B(0, 0), B(1, 0)};
  std::vector<Problem> problems = checkSchedule(model, wrong);
  EXPECT_EQ(messages(problems),
            (std::vector<std::string>{
                "forward of stage 1 micro-batch 0 runs before forward of "
                "stage 0 micro-batch 0, whose activation it needs, on rank 0",
                "backward of stage 0 micro-batch 0 runs before backward of "
                "stage 1 micro-batch 0, whose gradient it needs, on rank 0"}));
  EXPECT_EQ(problems[0].rank, 0);
  EXPECT_EQ(problems[0].index, 0);
  EXPECT_EQ(problems[1].index, 2);
  DeadlockReport report = findDeadlock(model, wrong);
  EXPECT_FALSE(report.completed);
  ASSERT_EQ(report.blocked.size(), 2u);
  EXPECT_EQ(report.blocked[0].message,
            "rank 0 waits at forward of stage 1 micro-batch 0 for the "
            "activation of stage 0 micro-batch 0, which has not been made on "
            "rank 0");
  EXPECT_EQ(report.blocked[1].message,
            "rank 1 waits at forward of stage 2 micro-batch 0 for the "
            "activation of stage 1 micro-batch 0 from rank 0, which waits at "
            "forward of stage 1 micro-batch 0");
}

//===----------------------------------------------------------------------===//
// Problems
//===----------------------------------------------------------------------===//

class ChecksProblems : public ::testing::Test {
protected:
  PipelineModel model = PipelineModel::uniform(4, 1, 1, 0, 1);
};

TEST_F(ChecksProblems, BackwardBeforeForward) {
  Schedule schedule = build("gpipe", model, 4);
  schedule.ranks[1] = {F(1, 0), F(1, 1), F(1, 3), B(1, 3),
                       B(1, 2), F(1, 2), B(1, 1), B(1, 0)};
  std::vector<Problem> problems = checkSchedule(model, schedule);
  ASSERT_EQ(problems.size(), 1u) << dump(problems);
  EXPECT_EQ(problems[0].message,
            "backward of stage 1 micro-batch 2 runs before its forward on "
            "rank 1");
  EXPECT_EQ(problems[0].rank, 1);
  EXPECT_EQ(problems[0].index, 4);
}

// A schedule naming a micro-batch far beyond its size (pp-fuzz-table: an
// imported table with micro-batch 20200000) is reported in one problem,
// without S x M tables or one problem per missing forward.
TEST_F(ChecksProblems, MicrobatchFarBeyondTheSchedule) {
  PipelineModel one = PipelineModel::uniform(1, 1, 1, 0, 1);
  Schedule schedule;
  schedule.numMicrobatches = 20000001;
  schedule.ranks = {{F(0, 0), F(0, 20000000)}};
  std::vector<Problem> problems = checkSchedule(one, schedule);
  ASSERT_EQ(problems.size(), 1u) << dump(problems);
  EXPECT_EQ(problems[0].message,
            "the schedule runs 2 forwards, but 1 stage x 20000001 "
            "micro-batches need 20000001");
}

TEST_F(ChecksProblems, WeightBeforeInput) {
  PipelineModel split = PipelineModel::uniform(2, 1, 1, 1, 1, 1);
  Schedule schedule;
  schedule.numMicrobatches = 4;
  schedule.ranks.resize(2);
  for (int r = 0; r < 2; ++r) {
    for (int m = 0; m < 4; ++m)
      schedule.ranks[r].push_back(F(r, m));
    for (int m = 3; m >= 0; --m) {
      schedule.ranks[r].push_back(BI(r, m));
      schedule.ranks[r].push_back(W(r, m));
    }
  }
  std::swap(schedule.ranks[0][4], schedule.ranks[0][5]); // W3 before B3
  std::vector<Problem> problems = checkSchedule(split, schedule);
  ASSERT_EQ(problems.size(), 1u) << dump(problems);
  EXPECT_EQ(problems[0].message,
            "W of stage 0 micro-batch 3 runs before its B on rank 0");
  EXPECT_EQ(problems[0].rank, 0);
  EXPECT_EQ(problems[0].index, 4);

  // B before its forward.
  schedule.ranks[0] = {F(0, 0),  F(0, 1), F(0, 2),  BI(0, 3),
                       F(0, 3),  W(0, 3), BI(0, 2), W(0, 2),
                       BI(0, 1), W(0, 1), BI(0, 0), W(0, 0)};
  EXPECT_EQ(messages(checkSchedule(split, schedule)),
            (std::vector<std::string>{
                "B of stage 0 micro-batch 3 runs before its forward on rank "
                "0"}));
}

TEST_F(ChecksProblems, RunTwice) {
  Schedule schedule = build("gpipe", model, 1);
  schedule.ranks[2].insert(schedule.ranks[2].begin() + 1, F(2, 0));
  std::vector<Problem> problems = checkSchedule(model, schedule);
  ASSERT_EQ(problems.size(), 1u) << dump(problems);
  EXPECT_EQ(problems[0].message,
            "forward of stage 2 micro-batch 0 is run twice on rank 2");
  EXPECT_EQ(problems[0].rank, 2);
  EXPECT_EQ(problems[0].index, 1);

  // A fused backward and a B of the same micro-batch.
  schedule = build("gpipe", model, 1);
  schedule.ranks[3].push_back(BI(3, 0));
  EXPECT_EQ(messages(checkSchedule(model, schedule)),
            (std::vector<std::string>{"stage 3 micro-batch 0 has both a fused "
                                      "backward (on rank 3) and a B (on rank "
                                      "3)"}));
}

TEST_F(ChecksProblems, NeverRuns) {
  Schedule schedule = build("gpipe", model, 4);
  erase(schedule, 1, B(1, 3));
  std::vector<Problem> problems = checkSchedule(model, schedule);
  ASSERT_EQ(problems.size(), 1u) << dump(problems);
  EXPECT_EQ(problems[0].message,
            "backward of stage 1 micro-batch 3 never runs");
  EXPECT_EQ(problems[0].rank, 1);
  EXPECT_EQ(problems[0].index, -1);

  schedule = build("gpipe", model, 4);
  erase(schedule, 3, F(3, 0));
  EXPECT_EQ(messages(checkSchedule(model, schedule)),
            (std::vector<std::string>{
                "forward of stage 3 micro-batch 0 never runs"}));

  // A B without its W and a W without its B.
  schedule = build("gpipe", model, 4);
  schedule.ranks[0].back() = BI(0, 0);
  schedule.ranks[1].back() = W(1, 0);
  EXPECT_EQ(
      messages(checkSchedule(model, schedule)),
      (std::vector<std::string>{"W of stage 0 micro-batch 0 never runs",
                                "B of stage 1 micro-batch 0 never runs"}));
}

TEST_F(ChecksProblems, OutOfRange) {
  Schedule schedule = build("gpipe", model, 8);
  schedule.ranks[0].push_back(F(0, 9));
  std::vector<Problem> problems = checkSchedule(model, schedule);
  ASSERT_EQ(problems.size(), 1u) << dump(problems);
  EXPECT_EQ(problems[0].message,
            "micro-batch 9 is out of range [0, 8) in action 16 (F9) of rank "
            "0");
  EXPECT_EQ(problems[0].rank, 0);
  EXPECT_EQ(problems[0].index, 16);

  schedule = build("gpipe", model, 8);
  schedule.ranks[1].push_back(F(7, 0));
  EXPECT_EQ(messages(checkSchedule(model, schedule)),
            (std::vector<std::string>{"stage 7 is out of range [0, 4) in "
                                      "action 16 (F0) of rank 1"}));

  schedule = build("gpipe", model, 8);
  schedule.ranks[1].push_back(compute(ActionKind::Forward, -1, -2));
  EXPECT_EQ(messages(checkSchedule(model, schedule)),
            (std::vector<std::string>{
                "stage -1 is out of range [0, 4) in action 16 (F-2) of rank 1",
                "micro-batch -2 is out of range [0, 8) in action 16 (F-2) of "
                "rank 1"}));

  schedule = build("gpipe", model, 8);
  schedule.ranks[0].insert(schedule.ranks[0].begin() + 1, sendF(0, 0, 5));
  EXPECT_EQ(messages(checkSchedule(model, schedule)),
            (std::vector<std::string>{"peer 5 is out of range [0, 4) in "
                                      "action 1 (SEND_F0) of rank 0"}));

  schedule = build("gpipe", model, 8);
  schedule.ranks.resize(3);
  problems = checkSchedule(model, schedule);
  ASSERT_FALSE(problems.empty());
  EXPECT_EQ(problems[0].message,
            "the schedule has 3 ranks, but the pipeline has 4 ranks");
  EXPECT_TRUE(
      mentions(problems, "forward of stage 3 micro-batch 7 never runs"));

  schedule = build("gpipe", model, 8);
  schedule.numMicrobatches = 0;
  EXPECT_EQ(messages(checkSchedule(model, schedule)),
            (std::vector<std::string>{
                "the schedule has 0 micro-batches; it needs at least one"}));

  PipelineModel bad = model;
  bad.stages[2].rank = 9;
  schedule = build("gpipe", model, 1);
  EXPECT_EQ(messages(checkSchedule(bad, schedule)),
            (std::vector<std::string>{
                "stage 2 is placed on rank 9, but the pipeline has 4 ranks"}));
}

TEST_F(ChecksProblems, Placement) {
  Schedule schedule = build("gpipe", model, 2);
  erase(schedule, 3, F(3, 0));
  schedule.ranks[0].insert(schedule.ranks[0].begin(), F(3, 0));
  std::vector<Problem> problems = checkSchedule(model, schedule);
  ASSERT_EQ(problems.size(), 1u) << dump(problems);
  EXPECT_EQ(problems[0].message,
            "stage 3 is placed on rank 3 but scheduled on rank 0 (forward of "
            "stage 3 micro-batch 0)");
  EXPECT_EQ(problems[0].rank, 0);
  EXPECT_EQ(problems[0].index, 0);
}

class CommProblems : public ::testing::Test {
protected:
  void SetUp() override {
    schedule = insertCommunication(model, build("gpipe", model, 2));
    ASSERT_TRUE(checkSchedule(model, schedule).empty());
  }
  PipelineModel model = PipelineModel::uniform(2, 1, 1, 0, 1);
  Schedule schedule;
};

TEST_F(CommProblems, InsertedOrder) {
  EXPECT_EQ(
      schedule.ranks[0],
      (std::vector<Action>{F(0, 0), sendF(0, 0, 1), F(0, 1), sendF(0, 1, 1),
                           recvB(1, 1, 1), B(0, 1), recvB(1, 0, 1), B(0, 0)}));
  EXPECT_EQ(
      schedule.ranks[1],
      (std::vector<Action>{recvF(0, 0, 0), F(1, 0), recvF(0, 1, 0), F(1, 1),
                           B(1, 1), sendB(1, 1, 0), B(1, 0), sendB(1, 0, 0)}));
}

TEST_F(CommProblems, UnmatchedSend) {
  erase(schedule, 1, recvF(0, 1, 0));
  std::vector<Problem> problems = checkSchedule(model, schedule);
  ASSERT_EQ(problems.size(), 1u) << dump(problems);
  EXPECT_EQ(problems[0].message,
            "send of activation of stage 0 micro-batch 1 from rank 0 to rank "
            "1 has no matching recv on rank 1");
  EXPECT_EQ(problems[0].rank, 0);
  EXPECT_EQ(problems[0].index, 3);
}

// A schedule that communicates explicitly must carry every crossing value:
// dropping both ends of one message is an error, not an implied message.
TEST_F(CommProblems, MessageMissingInACommunicatingSchedule) {
  erase(schedule, 0, sendF(0, 1, 1));
  erase(schedule, 1, recvF(0, 1, 0));
  std::vector<Problem> problems = checkSchedule(model, schedule);
  ASSERT_EQ(problems.size(), 1u) << dump(problems);
  EXPECT_EQ(problems[0].message,
            "forward of stage 1 micro-batch 1 on rank 1 needs the activation "
            "of stage 0 micro-batch 1 from rank 0, but no send/recv carries "
            "it; the schedule communicates explicitly, so every value that "
            "crosses ranks needs one");
  EXPECT_EQ(problems[0].rank, 1);
  EXPECT_EQ(problems[0].index, 2);
}

TEST_F(CommProblems, UnmatchedRecv) {
  erase(schedule, 1, sendB(1, 0, 0));
  std::vector<Problem> problems = checkSchedule(model, schedule);
  ASSERT_EQ(problems.size(), 1u) << dump(problems);
  EXPECT_EQ(problems[0].message,
            "recv of gradient of stage 1 micro-batch 0 from rank 1 on rank 0 "
            "has no matching send on rank 1");
  EXPECT_EQ(problems[0].rank, 0);
  EXPECT_EQ(problems[0].index, 6);
}

TEST_F(CommProblems, MismatchedPayload) {
  int i = find(schedule, 1, recvF(0, 1, 0));
  schedule.ranks[1][i].payload = PayloadKind::Gradient;
  std::vector<Problem> problems = checkSchedule(model, schedule);
  EXPECT_EQ(messages(problems),
            (std::vector<std::string>{
                "recv of gradient of stage 0 micro-batch 1 from rank 0 on rank "
                "1 carries the input gradient of the first stage, which no "
                "stage consumes",
                "send of activation of stage 0 micro-batch 1 from rank 0 to "
                "rank 1 has no matching recv on rank 1 (rank 1 has recv of "
                "gradient of stage 0 micro-batch 1 from rank 0 on rank 1 "
                "instead)",
                "recv of gradient of stage 0 micro-batch 1 from rank 0 on rank "
                "1 has no matching send on rank 0 (rank 0 has send of "
                "activation of stage 0 micro-batch 1 from rank 0 to rank 1 "
                "instead)"}));
}

TEST_F(CommProblems, MismatchedPeer) {
  PipelineModel three = PipelineModel::uniform(3, 1, 1, 0, 1);
  Schedule withComm = insertCommunication(three, build("gpipe", three, 1));
  ASSERT_TRUE(checkSchedule(three, withComm).empty());
  int i = find(withComm, 1, recvF(0, 0, 0));
  ASSERT_GE(i, 0);
  withComm.ranks[1][i].peer = 2;
  EXPECT_EQ(messages(checkSchedule(three, withComm)),
            (std::vector<std::string>{
                "recv of activation of stage 0 micro-batch 0 from rank 2 on "
                "rank 1 comes from rank 2, but its producer stage 0 is placed "
                "on rank 0",
                "send of activation of stage 0 micro-batch 0 from rank 0 to "
                "rank 1 has no matching recv on rank 1; the recv of "
                "activation of stage 0 micro-batch 0 from rank 2 on rank 1 "
                "does not match it",
                "recv of activation of stage 0 micro-batch 0 from rank 2 on "
                "rank 1 has no matching send on rank 2; the send of "
                "activation of stage 0 micro-batch 0 from rank 0 to rank 1 "
                "does not match it"}));

  // A send to the wrong rank.
  withComm = insertCommunication(three, build("gpipe", three, 1));
  i = find(withComm, 0, sendF(0, 0, 1));
  withComm.ranks[0][i].peer = 2;
  std::vector<Problem> problems = checkSchedule(three, withComm);
  EXPECT_TRUE(mentions(problems,
                       "send of activation of stage 0 micro-batch 0 from rank "
                       "0 to rank 2 goes to rank 2, but its consumer stage 1 "
                       "is placed on rank 1"))
      << dump(problems);
}

TEST_F(CommProblems, SentTwiceAndNotCrossing) {
  Schedule twice = schedule;
  twice.ranks[0].insert(twice.ranks[0].begin() + 2, sendF(0, 0, 1));
  twice.ranks[1].insert(twice.ranks[1].begin() + 1, recvF(0, 0, 0));
  EXPECT_EQ(messages(checkSchedule(model, twice)),
            (std::vector<std::string>{
                "activation of stage 0 micro-batch 0 is sent twice on rank 0",
                "activation of stage 0 micro-batch 0 is received twice on rank "
                "1"}));

  PipelineModel oneRank = PipelineModel::uniform(2, 1, 1, 0, 1);
  oneRank.numRanks = 1;
  oneRank.stages[1].rank = 0;
  Schedule local;
  local.numMicrobatches = 1;
  local.ranks = {
      {F(0, 0), sendF(0, 0, 0), recvF(0, 0, 0), F(1, 0), B(1, 0), B(0, 0)}};
  std::vector<Problem> problems = checkSchedule(oneRank, local);
  ASSERT_EQ(problems.size(), 2u) << dump(problems);
  EXPECT_EQ(problems[0].message,
            "send of activation of stage 0 micro-batch 0 from rank 0 to rank "
            "0 does not cross ranks: stages 0 and 1 are both on rank 0");
}

TEST_F(CommProblems, CommOutOfOrder) {
  // Send before the forward that makes its payload.
  Schedule early = schedule;
  std::swap(early.ranks[0][0], early.ranks[0][1]);
  EXPECT_EQ(messages(checkSchedule(model, early)),
            (std::vector<std::string>{
                "send of activation of stage 0 micro-batch 0 from rank 0 to "
                "rank 1 runs before forward of stage 0 micro-batch 0, which "
                "makes its payload"}));
  DeadlockReport report = findDeadlock(model, early);
  EXPECT_FALSE(report.completed);
  // Recv after the action that uses it.
  Schedule late = schedule;
  std::swap(late.ranks[1][0], late.ranks[1][1]);
  EXPECT_EQ(messages(checkSchedule(model, late)),
            (std::vector<std::string>{
                "forward of stage 1 micro-batch 0 runs before recv of "
                "activation of stage 0 micro-batch 0 from rank 0 on rank 1, "
                "which delivers its input"}));
  report = findDeadlock(model, late);
  EXPECT_FALSE(report.completed);
  ASSERT_FALSE(report.blocked.empty());
  EXPECT_EQ(report.blocked.back().message,
            "rank 1 waits at forward of stage 1 micro-batch 0 for recv of "
            "activation of stage 0 micro-batch 0, which comes later on rank 1");
}

//===----------------------------------------------------------------------===//
// Deadlocks
//===----------------------------------------------------------------------===//

/// Rank 0 sends F1 before receiving B0, rank 1 sends B0 before receiving F1:
/// with rendezvous send/recv both block in their send.
Schedule deadlockingSchedule() {
  Schedule schedule;
  schedule.numMicrobatches = 2;
  schedule.ranks = {
      {F(0, 0), sendF(0, 0, 1), F(0, 1), sendF(0, 1, 1), recvB(1, 0, 1),
       B(0, 0), recvB(1, 1, 1), B(0, 1)},
      {recvF(0, 0, 0), F(1, 0), B(1, 0), sendB(1, 0, 0), recvF(0, 1, 0),
       F(1, 1), B(1, 1), sendB(1, 1, 0)},
  };
  return schedule;
}

TEST(Deadlock, RendezvousCycle) {
  PipelineModel model = PipelineModel::uniform(2, 1, 1, 0, 1);
  Schedule schedule = deadlockingSchedule();
  std::vector<Problem> problems = checkSchedule(model, schedule);
  ASSERT_TRUE(problems.empty()) << dump(problems);
  DeadlockReport report = findDeadlock(model, schedule);
  EXPECT_FALSE(report.completed);
  ASSERT_EQ(report.blocked.size(), 2u);
  EXPECT_EQ(report.blocked[0].rank, 0);
  EXPECT_EQ(report.blocked[0].index, 3);
  EXPECT_EQ(report.blocked[0].message,
            "rank 0 waits at send of activation of stage 0 micro-batch 1 to "
            "rank 1, which waits at send of gradient of stage 1 micro-batch 0 "
            "to rank 0");
  EXPECT_EQ(report.blocked[1].rank, 1);
  EXPECT_EQ(report.blocked[1].index, 3);
  EXPECT_EQ(report.blocked[1].message,
            "rank 1 waits at send of gradient of stage 1 micro-batch 0 to "
            "rank 0, which waits at send of activation of stage 0 micro-batch "
            "1 to rank 1");

  // The same compute order with communication inserted runs.
  Schedule computeOnly;
  computeOnly.numMicrobatches = 2;
  computeOnly.ranks.resize(2);
  for (int r = 0; r < 2; ++r)
    for (const Action &action : schedule.ranks[r])
      if (action.isCompute())
        computeOnly.ranks[r].push_back(action);
  EXPECT_TRUE(findDeadlock(model, computeOnly).completed);
  Schedule withComm = insertCommunication(model, computeOnly);
  problems = checkSchedule(model, withComm);
  ASSERT_TRUE(problems.empty()) << dump(problems);
  report = findDeadlock(model, withComm);
  EXPECT_TRUE(report.completed) << dump(report.blocked);
  // insertCommunication also accepts (and replaces) existing Send/Recv.
  EXPECT_EQ(insertCommunication(model, schedule).ranks, withComm.ranks);
}

TEST(Deadlock, ComputeOnlyCycle) {
  PipelineModel model = PipelineModel::uniform(2, 1, 1, 0, 1);
  Schedule schedule;
  schedule.numMicrobatches = 2;
  schedule.ranks = {{F(0, 0), B(0, 0), F(0, 1), B(0, 1)},
                    {F(1, 1), B(1, 1), F(1, 0), B(1, 0)}};
  EXPECT_TRUE(checkSchedule(model, schedule).empty());
  DeadlockReport report = findDeadlock(model, schedule);
  EXPECT_FALSE(report.completed);
  EXPECT_EQ(messages(report.blocked),
            (std::vector<std::string>{
                "rank 0 waits at backward of stage 0 micro-batch 0 for the "
                "gradient of stage 1 micro-batch 0 from rank 1, which waits "
                "at forward of stage 1 micro-batch 1",
                "rank 1 waits at forward of stage 1 micro-batch 1 for the "
                "activation of stage 0 micro-batch 1 from rank 0, which waits "
                "at backward of stage 0 micro-batch 0"}));
  EXPECT_EQ(report.blocked[0].index, 1);
  EXPECT_EQ(report.blocked[1].index, 0);
}

TEST_F(CommProblems, RecvFromFinishedRank) {
  // Rank 1 receives F1 a second time, after rank 0 has finished.
  schedule.ranks[1].push_back(recvF(0, 1, 0));
  EXPECT_EQ(messages(checkSchedule(model, schedule)),
            (std::vector<std::string>{"activation of stage 0 micro-batch 1 is "
                                      "received twice on rank 1"}));
  DeadlockReport report = findDeadlock(model, schedule);
  EXPECT_FALSE(report.completed);
  ASSERT_EQ(report.blocked.size(), 1u);
  EXPECT_EQ(report.blocked[0].rank, 1);
  EXPECT_EQ(report.blocked[0].index, 8);
  EXPECT_EQ(report.blocked[0].message,
            "rank 1 waits at recv of activation of stage 0 micro-batch 1 from "
            "rank 0, which has finished");
}

TEST(Deadlock, EmptySchedule) {
  PipelineModel model = PipelineModel::uniform(2, 1, 1, 0, 1);
  Schedule schedule;
  schedule.numMicrobatches = 1;
  schedule.ranks.resize(2);
  DeadlockReport report = findDeadlock(model, schedule);
  EXPECT_TRUE(report.completed);
  EXPECT_TRUE(report.blocked.empty());
}

} // namespace
