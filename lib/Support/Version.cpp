//===- Version.cpp - pp-mlir's version, for --version ---------------------===//

#include "pp/Support/Version.h"

#include "pp/Support/VersionConfig.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"

#include <string>

const char *mlir::pp::versionString() {
  return "pp-mlir " PP_VERSION " (commit " PP_COMMIT ")";
}

void mlir::pp::printVersion(llvm::raw_ostream &os, llvm::StringRef tool) {
  os << tool << " (pp-mlir " PP_VERSION ", commit " PP_COMMIT
     << "), built with LLVM " LLVM_VERSION_STRING "\n";
}

void mlir::pp::setVersionPrinter(llvm::StringRef tool) {
  static std::string name;
  name = tool.str();
  llvm::cl::SetVersionPrinter(
      [](llvm::raw_ostream &os) { printVersion(os, name); });
}

void mlir::pp::addVersionPrinter(llvm::StringRef tool) {
  llvm::cl::AddExtraVersionPrinter(
      [name = tool.str()](llvm::raw_ostream &os) { printVersion(os, name); });
}
