//===- TrainState.cpp - the trainer's checkpoints (--save, --resume) ------===//
//
// The parameters by the model's arguments as prepared, whole: a parameter
// that split ops made pieces of is reassembled on saving and sliced again
// on resuming (Trainer::initializeParameters), so a checkpoint resumes at
// another P, V or schedule. Format: pp/Driver/Checkpoint.h.
//
//===----------------------------------------------------------------------===//

#include "Trainer.h"

#include "pp/Driver/Checkpoint.h"

#include "llvm/ADT/Twine.h"

using namespace mlir;
using namespace mlir::pp;
using namespace mlir::pp::driver;
using exec::HostTensor;

static llvm::Error error(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

llvm::Error Trainer::resumeFrom(std::map<unsigned, HostTensor> &values,
                                std::map<unsigned, std::string> &origin) {
  llvm::Expected<Checkpoint> checkpoint = readCheckpoint(
      options.resumeDirectory, model.lossName, model.preparedParameters);
  if (!checkpoint)
    return checkpoint.takeError();
  if (checkpoint->step >= options.steps)
    return error("--resume: " + options.resumeDirectory +
                 " is the state after step " + llvm::Twine(checkpoint->step) +
                 ": --steps=" + llvm::Twine(options.steps) +
                 " leaves nothing to train (--steps counts every step, those "
                 "before the checkpoint too)");
  for (auto &[argument, value] : checkpoint->parameters) {
    values[argument] = std::move(value);
    origin[argument] = "the checkpoint";
  }
  firstStep = checkpoint->step + 1;
  progress.phase("resuming after step " + llvm::Twine(checkpoint->step) +
                 " from " + options.resumeDirectory);
  return llvm::Error::success();
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
  for (const auto &[a, spec] : model.preparedParameters) {
    HostTensor whole(spec);
    for (unsigned c : model.parameterArgs) {
      const CompiledModel::ArgumentOrigin &from = model.argumentOrigins[c];
      if (from.argument != a)
        continue;
      auto it = firstUse.find(c);
      if (it == firstUse.end())
        return error("--save: argument " + llvm::Twine(c) + " of @" +
                     model.lossName + " is no stage's parameter");
      const pprt::Buffer &b =
          session.world().parameter(it->second.first, it->second.second);
      HostTensor piece(model.argumentSpecs[c]);
      if (b.bytes.size() != piece.byteSize())
        return error("--save: parameter " + argumentName(c) +
                     " is not held by this process");
      std::memcpy(piece.data(), b.bytes.data(), piece.byteSize());
      if (from.dim < 0)
        whole = std::move(piece);
      else
        exec::insertAlong(whole, piece, from.dim, from.offset);
    }
    checkpoint.parameters.emplace_back(a, std::move(whole));
  }
  if (!leader)
    return llvm::Error::success();
  if (llvm::Error e = writeCheckpoint(options.saveDirectory, checkpoint))
    return e;
  out << "saved the state after step " << step << " to "
      << options.saveDirectory << "\n";
  return llvm::Error::success();
}
