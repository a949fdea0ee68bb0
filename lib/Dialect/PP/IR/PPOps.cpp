//===- PPOps.cpp - pp dialect operations ----------------------------------===//

#include "pp/Dialect/PP/IR/PPOps.h"
#include "pp/Dialect/PP/IR/CompactSchedule.h"
#include "pp/Dialect/PP/IR/ScheduleModel.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
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
                   .append(stage.getIndex(),
                           " is placed on two ranks: ", first.getRank(),
                           " and ", stage.getRank())
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

LogicalResult PipelineOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
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
               << name << "' must refer to a function, but " << ref << " is a '"
               << target->getName() << "'";
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
    if (parseKeyedList(parser, {"forward", "backward_input", "backward_weight"},
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
  for (auto [name, t] :
       {std::make_pair("forward", getForwardTime()),
        std::make_pair("backward_input", getBackwardInputTime()),
        std::make_pair("backward_weight", getBackwardWeightTime())})
    if (t &&
        (!(t->convertToDouble() >= 0) || !std::isfinite(t->convertToDouble())))
      return emitOpError("cost '")
             << name << "' must be a finite non-negative time in microseconds";
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
  if (succeeded(parser.parseOptionalKeyword("compact")))
    return parseCompactRanks(parser, result);
  while (true) {
    FailureOr<bool> found =
        parseRankHeader(parser, result.regions.size(), "region");
    if (failed(found))
      return failure();
    if (!*found)
      break;
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
      (*this)->getAttrs(),
      {getSymNameAttrName(), getPipelineAttrName(),
       getNumMicrobatchesAttrName(), getRankActionCountsAttrName(),
       getPackedActionsAttrName(), getPackedAllReducesAttrName()});
  if (isCompact())
    return printCompactRanks(p, *this);
  for (auto [rank, region] : llvm::enumerate(getRanks())) {
    p.printNewline();
    p << "rank " << rank << ' ';
    p.printRegion(region, /*printEntryBlockArgs=*/false,
                  /*printBlockTerminators=*/false, /*printEmptyBlock=*/false);
  }
}

LogicalResult ScheduleOp::verify() { return verifyCompactSchedule(*this); }

RegionKind ScheduleOp::getRegionKind(unsigned index) {
  // Program order is checked by the schedule verifier, with messages in
  // pipeline terms, rather than by MLIR's dominance check.
  return RegionKind::Graph;
}

InFlightDiagnostic ScheduleOp::emitScheduleError() {
  InFlightDiagnostic diag = mlir::emitError(getLoc());
  diag << "'" << getOperationName() << "' op ";
  return diag;
}

PipelineOp ScheduleOp::getPipelineOp() {
  return SymbolTable::lookupNearestSymbolFrom<PipelineOp>(*this,
                                                          getPipelineAttr());
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

//===----------------------------------------------------------------------===//
// AllReduceOp
//===----------------------------------------------------------------------===//

LogicalResult AllReduceOp::verify() {
  if (getReplicas() < 2)
    return emitOpError("needs at least 2 replicas, not ") << getReplicas();
  if (getBytes() < 0)
    return emitOpError("bytes must be >= 0, not ") << getBytes();
  auto schedule = (*this)->getParentOfType<ScheduleOp>();
  unsigned rank = (*this)->getParentRegion()->getRegionNumber();
  if (PipelineOp pipeline = schedule.getPipelineOp()) {
    StageOp stage;
    for (StageOp s : pipeline.getBody().getOps<StageOp>())
      if (s.getIndex() == getStage())
        stage = s;
    if (!stage)
      return emitOpError("stage ")
             << getStage() << " is not in pipeline @" << pipeline.getSymName();
    if (stage.getRank() != static_cast<int64_t>(rank))
      return emitOpError("reduces stage ")
             << getStage() << ", which runs on rank " << stage.getRank()
             << ", not on rank " << rank;
  }
  if (std::optional<int64_t> bucket = getBucket()) {
    if (*bucket < 0)
      return emitOpError("bucket must be >= 0, not ") << *bucket;
    // The members of a bucket follow one another.
    bool left = false;
    for (Operation *op = (*this)->getNextNode(); op; op = op->getNextNode()) {
      auto other = dyn_cast<AllReduceOp>(op);
      bool member = other && other.getBucket() == bucket;
      if (member && left)
        return emitOpError("is in bucket ")
               << *bucket << ", whose all-reduces do not follow one another "
               << "(another action comes between them)";
      left |= !member;
    }
  }
  for (Operation *op = (*this)->getNextNode(); op; op = op->getNextNode()) {
    if (isa<BackwardOp, BackwardWeightOp>(op) &&
        op->getAttrOfType<IntegerAttr>("stage").getInt() == getStage())
      return emitOpError("starts before the gradients of stage ")
             << getStage() << " are final: its "
             << (isa<BackwardOp>(op) ? "backward" : "W") << " of micro-batch "
             << op->getAttrOfType<IntegerAttr>("microbatch").getInt()
             << " follows on this rank";
    if (auto other = dyn_cast<AllReduceOp>(op);
        other && other.getStage() == getStage())
      return emitOpError("stage ")
             << getStage() << " has a second all-reduce on this rank";
  }
  return success();
}
