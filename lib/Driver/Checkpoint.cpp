//===- Checkpoint.cpp - saved training state, by the model's arguments ----===//
//
// The format: include/pp/Driver/Checkpoint.h. The manifest is JSON
// (llvm::json), the tensors NumPy files (pp/Execution/Npy.h).
//
//===----------------------------------------------------------------------===//

#include "pp/Driver/Checkpoint.h"

#include "pp/Execution/Npy.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <optional>

using namespace mlir::pp;
using namespace mlir::pp::driver;
using exec::ElemKind;
using exec::HostTensor;
using exec::TensorSpec;

static constexpr llvm::StringLiteral kFormat = "pp-mlir checkpoint";
static constexpr int64_t kVersion = 1;
static constexpr llvm::StringLiteral kManifest = "manifest.json";

static llvm::Error error(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

static std::string fileOf(unsigned argument) {
  return "argument-" + std::to_string(argument) + ".npy";
}

static std::optional<ElemKind> kindOfNumpyName(llvm::StringRef name) {
  for (ElemKind kind :
       {ElemKind::F32, ElemKind::F64, ElemKind::I32, ElemKind::I64})
    if (name == exec::numpyName(kind))
      return kind;
  return std::nullopt;
}

/// Whether `dir` may be replaced: absent, empty, or a checkpoint.
static bool replaceable(llvm::StringRef dir) {
  if (!llvm::sys::fs::exists(dir))
    return true;
  if (!llvm::sys::fs::is_directory(dir))
    return false;
  llvm::SmallString<256> manifest(dir);
  llvm::sys::path::append(manifest, kManifest);
  if (llvm::sys::fs::exists(manifest))
    return true;
  std::error_code ec;
  return llvm::sys::fs::directory_iterator(dir, ec) ==
             llvm::sys::fs::directory_iterator() &&
         !ec;
}

llvm::Error mlir::pp::driver::writeCheckpoint(llvm::StringRef dir,
                                              const Checkpoint &checkpoint) {
  if (!replaceable(dir))
    return error("--save: " + dir +
                 " exists and is not a pp-mlir checkpoint (no " + kManifest +
                 "): not replaced");
  llvm::SmallString<256> fresh(dir);
  fresh += ".partial-" + std::to_string(llvm::sys::Process::getProcessId());
  llvm::sys::fs::remove_directories(fresh);
  if (std::error_code ec = llvm::sys::fs::create_directories(fresh))
    return error("--save: cannot create " + fresh + ": " + ec.message());
  llvm::json::Array tensors;
  for (const auto &[argument, value] : checkpoint.parameters) {
    llvm::SmallString<256> path(fresh);
    llvm::sys::path::append(path, fileOf(argument));
    if (llvm::Error e = exec::writeNpy(path, value))
      return error("--save: " + llvm::toString(std::move(e)));
    llvm::json::Array shape;
    for (int64_t d : value.shape())
      shape.push_back(d);
    tensors.push_back(llvm::json::Object{
        {"name", "argument " + std::to_string(argument)},
        {"role", "parameter"},
        {"argument", static_cast<int64_t>(argument)},
        {"file", fileOf(argument)},
        {"dtype", exec::numpyName(value.kind())},
        {"shape", std::move(shape)},
    });
  }
  llvm::json::Value manifest = llvm::json::Object{
      {"format", kFormat},
      {"version", kVersion},
      {"function", checkpoint.function},
      {"step", checkpoint.step},
      {"seed", checkpoint.seed},
      {"optimizer", checkpoint.optimizer},
      {"tensors", std::move(tensors)},
  };
  llvm::SmallString<256> path(fresh);
  llvm::sys::path::append(path, kManifest);
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    if (ec)
      return error("--save: cannot write " + path + ": " + ec.message());
    os << llvm::formatv("{0:2}", manifest) << "\n";
    os.close();
    if (os.has_error())
      return error("--save: cannot write " + path + ": " +
                   os.error().message());
  }
  llvm::sys::fs::remove_directories(dir);
  if (std::error_code ec = llvm::sys::fs::rename(fresh, dir))
    return error("--save: cannot move " + fresh + " to " + dir + ": " +
                 ec.message());
  return llvm::Error::success();
}

namespace {
/// One entry of the manifest's "tensors".
struct Entry {
  std::string file;
  TensorSpec spec;
};
} // namespace

/// The manifest of `dir`, checked: format, version, function, step.
static llvm::Expected<Checkpoint>
readManifest(llvm::StringRef dir, llvm::StringRef function,
             std::map<unsigned, Entry> &entries) {
  llvm::SmallString<256> path(dir);
  llvm::sys::path::append(path, kManifest);
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return error("--resume: " + dir + " is no checkpoint: cannot read " +
                 path + ": " + buffer.getError().message());
  llvm::Expected<llvm::json::Value> json =
      llvm::json::parse((*buffer)->getBuffer());
  if (!json)
    return error("--resume: " + path + ": " + llvm::toString(json.takeError()));
  auto bad = [&](const llvm::Twine &what) {
    return error("--resume: " + path + ": " + what);
  };
  const llvm::json::Object *o = json->getAsObject();
  if (!o || o->getString("format") != std::optional<llvm::StringRef>(kFormat))
    return bad("not a pp-mlir checkpoint (\"format\" is not \"" + kFormat +
               "\")");
  if (o->getInteger("version") != kVersion)
    return bad("version " +
               llvm::Twine(o->getInteger("version").value_or(-1)) +
               ", this pp-mlir reads version " + llvm::Twine(kVersion));
  Checkpoint checkpoint;
  std::optional<llvm::StringRef> fn = o->getString("function");
  if (!fn)
    return bad("no \"function\"");
  if (*fn != function)
    return error("--resume: " + dir + " is a checkpoint of @" + *fn +
                 ", not of @" + function);
  checkpoint.function = fn->str();
  std::optional<int64_t> step = o->getInteger("step");
  if (!step || *step < 0 || *step > (1 << 30))
    return bad("\"step\" must be an integer >= 0");
  checkpoint.step = static_cast<int>(*step);
  if (const llvm::json::Value *seed = o->get("seed"))
    checkpoint.seed = seed->getAsUINT64().value_or(0);
  checkpoint.optimizer = o->getString("optimizer").value_or("sgd").str();
  if (checkpoint.optimizer != "sgd")
    return bad("optimizer '" + checkpoint.optimizer +
               "': this pp-mlir resumes sgd only");
  const llvm::json::Array *tensors = o->getArray("tensors");
  if (!tensors)
    return bad("no \"tensors\" list");
  for (const llvm::json::Value &value : *tensors) {
    const llvm::json::Object *t = value.getAsObject();
    std::optional<int64_t> argument = t ? t->getInteger("argument") : std::nullopt;
    std::optional<llvm::StringRef> file = t ? t->getString("file") : std::nullopt;
    std::optional<llvm::StringRef> dtype =
        t ? t->getString("dtype") : std::nullopt;
    const llvm::json::Array *shape = t ? t->getArray("shape") : nullptr;
    if (!argument || *argument < 0 || !file || !dtype || !shape)
      return bad("a tensor entry without \"argument\", \"file\", \"dtype\" "
                 "and \"shape\"");
    // Files live in the checkpoint's directory, nowhere else.
    if (file->empty() || file->contains('/') || *file == "." || *file == "..")
      return bad("tensor argument " + llvm::Twine(*argument) + ": file '" +
                 *file + "' is not a name in the directory");
    Entry entry;
    entry.file = file->str();
    std::optional<ElemKind> kind = kindOfNumpyName(*dtype);
    if (!kind)
      return bad("tensor argument " + llvm::Twine(*argument) + ": dtype '" +
                 *dtype + "'");
    entry.spec.kind = *kind;
    for (const llvm::json::Value &d : *shape) {
      std::optional<int64_t> size = d.getAsInteger();
      if (!size || *size < 0)
        return bad("tensor argument " + llvm::Twine(*argument) +
                   ": a shape of non-negative integers");
      entry.spec.shape.push_back(*size);
    }
    if (!entries.emplace(static_cast<unsigned>(*argument), std::move(entry))
             .second)
      return bad("argument " + llvm::Twine(*argument) + " is listed twice");
  }
  return checkpoint;
}

llvm::Expected<Checkpoint> mlir::pp::driver::readCheckpoint(
    llvm::StringRef dir, llvm::StringRef function,
    llvm::ArrayRef<std::pair<unsigned, TensorSpec>> expected) {
  std::map<unsigned, Entry> entries;
  llvm::Expected<Checkpoint> checkpoint =
      readManifest(dir, function, entries);
  if (!checkpoint)
    return checkpoint.takeError();
  std::map<unsigned, TensorSpec> wanted(expected.begin(), expected.end());
  for (const auto &[argument, entry] : entries)
    if (!wanted.count(argument))
      return error("--resume: " + dir + " holds argument " +
                   llvm::Twine(argument) + ", which is no parameter of @" +
                   function + " (a checkpoint of another model?)");
  for (const auto &[argument, spec] : expected) {
    auto it = entries.find(argument);
    if (it == entries.end())
      return error("--resume: " + dir + " has no tensor for parameter "
                   "argument " +
                   llvm::Twine(argument) + " (" + spec.str() + ") of @" +
                   function);
    if (it->second.spec != spec)
      return error("--resume: " + dir + ": argument " + llvm::Twine(argument) +
                   " is " + it->second.spec.str() +
                   " in the checkpoint, but the model's parameter is " +
                   spec.str() + " (a checkpoint of another model?)");
    llvm::SmallString<256> path(dir);
    llvm::sys::path::append(path, it->second.file);
    llvm::Expected<HostTensor> value = exec::readNpy(path);
    if (!value)
      return error("--resume: " + llvm::toString(value.takeError()));
    if (value->spec() != spec)
      return error("--resume: " + path + " holds " + value->spec().str() +
                   ", but the manifest and the model say " + spec.str() +
                   " for argument " + llvm::Twine(argument));
    if (int64_t i = exec::firstNonFinite(*value); i >= 0)
      return error("--resume: " + path + ": element " + value->indexStr(i) +
                   " of argument " + llvm::Twine(argument) + " is not finite");
    checkpoint->parameters.emplace_back(argument, std::move(*value));
  }
  return checkpoint;
}
