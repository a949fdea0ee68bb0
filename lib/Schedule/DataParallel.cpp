//===- DataParallel.cpp - gradient all-reduce placement and cost ----------===//
//
// See pp/Schedule/DataParallel.h.
//
//===----------------------------------------------------------------------===//

#include "pp/Schedule/DataParallel.h"

#include <algorithm>
#include <map>

using namespace mlir::pp::sched;

double mlir::pp::sched::ringAllReduceTime(int64_t bytes,
                                          const DataParallelModel &model) {
  int d = model.replicas;
  if (d <= 1 || bytes <= 0)
    return 0.0;
  double transfer = model.bandwidth > 0
                        ? 2.0 * (d - 1) / d * static_cast<double>(bytes) /
                              model.bandwidth * 1e6
                        : 0.0;
  return transfer + 2.0 * (d - 1) * model.latency;
}

std::vector<AllReducePlacement>
mlir::pp::sched::placeAllReduces(const Schedule &schedule) {
  std::vector<AllReducePlacement> placements;
  for (size_t r = 0; r < schedule.ranks.size(); ++r) {
    // The last action of each stage that adds to its parameter gradients.
    std::map<int, size_t> last;
    const std::vector<Action> &program = schedule.ranks[r];
    for (size_t i = 0; i < program.size(); ++i)
      if (program[i].kind == ActionKind::BackwardWeight ||
          program[i].kind == ActionKind::Backward)
        last[program[i].stage] = i;
    std::vector<AllReducePlacement> rank;
    for (auto [stage, index] : last)
      rank.push_back({static_cast<int>(r), stage, index});
    std::stable_sort(
        rank.begin(), rank.end(),
        [](const AllReducePlacement &a, const AllReducePlacement &b) {
          return a.after < b.after;
        });
    placements.insert(placements.end(), rank.begin(), rank.end());
  }
  return placements;
}

DataParallelResult mlir::pp::sched::simulateDataParallel(
    const PipelineModel &model, const Schedule &schedule,
    const SimulationResult &simulation,
    const std::vector<AllReducePlacement> &placements,
    const DataParallelModel &dataParallel) {
  DataParallelResult result;
  size_t numRanks = schedule.ranks.size();
  std::vector<double> lastEnd(numRanks, 0.0), overlapFree(numRanks, 0.0),
      endFree(numRanks, 0.0), busy(numRanks, 0.0);
  for (size_t r = 0; r < numRanks && r < simulation.timings.size(); ++r)
    for (const ActionTiming &t : simulation.timings[r])
      lastEnd[r] = std::max(lastEnd[r], t.end);
  for (size_t r = 0; r < numRanks; ++r)
    endFree[r] = lastEnd[r];
  std::vector<double> overlapEnd = lastEnd, atEndEnd = lastEnd;
  for (const AllReducePlacement &p : placements) {
    if (p.rank < 0 || static_cast<size_t>(p.rank) >= numRanks || p.stage < 0 ||
        p.stage >= model.numStages() ||
        p.after >= simulation.timings[p.rank].size())
      continue;
    int64_t bytes =
        static_cast<size_t>(p.stage) < dataParallel.gradientBytes.size()
            ? dataParallel.gradientBytes[p.stage]
            : 0;
    double time = ringAllReduceTime(bytes, dataParallel);
    double ready = simulation.timings[p.rank][p.after].end;
    double start = std::max(ready, overlapFree[p.rank]);
    overlapFree[p.rank] = start + time;
    result.overlapped.push_back({p.rank, p.stage, start, start + time});
    overlapEnd[p.rank] = std::max(overlapEnd[p.rank], start + time);
    double late = endFree[p.rank];
    endFree[p.rank] = late + time;
    result.atEnd.push_back({p.rank, p.stage, late, late + time});
    atEndEnd[p.rank] = std::max(atEndEnd[p.rank], late + time);
    busy[p.rank] += time;
  }
  for (size_t r = 0; r < numRanks; ++r) {
    result.makespan = std::max(result.makespan, overlapEnd[r]);
    result.makespanAtEnd = std::max(result.makespanAtEnd, atEndEnd[r]);
    result.allReduceTime = std::max(result.allReduceTime, busy[r]);
  }
  return result;
}
