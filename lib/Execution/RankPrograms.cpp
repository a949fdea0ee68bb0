//===- RankPrograms.cpp - how the CPU lowering treats rank programs -------===//
//
// A rank program (convert-pp-to-runtime, attribute `pp.rank`) is one block
// of calls in the schedule's order: the stage functions' and the runtime's,
// a few per action, so its size grows with the number of micro-batches.
// Its speed does not matter next to its callees', but its compile time
// does: everything here keeps that time linear in its size
// (docs/Execution.md, "Rank programs").
//
//===----------------------------------------------------------------------===//

#include "CPULowering.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;
using namespace mlir::pp::exec::detail;

bool mlir::pp::exec::detail::isRankProgram(func::FuncOp fn) {
  return fn->hasAttr("pp.rank");
}

void mlir::pp::exec::detail::markRankProgramsUnoptimized(ModuleOp module) {
  Builder b(module.getContext());
  for (auto fn : module.getOps<func::FuncOp>())
    if (isRankProgram(fn))
      fn->setAttr("passthrough",
                  b.getArrayAttr(
                      {b.getStringAttr("noinline"), b.getStringAttr("optnone"),
                       b.getArrayAttr({b.getStringAttr(kRankProgramAttribute),
                                       b.getStringAttr("")})}));
}

/// Whether `fn` is one block that takes and returns no buffer and whose
/// buffers all come from memref.alloc, memref.alloca or memref.get_global,
/// directly or through views, with no op that has regions and no
/// memref.dealloc yet: then every memref.alloc of it is freed by it, and
/// nothing else.
static bool ownsEveryBuffer(func::FuncOp fn) {
  auto isBuffer = [](Type t) { return isa<BaseMemRefType>(t); };
  if (fn.isExternal() || !fn.getBody().hasOneBlock() ||
      llvm::any_of(fn.getArgumentTypes(), isBuffer) ||
      llvm::any_of(fn.getResultTypes(), isBuffer))
    return false;
  for (Operation &op : fn.getBody().front()) {
    if (op.getNumRegions() != 0 || isa<memref::DeallocOp>(op))
      return false;
    if (llvm::any_of(op.getResultTypes(), isBuffer) &&
        !isa<memref::AllocOp, memref::AllocaOp, memref::GetGlobalOp,
             memref::CastOp, ViewLikeOpInterface>(op))
      return false;
  }
  return true;
}

/// The function at the top of `module` that holds `op`, or null.
static func::FuncOp topLevelFunction(Operation *op, ModuleOp module) {
  while (op && op->getParentOp() != module.getOperation())
    op = op->getParentOp();
  return dyn_cast_or_null<func::FuncOp>(op);
}

SmallVector<func::FuncOp>
mlir::pp::exec::detail::detachRankPrograms(ModuleOp module) {
  // The rank programs and, transitively, the functions that refer to them
  // (the entry wrappers): no symbol use may dangle in the module that the
  // pipeline verifies.
  llvm::SetVector<func::FuncOp> functions;
  for (auto fn : module.getOps<func::FuncOp>())
    if (isRankProgram(fn))
      functions.insert(fn);
  for (size_t i = 0; i < functions.size(); ++i) {
    std::optional<SymbolTable::UseRange> uses =
        SymbolTable::getSymbolUses(functions[i], module);
    if (!uses)
      return {};
    for (const SymbolTable::SymbolUse &use : *uses) {
      func::FuncOp user = topLevelFunction(use.getUser(), module);
      if (!user)
        return {};
      functions.insert(user);
    }
  }
  if (!llvm::all_of(functions, ownsEveryBuffer))
    return {};
  for (func::FuncOp fn : functions)
    fn->remove();
  return functions.takeVector();
}

void mlir::pp::exec::detail::reattachWithDeallocations(
    ModuleOp module, ArrayRef<func::FuncOp> detached) {
  for (func::FuncOp fn : detached) {
    module.getBody()->push_back(fn);
    Block &block = fn.getBody().front();
    OpBuilder b(block.getTerminator());
    for (auto alloc : llvm::to_vector(block.getOps<memref::AllocOp>()))
      memref::DeallocOp::create(b, alloc.getLoc(), alloc.getResult());
  }
}
