//===- ControllableMemory.cpp - V-Half and V-Min --------------------------===//
//
// The V-shaped schedules of Qi et al., "Pipeline Parallelism with
// Controllable Memory" (NeurIPS 2024, arXiv 2405.15362), built the paper's
// way, our own implementation after its description and its reference
// (sail-sg/zero-bubble-pipeline-parallelism, megatron/core/pipeline_parallel/
// zerobubble/scheduler/zbv_greedy.py):
//
// A schedule is one *building block* repeated every 6 time slots (one slot
// per pass of one chunk: F and B of both chunks, and the two W's), with the
// V placement (rank r holds stage r, chunk 0, and stage 2P-1-r, chunk 1).
// The block fixes, for every rank, the slot of its chunk-0 F, chunk-1 F,
// chunk-1 B and chunk-0 B of micro-batch 0; micro-batch j runs 6j slots
// later. The block's lifespan (from a micro-batch's first F on a rank to its
// last B there) sets the peak memory: about P/2 stashes of a 1F1B stage for
// V-Half, P/3 for V-Min, against 1F1B's P. Then
//   1. W's fill the empty slots of each rank, oldest B first (chunk 1's
//      before chunk 0's);
//   2. the warm-up is squeezed: from the start up to the first chunk-0 B of
//      rank 0, every pass (W's included) moves to the earliest free slot its
//      dependencies allow that keeps every rank within the block's memory;
//      the result is re-timed as it would run with unit costs;
//   3. the W's are taken out and the cool-down (after rank 0's last chunk-0
//      F) is squeezed the same way, W's implied in the free slots;
//   4. W's fill the free slots again, one queue per chunk.
// The order of each rank's slots is the schedule; simulate() runs it with
// the stages' real costs. B and W are split; every M >= 1 and P >= 1 work.
//
// Block offsets (slots of micro-batch 0 on rank i of P):
//   V-Half: F0 2i, F1 3P-i-2, B1 3P+d+2i-1, B0 6P+d-i-2, d = 3 if P even
//   V-Min:  F0 i,  F1 2P-i-1, B1 2P+d+i,    B0 4P+d-i-1, d = 2 if P % 3 == 0
// (the reference's stable patterns: d keeps the four offsets of a rank in
// distinct slots modulo 6).
//
//===----------------------------------------------------------------------===//

#include "Generators.h"

#include <algorithm>
#include <cassert>
#include <queue>
#include <tuple>

using namespace mlir::pp::sched;
using namespace mlir::pp::sched::detail;

namespace {

/// Pass types of one rank, as in the reference: F of chunk 0, F of chunk 1,
/// B of chunk 1, B of chunk 0, then the W lists (one merged list, or chunk
/// 1's and chunk 0's).
enum Type { F0 = 0, F1 = 1, B1 = 2, B0 = 3, WA = 4, WB = 5 };

/// slots[type][mb]: the time slot of each pass of one rank.
using Rank = std::vector<std::vector<int>>;

int lastSlot(const Rank &rank) {
  int last = -1;
  for (const std::vector<int> &list : rank)
    if (!list.empty())
      last = std::max(last, list.back());
  return last;
}

/// The type in each slot of the first four lists (-1: free).
std::vector<int> occupancy(const Rank &rank, int size) {
  std::vector<int> at(size, -1);
  for (int t = 0; t < 4; ++t)
    for (int slot : rank[t])
      if (slot < size)
        at[slot] = t;
  return at;
}

/// Appends the W lists: each free slot takes the oldest pending W (chunk
/// 1's first when `split`); the W's left go after the last slot.
void putW(Rank &rank, bool split) {
  int bound = lastSlot(rank);
  std::vector<int> at = occupancy(rank, bound + 1);
  rank.resize(split ? 6 : 5);
  int pending[2] = {0, 0};
  for (int slot = 0; slot <= bound; ++slot) {
    if (at[slot] >= 0) {
      if (at[slot] == B1 || at[slot] == B0)
        ++pending[split ? at[slot] - B1 : 0];
      continue;
    }
    for (int w = 0; w < 2; ++w)
      if (pending[w]) {
        rank[WA + w].push_back(slot);
        --pending[w];
        break;
      }
  }
  int slot = bound;
  for (int w = 0; w < 2; ++w)
    while (pending[w]-- > 0)
      rank[WA + w].push_back(++slot);
}

/// Peak memory of one rank in chunk stashes: F adds one, W frees one; with
/// only the four pass lists, a W is implied in every free slot while a B
/// waits for one.
int memoryOf(const Rank &rank) {
  int bound = lastSlot(rank);
  std::vector<int> at(bound + 1, -1);
  for (size_t t = 0; t < rank.size(); ++t)
    for (int slot : rank[t])
      at[slot] = static_cast<int>(t);
  bool implied = rank.size() <= 4;
  int live = 0, peak = 0, pending = 0;
  for (int slot = 0; slot <= bound; ++slot) {
    int t = at[slot];
    if (t == F0 || t == F1)
      ++live;
    else if (t == B1 || t == B0)
      ++pending;
    else if (t >= WA)
      --live;
    else if (implied && pending) {
      --live;
      --pending;
    }
    peak = std::max(peak, live);
  }
  return peak;
}

/// Every pass of every rank in slot order: (slot, rank, type, mb).
using Entry = std::tuple<int, int, int, int>;

/// Visits every pass in order of its slot, as the reference's sweeps do;
/// `visit` may move the pass it is given to an earlier slot.
template <typename Visit> void sweep(std::vector<Rank> &ranks, Visit visit) {
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> heap;
  for (size_t r = 0; r < ranks.size(); ++r)
    for (size_t t = 0; t < ranks[r].size(); ++t)
      if (!ranks[r][t].empty())
        heap.push(
            {ranks[r][t][0], static_cast<int>(r), static_cast<int>(t), 0});
  while (!heap.empty()) {
    auto [slot, r, t, mb] = heap.top();
    heap.pop();
    visit(r, t, mb);
    if (mb + 1 < static_cast<int>(ranks[r][t].size()))
      heap.push({ranks[r][t][mb + 1], r, t, mb + 1});
  }
}

/// The earliest slot the dependencies of (r, t, mb) allow.
int earliestSlot(const std::vector<Rank> &ranks, int r, int t, int mb) {
  int numRanks = static_cast<int>(ranks.size());
  int deps = -1;
  if ((t == F0 || t == B1) && r > 0)
    deps = std::max(deps, ranks[r - 1][t][mb]);
  if ((t == F1 || t == B0) && r + 1 < numRanks)
    deps = std::max(deps, ranks[r + 1][t][mb]);
  if (t > F0 && t < WA)
    deps = std::max(deps, ranks[r][t - 1][mb]);
  if (t == WA) {
    std::vector<int> backwards(ranks[r][B1]);
    backwards.insert(backwards.end(), ranks[r][B0].begin(), ranks[r][B0].end());
    std::sort(backwards.begin(), backwards.end());
    deps = std::max(deps, backwards[mb]);
  }
  if (mb > 0)
    deps = std::max(deps, ranks[r][t][mb - 1]);
  return deps + 1;
}

/// Re-times every pass as it would run with unit costs and no latency, in
/// the order of the slots (the reference's eager execution).
void retime(std::vector<Rank> &ranks) {
  std::vector<Rank> start(ranks);
  std::vector<int> rankEnd(ranks.size(), 0);
  sweep(ranks, [&](int r, int t, int mb) {
    int numRanks = static_cast<int>(ranks.size());
    int ready = rankEnd[r];
    if ((t == F0 || t == B1) && r > 0)
      ready = std::max(ready, start[r - 1][t][mb] + 1);
    if ((t == F1 || t == B0) && r + 1 < numRanks)
      ready = std::max(ready, start[r + 1][t][mb] + 1);
    if (t > F0 && t < WA)
      ready = std::max(ready, start[r][t - 1][mb] + 1);
    if (mb > 0)
      ready = std::max(ready, start[r][t][mb - 1] + 1);
    start[r][t][mb] = ready;
    rankEnd[r] = ready + 1;
  });
  ranks = std::move(start);
}

/// The reference's reorder: moves passes of the warm-up (with the W lists,
/// `withW`) or of the cool-down (without) to the earliest free slot that
/// their dependencies allow and that keeps every rank within the memory of
/// the most demanding rank before the move; then re-times with unit costs,
/// W's included, and drops the W lists.
void squeeze(std::vector<Rank> &ranks, bool withW, int numMicrobatches) {
  if (withW)
    for (Rank &rank : ranks)
      putW(rank, /*split=*/false);
  int memory = 0;
  for (const Rank &rank : ranks)
    memory = std::max(memory, memoryOf(rank));
  std::vector<std::vector<bool>> occupied;
  for (const Rank &rank : ranks)
    occupied.emplace_back(lastSlot(rank) + 1, false);
  int phase = 0;
  sweep(ranks, [&](int r, int t, int mb) {
    int &slot = ranks[r][t][mb];
    if (phase == 0 && t == B0 && r == 0)
      phase = 1;
    bool moves = phase == 2 || (phase == 0 && withW);
    if (phase == 1 && t == F0 && mb == numMicrobatches - 1)
      phase = 2;
    if (moves) {
      int original = slot;
      bool moved = false;
      for (int s = earliestSlot(ranks, r, t, mb); s < original && !moved; ++s) {
        if (occupied[r][s])
          continue;
        slot = s;
        moved = memoryOf(ranks[r]) <= memory;
      }
      if (!moved)
        slot = original;
    }
    occupied[r][slot] = true;
  });
  // Re-time with the W's in their slots, then take them out again: the
  // slots they leave free are where W's go next.
  if (!withW)
    for (Rank &rank : ranks)
      putW(rank, /*split=*/false);
  retime(ranks);
  for (Rank &rank : ranks)
    rank.resize(4);
}

} // namespace

/// V-Half (Qi et al., "Pipeline Parallelism with Controllable Memory",
/// NeurIPS 2024, sec. 4): half of 1F1B's activation memory; V-Min (same
/// paper): a third of it. See the file comment for the construction.
llvm::Error mlir::pp::sched::detail::buildControllable(
    llvm::StringRef name, const PipelineModel &model, int numMicrobatches,
    const ScheduleOptions &, Schedule &schedule) {
  assert((name == "v-half" || name == "v-min") &&
         "not a controllable-memory schedule");
  bool half = name == "v-half";
  if (!hasPlacement(model, Placement::V))
    return llvm::createStringError(
        "'%s' needs the V placement (2 stages per rank, rank r holding "
        "stages r and 2P-1-r); place the stages with the V placement (`v`)",
        name.str().c_str());
  int p = model.numRanks, m = numMicrobatches;
  std::vector<Rank> ranks(p, Rank(4));
  for (int i = 0; i < p; ++i) {
    int offsets[4];
    if (half) {
      int d = p % 2 == 0 ? 3 : 0;
      offsets[F0] = 2 * i;
      offsets[F1] = 3 * p - i - 2;
      offsets[B1] = 3 * p + d + 2 * i - 1;
      offsets[B0] = 6 * p + d - i - 2;
    } else {
      int d = p % 3 == 0 ? 2 : 0;
      offsets[F0] = i;
      offsets[F1] = 2 * p - i - 1;
      offsets[B1] = 2 * p + d + i;
      offsets[B0] = 4 * p + d - i - 1;
    }
    for (int t = 0; t < 4; ++t)
      for (int j = 0; j < m; ++j)
        ranks[i][t].push_back(offsets[t] + 6 * j);
  }
  squeeze(ranks, /*withW=*/true, m);
  squeeze(ranks, /*withW=*/false, m);
  for (Rank &rank : ranks)
    putW(rank, /*split=*/true);

  // Each rank's passes in slot order.
  for (int i = 0; i < p; ++i) {
    int stage[2] = {i, 2 * p - 1 - i};
    const ActionKind kinds[] = {
        ActionKind::Forward,        ActionKind::Forward,
        ActionKind::BackwardInput,  ActionKind::BackwardInput,
        ActionKind::BackwardWeight, ActionKind::BackwardWeight};
    const int chunk[] = {0, 1, 1, 0, 1, 0};
    std::vector<std::pair<int, Action>> passes;
    for (int t = 0; t < 6; ++t)
      for (int j = 0; j < m; ++j)
        passes.push_back(
            {ranks[i][t][j], compute(kinds[t], stage[chunk[t]], j)});
    // Every slot of a rank holds one pass.
    std::sort(passes.begin(), passes.end(),
              [](const auto &a, const auto &b) { return a.first < b.first; });
    for (auto &[slot, action] : passes)
      schedule.ranks[i].push_back(action);
  }
  return llvm::Error::success();
}
