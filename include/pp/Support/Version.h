//===- Version.h - pp-mlir's version, for --version -------------*- C++ -*-===//

#ifndef PP_SUPPORT_VERSION_H
#define PP_SUPPORT_VERSION_H

#include "llvm/Support/raw_ostream.h"

namespace mlir::pp {

/// "pp-mlir 0.1.0 (commit 1234abc)": the project's version and the commit
/// the build was configured from ("unknown" outside a git checkout).
const char *versionString();

/// Prints "<tool> (pp-mlir 0.1.0, commit 1234abc), built with LLVM 22.1.x".
void printVersion(llvm::raw_ostream &os, llvm::StringRef tool);

/// Makes `--version` of an LLVM command line print printVersion() for
/// `tool` (in place of LLVM's own text).
void setVersionPrinter(llvm::StringRef tool);

/// Makes `--version` of an LLVM command line print printVersion() for `tool`
/// after LLVM's own text (for the tools built on mlir-opt and
/// mlir-translate, whose LLVM text names the host CPU and targets).
void addVersionPrinter(llvm::StringRef tool);

} // namespace mlir::pp

#endif // PP_SUPPORT_VERSION_H
