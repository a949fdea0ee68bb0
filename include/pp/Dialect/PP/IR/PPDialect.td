//===- PPDialect.td - pp dialect definition ----------------*- tablegen -*-===//

#ifndef PP_DIALECT_PP_IR_PPDIALECT_TD
#define PP_DIALECT_PP_IR_PPDIALECT_TD

include "mlir/IR/OpBase.td"

def PP_Dialect : Dialect {
  let name = "pp";
  let cppNamespace = "::mlir::pp";
  let summary = "Pipeline-parallel training: stages, micro-batches, schedules";
  let description = [{
    The `pp` dialect represents a model cut into pipeline stages
    (`pp.pipeline`, `pp.stage`) and the order in which every rank runs the
    forward (F), backward-for-inputs (B), backward-for-weights (W) and
    communication actions of every micro-batch (`pp.schedule`).

    Times are in microseconds, memory sizes in bytes. Stages, ranks and
    micro-batches are numbered from 0. See `docs/Rationale.md` for why the
    IR is shaped this way.
  }];
  let useDefaultTypePrinterParser = 1;
}

class PP_Op<string mnemonic, list<Trait> traits = []>
    : Op<PP_Dialect, mnemonic, traits>;

#endif // PP_DIALECT_PP_IR_PPDIALECT_TD
