//===- Generators.cpp - Pipeline schedule generators ---------------------===//
//
// The registry of schedule generators (buildSchedule) and the compute-only
// generators GPipe and 1F1B.
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

bool mlir::pp::sched::isVShapedSchedule(llvm::StringRef name) {
  // The generator families that place stages in a V (VShape.cpp,
  // ControllableMemory.cpp).
  for (const Entry &entry : kSchedules)
    if (name == entry.name)
      return entry.build == buildZBV || entry.build == buildDualPipeV ||
             entry.build == buildControllable;
  return false;
}

std::vector<std::string> mlir::pp::sched::scheduleNames() {
  std::vector<std::string> names;
  for (const Entry &entry : kSchedules)
    names.push_back(entry.name);
  return names;
}

Action mlir::pp::sched::detail::compute(ActionKind kind, int stage,
                                        int microbatch) {
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
