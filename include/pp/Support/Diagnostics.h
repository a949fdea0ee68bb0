//===- Diagnostics.h - diagnostics shared by pp-mlir passes -----*- C++ -*-===//
//
// One spelling for the errors every pass family reports: a required option
// that is missing, a symbol the options name that is not there. Messages do
// not name the pass (MLIR's diagnostics point at the op; the pass manager
// knows which pass runs), follow MLIR's style (lower case, no final period)
// and say what is expected.
//
//===----------------------------------------------------------------------===//

#ifndef PP_SUPPORT_DIAGNOSTICS_H
#define PP_SUPPORT_DIAGNOSTICS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Support/LLVM.h"

#include <string>

namespace mlir::pp {

/// Emits "option '<option>' is required" at `loc`, followed by " (<what>)"
/// when `what` is not empty.
InFlightDiagnostic emitRequiredOptionError(Location loc, StringRef option,
                                           StringRef what = "");

/// The function named by pass option `option` (usually 'function'): emits
/// "option '<option>' is required" at the module when `name` is empty, or
/// "no function named @<name>" when the module has none, and returns null.
func::FuncOp lookupFunction(ModuleOp module, StringRef name,
                            StringRef option = "function");

/// Checks an integer pass option: emits "option '<option>' [is required
/// and ]must be in [lo, hi], got <value>" at `loc` and fails when `value`
/// is outside [lo, hi] ("is required and" when `required`).
LogicalResult checkOptionRange(Location loc, StringRef option, int64_t value,
                               int64_t lo, int64_t hi, bool required = false);

/// Checks the ring of a data-parallel all-reduce model: emits "<bandwidth
/// name> must be > 0 and <latency name> >= 0, both finite" at `loc` and
/// fails otherwise. The names default to the passes' options; a tool
/// passes its flags.
LogicalResult
checkRingOptions(Location loc, double bandwidth, double latency,
                 StringRef bandwidthName = "'allreduce-bandwidth'",
                 StringRef latencyName = "'allreduce-latency'");

/// "t0, t1, ..." as MLIR prints types, without the quotes a diagnostic puts
/// around each streamed type.
std::string typeList(TypeRange types);

/// The op of type `OpT` named `name` in `module`, or, if `name` is empty,
/// the only one there. Otherwise emits "the module has N <op> ops; name one
/// with the '<option>' option" or "no <op> named @<name>" at the module and
/// returns null.
template <typename OpT>
OpT lookupNamedOrOnly(ModuleOp module, StringRef name, StringRef option) {
  StringRef opName = OpT::getOperationName();
  if (!name.empty()) {
    auto op = module.lookupSymbol<OpT>(name);
    if (!op)
      mlir::emitError(module.getLoc()) << "no " << opName << " named @" << name;
    return op;
  }
  auto all = llvm::to_vector(module.getOps<OpT>());
  if (all.size() == 1)
    return all.front();
  mlir::emitError(module.getLoc())
      << "the module has " << all.size() << " " << opName
      << " ops; name one with the '" << option << "' option";
  return OpT();
}

} // namespace mlir::pp

#endif // PP_SUPPORT_DIAGNOSTICS_H
