//===- pp-plugin.cpp - pp as an mlir-opt plugin ----------------------------===//
//
// mlir-opt --load-dialect-plugin=PPPlugin.so --load-pass-plugin=PPPlugin.so
//
//===----------------------------------------------------------------------===//

#include "pp/Dialect/PP/IR/PPDialect.h"
#include "pp/InitAllPasses.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Compiler.h"

using namespace mlir;

extern "C" LLVM_ATTRIBUTE_WEAK DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "PP", LLVM_VERSION_STRING,
          [](DialectRegistry *registry) { registry->insert<pp::PPDialect>(); }};
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "PPPasses", LLVM_VERSION_STRING,
          []() { pp::registerAllPPPasses(); }};
}
