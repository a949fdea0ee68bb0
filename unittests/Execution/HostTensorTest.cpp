//===- HostTensorTest.cpp - sliceAlong, insertAlong -----------------------===//

#include "pp/Execution/HostTensor.h"

#include <gtest/gtest.h>

using namespace mlir::pp::exec;

namespace {

/// A 2x3x4 f32 tensor holding 0, 1, 2, ... in row-major order.
HostTensor iota() {
  TensorSpec spec;
  spec.kind = ElemKind::F32;
  spec.shape = {2, 3, 4};
  HostTensor t(spec);
  for (int64_t i = 0; i < t.size(); ++i)
    t.set(i, static_cast<double>(i));
  return t;
}

TEST(SliceAlong, EveryDimension) {
  HostTensor t = iota();
  // Dimension 0: the second 3x4 block, elements 12..23.
  HostTensor d0 = sliceAlong(t, 0, 1, 1);
  EXPECT_EQ(d0.shape().vec(), (std::vector<int64_t>{1, 3, 4}));
  for (int64_t i = 0; i < d0.size(); ++i)
    EXPECT_EQ(d0.get(i), 12 + i);
  // Dimension 1: rows 1-2 of both blocks.
  HostTensor d1 = sliceAlong(t, 1, 1, 2);
  EXPECT_EQ(d1.shape().vec(), (std::vector<int64_t>{2, 2, 4}));
  std::vector<double> expected = {4,  5,  6,  7,  8,  9,  10, 11,
                                  16, 17, 18, 19, 20, 21, 22, 23};
  for (int64_t i = 0; i < d1.size(); ++i)
    EXPECT_EQ(d1.get(i), expected[i]);
  // Dimension 2 (the innermost): columns 3 of every row.
  HostTensor d2 = sliceAlong(t, 2, 3, 1);
  EXPECT_EQ(d2.shape().vec(), (std::vector<int64_t>{2, 3, 1}));
  for (int64_t i = 0; i < d2.size(); ++i)
    EXPECT_EQ(d2.get(i), 4 * i + 3);
}

TEST(SliceAlong, PiecesCoverTheTensor) {
  HostTensor t = iota();
  // Columns 0-1 and 2-3 hold every element once.
  HostTensor a = sliceAlong(t, 2, 0, 2), b = sliceAlong(t, 2, 2, 2);
  double sum = 0;
  for (int64_t i = 0; i < a.size(); ++i)
    sum += a.get(i) + b.get(i);
  EXPECT_EQ(sum, 23.0 * 24.0 / 2.0);
  // The whole dimension is a copy.
  HostTensor whole = sliceAlong(t, 1, 0, 3);
  for (int64_t i = 0; i < t.size(); ++i)
    EXPECT_EQ(whole.bits(i), t.bits(i));
}

// insertAlong puts the pieces sliceAlong cut back in place, along every
// dimension, in any order.
TEST(InsertAlong, ReassemblesTheSlices) {
  HostTensor t = iota();
  for (unsigned dim = 0; dim < 3; ++dim) {
    int64_t n = t.shape()[dim];
    HostTensor whole(t.spec());
    for (int64_t offset = n - 1; offset >= 0; --offset)
      insertAlong(whole, sliceAlong(t, dim, offset, 1), dim, offset);
    for (int64_t i = 0; i < t.size(); ++i)
      EXPECT_EQ(whole.bits(i), t.bits(i)) << "dimension " << dim;
  }
  // Unequal pieces along the innermost dimension: 1 + 3 columns.
  HostTensor whole(t.spec());
  insertAlong(whole, sliceAlong(t, 2, 1, 3), 2, 1);
  insertAlong(whole, sliceAlong(t, 2, 0, 1), 2, 0);
  for (int64_t i = 0; i < t.size(); ++i)
    EXPECT_EQ(whole.get(i), t.get(i));
}

} // namespace
