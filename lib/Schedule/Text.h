//===- Text.h - numbers and counts in reports (internal) --------*- C++ -*-===//
//
// The words the schedule library's messages, reports, timelines and
// pictures share: one formatting of numbers and of counted nouns.
//
//===----------------------------------------------------------------------===//

#ifndef PP_LIB_SCHEDULE_TEXT_H
#define PP_LIB_SCHEDULE_TEXT_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace mlir::pp::sched::detail {

/// A number for reports, timelines and pictures: integral values without a
/// fraction ("3"), others with up to 6 significant digits ("0.75"); values of
/// a million or more in fixed notation with one decimal, never in exponent
/// notation.
std::string formatNumber(double x);

/// "3 stages", "1 rank": `word` with an "s" unless n is 1.
std::string plural(int64_t n, llvm::StringRef word);
/// "2 micro-batches", "1 micro-batch": irregular plurals.
std::string plural(int64_t n, llvm::StringRef word, llvm::StringRef words);

} // namespace mlir::pp::sched::detail

#endif // PP_LIB_SCHEDULE_TEXT_H
