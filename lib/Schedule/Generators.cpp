//===- Generators.cpp - Pipeline schedule generators ---------------------===//
//
// Compute-only schedule generators (GPipe, 1F1B) and the small helpers on
// pipelines and actions (PipelineModel::uniform, label, describe, actionTime).
//
//===----------------------------------------------------------------------===//

#include "pp/Schedule/Schedule.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ErrorHandling.h"

#include <algorithm>

using namespace mlir::pp::sched;

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

std::vector<std::string> mlir::pp::sched::scheduleNames() {
  return {"gpipe", "1f1b"};
}

static std::string plural(int64_t n, llvm::StringRef word) {
  return std::to_string(n) + " " + word.str() + (n == 1 ? "" : "s");
}

static Action compute(ActionKind kind, int stage, int microbatch) {
  Action action;
  action.kind = kind;
  action.stage = stage;
  action.microbatch = microbatch;
  return action;
}

/// Checks that `model` has exactly one stage per rank (S == P, every rank
/// holds one stage) and returns, for each rank, its stage.
static llvm::Expected<std::vector<int>>
stagePerRank(llvm::StringRef name, const PipelineModel &model) {
  int numRanks = model.numRanks, numStages = model.numStages();
  if (numStages != numRanks)
    return llvm::createStringError(
        "'%s' needs one stage per rank, but the pipeline has %s on %s",
        name.str().c_str(), plural(numStages, "stage").c_str(),
        plural(numRanks, "rank").c_str());
  std::vector<int> stageOf(numRanks, -1);
  for (int s = 0; s < numStages; ++s) {
    int rank = model.rankOf(s);
    if (rank < 0 || rank >= numRanks)
      return llvm::createStringError(
          "stage %d is placed on rank %d, but the pipeline has %s", s, rank,
          plural(numRanks, "rank").c_str());
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

/// GPipe (Huang et al., "GPipe: Efficient Training of Giant Neural Networks
/// using Pipeline Parallelism", NeurIPS 2019, sec. 2.2): every stage runs the
/// forwards of all micro-batches, then their backwards in reverse order.
static void buildGPipe(const std::vector<int> &stageOf, int numMicrobatches,
                       Schedule &schedule) {
  for (size_t rank = 0; rank < stageOf.size(); ++rank) {
    int stage = stageOf[rank];
    std::vector<Action> &program = schedule.ranks[rank];
    program.reserve(2 * numMicrobatches);
    for (int m = 0; m < numMicrobatches; ++m)
      program.push_back(compute(ActionKind::Forward, stage, m));
    for (int m = numMicrobatches - 1; m >= 0; --m)
      program.push_back(compute(ActionKind::Backward, stage, m));
  }
}

/// 1F1B as in PipeDream-Flush / Megatron-LM (Narayanan et al., "Efficient
/// Large-Scale Language Model Training on GPU Clusters Using Megatron-LM",
/// SC'21, sec. 2.2.1; Megatron's
/// forward_backward_pipelining_without_interleaving): stage s of S runs
/// w = min(S - s - 1, M) warm-up forwards, then M - w steady-state pairs
/// (one forward, one backward), then the w cool-down backwards. Backwards run
/// in micro-batch order.
static void build1F1B(const std::vector<int> &stageOf, int numMicrobatches,
                      Schedule &schedule) {
  int numStages = static_cast<int>(stageOf.size());
  for (int rank = 0; rank < numStages; ++rank) {
    int stage = stageOf[rank];
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
  }
}

llvm::Expected<Schedule>
mlir::pp::sched::buildSchedule(llvm::StringRef name, const PipelineModel &model,
                               int numMicrobatches) {
  std::vector<std::string> names = scheduleNames();
  if (!llvm::is_contained(names, name))
    return llvm::createStringError(
        "schedule '%s' is unknown; known schedules: %s", name.str().c_str(),
        llvm::join(names, ", ").c_str());
  if (model.numRanks < 1)
    return llvm::createStringError("num-ranks must be >= 1, got %d",
                                   model.numRanks);
  if (numMicrobatches < 1)
    return llvm::createStringError("num-microbatches must be >= 1, got %d",
                                   numMicrobatches);
  if (model.numStages() == 0)
    return llvm::createStringError("the pipeline has no stages");

  llvm::Expected<std::vector<int>> stageOf = stagePerRank(name, model);
  if (!stageOf)
    return stageOf.takeError();

  Schedule schedule;
  schedule.numMicrobatches = numMicrobatches;
  schedule.ranks.resize(model.numRanks);
  if (name == "gpipe")
    buildGPipe(*stageOf, numMicrobatches, schedule);
  else
    build1F1B(*stageOf, numMicrobatches, schedule);
  return schedule;
}
