//===- PPDialect.h - pp dialect ---------------------------------*- C++ -*-===//

#ifndef PP_DIALECT_PP_IR_PPDIALECT_H
#define PP_DIALECT_PP_IR_PPDIALECT_H

#include "mlir/IR/Dialect.h"

#include "pp/Dialect/PP/IR/PPOpsDialect.h.inc"

#endif // PP_DIALECT_PP_IR_PPDIALECT_H
