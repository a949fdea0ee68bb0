//===- LearningRateTest.cpp - learning-rate schedules ---------------------===//

#include "pp/Driver/LearningRate.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace mlir::pp::driver;
using Kind = LearningRateSchedule::Kind;

namespace {
LearningRateSchedule make(Kind kind, double peak, double minimum, int warmup,
                          int steps) {
  LearningRateSchedule s;
  s.kind = kind;
  s.peak = peak;
  s.minimum = minimum;
  s.warmupSteps = warmup;
  s.totalSteps = steps;
  return s;
}
} // namespace

TEST(LearningRate, ConstantIsThePeak) {
  LearningRateSchedule s = make(Kind::Constant, 0.5, 0.0, 0, 4);
  EXPECT_TRUE(s.isConstant());
  for (int step = 1; step <= 4; ++step)
    EXPECT_EQ(s.at(step), 0.5);
}

// Goyal et al. 2017, sec. 2.2: step s of W warm-up steps takes peak s / W;
// powers of two keep the values exact.
TEST(LearningRate, WarmUpRisesLinearlyToThePeak) {
  LearningRateSchedule s = make(Kind::Constant, 1.0, 0.0, 4, 6);
  EXPECT_FALSE(s.isConstant());
  EXPECT_EQ(s.at(1), 0.25);
  EXPECT_EQ(s.at(2), 0.5);
  EXPECT_EQ(s.at(3), 0.75);
  EXPECT_EQ(s.at(4), 1.0);
  EXPECT_EQ(s.at(5), 1.0);
  EXPECT_EQ(s.at(6), 1.0);
}

TEST(LearningRate, LinearDecayEndsAtTheMinimum) {
  LearningRateSchedule s = make(Kind::Linear, 1.0, 0.5, 1, 5);
  EXPECT_EQ(s.at(1), 1.0);                  // the warm-up's only step
  EXPECT_EQ(s.at(2), 1.0);                  // p = 0
  EXPECT_DOUBLE_EQ(s.at(3), 1.0 - 0.5 / 3); // p = 1/3
  EXPECT_DOUBLE_EQ(s.at(4), 1.0 - 1.0 / 3); // p = 2/3
  EXPECT_EQ(s.at(5), 0.5);                  // p = 1
}

// Loshchilov & Hutter 2017, eq. 5: min + (peak - min) (1 + cos(pi p)) / 2.
TEST(LearningRate, CosineDecay) {
  LearningRateSchedule s = make(Kind::Cosine, 0.1, 0.01, 2, 6);
  EXPECT_DOUBLE_EQ(s.at(1), 0.05);
  EXPECT_DOUBLE_EQ(s.at(2), 0.1);
  EXPECT_DOUBLE_EQ(s.at(3), 0.1);
  EXPECT_DOUBLE_EQ(s.at(4), 0.01 + 0.09 * 0.75);
  EXPECT_DOUBLE_EQ(s.at(5), 0.01 + 0.09 * 0.25);
  EXPECT_DOUBLE_EQ(s.at(6), 0.01);
}

TEST(LearningRate, OneDecayStepKeepsThePeak) {
  EXPECT_EQ(make(Kind::Cosine, 0.1, 0.0, 0, 1).at(1), 0.1);
  EXPECT_EQ(make(Kind::Linear, 0.1, 0.0, 3, 4).at(4), 0.1);
  // Warm-up over every step.
  EXPECT_EQ(make(Kind::Cosine, 1.0, 0.0, 2, 2).at(2), 1.0);
  // Steps outside [1, N] are clamped.
  EXPECT_EQ(make(Kind::Linear, 1.0, 0.0, 0, 3).at(0), 1.0);
  EXPECT_EQ(make(Kind::Linear, 1.0, 0.0, 0, 3).at(9), 0.0);
}

TEST(LearningRate, Validation) {
  auto message = [](const LearningRateSchedule &s) {
    llvm::Error e = validate(s);
    return e ? llvm::toString(std::move(e)) : std::string();
  };
  EXPECT_EQ(message(make(Kind::Cosine, 0.1, 0.01, 2, 6)), "");
  EXPECT_EQ(message(make(Kind::Constant, -1, 0, 0, 1)),
            "--lr must be a finite number >= 0, not -1");
  EXPECT_EQ(message(make(Kind::Constant, NAN, 0, 0, 1)),
            "--lr must be a finite number >= 0, not nan");
  EXPECT_EQ(message(make(Kind::Linear, 0.1, 0.2, 0, 1)),
            "--min-lr must be in [0, --lr] = [0, 0.1], not 0.2");
  EXPECT_EQ(message(make(Kind::Linear, 0.1, 0, 3, 2)),
            "--warmup-steps must be in [0, --steps] = [0, 2], not 3");
  EXPECT_EQ(message(make(Kind::Linear, 0.1, 0, -1, 2)),
            "--warmup-steps must be in [0, --steps] = [0, 2], not -1");
  EXPECT_EQ(parseLearningRateScheduleKind("cosine"), Kind::Cosine);
  EXPECT_FALSE(parseLearningRateScheduleKind("step").has_value());
}
