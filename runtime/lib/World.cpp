//===- World.cpp - Worlds, their transports and fault injection -----------===//
//
// World (parameters, inputs, the results of a step, SGD), the registry of
// transports World::create picks from, and FaultInjection::parse.
//
//===----------------------------------------------------------------------===//

#include "Step.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <limits>

using namespace pprt;
using namespace pprt::detail;

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

/// The registered factory of `name` in `r` (whose mutex the caller holds),
/// or null.
TransportFactory *findFactory(Registry &r, const std::string &name) {
  for (auto &entry : r.factories)
    if (entry.first == name)
      return &entry.second;
  return nullptr;
}
} // namespace

bool pprt::detail::registerTransport(const std::string &name,
                                     TransportFactory factory) {
  if (name == "inproc" || name == "mpi" || name.empty() || !factory)
    return false;
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  if (TransportFactory *existing = findFactory(r, name))
    *existing = std::move(factory);
  else
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
  TransportFactory *factory = findFactory(r, name);
  return factory ? *factory : nullptr;
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
  /// Shared parameters (shareParameter): per group, the (rank, key) of each
  /// rank's copy, in ascending rank order.
  std::vector<std::vector<std::pair<int, Key2>>> shared;
  /// The uses of each group as declared.
  std::vector<std::vector<ParameterUse>> declared;

  // The last step.
  std::string error;
  bool ranksLeftRunning = false;
  std::vector<double> losses;
  std::map<Key2, Buffer> gradients;
  std::vector<TraceEvent> trace;
  std::vector<int64_t> stashPeaks;
  std::vector<MemoryPeaks> memoryPeaks;
};

namespace {
/// The checks of a message layout every transport shares.
bool checkLayoutValues(int64_t stages, int64_t boundaryParts,
                       std::string &error) {
  if (boundaryParts < 1) {
    error = "a stage boundary carries at least 1 part, not " +
            std::to_string(boundaryParts) + " (boundaryParts)";
    return false;
  }
  // Far beyond any model; keeps products of kinds with stages and
  // micro-batches (the mpi tags) well inside int64.
  constexpr int64_t maxParts = int64_t(1) << 30;
  if (boundaryParts > maxParts) {
    error = "a stage boundary carries at most " + std::to_string(maxParts) +
            " parts, not " + std::to_string(boundaryParts) + " (boundaryParts)";
    return false;
  }
  if (stages < 0) {
    error = "the number of stages must be >= 0 (0: unknown), not " +
            std::to_string(stages);
    return false;
  }
  return true;
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
  if (checked.replicas < 1 || checked.ranks % checked.replicas != 0) {
    error = "a world of " + std::to_string(checked.ranks) +
            " ranks cannot hold " + std::to_string(checked.replicas) +
            " replicas of a pipeline (ranks must be a multiple of replicas, "
            "replicas >= 1)";
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
  if (!checkLayoutValues(checked.stages, checked.boundaryParts, error) ||
      !transport->checkLayout(checked, error))
    return nullptr;
  // Replicas in other processes need a transport that sums their gradients
  // (Transport::reducesReplicas); in-process the world adds them itself.
  if (checked.replicas > 1 && !transport->reducesReplicas() &&
      transport->localRanks().size() < static_cast<size_t>(checked.ranks)) {
    error = "transport " + checked.transport +
            " does not sum gradients over data-parallel replicas in other "
            "processes";
    return nullptr;
  }
  return std::make_unique<WorldImpl>(std::move(checked), std::move(transport));
}

const WorldOptions &World::options() const { return state->options; }

bool World::setMessageLayout(int64_t stages, int64_t boundaryParts,
                             std::string &error) {
  WorldOptions layout = state->options;
  layout.stages = stages;
  layout.boundaryParts = boundaryParts;
  if (!checkLayoutValues(stages, boundaryParts, error) ||
      !state->transport->checkLayout(layout, error))
    return false;
  state->options = std::move(layout);
  return true;
}

void World::setParameter(int64_t stage, int64_t index, Buffer value) {
  state->data.parameters[state->data.copyOf({stage, index})] = std::move(value);
}

bool World::shareParameter(const std::vector<ParameterUse> &uses,
                           std::string &error) {
  WorldData &data = state->data;
  // The same group again (a launcher that trains twice on one world).
  auto same = [&](const std::vector<ParameterUse> &other) {
    return other.size() == uses.size() &&
           std::equal(uses.begin(), uses.end(), other.begin(),
                      [](const ParameterUse &a, const ParameterUse &b) {
                        return a.rank == b.rank && a.stage == b.stage &&
                               a.index == b.index;
                      });
  };
  if (std::any_of(state->declared.begin(), state->declared.end(), same))
    return true;
  if (uses.size() < 2) {
    error = "a shared parameter needs at least 2 uses, not " +
            std::to_string(uses.size());
    return false;
  }
  std::map<Key2, bool> seen;
  for (const ParameterUse &use : uses) {
    Key2 key{use.stage, use.index};
    std::string name = "parameter " + std::to_string(use.index) + " of stage " +
                       std::to_string(use.stage);
    if (use.rank < 0 || use.rank >= state->options.ranks) {
      error = name + " is on rank " + std::to_string(use.rank) +
              ", outside the world's " + std::to_string(state->options.ranks) +
              " ranks";
      return false;
    }
    bool inGroup = data.aliases.count(key) != 0;
    for (const auto &group : state->shared)
      for (const auto &copy : group)
        inGroup |= copy.second == key;
    if (inGroup || !seen.emplace(key, true).second) {
      error = name + " is already shared";
      return false;
    }
  }
  // The first use on each rank is that rank's copy.
  std::map<int, Key2> copies;
  for (const ParameterUse &use : uses) {
    Key2 key{use.stage, use.index};
    auto [it, first] = copies.try_emplace(use.rank, key);
    if (first)
      continue;
    data.aliases[key] = it->second;
    auto value = data.parameters.find(key);
    if (value != data.parameters.end()) {
      if (!data.parameters.count(it->second))
        data.parameters[it->second] = std::move(value->second);
      data.parameters.erase(value);
    }
  }
  state->shared.emplace_back(copies.begin(), copies.end());
  state->declared.push_back(uses);
  return true;
}

std::vector<char> World::bytesOfRankZero(const std::vector<char> &mine,
                                         double timeoutSeconds,
                                         const std::string &what) {
  // Processes are in rank order; rank 0 lives on the first.
  return state->transport->bytesOfFirst(mine, timeoutSeconds, what);
}

std::vector<std::vector<char>> World::allGather(const std::vector<char> &mine) {
  return state->transport->allGatherBytes(mine, nullptr);
}

double World::timeReplicaAllGather(int64_t bytes, int repetitions) {
  if (state->options.replicas <= 1)
    return 0.0;
  return state->transport->timeReplicaAllGather(bytes, repetitions);
}

bool World::sharedCopiesEqual(std::string &error) {
  State &s = *state;
  if (s.shared.empty())
    return true;
  std::vector<int> local = localPipelineRanks();
  // Per copy on this process: group, rank, hash of its bytes.
  std::vector<int64_t> mine;
  for (size_t g = 0; g < s.shared.size(); ++g)
    for (const auto &[rank, key] : s.shared[g]) {
      if (std::find(local.begin(), local.end(), rank) == local.end())
        continue;
      uint64_t hash = 1469598103934665603ull;
      auto it = s.data.parameters.find(key);
      if (it != s.data.parameters.end())
        for (char c : it->second.bytes) {
          hash ^= static_cast<unsigned char>(c);
          hash *= 1099511628211ull;
        }
      int64_t h;
      std::memcpy(&h, &hash, sizeof h);
      mine.insert(mine.end(), {static_cast<int64_t>(g), rank, h});
    }
  std::vector<char> bytes(mine.size() * sizeof(int64_t));
  if (!mine.empty())
    std::memcpy(bytes.data(), mine.data(), bytes.size());
  std::map<std::pair<int64_t, int64_t>, int64_t> hashes;
  for (const std::vector<char> &part :
       s.transport->allGatherBytes(bytes, nullptr)) {
    std::vector<int64_t> values(part.size() / sizeof(int64_t));
    if (!values.empty())
      std::memcpy(values.data(), part.data(), values.size() * sizeof(int64_t));
    for (size_t i = 0; i + 2 < values.size(); i += 3)
      hashes[{values[i], values[i + 1]}] = values[i + 2];
  }
  for (size_t g = 0; g < s.shared.size(); ++g) {
    const auto &[firstRank, firstKey] = s.shared[g].front();
    for (const auto &[rank, key] : s.shared[g])
      if (hashes[{static_cast<int64_t>(g), rank}] !=
          hashes[{static_cast<int64_t>(g), firstRank}]) {
        error = "the copy of the shared parameter on rank " +
                std::to_string(rank) + " (parameter " +
                std::to_string(key.second) + " of stage " +
                std::to_string(key.first) + ") differs from the copy on rank " +
                std::to_string(firstRank) + " (parameter " +
                std::to_string(firstKey.second) + " of stage " +
                std::to_string(firstKey.first) + ")";
        return false;
      }
  }
  return true;
}

const Buffer &World::parameter(int64_t stage, int64_t index) const {
  static const Buffer empty;
  auto it = state->data.parameters.find(state->data.copyOf({stage, index}));
  return it == state->data.parameters.end() ? empty : it->second;
}

Buffer *World::mutableParameter(int64_t stage, int64_t index) {
  auto it = state->data.parameters.find(state->data.copyOf({stage, index}));
  return it == state->data.parameters.end() ? nullptr : &it->second;
}

void World::setInput(int64_t microbatch, int64_t index,
                     std::vector<char> bytes) {
  state->data.inputs[{microbatch, index}] = std::move(bytes);
}

bool World::runStep(
    const std::function<void(int rank, pprt_rank *handle)> &program) {
  State &s = *state;
  s.error.clear();
  int64_t stepMicrobatches = s.options.microbatches * s.options.replicas;
  s.losses.assign(stepMicrobatches, std::numeric_limits<double>::quiet_NaN());
  s.trace.clear();
  s.stashPeaks.assign(s.options.ranks, 0);
  s.memoryPeaks.assign(s.options.ranks, MemoryPeaks());

  auto step = std::make_shared<StepContext>();
  step->options = s.options;
  step->freeSlots = s.options.computeSlots;
  // Last step's gradient buffers, for this step's sums to reuse.
  for (auto &[key, grad] : s.gradients)
    step->recycledGradients[key] = std::move(grad.bytes);
  s.gradients.clear();
  step->step = ++s.steps;
  step->data = &s.data;
  step->transport = s.transport.get();
  step->ranks.resize(s.options.ranks);
  for (int r : s.transport->localRanks()) {
    auto rank = std::make_unique<pprt_rank>();
    rank->step = step.get();
    rank->rank = r;
    rank->lossSum.assign(stepMicrobatches, 0.0);
    rank->lossCount.assign(stepMicrobatches, 0.0);
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
      s.ranksLeftRunning = s.ranksLeftRunning || step->ranksLeftRunning;
      return false;
    }
  }
  for (int64_t m = 0; m < stepMicrobatches; ++m)
    if (step->lossCount[m] > 0)
      s.losses[m] = step->lossSum[m] / step->lossCount[m];
  s.trace = std::move(step->trace);
  s.stashPeaks = std::move(step->stashPeaks);
  s.memoryPeaks = std::move(step->memoryPeaks);
  // Gradients of a parameter that several local ranks accumulated add up
  // (pprt_accumulate_gradient checked that they match the parameter), in
  // ascending rank order: the replicas of a pipeline rank in replica order.
  for (const std::unique_ptr<pprt_rank> &rank : step->ranks) {
    if (!rank)
      continue;
    for (auto &[key, grad] : rank->gradients) {
      auto [it, inserted] = s.gradients.try_emplace(key, std::move(grad));
      if (!inserted)
        addBuffer(it->second.bytes, grad.bytes.data(),
                  static_cast<int64_t>(grad.bytes.size()), grad.dtype);
    }
  }
  // Replicas in other processes: the transport summed them in replica
  // order (World::create admits no other).
  if (!s.shared.empty()) {
    std::string message = reduceSharedGradients(step.get());
    if (!message.empty()) {
      s.error = message;
      return false;
    }
  }
  return true;
}

namespace {
/// The gradients of shared parameters a process contributes: per entry
/// int64 group, rank, dtype, byte count, then the bytes.
void appendEntry(std::vector<char> &out, int64_t group, int64_t rank,
                 const Buffer &grad) {
  int64_t header[4] = {group, rank, grad.dtype,
                       static_cast<int64_t>(grad.bytes.size())};
  const char *h = reinterpret_cast<const char *>(header);
  out.insert(out.end(), h, h + sizeof header);
  out.insert(out.end(), grad.bytes.begin(), grad.bytes.end());
}

/// Decodes appendEntry's entries into `entries[{group, rank}]`; false if
/// `in` is malformed.
bool decodeEntries(const std::vector<char> &in,
                   std::map<std::pair<int64_t, int64_t>, Buffer> &entries) {
  size_t pos = 0;
  while (pos < in.size()) {
    int64_t header[4];
    if (in.size() - pos < sizeof header)
      return false;
    std::memcpy(header, in.data() + pos, sizeof header);
    pos += sizeof header;
    if (header[3] < 0 || in.size() - pos < static_cast<size_t>(header[3]))
      return false;
    Buffer &b = entries[{header[0], header[1]}];
    b.dtype = static_cast<pprt_dtype>(header[2]);
    b.bytes.assign(in.data() + pos, in.data() + pos + header[3]);
    pos += static_cast<size_t>(header[3]);
  }
  return true;
}
} // namespace

std::vector<int> World::localPipelineRanks() const {
  int pipelineRanks =
      state->options.ranks / std::max(1, state->options.replicas);
  std::vector<int> ranks;
  for (int r : state->transport->localRanks())
    ranks.push_back(r % pipelineRanks);
  std::sort(ranks.begin(), ranks.end());
  ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
  return ranks;
}

std::string World::reduceSharedGradients(StepContext *step) {
  State &s = *state;
  std::vector<int> local = localPipelineRanks();
  auto isLocal = [&](int r) {
    return std::find(local.begin(), local.end(), r) != local.end();
  };
  std::vector<char> mine;
  for (size_t g = 0; g < s.shared.size(); ++g)
    for (const auto &[rank, key] : s.shared[g])
      if (isLocal(rank))
        if (auto it = s.gradients.find(key); it != s.gradients.end())
          appendEntry(mine, static_cast<int64_t>(g), rank, it->second);
  std::map<std::pair<int64_t, int64_t>, Buffer> entries;
  for (const std::vector<char> &part : s.transport->allGatherBytes(mine, step))
    if (!decodeEntries(part, entries))
      return "the gradients of shared parameters arrived malformed";
  // Sum in ascending rank order: the same bytes on every process and every
  // transport.
  for (size_t g = 0; g < s.shared.size(); ++g) {
    Buffer sum;
    bool any = false;
    for (const auto &[rank, key] : s.shared[g]) {
      auto it = entries.find({static_cast<int64_t>(g), rank});
      if (it == entries.end())
        continue;
      const Buffer &grad = it->second;
      if (!any) {
        sum = grad;
        any = true;
        continue;
      }
      if (grad.dtype != sum.dtype || grad.bytes.size() != sum.bytes.size())
        return "the gradients of a shared parameter differ: " +
               std::to_string(sum.bytes.size()) + " bytes of " +
               dtypeName(sum.dtype) + " on rank " +
               std::to_string(s.shared[g].front().first) + " but " +
               std::to_string(grad.bytes.size()) + " bytes of " +
               dtypeName(grad.dtype) + " on rank " + std::to_string(rank) +
               " (parameter " + std::to_string(key.second) + " of stage " +
               std::to_string(key.first) + ")";
      addBuffer(sum.bytes, grad.bytes.data(),
                static_cast<int64_t>(grad.bytes.size()), grad.dtype);
    }
    if (!any)
      continue;
    for (const auto &[rank, key] : s.shared[g])
      if (isLocal(rank))
        s.gradients[key] = sum;
  }
  return "";
}

std::string World::error() const { return state->error; }

bool World::ranksLeftRunning() const { return state->ranksLeftRunning; }

std::vector<double> World::losses() const { return state->losses; }

const Buffer *World::gradient(int64_t stage, int64_t index) const {
  auto it = state->gradients.find(state->data.copyOf({stage, index}));
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

std::vector<MemoryPeaks> World::memoryPeaks() const {
  return state->memoryPeaks;
}

StepTiming World::stepTiming() const {
  int numRanks = state->options.ranks;
  StepTiming timing;
  timing.busy.assign(numRanks, 0.0);
  timing.cpuBusy.assign(numRanks, 0.0);
  timing.end.assign(numRanks, 0.0);
  timing.rankBubbleRate.assign(numRanks, 0.0);
  double first = std::numeric_limits<double>::infinity(), last = 0.0;
  for (const TraceEvent &event : state->trace) {
    if (event.rank < 0 || event.rank >= numRanks)
      continue;
    first = std::min(first, event.start);
    last = std::max(last, event.end);
    timing.end[event.rank] = std::max(timing.end[event.rank], event.end);
    if (event.action <= PPRT_BACKWARD_WEIGHT) {
      timing.busy[event.rank] += event.end - event.start;
      timing.cpuBusy[event.rank] += event.cpu;
    }
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
