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

namespace mlir::pp {

/// Registers the four translations and their command-line options with
/// MLIR's translation registry (call before mlirTranslateMain or
/// llvm::cl::ParseCommandLineOptions). Idempotent.
void registerPPTranslations();

} // namespace mlir::pp

#endif // PP_TARGET_TRANSLATIONS_H
