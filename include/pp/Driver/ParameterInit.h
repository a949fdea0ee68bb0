//===- ParameterInit.h - synthetic initial values of parameters -*- C++ -*-===//
//
// pp-run trains from synthetic parameters when the model carries none (or
// the user gives none in .npy files). They follow the usual rules of the
// frameworks, read off how the model uses each parameter, so that common
// models do not start at NaN (a batch-norm variance drawn negative) or
// saturate (a matrix drawn with the wrong fan-in):
//
// - a parameter that feeds a contraction (matmul, batch matmul, convolution
//   in any layout, an einsum-like linalg.generic), possibly through layout
//   changes (transpose, broadcast, reshape, slices), gets PyTorch's default
//   for nn.Linear / nn.ConvNd weights: uniform in [-1/sqrt(fan_in),
//   1/sqrt(fan_in)), where fan_in is the number of its elements that one
//   output element sums (the product of the reduction loops that index it:
//   K of a matmul, C*KH*KW of a convolution);
// - otherwise, a parameter that reaches sqrt, rsqrt, log, pow or the
//   divisor of a division (a variance, a normalizer) or multiplies another
//   value (a norm's scale) starts at 1, as LayerNorm/BatchNorm gains do;
// - one that is added or subtracted (a bias, a shift, a running mean)
//   starts at 0 (Flax's and Keras' bias default);
// - anything else is uniform in [-1, 1).
//
//===----------------------------------------------------------------------===//

#ifndef PP_DRIVER_PARAMETERINIT_H
#define PP_DRIVER_PARAMETERINIT_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <cstdint>
#include <string>

namespace mlir::pp::driver {

/// How a synthetic parameter is drawn.
struct InitRule {
  enum Kind {
    FanIn,   ///< uniform in [-1/sqrt(fanIn), 1/sqrt(fanIn))
    One,     ///< every element 1
    Zero,    ///< every element 0
    Uniform, ///< uniform in [-1, 1)
  };
  Kind kind = Uniform;
  /// FanIn only: elements one output element sums over (>= 1).
  int64_t fanIn = 1;

  /// "fan-in 784", "ones", "zeros", "uniform [-1, 1)".
  std::string str() const;
};

/// The rule for argument `argument` of `fn` (a model on tensors, linalg
/// named or generic ops; calls are followed into their callees).
InitRule initRuleFor(mlir::func::FuncOp fn, unsigned argument);

} // namespace mlir::pp::driver

#endif // PP_DRIVER_PARAMETERINIT_H
