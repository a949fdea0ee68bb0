//===- InProcResultsTest.cpp - Results of steps on the inproc transport ---===//
//
// Parameters, inputs, gradients and SGD, losses, stash, trace and measured
// timing of steps on the inproc transport. Timed checks use loose bounds.
//
//===----------------------------------------------------------------------===//

#include "RuntimeTestUtil.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

using namespace pprt;
using namespace pprt_test;

namespace {

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

TEST(RuntimeInProc, NextStepsSumsStartAfreshInRecycledStorage) {
  // Step 2's sums reuse step 1's storage (the pages are there already) but
  // hold only step 2's gradients, also for a size that changed.
  auto world = makeWorld(1, 1);
  ASSERT_TRUE(world);
  world->setParameter(0, 0, f32Buffer({1, 2, 3}));
  world->setParameter(0, 1, f32Buffer({1, 2}));
  ASSERT_TRUE(world->runStep([](int, pprt_rank *h) {
    float g[3] = {100, 200, 300}, h2[2] = {7, 8};
    pprt_accumulate_gradient(h, 0, 0, g, sizeof(g), PPRT_F32);
    pprt_accumulate_gradient(h, 0, 0, g, sizeof(g), PPRT_F32);
    pprt_accumulate_gradient(h, 0, 1, h2, sizeof(h2), PPRT_F32);
  })) << world->error();
  EXPECT_EQ(valuesOf<float>(*world->gradient(0, 0)),
            (std::vector<float>{200, 400, 600}));
  ASSERT_TRUE(world->runStep([](int, pprt_rank *h) {
    float g[3] = {0.5f, 1.5f, -2.0f};
    pprt_accumulate_gradient(h, 0, 0, g, sizeof(g), PPRT_F32);
  })) << world->error();
  ASSERT_TRUE(world->gradient(0, 0));
  EXPECT_EQ(valuesOf<float>(*world->gradient(0, 0)),
            (std::vector<float>{0.5f, 1.5f, -2.0f}));
  // Not accumulated this step: no gradient, though last step had one.
  EXPECT_FALSE(world->gradient(0, 1));
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
