//===- Memory.h - memory accounts of the ranks ------------------*- C++ -*-===//

#ifndef PPRT_LIB_MEMORY_H
#define PPRT_LIB_MEMORY_H

#include "pprt/Runtime.h"

#include <atomic>
#include <cstdint>

namespace pprt {
namespace detail {

struct StepContext;

/// What a buffer of a rank program holds, as far as the runtime was told
/// (the class of its allocation header, see Memory.cpp).
enum class MemoryClass : int32_t {
  /// Not handed to the runtime: temporaries of stage functions, and
  /// results until they are.
  Other = 0,
  Stash,
  Activation,
  Parameter,
  Gradient,
};
constexpr int kMemoryClasses = 5;

/// One rank's live bytes by class and their peaks (MemoryPeaks). Written by
/// the rank's thread only (relaxed atomics: the launcher reads them after
/// the step, and a rank thread left running after a failure may still
/// write).
struct MemoryAccount {
  std::atomic<int64_t> live[kMemoryClasses] = {};
  std::atomic<int64_t> stashPeak{0}, activationPeak{0}, totalPeak{0},
      allocations{0};
  /// live[c] += bytes; updates the peaks.
  void add(MemoryClass c, int64_t bytes);
  MemoryPeaks peaks() const;
};

/// Charges the allocations of the calling thread to `account` while it
/// lives (runRank: the rank program's thread); null charges nothing.
class MemoryScope {
public:
  explicit MemoryScope(MemoryAccount *account);
  ~MemoryScope();
  MemoryScope(const MemoryScope &) = delete;
  MemoryScope &operator=(const MemoryScope &) = delete;

private:
  MemoryAccount *previous;
};

/// Moves the buffer that starts at `allocated` (the allocated pointer of a
/// memref descriptor) to class `c` if pprt_memory_alloc made it on this
/// thread's account; anything else (host memory of another allocator,
/// device memory) is left alone: nothing is read unless the calling
/// thread has an account.
void classifyBuffer(const void *allocated, MemoryClass c);

/// Memory peaks as doubles for transports that share results as numbers
/// (mpi, nccl): kPeakFields per rank, the stash account first.
constexpr int kPeakFields = 5;
void encodePeaks(const StepContext &step, int rank, double *fields);
void decodePeaks(StepContext &step, int rank, const double *fields);

} // namespace detail
} // namespace pprt

#endif // PPRT_LIB_MEMORY_H
