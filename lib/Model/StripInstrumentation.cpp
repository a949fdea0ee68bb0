//===- StripInstrumentation.cpp - pp-strip-instrumentation ----------------===//
//
// Removes the side-effecting instrumentation (timers, prints) that models
// exported by other tools carry, and that pp-autodiff cannot differentiate.
// See docs/ModelConventions.md.
//
//===----------------------------------------------------------------------===//

#include "pp/Model/Passes.h"
#include "pp/Support/Diagnostics.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::pp {
#define GEN_PASS_DEF_PPSTRIPINSTRUMENTATIONPASS
#include "pp/Model/Passes.h.inc"
} // namespace mlir::pp

using namespace mlir;
using namespace mlir::pp;

namespace {
struct PPStripInstrumentationPass
    : mlir::pp::impl::PPStripInstrumentationPassBase<
          PPStripInstrumentationPass> {
  using Base::Base;
  void runOnOperation() override;
  /// Strips `function`; adds the symbols its removed ops referred to.
  void strip(FunctionOpInterface function,
             llvm::SetVector<StringAttr> &referenced);
};

/// The callee of a direct call without tensor results, or null.
SymbolRefAttr instrumentationCallee(Operation *op) {
  auto call = dyn_cast<CallOpInterface>(op);
  if (!call)
    return nullptr;
  if (llvm::any_of(op->getResultTypes(),
                   [](Type type) { return isa<TensorType>(type); }))
    return nullptr;
  return dyn_cast_if_present<SymbolRefAttr>(call.getCallableForCallee());
}

/// Whether `symbol` can be seen only from inside the module: private
/// visibility, or (LLVM dialect) private or internal linkage, or an LLVM
/// function declaration.
bool isModuleLocal(Operation *symbol) {
  auto isLocal = [](LLVM::Linkage linkage) {
    return linkage == LLVM::Linkage::Private ||
           linkage == LLVM::Linkage::Internal;
  };
  if (auto global = dyn_cast<LLVM::GlobalOp>(symbol))
    return isLocal(global.getLinkage());
  if (auto function = dyn_cast<LLVM::LLVMFuncOp>(symbol))
    return function.isExternal() || isLocal(function.getLinkage());
  auto symbolOp = dyn_cast<SymbolOpInterface>(symbol);
  return symbolOp && symbolOp.isPrivate();
}

/// Adds the root names of the symbols `op`'s attributes refer to.
void collectReferences(Operation *op, llvm::SetVector<StringAttr> &names) {
  op->getAttrDictionary().walk(
      [&](SymbolRefAttr ref) { names.insert(ref.getRootReference()); });
}
} // namespace

void PPStripInstrumentationPass::strip(
    FunctionOpInterface function, llvm::SetVector<StringAttr> &referenced) {
  // Find, to a fixed point, the ops to remove: instrumentation calls and
  // side-effect-free ops whose results are used only by removed ops.
  SmallVector<Operation *> ops;
  function.getFunctionBody().walk([&](Operation *op) {
    if (op->getNumRegions() == 0 && !op->hasTrait<OpTrait::IsTerminator>())
      ops.push_back(op);
  });
  // Ops computed from instrumentation calls (a duration from two
  // timestamps): removable even when nothing uses them.
  llvm::DenseSet<Operation *> derived;
  for (Operation *op : ops) {
    if (instrumentationCallee(op) ||
        (isMemoryEffectFree(op) &&
         llvm::any_of(op->getOperands(), [&](Value operand) {
           return derived.contains(operand.getDefiningOp());
         })))
      derived.insert(op);
  }
  llvm::DenseSet<Operation *> removed;
  auto onlyFeedsRemoved = [&](Operation *op) {
    return llvm::all_of(op->getUsers(), [&](Operation *user) {
      return removed.contains(user);
    });
  };
  bool changed = true;
  while (changed) {
    changed = false;
    for (Operation *op : llvm::reverse(ops)) {
      if (removed.contains(op))
        continue;
      bool removable;
      if (instrumentationCallee(op))
        removable = onlyFeedsRemoved(op);
      else
        removable = isMemoryEffectFree(op) &&
                    (!op->use_empty() || derived.contains(op)) &&
                    onlyFeedsRemoved(op);
      if (removable) {
        removed.insert(op);
        changed = true;
      }
    }
  }
  if (removed.empty())
    return;

  // Report, then erase.
  llvm::MapVector<StringAttr, int64_t> callsByCallee;
  int64_t numCalls = 0, numOthers = 0;
  SmallVector<Operation *> toErase;
  for (Operation *op : ops) {
    if (!removed.contains(op))
      continue;
    toErase.push_back(op);
    collectReferences(op, referenced);
    if (SymbolRefAttr callee = instrumentationCallee(op)) {
      ++callsByCallee[callee.getRootReference()];
      ++numCalls;
    } else {
      ++numOthers;
    }
  }
  InFlightDiagnostic remark = mlir::emitRemark(function.getLoc(), "removed ")
                              << numCalls
                              << (numCalls == 1 ? " call" : " calls") << " (";
  llvm::interleaveComma(callsByCallee, remark, [&](const auto &entry) {
    remark << entry.second << " to @" << entry.first.getValue();
  });
  remark << ") and " << numOthers
         << (numOthers == 1 ? " operation" : " operations")
         << " that only fed them from @" << function.getName();
  remark.report();

  for (Operation *op : toErase)
    op->dropAllReferences();
  for (Operation *op : toErase)
    op->erase();
}

void PPStripInstrumentationPass::runOnOperation() {
  ModuleOp module = getOperation();
  SmallVector<FunctionOpInterface> functions;
  if (!functionName.empty()) {
    auto function = lookupFunction(module, functionName);
    if (!function)
      return signalPassFailure();
    if (function.isExternal()) {
      mlir::emitError(function.getLoc(), "@")
          << functionName << " is a declaration; it has no body to strip";
      return signalPassFailure();
    }
    functions.push_back(function);
  } else {
    for (auto function : module.getOps<func::FuncOp>())
      if (!function.isExternal())
        functions.push_back(function);
  }

  llvm::SetVector<StringAttr> referenced;
  for (FunctionOpInterface function : functions)
    strip(function, referenced);

  // Erase the private symbols the removed ops referred to that nothing uses
  // any more (and, in turn, what those referred to).
  SmallVector<StringRef> erased;
  SymbolTable symbols(module);
  for (size_t i = 0; i < referenced.size(); ++i) {
    Operation *symbol = symbols.lookup(referenced[i]);
    if (!symbol)
      continue;
    if (!isModuleLocal(symbol) ||
        !SymbolTable::symbolKnownUseEmpty(symbol, module))
      continue;
    symbol->walk(
        [&](Operation *nested) { collectReferences(nested, referenced); });
    erased.push_back(referenced[i].getValue());
    symbols.erase(symbol);
  }
  if (!erased.empty()) {
    InFlightDiagnostic remark = mlir::emitRemark(module.getLoc(), "erased ")
                                << erased.size() << " unused private "
                                << (erased.size() == 1 ? "symbol" : "symbols")
                                << ": ";
    llvm::interleaveComma(erased, remark,
                          [&](StringRef name) { remark << "@" << name; });
  }
}
