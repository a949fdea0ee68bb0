//===- Memory.cpp - Device memory of the CUDA plugin ----------------------===//
//
// The ranks' memory pools (mgpuMemAlloc sub-allocates from the bound rank's
// pool; a freed block becomes reusable once the rank's communication streams
// are past the free, see Device.cpp), the device-memory hooks, and the other
// mgpu* memory functions: copies, memsets, host registration.
//
//===----------------------------------------------------------------------===//

#include "Device.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <thread>

using namespace pprt;
using namespace pprt::cuda;

std::function<void()> pprt::cuda::endCommunicationGroup;

void pprt::cuda::reclaim(RankState &r, bool wait) {
  // Waiting is bounded by the timeout: a block a receive still fills may
  // wait on a peer that waits on this rank.
  auto deadline = std::chrono::steady_clock::now() +
                  std::chrono::duration<double>(waitTimeout());
  for (auto it = r.pending.begin(); it != r.pending.end();) {
    bool done = true;
    for (CUevent event : it->events) {
      CUresult result = cuEventQuery(event);
      while (wait && result == CUDA_ERROR_NOT_READY &&
             std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::microseconds(50));
        result = cuEventQuery(event);
      }
      if (result == CUDA_ERROR_NOT_READY) {
        if (wait)
          reportError("cuda error: rank " + std::to_string(r.rank) +
                      " timed out waiting for its communication streams to "
                      "release freed pool blocks");
        done = false;
        break;
      }
      if (result != CUDA_SUCCESS) {
        checkCu(result, "cuEventQuery (pending free)");
        done = false;
        break;
      }
    }
    if (!done) {
      ++it;
      continue;
    }
    for (CUevent event : it->events)
      r.spareEvents.push_back(event);
    r.pendingBytes -= r.pool.blockSize(it->offset);
    r.pool.release(it->offset);
    it = r.pending.erase(it);
  }
}

void pprt::cuda::hookCopy(int rank, void *dst, const void *src, int64_t bytes,
                          bool toHost) {
  RankState *r = openDevice() ? openDevice()->find(rank) : nullptr;
  if (!r) {
    reportError("cuda error: the device-memory hook was called for rank " +
                std::to_string(rank) + ", which was not added");
    return;
  }
  if (!ensureContext())
    return;
  // A grouped receive may fill `src`; a grouped send may still read `dst`:
  // end the group, and before writing device memory let the compute stream
  // wait for the communication streams (a send issued earlier may still
  // read `dst`).
  if (r->groupOpen && endCommunicationGroup)
    endCommunicationGroup();
  if (!toHost)
    for (CUstream comm : r->comm) {
      CUevent passed = takeEvent(*r);
      bool ok = checkCu(cuEventRecord(passed, comm), "cuEventRecord") &&
                checkCu(cuStreamWaitEvent(r->compute, passed, 0),
                        "cuStreamWaitEvent");
      giveEvent(*r, passed);
      if (!ok)
        return;
    }
  // Through pinned staging memory, so that the copy is asynchronous and
  // the wait below (bounded by the timeout) is the only one.
  auto size = static_cast<size_t>(bytes);
  if (size > r->stagingBytes) {
    if (r->staging)
      cuMemFreeHost(r->staging);
    r->staging = nullptr;
    r->stagingBytes = 0;
    if (!checkCu(cuMemAllocHost(&r->staging, size), "cuMemAllocHost"))
      return;
    r->stagingBytes = size;
  }
  if (!toHost)
    std::memcpy(r->staging, src, size);
  CUresult result =
      toHost ? cuMemcpyDtoHAsync(r->staging, reinterpret_cast<CUdeviceptr>(src),
                                 size, r->compute)
             : cuMemcpyHtoDAsync(reinterpret_cast<CUdeviceptr>(dst), r->staging,
                                 size, r->compute);
  if (!checkCu(result, toHost ? "cuMemcpyDtoHAsync" : "cuMemcpyHtoDAsync"))
    return;
  CUevent event = takeEvent(*r);
  std::string error;
  if (!checkCu(cuEventRecord(event, r->compute), "cuEventRecord")) {
    giveEvent(*r, event);
    return;
  }
  bool arrived =
      waitEvent(event,
                std::string("a copy ") + (toHost ? "from" : "to") +
                    " the device (" + std::to_string(bytes) + " bytes)",
                error);
  giveEvent(*r, event);
  if (!arrived) {
    reportError(error);
    return;
  }
  if (toHost)
    std::memcpy(dst, r->staging, size);
}

/// Queues the freed block at `offset` of `r`'s pool for reuse once the
/// rank's communication streams are past this point (an event on each).
/// Takes r.mutex; the caller must not hold it.
static void freeAfterCommunication(RankState &r, uint64_t offset) {
  RankState::PendingFree pending{offset, {}};
  for (CUstream comm : r.comm) {
    CUevent event = takeEvent(r);
    if (event && checkCu(cuEventRecord(event, comm), "cuEventRecord"))
      pending.events.push_back(event);
    else
      giveEvent(r, event);
  }
  std::lock_guard<std::mutex> lock(r.mutex);
  r.pending.push_back(std::move(pending));
}

void pprt::cuda::settleFreedInGroup(RankState &r) {
  std::vector<uint64_t> freed;
  {
    std::lock_guard<std::mutex> lock(r.mutex);
    freed.swap(r.freedInGroup);
  }
  for (uint64_t offset : freed)
    freeAfterCommunication(r, offset);
}

namespace {
/// A ranked memref descriptor: allocated, aligned, offset, sizes, strides.
struct MemRefDescriptor {
  char *allocated;
  char *aligned;
  int64_t offset;
  int64_t sizesAndStrides[1];
};

/// Sets `count` elements to `value` at `dst` on `stream` with `call`
/// (cuMemsetD32Async or cuMemsetD16Async, named `name` in errors).
template <typename T, typename Set>
void memsetAsync(Set call, const char *name, void *dst, T value, size_t count,
                 CUstream stream) {
  if (count && ensureContext())
    checkCu(call(reinterpret_cast<CUdeviceptr>(dst), value, count, stream),
            name);
}
} // namespace

extern "C" {

/// `bytes` bytes from the bound rank's pool (256-byte aligned); with
/// `isHostShared`, managed memory (cuMemAllocManaged). Without a binding,
/// plain cuMemAlloc. Exhaustion fails the rank and returns null.
void *mgpuMemAlloc(uint64_t bytes, CUstream stream, bool isHostShared) {
  (void)stream;
  DeviceImpl *dev = requireDevice("mgpuMemAlloc");
  if (!dev || !ensureContext())
    return nullptr;
  // Memory outside any pool (cuMemFree'd by mgpuMemFree).
  auto direct = [&](bool managed) -> void * {
    CUdeviceptr ptr = 0;
    uint64_t size = std::max<uint64_t>(bytes, 1);
    bool ok = managed
                  ? checkCu(cuMemAllocManaged(&ptr, size, CU_MEM_ATTACH_GLOBAL),
                            "cuMemAllocManaged")
                  : checkCu(cuMemAlloc(&ptr, size), "cuMemAlloc");
    if (!ok)
      return nullptr;
    std::lock_guard<std::mutex> lock(dev->mutex);
    dev->directBlocks.insert(ptr);
    return reinterpret_cast<void *>(ptr);
  };
  RankState *bound = boundRank();
  if (isHostShared || !bound)
    return direct(isHostShared);
  RankState &r = *bound;
  bool overflow = false;
  {
    std::lock_guard<std::mutex> lock(r.mutex);
    reclaim(r, false);
    uint64_t offset = 0;
    if (r.pool.allocate(bytes, offset))
      return reinterpret_cast<void *>(r.base + offset);
    if (r.pendingBytes > 0) {
      // Part of the pool waits for messages in flight. Waiting for them
      // here could deadlock (a send completes only when its peer posts the
      // receive, and the peer may be in the same situation): take memory
      // outside the pool instead and count it (PoolStats::overflow).
      r.overflowBytes += static_cast<int64_t>(bytes);
      overflow = true;
    }
  }
  if (overflow)
    return direct(false);
  reportError("cuda error: device memory pool of rank " +
              std::to_string(r.rank) + " exhausted: requested " +
              std::to_string(bytes) + " bytes; pool " +
              std::to_string(r.pool.size()) + " bytes, in use " +
              std::to_string(r.pool.inUse()) + " bytes, largest free range " +
              std::to_string(r.pool.largestFree()) + " bytes");
  // The step has failed; the program still runs to its end (the pprt_*
  // calls return at once), so hand it real memory outside the pool rather
  // than a null pointer its kernels would fault on.
  return direct(false);
}

/// Returns a block to its pool once the rank's communication streams are
/// past this point (see the file comment).
void mgpuMemFree(void *ptr, CUstream stream) {
  (void)stream;
  DeviceImpl *theDevice = openDevice();
  if (!ptr || !theDevice || !ensureContext())
    return;
  auto address = reinterpret_cast<CUdeviceptr>(ptr);
  if (RankState *r = theDevice->owner(address)) {
    uint64_t offset = address - r->base;
    {
      std::lock_guard<std::mutex> lock(r->mutex);
      uint64_t size = r->pool.blockSize(offset);
      if (size == 0) {
        reportError("cuda error: mgpuMemFree of an address that is not an "
                    "allocated block of rank " +
                    std::to_string(r->rank) + "'s pool");
        return;
      }
      r->pendingBytes += size;
      // A grouped ncclSend may read the block once the group ends: its
      // events are recorded then (settleFreedInGroup).
      if (r->groupOpen) {
        r->freedInGroup.push_back(offset);
        return;
      }
    }
    freeAfterCommunication(*r, offset);
    return;
  }
  {
    std::lock_guard<std::mutex> lock(theDevice->mutex);
    if (!theDevice->directBlocks.erase(address)) {
      reportError("cuda error: mgpuMemFree of an address the plugin did not "
                  "allocate");
      return;
    }
  }
  checkCu(cuMemFree(address), "cuMemFree");
}

/// Copies `bytes` bytes (any direction; unified addressing) on `stream`.
void mgpuMemcpy(void *dst, void *src, size_t bytes, CUstream stream) {
  if (bytes && ensureContext())
    checkCu(cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(dst),
                          reinterpret_cast<CUdeviceptr>(src), bytes, stream),
            "cuMemcpyAsync");
}

/// Sets `count` 32-bit words (16-bit for mgpuMemset16) on `stream`.
void mgpuMemset32(void *dst, unsigned int value, size_t count,
                  CUstream stream) {
  memsetAsync(cuMemsetD32Async, "cuMemsetD32Async", dst, value, count, stream);
}

void mgpuMemset16(void *dst, unsigned short value, size_t count,
                  CUstream stream) {
  memsetAsync(cuMemsetD16Async, "cuMemsetD16Async", dst, value, count, stream);
}

/// Page-locks host memory (`bytes` bytes) for faster copies.
void mgpuMemHostRegister(void *ptr, uint64_t bytes) {
  if (ensureContext())
    checkCu(cuMemHostRegister(ptr, bytes, 0), "cuMemHostRegister");
}

void mgpuMemHostUnregister(void *ptr) {
  if (ensureContext())
    checkCu(cuMemHostUnregister(ptr), "cuMemHostUnregister");
}

/// The same for a dense ranked memref of `rank` dimensions.
void mgpuMemHostRegisterMemRef(int64_t rank, MemRefDescriptor *descriptor,
                               int64_t elementBytes) {
  int64_t elements = 1;
  for (int64_t i = 0; i < rank; ++i)
    elements *= descriptor->sizesAndStrides[i];
  mgpuMemHostRegister(descriptor->aligned + descriptor->offset * elementBytes,
                      static_cast<uint64_t>(elements * elementBytes));
}

void mgpuMemHostUnregisterMemRef(int64_t rank, MemRefDescriptor *descriptor,
                                 int64_t elementBytes) {
  (void)rank;
  mgpuMemHostUnregister(descriptor->aligned +
                        descriptor->offset * elementBytes);
}

} // extern "C"
