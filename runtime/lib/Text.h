//===- Text.h - the runtime's names in messages -----------------*- C++ -*-===//

#ifndef PPRT_LIB_TEXT_H
#define PPRT_LIB_TEXT_H

#include "pprt/Runtime.h"

#include <cstdint>
#include <string>

namespace pprt {
namespace detail {

/// "activation" or "gradient".
const char *kindName(int64_t kind);
/// "activation (stage 1, micro-batch 3)", "gradient part 1 (stage ...)":
/// a message for error texts.
std::string describeMessage(int64_t kind, int64_t stage, int64_t microbatch);
/// "rank 3".
std::string rankName(int rank);
/// "forward of stage 1, micro-batch 3".
std::string describeAction(int64_t action, int64_t stage, int64_t microbatch);
/// "f32" or "f64".
const char *dtypeName(int64_t dtype);
/// Size of one element of `dtype` in bytes; 0 if it is not a pprt_dtype.
int64_t dtypeSize(int64_t dtype);
/// "forward", "backward", "backward_input", "backward_weight", "send",
/// "recv" (the trace categories of pp-simulate).
const char *actionCategory(pprt_action action);
/// Seconds as text without trailing zeros ("0.2", "60").
std::string formatSeconds(double seconds);

} // namespace detail
} // namespace pprt

#endif // PPRT_LIB_TEXT_H
