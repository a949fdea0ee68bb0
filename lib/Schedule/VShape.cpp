//===- VShape.cpp - ZB-V and DualPipeV ------------------------------------===//
//
// The two schedules of the V placement (V = 2: rank r runs stages r and
// 2P - 1 - r, so a micro-batch goes down the ranks through its first chunk and
// back up through its second):
// - ZB-V (Qi et al., "Zero Bubble Pipeline Parallelism", ICLR 2024, sec. 6),
//   the handcrafted order of the authors' implementation
//   (sail-sg/zero-bubble-pipeline-parallelism, handcrafted_zb_v);
// - DualPipeV (DeepSeek, deepseek-ai/DualPipe, dualpipe/dualpipev.py; the
//   "cut-in-half" DualPipe of Sea AI Lab), with overlapped F&B pairs.
//
// Both are written for a number of micro-batches large enough for their warm-up
// (ZB-V: 2P - 1, DualPipeV: 2P). With fewer, they are built for that many and
// the actions of the micro-batches that do not exist are dropped, as the ZB-V
// authors' handcrafted schedule does: removing every action of some
// micro-batches from a deadlock-free schedule keeps it deadlock-free, since
// the remaining actions only depend on their own micro-batch.
//
// Chunk 0 of rank r is stage r, chunk 1 is stage 2P - 1 - r.
//
//===----------------------------------------------------------------------===//

#include "Generators.h"

#include <algorithm>
#include <cassert>
#include <deque>
#include <string>
#include <utility>

using namespace mlir::pp::sched;
using namespace mlir::pp::sched::detail;

namespace {

/// Error unless `model` has the V placement.
llvm::Error requireVPlacement(llvm::StringRef name,
                              const PipelineModel &model) {
  if (hasPlacement(model, Placement::V))
    return llvm::Error::success();
  int numRanks = model.numRanks, numStages = model.numStages();
  std::string why;
  if (numStages != 2 * numRanks) {
    why = "the pipeline has " + plural(numStages, "stage") + " on " +
          plural(numRanks, "rank");
  } else {
    why = misplacedStage(
        model, [&](int s) { return s < numRanks ? s : 2 * numRanks - 1 - s; });
  }
  return llvm::createStringError(
      "'%s' needs the V placement (2 stages per rank, rank r holding stages r "
      "and 2P-1-r), but %s; place the stages with the V placement (`v`)",
      name.str().c_str(), why.c_str());
}

/// Builds the program of one rank of a V placement: chunk c of rank r is
/// stage r (c = 0) or 2P - 1 - r (c = 1). Forwards and backwards of a chunk
/// run in micro-batch order; the W of a split backward is queued and popped
/// in FIFO order (DualPipe's WeightGradStore) or per chunk (ZB-V).
class VProgram {
public:
  VProgram(int numRanks, int rank, std::vector<Action> &program)
      : program(program) {
    stage[0] = rank;
    stage[1] = 2 * numRanks - 1 - rank;
  }

  int forwards(int c) const { return f[c]; }
  int backwards(int c) const { return b[c]; }
  int weights(int c) const { return w[c]; }

  /// F of chunk c on its next micro-batch; `overlap` makes it an F&B pair
  /// with the next action, which must be a backward.
  void forward(int c, bool overlap = false) {
    Action action = compute(ActionKind::Forward, stage[c], f[c]++);
    action.overlapWithNext = overlap;
    program.push_back(action);
  }
  /// Fused backward of chunk c on its next micro-batch.
  void fused(int c) {
    program.push_back(compute(ActionKind::Backward, stage[c], b[c]++));
  }
  /// B of chunk c on its next micro-batch; its W joins the FIFO queue.
  void input(int c) {
    queue.push_back({c, b[c]});
    program.push_back(compute(ActionKind::BackwardInput, stage[c], b[c]++));
  }
  /// The backward of chunk c: B (W queued) if `split`, fused otherwise.
  void backward(int c, bool split) {
    if (split)
      input(c);
    else
      fused(c);
  }
  /// W of the oldest queued B (DualPipe's WeightGradStore.pop()).
  void weightFIFO() {
    assert(!queue.empty() && "no B waits for its W");
    auto [c, mb] = queue.front();
    queue.pop_front();
    program.push_back(compute(ActionKind::BackwardWeight, stage[c], mb));
    ++w[c];
  }
  /// W of the oldest B of chunk c without one (ZB-V: one W queue per chunk).
  void weight(int c) {
    auto it = std::find_if(
        queue.begin(), queue.end(),
        [&](const std::pair<int, int> &e) { return e.first == c; });
    assert(it != queue.end() && "no B of the chunk waits for its W");
    program.push_back(
        compute(ActionKind::BackwardWeight, stage[c], it->second));
    queue.erase(it);
    ++w[c];
  }
  bool weightsPending() const { return !queue.empty(); }

private:
  std::vector<Action> &program;
  int stage[2];
  int f[2] = {0, 0}, b[2] = {0, 0}, w[2] = {0, 0};
  std::deque<std::pair<int, int>> queue;
};

/// Drops from `schedule` every action of a micro-batch >= numMicrobatches
/// (which the generator built for padding) and sets numMicrobatches. An F&B
/// pair that loses one of its halves becomes a plain action.
void dropPadding(Schedule &schedule, int numMicrobatches) {
  schedule.numMicrobatches = numMicrobatches;
  for (std::vector<Action> &program : schedule.ranks) {
    std::vector<Action> kept;
    kept.reserve(program.size());
    for (size_t i = 0; i < program.size(); ++i) {
      Action action = program[i];
      if (action.microbatch >= numMicrobatches)
        continue;
      if (action.overlapWithNext &&
          (i + 1 >= program.size() ||
           program[i + 1].microbatch >= numMicrobatches))
        action.overlapWithNext = false;
      kept.push_back(action);
    }
    program = std::move(kept);
  }
}

/// A schedule on the V placement built for `padded` >= numMicrobatches
/// micro-batches: `build(p, r)` writes rank r's program through `p`, then
/// the padding is dropped (dropPadding()). An error naming `name` without
/// the V placement.
llvm::Error buildPaddedV(llvm::StringRef name, const PipelineModel &model,
                         int numMicrobatches, int padded, Schedule &schedule,
                         llvm::function_ref<void(VProgram &p, int r)> build) {
  if (llvm::Error error = requireVPlacement(name, model))
    return error;
  for (int r = 0; r < model.numRanks; ++r) {
    std::vector<Action> &program = schedule.ranks[r];
    program.reserve(6 * padded);
    VProgram p(model.numRanks, r, program);
    build(p, r);
  }
  dropPadding(schedule, numMicrobatches);
  return llvm::Error::success();
}

} // namespace

/// ZB-V (Qi et al., "Zero Bubble Pipeline Parallelism", ICLR 2024, sec. 6),
/// the handcrafted order of the authors' repository
/// (sail-sg/zero-bubble-pipeline-parallelism, handcrafted_zb_v, also
/// torch.distributed.pipelining's ScheduleZBVZeroBubble). With n =
/// max(M, 2P - 1), rank r runs, writing F/B/W for chunk 0 (stage r) and
/// f/b/w for chunk 1 (stage 2P - 1 - r), B and W split:
///   warm-up:   2(P - r) - 1 x F;  r x (f F);  P - r x (f b w)
///   steady:    until every F and f ran: [F if any left] B W f b w
///   cool-down: r x (B b);  P - r x (B W);  then the remaining w, then W
/// (W and w always take the oldest B or b without one). Micro-batches >= M
/// are then dropped (M < 2P - 1). Every rank holds at most 2P stashes of its
/// chunks (P·M_B of a stage holding two chunks, as 1F1B), and with T_F = T_B
/// = T_W no rank idles between its first and its last action.
llvm::Error mlir::pp::sched::detail::buildZBV(llvm::StringRef name,
                                              const PipelineModel &model,
                                              int numMicrobatches,
                                              const ScheduleOptions &,
                                              Schedule &schedule) {
  int numRanks = model.numRanks;
  int n = std::max(numMicrobatches, 2 * numRanks - 1);
  auto build = [&](VProgram &p, int r) {
    // Warm-up: fill chunk 0 down the V, then the second chunk up.
    for (int i = 0; i < 2 * (numRanks - r) - 1; ++i)
      p.forward(0);
    for (int i = 0; i < r; ++i) {
      p.forward(1);
      p.forward(0);
    }
    for (int i = 0; i < numRanks - r; ++i) {
      p.forward(1);
      p.input(1);
      p.weight(1);
    }
    // Steady state: one F, B and W of each chunk.
    while (p.forwards(1) < p.forwards(0) || p.forwards(0) < n) {
      if (p.forwards(0) < n)
        p.forward(0);
      p.input(0);
      p.weight(0);
      p.forward(1);
      p.input(1);
      p.weight(1);
    }
    // Cool-down: the remaining B, with the W queued until the end.
    for (int i = 0; i < r; ++i) {
      p.input(0);
      p.input(1);
    }
    for (int i = 0; i < numRanks - r; ++i) {
      p.input(0);
      p.weight(0);
    }
    while (p.weights(1) < p.backwards(1))
      p.weight(1);
    while (p.weights(0) < p.backwards(0))
      p.weight(0);
    assert(p.backwards(0) == n && p.backwards(1) == n && !p.weightsPending() &&
           "ZB-V runs every action once");
  };
  return buildPaddedV(name, model, numMicrobatches, n, schedule, build);
}

/// DualPipeV (DeepSeek, deepseek-ai/DualPipe, dualpipe/dualpipev.py,
/// DualPipeV.step; the V-shaped "cut-in-half" DualPipe). Rank r of P runs
/// chunk 0 (stage r, F0/B0) and chunk 1 (stage 2P - 1 - r, F1/B1) in eight
/// steps, with M' = max(M, 2P) micro-batches:
///   1. nF0:        2(P - r - 1) x F0
///   2. nF0F1:      r + 1 x (F0 F1)
///   3. nB1W1F1:    P - r - 1 x (B1 W F1), B1 split (zero bubble)
///   4. nF0B1F1B0:  M' - 2P + r + 1 x (F0&B1 F1&B0), the main step; on the
///                  last rank the first F0 and B1 are not overlapped
///   5. nB1F1B0:    P - r - 1 x (B1 F1&B0)
///   6. nB1B0:      r + 1 x (B1 B0), the second half of them split (from
///                  B1 of iteration (r + 1) / 2 if r is odd, from its B0 if
///                  r is even)
///   7. nWB0:       P - r - 1 x (W B0), B0 split
///   8. nW:         r + 1 x W
/// "X&Y" is an F&B pair: the forward carries overlapWithNext and the fused
/// backward of the other chunk follows it. Backwards run fused unless the
/// step says split; each W is that of the oldest split backward still without
/// one (FIFO, DualPipe's WeightGradStore).
///
/// The reference asserts M >= 2P, the least M for which every step count is
/// non-negative on every rank. For M < 2P the schedule is built for 2P
/// micro-batches and the actions of micro-batches M..2P-1 are dropped (an
/// F&B pair losing one half becomes a plain action): the same step structure,
/// correct and deadlock-free for every M >= 1 and P >= 1.
llvm::Error mlir::pp::sched::detail::buildDualPipeV(llvm::StringRef name,
                                                    const PipelineModel &model,
                                                    int numMicrobatches,
                                                    const ScheduleOptions &,
                                                    Schedule &schedule) {
  int numRanks = model.numRanks;
  int n = std::max(numMicrobatches, 2 * numRanks);
  auto build = [&](VProgram &p, int r) {
    bool last = r == numRanks - 1;
    int before = numRanks - r - 1; // ranks after this one
    // 1. nF0
    for (int i = 0; i < 2 * before; ++i)
      p.forward(0);
    // 2. nF0F1
    for (int i = 0; i < r + 1; ++i) {
      p.forward(0);
      p.forward(1);
    }
    // 3. nB1W1F1 (zero bubble)
    for (int i = 0; i < before; ++i) {
      p.input(1);
      p.weightFIFO();
      p.forward(1);
    }
    // 4. nF0B1F1B0 (main step)
    for (int i = 0; i < n - 2 * numRanks + r + 1; ++i) {
      // The reference does not overlap the last rank's first pair, to shorten
      // the bubble: its F0 feeds that rank's own F1.
      p.forward(0, /*overlap=*/!(i == 0 && last));
      p.fused(1);
      p.forward(1, /*overlap=*/true);
      p.fused(0);
    }
    // 5. nB1F1B0
    for (int i = 0; i < before; ++i) {
      p.fused(1);
      p.forward(1, /*overlap=*/true);
      p.fused(0);
    }
    // 6. nB1B0 (the second half zero bubble)
    bool split = false;
    for (int i = 0; i < r + 1; ++i) {
      if (i == (r + 1) / 2 && r % 2 == 1)
        split = true;
      p.backward(1, split);
      if (i == (r + 1) / 2 && r % 2 == 0)
        split = true;
      p.backward(0, split);
    }
    // 7. nWB0 (zero bubble)
    for (int i = 0; i < before; ++i) {
      p.weightFIFO();
      p.input(0);
    }
    // 8. nW
    for (int i = 0; i < r + 1; ++i)
      p.weightFIFO();
    assert(p.forwards(0) == n && p.forwards(1) == n && p.backwards(0) == n &&
           p.backwards(1) == n && !p.weightsPending() &&
           "DualPipeV runs every action once");
  };
  return buildPaddedV(name, model, numMicrobatches, n, schedule, build);
}
