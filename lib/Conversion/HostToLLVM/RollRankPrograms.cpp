//===- RollRankPrograms.cpp - a rank program's steady state as a loop -----===//
//
// A rank program (convert-pp-to-runtime) is one block of calls in the
// schedule's order; on buffers, after its deallocations are placed, the
// actions of a schedule's steady state repeat op for op, only the
// micro-batch numbers growing by one per repeat (1F1B: F of micro-batch
// m + w, B of m). rollRankProgram finds the longest such run and makes it
// an scf.for over its repeats: the rank program's size, and what lowering
// it costs, then no longer grows with the number of micro-batches
// (docs/Execution.md, "Rank programs").
//
//===----------------------------------------------------------------------===//

#include "pp/Conversion/HostToLLVM.h"
#include "pp/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/CheckedArithmetic.h"

#include <map>

namespace mlir::pp {
#define GEN_PASS_DEF_PPROLLRANKPROGRAMSPASS
#include "pp/Conversion/Passes.h.inc"
} // namespace mlir::pp

using namespace mlir;

namespace {
/// Ops [start, start + period * iterations) of a block: `iterations`
/// repeats of `period` ops.
struct Run {
  int64_t start = 0, period = 0, iterations = 0;
  int64_t end() const { return start + period * iterations; }
};

/// Where an operand of the loop body comes from.
struct Source {
  enum Kind { Invariant, Affine, Carried } kind = Invariant;
  /// Invariant: the value every repeat uses.
  Value value;
  /// Affine: an integer constant base + iteration * step, of `type`.
  int64_t base = 0, step = 0;
  Type type;
  /// Carried: result `result` of the op at `slot` in the period, from
  /// `distance` iterations before (0: the same iteration).
  int64_t slot = 0, result = 0, distance = 0;
};

/// A value computed `distance` iterations earlier reaches its uses through
/// a queue of the loop's iteration arguments: at the start of iteration t,
/// entry i holds that result of iteration t - length + i.
using QueueKey = std::pair<int64_t, int64_t>; // slot, result

/// The longest loops this makes; a value used further away stays unrolled.
constexpr int64_t kMaxDistance = 64;

class Roller {
public:
  Roller(Block &block, int64_t minIterations)
      : block(block), minIterations(minIterations) {
    for (Operation &op : block.without_terminator())
      ops.push_back(&op);
    for (auto [i, op] : llvm::enumerate(ops))
      position[op] = i;
  }

  /// Rolls the longest periodic run into a loop; false when there is none
  /// of at least `minIterations` repeats.
  bool rollOne();

private:
  /// Every stretch of `minIterations` or more repeats of a candidate
  /// period that includes a call.
  SmallVector<Run> candidateRuns() const;
  /// The position of the op in the block that holds `v`'s definition, or
  /// -1 for a block argument.
  int64_t definedAt(Value v) const {
    Operation *def = v.getDefiningOp();
    return def ? position.lookup(def) : -1;
  }
  /// The iterations [first, last] of `run` whose operands all follow one
  /// pattern per operand (`sources`), around the middle iteration.
  std::pair<int64_t, int64_t>
  consistentIterations(const Run &run, std::vector<Source> &sources) const;
  bool build(const Run &run, const std::vector<Source> &sources);

  Block &block;
  int64_t minIterations;
  SmallVector<Operation *> ops;
  DenseMap<Operation *, int64_t> position;
};
} // namespace

/// Whether `op` allocates on the stack (memref.alloca; an op with an
/// Allocate effect on the automatic allocation scope). The JIT moves a rank
/// program's constant-size allocas to its entry block (HostJit.cpp), one
/// slot for every iteration of a loop: such an op is never rolled.
static bool allocatesOnStack(Operation *op) {
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return false;
  SmallVector<MemoryEffects::EffectInstance> list;
  effects.getEffects(list);
  return llvm::any_of(list, [](const MemoryEffects::EffectInstance &e) {
    return isa<MemoryEffects::Allocate>(e.getEffect()) &&
           e.getResource() ==
               SideEffects::AutomaticAllocationScopeResource::get();
  });
}

/// Whether a result of `op` lives on the stack once lowered: a stack
/// allocation, or a cast to an unranked memref, whose descriptor the LLVM
/// lowering stores in an alloca. Such a value may be used in its own
/// iteration (by the call it is made for), but must not cross iterations
/// or leave the loop: with the alloca hoisted, a later iteration would
/// overwrite it.
static bool resultOnStack(Operation *op) {
  if (auto cast = dyn_cast<memref::CastOp>(op))
    if (isa<UnrankedMemRefType>(cast.getType()))
      return true;
  return allocatesOnStack(op);
}

/// A hash equal for ops that are the same but for their operands: name,
/// attributes, properties, result types. Ops with regions or stack
/// allocations (allocatesOnStack) never match, nor do constants and
/// poison values, which the period's ops read as operands (affine or
/// invariant), not repeat.
static llvm::hash_code signature(Operation *op) {
  if (op->getNumRegions() != 0 || allocatesOnStack(op) ||
      op->hasTrait<OpTrait::ConstantLike>() || isa<ub::PoisonOp>(op))
    return llvm::hash_value(op);
  return OperationEquivalence::computeHash(
      op, OperationEquivalence::ignoreHashValue,
      OperationEquivalence::ignoreHashValue,
      OperationEquivalence::IgnoreLocations);
}

SmallVector<Run> Roller::candidateRuns() const {
  int64_t n = ops.size();
  // A loop is worth it for the calls a period makes, not for its casts.
  auto hasCall = [&](int64_t start, int64_t period) {
    for (int64_t i = start; i < start + period; ++i)
      if (isa<CallOpInterface>(ops[i]))
        return true;
    return false;
  };
  SmallVector<llvm::hash_code> sig;
  sig.reserve(n);
  for (Operation *op : ops)
    sig.push_back(signature(op));
  // Candidate periods: the distances from each op to the last
  // kLookBack ops of the same signature, most frequent first. An op that
  // occurs k times per period is a period away from its k-th previous
  // occurrence (interleaved 1F1B's period holds two micro-batches of each
  // stage: every call in it occurs at least twice).
  constexpr size_t kLookBack = 4;
  DenseMap<llvm::hash_code, SmallVector<int64_t, kLookBack>> last;
  DenseMap<int64_t, int64_t> count;
  for (int64_t i = 0; i < n; ++i) {
    SmallVector<int64_t, kLookBack> &seen = last[sig[i]];
    for (int64_t at : seen)
      if ((i - at) * minIterations <= n)
        ++count[i - at];
    if (seen.size() == kLookBack)
      seen.erase(seen.begin());
    seen.push_back(i);
  }
  SmallVector<std::pair<int64_t, int64_t>> periods(count.begin(), count.end());
  llvm::sort(periods, [](auto x, auto y) {
    return x.second != y.second ? x.second > y.second : x.first < y.first;
  });
  if (periods.size() > 32)
    periods.resize(32);
  SmallVector<Run> runs;
  for (auto [period, _] : periods) {
    // The longest stretch where each op has the signature of the op one
    // period later: ops [a, b + period) repeat.
    int64_t a = 0;
    for (int64_t i = 0; i + period <= n; ++i) {
      if (i + period < n && sig[i] == sig[i + period])
        continue;
      int64_t iterations = (i - a + period) / period;
      if (iterations >= minIterations && hasCall(a, period))
        runs.push_back({a, period, iterations});
      a = i + 1;
    }
  }
  return runs;
}

std::pair<int64_t, int64_t>
Roller::consistentIterations(const Run &run,
                             std::vector<Source> &sources) const {
  int64_t p = run.period, n = run.iterations, middle = n / 2;
  int64_t first = 0, last = n - 1;
  // The iterations around `middle` within [first, last] where `ok`.
  auto extent = [&](auto ok) {
    int64_t lo = first, hi = last;
    for (int64_t t = middle - 1; t >= first; --t)
      if (!ok(t)) {
        lo = t + 1;
        break;
      }
    for (int64_t t = middle + 1; t <= last; ++t)
      if (!ok(t)) {
        hi = t - 1;
        break;
      }
    return std::make_pair(lo, hi);
  };
  // Keeps [first, last] to that extent.
  auto restrict = [&](auto ok) { std::tie(first, last) = extent(ok); };
  sources.clear();
  for (int64_t j = 0; j < p; ++j) {
    auto at = [&](int64_t t) { return ops[run.start + t * p + j]; };
    restrict([&](int64_t t) {
      return OperationEquivalence::isEquivalentTo(
          at(t), at(middle),
          [](Value x, Value y) { return success(x.getType() == y.getType()); },
          nullptr, OperationEquivalence::IgnoreLocations);
    });
    for (unsigned o = 0; o < at(middle)->getNumOperands(); ++o) {
      auto operand = [&](int64_t t) { return at(t)->getOperand(o); };
      Source source;
      Value v = operand(middle);
      int64_t def = definedAt(v);
      bool same = true;
      for (int64_t t = first; t <= last && same; ++t)
        same = operand(t) == v;
      auto constant = v.getDefiningOp<arith::ConstantOp>();
      bool integer = constant && isa<IntegerAttr>(constant.getValue()) &&
                     !constant.getType().isInteger(1) && n > 1;
      if (def >= run.start) {
        source.kind = Source::Carried;
        source.slot = (def - run.start) % p;
        source.distance = middle - (def - run.start) / p;
        source.result = cast<OpResult>(v).getResultNumber();
        // Before `distance` iterations, the value comes from before the
        // loop (the queue's initial entries); after, from the same op.
        restrict([&](int64_t t) {
          Value u = operand(t);
          int64_t at = definedAt(u);
          if (t < source.distance)
            return at < run.start;
          int64_t expected =
              run.start + (t - source.distance) * p + source.slot;
          return at == expected &&
                 cast<OpResult>(u).getResultNumber() == source.result;
        });
      } else if (integer && !same) {
        auto valueAt = [&](int64_t t) -> std::optional<int64_t> {
          auto c = operand(t).getDefiningOp<arith::ConstantOp>();
          if (!c || definedAt(operand(t)) >= run.start)
            return std::nullopt;
          auto attr = dyn_cast<IntegerAttr>(c.getValue());
          if (!attr || attr.getType() != constant.getType())
            return std::nullopt;
          return attr.getValue().trySExtValue();
        };
        source.kind = Source::Affine;
        source.type = constant.getType();
        // base + t * step, or nothing where it overflows.
        auto expected = [](int64_t base, int64_t step,
                           int64_t t) -> std::optional<int64_t> {
          std::optional<int64_t> product = llvm::checkedMul(t, step);
          return product ? llvm::checkedAdd(base, *product) : std::nullopt;
        };
        // The step from the neighbour on either side; the one that holds
        // for more iterations wins (0, 1, 2, 3, 8, 9, 10: the side of the
        // jump loses).
        std::optional<int64_t> here = valueAt(middle);
        int64_t best = -1;
        for (int64_t neighbour : {middle + 1, middle - 1}) {
          if (!here || neighbour < first || neighbour > last)
            continue;
          std::optional<int64_t> there = valueAt(neighbour);
          std::optional<int64_t> step =
              there ? llvm::checkedSub(*there, *here) : std::nullopt;
          if (step && neighbour < middle)
            step = llvm::checkedMul(*step, int64_t(-1));
          std::optional<int64_t> offset =
              step ? llvm::checkedMul(middle, *step) : std::nullopt;
          std::optional<int64_t> base =
              offset ? llvm::checkedSub(*here, *offset) : std::nullopt;
          if (!base)
            continue;
          auto [lo, hi] = extent([&](int64_t t) {
            std::optional<int64_t> c = valueAt(t);
            return c && c == expected(*base, *step, t);
          });
          if (hi - lo > best) {
            best = hi - lo;
            source.base = *base;
            source.step = *step;
          }
        }
        if (best < 0) // no neighbour, or the arithmetic overflows
          last = first = middle;
        else
          restrict([&](int64_t t) {
            std::optional<int64_t> c = valueAt(t);
            return c && c == expected(source.base, source.step, t);
          });
      } else {
        // The same value in every repeat (a constant that does not change
        // is not made affine).
        source.kind = Source::Invariant;
        source.value = v;
        restrict([&](int64_t t) { return operand(t) == v; });
      }
      sources.push_back(source);
    }
  }
  return {first, last};
}

bool Roller::rollOne() {
  // The candidates, the most ops saved first; a run whose repeats break
  // their pattern gives way to the stretches that keep it, and the parts
  // cut off are candidates again. At most 64 tries.
  SmallVector<Run> work = candidateRuns();
  auto saved = [](const Run &r) { return (r.iterations - 1) * r.period; };
  std::vector<Source> sources;
  for (int tries = 0; tries < 64 && !work.empty(); ++tries) {
    auto best = llvm::max_element(
        work, [&](const Run &x, const Run &y) { return saved(x) < saved(y); });
    Run run = *best;
    work.erase(best);
    auto [first, last] = consistentIterations(run, sources);
    if (first == 0 && last == run.iterations - 1) {
      if (build(run, sources))
        return true;
      continue;
    }
    for (Run part :
         {Run{run.start, run.period, first},
          Run{run.start + first * run.period, run.period, last - first + 1},
          Run{run.start + (last + 1) * run.period, run.period,
              run.iterations - last - 1}})
      if (part.iterations >= minIterations)
        work.push_back(part);
  }
  return false;
}

bool Roller::build(const Run &run, const std::vector<Source> &sources) {
  int64_t p = run.period, n = run.iterations;
  auto at = [&](int64_t t, int64_t j) { return ops[run.start + t * p + j]; };
  // The queues: as long as the furthest use, in the loop or after it.
  std::map<QueueKey, int64_t> length;
  for (const Source &s : sources)
    if (s.kind == Source::Carried && s.distance > 0)
      length[{s.slot, s.result}] =
          std::max(length[{s.slot, s.result}], s.distance);
  for (int64_t t = 0; t < n; ++t)
    for (int64_t j = 0; j < p; ++j)
      for (OpResult r : at(t, j)->getResults())
        for (OpOperand &use : r.getUses()) {
          Operation *user = block.findAncestorOpInBlock(*use.getOwner());
          if (!user || user->hasTrait<OpTrait::IsTerminator>() ||
              position.lookup(user) >= run.end()) {
            int64_t &q = length[{j, r.getResultNumber()}];
            q = std::max(q, n - t);
          }
        }
  for (auto [key, q] : length)
    if (q > kMaxDistance || resultOnStack(at(0, key.first)))
      return false;

  OpBuilder b(at(0, 0));
  Location loc = at(0, 0)->getLoc();
  // Initial queue entries: the values the first iterations take from
  // before the loop; entries no iteration reads are poison.
  std::map<QueueKey, SmallVector<Value>> initial;
  for (auto [key, q] : length)
    initial[key].assign(q, Value());
  size_t k = 0;
  for (int64_t j = 0; j < p; ++j)
    for (unsigned o = 0; o < at(0, j)->getNumOperands(); ++o, ++k) {
      const Source &s = sources[k];
      if (s.kind != Source::Carried || s.distance == 0)
        continue;
      SmallVector<Value> &queue = initial[{s.slot, s.result}];
      int64_t q = queue.size();
      for (int64_t t = 0; t < s.distance && t < n; ++t) {
        Value v = at(t, j)->getOperand(o);
        Value &entry = queue[q - s.distance + t];
        if (entry && entry != v)
          return false;
        entry = v;
      }
    }
  // Each queue's first iteration argument.
  std::map<QueueKey, size_t> firstArgument;
  size_t arguments = 0;
  for (auto [key, q] : length) {
    firstArgument[key] = arguments;
    arguments += q;
  }
  SmallVector<Value> inits;
  for (auto &[key, queue] : initial)
    for (Value &v : queue) {
      if (!v)
        v = ub::PoisonOp::create(
            b, loc, at(0, key.first)->getResult(key.second).getType());
      inits.push_back(v);
    }

  Value lower = arith::ConstantIndexOp::create(b, loc, 0);
  Value upper = arith::ConstantIndexOp::create(b, loc, n);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto loop = scf::ForOp::create(
      b, loc, lower, upper, one, inits,
      [&](OpBuilder &nb, Location, Value iv, ValueRange args) {
        std::map<QueueKey, ValueRange> queues;
        for (auto [key, q] : length)
          queues[key] = args.slice(firstArgument[key], q);
        DenseMap<std::tuple<int64_t, int64_t, Type>, Value> affine;
        DenseMap<Type, Value> ivAs;
        auto affineValue = [&](const Source &s) {
          Value &v = affine[{s.base, s.step, s.type}];
          if (v)
            return v;
          Value &i = ivAs[s.type];
          if (!i)
            i = s.type.isIndex()
                    ? iv
                    : arith::IndexCastOp::create(nb, loc, s.type, iv);
          auto c = [&](int64_t x) {
            return arith::ConstantOp::create(nb, loc,
                                             nb.getIntegerAttr(s.type, x));
          };
          v = arith::AddIOp::create(
              nb, loc, c(s.base), arith::MulIOp::create(nb, loc, c(s.step), i));
          return v;
        };
        SmallVector<Operation *> body;
        size_t k = 0;
        for (int64_t j = 0; j < p; ++j) {
          // The operands first: an affine one is computed before its use.
          SmallVector<Value> operands;
          for (unsigned o = 0; o < at(0, j)->getNumOperands(); ++o, ++k) {
            const Source &s = sources[k];
            Value v = s.value;
            if (s.kind == Source::Affine)
              v = affineValue(s);
            else if (s.kind == Source::Carried && s.distance == 0)
              v = body[s.slot]->getResult(s.result);
            else if (s.kind == Source::Carried) {
              ValueRange queue = queues[{s.slot, s.result}];
              v = queue[queue.size() - s.distance];
            }
            operands.push_back(v);
          }
          Operation *op = nb.clone(*at(0, j));
          op->setOperands(operands);
          body.push_back(op);
        }
        SmallVector<Value> yields;
        for (auto [key, q] : length) {
          ValueRange queue = queues[key];
          yields.append(queue.begin() + 1, queue.end());
          yields.push_back(body[key.first]->getResult(key.second));
        }
        scf::YieldOp::create(nb, loc, yields);
      });
  loop->setAttr("pp.rolled", b.getUnitAttr());

  // Uses after the loop read its results: entry i of a queue holds
  // iteration n - length + i.
  for (auto [key, q] : length)
    for (int64_t t = std::max<int64_t>(0, n - q); t < n; ++t)
      at(t, key.first)
          ->getResult(key.second)
          .replaceAllUsesWith(loop.getResult(firstArgument[key] + q - (n - t)));
  for (int64_t i = run.end() - 1; i >= run.start; --i)
    ops[i]->erase();
  return true;
}

int64_t mlir::pp::rollRankProgram(func::FuncOp program, int64_t minIterations) {
  if (program.isExternal() || !program.getBody().hasOneBlock())
    return 0;
  MLIRContext *context = program.getContext();
  context->getOrLoadDialect<arith::ArithDialect>();
  context->getOrLoadDialect<scf::SCFDialect>();
  context->getOrLoadDialect<ub::UBDialect>();
  int64_t loops = 0;
  // Each roll leaves the ops before and after it, which may repeat too
  // (a schedule with two steady phases).
  for (; loops < 8; ++loops) {
    Roller roller(program.getBody().front(),
                  std::max<int64_t>(2, minIterations));
    if (!roller.rollOne())
      break;
  }
  return loops;
}

namespace {
struct PPRollRankProgramsPass
    : mlir::pp::impl::PPRollRankProgramsPassBase<PPRollRankProgramsPass> {
  using Base::Base;
  void runOnOperation() override {
    func::FuncOp fn = getOperation();
    if (fn->hasAttr("pp.rank"))
      mlir::pp::rollRankProgram(fn, minIterations);
  }
};
} // namespace
