//===- DataParallel.cpp - gradient all-reduce placement and cost ----------===//
//
// See pp/Schedule/DataParallel.h.
//
//===----------------------------------------------------------------------===//

#include "pp/Schedule/DataParallel.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cmath>
#include <map>

using namespace mlir::pp::sched;

double mlir::pp::sched::ringAllReduceTime(int64_t bytes,
                                          const DataParallelModel &model) {
  int d = model.replicas;
  if (d <= 1)
    return 0.0;
  // A stage without parameters still takes part in its collective (the MPI
  // transport runs it with no bytes): it pays the messages' latency.
  bytes = std::max<int64_t>(bytes, 0);
  double transfer = model.bandwidth > 0
                        ? 2.0 * (d - 1) / d * static_cast<double>(bytes) /
                              model.bandwidth * 1e6
                        : 0.0;
  return transfer + 2.0 * (d - 1) * model.latency;
}

std::optional<RingFit>
mlir::pp::sched::fitRing(const std::vector<AllReduceTiming> &timings,
                         int replicas, double priorLatency) {
  if (replicas < 2)
    return std::nullopt;
  std::map<int64_t, std::vector<double>> bySize;
  for (const AllReduceTiming &t : timings)
    if (t.bytes > 0 && t.time > 0 && std::isfinite(t.time))
      bySize[t.bytes].push_back(t.time);
  if (bySize.empty())
    return std::nullopt;
  // (bytes, median time) per size, bytes ascending.
  std::vector<std::pair<double, double>> points;
  for (auto &[bytes, times] : bySize) {
    std::sort(times.begin(), times.end());
    size_t n = times.size();
    points.push_back(
        {static_cast<double>(bytes),
         n % 2 ? times[n / 2] : 0.5 * (times[n / 2 - 1] + times[n / 2])});
  }
  // T(n) = transfer * n / bandwidth + messages * latency, microseconds.
  double transfer = 2.0 * (replicas - 1) / replicas * 1e6;
  double messages = 2.0 * (replicas - 1);
  if (points.size() >= 2) {
    double k = static_cast<double>(points.size()), sx = 0, sy = 0, sxx = 0,
           sxy = 0;
    for (auto [x, y] : points) {
      sx += x;
      sy += y;
      sxx += x * x;
      sxy += x * y;
    }
    double slope = (k * sxy - sx * sy) / (k * sxx - sx * sx);
    double intercept = (sy - slope * sx) / k;
    if (intercept < 0) {
      slope = sxy / sxx;
      intercept = 0;
    }
    if (slope > 0 && std::isfinite(slope))
      return RingFit{transfer / slope, intercept / messages};
  }
  auto [bytes, time] = points.back();
  double latency = std::clamp(std::isnan(priorLatency) ? 0.0 : priorLatency,
                              0.0, 0.5 * time / messages);
  return RingFit{transfer * bytes / (time - messages * latency), latency};
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

std::vector<AllReducePlacement>
mlir::pp::sched::deferAllReduces(std::vector<AllReducePlacement> placements,
                                 const Schedule &schedule) {
  for (AllReducePlacement &p : placements)
    if (p.rank >= 0 && static_cast<size_t>(p.rank) < schedule.ranks.size() &&
        !schedule.ranks[p.rank].empty())
      p.after = schedule.ranks[p.rank].size() - 1;
  return placements;
}

std::vector<AllReducePlacement>
mlir::pp::sched::bucketAllReduces(std::vector<AllReducePlacement> placements,
                                  const std::vector<int64_t> &gradientBytes,
                                  int64_t bucketBytes) {
  if (bucketBytes <= 0)
    return placements;
  auto bytesOf = [&](int stage) -> int64_t {
    return stage >= 0 && static_cast<size_t>(stage) < gradientBytes.size()
               ? std::max<int64_t>(0, gradientBytes[stage])
               : 0;
  };
  // Placements come rank by rank, in program order within a rank.
  for (size_t begin = 0; begin < placements.size();) {
    int rank = placements[begin].rank, bucket = 0;
    size_t end = begin;
    while (end < placements.size() && placements[end].rank == rank)
      ++end;
    for (size_t first = begin; first < end; ++bucket) {
      int64_t bytes = bytesOf(placements[first].stage);
      size_t last = first;
      while (last + 1 < end &&
             bytes + bytesOf(placements[last + 1].stage) <= bucketBytes)
        bytes += bytesOf(placements[++last].stage);
      for (size_t i = first; i <= last; ++i) {
        placements[i].after = placements[last].after;
        placements[i].bucket = bucket;
      }
      first = last + 1;
    }
    begin = end;
  }
  return placements;
}

/// simulateDataParallel over the replicas' simulations (at least one, all
/// of `schedule`): a rank's action ends when its last replica ends it.
static DataParallelResult
simulateReplicas(const PipelineModel &model, const Schedule &schedule,
                 const std::vector<const SimulationResult *> &replicas,
                 const std::vector<AllReducePlacement> &placements,
                 const DataParallelModel &dataParallel) {
  DataParallelResult result;
  size_t numRanks = schedule.ranks.size();
  std::vector<double> lastEnd(numRanks, 0.0), overlapFree(numRanks, 0.0),
      endFree(numRanks, 0.0), busy(numRanks, 0.0);
  for (const SimulationResult *replica : replicas)
    for (size_t r = 0; r < numRanks && r < replica->timings.size(); ++r)
      for (const ActionTiming &t : replica->timings[r])
        lastEnd[r] = std::max(lastEnd[r], t.end);
  for (size_t r = 0; r < numRanks; ++r)
    endFree[r] = lastEnd[r];
  std::vector<double> overlapEnd = lastEnd, atEndEnd = lastEnd;
  auto valid = [&](const AllReducePlacement &p) {
    return p.rank >= 0 && static_cast<size_t>(p.rank) < numRanks &&
           p.stage >= 0 && p.stage < model.numStages() &&
           llvm::all_of(
               replicas,
               [&](const SimulationResult *replica) {
                 return static_cast<size_t>(p.rank) < replica->timings.size() &&
                        p.after < replica->timings[p.rank].size();
               });
  };
  auto bytesOf = [&](int stage) {
    return static_cast<size_t>(stage) < dataParallel.gradientBytes.size()
               ? dataParallel.gradientBytes[stage]
               : 0;
  };
  for (size_t first = 0; first < placements.size();) {
    // One collective: a placement alone, or the consecutive members of
    // its bucket on its rank.
    const AllReducePlacement &p = placements[first];
    size_t last = first;
    while (p.bucket >= 0 && last + 1 < placements.size() &&
           placements[last + 1].rank == p.rank &&
           placements[last + 1].bucket == p.bucket)
      ++last;
    int64_t bytes = 0;
    size_t after = 0;
    bool any = false;
    for (size_t i = first; i <= last; ++i)
      if (valid(placements[i])) {
        bytes += bytesOf(placements[i].stage);
        after = std::max(after, placements[i].after);
        any = true;
      }
    if (any) {
      double time = ringAllReduceTime(bytes, dataParallel);
      // Every replica must reach it.
      double ready = 0.0;
      for (const SimulationResult *replica : replicas)
        ready = std::max(ready, replica->timings[p.rank][after].end);
      double start = std::max(ready, overlapFree[p.rank]);
      overlapFree[p.rank] = start + time;
      overlapEnd[p.rank] = std::max(overlapEnd[p.rank], start + time);
      double late = endFree[p.rank];
      endFree[p.rank] = late + time;
      atEndEnd[p.rank] = std::max(atEndEnd[p.rank], late + time);
      busy[p.rank] += time;
      for (size_t i = first; i <= last; ++i)
        if (valid(placements[i])) {
          result.overlapped.push_back(
              {p.rank, placements[i].stage, start, start + time});
          result.atEnd.push_back(
              {p.rank, placements[i].stage, late, late + time});
        }
    }
    first = last + 1;
  }
  for (size_t r = 0; r < numRanks; ++r) {
    result.makespan = std::max(result.makespan, overlapEnd[r]);
    result.makespanAtEnd = std::max(result.makespanAtEnd, atEndEnd[r]);
    result.allReduceTime = std::max(result.allReduceTime, busy[r]);
  }
  return result;
}

DataParallelResult mlir::pp::sched::simulateDataParallel(
    const PipelineModel &model, const Schedule &schedule,
    const SimulationResult &simulation,
    const std::vector<AllReducePlacement> &placements,
    const DataParallelModel &dataParallel) {
  return simulateReplicas(model, schedule, {&simulation}, placements,
                          dataParallel);
}

DataParallelResult mlir::pp::sched::simulateDataParallel(
    const PipelineModel &model, const Schedule &schedule,
    const std::vector<SimulationResult> &replicaSimulations,
    const std::vector<AllReducePlacement> &placements,
    const DataParallelModel &dataParallel) {
  std::vector<const SimulationResult *> replicas;
  for (const SimulationResult &r : replicaSimulations)
    replicas.push_back(&r);
  if (replicas.empty())
    return {};
  return simulateReplicas(model, schedule, replicas, placements, dataParallel);
}

std::vector<mlir::pp::sched::TraceSpan>
mlir::pp::sched::allReduceSpans(const DataParallelResult &step,
                                const std::vector<int64_t> &gradientBytes) {
  std::vector<TraceSpan> spans;
  for (const DataParallelResult::Timing &t : step.overlapped) {
    int64_t bytes =
        t.stage >= 0 && static_cast<size_t>(t.stage) < gradientBytes.size()
            ? gradientBytes[t.stage]
            : 0;
    spans.push_back({t.rank, t.stage, bytes, t.start, t.end});
  }
  return spans;
}
