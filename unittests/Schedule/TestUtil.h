//===- TestUtil.h - Helpers shared by the schedule unit tests ---*- C++ -*-===//

#ifndef PP_UNITTESTS_SCHEDULE_TESTUTIL_H
#define PP_UNITTESTS_SCHEDULE_TESTUTIL_H

#include "pp/Schedule/Schedule.h"

#include "llvm/Support/Error.h"
#include "gtest/gtest.h"

#include <algorithm>
#include <string>
#include <vector>

namespace pp_test {

using namespace mlir::pp::sched;

inline Action compute(ActionKind kind, int stage, int microbatch) {
  Action action;
  action.kind = kind;
  action.stage = stage;
  action.microbatch = microbatch;
  return action;
}
inline Action F(int stage, int mb) {
  return compute(ActionKind::Forward, stage, mb);
}
inline Action B(int stage, int mb) {
  return compute(ActionKind::Backward, stage, mb);
}
inline Action BI(int stage, int mb) {
  return compute(ActionKind::BackwardInput, stage, mb);
}
inline Action W(int stage, int mb) {
  return compute(ActionKind::BackwardWeight, stage, mb);
}
inline Action comm(ActionKind kind, PayloadKind payload, int stage, int mb,
                   int peer) {
  Action action = compute(kind, stage, mb);
  action.payload = payload;
  action.peer = peer;
  return action;
}
inline Action sendF(int stage, int mb, int peer) {
  return comm(ActionKind::Send, PayloadKind::Activation, stage, mb, peer);
}
inline Action recvF(int stage, int mb, int peer) {
  return comm(ActionKind::Recv, PayloadKind::Activation, stage, mb, peer);
}
inline Action sendB(int stage, int mb, int peer) {
  return comm(ActionKind::Send, PayloadKind::Gradient, stage, mb, peer);
}
inline Action recvB(int stage, int mb, int peer) {
  return comm(ActionKind::Recv, PayloadKind::Gradient, stage, mb, peer);
}

/// buildSchedule, failing the test (and returning an empty schedule) on an
/// error.
inline Schedule build(llvm::StringRef name, const PipelineModel &model,
                      int numMicrobatches, int groupSize = 0) {
  ScheduleOptions options;
  options.groupSize = groupSize;
  llvm::Expected<Schedule> schedule =
      buildSchedule(name, model, numMicrobatches, options);
  if (!schedule) {
    ADD_FAILURE() << llvm::toString(schedule.takeError());
    return Schedule();
  }
  return std::move(*schedule);
}

/// The largest peak memory of any rank, bytes.
inline int64_t peakOf(const SimulationResult &result) {
  int64_t peak = 0;
  for (const RankMetrics &rank : result.ranks)
    peak = std::max(peak, rank.peakMemoryBytes);
  return peak;
}

/// Every rank's labels, space-separated: {"F0 F1 B1 B0", ...}.
inline std::vector<std::string> labels(const Schedule &schedule) {
  std::vector<std::string> rows;
  for (const std::vector<Action> &program : schedule.ranks) {
    std::string row;
    for (const Action &action : program) {
      if (!row.empty())
        row += ' ';
      row += label(action);
    }
    rows.push_back(row);
  }
  return rows;
}

} // namespace pp_test

#endif // PP_UNITTESTS_SCHEDULE_TESTUTIL_H
