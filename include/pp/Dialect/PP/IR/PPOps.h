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

#include <cstdint>
#include <limits>

namespace mlir::pp {
class StageOp;

/// The largest rank, stage or micro-batch count the ops accept: the int32
/// range, so that the schedule library's int indices stay exact.
inline constexpr int64_t kMaxIndex = std::numeric_limits<int32_t>::max();
} // namespace mlir::pp

#define GET_OP_CLASSES
#include "pp/Dialect/PP/IR/PPOps.h.inc"

#endif // PP_DIALECT_PP_IR_PPOPS_H
