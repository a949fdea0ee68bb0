//===- Passes.td - conversions of pp IR to code ----------*- tablegen -*-===//

#ifndef PP_CONVERSION_PASSES_TD
#define PP_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertPPToRuntimePass
    : Pass<"convert-pp-to-runtime", "::mlir::ModuleOp"> {
  let summary = "Turn each rank's program into a function calling the runtime";
  let description = [{
    For the communicating `pp.schedule` `schedule` (default: the only one),
    whose pipeline's stages name their functions as `pp-differentiate-stages`
    makes them, creates one function per rank,

    ```mlir
    func.func @<schedule>_rank<r>(%rank: !llvm.ptr) attributes {pp.rank = r}
    ```

    that runs the rank's actions in order on tensors: it reads the rank's
    parameters and stage 0's micro-batch data from the runtime, calls F, B,
    W (or the fused backward) of each action's stage, passes every tensor a
    `pp.send`/`pp.recv` carries to the runtime (one part per tensor: part k
    of a payload travels as kind + 2k), hands the loss of the last stage
    and every parameter gradient to the runtime, seeds the last stage's
    backward with the runtime's loss seed (1/M), brackets every action for
    the trace and accounts the activation stash (+ when F keeps it, - when
    the last backward that reads it ends). Runtime entry points are declared
    as private functions: `pprt_action_begin/end` and `pprt_stash`
    (runtime/include/pprt/pprt.h), and `pprt_memref_<op>_<element type>`
    taking unranked memrefs (runtime/include/pprt/pprt_memref.h). The
    result is ordinary tensor code: bufferize it and lower it to LLVM
    (pp-run does; docs/Runtime.md).
  }];
  let options = [
    Option<"scheduleName", "schedule", "std::string", /*default=*/"",
           "The schedule to convert (default: the only one in the module)">,
  ];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::bufferization::BufferizationDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

#endif // PP_CONVERSION_PASSES_TD
