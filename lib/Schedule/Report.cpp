//===- Report.cpp - Timelines, reports and traces of simulations ---------===//
//
// Text and JSON renderings of a SimulationResult: an ASCII timeline in the
// style of the zero-bubble paper's figures and of torch.distributed.
// pipelining's schedule visualizer, a per-rank text report, Chrome trace
// JSON (the Trace Event Format, https://docs.google.com/document/d/
// 1CvAClvFfyA5R-PhYUmn5OOQtYMH4h6I0nSsKchNAySU) and a metrics JSON object.
//
//===----------------------------------------------------------------------===//

#include "Text.h"
#include "pp/Schedule/AutoSchedule.h"
#include "pp/Schedule/Schedule.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>

using namespace mlir::pp::sched;
using namespace mlir::pp::sched::detail;

namespace {

/// The most cells a timeline row gets before the cell is scaled up.
constexpr int64_t kMaxTimelineCells = 2000;

/// "Rank 7: " with the number padded so that rows align for P >= 10.
std::string rankPrefix(const char *word, int rank, int numRanks) {
  std::string number = std::to_string(rank);
  size_t width = std::to_string(std::max(numRanks - 1, 0)).size();
  if (number.size() < width)
    number.insert(0, width - number.size(), ' ');
  return std::string(word) + " " + number + ":";
}

const char *category(ActionKind kind) {
  switch (kind) {
  case ActionKind::Forward:
    return "forward";
  case ActionKind::Backward:
    return "backward";
  case ActionKind::BackwardInput:
    return "backward_input";
  case ActionKind::BackwardWeight:
    return "backward_weight";
  case ActionKind::Send:
    return "send";
  case ActionKind::Recv:
    return "recv";
  }
  return "unknown";
}

/// Label of the compute action program[i] on a timeline: "F3&B1" for the
/// forward of an F&B pair, "" for the backward of one (drawn with its
/// forward), label() otherwise.
/// With `withStage` (a rank that runs several stages) labels carry the stage
/// in front, as in PyTorch's schedule tables: "2F3" is the forward of stage 2
/// on micro-batch 3.
std::string timelineLabel(const std::vector<Action> &program, size_t i,
                          bool withStage) {
  auto one = [&](const Action &action) {
    return (withStage ? std::to_string(action.stage) : std::string()) +
           label(action);
  };
  if (startsOverlapPair(program, i))
    return one(program[i]) + "&" + one(program[i + 1]);
  if (i > 0 && startsOverlapPair(program, i - 1))
    return "";
  return one(program[i]);
}

/// True if the compute actions of `program` belong to more than one stage.
bool runsSeveralStages(const std::vector<Action> &program) {
  int stage = -1;
  for (const Action &action : program) {
    if (!action.isCompute())
      continue;
    if (stage >= 0 && action.stage != stage)
      return true;
    stage = action.stage;
  }
  return false;
}

} // namespace

/// Timeline layout. The cell is the smallest positive compute duration of the
/// simulation, or the model's latency if that is positive and smaller. If the
/// step (the makespan, or the last all-reduce's end if later) then needs
/// more than 2000 cells, the cell is multiplied by the smallest integer that
/// brings it within 2000 cells, and a first line says so ("one cell is 2 us
/// (scaled to fit 2000 cells)"). Every cell is W = (longest label: compute
/// or "A<stage>") + 1 characters wide:
/// - the first cell of an action: its label, left-aligned, padded to W;
/// - the other cells of an action: '-' * (W - 1) and a space;
/// - an idle cell: '_' * (W - 1) and a space.
/// An action covers cells round(start / cell) to round(end / cell), at least
/// one. Send/Recv and actions of zero duration take no time and are not
/// drawn. An F&B pair (Action::overlapWithNext) is drawn once, labelled
/// "F3&B1" (forward, then backward). Each row drops its trailing idle cells
/// and trailing spaces; each row, also the last, ends in a newline. With a
/// scaled cell, actions may share a cell: the later label wins and
/// continuation marks only fill idle cells. A rank's all-reduces go on an
/// "  AR r:" row under its own, continued with '='; a bucket's members
/// share one interval, drawn once with the first member's stage.
std::string mlir::pp::sched::renderTimeline(
    const PipelineModel &model, const Schedule &schedule,
    const SimulationResult &result, const std::vector<TraceSpan> &allReduces) {
  int numRanks = static_cast<int>(schedule.ranks.size());
  double cell = 0.0;
  size_t labelWidth = 1;
  std::vector<bool> withStage(numRanks);
  for (int r = 0; r < numRanks; ++r)
    withStage[r] = runsSeveralStages(schedule.ranks[r]);
  for (int r = 0; r < numRanks; ++r)
    for (size_t i = 0; i < schedule.ranks[r].size(); ++i) {
      const Action &action = schedule.ranks[r][i];
      if (!action.isCompute())
        continue;
      labelWidth = std::max(
          labelWidth, timelineLabel(schedule.ranks[r], i, withStage[r]).size());
      double duration = result.timings[r][i].end - result.timings[r][i].start;
      if (duration > 0 && (cell == 0.0 || duration < cell))
        cell = duration;
    }
  if (model.latency > 0 && (cell == 0.0 || model.latency < cell))
    cell = model.latency;
  if (cell == 0.0)
    cell = 1.0; // Nothing takes time: nothing is drawn.
  // The all-reduces run past the pipeline's last action.
  std::vector<AllReduceInterval> intervals = allReduceIntervals(allReduces);
  double horizon = result.makespan;
  for (const TraceSpan &span : allReduces) {
    if (std::isfinite(span.end))
      horizon = std::max(horizon, span.end);
    labelWidth =
        std::max(labelWidth, ("A" + std::to_string(span.stage)).size());
  }

  // Count cells in double: a tiny cell against a long makespan would
  // overflow an integer.
  auto cellsFor = [&](double c) { return std::ceil(horizon / c - 1e-9); };
  std::string out;
  double cells = cellsFor(cell);
  if (cells > kMaxTimelineCells) {
    double factor = std::ceil(cells / static_cast<double>(kMaxTimelineCells));
    cell *= factor;
    cells = std::min<double>(cellsFor(cell), kMaxTimelineCells);
    out += "one cell is " + formatNumber(cell) + " us (scaled to fit " +
           std::to_string(kMaxTimelineCells) + " cells)\n";
  }
  int64_t numCells = static_cast<int64_t>(std::max(cells, 0.0));

  size_t width = labelWidth + 1;
  std::string idle = std::string(width - 1, '_') + " ";
  enum CellKind : uint8_t { Idle, Label, More };
  std::vector<uint8_t> kinds;
  std::vector<std::string> labels;
  // Marks [start, end) with `text` in its first cell.
  auto mark = [&](double start, double end, std::string text) {
    int64_t first = static_cast<int64_t>(std::llround(start / cell));
    int64_t last = std::max<int64_t>(first + 1, std::llround(end / cell));
    first = std::min(first, numCells - 1);
    last = std::min(last, numCells);
    if (first < 0)
      return;
    kinds[first] = Label;
    labels[first] = std::move(text);
    for (int64_t c = first + 1; c < last; ++c)
      if (kinds[c] == Idle)
        kinds[c] = More;
  };
  // One row of the marked cells, continuation cells drawn with `fill`.
  auto row = [&](std::string prefix, char fill) {
    std::string more = std::string(width - 1, fill) + " ";
    std::string text = prefix + " ";
    int64_t end = numCells;
    while (end > 0 && kinds[end - 1] == Idle)
      --end;
    for (int64_t c = 0; c < end; ++c) {
      if (kinds[c] == Label) {
        std::string label = labels[c];
        label.resize(width, ' ');
        text += label;
      } else {
        text += kinds[c] == More ? more : idle;
      }
    }
    while (!text.empty() && text.back() == ' ')
      text.pop_back();
    out += text;
    out += '\n';
  };
  for (int r = 0; r < numRanks; ++r) {
    kinds.assign(numCells, Idle);
    labels.assign(numCells, std::string());
    for (size_t i = 0; i < schedule.ranks[r].size(); ++i) {
      const Action &action = schedule.ranks[r][i];
      const ActionTiming &t = result.timings[r][i];
      if (!action.isCompute() || !(t.end > t.start))
        continue;
      std::string text = timelineLabel(schedule.ranks[r], i, withStage[r]);
      if (text.empty())
        continue; // The backward of an F&B pair, drawn with its forward.
      mark(t.start, t.end, std::move(text));
    }
    row(rankPrefix("Rank", r, numRanks), '-');
    kinds.assign(numCells, Idle);
    labels.assign(numCells, std::string());
    bool any = false;
    // A bucket is drawn once, labelled with its first stage.
    for (const AllReduceInterval &reduce : intervals) {
      if (reduce.rank != r || !(reduce.end > reduce.start) ||
          !std::isfinite(reduce.end))
        continue;
      mark(reduce.start, reduce.end, "A" + std::to_string(reduce.stages[0]));
      any = true;
    }
    if (any)
      row(rankPrefix("  AR", r, numRanks), '=');
  }
  return out;
}

std::vector<AllReduceInterval>
mlir::pp::sched::allReduceIntervals(const std::vector<TraceSpan> &spans) {
  std::vector<AllReduceInterval> intervals;
  for (const TraceSpan &span : spans) {
    if (!intervals.empty()) {
      AllReduceInterval &last = intervals.back();
      if (last.rank == span.rank && last.start == span.start &&
          last.end == span.end) {
        last.stages.push_back(span.stage);
        last.bytes += span.bytes;
        continue;
      }
    }
    intervals.push_back(
        {span.rank, {span.stage}, span.bytes, span.start, span.end});
  }
  return intervals;
}

std::vector<RankAllReduces>
mlir::pp::sched::allReducesPerRank(const std::vector<TraceSpan> &spans,
                                   int numRanks) {
  std::vector<RankAllReduces> ranks(std::max(numRanks, 0));
  for (const AllReduceInterval &reduce : allReduceIntervals(spans)) {
    if (reduce.rank < 0 || reduce.rank >= numRanks)
      continue;
    RankAllReduces &rank = ranks[reduce.rank];
    rank.end = std::max(rank.end, reduce.end);
    rank.time += reduce.end - reduce.start;
  }
  return ranks;
}

/// Layout:
///   pipeline: 4 ranks, 4 stages, 8 micro-batches
///   rank 0: end 22 us, busy 16 us, bubble 0.272727 (27.2727%), peak memory
///     4 bytes (4 M_B), sends 8                       <- one line per rank
///   makespan: 22 us
///   ideal time: 16 us
///   bubble rate: 0.272727 (27.2727%)
///   bubble / ideal time: 0.375
/// Numbers print as formatNumber() does: integers without a fraction, other
/// values with up to 6 significant digits.
std::string mlir::pp::sched::renderReport(const PipelineModel &model,
                                          const Schedule &schedule,
                                          const SimulationResult &result) {
  auto plural = [](int64_t n, const char *word, const char *words) {
    return std::to_string(n) + " " + (n == 1 ? word : words);
  };
  int numRanks = static_cast<int>(result.ranks.size());
  std::string out =
      "pipeline: " + plural(model.numRanks, "rank", "ranks") + ", " +
      plural(model.numStages(), "stage", "stages") + ", " +
      plural(schedule.numMicrobatches, "micro-batch", "micro-batches") + "\n";
  auto bubble = [](double rate) {
    return formatNumber(rate) + " (" + formatNumber(rate * 100.0) + "%)";
  };
  for (int r = 0; r < numRanks; ++r) {
    const RankMetrics &m = result.ranks[r];
    out += rankPrefix("rank", r, numRanks) + " end " + formatNumber(m.endTime) +
           " us, busy " + formatNumber(m.busyTime) + " us, bubble " +
           bubble(m.bubbleRate) + ", peak memory " +
           plural(m.peakMemoryBytes, "byte", "bytes") + " (" +
           formatNumber(m.peakMemoryInStashes) + " M_B), sends " +
           std::to_string(m.numSends) + "\n";
  }
  out += "makespan: " + formatNumber(result.makespan) + " us\n";
  out += "ideal time: " + formatNumber(result.idealTime) + " us\n";
  out += "bubble rate: " + bubble(result.bubbleRate) + "\n";
  out += "bubble / ideal time: " + formatNumber(result.bubbleOverIdeal) + "\n";
  out += "max rank span: " + formatNumber(result.maxRankSpan) +
         " us (one step when steps overlap)\n";
  out += "span bubble rate: " + bubble(result.spanBubbleRate) + "\n";
  // Bounds for every schedule within this one's peak memory per rank.
  int64_t peak = 0;
  for (const RankMetrics &rank : result.ranks)
    peak = std::max(peak, rank.peakMemoryBytes);
  out += renderBounds(lowerBounds(model, schedule.numMicrobatches, peak),
                      result.makespan) +
         "\n";
  return out;
}

/// {"traceEvents": [...]} with one event per line; each event is
/// {"args": {"microbatch", "stage"}, "cat": "forward" | "backward" |
/// "backward_input" | "backward_weight", "dur", "name": label, "ph": "X",
/// "pid": 0, "tid": rank, "ts"} (keys sorted, as llvm::json prints them).
/// All-reduces go to pid 1, a row (tid) per (rank, stage) in that order,
/// with args {"bytes", "rank", "stage"}, and metadata ("M") events name the
/// two processes and the rows.
std::string mlir::pp::sched::chromeTraceJSON(
    const PipelineModel &model, const Schedule &schedule,
    const SimulationResult &result, const std::vector<TraceSpan> &allReduces) {
  (void)model;
  std::string out = "{\"traceEvents\": [";
  llvm::raw_string_ostream os(out);
  bool first = true;
  for (size_t r = 0; r < schedule.ranks.size(); ++r)
    for (size_t i = 0; i < schedule.ranks[r].size(); ++i) {
      const Action &action = schedule.ranks[r][i];
      if (!action.isCompute())
        continue;
      const ActionTiming &t = result.timings[r][i];
      llvm::json::Object event{
          {"name", label(action)},
          {"cat", category(action.kind)},
          {"ph", "X"},
          {"pid", 0},
          {"tid", static_cast<int64_t>(r)},
          {"ts", t.start},
          {"dur", t.end - t.start},
          {"args", llvm::json::Object{{"stage", action.stage},
                                      {"microbatch", action.microbatch}}}};
      os << (first ? "\n" : ",\n") << llvm::json::Value(std::move(event));
      first = false;
    }
  // The all-reduces in a process of their own, a row per rank and stage:
  // a rank's collectives may run at once, and beside its compute.
  std::vector<std::pair<int, int>> rows;
  for (const TraceSpan &span : allReduces)
    rows.push_back({span.rank, span.stage});
  llvm::sort(rows);
  rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
  auto rowOf = [&](const TraceSpan &span) {
    return static_cast<int64_t>(
        llvm::lower_bound(rows, std::make_pair(span.rank, span.stage)) -
        rows.begin());
  };
  for (const TraceSpan &span : allReduces) {
    llvm::json::Object event{
        {"name", "ALLREDUCE_S" + std::to_string(span.stage)},
        {"cat", "allreduce"},
        {"ph", "X"},
        {"pid", 1},
        {"tid", rowOf(span)},
        {"ts", span.start},
        {"dur", span.end - span.start},
        {"args", llvm::json::Object{{"rank", span.rank},
                                    {"stage", span.stage},
                                    {"bytes", span.bytes}}}};
    os << (first ? "\n" : ",\n") << llvm::json::Value(std::move(event));
    first = false;
  }
  if (!rows.empty()) {
    auto meta = [&](const char *name, int pid, std::optional<int64_t> tid,
                    std::string text) {
      llvm::json::Object event{{"name", name},
                               {"ph", "M"},
                               {"pid", pid},
                               {"args", llvm::json::Object{{"name", text}}}};
      if (tid)
        event["tid"] = *tid;
      os << ",\n" << llvm::json::Value(std::move(event));
    };
    meta("process_name", 0, std::nullopt, "ranks");
    meta("process_name", 1, std::nullopt, "all-reduces");
    for (auto [i, row] : llvm::enumerate(rows))
      meta("thread_name", 1, static_cast<int64_t>(i),
           "rank " + std::to_string(row.first) + ", stage " +
               std::to_string(row.second));
  }
  os << "\n]}\n";
  return out;
}

/// Pretty-printed (2-space indent) JSON object; see the header for the keys.
std::string mlir::pp::sched::metricsJSON(
    const PipelineModel &model, const Schedule &schedule,
    const SimulationResult &result, const std::vector<TraceSpan> &allReduces,
    const std::vector<TraceSpan> &allReducesAtEnd) {
  std::vector<RankAllReduces> reduced =
      allReducesPerRank(allReduces, static_cast<int>(result.ranks.size()));
  double step = result.makespan;
  llvm::json::Array ranks;
  for (size_t r = 0; r < result.ranks.size(); ++r) {
    const RankMetrics &m = result.ranks[r];
    llvm::json::Object rank{{"rank", static_cast<int64_t>(r)},
                            {"busy_time_us", m.busyTime},
                            {"end_time_us", m.endTime},
                            {"bubble_rate", m.bubbleRate},
                            {"first_start_us", m.firstStart},
                            {"span_us", m.span},
                            {"peak_memory_bytes", m.peakMemoryBytes},
                            {"peak_memory_stashes", m.peakMemoryInStashes},
                            {"num_sends", m.numSends}};
    if (!allReduces.empty()) {
      double end = std::max(m.endTime, reduced[r].end);
      rank["allreduce_time_us"] = reduced[r].time;
      rank["end_with_allreduces_us"] = end;
      step = std::max(step, end);
    }
    ranks.push_back(std::move(rank));
  }
  llvm::json::Object metrics{{"num_ranks", model.numRanks},
                             {"num_stages", model.numStages()},
                             {"num_microbatches", schedule.numMicrobatches},
                             {"makespan_us", result.makespan},
                             {"ideal_time_us", result.idealTime},
                             {"bubble_rate", result.bubbleRate},
                             {"bubble_over_ideal", result.bubbleOverIdeal},
                             {"max_rank_span_us", result.maxRankSpan},
                             {"span_bubble_rate", result.spanBubbleRate},
                             {"ranks", std::move(ranks)}};
  if (!allReduces.empty())
    metrics["step_with_allreduces_us"] = step;
  if (!allReducesAtEnd.empty()) {
    double atEnd = result.makespan;
    for (const TraceSpan &span : allReducesAtEnd)
      atEnd = std::max(atEnd, span.end);
    metrics["step_reduced_at_end_us"] = atEnd;
  }
  std::string out;
  llvm::raw_string_ostream os(out);
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(metrics))) << "\n";
  return out;
}
