//===- LearningRate.h - learning-rate schedules over the steps --*- C++ -*-===//
//
// The learning rate of each training step (pp-run --lr, --lr-schedule,
// --warmup-steps, --min-lr; docs/Training.md, "Learning-rate schedules"):
//
// - warm-up: steps 1..W rise linearly to the peak, step s taking
//   peak * s / W (Goyal et al., "Accurate, Large Minibatch SGD: Training
//   ImageNet in 1 Hour", 2017, sec. 2.2, gradual warm-up);
// - then the steps W+1..N decay from the peak to the minimum with progress
//   p = (s - W - 1) / (N - W - 1) (0 at the first of them, 1 at the last;
//   0 when there is only one):
//   constant: peak;
//   linear:   peak - (peak - min) p;
//   cosine:   min + (peak - min) (1 + cos(pi p)) / 2 (Loshchilov & Hutter,
//             "SGDR: Stochastic Gradient Descent with Warm Restarts", ICLR
//             2017, eq. 5, one cycle without restarts).
//
// No MLIR. Rates are per step, dimensionless multipliers of the gradient in
// the update.
//
//===----------------------------------------------------------------------===//

#ifndef PP_DRIVER_LEARNINGRATE_H
#define PP_DRIVER_LEARNINGRATE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>

namespace mlir::pp::driver {

/// A schedule of learning rates over the training steps 1..totalSteps.
struct LearningRateSchedule {
  enum class Kind { Constant, Linear, Cosine };
  Kind kind = Kind::Constant;
  /// The rate after warm-up (pp-run --lr): finite, >= 0.
  double peak = 0.01;
  /// The rate of the last step (linear, cosine; --min-lr): in [0, peak].
  double minimum = 0.0;
  /// Steps of linear warm-up (--warmup-steps): in [0, totalSteps].
  int warmupSteps = 0;
  /// Training steps N (--steps): >= 0.
  int totalSteps = 1;

  /// The rate of step `step` (1-based; clamped into [1, totalSteps]).
  double at(int step) const;
  /// Whether every step has the peak rate (constant, no warm-up).
  bool isConstant() const { return kind == Kind::Constant && warmupSteps == 0; }
};

/// "constant", "linear" or "cosine"; std::nullopt for anything else.
std::optional<LearningRateSchedule::Kind>
parseLearningRateScheduleKind(llvm::StringRef name);

/// Checks the ranges above; the message names pp-run's options (--lr,
/// --min-lr, --warmup-steps).
llvm::Error validate(const LearningRateSchedule &schedule);

} // namespace mlir::pp::driver

#endif // PP_DRIVER_LEARNINGRATE_H
