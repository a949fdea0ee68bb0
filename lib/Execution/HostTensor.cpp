//===- HostTensor.cpp - dense host buffers for pp-exec --------------------===//

#include "pp/Execution/HostTensor.h"

#include "llvm/ADT/STLExtras.h"

#include <cassert>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace mlir::pp::exec;

const char *mlir::pp::exec::elemKindName(ElemKind kind) {
  switch (kind) {
  case ElemKind::F32:
    return "f32";
  case ElemKind::F64:
    return "f64";
  case ElemKind::I32:
    return "i32";
  case ElemKind::I64:
    return "i64";
  }
  return "?";
}

const char *mlir::pp::exec::numpyName(ElemKind kind) {
  switch (kind) {
  case ElemKind::F32:
    return "float32";
  case ElemKind::F64:
    return "float64";
  case ElemKind::I32:
    return "int32";
  case ElemKind::I64:
    return "int64";
  }
  return "?";
}

unsigned mlir::pp::exec::elemSize(ElemKind kind) {
  return kind == ElemKind::F32 || kind == ElemKind::I32 ? 4 : 8;
}

bool mlir::pp::exec::isFloat(ElemKind kind) {
  return kind == ElemKind::F32 || kind == ElemKind::F64;
}

int64_t TensorSpec::numElements() const {
  // An empty dimension first: huge dimensions before it must not overflow
  // (parseNpy accepts such a shape; its product is 0).
  if (llvm::is_contained(shape, 0))
    return 0;
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

std::string TensorSpec::str() const {
  std::string s = "tensor<";
  for (int64_t d : shape)
    s += std::to_string(d) + "x";
  s += elemKindName(kind);
  s += ">";
  return s;
}

std::string TensorSpec::shapeStr() const {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i)
      s += ", ";
    s += std::to_string(shape[i]);
  }
  if (shape.size() == 1)
    s += ",";
  return s + ")";
}

HostTensor::HostTensor(TensorSpec spec)
    : spec_(std::move(spec)), numElements_(spec_.numElements()) {
  storage_.assign((byteSize() + 7) / 8 + 1, 0);
}

/// Row-major layout around dimension `dim` of `shape`: `outer` blocks of
/// shape[dim] rows of `inner` bytes each.
static std::pair<int64_t, size_t> blocksAround(llvm::ArrayRef<int64_t> shape,
                                               unsigned dim, ElemKind kind) {
  int64_t outer = 1;
  for (unsigned d = 0; d < dim; ++d)
    outer *= shape[d];
  size_t inner = elemSize(kind);
  for (unsigned d = dim + 1; d < shape.size(); ++d)
    inner *= shape[d];
  return {outer, inner};
}

HostTensor mlir::pp::exec::sliceAlong(const HostTensor &t, unsigned dim,
                                      int64_t offset, int64_t size) {
  llvm::ArrayRef<int64_t> shape = t.shape();
  assert(dim < shape.size() && offset >= 0 && size >= 0 &&
         offset + size <= shape[dim] && "slice outside the tensor");
  TensorSpec spec = t.spec();
  spec.shape[dim] = size;
  HostTensor slice(spec);
  auto [outer, inner] = blocksAround(shape, dim, t.kind());
  const char *from = static_cast<const char *>(t.data());
  char *to = static_cast<char *>(slice.data());
  for (int64_t o = 0; o < outer; ++o)
    std::memcpy(to + o * size * inner, from + (o * shape[dim] + offset) * inner,
                size * inner);
  return slice;
}

void mlir::pp::exec::insertAlong(HostTensor &t, const HostTensor &piece,
                                 unsigned dim, int64_t offset) {
  llvm::ArrayRef<int64_t> shape = t.shape();
  int64_t size = piece.shape()[dim];
  assert(t.kind() == piece.kind() && dim < shape.size() &&
         piece.shape().size() == shape.size() && offset >= 0 &&
         offset + size <= shape[dim] && "piece outside the tensor");
  auto [outer, inner] = blocksAround(shape, dim, t.kind());
  const char *from = static_cast<const char *>(piece.data());
  char *to = static_cast<char *>(t.data());
  for (int64_t o = 0; o < outer; ++o)
    std::memcpy(to + (o * shape[dim] + offset) * inner, from + o * size * inner,
                size * inner);
}

double mlir::pp::exec::sumOfSquares(const HostTensor &t) {
  double sum = 0;
  for (int64_t i = 0; i < t.size(); ++i)
    sum += t.get(i) * t.get(i);
  return sum;
}

double HostTensor::get(int64_t i) const {
  const char *p = reinterpret_cast<const char *>(storage_.data());
  switch (spec_.kind) {
  case ElemKind::F32: {
    float v;
    std::memcpy(&v, p + 4 * i, 4);
    return v;
  }
  case ElemKind::F64: {
    double v;
    std::memcpy(&v, p + 8 * i, 8);
    return v;
  }
  case ElemKind::I32: {
    int32_t v;
    std::memcpy(&v, p + 4 * i, 4);
    return v;
  }
  case ElemKind::I64: {
    int64_t v;
    std::memcpy(&v, p + 8 * i, 8);
    return static_cast<double>(v);
  }
  }
  return 0;
}

void HostTensor::set(int64_t i, double v) {
  char *p = reinterpret_cast<char *>(storage_.data());
  switch (spec_.kind) {
  case ElemKind::F32: {
    float f = static_cast<float>(v);
    std::memcpy(p + 4 * i, &f, 4);
    return;
  }
  case ElemKind::F64:
    std::memcpy(p + 8 * i, &v, 8);
    return;
  case ElemKind::I32: {
    int32_t x = static_cast<int32_t>(std::llround(v));
    std::memcpy(p + 4 * i, &x, 4);
    return;
  }
  case ElemKind::I64: {
    int64_t x = std::llround(v);
    std::memcpy(p + 8 * i, &x, 8);
    return;
  }
  }
}

uint64_t HostTensor::bits(int64_t i) const {
  const char *p = reinterpret_cast<const char *>(storage_.data());
  if (elemSize(spec_.kind) == 4) {
    uint32_t v;
    std::memcpy(&v, p + 4 * i, 4);
    return v;
  }
  uint64_t v;
  std::memcpy(&v, p + 8 * i, 8);
  return v;
}

std::string HostTensor::indexStr(int64_t i) const {
  llvm::SmallVector<int64_t> idx(spec_.shape.size());
  for (size_t d = spec_.shape.size(); d-- > 0;) {
    idx[d] = i % spec_.shape[d];
    i /= spec_.shape[d];
  }
  std::string s = "[";
  for (size_t d = 0; d < idx.size(); ++d) {
    if (d)
      s += ", ";
    s += std::to_string(idx[d]);
  }
  return s + "]";
}

uint64_t SplitMix64::next() {
  uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

double SplitMix64::uniformF32() {
  // 24 bits: k / 2^23 - 1 for k in [0, 2^24).
  return static_cast<double>(next() >> 40) * 0x1.0p-23 - 1.0;
}

double SplitMix64::uniformF64() {
  return static_cast<double>(next() >> 11) * 0x1.0p-52 - 1.0;
}

uint64_t SplitMix64::below(uint64_t n) {
  // Multiply-shift: unbiased enough for sampling test coordinates.
  return static_cast<uint64_t>((static_cast<unsigned __int128>(next()) * n) >>
                               64);
}

void mlir::pp::exec::fillRandom(HostTensor &t, SplitMix64 &rng) {
  for (int64_t i = 0, e = t.size(); i < e; ++i) {
    switch (t.kind()) {
    case ElemKind::F32:
      t.set(i, rng.uniformF32());
      break;
    case ElemKind::F64:
      t.set(i, rng.uniformF64());
      break;
    case ElemKind::I32:
    case ElemKind::I64:
      t.set(i, static_cast<double>(rng.below(10)));
      break;
    }
  }
}

std::string mlir::pp::exec::formatValue(ElemKind kind, double v) {
  char buf[64];
  if (std::isnan(v))
    return "nan";
  if (std::isinf(v))
    return v < 0 ? "-inf" : "inf";
  if (!isFloat(kind)) {
    std::snprintf(buf, sizeof(buf), "%lld", static_cast<long long>(v));
    return buf;
  }
  // The fewest significant digits that read back exactly; an exponent only
  // for very small or very large magnitudes (50, not 5e+01).
  bool single = kind == ElemKind::F32;
  if (single)
    v = static_cast<float>(v);
  int maxDigits = single ? 9 : 17;
  bool exponentOk =
      std::fabs(v) < 1e-4 || std::fabs(v) >= (single ? 1e9 : 1e17);
  for (int p = 1; p <= maxDigits; ++p) {
    std::snprintf(buf, sizeof(buf), "%.*g", p, v);
    bool exact = single ? std::strtof(buf, nullptr) == static_cast<float>(v)
                        : std::strtod(buf, nullptr) == v;
    if (exact && (exponentOk || !std::strchr(buf, 'e')))
      return buf;
  }
  std::snprintf(buf, sizeof(buf), "%.*g", maxDigits, v);
  return buf;
}

std::string mlir::pp::exec::formatDouble(double v) {
  char buf[64];
  if (std::isnan(v))
    return "nan";
  if (std::isinf(v))
    return v < 0 ? "-inf" : "inf";
  std::snprintf(buf, sizeof(buf), "%.9g", v);
  return buf;
}

int64_t mlir::pp::exec::firstNonFinite(const HostTensor &t) {
  if (!isFloat(t.kind()))
    return -1;
  for (int64_t i = 0, e = t.size(); i < e; ++i)
    if (!std::isfinite(t.get(i)))
      return i;
  return -1;
}
