//===- PPOps.cpp - pp dialect operations -----------------------------------===//

#include "pp/Dialect/PP/IR/PPOps.h"
#include "pp/Dialect/PP/IR/ScheduleModel.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>
#include <limits>
#include <cstdio>
#include <cstdlib>
#include <tuple>

using namespace mlir;
using namespace mlir::pp;

#include "pp/Dialect/PP/IR/PPEnums.cpp.inc"

//===----------------------------------------------------------------------===//
// Printing helpers
//===----------------------------------------------------------------------===//

/// Prints a time (microseconds) in the shortest form that reads back exactly:
/// 1 rather than 1.000000e+00.
static void printTime(OpAsmPrinter &p, double value) {
  if (std::isfinite(value) && value == std::floor(value) &&
      std::fabs(value) < 1e15) {
    p << static_cast<int64_t>(value);
    return;
  }
  for (int precision = 1; precision <= 17; ++precision) {
    char text[64];
    std::snprintf(text, sizeof(text), "%.*g", precision, value);
    if (std::strtod(text, nullptr) == value) {
      p << text;
      return;
    }
  }
  p << llvm::format("%.17g", value);
}

/// Parses a time (microseconds): an integer or a float literal.
static ParseResult parseTime(OpAsmParser &parser, double &value) {
  int64_t integer;
  OptionalParseResult asInteger = parser.parseOptionalInteger(integer);
  if (asInteger.has_value()) {
    value = static_cast<double>(integer);
    return *asInteger;
  }
  return parser.parseFloat(value);
}

/// Parses `( key = value, ... )` where every key is one of `keys`; calls
/// `parseValue(key)` for each. Each key may appear once.
static ParseResult
parseKeyedList(OpAsmParser &parser, ArrayRef<StringRef> keys,
               function_ref<ParseResult(StringRef)> parseValue) {
  llvm::SmallDenseSet<StringRef> seen;
  return parser.parseCommaSeparatedList(
      OpAsmParser::Delimiter::Paren, [&]() -> ParseResult {
        StringRef key;
        SMLoc loc = parser.getCurrentLocation();
        if (parser.parseKeyword(&key))
          return failure();
        if (!llvm::is_contained(keys, key))
          return parser.emitError(loc, "unknown key '")
                 << key << "'; expected one of: " << llvm::join(keys, ", ");
        if (!seen.insert(key).second)
          return parser.emitError(loc, "key '") << key << "' given twice";
        if (parser.parseEqual())
          return failure();
        return parseValue(key);
      });
}

//===----------------------------------------------------------------------===//
// PipelineOp
//===----------------------------------------------------------------------===//

ParseResult PipelineOp::parse(OpAsmParser &parser, OperationState &result) {
  StringAttr name;
  if (parser.parseSymbolName(name))
    return failure();
  result.addAttribute(getSymNameAttrName(result.name), name);
  Builder &b = parser.getBuilder();

  int64_t numRanks;
  if (parser.parseKeyword("ranks") || parser.parseLParen() ||
      parser.parseInteger(numRanks) || parser.parseRParen())
    return failure();
  result.addAttribute(getNumRanksAttrName(result.name),
                      b.getI64IntegerAttr(numRanks));
  if (succeeded(parser.parseOptionalKeyword("latency"))) {
    double latency;
    if (parser.parseLParen() || parseTime(parser, latency) ||
        parser.parseRParen())
      return failure();
    result.addAttribute(getLatencyAttrName(result.name),
                        b.getF64FloatAttr(latency));
  }
  if (succeeded(parser.parseOptionalKeyword("activation_bytes"))) {
    int64_t bytes;
    if (parser.parseLParen() || parser.parseInteger(bytes) ||
        parser.parseRParen())
      return failure();
    result.addAttribute(getActivationBytesAttrName(result.name),
                        b.getI64IntegerAttr(bytes));
  }
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  Region *body = result.addRegion();
  if (parser.parseRegion(*body))
    return failure();
  if (body->empty())
    body->emplaceBlock();
  return success();
}

void PipelineOp::print(OpAsmPrinter &p) {
  p << ' ';
  p.printSymbolName(getSymName());
  p << " ranks(" << getNumRanks() << ")";
  if (!getLatency().isZero()) {
    p << " latency(";
    printTime(p, getLatency().convertToDouble());
    p << ")";
  }
  if (getActivationBytes() != 0)
    p << " activation_bytes(" << getActivationBytes() << ")";
  p.printOptionalAttrDictWithKeyword(
      (*this)->getAttrs(),
      {getSymNameAttrName(), getNumRanksAttrName(), getLatencyAttrName(),
       getActivationBytesAttrName()});
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/false);
}

/// Ranks, stages and micro-batches are numbered with 32-bit integers.
static constexpr int64_t kMaxIndex = std::numeric_limits<int32_t>::max();

LogicalResult PipelineOp::verifyRegions() {
  if (getNumRanks() < 1 || getNumRanks() > kMaxIndex)
    return emitOpError("needs between 1 and ")
           << kMaxIndex << " ranks, got " << getNumRanks();
  double latency = getLatency().convertToDouble();
  if (!(latency >= 0) || !std::isfinite(latency))
    return emitOpError("latency must be a finite non-negative time in "
                       "microseconds");
  if (getActivationBytes() < 0)
    return emitOpError("activation_bytes must be non-negative");

  llvm::DenseMap<int64_t, StageOp> byIndex;
  int64_t numStages = 0;
  for (Operation &op : getBody().front()) {
    auto stage = dyn_cast<StageOp>(op);
    if (!stage)
      return op.emitOpError("is not allowed in a pp.pipeline; only pp.stage");
    ++numStages;
    if (stage.getRank() >= getNumRanks())
      return stage.emitOpError("rank ")
             << stage.getRank() << " is out of range: the pipeline has "
             << getNumRanks() << " ranks";
    auto [it, inserted] = byIndex.try_emplace(stage.getIndex(), stage);
    if (!inserted) {
      StageOp first = it->second;
      if (first.getRank() != stage.getRank())
        return stage.emitOpError("stage ")
                   .append(stage.getIndex(), " is placed on two ranks: ",
                           first.getRank(), " and ", stage.getRank())
                   .attachNote(first.getLoc())
               << "first placement here";
      return stage.emitOpError("stage ")
                 .append(stage.getIndex(), " is defined twice")
                 .attachNote(first.getLoc())
             << "first definition here";
    }
  }
  if (numStages == 0)
    return emitOpError("needs at least one pp.stage");
  for (int64_t i = 0; i < numStages; ++i)
    if (!byIndex.count(i))
      return emitOpError("stage indices must be 0 .. ")
             << numStages - 1 << " without gaps, but stage " << i
             << " is missing";
  return success();
}

LogicalResult
PipelineOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  for (StageOp stage : getBody().getOps<StageOp>()) {
    for (auto [name, ref] :
         {std::make_pair("forward", stage.getForwardAttr()),
          std::make_pair("backward", stage.getBackwardAttr()),
          std::make_pair("backward_input", stage.getBackwardInputAttr()),
          std::make_pair("backward_weight", stage.getBackwardWeightAttr())}) {
      if (!ref)
        continue;
      Operation *target = symbolTable.lookupNearestSymbolFrom(*this, ref);
      if (!target)
        return stage.emitOpError("'")
               << name << "' refers to unknown symbol " << ref;
      if (!isa<FunctionOpInterface>(target))
        return stage.emitOpError("'")
               << name << "' must refer to a function, but " << ref
               << " is a '" << target->getName() << "'";
    }
  }
  return success();
}

SmallVector<StageOp, 8> PipelineOp::getStagesByIndex() {
  SmallVector<StageOp, 8> stages(getNumStages());
  for (StageOp stage : getBody().getOps<StageOp>())
    if (stage.getIndex() >= 0 &&
        stage.getIndex() < static_cast<int64_t>(stages.size()))
      stages[stage.getIndex()] = stage;
  return stages;
}

unsigned PipelineOp::getNumStages() {
  return llvm::range_size(getBody().getOps<StageOp>());
}

//===----------------------------------------------------------------------===//
// StageOp
//===----------------------------------------------------------------------===//

ParseResult StageOp::parse(OpAsmParser &parser, OperationState &result) {
  Builder &b = parser.getBuilder();
  int64_t index, rank;
  if (parser.parseInteger(index) || parser.parseKeyword("on") ||
      parser.parseKeyword("rank") || parser.parseInteger(rank))
    return failure();
  result.addAttribute(getIndexAttrName(result.name),
                      b.getI64IntegerAttr(index));
  result.addAttribute(getRankAttrName(result.name), b.getI64IntegerAttr(rank));

  auto parseFunc = [&](StringRef keyword, StringAttr attrName) -> ParseResult {
    if (failed(parser.parseOptionalKeyword(keyword)))
      return success();
    FlatSymbolRefAttr ref;
    if (parser.parseAttribute(ref))
      return failure();
    result.addAttribute(attrName, ref);
    return success();
  };
  if (parseFunc("forward", getForwardAttrName(result.name)) ||
      parseFunc("backward", getBackwardAttrName(result.name)) ||
      parseFunc("backward_input", getBackwardInputAttrName(result.name)) ||
      parseFunc("backward_weight", getBackwardWeightAttrName(result.name)))
    return failure();

  if (succeeded(parser.parseOptionalKeyword("costs"))) {
    if (parseKeyedList(parser,
                       {"forward", "backward_input", "backward_weight"},
                       [&](StringRef key) -> ParseResult {
                         double value;
                         if (parseTime(parser, value))
                           return failure();
                         StringAttr name =
                             key == "forward"
                                 ? getForwardTimeAttrName(result.name)
                             : key == "backward_input"
                                 ? getBackwardInputTimeAttrName(result.name)
                                 : getBackwardWeightTimeAttrName(result.name);
                         result.addAttribute(name, b.getF64FloatAttr(value));
                         return success();
                       }))
      return failure();
  }
  if (succeeded(parser.parseOptionalKeyword("memory"))) {
    if (parseKeyedList(parser, {"stash", "weight_stash"},
                       [&](StringRef key) -> ParseResult {
                         int64_t value;
                         if (parser.parseInteger(value))
                           return failure();
                         StringAttr name =
                             key == "stash"
                                 ? getStashBytesAttrName(result.name)
                                 : getWeightStashBytesAttrName(result.name);
                         result.addAttribute(name, b.getI64IntegerAttr(value));
                         return success();
                       }))
      return failure();
  }
  return parser.parseOptionalAttrDict(result.attributes);
}

void StageOp::print(OpAsmPrinter &p) {
  p << ' ' << getIndex() << " on rank " << getRank();
  if (auto ref = getForwardAttr())
    p << " forward " << ref;
  if (auto ref = getBackwardAttr())
    p << " backward " << ref;
  if (auto ref = getBackwardInputAttr())
    p << " backward_input " << ref;
  if (auto ref = getBackwardWeightAttr())
    p << " backward_weight " << ref;
  SmallVector<std::pair<StringRef, double>> costs;
  if (auto t = getForwardTime())
    costs.push_back({"forward", t->convertToDouble()});
  if (auto t = getBackwardInputTime())
    costs.push_back({"backward_input", t->convertToDouble()});
  if (auto t = getBackwardWeightTime())
    costs.push_back({"backward_weight", t->convertToDouble()});
  if (!costs.empty()) {
    p << " costs(";
    llvm::interleaveComma(costs, p, [&](auto &kv) {
      p << kv.first << " = ";
      printTime(p, kv.second);
    });
    p << ")";
  }
  if (getStashBytes() != 0 || getWeightStashBytes() != 0)
    p << " memory(stash = " << getStashBytes()
      << ", weight_stash = " << getWeightStashBytes() << ")";
  p.printOptionalAttrDict(
      (*this)->getAttrs(),
      {getIndexAttrName(), getRankAttrName(), getForwardAttrName(),
       getBackwardAttrName(), getBackwardInputAttrName(),
       getBackwardWeightAttrName(), getForwardTimeAttrName(),
       getBackwardInputTimeAttrName(), getBackwardWeightTimeAttrName(),
       getStashBytesAttrName(), getWeightStashBytesAttrName()});
}

LogicalResult StageOp::verify() {
  if (getIndex() < 0 || getIndex() > kMaxIndex)
    return emitOpError("stage index must be in [0, ")
           << kMaxIndex << "], got " << getIndex();
  if (getRank() < 0 || getRank() > kMaxIndex)
    return emitOpError("rank must be in [0, ")
           << kMaxIndex << "], got " << getRank();
  if (getStashBytes() < 0 || getWeightStashBytes() < 0)
    return emitOpError("memory sizes must be non-negative");
  for (auto [name, t] : {std::make_pair("forward", getForwardTime()),
                         std::make_pair("backward_input", getBackwardInputTime()),
                         std::make_pair("backward_weight",
                                        getBackwardWeightTime())})
    if (t && (!(t->convertToDouble() >= 0) ||
              !std::isfinite(t->convertToDouble())))
      return emitOpError("cost '")
             << name
             << "' must be a finite non-negative time in microseconds";
  if (isAbstract()) {
    if (!getForwardTime() || !getBackwardInputTime())
      return emitOpError("abstract stage ")
             << getIndex()
             << " must give its costs: costs(forward = ..., backward_input "
                "= ..., backward_weight = ...)";
    return success();
  }
  if (!getForward())
    return emitOpError("stage ") << getIndex()
                                 << " names backward functions but no "
                                    "'forward' function";
  if (getBackward() && (getBackwardInput() || getBackwardWeight()))
    return emitOpError("stage ")
           << getIndex()
           << " names both a fused 'backward' and split "
              "'backward_input'/'backward_weight' functions; give one form";
  // A stage with only a forward function is legal: pp-partition makes such
  // stages and pp-autodiff adds their backward functions.
  if (static_cast<bool>(getBackwardInput()) !=
      static_cast<bool>(getBackwardWeight()))
    return emitOpError("stage ")
           << getIndex()
           << " names one of 'backward_input' and 'backward_weight'; a split "
              "backward needs both";
  return success();
}

//===----------------------------------------------------------------------===//
// ScheduleOp
//===----------------------------------------------------------------------===//

ParseResult ScheduleOp::parse(OpAsmParser &parser, OperationState &result) {
  Builder &b = parser.getBuilder();
  StringAttr name;
  FlatSymbolRefAttr pipeline;
  int64_t numMicrobatches;
  if (parser.parseSymbolName(name) || parser.parseKeyword("pipeline") ||
      parser.parseLParen() || parser.parseAttribute(pipeline) ||
      parser.parseRParen() || parser.parseKeyword("microbatches") ||
      parser.parseLParen() || parser.parseInteger(numMicrobatches) ||
      parser.parseRParen())
    return failure();
  result.addAttribute(getSymNameAttrName(result.name), name);
  result.addAttribute(getPipelineAttrName(result.name), pipeline);
  result.addAttribute(getNumMicrobatchesAttrName(result.name),
                      b.getI64IntegerAttr(numMicrobatches));
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  int64_t expected = 0;
  while (true) {
    SMLoc loc = parser.getCurrentLocation();
    if (failed(parser.parseOptionalKeyword("rank")))
      break;
    int64_t rank;
    if (parser.parseInteger(rank))
      return failure();
    if (rank != expected)
      return parser.emitError(loc, "expected the region of rank ")
             << expected << ", got rank " << rank
             << " (regions come in rank order)";
    ++expected;
    Region *region = result.addRegion();
    if (parser.parseRegion(*region))
      return failure();
    if (region->empty())
      region->emplaceBlock();
  }
  return success();
}

void ScheduleOp::print(OpAsmPrinter &p) {
  p << ' ';
  p.printSymbolName(getSymName());
  p << " pipeline(" << getPipelineAttr() << ") microbatches("
    << getNumMicrobatches() << ")";
  p.printOptionalAttrDictWithKeyword(
      (*this)->getAttrs(), {getSymNameAttrName(), getPipelineAttrName(),
                            getNumMicrobatchesAttrName()});
  for (auto [rank, region] : llvm::enumerate(getRanks())) {
    p.printNewline();
    p << "rank " << rank << ' ';
    p.printRegion(region, /*printEntryBlockArgs=*/false,
                  /*printBlockTerminators=*/false, /*printEmptyBlock=*/false);
  }
}

RegionKind ScheduleOp::getRegionKind(unsigned index) {
  // Program order is checked by the schedule verifier, with messages in
  // pipeline terms, rather than by MLIR's dominance check.
  return RegionKind::Graph;
}

PipelineOp ScheduleOp::getPipelineOp() {
  return SymbolTable::lookupNearestSymbolFrom<PipelineOp>(*this,
                                                          getPipelineAttr());
}

namespace {
/// Identifies a value a rank program produces: (payload, stage, micro-batch).
using ValueKey = std::tuple<int, int64_t, int64_t>;

/// Checks that the operands and results of the actions of `op` are wired the
/// way the (already checked) keys say.
class WiringChecker {
public:
  WiringChecker(ScheduleOp op, PipelineOp pipeline)
      : op(op), numStages(pipeline.getNumStages()),
        stages(pipeline.getStagesByIndex()) {}

  LogicalResult check();
  LogicalResult checkGradientTypes();

private:
  int64_t rankOf(int64_t stage) { return stages[stage].getRank(); }
  LogicalResult checkStash(Operation *action, Value value, int64_t bytes,
                           StringRef what);
  LogicalResult checkProducer(Operation *user, Value value, int payload,
                              int64_t stage, int64_t mb, StringRef what);
  LogicalResult checkPresence(Operation *action, Value value, bool expected,
                              StringRef what, StringRef why);
  LogicalResult checkBackwardForm(Operation *action);

  ScheduleOp op;
  int64_t numStages;
  SmallVector<StageOp> stages;
};
} // namespace

/// The (payload, stage, micro-batch) key of the activation or gradient that
/// `value` holds, if it is one produced by an action or a recv.
static std::optional<ValueKey> keyOfValue(Value value) {
  Operation *def = value.getDefiningOp();
  if (!def)
    return std::nullopt;
  constexpr int act = static_cast<int>(PayloadKind::activation);
  constexpr int grad = static_cast<int>(PayloadKind::gradient);
  if (auto f = dyn_cast<ForwardOp>(def); f && value == f.getOutput())
    return ValueKey{act, f.getStage(), f.getMicrobatch()};
  if (auto b = dyn_cast<BackwardOp>(def); b && value == b.getInputGrad())
    return ValueKey{grad, b.getStage(), b.getMicrobatch()};
  if (auto b = dyn_cast<BackwardInputOp>(def); b && value == b.getInputGrad())
    return ValueKey{grad, b.getStage(), b.getMicrobatch()};
  if (auto r = dyn_cast<RecvOp>(def))
    return ValueKey{static_cast<int>(r.getPayload()), r.getStage(),
                    r.getMicrobatch()};
  return std::nullopt;
}

static StringRef payloadName(int payload) {
  return stringifyPayloadKind(static_cast<PayloadKind>(payload));
}

LogicalResult WiringChecker::checkProducer(Operation *user, Value value,
                                           int payload, int64_t stage,
                                           int64_t mb, StringRef what) {
  std::optional<ValueKey> key = keyOfValue(value);
  if (key && *key == ValueKey{payload, stage, mb})
    return success();
  return user->emitOpError(what)
         << " must be the " << payloadName(payload) << " of stage " << stage
         << " micro-batch " << mb
         << " (from that action on this rank or a pp.recv of it)";
}

LogicalResult WiringChecker::checkStash(Operation *action, Value value,
                                        int64_t bytes, StringRef what) {
  auto type = cast<StashType>(value.getType());
  if (type.getBytes() != bytes)
    return action->emitOpError(what)
           << " is " << type << ", but the stage keeps " << bytes << " bytes";
  return success();
}

LogicalResult WiringChecker::checkPresence(Operation *action, Value value,
                                           bool expected, StringRef what,
                                           StringRef why) {
  if (static_cast<bool>(value) == expected)
    return success();
  return action->emitOpError(expected ? "needs " : "must not have ")
         << what << ": " << why;
}

/// Every operand must be made earlier in the rank's program.
static LogicalResult checkProgramOrder(Operation *action) {
  for (Value operand : action->getOperands()) {
    Operation *def = operand.getDefiningOp();
    if (def && def->getBlock() == action->getBlock() &&
        def->isBeforeInBlock(action))
      continue;
    auto diag = action->emitOpError("uses a value before it is made: the ");
    if (def)
      diag << "'" << def->getName() << "' of stage "
           << def->getAttrOfType<IntegerAttr>("stage").getInt()
           << " micro-batch "
           << def->getAttrOfType<IntegerAttr>("microbatch").getInt()
           << " must come first on this rank";
    else
      diag << "operand is not made by an action of this rank";
    return diag;
  }
  return success();
}

LogicalResult WiringChecker::check() {
  constexpr int act = static_cast<int>(PayloadKind::activation);
  constexpr int grad = static_cast<int>(PayloadKind::gradient);
  for (auto [rankIndex, region] : llvm::enumerate(op.getRanks())) {
    int64_t rank = rankIndex;
    for (Operation &action : region.front()) {
      if (failed(checkProgramOrder(&action)))
        return failure();
      LogicalResult result =
          llvm::TypeSwitch<Operation *, LogicalResult>(&action)
              .Case([&](ForwardOp f) -> LogicalResult {
                int64_t s = f.getStage(), m = f.getMicrobatch();
                if (failed(checkPresence(
                        f, f.getOutput(), s + 1 < numStages, "an output",
                        s + 1 < numStages
                            ? "the next stage consumes it"
                            : "it runs the last stage")) ||
                    failed(checkStash(f, f.getStash(),
                                      stages[s].getStashBytes(), "stash")))
                  return failure();
                if (s == 0)
                  return checkPresence(f, f.getInput(), false, "an input",
                                       "stage 0 reads the micro-batch");
                if (Value in = f.getInput())
                  return checkProducer(f, in, act, s - 1, m, "input");
                if (rankOf(s - 1) == rank)
                  return f.emitOpError("needs an input: the forward of stage ")
                         << s - 1 << " runs on the same rank";
                return success();
              })
              .Case<BackwardOp, BackwardInputOp>([&](auto b) -> LogicalResult {
                int64_t s = b.getStage(), m = b.getMicrobatch();
                if (failed(checkPresence(b, b.getInputGrad(), s > 0,
                                         "an input gradient",
                                         s > 0 ? "the previous stage needs it"
                                               : "stage 0 has no input")))
                  return failure();
                auto fwd = b.getStash().template getDefiningOp<ForwardOp>();
                if (!fwd || fwd.getStage() != s || fwd.getMicrobatch() != m)
                  return b.emitOpError("stash must come from the forward of "
                                       "stage ")
                         << s << " micro-batch " << m;
                if constexpr (std::is_same_v<decltype(b), BackwardInputOp>)
                  if (failed(checkStash(b, b.getWeightStash(),
                                        stages[s].getWeightStashBytes(),
                                        "weight stash")))
                    return failure();
                if (s + 1 == numStages)
                  return checkPresence(b, b.getGrad(), false,
                                       "an output gradient",
                                       "the last stage starts from its loss");
                if (Value g = b.getGrad())
                  return checkProducer(b, g, grad, s + 1, m, "gradient");
                if (rankOf(s + 1) == rank)
                  return b.emitOpError("needs a gradient: the backward of "
                                       "stage ")
                         << s + 1 << " runs on the same rank";
                return success();
              })
              .Case([&](BackwardWeightOp w) -> LogicalResult {
                auto bi = w.getWeightStash().getDefiningOp<BackwardInputOp>();
                if (!bi || bi.getStage() != w.getStage() ||
                    bi.getMicrobatch() != w.getMicrobatch())
                  return w.emitOpError("weight stash must come from the "
                                       "backward_input of stage ")
                         << w.getStage() << " micro-batch "
                         << w.getMicrobatch();
                return success();
              })
              .Case([&](SendOp send) -> LogicalResult {
                int payload = static_cast<int>(send.getPayload());
                std::optional<ValueKey> key = keyOfValue(send.getValue());
                if (!key || *key != ValueKey{payload, send.getStage(),
                                             send.getMicrobatch()} ||
                    isa_and_nonnull<RecvOp>(send.getValue().getDefiningOp()))
                  return send.emitOpError("sends a value that is not the ")
                         << payloadName(payload) << " of stage "
                         << send.getStage() << " micro-batch "
                         << send.getMicrobatch() << " made on this rank";
                return success();
              })
              .Default([](Operation *) { return success(); });
      if (failed(result))
        return failure();
      if (failed(checkBackwardForm(&action)))
        return failure();
    }
  }
  return success();
}

LogicalResult WiringChecker::checkBackwardForm(Operation *action) {
  auto stageAttr = action->getAttrOfType<IntegerAttr>("stage");
  StageOp stage = stages[stageAttr.getInt()];
  if (stage.isAbstract())
    return success();
  // A fused backward of a stage with B and W runs them back to back (the
  // schedules that mix both, DualPipeV's F&B pairs, need it).
  if (isa<BackwardInputOp, BackwardWeightOp>(action) && stage.getBackward())
    return action->emitOpError("runs a split backward, but stage ")
           << stage.getIndex()
           << " names only a fused 'backward' function; use pp.backward";
  return success();
}

/// A gradient has the type of the value it is the gradient of: the input
/// gradient of (s, m) that of the activation of (s - 1, m).
LogicalResult WiringChecker::checkGradientTypes() {
  DenseMap<std::pair<int64_t, int64_t>, Type> activationTypes;
  SmallVector<std::tuple<Operation *, int64_t, int64_t, Type>> gradients;
  for (Region &region : op.getRanks())
    for (Operation &action : region.front()) {
      for (Value result : action.getResults()) {
        std::optional<ValueKey> key = keyOfValue(result);
        if (!key)
          continue;
        auto [payload, s, m] = *key;
        if (payload == static_cast<int>(PayloadKind::activation))
          activationTypes[{s, m}] = result.getType();
        else
          gradients.push_back({&action, s, m, result.getType()});
      }
    }
  for (auto [action, s, m, type] : gradients) {
    auto it = activationTypes.find({s - 1, m});
    if (it == activationTypes.end() || it->second == type)
      continue;
    return action->emitOpError("makes the gradient of stage ")
           << s << " micro-batch " << m << " as " << type
           << ", but the activation it is the gradient of (output of stage "
           << s - 1 << ") is " << it->second;
  }
  return success();
}

/// Send/recv types must agree; the library matched their keys already.
static LogicalResult checkMessageTypes(ScheduleOp op) {
  DenseMap<std::tuple<int, int64_t, int64_t, int64_t>, SendOp> sends;
  for (auto [rank, region] : llvm::enumerate(op.getRanks()))
    for (SendOp send : region.front().getOps<SendOp>())
      sends[{static_cast<int>(send.getPayload()), send.getStage(),
             send.getMicrobatch(), send.getPeer()}] = send;
  for (auto [rank, region] : llvm::enumerate(op.getRanks()))
    for (RecvOp recv : region.front().getOps<RecvOp>()) {
      auto it = sends.find({static_cast<int>(recv.getPayload()),
                            recv.getStage(), recv.getMicrobatch(),
                            static_cast<int64_t>(rank)});
      if (it == sends.end())
        continue;
      Type sent = it->second.getValue().getType();
      if (sent != recv.getType())
        return recv.emitOpError("receives ")
                   .append(recv.getType(), ", but rank ", recv.getPeer(),
                           " sends ", sent, " for ",
                           payloadName(static_cast<int>(recv.getPayload())),
                           " of stage ", recv.getStage(), " micro-batch ",
                           recv.getMicrobatch())
                   .attachNote(it->second.getLoc())
               << "the send is here";
    }
  return success();
}

LogicalResult
ScheduleOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto pipeline =
      symbolTable.lookupNearestSymbolFrom<PipelineOp>(*this, getPipelineAttr());
  if (!pipeline)
    return emitOpError("refers to ")
           << getPipelineAttr() << ", which is not a pp.pipeline";
  if (getNumMicrobatches() < 1 || getNumMicrobatches() > kMaxIndex)
    return emitOpError("needs between 1 and ")
           << kMaxIndex << " micro-batches, got " << getNumMicrobatches();
  if (getNumRanks() != pipeline.getNumRanks())
    return emitOpError("has ")
           << getNumRanks() << " rank regions, but pipeline "
           << getPipelineAttr() << " has " << pipeline.getNumRanks()
           << " ranks";
  for (Region &region : getRanks())
    for (Operation &action : region.front())
      if (action.getDialect() != (*this)->getDialect() ||
          isa<PipelineOp, StageOp, ScheduleOp>(action))
        return action.emitOpError(
            "is not a pipeline action; rank regions hold only pp.forward, "
            "pp.backward, pp.backward_input, pp.backward_weight, pp.send and "
            "pp.recv");

  // Cheap per-action range checks first so that the library sees sane data.
  int64_t numStages = pipeline.getNumStages();
  for (Region &region : getRanks())
    for (Operation &action : region.front()) {
      auto stage = action.getAttrOfType<IntegerAttr>("stage").getInt();
      auto mb = action.getAttrOfType<IntegerAttr>("microbatch").getInt();
      if (stage < 0 || stage >= numStages)
        return action.emitOpError("stage ")
               << stage << " is out of range: pipeline " << getPipelineAttr()
               << " has " << numStages << " stages";
      if (mb < 0 || mb >= getNumMicrobatches())
        return action.emitOpError("micro-batch ")
               << mb << " is out of range: the schedule has "
               << getNumMicrobatches() << " micro-batches";
      if (auto peer = action.getAttrOfType<IntegerAttr>("peer"))
        if (peer.getInt() < 0 || peer.getInt() >= pipeline.getNumRanks())
          return action.emitOpError("peer rank ")
                 << peer.getInt() << " is out of range: pipeline "
                 << getPipelineAttr() << " has " << pipeline.getNumRanks()
                 << " ranks";
    }

  // Every (stage, micro-batch) runs one forward. The library's checks build
  // tables of S x M entries, so when S x M is far beyond the schedule's size
  // say what is missing here instead of allocating them.
  int64_t numForwards = 0, numActions = 0;
  for (Region &region : getRanks()) {
    numForwards += llvm::range_size(region.front().getOps<ForwardOp>());
    numActions += region.front().getOperations().size();
  }
  if (numForwards < numStages * getNumMicrobatches() &&
      numStages * getNumMicrobatches() > 4 * numActions + 65536)
    return emitOpError("runs ")
           << numForwards << " forwards, but " << numStages << " stages x "
           << getNumMicrobatches() << " micro-batches need "
           << numStages * getNumMicrobatches();

  sched::PipelineModel model = getPipelineModel(pipeline);
  ScheduleModel scheduleModel = getScheduleModel(*this);
  std::vector<sched::Problem> problems =
      sched::checkSchedule(model, scheduleModel.schedule);
  // Report the first few problems; a broken schedule can have thousands.
  constexpr size_t kMaxReported = 8;
  for (const sched::Problem &problem :
       ArrayRef(problems).take_front(kMaxReported)) {
    if (problem.rank >= 0 && problem.index >= 0)
      scheduleModel.ops[problem.rank][problem.index]->emitOpError(
          problem.message);
    else
      emitOpError(problem.message);
  }
  if (problems.size() > kMaxReported)
    emitOpError("has ") << problems.size() - kMaxReported
                        << " more problems not shown";
  if (!problems.empty())
    return failure();

  WiringChecker wiring(*this, pipeline);
  if (failed(wiring.check()) || failed(checkMessageTypes(*this)))
    return failure();
  return wiring.checkGradientTypes();
}

//===----------------------------------------------------------------------===//
// Action result names
//===----------------------------------------------------------------------===//

/// Names a result `<what>_s<stage>_mb<micro-batch>` so that printed schedules
/// read like the timeline ("%act_s0_mb3").
static void setName(OpAsmSetValueNameFn setNameFn, Value value, StringRef what,
                    int64_t stage, int64_t mb) {
  if (value)
    setNameFn(value, (what + "_s" + Twine(stage) + "_mb" + Twine(mb)).str());
}

void ForwardOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  setName(setNameFn, getOutput(), "act", getStage(), getMicrobatch());
  setName(setNameFn, getStash(), "stash", getStage(), getMicrobatch());
}

void BackwardOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  setName(setNameFn, getInputGrad(), "grad", getStage(), getMicrobatch());
}

void BackwardInputOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  setName(setNameFn, getInputGrad(), "grad", getStage(), getMicrobatch());
  setName(setNameFn, getWeightStash(), "wstash", getStage(), getMicrobatch());
}

void RecvOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  setName(setNameFn, getValue(),
          getPayload() == PayloadKind::activation ? "recv_act" : "recv_grad",
          getStage(), getMicrobatch());
}

#define GET_OP_CLASSES
#include "pp/Dialect/PP/IR/PPOps.cpp.inc"
