//===- Runtime.cpp - The world, its steps and the pprt_* C ABI -----------===//
//
// The transport-independent part of the runtime: World (parameters, inputs,
// the results of a step, SGD), fault injection, and the pprt_* functions
// rank programs call (argument checks, inputs, parameters, gradients,
// losses, actions, stash). Messages go through the Transport.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include <algorithm>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <unistd.h>

using namespace pprt;
using namespace pprt::detail;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

const char *pprt::detail::kindName(int64_t kind) {
  return (kind & 1) == PPRT_ACTIVATION ? "activation" : "gradient";
}

std::string pprt::detail::describeMessage(int64_t kind, int64_t stage,
                                         int64_t microbatch) {
  std::string part =
      kind >= 2 ? " part " + std::to_string(kind / 2) : std::string();
  return std::string(kindName(kind)) + part + " (stage " +
         std::to_string(stage) + ", micro-batch " +
         std::to_string(microbatch) + ")";
}

const char *pprt::detail::dtypeName(int64_t dtype) {
  return dtype == PPRT_F64 ? "f64" : "f32";
}

int64_t pprt::detail::dtypeSize(int64_t dtype) {
  switch (dtype) {
  case PPRT_F32:
    return 4;
  case PPRT_F64:
    return 8;
  }
  return 0;
}

const char *pprt::detail::actionCategory(pprt_action action) {
  switch (action) {
  case PPRT_FORWARD:
    return "forward";
  case PPRT_BACKWARD:
    return "backward";
  case PPRT_BACKWARD_INPUT:
    return "backward_input";
  case PPRT_BACKWARD_WEIGHT:
    return "backward_weight";
  case PPRT_SEND:
    return "send";
  case PPRT_RECV:
    return "recv";
  }
  return "unknown";
}

std::string pprt::detail::formatSeconds(double seconds) {
  char text[64];
  std::snprintf(text, sizeof(text), "%g", seconds);
  return text;
}

namespace {

std::string rankName(int rank) { return "rank " + std::to_string(rank); }

/// "forward of stage 1, micro-batch 3".
std::string describeAction(int64_t action, int64_t stage, int64_t microbatch) {
  const char *name = action >= PPRT_FORWARD && action <= PPRT_RECV
                         ? actionCategory(static_cast<pprt_action>(action))
                         : "action";
  return std::string(name) + " of stage " + std::to_string(stage) +
         ", micro-batch " + std::to_string(microbatch);
}

/// True if `rank` may go on: not null and its step has not failed.
bool live(pprt_rank *rank) {
  return rank && !rank->step->failed.load(std::memory_order_acquire);
}

/// Fails the step of `rank` with "rank R: <function>: <message>".
void failCall(pprt_rank &rank, const char *function,
              const std::string &message) {
  rank.step->fail(rankName(rank.rank) + ": " + function + ": " + message);
}

bool checkMicrobatch(pprt_rank &rank, const char *function,
                     int64_t microbatch) {
  int64_t numMicrobatches = rank.step->options.microbatches;
  if (microbatch >= 0 && microbatch < numMicrobatches)
    return true;
  failCall(rank, function,
           "micro-batch " + std::to_string(microbatch) +
               " is out of range (the world has " +
               std::to_string(numMicrobatches) + " micro-batches)");
  return false;
}

bool checkBuffer(pprt_rank &rank, const char *function, const void *data,
                 int64_t bytes) {
  if (bytes < 0) {
    failCall(rank, function, "negative size " + std::to_string(bytes));
    return false;
  }
  if (bytes > 0 && !data) {
    failCall(rank, function,
             "null buffer of " + std::to_string(bytes) + " bytes");
    return false;
  }
  return true;
}

bool checkDtype(pprt_rank &rank, const char *function, int64_t dtype) {
  if (dtypeSize(dtype) != 0)
    return true;
  failCall(rank, function,
           "unknown dtype " + std::to_string(dtype) +
               " (expected PPRT_F32 = 0 or PPRT_F64 = 1)");
  return false;
}

/// Checks the arguments of pprt_send / pprt_recv.
bool checkMessage(pprt_rank &rank, const char *function, int64_t peer,
                  int64_t stage, int64_t microbatch, int64_t kind,
                  const void *data, int64_t bytes) {
  int numRanks = rank.step->options.ranks;
  if (peer < 0 || peer >= numRanks) {
    failCall(rank, function,
             "peer " + std::to_string(peer) + " is not a rank (the world has " +
                 std::to_string(numRanks) + " ranks)");
    return false;
  }
  if (stage < 0) {
    failCall(rank, function, "negative stage " + std::to_string(stage));
    return false;
  }
  if (kind < 0 || kind >= 2 * PPRT_MAX_PARTS) {
    failCall(rank, function,
             "unknown kind " + std::to_string(kind) +
                 " (expected PPRT_ACTIVATION or PPRT_GRADIENT plus twice a "
                 "part number below " +
                 std::to_string(PPRT_MAX_PARTS) + ")");
    return false;
  }
  return checkMicrobatch(rank, function, microbatch) &&
         checkBuffer(rank, function, data, bytes);
}

/// Records `kind` and `peer` in the innermost open action if it is
/// `action` (a send inside a PPRT_SEND bracket names its payload).
void noteMessage(pprt_rank &rank, pprt_action action, int64_t kind,
                 int64_t peer) {
  if (!rank.open.empty() && rank.open.back().action == action) {
    rank.open.back().kind = kind;
    rank.open.back().peer = peer;
  }
}

template <typename T>
void addInto(std::vector<char> &to, const void *from, int64_t bytes) {
  size_t count = static_cast<size_t>(bytes) / sizeof(T);
  T *out = reinterpret_cast<T *>(to.data());
  for (size_t i = 0; i < count; ++i) {
    T value;
    std::memcpy(&value, static_cast<const char *>(from) + i * sizeof(T),
                sizeof(T));
    out[i] += value;
  }
}

/// to += from, elementwise in `dtype`.
void addBuffer(std::vector<char> &to, const void *from, int64_t bytes,
               int64_t dtype) {
  if (dtype == PPRT_F64)
    addInto<double>(to, from, bytes);
  else
    addInto<float>(to, from, bytes);
}

template <typename T>
void sgd(std::vector<char> &param, const std::vector<char> &grad,
         double learningRate) {
  size_t count = param.size() / sizeof(T);
  T *p = reinterpret_cast<T *>(param.data());
  const T *g = reinterpret_cast<const T *>(grad.data());
  T lr = static_cast<T>(learningRate);
  for (size_t i = 0; i < count; ++i)
    p[i] -= lr * g[i];
}

void injectFault(pprt_rank &rank, const FaultInjection &fault, int64_t action,
                 int64_t stage, int64_t microbatch) {
  StepContext &step = *rank.step;
  std::string what = "fault injection: " + rankName(rank.rank) +
                     " at its action " + std::to_string(rank.actionsBegun) +
                     " (" + describeAction(action, stage, microbatch) + ")";
  switch (fault.mode) {
  case FaultInjection::Mode::Throw:
    throw std::runtime_error(what);
  case FaultInjection::Mode::Fail:
    step.fail(what);
    return;
  case FaultInjection::Mode::Exit:
    std::fprintf(stderr, "pprt: %s: exiting with code 3\n", what.c_str());
    std::fflush(stderr);
    _exit(3);
  case FaultInjection::Mode::Kill:
    std::fprintf(stderr, "pprt: %s: SIGKILL\n", what.c_str());
    std::fflush(stderr);
    std::raise(SIGKILL);
    _exit(3);
  case FaultInjection::Mode::Hang: {
    double limit = 10.0 * step.options.timeoutSeconds;
    std::unique_lock<std::mutex> lock(step.mutex);
    bool failed =
        step.changed.wait_for(lock, std::chrono::duration<double>(limit),
                              [&] { return step.failed.load(); });
    lock.unlock();
    if (!failed)
      step.fail(what + ": hung for " + formatSeconds(limit) +
                " s without any rank noticing");
    return;
  }
  }
}

} // namespace

//===----------------------------------------------------------------------===//
// StepContext, rank runner, results
//===----------------------------------------------------------------------===//

pprt::detail::Transport::~Transport() = default;

void StepContext::fail(const std::string &message) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (failed.load())
      return;
    error = message;
    failTime = Clock::now();
    failed.store(true, std::memory_order_release);
  }
  changed.notify_all();
  if (onFailure)
    onFailure(message);
}

void pprt::detail::runRank(StepContext &step, pprt_rank &rank,
                           const Program &program) {
  try {
    program(rank.rank, &rank);
  } catch (const std::exception &e) {
    step.fail(rankName(rank.rank) + " threw: " + e.what());
  } catch (...) {
    step.fail(rankName(rank.rank) +
              " threw an exception that is not a std::exception");
  }
  if (!step.failed.load() && !rank.open.empty()) {
    const pprt_rank::OpenAction &last = rank.open.back();
    step.fail(rankName(rank.rank) + " ended the step with " +
              std::to_string(rank.open.size()) +
              " action(s) still open (innermost: " +
              describeAction(last.action, last.stage, last.microbatch) + ")");
  }
}

void pprt::detail::encodeTraceEvent(const TraceEvent &e, double *fields) {
  const double values[kTraceFields] = {static_cast<double>(e.rank),
                                       static_cast<double>(e.action),
                                       static_cast<double>(e.stage),
                                       static_cast<double>(e.microbatch),
                                       e.start,
                                       e.end,
                                       static_cast<double>(e.kind),
                                       static_cast<double>(e.peer)};
  std::copy(values, values + kTraceFields, fields);
}

TraceEvent pprt::detail::decodeTraceEvent(const double *f) {
  TraceEvent e{static_cast<int>(f[0]),
               static_cast<pprt_action>(static_cast<int>(f[1])),
               static_cast<int64_t>(f[2]),
               static_cast<int64_t>(f[3]),
               f[4],
               f[5]};
  e.kind = static_cast<int64_t>(f[6]);
  e.peer = static_cast<int64_t>(f[7]);
  return e;
}

void pprt::detail::collectLocalResults(StepContext &step) {
  int64_t numMicrobatches = step.options.microbatches;
  step.lossSum.assign(numMicrobatches, 0.0);
  step.lossCount.assign(numMicrobatches, 0.0);
  step.stashPeaks.assign(step.options.ranks, 0);
  step.trace.clear();
  for (const std::unique_ptr<pprt_rank> &rank : step.ranks) {
    if (!rank)
      continue;
    for (int64_t m = 0; m < numMicrobatches; ++m) {
      step.lossSum[m] += rank->lossSum[m];
      step.lossCount[m] += rank->lossCount[m];
    }
    step.stashPeaks[rank->rank] = rank->stashPeak;
    step.trace.insert(step.trace.end(), rank->events.begin(),
                      rank->events.end());
  }
  std::sort(step.trace.begin(), step.trace.end(),
            [](const TraceEvent &a, const TraceEvent &b) {
              return a.rank != b.rank ? a.rank < b.rank : a.start < b.start;
            });
}

void pprt::detail::copyToHost(pprt_rank &rank, void *hostDst,
                              const void *programSrc, int64_t bytes) {
  if (bytes <= 0)
    return;
  const DeviceMemory &device = rank.step->options.deviceMemory;
  if (device.toHost)
    device.toHost(rank.rank, hostDst, programSrc, bytes);
  else
    std::memcpy(hostDst, programSrc, static_cast<size_t>(bytes));
}

void pprt::detail::copyFromHost(pprt_rank &rank, void *programDst,
                                const void *hostSrc, int64_t bytes) {
  if (bytes <= 0)
    return;
  const DeviceMemory &device = rank.step->options.deviceMemory;
  if (device.toDevice)
    device.toDevice(rank.rank, programDst, hostSrc, bytes);
  else
    std::memcpy(programDst, hostSrc, static_cast<size_t>(bytes));
}

//===----------------------------------------------------------------------===//
// Transport registry
//===----------------------------------------------------------------------===//

namespace {
struct Registry {
  std::mutex mutex;
  std::vector<std::pair<std::string, TransportFactory>> factories;
};
Registry &registry() {
  static Registry instance;
  return instance;
}
} // namespace

bool pprt::detail::registerTransport(const std::string &name,
                                     TransportFactory factory) {
  if (name == "inproc" || name == "mpi" || name.empty() || !factory)
    return false;
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (auto &entry : r.factories)
    if (entry.first == name) {
      entry.second = std::move(factory);
      return true;
    }
  r.factories.emplace_back(name, std::move(factory));
  return true;
}

std::vector<std::string> pprt::detail::knownTransports() {
  std::vector<std::string> names = {"inproc", "mpi"};
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (const auto &entry : r.factories)
    names.push_back(entry.first);
  return names;
}

namespace {
/// The registered factory of `name`, or null.
TransportFactory registeredFactory(const std::string &name) {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (const auto &entry : r.factories)
    if (entry.first == name)
      return entry.second;
  return nullptr;
}

/// "inproc or mpi", "inproc, mpi or nccl".
std::string listTransports() {
  std::vector<std::string> names = knownTransports();
  std::string text;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0)
      text += i + 1 == names.size() ? " or " : ", ";
    text += names[i];
  }
  return text;
}
} // namespace

//===----------------------------------------------------------------------===//
// FaultInjection
//===----------------------------------------------------------------------===//

bool FaultInjection::parse(const std::string &text, FaultInjection &fault,
                           std::string &error) {
  FaultInjection result;
  bool haveRank = false, haveMode = false;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t comma = text.find(',', pos);
    if (comma == std::string::npos)
      comma = text.size();
    std::string item = text.substr(pos, comma - pos);
    pos = comma + 1;
    if (item.empty())
      continue;
    size_t eq = item.find('=');
    if (eq == std::string::npos) {
      error = "fault \"" + text + "\": \"" + item + "\" is not key=value";
      return false;
    }
    std::string key = item.substr(0, eq), value = item.substr(eq + 1);
    if (key == "mode") {
      static const std::pair<const char *, Mode> modes[] = {
          {"throw", Mode::Throw},
          {"fail", Mode::Fail},
          {"exit", Mode::Exit},
          {"kill", Mode::Kill},
          {"hang", Mode::Hang}};
      bool known = false;
      for (const auto &[name, mode] : modes)
        if (value == name) {
          result.mode = mode;
          known = true;
        }
      if (!known) {
        error = "fault \"" + text + "\": unknown mode \"" + value +
                "\" (expected throw, fail, exit, kill or hang)";
        return false;
      }
      haveMode = true;
      continue;
    }
    char *end = nullptr;
    long long number = std::strtoll(value.c_str(), &end, 10);
    if (value.empty() || *end != '\0') {
      error = "fault \"" + text + "\": " + key + " \"" + value +
              "\" is not an integer";
      return false;
    }
    if (key == "rank" && number >= 0 &&
        number <= std::numeric_limits<int>::max()) {
      result.rank = static_cast<int>(number);
      haveRank = true;
    } else if (key == "action" && number >= 1) {
      result.action = number;
    } else if (key == "step" && number >= 0) {
      result.step = number;
    } else if (key == "rank" || key == "action" || key == "step") {
      error =
          "fault \"" + text + "\": " + key + " " + value + " is out of range";
      return false;
    } else {
      error = "fault \"" + text + "\": unknown key \"" + key +
              "\" (expected rank, action, mode, step)";
      return false;
    }
  }
  if (!haveRank || !haveMode) {
    error = "fault \"" + text + "\": needs rank= and mode=";
    return false;
  }
  fault = result;
  return true;
}

//===----------------------------------------------------------------------===//
// World
//===----------------------------------------------------------------------===//

struct World::State {
  WorldOptions options;
  std::unique_ptr<Transport> transport;
  WorldData data;
  int64_t steps = 0;

  // The last step.
  std::string error;
  std::vector<double> losses;
  std::map<Key2, Buffer> gradients;
  std::vector<TraceEvent> trace;
  std::vector<int64_t> stashPeaks;
};

namespace {
class WorldImpl final : public World {
public:
  WorldImpl(WorldOptions options, std::unique_ptr<Transport> transport)
      : World(std::move(options)) {
    state->transport = std::move(transport);
  }
  std::vector<int> localRanks() const override {
    return state->transport->localRanks();
  }
  double allReduceMax(double value) override {
    return state->transport->allReduceMax(value);
  }
};
} // namespace

World::World(WorldOptions options) : state(std::make_unique<State>()) {
  state->options = std::move(options);
}

World::~World() = default;

std::unique_ptr<World> World::create(const WorldOptions &options,
                                     std::string &error) {
  WorldOptions checked = options;
  if (const char *fault = std::getenv("PPRT_FAULT"); fault && *fault) {
    if (!FaultInjection::parse(fault, checked.fault, error)) {
      error = "PPRT_FAULT: " + error;
      return nullptr;
    }
  }
  if (checked.ranks < 1) {
    error =
        "a world needs at least 1 rank, not " + std::to_string(checked.ranks);
    return nullptr;
  }
  if (checked.microbatches < 1) {
    error = "a step needs at least 1 micro-batch, not " +
            std::to_string(checked.microbatches);
    return nullptr;
  }
  if (!(checked.timeoutSeconds > 0)) {
    error = "the timeout must be positive, not " +
            formatSeconds(checked.timeoutSeconds) + " s";
    return nullptr;
  }
  if (static_cast<bool>(checked.deviceMemory.toHost) !=
      static_cast<bool>(checked.deviceMemory.toDevice)) {
    error = "deviceMemory needs both hooks, toHost and toDevice, or neither";
    return nullptr;
  }
  std::unique_ptr<Transport> transport;
  if (checked.transport == "inproc") {
    transport = createInProcTransport(checked);
  } else if (checked.transport == "mpi") {
    transport = createMpiTransport(checked, error);
    if (!transport)
      return nullptr;
  } else if (TransportFactory factory = registeredFactory(checked.transport)) {
    transport = factory(checked, error);
    if (!transport) {
      if (error.empty())
        error = "transport " + checked.transport + " could not be created";
      return nullptr;
    }
  } else {
    error = "unknown transport \"" + checked.transport + "\" (expected " +
            listTransports() + ")";
    return nullptr;
  }
  return std::make_unique<WorldImpl>(std::move(checked), std::move(transport));
}

const WorldOptions &World::options() const { return state->options; }

void World::setParameter(int64_t stage, int64_t index, Buffer value) {
  state->data.parameters[{stage, index}] = std::move(value);
}

const Buffer &World::parameter(int64_t stage, int64_t index) const {
  static const Buffer empty;
  auto it = state->data.parameters.find({stage, index});
  return it == state->data.parameters.end() ? empty : it->second;
}

void World::setInput(int64_t microbatch, int64_t index,
                     std::vector<char> bytes) {
  state->data.inputs[{microbatch, index}] = std::move(bytes);
}

bool World::runStep(
    const std::function<void(int rank, pprt_rank *handle)> &program) {
  State &s = *state;
  s.error.clear();
  s.losses.assign(s.options.microbatches,
                  std::numeric_limits<double>::quiet_NaN());
  s.gradients.clear();
  s.trace.clear();
  s.stashPeaks.assign(s.options.ranks, 0);

  auto step = std::make_shared<StepContext>();
  step->options = s.options;
  step->step = ++s.steps;
  step->data = &s.data;
  step->transport = s.transport.get();
  step->ranks.resize(s.options.ranks);
  for (int r : s.transport->localRanks()) {
    auto rank = std::make_unique<pprt_rank>();
    rank->step = step.get();
    rank->rank = r;
    rank->lossSum.assign(s.options.microbatches, 0.0);
    rank->lossCount.assign(s.options.microbatches, 0.0);
    rank->sentTo.assign(s.options.ranks, 0);
    rank->receivedFrom.assign(s.options.ranks, 0);
    step->ranks[r] = std::move(rank);
  }
  step->epoch = Clock::now();

  s.transport->runStep(step, program);

  {
    std::lock_guard<std::mutex> lock(step->mutex);
    if (step->failed.load()) {
      s.error = step->error;
      return false;
    }
  }
  for (int64_t m = 0; m < s.options.microbatches; ++m)
    if (step->lossCount[m] > 0)
      s.losses[m] = step->lossSum[m] / step->lossCount[m];
  s.trace = std::move(step->trace);
  s.stashPeaks = std::move(step->stashPeaks);
  // Gradients of a parameter that several local ranks accumulated add up
  // (pprt_accumulate_gradient checked that they match the parameter).
  for (const std::unique_ptr<pprt_rank> &rank : step->ranks) {
    if (!rank)
      continue;
    for (auto &[key, grad] : rank->gradients) {
      auto [it, inserted] = s.gradients.emplace(key, grad);
      if (!inserted)
        addBuffer(it->second.bytes, grad.bytes.data(),
                  static_cast<int64_t>(grad.bytes.size()), grad.dtype);
    }
  }
  return true;
}

std::string World::error() const { return state->error; }

std::vector<double> World::losses() const { return state->losses; }

const Buffer *World::gradient(int64_t stage, int64_t index) const {
  auto it = state->gradients.find({stage, index});
  return it == state->gradients.end() ? nullptr : &it->second;
}

void World::sgdStep(double learningRate) {
  for (const auto &[key, grad] : state->gradients) {
    auto it = state->data.parameters.find(key);
    if (it == state->data.parameters.end())
      continue;
    Buffer &param = it->second;
    if (param.dtype != grad.dtype || param.bytes.size() != grad.bytes.size())
      continue;
    if (param.dtype == PPRT_F64)
      sgd<double>(param.bytes, grad.bytes, learningRate);
    else
      sgd<float>(param.bytes, grad.bytes, learningRate);
  }
}

std::vector<TraceEvent> World::trace() const { return state->trace; }

std::vector<int64_t> World::stashPeaks() const { return state->stashPeaks; }

StepTiming World::stepTiming() const {
  int numRanks = state->options.ranks;
  StepTiming timing;
  timing.busy.assign(numRanks, 0.0);
  timing.end.assign(numRanks, 0.0);
  timing.rankBubbleRate.assign(numRanks, 0.0);
  double first = std::numeric_limits<double>::infinity(), last = 0.0;
  for (const TraceEvent &event : state->trace) {
    if (event.rank < 0 || event.rank >= numRanks)
      continue;
    first = std::min(first, event.start);
    last = std::max(last, event.end);
    timing.end[event.rank] = std::max(timing.end[event.rank], event.end);
    if (event.action <= PPRT_BACKWARD_WEIGHT)
      timing.busy[event.rank] += event.end - event.start;
  }
  if (state->trace.empty())
    return timing;
  timing.makespan = std::max(0.0, last - first);
  double total = 0.0;
  for (int r = 0; r < numRanks; ++r) {
    timing.idealTime = std::max(timing.idealTime, timing.busy[r]);
    total += timing.busy[r];
  }
  if (timing.makespan > 0) {
    for (int r = 0; r < numRanks; ++r)
      timing.rankBubbleRate[r] = 1.0 - timing.busy[r] / timing.makespan;
    timing.bubbleRate = 1.0 - timing.idealTime / timing.makespan;
    timing.meanBubbleRate = 1.0 - total / (numRanks * timing.makespan);
  }
  return timing;
}

//===----------------------------------------------------------------------===//
// The C ABI
//===----------------------------------------------------------------------===//

extern "C" {

void pprt_send(pprt_rank *rank, int64_t peer, int64_t stage, int64_t microbatch,
               int64_t kind, const void *data, int64_t bytes) {
  if (!live(rank) || !checkMessage(*rank, "pprt_send", peer, stage, microbatch,
                                   kind, data, bytes))
    return;
  noteMessage(*rank, PPRT_SEND, kind, peer);
  ++rank->sentTo[peer];
  rank->step->transport->send(*rank, static_cast<int>(peer), stage, microbatch,
                              kind, data, bytes);
}

void pprt_recv(pprt_rank *rank, int64_t peer, int64_t stage, int64_t microbatch,
               int64_t kind, void *data, int64_t bytes) {
  if (!live(rank) || !checkMessage(*rank, "pprt_recv", peer, stage, microbatch,
                                   kind, data, bytes))
    return;
  noteMessage(*rank, PPRT_RECV, kind, peer);
  rank->step->transport->recv(*rank, static_cast<int>(peer), stage, microbatch,
                              kind, data, bytes);
  if (live(rank))
    ++rank->receivedFrom[peer];
}

void pprt_input(pprt_rank *rank, int64_t microbatch, int64_t index, void *data,
                int64_t bytes) {
  if (!live(rank) || !checkMicrobatch(*rank, "pprt_input", microbatch) ||
      !checkBuffer(*rank, "pprt_input", data, bytes))
    return;
  const auto &inputs = rank->step->data->inputs;
  auto it = inputs.find({microbatch, index});
  std::string what = "data argument " + std::to_string(index) +
                     " of micro-batch " + std::to_string(microbatch);
  if (it == inputs.end()) {
    failCall(*rank, "pprt_input", "the launcher set no " + what);
    return;
  }
  if (static_cast<int64_t>(it->second.size()) != bytes) {
    rank->step->fail(rankName(rank->rank) + " expected " +
                     std::to_string(bytes) + " bytes of " + what +
                     ", which has " + std::to_string(it->second.size()) +
                     " bytes");
    return;
  }
  copyFromHost(*rank, data, it->second.data(), bytes);
}

void pprt_parameter(pprt_rank *rank, int64_t stage, int64_t index, void *data,
                    int64_t bytes) {
  if (!live(rank) || !checkBuffer(*rank, "pprt_parameter", data, bytes))
    return;
  const auto &parameters = rank->step->data->parameters;
  auto it = parameters.find({stage, index});
  std::string what = "parameter " + std::to_string(index) + " of stage " +
                     std::to_string(stage);
  if (it == parameters.end()) {
    failCall(*rank, "pprt_parameter", "the launcher set no " + what);
    return;
  }
  if (static_cast<int64_t>(it->second.bytes.size()) != bytes) {
    rank->step->fail(rankName(rank->rank) + " expected " +
                     std::to_string(bytes) + " bytes of " + what +
                     ", which has " + std::to_string(it->second.bytes.size()) +
                     " bytes");
    return;
  }
  copyFromHost(*rank, data, it->second.bytes.data(), bytes);
}

void pprt_accumulate_gradient(pprt_rank *rank, int64_t stage, int64_t index,
                              const void *data, int64_t bytes, int64_t dtype) {
  const char *fn = "pprt_accumulate_gradient";
  if (!live(rank) || !checkBuffer(*rank, fn, data, bytes) ||
      !checkDtype(*rank, fn, dtype))
    return;
  std::string what = "parameter " + std::to_string(index) + " of stage " +
                     std::to_string(stage);
  const auto &parameters = rank->step->data->parameters;
  auto param = parameters.find({stage, index});
  if (param == parameters.end()) {
    failCall(*rank, fn,
             "gradient of " + what +
                 ", which the launcher did "
                 "not set");
    return;
  }
  if (static_cast<int64_t>(param->second.bytes.size()) != bytes ||
      param->second.dtype != dtype) {
    rank->step->fail(rankName(rank->rank) + " added a gradient of " +
                     std::to_string(bytes) + " bytes of " + dtypeName(dtype) +
                     " to " + what + ", which has " +
                     std::to_string(param->second.bytes.size()) + " bytes of " +
                     dtypeName(param->second.dtype));
    return;
  }
  if (bytes % dtypeSize(dtype) != 0) {
    failCall(*rank, fn,
             std::to_string(bytes) + " bytes is not a whole number of " +
                 dtypeName(dtype) + " elements");
    return;
  }
  // The gradient as host bytes (a copy from the device when the rank
  // program's buffers live there).
  std::vector<char> hostCopy;
  const void *host = data;
  if (rank->step->options.deviceMemory) {
    hostCopy.resize(static_cast<size_t>(bytes));
    copyToHost(*rank, hostCopy.data(), data, bytes);
    if (!live(rank))
      return;
    host = hostCopy.data();
  }
  auto [it, inserted] = rank->gradients.try_emplace({stage, index});
  Buffer &grad = it->second;
  if (inserted) {
    grad.dtype = static_cast<pprt_dtype>(dtype);
    if (!hostCopy.empty() || bytes == 0)
      grad.bytes = std::move(hostCopy);
    else
      grad.bytes.assign(static_cast<const char *>(host),
                        static_cast<const char *>(host) + bytes);
    return;
  }
  addBuffer(grad.bytes, host, bytes, dtype);
}

void pprt_loss(pprt_rank *rank, int64_t microbatch, const void *data,
               int64_t dtype) {
  if (!live(rank) || !checkMicrobatch(*rank, "pprt_loss", microbatch) ||
      !checkDtype(*rank, "pprt_loss", dtype) ||
      !checkBuffer(*rank, "pprt_loss", data, dtypeSize(dtype)))
    return;
  double value;
  if (dtype == PPRT_F64) {
    copyToHost(*rank, &value, data, sizeof(double));
  } else {
    float f;
    copyToHost(*rank, &f, data, sizeof(float));
    value = f;
  }
  if (!live(rank))
    return;
  rank->lossSum[microbatch] += value;
  rank->lossCount[microbatch] += 1;
}

void pprt_loss_seed(pprt_rank *rank, void *data, int64_t dtype) {
  if (!live(rank) || !checkDtype(*rank, "pprt_loss_seed", dtype) ||
      !checkBuffer(*rank, "pprt_loss_seed", data, dtypeSize(dtype)))
    return;
  double seed = 1.0 / static_cast<double>(rank->step->options.microbatches);
  if (dtype == PPRT_F64) {
    copyFromHost(*rank, data, &seed, sizeof(double));
  } else {
    float f = static_cast<float>(seed);
    copyFromHost(*rank, data, &f, sizeof(float));
  }
}

void pprt_action_begin(pprt_rank *rank, int64_t action, int64_t stage,
                       int64_t microbatch) {
  if (!live(rank))
    return;
  if (action < PPRT_FORWARD || action > PPRT_RECV) {
    failCall(*rank, "pprt_action_begin",
             "unknown action " + std::to_string(action));
    return;
  }
  ++rank->actionsBegun;
  const FaultInjection &fault = rank->step->options.fault;
  if (fault.rank == rank->rank && fault.action == rank->actionsBegun &&
      (fault.step == 0 || fault.step == rank->step->step)) {
    injectFault(*rank, fault, action, stage, microbatch);
    if (!live(rank))
      return;
  }
  if (action <= PPRT_BACKWARD_WEIGHT && rank->step->transport) {
    rank->step->transport->computeBegins(*rank);
    if (!live(rank))
      return;
  }
  pprt_rank::OpenAction open;
  open.action = static_cast<pprt_action>(action);
  open.stage = stage;
  open.microbatch = microbatch;
  open.start = rank->step->now();
  rank->open.push_back(open);
}

void pprt_action_end(pprt_rank *rank) {
  if (!live(rank))
    return;
  if (rank->open.empty()) {
    failCall(*rank, "pprt_action_end", "no action is open");
    return;
  }
  pprt_rank::OpenAction open = rank->open.back();
  rank->open.pop_back();
  TraceEvent event{rank->rank,      open.action, open.stage,
                   open.microbatch, open.start,  rank->step->now()};
  event.kind = open.kind;
  event.peer = open.peer;
  rank->events.push_back(event);
}

void pprt_fail(pprt_rank *rank, const char *message) {
  if (!live(rank))
    return;
  rank->step->fail(rankName(rank->rank) + ": " +
                   (message ? message : "failed"));
}

void pprt_stash(pprt_rank *rank, int64_t delta) {
  if (!live(rank))
    return;
  rank->stash += delta;
  rank->stashPeak = std::max(rank->stashPeak, rank->stash);
}

} // extern "C"
