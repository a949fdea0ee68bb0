//===- PipelineModel.cpp - Pipelines, placements and actions -------------===//
//
// The small helpers on pipelines and actions that the generators, the
// simulator and the bounds share: PipelineModel::uniform, label, describe,
// actionTime, the placements (placeStages, hasPlacement) and stagesOfRanks.
//
//===----------------------------------------------------------------------===//

#include "Generators.h"

#include "llvm/Support/ErrorHandling.h"

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
// Placements
//===----------------------------------------------------------------------===//

std::vector<std::vector<int>>
mlir::pp::sched::detail::stagesOfRanks(const PipelineModel &model) {
  std::vector<std::vector<int>> stages(model.numRanks);
  for (int s = 0; s < model.numStages(); ++s)
    stages[model.rankOf(s)].push_back(s);
  return stages;
}

llvm::Expected<std::vector<int>>
mlir::pp::sched::placeStages(Placement placement, int numRanks,
                             int stagesPerRank) {
  if (numRanks < 1)
    return llvm::createStringError(
        "a placement needs at least one rank, got %d", numRanks);
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
