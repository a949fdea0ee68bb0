//===- RankProgramTest.cpp - how the JIT compiles rank programs -----------===//
//
// A rank program (attribute pp.rank, a raw entry `void(ptr)`) is freed
// without the ownership-based deallocation pipeline and compiled without
// optimization in an object of its own (docs/Execution.md, "Rank
// programs"): it still frees each buffer once, after its last use, and
// runs.
//
//===----------------------------------------------------------------------===//

#include "pp/Execution/Jit.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

#include <string>

using namespace mlir;
using namespace mlir::pp::exec;

namespace {

// Two calls of a stage-like function: the first one's result is a buffer of
// the rank program that the second one reads; both results are freed.
constexpr const char *kModule = R"mlir(
#id = affine_map<(i) -> (i)>
func.func @twice(%x: tensor<64xf32>) -> tensor<64xf32> {
  %e = tensor.empty() : tensor<64xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.addf %v, %v : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  return %y : tensor<64xf32>
}
func.func @rank(%runtime: !llvm.ptr) attributes {pp.rank = 0 : i64} {
  %c = arith.constant dense<1.5> : tensor<64xf32>
  %y = call @twice(%c) : (tensor<64xf32>) -> tensor<64xf32>
  %z = call @twice(%y) : (tensor<64xf32>) -> tensor<64xf32>
  return
}
)mlir";

/// The text of `llvm.func @name` in `module`, up to the next function.
std::string functionText(const std::string &module, const std::string &name) {
  size_t start = module.find("llvm.func @" + name + "(");
  if (start == std::string::npos)
    return "";
  size_t end = module.find("llvm.func @", start + 1);
  return module.substr(start, end == std::string::npos ? end : end - start);
}

/// How many times `what` occurs in `text`.
size_t count(const std::string &text, const std::string &what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos;
       at = text.find(what, at + 1))
    ++n;
  return n;
}

TEST(RankProgram, FreesEachBufferAfterItsLastUseAndRuns) {
  DialectRegistry registry;
  registerExecDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(kModule, ParserConfig(&context));
  ASSERT_TRUE(module);
  std::string lowered;
  llvm::raw_string_ostream os(lowered);
  JitOptions options;
  options.printLowered = &os;
  FailureOr<std::unique_ptr<JitModule>> jit =
      JitModule::compile(*module, /*entries=*/{}, options, {"rank"});
  ASSERT_TRUE(succeeded(jit));

  std::string rank = functionText(lowered, "rank");
  ASSERT_FALSE(rank.empty()) << lowered;
  // Compiled without optimization; one block (no ownership tests).
  EXPECT_NE(rank.find("passthrough = [\"noinline\", \"optnone\", "
                      "[\"pp-rank-program\", \"\"]]"),
            std::string::npos)
      << rank;
  EXPECT_EQ(count(rank, "llvm.cond_br"), 0u) << rank;
  // Two result buffers allocated, each freed once, after the second call
  // (the last use of both).
  EXPECT_EQ(count(rank, "llvm.call @twice("), 2u) << rank;
  size_t lastCall = rank.rfind("llvm.call @twice(");
  size_t firstFree = rank.find("free(");
  EXPECT_EQ(count(rank, "free("), 2u) << rank;
  EXPECT_GT(firstFree, lastCall) << rank;

  auto *entry = reinterpret_cast<void (*)(void *)>((*jit)->lookupRaw("rank"));
  ASSERT_NE(entry, nullptr);
  entry(nullptr); // its runtime pointer is not used
}

} // namespace
