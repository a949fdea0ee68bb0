//===- Measure.cpp - measure the stage functions of a pipeline ------------===//

#include "pp/Execution/Measure.h"

#include "pp/Dialect/PP/IR/PPOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>
#include <optional>

using namespace mlir;
using namespace mlir::pp::exec;

namespace {
/// The roles a stage function can have, in table order.
enum class Role { Forward, Backward, BackwardInput, BackwardWeight };

/// One function of one stage to measure.
struct StageFunction {
  pp::StageOp stage;
  Role role;
  FunctionSignature signature;
  /// The median time in microseconds, once measured.
  double time = 0;
};
} // namespace

static StringRef roleName(Role role) {
  switch (role) {
  case Role::Forward:
    return "forward";
  case Role::Backward:
    return "backward";
  case Role::BackwardInput:
    return "backward_input";
  case Role::BackwardWeight:
    return "backward_weight";
  }
  llvm_unreachable("unknown role");
}

/// The pipeline `name` of `module`, or its only pipeline when `name` is
/// empty; null with `error` set otherwise.
static pp::PipelineOp findPipeline(ModuleOp module, StringRef name,
                                   std::string &error) {
  SmallVector<pp::PipelineOp> pipelines(module.getOps<pp::PipelineOp>());
  std::string names;
  for (pp::PipelineOp p : pipelines)
    names += (names.empty() ? "@" : ", @") + p.getSymName().str();
  if (!name.empty()) {
    for (pp::PipelineOp p : pipelines)
      if (p.getSymName() == name)
        return p;
    error = ("no pipeline @" + name + " in the module (pipelines: " +
             (names.empty() ? "none" : names) + ")")
                .str();
    return nullptr;
  }
  if (pipelines.size() == 1)
    return pipelines.front();
  if (pipelines.empty())
    error = "the module has no pp.pipeline to measure";
  else
    error = "the module has " + std::to_string(pipelines.size()) +
            " pipelines (" + names + "); name one with --measure-stages=NAME";
  return nullptr;
}

/// The median of `samples` (the mean of the two middle ones for an even
/// count).
static double median(std::vector<double> samples) {
  std::sort(samples.begin(), samples.end());
  size_t n = samples.size();
  return n % 2 ? samples[n / 2] : (samples[n / 2 - 1] + samples[n / 2]) / 2;
}

/// Seeded random arguments for `sig`, the same as pp-exec --entry makes.
static std::vector<HostTensor> randomArguments(const FunctionSignature &sig,
                                               uint64_t seed) {
  std::vector<HostTensor> args;
  for (auto [i, spec] : llvm::enumerate(sig.args)) {
    HostTensor t(spec);
    SplitMix64 rng(seed + (static_cast<uint64_t>(i) << 32));
    fillRandom(t, rng);
    args.push_back(std::move(t));
  }
  return args;
}

/// The functions of every stage that names any, with their signatures.
static LogicalResult collectStageFunctions(pp::PipelineOp pipeline,
                                           ArrayRef<pp::StageOp> stages,
                                           std::vector<StageFunction> &out) {
  for (pp::StageOp stage : stages) {
    for (auto [role, ref] :
         {std::make_pair(Role::Forward, stage.getForwardAttr()),
          std::make_pair(Role::Backward, stage.getBackwardAttr()),
          std::make_pair(Role::BackwardInput, stage.getBackwardInputAttr()),
          std::make_pair(Role::BackwardWeight,
                         stage.getBackwardWeightAttr())}) {
      if (!ref)
        continue;
      auto fn = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
          pipeline, ref.getAttr());
      if (!fn)
        return stage.emitError("stage ")
               << stage.getIndex() << " of @" << pipeline.getSymName() << ": "
               << roleName(role) << " function " << ref
               << " is not a func.func in the module";
      // A function without results computes nothing (the backward_input of
      // the first stage, when its inputs need no gradient): it takes 0.
      if (!fn.isExternal() && fn.getNumResults() == 0) {
        out.push_back({stage, role, {fn.getSymName().str(), {}, {}}});
        continue;
      }
      FailureOr<FunctionSignature> sig = getSignature(fn);
      if (failed(sig))
        return stage.emitError("cannot measure stage ")
               << stage.getIndex() << " of @" << pipeline.getSymName()
               << ": its " << roleName(role) << " function " << ref
               << " cannot be run";
      out.push_back({stage, role, std::move(*sig)});
    }
  }
  return success();
}

/// Compiles every function that computes something, once, together, and
/// times each: one warm-up run, then the median of the timed ones (rounded
/// to nanoseconds, the clock's resolution).
static LogicalResult timeFunctions(ModuleOp module,
                                   std::vector<StageFunction> &functions,
                                   const MeasureOptions &options,
                                   std::string &error) {
  std::vector<std::string> names;
  for (const StageFunction &f : functions)
    if (!f.signature.results.empty() &&
        !llvm::is_contained(names, f.signature.name))
      names.push_back(f.signature.name);
  if (names.empty())
    return success();
  FailureOr<OwningOpRef<ModuleOp>> prepared =
      prepareForExecution(module, names);
  FailureOr<std::unique_ptr<JitModule>> jit = failure();
  if (succeeded(prepared))
    jit = JitModule::compile(**prepared, names, options.jit);
  if (failed(jit)) {
    error = "cannot compile the stage functions for execution";
    return failure();
  }
  for (StageFunction &f : functions) {
    if (f.signature.results.empty())
      continue;
    std::vector<HostTensor> args = randomArguments(f.signature, options.seed);
    std::vector<const HostTensor *> argPtrs;
    for (const HostTensor &t : args)
      argPtrs.push_back(&t);
    std::vector<HostTensor> results;
    std::vector<double> samples(options.repetitions);
    for (unsigned r = 0; r <= options.repetitions; ++r) {
      double us = 0;
      if (llvm::Error e =
              (*jit)->run(f.signature.name, argPtrs, results, &us)) {
        error = llvm::toString(std::move(e));
        return failure();
      }
      if (r > 0)
        samples[r - 1] = us;
    }
    f.time = std::round(median(std::move(samples)) * 1000) / 1000;
  }
  return success();
}

namespace {
/// The measured costs of one stage.
struct Row {
  std::optional<double> f, bi, bw;
  bool fused = false;
};
} // namespace

/// One row per stage, "-" for what was not measured.
static void printTable(llvm::raw_ostream &table, pp::PipelineOp pipeline,
                       MutableArrayRef<pp::StageOp> stages, ArrayRef<Row> rows,
                       unsigned repetitions) {
  table << "@" << pipeline.getSymName() << ": median of " << repetitions
        << " run" << (repetitions == 1 ? "" : "s")
        << " after a warm-up, in microseconds\n";
  table << llvm::format("%5s %5s %12s %12s %12s\n", "stage", "rank", "F", "B",
                        "W");
  auto cell = [](std::optional<double> t) {
    return t ? llvm::formatv("{0:F3}", *t).str() : std::string("-");
  };
  for (auto [stage, row] : llvm::zip_equal(stages, rows)) {
    table << llvm::format(
        "%5lld %5lld %12s %12s %12s", static_cast<long long>(stage.getIndex()),
        static_cast<long long>(stage.getRank()), cell(row.f).c_str(),
        cell(row.bi).c_str(), cell(row.bw).c_str());
    if (row.fused)
      table << "  (fused backward)";
    else if (stage.isAbstract())
      table << "  (abstract, not measured)";
    table << "\n";
  }
}

LogicalResult mlir::pp::exec::measureStages(ModuleOp module,
                                            const MeasureOptions &options,
                                            llvm::raw_ostream &table,
                                            std::string &error) {
  if (options.repetitions == 0) {
    error = "--repetitions must be at least 1";
    return failure();
  }
  pp::PipelineOp pipeline = findPipeline(module, options.pipeline, error);
  if (!pipeline)
    return failure();
  SmallVector<pp::StageOp, 8> stages = pipeline.getStagesByIndex();
  std::vector<StageFunction> functions;
  if (failed(collectStageFunctions(pipeline, stages, functions)) ||
      failed(timeFunctions(module, functions, options, error)))
    return failure();

  // Write the costs: a fused backward is recorded as backward_input, with
  // backward_weight 0, as pp-differentiate-stages does.
  std::vector<Row> rows(stages.size());
  for (StageFunction &f : functions) {
    Row &row = rows[f.stage.getIndex()];
    switch (f.role) {
    case Role::Forward:
      row.f = f.time;
      break;
    case Role::Backward:
      row.bi = f.time;
      row.bw = 0.0;
      row.fused = true;
      break;
    case Role::BackwardInput:
      row.bi = f.time;
      break;
    case Role::BackwardWeight:
      row.bw = f.time;
      break;
    }
  }
  Builder b(module.getContext());
  for (auto [stage, row] : llvm::zip_equal(stages, rows)) {
    if (row.f)
      stage.setForwardTimeAttr(b.getF64FloatAttr(*row.f));
    if (row.bi)
      stage.setBackwardInputTimeAttr(b.getF64FloatAttr(*row.bi));
    if (row.bw)
      stage.setBackwardWeightTimeAttr(b.getF64FloatAttr(*row.bw));
  }
  printTable(table, pipeline, stages, rows, options.repetitions);
  return success();
}
