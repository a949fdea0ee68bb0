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

TEST(Options, PrecisionIsF32OrBF16) {
  CompileOptions c = compileOptions();
  EXPECT_EQ(message(validate(c)), "");
  c.precision = "fp8";
  EXPECT_EQ(message(validate(c)), "--precision must be f32 or bf16, not 'fp8'");
}

TEST(Options, MeasuredCostsNeedTheCPU) {
  CompileOptions c = compileOptions();
  c.planCosts = "measured";
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
