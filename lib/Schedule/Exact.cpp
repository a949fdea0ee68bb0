//===- Exact.cpp - the exact model of auto, solved by COIN-OR CBC --------===//
//
// A mixed-integer program whose optimum is the smallest step makespan of any
// schedule within the memory limit, after the ILP of Qi et al., "Zero Bubble
// Pipeline Parallelism", ICLR 2024, appendix G:
//
//   variables  S_a >= 0     start of compute action a (F, B, W, or a fused
//                           backward, of every stage and micro-batch)
//              y_ab in {0,1} for two actions a, b of one rank whose order the
//                           dependencies leave open: 1 if a runs before b
//              C            the step makespan
//   minimize   C
//   subject to S_b >= S_a + lag(a, b)   for every dependency a -> b: the
//                           chain of a micro-batch (F down the stages, B
//                           back, W after its B; a hop between ranks adds
//                           the latency) and micro-batch order within each
//                           (stage, kind)
//              S_b >= S_a + d_a - H_ab (1 - y_ab),
//              S_a >= S_b + d_b - H_ab y_ab          (one rank, one action at
//                           a time; H_ab a big-M from the variables' bounds)
//              sum over b before a of Delta_b + need_a <= limit
//                           for every action a that allocates (the paper's
//                           constraint (7); Delta and need as simulate()
//                           counts memory, StashAccounting included)
//              C >= S_a + q_a   (q_a: the least time from a's start to the
//                           end of the step along the dependencies)
//
// Fixing micro-batch order within each (stage, kind) loses no optimum: the
// micro-batches are identical, so giving the k-th earliest F of a stage to
// micro-batch k (and so on) keeps every dependency and every memory count.
// Start times are bounded by the incumbent's makespan H (we only look for
// better schedules), which also gives the big-M constants. The incumbent,
// relabelled that way, is the MIP start.
//
// A solution's order (actions of a rank sorted by start time) simulates to a
// makespan no larger than its C: simulate() starts every action as early as
// its order allows.
//
//===----------------------------------------------------------------------===//

#include "Generators.h"
#include "Refine.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <numeric>

#ifdef PP_HAVE_CBC
#include "Cbc_C_Interface.h"
#endif

using namespace mlir::pp::sched;
using namespace mlir::pp::sched::detail;

bool mlir::pp::sched::detail::haveExactSolver() {
#ifdef PP_HAVE_CBC
  return true;
#else
  return false;
#endif
}

namespace {

/// The dependency graph of all compute actions, in micro-batch order within
/// each (stage, kind).
struct Graph {
  struct Node {
    ActionKind kind;
    int stage, microbatch, rank;
    double duration;
  };
  std::vector<Node> nodes;
  /// (successor, lag): the successor starts at least `lag` after this
  /// node starts.
  std::vector<std::vector<std::pair<int, double>>> successors;
  /// Topological order; head (earliest start) and q (least time from start
  /// to the end of the step) of every node.
  std::vector<int> order;
  std::vector<double> head, q;
  /// reach[a] has bit b if b depends on a, directly or not.
  std::vector<std::vector<uint64_t>> reach;
  int numStages = 0, numMicrobatches = 0, numKinds = 0;

  int id(int kind, int stage, int microbatch) const {
    return (kind * numStages + stage) * numMicrobatches + microbatch;
  }
  bool reaches(int a, int b) const { return reach[a][b / 64] >> (b % 64) & 1; }
};

Graph buildGraph(const PipelineModel &model, int numMicrobatches, bool split) {
  Graph g;
  int n = model.numStages();
  g.numStages = n;
  g.numMicrobatches = numMicrobatches;
  g.numKinds = split ? 3 : 2;
  const ActionKind kinds[] = {ActionKind::Forward,
                              split ? ActionKind::BackwardInput
                                    : ActionKind::Backward,
                              ActionKind::BackwardWeight};
  for (int k = 0; k < g.numKinds; ++k)
    for (int s = 0; s < n; ++s)
      for (int m = 0; m < numMicrobatches; ++m)
        g.nodes.push_back({kinds[k], s, m, model.rankOf(s),
                           actionTime(model, compute(kinds[k], s, m))});
  g.successors.resize(g.nodes.size());
  auto edge = [&](int a, int b, double extra) {
    g.successors[a].push_back({b, g.nodes[a].duration + extra});
  };
  auto hop = [&](int a, int b) {
    return model.rankOf(a) == model.rankOf(b) ? 0.0 : model.latency;
  };
  for (int s = 0; s < n; ++s)
    for (int m = 0; m < numMicrobatches; ++m) {
      int f = g.id(0, s, m), b = g.id(1, s, m);
      if (s > 0)
        edge(g.id(0, s - 1, m), f, hop(s - 1, s));
      edge(f, b, 0.0);
      if (s + 1 < n)
        edge(g.id(1, s + 1, m), b, hop(s + 1, s));
      if (split)
        edge(b, g.id(2, s, m), 0.0);
      for (int k = 0; k < g.numKinds && m > 0; ++k)
        edge(g.id(k, s, m - 1), g.id(k, s, m), 0.0);
    }
  // Kahn's algorithm.
  size_t count = g.nodes.size();
  std::vector<int> indegree(count, 0);
  for (const auto &list : g.successors)
    for (auto [b, lag] : list)
      ++indegree[b];
  for (size_t a = 0; a < count; ++a)
    if (indegree[a] == 0)
      g.order.push_back(static_cast<int>(a));
  for (size_t i = 0; i < g.order.size(); ++i)
    for (auto [b, lag] : g.successors[g.order[i]])
      if (--indegree[b] == 0)
        g.order.push_back(b);
  g.head.assign(count, 0.0);
  for (int a : g.order)
    for (auto [b, lag] : g.successors[a])
      g.head[b] = std::max(g.head[b], g.head[a] + lag);
  g.q.assign(count, 0.0);
  size_t words = (count + 63) / 64;
  g.reach.assign(count, std::vector<uint64_t>(words, 0));
  for (auto it = g.order.rbegin(); it != g.order.rend(); ++it) {
    int a = *it;
    g.q[a] = g.nodes[a].duration;
    for (auto [b, lag] : g.successors[a]) {
      g.q[a] = std::max(g.q[a], lag + g.q[b]);
      g.reach[a][b / 64] |= uint64_t(1) << (b % 64);
      for (size_t w = 0; w < words; ++w)
        g.reach[a][w] |= g.reach[b][w];
    }
  }
  // The actions of a rank that must follow (precede) an action run after
  // (before) it, one at a time: its start is at least the earliest of the
  // ones before plus their work, and the step lasts at least its duration
  // plus the work after it.
  for (size_t a = 0; a < count; ++a) {
    double before = 0.0, after = 0.0, earliest = g.head[a];
    for (size_t b = 0; b < count; ++b) {
      if (b == a || g.nodes[b].rank != g.nodes[a].rank)
        continue;
      if (g.reaches(static_cast<int>(a), static_cast<int>(b)))
        after += g.nodes[b].duration;
      if (g.reaches(static_cast<int>(b), static_cast<int>(a))) {
        before += g.nodes[b].duration;
        earliest = std::min(earliest, g.head[b]);
      }
    }
    g.head[a] = std::max(g.head[a], earliest + before);
    g.q[a] = std::max(g.q[a], g.nodes[a].duration + after);
  }
  return g;
}

/// Start times of the incumbent with micro-batches relabelled into order
/// within each (stage, kind): the k-th earliest start of a (stage, kind)
/// becomes that of micro-batch k. Keeps every dependency (see the file
/// comment).
std::vector<double> relabelledStarts(const PipelineModel &model,
                                     const Schedule &incumbent,
                                     const Graph &g) {
  SimulationResult result = simulate(model, incumbent);
  std::vector<std::vector<double>> starts(g.numKinds * g.numStages);
  for (size_t r = 0; r < incumbent.ranks.size(); ++r)
    for (size_t i = 0; i < incumbent.ranks[r].size(); ++i) {
      const Action &a = incumbent.ranks[r][i];
      if (!a.isCompute())
        continue;
      int k = a.kind == ActionKind::Forward          ? 0
              : a.kind == ActionKind::BackwardWeight ? 2
                                                     : 1;
      double start = result.timings[r][i].start;
      starts[k * g.numStages + a.stage].push_back(start);
      // A fused backward in a split model: its B, then its W at once.
      if (a.kind == ActionKind::Backward && g.numKinds == 3)
        starts[2 * g.numStages + a.stage].push_back(
            start + model.stages[a.stage].backwardInputTime);
    }
  std::vector<double> s(g.nodes.size(), 0.0);
  for (int k = 0; k < g.numKinds; ++k)
    for (int st = 0; st < g.numStages; ++st) {
      std::vector<double> &list = starts[k * g.numStages + st];
      std::sort(list.begin(), list.end());
      for (int m = 0; m < g.numMicrobatches && m < (int)list.size(); ++m)
        s[g.id(k, st, m)] = list[m];
    }
  return s;
}

/// The schedule that runs each rank's actions in order of `starts` (ties in
/// topological order).
Schedule scheduleFromStarts(const PipelineModel &model, const Graph &g,
                            const std::vector<double> &starts) {
  std::vector<int> position(g.nodes.size());
  for (size_t i = 0; i < g.order.size(); ++i)
    position[g.order[i]] = static_cast<int>(i);
  std::vector<std::vector<int>> perRank(model.numRanks);
  for (size_t a = 0; a < g.nodes.size(); ++a)
    perRank[g.nodes[a].rank].push_back(static_cast<int>(a));
  Schedule schedule;
  schedule.numMicrobatches = g.numMicrobatches;
  schedule.ranks.resize(model.numRanks);
  for (int r = 0; r < model.numRanks; ++r) {
    std::sort(perRank[r].begin(), perRank[r].end(), [&](int a, int b) {
      if (starts[a] != starts[b])
        return starts[a] < starts[b];
      return position[a] < position[b];
    });
    for (int a : perRank[r])
      schedule.ranks[r].push_back(
          compute(g.nodes[a].kind, g.nodes[a].stage, g.nodes[a].microbatch));
  }
  return schedule;
}

} // namespace

#ifdef PP_HAVE_CBC
namespace {

/// Memory effect of a node: bytes live after it minus before (delta) and
/// bytes it needs on top of the live ones while it runs (need).
void memoryOf(const PipelineModel &model, const Graph::Node &node,
              int64_t &delta, int64_t &need) {
  const StageInfo &st = model.stages[node.stage];
  switch (node.kind) {
  case ActionKind::Forward:
    delta = need = st.stashBytes;
    return;
  case ActionKind::Backward:
    delta = -st.stashBytes;
    need = 0;
    return;
  case ActionKind::BackwardInput:
    delta = st.weightStashBytes - st.stashBytes;
    need = model.stashAccounting == StashAccounting::HoldDuringBackward
               ? st.weightStashBytes
               : delta;
    return;
  default:
    delta = -st.weightStashBytes;
    need = 0;
    return;
  }
}

/// "a before b" as a linear term: a constant (an order the dependencies
/// fix) or +-y plus a constant.
struct Before {
  double constant = 0.0;
  int column = -1;
  double sign = 0.0;
};

/// Cuts that order the y's along micro-batch chains: if a runs before b,
/// so does the previous micro-batch of a's (stage, kind), and a runs before
/// the next micro-batch of b's. Valid for every solution, they make the LP
/// relaxation far tighter.
void addChainCuts(Cbc_Model *cbc, const Graph &g,
                  const std::vector<std::pair<int, int>> &pairs) {
  int numNodes = static_cast<int>(g.nodes.size());
  std::map<std::pair<int, int>, int> column;
  for (size_t i = 0; i < pairs.size(); ++i)
    column[pairs[i]] = numNodes + 1 + static_cast<int>(i);
  auto before = [&](int a, int b) {
    Before term;
    if (g.reaches(a, b)) {
      term.constant = 1.0;
    } else if (!g.reaches(b, a)) {
      auto it = column.find({a, b});
      if (it != column.end()) {
        term.column = it->second;
        term.sign = 1.0;
      } else {
        term.column = column.at({b, a});
        term.sign = -1.0;
        term.constant = 1.0;
      }
    }
    return term;
  };
  auto neighbour = [&](int a, int delta) {
    const Graph::Node &node = g.nodes[a];
    int m = node.microbatch + delta;
    if (m < 0 || m >= g.numMicrobatches)
      return -1;
    return a + delta; // ids of a (stage, kind) are consecutive micro-batches
  };
  // before(x, y) >= before(a, b), for (x, y) = (previous of a, b) and
  // (a, next of b).
  auto cut = [&](Before larger, Before smaller) {
    std::vector<int> cols;
    std::vector<double> coefs;
    if (larger.column >= 0) {
      cols.push_back(larger.column);
      coefs.push_back(larger.sign);
    }
    if (smaller.column >= 0) {
      cols.push_back(smaller.column);
      coefs.push_back(-smaller.sign);
    }
    if (cols.empty())
      return;
    Cbc_addRow(cbc, "", static_cast<int>(cols.size()), cols.data(),
               coefs.data(), 'G', smaller.constant - larger.constant);
  };
  for (auto [a, b] : pairs)
    for (int flip = 0; flip < 2; ++flip) {
      int x = flip ? b : a, y = flip ? a : b;
      Before xy = before(x, y);
      if (int prev = neighbour(x, -1); prev >= 0)
        cut(before(prev, y), xy);
      if (int next = neighbour(y, +1); next >= 0)
        cut(before(x, next), xy);
    }
}

/// Builds the MIP into a new CBC model. `integral` false gives the LP
/// relaxation (without the lower-bound cut on C). Fills `pairs` with the
/// (a, b) of every y column, whose index is numNodes + 1 + i.
Cbc_Model *buildModel(const PipelineModel &model, const Graph &g, int64_t limit,
                      double horizon, double lowerBound, bool integral,
                      std::vector<std::pair<int, int>> &pairs) {
  Cbc_Model *cbc = Cbc_newModel();
  Cbc_setLogLevel(cbc, 0);
  int numNodes = static_cast<int>(g.nodes.size());
  for (int a = 0; a < numNodes; ++a)
    Cbc_addCol(cbc, "", g.head[a], std::max(g.head[a], horizon - g.q[a]), 0.0,
               0, 0, nullptr, nullptr);
  int cColumn = numNodes;
  Cbc_addCol(cbc, "", integral ? std::min(lowerBound, horizon) : 0.0, horizon,
             1.0, 0, 0, nullptr, nullptr);
  std::vector<std::vector<int>> perRank(model.numRanks);
  for (int a = 0; a < numNodes; ++a)
    perRank[g.nodes[a].rank].push_back(a);
  pairs.clear();
  for (const std::vector<int> &nodes : perRank)
    for (size_t i = 0; i < nodes.size(); ++i)
      for (size_t j = i + 1; j < nodes.size(); ++j) {
        int a = nodes[i], b = nodes[j];
        if (g.reaches(a, b) || g.reaches(b, a))
          continue;
        pairs.push_back({a, b});
        Cbc_addCol(cbc, "", 0.0, 1.0, 0.0, integral ? 1 : 0, 0, nullptr,
                   nullptr);
      }
  auto lb = [&](int a) { return g.head[a]; };
  auto ub = [&](int a) { return std::max(g.head[a], horizon - g.q[a]); };
  // Dependencies and the makespan.
  for (int a = 0; a < numNodes; ++a) {
    for (auto [b, lag] : g.successors[a]) {
      int cols[] = {b, a};
      double coefs[] = {1.0, -1.0};
      Cbc_addRow(cbc, "", 2, cols, coefs, 'G', lag);
    }
    int cols[] = {cColumn, a};
    double coefs[] = {1.0, -1.0};
    Cbc_addRow(cbc, "", 2, cols, coefs, 'G', g.q[a]);
  }
  // One action at a time on a rank.
  for (size_t i = 0; i < pairs.size(); ++i) {
    auto [a, b] = pairs[i];
    int y = numNodes + 1 + static_cast<int>(i);
    double da = g.nodes[a].duration, db = g.nodes[b].duration;
    double bigAB = std::max(0.0, ub(a) + da - lb(b));
    double bigBA = std::max(0.0, ub(b) + db - lb(a));
    int cols1[] = {b, a, y};
    double coefs1[] = {1.0, -1.0, -bigAB};
    Cbc_addRow(cbc, "", 3, cols1, coefs1, 'G', da - bigAB);
    int cols2[] = {a, b, y};
    double coefs2[] = {1.0, -1.0, bigBA};
    Cbc_addRow(cbc, "", 3, cols2, coefs2, 'G', db);
  }
  addChainCuts(cbc, g, pairs);
  if (limit <= 0)
    return cbc;
  // Memory at the start of every allocating action.
  std::vector<std::vector<int>> pairIndex(numNodes);
  for (size_t i = 0; i < pairs.size(); ++i) {
    pairIndex[pairs[i].first].push_back(static_cast<int>(i));
    pairIndex[pairs[i].second].push_back(static_cast<int>(i));
  }
  for (const std::vector<int> &nodes : perRank)
    for (int a : nodes) {
      int64_t deltaA, needA;
      memoryOf(model, g.nodes[a], deltaA, needA);
      if (needA <= 0)
        continue;
      double rhs = static_cast<double>(limit - needA);
      std::vector<int> cols;
      std::vector<double> coefs;
      for (int b : nodes) {
        if (b == a || !g.reaches(b, a))
          continue;
        int64_t deltaB, needB;
        memoryOf(model, g.nodes[b], deltaB, needB);
        rhs -= static_cast<double>(deltaB);
      }
      for (int i : pairIndex[a]) {
        auto [first, second] = pairs[i];
        int b = first == a ? second : first;
        int64_t deltaB, needB;
        memoryOf(model, g.nodes[b], deltaB, needB);
        if (deltaB == 0)
          continue;
        int y = numNodes + 1 + i;
        if (first == b) { // y = 1: b before a
          cols.push_back(y);
          coefs.push_back(static_cast<double>(deltaB));
        } else { // y = 1: a before b, so b before a is 1 - y
          rhs -= static_cast<double>(deltaB);
          cols.push_back(y);
          coefs.push_back(-static_cast<double>(deltaB));
        }
      }
      Cbc_addRow(cbc, "", static_cast<int>(cols.size()), cols.data(),
                 coefs.data(), 'L', rhs);
    }
  return cbc;
}

} // namespace
#endif

ExactResult mlir::pp::sched::detail::solveExact(
    const PipelineModel &model, int numMicrobatches, int64_t memoryLimitBytes,
    const Schedule &incumbent, double seconds, double lowerBound) {
  ExactResult result;
#ifndef PP_HAVE_CBC
  (void)model, (void)numMicrobatches, (void)memoryLimitBytes, (void)incumbent,
      (void)seconds, (void)lowerBound;
  result.status = "unavailable (pp-mlir was built without COIN-OR CBC)";
  return result;
#else
  bool split = false;
  for (const StageInfo &stage : model.stages)
    split = split || stage.backwardWeightTime > 0;
  Graph g = buildGraph(model, numMicrobatches, split);
  if (g.order.size() != g.nodes.size()) {
    result.status = "not run (cyclic dependencies)";
    return result;
  }
  // The incumbent in micro-batch order: the MIP start and the horizon.
  std::vector<double> starts = relabelledStarts(model, incumbent, g);
  Schedule ordered = scheduleFromStarts(model, g, starts);
  Score incumbentScore = scoreOf(model, ordered);
  double horizon = incumbentScore.makespan;
  if (!incumbentScore.complete ||
      (memoryLimitBytes > 0 && incumbentScore.peak > memoryLimitBytes)) {
    result.status = "not run (no incumbent in micro-batch order)";
    return result;
  }

  std::vector<std::pair<int, int>> pairs;
  // The LP relaxation, for the report.
  Cbc_Model *lp = buildModel(model, g, memoryLimitBytes, horizon, 0.0,
                             /*integral=*/false, pairs);
  Cbc_solve(lp);
  if (Cbc_isProvenOptimal(lp))
    result.lpRelaxation = Cbc_getObjValue(lp);
  Cbc_deleteModel(lp);

  Cbc_Model *cbc = buildModel(model, g, memoryLimitBytes, horizon, lowerBound,
                              /*integral=*/true, pairs);
  int numNodes = static_cast<int>(g.nodes.size());
  std::vector<int> position(g.nodes.size());
  for (int r = 0; r < model.numRanks; ++r)
    for (size_t i = 0; i < ordered.ranks[r].size(); ++i) {
      const Action &a = ordered.ranks[r][i];
      int k = a.kind == ActionKind::Forward          ? 0
              : a.kind == ActionKind::BackwardWeight ? 2
                                                     : 1;
      position[g.id(k, a.stage, a.microbatch)] = static_cast<int>(i);
    }
  std::vector<int> startColumns;
  std::vector<double> startValues;
  for (size_t i = 0; i < pairs.size(); ++i) {
    startColumns.push_back(numNodes + 1 + static_cast<int>(i));
    startValues.push_back(
        position[pairs[i].first] < position[pairs[i].second] ? 1.0 : 0.0);
  }
  Cbc_setMIPStartI(cbc, static_cast<int>(startColumns.size()),
                   startColumns.data(), startValues.data());
  // Wall-clock seconds (CBC counts CPU time by default).
  Cbc_setParameter(cbc, "timeMode", "elapsed");
  Cbc_setMaximumSeconds(cbc, seconds);
  Cbc_setAllowableFractionGap(cbc, 1e-9);
  Cbc_setAllowableGap(cbc, 1e-7);
  Cbc_solve(cbc);

  // Split backwards lose nothing against fused ones unless a B needs more
  // memory than the fused backward (its M_W on top, when held).
  bool splitDominates = true;
  for (const StageInfo &stage : model.stages)
    splitDominates =
        splitDominates &&
        (model.stashAccounting == StashAccounting::HoldDuringBackward
             ? stage.weightStashBytes <= 0
             : stage.weightStashBytes <= stage.stashBytes);
  splitDominates = splitDominates || !split;
  bool proven = Cbc_isProvenOptimal(cbc);
  bool infeasible = Cbc_isProvenInfeasible(cbc);
  result.bound = Cbc_getBestPossibleObjValue(cbc);
  if (Cbc_numberSavedSolutions(cbc) > 0 || proven) {
    const double *x = Cbc_getColSolution(cbc);
    if (x) {
      std::vector<double> solved(x, x + numNodes);
      Schedule candidate = scheduleFromStarts(model, g, solved);
      Score score = scoreOf(model, candidate);
      if (score.complete &&
          (memoryLimitBytes <= 0 || score.peak <= memoryLimitBytes) &&
          score.makespan < horizon - 1e-9 * std::max(1.0, horizon))
        result.improved = std::move(candidate);
    }
  }
  Cbc_deleteModel(cbc);
  if (infeasible)
    result.bound = horizon; // nothing beats the incumbent
  if ((infeasible || proven) && splitDominates) {
    result.status = "optimal";
    result.provenOptimal = true;
  } else if (infeasible || proven) {
    // Fused backwards, which need less memory here, are outside the model.
    result.status = "optimal among split backwards";
    result.bound = 0.0;
  } else {
    result.status = "time limit";
  }
  return result;
#endif
}
