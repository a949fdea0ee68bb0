//===- Text.cpp - numbers and counts in reports ---------------------------===//
//
// See Text.h.
//
//===----------------------------------------------------------------------===//

#include "Text.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

/// Prints a number for humans and FileCheck: integral values without a
/// fraction ("3"), others with up to 6 significant digits ("0.75",
/// "0.333333"); values of a million or more in fixed notation with at most
/// one decimal ("1234567.5"), never in exponent notation.
std::string mlir::pp::sched::detail::formatNumber(double x) {
  if (x == 0 || std::isnan(x))
    return std::isnan(x) ? "nan" : "0";
  std::string s;
  llvm::raw_string_ostream os(s);
  if (std::fabs(x) < 1e15 && x == std::floor(x))
    os << static_cast<int64_t>(x);
  else if (std::fabs(x) >= 1e6)
    os << llvm::format("%.1f", x);
  else
    os << llvm::format("%.6g", x);
  // "%.1f" of an almost integral value prints a trailing ".0".
  if (s.size() > 2 && s.compare(s.size() - 2, 2, ".0") == 0)
    s.resize(s.size() - 2);
  return s;
}

std::string mlir::pp::sched::detail::plural(int64_t n, llvm::StringRef word) {
  return std::to_string(n) + " " + word.str() + (n == 1 ? "" : "s");
}

std::string mlir::pp::sched::detail::plural(int64_t n, llvm::StringRef word,
                                            llvm::StringRef words) {
  return std::to_string(n) + " " + (n == 1 ? word : words).str();
}
