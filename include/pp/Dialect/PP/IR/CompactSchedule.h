//===- CompactSchedule.h - pp.schedule's compact form -----------*- C++ -*-===//
//
// The compact form of a pp.schedule (see its description in PPOps.td): every
// rank's actions as plain (kind, stage, micro-batch, peer) entries in two
// properties, `packed_actions` and `rank_action_counts`, instead of one op
// per action. ScheduleModel.h builds it (buildCompactScheduleOp), reads it
// (getScheduleModel) and expands it into the SSA form (expandSchedule).
//
//===----------------------------------------------------------------------===//

#ifndef PP_DIALECT_PP_IR_COMPACTSCHEDULE_H
#define PP_DIALECT_PP_IR_COMPACTSCHEDULE_H

#include "pp/Dialect/PP/IR/PPOps.h"
#include "pp/Schedule/Schedule.h"

#include <optional>
#include <vector>

namespace mlir::pp {

/// i32 words per action in `packed_actions`: kind | payload << 3 |
/// overlapped << 4 (payload 1: gradient), stage, micro-batch, and the peer
/// rank of a send or receive (-1 for a compute action).
inline constexpr int64_t kPackedWords = 4;

/// A `pp.allreduce` of a compact schedule: on rank `rank` right after its
/// action `after` (an index into the rank's actions), the stage whose
/// gradients it sums over `replicas` replicas, their bytes, and the bucket
/// it shares a collective with (-1: none). `packed_all_reduces` holds
/// kAllReduceWords i64 per entry in this order, entries in program order.
struct PackedAllReduce {
  int64_t rank = 0, after = 0, stage = 0, replicas = 2, bytes = 0, bucket = -1;
};
inline constexpr int64_t kAllReduceWords = 6;

/// `entries` as the words of `packed_all_reduces`.
SmallVector<int64_t> packAllReduces(ArrayRef<PackedAllReduce> entries);

/// The entries of `packed_all_reduces` (none without it). Missing words
/// end the list: never a crash on input the verifier rejected.
std::vector<PackedAllReduce> unpackAllReduces(ScheduleOp op);

/// Appends `schedule`'s actions, all ranks in order, to `packed`, and each
/// rank's action count to `rankActionCounts`.
void packSchedule(const sched::Schedule &schedule,
                  SmallVectorImpl<int64_t> &rankActionCounts,
                  SmallVectorImpl<int32_t> &packed);

/// The action packed in `words` (kPackedWords of them), or std::nullopt
/// when word 0 is not a kind with its flags.
std::optional<sched::Action> unpackAction(ArrayRef<int32_t> words);

/// Every rank's actions of the compact schedule `op`. On input the verifier
/// rejected, an action whose kind is not one reads as a forward and missing
/// words end the rank early: never a crash.
std::vector<std::vector<sched::Action>> unpackCompactSchedule(ScheduleOp op);

/// ScheduleOp's parser, both forms: `rank R` where rank `expected` comes
/// next. False when the next token is not `rank`; an error ("expected the
/// <what> of rank E, got rank R (ranks come in order)") when R is not E.
FailureOr<bool> parseRankHeader(OpAsmParser &parser, int64_t expected,
                                StringRef what);

/// ScheduleOp's parser, after the `compact` keyword: `rank R [action, ...]`
/// for every rank, into the two properties.
ParseResult parseCompactRanks(OpAsmParser &parser, OperationState &result);

/// ScheduleOp's printer for the compact form: ` compact` and every rank's
/// actions as parseCompactRanks reads them.
void printCompactRanks(OpAsmPrinter &p, ScheduleOp op);

/// ScheduleOp's verifier, the part that needs no pipeline: both properties
/// or neither, no regions when compact, counts that add up to the words,
/// kinds that are kinds. The checks against the pipeline are in
/// verifySymbolUses.
LogicalResult verifyCompactSchedule(ScheduleOp op);

} // namespace mlir::pp

#endif // PP_DIALECT_PP_IR_COMPACTSCHEDULE_H
