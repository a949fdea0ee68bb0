//===- DeviceMemoryTest.cpp - Device-memory hooks and transport registry -===//
//
// WorldOptions::deviceMemory: every pprt_* that reads or writes a rank
// program's buffer must go through the hooks. The fake "device" here is host
// memory whose bytes are XOR-ed with a key, so a call that bypasses a hook
// (memcpy) shows as scrambled data. Also the transport registry
// (pprt::detail::registerTransport). A binary of its own: the registry is
// process-wide and would change the error text InProcTest checks.
//
//===----------------------------------------------------------------------===//

#include "../../runtime/lib/Transport.h"
#include "pprt/Runtime.h"
#include "pprt/pprt.h"

#include "gtest/gtest.h"

#include <atomic>
#include <cstring>
#include <vector>

using namespace pprt;

namespace {

constexpr unsigned char kKey = 0x5A;

/// Hooks that XOR every byte with kKey and count their calls.
struct XorDevice {
  std::atomic<int> toHostCalls{0}, toDeviceCalls{0};
  std::atomic<int64_t> bytes{0};

  DeviceMemory hooks() {
    DeviceMemory memory;
    memory.toHost = [this](int, void *dst, const void *src, int64_t n) {
      ++toHostCalls;
      bytes += n;
      for (int64_t i = 0; i < n; ++i)
        static_cast<unsigned char *>(dst)[i] =
            static_cast<const unsigned char *>(src)[i] ^ kKey;
    };
    memory.toDevice = [this](int, void *dst, const void *src, int64_t n) {
      ++toDeviceCalls;
      bytes += n;
      for (int64_t i = 0; i < n; ++i)
        static_cast<unsigned char *>(dst)[i] =
            static_cast<const unsigned char *>(src)[i] ^ kKey;
    };
    return memory;
  }
};

/// What a rank program holds on the fake device: the XOR of `values`.
template <typename T> std::vector<T> onDevice(std::vector<T> values) {
  for (T &v : values)
    for (size_t i = 0; i < sizeof(T); ++i)
      reinterpret_cast<unsigned char *>(&v)[i] ^= kKey;
  return values;
}
/// The values a device buffer holds (the inverse of onDevice).
template <typename T> std::vector<T> fromDevice(std::vector<T> values) {
  return onDevice(std::move(values));
}

template <typename T> Buffer bufferOf(std::vector<T> values, pprt_dtype dt) {
  Buffer buffer;
  buffer.dtype = dt;
  buffer.bytes.resize(values.size() * sizeof(T));
  std::memcpy(buffer.bytes.data(), values.data(), buffer.bytes.size());
  return buffer;
}

TEST(RuntimeDeviceMemory, EveryBufferAccessGoesThroughTheHooks) {
  XorDevice device;
  WorldOptions options;
  options.ranks = 2;
  options.microbatches = 2;
  options.timeoutSeconds = 10;
  options.deviceMemory = device.hooks();
  std::string error;
  std::unique_ptr<World> world = World::create(options, error);
  ASSERT_TRUE(world) << error;
  world->setParameter(0, 0, bufferOf<float>({1.5f, -2.0f, 3.25f}, PPRT_F32));
  world->setParameter(1, 0, bufferOf<double>({0.5, 7.0}, PPRT_F64));
  for (int64_t m = 0; m < 2; ++m) {
    std::vector<float> x = {float(m), float(m) + 0.5f};
    std::vector<char> bytes(sizeof(float) * 2);
    std::memcpy(bytes.data(), x.data(), bytes.size());
    world->setInput(m, 0, bytes);
  }

  std::vector<std::string> failures;
  std::mutex failuresMutex;
  auto expect = [&](bool ok, const std::string &what) {
    if (!ok) {
      std::lock_guard<std::mutex> lock(failuresMutex);
      failures.push_back(what);
    }
  };
  bool ok = world->runStep([&](int rank, pprt_rank *handle) {
    if (rank == 0) {
      std::vector<float> param(3);
      pprt_parameter(handle, 0, 0, param.data(), 12);
      expect(fromDevice(param) == std::vector<float>({1.5f, -2.0f, 3.25f}),
             "parameter of stage 0");
      for (int64_t m = 0; m < 2; ++m) {
        std::vector<float> x(2);
        pprt_input(handle, m, 0, x.data(), 8);
        expect(fromDevice(x) == std::vector<float>({float(m), m + 0.5f}),
               "input");
        std::vector<float> act = onDevice<float>({10.0f + m, 20.0f});
        pprt_send(handle, 1, 0, m, PPRT_ACTIVATION, act.data(), 8);
      }
      std::vector<float> grad = onDevice<float>({0.25f, 0.5f, 1.0f});
      pprt_accumulate_gradient(handle, 0, 0, grad.data(), 12, PPRT_F32);
      pprt_accumulate_gradient(handle, 0, 0, grad.data(), 12, PPRT_F32);
    } else {
      std::vector<double> param(2);
      pprt_parameter(handle, 1, 0, param.data(), 16);
      expect(fromDevice(param) == std::vector<double>({0.5, 7.0}),
             "parameter of stage 1");
      for (int64_t m = 0; m < 2; ++m) {
        std::vector<float> act(2);
        pprt_recv(handle, 0, 0, m, PPRT_ACTIVATION, act.data(), 8);
        expect(fromDevice(act) == std::vector<float>({10.0f + m, 20.0f}),
               "received activation");
        std::vector<float> loss = onDevice<float>({2.0f * (m + 1)});
        pprt_loss(handle, m, loss.data(), PPRT_F32);
      }
      std::vector<double> seed(1);
      pprt_loss_seed(handle, seed.data(), PPRT_F64);
      expect(fromDevice(seed) == std::vector<double>({0.5}), "loss seed");
      std::vector<double> grad = onDevice<double>({1.0, -1.0});
      pprt_accumulate_gradient(handle, 1, 0, grad.data(), 16, PPRT_F64);
    }
  });
  ASSERT_TRUE(ok) << world->error();
  EXPECT_TRUE(failures.empty()) << failures.front();
  // parameters 2, inputs 2, recv 2, seed 1 go to the device; sends 2,
  // gradients 3, losses 2 come back.
  EXPECT_EQ(device.toDeviceCalls.load(), 7);
  EXPECT_EQ(device.toHostCalls.load(), 7);
  EXPECT_EQ(world->losses(), std::vector<double>({2.0, 4.0}));
  const Buffer *g0 = world->gradient(0, 0);
  ASSERT_TRUE(g0);
  std::vector<float> got0(3);
  std::memcpy(got0.data(), g0->bytes.data(), 12);
  EXPECT_EQ(got0, std::vector<float>({0.5f, 1.0f, 2.0f}));
  const Buffer *g1 = world->gradient(1, 0);
  ASSERT_TRUE(g1);
  std::vector<double> got1(2);
  std::memcpy(got1.data(), g1->bytes.data(), 16);
  EXPECT_EQ(got1, std::vector<double>({1.0, -1.0}));
}

TEST(RuntimeDeviceMemory, AHookThatFailsTheRankFailsTheStep) {
  WorldOptions options;
  options.ranks = 1;
  options.deviceMemory.toHost = [](int, void *, const void *, int64_t) {};
  pprt_rank *current = nullptr;
  options.deviceMemory.toDevice = [&](int, void *, const void *, int64_t) {
    pprt_fail(current, "cuda error: cuMemcpyHtoD failed");
  };
  std::string error;
  std::unique_ptr<World> world = World::create(options, error);
  ASSERT_TRUE(world) << error;
  world->setParameter(0, 0, bufferOf<float>({1.0f}, PPRT_F32));
  bool ok = world->runStep([&](int, pprt_rank *handle) {
    current = handle;
    float x;
    pprt_parameter(handle, 0, 0, &x, 4);
    pprt_loss(handle, 0, &x, PPRT_F32); // returns at once: failed
  });
  EXPECT_FALSE(ok);
  EXPECT_EQ(world->error(), "rank 0: cuda error: cuMemcpyHtoD failed");
}

TEST(RuntimeDeviceMemory, BothHooksOrNeither) {
  WorldOptions options;
  options.deviceMemory.toHost = [](int, void *, const void *, int64_t) {};
  std::string error;
  EXPECT_FALSE(World::create(options, error));
  EXPECT_EQ(error,
            "deviceMemory needs both hooks, toHost and toDevice, or neither");
}

TEST(RuntimeTransportRegistry, RegisteredTransportIsCreatedAndListed) {
  std::atomic<int> created{0};
  EXPECT_FALSE(detail::registerTransport("inproc", nullptr));
  EXPECT_FALSE(detail::registerTransport(
      "mpi", [](const WorldOptions &o, std::string &) {
        return detail::createInProcTransport(o);
      }));
  EXPECT_TRUE(detail::registerTransport(
      "fake", [&](const WorldOptions &o, std::string &) {
        ++created;
        return detail::createInProcTransport(o);
      }));
  EXPECT_TRUE(detail::registerTransport(
      "broken", [](const WorldOptions &, std::string &error) {
        error = "transport broken: no device";
        return std::unique_ptr<detail::Transport>();
      }));
  WorldOptions options;
  options.ranks = 2;
  options.transport = "fake";
  std::string error;
  std::unique_ptr<World> world = World::create(options, error);
  ASSERT_TRUE(world) << error;
  EXPECT_EQ(created.load(), 1);
  EXPECT_TRUE(world->runStep([](int rank, pprt_rank *handle) {
    int value = 7;
    if (rank == 0)
      pprt_send(handle, 1, 0, 0, PPRT_ACTIVATION, &value, 4);
    else
      pprt_recv(handle, 0, 0, 0, PPRT_ACTIVATION, &value, 4);
  })) << world->error();

  options.transport = "broken";
  EXPECT_FALSE(World::create(options, error));
  EXPECT_EQ(error, "transport broken: no device");

  options.transport = "tcp";
  EXPECT_FALSE(World::create(options, error));
  EXPECT_EQ(error,
            "unknown transport \"tcp\" (expected inproc, mpi, fake or broken)");
  std::vector<std::string> known = detail::knownTransports();
  EXPECT_EQ(known,
            std::vector<std::string>({"inproc", "mpi", "fake", "broken"}));
}

} // namespace
