//===- Error.h - the error value of the libraries' C++ API ------*- C++ -*-===//
//
// The driver and the execution library return failures as llvm::Error with
// a message and no error code: a sentence in MLIR's style (lower case, no
// final period) that names the option, argument or file at fault. The tools
// print it after "<tool>: error: ".
//
//===----------------------------------------------------------------------===//

#ifndef PP_SUPPORT_ERROR_H
#define PP_SUPPORT_ERROR_H

#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

namespace mlir::pp {

/// An llvm::Error carrying `message` (llvm::inconvertibleErrorCode()).
inline llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

} // namespace mlir::pp

#endif // PP_SUPPORT_ERROR_H
