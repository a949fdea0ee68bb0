//===- OptimizerTest.cpp - the generated updates against their formulas ---===//
//
// Each optimizer's generated update function (pp/Execution/Optimizer.h),
// JIT-compiled as pp-run compiles it, equals the formulas written out in
// C++ bit for bit over several steps, in f32 and f64, with weight decay, on
// a length that leaves a vector tail; run in place (results written over
// the arguments) it gives the same bits. And the hyperparameters' checks.
//
//===----------------------------------------------------------------------===//

#include "pp/Execution/Optimizer.h"
#include "pp/Execution/Jit.h"
#include "pp/GPU/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>

using namespace mlir;
using namespace mlir::pp::exec;
using Kind = OptimizerOptions::Kind;

namespace {

HostTensor randomTensor(TensorSpec spec, std::mt19937 &rng, double scale) {
  HostTensor t(spec);
  std::normal_distribution<double> normal(0.0, scale);
  for (int64_t i = 0; i < t.size(); ++i)
    t.set(i, normal(rng));
  return t;
}

bool sameBytes(const HostTensor &a, const HostTensor &b) {
  return a.byteSize() == b.byteSize() &&
         std::memcmp(a.data(), b.data(), a.byteSize()) == 0;
}

class GeneratedUpdate : public testing::TestWithParam<Kind> {
protected:
  GeneratedUpdate() {
    DialectRegistry registry;
    registerExecDialects(registry);
    context = std::make_unique<MLIRContext>(registry);
    context->loadAllAvailableDialects();
  }
  std::unique_ptr<MLIRContext> context;
};

TEST_P(GeneratedUpdate, EqualsTheFormulasBitwise) {
  OptimizerOptions options;
  options.kind = GetParam();
  options.weightDecay = 0.1;
  options.momentum = 0.8;
  options.beta2 = 0.99;
  std::vector<TensorSpec> specs = {
      {ElemKind::F32, {37}}, {ElemKind::F32, {3, 5}}, {ElemKind::F64, {2, 9}}};
  OwningOpRef<ModuleOp> module = ModuleOp::create(UnknownLoc::get(&*context));
  llvm::Expected<std::vector<std::string>> names =
      addUpdateFunctions(*module, options, specs);
  ASSERT_TRUE(!!names) << llvm::toString(names.takeError());
  ASSERT_EQ(names->size(), 3u);
  FailureOr<std::unique_ptr<JitModule>> jit =
      JitModule::compile(*module, *names, JitOptions{});
  ASSERT_TRUE(succeeded(jit));

  std::mt19937 rng(7);
  size_t numState = optimizerStateNames(options.kind).size();
  for (const TensorSpec &spec : specs) {
    std::string name = updateFunctionName(options, spec);
    TensorSpec flat{spec.kind, {spec.numElements()}};
    HostTensor param = randomTensor(flat, rng, 1.0);
    HostTensor expected = param;
    std::vector<HostTensor> state(numState, HostTensor(flat));
    std::vector<HostTensor> expectedState = state;
    for (int64_t t = 1; t <= 4; ++t) {
      HostTensor grad = randomTensor(flat, rng, 0.5);
      double lr = 0.05 / t;
      double gradScale = t == 2 ? 0.375 : 1.0; // clipped at step 2
      std::vector<double> s = updateScalars(options, lr, t, gradScale);
      HostTensor scalars(TensorSpec{spec.kind, {int64_t(s.size())}});
      for (size_t k = 0; k < s.size(); ++k)
        scalars.set(k, s[k]);
      // In place: the results overwrite the parameter and state.
      std::vector<const void *> args = {param.data(), grad.data()};
      std::vector<void *> results = {param.data()};
      for (HostTensor &x : state) {
        args.push_back(x.data());
        results.push_back(x.data());
      }
      args.push_back(scalars.data());
      ASSERT_FALSE(!!jit->get()->runOnBuffers(name, args, results));
      referenceUpdate(options, lr, t, gradScale, expected, grad, expectedState);
      EXPECT_TRUE(sameBytes(param, expected)) << name << " step " << t;
      for (size_t k = 0; k < numState; ++k)
        EXPECT_TRUE(sameBytes(state[k], expectedState[k]))
            << name << " state " << k << " step " << t;
    }
    // The update moved the parameter.
    EXPECT_NE(param.get(0), randomTensor(flat, rng, 1.0).get(0));
  }
}

// For a GPU each update is one kernel (every operand, the scalars too, is
// read inside it: no host code touches a device buffer) and a C interface
// of one descriptor per operand, the results as out-parameters, which
// runUpdateOnDevice calls.
TEST_P(GeneratedUpdate, CompilesToOneKernelForTheGPU) {
  mlir::pp::registerLowerStagesToGPUPipeline();
  OptimizerOptions options;
  options.kind = GetParam();
  OwningOpRef<ModuleOp> module = ModuleOp::create(UnknownLoc::get(&*context));
  llvm::Expected<std::vector<std::string>> names =
      addUpdateFunctions(*module, options, {TensorSpec{ElemKind::F32, {3, 5}}});
  ASSERT_TRUE(!!names) << llvm::toString(names.takeError());
  ASSERT_TRUE(succeeded(lowerForGPU(*module, "sm_90")));
  int binaries = 0, launches = 0;
  module->walk([&](Operation *op) {
    if (op->getName().getStringRef() == "gpu.binary")
      ++binaries;
    if (op->getName().getStringRef() == "gpu.launch_func")
      ++launches;
  });
  EXPECT_EQ(binaries, 1);
  EXPECT_EQ(launches, 1);
  auto ciface =
      module->lookupSymbol<LLVM::LLVMFuncOp>("_mlir_ciface_" + names->front());
  ASSERT_TRUE(ciface);
  size_t numState = optimizerStateNames(options.kind).size();
  // p, g, state..., scalars, then p', state'...
  EXPECT_EQ(ciface.getNumArguments(), 2 * numState + 4);
}

INSTANTIATE_TEST_SUITE_P(Optimizers, GeneratedUpdate,
                         testing::Values(Kind::SGD, Kind::Momentum,
                                         Kind::AdamW),
                         [](const testing::TestParamInfo<Kind> &info) {
                           return optimizerName(info.param).str();
                         });

TEST(Optimizer, SGDWithoutDecayIsTheRuntimeRule) {
  // p * 1 - lr * g is p - lr * g: the SGD the runtime applied before.
  OptimizerOptions options;
  std::vector<double> s = updateScalars(options, 0.25, 1);
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s[0], 1.0);
  EXPECT_EQ(s[1], 1.0);
  EXPECT_EQ(s[2], 0.25);
}

TEST(Optimizer, AdamWScalarsFollowTheBiasCorrection) {
  OptimizerOptions options;
  options.kind = Kind::AdamW;
  options.weightDecay = 0.1;
  std::vector<double> s = updateScalars(options, 1e-3, 2, 0.5);
  ASSERT_EQ(s.size(), 9u);
  EXPECT_EQ(s[0], 0.5);
  EXPECT_DOUBLE_EQ(s[1], 1.0 - 1e-4);
  EXPECT_DOUBLE_EQ(s[6], 1e-3 / (1.0 - 0.9 * 0.9));
  EXPECT_DOUBLE_EQ(s[7], std::sqrt(1.0 - 0.999 * 0.999));
  EXPECT_EQ(s[8], 1e-8);
}

TEST(Optimizer, NamesAndState) {
  EXPECT_EQ(parseOptimizer("adamw"), Kind::AdamW);
  EXPECT_EQ(parseOptimizer("adam"), std::nullopt);
  EXPECT_EQ(optimizerStateNames(Kind::SGD).size(), 0u);
  EXPECT_EQ(optimizerStateNames(Kind::Momentum),
            std::vector<std::string>{"momentum_buffer"});
  EXPECT_EQ(optimizerStateNames(Kind::AdamW),
            (std::vector<std::string>{"exp_avg", "exp_avg_sq"}));
}

TEST(Optimizer, BadHyperparameters) {
  auto message = [](OptimizerOptions o) {
    llvm::Error e = validate(o);
    return e ? llvm::toString(std::move(e)) : std::string();
  };
  OptimizerOptions o;
  EXPECT_EQ(message(o), "");
  o.beta1 = 1;
  EXPECT_EQ(message(o), "--beta1 must be in [0, 1), not 1");
  o = {};
  o.beta2 = -0.5;
  EXPECT_EQ(message(o), "--beta2 must be in [0, 1), not -0.5");
  o = {};
  o.momentum = NAN;
  EXPECT_EQ(message(o), "--momentum must be in [0, 1), not nan");
  o = {};
  o.eps = 0;
  EXPECT_EQ(message(o),
            "--eps must be a finite number > 0 (in f32 too), not 0");
  o.eps = 1e-46;
  EXPECT_EQ(message(o),
            "--eps must be a finite number > 0 (in f32 too), not 1e-46");
  o = {};
  o.weightDecay = -1;
  EXPECT_EQ(message(o), "--weight-decay must be a finite number >= 0, not -1");
}

TEST(Optimizer, OnlyFloatParameters) {
  DialectRegistry registry;
  registerExecDialects(registry);
  MLIRContext context(registry);
  OwningOpRef<ModuleOp> module = ModuleOp::create(UnknownLoc::get(&context));
  llvm::Expected<std::vector<std::string>> names = addUpdateFunctions(
      *module, OptimizerOptions{}, {TensorSpec{ElemKind::I32, {4}}});
  ASSERT_FALSE(!!names);
  EXPECT_EQ(llvm::toString(names.takeError()),
            "the optimizer updates f32 and f64 parameters, not tensor<4xi32>");
}

} // namespace
