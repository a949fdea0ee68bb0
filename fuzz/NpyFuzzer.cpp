//===- NpyFuzzer.cpp - the .npy reader ------------------------------------===//
//
// Parses the input as an .npy file (parseNpy, what pp-exec's and pp-run's
// --input/--parameters files go through). A tensor that parses must hold
// exactly the data bytes the file has after its header; an error must have
// a message.
//
//===----------------------------------------------------------------------===//

#include "FuzzCommon.h"
#include "pp/Execution/Npy.h"

#include "llvm/ADT/STLExtras.h"

using namespace ppfuzz;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef bytes(reinterpret_cast<const char *>(data), size);
  llvm::Expected<mlir::pp::exec::HostTensor> tensor =
      mlir::pp::exec::parseNpy(bytes, "input");
  if (!tensor) {
    (void)takeMessage(tensor.takeError(), "parseNpy");
    return 0;
  }
  if (tensor->byteSize() > size)
    fail("parseNpy returned a tensor of " + std::to_string(tensor->byteSize()) +
         " bytes from a file of " + std::to_string(size));
  int64_t n = 1;
  if (llvm::is_contained(tensor->shape(), 0))
    n = 0;
  for (int64_t d : tensor->shape())
    if (d < 0 || __builtin_mul_overflow(n, d, &n))
      fail("parseNpy accepted a shape whose element count overflows");
  if (n != tensor->size())
    fail("parseNpy: the element count does not match the shape");
  // Touch every element (reads past the data would show under ASan).
  double sum = 0;
  for (int64_t i = 0; i < tensor->size(); ++i)
    sum += tensor->get(i);
  (void)sum;
  return 0;
}
