//===- pp-translate.cpp - pp schedules to and from other formats ----------===//
//
// mlir-translate with the pp dialect's translations (pp/Target/Translations.h:
// --export-pp-csv, --import-pp-csv, --export-chrome-trace, --export-svg).
// Errors are diagnostics; the tool then exits with 1.
//
//===----------------------------------------------------------------------===//

#include "pp/Support/Version.h"
#include "pp/Target/Translations.h"

#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"

int main(int argc, char **argv) {
  mlir::pp::registerPPTranslations();
  mlir::pp::addVersionPrinter("pp-translate");
  return mlir::failed(
      mlir::mlirTranslateMain(argc, argv, "pp-mlir translation driver"));
}
