//===- HostTensor.h - dense host buffers for pp-exec ------------*- C++ -*-===//
//
// A dense, row-major (C order) buffer of one of the element types pp-exec
// runs functions on (f32, f64, i32, i64), with its static shape, plus the
// deterministic pseudo-random generator and number formatting the tool uses.
//
//===----------------------------------------------------------------------===//

#ifndef PP_EXECUTION_HOSTTENSOR_H
#define PP_EXECUTION_HOSTTENSOR_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mlir::pp::exec {

enum class ElemKind { F32, F64, I32, I64 };

/// "f32", "f64", "i32", "i64".
const char *elemKindName(ElemKind kind);
/// NumPy's name of the type: "float32", "float64", "int32", "int64".
const char *numpyName(ElemKind kind);
/// Bytes per element.
unsigned elemSize(ElemKind kind);
bool isFloat(ElemKind kind);

/// The type of one argument or result: a statically shaped tensor.
struct TensorSpec {
  ElemKind kind = ElemKind::F32;
  llvm::SmallVector<int64_t> shape;

  int64_t numElements() const;
  /// As MLIR prints it: "tensor<2x3xf32>", "tensor<f32>".
  std::string str() const;
  /// As NumPy prints a shape: "()", "(5,)", "(2, 3)".
  std::string shapeStr() const;
  bool operator==(const TensorSpec &other) const {
    return kind == other.kind && shape == other.shape;
  }
  bool operator!=(const TensorSpec &other) const { return !(*this == other); }
};

/// A dense row-major buffer holding one tensor value.
class HostTensor {
public:
  HostTensor() = default;
  /// Zero-initialized storage for `spec`.
  explicit HostTensor(TensorSpec spec);

  const TensorSpec &spec() const { return spec_; }
  ElemKind kind() const { return spec_.kind; }
  llvm::ArrayRef<int64_t> shape() const { return spec_.shape; }
  int64_t size() const { return numElements_; }
  size_t byteSize() const { return numElements_ * elemSize(spec_.kind); }
  void *data() { return storage_.data(); }
  const void *data() const { return storage_.data(); }

  /// Element `i` (C order) converted to double (exact for all four types up
  /// to 2^53 for the integers).
  double get(int64_t i) const;
  /// Stores `v` into element `i`, rounding to the element type (integers are
  /// rounded to nearest).
  void set(int64_t i, double v);
  /// The raw bits of element `i`, zero-extended: for bitwise comparison.
  uint64_t bits(int64_t i) const;
  /// The multi-index of flat index `i`, as "[1, 2]" ("[]" for rank 0).
  std::string indexStr(int64_t i) const;

private:
  TensorSpec spec_;
  int64_t numElements_ = 0;
  // 8-byte aligned backing store, large enough for the elements.
  std::vector<uint64_t> storage_;
};

/// The slice of `t` from `offset` to `offset + size` along dimension `dim`
/// (every other dimension whole), copied into a tensor of its own. Requires
/// dim < rank, 0 <= offset and offset + size <= the dimension (asserted).
HostTensor sliceAlong(const HostTensor &t, unsigned dim, int64_t offset,
                      int64_t size);

/// The sum of the squares of `t`'s elements, in f64 and in element order
/// (the same bits wherever it runs).
double sumOfSquares(const HostTensor &t);

/// Copies `piece` into `t` from `offset` along dimension `dim`: the inverse
/// of sliceAlong. Requires the same element kind and rank, every other
/// dimension equal, and offset + the piece's size <= the dimension
/// (asserted).
void insertAlong(HostTensor &t, const HostTensor &piece, unsigned dim,
                 int64_t offset);

/// splitmix64 (Steele, Lea, Flood 2014): a tiny generator with a fixed,
/// documented output sequence, so inputs are identical on every platform.
class SplitMix64 {
public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  uint64_t next();
  /// Uniform in [-1, 1) with 24 random bits: exactly representable in f32.
  double uniformF32();
  /// Uniform in [-1, 1) with 53 random bits.
  double uniformF64();
  /// Uniform integer in [0, n).
  uint64_t below(uint64_t n);

private:
  uint64_t state_;
};

/// The flat index of the first NaN or infinite element of `t` (C order), or
/// -1 if every element is finite (always -1 for integer tensors).
int64_t firstNonFinite(const HostTensor &t);

/// Fills `t` with seeded pseudo-random values (docs/Execution.md, "Inputs").
void fillRandom(HostTensor &t, SplitMix64 &rng);

/// The shortest decimal form that reads back to the same value of the
/// element type ("1", "0.1", "-2.5e-08", "nan", "inf"); integers as integers.
std::string formatValue(ElemKind kind, double v);
/// A double with 9 significant digits (checksums, errors).
std::string formatDouble(double v);

} // namespace mlir::pp::exec

#endif // PP_EXECUTION_HOSTTENSOR_H
