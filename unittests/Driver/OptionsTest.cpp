//===- OptionsTest.cpp - the driver's option checks -----------------------===//
//
// What an embedder of the driver gets before compiling anything: the
// checks of one option set (validate(CompileOptions)) and of the two sets
// together (validate(CompileOptions, SessionOptions)), with pp-run's
// option names in the messages.
//
//===----------------------------------------------------------------------===//

#include "pp/Driver/Driver.h"

#include <gtest/gtest.h>

using namespace mlir::pp;
using namespace mlir::pp::driver;

namespace {

CompileOptions compileOptions() {
  CompileOptions c;
  c.function = "f";
  c.numRanks = 2;
  c.numMicrobatches = 4;
  c.schedule = "1f1b";
  return c;
}

SessionOptions sessionOptions() {
  SessionOptions s;
  s.numRanks = 2;
  s.numMicrobatches = 4;
  return s;
}

std::string message(llvm::Error e) {
  return e ? llvm::toString(std::move(e)) : std::string();
}

// The names of the typed choices are pp-run's spellings and the pass
// options' (pp-append-loss kind=, pp-schedule auto-objective= and
// stash-accounting=), which the driver hands on.
TEST(Options, ChoicesHaveTheirOptionNames) {
  EXPECT_EQ(lossKindName(LossKind::None), "none");
  EXPECT_EQ(lossKindName(LossKind::MSE), "mse");
  EXPECT_EQ(lossKindName(LossKind::CrossEntropy), "cross-entropy");
  EXPECT_EQ(planCostsName(PlanCosts::Auto), "auto");
  EXPECT_EQ(planCostsName(PlanCosts::Flops), "flops");
  EXPECT_EQ(planCostsName(PlanCosts::Measured), "measured");
  EXPECT_EQ(precisionName(Precision::F32), "f32");
  EXPECT_EQ(precisionName(Precision::BF16), "bf16");
  for (auto objective :
       {sched::AutoObjective::StepMakespan, sched::AutoObjective::MaxRankSpan})
    EXPECT_EQ(sched::parseAutoObjective(sched::autoObjectiveName(objective)),
              objective);
  EXPECT_EQ(sched::parseAutoObjective("fastest"), std::nullopt);
}

TEST(Options, ValidOptionsPass) {
  EXPECT_EQ(message(validate(compileOptions())), "");
}

TEST(Options, MeasuredCostsNeedTheCPU) {
  CompileOptions c = compileOptions();
  c.planCosts = PlanCosts::Measured;
  SessionOptions s = sessionOptions();
  EXPECT_EQ(message(validate(c, s)), "");
  s.device = Device::CUDAEmulated;
  EXPECT_EQ(message(validate(c, s)),
            "--plan-costs=measured times the stage code on the CPU; with "
            "--device=cuda-emu use --plan-costs=flops for now");
}

TEST(Options, TheSetsAgree) {
  CompileOptions c = compileOptions();
  SessionOptions s = sessionOptions();
  s.dataParallel = 2;
  EXPECT_EQ(message(validate(c, s)),
            "the compile and session options disagree: ranks 2 and 2, "
            "micro-batches 4 and 4, data-parallel replicas 1 and 2");
}

} // namespace
