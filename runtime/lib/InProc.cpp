//===- InProc.cpp - The inproc transport: ranks as threads ----------------===//
//
// P ranks run as threads of this process. Every rank has a mailbox: a send
// copies the payload into the receiver's mailbox under (source, stage,
// micro-batch, kind) and never blocks; a receive waits on the mailbox's
// condition variable until its message is there, the step fails, or the
// timeout passes. The mailboxes belong to the step, so a rank thread left
// running after a failed step cannot disturb the next one.
//
//===----------------------------------------------------------------------===//

#include "Step.h"

#include <cstring>
#include <deque>
#include <thread>
#include <tuple>

using namespace pprt;
using namespace pprt::detail;

namespace {

/// (source rank, stage, micro-batch, kind).
using MessageKey = std::tuple<int, int64_t, int64_t, int64_t>;

struct Mailbox {
  std::mutex mutex;
  std::condition_variable arrived;
  /// Messages in the order they were sent (one per key, normally).
  std::map<MessageKey, std::deque<std::vector<char>>> messages;
};

/// The transport's state for one step, kept alive by the rank threads.
struct InProcStep {
  std::vector<std::unique_ptr<Mailbox>> mailboxes;
  /// done[r]: rank r's thread has returned (guarded by StepContext::mutex).
  std::vector<bool> done;
};

class InProcTransport final : public Transport {
public:
  explicit InProcTransport(const WorldOptions &options)
      : numRanks(options.ranks) {}

  std::vector<int> localRanks() const override {
    std::vector<int> ranks(numRanks);
    for (int r = 0; r < numRanks; ++r)
      ranks[r] = r;
    return ranks;
  }

  void runStep(const std::shared_ptr<StepContext> &step,
               const Program &program) override;
  void send(pprt_rank &rank, const Message &message, const void *data) override;
  void recv(pprt_rank &rank, const Message &message, void *data) override;
  double allReduceMax(double value) override { return value; }
  std::vector<std::vector<char>> allGatherBytes(const std::vector<char> &mine,
                                                StepContext *) override {
    return {mine};
  }

private:
  static InProcStep &of(pprt_rank &rank) {
    return *static_cast<InProcStep *>(rank.step->transportData.get());
  }
  int numRanks;
};

void InProcTransport::runStep(const std::shared_ptr<StepContext> &step,
                              const Program &program) {
  auto inproc = std::make_shared<InProcStep>();
  for (int r = 0; r < numRanks; ++r)
    inproc->mailboxes.push_back(std::make_unique<Mailbox>());
  inproc->done.assign(numRanks, false);
  step->transportData = inproc;
  // A failure wakes every receive. Taking each mailbox's mutex orders the
  // notification after a waiter's check of the flag. (The step owns the
  // mailboxes, so the raw pointer lives as long as this callback.)
  step->onFailure = [mailboxes = inproc.get()](const std::string &) {
    for (std::unique_ptr<Mailbox> &mailbox : mailboxes->mailboxes) {
      std::lock_guard<std::mutex> lock(mailbox->mutex);
      mailbox->arrived.notify_all();
    }
  };

  // Each thread owns copies of what it uses, so that it may outlive this
  // call (see below).
  auto programCopy = std::make_shared<Program>(program);
  std::vector<std::thread> threads;
  threads.reserve(numRanks);
  for (int r = 0; r < numRanks; ++r)
    threads.emplace_back([step, programCopy, inproc = inproc.get(), r] {
      runRank(*step, *step->ranks[r], *programCopy);
      std::lock_guard<std::mutex> lock(step->mutex);
      inproc->done[r] = true;
      ++step->finished;
      step->changed.notify_all();
    });

  // Wait for every rank; after a failure, for at most one more timeout.
  {
    std::unique_lock<std::mutex> lock(step->mutex);
    while (step->finished < numRanks) {
      if (!step->failed.load()) {
        step->changed.wait(lock);
        continue;
      }
      Clock::time_point deadline =
          step->failTime +
          std::chrono::duration_cast<Clock::duration>(
              std::chrono::duration<double>(step->options.timeoutSeconds));
      if (step->changed.wait_until(lock, deadline) == std::cv_status::timeout &&
          step->finished < numRanks)
        break;
    }
  }

  std::vector<int> stuck;
  for (int r = 0; r < numRanks; ++r) {
    bool done;
    {
      std::lock_guard<std::mutex> lock(step->mutex);
      done = inproc->done[r];
    }
    if (done) {
      threads[r].join();
    } else {
      threads[r].detach();
      stuck.push_back(r);
    }
  }
  if (!stuck.empty()) {
    std::string ranks;
    for (int r : stuck)
      ranks += (ranks.empty() ? "" : ", ") + std::to_string(r);
    std::lock_guard<std::mutex> lock(step->mutex);
    step->error += "; rank(s) " + ranks + " did not return within " +
                   formatSeconds(step->options.timeoutSeconds) +
                   " s after the failure and were left running";
    step->ranksLeftRunning = true;
    // The stuck ranks' handles stay with their threads; read nothing more.
    return;
  }

  // Every message sent must have been received.
  if (!step->failed.load()) {
    for (int dst = 0; dst < numRanks && !step->failed.load(); ++dst)
      for (auto &[key, queue] : inproc->mailboxes[dst]->messages) {
        if (queue.empty())
          continue;
        auto [src, stage, microbatch, kind] = key;
        step->fail("rank " + std::to_string(src) + " sent " +
                   describeMessage(kind, stage, microbatch) + " to rank " +
                   std::to_string(dst) + ", which never received it");
        break;
      }
  }
  collectLocalResults(*step);
}

void InProcTransport::send(pprt_rank &rank, const Message &message,
                           const void *data) {
  Mailbox &mailbox = *of(rank).mailboxes[message.peer];
  std::vector<char> payload(static_cast<size_t>(message.bytes));
  copyToHost(rank, payload.data(), data, message.bytes);
  if (rank.step->failed.load())
    return;
  {
    std::lock_guard<std::mutex> lock(mailbox.mutex);
    mailbox
        .messages[{rank.rank, message.stage, message.microbatch, message.kind}]
        .push_back(std::move(payload));
  }
  mailbox.arrived.notify_all();
}

void InProcTransport::recv(pprt_rank &rank, const Message &message,
                           void *data) {
  StepContext &step = *rank.step;
  Mailbox &mailbox = *of(rank).mailboxes[rank.rank];
  MessageKey key{message.peer, message.stage, message.microbatch, message.kind};
  std::vector<char> payload;
  bool timedOut = false;
  {
    std::unique_lock<std::mutex> lock(mailbox.mutex);
    Clock::time_point deadline = deadlineAfter(step.options.timeoutSeconds);
    auto ready = [&] {
      if (step.failed.load())
        return true;
      auto it = mailbox.messages.find(key);
      return it != mailbox.messages.end() && !it->second.empty();
    };
    timedOut = !mailbox.arrived.wait_until(lock, deadline, ready);
    if (!timedOut && !step.failed.load()) {
      auto it = mailbox.messages.find(key);
      payload = std::move(it->second.front());
      it->second.pop_front();
    }
  }
  if (step.failed.load())
    return;
  if (timedOut) {
    step.fail("rank " + std::to_string(rank.rank) + " timed out after " +
              formatSeconds(step.options.timeoutSeconds) + " s waiting for " +
              describeMessage(message) + " from rank " +
              std::to_string(message.peer));
    return;
  }
  if (static_cast<int64_t>(payload.size()) != message.bytes) {
    step.fail("rank " + std::to_string(rank.rank) + " expected " +
              std::to_string(message.bytes) + " bytes of " +
              describeMessage(message) + " from rank " +
              std::to_string(message.peer) + ", which sent " +
              std::to_string(payload.size()) + " bytes");
    return;
  }
  copyFromHost(rank, data, payload.data(), message.bytes);
}

} // namespace

std::unique_ptr<Transport>
pprt::detail::createInProcTransport(const WorldOptions &options) {
  return std::make_unique<InProcTransport>(options);
}
