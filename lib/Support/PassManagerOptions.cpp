//===- PassManagerOptions.cpp - the command line's pass options -----------===//

#include "pp/Support/PassManagerOptions.h"

#include "mlir/Pass/PassManager.h"

void mlir::pp::applyPassManagerOptions(PassManager &pm) {
  // Fails only for options that cannot apply (crash reproducers with
  // threads), which the tools do not register.
  (void)applyPassManagerCLOptions(pm);
  applyDefaultTimingPassManagerCLOptions(pm);
}
