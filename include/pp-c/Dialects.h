/*===- pp-c/Dialects.h - C API of pp-mlir --------------------------*- C
-*-===*\
|*                                                                            *|
|* Registers the pp dialect and passes from C. libPPCAPI.so also carries     *|
|* MLIR's core C API (mlir-c/IR.h, mlir-c/Pass.h, the func dialect handle), *|
|* so a C program links only -lPPCAPI.                                        *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef PP_C_DIALECTS_H
#define PP_C_DIALECTS_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The pp dialect's handle: pass it to mlirDialectHandleRegisterDialect or
 *  mlirDialectHandleInsertDialect. */
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(PP, pp);

/** Registers with the global pass registry, so that mlirParsePassPipeline
 *  accepts them, the passes on pp ops (pp-schedule, pp-place-stages,
 *  pp-insert-communication, pp-verify-schedule, pp-simulate,
 *  pp-compare-schedules) and the pp-plan pipeline; the passes on the model
 *  (pp-strip-instrumentation, pp-lift-parameters, pp-append-loss,
 *  pp-normalize-linalg, pp-check-differentiable, pp-autodiff, pp-partition,
 *  pp-split-backward, pp-differentiate-stages) and the pp-prepare-model
 *  pipeline; and convert-pp-to-runtime. The GPU lowering (pp-gpu-*,
 *  pp-lower-stages-to-gpu) is not part of the C API. */
MLIR_CAPI_EXPORTED void ppRegisterPasses(void);

/** Writes `op` (a module holding a pp.schedule) through pp-mlir's export
 *  translation `name` ("export-pp-csv", "export-chrome-trace" or
 *  "export-svg"; pp/Target/Translations.h) with its default options,
 *  calling `callback` with the text. Failure, with the diagnostics sent to
 *  the context's handlers, for another name or a module the translation
 *  cannot write (no pp.schedule, or several; a schedule that deadlocks). */
MLIR_CAPI_EXPORTED MlirLogicalResult
ppTranslateFromPP(MlirStringRef name, MlirOperation op,
                  MlirStringCallback callback, void *userData);

#ifdef __cplusplus
}
#endif

#endif /* PP_C_DIALECTS_H */
