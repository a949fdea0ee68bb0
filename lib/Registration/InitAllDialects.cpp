//===- InitAllDialects.cpp - the dialects a model may contain -------------===//

#include "pp/InitAllDialects.h"

#include "pp/Dialect/PP/IR/PPDialect.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"

void mlir::pp::registerModelDialects(DialectRegistry &registry) {
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registry.insert<PPDialect>();
}
