//===- Trace.cpp - Chrome trace JSON of a step -------------------------===//
//
// The trace of the last step in the shape pp-simulate writes
// (lib/Schedule/Report.cpp, chromeTraceJSON): {"traceEvents": [...]} with
// one complete ("X") event per line, keys sorted, pid 0, tid = rank, ts and
// dur in microseconds since the step's epoch, name = the action's label
// ("F3", "B3", "W3"; "SEND_F3" / "RECV_B3" for communication) and cat = its
// kind ("forward", "backward", "backward_input", "backward_weight", "send",
// "recv"). Send and receive events also carry the peer in args. All-reduces
// ("ALLREDUCE_S2", "allreduce") go to pid 1, a row per (rank, stage), with
// the rank in args, and metadata ("M") events name the processes and rows.
//
//===----------------------------------------------------------------------===//

#include "Step.h"

#include <algorithm>
#include <cstdio>

using namespace pprt;
using namespace pprt::detail;

namespace {

/// The label pp-simulate gives the action (mlir::pp::sched::label).
std::string label(const TraceEvent &event) {
  std::string mb = std::to_string(event.microbatch);
  switch (event.action) {
  case PPRT_FORWARD:
    return "F" + mb;
  case PPRT_BACKWARD:
  case PPRT_BACKWARD_INPUT:
    return "B" + mb;
  case PPRT_BACKWARD_WEIGHT:
    return "W" + mb;
  case PPRT_SEND:
  case PPRT_RECV: {
    std::string prefix = event.action == PPRT_SEND ? "SEND_" : "RECV_";
    if (event.kind >= 0 && (event.kind & 1) == PPRT_ACTIVATION)
      return prefix + "F" + mb;
    if (event.kind >= 0 && (event.kind & 1) == PPRT_GRADIENT)
      return prefix + "B" + mb;
    return prefix + mb;
  }
  case PPRT_ALLREDUCE:
    return "ALLREDUCE_S" + std::to_string(event.stage);
  }
  return "?" + mb;
}

/// Microseconds with nanosecond resolution.
std::string micros(double seconds) {
  char text[64];
  std::snprintf(text, sizeof(text), "%.3f", seconds * 1e6);
  return text;
}

} // namespace

std::string World::chromeTraceJson() const {
  std::vector<TraceEvent> events = trace();
  // The all-reduces in a process of their own, a row per rank and stage
  // (as pp-simulate's traces): a rank's collectives may run at once, and
  // beside its compute.
  std::vector<std::pair<int, int64_t>> rows;
  for (const TraceEvent &event : events)
    if (event.action == PPRT_ALLREDUCE)
      rows.push_back({event.rank, event.stage});
  std::sort(rows.begin(), rows.end());
  rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
  std::string out = "{\"traceEvents\": [";
  bool first = true;
  for (const TraceEvent &event : events) {
    out += first ? "\n" : ",\n";
    first = false;
    bool reduce = event.action == PPRT_ALLREDUCE;
    out += "{\"args\":{\"microbatch\":" + std::to_string(event.microbatch);
    if (event.peer >= 0)
      out += ",\"peer\":" + std::to_string(event.peer);
    if (reduce)
      out += ",\"rank\":" + std::to_string(event.rank);
    out += ",\"stage\":" + std::to_string(event.stage) + "},";
    out += "\"cat\":\"" + std::string(actionCategory(event.action)) + "\",";
    out += "\"dur\":" + micros(event.end - event.start) + ",";
    out += "\"name\":\"" + label(event) + "\",";
    int64_t tid = event.rank;
    if (reduce)
      tid = std::lower_bound(rows.begin(), rows.end(),
                             std::make_pair(event.rank, event.stage)) -
            rows.begin();
    out += std::string("\"ph\":\"X\",\"pid\":") + (reduce ? "1" : "0") + ",";
    out += "\"tid\":" + std::to_string(tid) + ",";
    out += "\"ts\":" + micros(event.start) + "}";
  }
  if (!rows.empty()) {
    out += ",\n{\"args\":{\"name\":\"ranks\"},\"name\":\"process_name\","
           "\"ph\":\"M\",\"pid\":0}";
    out += ",\n{\"args\":{\"name\":\"all-reduces\"},\"name\":"
           "\"process_name\",\"ph\":\"M\",\"pid\":1}";
    for (size_t i = 0; i < rows.size(); ++i)
      out += ",\n{\"args\":{\"name\":\"rank " + std::to_string(rows[i].first) +
             ", stage " + std::to_string(rows[i].second) +
             "\"},\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":" +
             std::to_string(i) + "}";
  }
  out += "\n]}\n";
  return out;
}
