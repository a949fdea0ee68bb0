//===- Optimizer.cpp - the update rules, generated as code ----------------===//
//
// Builds the update functions of pp/Execution/Optimizer.h: for each
// parameter type one func.func on flat tensors holding one linalg.generic
// that yields the new parameter and state, and the same formulas in C++ for
// the tests.
//
//===----------------------------------------------------------------------===//

#include "pp/Execution/Optimizer.h"
#include "pp/Support/Error.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/Twine.h"

#include <cmath>
#include <set>

using namespace mlir;
using namespace mlir::pp::exec;
using Kind = OptimizerOptions::Kind;

llvm::StringRef mlir::pp::exec::optimizerName(Kind kind) {
  switch (kind) {
  case Kind::SGD:
    return "sgd";
  case Kind::Momentum:
    return "momentum";
  case Kind::AdamW:
    return "adamw";
  }
  return "sgd";
}

std::optional<Kind> mlir::pp::exec::parseOptimizer(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<Kind>>(name)
      .Case("sgd", Kind::SGD)
      .Case("momentum", Kind::Momentum)
      .Case("adamw", Kind::AdamW)
      .Default(std::nullopt);
}

std::vector<std::string> mlir::pp::exec::optimizerStateNames(Kind kind) {
  switch (kind) {
  case Kind::SGD:
    return {};
  case Kind::Momentum:
    return {"momentum_buffer"};
  case Kind::AdamW:
    return {"exp_avg", "exp_avg_sq"};
  }
  return {};
}

llvm::Error mlir::pp::exec::validate(const OptimizerOptions &options) {
  auto inUnitInterval = [](double v) {
    return std::isfinite(v) && v >= 0 && v < 1;
  };
  if (!inUnitInterval(options.momentum))
    return makeError("--momentum must be in [0, 1), not " +
                     formatDouble(options.momentum));
  if (!inUnitInterval(options.beta1))
    return makeError("--beta1 must be in [0, 1), not " +
                     formatDouble(options.beta1));
  if (!inUnitInterval(options.beta2))
    return makeError("--beta2 must be in [0, 1), not " +
                     formatDouble(options.beta2));
  // eps reaches the update in the parameter's type: it must stay > 0 in
  // f32 (else a parameter whose gradients were all zero divides 0 by 0).
  if (!std::isfinite(options.eps) || options.eps <= 0 ||
      static_cast<float>(options.eps) <= 0.0f)
    return makeError("--eps must be a finite number > 0 (in f32 too), not " +
                     formatDouble(options.eps));
  if (!std::isfinite(options.weightDecay) || options.weightDecay < 0)
    return makeError("--weight-decay must be a finite number >= 0, not " +
                     formatDouble(options.weightDecay));
  return llvm::Error::success();
}

std::vector<double> mlir::pp::exec::updateScalars(const OptimizerOptions &o,
                                                  double lr, int64_t t,
                                                  double gradScale) {
  double decay = 1.0 - lr * o.weightDecay;
  switch (o.kind) {
  case Kind::SGD:
    return {gradScale, decay, lr};
  case Kind::Momentum:
    return {gradScale, decay, lr, o.momentum};
  case Kind::AdamW: {
    double c1 = 1.0 - std::pow(o.beta1, static_cast<double>(t));
    double c2 = 1.0 - std::pow(o.beta2, static_cast<double>(t));
    return {gradScale,     decay,   o.beta1,       o.beta2, 1.0 - o.beta1,
            1.0 - o.beta2, lr / c1, std::sqrt(c2), o.eps};
  }
  }
  return {};
}

std::string mlir::pp::exec::updateFunctionName(const OptimizerOptions &options,
                                               const TensorSpec &spec) {
  return ("pp_update_" + optimizerName(options.kind) + "_" +
          elemKindName(spec.kind) + "_" + llvm::Twine(spec.numElements()))
      .str();
}

namespace {
/// The body of the generic: the new parameter and state from the old, the
/// gradient and the step's scalars `s`, in the header's order.
struct UpdateBody {
  Kind kind;
  ArrayRef<Value> s;

  SmallVector<Value> build(OpBuilder &b, Location loc, Value p, Value g,
                           ArrayRef<Value> state) const {
    auto mul = [&](Value x, Value y) {
      return arith::MulFOp::create(b, loc, x, y).getResult();
    };
    auto add = [&](Value x, Value y) {
      return arith::AddFOp::create(b, loc, x, y).getResult();
    };
    auto sub = [&](Value x, Value y) {
      return arith::SubFOp::create(b, loc, x, y).getResult();
    };
    auto div = [&](Value x, Value y) {
      return arith::DivFOp::create(b, loc, x, y).getResult();
    };
    g = mul(g, s[0]);
    Value decayed = mul(p, s[1]);
    switch (kind) {
    case Kind::SGD:
      return {sub(decayed, mul(s[2], g))};
    case Kind::Momentum: {
      Value buffer = add(mul(s[3], state[0]), g);
      return {sub(decayed, mul(s[2], buffer)), buffer};
    }
    case Kind::AdamW: {
      Value m = add(mul(s[2], state[0]), mul(s[4], g));
      Value v = add(mul(s[3], state[1]), mul(s[5], mul(g, g)));
      Value root = math::SqrtOp::create(b, loc, v);
      Value denom = add(div(root, s[7]), s[8]);
      return {sub(decayed, mul(s[6], div(m, denom))), m, v};
    }
    }
    return {};
  }
};
} // namespace

static Type elementType(MLIRContext *ctx, ElemKind kind) {
  return kind == ElemKind::F64 ? Type(Float64Type::get(ctx))
                               : Type(Float32Type::get(ctx));
}

static void buildUpdateFunction(ModuleOp module, const OptimizerOptions &o,
                                const TensorSpec &spec, StringRef name) {
  MLIRContext *ctx = module.getContext();
  Location loc = module.getLoc();
  Type elem = elementType(ctx, spec.kind);
  auto flat = RankedTensorType::get({spec.numElements()}, elem);
  size_t numState = optimizerStateNames(o.kind).size();
  size_t numScalars = updateScalars(o, 0.0, 1).size();
  auto scalarsType =
      RankedTensorType::get({static_cast<int64_t>(numScalars)}, elem);
  SmallVector<Type> inputs(2 + numState, flat);
  inputs.push_back(scalarsType);
  SmallVector<Type> results(1 + numState, flat);

  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  auto fn =
      func::FuncOp::create(b, loc, name, b.getFunctionType(inputs, results));
  // Callable with descriptors from C (_mlir_ciface_<name>): how the GPU
  // path runs it on device buffers.
  fn->setAttr("llvm.emit_c_interface", b.getUnitAttr());
  Block *entry = fn.addEntryBlock();
  b.setInsertionPointToStart(entry);
  // Every operand is read inside the generic (scalar k through the map
  // d0 -> k), so that no host code reads a buffer: on a GPU the whole
  // update is one kernel.
  SmallVector<Value> ins(entry->getArguments().begin(),
                         entry->getArguments().begin() + 2 + numState);
  AffineMap id = b.getDimIdentityMap();
  SmallVector<AffineMap> maps(ins.size(), id);
  Value scalarTensor = entry->getArgument(inputs.size() - 1);
  for (size_t k = 0; k < numScalars; ++k) {
    ins.push_back(scalarTensor);
    maps.push_back(AffineMap::get(1, 0, b.getAffineConstantExpr(k)));
  }
  SmallVector<Value> outs;
  for (size_t k = 0; k < results.size(); ++k) {
    outs.push_back(tensor::EmptyOp::create(b, loc, flat.getShape(), elem));
    maps.push_back(id);
  }
  SmallVector<utils::IteratorType> iterators{utils::IteratorType::parallel};
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange(results), ins, outs, maps, iterators,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        SmallVector<Value> state(args.begin() + 2, args.begin() + 2 + numState);
        SmallVector<Value> scalars(args.begin() + 2 + numState,
                                   args.begin() + 2 + numState + numScalars);
        UpdateBody body{o.kind, scalars};
        linalg::YieldOp::create(nb, nloc,
                                body.build(nb, nloc, args[0], args[1], state));
      });
  func::ReturnOp::create(b, loc, generic.getResults());
}

llvm::Expected<std::vector<std::string>>
mlir::pp::exec::addUpdateFunctions(ModuleOp module,
                                   const OptimizerOptions &options,
                                   ArrayRef<TensorSpec> parameters) {
  MLIRContext *ctx = module.getContext();
  ctx->loadDialect<arith::ArithDialect, func::FuncDialect,
                   linalg::LinalgDialect, math::MathDialect,
                   tensor::TensorDialect>();
  std::vector<std::string> names;
  std::set<std::string> seen;
  for (const TensorSpec &spec : parameters) {
    if (spec.kind != ElemKind::F32 && spec.kind != ElemKind::F64)
      return makeError("the optimizer updates f32 and f64 parameters, not " +
                       spec.str());
    std::string name = updateFunctionName(options, spec);
    if (!seen.insert(name).second)
      continue;
    names.push_back(name);
    if (!SymbolTable::lookupSymbolIn(module, name))
      buildUpdateFunction(module, options, spec, name);
  }
  return names;
}

template <typename T>
static void referenceElements(const OptimizerOptions &o,
                              const std::vector<double> &scalars, T *p,
                              const T *g, std::vector<T *> state, int64_t n) {
  std::vector<T> s(scalars.begin(), scalars.end());
  for (int64_t i = 0; i < n; ++i) {
    // One operation per statement: the order the generated code keeps (no
    // contraction into fused multiply-adds).
    T gi = g[i] * s[0];
    T decayed = p[i] * s[1];
    switch (o.kind) {
    case Kind::SGD: {
      T step = s[2] * gi;
      p[i] = decayed - step;
      break;
    }
    case Kind::Momentum: {
      T kept = s[3] * state[0][i];
      T buffer = kept + gi;
      T step = s[2] * buffer;
      p[i] = decayed - step;
      state[0][i] = buffer;
      break;
    }
    case Kind::AdamW: {
      T m0 = s[2] * state[0][i];
      T m1 = s[4] * gi;
      T m = m0 + m1;
      T v0 = s[3] * state[1][i];
      T gg = gi * gi;
      T v1 = s[5] * gg;
      T v = v0 + v1;
      T root = std::sqrt(v);
      T scaled = root / s[7];
      T denom = scaled + s[8];
      T ratio = m / denom;
      T step = s[6] * ratio;
      p[i] = decayed - step;
      state[0][i] = m;
      state[1][i] = v;
      break;
    }
    }
  }
}

void mlir::pp::exec::referenceUpdate(const OptimizerOptions &options, double lr,
                                     int64_t t, double gradScale,
                                     HostTensor &param, const HostTensor &grad,
                                     std::vector<HostTensor> &state) {
  std::vector<double> scalars = updateScalars(options, lr, t, gradScale);
  if (param.kind() == ElemKind::F64) {
    std::vector<double *> s;
    for (HostTensor &x : state)
      s.push_back(static_cast<double *>(x.data()));
    referenceElements<double>(
        options, scalars, static_cast<double *>(param.data()),
        static_cast<const double *>(grad.data()), s, param.size());
    return;
  }
  std::vector<float *> s;
  for (HostTensor &x : state)
    s.push_back(static_cast<float *>(x.data()));
  referenceElements<float>(options, scalars, static_cast<float *>(param.data()),
                           static_cast<const float *>(grad.data()), s,
                           param.size());
}
