//===- ZeroBubble.cpp - ZB-H1 and ZB-H2 ------------------------------------===//

#include "Generators.h"

using namespace mlir::pp::sched;

llvm::Error mlir::pp::sched::detail::buildZBH1(const PipelineModel &, int,
                              const ScheduleOptions &, Schedule &) {
  return llvm::createStringError("'zb-h1' is not implemented yet");
}

llvm::Error mlir::pp::sched::detail::buildZBH2(const PipelineModel &, int,
                              const ScheduleOptions &, Schedule &) {
  return llvm::createStringError("'zb-h2' is not implemented yet");
}
