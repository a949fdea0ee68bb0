//===- Dialects.cpp - C API of pp-mlir ------------------------------------===//

#include "pp-c/Dialects.h"

#include "pp/Conversion/Passes.h"
#include "pp/Dialect/PP/IR/PPDialect.h"
#include "pp/Dialect/PP/Transforms/Passes.h"
#include "pp/Model/Passes.h"
#include "pp/Target/Translations.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/CAPI/Support.h"
#include "mlir/CAPI/Utils.h"

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(PP, pp, mlir::pp::PPDialect)

void ppRegisterPasses(void) {
  mlir::pp::registerPPPasses();
  mlir::pp::registerPPPipelines();
  mlir::pp::registerPPModelPasses();
  mlir::pp::registerPPModelPipelines();
  mlir::pp::registerPPConversionPasses();
}

MlirLogicalResult ppTranslateFromPP(MlirStringRef name, MlirOperation op,
                                    MlirStringCallback callback,
                                    void *userData) {
  mlir::detail::CallbackOstream stream(callback, userData);
  mlir::LogicalResult result =
      mlir::pp::translateFromPP(unwrap(name), unwrap(op), stream);
  stream.flush();
  return wrap(result);
}
