//===- TrainState.cpp - the trainer's checkpoints (--save, --resume) ------===//
//
// The parameters by the model's arguments as prepared, whole: a parameter
// that split ops made pieces of is reassembled on saving and sliced again
// on resuming (Trainer::initializeParameters), so a checkpoint resumes at
// another P, V or schedule. Format: pp/Driver/Checkpoint.h.
//
//===----------------------------------------------------------------------===//

#include "Trainer.h"
#include "pp/Support/Error.h"

#include "pp/Driver/Checkpoint.h"

#include "llvm/ADT/Twine.h"

#include <cstring>

using namespace mlir;
using namespace mlir::pp;
using namespace mlir::pp::driver;
using exec::HostTensor;

llvm::Error Trainer::resumeFrom(std::map<unsigned, HostTensor> &values,
                                std::map<unsigned, std::string> &origin) {
  std::vector<std::string> stateNames =
      exec::optimizerStateNames(options.optimizer.kind);
  llvm::Expected<Checkpoint> checkpoint = readCheckpoint(
      options.resumeDirectory, model.lossName, model.preparedParameters,
      exec::optimizerName(options.optimizer.kind), stateNames);
  if (!checkpoint)
    return checkpoint.takeError();
  if (checkpoint->step >= options.steps)
    return makeError(
        "--resume: " + options.resumeDirectory + " is the state after step " +
        llvm::Twine(checkpoint->step) +
        ": --steps=" + llvm::Twine(options.steps) +
        " leaves nothing to train (--steps counts every step, those "
        "before the checkpoint too)");
  for (auto &[argument, value] : checkpoint->parameters) {
    values[argument] = std::move(value);
    origin[argument] = "the checkpoint";
  }
  for (auto [k, name] : llvm::enumerate(stateNames))
    for (auto &[argument, value] : checkpoint->state[name]) {
      std::vector<HostTensor> &state = resumedState[argument];
      state.resize(stateNames.size());
      state[k] = std::move(value);
    }
  updates = checkpoint->updates;
  firstStep = checkpoint->step + 1;
  progress.phase("resuming after step " + llvm::Twine(checkpoint->step) +
                 " from " + options.resumeDirectory);
  return llvm::Error::success();
}

llvm::Expected<std::map<unsigned, HostTensor>>
Trainer::gatherTensors(int stateIndex) {
  pprt::World &world = session.world();
  std::vector<int> local = world.localPipelineRanks();
  // This process's part: (argument, bytes) of the arguments whose first
  // use it runs, each as [argument][byte count][bytes].
  std::vector<char> mine;
  auto append = [&](const void *data, size_t bytes) {
    const char *p = static_cast<const char *>(data);
    mine.insert(mine.end(), p, p + bytes);
  };
  for (const auto &[a, use] : firstUse) {
    if (!llvm::is_contained(local, model.pipeline.rankOf(use.first)))
      continue;
    const void *data;
    int64_t bytes;
    if (stateIndex < 0) {
      const pprt::Buffer &b = world.parameter(use.first, use.second);
      data = b.bytes.data();
      bytes = static_cast<int64_t>(b.bytes.size());
    } else {
      const HostTensor &t = optimizerState[a][stateIndex];
      data = t.data();
      bytes = static_cast<int64_t>(t.byteSize());
    }
    int64_t argument = a;
    append(&argument, sizeof(argument));
    append(&bytes, sizeof(bytes));
    append(data, bytes);
  }
  std::map<unsigned, HostTensor> tensors;
  for (const std::vector<char> &part : world.allGather(mine)) {
    size_t at = 0;
    while (at + 2 * sizeof(int64_t) <= part.size()) {
      int64_t argument, bytes;
      std::memcpy(&argument, part.data() + at, sizeof(argument));
      std::memcpy(&bytes, part.data() + at + sizeof(argument), sizeof(bytes));
      at += 2 * sizeof(int64_t);
      if (argument < 0 ||
          argument >= static_cast<int64_t>(model.argumentSpecs.size()) ||
          bytes < 0 || at + bytes > part.size())
        return makeError("the gathered parameters arrived malformed");
      HostTensor t(model.argumentSpecs[argument]);
      // Every process sees the same gathered bytes, so each fails alike.
      if (static_cast<size_t>(bytes) != t.byteSize())
        return makeError("parameter " + argumentName(argument) +
                         " arrived as " + llvm::Twine(bytes) + " bytes, not " +
                         llvm::Twine(t.byteSize()) +
                         " (is it held by no process?)");
      std::memcpy(t.data(), part.data() + at, bytes);
      at += bytes;
      tensors.emplace(static_cast<unsigned>(argument), std::move(t));
    }
  }
  return tensors;
}

llvm::Error Trainer::saveIfDue(int step) {
  if (options.saveDirectory.empty())
    return llvm::Error::success();
  bool due = step == options.steps ||
             (options.saveEvery > 0 && step % options.saveEvery == 0);
  if (!due)
    return llvm::Error::success();
  Checkpoint checkpoint;
  checkpoint.function = model.lossName;
  checkpoint.step = step;
  checkpoint.seed = options.seed;
  checkpoint.optimizer = exec::optimizerName(options.optimizer.kind).str();
  checkpoint.updates = updates;
  std::vector<std::string> stateNames =
      exec::optimizerStateNames(options.optimizer.kind);
  // Parameters (-1), then each state tensor, whole by argument as
  // prepared.
  for (int role = -1; role < static_cast<int>(stateNames.size()); ++role) {
    llvm::Expected<std::map<unsigned, HostTensor>> gathered =
        gatherTensors(role);
    if (!gathered)
      return makeError("--save: " + llvm::toString(gathered.takeError()));
    std::map<unsigned, HostTensor> &pieces = *gathered;
    Checkpoint::Tensors &whole =
        role < 0 ? checkpoint.parameters : checkpoint.state[stateNames[role]];
    for (const auto &[a, spec] : model.preparedParameters) {
      HostTensor value(spec);
      for (unsigned c : model.parameterArgs) {
        const CompiledModel::ArgumentOrigin &from = model.argumentOrigins[c];
        if (from.argument != a)
          continue;
        auto it = pieces.find(c);
        if (it == pieces.end())
          return makeError("--save: parameter " + argumentName(c) +
                           " is held by no process");
        if (from.dim < 0)
          value = std::move(it->second);
        else
          exec::insertAlong(value, it->second, from.dim, from.offset);
      }
      whole.emplace_back(a, std::move(value));
    }
  }
  if (!leader)
    return llvm::Error::success();
  if (llvm::Error e = writeCheckpoint(options.saveDirectory, checkpoint))
    return e;
  out << "saved the state after step " << step << " to "
      << options.saveDirectory << "\n";
  return llvm::Error::success();
}
