//===- PassManagerOptions.cpp - the command line's pass options -----------===//

#include "pp/Support/PassManagerOptions.h"

#include "mlir/Pass/PassManager.h"

void mlir::pp::applyPassManagerOptions(PassManager &pm) {
  // Fails when the options are not registered (nothing to apply) or cannot
  // apply, which checkPassManagerOptions() reported once.
  (void)applyPassManagerCLOptions(pm);
  applyDefaultTimingPassManagerCLOptions(pm);
}

mlir::LogicalResult mlir::pp::checkPassManagerOptions(MLIRContext *context) {
  PassManager pm(context);
  return applyPassManagerCLOptions(pm);
}
