//===- Auto.cpp - memory-aware automatic schedule --------------------------===//

#include "Generators.h"

using namespace mlir::pp::sched;

llvm::Error mlir::pp::sched::detail::buildAuto(const PipelineModel &, int,
                              const ScheduleOptions &, Schedule &) {
  return llvm::createStringError("'auto' is not implemented yet");
}
