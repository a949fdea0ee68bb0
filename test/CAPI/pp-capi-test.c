// RUN: %pp_capi_test 2>&1 | FileCheck %s

// Registers the pp dialect and passes through the C API, parses a pipeline,
// runs pp-plan on it and prints the result.

#include "pp-c/Dialects.h"

#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"

#include <stdio.h>
#include <string.h>

static void printToStdout(MlirStringRef str, void *userData) {
  (void)userData;
  fwrite(str.data, 1, str.length, stdout);
}

int main(void) {
  MlirContext ctx = mlirContextCreate();
  mlirDialectHandleRegisterDialect(mlirGetDialectHandle__pp__(), ctx);
  ppRegisterPasses();

  const char *source =
      "pp.pipeline @p ranks(2) activation_bytes(8) {\n"
      "  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)\n"
      "  pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1)\n"
      "}\n";
  MlirModule module =
      mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(source));
  if (mlirModuleIsNull(module)) {
    fprintf(stderr, "parse failed\n");
    return 1;
  }
  // CHECK: pp.pipeline @p ranks(2) activation_bytes(8)
  mlirOperationPrint(mlirModuleGetOperation(module), printToStdout, NULL);
  fprintf(stdout, "\n");

  MlirPassManager pm = mlirPassManagerCreate(ctx);
  MlirOpPassManager opm = mlirPassManagerGetAsOpPassManager(pm);
  const char *pipeline =
      "builtin.module(pp-plan{schedule=1f1b num-microbatches=2})";
  if (mlirLogicalResultIsFailure(
          mlirParsePassPipeline(opm, mlirStringRefCreateFromCString(pipeline),
                                printToStdout, NULL))) {
    fprintf(stderr, "pipeline parse failed\n");
    return 2;
  }
  if (mlirLogicalResultIsFailure(
          mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module)))) {
    fprintf(stderr, "pass pipeline failed\n");
    return 3;
  }
  // CHECK: pp.schedule @p_1f1b pipeline(@p) microbatches(2)
  // CHECK: pp.send activation stage 0 microbatch 0 to rank 1
  mlirOperationPrint(mlirModuleGetOperation(module), printToStdout, NULL);
  fprintf(stdout, "\n");
  // The translations of lib/Target, through the C API: the planned schedule
  // as a torch.distributed.pipelining table, and an unknown name.
  // CHECK: 0F0,0SEND_F0,0F1,0SEND_F1,0RECV_B0,0B0,0RECV_B1,0B1
  // CHECK-NEXT: 1RECV_F0,1F0,1RECV_F1,1B0,1SEND_B0,1F1,1B1,1SEND_B1
  if (mlirLogicalResultIsFailure(ppTranslateFromPP(
          mlirStringRefCreateFromCString("export-pp-csv"),
          mlirModuleGetOperation(module), printToStdout, NULL))) {
    fprintf(stderr, "export-pp-csv failed\n");
    return 4;
  }
  fflush(stdout); // before the diagnostic on stderr
  // CHECK: error: unknown pp translation 'export-onnx'; expected export-pp-csv,
  // export-chrome-trace or export-svg
  if (!mlirLogicalResultIsFailure(ppTranslateFromPP(
          mlirStringRefCreateFromCString("export-onnx"),
          mlirModuleGetOperation(module), printToStdout, NULL))) {
    fprintf(stderr, "export-onnx did not fail\n");
    return 5;
  }
  // CHECK: done
  fprintf(stdout, "done\n");

  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
  return 0;
}
