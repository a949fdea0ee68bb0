//===- Npy.h - NumPy .npy files for pp-exec ---------------------*- C++ -*-===//
//
// A small reader and writer for NumPy's .npy format
// (https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html):
// the magic "\x93NUMPY", a version, a little-endian header length and an
// ASCII Python dict {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
// padded with spaces and a newline, then the raw elements.
//
// Written: version 1.0, little-endian, C order, descr <f4, <f8, <i4 or <i8,
// the preamble padded to a multiple of 64 bytes (as NumPy does).
// Read: versions 1.0, 2.0 and 3.0 with the same descrs ('=' or '|' byte order
// accepted as little-endian); big-endian and Fortran order are errors.
//
//===----------------------------------------------------------------------===//

#ifndef PP_EXECUTION_NPY_H
#define PP_EXECUTION_NPY_H

#include "pp/Execution/HostTensor.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace mlir::pp::exec {

/// Reads an .npy file; errors name the file and what is wrong with it.
llvm::Expected<HostTensor> readNpy(llvm::StringRef path);

/// Parses the bytes of an .npy file; errors start with `name`.
llvm::Expected<HostTensor> parseNpy(llvm::StringRef bytes,
                                    llvm::StringRef name);

/// Writes `t` as an .npy file (version 1.0, C order, little-endian).
llvm::Error writeNpy(llvm::StringRef path, const HostTensor &t);

} // namespace mlir::pp::exec

#endif // PP_EXECUTION_NPY_H
