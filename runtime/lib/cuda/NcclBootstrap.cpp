//===- NcclBootstrap.cpp - The nccl transport's communicator --------------===//
//
// This process's rank and the communicator of the nccl transport (see
// NcclTransport.cpp for how the ncclUniqueId travels: MPI under mpirun, TCP
// under torchrun-style launchers, nothing for one rank).
//
//===----------------------------------------------------------------------===//

#include "CudaInternal.h"
#include "Nccl.h"

#ifdef PPRT_CUDA_HAVE_MPI
#include <mpi.h>
#endif

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <thread>

using namespace pprt;
using namespace pprt::cuda;
using namespace pprt::detail;

std::string pprt::cuda::ncclText(ncclResult_t result, const char *call) {
  return std::string("nccl error: ") + call +
         " failed: " + ncclGetErrorString(result);
}

void pprt::cuda::ncclPause(int64_t &tries) {
  if (++tries < 200)
    std::this_thread::yield();
  else
    std::this_thread::sleep_for(std::chrono::microseconds(100));
}

namespace {

/// Whether the plugin called MPI_Init (to share the NCCL id).
bool initializedMpi = false;

const char *env(const char *name) {
  const char *value = std::getenv(name);
  return value && *value ? value : nullptr;
}

//===----------------------------------------------------------------------===//
// The unique id over TCP
//===----------------------------------------------------------------------===//

/// Reads or writes exactly `bytes` bytes before `deadline`.
bool transfer(int fd, void *data, size_t bytes, bool write,
              Clock::time_point deadline) {
  char *p = static_cast<char *>(data);
  while (bytes > 0) {
    pollfd pfd{fd, static_cast<short>(write ? POLLOUT : POLLIN), 0};
    int left =
        static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(
                             deadline - Clock::now())
                             .count());
    if (left <= 0 || poll(&pfd, 1, left) <= 0)
      return false;
    ssize_t n =
        write ? ::send(fd, p, bytes, MSG_NOSIGNAL) : ::recv(fd, p, bytes, 0);
    if (n <= 0)
      return false;
    p += n;
    bytes -= static_cast<size_t>(n);
  }
  return true;
}

bool exchangeIdOverTcp(ncclUniqueId &id, int rank, int size, double timeout,
                       std::string &error) {
  const char *address = env("MASTER_ADDR");
  const char *portText = env("PPRT_NCCL_PORT");
  int port = portText
                 ? std::atoi(portText)
                 : (env("MASTER_PORT") ? std::atoi(env("MASTER_PORT")) + 1 : 0);
  if (!address || port <= 0) {
    error = "transport nccl: RANK and WORLD_SIZE are set but MASTER_ADDR and "
            "MASTER_PORT (or PPRT_NCCL_PORT) are not";
    return false;
  }
  Clock::time_point deadline = deadlineAfter(timeout);
  std::string where = std::string(address) + ":" + std::to_string(port);
  if (rank == 0) {
    int server = socket(AF_INET, SOCK_STREAM, 0);
    int one = 1;
    setsockopt(server, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_ANY);
    addr.sin_port = htons(static_cast<uint16_t>(port));
    if (bind(server, reinterpret_cast<sockaddr *>(&addr), sizeof(addr)) != 0 ||
        listen(server, size) != 0) {
      error = "transport nccl: rank 0 cannot listen on port " +
              std::to_string(port) + ": " + std::strerror(errno);
      close(server);
      return false;
    }
    for (int peer = 1; peer < size; ++peer) {
      pollfd pfd{server, POLLIN, 0};
      int left = static_cast<int>(
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline -
                                                                Clock::now())
              .count());
      int client = -1;
      if (left > 0 && poll(&pfd, 1, left) > 0)
        client = accept(server, nullptr, nullptr);
      if (client < 0 || !transfer(client, &id, sizeof(id), true, deadline)) {
        error = "transport nccl: rank 0 timed out after " +
                formatSeconds(timeout) + " s waiting for " +
                std::to_string(size - peer) + " peer(s) to connect on port " +
                std::to_string(port);
        if (client >= 0)
          close(client);
        close(server);
        return false;
      }
      close(client);
    }
    close(server);
    return true;
  }
  addrinfo hints{}, *found = nullptr;
  hints.ai_family = AF_INET;
  hints.ai_socktype = SOCK_STREAM;
  if (getaddrinfo(address, std::to_string(port).c_str(), &hints, &found) != 0 ||
      !found) {
    error =
        "transport nccl: cannot resolve MASTER_ADDR " + std::string(address);
    return false;
  }
  bool ok = false;
  while (!ok && Clock::now() < deadline) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (connect(fd, found->ai_addr, found->ai_addrlen) == 0 &&
        transfer(fd, &id, sizeof(id), false, deadline))
      ok = true;
    close(fd);
    if (!ok)
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  freeaddrinfo(found);
  if (!ok)
    error = "transport nccl: rank " + std::to_string(rank) +
            " could not get the NCCL id from rank 0 at " + where + " within " +
            formatSeconds(timeout) + " s";
  return ok;
}

/// The ncclUniqueId of rank 0 on every rank (see createCommunicator()).
bool shareId(ncclUniqueId &id, const WorldOptions &options, int rank, int size,
             bool viaMpi, std::string &error) {
  std::memset(&id, 0, sizeof(id));
  if (rank == 0) {
    ncclResult_t result = ncclGetUniqueId(&id);
    if (result != ncclSuccess) {
      error = "transport nccl: " + ncclText(result, "ncclGetUniqueId");
      return false;
    }
  }
  if (size <= 1)
    return true;
  if (viaMpi) {
#ifdef PPRT_CUDA_HAVE_MPI
    int initialized = 0;
    MPI_Initialized(&initialized);
    if (!initialized) {
      int provided = 0;
      MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
      initializedMpi = true;
    }
    MPI_Bcast(&id, sizeof(id), MPI_BYTE, 0, MPI_COMM_WORLD);
#endif
    return true;
  }
  return exchangeIdOverTcp(id, rank, size, options.timeoutSeconds, error);
}

} // namespace

bool pprt::cuda::findRank(const WorldOptions &options, int &rank, int &size,
                          bool &viaMpi, std::string &error) {
  viaMpi = false;
  const char *mpiSize = env("OMPI_COMM_WORLD_SIZE")
                            ? env("OMPI_COMM_WORLD_SIZE")
                            : env("PMI_SIZE");
  const char *mpiRank = env("OMPI_COMM_WORLD_RANK")
                            ? env("OMPI_COMM_WORLD_RANK")
                            : env("PMI_RANK");
  if (mpiSize && mpiRank) {
#ifdef PPRT_CUDA_HAVE_MPI
    viaMpi = true;
    rank = std::atoi(mpiRank);
    size = std::atoi(mpiSize);
#else
    if (!env("RANK")) {
      error = "transport nccl: running under mpirun, but the CUDA plugin was "
              "built without MPI; set RANK, WORLD_SIZE, MASTER_ADDR and "
              "MASTER_PORT instead";
      return false;
    }
#endif
  }
  if (!viaMpi) {
    if (env("RANK") && env("WORLD_SIZE")) {
      rank = std::atoi(env("RANK"));
      size = std::atoi(env("WORLD_SIZE"));
    } else if (options.ranks == 1) {
      rank = 0;
      size = 1;
    } else {
      error = "transport nccl: a world of " + std::to_string(options.ranks) +
              " ranks needs one process per rank: start it with mpirun -np " +
              std::to_string(options.ranks) +
              " or a launcher that sets RANK, WORLD_SIZE, MASTER_ADDR and "
              "MASTER_PORT (torchrun)";
      return false;
    }
  }
  if (size != options.ranks) {
    error = "transport nccl: the world has " + std::to_string(options.ranks) +
            " ranks but the launcher runs " + std::to_string(size) +
            " process(es)";
    return false;
  }
  if (rank < 0 || rank >= size) {
    error = "transport nccl: rank " + std::to_string(rank) + " is not below " +
            std::to_string(size);
    return false;
  }
  return true;
}

ncclComm_t pprt::cuda::createCommunicator(const WorldOptions &options, int rank,
                                          int size, bool viaMpi,
                                          std::string &error) {
  ncclUniqueId id;
  if (!shareId(id, options, rank, size, viaMpi, error))
    return nullptr;
  ncclConfig_t config = NCCL_CONFIG_INITIALIZER;
  config.blocking = 0;
  ncclComm_t comm = nullptr;
  ncclResult_t result = ncclCommInitRankConfig(&comm, size, id, rank, &config);
  Clock::time_point deadline = deadlineAfter(options.timeoutSeconds);
  int64_t tries = 0;
  while (result == ncclInProgress && comm) {
    if (Clock::now() > deadline) {
      ncclCommAbort(comm);
      error = "transport nccl: rank " + std::to_string(rank) +
              " timed out after " + formatSeconds(options.timeoutSeconds) +
              " s creating the communicator of " + std::to_string(size) +
              " ranks";
      return nullptr;
    }
    ncclPause(tries);
    ncclCommGetAsyncError(comm, &result);
  }
  if (result != ncclSuccess) {
    error = "transport nccl: rank " + std::to_string(rank) + ": " +
            ncclText(result, "ncclCommInitRankConfig");
    if (comm)
      ncclCommAbort(comm);
    return nullptr;
  }
  return comm;
}

void pprt::cuda::finalizeBootstrapMpi() {
#ifdef PPRT_CUDA_HAVE_MPI
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (initializedMpi && !finalized)
    MPI_Finalize();
#endif
}
