//===- InProcTest.cpp - Tests of the runtime on the inproc transport -----===//
//
// Messages, matching, failures (size mismatch, timeout, exception, fault
// injection), gradients and SGD, losses, stash, trace and measured timing.
// Timed checks use loose bounds: the timeouts are short, the bounds several
// times longer.
//
//===----------------------------------------------------------------------===//

#include "pprt/Runtime.h"
#include "pprt/pprt.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

using namespace pprt;

namespace {

std::unique_ptr<World> makeWorld(int ranks, int64_t microbatches = 1,
                                 double timeout = 10.0,
                                 FaultInjection fault = {}) {
  WorldOptions options;
  options.ranks = ranks;
  options.microbatches = microbatches;
  options.timeoutSeconds = timeout;
  options.fault = fault;
  std::string error;
  std::unique_ptr<World> world = World::create(options, error);
  EXPECT_TRUE(world) << error;
  return world;
}

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

Buffer f32Buffer(std::vector<float> values) {
  Buffer buffer;
  buffer.dtype = PPRT_F32;
  buffer.bytes.resize(values.size() * sizeof(float));
  std::memcpy(buffer.bytes.data(), values.data(), buffer.bytes.size());
  return buffer;
}

Buffer f64Buffer(std::vector<double> values) {
  Buffer buffer;
  buffer.dtype = PPRT_F64;
  buffer.bytes.resize(values.size() * sizeof(double));
  std::memcpy(buffer.bytes.data(), values.data(), buffer.bytes.size());
  return buffer;
}

template <typename T> std::vector<T> valuesOf(const Buffer &buffer) {
  std::vector<T> values(buffer.bytes.size() / sizeof(T));
  std::memcpy(values.data(), buffer.bytes.data(), buffer.bytes.size());
  return values;
}

/// A small JSON syntax checker (objects, arrays, strings without escapes,
/// numbers, true/false/null): enough for the trace.
class JsonChecker {
public:
  explicit JsonChecker(const std::string &text) : text(text) {}
  bool check() {
    skip();
    if (!value())
      return false;
    skip();
    return pos == text.size();
  }

private:
  void skip() {
    while (pos < text.size() &&
           std::isspace(static_cast<unsigned char>(text[pos])))
      ++pos;
  }
  bool eat(char c) {
    skip();
    if (pos < text.size() && text[pos] == c) {
      ++pos;
      return true;
    }
    return false;
  }
  bool string() {
    if (!eat('"'))
      return false;
    while (pos < text.size() && text[pos] != '"' && text[pos] != '\\')
      ++pos;
    return eat('"');
  }
  bool number() {
    size_t start = pos;
    if (pos < text.size() && text[pos] == '-')
      ++pos;
    while (pos < text.size() &&
           (std::isdigit(static_cast<unsigned char>(text[pos])) ||
            text[pos] == '.' || text[pos] == 'e' || text[pos] == 'E' ||
            text[pos] == '+' || text[pos] == '-'))
      ++pos;
    return pos > start;
  }
  bool value() {
    skip();
    if (pos >= text.size())
      return false;
    char c = text[pos];
    if (c == '{') {
      ++pos;
      if (eat('}'))
        return true;
      do {
        if (!string() || !eat(':') || !value())
          return false;
      } while (eat(','));
      return eat('}');
    }
    if (c == '[') {
      ++pos;
      if (eat(']'))
        return true;
      do {
        if (!value())
          return false;
      } while (eat(','));
      return eat(']');
    }
    if (c == '"')
      return string();
    for (const char *word : {"true", "false", "null"})
      if (text.compare(pos, std::strlen(word), word) == 0) {
        pos += std::strlen(word);
        return true;
      }
    return number();
  }

  const std::string &text;
  size_t pos = 0;
};

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
  // The world stays usable.
  EXPECT_TRUE(world->runStep([](int, pprt_rank *) {})) << world->error();
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
// Parameters, inputs, gradients, losses, stash
//===----------------------------------------------------------------------===//

TEST(RuntimeInProc, ParametersAndInputs) {
  auto world = makeWorld(2, 2);
  ASSERT_TRUE(world);
  world->setParameter(1, 0, f32Buffer({1, 2, 3}));
  world->setInput(1, 0, {'a', 'b'});
  EXPECT_EQ(valuesOf<float>(world->parameter(1, 0)),
            (std::vector<float>{1, 2, 3}));
  EXPECT_TRUE(world->parameter(7, 7).bytes.empty());
  float param[3] = {};
  char input[2] = {};
  ASSERT_TRUE(world->runStep([&](int rank, pprt_rank *h) {
    if (rank != 1)
      return;
    pprt_parameter(h, 1, 0, param, sizeof(param));
    pprt_input(h, 1, 0, input, sizeof(input));
  })) << world->error();
  EXPECT_EQ(param[2], 3.0f);
  EXPECT_EQ(input[1], 'b');

  EXPECT_FALSE(world->runStep([&](int rank, pprt_rank *h) {
    if (rank == 0)
      pprt_parameter(h, 1, 0, param, 8);
  }));
  EXPECT_EQ(world->error(), "rank 0 expected 8 bytes of parameter 0 of stage "
                            "1, which has 12 bytes");
  EXPECT_FALSE(world->runStep([&](int rank, pprt_rank *h) {
    if (rank == 0)
      pprt_input(h, 0, 3, input, 2);
  }));
  EXPECT_EQ(world->error(), "rank 0: pprt_input: the launcher set no data "
                            "argument 3 of micro-batch 0");
}

TEST(RuntimeInProc, GradientsAccumulateAndSgdIsExactF32) {
  auto world = makeWorld(2, 2);
  ASSERT_TRUE(world);
  world->setParameter(0, 0, f32Buffer({1, 2, 3}));
  world->setParameter(1, 0, f32Buffer({10, 20}));
  ASSERT_TRUE(world->runStep([](int rank, pprt_rank *h) {
    if (rank == 0) {
      float g1[3] = {0.5f, 1.25f, -2.0f}, g2[3] = {0.25f, 0.75f, 4.0f};
      pprt_accumulate_gradient(h, 0, 0, g1, sizeof(g1), PPRT_F32);
      pprt_accumulate_gradient(h, 0, 0, g2, sizeof(g2), PPRT_F32);
    } else {
      // Two ranks that add to one parameter: their sums add up.
      float g[2] = {1, 2};
      pprt_accumulate_gradient(h, 1, 0, g, sizeof(g), PPRT_F32);
    }
  })) << world->error();
  const Buffer *g0 = world->gradient(0, 0);
  ASSERT_TRUE(g0);
  EXPECT_EQ(g0->dtype, PPRT_F32);
  EXPECT_EQ(valuesOf<float>(*g0), (std::vector<float>{0.75f, 2.0f, 2.0f}));
  EXPECT_FALSE(world->gradient(0, 1));
  world->sgdStep(0.5);
  EXPECT_EQ(valuesOf<float>(world->parameter(0, 0)),
            (std::vector<float>{0.625f, 1.0f, 2.0f}));
  EXPECT_EQ(valuesOf<float>(world->parameter(1, 0)),
            (std::vector<float>{9.5f, 19.0f}));
  // The next step starts without gradients.
  ASSERT_TRUE(world->runStep([](int, pprt_rank *) {}));
  EXPECT_FALSE(world->gradient(0, 0));
  world->sgdStep(0.5);
  EXPECT_EQ(valuesOf<float>(world->parameter(0, 0)),
            (std::vector<float>{0.625f, 1.0f, 2.0f}));
}

TEST(RuntimeInProc, GradientsAccumulateAndSgdIsExactF64) {
  auto world = makeWorld(1);
  ASSERT_TRUE(world);
  world->setParameter(2, 1, f64Buffer({1.0, -1.0}));
  ASSERT_TRUE(world->runStep([](int, pprt_rank *h) {
    double g1[2] = {0.1, 3.0}, g2[2] = {0.2, -1.5};
    pprt_accumulate_gradient(h, 2, 1, g1, sizeof(g1), PPRT_F64);
    pprt_accumulate_gradient(h, 2, 1, g2, sizeof(g2), PPRT_F64);
  })) << world->error();
  const Buffer *g = world->gradient(2, 1);
  ASSERT_TRUE(g);
  EXPECT_EQ(g->dtype, PPRT_F64);
  // Added in double: 0.1 + 0.2 as double, not as float.
  EXPECT_EQ(valuesOf<double>(*g), (std::vector<double>{0.1 + 0.2, 1.5}));
  world->sgdStep(0.25);
  EXPECT_EQ(valuesOf<double>(world->parameter(2, 1)),
            (std::vector<double>{1.0 - 0.25 * (0.1 + 0.2), -1.375}));
}

TEST(RuntimeInProc, GradientMustMatchItsParameter) {
  auto world = makeWorld(1);
  ASSERT_TRUE(world);
  world->setParameter(0, 0, f32Buffer({1, 2}));
  EXPECT_FALSE(world->runStep([](int, pprt_rank *h) {
    double g[2] = {1, 2};
    pprt_accumulate_gradient(h, 0, 0, g, sizeof(g), PPRT_F64);
  }));
  EXPECT_EQ(world->error(), "rank 0 added a gradient of 16 bytes of f64 to "
                            "parameter 0 of stage 0, which has 8 bytes of "
                            "f32");
}

TEST(RuntimeInProc, LossSeedIsOneOverM) {
  for (int64_t m : {1, 3, 4, 8}) {
    auto world = makeWorld(1, m);
    ASSERT_TRUE(world);
    float f = 0;
    double d = 0;
    ASSERT_TRUE(world->runStep([&](int, pprt_rank *h) {
      pprt_loss_seed(h, &f, PPRT_F32);
      pprt_loss_seed(h, &d, PPRT_F64);
    }));
    EXPECT_EQ(d, 1.0 / static_cast<double>(m));
    EXPECT_EQ(f, static_cast<float>(1.0 / static_cast<double>(m)));
  }
}

TEST(RuntimeInProc, LossesByMicrobatch) {
  auto world = makeWorld(2, 3);
  ASSERT_TRUE(world);
  ASSERT_TRUE(world->runStep([](int rank, pprt_rank *h) {
    if (rank == 1) {
      float l0 = 0.5f;
      double l2 = 2.25;
      pprt_loss(h, 0, &l0, PPRT_F32);
      pprt_loss(h, 2, &l2, PPRT_F64);
    }
  }));
  std::vector<double> losses = world->losses();
  ASSERT_EQ(losses.size(), 3u);
  EXPECT_EQ(losses[0], 0.5);
  EXPECT_TRUE(std::isnan(losses[1]));
  EXPECT_EQ(losses[2], 2.25);
}

TEST(RuntimeInProc, StashPeaks) {
  auto world = makeWorld(3);
  ASSERT_TRUE(world);
  ASSERT_TRUE(world->runStep([](int rank, pprt_rank *h) {
    if (rank == 0)
      for (int64_t delta : {100, 100, -100, 50, -150})
        pprt_stash(h, delta);
    else if (rank == 1)
      pprt_stash(h, 10);
  }));
  EXPECT_EQ(world->stashPeaks(), (std::vector<int64_t>{200, 10, 0}));
  ASSERT_TRUE(world->runStep([](int rank, pprt_rank *h) {
    if (rank == 2)
      pprt_stash(h, 7);
  }));
  EXPECT_EQ(world->stashPeaks(), (std::vector<int64_t>{0, 0, 7}));
}

//===----------------------------------------------------------------------===//
// Trace and timing
//===----------------------------------------------------------------------===//

TEST(RuntimeInProc, TraceHasEveryActionAndIsJson) {
  auto world = makeWorld(2, 2);
  ASSERT_TRUE(world);
  ASSERT_TRUE(world->runStep([](int rank, pprt_rank *h) {
    for (int64_t mb = 0; mb < 2; ++mb) {
      float value = 1;
      if (rank == 1) {
        pprt_action_begin(h, PPRT_RECV, 0, mb);
        pprt_recv(h, 0, 0, mb, PPRT_ACTIVATION, &value, sizeof(value));
        pprt_action_end(h);
      }
      pprt_action_begin(h, PPRT_FORWARD, rank, mb);
      pprt_action_end(h);
      if (rank == 0) {
        pprt_action_begin(h, PPRT_SEND, 0, mb);
        pprt_send(h, 1, 0, mb, PPRT_ACTIVATION, &value, sizeof(value));
        pprt_action_end(h);
      }
    }
    pprt_action_begin(h, PPRT_BACKWARD_INPUT, rank, 0);
    pprt_action_end(h);
    pprt_action_begin(h, PPRT_BACKWARD_WEIGHT, rank, 0);
    pprt_action_end(h);
  })) << world->error();
  std::vector<TraceEvent> trace = world->trace();
  ASSERT_EQ(trace.size(), 12u);
  // By rank, then by start.
  std::vector<pprt_action> rank0 = {PPRT_FORWARD,        PPRT_SEND,
                                    PPRT_FORWARD,        PPRT_SEND,
                                    PPRT_BACKWARD_INPUT, PPRT_BACKWARD_WEIGHT};
  for (size_t i = 0; i < trace.size(); ++i) {
    const TraceEvent &e = trace[i];
    SCOPED_TRACE("event " + std::to_string(i));
    EXPECT_EQ(e.rank, i < 6 ? 0 : 1);
    EXPECT_LE(e.start, e.end);
    EXPECT_GE(e.start, 0.0);
    if (i > 0 && trace[i - 1].rank == e.rank)
      EXPECT_LE(trace[i - 1].start, e.start);
    if (i < 6)
      EXPECT_EQ(e.action, rank0[i]);
  }
  EXPECT_EQ(trace[1].kind, PPRT_ACTIVATION);
  EXPECT_EQ(trace[1].peer, 1);
  EXPECT_EQ(trace[6].action, PPRT_RECV);
  EXPECT_EQ(trace[6].peer, 0);
  EXPECT_EQ(trace[7].stage, 1);
  EXPECT_EQ(trace[9].microbatch, 1);

  std::string json = world->chromeTraceJson();
  EXPECT_TRUE(JsonChecker(json).check()) << json;
  EXPECT_EQ(json.rfind("{\"traceEvents\": [", 0), 0u) << json;
  for (const char *part :
       {"\"cat\":\"forward\"", "\"name\":\"F1\"", "\"ph\":\"X\"", "\"pid\":0",
        "\"tid\":1", "\"cat\":\"send\"", "\"name\":\"SEND_F0\"",
        "\"name\":\"RECV_F1\"", "\"cat\":\"backward_input\"", "\"name\":\"B0\"",
        "\"cat\":\"backward_weight\"", "\"name\":\"W0\"",
        "\"args\":{\"microbatch\":1,\"stage\":1}"})
    EXPECT_NE(json.find(part), std::string::npos) << part << "\n" << json;
  size_t events = 0;
  for (size_t at = json.find("\"ph\":\"X\""); at != std::string::npos;
       at = json.find("\"ph\":\"X\"", at + 1))
    ++events;
  EXPECT_EQ(events, 12u);
}

TEST(RuntimeInProc, EmptyTraceIsJson) {
  auto world = makeWorld(2);
  ASSERT_TRUE(world);
  ASSERT_TRUE(world->runStep([](int, pprt_rank *) {}));
  EXPECT_TRUE(world->trace().empty());
  EXPECT_TRUE(JsonChecker(world->chromeTraceJson()).check());
  StepTiming timing = world->stepTiming();
  EXPECT_EQ(timing.makespan, 0.0);
  EXPECT_EQ(timing.bubbleRate, 0.0);
}

TEST(RuntimeInProc, BusyMakespanAndBubbleOfTwoStages) {
  // Rank 0 computes 40 ms then sends; rank 1 receives, then computes 40 ms.
  // Ideal: busy 40 ms each, makespan 80 ms, bubble rate 0.5.
  auto world = makeWorld(2);
  ASSERT_TRUE(world);
  auto compute = [](pprt_rank *h, int64_t stage) {
    pprt_action_begin(h, PPRT_FORWARD, stage, 0);
    std::this_thread::sleep_for(std::chrono::milliseconds(40));
    pprt_action_end(h);
  };
  ASSERT_TRUE(world->runStep([&](int rank, pprt_rank *h) {
    char byte = 0;
    if (rank == 0) {
      compute(h, 0);
      pprt_send(h, 1, 0, 0, PPRT_ACTIVATION, &byte, 1);
    } else {
      pprt_recv(h, 0, 0, 0, PPRT_ACTIVATION, &byte, 1);
      compute(h, 1);
    }
  })) << world->error();
  StepTiming t = world->stepTiming();
  ASSERT_EQ(t.busy.size(), 2u);
  for (int r = 0; r < 2; ++r) {
    EXPECT_GE(t.busy[r], 0.039);
    EXPECT_LT(t.busy[r], 1.0);
    EXPECT_LE(t.busy[r], t.makespan);
  }
  EXPECT_GE(t.makespan, 0.079);
  EXPECT_LT(t.makespan, 2.0);
  EXPECT_NEAR(t.end[1], t.makespan + world->trace().front().start, 1e-9);
  // Consistent with the definitions.
  EXPECT_DOUBLE_EQ(t.idealTime, std::max(t.busy[0], t.busy[1]));
  EXPECT_DOUBLE_EQ(t.bubbleRate, 1.0 - t.idealTime / t.makespan);
  EXPECT_DOUBLE_EQ(t.meanBubbleRate,
                   1.0 - (t.busy[0] + t.busy[1]) / (2 * t.makespan));
  EXPECT_DOUBLE_EQ(t.rankBubbleRate[1], 1.0 - t.busy[1] / t.makespan);
  // About 0.5; loose, since sleeps overshoot under load.
  EXPECT_GT(t.bubbleRate, 0.3);
  EXPECT_LT(t.bubbleRate, 0.95);
  EXPECT_GT(t.meanBubbleRate, 0.3);
  EXPECT_LT(t.meanBubbleRate, 0.95);
}

} // namespace
