//===- Diagnostics.cpp - diagnostics shared by pp-mlir passes -------------===//

#include "pp/Support/Diagnostics.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace mlir;

InFlightDiagnostic mlir::pp::emitRequiredOptionError(Location loc,
                                                     StringRef option,
                                                     StringRef what) {
  InFlightDiagnostic diag = mlir::emitError(loc)
                            << "option '" << option << "' is required";
  if (!what.empty())
    diag << " (" << what << ")";
  return diag;
}

LogicalResult mlir::pp::checkOptionRange(Location loc, StringRef option,
                                         int64_t value, int64_t lo, int64_t hi,
                                         bool required) {
  if (value >= lo && value <= hi)
    return success();
  return mlir::emitError(loc)
         << "option '" << option << "' " << (required ? "is required and " : "")
         << "must be in [" << lo << ", " << hi << "], got " << value;
}

LogicalResult mlir::pp::checkRingOptions(Location loc, double bandwidth,
                                         double latency,
                                         StringRef bandwidthName,
                                         StringRef latencyName) {
  if (bandwidth > 0 && latency >= 0 && std::isfinite(bandwidth) &&
      std::isfinite(latency))
    return success();
  return mlir::emitError(loc) << bandwidthName << " must be > 0 and "
                              << latencyName << " >= 0, both finite";
}

func::FuncOp mlir::pp::lookupFunction(ModuleOp module, StringRef name,
                                      StringRef option) {
  if (name.empty()) {
    emitRequiredOptionError(module.getLoc(), option);
    return {};
  }
  auto fn = module.lookupSymbol<func::FuncOp>(name);
  if (!fn)
    mlir::emitError(module.getLoc()) << "no function named @" << name;
  return fn;
}

std::string mlir::pp::typeList(TypeRange types) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::interleaveComma(types, os);
  return text;
}
