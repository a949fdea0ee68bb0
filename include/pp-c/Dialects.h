/*===- pp-c/Dialects.h - C API of pp-mlir --------------------------*- C -*-===*\
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

/** Registers every pp pass (pp-schedule, pp-insert-communication,
 *  pp-verify-schedule, pp-simulate) and pipeline (pp-plan) with the global
 *  pass registry, so that mlirParsePassPipeline accepts them. */
MLIR_CAPI_EXPORTED void ppRegisterPasses(void);

#ifdef __cplusplus
}
#endif

#endif /* PP_C_DIALECTS_H */
