//===- pprt-mpi-test.cpp - Scenarios for the runtime's mpi transport ------===//
//
// Run under mpirun by integration_test/Runtime/mpi.test:
//   mpirun -np P pprt-mpi-test <scenario> P [timeout-seconds]
// Scenarios:
//   ping-pong  every rank sends messages of 0, 100 and 1 MiB bytes to the
//              next rank and checks the ones from the previous, for two
//              steps; checks the shared losses, the gathered trace, the
//              stash peaks and allReduceMax. Rank 0 prints a summary.
//   mismatch   rank 1 sends 2048 bytes, rank 0 expects 1024.
//   throw      rank 1's program throws.
//   pipeline   a forward pipeline over M = 4 micro-batches with one traced
//              action per forward (for PPRT_FAULT); rank 0 prints
//              "pipeline ok" at the end.
//   parts      World::setMessageLayout(P stages, 40 parts); each rank
//              sends 40 activation parts per micro-batch to the next rank,
//              which receives them in reverse order; then a layout whose
//              tags exceed MPI_TAG_UB is refused. Rank 0 prints what it saw.
//   shared     a parameter shared by every rank's stage (stage r on rank
//              r, parameter index r % 2): rank r adds gradient values
//              whose float sum depends on the order; three steps of SGD;
//              checks the sum is taken in ascending rank order and that
//              every process's copy stays identical. Rank 0 prints
//              "shared ok: ...".
//   slots      (arguments: P timeout DIR) WorldOptions::computeSlots = 1:
//              every rank runs ten 2 ms compute actions, each holding a
//              marker file in DIR (default /tmp) created with
//              O_EXCL; a second rank computing at the same time would find
//              it. Rank 0 prints "slots ok: ...". `no-slots` is the same
//              without slots, which must fail (the check can fail).
// Any failed check throws, which fails the step and so aborts the job.
//
//===----------------------------------------------------------------------===//

#include "pprt/Runtime.h"
#include "pprt/pprt.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

using namespace pprt;

namespace {

void check(bool condition, const std::string &what) {
  if (!condition)
    throw std::runtime_error("check failed: " + what);
}

char pattern(int rank, int64_t mb, size_t i) {
  return static_cast<char>((rank * 31 + mb * 7 + i * 13) & 0xff);
}

int pingPong(World &world, int numRanks) {
  const std::vector<size_t> sizes = {0, 100, 1 << 20};
  for (int step = 0; step < 2; ++step) {
    bool ok = world.runStep([&](int rank, pprt_rank *h) {
      int next = (rank + 1) % numRanks, prev = (rank + numRanks - 1) % numRanks;
      for (size_t k = 0; k < sizes.size(); ++k) {
        auto mb = static_cast<int64_t>(k);
        std::vector<char> out(sizes[k]);
        for (size_t i = 0; i < out.size(); ++i)
          out[i] = pattern(rank, mb, i);
        pprt_action_begin(h, PPRT_SEND, rank, mb);
        pprt_send(h, next, rank, mb, PPRT_ACTIVATION, out.data(),
                  static_cast<int64_t>(out.size()));
        pprt_action_end(h);
      }
      // Receive in the reverse order: matching is by tag.
      for (size_t k = sizes.size(); k-- > 0;) {
        auto mb = static_cast<int64_t>(k);
        std::vector<char> in(sizes[k], 0);
        pprt_action_begin(h, PPRT_FORWARD, rank, mb);
        pprt_recv(h, prev, prev, mb, PPRT_ACTIVATION, in.data(),
                  static_cast<int64_t>(in.size()));
        pprt_action_end(h);
        for (size_t i = 0; i < in.size(); ++i)
          check(in[i] == pattern(prev, mb, i), "byte " + std::to_string(i) +
                                                   " of micro-batch " +
                                                   std::to_string(mb));
      }
      double loss = 10.0 * rank + step;
      pprt_loss(h, rank % 3, &loss, PPRT_F64);
      pprt_stash(h, 100 + rank);
    });
    if (!ok) {
      std::fprintf(stderr, "unexpected failure: %s\n", world.error().c_str());
      return 1;
    }
  }
  // Every process sees every rank's results.
  std::vector<double> losses = world.losses();
  check(losses.size() == 3, "3 losses");
  for (int m = 0; m < 3; ++m) {
    // The mean of the losses of the ranks r with r % 3 == m (step 1).
    double sum = 0, count = 0;
    for (int r = m; r < numRanks; r += 3) {
      sum += 10.0 * r + 1;
      ++count;
    }
    check(count == 0 ? std::isnan(losses[m]) : losses[m] == sum / count,
          "loss of micro-batch " + std::to_string(m));
  }
  std::vector<TraceEvent> trace = world.trace();
  check(trace.size() == static_cast<size_t>(numRanks) * 6, "trace size");
  for (size_t i = 0; i < trace.size(); ++i)
    check(trace[i].rank == static_cast<int>(i / 6), "trace order");
  std::vector<int64_t> peaks = world.stashPeaks();
  for (int r = 0; r < numRanks; ++r)
    check(peaks[r] == 100 + r, "stash peak of rank " + std::to_string(r));
  int self = world.localRanks().at(0);
  check(world.allReduceMax(self) == numRanks - 1, "allReduceMax");
  StepTiming timing = world.stepTiming();
  check(timing.busy.size() == static_cast<size_t>(numRanks), "timing");
  std::string json = world.chromeTraceJson();
  check(json.find("\"name\":\"SEND_F2\"") != std::string::npos, "json");
  if (self == 0)
    std::printf("ping-pong ok: %d ranks, %zu trace events, stash peak of "
                "rank %d %lld\n",
                numRanks, trace.size(), numRanks - 1,
                static_cast<long long>(peaks[numRanks - 1]));
  return 0;
}

int pipeline(World &world, int numRanks) {
  const int64_t numMicrobatches = world.options().microbatches;
  bool ok = world.runStep([&](int rank, pprt_rank *h) {
    for (int64_t mb = 0; mb < numMicrobatches; ++mb) {
      float value = 0;
      if (rank > 0)
        pprt_recv(h, rank - 1, rank - 1, mb, PPRT_ACTIVATION, &value,
                  sizeof(value));
      pprt_action_begin(h, PPRT_FORWARD, rank, mb);
      value += 1;
      pprt_action_end(h);
      if (rank + 1 < numRanks)
        pprt_send(h, rank + 1, rank, mb, PPRT_ACTIVATION, &value,
                  sizeof(value));
      else
        check(value == static_cast<float>(numRanks), "pipeline value");
    }
  });
  if (!ok) {
    std::fprintf(stderr, "unexpected failure: %s\n", world.error().c_str());
    return 1;
  }
  if (world.localRanks().at(0) == 0)
    std::printf("pipeline ok\n");
  return 0;
}

int parts(World &world, int numRanks) {
  const int64_t numMicrobatches = world.options().microbatches;
  const int64_t numParts = 40;
  std::string error;
  check(world.setMessageLayout(numRanks, numParts, error), error);
  auto value = [](int rank, int64_t mb, int64_t k) {
    return static_cast<int32_t>(rank * 100000 + mb * 1000 + k);
  };
  bool ok = world.runStep([&](int rank, pprt_rank *h) {
    int next = (rank + 1) % numRanks, prev = (rank + numRanks - 1) % numRanks;
    for (int64_t mb = 0; mb < numMicrobatches; ++mb)
      for (int64_t k = 0; k < numParts; ++k) {
        int32_t out = value(rank, mb, k);
        pprt_send(h, next, rank, mb, PPRT_ACTIVATION + 2 * k, &out,
                  sizeof(out));
      }
    for (int64_t mb = numMicrobatches; mb-- > 0;)
      for (int64_t k = numParts; k-- > 0;) {
        int32_t in = -1;
        pprt_recv(h, prev, prev, mb, PPRT_ACTIVATION + 2 * k, &in, sizeof(in));
        check(in == value(prev, mb, k), "part " + std::to_string(k) +
                                            " of micro-batch " +
                                            std::to_string(mb));
      }
  });
  if (!ok) {
    std::fprintf(stderr, "unexpected failure: %s\n", world.error().c_str());
    return 1;
  }
  bool refused = !world.setMessageLayout(1 << 20, 1 << 20, error);
  check(world.options().boundaryParts == numParts, "layout kept");
  if (world.localRanks().at(0) == 0) {
    std::printf("parts ok: %lld parts x %lld micro-batches per boundary\n",
                static_cast<long long>(numParts),
                static_cast<long long>(numMicrobatches));
    std::printf("refused: %s\n", refused ? error.c_str() : "no");
  }
  return 0;
}

int shared(World &world, int numRanks) {
  std::vector<ParameterUse> uses;
  for (int r = numRanks - 1; r >= 0; --r)
    uses.push_back({r, r, r % 2});
  std::string error;
  check(world.shareParameter(uses, error), "shareParameter: " + error);
  int self = world.localRanks().at(0);
  float initial[2] = {1.0f, 1.0f};
  Buffer value;
  value.bytes.assign(reinterpret_cast<char *>(initial),
                     reinterpret_cast<char *>(initial) + sizeof initial);
  world.setParameter(self, self % 2, value);
  // Rank 0 adds 1e8, rank 1 -1e8, the others 1: in rank order the first
  // element is 1e8 - 1e8 + (P - 2) = P - 2, in any order that adds a 1 to
  // +-1e8 first it would differ.
  float want = static_cast<float>(numRanks - 2);
  for (int step = 1; step <= 3; ++step) {
    bool ok = world.runStep([&](int rank, pprt_rank *h) {
      float g[2] = {rank == 0 ? 1e8f : rank == 1 ? -1e8f : 1.0f, 0.5f};
      pprt_accumulate_gradient(h, rank, rank % 2, g, sizeof g, PPRT_F32);
    });
    if (!ok) {
      std::fprintf(stderr, "unexpected failure: %s\n", world.error().c_str());
      return 1;
    }
    const Buffer *g = world.gradient(self, self % 2);
    check(g && g->bytes.size() == 8, "a gradient of 2 floats");
    float sum[2];
    std::memcpy(sum, g->bytes.data(), sizeof sum);
    check(sum[0] == want && sum[1] == 0.5f * numRanks,
          "the gradient summed in rank order");
    world.sgdStep(0.5);
  }
  float mine[2];
  std::memcpy(mine, world.parameter(self, self % 2).bytes.data(), sizeof mine);
  // Every process ends with the same copy: its max and min agree.
  for (float v : mine)
    check(world.allReduceMax(v) == -world.allReduceMax(-v), "identical copies");
  if (self == 0)
    std::printf("shared ok: %d copies, gradient %g %g, value %g %g\n", numRanks,
                want, 0.5 * numRanks, mine[0], mine[1]);
  return 0;
}

int slots(World &world, const std::string &directory) {
  // One marker path for the job: rank 0's process id.
  int self = world.localRanks().at(0);
  double pid = world.allReduceMax(self == 0 ? getpid() : 0);
  std::string marker = directory + "/pprt-slots-test-" +
                       std::to_string(static_cast<long long>(pid));
  const int actions = 10;
  bool ok = world.runStep([&](int rank, pprt_rank *h) {
    for (int i = 0; i < actions; ++i) {
      pprt_action_begin(h, PPRT_FORWARD, rank, i % 4);
      int fd = open(marker.c_str(), O_CREAT | O_EXCL | O_WRONLY, 0600);
      check(fd >= 0, "rank " + std::to_string(rank) +
                         " computes while another rank does");
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
      close(fd);
      unlink(marker.c_str());
      pprt_action_end(h);
    }
  });
  if (!ok) {
    std::fprintf(stderr, "unexpected failure: %s\n", world.error().c_str());
    return 1;
  }
  if (self == 0)
    std::printf("slots ok: %d ranks x %d actions, never two at once\n",
                world.options().ranks, actions);
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 3) {
    std::fprintf(
        stderr,
        "usage: %s ping-pong|mismatch|throw|pipeline|parts|shared|slots|"
        "no-slots "
        "<ranks> [timeout-seconds]\n",
        argv[0]);
    return 2;
  }
  std::string scenario = argv[1];
  WorldOptions options;
  options.transport = "mpi";
  options.ranks = std::atoi(argv[2]);
  options.timeoutSeconds = argc > 3 ? std::atof(argv[3]) : 30.0;
  options.microbatches = scenario == "ping-pong" ? 3 : 4;
  options.computeSlots = scenario == "slots" ? 1 : 0;
  std::string error;
  std::unique_ptr<World> world = World::create(options, error);
  if (!world) {
    std::fprintf(stderr, "pprt-mpi-test: %s\n", error.c_str());
    return 1;
  }
  if (scenario == "ping-pong")
    return pingPong(*world, options.ranks);
  if (scenario == "pipeline")
    return pipeline(*world, options.ranks);
  if (scenario == "parts")
    return parts(*world, options.ranks);
  if (scenario == "shared")
    return shared(*world, options.ranks);
  if (scenario == "slots" || scenario == "no-slots")
    return slots(*world, argc > 4 ? argv[4] : "/tmp");
  if (scenario == "mismatch" || scenario == "throw") {
    world->runStep([&](int rank, pprt_rank *h) {
      if (scenario == "throw") {
        if (rank == 1)
          throw std::runtime_error("deliberate");
        return;
      }
      std::vector<char> data(2048, 'a');
      if (rank == 1)
        pprt_send(h, 0, 0, 0, PPRT_ACTIVATION, data.data(), 2048);
      else if (rank == 0)
        pprt_recv(h, 1, 0, 0, PPRT_ACTIVATION, data.data(), 1024);
    });
    // Not reached: the failure aborts the job.
    std::fprintf(stderr, "pprt-mpi-test: the step did not abort: %s\n",
                 world->error().c_str());
    return 0;
  }
  std::fprintf(stderr, "pprt-mpi-test: unknown scenario %s\n", argv[1]);
  return 2;
}
