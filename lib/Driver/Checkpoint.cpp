//===- Checkpoint.cpp - saved training state, by the model's arguments ----===//
//
// The format: include/pp/Driver/Checkpoint.h. The manifest is JSON
// (llvm::json), the tensors NumPy files (pp/Execution/Npy.h).
//
//===----------------------------------------------------------------------===//

#include "pp/Driver/Checkpoint.h"
#include "pp/Support/Error.h"

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

static constexpr llvm::StringLiteral kParameterRole = "parameter";

/// argument-4.npy for a parameter, argument-4.exp_avg.npy for its state.
static std::string fileOf(unsigned argument, llvm::StringRef role) {
  std::string name = "argument-" + std::to_string(argument);
  if (role != kParameterRole)
    name += "." + role.str();
  return name + ".npy";
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
    return makeError("--save: " + dir +
                     " exists and is not a pp-mlir checkpoint (no " +
                     kManifest + "): not replaced");
  llvm::SmallString<256> fresh(dir);
  fresh += ".partial-" + std::to_string(llvm::sys::Process::getProcessId());
  llvm::sys::fs::remove_directories(fresh);
  if (std::error_code ec = llvm::sys::fs::create_directories(fresh))
    return makeError("--save: cannot create " + fresh + ": " + ec.message());
  llvm::json::Array tensors;
  std::vector<std::pair<std::string, const Checkpoint::Tensors *>> roles = {
      {kParameterRole.str(), &checkpoint.parameters}};
  for (const auto &[name, values] : checkpoint.state)
    roles.emplace_back(name, &values);
  for (const auto &[role, values] : roles)
    for (const auto &[argument, value] : *values) {
      llvm::SmallString<256> path(fresh);
      llvm::sys::path::append(path, fileOf(argument, role));
      if (llvm::Error e = exec::writeNpy(path, value))
        return makeError("--save: " + llvm::toString(std::move(e)));
      llvm::json::Array shape;
      for (int64_t d : value.shape())
        shape.push_back(d);
      std::string name = "argument " + std::to_string(argument);
      if (role != kParameterRole)
        name += " " + role;
      tensors.push_back(llvm::json::Object{
          {"name", name},
          {"role", role},
          {"argument", static_cast<int64_t>(argument)},
          {"file", fileOf(argument, role)},
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
      {"updates", checkpoint.updates},
      {"tensors", std::move(tensors)},
  };
  llvm::SmallString<256> path(fresh);
  llvm::sys::path::append(path, kManifest);
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    if (ec)
      return makeError("--save: cannot write " + path + ": " + ec.message());
    os << llvm::formatv("{0:2}", manifest) << "\n";
    os.close();
    if (os.has_error())
      return makeError("--save: cannot write " + path + ": " +
                       os.error().message());
  }
  llvm::sys::fs::remove_directories(dir);
  if (std::error_code ec = llvm::sys::fs::rename(fresh, dir))
    return makeError("--save: cannot move " + fresh + " to " + dir + ": " +
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
using EntryKey = std::pair<std::string, unsigned>; // (role, argument)

static llvm::Expected<Checkpoint>
readManifest(llvm::StringRef dir, llvm::StringRef function,
             std::map<EntryKey, Entry> &entries) {
  llvm::SmallString<256> path(dir);
  llvm::sys::path::append(path, kManifest);
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return makeError("--resume: " + dir + " is no checkpoint: cannot read " +
                     path + ": " + buffer.getError().message());
  llvm::Expected<llvm::json::Value> json =
      llvm::json::parse((*buffer)->getBuffer());
  if (!json)
    return makeError("--resume: " + path + ": " +
                     llvm::toString(json.takeError()));
  auto bad = [&](const llvm::Twine &what) {
    return makeError("--resume: " + path + ": " + what);
  };
  const llvm::json::Object *o = json->getAsObject();
  if (!o || o->getString("format") != std::optional<llvm::StringRef>(kFormat))
    return bad("not a pp-mlir checkpoint (\"format\" is not \"" + kFormat +
               "\")");
  if (o->getInteger("version") != kVersion)
    return bad("version " + llvm::Twine(o->getInteger("version").value_or(-1)) +
               ", this pp-mlir reads version " + llvm::Twine(kVersion));
  Checkpoint checkpoint;
  std::optional<llvm::StringRef> fn = o->getString("function");
  if (!fn)
    return bad("no \"function\"");
  if (*fn != function)
    return makeError("--resume: " + dir + " is a checkpoint of @" + *fn +
                     ", not of @" + function);
  checkpoint.function = fn->str();
  std::optional<int64_t> step = o->getInteger("step");
  if (!step || *step < 0 || *step > (1 << 30))
    return bad("\"step\" must be an integer >= 0");
  checkpoint.step = static_cast<int>(*step);
  if (const llvm::json::Value *seed = o->get("seed"))
    checkpoint.seed = seed->getAsUINT64().value_or(0);
  checkpoint.optimizer = o->getString("optimizer").value_or("sgd").str();
  std::optional<int64_t> updates = o->getInteger("updates");
  if ((o->get("updates") && !updates) ||
      (updates && (*updates < 0 || *updates > *step)))
    return bad("\"updates\" must be an integer in [0, step]");
  checkpoint.updates = updates.value_or(*step);
  const llvm::json::Array *tensors = o->getArray("tensors");
  if (!tensors)
    return bad("no \"tensors\" list");
  for (const llvm::json::Value &value : *tensors) {
    const llvm::json::Object *t = value.getAsObject();
    std::optional<int64_t> argument =
        t ? t->getInteger("argument") : std::nullopt;
    std::optional<llvm::StringRef> file =
        t ? t->getString("file") : std::nullopt;
    std::optional<llvm::StringRef> dtype =
        t ? t->getString("dtype") : std::nullopt;
    std::string role = (t ? t->getString("role") : std::nullopt)
                           .value_or(kParameterRole)
                           .str();
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
    if (!entries
             .emplace(EntryKey(role, static_cast<unsigned>(*argument)),
                      std::move(entry))
             .second)
      return bad("argument " + llvm::Twine(*argument) + "'s " + role +
                 " is listed twice");
  }
  return checkpoint;
}

llvm::Expected<Checkpoint> mlir::pp::driver::readCheckpoint(
    llvm::StringRef dir, llvm::StringRef function,
    llvm::ArrayRef<std::pair<unsigned, TensorSpec>> expected,
    llvm::StringRef optimizer, llvm::ArrayRef<std::string> stateNames) {
  std::map<EntryKey, Entry> entries;
  llvm::Expected<Checkpoint> checkpoint = readManifest(dir, function, entries);
  if (!checkpoint)
    return checkpoint.takeError();
  if (checkpoint->optimizer != optimizer)
    return makeError("--resume: " + dir +
                     " was saved with --optimizer=" + checkpoint->optimizer +
                     ", this run uses --optimizer=" + optimizer +
                     " (its state would not match)");
  std::map<unsigned, TensorSpec> wanted(expected.begin(), expected.end());
  std::vector<std::string> roles = {kParameterRole.str()};
  llvm::append_range(roles, stateNames);
  for (const auto &[key, entry] : entries) {
    if (!llvm::is_contained(roles, key.first))
      return makeError("--resume: " + dir + " holds a tensor of role '" +
                       key.first + "' (argument " + llvm::Twine(key.second) +
                       "), which --optimizer=" + optimizer + " does not have");
    if (!wanted.count(key.second))
      return makeError("--resume: " + dir + " holds argument " +
                       llvm::Twine(key.second) +
                       ", which is no parameter of @" + function +
                       " (a checkpoint of another model?)");
  }
  for (const std::string &role : roles)
    for (const auto &[argument, spec] : expected) {
      std::string what = "argument " + std::to_string(argument) +
                         (role == kParameterRole ? "" : "'s " + role);
      auto it = entries.find({role, argument});
      if (it == entries.end())
        return makeError("--resume: " + dir + " has no tensor for " +
                         (role == kParameterRole ? "parameter " : "") + what +
                         " (" + spec.str() + ") of @" + function);
      if (it->second.spec != spec)
        return makeError("--resume: " + dir + ": " + what + " is " +
                         it->second.spec.str() +
                         " in the checkpoint, but the model's parameter is " +
                         spec.str() + " (a checkpoint of another model?)");
      llvm::SmallString<256> path(dir);
      llvm::sys::path::append(path, it->second.file);
      llvm::Expected<HostTensor> value = exec::readNpy(path);
      if (!value)
        return makeError("--resume: " + llvm::toString(value.takeError()));
      if (value->spec() != spec)
        return makeError("--resume: " + path + " holds " + value->spec().str() +
                         ", but the manifest and the model say " + spec.str() +
                         " for " + what);
      if (int64_t i = exec::firstNonFinite(*value); i >= 0)
        return makeError("--resume: " + path + ": element " +
                         value->indexStr(i) + " of " + what + " is not finite");
      if (role == kParameterRole)
        checkpoint->parameters.emplace_back(argument, std::move(*value));
      else
        checkpoint->state[role].emplace_back(argument, std::move(*value));
    }
  return checkpoint;
}
