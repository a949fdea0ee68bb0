//===- PoolAllocator.cpp - First-fit sub-allocator over offsets ----------===//

#include "PoolAllocator.h"

#include <algorithm>

using namespace pprt::cuda;

PoolAllocator::PoolAllocator(uint64_t size, uint64_t alignment)
    : align(alignment ? alignment : 1) {
  total = size - size % align;
  if (total > 0)
    freeList.emplace(0, total);
}

uint64_t PoolAllocator::roundUp(uint64_t bytes) const {
  if (bytes == 0)
    return align;
  uint64_t rounded = bytes + (align - 1);
  if (rounded < bytes) // overflow: cannot fit anyway
    return UINT64_MAX - (UINT64_MAX % align);
  return rounded - rounded % align;
}

bool PoolAllocator::allocate(uint64_t bytes, uint64_t &offset) {
  uint64_t need = roundUp(bytes);
  for (auto it = freeList.begin(); it != freeList.end(); ++it) {
    if (it->second < need)
      continue;
    offset = it->first;
    uint64_t rest = it->second - need;
    freeList.erase(it);
    if (rest > 0)
      freeList.emplace(offset + need, rest);
    allocated.emplace(offset, need);
    used += need;
    peakUsed = std::max(peakUsed, used);
    return true;
  }
  return false;
}

bool PoolAllocator::release(uint64_t offset) {
  auto block = allocated.find(offset);
  if (block == allocated.end())
    return false;
  uint64_t start = offset, length = block->second;
  allocated.erase(block);
  used -= length;
  // Coalesce with the free range after and the one before.
  auto next = freeList.lower_bound(start);
  if (next != freeList.end() && next->first == start + length) {
    length += next->second;
    next = freeList.erase(next);
  }
  if (next != freeList.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second == start) {
      start = prev->first;
      length += prev->second;
      freeList.erase(prev);
    }
  }
  freeList.emplace(start, length);
  return true;
}

uint64_t PoolAllocator::blockSize(uint64_t offset) const {
  auto it = allocated.find(offset);
  return it == allocated.end() ? 0 : it->second;
}

uint64_t PoolAllocator::largestFree() const {
  uint64_t largest = 0;
  for (const auto &range : freeList)
    largest = std::max(largest, range.second);
  return largest;
}
