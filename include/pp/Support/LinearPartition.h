//===- LinearPartition.h - cut a sequence into balanced stages --*- C++ -*-===//
//
// The linear partition problem of pipeline planning: cut items 0..n-1 (the
// ops of a model, in order) into S contiguous, non-empty stages so that the
// busiest stage is as small as possible (the bottleneck that bounds a
// pipeline's throughput). Used by pp-partition (FLOP estimates) and by the
// measured stage planner (pp/Driver/StagePlanner.h). Plain C++: no MLIR.
//
// The classic dynamic program over prefix sums (Bokhari, "Partitioning
// problems in parallel, pipelined and distributed computing", IEEE Trans.
// Computers 37(1), 1988; the same recurrence as PipeDream's planner,
// Narayanan et al., SOSP 2019, sec. 3.1), run three times so that every
// criterion is exact rather than a lexicographic DP, which is not:
//   1. B* = the smallest busiest stage over the cuts where every stage fits;
//   2. L* = the largest least-busy stage over those whose stages are all
//      <= B*;
//   3. the fewest bytes across the cuts over those whose stages all lie in
//      [L*, B*].
// Each pass is O(S n^2) time and O(S n) memory.
//
//===----------------------------------------------------------------------===//

#ifndef PP_SUPPORT_LINEARPARTITION_H
#define PP_SUPPORT_LINEARPARTITION_H

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace mlir::pp {

/// One linear partition problem over n items.
struct LinearPartitionProblem {
  /// Prefix sums of the items' costs (any unit): n + 1 entries, prefix[0]
  /// = 0, non-decreasing.
  llvm::ArrayRef<double> prefixCost;
  /// Bytes a cut placed before item i (1 <= i < n) sends; unset: 0.
  std::function<int64_t(size_t i)> crossingBytes;
  /// Whether items [begin, end) fit as stage `stage` (a memory budget, for
  /// instance); unset: every stage fits.
  std::function<bool(int stage, size_t begin, size_t end)> fits;
  /// Costs within this relative tolerance of B* or L* count as equal to it
  /// (the sums' rounding).
  double tolerance = 1e-9;
};

/// The cut of the problem's n items into `numStages` stages (1 <= numStages
/// <= n) described in the file comment: the index of the last item of
/// every stage but the last, increasing (numStages - 1 entries). Ties left
/// after the three criteria go to the cut whose stages end earliest.
/// std::nullopt when no cut has every stage fitting, or numStages is not in
/// [1, n].
std::optional<std::vector<int64_t>>
linearPartition(const LinearPartitionProblem &problem, int numStages);

} // namespace mlir::pp

#endif // PP_SUPPORT_LINEARPARTITION_H
