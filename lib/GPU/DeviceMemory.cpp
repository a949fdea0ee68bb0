//===- DeviceMemory.cpp - pp-gpu-device-memory ----------------------------===//
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
#define GEN_PASS_DEF_PPGPUDEVICEMEMORYPASS
#include "pp/GPU/Passes.h.inc"
} // namespace mlir::pp

using namespace mlir;

/// Inserts `gpu.dealloc %buffer` before the return of the function body
/// block holding `op`; fails if `op` is not in that block.
static LogicalResult deallocAtReturn(Operation *op, Value buffer) {
  Block *block = op->getBlock();
  if (!isa<func::FuncOp>(op->getParentOp()) || block->empty() ||
      !isa<func::ReturnOp>(block->getTerminator()))
    return op->emitOpError("is not at the top level of a one-block function; "
                           "pp-gpu-device-memory cannot place its device "
                           "buffer's gpu.dealloc");
  OpBuilder b(block->getTerminator());
  gpu::DeallocOp::create(b, op->getLoc(), TypeRange(), ValueRange(), buffer);
  return success();
}

/// Where the device buffer `dealloc` frees can be freed: right after its
/// last use. Upstream's ownership-based deallocation frees every buffer at
/// the end of its block, so a rank program (one block for the whole step)
/// would hold every buffer of the step at once, and the device pool would
/// need the sum of them instead of the live set the memory plan predicts.
/// A use is any operation in the block that takes the buffer or a value
/// derived from it (views, casts, its address as an index, ...: the
/// closure over results of users), or holds one in a nested region (whose
/// results are derived values too: a region may yield the buffer).
/// Buffers not allocated in the dealloc's block keep the original place.
static Operation *deallocPoint(memref::DeallocOp dealloc) {
  Value buffer = dealloc.getMemref();
  Block *block = dealloc->getBlock();
  Operation *def = buffer.getDefiningOp();
  if (!def || def->getBlock() != block)
    return dealloc;
  Operation *last = def;
  SmallVector<Value> worklist = {buffer};
  DenseSet<Value> seen = {buffer};
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    for (Operation *user : v.getUsers()) {
      if (user == dealloc)
        continue;
      Operation *inBlock = block->findAncestorOpInBlock(*user);
      if (!inBlock)
        return dealloc; // used outside the block: keep the original place
      if (last->isBeforeInBlock(inBlock))
        last = inBlock;
      // A use in a nested region may leave it through a yield: the results
      // of the op in the block that holds it may alias the buffer too.
      for (Operation *op : {user, inBlock})
        for (Value result : op->getResults())
          if (seen.insert(result).second)
            worklist.push_back(result);
    }
  }
  return last->getNextNode();
}

namespace {
struct PPGPUDeviceMemoryPass
    : mlir::pp::impl::PPGPUDeviceMemoryPassBase<PPGPUDeviceMemoryPass> {
  void runOnOperation() override {
    func::FuncOp fn = getOperation();
    if (fn.isExternal())
      return;
    SmallVector<Operation *> ops;
    fn.walk([&](Operation *op) {
      if (isa<memref::AllocOp, memref::AllocaOp, memref::DeallocOp,
              memref::GetGlobalOp, memref::CopyOp>(op))
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      OpBuilder b(op);
      Location loc = op->getLoc();
      // memref.alloc or memref.alloca: the same buffer in device memory.
      auto onDevice = [&](auto hostAlloc) {
        auto device = gpu::AllocOp::create(
            b, loc, hostAlloc.getType(), Type(), ValueRange(),
            hostAlloc.getDynamicSizes(), hostAlloc.getSymbolOperands());
        hostAlloc.replaceAllUsesWith(device.getMemref());
        return device;
      };
      if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
        onDevice(alloc);
      } else if (auto alloca = dyn_cast<memref::AllocaOp>(op)) {
        gpu::AllocOp device = onDevice(alloca);
        if (failed(deallocAtReturn(device, device.getMemref())))
          return signalPassFailure();
      } else if (auto dealloc = dyn_cast<memref::DeallocOp>(op)) {
        b.setInsertionPoint(deallocPoint(dealloc));
        gpu::DeallocOp::create(b, loc, TypeRange(), ValueRange(),
                               dealloc.getMemref());
      } else if (auto global = dyn_cast<memref::GetGlobalOp>(op)) {
        // Constants live in host memory: copy them into a device buffer
        // once per call.
        b.setInsertionPointAfter(global);
        auto device =
            gpu::AllocOp::create(b, loc, global.getType(), Type(), ValueRange(),
                                 ValueRange(), ValueRange());
        global.getResult().replaceAllUsesWith(device.getMemref());
        gpu::MemcpyOp::create(b, loc, TypeRange(), ValueRange(),
                              device.getMemref(), global.getResult());
        if (failed(deallocAtReturn(device, device.getMemref())))
          return signalPassFailure();
        continue;
      } else if (auto copy = dyn_cast<memref::CopyOp>(op)) {
        linalg::CopyOp::create(b, loc, copy.getSource(), copy.getTarget());
      }
      op->erase();
    }
  }
};
} // namespace
