//===- InProcTest.cpp - Tests of the runtime on the inproc transport -----===//
//
// Messages, matching, failures (size mismatch, timeout, exception, fault
// injection). Parameters, gradients, losses, stash, trace and timing are in
// InProcResultsTest.cpp. Timed checks use loose bounds: the timeouts are
// short, the bounds several times longer.
//
//===----------------------------------------------------------------------===//

#include "RuntimeTestUtil.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

using namespace pprt;
using namespace pprt_test;

namespace {

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

//===----------------------------------------------------------------------===//
// Messages
//===----------------------------------------------------------------------===//

TEST(RuntimeInProc, RingPassesExactBytes) {
  for (int p = 2; p <= 4; ++p) {
    SCOPED_TRACE("P = " + std::to_string(p));
    auto world = makeWorld(p, /*microbatches=*/2);
    ASSERT_TRUE(world);
    EXPECT_EQ(world->localRanks().size(), static_cast<size_t>(p));
    auto pattern = [](int rank, int64_t mb, size_t i) {
      return static_cast<char>((rank * 31 + mb * 7 + i * 13) & 0xff);
    };
    const size_t size = 1000;
    std::vector<std::vector<char>> got(p * 2);
    ASSERT_TRUE(world->runStep([&](int rank, pprt_rank *h) {
      for (int64_t mb = 0; mb < 2; ++mb) {
        std::vector<char> out(size);
        for (size_t i = 0; i < size; ++i)
          out[i] = pattern(rank, mb, i);
        pprt_send(h, (rank + 1) % p, rank, mb, PPRT_ACTIVATION, out.data(),
                  size);
        // The send copied: clobbering the buffer changes nothing.
        std::fill(out.begin(), out.end(), 0);
        std::vector<char> in(size, 0);
        int from = (rank + p - 1) % p;
        pprt_recv(h, from, from, mb, PPRT_ACTIVATION, in.data(), size);
        got[rank * 2 + mb] = in;
      }
    })) << world->error();
    for (int rank = 0; rank < p; ++rank)
      for (int64_t mb = 0; mb < 2; ++mb) {
        int from = (rank + p - 1) % p;
        const std::vector<char> &in = got[rank * 2 + mb];
        ASSERT_EQ(in.size(), size);
        for (size_t i = 0; i < size; ++i)
          ASSERT_EQ(in[i], pattern(from, mb, i)) << "rank " << rank;
      }
  }
}

TEST(RuntimeInProc, PingPongOfZeroAndLargeMessages) {
  auto world = makeWorld(2);
  ASSERT_TRUE(world);
  std::vector<double> back(1 << 16);
  ASSERT_TRUE(world->runStep([&](int rank, pprt_rank *h) {
    std::vector<double> data(1 << 16);
    if (rank == 0) {
      for (size_t i = 0; i < data.size(); ++i)
        data[i] = 0.5 * static_cast<double>(i);
      pprt_send(h, 1, 0, 0, PPRT_ACTIVATION, nullptr, 0);
      pprt_send(h, 1, 0, 0, PPRT_GRADIENT, data.data(),
                data.size() * sizeof(double));
      pprt_recv(h, 1, 1, 0, PPRT_GRADIENT, back.data(),
                back.size() * sizeof(double));
    } else {
      pprt_recv(h, 0, 0, 0, PPRT_ACTIVATION, nullptr, 0);
      pprt_recv(h, 0, 0, 0, PPRT_GRADIENT, data.data(),
                data.size() * sizeof(double));
      for (double &x : data)
        x *= 2;
      pprt_send(h, 0, 1, 0, PPRT_GRADIENT, data.data(),
                data.size() * sizeof(double));
    }
  })) << world->error();
  for (size_t i = 0; i < back.size(); ++i)
    ASSERT_EQ(back[i], static_cast<double>(i));
}

TEST(RuntimeInProc, MatchesByStageMicrobatchAndKindInAnyOrder) {
  auto world = makeWorld(2, /*microbatches=*/3);
  ASSERT_TRUE(world);
  auto code = [](int64_t stage, int64_t mb, int64_t kind) {
    return static_cast<int32_t>(stage * 100 + mb * 10 + kind);
  };
  struct Key {
    int64_t stage, mb, kind;
  };
  std::vector<Key> sendOrder = {{0, 2, 0}, {0, 0, 0}, {1, 1, 1}, {0, 1, 0},
                                {0, 1, 1}, {1, 1, 0}, {2, 0, 0}};
  std::vector<Key> recvOrder = {{1, 1, 0}, {0, 1, 1}, {0, 0, 0}, {2, 0, 0},
                                {1, 1, 1}, {0, 2, 0}, {0, 1, 0}};
  std::vector<int32_t> got;
  ASSERT_TRUE(world->runStep([&](int rank, pprt_rank *h) {
    if (rank == 0) {
      for (const Key &k : sendOrder) {
        int32_t value = code(k.stage, k.mb, k.kind);
        pprt_send(h, 1, k.stage, k.mb, k.kind, &value, sizeof(value));
      }
      return;
    }
    // Let everything arrive first, so that matching (not timing) decides.
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    for (const Key &k : recvOrder) {
      int32_t value = -1;
      pprt_recv(h, 0, k.stage, k.mb, k.kind, &value, sizeof(value));
      got.push_back(value);
    }
  })) << world->error();
  ASSERT_EQ(got.size(), recvOrder.size());
  for (size_t i = 0; i < recvOrder.size(); ++i)
    EXPECT_EQ(got[i],
              code(recvOrder[i].stage, recvOrder[i].mb, recvOrder[i].kind));
}

TEST(RuntimeInProc, MatchesBySource) {
  auto world = makeWorld(3);
  ASSERT_TRUE(world);
  int32_t from1 = 0, from2 = 0;
  ASSERT_TRUE(world->runStep([&](int rank, pprt_rank *h) {
    if (rank == 0) {
      pprt_recv(h, 2, 0, 0, PPRT_ACTIVATION, &from2, sizeof(int32_t));
      pprt_recv(h, 1, 0, 0, PPRT_ACTIVATION, &from1, sizeof(int32_t));
      return;
    }
    int32_t value = rank * 11;
    pprt_send(h, 0, 0, 0, PPRT_ACTIVATION, &value, sizeof(value));
  })) << world->error();
  EXPECT_EQ(from1, 11);
  EXPECT_EQ(from2, 22);
}

//===----------------------------------------------------------------------===//
// Failures
//===----------------------------------------------------------------------===//

TEST(RuntimeInProc, SizeMismatchNamesBothSides) {
  auto world = makeWorld(3, /*microbatches=*/4);
  ASSERT_TRUE(world);
  std::vector<char> received(1024, 'x');
  EXPECT_FALSE(world->runStep([&](int rank, pprt_rank *h) {
    if (rank == 1) {
      std::vector<char> data(2048, 'a');
      pprt_send(h, 2, 1, 3, PPRT_ACTIVATION, data.data(), 2048);
    } else if (rank == 2) {
      pprt_recv(h, 1, 1, 3, PPRT_ACTIVATION, received.data(), 1024);
    }
  }));
  EXPECT_EQ(world->error(), "rank 2 expected 1024 bytes of activation (stage "
                            "1, micro-batch 3) from rank 1, which sent 2048 "
                            "bytes");
  // A failed receive leaves its buffer as it is.
  EXPECT_EQ(received, std::vector<char>(1024, 'x'));
}

TEST(RuntimeInProc, ReceiveWithoutSenderTimesOut) {
  auto world = makeWorld(2, 1, /*timeout=*/0.2);
  ASSERT_TRUE(world);
  auto start = std::chrono::steady_clock::now();
  EXPECT_FALSE(world->runStep([&](int rank, pprt_rank *h) {
    if (rank == 1) {
      char buffer[8];
      pprt_recv(h, 0, 0, 0, PPRT_GRADIENT, buffer, sizeof(buffer));
    }
  }));
  double elapsed = secondsSince(start);
  EXPECT_EQ(world->error(), "rank 1 timed out after 0.2 s waiting for "
                            "gradient (stage 0, micro-batch 0) from rank 0");
  EXPECT_GE(elapsed, 0.19);
  EXPECT_LT(elapsed, 3.0);
}

TEST(RuntimeInProc, ExceptionEndsBlockedRanksQuickly) {
  // A long timeout: the blocked ranks must wake because of the failure.
  auto world = makeWorld(4, 1, /*timeout=*/60.0);
  ASSERT_TRUE(world);
  std::vector<char> buffer(16, 'z');
  std::mutex mutex;
  auto start = std::chrono::steady_clock::now();
  EXPECT_FALSE(world->runStep([&](int rank, pprt_rank *h) {
    if (rank == 0) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      throw std::runtime_error("boom");
    }
    std::vector<char> mine(16, 'z');
    pprt_recv(h, 0, 0, 0, PPRT_ACTIVATION, mine.data(), 16);
    // In the failed state every call returns at once.
    for (int i = 0; i < 100; ++i)
      pprt_recv(h, 0, 0, 0, PPRT_ACTIVATION, mine.data(), 16);
    std::lock_guard<std::mutex> lock(mutex);
    if (mine != buffer)
      buffer = mine;
  }));
  EXPECT_LT(secondsSince(start), 5.0);
  EXPECT_EQ(world->error(), "rank 0 threw: boom");
  EXPECT_EQ(buffer, std::vector<char>(16, 'z'));
}

TEST(RuntimeInProc, StuckRankIsLeftRunningAfterTimeout) {
  auto world = makeWorld(2, 1, /*timeout=*/0.2);
  ASSERT_TRUE(world);
  auto start = std::chrono::steady_clock::now();
  EXPECT_FALSE(world->runStep([](int rank, pprt_rank *) {
    if (rank == 0)
      throw std::runtime_error("first");
    // Compute that ignores the failure for longer than the timeout.
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  }));
  EXPECT_LT(secondsSince(start), 1.2);
  EXPECT_NE(world->error().find("rank 0 threw: first"), std::string::npos);
  EXPECT_NE(world->error().find("rank(s) 1 did not return within 0.2 s after "
                                "the failure and were left running"),
            std::string::npos)
      << world->error();
  EXPECT_TRUE(world->ranksLeftRunning());
  // The world stays usable; the flag stays set (the thread may still run).
  EXPECT_TRUE(world->runStep([](int, pprt_rank *) {})) << world->error();
  EXPECT_TRUE(world->ranksLeftRunning());
}

TEST(RuntimeInProc, FailedStepWhoseRanksReturnLeavesNoneRunning) {
  auto world = makeWorld(2, 1, /*timeout=*/0.2);
  ASSERT_TRUE(world);
  EXPECT_FALSE(world->runStep([](int rank, pprt_rank *) {
    if (rank == 0)
      throw std::runtime_error("first");
  }));
  EXPECT_FALSE(world->ranksLeftRunning());
}

TEST(RuntimeInProc, UnreceivedMessageFailsTheStep) {
  auto world = makeWorld(2, 2);
  ASSERT_TRUE(world);
  EXPECT_FALSE(world->runStep([](int rank, pprt_rank *h) {
    if (rank == 0) {
      int value = 1;
      pprt_send(h, 1, 0, 1, PPRT_ACTIVATION, &value, sizeof(value));
    }
  }));
  EXPECT_EQ(world->error(), "rank 0 sent activation (stage 0, micro-batch 1) "
                            "to rank 1, which never received it");
}

TEST(RuntimeInProc, BadArgumentsFail) {
  auto world = makeWorld(2, 2);
  ASSERT_TRUE(world);
  int value = 0;
  EXPECT_FALSE(world->runStep([&](int rank, pprt_rank *h) {
    if (rank == 0)
      pprt_send(h, 5, 0, 0, PPRT_ACTIVATION, &value, sizeof(value));
  }));
  EXPECT_EQ(world->error(), "rank 0: pprt_send: peer 5 is not a rank (the "
                            "world has 2 ranks)");
  EXPECT_FALSE(world->runStep([&](int rank, pprt_rank *h) {
    if (rank == 1)
      pprt_recv(h, 0, 0, 2, PPRT_ACTIVATION, &value, sizeof(value));
  }));
  EXPECT_EQ(world->error(), "rank 1: pprt_recv: micro-batch 2 is out of "
                            "range (the world has 2 micro-batches)");
  EXPECT_FALSE(world->runStep([&](int rank, pprt_rank *h) {
    if (rank == 1)
      pprt_action_end(h);
  }));
  EXPECT_EQ(world->error(), "rank 1: pprt_action_end: no action is open");
  EXPECT_FALSE(world->runStep([&](int rank, pprt_rank *h) {
    if (rank == 1)
      pprt_action_begin(h, PPRT_FORWARD, 1, 0);
  }));
  EXPECT_EQ(world->error(), "rank 1 ended the step with 1 action(s) still "
                            "open (innermost: forward of stage 1, "
                            "micro-batch 0)");
}

TEST(RuntimeInProc, AllReduceCallErrors) {
  // Two replicas of a one-rank pipeline: a stage that joins a bucket of
  // all-reduces (start 0) needs a later call that starts it.
  pprt::WorldOptions options;
  options.ranks = 2;
  options.replicas = 2;
  options.microbatches = 1;
  options.timeoutSeconds = 10;
  std::string error;
  std::unique_ptr<pprt::World> world = pprt::World::create(options, error);
  ASSERT_TRUE(world) << error;
  EXPECT_TRUE(world->runStep([](int, pprt_rank *h) {
    pprt_allreduce(h, 0, 0);
    pprt_allreduce(h, 1, 1);
  }));
  EXPECT_FALSE(world->runStep([](int rank, pprt_rank *h) {
    if (rank == 1)
      pprt_allreduce(h, 0, 0);
  }));
  EXPECT_EQ(world->error(), "rank 1: pprt_allreduce: stage 0 joined a bucket "
                            "of all-reduces that no call started");
  // A stage reduced twice in one step.
  EXPECT_FALSE(world->runStep([](int rank, pprt_rank *h) {
    pprt_allreduce(h, 0, 1);
    if (rank == 0)
      pprt_allreduce(h, 0, 1);
  }));
  EXPECT_EQ(world->error(),
            "rank 0: pprt_allreduce: stage 0 was reduced already this step");
}

TEST(RuntimeInProc, CreateChecksOptions) {
  std::string error;
  WorldOptions options;
  options.ranks = 0;
  EXPECT_FALSE(World::create(options, error));
  EXPECT_EQ(error, "a world needs at least 1 rank, not 0");
  options.ranks = 2;
  options.transport = "tcp";
  EXPECT_FALSE(World::create(options, error));
  EXPECT_EQ(error, "unknown transport \"tcp\" (expected inproc or mpi)");
  options.transport = "inproc";
  options.timeoutSeconds = 0;
  EXPECT_FALSE(World::create(options, error));
  EXPECT_EQ(error, "the timeout must be positive, not 0 s");
}

//===----------------------------------------------------------------------===//
// Fault injection
//===----------------------------------------------------------------------===//

TEST(RuntimeInProc, ParsesFaults) {
  FaultInjection fault;
  std::string error;
  ASSERT_TRUE(FaultInjection::parse("rank=1,action=3,mode=exit", fault, error));
  EXPECT_EQ(fault.rank, 1);
  EXPECT_EQ(fault.action, 3);
  EXPECT_EQ(fault.step, 0);
  EXPECT_EQ(fault.mode, FaultInjection::Mode::Exit);
  ASSERT_TRUE(FaultInjection::parse("mode=hang,rank=0,step=2", fault, error));
  EXPECT_EQ(fault.action, 1);
  EXPECT_EQ(fault.step, 2);
  EXPECT_EQ(fault.mode, FaultInjection::Mode::Hang);
  EXPECT_FALSE(FaultInjection::parse("rank=1,mode=explode", fault, error));
  EXPECT_EQ(error, "fault \"rank=1,mode=explode\": unknown mode \"explode\" "
                   "(expected throw, fail, exit, kill or hang)");
  EXPECT_FALSE(FaultInjection::parse("rank=x,mode=exit", fault, error));
  EXPECT_FALSE(
      FaultInjection::parse("rank=1,action=0,mode=exit", fault, error));
  EXPECT_FALSE(FaultInjection::parse("action=2,mode=exit", fault, error));
  EXPECT_EQ(error, "fault \"action=2,mode=exit\": needs rank= and mode=");
}

/// A two-rank pipeline of `microbatches` forwards: rank 0 sends each
/// micro-batch's activation to rank 1.
void pipeline(int rank, pprt_rank *h, int64_t microbatches) {
  for (int64_t mb = 0; mb < microbatches; ++mb) {
    float value = static_cast<float>(mb);
    if (rank == 1)
      pprt_recv(h, 0, 0, mb, PPRT_ACTIVATION, &value, sizeof(value));
    pprt_action_begin(h, PPRT_FORWARD, rank, mb);
    pprt_action_end(h);
    if (rank == 0)
      pprt_send(h, 1, 0, mb, PPRT_ACTIVATION, &value, sizeof(value));
  }
}

TEST(RuntimeInProc, FaultThrowFailsTheRank) {
  FaultInjection fault;
  fault.rank = 1;
  fault.action = 2;
  fault.mode = FaultInjection::Mode::Throw;
  auto world = makeWorld(2, 3, 10.0, fault);
  ASSERT_TRUE(world);
  EXPECT_FALSE(
      world->runStep([](int rank, pprt_rank *h) { pipeline(rank, h, 3); }));
  EXPECT_EQ(world->error(), "rank 1 threw: fault injection: rank 1 at its "
                            "action 2 (forward of stage 1, micro-batch 1)");
}

TEST(RuntimeInProc, FaultFailOnlyInItsStep) {
  FaultInjection fault;
  fault.rank = 0;
  fault.action = 1;
  fault.step = 2;
  fault.mode = FaultInjection::Mode::Fail;
  auto world = makeWorld(2, 2, 10.0, fault);
  ASSERT_TRUE(world);
  auto program = [](int rank, pprt_rank *h) { pipeline(rank, h, 2); };
  EXPECT_TRUE(world->runStep(program)) << world->error();
  EXPECT_FALSE(world->runStep(program));
  EXPECT_EQ(world->error(), "fault injection: rank 0 at its action 1 "
                            "(forward of stage 0, micro-batch 0)");
  EXPECT_TRUE(world->runStep(program)) << world->error();
}

TEST(RuntimeInProc, FaultHangMakesPeersTimeOut) {
  FaultInjection fault;
  fault.rank = 0;
  fault.action = 2;
  fault.mode = FaultInjection::Mode::Hang;
  auto world = makeWorld(2, 3, /*timeout=*/0.3, fault);
  ASSERT_TRUE(world);
  auto start = std::chrono::steady_clock::now();
  EXPECT_FALSE(
      world->runStep([](int rank, pprt_rank *h) { pipeline(rank, h, 3); }));
  EXPECT_LT(secondsSince(start), 3.0);
  EXPECT_EQ(world->error(), "rank 1 timed out after 0.3 s waiting for "
                            "activation (stage 0, micro-batch 1) from rank 0");
}

TEST(RuntimeInProc, FaultFromEnvironment) {
  ::setenv("PPRT_FAULT", "rank=1,action=1,mode=fail", 1);
  auto world = makeWorld(2);
  ::unsetenv("PPRT_FAULT");
  ASSERT_TRUE(world);
  EXPECT_EQ(world->options().fault.rank, 1);
  EXPECT_EQ(world->options().fault.mode, FaultInjection::Mode::Fail);
  EXPECT_FALSE(
      world->runStep([](int rank, pprt_rank *h) { pipeline(rank, h, 1); }));
  EXPECT_EQ(world->error(), "fault injection: rank 1 at its action 1 "
                            "(forward of stage 1, micro-batch 0)");

  ::setenv("PPRT_FAULT", "rank=1", 1);
  std::string error;
  EXPECT_FALSE(World::create(WorldOptions(), error));
  ::unsetenv("PPRT_FAULT");
  EXPECT_EQ(error, "PPRT_FAULT: fault \"rank=1\": needs rank= and mode=");
}

//===----------------------------------------------------------------------===//
// Compute slots
//===----------------------------------------------------------------------===//

std::unique_ptr<World> makeSlottedWorld(int ranks, int slots, double timeout) {
  WorldOptions options;
  options.ranks = ranks;
  options.timeoutSeconds = timeout;
  options.computeSlots = slots;
  std::string error;
  std::unique_ptr<World> world = World::create(options, error);
  EXPECT_TRUE(world) << error;
  return world;
}

/// The most compute actions (F, B, W) of `trace` that overlap in time.
int mostConcurrentComputeActions(const std::vector<TraceEvent> &trace) {
  std::vector<std::pair<double, int>> edges;
  for (const TraceEvent &e : trace)
    if (e.action <= PPRT_BACKWARD_WEIGHT) {
      edges.emplace_back(e.start, 1);
      edges.emplace_back(e.end, -1);
    }
  std::sort(edges.begin(), edges.end()); // an end before a start at a tie
  int now = 0, most = 0;
  for (auto [time, delta] : edges)
    most = std::max(most, now += delta);
  return most;
}

TEST(RuntimeInProc, ComputeSlotsBoundConcurrentComputeActions) {
  // Four ranks, each three 20 ms computations: with one slot no two
  // overlap, with two at most two.
  for (int slots : {1, 2}) {
    SCOPED_TRACE("slots = " + std::to_string(slots));
    auto world = makeSlottedWorld(4, slots, 10.0);
    ASSERT_TRUE(world);
    ASSERT_TRUE(world->runStep([&](int rank, pprt_rank *h) {
      for (int i = 0; i < 3; ++i) {
        pprt_action_begin(h, PPRT_FORWARD, rank, i);
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        pprt_action_end(h);
      }
    })) << world->error();
    EXPECT_LE(mostConcurrentComputeActions(world->trace()), slots);
    // Waiting for a slot is not in an action's time.
    for (const TraceEvent &e : world->trace())
      EXPECT_LT(e.end - e.start, 0.2);
  }
  // Without a limit (0) all four compute at once: each waits inside its
  // action until all have begun.
  auto world = makeSlottedWorld(4, 0, 10.0);
  ASSERT_TRUE(world);
  std::atomic<int> begun{0};
  ASSERT_TRUE(world->runStep([&](int rank, pprt_rank *h) {
    pprt_action_begin(h, PPRT_FORWARD, rank, 0);
    ++begun;
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (begun < 4 && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    pprt_action_end(h);
  })) << world->error();
  EXPECT_EQ(mostConcurrentComputeActions(world->trace()), 4);
}

TEST(RuntimeInProc, ComputeSlotWaitTimesOut) {
  // Rank 0 holds the only slot for 1 s; rank 1 asks for it only once rank 0
  // has it and gives up after 0.2 s.
  auto world = makeSlottedWorld(2, 1, 0.2);
  ASSERT_TRUE(world);
  std::atomic<bool> held{false};
  auto start = std::chrono::steady_clock::now();
  EXPECT_FALSE(world->runStep([&](int rank, pprt_rank *h) {
    if (rank == 1)
      while (!held && secondsSince(start) < 5)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    pprt_action_begin(h, PPRT_FORWARD, rank, 0);
    if (rank == 0) {
      held = true;
      std::this_thread::sleep_for(std::chrono::seconds(1));
    }
    pprt_action_end(h);
  }));
  EXPECT_NE(world->error().find("rank 1: waited more than 0.2 s for a compute "
                                "slot"),
            std::string::npos)
      << world->error();
  EXPECT_GE(secondsSince(start), 0.2);
}

} // namespace
