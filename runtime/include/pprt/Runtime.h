//===- Runtime.h - the pp-mlir pipeline runtime, launcher API ---*- C++ -*-===//
//
// The launcher side of the runtime (pprt.h is the side rank programs call).
// A World is P ranks: threads of this process (transport "inproc") or one
// process per rank under mpirun (transport "mpi"). The launcher sets the
// parameters and, for every step, the micro-batch data; runs every local
// rank's program; then reads the losses, the accumulated gradients, the
// trace and the stash peaks, and applies SGD.
//
//===----------------------------------------------------------------------===//

#ifndef PPRT_RUNTIME_H
#define PPRT_RUNTIME_H

#include "pprt/pprt.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace pprt {

/// A contiguous buffer and its element type (for parameters, gradients).
struct Buffer {
  std::vector<char> bytes;
  pprt_dtype dtype = PPRT_F32;
};

/// One action that ran, in seconds since the world's epoch (the start of
/// the step on inproc; MPI_Wtime aligned by a barrier on mpi).
struct TraceEvent {
  int rank;
  pprt_action action;
  int64_t stage, microbatch;
  double start, end;
};

struct WorldOptions {
  /// Number of ranks P (mpi: must equal the MPI world size).
  int ranks = 1;
  /// "inproc" or "mpi".
  std::string transport = "inproc";
  /// Longest wait of any receive, in seconds; then the world fails.
  double timeoutSeconds = 60.0;
  /// Micro-batches per step M (the loss seed is 1/M).
  int64_t microbatches = 1;
};

class World {
public:
  virtual ~World();

  /// Creates a world; on failure returns null and sets `error`. The mpi
  /// transport calls MPI_Init (if needed) and checks the world size.
  static std::unique_ptr<World> create(const WorldOptions &options,
                                       std::string &error);

  const WorldOptions &options() const;
  /// The ranks this process runs: all of them (inproc) or its own (mpi).
  virtual std::vector<int> localRanks() const = 0;

  /// Sets the value of parameter `index` of stage `stage`.
  void setParameter(int64_t stage, int64_t index, Buffer value);
  const Buffer &parameter(int64_t stage, int64_t index) const;
  /// Sets data argument `index` of micro-batch `microbatch` for this step.
  void setInput(int64_t microbatch, int64_t index, std::vector<char> bytes);

  /// Runs `program` once for every local rank (inproc: one thread each)
  /// and waits for all. Returns false if any rank failed (a pprt error, an
  /// exception thrown by `program`, a peer process that vanished), with
  /// `error()` describing the first failure; never waits longer than the
  /// timeout after a failure. Clears losses, gradients, trace and stash
  /// peaks first.
  bool runStep(const std::function<void(int rank, pprt_rank *handle)> &program);
  /// The first failure of the last step ("" if none).
  std::string error() const;

  /// Losses of the last step by micro-batch, on every process (mpi: shared
  /// by the ranks that computed them). NaN where no rank recorded one.
  std::vector<double> losses() const;
  /// Accumulated gradient of a parameter of a local stage (null if none).
  const Buffer *gradient(int64_t stage, int64_t index) const;
  /// param -= learningRate * gradient, for every parameter with a gradient.
  void sgdStep(double learningRate);

  /// The actions of the last step on every rank (mpi: gathered on every
  /// process), and as Chrome trace JSON in pp-simulate's shape.
  std::vector<TraceEvent> trace() const;
  std::string chromeTraceJson() const;
  /// Peak stash bytes of each rank in the last step (pprt_stash).
  std::vector<int64_t> stashPeaks() const;

  /// For tests: the maximum of `value` over all processes (inproc: itself).
  virtual double allReduceMax(double value) = 0;

protected:
  explicit World(WorldOptions options);
  struct State;
  std::unique_ptr<State> state;
};

} // namespace pprt

#endif // PPRT_RUNTIME_H
