//===- IRFuzzer.cpp - parsing and verifying pp IR -------------------------===//
//
// Parses the input as an MLIR module with the pp dialect and the upstream
// dialects pp IR refers to (func for stage functions, arith and tensor for
// their bodies), which runs every op verifier. A module that parses and
// verifies must print, and the printed form must parse and verify again
// (round trip, as test/Dialect/PP/IR/ops.mlir checks for known IR). Then, as
// pp-verify-schedule does, every pp.schedule is read as schedule-library
// data (getPipelineModel, getScheduleModel): the op verifier passed, so
// checkSchedule() must agree, and one that completes findDeadlock() must
// satisfy every invariant of ScheduleInvariants.h. Diagnostics are swallowed.
//
//===----------------------------------------------------------------------===//

#include "ScheduleInvariants.h"

#include "pp/Dialect/PP/IR/PPDialect.h"
#include "pp/Dialect/PP/IR/PPOps.h"
#include "pp/Dialect/PP/IR/ScheduleModel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

using namespace ppfuzz;

static mlir::DialectRegistry &registry() {
  static mlir::DialectRegistry *registry = [] {
    auto *r = new mlir::DialectRegistry;
    r->insert<mlir::pp::PPDialect, mlir::func::FuncDialect,
              mlir::arith::ArithDialect, mlir::tensor::TensorDialect>();
    return r;
  }();
  return *registry;
}

static mlir::OwningOpRef<mlir::ModuleOp> parse(mlir::MLIRContext &context,
                                               llvm::StringRef text) {
  return mlir::parseSourceString<mlir::ModuleOp>(text,
                                                 mlir::ParserConfig(&context));
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // A fresh context per input: nothing uniqued by one input leaks into the
  // next (and memory stays bounded).
  mlir::MLIRContext context(registry(), mlir::MLIRContext::Threading::DISABLED);
  mlir::ScopedDiagnosticHandler quiet(
      &context, [](mlir::Diagnostic &) { return mlir::success(); });
  // MLIR's lexer stops at a NUL after the buffer (files and strings have
  // one; the fuzzer's bytes do not).
  std::string text(reinterpret_cast<const char *>(data), size);
  mlir::OwningOpRef<mlir::ModuleOp> module = parse(context, text);
  if (!module)
    return 0;

  std::string printed;
  {
    llvm::raw_string_ostream os(printed);
    module->print(os);
  }
  mlir::OwningOpRef<mlir::ModuleOp> again = parse(context, printed);
  if (!again)
    fail("a module that parses and verifies does not parse again after "
         "printing:\n" +
         printed);
  std::string reprinted;
  {
    llvm::raw_string_ostream os(reprinted);
    again->print(os);
  }
  if (reprinted != printed)
    fail("printing is not stable:\n" + printed + "\n---- reprinted:\n" +
         reprinted);

  for (mlir::pp::ScheduleOp op : module->getOps<mlir::pp::ScheduleOp>()) {
    mlir::pp::PipelineOp pipelineOp = op.getPipelineOp();
    if (!pipelineOp)
      fail("a verified pp.schedule has no pipeline");
    PipelineModel model = mlir::pp::getPipelineModel(pipelineOp);
    mlir::pp::ScheduleModel schedule = mlir::pp::getScheduleModel(op);
    std::vector<Problem> problems = checkSchedule(model, schedule.schedule);
    if (!problems.empty())
      fail("the op verifier accepts a schedule that checkSchedule() refuses: " +
           firstProblem(problems));
    if (findDeadlock(model, schedule.schedule).completed)
      checkValidSchedule(model, schedule.schedule, "@" + op.getSymName().str());
  }
  return 0;
}
