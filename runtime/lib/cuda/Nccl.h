//===- Nccl.h - The nccl transport's internals ------------------*- C++ -*-===//
//
// What the nccl transport (NcclTransport.cpp) and its bootstrap
// (NcclBootstrap.cpp: this process's rank, the ncclUniqueId exchange, the
// communicator) share.
//
//===----------------------------------------------------------------------===//

#ifndef PPRT_LIB_CUDA_NCCL_H
#define PPRT_LIB_CUDA_NCCL_H

#include "Step.h"

#include <nccl.h>

#include <string>

namespace pprt {
namespace cuda {

/// "nccl error: <call> failed: <NCCL's text>".
std::string ncclText(ncclResult_t result, const char *call);

/// Pauses a polling loop: yields the first 200 times, then sleeps 100 us.
void ncclPause(int64_t &tries);

/// This process's rank and the world size from the launcher's environment;
/// `viaMpi` when the id should travel over MPI. False and `error` if the
/// launcher does not run options.ranks processes.
bool findRank(const WorldOptions &options, int &rank, int &size, bool &viaMpi,
              std::string &error);

/// The non-blocking communicator of `size` ranks, this process being
/// `rank`: rank 0 makes the ncclUniqueId, which travels over MPI (`viaMpi`,
/// MPI_Init here if nobody did), TCP or not at all (one rank); creating it
/// is bounded by the timeout. Null and `error` on failure.
ncclComm_t createCommunicator(const WorldOptions &options, int rank, int size,
                              bool viaMpi, std::string &error);

/// MPI_Finalize if createCommunicator called MPI_Init and MPI is not
/// finalized yet (mpirun reports the job as failed otherwise).
void finalizeBootstrapMpi();

} // namespace cuda
} // namespace pprt

#endif // PPRT_LIB_CUDA_NCCL_H
