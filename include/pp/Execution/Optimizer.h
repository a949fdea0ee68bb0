//===- Optimizer.h - the update rules, generated as code --------*- C++ -*-===//
//
// The optimizers pp-run trains with (--optimizer=sgd|momentum|adamw;
// docs/Training.md, "Optimizers"), as functions on tensors that the JIT
// compiles with the stage code: one function per parameter type (element
// type and element count, the parameter flattened), whose single
// linalg.generic reads the parameter, its gradient and its state and writes
// the new parameter and state in one pass (fused per parameter). The
// scalars of a step (rate, bias corrections) come in as a small tensor, so
// one compiled function serves every step.
//
// Formulas, each element in this order, in the parameter's type (the
// scalars computed in double, then rounded to it), after the gradient is
// scaled, g = g * gradScale (torch.nn.utils.clip_grad_norm_'s factor; 1
// when not clipping, which changes no bit):
//
//   sgd       p' = p * decay - lr * g
//   momentum  b' = mu * b + g;  p' = p * decay - lr * b'
//             (torch.optim.SGD with momentum mu, dampening 0; b starts at 0,
//             so b' = g on the first update, as PyTorch sets it)
//   adamw     m' = beta1 * m + (1 - beta1) * g
//             v' = beta2 * v + (1 - beta2) * g * g
//             p' = p * decay - (lr / c1) * (m' / (sqrt(v') / sqrt(c2) + eps))
//             with c1 = 1 - beta1^t, c2 = 1 - beta2^t after t updates
//             (Loshchilov & Hutter, "Decoupled Weight Decay
//             Regularization", ICLR 2019, Algorithm 2; the bias correction
//             and eps placement of torch.optim.AdamW)
//
// where decay = 1 - lr * weightDecay: weight decay is decoupled from the
// gradient for every optimizer (AdamW's form; torch.optim.SGD's
// weight_decay adds it to the gradient instead).
//
//===----------------------------------------------------------------------===//

#ifndef PP_EXECUTION_OPTIMIZER_H
#define PP_EXECUTION_OPTIMIZER_H

#include "pp/Execution/HostTensor.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::pp::exec {

struct OptimizerOptions {
  enum class Kind { SGD, Momentum, AdamW };
  Kind kind = Kind::SGD;
  /// momentum: the factor mu of the momentum buffer, in [0, 1).
  double momentum = 0.9;
  /// adamw: the moments' decay rates, each in [0, 1), and eps > 0.
  double beta1 = 0.9, beta2 = 0.999, eps = 1e-8;
  /// Decoupled weight decay, >= 0 (0: none).
  double weightDecay = 0.0;
};

/// "sgd", "momentum", "adamw".
llvm::StringRef optimizerName(OptimizerOptions::Kind kind);
std::optional<OptimizerOptions::Kind> parseOptimizer(llvm::StringRef name);

/// The state tensors each parameter has, named as PyTorch's optimizers
/// name them in a state_dict: none (sgd), "momentum_buffer" (momentum),
/// "exp_avg" and "exp_avg_sq" (adamw). Each has the parameter's type and
/// starts at zero.
std::vector<std::string> optimizerStateNames(OptimizerOptions::Kind kind);

/// Checks the hyperparameters; the message names the option as pp-run
/// spells it (--momentum, --beta1, --beta2, --eps, --weight-decay).
llvm::Error validate(const OptimizerOptions &options);

/// The scalar operands of one update at learning rate `lr` (>= 0) as the
/// `t`-th update (t >= 1) with the gradients scaled by `gradScale`, in the
/// order the generated function reads them: gradScale, decay, then lr
/// (sgd), lr and mu (momentum), or beta1, beta2, 1 - beta1, 1 - beta2,
/// lr / c1, sqrt(c2), eps (adamw).
std::vector<double> updateScalars(const OptimizerOptions &options, double lr,
                                  int64_t t, double gradScale = 1.0);

/// The update function for parameters of `spec`: its name, and its
/// signature (p, g, state..., scalars) -> (p', state'...) with every
/// tensor flattened to one dimension.
std::string updateFunctionName(const OptimizerOptions &options,
                               const TensorSpec &spec);

/// Adds to `module` the update function of every distinct parameter type
/// among `parameters` (f32 or f64; others are an error naming the type)
/// unless the module has it, and returns their names (one per distinct
/// type, for JitModule::compile's entries).
llvm::Expected<std::vector<std::string>>
addUpdateFunctions(mlir::ModuleOp module, const OptimizerOptions &options,
                   llvm::ArrayRef<TensorSpec> parameters);

/// The formulas above in plain C++, element by element in the same order:
/// what the generated functions must equal bit for bit (unit tests).
/// `state` holds optimizerStateNames(kind).size() tensors.
void referenceUpdate(const OptimizerOptions &options, double lr, int64_t t,
                     double gradScale, HostTensor &param,
                     const HostTensor &grad, std::vector<HostTensor> &state);

} // namespace mlir::pp::exec

#endif // PP_EXECUTION_OPTIMIZER_H
