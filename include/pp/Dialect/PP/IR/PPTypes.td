//===- PPTypes.td - pp dialect types -----------------------*- tablegen -*-===//

#ifndef PP_DIALECT_PP_IR_PPTYPES_TD
#define PP_DIALECT_PP_IR_PPTYPES_TD

include "pp/Dialect/PP/IR/PPDialect.td"
include "mlir/IR/AttrTypeBase.td"

class PP_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<PP_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def PP_StashType : PP_Type<"Stash", "stash"> {
  let summary = "Activations kept from one action of a stage for a later one";
  let description = [{
    An opaque handle to what a forward keeps for its backward (M_B bytes),
    or what a backward-for-inputs keeps for its backward-for-weights (M_W
    bytes). `bytes` is the size the handle keeps alive; a schedule's
    activation memory on a rank is the sum of the sizes of the stashes live
    at a point of its program.

    ```mlir
    !pp.stash<1048576>
    ```
  }];
  let parameters = (ins "int64_t":$bytes);
  let assemblyFormat = "`<` $bytes `>`";
  let genVerifyDecl = 1;
}

#endif // PP_DIALECT_PP_IR_PPTYPES_TD
