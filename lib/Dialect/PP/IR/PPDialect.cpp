//===- PPDialect.cpp - pp dialect -----------------------------------------===//

#include "pp/Dialect/PP/IR/PPDialect.h"
#include "pp/Dialect/PP/IR/PPOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::pp;

#include "pp/Dialect/PP/IR/PPOpsDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "pp/Dialect/PP/IR/PPOpsTypes.cpp.inc"

void PPDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "pp/Dialect/PP/IR/PPOps.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "pp/Dialect/PP/IR/PPOpsTypes.cpp.inc"
      >();
}

LogicalResult StashType::verify(function_ref<InFlightDiagnostic()> emitError,
                                int64_t bytes) {
  if (bytes < 0)
    return emitError() << "stash size must be non-negative, got " << bytes
                       << " bytes";
  return success();
}
