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
      fn->setAttr("passthrough", b.getArrayAttr({b.getStringAttr("noinline"),
                                                 b.getStringAttr("optnone")}));
}

/// Whether `fn` is one block that takes and returns no buffer and whose
/// buffers all come from memref.alloc, memref.alloca or memref.get_global,
/// directly or through views, with no op that has regions: then every
/// memref.alloc of it is freed by it, and nothing else.
static bool ownsEveryBuffer(func::FuncOp fn) {
  auto isBuffer = [](Type t) { return isa<BaseMemRefType>(t); };
  if (fn.isExternal() || !fn.getBody().hasOneBlock() ||
      llvm::any_of(fn.getArgumentTypes(), isBuffer) ||
      llvm::any_of(fn.getResultTypes(), isBuffer))
    return false;
  for (Operation &op : fn.getBody().front()) {
    if (op.getNumRegions() != 0)
      return false;
    if (llvm::any_of(op.getResultTypes(), isBuffer) &&
        !isa<memref::AllocOp, memref::AllocaOp, memref::GetGlobalOp,
             memref::CastOp, ViewLikeOpInterface>(op))
      return false;
  }
  return true;
}

SmallVector<DetachedFunction>
mlir::pp::exec::detail::detachRankPrograms(ModuleOp module) {
  SmallVector<func::FuncOp> functions;
  for (auto fn : module.getOps<func::FuncOp>()) {
    if (!isRankProgram(fn))
      continue;
    functions.push_back(fn);
    // Its callers (the entry wrappers) go with it: no symbol use may
    // dangle in the module that the pipeline verifies.
    if (std::optional<SymbolTable::UseRange> uses =
            SymbolTable::getSymbolUses(fn, module))
      for (const SymbolTable::SymbolUse &use : *uses)
        if (auto caller = use.getUser()->getParentOfType<func::FuncOp>())
          functions.push_back(caller);
  }
  llvm::SetVector<func::FuncOp> unique(functions.begin(), functions.end());
  if (!llvm::all_of(unique, ownsEveryBuffer))
    return {};
  SmallVector<DetachedFunction> detached;
  for (func::FuncOp fn : unique) {
    detached.push_back({fn, fn->getNextNode()});
    fn->remove();
  }
  return detached;
}

void mlir::pp::exec::detail::reattachWithDeallocations(
    ModuleOp module, ArrayRef<DetachedFunction> detached) {
  // In reverse: the op a function was taken out before is back in place.
  for (DetachedFunction d : llvm::reverse(detached)) {
    Block &body = *module.getBody();
    body.getOperations().insert(d.next ? d.next->getIterator() : body.end(),
                                d.function);
    Block &block = d.function.getBody().front();
    OpBuilder b(block.getTerminator());
    for (auto alloc : llvm::to_vector(block.getOps<memref::AllocOp>()))
      memref::DeallocOp::create(b, alloc.getLoc(), alloc.getResult());
  }
}
