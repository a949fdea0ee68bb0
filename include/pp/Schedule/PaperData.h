//===- PaperData.h - the zero-bubble paper's profiled setups ----*- C++ -*-===//
//
// The twelve setups of Qi et al., "Zero Bubble Pipeline Parallelism", ICLR
// 2024 (arXiv 2401.10241), with the costs the authors profiled and the
// bubble rates they computed from them, so that tests and benchmarks can
// reproduce the paper's tables:
// - model shapes: Table 3 (hidden size h, attention heads a; sequence length
//   s = 1024 throughout);
// - profiled T_F, T_B, T_W, T_comm (milliseconds in the paper; we read them
//   as microseconds, which scales every time alike): appendix D, Table 6 of
//   the ICLR version (Table 9 of the arXiv version);
// - bubble rates of 1F1B, ZB-1p (activation memory limited to p M_B) and
//   ZB-2p (2p M_B): sec. 5.3, Table 5.
// Activation memory per stage as the authors' implementation estimates it
// (Table 1 per transformer layer, the factor s b common to both dropped):
// M_B = 34 h + 5 a s, M_W = 32 h, counted the paper's way
// (StashAccounting::ConvertAtBackward).
//
//===----------------------------------------------------------------------===//

#ifndef PP_SCHEDULE_PAPERDATA_H
#define PP_SCHEDULE_PAPERDATA_H

#include "pp/Schedule/Schedule.h"

#include <vector>

namespace mlir::pp::sched {

/// One setup of the paper (one row of its Tables 5 and 6).
struct ZeroBubblePaperSetup {
  const char *model; ///< "1.5B", "6.2B", "14.6B", "28.3B"
  int numStages;     ///< p (one stage per GPU)
  int numMicrobatches;
  double forwardTime, backwardInputTime, backwardWeightTime, commTime;
  int hiddenSize, numHeads;
  /// Table 5: bubble rates (over per-stage spans) of 1F1B, ZB-1p, ZB-2p.
  double bubble1F1B, bubbleZB1p, bubbleZB2p;

  /// Stash bytes per stage: M_B = 34 h + 5 a s and M_W = 32 h.
  int64_t stashBytes() const;
  int64_t weightStashBytes() const;
  /// p uniform stages, one per rank, with the profiled costs, T_comm as the
  /// latency and the paper's memory accounting.
  PipelineModel pipeline() const;
};

/// The twelve setups, in the paper's order.
const std::vector<ZeroBubblePaperSetup> &zeroBubblePaperSetups();

} // namespace mlir::pp::sched

#endif // PP_SCHEDULE_PAPERDATA_H
