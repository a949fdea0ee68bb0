//===- VShape.cpp - ZB-V and DualPipeV -------------------------------------===//

#include "Generators.h"

using namespace mlir::pp::sched;

llvm::Error mlir::pp::sched::detail::buildZBV(const PipelineModel &, int,
                             const ScheduleOptions &, Schedule &) {
  return llvm::createStringError("'zb-v' is not implemented yet");
}

llvm::Error mlir::pp::sched::detail::buildDualPipeV(const PipelineModel &, int,
                                   const ScheduleOptions &, Schedule &) {
  return llvm::createStringError("'dualpipe-v' is not implemented yet");
}
