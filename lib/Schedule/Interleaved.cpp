//===- Interleaved.cpp - interleaved 1F1B and looped BFS -------------------===//

#include "Generators.h"

using namespace mlir::pp::sched;

llvm::Error mlir::pp::sched::detail::buildInterleaved1F1B(const PipelineModel &, int,
                                         const ScheduleOptions &, Schedule &) {
  return llvm::createStringError("'interleaved-1f1b' is not implemented yet");
}

llvm::Error mlir::pp::sched::detail::buildLoopedBFS(const PipelineModel &, int,
                                   const ScheduleOptions &, Schedule &) {
  return llvm::createStringError("'looped-bfs' is not implemented yet");
}
