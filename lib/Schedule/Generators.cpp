//===- Generators.cpp - Pipeline schedule generators ---------------------===//
//
// Compute-only schedule generators (GPipe, 1F1B) and the small helpers on
// pipelines and actions (PipelineModel::uniform, label, describe, actionTime).
//
//===----------------------------------------------------------------------===//

#include "Generators.h"
#include "pp/Schedule/AutoSchedule.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ErrorHandling.h"

#include <algorithm>

using namespace mlir::pp::sched;
using namespace mlir::pp::sched::detail;

//===----------------------------------------------------------------------===//
// Pipelines and actions
//===----------------------------------------------------------------------===//

PipelineModel PipelineModel::uniform(int numRanks, double forwardTime,
                                     double backwardInputTime,
                                     double backwardWeightTime,
                                     int64_t stashBytes,
                                     int64_t weightStashBytes, double latency) {
  PipelineModel model;
  model.numRanks = numRanks;
  model.latency = latency;
  for (int r = 0; r < numRanks; ++r) {
    StageInfo stage;
    stage.rank = r;
    stage.forwardTime = forwardTime;
    stage.backwardInputTime = backwardInputTime;
    stage.backwardWeightTime = backwardWeightTime;
    stage.stashBytes = stashBytes;
    stage.weightStashBytes = weightStashBytes;
    model.stages.push_back(stage);
  }
  return model;
}

std::string mlir::pp::sched::label(const Action &action) {
  std::string mb = std::to_string(action.microbatch);
  switch (action.kind) {
  case ActionKind::Forward:
    return "F" + mb;
  case ActionKind::Backward:
  case ActionKind::BackwardInput:
    return "B" + mb;
  case ActionKind::BackwardWeight:
    return "W" + mb;
  case ActionKind::Send:
  case ActionKind::Recv: {
    std::string prefix = action.kind == ActionKind::Send ? "SEND_" : "RECV_";
    return prefix + (action.payload == PayloadKind::Activation ? "F" : "B") +
           mb;
  }
  }
  llvm_unreachable("unknown action kind");
}

std::string mlir::pp::sched::describe(const Action &action) {
  std::string key = "stage " + std::to_string(action.stage) + " micro-batch " +
                    std::to_string(action.microbatch);
  std::string payload =
      action.payload == PayloadKind::Activation ? "activation" : "gradient";
  switch (action.kind) {
  case ActionKind::Forward:
    return "forward of " + key;
  case ActionKind::Backward:
    return "backward of " + key;
  case ActionKind::BackwardInput:
    return "B of " + key;
  case ActionKind::BackwardWeight:
    return "W of " + key;
  case ActionKind::Send:
    return "send of " + payload + " of " + key + " to rank " +
           std::to_string(action.peer);
  case ActionKind::Recv:
    return "recv of " + payload + " of " + key + " from rank " +
           std::to_string(action.peer);
  }
  llvm_unreachable("unknown action kind");
}

double mlir::pp::sched::actionTime(const PipelineModel &model,
                                   const Action &action) {
  if (action.isComm())
    return 0.0;
  const StageInfo &stage = model.stages[action.stage];
  switch (action.kind) {
  case ActionKind::Forward:
    return stage.forwardTime;
  case ActionKind::Backward:
    return stage.backwardInputTime + stage.backwardWeightTime;
  case ActionKind::BackwardInput:
    return stage.backwardInputTime;
  case ActionKind::BackwardWeight:
    return stage.backwardWeightTime;
  default:
    return 0.0;
  }
}

//===----------------------------------------------------------------------===//
// Generators
//===----------------------------------------------------------------------===//

namespace {
struct Entry {
  const char *name;
  const char *summary;
  Generator build;
};
} // namespace

/// The registry, in the order reports list the schedules.
static const Entry kSchedules[] = {
    {"gpipe", "GPipe (Huang et al., NeurIPS 2019): all F, then all B",
     buildGPipe},
    {"1f1b",
     "1F1B / PipeDream-Flush (Narayanan et al., SC'21): warm-up, one F one B, "
     "cool-down",
     build1F1B},
    {"interleaved-1f1b",
     "interleaved 1F1B (Narayanan et al., SC'21, sec. 2.2.2): V chunks per "
     "rank, loop placement",
     buildInterleaved1F1B},
    {"looped-bfs",
     "looped breadth-first (Lamy-Poirier, 2023): all F of a chunk before the "
     "next, B reversed",
     buildLoopedBFS},
    {"zb-h1",
     "ZB-H1 (Qi et al., ICLR 2024): 1F1B memory, W fills the cool-down",
     buildZeroBubble},
    {"zb-h2",
     "ZB-H2 (Qi et al., ICLR 2024): more warm-up F, W delayed, ~zero bubble",
     buildZeroBubble},
    {"zb-v",
     "ZB-V (Qi et al., ICLR 2024, sec. 6): V placement, zero bubble at P "
     "stashes",
     buildZBV},
    {"dualpipe-v",
     "DualPipeV (DeepSeek, 2025): V placement, overlapped F&B pairs",
     buildDualPipeV},
    {"v-half",
     "V-Half (Qi et al., NeurIPS 2024, \"Pipeline Parallelism with "
     "Controllable Memory\"): V placement, half of 1F1B's memory",
     buildControllable},
    {"v-min",
     "V-Min (Qi et al., NeurIPS 2024, \"Pipeline Parallelism with "
     "Controllable Memory\"): V placement, a third of 1F1B's memory",
     buildControllable},
    {"auto",
     "memory-aware search (the zero-bubble paper's greedy, Qi et al., ICLR "
     "2024, sec. 3, our own greedy, every named schedule, local search, an "
     "exact MIP where small): minimizes makespan under a memory limit",
     buildAuto},
};

std::vector<ScheduleInfo> mlir::pp::sched::schedules() {
  std::vector<ScheduleInfo> infos;
  for (const Entry &entry : kSchedules)
    infos.push_back({entry.name, entry.summary});
  return infos;
}

std::vector<std::string> mlir::pp::sched::scheduleNames() {
  std::vector<std::string> names;
  for (const Entry &entry : kSchedules)
    names.push_back(entry.name);
  return names;
}

Action mlir::pp::sched::detail::compute(ActionKind kind, int stage, int microbatch) {
  Action action;
  action.kind = kind;
  action.stage = stage;
  action.microbatch = microbatch;
  return action;
}

std::string mlir::pp::sched::detail::misplacedStage(
    const PipelineModel &model, llvm::function_ref<int(int stage)> wantedRank) {
  for (int s = 0; s < model.numStages(); ++s)
    if (model.rankOf(s) != wantedRank(s))
      return "stage " + std::to_string(s) + " is on rank " +
             std::to_string(model.rankOf(s)) + " instead of rank " +
             std::to_string(wantedRank(s));
  return "";
}

std::vector<std::vector<int>> mlir::pp::sched::detail::stagesOfRanks(const PipelineModel &model) {
  std::vector<std::vector<int>> stages(model.numRanks);
  for (int s = 0; s < model.numStages(); ++s)
    stages[model.rankOf(s)].push_back(s);
  return stages;
}

llvm::Expected<std::vector<int>>
mlir::pp::sched::placeStages(Placement placement, int numRanks,
                             int stagesPerRank) {
  if (numRanks < 1)
    return llvm::createStringError("a placement needs at least one rank, got %d",
                                   numRanks);
  if (stagesPerRank < 1)
    return llvm::createStringError(
        "a placement needs at least one stage per rank, got %d", stagesPerRank);
  std::vector<int> ranks(numRanks * stagesPerRank);
  switch (placement) {
  case Placement::Loop:
    for (int s = 0; s < numRanks * stagesPerRank; ++s)
      ranks[s] = s % numRanks;
    break;
  case Placement::V:
    if (stagesPerRank != 2)
      return llvm::createStringError(
          "the V placement puts exactly 2 stages on each rank, not %d",
          stagesPerRank);
    for (int r = 0; r < numRanks; ++r) {
      ranks[r] = r;
      ranks[2 * numRanks - 1 - r] = r;
    }
    break;
  }
  return ranks;
}

bool mlir::pp::sched::hasPlacement(const PipelineModel &model,
                                   Placement placement) {
  int numStages = model.numStages();
  if (model.numRanks < 1 || numStages % model.numRanks != 0)
    return false;
  llvm::Expected<std::vector<int>> ranks =
      placeStages(placement, model.numRanks, numStages / model.numRanks);
  if (!ranks) {
    llvm::consumeError(ranks.takeError());
    return false;
  }
  for (int s = 0; s < numStages; ++s)
    if (model.rankOf(s) != (*ranks)[s])
      return false;
  return true;
}

llvm::Expected<std::vector<int>>
mlir::pp::sched::detail::stagePerRank(llvm::StringRef name,
                                      const PipelineModel &model) {
  int numRanks = model.numRanks, numStages = model.numStages();
  if (numStages != numRanks)
    return llvm::createStringError(
        "'%s' needs one stage per rank, but the pipeline has %s on %s",
        name.str().c_str(), plural(numStages, "stage").c_str(),
        plural(numRanks, "rank").c_str());
  std::vector<int> stageOf(numRanks, -1);
  for (int s = 0; s < numStages; ++s) {
    int rank = model.rankOf(s);
    if (stageOf[rank] >= 0)
      return llvm::createStringError(
          "'%s' needs one stage per rank, but stages %d and %d are both on "
          "rank %d",
          name.str().c_str(), stageOf[rank], s, rank);
    stageOf[rank] = s;
  }
  // With S == P and no rank holding two stages, every rank holds one.
  return stageOf;
}

llvm::Error mlir::pp::sched::detail::forEachRankStage(
    llvm::StringRef name, const PipelineModel &model,
    llvm::function_ref<void(int rank, int stage)> build) {
  llvm::Expected<std::vector<int>> stages = stagePerRank(name, model);
  if (!stages)
    return stages.takeError();
  for (size_t rank = 0; rank < stages->size(); ++rank)
    build(static_cast<int>(rank), (*stages)[rank]);
  return llvm::Error::success();
}

/// GPipe (Huang et al., "GPipe: Efficient Training of Giant Neural Networks
/// using Pipeline Parallelism", NeurIPS 2019, sec. 2.2): every stage runs the
/// forwards of all micro-batches, then their backwards in reverse order.
llvm::Error mlir::pp::sched::detail::buildGPipe(llvm::StringRef name,
                                                const PipelineModel &model,
                                                int numMicrobatches,
                                                const ScheduleOptions &,
                                                Schedule &schedule) {
  return forEachRankStage(name, model, [&](int rank, int stage) {
    std::vector<Action> &program = schedule.ranks[rank];
    program.reserve(2 * numMicrobatches);
    for (int m = 0; m < numMicrobatches; ++m)
      program.push_back(compute(ActionKind::Forward, stage, m));
    for (int m = numMicrobatches - 1; m >= 0; --m)
      program.push_back(compute(ActionKind::Backward, stage, m));
  });
}

/// 1F1B as in PipeDream-Flush / Megatron-LM (Narayanan et al., "Efficient
/// Large-Scale Language Model Training on GPU Clusters Using Megatron-LM",
/// SC'21, sec. 2.2.1; Megatron's
/// forward_backward_pipelining_without_interleaving): stage s of S runs
/// w = min(S - s - 1, M) warm-up forwards, then M - w steady-state pairs
/// (one forward, one backward), then the w cool-down backwards. Backwards run
/// in micro-batch order.
llvm::Error mlir::pp::sched::detail::build1F1B(llvm::StringRef name,
                                               const PipelineModel &model,
                                               int numMicrobatches,
                                               const ScheduleOptions &,
                                               Schedule &schedule) {
  int numStages = model.numStages();
  return forEachRankStage(name, model, [&](int rank, int stage) {
    int warmup = std::min(numStages - stage - 1, numMicrobatches);
    std::vector<Action> &program = schedule.ranks[rank];
    program.reserve(2 * numMicrobatches);
    for (int m = 0; m < warmup; ++m)
      program.push_back(compute(ActionKind::Forward, stage, m));
    for (int i = 0; i < numMicrobatches - warmup; ++i) {
      program.push_back(compute(ActionKind::Forward, stage, warmup + i));
      program.push_back(compute(ActionKind::Backward, stage, i));
    }
    for (int m = numMicrobatches - warmup; m < numMicrobatches; ++m)
      program.push_back(compute(ActionKind::Backward, stage, m));
  });
}

llvm::Expected<Schedule>
mlir::pp::sched::buildSchedule(llvm::StringRef name, const PipelineModel &model,
                               int numMicrobatches,
                               const ScheduleOptions &options) {
  const Entry *entry = nullptr;
  for (const Entry &candidate : kSchedules)
    if (name == candidate.name)
      entry = &candidate;
  if (!entry)
    return llvm::createStringError(
        "schedule '%s' is unknown; known schedules: %s", name.str().c_str(),
        llvm::join(scheduleNames(), ", ").c_str());
  if (llvm::Error error = checkRequest(model, numMicrobatches))
    return std::move(error);

  Schedule schedule;
  schedule.numMicrobatches = numMicrobatches;
  schedule.ranks.resize(model.numRanks);
  if (llvm::Error error =
          entry->build(name, model, numMicrobatches, options, schedule))
    return std::move(error);
  // auto keeps to the limit by construction; every other schedule is what
  // it is, and refused if it does not fit.
  if (name != "auto")
    if (llvm::Error error =
            checkMemoryLimit(name, model, schedule, options.memoryLimitBytes))
      return std::move(error);
  return schedule;
}

llvm::Error mlir::pp::sched::detail::checkRequest(const PipelineModel &model,
                                                  int numMicrobatches) {
  if (model.numRanks < 1)
    return llvm::createStringError("num-ranks must be >= 1, got %d",
                                   model.numRanks);
  if (numMicrobatches < 1)
    return llvm::createStringError("num-microbatches must be >= 1, got %d",
                                   numMicrobatches);
  if (model.numStages() == 0)
    return llvm::createStringError("the pipeline has no stages");
  for (int s = 0; s < model.numStages(); ++s)
    if (model.rankOf(s) < 0 || model.rankOf(s) >= model.numRanks)
      return llvm::createStringError(
          "stage %d is placed on rank %d, but the pipeline has %s", s,
          model.rankOf(s), plural(model.numRanks, "rank").c_str());
  return llvm::Error::success();
}
