//===- TableCheck.cpp - the checks of an imported schedule table ----------===//
//
// checkTable() and scheduleOf() (Table.h): what import-pp-csv and
// pp-schedule's table option check before they build a schedule.
//
//===----------------------------------------------------------------------===//

#include "pp/Schedule/Table.h"

#include <algorithm>

using namespace mlir::pp::sched;

Schedule mlir::pp::sched::scheduleOf(const PipelineModel &model,
                                     const ImportedTable &table) {
  Schedule schedule = table.schedule;
  schedule.ranks.resize(model.numRanks);
  return schedule;
}

std::vector<TableProblem>
mlir::pp::sched::checkTable(const PipelineModel &model,
                            const ImportedTable &table) {
  Schedule schedule = scheduleOf(model, table);
  auto cellOf = [&](const Problem &p, llvm::StringRef prefix) {
    TableProblem problem;
    problem.message = prefix.str() + p.message;
    problem.rank = std::max(p.rank, -1);
    if (p.rank >= 0 && p.rank < table.numRanks() && p.index >= 0 &&
        p.index < static_cast<int>(table.steps[p.rank].size())) {
      problem.step = table.steps[p.rank][p.index];
      problem.location = table.locations[p.rank][p.index];
    }
    return problem;
  };
  std::vector<TableProblem> problems;
  // Rows past the pipeline's ranks (a trailing blank line reads as one)
  // must be empty: scheduleOf() drops them.
  for (int r = model.numRanks; r < table.numRanks(); ++r)
    if (!table.schedule.ranks[r].empty()) {
      TableProblem problem;
      problem.rank = r;
      problem.step = table.steps[r].front();
      problem.location = table.locations[r].front();
      problem.message = "the row has actions, but the pipeline has " +
                        std::to_string(model.numRanks) + " ranks";
      problems.push_back(problem);
    }
  if (!problems.empty())
    return problems;
  for (const Problem &p : checkSchedule(model, schedule))
    problems.push_back(cellOf(p, ""));
  if (!problems.empty())
    return problems;
  // Building a schedule op wires values by (stage, micro-batch): it needs a
  // valid schedule, and one that deadlocks would hang the runtime.
  DeadlockReport deadlock = findDeadlock(model, schedule);
  if (!deadlock.completed)
    for (const Problem &p : deadlock.blocked)
      problems.push_back(cellOf(p, "deadlock under blocking send/recv: "));
  return problems;
}
