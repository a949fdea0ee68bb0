//===- GradientChecks.cpp - comparing functions, checking gradients -------===//

#include "pp/Execution/GradientChecks.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

using namespace mlir;
using namespace mlir::pp::exec;

static std::vector<const HostTensor *> pointers(llvm::ArrayRef<HostTensor> ts) {
  std::vector<const HostTensor *> ps;
  for (const HostTensor &t : ts)
    ps.push_back(&t);
  return ps;
}

//===----------------------------------------------------------------------===//
// --compare
//===----------------------------------------------------------------------===//

LogicalResult mlir::pp::exec::verifyComparable(func::FuncOp gOp,
                                               const FunctionSignature &f,
                                               const FunctionSignature &g) {
  if (f.args.size() != g.args.size())
    return gOp.emitError() << "--compare: @" << g.name << " takes "
                           << g.args.size() << " arguments but @" << f.name
                           << " takes " << f.args.size();
  for (size_t i = 0; i < f.args.size(); ++i)
    if (f.args[i] != g.args[i])
      return gOp.emitError()
             << "--compare: argument " << i << " of @" << g.name << " is "
             << g.args[i].str() << " but argument " << i << " of @" << f.name
             << " is " << f.args[i].str();
  if (f.results.size() != g.results.size())
    return gOp.emitError() << "--compare: @" << g.name << " returns "
                           << g.results.size() << " results but @" << f.name
                           << " returns " << f.results.size();
  for (size_t i = 0; i < f.results.size(); ++i)
    if (f.results[i] != g.results[i])
      return gOp.emitError()
             << "--compare: result " << i << " of @" << g.name << " is "
             << g.results[i].str() << " but result " << i << " of @" << f.name
             << " is " << f.results[i].str();
  return success();
}

llvm::Expected<bool> mlir::pp::exec::compareFunctions(
    JitModule &jit, const FunctionSignature &f, const FunctionSignature &g,
    llvm::ArrayRef<HostTensor> args, std::optional<double> tolerance,
    llvm::raw_ostream &os, std::vector<HostTensor> *fResults,
    std::vector<HostTensor> *gResults) {
  std::vector<HostTensor> a, b;
  if (llvm::Error e = jit.run(f.name, pointers(args), a))
    return std::move(e);
  if (llvm::Error e = jit.run(g.name, pointers(args), b))
    return std::move(e);

  os << "compare @" << f.name << " and @" << g.name;
  if (args.empty())
    os << " (no inputs)\n";
  else
    os << " on the same " << args.size() << " input"
       << (args.size() == 1 ? "" : "s") << "\n";
  bool allBitwise = true;
  double maxAbs = 0, maxRel = 0;
  for (size_t r = 0; r < a.size(); ++r) {
    const HostTensor &x = a[r], &y = b[r];
    int64_t differing = 0, worstAt = -1;
    double resultAbs = 0, resultRel = 0;
    for (int64_t i = 0; i < x.size(); ++i) {
      if (x.bits(i) == y.bits(i))
        continue;
      ++differing;
      double u = x.get(i), v = y.get(i), abs, rel;
      if (std::isnan(u) && std::isnan(v)) {
        abs = rel = 0;
      } else if (std::isnan(u) || std::isnan(v) || std::isinf(u) ||
                 std::isinf(v)) {
        abs = rel = std::numeric_limits<double>::infinity();
      } else {
        abs = std::fabs(u - v);
        double denom = std::max(std::fabs(u), std::fabs(v));
        rel = denom == 0 ? 0 : abs / denom;
      }
      if (worstAt < 0 || abs > resultAbs)
        worstAt = i;
      resultAbs = std::max(resultAbs, abs);
      resultRel = std::max(resultRel, rel);
    }
    os << "  result " << r << " (" << x.spec().str() << "): ";
    if (differing == 0) {
      os << "bitwise equal\n";
      continue;
    }
    allBitwise = false;
    maxAbs = std::max(maxAbs, resultAbs);
    maxRel = std::max(maxRel, resultRel);
    os << differing << " of " << x.size() << " elements differ, max abs "
       << "difference " << formatDouble(resultAbs) << " at "
       << x.indexStr(worstAt) << " (" << formatValue(x.kind(), x.get(worstAt))
       << " vs " << formatValue(y.kind(), y.get(worstAt))
       << "), max relative difference " << formatDouble(resultRel) << "\n";
  }
  // Equal NaNs are no agreement: a result that is not finite fails.
  std::string nonFinite;
  for (auto [fn, results] : {std::pair(&f, &a), std::pair(&g, &b)})
    for (auto [r, t] : llvm::enumerate(*results))
      if (int64_t i = firstNonFinite(t); i >= 0 && nonFinite.empty())
        nonFinite = "result " + std::to_string(r) + " of @" + fn->name +
                    " is not finite at " + t.indexStr(i) + " (" +
                    formatValue(t.kind(), t.get(i)) + ")";
  bool pass;
  if (!nonFinite.empty()) {
    os << "compare: FAILED: " << nonFinite << "\n";
    pass = false;
  } else if (allBitwise) {
    os << "compare: results bitwise equal\n";
    pass = true;
  } else {
    os << "compare: results differ: max abs difference " << formatDouble(maxAbs)
       << ", max relative difference " << formatDouble(maxRel);
    if (tolerance) {
      pass = maxRel <= *tolerance;
      os << (pass ? " <= " : " > ") << "tolerance " << formatDouble(*tolerance);
    } else {
      pass = false;
      os << " (not bitwise equal; --tolerance=T accepts relative "
            "differences up to T)";
    }
    os << "\n";
  }
  if (fResults)
    *fResults = std::move(a);
  if (gResults)
    *gResults = std::move(b);
  return pass;
}

//===----------------------------------------------------------------------===//
// --check-gradients
//===----------------------------------------------------------------------===//

LogicalResult mlir::pp::exec::verifyGradientSignatures(
    func::FuncOp fOp, func::FuncOp gOp, const FunctionSignature &f,
    const FunctionSignature &g, std::vector<unsigned> &wrt, bool wrtGiven) {
  if (f.results.size() != 1 || f.results[0].numElements() != 1 ||
      !isFloat(f.results[0].kind)) {
    std::string types;
    for (const TensorSpec &r : f.results)
      types += (types.empty() ? "" : ", ") + r.str();
    return fOp.emitError()
           << "--check-gradients: @" << f.name
           << " must return one scalar float loss (tensor<f32> or "
              "tensor<1xf32>), but returns ("
           << types << ")";
  }
  if (wrtGiven) {
    for (unsigned j : wrt) {
      if (j >= f.args.size())
        return fOp.emitError()
               << "--wrt: @" << f.name << " has " << f.args.size()
               << " arguments, no argument " << j;
      if (!isFloat(f.args[j].kind))
        return fOp.emitError()
               << "--wrt: argument " << j << " of @" << f.name << " is "
               << f.args[j].str() << "; gradients are checked for float "
               << "arguments only";
    }
    for (size_t k = 1; k < wrt.size(); ++k)
      if (wrt[k] <= wrt[k - 1])
        return fOp.emitError() << "--wrt: list the arguments in increasing "
                                  "order, each once";
  } else {
    wrt.clear();
    for (size_t j = 0; j < f.args.size(); ++j)
      if (isFloat(f.args[j].kind))
        wrt.push_back(j);
  }
  if (wrt.empty())
    return fOp.emitError() << "--check-gradients: @" << f.name
                           << " has no float tensor arguments to check";

  if (g.args != f.args) {
    for (size_t i = 0; i < std::min(f.args.size(), g.args.size()); ++i)
      if (f.args[i] != g.args[i])
        return gOp.emitError()
               << "--gradient: @" << g.name << " must take the arguments of @"
               << f.name << ", but argument " << i << " is " << g.args[i].str()
               << " instead of " << f.args[i].str();
    return gOp.emitError() << "--gradient: @" << g.name
                           << " must take the arguments of @" << f.name
                           << ", but takes " << g.args.size()
                           << " arguments instead of " << f.args.size();
  }
  if (g.results.size() != wrt.size() + 1) {
    InFlightDiagnostic diag = gOp.emitError()
                              << "--gradient: @" << g.name << " returns "
                              << g.results.size()
                              << " results, but must return the loss and one "
                                 "gradient per checked argument ("
                              << wrt.size() + 1 << " results; checked "
                              << "arguments:";
    for (unsigned j : wrt)
      diag << " " << j;
    diag << (wrtGiven ? ")" : "; all float arguments, or say --wrt=...)");
    return diag;
  }
  if (g.results[0].numElements() != 1 || !isFloat(g.results[0].kind))
    return gOp.emitError() << "--gradient: result 0 of @" << g.name
                           << " must be the scalar loss, but is "
                           << g.results[0].str();
  for (size_t k = 0; k < wrt.size(); ++k)
    if (g.results[k + 1] != f.args[wrt[k]])
      return gOp.emitError()
             << "--gradient: result " << k + 1 << " of @" << g.name
             << " is the gradient for argument " << wrt[k] << " and must be "
             << f.args[wrt[k]].str() << ", but is " << g.results[k + 1].str();
  return success();
}

namespace {
/// One finite-difference comparison.
struct Sample {
  double fd = 0;     // finite-difference derivative
  double grad = 0;   // the same derivative from G's gradient
  double floor = 0;  // roundoff scale of `fd`
  double error = 0;  // |fd - grad| / max(|fd|, |grad|, floor)
  std::string where; // "direction 2", "coordinate [1, 3]"
};
} // namespace

static double relativeError(double a, double b, double floor) {
  if (std::isnan(a) || std::isnan(b) || std::isinf(a) || std::isinf(b))
    return std::numeric_limits<double>::infinity();
  double denom = std::max(
      {std::fabs(a), std::fabs(b), floor, std::numeric_limits<double>::min()});
  return std::fabs(a - b) / denom;
}

namespace {
/// What the finite differences need: F's evaluation at the current
/// arguments, the relative step, and the unit roundoff of the evaluated
/// loss (F(x+d) and F(x-d) may each carry kNoiseUlps of it before a
/// difference counts).
struct Probe {
  llvm::function_ref<llvm::Expected<double>()> evalF;
  double eps;
  double unit;
  static constexpr double kNoiseUlps = 1000;
};
} // namespace

/// Random directions v, entries uniform in [-1, 1), step h = eps * max(1,
/// rms(x)). The perturbed arguments are rounded to the element type, so the
/// exact steps d+ = (x + hv) - x and d- = x - (x - hv) are used:
/// F(x + d+) - F(x - d-) ~ <grad, d+ + d->. `x` is restored.
static llvm::Error sampleDirections(const Probe &probe, HostTensor &x,
                                    const HostTensor &grad, unsigned count,
                                    double gradFloor, SplitMix64 &rng,
                                    std::vector<Sample> &samples) {
  const HostTensor saved = x;
  int64_t n = x.size();
  double sumSq = 0;
  for (int64_t i = 0; i < n; ++i)
    sumSq += saved.get(i) * saved.get(i);
  double h = probe.eps * std::max(1.0, n ? std::sqrt(sumSq / n) : 0.0);
  for (unsigned d = 0; d < count && n > 0; ++d) {
    std::vector<double> v(n), step(n);
    for (int64_t i = 0; i < n; ++i)
      v[i] = rng.uniformF64();
    for (int64_t i = 0; i < n; ++i) {
      x.set(i, saved.get(i) + h * v[i]);
      step[i] = x.get(i) - saved.get(i);
    }
    llvm::Expected<double> plus = probe.evalF();
    if (!plus)
      return plus.takeError();
    for (int64_t i = 0; i < n; ++i) {
      x.set(i, saved.get(i) - h * v[i]);
      step[i] += saved.get(i) - x.get(i);
    }
    llvm::Expected<double> minus = probe.evalF();
    if (!minus)
      return minus.takeError();
    x = saved;
    double analytic = 0, magnitude = 0;
    for (int64_t i = 0; i < n; ++i) {
      analytic += grad.get(i) * step[i];
      magnitude += std::fabs(grad.get(i) * step[i]);
    }
    Sample s;
    s.fd = (*plus - *minus) / (2 * h);
    s.grad = analytic / (2 * h);
    s.floor = std::max(Probe::kNoiseUlps * probe.unit *
                           (std::fabs(*plus) + std::fabs(*minus)),
                       gradFloor * magnitude) /
              (2 * h);
    s.where = "direction " + std::to_string(d);
    samples.push_back(s);
  }
  return llvm::Error::success();
}

/// Individual coordinates, sampled without replacement (all of them when
/// there are no more than `count`), step h_i = eps * max(1, |x_i|); a
/// gradient entry below `absoluteFloor` is compared absolutely. `x` is
/// restored.
static llvm::Error sampleCoordinates(const Probe &probe, HostTensor &x,
                                     const HostTensor &grad, unsigned count,
                                     double absoluteFloor, SplitMix64 &rng,
                                     std::vector<Sample> &samples) {
  int64_t n = x.size();
  std::vector<int64_t> coords;
  if (static_cast<uint64_t>(n) <= count) {
    for (int64_t i = 0; i < n; ++i)
      coords.push_back(i);
  } else {
    std::set<int64_t> chosen;
    while (chosen.size() < count)
      chosen.insert(static_cast<int64_t>(rng.below(n)));
    coords.assign(chosen.begin(), chosen.end());
  }
  for (int64_t i : coords) {
    double xi = x.get(i);
    double hi = probe.eps * std::max(1.0, std::fabs(xi));
    x.set(i, xi + hi);
    double up = x.get(i);
    llvm::Expected<double> plus = probe.evalF();
    if (!plus)
      return plus.takeError();
    x.set(i, xi - hi);
    double down = x.get(i);
    llvm::Expected<double> minus = probe.evalF();
    if (!minus)
      return minus.takeError();
    x.set(i, xi);
    Sample s;
    s.fd = (*plus - *minus) / (up - down);
    s.grad = grad.get(i);
    s.floor = std::max(Probe::kNoiseUlps * probe.unit *
                           (std::fabs(*plus) + std::fabs(*minus)) / (up - down),
                       absoluteFloor);
    s.where = "coordinate " + x.indexStr(i);
    samples.push_back(s);
  }
  return llvm::Error::success();
}

llvm::Expected<bool> mlir::pp::exec::checkGradients(
    JitModule &jit, JitModule *reference, llvm::StringRef referenceNote,
    const FunctionSignature &f, const FunctionSignature &g,
    std::vector<HostTensor> &args, const GradientCheckOptions &options,
    llvm::raw_ostream &os, std::vector<HostTensor> *fResults,
    std::vector<HostTensor> *gResults) {
  std::vector<HostTensor> outs;
  if (llvm::Error e = jit.run(f.name, pointers(args), outs))
    return std::move(e);
  double f0 = outs[0].get(0);
  if (fResults)
    *fResults = outs;
  std::vector<HostTensor> grads;
  if (llvm::Error e = jit.run(g.name, pointers(args), grads))
    return std::move(e);
  if (gResults)
    *gResults = grads;

  // The finite differences evaluate F in f64 where `reference` (F with f32
  // promoted to f64) is given, else F itself on the arguments' own types.
  const FunctionSignature &evalSig =
      reference ? *reference->signature(f.name) : f;
  std::vector<HostTensor> promoted;
  if (reference)
    for (auto [i, arg] : llvm::enumerate(args)) {
      HostTensor t(evalSig.args[i]);
      for (int64_t k = 0; k < arg.size(); ++k)
        t.set(k, arg.get(k));
      promoted.push_back(std::move(t));
    }
  std::vector<HostTensor> &evalArgs = reference ? promoted : args;
  JitModule &evalJit = reference ? *reference : jit;
  std::vector<const HostTensor *> evalPtrs = pointers(evalArgs);
  std::vector<HostTensor> scratch;
  auto evalF = [&]() -> llvm::Expected<double> {
    if (llvm::Error e = evalJit.run(f.name, evalPtrs, scratch))
      return std::move(e);
    return scratch[0].get(0);
  };
  llvm::Expected<double> base = evalF();
  if (!base)
    return base.takeError();

  // Defaults: the step follows the precision F is evaluated in, the
  // tolerance the precision of the functions checked (f32 anywhere in the
  // loss or a checked argument: the f32 defaults).
  bool evalF32 = evalSig.results[0].kind == ElemKind::F32;
  for (unsigned j : options.wrt)
    evalF32 |= evalArgs[j].kind() == ElemKind::F32;
  bool f32 = f.results[0].kind == ElemKind::F32;
  for (unsigned j : options.wrt)
    f32 |= args[j].kind() == ElemKind::F32;
  double eps = options.epsilon.value_or(evalF32 ? 1e-3 : 1e-6);
  double tolerance = options.tolerance.value_or(f32 ? 1e-2 : 1e-6);
  // Unit roundoff of the evaluated loss; the finite difference may carry
  // kNoiseUlps of it in F(x+d) and F(x-d) before a difference counts.
  double unit = evalSig.results[0].kind == ElemKind::F32 ? 0x1p-24 : 0x1p-53;

  os << "gradient check of @" << f.name << " against @" << g.name << ": "
     << options.wrt.size() << " argument"
     << (options.wrt.size() == 1 ? "" : "s") << ", " << options.directions
     << " random direction" << (options.directions == 1 ? "" : "s") << " and "
     << options.coordinates << " coordinate"
     << (options.coordinates == 1 ? "" : "s") << " each, epsilon "
     << formatDouble(eps) << ", tolerance " << formatDouble(tolerance) << "\n";
  os << "  finite differences of @" << f.name;
  if (reference)
    os << " recompiled in f64\n";
  else if (!referenceNote.empty())
    os << " in its own types (" << referenceNote << ")\n";
  else
    os << " in its own types\n";

  double lossG = grads[0].get(0);
  double lossError = relativeError(f0, lossG, 0);
  os << "  loss: @" << f.name << " " << formatValue(f.results[0].kind, f0)
     << ", @" << g.name << " " << formatValue(g.results[0].kind, lossG)
     << ", relative error " << formatDouble(lossError) << "\n";
  double worstError = lossError;
  std::string worstWhat = "the loss";

  SplitMix64 rng(options.seed ^ 0x6772616463686b21ULL);
  for (auto [k, j] : llvm::enumerate(options.wrt)) {
    HostTensor &x = evalArgs[j];
    const HostTensor &grad = grads[k + 1];
    int64_t n = x.size();
    // Entries of G's gradient are f32 or f64 sums themselves: gradients
    // below this fraction of the argument's gradient scale are compared
    // absolutely.
    double gradFloor = grad.kind() == ElemKind::F32 ? 1e-4 : 1e-10;
    double gradMax = 0;
    for (int64_t i = 0; i < n; ++i)
      gradMax = std::max(gradMax, std::fabs(grad.get(i)));
    std::vector<Sample> samples;

    Probe probe{evalF, eps, unit};
    if (llvm::Error e = sampleDirections(probe, x, grad, options.directions,
                                         gradFloor, rng, samples))
      return std::move(e);
    if (llvm::Error e = sampleCoordinates(probe, x, grad, options.coordinates,
                                          gradFloor * gradMax, rng, samples))
      return std::move(e);
    const Sample *worst = nullptr;
    for (Sample &s : samples) {
      s.error = relativeError(s.fd, s.grad, s.floor);
      if (!worst || s.error > worst->error)
        worst = &s;
      if (options.verbose)
        os << "    argument " << j << " " << s.where << ": finite difference "
           << formatDouble(s.fd) << ", gradient " << formatDouble(s.grad)
           << ", relative error " << formatDouble(s.error) << "\n";
    }
    os << "  argument " << j << " (" << args[j].spec().str() << "): ";
    if (!worst) {
      os << "no elements\n";
      continue;
    }
    os << "max relative error " << formatDouble(worst->error)
       << " (worst: " << worst->where << ", finite difference "
       << formatDouble(worst->fd) << ", gradient " << formatDouble(worst->grad)
       << ")\n";
    if (worst->error > worstError || std::isnan(worst->error)) {
      worstError = worst->error;
      worstWhat = "argument " + std::to_string(j) + " " + worst->where;
    }
  }

  bool pass = worstError <= tolerance;
  os << "gradient check " << (pass ? "PASSED" : "FAILED")
     << ": max relative error " << formatDouble(worstError)
     << (pass ? " <= " : " > ") << "tolerance " << formatDouble(tolerance)
     << " (worst: " << worstWhat << ")\n";
  return pass;
}
