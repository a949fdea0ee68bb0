//===- Runner.cpp - run, compare or gradient-check functions --------------===//

#include "pp/Execution/Runner.h"
#include "pp/Support/Error.h"

#include "pp/Execution/Npy.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <chrono>

using namespace mlir;
using namespace mlir::pp::exec;
using mlir::pp::makeError;

/// "@f, @g" (definitions only), or "none".
static std::string functionList(ModuleOp module) {
  std::string names;
  for (auto fn : module.getOps<func::FuncOp>())
    if (!fn.isExternal())
      names += (names.empty() ? "@" : ", @") + fn.getSymName().str();
  return names.empty() ? "none" : names;
}

static void printResults(llvm::raw_ostream &os, const FunctionSignature &sig,
                         llvm::ArrayRef<HostTensor> results,
                         unsigned printValues) {
  for (auto [r, t] : llvm::enumerate(results)) {
    double sum = 0, sumSq = 0;
    for (int64_t i = 0; i < t.size(); ++i) {
      double v = t.get(i);
      sum += v;
      sumSq += v * v;
    }
    os << "@" << sig.name << " result " << r << ": " << t.spec().str() << "\n";
    os << "  sum = " << formatDouble(sum)
       << ", sum of squares = " << formatDouble(sumSq) << "\n";
    int64_t shown = std::min<int64_t>(printValues, t.size());
    if (shown == t.size())
      os << "  values = [";
    else
      os << "  values (first " << shown << " of " << t.size() << ") = [";
    for (int64_t i = 0; i < shown; ++i)
      os << (i ? ", " : "") << formatValue(t.kind(), t.get(i));
    os << "]\n";
  }
}

/// Writes `tensors` as DIR/<function>.<what><i>.npy.
static llvm::Error writeAll(llvm::StringRef dir, llvm::StringRef function,
                            llvm::StringRef what,
                            llvm::ArrayRef<HostTensor> tensors) {
  if (std::error_code ec = llvm::sys::fs::create_directories(dir))
    return makeError(dir + ": cannot create directory: " + ec.message());
  for (auto [i, t] : llvm::enumerate(tensors)) {
    llvm::SmallString<256> path(dir);
    llvm::sys::path::append(path,
                            function + "." + what + std::to_string(i) + ".npy");
    if (llvm::Error e = writeNpy(path, t))
      return e;
  }
  return llvm::Error::success();
}

/// The signature of function `name`, checked for running.
static llvm::Expected<FunctionSignature> lookupSignature(ModuleOp module,
                                                         StringRef name,
                                                         StringRef sourceName,
                                                         func::FuncOp &op) {
  op = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
      module, StringAttr::get(module.getContext(), name));
  if (!op)
    return makeError("no function @" + name + " in " + sourceName +
                     " (functions: " + functionList(module) + ")");
  FailureOr<FunctionSignature> sig = getSignature(op);
  if (failed(sig))
    return makeError("");
  return *sig;
}

/// Inputs: .npy files where given, seeded random values elsewhere.
static llvm::Expected<std::vector<HostTensor>>
makeInputs(const FunctionSignature &f, const RunRequest &request) {
  const std::vector<std::string> &files = request.inputFiles;
  if (!files.empty() && files.size() != f.args.size())
    return makeError("@" + f.name + " takes " + llvm::Twine(f.args.size()) +
                     " argument" + (f.args.size() == 1 ? "" : "s") +
                     " but --inputs names " + llvm::Twine(files.size()) +
                     " file" + (files.size() == 1 ? "" : "s"));
  std::vector<HostTensor> args;
  for (auto [i, spec] : llvm::enumerate(f.args)) {
    llvm::StringRef path =
        i < files.size() ? llvm::StringRef(files[i]).trim() : "";
    if (path.empty()) {
      HostTensor t(spec);
      SplitMix64 rng(request.seed + (static_cast<uint64_t>(i) << 32));
      fillRandom(t, rng);
      args.push_back(std::move(t));
      continue;
    }
    llvm::Expected<HostTensor> t = readNpy(path);
    if (!t)
      return t.takeError();
    if (t->spec() != spec)
      return makeError("input " + llvm::Twine(i) + " (" + path + ") is " +
                       numpyName(t->kind()) + " " + t->spec().shapeStr() +
                       ", but argument " + llvm::Twine(i) + " of @" + f.name +
                       " is " + spec.str() + " (" + numpyName(spec.kind) + " " +
                       spec.shapeStr() + ")");
    args.push_back(std::move(*t));
  }
  return args;
}

/// For --check-gradients: F recompiled in f64, the reference of the finite
/// differences; null (and `note` says why) when F cannot be, or need not be.
static std::unique_ptr<JitModule> compileReference(ModuleOp module,
                                                   const FunctionSignature &f,
                                                   const RunRequest &request,
                                                   std::string &note) {
  bool hasF32 = f.results[0].kind == ElemKind::F32;
  for (const TensorSpec &arg : f.args)
    hasF32 |= arg.kind == ElemKind::F32;
  if (!hasF32)
    return nullptr;
  if (!request.finiteDifferencesInF64) {
    note = "--fd-precision=f32";
    return nullptr;
  }
  // Failures here are reported as a note, not as errors.
  std::string firstError;
  ScopedDiagnosticHandler capture(module.getContext(), [&](Diagnostic &diag) {
    if (firstError.empty() && diag.getSeverity() == DiagnosticSeverity::Error)
      firstError = diag.str();
    return success();
  });
  FailureOr<OwningOpRef<ModuleOp>> promoted =
      prepareForExecution(module, {f.name});
  std::string reason;
  JitOptions options = request.jit;
  options.printLowered = nullptr;
  std::unique_ptr<JitModule> reference;
  if (succeeded(promoted) && succeeded(promoteF32ToF64(**promoted, reason))) {
    FailureOr<std::unique_ptr<JitModule>> compiled =
        JitModule::compile(**promoted, {f.name}, options);
    if (succeeded(compiled))
      reference = std::move(*compiled);
    else
      reason = firstError;
  } else if (reason.empty()) {
    reason = firstError;
  }
  if (!reference)
    note = "@" + f.name + " cannot be recompiled in f64: " + reason;
  return reference;
}

/// Runs F `request.repetitions` times; prints its results and, with
/// timing, the best run.
static llvm::Error runEntry(JitModule &jit, const FunctionSignature &f,
                            ArrayRef<HostTensor> args, double flops,
                            const RunRequest &request,
                            std::vector<HostTensor> &results,
                            llvm::raw_ostream &out) {
  std::vector<const HostTensor *> argPtrs;
  for (const HostTensor &t : args)
    argPtrs.push_back(&t);
  double bestUs = 0;
  for (unsigned r = 0; r < std::max(1u, request.repetitions); ++r) {
    double us = 0;
    if (llvm::Error e = jit.run(f.name, argPtrs, results, &us))
      return e;
    bestUs = r == 0 ? us : std::min(bestUs, us);
  }
  if (request.timing)
    llvm::errs() << "pp-exec: @" << f.name << " best of " << request.repetitions
                 << " run" << (request.repetitions == 1 ? "" : "s") << ": "
                 << llvm::format("%.3f", bestUs / 1000.0) << " ms, "
                 << llvm::format("%.4g", flops / 1e9) << " GFLOP, "
                 << llvm::format("%.3f", flops / (bestUs * 1e3))
                 << " GFLOP/s\n";
  printResults(out, f, results, request.printValues);
  return llvm::Error::success();
}

llvm::Expected<bool> mlir::pp::exec::runFunctions(ModuleOp module,
                                                  const RunRequest &request,
                                                  llvm::raw_ostream &out) {
  using Mode = RunRequest::Mode;
  StringRef source = request.sourceName;
  func::FuncOp fOp, gOp;
  llvm::Expected<FunctionSignature> f =
      lookupSignature(module, request.entry, source, fOp);
  if (!f)
    return f.takeError();
  std::vector<std::string> names{f->name};
  std::optional<FunctionSignature> g;
  std::vector<unsigned> wrt = request.gradient.wrt;
  if (request.mode != Mode::Run) {
    llvm::Expected<FunctionSignature> other =
        lookupSignature(module, request.other, source, gOp);
    if (!other)
      return other.takeError();
    g = *other;
    if (request.mode == Mode::Compare && failed(verifyComparable(gOp, *f, *g)))
      return makeError("");
    if (request.mode == Mode::CheckGradients &&
        failed(
            verifyGradientSignatures(fOp, gOp, *f, *g, wrt, request.wrtGiven)))
      return makeError("");
    if (g->name != f->name)
      names.push_back(g->name);
  }
  llvm::Expected<std::vector<HostTensor>> args = makeInputs(*f, request);
  if (!args)
    return args.takeError();
  if (!request.saveInputsDir.empty())
    if (llvm::Error e = writeAll(request.saveInputsDir, f->name, "arg", *args))
      return std::move(e);

  using Clock = std::chrono::steady_clock;
  auto start = Clock::now();
  FailureOr<OwningOpRef<ModuleOp>> prepared =
      prepareForExecution(module, names);
  if (failed(prepared))
    return makeError("cannot compile " + source + " for execution");
  // Counted before compiling, which lowers the module in place.
  double flops = request.timing ? countFlops(**prepared, f->name) : 0.0;
  std::vector<GemmCall> gemms;
  JitOptions jitOptions = request.jit;
  if (request.timing && request.mode == RunRequest::Mode::Run)
    jitOptions.gemmCalls = &gemms;
  FailureOr<std::unique_ptr<JitModule>> jit =
      JitModule::compile(**prepared, names, jitOptions);
  if (failed(jit))
    return makeError("cannot compile " + source + " for execution");
  std::string referenceNote;
  std::unique_ptr<JitModule> reference;
  if (request.mode == Mode::CheckGradients)
    reference = compileReference(module, *f, request, referenceNote);
  auto compiled = Clock::now();

  std::vector<HostTensor> fResults, gResults;
  llvm::Expected<bool> pass = true;
  if (request.mode == Mode::Compare) {
    pass = compareFunctions(**jit, *f, *g, *args, request.tolerance, out,
                            &fResults, &gResults);
  } else if (request.mode == Mode::CheckGradients) {
    GradientCheckOptions options = request.gradient;
    options.wrt = wrt;
    pass = checkGradients(**jit, reference.get(), referenceNote, *f, *g, *args,
                          options, out, &fResults, &gResults);
  } else if (llvm::Error e =
                 runEntry(**jit, *f, *args, flops, request, fResults, out)) {
    return std::move(e);
  } else if (request.timing && !gemms.empty()) {
    // The same GEMMs on OpenBLAS alone: the rate the function is held to.
    double gemmFlops = 0;
    for (const GemmCall &call : gemms)
      gemmFlops += call.flops();
    double seconds = timeGemmCalls(gemms, request.repetitions);
    llvm::errs() << "pp-exec: @" << f->name << " GEMMs: " << gemms.size()
                 << " call" << (gemms.size() == 1 ? "" : "s") << ", "
                 << llvm::format("%.4g", gemmFlops / 1e9)
                 << " GFLOP; OpenBLAS alone: "
                 << llvm::format("%.3f", seconds * 1e3) << " ms, "
                 << llvm::format("%.3f", gemmFlops / seconds / 1e9)
                 << " GFLOP/s\n";
  }
  if (!pass)
    return pass.takeError();
  if (request.timing) {
    auto ms = [](auto d) {
      return std::chrono::duration<double, std::milli>(d).count();
    };
    llvm::errs() << "pp-exec: compile "
                 << llvm::format("%.1f", ms(compiled - start)) << " ms, run "
                 << llvm::format("%.1f", ms(Clock::now() - compiled))
                 << " ms\n";
  }
  if (!request.outputsDir.empty()) {
    if (llvm::Error e =
            writeAll(request.outputsDir, f->name, "result", fResults))
      return std::move(e);
    if (g && g->name != f->name)
      if (llvm::Error e =
              writeAll(request.outputsDir, g->name, "result", gResults))
        return std::move(e);
  }
  return *pass;
}
