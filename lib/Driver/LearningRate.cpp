//===- LearningRate.cpp - learning-rate schedules over the steps ----------===//
//
// Formulas and sources: include/pp/Driver/LearningRate.h.
//
//===----------------------------------------------------------------------===//

#include "pp/Driver/LearningRate.h"

#include "pp/Execution/HostTensor.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cmath>

using namespace mlir::pp;
using namespace mlir::pp::driver;

double LearningRateSchedule::at(int step) const {
  step = std::clamp(step, 1, std::max(totalSteps, 1));
  if (step <= warmupSteps)
    return peak * step / warmupSteps;
  int decaySteps = totalSteps - warmupSteps;
  double progress =
      decaySteps > 1 ? double(step - warmupSteps - 1) / (decaySteps - 1) : 0.0;
  switch (kind) {
  case Kind::Constant:
    break;
  case Kind::Linear:
    return peak - (peak - minimum) * progress;
  case Kind::Cosine:
    return minimum + (peak - minimum) *
                         (1.0 + std::cos(llvm::numbers::pi * progress)) / 2.0;
  }
  return peak;
}

std::optional<LearningRateSchedule::Kind>
mlir::pp::driver::parseLearningRateScheduleKind(llvm::StringRef name) {
  if (name == "constant")
    return LearningRateSchedule::Kind::Constant;
  if (name == "linear")
    return LearningRateSchedule::Kind::Linear;
  if (name == "cosine")
    return LearningRateSchedule::Kind::Cosine;
  return std::nullopt;
}

llvm::Error mlir::pp::driver::validate(const LearningRateSchedule &schedule) {
  auto error = [](const llvm::Twine &message) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
  };
  if (!std::isfinite(schedule.peak) || schedule.peak < 0)
    return error("--lr must be a finite number >= 0, not " +
                 exec::formatDouble(schedule.peak));
  if (!std::isfinite(schedule.minimum) || schedule.minimum < 0 ||
      schedule.minimum > schedule.peak)
    return error("--min-lr must be in [0, --lr] = [0, " +
                 exec::formatDouble(schedule.peak) + "], not " +
                 exec::formatDouble(schedule.minimum));
  if (schedule.warmupSteps < 0 ||
      schedule.warmupSteps > std::max(schedule.totalSteps, 0))
    return error("--warmup-steps must be in [0, --steps] = [0, " +
                 llvm::Twine(schedule.totalSteps) + "], not " +
                 llvm::Twine(schedule.warmupSteps));
  return llvm::Error::success();
}
