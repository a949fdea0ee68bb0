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

LogicalResult mlir::pp::verifyCompactSchedule(ScheduleOp op) {
  std::optional<ArrayRef<int64_t>> counts = op.getRankActionCounts();
  std::optional<ArrayRef<int32_t>> packed = op.getPackedActions();
  if (counts.has_value() != packed.has_value())
    return op.emitScheduleError()
           << "has '" << (counts ? "rank_action_counts" : "packed_actions")
           << "' without '"
           << (counts ? "packed_actions" : "rank_action_counts")
           << "'; a compact schedule needs both";
  if (!counts)
    return success();
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

ParseResult mlir::pp::parseCompactRanks(OpAsmParser &parser,
                                        OperationState &result) {
  sched::Schedule schedule;
  while (true) {
    FailureOr<bool> found =
        parseRankHeader(parser, schedule.ranks.size(), "actions");
    if (failed(found))
      return failure();
    if (!*found)
      break;
    std::vector<sched::Action> &actions = schedule.ranks.emplace_back();
    if (parser.parseCommaSeparatedList(
            OpAsmParser::Delimiter::Square, [&]() -> ParseResult {
              return parseAction(parser, actions.emplace_back());
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
  return success();
}

void mlir::pp::printCompactRanks(OpAsmPrinter &p, ScheduleOp op) {
  p << " compact";
  for (auto [rank, actions] : llvm::enumerate(unpackCompactSchedule(op))) {
    p.printNewline();
    p << "rank " << rank << " [";
    llvm::interleaveComma(actions, p, [&](const sched::Action &a) {
      p << kKindNames[static_cast<int>(a.kind)];
      if (a.isComm())
        p << (a.payload == sched::PayloadKind::Activation ? " activation"
                                                          : " gradient");
      p << ' ' << a.stage << ' ' << a.microbatch;
      if (a.overlapWithNext)
        p << " overlapped";
      if (a.isComm())
        p << (a.kind == sched::ActionKind::Send ? " to " : " from ") << a.peer;
    });
    p << ']';
  }
}
