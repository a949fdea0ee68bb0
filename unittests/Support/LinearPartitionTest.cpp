//===- LinearPartitionTest.cpp - linearPartition() against brute force ----===//

#include "pp/Support/LinearPartition.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <random>
#include <tuple>

using namespace mlir::pp;

namespace {

std::vector<double> prefixOf(const std::vector<double> &costs) {
  std::vector<double> prefix(1, 0.0);
  for (double c : costs)
    prefix.push_back(prefix.back() + c);
  return prefix;
}

/// Every cut of n items into S stages (the last item of each stage but the
/// last), in lexicographic order.
void allCuts(size_t n, int S, std::vector<int64_t> &cut,
             std::vector<std::vector<int64_t>> &out) {
  if (static_cast<int>(cut.size()) == S - 1) {
    out.push_back(cut);
    return;
  }
  int64_t first = cut.empty() ? 0 : cut.back() + 1;
  int left = S - 1 - static_cast<int>(cut.size());
  for (int64_t c = first; c <= static_cast<int64_t>(n) - 1 - left; ++c) {
    cut.push_back(c);
    allCuts(n, S, cut, out);
    cut.pop_back();
  }
}

/// The best cut by the documented criteria, by enumeration: the smallest
/// busiest stage, the largest least-busy stage, the fewest crossing bytes,
/// the earliest stage ends (the first in lexicographic order).
std::optional<std::vector<int64_t>>
bruteForce(const std::vector<double> &costs,
           const std::vector<int64_t> &crossing, int S, double budget,
           double budgetStep = 0) {
  std::vector<std::vector<int64_t>> cuts;
  std::vector<int64_t> cut;
  allCuts(costs.size(), S, cut, cuts);
  std::optional<std::vector<int64_t>> best;
  std::tuple<double, double, int64_t> bestScore;
  for (const std::vector<int64_t> &c : cuts) {
    double most = 0, least = std::numeric_limits<double>::infinity();
    int64_t bytes = 0;
    bool fits = true;
    size_t begin = 0;
    for (size_t s = 0; s <= c.size(); ++s) {
      size_t end = s < c.size() ? c[s] + 1 : costs.size();
      double sum = 0;
      for (size_t i = begin; i < end; ++i)
        sum += costs[i];
      // Stage s may hold budget + s * budgetStep.
      fits &= sum <= budget + static_cast<double>(s) * budgetStep;
      most = std::max(most, sum);
      least = std::min(least, sum);
      if (s < c.size())
        bytes += crossing[c[s]];
      begin = end;
    }
    if (!fits)
      continue;
    std::tuple<double, double, int64_t> score{most, -least, bytes};
    if (!best || score < bestScore) {
      best = c;
      bestScore = score;
    }
  }
  return best;
}

TEST(LinearPartition, EqualsBruteForceOnRandomProblems) {
  std::mt19937 random(7);
  // Integer costs: sums are exact, so ties are real ties.
  std::uniform_int_distribution<int> cost(0, 9), bytes(1, 20), count(1, 9);
  for (int trial = 0; trial < 400; ++trial) {
    size_t n = count(random);
    std::vector<double> costs;
    std::vector<int64_t> crossing;
    for (size_t i = 0; i < n; ++i) {
      costs.push_back(cost(random));
      crossing.push_back(bytes(random));
    }
    std::vector<double> prefix = prefixOf(costs);
    // With a budget on a stage's cost in every fourth trial, larger for
    // later stages in every eighth (as the stage planner's, whose stages
    // hold fewer micro-batches' stashes the later they are).
    double budget = trial % 4 == 3 ? 12 : std::numeric_limits<double>::max();
    double budgetStep = trial % 8 == 7 ? 3 : 0;
    for (int S = 1; S <= static_cast<int>(n); ++S) {
      LinearPartitionProblem problem;
      problem.prefixCost = prefix;
      problem.crossingBytes = [&](size_t i) { return crossing[i - 1]; };
      problem.fits = [&](int stage, size_t begin, size_t end) {
        return prefix[end] - prefix[begin] <=
               budget + static_cast<double>(stage) * budgetStep;
      };
      EXPECT_EQ(linearPartition(problem, S),
                bruteForce(costs, crossing, S, budget, budgetStep))
          << "trial " << trial << ", " << n << " items, " << S << " stages";
    }
  }
}

// Equal busiest and least-busy stages: the bytes across the cut decide.
TEST(LinearPartition, BytesBreakTies) {
  std::vector<double> prefix = prefixOf({2, 0, 2});
  std::vector<int64_t> crossing = {5, 1};
  LinearPartitionProblem problem;
  problem.prefixCost = prefix;
  problem.crossingBytes = [&](size_t i) { return crossing[i - 1]; };
  EXPECT_EQ(linearPartition(problem, 2), (std::vector<int64_t>{1}));
  crossing = {1, 5};
  EXPECT_EQ(linearPartition(problem, 2), (std::vector<int64_t>{0}));
}

// Equal busiest stages: the larger least-busy stage wins over fewer bytes.
TEST(LinearPartition, EvenStagesBeforeBytes) {
  // {1 | 1 2 | 3} and {1 1 | 2 | 3} both have busiest 3; the second's
  // least-busy stage is 2, not 1, though its cut after op 1 sends more.
  std::vector<double> prefix = prefixOf({1, 1, 2, 3});
  std::vector<int64_t> crossing = {1, 9, 1};
  LinearPartitionProblem problem;
  problem.prefixCost = prefix;
  problem.crossingBytes = [&](size_t i) { return crossing[i - 1]; };
  EXPECT_EQ(linearPartition(problem, 3), (std::vector<int64_t>{1, 2}));
}

TEST(LinearPartition, OutOfRangeOrInfeasible) {
  std::vector<double> prefix = prefixOf({1, 2, 3});
  LinearPartitionProblem problem;
  problem.prefixCost = prefix;
  EXPECT_EQ(linearPartition(problem, 0), std::nullopt);
  EXPECT_EQ(linearPartition(problem, 4), std::nullopt);
  EXPECT_EQ(linearPartition(problem, 3), (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(linearPartition(problem, 1), std::vector<int64_t>{});
  problem.fits = [](int, size_t begin, size_t end) { return end - begin < 2; };
  EXPECT_EQ(linearPartition(problem, 2), std::nullopt);
  LinearPartitionProblem empty;
  EXPECT_EQ(linearPartition(empty, 1), std::nullopt);
}

} // namespace
