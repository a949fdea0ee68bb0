//===- TrainData.cpp - the trainer's dataset, read step by step -----------===//
//
// --dataset (TrainOptions::datasetFiles): NumPy files of N samples each,
// step s reading samples (s-1)*M .. s*M-1 modulo N; with --shuffle every
// epoch in its own order. The sample a step reads depends on the step
// alone, so a run resumed from a checkpoint reads what the continuous run
// read (docs/Runtime.md, "Data and parameters").
//
//===----------------------------------------------------------------------===//

#include "Trainer.h"
#include "pp/Support/Error.h"

#include "pp/Execution/Npy.h"

#include "llvm/ADT/Twine.h"

#include <numeric>

using namespace mlir;
using namespace mlir::pp;
using namespace mlir::pp::driver;
using namespace mlir::pp::exec;

std::string Trainer::microbatchesOrigin() const {
  if (replicas <= 1)
    return "(--microbatches)";
  return "(" + std::to_string(replicas) + " replicas x " +
         std::to_string(numMicrobatches / replicas) + " --microbatches)";
}

llvm::Error Trainer::loadDatasets() {
  if (options.datasetFiles.empty())
    return llvm::Error::success();
  std::vector<unsigned> dataArgs;
  for (unsigned a = 0; a < model.argumentSpecs.size(); ++a)
    if (!llvm::is_contained(model.parameterArgs, a))
      dataArgs.push_back(a);
  if (options.datasetFiles.size() > dataArgs.size())
    return makeError("--dataset names " +
                     llvm::Twine(options.datasetFiles.size()) +
                     " files, but @" + model.lossName + " has " +
                     llvm::Twine(dataArgs.size()) + " data arguments");
  std::string first;
  for (auto [i, path] : llvm::enumerate(options.datasetFiles)) {
    if (path.empty())
      continue;
    unsigned a = dataArgs[i];
    unsigned named = model.argumentOrigins[a].argument;
    if (dataFiles.count(a))
      return makeError("--dataset and --inputs both give data argument " +
                       llvm::Twine(named) + ": use one");
    llvm::Expected<HostTensor> t = readNpy(path);
    if (!t)
      return makeError("--dataset: " + llvm::toString(t.takeError()));
    const TensorSpec &spec = model.argumentSpecs[a];
    TensorSpec sample = t->spec();
    if (!sample.shape.empty())
      sample.shape.erase(sample.shape.begin());
    if (t->shape().empty() || sample != spec)
      return makeError("--dataset: " + path + " holds " +
                       elemKindName(t->kind()) + " " + t->spec().shapeStr() +
                       ", but data argument " + llvm::Twine(named) + " of @" +
                       model.lossName + " takes " + spec.str() +
                       " per micro-batch: expected " + elemKindName(spec.kind) +
                       " (N, " + spec.shapeStr().substr(1));
    int64_t n = t->shape().front();
    if (n < numMicrobatches)
      return makeError("--dataset: " + path + " holds " + llvm::Twine(n) +
                       " samples, but one step takes " +
                       llvm::Twine(numMicrobatches) + " " +
                       microbatchesOrigin());
    if (!first.empty() && n != datasetSamples)
      return makeError("--dataset: " + path + " holds " + llvm::Twine(n) +
                       " samples, " + first + " " +
                       llvm::Twine(datasetSamples) +
                       ": every file must hold the same samples");
    datasetSamples = n;
    first = path;
    datasets.emplace(a, std::move(*t));
  }
  if (datasets.empty())
    return llvm::Error::success();
  int64_t stepsPerEpoch = datasetSamples / numMicrobatches;
  progress.phase("dataset: " + llvm::Twine(datasetSamples) + " samples, " +
                 (datasetSamples % numMicrobatches == 0
                      ? llvm::Twine(stepsPerEpoch) + " steps per epoch"
                      : llvm::Twine("an epoch every ") +
                            llvm::Twine(datasetSamples) + "/" +
                            llvm::Twine(numMicrobatches) + " steps") +
                 (options.shuffle ? ", shuffled" : ", in order"));
  return llvm::Error::success();
}

int64_t Trainer::sampleOf(int step, int mb) {
  int64_t global = int64_t(step - 1) * numMicrobatches + mb;
  int64_t epoch = global / datasetSamples;
  int64_t index = global % datasetSamples;
  if (!options.shuffle)
    return index;
  if (epoch != orderedEpoch) {
    // Fisher-Yates over 0..N-1 with splitmix64 seeded by the seed and the
    // epoch: the same order on every machine and for every argument.
    epochOrder.resize(datasetSamples);
    std::iota(epochOrder.begin(), epochOrder.end(), 0);
    SplitMix64 random(options.seed * 0x9E3779B97F4A7C15ull +
                      static_cast<uint64_t>(epoch) + 1);
    for (int64_t i = datasetSamples - 1; i > 0; --i)
      std::swap(epochOrder[i], epochOrder[random.below(i + 1)]);
    orderedEpoch = epoch;
  }
  return epochOrder[index];
}
