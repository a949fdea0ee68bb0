//===- ScheduleInvariants.h -------------------------------------*- C++ -*-===//
//
// What every valid schedule satisfies.
//
// The schedule library's functions must agree with each other: a schedule
// that passes checkSchedule() and completes findDeadlock() can be given
// communication (insertCommunication()), which again passes both; simulate()
// then gives finite, consistent timings; the reports render; and the table
// export reads back as the same schedule. checkValidSchedule() asserts all
// of that (ppfuzz::fail on any disagreement). Used by the schedule and table
// fuzz targets.
//
//===----------------------------------------------------------------------===//

#ifndef PP_FUZZ_SCHEDULEINVARIANTS_H
#define PP_FUZZ_SCHEDULEINVARIANTS_H

#include "FuzzCommon.h"

#include "pp/Schedule/Schedule.h"
#include "pp/Schedule/Table.h"

#include <cmath>

namespace ppfuzz {

using namespace mlir::pp::sched;

inline bool nearlyLess(double a, double b) {
  return a <= b + 1e-9 * std::max(1.0, std::fabs(b));
}

inline std::string firstProblem(const std::vector<Problem> &problems) {
  const Problem &p = problems.front();
  return "rank " + std::to_string(p.rank) + " index " +
         std::to_string(p.index) + ": " + p.message;
}

/// simulate() on a schedule that passed checkSchedule() and findDeadlock(),
/// and the invariants of its result.
inline SimulationResult simulateChecked(const PipelineModel &model,
                                        const Schedule &schedule,
                                        const std::string &what) {
  SimulationResult result = simulate(model, schedule);
  if (!std::isfinite(result.makespan) || result.makespan < 0)
    fail(what + ": makespan is not a finite non-negative number");
  if (result.ranks.size() != schedule.ranks.size() ||
      result.timings.size() != schedule.ranks.size())
    fail(what + ": simulate() returned metrics for another rank count");
  double busiest = 0;
  for (size_t r = 0; r < schedule.ranks.size(); ++r) {
    const RankMetrics &m = result.ranks[r];
    if (result.timings[r].size() != schedule.ranks[r].size())
      fail(what + ": simulate() timed another number of actions on rank " +
           std::to_string(r));
    if (!std::isfinite(m.busyTime) || !nearlyLess(m.busyTime, m.endTime) ||
        !nearlyLess(m.endTime, result.makespan))
      fail(what + ": rank " + std::to_string(r) +
           " is busy longer than it runs, or ends after the makespan");
    if (m.peakMemoryBytes < 0 || m.numSends < 0)
      fail(what + ": negative peak memory or send count");
    for (const ActionTiming &t : result.timings[r])
      if (!std::isfinite(t.start) || t.start < 0 ||
          !nearlyLess(t.start, t.end) || !nearlyLess(t.end, result.makespan))
        fail(what + ": an action on rank " + std::to_string(r) +
             " has a timing outside [0, makespan]");
    busiest = std::max(busiest, m.busyTime);
  }
  if (!nearlyLess(result.idealTime, result.makespan) ||
      std::fabs(result.idealTime - busiest) > 1e-9 * std::max(1.0, busiest))
    fail(what + ": ideal time is not the busiest rank's busy time, or exceeds "
                "the makespan");
  if (result.makespan > 0 &&
      (result.bubbleRate < -1e-12 || result.bubbleRate > 1 + 1e-12))
    fail(what + ": bubble rate outside [0, 1]");
  return result;
}

/// The compute actions of a rank's program, in order.
inline std::vector<Action> computeOnly(const std::vector<Action> &program) {
  std::vector<Action> out;
  for (const Action &a : program)
    if (a.isCompute())
      out.push_back(a);
  return out;
}

/// Reads `text` back and compares it with `schedule`'s actions (all of them
/// for compute_comms, the compute actions for compute_only).
inline void checkTableRoundTrip(const Schedule &schedule,
                                const std::string &text, TableFormat format,
                                const std::string &what) {
  llvm::Expected<ImportedTable> table = importTable(text, format);
  if (!table)
    fail(what + ": the exported " + tableFormatName(format).str() +
         " table does not read back: " + llvm::toString(table.takeError()) +
         "\n" + text);
  // Trailing ranks without actions export as empty lines; compare the rest.
  size_t ranks = std::max(schedule.ranks.size(), table->schedule.ranks.size());
  for (size_t r = 0; r < ranks; ++r) {
    std::vector<Action> expected, actual;
    if (r < schedule.ranks.size())
      expected = format == TableFormat::ComputeComms
                     ? schedule.ranks[r]
                     : computeOnly(schedule.ranks[r]);
    if (r < table->schedule.ranks.size())
      actual = table->schedule.ranks[r];
    if (expected.size() != actual.size())
      fail(what + ": the " + tableFormatName(format).str() +
           " table reads back with another number of actions on rank " +
           std::to_string(r) + "\n" + text);
    for (size_t i = 0; i < expected.size(); ++i) {
      Action e = expected[i], a = actual[i];
      // A Forward overlapped with something other than a backward exports
      // as a plain forward.
      if (e.overlapWithNext && !startsOverlapPair(expected, i))
        e.overlapWithNext = false;
      if (!(e == a))
        fail(what + ": the " + tableFormatName(format).str() +
             " table reads back " + label(a) + " for " + label(e) +
             " on rank " + std::to_string(r) + " at " + std::to_string(i) +
             "\n" + text);
    }
  }
}

/// Every invariant of a schedule that passed checkSchedule() and
/// completed findDeadlock().
inline void checkValidSchedule(const PipelineModel &model,
                               const Schedule &schedule,
                               const std::string &what) {
  SimulationResult plain = simulateChecked(model, schedule, what);
  (void)renderTimeline(model, schedule, plain);
  (void)renderReport(model, schedule, plain);
  (void)chromeTraceJSON(model, schedule, plain);
  (void)metricsJSON(model, schedule, plain);
  (void)renderSVG(model, schedule, plain, what);

  if (hasCommunication(schedule)) {
    if (llvm::Expected<std::string> text =
            exportTable(schedule, {TableFormat::ComputeComms, false, false}))
      checkTableRoundTrip(schedule, *text, TableFormat::ComputeComms, what);
    else
      (void)takeMessage(text.takeError(), "exportTable");
    return;
  }

  // Compute-only: PyTorch's table, then communication.
  for (bool align : {false, true}) {
    llvm::Expected<std::string> text =
        exportTable(schedule, {TableFormat::ComputeOnly, align, align});
    if (!text) {
      // A stage whose compute actions are on two ranks cannot be written.
      (void)takeMessage(text.takeError(), "exportTable");
      continue;
    }
    checkTableRoundTrip(schedule, *text, TableFormat::ComputeOnly, what);
  }

  Schedule withComm = insertCommunication(model, schedule);
  std::string commWhat = what + " after insertCommunication";
  std::vector<Problem> problems = checkSchedule(model, withComm);
  if (!problems.empty())
    fail(commWhat + " fails checkSchedule: " + firstProblem(problems));
  DeadlockReport deadlock = findDeadlock(model, withComm);
  if (!deadlock.completed)
    fail(commWhat + " deadlocks: " + firstProblem(deadlock.blocked));
  for (size_t r = 0; r < schedule.ranks.size(); ++r) {
    std::vector<Action> before = computeOnly(schedule.ranks[r]),
                        after = computeOnly(withComm.ranks[r]);
    if (!(before == after))
      fail(commWhat + ": the compute actions of rank " + std::to_string(r) +
           " changed");
  }
  SimulationResult comm = simulateChecked(model, withComm, commWhat);
  for (size_t r = 0; r < schedule.ranks.size(); ++r) {
    if (std::fabs(comm.ranks[r].busyTime - plain.ranks[r].busyTime) >
        1e-9 * std::max(1.0, plain.ranks[r].busyTime))
      fail(commWhat + ": rank " + std::to_string(r) + " busy time changed");
    if (comm.ranks[r].numSends != plain.ranks[r].numSends)
      fail(commWhat + ": rank " + std::to_string(r) + " sends " +
           std::to_string(comm.ranks[r].numSends) +
           " messages, but the "
           "compute-only schedule implies " +
           std::to_string(plain.ranks[r].numSends));
  }
  // Explicit receives can only delay an action (sends are eager, a receive
  // completes when its payload can be there), never speed it up.
  if (!nearlyLess(plain.makespan, comm.makespan))
    fail(commWhat + ": makespan " + std::to_string(comm.makespan) +
         " is shorter than the compute-only schedule's " +
         std::to_string(plain.makespan));
  if (llvm::Expected<std::string> text =
          exportTable(withComm, {TableFormat::ComputeComms, false, false}))
    checkTableRoundTrip(withComm, *text, TableFormat::ComputeComms, commWhat);
  else
    (void)takeMessage(text.takeError(), "exportTable");
}

} // namespace ppfuzz

#endif // PP_FUZZ_SCHEDULEINVARIANTS_H
