//===- Generators.h - Schedule generators (internal) ------------*- C++ -*-===//
//
// The interface between the generator registry (Generators.cpp) and the
// generator families, one file each: GPipe and 1F1B (Generators.cpp),
// interleaved 1F1B and looped BFS (Interleaved.cpp), ZB-H1 and ZB-H2
// (ZeroBubble.cpp), ZB-V and DualPipeV (VShape.cpp), V-Half and V-Min
// (ControllableMemory.cpp), auto (Auto.cpp, with ZBGreedy.cpp, Bounds.cpp,
// LocalSearch.cpp and Exact.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef PP_LIB_SCHEDULE_GENERATORS_H
#define PP_LIB_SCHEDULE_GENERATORS_H

#include "pp/Schedule/Schedule.h"

namespace mlir::pp::sched::detail {

/// A generator fills `schedule.ranks` (already sized to model.numRanks, with
/// numMicrobatches set) with a compute-only schedule. The registry has
/// already checked: numRanks >= 1, numMicrobatches >= 1, at least one stage,
/// every stage's rank in range. The generator checks the shape it needs and
/// returns an llvm::StringError naming the schedule otherwise.
using Generator = llvm::Error (*)(const PipelineModel &model,
                                  int numMicrobatches,
                                  const ScheduleOptions &options,
                                  Schedule &schedule);

llvm::Error buildGPipe(const PipelineModel &, int, const ScheduleOptions &,
                       Schedule &);
llvm::Error build1F1B(const PipelineModel &, int, const ScheduleOptions &,
                      Schedule &);
llvm::Error buildInterleaved1F1B(const PipelineModel &, int,
                                 const ScheduleOptions &, Schedule &);
llvm::Error buildLoopedBFS(const PipelineModel &, int,
                           const ScheduleOptions &, Schedule &);
llvm::Error buildZBH1(const PipelineModel &, int, const ScheduleOptions &,
                      Schedule &);
llvm::Error buildZBH2(const PipelineModel &, int, const ScheduleOptions &,
                      Schedule &);
llvm::Error buildZBV(const PipelineModel &, int, const ScheduleOptions &,
                     Schedule &);
llvm::Error buildDualPipeV(const PipelineModel &, int, const ScheduleOptions &,
                           Schedule &);
llvm::Error buildVHalf(const PipelineModel &, int, const ScheduleOptions &,
                       Schedule &);
llvm::Error buildVMin(const PipelineModel &, int, const ScheduleOptions &,
                      Schedule &);
llvm::Error buildAuto(const PipelineModel &, int, const ScheduleOptions &,
                      Schedule &);

/// The checks buildSchedule() makes before any generator runs: numRanks >=
/// 1, numMicrobatches >= 1, at least one stage, every stage on a rank in
/// range.
llvm::Error checkRequest(const PipelineModel &model, int numMicrobatches);

/// A compute action.
Action compute(ActionKind kind, int stage, int microbatch);

/// A number for reports, timelines and pictures: integral values without a
/// fraction ("3"), others with up to 6 significant digits ("0.75"); values of
/// a million or more in fixed notation with one decimal, never in exponent
/// notation.
std::string formatNumber(double x);

/// "3 stages", "1 rank".
std::string plural(int64_t n, llvm::StringRef word);

/// For each rank, its stage, if the pipeline has exactly one stage per rank;
/// an error naming `name` otherwise.
llvm::Expected<std::vector<int>> stagePerRank(llvm::StringRef name,
                                              const PipelineModel &model);

/// For each rank, its stages in increasing index order.
std::vector<std::vector<int>> stagesOfRanks(const PipelineModel &model);

} // namespace mlir::pp::sched::detail

#endif // PP_LIB_SCHEDULE_GENERATORS_H
