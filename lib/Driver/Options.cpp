//===- Options.cpp - the compile options: checks and defaults ------------===//
//
// validate(CompileOptions), withDefaults(), memoryLimitBytes(),
// lossFunctionName(), deviceName() and the names of the typed choices
// (lossKindName(), planCostsName(), precisionName()) (Driver.h): what needs
// no model.
//
//===----------------------------------------------------------------------===//

#include "pp/Driver/Driver.h"
#include "pp/Support/Error.h"

#include "pp/Model/CostModel.h"
#include "pp/Schedule/Schedule.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ErrorHandling.h"

using namespace mlir;
using namespace mlir::pp;
using namespace mlir::pp::driver;

const char *mlir::pp::driver::deviceName(Device device) {
  switch (device) {
  case Device::CPU:
    return "cpu";
  case Device::CUDA:
    return "cuda";
  case Device::CUDAEmulated:
    return "cuda-emu";
  }
  return "cpu";
}

//===----------------------------------------------------------------------===//
// Checks and defaults
//===----------------------------------------------------------------------===//

/// Bounds of the counts: far beyond any real pipeline, small enough that
/// products of them (stages, actions) stay in int.
static constexpr int kMaxRanks = 1 << 16;
static constexpr int kMaxMicrobatches = 1 << 20;
static constexpr int kMaxStagesPerRank = 1 << 10;

std::optional<int64_t>
mlir::pp::driver::memoryLimitBytes(const CompileOptions &options) {
  int64_t bytes = 0;
  if (!StringRef(options.memoryLimit).getAsInteger(10, bytes) && bytes > 0)
    return bytes;
  return std::nullopt;
}

CompileOptions mlir::pp::driver::withDefaults(const CompileOptions &options) {
  CompileOptions resolved = options;
  if (resolved.recompute.empty()) {
    resolved.recompute = memoryLimitBytes(options) ? "auto" : "none";
  }
  return resolved;
}

llvm::Error mlir::pp::driver::validate(const CompileOptions &options) {
  if (options.function.empty())
    return makeError("--function is required (the model function)");
  if (options.numRanks < 1)
    return makeError("--ranks must be at least 1");
  if (options.numRanks > kMaxRanks)
    return makeError("--ranks must be at most " + llvm::Twine(kMaxRanks));
  if (options.stagesPerRank < 1)
    return makeError("--stages-per-rank must be at least 1");
  if (options.stagesPerRank > kMaxStagesPerRank)
    return makeError("--stages-per-rank must be at most " +
                     llvm::Twine(kMaxStagesPerRank));
  if (options.numMicrobatches < 1)
    return makeError("--microbatches must be at least 1");
  if (options.allReduceBucketBytes < 0)
    return makeError("--allreduce-bucket-bytes must be >= 0, not " +
                     llvm::Twine(options.allReduceBucketBytes));
  if (options.numMicrobatches > kMaxMicrobatches)
    return makeError("--microbatches must be at most " +
                     llvm::Twine(kMaxMicrobatches));
  if (options.minElements < 0)
    return makeError("--min-elements must be >= 0");
  if (options.groupSize < 0 || options.groupSize > kMaxMicrobatches)
    return makeError("--group-size must be in [0, " +
                     llvm::Twine(kMaxMicrobatches) + "]");
  if (options.schedule.empty())
    return makeError("--schedule is required");
  if (!std::isfinite(options.solverTimeLimit) || options.solverTimeLimit < 0 ||
      options.solverTimeLimit > 86400)
    return makeError("--solver-time-limit must be in [0, 86400] seconds");
  if (!StringRef(options.schedule).starts_with("file:")) {
    std::vector<std::string> known = sched::scheduleNames();
    if (!llvm::is_contained(known, options.schedule))
      return makeError("unknown schedule '" + options.schedule +
                       "'; known schedules: " + llvm::join(known, ", ") +
                       ", or file:PATH (a schedule table)");
  }
  if (sched::isVShapedSchedule(options.schedule) && options.stagesPerRank != 2)
    return makeError(options.schedule +
                     " places 2 stages on each rank in a V: use "
                     "--stages-per-rank=2");
  int64_t numStages = int64_t(options.numRanks) * options.stagesPerRank;
  if (!options.cuts.empty()) {
    if (static_cast<int64_t>(options.cuts.size()) + 1 != numStages)
      return makeError(
          "--cuts gives " + llvm::Twine(options.cuts.size() + 1) + " stages (" +
          llvm::Twine(options.cuts.size()) +
          " cuts), but --ranks=" + llvm::Twine(options.numRanks) +
          " x --stages-per-rank=" + llvm::Twine(options.stagesPerRank) +
          " make " + llvm::Twine(numStages));
    for (size_t i = 0; i < options.cuts.size(); ++i)
      if (options.cuts[i] < 0 ||
          (i > 0 && options.cuts[i] <= options.cuts[i - 1]))
        return makeError("--cuts must be strictly increasing op numbers >= 0, "
                         "not " +
                         llvm::join(llvm::map_range(options.cuts,
                                                    [](int64_t c) {
                                                      return std::to_string(c);
                                                    }),
                                    ","));
  }
  double threshold = 0;
  if (!options.recompute.empty() && options.recompute != "auto" &&
      !parseRecomputeChoice(options.recompute, threshold))
    return makeError("--recompute must be none, full, selective, selective:N "
                     "(N >= 0 FLOPs per output element) or auto, not '" +
                     options.recompute + "'");
  if (options.recompute == "auto" && options.memoryLimit.empty())
    return makeError("--recompute=auto chooses under a memory limit: give "
                     "--memory-limit (bytes per rank, or a multiple of M_B)");
  if (options.measureRepetitions < 1 || options.measureRepetitions > 1000)
    return makeError("--measure-repetitions must be in [1, 1000]");
  if (options.splitOps != "auto" && options.splitOps != "none") {
    double fraction = 0;
    if (StringRef(options.splitOps).getAsDouble(fraction) ||
        !(fraction > 0 && fraction <= 1))
      return makeError(
          "--split-ops must be auto, none or a fraction in (0, 1], "
          "got '" +
          options.splitOps + "'");
  }
  if (!(options.nearEmptyFraction >= 0 && options.nearEmptyFraction <= 1))
    return makeError("the near-empty fraction must be in [0, 1]");
  return llvm::Error::success();
}

std::string mlir::pp::driver::lossFunctionName(const CompileOptions &options) {
  return options.loss == LossKind::None ? options.function
                                        : options.function + "_loss";
}

llvm::StringRef mlir::pp::driver::lossKindName(LossKind kind) {
  switch (kind) {
  case LossKind::None:
    return "none";
  case LossKind::MSE:
    return "mse";
  case LossKind::CrossEntropy:
    return "cross-entropy";
  }
  llvm_unreachable("unknown loss kind");
}

llvm::StringRef mlir::pp::driver::planCostsName(PlanCosts costs) {
  switch (costs) {
  case PlanCosts::Auto:
    return "auto";
  case PlanCosts::Flops:
    return "flops";
  case PlanCosts::Measured:
    return "measured";
  }
  llvm_unreachable("unknown plan costs");
}

llvm::StringRef mlir::pp::driver::precisionName(Precision precision) {
  switch (precision) {
  case Precision::F32:
    return "f32";
  case Precision::BF16:
    return "bf16";
  }
  llvm_unreachable("unknown precision");
}
