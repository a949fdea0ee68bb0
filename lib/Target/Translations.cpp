//===- Translations.cpp - pp schedules to and from other formats ----------===//
//
// The pp dialect's translations (pp/Target/Translations.h), which
// pp-translate and any mlir-translate-style tool register:
//
//   --export-pp-csv        pp.schedule -> PyTorch schedule table (CSV)
//   --import-pp-csv        PyTorch schedule table -> pp.pipeline + pp.schedule
//   --export-chrome-trace  pp.schedule -> simulated Chrome trace JSON
//   --export-svg           pp.schedule -> simulated timeline picture (SVG)
//
// The table format is torch.distributed.pipelining's (see
// include/pp/Schedule/Table.h). Errors are diagnostics; a tool then exits
// with 1.
//
//===----------------------------------------------------------------------===//

#include "pp/Target/Translations.h"

#include "pp/Dialect/PP/IR/PPDialect.h"
#include "pp/Dialect/PP/IR/PPOps.h"
#include "pp/Dialect/PP/IR/ScheduleModel.h"
#include "pp/InitAllDialects.h"
#include "pp/Schedule/DataParallel.h"
#include "pp/Schedule/Table.h"
#include "pp/Support/Diagnostics.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::pp;

namespace {

/// The translations' options, registered with them
/// (registerPPTranslations()), so a tool that links the library without
/// calling it does not list them.
struct TranslateOptions {
  llvm::cl::OptionCategory category{"pp-translate options"};
  llvm::cl::opt<std::string> csvFormat{
      "pp-csv-format",
      llvm::cl::desc(
          "Schedule table format: compute_only or compute_comms. Export "
          "default: compute_comms if the schedule has pp.send/pp.recv, else "
          "compute_only. Import default: compute_comms if the table has a "
          "send or receive, else compute_only"),
      llvm::cl::init(""), llvm::cl::value_desc("compute_only|compute_comms"),
      llvm::cl::cat(category)};
  llvm::cl::opt<bool> csvPacked{
      "pp-csv-packed",
      llvm::cl::desc("Export compute_only rows without empty cells instead "
                     "of placing each action in the column of its lock-step "
                     "time step (the default)"),
      llvm::cl::init(false), llvm::cl::cat(category)};
  llvm::cl::opt<bool> csvCRLF{
      "pp-csv-crlf",
      llvm::cl::desc("End exported rows with \\r\\n, as Python's csv.writer "
                     "does (default \\n)"),
      llvm::cl::init(false), llvm::cl::cat(category)};
  llvm::cl::opt<std::string> scheduleName{
      "pp-schedule-name",
      llvm::cl::desc("The pp.schedule to export (required when the module "
                     "has more than one)"),
      llvm::cl::init(""), llvm::cl::value_desc("name"),
      llvm::cl::cat(category)};
  llvm::cl::opt<double> allReduceBandwidth{
      "pp-allreduce-bandwidth",
      llvm::cl::desc("export-chrome-trace and export-svg of a schedule with "
                     "pp.allreduce: "
                     "bandwidth of one link of the replicas' ring, bytes "
                     "per second (default 1e10, as pp-simulate)"),
      llvm::cl::init(1e10), llvm::cl::cat(category)};
  llvm::cl::opt<double> allReduceLatency{
      "pp-allreduce-latency",
      llvm::cl::desc("export-chrome-trace and export-svg of a schedule with "
                     "pp.allreduce: "
                     "latency of one ring message, microseconds (default "
                     "5, as pp-simulate)"),
      llvm::cl::init(5.0), llvm::cl::cat(category)};
};

/// Set by registerPPTranslations().
TranslateOptions *flags = nullptr;

/// The options as the translations read them: the command line's when
/// registerPPTranslations() registered it, else the defaults.
ExportOptions currentOptions() {
  ExportOptions options;
  if (flags) {
    options.csvFormat = flags->csvFormat;
    options.csvPacked = flags->csvPacked;
    options.csvCRLF = flags->csvCRLF;
    options.scheduleName = flags->scheduleName;
    options.allReduceBandwidth = flags->allReduceBandwidth;
    options.allReduceLatency = flags->allReduceLatency;
  }
  return options;
}

/// What pp-opt reads: a schedule may sit beside the model it was planned
/// from (pp/InitAllDialects.h).
void registerDialects(DialectRegistry &registry) {
  registerModelDialects(registry);
}

/// The table format option, or nullopt if it is not given; emits an error
/// at `loc` for an unknown name.
FailureOr<std::optional<sched::TableFormat>>
formatOption(const ExportOptions &options, Location loc) {
  if (options.csvFormat.empty())
    return std::optional<sched::TableFormat>();
  if (std::optional<sched::TableFormat> format =
          sched::parseTableFormat(options.csvFormat))
    return format;
  return emitError(loc, "unknown --pp-csv-format '")
         << options.csvFormat << "'; expected compute_only or compute_comms";
}

/// The schedule to export: the one named by --pp-schedule-name, or the only
/// one in the module.
FailureOr<ScheduleOp> selectSchedule(const ExportOptions &options,
                                     Operation *top) {
  SmallVector<ScheduleOp> schedules;
  top->walk([&](ScheduleOp op) { schedules.push_back(op); });
  if (!options.scheduleName.empty()) {
    for (ScheduleOp op : schedules)
      if (op.getSymName() == options.scheduleName)
        return op;
    return emitError(top->getLoc(), "no pp.schedule named @")
           << options.scheduleName;
  }
  if (schedules.empty())
    return emitError(top->getLoc(), "the module has no pp.schedule; run pp-opt "
                                    "--pp-schedule first");
  if (schedules.size() > 1) {
    SmallVector<std::string> names;
    for (ScheduleOp op : schedules)
      names.push_back(("@" + op.getSymName()).str());
    return emitError(top->getLoc(), "the module has ")
           << schedules.size() << " pp.schedule ops ("
           << llvm::join(names, ", ")
           << "); choose one with --pp-schedule-name";
  }
  return schedules.front();
}

LogicalResult exportCSV(const ExportOptions &given, Operation *top,
                        llvm::raw_ostream &os) {
  FailureOr<ScheduleOp> op = selectSchedule(given, top);
  if (failed(op))
    return failure();
  FailureOr<std::optional<sched::TableFormat>> format =
      formatOption(given, op->getLoc());
  if (failed(format))
    return failure();
  ScheduleModel model = getScheduleModel(*op);
  sched::TableExportOptions options;
  options.format = format->value_or(sched::hasCommunication(model.schedule)
                                        ? sched::TableFormat::ComputeComms
                                        : sched::TableFormat::ComputeOnly);
  options.alignSteps = !given.csvPacked;
  options.crlf = given.csvCRLF;
  options.allReduces = model.allReduces;
  llvm::Expected<std::string> text =
      sched::exportTable(model.schedule, options);
  if (!text)
    return emitError(op->getLoc(), "cannot export @")
           << op->getSymName() << " as "
           << sched::tableFormatName(options.format) << ": "
           << llvm::toString(text.takeError());
  os << *text;
  return success();
}

/// The all-reduces of `schedule` as spans of the simulated step under the
/// ring of --pp-allreduce-bandwidth and --pp-allreduce-latency (none
/// without all-reduces); an error at `op` for a ring that is not one.
FailureOr<std::vector<sched::TraceSpan>>
allReduceSpans(const ExportOptions &options, ScheduleOp op,
               const sched::PipelineModel &model, const ScheduleModel &schedule,
               const sched::SimulationResult &result) {
  if (schedule.allReduces.empty())
    return std::vector<sched::TraceSpan>();
  if (failed(checkRingOptions(
          op.getLoc(), options.allReduceBandwidth, options.allReduceLatency,
          "--pp-allreduce-bandwidth", "--pp-allreduce-latency")))
    return failure();
  return sched::allReduceSpans(
      schedule.simulateAllReduces(model, result, options.allReduceBandwidth,
                                  options.allReduceLatency),
      schedule.gradientBytes);
}

/// Simulates the selected schedule, after checking that it runs to the end
/// under blocking send/recv (the problems are reported at their actions),
/// and its all-reduces (allReduceSpans), and hands both to `write`.
LogicalResult simulateSchedule(
    const ExportOptions &options, Operation *top,
    llvm::function_ref<void(
        ScheduleOp, const sched::PipelineModel &, const ScheduleModel &,
        const sched::SimulationResult &, const std::vector<sched::TraceSpan> &)>
        write) {
  FailureOr<ScheduleOp> op = selectSchedule(options, top);
  if (failed(op))
    return failure();
  PipelineOp pipeline = op->getPipelineOp();
  sched::PipelineModel model = getPipelineModel(pipeline);
  ScheduleModel schedule = getScheduleModel(*op);
  sched::DeadlockReport deadlock =
      sched::findDeadlock(model, schedule.schedule);
  if (!deadlock.completed) {
    InFlightDiagnostic diag = emitError(op->getLoc(), "schedule @")
                              << op->getSymName()
                              << " deadlocks and cannot be simulated";
    for (const sched::Problem &p : deadlock.blocked) {
      Location loc = op->getLoc();
      if (p.rank >= 0 && p.index >= 0 &&
          p.rank < static_cast<int>(schedule.ops.size()) &&
          p.index < static_cast<int>(schedule.ops[p.rank].size()))
        loc = schedule.ops[p.rank][p.index]->getLoc();
      diag.attachNote(loc) << p.message;
    }
    return failure();
  }
  sched::SimulationResult result = sched::simulate(model, schedule.schedule);
  FailureOr<std::vector<sched::TraceSpan>> spans =
      allReduceSpans(options, *op, model, schedule, result);
  if (failed(spans))
    return failure();
  write(*op, model, schedule, result, *spans);
  return success();
}

LogicalResult exportChromeTrace(const ExportOptions &options, Operation *top,
                                llvm::raw_ostream &os) {
  return simulateSchedule(
      options, top,
      [&](ScheduleOp, const sched::PipelineModel &model,
          const ScheduleModel &schedule, const sched::SimulationResult &result,
          const std::vector<sched::TraceSpan> &allReduces) {
        os << sched::chromeTraceJSON(model, schedule.schedule, result,
                                     allReduces);
      });
}

LogicalResult exportSVG(const ExportOptions &options, Operation *top,
                        llvm::raw_ostream &os) {
  return simulateSchedule(
      options, top,
      [&](ScheduleOp op, const sched::PipelineModel &model,
          const ScheduleModel &schedule, const sched::SimulationResult &result,
          const std::vector<sched::TraceSpan> &allReduces) {
        os << sched::renderSVG(model, schedule.schedule, result,
                               ("@" + op.getSymName()).str(), allReduces);
      });
}

/// Reads a table into a module holding `pp.pipeline @imported` (abstract
/// stages with unit costs and sizes, placed as the table places them) and
/// `pp.schedule @imported_file`.
OwningOpRef<Operation *> importCSV(llvm::SourceMgr &sourceMgr,
                                   MLIRContext *context) {
  context->loadDialect<PPDialect>();
  const llvm::MemoryBuffer *buffer =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  StringRef fileName = buffer->getBufferIdentifier();
  auto at = [&](int line, int column) -> Location {
    return FileLineColLoc::get(context, fileName, std::max(line, 0),
                               std::max(column, 0));
  };
  Location fileLoc = at(0, 0);
  FailureOr<std::optional<sched::TableFormat>> format =
      formatOption(currentOptions(), fileLoc);
  if (failed(format))
    return nullptr;

  sched::TableLocation where;
  llvm::Expected<sched::ImportedTable> table =
      sched::importTable(buffer->getBuffer(), *format, &where);
  if (!table) {
    emitError(at(where.line, where.column), "cannot import schedule table: ")
        << llvm::toString(table.takeError());
    return nullptr;
  }

  // Verify before building: building wires values by (stage, micro-batch)
  // and needs every producer before its consumers.
  sched::PipelineModel model;
  model.numRanks = table->numRanks();
  for (int s = 0; s < table->numStages(); ++s) {
    sched::StageInfo info;
    info.rank = table->stageRanks[s];
    model.stages.push_back(info);
  }
  std::vector<sched::TableProblem> problems = sched::checkTable(model, *table);
  for (const sched::TableProblem &p : problems) {
    if (p.step >= 0)
      emitError(at(p.location.line, p.location.column),
                "invalid schedule table: rank ")
          << p.rank << ", step " << p.step << ": " << p.message;
    else
      emitError(fileLoc, "invalid schedule table: ") << p.message;
  }
  if (!problems.empty())
    return nullptr;

  OpBuilder builder(context);
  OwningOpRef<ModuleOp> module = ModuleOp::create(fileLoc);
  builder.setInsertionPointToEnd(module->getBody());
  auto pipeline = PipelineOp::create(builder, fileLoc, "imported",
                                     table->numRanks(), llvm::APFloat(0.0),
                                     /*activation_bytes=*/1);
  {
    OpBuilder::InsertionGuard guard(builder);
    builder.createBlock(&pipeline.getBody());
    FloatAttr unit = builder.getF64FloatAttr(1.0);
    for (int s = 0; s < table->numStages(); ++s)
      StageOp::create(builder, fileLoc, s, table->stageRanks[s],
                      /*forward=*/nullptr, /*backward=*/nullptr,
                      /*backward_input=*/nullptr, /*backward_weight=*/nullptr,
                      unit, unit, unit, /*stash_bytes=*/1,
                      /*weight_stash_bytes=*/1);
  }
  buildScheduleOp(builder, fileLoc, "imported_file", pipeline, table->schedule);
  return OwningOpRef<Operation *>(module.release());
}

/// The export translations by name.
using ExportFn = LogicalResult (*)(const ExportOptions &, Operation *,
                                   llvm::raw_ostream &);
ExportFn exportNamed(StringRef name) {
  if (name == "export-pp-csv")
    return exportCSV;
  if (name == "export-chrome-trace")
    return exportChromeTrace;
  if (name == "export-svg")
    return exportSVG;
  return nullptr;
}

/// What a registered export translation runs: the named one with the
/// command line's options.
template <ExportFn fn>
LogicalResult exportWithFlags(Operation *top, llvm::raw_ostream &os) {
  return fn(currentOptions(), top, os);
}

} // namespace

LogicalResult mlir::pp::translateFromPP(StringRef name, Operation *op,
                                        llvm::raw_ostream &os,
                                        const ExportOptions &options) {
  ExportFn fn = exportNamed(name);
  if (!fn)
    return emitError(op->getLoc(), "unknown pp translation '")
           << name
           << "'; expected export-pp-csv, export-chrome-trace or export-svg";
  return fn(options, op, os);
}

void mlir::pp::registerPPTranslations() {
  static TranslateOptions translateOptions;
  flags = &translateOptions;
  static TranslateFromMLIRRegistration exportCSVRegistration(
      "export-pp-csv",
      "Write a pp.schedule as a torch.distributed.pipelining schedule table "
      "(CSV)",
      exportWithFlags<exportCSV>, registerDialects);
  static TranslateToMLIRRegistration importCSVRegistration(
      "import-pp-csv",
      "Read a torch.distributed.pipelining schedule table (CSV) into a "
      "pp.pipeline @imported and a pp.schedule @imported_file",
      importCSV, registerDialects);
  static TranslateFromMLIRRegistration chromeTraceRegistration(
      "export-chrome-trace",
      "Simulate a pp.schedule and write a Chrome trace (JSON, opens in "
      "Perfetto)",
      exportWithFlags<exportChromeTrace>, registerDialects);
  static TranslateFromMLIRRegistration svgRegistration(
      "export-svg", "Simulate a pp.schedule and draw its timeline as SVG",
      exportWithFlags<exportSVG>, registerDialects);
}
