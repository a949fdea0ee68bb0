//===- CompactSchedule.cpp - pp.schedule's compact form -------------------===//
//
// The compact form of a pp.schedule lists every rank's actions as plain
// (kind, stage, micro-batch, peer) entries in two array properties instead
// of one op per action. At P = 64, V = 4, M = 1024 an interleaved 1F1B
// schedule has 1.57 M actions: as ops, verifying and writing them takes
// about 1 us each; as 16 bytes each, the library checks decide the time.
// This file has its encoding, its syntax and its structural verifier;
// ScheduleModel.cpp builds and expands it.
//
//===----------------------------------------------------------------------===//

#include "pp/Dialect/PP/IR/CompactSchedule.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::pp;

namespace {
/// Word 0 of an action: kind in bits 0-2, payload in bit 3, overlapped in
/// bit 4.
constexpr int32_t kKindMask = 0x7;
constexpr int32_t kPayloadBit = 1 << 3;
constexpr int32_t kOverlappedBit = 1 << 4;
constexpr int32_t kMaxKind = static_cast<int32_t>(sched::ActionKind::Recv);

/// The action kinds' spellings, in sched::ActionKind order: the mnemonics
/// of the ops they stand for.
constexpr StringLiteral kKindNames[] = {
    "forward", "backward", "backward_input", "backward_weight", "send", "recv"};
} // namespace

void mlir::pp::packSchedule(const sched::Schedule &schedule,
                            SmallVectorImpl<int64_t> &rankActionCounts,
                            SmallVectorImpl<int32_t> &packed) {
  size_t total = 0;
  for (const std::vector<sched::Action> &actions : schedule.ranks)
    total += actions.size();
  rankActionCounts.reserve(rankActionCounts.size() + schedule.ranks.size());
  packed.reserve(packed.size() + kPackedWords * total);
  for (const std::vector<sched::Action> &actions : schedule.ranks) {
    rankActionCounts.push_back(static_cast<int64_t>(actions.size()));
    for (const sched::Action &a : actions) {
      int32_t word = static_cast<int32_t>(a.kind);
      if (a.isComm() && a.payload == sched::PayloadKind::Gradient)
        word |= kPayloadBit;
      if (a.overlapWithNext)
        word |= kOverlappedBit;
      packed.append({word, a.stage, a.microbatch, a.isComm() ? a.peer : -1});
    }
  }
}

std::optional<sched::Action> mlir::pp::unpackAction(ArrayRef<int32_t> words) {
  assert(words.size() == kPackedWords && "an action is four words");
  int32_t kind = words[0] & kKindMask;
  if (kind > kMaxKind ||
      (words[0] & ~(kKindMask | kPayloadBit | kOverlappedBit)) != 0)
    return std::nullopt;
  sched::Action action;
  action.kind = static_cast<sched::ActionKind>(kind);
  action.stage = words[1];
  action.microbatch = words[2];
  action.overlapWithNext = (words[0] & kOverlappedBit) != 0;
  if (action.isComm()) {
    action.payload = (words[0] & kPayloadBit) ? sched::PayloadKind::Gradient
                                              : sched::PayloadKind::Activation;
    action.peer = words[3];
  }
  return action;
}

std::vector<std::vector<sched::Action>>
mlir::pp::unpackCompactSchedule(ScheduleOp op) {
  assert(op.isCompact() && "not a compact schedule");
  std::vector<std::vector<sched::Action>> ranks;
  // Unverified input (--verify-each=false) may lack the words.
  ArrayRef<int32_t> words = op.getPackedActionsAttr()
                                ? op.getPackedActionsAttr().asArrayRef()
                                : ArrayRef<int32_t>();
  for (int64_t count : op.getRankActionCountsAttr().asArrayRef()) {
    std::vector<sched::Action> &actions = ranks.emplace_back();
    actions.reserve(std::clamp<int64_t>(count, 0, words.size() / kPackedWords));
    for (int64_t i = 0; i < count && words.size() >= kPackedWords; ++i) {
      // A kind that is not one was reported by the verifier; read it as a
      // forward rather than lose the action's index.
      actions.push_back(unpackAction(words.take_front(kPackedWords))
                            .value_or(sched::Action{}));
      words = words.drop_front(kPackedWords);
    }
  }
  return ranks;
}

SmallVector<int64_t>
mlir::pp::packAllReduces(ArrayRef<PackedAllReduce> entries) {
  SmallVector<int64_t> words;
  words.reserve(kAllReduceWords * entries.size());
  for (const PackedAllReduce &e : entries)
    words.append({e.rank, e.after, e.stage, e.replicas, e.bytes, e.bucket});
  return words;
}

std::vector<PackedAllReduce> mlir::pp::unpackAllReduces(ScheduleOp op) {
  std::vector<PackedAllReduce> entries;
  if (!op.getPackedAllReducesAttr())
    return entries;
  ArrayRef<int64_t> words = op.getPackedAllReducesAttr().asArrayRef();
  for (size_t i = 0; i + kAllReduceWords <= words.size(); i += kAllReduceWords)
    entries.push_back({words[i], words[i + 1], words[i + 2], words[i + 3],
                       words[i + 4], words[i + 5]});
  return entries;
}

/// The all-reduce entries' structural checks: whole entries, each after an
/// action of its rank, in program order, with at least 2 replicas, bytes
/// >= 0 and a bucket >= -1.
static LogicalResult verifyPackedAllReduces(ScheduleOp op,
                                            ArrayRef<int64_t> counts) {
  ArrayRef<int64_t> words = op.getPackedAllReducesAttr().asArrayRef();
  if (words.size() % kAllReduceWords != 0)
    return op.emitScheduleError()
           << "has " << words.size() << " words in 'packed_all_reduces'; "
           << "expected a multiple of " << kAllReduceWords;
  std::vector<PackedAllReduce> entries = unpackAllReduces(op);
  for (auto [i, e] : llvm::enumerate(entries)) {
    auto at = [&, i = i]() {
      return op.emitScheduleError() << "all-reduce " << i << ": ";
    };
    if (e.rank < 0 || e.rank >= static_cast<int64_t>(counts.size()))
      return at() << "rank " << e.rank << " is out of range: the schedule has "
                  << counts.size() << " ranks";
    if (e.after < 0 || e.after >= counts[e.rank])
      return at() << "follows action " << e.after << " of rank " << e.rank
                  << ", which has " << counts[e.rank] << " actions";
    if (i > 0 && std::make_pair(e.rank, e.after) <
                     std::make_pair(entries[i - 1].rank, entries[i - 1].after))
      return at() << "comes before the all-reduce listed ahead of it; "
                  << "entries are in program order";
    if (e.replicas < 2 || e.replicas > kMaxIndex)
      return at() << "needs between 2 and " << kMaxIndex << " replicas, not "
                  << e.replicas;
    if (e.bytes < 0)
      return at() << "bytes must be >= 0, not " << e.bytes;
    if (e.bucket < -1 || e.bucket > kMaxIndex)
      return at() << "bucket must be in [0, " << kMaxIndex
                  << "] (or -1 for none), not " << e.bucket;
  }
  return success();
}

LogicalResult mlir::pp::verifyCompactSchedule(ScheduleOp op) {
  std::optional<ArrayRef<int64_t>> counts = op.getRankActionCounts();
  std::optional<ArrayRef<int32_t>> packed = op.getPackedActions();
  if (counts.has_value() != packed.has_value())
    return op.emitScheduleError()
           << "has '" << (counts ? "rank_action_counts" : "packed_actions")
           << "' without '"
           << (counts ? "packed_actions" : "rank_action_counts")
           << "'; a compact schedule needs both";
  if (!counts) {
    if (op.getPackedAllReducesAttr())
      return op.emitScheduleError()
             << "has 'packed_all_reduces' but is not compact; its "
                "all-reduces are pp.allreduce ops";
    return success();
  }
  if (op->getNumRegions() != 0)
    return op.emitScheduleError()
           << "is compact but has " << op->getNumRegions()
           << " rank regions; it has none";
  int64_t total = 0;
  for (auto [rank, count] : llvm::enumerate(*counts)) {
    if (count < 0 || count > kMaxIndex)
      return op.emitScheduleError() << "rank " << rank << " has " << count
                                    << " actions; expected 0 to " << kMaxIndex;
    total += count;
  }
  if (static_cast<int64_t>(packed->size()) != kPackedWords * total)
    return op.emitScheduleError()
           << "has " << total << " actions in 'rank_action_counts' but "
           << packed->size() << " words in 'packed_actions'; expected "
           << kPackedWords * total << " (" << kPackedWords << " per action)";
  // One spelling per schedule: a compute action has no payload and no peer.
  int64_t index = 0;
  for (auto [rank, count] : llvm::enumerate(*counts))
    for (int64_t i = 0; i < count; ++i, ++index) {
      ArrayRef<int32_t> words =
          packed->slice(kPackedWords * index, kPackedWords);
      auto at = [&, rank = rank]() {
        return op.emitScheduleError()
               << "rank " << rank << ", action " << i << ": ";
      };
      std::optional<sched::Action> action = unpackAction(words);
      if (!action)
        return at() << "word " << words[0] << " is not an action kind";
      if (action->isCompute() && (words[0] & kPayloadBit))
        return at() << "a compute action has the payload bit set";
      if (action->isCompute() && words[3] != -1)
        return at() << "a compute action has peer " << words[3]
                    << "; expected -1";
    }
  if (op.getPackedAllReducesAttr())
    return verifyPackedAllReduces(op, *counts);
  return success();
}

//===----------------------------------------------------------------------===//
// Syntax
//===----------------------------------------------------------------------===//

/// One action: `forward S M [overlapped]`, `backward S M`, `backward_input S
/// M`, `backward_weight S M`, `send P S M to R`, `recv P S M from R` (P:
/// activation or gradient).
static ParseResult parseAction(OpAsmParser &parser, sched::Action &action) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef keyword;
  if (parser.parseKeyword(&keyword))
    return failure();
  const auto *kind = llvm::find(kKindNames, keyword);
  if (kind == std::end(kKindNames))
    return parser.emitError(loc, "expected an action (forward, backward, "
                                 "backward_input, backward_weight, send or "
                                 "recv), got '")
           << keyword << "'";
  action.kind = static_cast<sched::ActionKind>(kind - std::begin(kKindNames));
  if (action.isComm()) {
    SMLoc payloadLoc = parser.getCurrentLocation();
    StringRef payload;
    if (parser.parseKeyword(&payload))
      return failure();
    if (payload != "activation" && payload != "gradient")
      return parser.emitError(payloadLoc,
                              "expected 'activation' or 'gradient', got '")
             << payload << "'";
    action.payload = payload == "activation" ? sched::PayloadKind::Activation
                                             : sched::PayloadKind::Gradient;
  }
  if (parser.parseInteger(action.stage) ||
      parser.parseInteger(action.microbatch))
    return failure();
  if (action.kind == sched::ActionKind::Forward)
    action.overlapWithNext =
        succeeded(parser.parseOptionalKeyword("overlapped"));
  if (action.isComm() &&
      (parser.parseKeyword(action.kind == sched::ActionKind::Send ? "to"
                                                                  : "from") ||
       parser.parseInteger(action.peer)))
    return failure();
  return success();
}

FailureOr<bool> mlir::pp::parseRankHeader(OpAsmParser &parser, int64_t expected,
                                          StringRef what) {
  SMLoc loc = parser.getCurrentLocation();
  if (failed(parser.parseOptionalKeyword("rank")))
    return false;
  int64_t rank;
  if (parser.parseInteger(rank))
    return failure();
  if (rank != expected)
    return parser.emitError(loc, "expected the ")
           << what << " of rank " << expected << ", got rank " << rank
           << " (ranks come in order)";
  return true;
}

/// `allreduce S replicas D bytes B [bucket K]`, after the keyword, into
/// `entry` (whose rank and place are set).
static ParseResult parseAllReduce(OpAsmParser &parser, PackedAllReduce &entry) {
  if (parser.parseInteger(entry.stage) || parser.parseKeyword("replicas") ||
      parser.parseInteger(entry.replicas) || parser.parseKeyword("bytes") ||
      parser.parseInteger(entry.bytes))
    return failure();
  if (failed(parser.parseOptionalKeyword("bucket")))
    return success();
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseInteger(entry.bucket))
    return failure();
  if (entry.bucket < 0)
    return parser.emitError(loc, "bucket must be >= 0, not ") << entry.bucket;
  return success();
}

ParseResult mlir::pp::parseCompactRanks(OpAsmParser &parser,
                                        OperationState &result) {
  sched::Schedule schedule;
  std::vector<PackedAllReduce> allReduces;
  while (true) {
    FailureOr<bool> found =
        parseRankHeader(parser, schedule.ranks.size(), "actions");
    if (failed(found))
      return failure();
    if (!*found)
      break;
    std::vector<sched::Action> &actions = schedule.ranks.emplace_back();
    int64_t rank = schedule.ranks.size() - 1;
    if (parser.parseCommaSeparatedList(
            OpAsmParser::Delimiter::Square, [&]() -> ParseResult {
              SMLoc loc = parser.getCurrentLocation();
              if (failed(parser.parseOptionalKeyword("allreduce")))
                return parseAction(parser, actions.emplace_back());
              if (actions.empty())
                return parser.emitError(loc, "an all-reduce must follow an "
                                             "action of its rank");
              return parseAllReduce(
                  parser, allReduces.emplace_back(PackedAllReduce{
                              rank, static_cast<int64_t>(actions.size()) - 1}));
            }))
      return failure();
  }
  SmallVector<int64_t> counts;
  SmallVector<int32_t> packed;
  packSchedule(schedule, counts, packed);
  Builder &b = parser.getBuilder();
  result.addAttribute(ScheduleOp::getRankActionCountsAttrName(result.name),
                      b.getDenseI64ArrayAttr(counts));
  result.addAttribute(ScheduleOp::getPackedActionsAttrName(result.name),
                      b.getDenseI32ArrayAttr(packed));
  if (!allReduces.empty())
    result.addAttribute(ScheduleOp::getPackedAllReducesAttrName(result.name),
                        b.getDenseI64ArrayAttr(packAllReduces(allReduces)));
  return success();
}

void mlir::pp::printCompactRanks(OpAsmPrinter &p, ScheduleOp op) {
  p << " compact";
  std::vector<PackedAllReduce> allReduces = unpackAllReduces(op);
  const PackedAllReduce *next = allReduces.data(),
                        *end = allReduces.data() + allReduces.size();
  for (auto [rank, actions] : llvm::enumerate(unpackCompactSchedule(op))) {
    p.printNewline();
    p << "rank " << rank << " [";
    for (auto [index, a] : llvm::enumerate(actions)) {
      if (index > 0)
        p << ", ";
      p << kKindNames[static_cast<int>(a.kind)];
      if (a.isComm())
        p << (a.payload == sched::PayloadKind::Activation ? " activation"
                                                          : " gradient");
      p << ' ' << a.stage << ' ' << a.microbatch;
      if (a.overlapWithNext)
        p << " overlapped";
      if (a.isComm())
        p << (a.kind == sched::ActionKind::Send ? " to " : " from ") << a.peer;
      // The all-reduces placed right after this action (verified input
      // lists them in program order).
      for (; next != end && next->rank == static_cast<int64_t>(rank) &&
             next->after == static_cast<int64_t>(index);
           ++next) {
        p << ", allreduce " << next->stage << " replicas " << next->replicas
          << " bytes " << next->bytes;
        if (next->bucket >= 0)
          p << " bucket " << next->bucket;
      }
    }
    p << ']';
  }
}
