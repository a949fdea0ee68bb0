//===- Compare.cpp - Comparing schedules on one pipeline ------------------===//

#include "pp/Schedule/Compare.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace mlir::pp::sched;

Comparison mlir::pp::sched::compareSchedules(
    const PipelineModel &model, int numMicrobatches,
    const ScheduleOptions &options, const DataParallelModel &dataParallel) {
  Comparison comparison;
  comparison.dataParallel = dataParallel;
  bool replicated = dataParallel.replicas > 1;
  comparison.bounds =
      lowerBounds(model, numMicrobatches, options.memoryLimitBytes);
  ScheduleOptions unlimited = options;
  unlimited.memoryLimitBytes = 0;
  for (const std::string &name : scheduleNames()) {
    ComparisonRow row;
    row.name = name;
    llvm::Expected<Schedule> schedule = buildSchedule(
        name, model, numMicrobatches, name == "auto" ? options : unlimited);
    if (!schedule) {
      row.error = llvm::toString(schedule.takeError());
      row.fits = false;
      comparison.rows.push_back(std::move(row));
      continue;
    }
    SimulationResult result = simulate(model, *schedule);
    row.makespan = result.makespan;
    row.bubbleRate = result.bubbleRate;
    row.spanBubbleRate = result.spanBubbleRate;
    row.maxRankSpan = result.maxRankSpan;
    for (const RankMetrics &rank : result.ranks) {
      row.peakMemoryPerRank.push_back(rank.peakMemoryBytes);
      row.peakMemoryBytes = std::max(row.peakMemoryBytes, rank.peakMemoryBytes);
      row.numMessages += rank.numSends;
    }
    row.fits = options.memoryLimitBytes <= 0 ||
               row.peakMemoryBytes <= options.memoryLimitBytes;
    if (row.fits)
      row.gap = optimalityGap(row.makespan, comparison.bounds.best);
    if (replicated) {
      DataParallelResult step = simulateDataParallel(
          model, *schedule, result, placeAllReduces(*schedule), dataParallel);
      row.dataParallelStep = step.makespan;
      row.dataParallelStepAtEnd = step.makespanAtEnd;
    }
    comparison.rows.push_back(std::move(row));
  }
  auto stepOf = [&](const ComparisonRow &row) {
    return replicated ? row.dataParallelStep : row.makespan;
  };
  for (size_t i = 0; i < comparison.rows.size(); ++i) {
    const ComparisonRow &row = comparison.rows[i];
    if (!row.error.empty() || !row.fits)
      continue;
    if (comparison.recommended < 0) {
      comparison.recommended = static_cast<int>(i);
      continue;
    }
    const ComparisonRow &best = comparison.rows[comparison.recommended];
    if (stepOf(row) < stepOf(best) ||
        (stepOf(row) == stepOf(best) &&
         row.peakMemoryBytes < best.peakMemoryBytes))
      comparison.recommended = static_cast<int>(i);
  }
  return comparison;
}

/// 0.75 -> "0.75", 3 -> "3", 1/3 -> "0.333333".
static std::string number(double value) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::format("%.6g", value);
  return text;
}

std::string mlir::pp::sched::renderComparison(const PipelineModel &model,
                                              const Comparison &comparison,
                                              const ScheduleOptions &options) {
  int64_t stash = 0;
  for (const StageInfo &stage : model.stages)
    stash = std::max(stash, stage.stashBytes);
  auto inStashes = [&](int64_t bytes) {
    return stash > 0 ? number(static_cast<double>(bytes) / stash) : "-";
  };

  const DataParallelModel &dp = comparison.dataParallel;
  bool replicated = dp.replicas > 1;
  std::string text;
  llvm::raw_string_ostream os(text);
  if (replicated)
    os << dp.replicas << " replicas, ring all-reduce at "
       << llvm::format("%g", dp.bandwidth) << " bytes/s, "
       << llvm::format("%g", dp.latency)
       << " us per message; each stage's all-reduce after its last W\n";
  os << "| schedule | makespan (us) | bubble rate | span bubble rate | gap | "
        "peak memory (bytes) | peak (M_B) | per rank (M_B) | P2P messages | "
        "fits |";
  if (replicated)
    os << " step with all-reduces (us) | reduced at the end (us) |";
  os << "\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | --- "
        "|";
  if (replicated)
    os << " ---: | ---: |";
  os << "\n";
  for (const ComparisonRow &row : comparison.rows) {
    if (!row.error.empty()) {
      // The first clause says what the schedule needs; the rest of the
      // generator's message is for pp-schedule's diagnostic.
      llvm::StringRef reason = row.error;
      reason = reason.substr(0, reason.find(", but"));
      reason = reason.substr(0, reason.find(';'));
      os << "| " << row.name
         << " | - | - | - | - | - | - | - | - | no: " << reason << " |"
         << (replicated ? " - | - |" : "") << "\n";
      continue;
    }
    os << "| " << row.name << " | " << number(row.makespan) << " | "
       << number(row.bubbleRate) << " | " << number(row.spanBubbleRate) << " | "
       << (row.gap >= 0 ? number(row.gap) : std::string("-")) << " | "
       << row.peakMemoryBytes << " | " << inStashes(row.peakMemoryBytes)
       << " | ";
    for (size_t r = 0; r < row.peakMemoryPerRank.size(); ++r)
      os << (r ? " " : "") << inStashes(row.peakMemoryPerRank[r]);
    os << " | " << row.numMessages << " | " << (row.fits ? "yes" : "no")
       << " |";
    if (replicated)
      os << " " << number(row.dataParallelStep) << " | "
         << number(row.dataParallelStepAtEnd) << " |";
    os << "\n";
  }
  std::string limit =
      options.memoryLimitBytes > 0
          ? "a memory limit of " + std::to_string(options.memoryLimitBytes) +
                " bytes (" + inStashes(options.memoryLimitBytes) +
                " M_B) per rank"
          : "no memory limit";
  if (comparison.recommended < 0) {
    os << "no schedule fits " << limit << "\n";
  } else {
    const ComparisonRow &best = comparison.rows[comparison.recommended];
    os << renderBounds(comparison.bounds, best.makespan) << "\n";
    os << "recommended under " << limit << ": " << best.name << " (";
    if (replicated)
      os << "step with the all-reduces " << number(best.dataParallelStep)
         << " us, ";
    os << "makespan " << number(best.makespan) << " us, bubble rate "
       << number(best.bubbleRate) << ", peak "
       << inStashes(best.peakMemoryBytes) << " M_B)\n";
  }
  return text;
}
