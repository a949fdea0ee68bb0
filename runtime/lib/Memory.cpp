//===- Memory.cpp - The generated code's allocator, charged per rank ------===//
//
// pprt_memory_alloc / _aligned_alloc / _free (pprt.h) are what the CPU
// lowering's memref.alloc and memref.dealloc call. Every allocation gets a
// header just before the address it returns: a magic number, its size, the
// account it is charged to (the rank whose thread allocated it, or none)
// and its class. A free reads the header and takes the size back from the
// same account and class, so that each rank's live bytes follow exactly
// what the generated code allocates and frees, at the cost of one add per
// allocation and per free (and a compare for each peak).
//
// The class starts as Other; the runtime moves a buffer to Stash,
// Activation, Parameter or Gradient when the rank program hands it over
// (classifyBuffer, called by the pprt_memref_* entry points), which is how
// the stash a schedule keeps is told apart from the temporaries inside the
// stage functions.
//
// Freed blocks of 1 MiB or more are kept (up to 1 GiB in all) for the next
// allocation of the same size and alignment rather than handed back to
// malloc: training allocates the same shapes every micro-batch, and glibc
// returns large freed blocks (and the heaps of the per-thread arenas of
// rank threads, which are new every step) to the system, so that each
// reuse faulted its pages in again: a decoder stage's backward ran 1.5-2x
// its measured time. PPRT_BLOCK_CACHE=0 turns the cache off (to let a
// sanitizer see every large free).
//
//===----------------------------------------------------------------------===//

#include "Step.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <utility>
#include <vector>

using namespace pprt;
using namespace pprt::detail;

namespace {
constexpr uint64_t kMagic = 0x70707274'6d656d31ULL; // "pprtmem1"

struct Header {
  uint64_t magic;
  int64_t bytes;
  MemoryAccount *account;
  void *base;
  MemoryClass memoryClass;
  /// The alignment it was allocated with (0: malloc's).
  uint32_t alignment;
};
// Rounded to 16 bytes, so that malloc's alignment carries over.
constexpr size_t kHeaderBytes = (sizeof(Header) + 15) / 16 * 16;

thread_local MemoryAccount *currentAccount = nullptr;

/// Freed large blocks by (size, alignment), for reuse (see the file
/// comment).
class BlockCache {
public:
  static constexpr size_t kMinBytes = size_t(1) << 20;
  static constexpr size_t kMaxCachedBytes = size_t(1) << 30;

  /// A kept block of `size` bytes allocated with `alignment`, or null.
  void *take(size_t size, size_t alignment) {
    if (!enabled || size < kMinBytes)
      return nullptr;
    std::lock_guard<std::mutex> lock(mutex);
    auto it = blocks.find({size, alignment});
    if (it == blocks.end() || it->second.empty())
      return nullptr;
    void *base = it->second.back();
    it->second.pop_back();
    cachedBytes -= size;
    return base;
  }
  /// Keeps `base` for reuse (when the cache would pass its limit, it frees
  /// every block it holds first); false when `base` is too small or too
  /// large or the cache is off (then the caller frees it).
  bool keep(void *base, size_t size, size_t alignment) {
    if (!enabled || size < kMinBytes)
      return false;
    std::lock_guard<std::mutex> lock(mutex);
    if (size > kMaxCachedBytes)
      return false;
    // Full: what is kept (shapes of an earlier phase, such as measuring
    // the units before training) goes back, and the cache starts over.
    if (cachedBytes + size > kMaxCachedBytes) {
      for (auto &[key, list] : blocks)
        for (void *block : list)
          std::free(block);
      blocks.clear();
      cachedBytes = 0;
    }
    blocks[{size, alignment}].push_back(base);
    cachedBytes += size;
    return true;
  }

private:
  const bool enabled = [] {
    const char *value = std::getenv("PPRT_BLOCK_CACHE");
    return !value || std::strcmp(value, "0") != 0;
  }();
  std::mutex mutex;
  std::map<std::pair<size_t, size_t>, std::vector<void *>> blocks;
  size_t cachedBytes = 0;
};

/// The process's cache; never destroyed, so that frees from threads that
/// outlive static destruction stay safe (its blocks live until exit).
BlockCache &blockCache() {
  static BlockCache *cache = new BlockCache;
  return *cache;
}

/// The block size pprt_memory_alloc / _aligned_alloc take for `bytes` at
/// `alignment` (0: malloc's), and the offset of the returned address.
std::pair<size_t, size_t> blockLayout(int64_t bytes, size_t alignment) {
  if (alignment == 0)
    return {kHeaderBytes + static_cast<size_t>(bytes), kHeaderBytes};
  size_t offset = (kHeaderBytes + alignment - 1) / alignment * alignment;
  size_t size = (offset + static_cast<size_t>(bytes) + alignment - 1) /
                alignment * alignment;
  return {size, offset};
}

Header *headerOf(const void *pointer) {
  return reinterpret_cast<Header *>(
      const_cast<char *>(static_cast<const char *>(pointer)) - sizeof(Header));
}

void *finish(void *base, size_t offset, int64_t bytes, size_t alignment) {
  if (!base)
    return nullptr;
  char *pointer = static_cast<char *>(base) + offset;
  Header *header = headerOf(pointer);
  header->magic = kMagic;
  header->bytes = bytes;
  header->account = currentAccount;
  header->base = base;
  header->memoryClass = MemoryClass::Other;
  header->alignment = static_cast<uint32_t>(alignment);
  if (MemoryAccount *account = currentAccount) {
    account->allocations.fetch_add(1, std::memory_order_relaxed);
    account->add(MemoryClass::Other, bytes);
  }
  return pointer;
}

void raiseTo(std::atomic<int64_t> &peak, int64_t value) {
  if (value > peak.load(std::memory_order_relaxed))
    peak.store(value, std::memory_order_relaxed);
}
} // namespace

void MemoryAccount::add(MemoryClass c, int64_t bytes) {
  live[static_cast<int>(c)].fetch_add(bytes, std::memory_order_relaxed);
  if (bytes <= 0)
    return;
  auto get = [&](MemoryClass k) {
    return live[static_cast<int>(k)].load(std::memory_order_relaxed);
  };
  int64_t stash = get(MemoryClass::Stash);
  int64_t activations = stash + get(MemoryClass::Activation);
  int64_t total = activations + get(MemoryClass::Other) +
                  get(MemoryClass::Parameter) + get(MemoryClass::Gradient);
  raiseTo(stashPeak, stash);
  raiseTo(activationPeak, activations);
  raiseTo(totalPeak, total);
}

MemoryPeaks MemoryAccount::peaks() const {
  MemoryPeaks p;
  p.stash = stashPeak.load(std::memory_order_relaxed);
  p.activations = activationPeak.load(std::memory_order_relaxed);
  p.total = totalPeak.load(std::memory_order_relaxed);
  p.allocations = allocations.load(std::memory_order_relaxed);
  return p;
}

MemoryScope::MemoryScope(MemoryAccount *account) : previous(currentAccount) {
  currentAccount = account;
}

MemoryScope::~MemoryScope() { currentAccount = previous; }

void pprt::detail::classifyBuffer(const void *allocated, MemoryClass c) {
  MemoryAccount *account = currentAccount;
  if (!account || !allocated)
    return;
  Header *header = headerOf(allocated);
  if (header->magic != kMagic || header->account != account ||
      header->memoryClass == c)
    return;
  // Out first, so that the total never counts the buffer twice.
  account->add(header->memoryClass, -header->bytes);
  header->memoryClass = c;
  account->add(c, header->bytes);
}

void pprt::detail::encodePeaks(const StepContext &step, int rank,
                               double *fields) {
  const MemoryPeaks &p = step.memoryPeaks[rank];
  const double values[kPeakFields] = {
      static_cast<double>(step.stashPeaks[rank]), static_cast<double>(p.stash),
      static_cast<double>(p.activations), static_cast<double>(p.total),
      static_cast<double>(p.allocations)};
  std::memcpy(fields, values, sizeof values);
}

void pprt::detail::decodePeaks(StepContext &step, int rank,
                               const double *fields) {
  step.stashPeaks[rank] = static_cast<int64_t>(fields[0]);
  MemoryPeaks &p = step.memoryPeaks[rank];
  p.stash = static_cast<int64_t>(fields[1]);
  p.activations = static_cast<int64_t>(fields[2]);
  p.total = static_cast<int64_t>(fields[3]);
  p.allocations = static_cast<int64_t>(fields[4]);
}

extern "C" {

void *pprt_memory_alloc(int64_t bytes) {
  if (bytes < 0)
    return nullptr;
  auto [size, offset] = blockLayout(bytes, 0);
  void *base = blockCache().take(size, 0);
  return finish(base ? base : std::malloc(size), offset, bytes, 0);
}

void *pprt_memory_aligned_alloc(int64_t alignment, int64_t bytes) {
  if (bytes < 0 || alignment <= 0 || (alignment & (alignment - 1)) != 0 ||
      alignment > (int64_t(1) << 30))
    return nullptr;
  size_t align = std::max<size_t>(static_cast<size_t>(alignment), 16);
  auto [size, offset] = blockLayout(bytes, align);
  void *base = blockCache().take(size, align);
  return finish(base ? base : std::aligned_alloc(align, size), offset, bytes,
                align);
}

void pprt_memory_free(void *pointer) {
  if (!pointer)
    return;
  Header *header = headerOf(pointer);
  if (header->magic != kMagic) {
    std::fprintf(stderr,
                 "pprt: internal error: pprt_memory_free of %p, "
                 "which pprt_memory_alloc did not allocate\n",
                 pointer);
    std::abort();
  }
  if (MemoryAccount *account = header->account)
    account->add(header->memoryClass, -header->bytes);
  header->magic = 0;
  size_t alignment = header->alignment;
  size_t size = blockLayout(header->bytes, alignment).first;
  if (!blockCache().keep(header->base, size, alignment))
    std::free(header->base);
}

} // extern "C"
