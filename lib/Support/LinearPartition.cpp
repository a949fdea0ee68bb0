//===- LinearPartition.cpp - cut a sequence into balanced stages ----------===//

#include "pp/Support/LinearPartition.h"

#include <algorithm>
#include <limits>

using namespace mlir::pp;

namespace {
/// The prefix sums and the optional callbacks of one problem.
struct Items {
  const LinearPartitionProblem &problem;
  size_t n;

  double cost(size_t begin, size_t end) const {
    return problem.prefixCost[end] - problem.prefixCost[begin];
  }
  bool fits(int stage, size_t begin, size_t end) const {
    return !problem.fits || problem.fits(stage, begin, end);
  }
  int64_t crossing(size_t i) const {
    return i > 0 && problem.crossingBytes ? problem.crossingBytes(i) : 0;
  }
};

/// A table over (stages s, items i): the best value of items [0, i) cut
/// into s stages, and where the last stage begins.
template <typename T> struct Table {
  std::vector<std::vector<T>> value;
  std::vector<std::vector<size_t>> begin;
  Table(int S, size_t n, T none)
      : value(S + 1, std::vector<T>(n + 1, none)),
        begin(S + 1, std::vector<size_t>(n + 1, 0)) {}
};

/// Runs the recurrence best[s][i] = better over j of combine(best[s-1][j],
/// stage [j, i)) over the stages that `allowed`; `better(a, b)` is a strict
/// preference, so the first j (the earliest end) wins ties.
template <typename T, typename Allowed, typename Combine, typename Better>
Table<T> solve(const Items &items, int S, T none, T start, Allowed allowed,
               Combine combine, Better better) {
  Table<T> table(S, items.n, none);
  table.value[0][0] = start;
  for (int s = 1; s <= S; ++s)
    for (size_t i = s; i <= items.n; ++i)
      for (size_t j = s - 1; j < i; ++j) {
        if (table.value[s - 1][j] == none || !allowed(s - 1, j, i))
          continue;
        T candidate = combine(table.value[s - 1][j], j, i);
        if (table.value[s][i] == none || better(candidate, table.value[s][i])) {
          table.value[s][i] = candidate;
          table.begin[s][i] = j;
        }
      }
  return table;
}
} // namespace

std::optional<std::vector<int64_t>>
mlir::pp::linearPartition(const LinearPartitionProblem &problem,
                          int numStages) {
  if (problem.prefixCost.empty())
    return std::nullopt;
  Items items{problem, problem.prefixCost.size() - 1};
  int S = numStages;
  if (S < 1 || static_cast<size_t>(S) > items.n)
    return std::nullopt;
  const double inf = std::numeric_limits<double>::infinity();
  auto fits = [&](int s, size_t j, size_t i) { return items.fits(s, j, i); };

  // 1. The smallest busiest stage.
  Table<double> busiest = solve<double>(
      items, S, inf, 0.0, fits,
      [&](double prev, size_t j, size_t i) {
        return std::max(prev, items.cost(j, i));
      },
      std::less<double>());
  double most = busiest.value[S][items.n];
  if (most == inf)
    return std::nullopt;
  double upper = most + std::abs(most) * problem.tolerance;

  // 2. The largest least-busy stage with every stage <= B*.
  auto underUpper = [&](int s, size_t j, size_t i) {
    return items.cost(j, i) <= upper && items.fits(s, j, i);
  };
  Table<double> least = solve<double>(
      items, S, -inf, inf, underUpper,
      [&](double prev, size_t j, size_t i) {
        return std::min(prev, items.cost(j, i));
      },
      std::greater<double>());
  double fewest = least.value[S][items.n];
  double lower = fewest - std::abs(fewest) * problem.tolerance;

  // 3. The fewest bytes across the cuts with every stage in [L*, B*].
  auto inBand = [&](int s, size_t j, size_t i) {
    return items.cost(j, i) >= lower && underUpper(s, j, i);
  };
  const int64_t noCut = std::numeric_limits<int64_t>::max();
  Table<int64_t> bytes = solve<int64_t>(
      items, S, noCut, 0, inBand,
      [&](int64_t prev, size_t j, size_t) { return prev + items.crossing(j); },
      std::less<int64_t>());
  if (bytes.value[S][items.n] == noCut)
    return std::nullopt; // only by rounding: phase 2 found such a cut

  std::vector<int64_t> cuts;
  for (size_t s = S, i = items.n; s > 1; --s) {
    size_t j = bytes.begin[s][i];
    cuts.insert(cuts.begin(), static_cast<int64_t>(j) - 1);
    i = j;
  }
  return cuts;
}
