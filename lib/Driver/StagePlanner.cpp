//===- StagePlanner.cpp - stages over measured F, B and W costs -----------===//
//
// Measuring units, the cost cache and the stage cut (pp/Driver/StagePlanner.h).
//
//===----------------------------------------------------------------------===//

#include "pp/Driver/StagePlanner.h"
#include "pp/Support/CacheDirectory.h"
#include "pp/Support/Error.h"
#include "pp/Support/LinearPartition.h"
#include "pp/Support/Version.h"

#include "pp/Dialect/PP/IR/PPOps.h"
#include "pp/Dialect/PP/IR/ScheduleModel.h"
#include "pp/Execution/Measure.h"
#include "pp/Model/CostModel.h"
#include "pp/Model/Partition.h"
#include "pp/Model/Passes.h"
#include "pprt/Runtime.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/xxhash.h"
#include "llvm/TargetParser/Host.h"

#include <cmath>
#include <cstdlib>
#include <limits>
#include <thread>
#include <unistd.h>

using namespace mlir;
using namespace mlir::pp;
using namespace mlir::pp::driver;

//===----------------------------------------------------------------------===//
// Keys
//===----------------------------------------------------------------------===//

/// `s` with every character outside [A-Za-z0-9._-] replaced by '_', so that
/// a key is one word of the cache file.
static std::string word(StringRef s) {
  std::string out;
  for (char c : s)
    out += (llvm::isAlnum(c) || c == '.' || c == '_' || c == '-') ? c : '_';
  return out.empty() ? "unknown" : out;
}

std::string mlir::pp::driver::machineKey(int blasThreads) {
  char host[256] = {0};
  if (gethostname(host, sizeof(host) - 1) != 0)
    host[0] = 0;
  unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  return word(host) + "/" + word(llvm::sys::getHostCPUName()) + "/" +
         std::to_string(cores) + "c/" + std::to_string(blasThreads) + "t";
}

std::string mlir::pp::driver::modelHash(ModuleOp module, StringRef function) {
  // The function and everything it calls, in the order first reached.
  llvm::SetVector<func::FuncOp> functions;
  if (auto fn = module.lookupSymbol<func::FuncOp>(function))
    functions.insert(fn);
  for (size_t i = 0; i < functions.size(); ++i)
    functions[i]->walk([&](func::CallOp call) {
      if (auto callee = module.lookupSymbol<func::FuncOp>(call.getCallee()))
        functions.insert(callee);
    });
  std::string text;
  llvm::raw_string_ostream os(text);
  for (func::FuncOp fn : functions)
    fn->print(os, OpPrintingFlags().useLocalScope());
  // Costs measured by another compiler are not this one's.
  os << versionString();
  return llvm::utohexstr(llvm::xxh3_64bits(text), /*LowerCase=*/true);
}

//===----------------------------------------------------------------------===//
// Measuring
//===----------------------------------------------------------------------===//

static int64_t bytesOfTypes(TypeRange types) {
  int64_t bytes = 0;
  for (Type t : types)
    bytes += bytesOf(t);
  return bytes;
}

/// Cuts a copy of @`function` after the work ops `cuts` (none: one stage
/// per work op) and measures every stage's F, B and W, with its parameter
/// bytes, stash and the bytes it sends on.
static llvm::Expected<std::vector<UnitCost>>
measureCut(ModuleOp module, StringRef function,
           std::optional<ArrayRef<int64_t>> cuts, unsigned repetitions) {
  OwningOpRef<ModuleOp> copy(cast<ModuleOp>(module->clone()));
  auto fn = copy->lookupSymbol<func::FuncOp>(function);
  if (!fn || fn.isExternal())
    return makeError("no function @" + function + " to measure");
  int64_t units = partitionWorkOps(fn).size();
  if (units == 0)
    return makeError("@" + function + " has no ops that do work to measure");
  int64_t n = cuts ? static_cast<int64_t>(cuts->size()) + 1 : units;

  PassManager pm(copy->getContext());
  PPPartitionPassOptions partition;
  partition.functionName = function.str();
  partition.numStages = n;
  if (cuts)
    partition.cutList = SmallVector<int64_t>(cuts->begin(), cuts->end());
  partition.printReport = false;
  pm.addPass(createPPPartitionPass(partition));
  if (failed(pm.run(*copy)))
    return makeError("cutting @" + function + " into " + llvm::Twine(n) +
                     " stages to measure failed");
  std::vector<UnitCost> costs(n);
  for (int64_t i = 0; i < n; ++i) {
    auto stage = copy->lookupSymbol<func::FuncOp>(
        (function + "_stage" + llvm::Twine(i)).str());
    if (!stage)
      return makeError("pp-partition made no @" + function + "_stage" +
                       llvm::Twine(i));
    UnitCost &unit = costs[i];
    if (i + 1 < n)
      unit.crossingBytes = bytesOfTypes(stage.getResultTypes());
    for (unsigned a = 0; a < stage.getNumArguments(); ++a)
      if (stage.getArgAttr(a, "pp.parameter"))
        unit.parameterBytes += bytesOf(stage.getArgument(a).getType());
  }
  PassManager differentiate(copy->getContext());
  differentiate.addPass(createPPDifferentiateStagesPass());
  if (failed(differentiate.run(*copy)))
    return makeError("differentiating the stages of @" + function + " failed");

  exec::MeasureOptions measure;
  measure.pipeline = (function + "_pipeline").str();
  measure.repetitions = repetitions;
  std::string table, message;
  llvm::raw_string_ostream tableStream(table);
  if (failed(exec::measureStages(*copy, measure, tableStream, message)))
    return makeError("measuring the stages of @" + function + " failed" +
                     (message.empty() ? "" : ": " + message));
  auto pipeline = copy->lookupSymbol<PipelineOp>(measure.pipeline);
  if (!pipeline)
    return makeError("no pipeline @" + measure.pipeline + " after measuring");
  sched::PipelineModel model = getPipelineModel(pipeline);
  if (model.numStages() != n)
    return makeError("the measured pipeline has " +
                     llvm::Twine(model.numStages()) + " stages, not " +
                     llvm::Twine(n));
  for (int64_t i = 0; i < n; ++i) {
    const sched::StageInfo &stage = model.stages[i];
    costs[i].forward = stage.forwardTime;
    costs[i].backwardInput = stage.backwardInputTime;
    // What the runtime adds after W: its gradients into the step's sum.
    costs[i].backwardWeight =
        stage.backwardWeightTime +
        costs[i].parameterBytes * pprt::gradientAccumulationSeconds() * 1e6;
    costs[i].stashBytes = stage.stashBytes;
  }
  return costs;
}

llvm::Expected<UnitCosts>
mlir::pp::driver::measureUnitCosts(ModuleOp module, StringRef function,
                                   unsigned repetitions) {
  llvm::Expected<std::vector<UnitCost>> units =
      measureCut(module, function, std::nullopt, repetitions);
  if (!units)
    return units.takeError();
  UnitCosts costs;
  costs.units = std::move(*units);
  return costs;
}

llvm::Expected<std::vector<UnitCost>>
mlir::pp::driver::measureStageCosts(ModuleOp module, StringRef function,
                                    ArrayRef<int64_t> cuts,
                                    unsigned repetitions) {
  return measureCut(module, function, cuts, repetitions);
}

void mlir::pp::driver::calibrateUnits(std::vector<UnitCost> &units,
                                      ArrayRef<int64_t> cuts,
                                      ArrayRef<UnitCost> stages) {
  size_t first = 0;
  for (size_t s = 0; s < stages.size(); ++s) {
    size_t last =
        s < cuts.size() ? static_cast<size_t>(cuts[s]) : units.size() - 1;
    UnitCost sum;
    for (size_t i = first; i <= last && i < units.size(); ++i) {
      sum.forward += units[i].forward;
      sum.backwardInput += units[i].backwardInput;
      sum.backwardWeight += units[i].backwardWeight;
    }
    auto scale = [](double measured, double predicted) {
      return predicted > 0 ? measured / predicted : 1.0;
    };
    double f = scale(stages[s].forward, sum.forward);
    double b = scale(stages[s].backwardInput, sum.backwardInput);
    double w = scale(stages[s].backwardWeight, sum.backwardWeight);
    for (size_t i = first; i <= last && i < units.size(); ++i) {
      units[i].forward *= f;
      units[i].backwardInput *= b;
      units[i].backwardWeight *= w;
    }
    first = last + 1;
  }
}

//===----------------------------------------------------------------------===//
// The cache file
//===----------------------------------------------------------------------===//
//
//   # pp-mlir plan costs (pp-run --plan-costs=measured); one entry per model
//   entry <model hash> <machine> units <n> [calibrated <stages>]
//   unit <i> <F us> <B us> <W us> <parameter bytes> <stash bytes>
//        <crossing bytes>                        (one line)
//   ...
//   end

std::string mlir::pp::driver::defaultCostCachePath() {
  return userCachePath("plan-costs.txt");
}

llvm::Expected<std::optional<UnitCosts>>
mlir::pp::driver::readCostCache(StringRef path, StringRef modelHash,
                                StringRef machine, size_t numUnits) {
  if (!llvm::sys::fs::exists(path))
    return std::nullopt;
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return makeError("cannot read the cost cache " + path + ": " +
                     buffer.getError().message());
  SmallVector<StringRef> lines;
  (*buffer)->getBuffer().split(lines, '\n');
  auto bad = [&](size_t line, const llvm::Twine &what) {
    return makeError(path + ":" + llvm::Twine(line + 1) + ": " + what +
                     " (delete the file or pass --cost-cache=none)");
  };
  std::optional<UnitCosts> found;
  for (size_t l = 0; l < lines.size(); ++l) {
    SmallVector<StringRef> words;
    lines[l].split(words, ' ', -1, /*KeepEmpty=*/false);
    if (words.empty() || words[0].starts_with("#"))
      continue;
    if (words[0] != "entry" || (words.size() != 5 && words.size() != 7) ||
        words[3] != "units" || (words.size() == 7 && words[5] != "calibrated"))
      return bad(l, "expected 'entry <hash> <machine> units <n> "
                    "[calibrated <stages>]'");
    size_t count = 0;
    if (words[4].getAsInteger(10, count))
      return bad(l, "bad unit count '" + words[4] + "'");
    int calibrated = 0;
    if (words.size() == 7 &&
        (words[6].getAsInteger(10, calibrated) || calibrated < 1))
      return bad(l, "bad stage count '" + words[6] + "'");
    bool match =
        words[1] == modelHash && words[2] == machine && count == numUnits;
    UnitCosts costs{modelHash.str(), machine.str(), {}, calibrated};
    for (size_t i = 0; i < count; ++i) {
      ++l;
      SmallVector<StringRef> u;
      if (l < lines.size())
        lines[l].split(u, ' ', -1, false);
      UnitCost unit;
      size_t index = 0;
      if (u.size() != 8 || u[0] != "unit" || u[1].getAsInteger(10, index) ||
          index != i || u[2].getAsDouble(unit.forward) ||
          u[3].getAsDouble(unit.backwardInput) ||
          u[4].getAsDouble(unit.backwardWeight) ||
          u[5].getAsInteger(10, unit.parameterBytes) ||
          u[6].getAsInteger(10, unit.stashBytes) ||
          u[7].getAsInteger(10, unit.crossingBytes) ||
          !std::isfinite(unit.total()) || unit.forward < 0 ||
          unit.backwardInput < 0 || unit.backwardWeight < 0)
        return bad(std::min(l, lines.size() - 1),
                   "expected 'unit " + llvm::Twine(i) +
                       " <F us> <B us> <W us> <parameter bytes> <stash "
                       "bytes> <crossing bytes>' with times >= 0");
      costs.units.push_back(unit);
    }
    ++l;
    if (l >= lines.size() || lines[l].trim() != "end")
      return bad(std::min(l, lines.size() - 1), "expected 'end'");
    // The last entry of a key wins: a calibrated entry appended after the
    // first measurement replaces it.
    if (match)
      found = std::move(costs);
  }
  return found;
}

llvm::Error mlir::pp::driver::writeCostCache(StringRef path,
                                             const UnitCosts &costs,
                                             bool replace) {
  StringRef dir = llvm::sys::path::parent_path(path);
  if (!dir.empty())
    if (std::error_code ec = llvm::sys::fs::create_directories(dir))
      return makeError("cannot create " + dir + ": " + ec.message());
  // The file as it is, plus the entry, written to a fresh file that then
  // replaces it: runs writing at once lose an entry at worst, never leave
  // half of one.
  std::string text;
  if (!replace && llvm::sys::fs::exists(path)) {
    auto buffer = llvm::MemoryBuffer::getFile(path);
    if (!buffer)
      return makeError("cannot read the cost cache " + path + ": " +
                       buffer.getError().message());
    text = (*buffer)->getBuffer().str();
    if (!text.empty() && text.back() != '\n')
      text += '\n';
  }
  llvm::raw_string_ostream os(text);
  if (text.empty())
    os << "# pp-mlir plan costs (pp-run --plan-costs): F, B, W in "
          "microseconds per micro-batch, then bytes\n";
  os << "entry " << costs.modelHash << " " << costs.machine << " units "
     << costs.units.size();
  if (costs.calibratedStages > 0)
    os << " calibrated " << costs.calibratedStages;
  os << "\n";
  for (auto [i, u] : llvm::enumerate(costs.units))
    os << "unit " << i << " " << llvm::format("%.3f", u.forward) << " "
       << llvm::format("%.3f", u.backwardInput) << " "
       << llvm::format("%.3f", u.backwardWeight) << " " << u.parameterBytes
       << " " << u.stashBytes << " " << u.crossingBytes << "\n";
  os << "end\n";
  llvm::SmallString<256> fresh(path);
  fresh += ".partial-" + std::to_string(llvm::sys::Process::getProcessId());
  {
    std::error_code ec;
    llvm::raw_fd_ostream out(fresh, ec);
    if (ec)
      return makeError("cannot write the cost cache " + fresh + ": " +
                       ec.message());
    out << text;
    out.close();
    if (out.has_error())
      return makeError("cannot write the cost cache " + fresh + ": " +
                       out.error().message());
  }
  if (std::error_code ec = llvm::sys::fs::rename(fresh, path))
    return makeError("cannot write the cost cache " + path + ": " +
                     ec.message());
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// The cut
//===----------------------------------------------------------------------===//

namespace {
/// Prefix sums of the units, and the memory and time of any range.
class Ranges {
public:
  Ranges(ArrayRef<UnitCost> units, const PlanRequest &request)
      : units(units), request(request) {
    size_t n = units.size();
    time.assign(n + 1, 0);
    params.assign(n + 1, 0);
    stash.assign(n + 1, 0);
    for (size_t i = 0; i < n; ++i) {
      time[i + 1] = time[i] + units[i].total();
      params[i + 1] = params[i] + units[i].parameterBytes;
      stash[i + 1] = stash[i] + units[i].stashBytes;
    }
  }
  /// Prefix sums of F + B + W: n + 1 entries.
  ArrayRef<double> prefixTime() const { return time; }
  /// Parameters + stashes in flight of units [j, i) as stage s.
  int64_t memory(int s, size_t j, size_t i) const {
    int64_t inFlight = request.stashAll ? request.numMicrobatches
                                        : std::min(request.numMicrobatches,
                                                   request.numStages - s);
    return params[i] - params[j] + (stash[i] - stash[j]) * inFlight;
  }
  bool fits(int s, size_t j, size_t i) const {
    return request.memoryBudget <= 0 || memory(s, j, i) <= request.memoryBudget;
  }
  /// Bytes a cut after unit i - 1 (before unit i) sends.
  int64_t crossing(size_t i) const {
    return i > 0 ? units[i - 1].crossingBytes : 0;
  }

private:
  ArrayRef<UnitCost> units;
  const PlanRequest &request;
  std::vector<double> time;
  std::vector<int64_t> params, stash;
};
} // namespace

/// The plan of `cuts`: each stage's costs and memory, the imbalance.
static StagePlan describe(ArrayRef<UnitCost> units, const Ranges &ranges,
                          std::vector<int64_t> cuts) {
  StagePlan plan;
  plan.cuts = std::move(cuts);
  size_t start = 0;
  for (size_t s = 0; s <= plan.cuts.size(); ++s) {
    size_t end = s < plan.cuts.size() ? plan.cuts[s] + 1 : units.size();
    UnitCost stage;
    for (size_t i = start; i < end; ++i) {
      stage.forward += units[i].forward;
      stage.backwardInput += units[i].backwardInput;
      stage.backwardWeight += units[i].backwardWeight;
      stage.parameterBytes += units[i].parameterBytes;
      stage.stashBytes += units[i].stashBytes;
    }
    stage.crossingBytes = end < units.size() ? units[end - 1].crossingBytes : 0;
    plan.stages.push_back(stage);
    plan.memory.push_back(ranges.memory(s, start, end));
    start = end;
  }
  double most = 0, least = std::numeric_limits<double>::infinity();
  for (const UnitCost &stage : plan.stages) {
    most = std::max(most, stage.total());
    least = std::min(least, stage.total());
  }
  plan.busiest = most;
  plan.imbalance =
      least > 0 ? most / least : std::numeric_limits<double>::infinity();
  return plan;
}

/// Whether a stage of `plan` takes less than `fraction` of the busiest.
static bool hasNearEmptyStage(const StagePlan &plan, double fraction) {
  return llvm::any_of(plan.stages, [&](const UnitCost &stage) {
    return stage.total() < fraction * plan.busiest;
  });
}

/// The cut into request.numStages stages, without the suggestion.
static llvm::Expected<StagePlan> cut(ArrayRef<UnitCost> units,
                                     const PlanRequest &request) {
  size_t n = units.size();
  int S = request.numStages;
  if (S < 1)
    return makeError("cannot plan " + llvm::Twine(S) + " stages");
  if (static_cast<size_t>(S) > n)
    return makeError("cannot cut the model into " + llvm::Twine(S) +
                     " stages: it has only " + llvm::Twine(n) +
                     " ops that do work, so at most " + llvm::Twine(n) +
                     " stages (P*V <= " + llvm::Twine(n) + ")");
  Ranges ranges(units, request);
  LinearPartitionProblem problem;
  problem.prefixCost = ranges.prefixTime();
  problem.crossingBytes = [&](size_t i) { return ranges.crossing(i); };
  problem.fits = [&](int s, size_t j, size_t i) {
    return ranges.fits(s, j, i);
  };
  std::optional<std::vector<int64_t>> cuts = linearPartition(problem, S);
  if (!cuts)
    return makeError(
        "no cut of the model into " + llvm::Twine(S) +
        " stages keeps every stage's parameters and stashes under " +
        llvm::Twine(request.memoryBudget) +
        " bytes (--memory-limit); raise the limit or use more ranks");
  return describe(units, ranges, std::move(*cuts));
}

llvm::Expected<StagePlan>
mlir::pp::driver::planStages(ArrayRef<UnitCost> units,
                             const PlanRequest &request) {
  llvm::Expected<StagePlan> plan = cut(units, request);
  if (!plan || !hasNearEmptyStage(*plan, request.nearEmptyFraction))
    return plan;
  // The largest number of stages the units balance without a near-empty
  // one (1 always does).
  plan->suggestedStages = 1;
  for (int S = request.numStages - 1; S > 1; --S) {
    PlanRequest fewer = request;
    fewer.numStages = S;
    llvm::Expected<StagePlan> other = cut(units, fewer);
    if (!other) {
      llvm::consumeError(other.takeError());
      continue;
    }
    if (!hasNearEmptyStage(*other, request.nearEmptyFraction)) {
      plan->suggestedStages = S;
      break;
    }
  }
  return plan;
}
