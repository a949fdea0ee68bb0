//===- ZeroBubble.cpp - ZB-H1 and ZB-H2 -----------------------------------===//
//
// The handcrafted schedules of Qi et al., "Zero Bubble Pipeline Parallelism"
// (ICLR 2024), sec. 2 of the arXiv version (2401.10241; "handcrafted pipeline
// schedules", Figure 3): one stage per rank, the backward split into B
// (gradient of the stage input) and W (gradient of the stage parameters).
// Only B is on the critical path between stages; W depends on its own B only,
// so it can be moved to fill bubbles.
//
// Both are 1F1B with a given number of warm-up forwards, each B followed by
// the oldest pending W once a stage has "deferred" d W's:
// - ZB-H1: 1F1B's warm-up (S - s - 1 forwards on stage s) and d = s, so every
//   stage has S micro-batches in flight (F done, W not yet) like stage 0 of
//   1F1B: the authors' "delays the start of W passes based on the number of
//   warm-up micro-batches, ensuring all pipeline stages have the same number
//   of in-flight micro-batches". This is also PyTorch's
//   ScheduleInterleavedZeroBubble with one stage per rank
//   (torch/distributed/pipelining/schedules.py, _get_1f1b_rank_ops with
//   enable_zero_bubble, num_1f1b_microbatches = rank).
// - ZB-H2: the warm-up bubble filled with forwards: 2 (S - s - 1) warm-up
//   forwards (so 2 (S - s) - 1 before the first B; stage 0 holds 2S - 1
//   stashes, the (2p - 1) M_B of the paper) and d = 2s, so every stage has
//   2S - 1 micro-batches in flight and stage s ends with 2s + 1 W's, which
//   turns the trapezoid into the paper's parallelogram.
//
// docs/Schedules.md (sections zb-h1 and zb-h2) shows the orders and the
// figures they reproduce.
//
//===----------------------------------------------------------------------===//

#include "Generators.h"

#include <algorithm>
#include <cassert>

using namespace mlir::pp::sched;
using namespace mlir::pp::sched::detail;

namespace {

/// One rank's program: `warmup` forwards, then M - warmup steps of F (next
/// micro-batch) and B (next micro-batch), then the remaining B's; after the
/// B of micro-batch j, if j >= deferred, the W of the oldest micro-batch
/// whose W has not run; at the end, the W's left. Every index is clamped to
/// M, so every M >= 1 works.
void splitOneFOneB(int stage, int numMicrobatches, int warmup, int deferred,
                   std::vector<Action> &program) {
  warmup = std::min(warmup, numMicrobatches);
  program.reserve(3 * static_cast<size_t>(numMicrobatches));
  int nextW = 0;
  auto backward = [&](int m) {
    program.push_back(compute(ActionKind::BackwardInput, stage, m));
    if (m >= deferred)
      program.push_back(compute(ActionKind::BackwardWeight, stage, nextW++));
  };
  for (int m = 0; m < warmup; ++m)
    program.push_back(compute(ActionKind::Forward, stage, m));
  for (int i = 0; i < numMicrobatches - warmup; ++i) {
    program.push_back(compute(ActionKind::Forward, stage, warmup + i));
    backward(i);
  }
  for (int m = numMicrobatches - warmup; m < numMicrobatches; ++m)
    backward(m);
  while (nextW < numMicrobatches)
    program.push_back(compute(ActionKind::BackwardWeight, stage, nextW++));
}

} // namespace

/// ZB-H1 (Qi et al., ICLR 2024, sec. 2.1, Figure 3 top): stage s of S runs
/// w = min(S - s - 1, M) warm-up forwards, then M - w steps F B, then w B's;
/// the B of micro-batch j is followed by a W when j >= s (the W's run in
/// micro-batch order), and the s W's left end the program. Bubble
/// (P - 1)(T_F + T_B - T_W) and peak memory P M_B (stage 0, as 1F1B) when
/// M >= P (docs/Schedules.md, section zb-h1).
///
/// ZB-H2 (Qi et al., ICLR 2024, sec. 2.2, Figure 3 bottom): stage s of S runs
/// w = min(2 (S - s - 1), M) warm-up forwards, then M - w steps F B, then w
/// B's; the B of micro-batch j is followed by a W when j >= 2s, and the W's
/// left end the program. Peak memory (2P - 1) M_B on stage 0; every stage
/// busy without a gap from its first action to its last when T_F = T_B = T_W
/// (docs/Schedules.md, section zb-h2).
llvm::Error mlir::pp::sched::detail::buildZeroBubble(llvm::StringRef name,
                                                     const PipelineModel &model,
                                                     int numMicrobatches,
                                                     const ScheduleOptions &,
                                                     Schedule &schedule) {
  assert((name == "zb-h1" || name == "zb-h2") && "not a zero-bubble schedule");
  int factor = name == "zb-h2" ? 2 : 1;
  int numStages = model.numStages();
  return forEachRankStage(name, model, [&](int rank, int stage) {
    splitOneFOneB(stage, numMicrobatches, factor * (numStages - stage - 1),
                  factor * stage, schedule.ranks[rank]);
  });
}
