//===- SVG.cpp - Schedule timelines as SVG --------------------------------===//
//
// renderSVG(): a simulated schedule as a picture in the style of the figures
// of the pipeline papers (GPipe, Megatron-LM, the zero-bubble paper): one row
// per rank, one coloured block per F/B/W labelled with its micro-batch, idle
// time as grey background, a time axis in microseconds and a legend.
//
//===----------------------------------------------------------------------===//

#include "Text.h"
#include "pp/Schedule/Table.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>

using namespace mlir::pp::sched;
using namespace mlir::pp::sched::detail;

namespace {

// Layout, in pixels.
constexpr double kLeft = 72;      // rank labels
constexpr double kRight = 24;     // room for the last axis label
constexpr double kTop = 58;       // title and subtitle
constexpr double kRowHeight = 26; // one rank
constexpr double kRowGap = 6;
constexpr double kPixelsPerShortest = 26; // width of the shortest action
constexpr double kMinPlotWidth = 480;
constexpr double kMaxPlotWidth = 2400;
constexpr double kMinBlockWidth = 1.5;
constexpr double kReduceHeight = 7; // the all-reduce strip under a row
constexpr const char *kReduceFill = "#8e44ad";

/// Coordinates with two decimals at most.
std::string px(double x) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << llvm::format("%.2f", x);
  while (s.back() == '0')
    s.pop_back();
  if (s.back() == '.')
    s.pop_back();
  return s == "-0" ? "0" : s;
}

std::string escapeXML(llvm::StringRef text) {
  std::string out;
  for (char c : text) {
    switch (c) {
    case '&':
      out += "&amp;";
      break;
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '"':
      out += "&quot;";
      break;
    case '\'':
      out += "&apos;";
      break;
    default:
      out += c;
    }
  }
  return out;
}

struct Style {
  const char *fill;
  const char *darkFill; ///< a rank's odd-numbered model chunks
  const char *text;     ///< label colour on `fill` (white on darkFill)
};

Style styleOf(ActionKind kind) {
  switch (kind) {
  case ActionKind::Forward:
    return {"#4e79a7", "#2b5283", "#ffffff"};
  case ActionKind::Backward:
    return {"#59a14f", "#367a2e", "#ffffff"};
  case ActionKind::BackwardInput:
    return {"#76b7b2", "#3f8a84", "#1a1a1a"};
  case ActionKind::BackwardWeight:
    return {"#f28e2b", "#b9600c", "#1a1a1a"};
  default:
    return {"#999999", "#666666", "#ffffff"};
  }
}

/// A round axis step (1, 2 or 5 times a power of ten) giving at most about
/// 12 ticks over `span`.
double axisStep(double span) {
  if (!(span > 0))
    return 1;
  double raw = span / 12;
  double power = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * power >= raw)
      return m * power;
  return 10 * power;
}

/// The legend's texts, in the order of kLegendKinds, and the idle note.
const char *const kLegendTexts[] = {"F forward", "B+W fused backward",
                                    "B backward for inputs",
                                    "W backward for weights"};
const ActionKind kLegendKinds[] = {ActionKind::Forward, ActionKind::Backward,
                                   ActionKind::BackwardInput,
                                   ActionKind::BackwardWeight};
const char *const kIdleText = "grey: idle; numbers: micro-batches";

/// The width of `text` in the legend (about 7 px a character).
double textWidth(const char *text) { return std::string(text).size() * 7.0; }

/// Writes the picture of renderSVG(): computes the layout, then the title,
/// the rows, the time axis and the legend, one element per line.
class SVGWriter {
public:
  SVGWriter(const PipelineModel &model, const Schedule &schedule,
            const SimulationResult &result,
            const std::vector<TraceSpan> &allReduces, llvm::raw_ostream &os)
      : model(model), schedule(schedule), result(result),
        allReduces(allReduces), os(os),
        numRanks(static_cast<int>(schedule.ranks.size())) {}

  void write(llvm::StringRef name) {
    computeLayout();
    writeHeader(name);
    for (int r = 0; r < numRanks; ++r)
      writeRow(r);
    writeAxis();
    writeLegend();
    os << "</svg>\n";
  }

private:
  /// The scale, the chunk shading and the size of the picture.
  void computeLayout();
  /// The XML header, the canvas, the title and the subtitle.
  void writeHeader(llvm::StringRef name);
  /// Rank `r`'s label, its grey background (idle time) and its blocks;
  /// under them its all-reduces, if any.
  void writeRow(int r);
  /// One compute block at `y` (the row's top), `half` 0 for full height,
  /// 1 for the upper half (an overlapped F), 2 for the lower (its B).
  void writeBlock(int r, const Action &a, const ActionTiming &t, double y,
                  int half);
  /// The time axis under the rows: ticks at round steps, in microseconds.
  void writeAxis();
  /// The legend under the axis: a swatch per action kind, the idle note
  /// and, with several chunks per rank, the note on the darker shade.
  void writeLegend();

  const PipelineModel &model;
  const Schedule &schedule;
  const SimulationResult &result;
  const std::vector<TraceSpan> &allReduces;
  llvm::raw_ostream &os;
  int numRanks;

  /// `makespan`: the time the picture spans, the pipeline's makespan or the
  /// last all-reduce's end if later; `pitch`: a row's height with its gap
  /// (and its all-reduce strip).
  double makespan = 0, plotWidth = kMinPlotWidth, scale = 1,
         pitch = kRowHeight + kRowGap;
  /// chunkOf[s]: the index of stage s among its rank's stages.
  std::vector<int> chunkOf;
  int maxChunks = 1;
  double axisY = 0, legendY = 0, width = 0, height = 0;
};

} // namespace

void SVGWriter::computeLayout() {
  // Horizontal scale: the shortest action gets kPixelsPerShortest pixels,
  // within the plot width limits.
  double shortest = 0;
  for (int r = 0; r < numRanks; ++r)
    for (size_t i = 0; i < schedule.ranks[r].size(); ++i) {
      if (!schedule.ranks[r][i].isCompute())
        continue;
      double d = result.timings[r][i].end - result.timings[r][i].start;
      if (d > 0 && (shortest == 0 || d < shortest))
        shortest = d;
    }
  makespan = result.makespan;
  for (const TraceSpan &span : allReduces)
    if (std::isfinite(span.end))
      makespan = std::max(makespan, span.end);
  if (!allReduces.empty())
    pitch += kReduceHeight + 2;
  if (makespan > 0 && shortest > 0)
    plotWidth = std::clamp(makespan / shortest * kPixelsPerShortest,
                           kMinPlotWidth, kMaxPlotWidth);
  scale = makespan > 0 ? plotWidth / makespan : 1;

  // A rank's model chunks, in stage order, for the shading.
  chunkOf.assign(model.numStages(), 0);
  std::vector<int> count(std::max(model.numRanks, numRanks), 0);
  for (int s = 0; s < model.numStages(); ++s) {
    int r = model.stages[s].rank;
    if (r >= 0 && r < static_cast<int>(count.size())) {
      chunkOf[s] = count[r]++;
      maxChunks = std::max(maxChunks, count[r]);
    }
  }

  double rowsBottom = kTop + numRanks * pitch;
  axisY = rowsBottom + 2;
  legendY = axisY + 44;
  // The legend is one line of swatches and texts.
  double legendWidth = textWidth(kIdleText);
  for (const char *text : kLegendTexts)
    legendWidth += 17 + textWidth(text) + 18;
  if (!allReduces.empty())
    legendWidth += 17 + textWidth("all-reduce") + 18;
  // The rows span at least the legend.
  if (plotWidth < legendWidth) {
    plotWidth = legendWidth;
    scale = makespan > 0 ? plotWidth / makespan : 1;
  }
  width = kLeft + plotWidth + kRight;
  height = legendY + (maxChunks > 1 ? 40 : 24);
}

void SVGWriter::writeHeader(llvm::StringRef name) {
  os << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  os << "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\""
     << px(width) << "\" height=\"" << px(height) << "\" viewBox=\"0 0 "
     << px(width) << " " << px(height)
     << "\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n";
  os << "<rect x=\"0\" y=\"0\" width=\"" << px(width) << "\" height=\""
     << px(height) << "\" fill=\"#ffffff\"/>\n";

  std::string title =
      (name.empty() ? std::string("Pipeline schedule") : name.str()) + ": " +
      plural(numRanks, "rank", "ranks") + ", " +
      plural(model.numStages(), "stage", "stages") + ", " +
      plural(schedule.numMicrobatches, "micro-batch", "micro-batches");
  os << "<text x=\"" << px(kLeft) << "\" y=\"22\" font-size=\"15\" "
     << "font-weight=\"bold\">" << escapeXML(title) << "</text>\n";
  os << "<text x=\"" << px(kLeft) << "\" y=\"42\" font-size=\"13\">makespan "
     << formatNumber(result.makespan)
     << (allReduces.empty()
             ? std::string()
             : " µs (" + formatNumber(makespan) + " µs with the all-reduces)")
     << (allReduces.empty() ? " µs" : "") << ", bubble rate "
     << formatNumber(result.bubbleRate * 100) << "%, ideal time "
     << formatNumber(result.idealTime) << " µs</text>\n";
}

void SVGWriter::writeRow(int r) {
  double y = kTop + r * pitch;
  os << "<text x=\"" << px(kLeft - 8) << "\" y=\""
     << px(y + kRowHeight / 2 + 4.5) << "\" font-size=\"13\" "
     << "text-anchor=\"end\">Rank " << r << "</text>\n";
  os << "<rect x=\"" << px(kLeft) << "\" y=\"" << px(y) << "\" width=\""
     << px(plotWidth) << "\" height=\"" << px(kRowHeight)
     << "\" fill=\"#e6e6e6\"/>\n";

  const std::vector<Action> &actions = schedule.ranks[r];
  std::vector<int> half(actions.size(), 0);
  for (size_t i = 0; i < actions.size(); ++i)
    if (startsOverlapPair(actions, i)) {
      half[i] = 1;
      half[i + 1] = 2;
    }
  for (size_t i = 0; i < actions.size(); ++i)
    if (actions[i].isCompute())
      writeBlock(r, actions[i], result.timings[r][i], y, half[i]);
  // The rank's all-reduces in a strip under its row; a bucket is one bar
  // naming its stages, with their bytes.
  for (const AllReduceInterval &reduce : allReduceIntervals(allReduces)) {
    if (reduce.rank != r || !std::isfinite(reduce.end))
      continue;
    std::string stages;
    for (int stage : reduce.stages)
      stages += (stages.empty() ? "" : ", ") + std::to_string(stage);
    double x = kLeft + reduce.start * scale;
    double w = std::max((reduce.end - reduce.start) * scale, kMinBlockWidth);
    os << "<rect x=\"" << px(x) << "\" y=\"" << px(y + kRowHeight + 1)
       << "\" width=\"" << px(w) << "\" height=\"" << px(kReduceHeight)
       << "\" fill=\"" << kReduceFill << "\"><title>rank " << r
       << ": all-reduce of stage" << (reduce.stages.size() > 1 ? "s " : " ")
       << stages << " (" << reduce.bytes << " bytes), "
       << formatNumber(reduce.start) << "–" << formatNumber(reduce.end)
       << " µs</title></rect>\n";
  }
}

void SVGWriter::writeBlock(int r, const Action &a, const ActionTiming &t,
                           double y, int half) {
  double x = kLeft + t.start * scale;
  double w = std::max((t.end - t.start) * scale, kMinBlockWidth);
  double h = half ? kRowHeight / 2 : kRowHeight;
  double top = half == 2 ? y + kRowHeight / 2 : y;
  bool dark = a.stage >= 0 && a.stage < static_cast<int>(chunkOf.size()) &&
              chunkOf[a.stage] % 2 == 1;
  Style style = styleOf(a.kind);
  os << "<rect x=\"" << px(x) << "\" y=\"" << px(top) << "\" width=\"" << px(w)
     << "\" height=\"" << px(h) << "\" fill=\""
     << (dark ? style.darkFill : style.fill)
     << "\" stroke=\"#ffffff\" stroke-width=\"0.75\"><title>rank " << r << ": "
     << escapeXML(describe(a)) << ", " << formatNumber(t.start) << "–"
     << formatNumber(t.end) << " µs</title></rect>\n";
  std::string text = std::to_string(a.microbatch);
  double fontSize = half ? 9 : 11;
  if (w >= text.size() * fontSize * 0.62 + 3)
    os << "<text x=\"" << px(x + w / 2) << "\" y=\""
       << px(top + h / 2 + fontSize * 0.36) << "\" font-size=\"" << px(fontSize)
       << "\" text-anchor=\"middle\" fill=\"" << (dark ? "#ffffff" : style.text)
       << "\">" << text << "</text>\n";
}

void SVGWriter::writeAxis() {
  os << "<line x1=\"" << px(kLeft) << "\" y1=\"" << px(axisY) << "\" x2=\""
     << px(kLeft + plotWidth) << "\" y2=\"" << px(axisY)
     << "\" stroke=\"#333333\" stroke-width=\"1\"/>\n";
  double step = axisStep(makespan);
  for (int k = 0;; ++k) {
    double time = k * step;
    if (time > makespan * (1 + 1e-9) && k > 0)
      break;
    double x = kLeft + time * scale;
    os << "<line x1=\"" << px(x) << "\" y1=\"" << px(axisY) << "\" x2=\""
       << px(x) << "\" y2=\"" << px(axisY + 5)
       << "\" stroke=\"#333333\" stroke-width=\"1\"/>\n";
    os << "<text x=\"" << px(x) << "\" y=\"" << px(axisY + 17)
       << "\" font-size=\"11\" text-anchor=\"middle\">" << formatNumber(time)
       << "</text>\n";
    if (makespan <= 0)
      break;
  }
  os << "<text x=\"" << px(kLeft + plotWidth) << "\" y=\"" << px(axisY + 32)
     << "\" font-size=\"11\" text-anchor=\"end\">time (µs)</text>\n";
}

void SVGWriter::writeLegend() {
  double x = kLeft;
  for (int k = 0; k < 4; ++k) {
    os << "<rect x=\"" << px(x) << "\" y=\"" << px(legendY - 10)
       << "\" width=\"12\" height=\"12\" fill=\""
       << styleOf(kLegendKinds[k]).fill << "\"/>\n";
    os << "<text x=\"" << px(x + 17) << "\" y=\"" << px(legendY)
       << "\" font-size=\"12\">" << kLegendTexts[k] << "</text>\n";
    x += 17 + textWidth(kLegendTexts[k]) + 18;
  }
  if (!allReduces.empty()) {
    os << "<rect x=\"" << px(x) << "\" y=\"" << px(legendY - 10)
       << "\" width=\"12\" height=\"12\" fill=\"" << kReduceFill << "\"/>\n";
    os << "<text x=\"" << px(x + 17) << "\" y=\"" << px(legendY)
       << "\" font-size=\"12\">all-reduce</text>\n";
    x += 17 + textWidth("all-reduce") + 18;
  }
  os << "<text x=\"" << px(x) << "\" y=\"" << px(legendY)
     << "\" font-size=\"12\" fill=\"#555555\">" << kIdleText << "</text>\n";
  if (maxChunks > 1)
    os << "<text x=\"" << px(kLeft) << "\" y=\"" << px(legendY + 18)
       << "\" font-size=\"12\" fill=\"#555555\">darker: a rank's 2nd, "
       << "4th, ... model chunk</text>\n";
}

std::string
mlir::pp::sched::renderSVG(const PipelineModel &model, const Schedule &schedule,
                           const SimulationResult &result, llvm::StringRef name,
                           const std::vector<TraceSpan> &allReduces) {
  std::string out;
  llvm::raw_string_ostream os(out);
  SVGWriter(model, schedule, result, allReduces, os).write(name);
  return out;
}
