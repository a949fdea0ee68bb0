//===- schedules.cpp - schedule comparison and scaling benchmark ----------===//
//
// pp-bench-schedules [--tables] [--scaling] [--paper] [--auto]
//
// --tables: bubble rate and peak memory of every schedule on a set of
//   configurations, uniform and heterogeneous (latency, a slower last stage,
//   split W), as Markdown tables.
// --scaling: wall time of the schedule library's work behind pp-schedule,
//   pp-insert-communication and pp-verify-schedule (build, insert messages,
//   structural checks, deadlock check) for P = 64, V = 4 and growing M, with
//   the growth exponent between successive sizes.
// --paper: the zero-bubble paper's twelve setups (Qi et al., ICLR 2024,
//   Tables 5 and 6): 1F1B and the paper's greedy scheduler against the
//   paper's bubble rates, and auto (both objectives) against the greedy, at
//   P M_B and 2P M_B.
// --auto: auto's wall time, lower bound and gap for P = 8, 16, 32 and M =
//   24 .. 256 at P M_B and 2P M_B, with the paper's profiled costs.
//
// (--paper and --auto are not part of a run without arguments.)
//
//===----------------------------------------------------------------------===//

#include "pp/Schedule/AutoSchedule.h"
#include "pp/Schedule/Compare.h"
#include "pp/Schedule/PaperData.h"
#include "pp/Schedule/Schedule.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cmath>
#include <cstring>

using namespace mlir::pp::sched;

namespace {

struct Config {
  const char *title;
  int numRanks, stagesPerRank;
  Placement placement;
  double f, b, w, lastStageScale, latency;
  int numMicrobatches;
  int64_t memoryLimit; // bytes; 0 = none
};

PipelineModel makeModel(const Config &c) {
  PipelineModel model;
  model.numRanks = c.numRanks;
  model.latency = c.latency;
  model.activationBytes = 1 << 20;
  std::vector<int> ranks =
      llvm::cantFail(placeStages(c.placement, c.numRanks, c.stagesPerRank));
  int numStages = c.numRanks * c.stagesPerRank;
  for (int s = 0; s < numStages; ++s) {
    double scale = s + 1 == numStages ? c.lastStageScale : 1.0;
    StageInfo stage;
    stage.rank = ranks[s];
    stage.forwardTime = c.f * scale;
    stage.backwardInputTime = c.b * scale;
    stage.backwardWeightTime = c.w * scale;
    stage.stashBytes = 64 << 20;
    stage.weightStashBytes = c.w > 0 ? 16 << 20 : 0;
    model.stages.push_back(stage);
  }
  return model;
}

void tables() {
  const int64_t mb = 64 << 20;
  const Config configs[] = {
      {"uniform, P=4, M=16, F=B=1, W=0", 4, 1, Placement::Loop, 1, 1, 0, 1, 0,
       16, 0},
      {"uniform split, P=4, M=16, F=B=W=1", 4, 1, Placement::Loop, 1, 1, 1, 1,
       0, 16, 0},
      {"uniform split under 4 M_B, P=4, M=16, F=B=W=1", 4, 1, Placement::Loop,
       1, 1, 1, 1, 0, 16, 4 * mb},
      {"heterogeneous: last stage 1.5x, latency 0.2, P=4, M=12, F=1 B=2 W=1", 4,
       1, Placement::Loop, 1, 2, 1, 1.5, 0.2, 12, 0},
      {"heterogeneous under 5 M_B: same", 4, 1, Placement::Loop, 1, 2, 1, 1.5,
       0.2, 12, 5 * mb},
      {"P=8, M=32, F=1 B=1 W=0.5, latency 0.1", 8, 1, Placement::Loop, 1, 1,
       0.5, 1, 0.1, 32, 0},
      {"loop placement, P=4, V=2, M=16, F=B=W=0.5 per chunk", 4, 2,
       Placement::Loop, 0.5, 0.5, 0.5, 1, 0, 16, 0},
      {"V placement, P=4, V=2, M=16, F=B=W=0.5 per chunk", 4, 2, Placement::V,
       0.5, 0.5, 0.5, 1, 0, 16, 0},
      {"V placement, heterogeneous, P=4, V=2, M=12, last chunk 2x, latency "
       "0.1",
       4, 2, Placement::V, 0.5, 1, 0.5, 2, 0.1, 12, 0},
  };
  for (const Config &c : configs) {
    PipelineModel model = makeModel(c);
    ScheduleOptions options;
    options.memoryLimitBytes = c.memoryLimit;
    Comparison comparison = compareSchedules(model, c.numMicrobatches, options);
    llvm::outs() << "### " << c.title << "\n\n"
                 << renderComparison(model, comparison, options) << "\n";
  }
}

double seconds(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

void scaling() {
  llvm::outs() << "| M | actions | build (s) | insert comm (s) | check (s) | "
                  "deadlock (s) | total (s) | ns/action | growth exponent |\n"
               << "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | "
                  "---: |\n";
  double previousTotal = 0, previousActions = 0;
  for (int m : {128, 256, 512, 1024}) {
    Config c{"", 64, 4, Placement::Loop, 1, 1, 0.5, 1, 0.1, m, 0};
    PipelineModel model = makeModel(c);
    auto t0 = std::chrono::steady_clock::now();
    Schedule schedule =
        llvm::cantFail(buildSchedule("interleaved-1f1b", model, m));
    double build = seconds(t0);
    t0 = std::chrono::steady_clock::now();
    Schedule withComm = insertCommunication(model, schedule);
    double insert = seconds(t0);
    t0 = std::chrono::steady_clock::now();
    bool valid = checkSchedule(model, withComm).empty();
    double check = seconds(t0);
    t0 = std::chrono::steady_clock::now();
    bool completes = findDeadlock(model, withComm).completed;
    double deadlock = seconds(t0);
    if (!valid || !completes)
      llvm::report_fatal_error("benchmark schedule is invalid");
    double actions = 0;
    for (const auto &rank : withComm.ranks)
      actions += rank.size();
    double total = build + insert + check + deadlock;
    llvm::outs() << "| " << m << " | " << static_cast<int64_t>(actions) << " | "
                 << llvm::format("%.3f", build) << " | "
                 << llvm::format("%.3f", insert) << " | "
                 << llvm::format("%.3f", check) << " | "
                 << llvm::format("%.3f", deadlock) << " | "
                 << llvm::format("%.3f", total) << " | "
                 << llvm::format("%.0f", total / actions * 1e9) << " | ";
    if (previousTotal > 0)
      llvm::outs() << llvm::format("%.2f",
                                   std::log(total / previousTotal) /
                                       std::log(actions / previousActions));
    else
      llvm::outs() << "-";
    llvm::outs() << " |\n";
    previousTotal = total;
    previousActions = actions;
  }
}

/// One line of the paper table: the paper's greedy and auto at k P M_B.
void paperRow(const ZeroBubblePaperSetup &setup, int k) {
  PipelineModel model = setup.pipeline();
  int m = setup.numMicrobatches;
  int64_t limit = k * setup.numStages * setup.stashBytes();
  SimulationResult paper = simulate(
      model, llvm::cantFail(buildZeroBubbleGreedyBest(model, m, limit)));
  ScheduleOptions options;
  options.memoryLimitBytes = limit;
  AutoReport step = llvm::cantFail(planAuto(model, m, options));
  SimulationResult stepResult = simulate(model, step.schedule);
  options.autoObjective = AutoObjective::MaxRankSpan;
  AutoReport span = llvm::cantFail(planAuto(model, m, options));
  SimulationResult spanResult = simulate(model, span.schedule);
  llvm::outs() << "| " << setup.model << " | " << setup.numStages << " | " << m
               << " | " << k << "p | "
               << llvm::format("%.4f",
                               k == 1 ? setup.bubbleZB1p : setup.bubbleZB2p)
               << " | " << llvm::format("%.4f", paper.spanBubbleRate) << " | "
               << llvm::format("%.1f", paper.makespan) << " | "
               << llvm::format("%.1f", stepResult.makespan) << " | "
               << llvm::format("%.4f", stepResult.spanBubbleRate) << " | "
               << llvm::format("%.1f", step.bounds.best) << " | "
               << llvm::format("%.2f%%", 100 * step.gap) << " | "
               << llvm::format("%.1f", spanResult.makespan) << " | "
               << llvm::format("%.4f", spanResult.spanBubbleRate) << " | "
               << llvm::format("%.2f", step.seconds + span.seconds) << " |\n";
}

void paperTables() {
  llvm::outs() << "### 1F1B: our simulation against Table 5\n\n"
                  "| model | P | M | Table 5 | ours | step makespan (us) |\n"
                  "| --- | ---: | ---: | ---: | ---: | ---: |\n";
  for (const ZeroBubblePaperSetup &setup : zeroBubblePaperSetups()) {
    PipelineModel model = setup.pipeline();
    SimulationResult result = simulate(
        model,
        llvm::cantFail(buildSchedule("1f1b", model, setup.numMicrobatches)));
    llvm::outs() << "| " << setup.model << " | " << setup.numStages << " | "
                 << setup.numMicrobatches << " | "
                 << llvm::format("%.4f", setup.bubble1F1B) << " | "
                 << llvm::format("%.4f", result.spanBubbleRate) << " | "
                 << llvm::format("%.1f", result.makespan) << " |\n";
  }
  llvm::outs()
      << "\n### ZB-1p and ZB-2p: the paper's greedy (ours) and auto\n\n"
         "| model | P | M | limit | Table 5 | greedy bubble | greedy step "
         "(us) | auto step (us) | auto bubble | lower bound (us) | gap | "
         "auto span-objective step (us) | its bubble | auto time (s) |\n"
         "| --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: "
         "| ---: | ---: | ---: | ---: |\n";
  for (const ZeroBubblePaperSetup &setup : zeroBubblePaperSetups())
    for (int k : {1, 2})
      paperRow(setup, k);
}

void autoScaling() {
  llvm::outs() << "| P | M | limit | auto step (us) | lower bound (us) | gap | "
                  "proven | span bubble | winner | time (s) |\n"
               << "| ---: | ---: | --- | ---: | ---: | ---: | --- | ---: | --- "
                  "| ---: |\n";
  // The paper's profiled costs of the 1.5B (P = 8), 14.6B (P = 16) and
  // 28.3B (P = 32) models, at other micro-batch counts.
  const std::vector<ZeroBubblePaperSetup> &setups = zeroBubblePaperSetups();
  for (int index : {0, 6, 9})
    for (int m : {24, 32, 64, 128, 256}) {
      ZeroBubblePaperSetup setup = setups[index];
      setup.numMicrobatches = m;
      PipelineModel model = setup.pipeline();
      for (int k : {1, 2}) {
        ScheduleOptions options;
        options.memoryLimitBytes = k * setup.numStages * setup.stashBytes();
        AutoReport report = llvm::cantFail(planAuto(model, m, options));
        SimulationResult result = simulate(model, report.schedule);
        llvm::outs() << "| " << setup.numStages << " | " << m << " | " << k
                     << "P M_B | " << llvm::format("%.1f", report.makespan)
                     << " | " << llvm::format("%.1f", report.bounds.best)
                     << " | " << llvm::format("%.2f%%", 100 * report.gap)
                     << " | " << (report.provenOptimal ? "yes" : "no") << " | "
                     << llvm::format("%.4f", result.spanBubbleRate) << " | "
                     << report.winner << " | "
                     << llvm::format("%.2f", report.seconds) << " |\n";
      }
    }
}

} // namespace

int main(int argc, char **argv) {
  bool all = argc == 1;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--tables"))
      tables();
    else if (!std::strcmp(argv[i], "--scaling"))
      scaling();
    else if (!std::strcmp(argv[i], "--paper"))
      paperTables();
    else if (!std::strcmp(argv[i], "--auto"))
      autoScaling();
    else {
      llvm::errs() << "usage: pp-bench-schedules [--tables] [--scaling] "
                      "[--paper] [--auto]\n";
      return 2;
    }
  }
  if (all) {
    tables();
    scaling();
  }
  return 0;
}
