//===- Checkpoint.h ---------------------------------------------*- C++ -*-===//
//
// Saved training state, by the model's arguments.
//
// A checkpoint names the model's parameters, not stages, so a run can
// resume with another P, V or schedule (pp-run --save, --resume;
// docs/Training.md, "Checkpoints"). A directory holds:
//
//   manifest.json      {"format": "pp-mlir checkpoint", "version": 1,
//                       "function": "<loss function>", "step": S,
//                       "seed": ..., "optimizer": "adamw", "updates": S,
//                       "tensors": [{"name": "argument 4", "role":
//                       "parameter", "argument": 4, "file":
//                       "argument-4.npy", "dtype": "float32",
//                       "shape": [512, 784]},
//                      {"name": "argument 4 exp_avg", "role": "exp_avg",
//                       "file": "argument-4.exp_avg.npy", ...}, ...]}
//   argument-<k>.npy   one per parameter, whole (a parameter split into
//                      pieces is reassembled), in NumPy's format
//   argument-<k>.<state>.npy
//                      the optimizer's state of the parameter, named as
//                      PyTorch names it (exp_avg, exp_avg_sq,
//                      momentum_buffer; pp/Execution/Optimizer.h), whole
//
// where k numbers the loss function's arguments as prepared (before split
// ops made pieces), as pp-run's "initial parameters" line does. A step S
// checkpoint holds the parameters after S updates.
//
//===----------------------------------------------------------------------===//

#ifndef PP_DRIVER_CHECKPOINT_H
#define PP_DRIVER_CHECKPOINT_H

#include "pp/Execution/HostTensor.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace mlir::pp::driver {

struct Checkpoint {
  /// The loss function the parameters belong to.
  std::string function;
  /// Updates applied (training steps done), >= 0.
  int step = 0;
  /// The run's seed (synthetic data and parameters).
  uint64_t seed = 0;
  /// The update rule (exec::optimizerName) and the updates it applied: the
  /// t of the next update's bias correction is updates + 1 (skipped steps
  /// apply none).
  std::string optimizer = "sgd";
  int64_t updates = 0;
  /// (argument as prepared, value), ascending by argument.
  using Tensors = std::vector<std::pair<unsigned, exec::HostTensor>>;
  Tensors parameters;
  /// The optimizer's state by name (exec::optimizerStateNames), each
  /// holding every parameter's tensor as `parameters` does.
  std::map<std::string, Tensors> state;
};

/// Writes `checkpoint` to directory `dir`: into a fresh sibling directory
/// first, which then replaces `dir` (a reader never sees half a
/// checkpoint; an older checkpoint in `dir` is replaced whole). Errors name
/// the file that could not be written.
llvm::Error writeCheckpoint(llvm::StringRef dir, const Checkpoint &checkpoint);

/// Reads the checkpoint in `dir` for `function`, whose parameters are
/// `expected` (argument as prepared, type), saved by `optimizer` with the
/// state `stateNames` per parameter: every tensor is read and checked
/// before it returns, so a caller sets nothing from a bad one. Errors name
/// the directory, the file or the tensor: no manifest, another format or
/// version, another function or optimizer, a parameter or state tensor
/// missing, one the model or optimizer does not have, another type or
/// shape, a truncated or corrupt .npy file, a non-finite element.
llvm::Expected<Checkpoint>
readCheckpoint(llvm::StringRef dir, llvm::StringRef function,
               llvm::ArrayRef<std::pair<unsigned, exec::TensorSpec>> expected,
               llvm::StringRef optimizer = "sgd",
               llvm::ArrayRef<std::string> stateNames = {});

} // namespace mlir::pp::driver

#endif // PP_DRIVER_CHECKPOINT_H
