//===- runtime.cpp - pipeline runtime overhead and fidelity benchmark -----===//
//
// pp-bench-runtime --mode=overhead|fidelity [options]
//
// Builds schedules with the schedule library (buildSchedule, then
// insertCommunication, as pp-plan does) and executes them on a pprt::World
// by interpreting every rank's actions, the way the code that
// convert-pp-to-runtime generates calls the runtime:
// - a compute action (F, B, W, fused backward) is pprt_action_begin, the
//   stage's "work", pprt_action_end (2 runtime calls);
// - a Send is pprt_action_begin, pprt_send, pprt_action_end (3 calls); a
//   Recv likewise with pprt_recv.
//
// --mode=overhead: the work is nothing; every message carries `--payload`
//   bytes. Reports the step's wall time (runStep, on mpi the maximum over the
//   processes), the traced makespan (World::stepTiming), both per action of
//   the busiest rank, and the runtime calls of the step.
// --mode=fidelity: the work waits for the action's cost under the model
//   (spinning on a steady clock, or sleeping with --wait=sleep); messages
//   carry `--payload` bytes. Compares the measured makespan and bubble rate
//   (World::stepTiming) with simulate()'s prediction for the same schedule.
//
// Every configuration runs one warm-up step and then `--repetitions` steps;
// the tables show the median of each figure. Output is Markdown; under
// mpirun (--transport=mpi) only the process that runs rank 0 prints, and the
// number of ranks must be the number of processes.
//
//===----------------------------------------------------------------------===//

#include "pprt/Runtime.h"
#include "pp/Schedule/Schedule.h"
#include "pprt/pprt.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <optional>
#include <string>
#include <thread>
#include <vector>

using namespace mlir::pp::sched;
namespace cl = llvm::cl;

namespace {

enum class Mode { Overhead, Fidelity };
enum class Wait { Spin, Sleep };

cl::opt<Mode>
    modeOpt("mode", cl::desc("What to measure"), cl::init(Mode::Overhead),
            cl::values(clEnumValN(Mode::Overhead, "overhead",
                                  "runtime cost per action; stages do no work"),
                       clEnumValN(Mode::Fidelity, "fidelity",
                                  "stages take their model cost; compare with "
                                  "simulate()")));
cl::opt<std::string> transportOpt("transport",
                                  cl::desc("inproc (threads) or mpi (under "
                                           "mpirun -np P)"),
                                  cl::init("inproc"));
cl::list<int> ranksOpt("ranks",
                       cl::desc("Numbers of ranks P (comma list; "
                                "mpi: the number of processes)"),
                       cl::CommaSeparated);
cl::list<std::string> schedulesOpt(
    "schedules",
    cl::desc("Schedules (comma list); default overhead: 1f1b,zb-h1; "
             "fidelity: gpipe,1f1b,interleaved-1f1b,zb-h1,zb-v,dualpipe-v"),
    cl::CommaSeparated);
cl::list<int64_t> payloadOpt("payload",
                             cl::desc("Bytes per message (comma list); "
                                      "default overhead: 64,1048576; "
                                      "fidelity: 64"),
                             cl::CommaSeparated);
cl::opt<int> microbatchesOpt("microbatches", cl::desc("Micro-batches M"),
                             cl::init(64));
cl::opt<int> repetitionsOpt("repetitions",
                            cl::desc("Measured steps per configuration "
                                     "(after one warm-up step)"),
                            cl::init(5));
cl::opt<double> forwardOpt("forward-us",
                           cl::desc("Fidelity: F time of a stage, us"),
                           cl::init(1000));
cl::opt<double> backwardOpt("backward-us",
                            cl::desc("Fidelity: B time of a stage, us"),
                            cl::init(1000));
cl::opt<double> weightOpt("weight-us",
                          cl::desc("Fidelity: W time of a stage, us"),
                          cl::init(500));
cl::opt<double> lastStageScaleOpt(
    "last-stage-scale",
    cl::desc("Fidelity: cost factor of the last stage (heterogeneous)"),
    cl::init(1.0));
cl::opt<Wait> waitOpt("wait",
                      cl::desc("Fidelity: how a compute action takes its time"),
                      cl::init(Wait::Spin),
                      cl::values(clEnumValN(Wait::Spin, "spin",
                                            "busy-wait on a steady clock"),
                                 clEnumValN(Wait::Sleep, "sleep",
                                            "std::this_thread::sleep_for")));

/// One schedule ready to run: its model, the schedule with messages, the
/// shape it was built for ("1", "loop V=2", "V V=2").
struct Built {
  PipelineModel model;
  Schedule schedule;
  std::string shape;
};

/// The model of `numRanks` * `stagesPerRank` stages under `placement`. A
/// rank's total work is the same for every V: chunk costs are the stage
/// costs divided by V.
PipelineModel makeModel(int numRanks, int stagesPerRank, Placement placement,
                        int64_t payload) {
  PipelineModel model;
  model.numRanks = numRanks;
  model.activationBytes = payload;
  std::vector<int> ranks =
      llvm::cantFail(placeStages(placement, numRanks, stagesPerRank));
  int numStages = numRanks * stagesPerRank;
  for (int s = 0; s < numStages; ++s) {
    double scale = (s + 1 == numStages ? lastStageScaleOpt : 1.0) /
                   static_cast<double>(stagesPerRank);
    StageInfo stage;
    stage.rank = ranks[s];
    stage.forwardTime = forwardOpt * scale;
    stage.backwardInputTime = backwardOpt * scale;
    stage.backwardWeightTime = weightOpt * scale;
    stage.stashBytes = payload;
    stage.weightStashBytes = payload;
    model.stages.push_back(stage);
  }
  return model;
}

/// Builds `name` on the first shape it accepts: one stage per rank, then the
/// loop and the V placement with two stages per rank (interleaved-1f1b and
/// looped-bfs: the loop placement with two stages per rank first). Returns the
/// last error's message in `error` if none fits.
std::optional<Built> build(const std::string &name, int numRanks,
                           int numMicrobatches, int64_t payload,
                           std::string &error) {
  struct Shape {
    int stagesPerRank;
    Placement placement;
    const char *label;
  };
  std::vector<Shape> shapes = {{1, Placement::Loop, "1"},
                               {2, Placement::Loop, "loop V=2"},
                               {2, Placement::V, "V V=2"}};
  // Interleaved schedules also accept V = 1 (where they are 1F1B or GPipe):
  // run them interleaved.
  if (name == "interleaved-1f1b" || name == "looped-bfs")
    std::swap(shapes[0], shapes[1]);
  for (const Shape &shape : shapes) {
    PipelineModel model =
        makeModel(numRanks, shape.stagesPerRank, shape.placement, payload);
    llvm::Expected<Schedule> compute =
        buildSchedule(name, model, numMicrobatches);
    if (!compute) {
      error = llvm::toString(compute.takeError());
      continue;
    }
    Schedule withComm = insertCommunication(model, *compute);
    std::vector<Problem> problems = checkSchedule(model, withComm);
    if (!problems.empty()) {
      error = problems.front().message;
      return std::nullopt;
    }
    return Built{std::move(model), std::move(withComm), shape.label};
  }
  return std::nullopt;
}

pprt_action traceKind(ActionKind kind) {
  switch (kind) {
  case ActionKind::Forward:
    return PPRT_FORWARD;
  case ActionKind::Backward:
    return PPRT_BACKWARD;
  case ActionKind::BackwardInput:
    return PPRT_BACKWARD_INPUT;
  case ActionKind::BackwardWeight:
    return PPRT_BACKWARD_WEIGHT;
  case ActionKind::Send:
    return PPRT_SEND;
  case ActionKind::Recv:
    return PPRT_RECV;
  }
  llvm_unreachable("unknown action kind");
}

/// Takes `us` microseconds in the current thread.
void work(double us) {
  if (us <= 0)
    return;
  auto duration = std::chrono::duration<double, std::micro>(us);
  if (waitOpt == Wait::Sleep) {
    std::this_thread::sleep_for(duration);
    return;
  }
  auto end =
      std::chrono::steady_clock::now() +
      std::chrono::duration_cast<std::chrono::steady_clock::duration>(duration);
  while (std::chrono::steady_clock::now() < end) {
  }
}

/// Runs rank `rank`'s program of `built`. Compute actions take their model
/// time if `timed`, nothing otherwise; messages carry `payload` bytes.
void interpret(const Built &built, int rank, pprt_rank *handle, int64_t payload,
               bool timed) {
  std::vector<char> out(payload, 1), in(payload);
  for (const Action &action : built.schedule.ranks[rank]) {
    pprt_action_begin(handle, traceKind(action.kind), action.stage,
                      action.microbatch);
    int64_t kind = action.payload == PayloadKind::Activation ? PPRT_ACTIVATION
                                                             : PPRT_GRADIENT;
    if (action.kind == ActionKind::Send)
      pprt_send(handle, action.peer, action.stage, action.microbatch, kind,
                out.data(), payload);
    else if (action.kind == ActionKind::Recv)
      pprt_recv(handle, action.peer, action.stage, action.microbatch, kind,
                in.data(), payload);
    else if (timed)
      work(actionTime(built.model, action));
    pprt_action_end(handle);
  }
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

/// Medians of one configuration's measured steps.
struct Measured {
  double wall = 0;       ///< seconds, runStep (mpi: max over processes)
  double makespan = 0;   ///< seconds, stepTiming
  double bubbleRate = 0; ///< stepTiming().bubbleRate
  double meanBubbleRate = 0;
};

/// Runs `built` for one warm-up and `repetitions` measured steps. Exits on
/// a failed step (mpi: the runtime aborts the job itself).
Measured measure(pprt::World &world, const Built &built, int64_t payload,
                 bool timed) {
  std::vector<double> wall, makespan, bubble, meanBubble;
  for (int step = 0; step <= repetitionsOpt; ++step) {
    auto start = std::chrono::steady_clock::now();
    bool ok = world.runStep([&](int rank, pprt_rank *handle) {
      interpret(built, rank, handle, payload, timed);
    });
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    if (!ok) {
      llvm::errs() << "pp-bench-runtime: step failed: " << world.error()
                   << "\n";
      std::exit(1);
    }
    seconds = world.allReduceMax(seconds);
    if (step == 0)
      continue;
    pprt::StepTiming timing = world.stepTiming();
    wall.push_back(seconds);
    makespan.push_back(timing.makespan);
    bubble.push_back(timing.bubbleRate);
    meanBubble.push_back(timing.meanBubbleRate);
  }
  return {median(wall), median(makespan), median(bubble), median(meanBubble)};
}

/// Creates the world of `numRanks` ranks, or exits.
std::unique_ptr<pprt::World> makeWorld(int numRanks) {
  pprt::WorldOptions options;
  options.ranks = numRanks;
  options.transport = transportOpt;
  options.microbatches = microbatchesOpt;
  std::string error;
  std::unique_ptr<pprt::World> world = pprt::World::create(options, error);
  if (!world) {
    llvm::errs() << "pp-bench-runtime: " << error << "\n";
    std::exit(1);
  }
  return world;
}

/// True if this process prints (inproc: always; mpi: the process of rank 0).
bool printer(pprt::World &world) {
  std::vector<int> local = world.localRanks();
  return std::find(local.begin(), local.end(), 0) != local.end();
}

size_t maxActionsPerRank(const Schedule &schedule) {
  size_t most = 0;
  for (const auto &rank : schedule.ranks)
    most = std::max(most, rank.size());
  return most;
}

/// Runtime calls of one step: 2 per compute action, 3 per Send or Recv.
int64_t runtimeCalls(const Schedule &schedule) {
  int64_t calls = 0;
  for (const auto &rank : schedule.ranks)
    for (const Action &action : rank)
      calls += action.isCompute() ? 2 : 3;
  return calls;
}

/// One row of a table: a world of `numRanks` ranks, schedule `name` with
/// `payload`-byte messages, and its Built, null if it cannot be built.
struct Case {
  pprt::World &world;
  int numRanks;
  /// Whether this process prints (printer()).
  bool print;
  const std::string &name;
  int64_t payload;
  const Built *built;
};

/// Calls `row` for every case of the command line: every --ranks size (one
/// world each), schedule and payload. Before the first row this process
/// prints, it prints `header` (the table's head).
void forEachCase(const std::string &header,
                 llvm::function_ref<void(const Case &)> row) {
  bool headerDone = false;
  for (int numRanks : ranksOpt) {
    std::unique_ptr<pprt::World> world = makeWorld(numRanks);
    bool print = printer(*world);
    if (print && !headerDone) {
      llvm::outs() << header;
      headerDone = true;
    }
    for (const std::string &name : schedulesOpt)
      for (int64_t payload : payloadOpt) {
        std::string error;
        std::optional<Built> built =
            build(name, numRanks, microbatchesOpt, payload, error);
        row({*world, numRanks, print, name, payload,
             built ? &*built : nullptr});
      }
  }
}

void overhead() {
  std::string header =
      "| transport | P | schedule | M | payload (B) | actions/rank | "
      "runtime calls | step wall (us) | makespan (us) | "
      "wall/action (us) | makespan/action (us) |\n"
      "| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | "
      "---: | ---: |\n";
  forEachCase(header, [&](const Case &c) {
    if (!c.built) {
      if (c.print)
        llvm::outs() << "| " << transportOpt << " | " << c.numRanks << " | "
                     << c.name << " | " << microbatchesOpt << " | " << c.payload
                     << " | - | - | - | - | - | - |\n";
      return;
    }
    Measured m = measure(c.world, *c.built, c.payload, /*timed=*/false);
    double actions = maxActionsPerRank(c.built->schedule);
    if (c.print)
      llvm::outs() << "| " << transportOpt << " | " << c.numRanks << " | "
                   << c.name << " | " << microbatchesOpt << " | " << c.payload
                   << " | " << static_cast<int64_t>(actions) << " | "
                   << runtimeCalls(c.built->schedule) << " | "
                   << llvm::format("%.0f", m.wall * 1e6) << " | "
                   << llvm::format("%.0f", m.makespan * 1e6) << " | "
                   << llvm::format("%.2f", m.wall * 1e6 / actions) << " | "
                   << llvm::format("%.2f", m.makespan * 1e6 / actions)
                   << " |\n";
    llvm::outs().flush();
  });
}

void fidelity() {
  unsigned cores = std::thread::hardware_concurrency();
  const char *wait = waitOpt == Wait::Spin ? "spin" : "sleep";
  std::string header =
      "| transport | wait | P | cores | schedule | shape | M | "
      "measured makespan (us) | predicted (us) | ratio | "
      "measured bubble | predicted bubble | difference | "
      "measured mean bubble |\n"
      "| --- | --- | ---: | ---: | --- | --- | ---: | ---: | ---: | "
      "---: | ---: | ---: | ---: | ---: |\n";
  forEachCase(header, [&](const Case &c) {
    // P ranks that spin need P cores; say so in the row.
    std::string coreNote = std::to_string(cores);
    if (static_cast<unsigned>(c.numRanks) > cores)
      coreNote += " (P > cores)";
    if (!c.built) {
      if (c.print)
        llvm::outs() << "| " << transportOpt << " | " << wait << " | "
                     << c.numRanks << " | " << coreNote << " | " << c.name
                     << " | - | " << microbatchesOpt
                     << " | - | - | - | - | - | - | - |\n";
      return;
    }
    const Built &built = *c.built;
    SimulationResult predicted = simulate(built.model, built.schedule);
    Measured m = measure(c.world, built, c.payload, /*timed=*/true);
    double measuredUs = m.makespan * 1e6;
    if (c.print)
      llvm::outs() << "| " << transportOpt << " | " << wait << " | "
                   << c.numRanks << " | " << coreNote << " | " << c.name
                   << " | " << built.shape << " | " << microbatchesOpt << " | "
                   << llvm::format("%.0f", measuredUs) << " | "
                   << llvm::format("%.0f", predicted.makespan) << " | "
                   << llvm::format("%.3f", measuredUs / predicted.makespan)
                   << " | " << llvm::format("%.3f", m.bubbleRate) << " | "
                   << llvm::format("%.3f", predicted.bubbleRate) << " | "
                   << llvm::format("%+.3f", m.bubbleRate - predicted.bubbleRate)
                   << " | " << llvm::format("%.3f", m.meanBubbleRate) << " |\n";
    llvm::outs().flush();
  });
}

} // namespace

int main(int argc, char **argv) {
  cl::ParseCommandLineOptions(
      argc, argv,
      "pipeline runtime benchmark: overhead per action and fidelity against "
      "simulate()\n");
  if (ranksOpt.empty())
    ranksOpt.push_back(2);
  bool isOverhead = modeOpt == Mode::Overhead;
  if (schedulesOpt.empty()) {
    std::vector<const char *> defaults = {"1f1b", "zb-h1"};
    if (!isOverhead)
      defaults = {"gpipe", "1f1b", "interleaved-1f1b",
                  "zb-h1", "zb-v", "dualpipe-v"};
    for (const char *name : defaults)
      schedulesOpt.push_back(name);
  }
  if (payloadOpt.empty()) {
    payloadOpt.push_back(64);
    if (isOverhead)
      payloadOpt.push_back(1 << 20);
  }
  if (microbatchesOpt < 1 || repetitionsOpt < 1) {
    llvm::errs() << "pp-bench-runtime: --microbatches and --repetitions must "
                    "be at least 1\n";
    return 2;
  }
  if (isOverhead)
    overhead();
  else
    fidelity();
  return 0;
}
