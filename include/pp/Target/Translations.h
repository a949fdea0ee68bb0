//===- Translations.h - pp schedules to and from other formats --*- C++ -*-===//
//
// The pp dialect's translations, for mlir-translate-style tools
// (pp-translate) and embedders:
//
//   --export-pp-csv        pp.schedule -> torch.distributed.pipelining
//                          schedule table (CSV; pp/Schedule/Table.h)
//   --import-pp-csv        schedule table -> pp.pipeline + pp.schedule
//   --export-chrome-trace  pp.schedule -> simulated Chrome trace (JSON)
//   --export-svg           pp.schedule -> simulated timeline (SVG)
//
// with their options (--pp-csv-format, --pp-csv-packed, --pp-csv-crlf,
// --pp-schedule-name). Errors are diagnostics at the schedule or the file.
//
//===----------------------------------------------------------------------===//

#ifndef PP_TARGET_TRANSLATIONS_H
#define PP_TARGET_TRANSLATIONS_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace mlir::pp {

/// The options of the export translations, as the command-line flags give
/// them: the table format ("", compute_only or compute_comms; "" chooses
/// by the schedule), packed rows, \r\n line ends, and the pp.schedule to
/// export ("": the module's only one).
struct ExportOptions {
  std::string csvFormat;
  bool csvPacked = false;
  bool csvCRLF = false;
  std::string scheduleName;
  /// export-chrome-trace of a schedule with pp.allreduce ops: the replicas'
  /// ring, as pp-simulate's allreduce-bandwidth (bytes per second, > 0)
  /// and allreduce-latency (microseconds, >= 0).
  double allReduceBandwidth = 1e10;
  double allReduceLatency = 5;
};

/// Runs the export translation `name` (export-pp-csv, export-chrome-trace
/// or export-svg) on `op` (a module holding a pp.schedule) and writes the
/// text to `os`, without the translation registry: for embedders and the C
/// API (ppTranslateFromPP). Errors are diagnostics at `op` or the
/// schedule: an unknown name, no or several schedules, a schedule that
/// deadlocks (the simulated exports), a format that cannot hold it.
LogicalResult translateFromPP(StringRef name, Operation *op,
                              llvm::raw_ostream &os,
                              const ExportOptions &options = {});

/// Registers the four translations and their command-line options with
/// MLIR's translation registry (call before mlirTranslateMain or
/// llvm::cl::ParseCommandLineOptions). Idempotent.
void registerPPTranslations();

} // namespace mlir::pp

#endif // PP_TARGET_TRANSLATIONS_H
