//===- LocalSearch.cpp - auto's local search ------------------------------===//
//
// A first-improvement local search over the per-rank orders of a
// compute-only schedule, for instances beyond the exact solver: at each of
// the 150 longest gaps where a rank idles before an action (it waits for an
// input), it tries
//   - moving the rank's next W into the gap (W depends only on its own B,
//     so it can fill idle time: the zero-bubble paper's key observation,
//     Qi et al., ICLR 2024, sec. 2);
//   - swapping the waiting action with the one after it (an F with the
//     following B or the reverse, or a W with its neighbour);
// and keeps a move if the schedule stays deadlock-free and within the memory
// limit and its Score (step makespan, then largest rank span, then the sum
// of the ranks' end times, then peak memory) improves. Every evaluation is
// one simulate(); the search is deterministic.
//
//===----------------------------------------------------------------------===//

#include "Refine.h"

#include <algorithm>
#include <cmath>
#include <tuple>

using namespace mlir::pp::sched;
using namespace mlir::pp::sched::detail;

namespace {

/// The longest gaps a round tries moves at: each try costs a simulation,
/// about 2 ms at P = 32, M = 256 (25k actions).
constexpr size_t kGapsPerRound = 150;

bool lessWithTolerance(double a, double b) {
  return a < b - 1e-9 * std::max(1.0, std::fabs(b));
}

/// The score with a tie-breaker that rewards compacting any rank: the sum of
/// the ranks' end times.
struct Fine {
  Score score;
  double sumOfEnds = 0.0;
  bool betterThan(const Fine &other, AutoObjective objective) const {
    if (score.betterThan(other.score, objective))
      return true;
    if (other.score.betterThan(score, objective))
      return false;
    return lessWithTolerance(sumOfEnds, other.sumOfEnds);
  }
};

Fine fineScoreOf(const PipelineModel &model, const Schedule &schedule,
                 SimulationResult *keep = nullptr) {
  SimulationResult result = simulate(model, schedule);
  Fine fine;
  fine.score.makespan = result.makespan;
  fine.score.maxRankSpan = result.maxRankSpan;
  for (size_t r = 0; r < result.ranks.size(); ++r) {
    fine.score.peak =
        std::max(fine.score.peak, result.ranks[r].peakMemoryBytes);
    fine.sumOfEnds += result.ranks[r].endTime;
    const std::vector<Action> &program = schedule.ranks[r];
    for (size_t i = 0; i < program.size(); ++i)
      // An action of positive duration that never ran keeps end 0.
      if (result.timings[r][i].end == 0 && actionTime(model, program[i]) > 0)
        fine.score.complete = false;
  }
  if (keep)
    *keep = std::move(result);
  return fine;
}

/// Moves program[from] to index `to` (to < from), shifting the rest.
void moveEarlier(std::vector<Action> &program, size_t from, size_t to) {
  Action action = program[from];
  program.erase(program.begin() + from);
  program.insert(program.begin() + to, action);
}

} // namespace

bool Score::betterThan(const Score &other, AutoObjective objective) const {
  auto compare = [](double a, double b) {
    return lessWithTolerance(a, b) ? -1 : lessWithTolerance(b, a) ? 1 : 0;
  };
  int order[3];
  if (objective == AutoObjective::StepMakespan) {
    // Memory within the limit is the user's to spend: at equal makespan a
    // smaller span (cheaper overlapped steps) wins over less memory.
    order[0] = compare(makespan, other.makespan);
    order[1] = compare(maxRankSpan, other.maxRankSpan);
    order[2] = peak < other.peak ? -1 : peak > other.peak ? 1 : 0;
  } else {
    order[0] = compare(maxRankSpan, other.maxRankSpan);
    order[1] = compare(makespan, other.makespan);
    order[2] = peak < other.peak ? -1 : peak > other.peak ? 1 : 0;
  }
  for (int c : order)
    if (c != 0)
      return c < 0;
  return false;
}

Score mlir::pp::sched::detail::scoreOf(const PipelineModel &model,
                                       const Schedule &schedule) {
  return fineScoreOf(model, schedule).score;
}

bool mlir::pp::sched::detail::localSearch(const PipelineModel &model,
                                          Schedule &schedule,
                                          int64_t memoryLimitBytes, int rounds,
                                          AutoObjective objective) {
  // F&B pairs (DualPipeV) are units that moves must not split; they cost
  // as much as running both halves alone, so such schedules are left as
  // they are.
  for (const std::vector<Action> &program : schedule.ranks)
    for (const Action &action : program)
      if (action.overlapWithNext)
        return false;
  SimulationResult sim;
  Fine best = fineScoreOf(model, schedule, &sim);
  if (!best.score.complete)
    return false;
  auto acceptable = [&](const Fine &fine) {
    return fine.score.complete &&
           (memoryLimitBytes <= 0 || fine.score.peak <= memoryLimitBytes) &&
           fine.betterThan(best, objective);
  };
  bool improved = false;
  for (int round = 0; round < rounds; ++round) {
    // The gaps of the current schedule, longest first: (length, rank,
    // index of the action after the gap).
    std::vector<std::tuple<double, size_t, size_t>> gaps;
    for (size_t r = 0; r < schedule.ranks.size(); ++r)
      for (size_t i = 1; i < schedule.ranks[r].size(); ++i) {
        double gap = sim.timings[r][i].start - sim.timings[r][i - 1].end;
        if (gap > 1e-9 * std::max(1.0, sim.timings[r][i].start))
          gaps.push_back({gap, r, i});
      }
    std::sort(gaps.begin(), gaps.end(), [](const auto &a, const auto &b) {
      if (std::get<0>(a) != std::get<0>(b))
        return std::get<0>(a) > std::get<0>(b);
      return std::make_pair(std::get<1>(a), std::get<2>(a)) <
             std::make_pair(std::get<1>(b), std::get<2>(b));
    });
    if (gaps.size() > kGapsPerRound)
      gaps.resize(kGapsPerRound);
    bool any = false;
    for (auto [gap, r, i] : gaps) {
      std::vector<Action> &program = schedule.ranks[r];
      // Timings are those of the last accepted schedule; a move elsewhere
      // may have shifted them, which only makes the search try a move in
      // vain.
      auto accept = [&](const Fine &fine) {
        best = fine;
        any = improved = true;
        fineScoreOf(model, schedule, &sim);
      };
      // Move the next W of the rank into the gap before action i.
      size_t w = i;
      while (w < program.size() &&
             program[w].kind != ActionKind::BackwardWeight)
        ++w;
      if (w < program.size()) {
        std::vector<Action> saved = program;
        moveEarlier(program, w, i);
        Fine fine = fineScoreOf(model, schedule);
        if (acceptable(fine)) {
          accept(fine);
          continue;
        }
        program = std::move(saved);
      }
      // Swap the waiting action with the next one.
      if (i + 1 < program.size() &&
          !(program[i].stage == program[i + 1].stage &&
            program[i].kind == program[i + 1].kind)) {
        std::swap(program[i], program[i + 1]);
        Fine fine = fineScoreOf(model, schedule);
        if (acceptable(fine)) {
          accept(fine);
          continue;
        }
        std::swap(program[i], program[i + 1]);
      }
    }
    if (!any)
      break;
  }
  return improved;
}
