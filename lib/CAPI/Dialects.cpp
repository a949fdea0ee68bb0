//===- Dialects.cpp - C API of pp-mlir ------------------------------------===//

#include "pp-c/Dialects.h"

#include "pp/Conversion/Passes.h"
#include "pp/Dialect/PP/IR/PPDialect.h"
#include "pp/Dialect/PP/Transforms/Passes.h"
#include "pp/Model/Passes.h"

#include "mlir/CAPI/Registration.h"

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(PP, pp, mlir::pp::PPDialect)

void ppRegisterPasses(void) {
  mlir::pp::registerPPPasses();
  mlir::pp::registerPPPipelines();
  mlir::pp::registerPPModelPasses();
  mlir::pp::registerPPModelPipelines();
  mlir::pp::registerPPConversionPasses();
}
