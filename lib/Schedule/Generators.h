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

#include "pp/Schedule/AutoSchedule.h"
#include "pp/Schedule/Schedule.h"

#include "Text.h"

#include "llvm/ADT/STLFunctionalExtras.h"

namespace mlir::pp::sched::detail {

/// A generator fills `schedule.ranks` (already sized to model.numRanks, with
/// numMicrobatches set) with a compute-only schedule. The registry has
/// already checked: numRanks >= 1, numMicrobatches >= 1, at least one stage,
/// every stage's rank in range. The generator checks the shape it needs and
/// returns an llvm::StringError naming the schedule otherwise. `name` is the
/// name the generator is registered under: for its messages and, where one
/// generator serves two schedules, to pick the variant.
using GeneratorFn = llvm::Error(llvm::StringRef name,
                                const PipelineModel &model, int numMicrobatches,
                                const ScheduleOptions &options,
                                Schedule &schedule);
using Generator = GeneratorFn *;

/// The generators, by family (see the file comment): gpipe, 1f1b;
/// interleaved-1f1b, looped-bfs; zb-h1 and zb-h2; zb-v, dualpipe-v; v-half
/// and v-min; auto.
GeneratorFn buildGPipe, build1F1B;
GeneratorFn buildInterleaved1F1B, buildLoopedBFS;
GeneratorFn buildZeroBubble;
GeneratorFn buildZBV, buildDualPipeV;
GeneratorFn buildControllable;
GeneratorFn buildAuto;

/// The checks buildSchedule() makes before any generator runs: numRanks >=
/// 1, numMicrobatches >= 1, at least one stage, every stage on a rank in
/// range.
llvm::Error checkRequest(const PipelineModel &model, int numMicrobatches);

/// A compute action.
Action compute(ActionKind kind, int stage, int microbatch);

/// For each rank, its stage, if the pipeline has exactly one stage per rank;
/// an error naming `name` otherwise.
llvm::Expected<std::vector<int>> stagePerRank(llvm::StringRef name,
                                              const PipelineModel &model);

/// Calls `build(rank, stage)` for every rank of a pipeline with one stage
/// per rank, in rank order; the error of stagePerRank() otherwise.
llvm::Error
forEachRankStage(llvm::StringRef name, const PipelineModel &model,
                 llvm::function_ref<void(int rank, int stage)> build);

/// "stage s is on rank r instead of rank q" for the first stage s of `model`
/// whose rank r is not wantedRank(s) = q; "" if every stage is there.
std::string misplacedStage(const PipelineModel &model,
                           llvm::function_ref<int(int stage)> wantedRank);

/// The eight ZeroBubbleGreedyPolicy settings, in the order auto tries them:
/// bit 0 of the index is allowBubbleBeforeFirstB, bit 1 prioritizeB, bit 2
/// fillSmallGapsWithW (ZBGreedy.cpp).
std::vector<ZeroBubbleGreedyPolicy> zeroBubbleGreedyPolicies();

/// For each rank, its stages in increasing index order (PipelineModel.cpp,
/// with the other helpers on pipelines and placements).
std::vector<std::vector<int>> stagesOfRanks(const PipelineModel &model);

} // namespace mlir::pp::sched::detail

#endif // PP_LIB_SCHEDULE_GENERATORS_H
