//===- PPOps.h - pp dialect operations and types ----------------*- C++ -*-===//

#ifndef PP_DIALECT_PP_IR_PPOPS_H
#define PP_DIALECT_PP_IR_PPOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/RegionKindInterface.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "pp/Dialect/PP/IR/PPDialect.h"

#include "pp/Dialect/PP/IR/PPEnums.h.inc"

#define GET_TYPEDEF_CLASSES
#include "pp/Dialect/PP/IR/PPOpsTypes.h.inc"

namespace mlir::pp {
class StageOp;
} // namespace mlir::pp

#define GET_OP_CLASSES
#include "pp/Dialect/PP/IR/PPOps.h.inc"

#endif // PP_DIALECT_PP_IR_PPOPS_H
