//===- Table.h - Schedule tables and pictures -------------------*- C++ -*-===//
//
// Schedules as the CSV tables of PyTorch's torch.distributed.pipelining, and
// as SVG pictures.
//
//===----------------------------------------------------------------------===//

#ifndef PP_SCHEDULE_TABLE_H
#define PP_SCHEDULE_TABLE_H

#include "pp/Schedule/Schedule.h"

namespace mlir::pp::sched {

// Declarations are added by the implementation of lib/Schedule/Table.cpp
// and lib/Schedule/SVG.cpp.

} // namespace mlir::pp::sched

#endif // PP_SCHEDULE_TABLE_H
