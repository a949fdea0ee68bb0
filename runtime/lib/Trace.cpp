//===- Trace.cpp - Chrome trace JSON of a step -------------------------===//
//
// The trace of the last step in the shape pp-simulate writes
// (lib/Schedule/Report.cpp, chromeTraceJSON): {"traceEvents": [...]} with
// one complete ("X") event per line, keys sorted, pid 0, tid = rank, ts and
// dur in microseconds since the step's epoch, name = the action's label
// ("F3", "B3", "W3"; "SEND_F3" / "RECV_B3" for communication) and cat = its
// kind ("forward", "backward", "backward_input", "backward_weight", "send",
// "recv"). Send and receive events also carry the peer in args.
//
//===----------------------------------------------------------------------===//

#include "Step.h"

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
  std::string out = "{\"traceEvents\": [";
  bool first = true;
  for (const TraceEvent &event : trace()) {
    out += first ? "\n" : ",\n";
    first = false;
    out += "{\"args\":{\"microbatch\":" + std::to_string(event.microbatch);
    if (event.peer >= 0)
      out += ",\"peer\":" + std::to_string(event.peer);
    out += ",\"stage\":" + std::to_string(event.stage) + "},";
    out += "\"cat\":\"" + std::string(actionCategory(event.action)) + "\",";
    out += "\"dur\":" + micros(event.end - event.start) + ",";
    out += "\"name\":\"" + label(event) + "\",";
    out += "\"ph\":\"X\",\"pid\":0,";
    out += "\"tid\":" + std::to_string(event.rank) + ",";
    out += "\"ts\":" + micros(event.start) + "}";
  }
  out += "\n]}\n";
  return out;
}
