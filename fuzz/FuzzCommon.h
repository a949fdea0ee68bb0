//===- FuzzCommon.h - helpers shared by the libFuzzer targets ---*- C++ -*-===//
//
// A byte reader that turns the fuzzer's input into bounded choices, and the
// one way a target reports a broken invariant: print it, then abort (which
// libFuzzer records as a crash with the input that caused it).
//
//===----------------------------------------------------------------------===//

#ifndef PP_FUZZ_FUZZCOMMON_H
#define PP_FUZZ_FUZZCOMMON_H

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace ppfuzz {

/// Reads the input a byte at a time; past its end every read is 0, so every
/// input (the empty one too) is a complete description.
class ByteReader {
public:
  ByteReader(const uint8_t *data, size_t size) : data(data), size(size) {}
  uint8_t byte() { return pos < size ? data[pos++] : 0; }
  /// A value in [0, n).
  unsigned below(unsigned n) { return n ? byte() % n : 0; }
  template <typename T, size_t N> const T &pick(const T (&values)[N]) {
    return values[below(N)];
  }

private:
  const uint8_t *data;
  size_t size;
  size_t pos = 0;
};

/// A broken invariant: a bug in the code under test.
[[noreturn]] inline void fail(const std::string &what) {
  llvm::errs() << "pp-fuzz: invariant broken: " << what << "\n";
  llvm::errs().flush();
  std::abort();
}

/// The message of an expected error (dropping it); an empty message is a
/// bug: every error must say what is wrong.
inline std::string takeMessage(llvm::Error error, const char *who) {
  std::string message = llvm::toString(std::move(error));
  if (message.empty())
    fail(std::string(who) + " returned an error with an empty message");
  return message;
}

} // namespace ppfuzz

#endif // PP_FUZZ_FUZZCOMMON_H
