//===- CacheDirectory.cpp - where pp-mlir keeps its caches ----------------===//

#include "pp/Support/CacheDirectory.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"

#include <cstdlib>

std::string mlir::pp::userCachePath(llvm::StringRef name) {
  llvm::SmallString<256> path;
  if (const char *xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
    path = xdg;
  else if (const char *home = std::getenv("HOME"); home && *home)
    llvm::sys::path::append(path, home, ".cache");
  else
    return "";
  llvm::sys::path::append(path, "pp-mlir", name);
  return path.str().str();
}
