//===- Interleaved.cpp - interleaved 1F1B and looped BFS ------------------===//
//
// The two schedules of the loop placement (stage s on rank s mod P, S = P * V
// stages, so rank r holds the V "model chunks" r, P + r, ..., (V - 1)P + r and
// a micro-batch loops V times through the ranks):
// - interleaved 1F1B (Narayanan et al., "Efficient Large-Scale Language Model
//   Training on GPU Clusters Using Megatron-LM", SC'21, sec. 2.2.2), in the
//   order of Megatron-LM's forward_backward_pipelining_with_interleaving
//   (megatron/core/pipeline_parallel/schedules.py: get_schedule_table and
//   the warm-up count of microbatch_group_size_per_vp_stage);
// - looped breadth-first (Lamy-Poirier, "Breadth-First Pipeline
//   Parallelism", MLSys 2023), in the order of PyTorch's
//   torch.distributed.pipelining.ScheduleLoopedBFS.
//
// docs/Schedules.md describes both orders with examples.
//
//===----------------------------------------------------------------------===//

#include "Generators.h"

#include <algorithm>
#include <string>

using namespace mlir::pp::sched;
using namespace mlir::pp::sched::detail;

namespace {

/// The number of stages per rank V if `model` has the loop placement; an
/// error naming `name` and saying what is wrong otherwise.
llvm::Expected<int> loopChunks(llvm::StringRef name,
                               const PipelineModel &model) {
  int numRanks = model.numRanks, numStages = model.numStages();
  if (hasPlacement(model, Placement::Loop))
    return numStages / numRanks;
  std::string why;
  if (numStages % numRanks != 0) {
    why = "the pipeline has " + plural(numStages, "stage") + " on " +
          plural(numRanks, "rank") + ", not a multiple of the rank count";
  } else {
    why = misplacedStage(model, [&](int s) { return s % numRanks; });
  }
  return llvm::createStringError(
      "'%s' needs the loop placement (P*V stages, stage s on rank s mod P), "
      "but %s; place the stages with the loop placement (`loop`)",
      name.str().c_str(), why.c_str());
}

/// One unit of work of a rank: a model chunk (0..V-1) and a micro-batch.
struct Unit {
  int chunk;
  int microbatch;
};

} // namespace

/// Interleaved 1F1B, Megatron-LM's order (see the file comment and
/// docs/Schedules.md, section interleaved-1f1b).
///
/// Rank r runs V * M units (chunk c, micro-batch m), chunk c being stage
/// c * P + r. The forward order of the units is Megatron-LM's schedule table:
/// the micro-batches are cut into groups of G consecutive ones (G =
/// options.groupSize, P when 0), and for each group in turn, for each chunk
/// c = 0..V-1, the micro-batches of the group in increasing order. With M a
/// multiple of G, forward unit k is (chunk (k / G) mod V, micro-batch
/// (k / (G V)) G + k mod G). The backward order is the same table with the
/// chunks reversed (chunk V - 1 - c).
///
/// Rank r runs w_r = min(2 (P - r - 1) + (V - 1) G, M V) warm-up forwards
/// (Megatron-LM's num_warmup_microbatches), then M V - w_r steady-state steps
/// of one forward (the next in forward order) and one backward (the next in
/// backward order), then the w_r remaining backwards. Backwards are fused (B
/// and W in one action).
///
/// Megatron-LM accepts only P <= G <= M and M mod G either 0 or >= P: then
/// every group has at least P micro-batches, which is what the order needs
/// (in the steady state, rank 0 starts chunk c + 1 of a micro-batch one group
/// after chunk c; with a group of g < P micro-batches that is before rank
/// P - 1 has finished chunk c, and with the warm-up above the ranks wait on
/// each other in a cycle: P = 4, V = 3, M = 5 with a last group of one
/// micro-batch deadlocks). This order is Megatron-LM's on those shapes and
/// generalizes it to every M >= 1 and G >= 1:
/// - a remainder M mod G smaller than P joins the last full group (so the
///   last group has G + (M mod G) micro-batches); a remainder of at least P
///   is its own last group, as in Megatron-LM's get_schedule_table;
/// - G > M makes one group of all M micro-batches;
/// - the (V - 1) G term of the warm-up uses the largest group, g_max, and the
///   2 (P - r - 1) term is capped at twice the smallest group, 2 g_min (it
///   only matters when a group has fewer than P - 1 micro-batches: G < P - 1,
///   or M < P - 1), so w_r = min((V - 1) g_max + min(2 (P - r - 1),
///   2 g_min), M V).
/// For P <= G <= M with M mod G = 0 or >= P this is Megatron-LM's warm-up. With
/// unit costs the bubble stays (P - 1) / (V M) of the ideal time for every
/// M >= P when G = P; a smaller G adds bubbles, a remainder merged into the
/// last group adds (V - 1) (M mod G) warm-up stashes.
///
/// V = 1 degenerates to 1F1B: Megatron-LM then runs its non-interleaved
/// schedule, whose warm-up is min(P - r - 1, M), and the table is the
/// micro-batches in order, so the result equals build1F1B's.
llvm::Error mlir::pp::sched::detail::buildInterleaved1F1B(
    llvm::StringRef name, const PipelineModel &model, int numMicrobatches,
    const ScheduleOptions &options, Schedule &schedule) {
  llvm::Expected<int> chunks = loopChunks(name, model);
  if (!chunks)
    return chunks.takeError();
  int numChunks = *chunks, numRanks = model.numRanks;
  if (options.groupSize < 0)
    return llvm::createStringError(
        "'interleaved-1f1b' needs a micro-batch group size >= 1 (0 means the "
        "number of ranks), got %d",
        options.groupSize);
  int groupSize = options.groupSize == 0 ? numRanks : options.groupSize;

  // The micro-batch groups: Megatron-LM's groups of G, except that a
  // remainder smaller than P joins the last full group.
  std::vector<int> groupStart;
  for (int first = 0; first < numMicrobatches; first += groupSize)
    groupStart.push_back(first);
  int remainder = numMicrobatches % groupSize;
  if (remainder > 0 && remainder < numRanks && groupStart.size() > 1)
    groupStart.pop_back();
  groupStart.push_back(numMicrobatches);
  int largest = 0, smallest = numMicrobatches;
  for (size_t i = 0; i + 1 < groupStart.size(); ++i) {
    largest = std::max(largest, groupStart[i + 1] - groupStart[i]);
    smallest = std::min(smallest, groupStart[i + 1] - groupStart[i]);
  }

  // Megatron-LM's schedule table: the forward order of the units.
  std::vector<Unit> table;
  table.reserve(static_cast<size_t>(numChunks) * numMicrobatches);
  for (size_t i = 0; i + 1 < groupStart.size(); ++i)
    for (int c = 0; c < numChunks; ++c)
      for (int m = groupStart[i]; m < groupStart[i + 1]; ++m)
        table.push_back({c, m});
  int numUnits = static_cast<int>(table.size());

  for (int rank = 0; rank < numRanks; ++rank) {
    int warmup =
        numChunks == 1
            ? std::min(numRanks - rank - 1, numMicrobatches)
            : std::min((numChunks - 1) * largest +
                           std::min(2 * (numRanks - rank - 1), 2 * smallest),
                       numUnits);
    auto forward = [&](int k) {
      const Unit &u = table[k];
      return compute(ActionKind::Forward, u.chunk * numRanks + rank,
                     u.microbatch);
    };
    auto backward = [&](int k) {
      const Unit &u = table[k];
      return compute(ActionKind::Backward,
                     (numChunks - 1 - u.chunk) * numRanks + rank, u.microbatch);
    };
    std::vector<Action> &program = schedule.ranks[rank];
    program.reserve(2 * static_cast<size_t>(numUnits));
    for (int k = 0; k < warmup; ++k)
      program.push_back(forward(k));
    for (int k = 0; k < numUnits - warmup; ++k) {
      program.push_back(forward(warmup + k));
      program.push_back(backward(k));
    }
    for (int k = numUnits - warmup; k < numUnits; ++k)
      program.push_back(backward(k));
  }
  return llvm::Error::success();
}

/// Looped breadth-first (Lamy-Poirier, "Breadth-First Pipeline Parallelism",
/// MLSys 2023, sec. 3), in the order of PyTorch's ScheduleLoopedBFS
/// (torch/distributed/pipelining/schedules.py,
/// _calculate_single_rank_operations): rank r runs, for each of its stages in
/// increasing order, the forwards of all M micro-batches in order; then, for
/// each of its stages in decreasing order, the backwards of all M
/// micro-batches in reverse order (fused backwards). With V = 1 this is
/// GPipe. Every M >= 1 is accepted as is: the order does not depend on M
/// being a multiple of anything.
llvm::Error mlir::pp::sched::detail::buildLoopedBFS(llvm::StringRef name,
                                                    const PipelineModel &model,
                                                    int numMicrobatches,
                                                    const ScheduleOptions &,
                                                    Schedule &schedule) {
  llvm::Expected<int> chunks = loopChunks(name, model);
  if (!chunks)
    return chunks.takeError();
  int numChunks = *chunks, numRanks = model.numRanks;
  for (int rank = 0; rank < numRanks; ++rank) {
    std::vector<Action> &program = schedule.ranks[rank];
    program.reserve(2 * static_cast<size_t>(numChunks) * numMicrobatches);
    for (int c = 0; c < numChunks; ++c)
      for (int m = 0; m < numMicrobatches; ++m)
        program.push_back(compute(ActionKind::Forward, c * numRanks + rank, m));
    for (int c = numChunks - 1; c >= 0; --c)
      for (int m = numMicrobatches - 1; m >= 0; --m)
        program.push_back(
            compute(ActionKind::Backward, c * numRanks + rank, m));
  }
  return llvm::Error::success();
}
