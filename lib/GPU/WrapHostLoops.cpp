//===- WrapHostLoops.cpp - pp-gpu-wrap-host-loops -------------------------===//
//
// A step of pp-lower-stages-to-gpu (Pipelines.cpp); docs/GPU.md describes
// the pipeline.
//
//===----------------------------------------------------------------------===//

#include "pp/GPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::pp {
#define GEN_PASS_DEF_PPGPUWRAPHOSTLOOPSPASS
#include "pp/GPU/Passes.h.inc"
} // namespace mlir::pp

using namespace mlir;

/// Whether `op` reads or writes buffer contents on the host: loads, stores,
/// copies, and loops (without results) holding such operations.
static bool touchesBuffers(Operation *op) {
  if (isa<memref::LoadOp, memref::StoreOp, memref::CopyOp>(op))
    return true;
  // Loops and conditionals (any op with regions other than a parallel loop,
  // which gpu-map-parallel-loops maps itself) that access buffers inside.
  if (op->getNumRegions() == 0 || isa<scf::ParallelOp, gpu::LaunchOp>(op))
    return false;
  return op
      ->walk([](Operation *inner) {
        return isa<memref::LoadOp, memref::StoreOp>(inner)
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

/// Scalar arithmetic that may travel into a kernel with the accesses.
static bool isScalarArithmetic(Operation *op) {
  return op->getNumRegions() == 0 && isPure(op) &&
         llvm::all_of(op->getResultTypes(),
                      [](Type t) { return t.isIntOrIndexOrFloat(); });
}

/// Wraps `group` (consecutive operations of one block) in
/// scf.parallel (0 to 1) { scf.parallel (0 to 1) { group } }; `deferred`
/// (frees between the group's operations) move after it.
static void wrapInOneThread(ArrayRef<Operation *> group,
                            ArrayRef<Operation *> deferred) {
  OpBuilder b(group.front());
  Location loc = group.front()->getLoc();
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Block *threadBody = nullptr;
  scf::ParallelOp::create(
      b, loc, ValueRange{zero}, ValueRange{one}, ValueRange{one},
      [&](OpBuilder &outer, Location loc, ValueRange) {
        scf::ParallelOp::create(outer, loc, ValueRange{zero}, ValueRange{one},
                                ValueRange{one},
                                [&](OpBuilder &inner, Location, ValueRange) {
                                  threadBody = inner.getInsertionBlock();
                                });
      });
  for (Operation *op : group)
    op->moveBefore(threadBody->getTerminator());
  Operation *wrapper = threadBody->getParentOp()->getParentOp();
  for (Operation *op : llvm::reverse(deferred))
    op->moveAfter(wrapper);
}

namespace {
struct PPGPUWrapHostLoopsPass
    : mlir::pp::impl::PPGPUWrapHostLoopsPassBase<PPGPUWrapHostLoopsPass> {
  void runOnOperation() override {
    func::FuncOp fn = getOperation();
    if (fn.isExternal())
      return;
    for (Block &block : fn.getBody()) {
      // Maximal runs: they start and end with an access and hold only
      // accesses and scalar arithmetic.
      // Frees (gpu.dealloc, placed right after a buffer's last use) inside a
      // run do not end it: they move after it.
      SmallVector<SmallVector<Operation *>> groups, deferredFrees;
      SmallVector<Operation *> current, deferred;
      auto close = [&] {
        while (!current.empty() && !touchesBuffers(current.back()))
          current.pop_back();
        SmallVector<Operation *> inside;
        for (Operation *free : deferred)
          if (!current.empty() && free->isBeforeInBlock(current.back()))
            inside.push_back(free);
        if (!current.empty()) {
          groups.push_back(current);
          deferredFrees.push_back(inside);
        }
        current.clear();
        deferred.clear();
      };
      for (Operation &op : block) {
        if (touchesBuffers(&op))
          current.push_back(&op);
        else if (!current.empty() && isScalarArithmetic(&op))
          current.push_back(&op);
        else if (!current.empty() && isa<gpu::DeallocOp>(op))
          deferred.push_back(&op);
        else
          close();
      }
      close();
      for (auto [run, frees] : llvm::zip(groups, deferredFrees)) {
        // Scalar arithmetic that host code after the run uses and that does
        // not depend on the run's accesses stays on the host, before the
        // kernel; anything else the host uses keeps the run on the host.
        llvm::SmallPtrSet<Operation *, 16> members(run.begin(), run.end());
        auto escapes = [&](Operation *op) {
          return llvm::any_of(op->getUsers(), [&](Operation *user) {
            return !members.contains(block.findAncestorOpInBlock(*user));
          });
        };
        llvm::SmallPtrSet<Operation *, 16> dependsOnAccess, hoist;
        for (Operation *op : run)
          if (touchesBuffers(op) ||
              llvm::any_of(op->getOperands(), [&](Value v) {
                Operation *def = v.getDefiningOp();
                return def && dependsOnAccess.contains(def);
              }))
            dependsOnAccess.insert(op);
        // Users come after their operands: one backward sweep finds the
        // scalars that escape or feed one that is hoisted.
        for (Operation *op : llvm::reverse(run))
          if (!dependsOnAccess.contains(op) &&
              (escapes(op) ||
               llvm::any_of(op->getUsers(), [&](Operation *user) {
                 return hoist.contains(user);
               })))
            hoist.insert(op);
        SmallVector<Operation *> hoisted, group;
        for (Operation *op : run)
          (hoist.contains(op) ? hoisted : group).push_back(op);
        members.clear();
        members.insert(group.begin(), group.end());
        if (llvm::any_of(group, escapes))
          continue;
        for (Operation *op : hoisted)
          op->moveBefore(group.front());
        wrapInOneThread(group, frees);
      }
    }

    // What is left on the host must not touch buffer contents.
    WalkResult result = fn.walk([](Operation *op) {
      if (!isa<memref::LoadOp, memref::StoreOp, memref::CopyOp>(op) ||
          op->getParentOfType<scf::ParallelOp>() ||
          op->getParentOfType<gpu::LaunchOp>())
        return WalkResult::advance();
      op->emitError("host code accesses a buffer, which lives in GPU "
                    "memory, and pp-gpu-wrap-host-loops cannot move it into "
                    "a kernel (host code uses a value computed from buffer "
                    "contents, or the access is inside an op with results)");
      return WalkResult::interrupt();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
