//===- CacheDirectory.h - where pp-mlir keeps its caches --------*- C++ -*-===//

#ifndef PP_SUPPORT_CACHEDIRECTORY_H
#define PP_SUPPORT_CACHEDIRECTORY_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir::pp {

/// `name` in the user's cache directory for pp-mlir (the XDG base directory
/// convention): $XDG_CACHE_HOME/pp-mlir/NAME, else $HOME/.cache/pp-mlir/NAME;
/// empty when neither variable is set. Nothing is created.
std::string userCachePath(llvm::StringRef name);

} // namespace mlir::pp

#endif // PP_SUPPORT_CACHEDIRECTORY_H
