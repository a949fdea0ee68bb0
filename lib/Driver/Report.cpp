//===- Report.cpp - the figures of the last step --------------------------===//

#include "Trainer.h"

#include "pp/Schedule/DataParallel.h"

#include "pprt/Cuda.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <tuple>

#include <array>
#include <cmath>

using namespace mlir;
using namespace mlir::pp::driver;
namespace sched = mlir::pp::sched;

/// The median of `values` (not empty).
static double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  size_t n = values.size();
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

/// The time from the start of a message's send to the end of its receive,
/// when the receiver was already waiting for it, in microseconds (0 when
/// no receive waited): for each pair of ranks the mean of the two
/// directions' medians, then the median over pairs. With `sharedClock`
/// (one process: inproc) the trace's times are on one clock. Otherwise
/// (mpi) each process counts from its own start of the step, so a
/// direction reads long by the offset between two processes' clocks and
/// the other short by as much: the offset is estimated as half the
/// difference of the two medians, the "was waiting" test redone on the
/// corrected times, three times over (NTP's round-trip estimate, RFC 5905
/// sec. 8), and a pair with messages in one direction only is left out.
/// On a machine with more processes than cores it includes waking the
/// receiver.
static double measuredMessageLatency(const std::vector<pprt::TraceEvent> &trace,
                                     bool sharedClock) {
  // Sends by (sender, receiver, stage, micro-batch, kind).
  using Key = std::tuple<int, int64_t, int64_t, int64_t, int64_t>;
  std::map<Key, const pprt::TraceEvent *> sends;
  for (const pprt::TraceEvent &e : trace)
    if (e.action == PPRT_SEND && e.peer >= 0)
      sends[{e.rank, e.peer, e.stage, e.microbatch, e.kind}] = &e;
  // Per direction (from, to): each message's receive start and end after
  // its send's start, in the two ranks' own clocks (us).
  std::map<std::pair<int, int>, std::vector<std::pair<double, double>>> gaps;
  for (const pprt::TraceEvent &e : trace) {
    if (e.action != PPRT_RECV || e.peer < 0)
      continue;
    auto it = sends.find(
        {static_cast<int>(e.peer), e.rank, e.stage, e.microbatch, e.kind});
    if (it != sends.end())
      gaps[{static_cast<int>(e.peer), e.rank}].push_back(
          {(e.start - it->second->start) * 1e6,
           (e.end - it->second->start) * 1e6});
  }
  // The median end gap of the messages a receiver waited for, with the
  // receiver's clock moved by `shift`; nullopt if it waited for none.
  auto waitedMedian = [](const std::vector<std::pair<double, double>> &g,
                         double shift) -> std::optional<double> {
    std::vector<double> ends;
    for (auto [start, end] : g)
      if (start + shift < 0)
        ends.push_back(end + shift);
    if (ends.empty())
      return std::nullopt;
    return median(ends);
  };
  static const std::vector<std::pair<double, double>> none;
  std::vector<double> pairs;
  for (auto &[ranks, forward] : gaps) {
    auto back = gaps.find({ranks.second, ranks.first});
    if (back != gaps.end() && ranks.first > ranks.second)
      continue; // the pair was counted from its other direction
    const auto &backward = back == gaps.end() ? none : back->second;
    // The receiver's clock minus the sender's, forward direction: 0 on a
    // shared clock (one round, and one direction suffices).
    double offset = 0;
    std::optional<double> latency;
    for (int round = 0; round < (sharedClock ? 1 : 3); ++round) {
      std::optional<double> a = waitedMedian(forward, offset),
                            b = waitedMedian(backward, -offset);
      if (a && b)
        latency = 0.5 * (*a + *b);
      else if (sharedClock && (a || b))
        latency = a ? *a : *b;
      if (!a || !b)
        break;
      offset += 0.5 * (*b - *a);
    }
    if (latency)
      pairs.push_back(*latency);
  }
  return pairs.empty() ? 0.0 : std::max(0.0, median(pairs));
}

/// pp-simulate's pipeline with the stage times `trace` measured: the mean
/// F, B and W time of each stage (a fused backward counts as B), in
/// microseconds, and the measured message latency
/// (measuredMessageLatency).
static sched::PipelineModel
measuredPipeline(const sched::PipelineModel &planned,
                 const std::vector<pprt::TraceEvent> &trace, bool sharedClock) {
  int numStages = planned.numStages();
  sched::PipelineModel measured = planned;
  std::vector<std::array<double, 3>> sum(numStages, {0, 0, 0});
  std::vector<std::array<int, 3>> count(numStages, {0, 0, 0});
  for (const pprt::TraceEvent &e : trace) {
    int kind = e.action == PPRT_FORWARD           ? 0
               : e.action == PPRT_BACKWARD_WEIGHT ? 2
               : (e.action == PPRT_BACKWARD || e.action == PPRT_BACKWARD_INPUT)
                   ? 1
                   : -1;
    if (kind < 0 || e.stage < 0 || e.stage >= numStages)
      continue;
    sum[e.stage][kind] += (e.end - e.start) * 1e6;
    ++count[e.stage][kind];
  }
  for (int st = 0; st < numStages; ++st) {
    auto mean = [&](int k) {
      return count[st][k] ? sum[st][k] / count[st][k] : 0.0;
    };
    measured.stages[st].forwardTime = mean(0);
    measured.stages[st].backwardInputTime = mean(1);
    measured.stages[st].backwardWeightTime = mean(2);
  }
  measured.latency = measuredMessageLatency(trace, sharedClock);
  return measured;
}

/// Each rank's buffers as the generated code's allocator measured them
/// (pprt::MemoryPeaks) next to pp-simulate's stash plan, and how far the
/// measured stash peaks are from it: within 10% on every rank, a warning
/// when a rank holds more than 10% over the plan (the generated code keeps
/// stash longer than the schedule says), a note when one holds more than
/// 10% less (split backward under --stash-accounting=hold: the plan counts
/// the part of F's stash that W reads in both M_B and M_W while B runs;
/// docs/Runtime.md). Nothing when nothing was measured (the GPU path).
static void reportMeasuredMemory(llvm::raw_ostream &out,
                                 const std::vector<pprt::MemoryPeaks> &peaks,
                                 const sched::PipelineModel &pipeline,
                                 const sched::SimulationResult &predicted) {
  bool any = false;
  for (const pprt::MemoryPeaks &p : peaks)
    any |= p.allocations > 0;
  if (!any)
    return;
  int over = -1, under = -1;
  double worst = 0.0, worstOver = 0.0, worstUnder = 0.0;
  for (auto [r, p] : llvm::enumerate(peaks)) {
    // With replicas, rank r runs pipeline rank r % P.
    int64_t plan = predicted.ranks[r % predicted.ranks.size()].peakMemoryBytes;
    double ratio = plan > 0 ? static_cast<double>(p.stash) / plan
                            : (p.stash == 0 ? 1.0 : 2.0);
    worst = std::max(worst, std::abs(ratio - 1.0));
    if (ratio - 1.0 > worstOver) {
      worstOver = ratio - 1.0;
      over = static_cast<int>(r);
    }
    if (1.0 - ratio > worstUnder) {
      worstUnder = 1.0 - ratio;
      under = static_cast<int>(r);
    }
    out << "rank " << r << ": measured peaks (allocator): stash " << p.stash
        << " bytes (" << llvm::format("%.3f", ratio)
        << " x plan), stash + activations " << p.activations
        << " bytes, all buffers " << p.total << " bytes\n";
  }
  if (worst <= 0.10) {
    out << "measured stash peaks within 10% of the plan on every rank "
           "(largest difference "
        << llvm::format("%.1f", worst * 100) << "%)\n";
    return;
  }
  if (worstOver > 0.10)
    out << "warning: rank " << over << " holds "
        << llvm::format("%.1f", worstOver * 100)
        << "% more stash than the plan\n";
  if (worstUnder > 0.10) {
    bool split = pipeline.stashAccounting ==
                     sched::StashAccounting::HoldDuringBackward &&
                 llvm::any_of(pipeline.stages, [](const auto &stage) {
                   return stage.weightStashBytes > 0;
                 });
    out << "note: rank " << under << " holds "
        << llvm::format("%.1f", worstUnder * 100)
        << "% less stash than the plan"
        << (split ? " (split backward under --stash-accounting=hold: the "
                    "plan charges M_W from the start of B and counts the "
                    "stash W reads in both M_B and M_W)"
                  : "")
        << "\n";
  }
}

/// The compute slots the P ranks of one replica share in a prediction:
/// the world's slots (pprt::WorldOptions::computeSlots: the machine's
/// cores when its ranks outnumber them) divided among the D replicas,
/// which run the same program side by side; 0 (a core per rank) without
/// slots. Assumes the world's ranks share one machine's slots (under mpi,
/// each machine has its own).
static int slotsPerReplica(int worldSlots, int replicas) {
  if (worldSlots <= 0)
    return 0;
  return std::max(1, worldSlots / std::max(1, replicas));
}

void Trainer::reportLastStep(const pprt::StepTiming &timing) {
  pprt::World &world = session.world();
  std::vector<int64_t> peaks = world.stashPeaks();
  if (pprt::cuda::Device *gpu = session.gpu()) {
    std::vector<int> localRanks = world.localRanks();
    for (int r : localRanks) {
      pprt::cuda::PoolStats pool = gpu->poolStats(r);
      if (leader || localRanks.size() == 1)
        out << "rank " << r << ": device memory peak " << pool.peak
            << " bytes of the pool's " << pool.size
            << (pool.overflow ? " (+" + std::to_string(pool.overflow) +
                                    " bytes outside it while messages held "
                                    "pool memory)"
                              : std::string())
            << "\n";
    }
  }
  if (!leader)
    return;
  for (int r = 0; r < model.pipeline.numRanks; ++r)
    out << "rank " << r << ": busy "
        << llvm::format("%.3f", timing.busy[r] * 1e3) << " ms, stash peak "
        << peaks[r]
        << " bytes (pp-simulate: " << predicted.ranks[r].peakMemoryBytes
        << ")\n";
  reportMeasuredMemory(out, world.memoryPeaks(), model.pipeline, predicted);
  // pp-simulate again with the stage times this step measured: what the
  // schedule predicts for the functions as they ran here, on the cores
  // they shared.
  // (recordStepRatio predicted this step already.)
  const sched::PipelineModel &pipeline = lastPrediction.pipeline;
  const sched::SimulationResult &withMeasured = lastPrediction.withMeasured;
  out << "makespan " << llvm::format("%.3f", timing.makespan * 1e3)
      << " ms, measured bubble rate " << llvm::format("%.3f", timing.bubbleRate)
      << "; pp-simulate with the measured stage times";
  if (pipeline.computeSlots > 0 &&
      pipeline.computeSlots < model.pipeline.numRanks)
    out << " on " << pipeline.computeSlots << " core(s) per replica";
  out << " and message latency (" << llvm::format("%.1f", pipeline.latency)
      << " us): " << llvm::format("%.3f", withMeasured.makespan * 1e-3)
      << " ms, bubble rate " << llvm::format("%.3f", withMeasured.bubbleRate)
      << " (ratio measured / predicted makespan "
      << llvm::format("%.2f",
                      withMeasured.makespan > 0
                          ? timing.makespan * 1e6 / withMeasured.makespan
                          : 0.0)
      << (replicas > 1 ? std::string() : medianStepRatio()) << ")\n";
  if (replicas > 1)
    reportDataParallel(timing);
  reportBalance(steadyTiming());
}

void Trainer::calibrateAllReduce() {
  allReduceBandwidth = options.allReduceBandwidth;
  allReduceLatency = options.allReduceLatency;
  if (!options.calibrateAllReduce || replicas <= 1)
    return;
  // The MPI transport's all-reduce is an all-gather of each replica's n
  // bytes, summed in a fixed order; the ring model that gives its times
  // (sched::fitRing) is what the simulator then charges.
  pprt::World &world = session.world();
  const int64_t small = 4096, large = 4 << 20;
  double t1 = world.timeReplicaAllGather(small, 9);
  double t2 = world.timeReplicaAllGather(large, 9);
  if (!(t2 > t1) || t1 <= 0) {
    if (leader)
      out << "all-reduce calibration: "
          << (t1 <= 0 && t2 <= 0
                  ? std::string("nothing to measure (the replicas share "
                                "this process)")
                  : "no fit (the " + std::to_string(small) +
                        "-byte all-gather took " +
                        llvm::formatv("{0:F1}", t1 * 1e6).str() + " us, the " +
                        std::to_string(large) + "-byte one " +
                        llvm::formatv("{0:F1}", t2 * 1e6).str() + " us)")
          << ", the model keeps " << llvm::format("%.3g", allReduceBandwidth)
          << " bytes/s and " << llvm::format("%.3g", allReduceLatency)
          << " us\n";
    return;
  }
  std::optional<sched::RingFit> fit = sched::fitRing(
      {{small, t1 * 1e6}, {large, t2 * 1e6}}, replicas, allReduceLatency);
  allReduceBandwidth = fit->bandwidth;
  allReduceLatency = fit->latency;
  if (leader)
    out << "all-reduce calibration (all-gathers of " << small << " and "
        << large
        << " bytes among the replicas: " << llvm::format("%.1f", t1 * 1e6)
        << " and " << llvm::format("%.1f", t2 * 1e6)
        << " us): " << llvm::format("%.3g", allReduceBandwidth) << " bytes/s, "
        << llvm::format("%.3g", allReduceLatency) << " us per message\n";
}

void Trainer::predictStep() {
  pprt::World &world = session.world();
  StepPrediction &p = lastPrediction;
  // World::trace() returns a copy: take it once.
  const std::vector<pprt::TraceEvent> trace = world.trace();
  bool sharedClock = world.options().transport == "inproc";
  p.pipeline = measuredPipeline(model.pipeline, trace, sharedClock);
  p.pipeline.computeSlots =
      slotsPerReplica(world.options().computeSlots, replicas);
  p.withMeasured = sched::simulate(p.pipeline, model.schedule);
  if (replicas <= 1)
    return;
  // Each stage's all-reduce carries its parameters (a shared parameter on
  // each stage that uses it), placed as pp-insert-allreduce placed it.
  sched::DataParallelModel dp;
  dp.replicas = replicas;
  dp.bandwidth = allReduceBandwidth;
  dp.latency = allReduceLatency;
  dp.gradientBytes.assign(numStages, 0);
  for (int s = 0; s < numStages; ++s)
    for (unsigned a : model.stageParameters[s])
      dp.gradientBytes[s] += parameters.at(a).byteSize();
  // Each replica with the stage times and message latency it measured: an
  // all-reduce waits for the slowest replica to reach it.
  std::vector<std::vector<pprt::TraceEvent>> byReplica(replicas);
  for (const pprt::TraceEvent &e : trace)
    if (e.rank >= 0 && e.rank / model.pipeline.numRanks < replicas)
      byReplica[e.rank / model.pipeline.numRanks].push_back(e);
  std::vector<sched::SimulationResult> replicaSteps;
  for (const std::vector<pprt::TraceEvent> &own : byReplica) {
    sched::PipelineModel replica =
        measuredPipeline(model.pipeline, own, sharedClock);
    replica.computeSlots = p.pipeline.computeSlots;
    replicaSteps.push_back(sched::simulate(replica, model.schedule));
  }
  p.dataParallel = sched::simulateDataParallel(
      model.pipeline, model.schedule, replicaSteps, model.allReduces, dp);
}

void Trainer::recordStepRatio(const pprt::StepTiming &timing) {
  // The trace is on every process (gathered for the step's timing); only
  // the leader reports. A step with nothing to predict from (an empty
  // trace) records NaN, so that entry k stays step firstStep + k.
  if (!leader)
    return;
  predictStep();
  double predicted = replicas > 1 ? lastPrediction.dataParallel.makespan
                                  : lastPrediction.withMeasured.makespan;
  stepRatios.push_back(timing.makespan > 0 && predicted > 0
                           ? timing.makespan * 1e6 / predicted
                           : std::numeric_limits<double>::quiet_NaN());
}

std::string Trainer::medianStepRatio() const {
  // All steps but the run's first, as steadyTiming: the first compiles
  // lazily and warms up. Over one step it would be the last step's ratio
  // again.
  if (stepRatios.size() < 3)
    return "";
  std::vector<double> ratios;
  for (size_t k = 1; k < stepRatios.size(); ++k)
    if (std::isfinite(stepRatios[k]))
      ratios.push_back(stepRatios[k]);
  if (ratios.empty())
    return "";
  return llvm::formatv("; median over steps {0}-{1}: {2:F2}", firstStep + 1,
                       firstStep + stepRatios.size() - 1, median(ratios))
      .str();
}

void Trainer::reportDataParallel(const pprt::StepTiming &timing) {
  const sched::DataParallelResult &step = lastPrediction.dataParallel;
  out << "data parallel: " << replicas
      << " replicas; the last step predicted with its measured stage times and "
         "message latency and ring all-reduces ("
      << llvm::format("%.3g", allReduceBandwidth) << " bytes/s, "
      << llvm::format("%.3g", allReduceLatency)
      << " us): " << llvm::format("%.3f", step.makespan * 1e-3);
  if (model.allReducesAtEnd)
    out << " ms with every all-reduce after its rank's last action "
           "(--allreduce-at-end); measured ";
  else
    out << " ms overlapped after each stage's last W, "
        << llvm::format("%.3f", step.makespanAtEnd * 1e-3)
        << " ms reduced at the end; measured ";
  out << llvm::format("%.3f", timing.makespan * 1e3) << " ms (ratio "
      << llvm::format("%.2f", step.makespan > 0
                                  ? timing.makespan * 1e6 / step.makespan
                                  : 0.0)
      << medianStepRatio() << ")\n";
}

pprt::StepTiming Trainer::steadyTiming() const {
  // Steps 2..N: the first compiles lazily, faults its buffers in and warms
  // the caches. Every step times the same ranks.
  size_t first = stepTimings.size() > 1 ? 1 : 0;
  auto medianOver = [&](auto value) {
    std::vector<double> values;
    for (size_t k = first; k < stepTimings.size(); ++k)
      values.push_back(value(stepTimings[k]));
    return median(values);
  };
  pprt::StepTiming steady = stepTimings.back();
  for (size_t r = 0; r < steady.busy.size(); ++r)
    steady.busy[r] = medianOver([&](const auto &t) { return t.busy[r]; });
  for (size_t r = 0; r < steady.cpuBusy.size(); ++r)
    steady.cpuBusy[r] = medianOver([&](const auto &t) { return t.cpuBusy[r]; });
  steady.makespan = medianOver([](const auto &t) { return t.makespan; });
  return steady;
}

/// The steps the medians are over: all but the run's first (`firstStep`,
/// later than 1 after --resume), which compiles lazily and warms up.
/// " (medians of steps 2-5)", " (step 2)", or "" for one step.
static std::string stepsMeasured(size_t steps, int firstStep) {
  if (steps < 2)
    return "";
  std::string from = std::to_string(firstStep + 1);
  if (steps == 2)
    return " (step " + from + ")";
  return " (medians of steps " + from + "-" +
         std::to_string(firstStep + steps - 1) + ")";
}

/// Busiest / least-busy of `busy` (infinity when the least is 0).
static double imbalanceOf(ArrayRef<double> busy) {
  if (busy.empty())
    return std::numeric_limits<double>::infinity();
  auto [least, most] = std::minmax_element(busy.begin(), busy.end());
  return *least > 0 ? *most / *least : std::numeric_limits<double>::infinity();
}

/// "a b c ..." of busy[r] / makespan, and busiest / least-busy.
static std::string utilisation(const std::vector<double> &busy, double makespan,
                               double &imbalance) {
  std::string text;
  for (double b : busy)
    text += llvm::formatv("{0}{1:F2}", text.empty() ? "" : " ",
                          makespan > 0 ? b / makespan : 0.0)
                .str();
  imbalance = imbalanceOf(busy);
  return text;
}

void Trainer::reportCpuBalance(const pprt::StepTiming &timing) {
  // On a GPU the compute is the device's, not the rank thread's.
  if (timing.cpuBusy.empty() || session.options().device == Device::CUDA)
    return;
  std::string text;
  for (double cpu : timing.cpuBusy)
    text +=
        llvm::formatv("{0}{1:F3}", text.empty() ? "" : " ", cpu * 1e3).str();
  // A rank with no CPU time at all prints 0, not inf.
  double imbalance = imbalanceOf(timing.cpuBusy);
  out << "measured CPU time per rank"
      << stepsMeasured(stepTimings.size(), firstStep)
      << " (ms, each rank thread's own, without waiting for a core): " << text
      << " (busiest / least-busy rank "
      << llvm::format("%.2f", std::isinf(imbalance) ? 0.0 : imbalance) << ")\n";
}

void Trainer::reportBalance(const pprt::StepTiming &timing) {
  int numRanks = model.pipeline.numRanks;
  bool measured = model.planCosts == PlanCosts::Measured;
  std::vector<double> plannedBusy, measuredBusy;
  for (int r = 0; r < numRanks; ++r) {
    plannedBusy.push_back(predicted.ranks[r].busyTime);
    measuredBusy.push_back(timing.busy[r]);
  }
  double plannedImbalance = 0, measuredImbalance = 0;
  std::string planned =
      utilisation(plannedBusy, predicted.makespan, plannedImbalance);
  std::string actual =
      utilisation(measuredBusy, timing.makespan, measuredImbalance);
  out << "plan (" << (measured ? "measured costs" : "FLOP estimates") << "): ";
  if (measured)
    out << "predicted step " << llvm::format("%.3f", predicted.makespan * 1e-3)
        << " ms, ";
  out << "utilisation per rank " << planned << " (busiest / least-busy rank "
      << llvm::format("%.2f", plannedImbalance) << ")\n";
  out << "measured" << stepsMeasured(stepTimings.size(), firstStep) << ": step "
      << llvm::format("%.3f", timing.makespan * 1e3)
      << " ms, utilisation per rank " << actual
      << " (busiest / least-busy rank "
      << llvm::format("%.2f", measuredImbalance) << ")\n";
  reportCpuBalance(timing);
  if (measuredImbalance <= 1.5)
    return;
  auto most = std::max_element(measuredBusy.begin(), measuredBusy.end());
  auto least = std::min_element(measuredBusy.begin(), measuredBusy.end());
  out << "warning: the ranks' busy times differ by more than 1.5x (rank "
      << (most - measuredBusy.begin()) << " "
      << llvm::format("%.3f", *most * 1e3) << " ms, rank "
      << (least - measuredBusy.begin()) << " "
      << llvm::format("%.3f", *least * 1e3) << " ms): "
      << (measured ? "the plan predicted " +
                         llvm::formatv("{0:F2}", plannedImbalance).str() +
                         "x from the measured costs: the rest is overhead "
                         "and noise, and above that the ops do not split "
                         "more evenly (a smaller P*V balances better)"
                   : std::string("the stages balance FLOPs, not time "
                                 "(--plan-costs=flops, cuts or markers that "
                                 "fix them, or a GPU target); on the CPU, "
                                 "--plan-costs=auto balances measured F, B "
                                 "and W"))
      << "\n";
}

llvm::Error Trainer::writeTrace() {
  if (options.traceFile.empty() || !leader)
    return llvm::Error::success();
  std::error_code ec;
  llvm::raw_fd_ostream os(options.traceFile, ec);
  if (ec)
    return llvm::createStringError(ec, "cannot write " + options.traceFile +
                                           ": " + ec.message());
  os << session.world().chromeTraceJson();
  out << "trace: " << options.traceFile << "\n";
  return llvm::Error::success();
}
