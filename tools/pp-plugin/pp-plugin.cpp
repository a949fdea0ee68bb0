//===- pp-plugin.cpp - pp as an mlir-opt plugin ---------------------------===//
//
// mlir-opt --load-dialect-plugin=PPPlugin.so --load-pass-plugin=PPPlugin.so
//
// The dialect plugin registers what pp-opt, pp-run and pp-exec register
// (pp/InitAllDialects.h): mlir-opt has the upstream dialects already, and the
// pp dialect and the extensions come with them.
//
//===----------------------------------------------------------------------===//

#include "pp/InitAllDialects.h"
#include "pp/InitAllPasses.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Compiler.h"

using namespace mlir;

extern "C" LLVM_ATTRIBUTE_WEAK DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {
      MLIR_PLUGIN_API_VERSION, "PP", LLVM_VERSION_STRING,
      [](DialectRegistry *registry) { pp::registerModelDialects(*registry); }};
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "PPPasses", LLVM_VERSION_STRING,
          []() { pp::registerAllPPPasses(); }};
}
