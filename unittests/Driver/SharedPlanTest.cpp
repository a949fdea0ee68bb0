//===- SharedPlanTest.cpp - the measured plan shared between processes ----===//
//
// CompileOptions::sharePlan as compileModel() uses it under MPI: the leader
// measures and hands over its plan, a follower cuts the model as the text
// says and measures nothing; a malformed plan or the leader's failure is an
// error on the follower.
//
//===----------------------------------------------------------------------===//

#include "pp/Driver/Driver.h"
#include "pp/InitAllPasses.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::pp;

namespace {

/// Four layers of very different widths (integration_test's plan-mlp).
constexpr const char *kModel = R"mlir(
func.func @mlp4(%x: tensor<4x16xf32>, %t: tensor<4x8xf32>,
                %w1: tensor<16x64xf32> {pp.parameter}, %w2: tensor<64x64xf32> {pp.parameter},
                %w3: tensor<64x16xf32> {pp.parameter}, %w4: tensor<16x8xf32> {pp.parameter}) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e64 = tensor.empty() : tensor<4x64xf32>
  %z64 = linalg.fill ins(%zero : f32) outs(%e64 : tensor<4x64xf32>) -> tensor<4x64xf32>
  %h1 = linalg.matmul ins(%x, %w1 : tensor<4x16xf32>, tensor<16x64xf32>) outs(%z64 : tensor<4x64xf32>) -> tensor<4x64xf32>
  %a1 = linalg.map { math.tanh } ins(%h1 : tensor<4x64xf32>) outs(%e64 : tensor<4x64xf32>)
  %h2 = linalg.matmul ins(%a1, %w2 : tensor<4x64xf32>, tensor<64x64xf32>) outs(%z64 : tensor<4x64xf32>) -> tensor<4x64xf32>
  %a2 = linalg.map { math.tanh } ins(%h2 : tensor<4x64xf32>) outs(%e64 : tensor<4x64xf32>)
  %e16 = tensor.empty() : tensor<4x16xf32>
  %z16 = linalg.fill ins(%zero : f32) outs(%e16 : tensor<4x16xf32>) -> tensor<4x16xf32>
  %h3 = linalg.matmul ins(%a2, %w3 : tensor<4x64xf32>, tensor<64x16xf32>) outs(%z16 : tensor<4x16xf32>) -> tensor<4x16xf32>
  %a3 = linalg.map { math.tanh } ins(%h3 : tensor<4x16xf32>) outs(%e16 : tensor<4x16xf32>)
  %e8 = tensor.empty() : tensor<4x8xf32>
  %z8 = linalg.fill ins(%zero : f32) outs(%e8 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %y = linalg.matmul ins(%a3, %w4 : tensor<4x16xf32>, tensor<16x8xf32>) outs(%z8 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %d = linalg.sub ins(%y, %t : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e8 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %sq = linalg.mul ins(%d, %d : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e8 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e0 = tensor.empty() : tensor<f32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %loss = linalg.reduce { arith.addf } ins(%sq : tensor<4x8xf32>) outs(%z0 : tensor<f32>) dimensions = [0, 1]
  return %loss : tensor<f32>
}
)mlir";

class SharedPlan : public testing::Test {
protected:
  SharedPlan() {
    DialectRegistry registry;
    driver::registerDriverDialects(registry);
    context = std::make_unique<MLIRContext>(registry);
    context->loadAllAvailableDialects();
    registerAllPPPasses();
  }

  driver::CompileOptions
  options(bool leader,
          std::function<std::string(const std::string &)> share) const {
    driver::CompileOptions o;
    o.function = "mlp4";
    o.numRanks = 2;
    o.numMicrobatches = 2;
    o.schedule = "1f1b";
    o.planCosts = driver::PlanCosts::Measured;
    o.costCache = "none";
    o.measureRepetitions = 1;
    o.splitOps = "none";
    o.planLeader = leader;
    o.sharePlan = std::move(share);
    return o;
  }

  /// compileModel on a fresh copy of the model.
  llvm::Expected<driver::CompiledModel>
  compile(const driver::CompileOptions &o) {
    module = parseSourceString<ModuleOp>(kModel, context.get());
    EXPECT_TRUE(module);
    driver::Progress progress(false);
    return driver::compileModel(*module, o, progress);
  }

  std::unique_ptr<MLIRContext> context;
  OwningOpRef<ModuleOp> module;
};

TEST_F(SharedPlan, FollowerCutsAsTheLeaderPlanned) {
  std::string sent;
  int leaderCalls = 0;
  llvm::Expected<driver::CompiledModel> leader =
      compile(options(true, [&](const std::string &mine) {
        ++leaderCalls;
        sent = mine;
        return mine;
      }));
  ASSERT_TRUE(static_cast<bool>(leader)) << llvm::toString(leader.takeError());
  EXPECT_EQ(leaderCalls, 1);
  EXPECT_EQ(sent.rfind("split none\ncuts ", 0), 0u) << sent;
  // The follower is told a plan with other stage costs: it measures
  // nothing and takes both the cut and the costs.
  int followerCalls = 0;
  llvm::Expected<driver::CompiledModel> follower =
      compile(options(false, [&](const std::string &mine) {
        ++followerCalls;
        EXPECT_EQ(mine, "");
        return sent;
      }));
  ASSERT_TRUE(static_cast<bool>(follower))
      << llvm::toString(follower.takeError());
  EXPECT_EQ(followerCalls, 1);
  EXPECT_EQ(follower->cuts, leader->cuts);
  EXPECT_EQ(follower->planCosts, driver::PlanCosts::Measured);
  ASSERT_EQ(follower->pipeline.stages.size(), 2u);
  for (int s = 0; s < 2; ++s)
    EXPECT_EQ(follower->pipeline.stages[s].forwardTime,
              leader->pipeline.stages[s].forwardTime);
  // A plan of our own: stage costs in hexadecimal are taken bit for bit.
  llvm::Expected<driver::CompiledModel> told =
      compile(options(false, [](const std::string &) {
        return std::string("split none\ncuts 3\nstage 0x1.8p+1 0x1p+0 0x1p+0\n"
                           "stage 0x1p+2 0x1p+0 0x1p+0\n");
      }));
  ASSERT_TRUE(static_cast<bool>(told)) << llvm::toString(told.takeError());
  EXPECT_EQ(told->pipeline.stages[0].forwardTime, 3.0);
  EXPECT_EQ(told->pipeline.stages[1].forwardTime, 4.0);
}

TEST_F(SharedPlan, MalformedOrFailedPlansAreErrors) {
  auto errorFor = [&](std::string text) {
    llvm::Expected<driver::CompiledModel> model =
        compile(options(false, [text](const std::string &) { return text; }));
    if (model)
      return std::string("no error");
    return llvm::toString(model.takeError());
  };
  EXPECT_EQ(errorFor("error the memory limit"),
            "rank 0's process could not plan: the memory limit");
  for (const char *bad : {
           "",                                  // nothing
           "split none\ncuts 3\nstage 1 1 1\n", // one stage for two
           "split none\ncuts 5 3\nstage 1 1 1\nstage 1 1 1\nstage 1 1 1\n",
           "cuts 3\nstage 1 1 1\nstage 1 1 1\n", // no split line
           "split none\ncuts 3\nstage 1 inf 1\nstage 1 1 1\n",
           "split none\ncuts 99\nstage 1 1 1\nstage 1 1 1\n",
           "split maybe\ncuts 3\nstage 1 1 1\nstage 1 1 1\n",
       })
    EXPECT_NE(errorFor(bad).find("the plan received from rank 0's process "
                                 "is malformed"),
              std::string::npos)
        << bad;
}

} // namespace
