//===- HostJit.cpp - object code for the host, its cache and its linker ---===//

#include "HostJit.h"
#include "CPULowering.h"

#include "pprt/pprt.h"

#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"
#include "llvm/ExecutionEngine/Orc/RTDyldObjectLinkingLayer.h"
#include "llvm/ExecutionEngine/SectionMemoryManager.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Object/Archive.h"
#include "llvm/Object/ArchiveWriter.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SmallVectorMemoryBuffer.h"
#include "llvm/Support/raw_sha1_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"

#include <chrono>
#include <cstring>
#include <limits>
#include <link.h>

using namespace mlir;
using namespace mlir::pp::exec;
using namespace mlir::pp::exec::detail;

std::string mlir::pp::exec::detail::packedWrapperName(StringRef entry) {
  return ("__pp_exec_packed_" + entry).str();
}

//===----------------------------------------------------------------------===//
// Runtime support
//===----------------------------------------------------------------------===//

namespace {
struct UnrankedDescriptor {
  int64_t rank;
  void *descriptor;
};
} // namespace

/// `memrefCopy` as the MemRef-to-LLVM lowering calls it for copies between
/// non-contiguous memrefs (the same contract as mlir_c_runner_utils'), so
/// that pp-exec needs no runtime library.
extern "C" void ppExecMemrefCopy(int64_t elemSize, UnrankedDescriptor *src,
                                 UnrankedDescriptor *dst) {
  int64_t rank = src->rank;
  auto fields = [&](UnrankedDescriptor *d, char *&base, int64_t &offset,
                    int64_t *&sizes, int64_t *&strides) {
    char *raw = static_cast<char *>(d->descriptor);
    std::memcpy(&base, raw + sizeof(void *), sizeof(void *));
    offset = reinterpret_cast<int64_t *>(raw + 2 * sizeof(void *))[0];
    sizes = reinterpret_cast<int64_t *>(raw + 2 * sizeof(void *)) + 1;
    strides = sizes + rank;
  };
  char *srcBase, *dstBase;
  int64_t srcOffset, dstOffset, *sizes, *srcStrides, *dstSizes, *dstStrides;
  fields(src, srcBase, srcOffset, sizes, srcStrides);
  fields(dst, dstBase, dstOffset, dstSizes, dstStrides);
  for (int64_t d = 0; d < rank; ++d)
    if (sizes[d] == 0)
      return;
  SmallVector<int64_t> index(rank, 0);
  while (true) {
    int64_t s = srcOffset, t = dstOffset;
    for (int64_t d = 0; d < rank; ++d) {
      s += index[d] * srcStrides[d];
      t += index[d] * dstStrides[d];
    }
    std::memcpy(dstBase + t * elemSize, srcBase + s * elemSize, elemSize);
    int64_t d = rank - 1;
    for (; d >= 0; --d) {
      if (++index[d] < sizes[d])
        break;
      index[d] = 0;
    }
    if (d < 0)
      return;
  }
}

llvm::orc::SymbolMap
mlir::pp::exec::detail::runtimeSymbols(llvm::orc::MangleAndInterner interner) {
  llvm::orc::SymbolMap map;
  auto define = [&](llvm::StringRef name, auto *function) {
    map[interner(name)] = {llvm::orc::ExecutorAddr::fromPtr(function),
                           llvm::JITSymbolFlags::Exported};
  };
  define("memrefCopy", &ppExecMemrefCopy);
  // The CPU GEMMs (libPPRuntime.so), also for programs that do not link
  // the runtime otherwise (pp-exec).
  define("pprt_cpu_gemm_f32", &pprt_cpu_gemm_f32);
  define("pprt_cpu_gemm_f64", &pprt_cpu_gemm_f64);
  // The allocator of the CPU lowering (finalize-memref-to-llvm
  // {use-generic-functions}): libPPRuntime's, which charges each buffer
  // to the rank whose thread allocates it (pprt.h).
  define("_mlir_memref_to_llvm_alloc", &pprt_memory_alloc);
  define("_mlir_memref_to_llvm_aligned_alloc", &pprt_memory_aligned_alloc);
  define("_mlir_memref_to_llvm_free", &pprt_memory_free);
  return map;
}

//===----------------------------------------------------------------------===//
// The cache
//===----------------------------------------------------------------------===//

namespace {
/// What imageIdentity looks for, and what it found.
struct ImageSearch {
  uintptr_t address;
  std::string buildId, path;
};
} // namespace

/// The GNU build ID (NT_GNU_BUILD_ID, in hexadecimal) of the loaded image
/// (executable or shared library) that holds `address`, else that image's
/// path, size, inode and modification time, else "unknown". Build IDs name
/// the code that is running, even when its file was replaced since.
static std::string imageIdentity(const void *address) {
  ImageSearch search{reinterpret_cast<uintptr_t>(address), "", ""};
  dl_iterate_phdr(
      [](dl_phdr_info *info, size_t, void *data) {
        auto *search = static_cast<ImageSearch *>(data);
        bool holds = false;
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr) &ph = info->dlpi_phdr[i];
          uintptr_t start = info->dlpi_addr + ph.p_vaddr;
          holds |= ph.p_type == PT_LOAD && search->address >= start &&
                   search->address < start + ph.p_memsz;
        }
        if (!holds)
          return 0;
        search->path = info->dlpi_name ? info->dlpi_name : "";
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr) &ph = info->dlpi_phdr[i];
          if (ph.p_type != PT_NOTE)
            continue;
          auto *note =
              reinterpret_cast<const char *>(info->dlpi_addr + ph.p_vaddr);
          const char *end = note + ph.p_memsz;
          auto align4 = [](size_t n) { return (n + 3) & ~size_t(3); };
          while (note + sizeof(ElfW(Nhdr)) <= end) {
            auto *header = reinterpret_cast<const ElfW(Nhdr) *>(note);
            const char *name = note + sizeof(ElfW(Nhdr));
            const char *desc = name + align4(header->n_namesz);
            if (header->n_type == NT_GNU_BUILD_ID && header->n_namesz == 4 &&
                std::memcmp(name, "GNU", 4) == 0 &&
                desc + header->n_descsz <= end) {
              search->buildId = llvm::toHex(
                  llvm::StringRef(desc, header->n_descsz), /*LowerCase=*/true);
              return 1;
            }
            note = desc + align4(header->n_descsz);
          }
        }
        return 1;
      },
      &search);
  if (!search.buildId.empty())
    return "build-id " + search.buildId;
  // The executable reports an empty name.
  std::string path = search.path;
  if (path.empty())
    path = llvm::sys::fs::getMainExecutable(nullptr, nullptr);
  llvm::sys::fs::file_status status;
  if (path.empty() || llvm::sys::fs::status(path, status))
    return "unknown";
  return (llvm::Twine(path) + " " + llvm::Twine(status.getSize()) + " " +
          llvm::Twine(status.getUniqueID().getFile()) + " " +
          llvm::Twine(
              status.getLastModificationTime().time_since_epoch().count()))
      .str();
}

/// The code that lowers and compiles a module: this library (or the tool
/// that links it), MLIR and LLVM, as loaded in this process. (In a
/// position-independent executable, as Debian's clang builds by default,
/// the address of a library's function is the library's; in a non-PIE one
/// it can be the executable's PLT stub, and the key then names the
/// executable for both.)
static const std::string &compilerIdentity() {
  static const std::string identity =
      "lowering " + imageIdentity(reinterpret_cast<void *>(&imageIdentity)) +
      "\nMLIR " +
      imageIdentity(reinterpret_cast<void *>(&translateModuleToLLVMIR)) +
      "\nLLVM " +
      imageIdentity(reinterpret_cast<void *>(&llvm::sys::getHostCPUName));
  return identity;
}

std::string mlir::pp::exec::detail::jitCacheKey(
    ModuleOp module, ArrayRef<std::string> entries,
    ArrayRef<std::string> rawEntries, const JitOptions &options,
    llvm::TargetMachine &tm) {
  llvm::raw_sha1_ostream hash;
  // Bump the first line when the object's contract with JitModule changes.
  hash << "pp-mlir JIT objects 2\nLLVM " << LLVM_VERSION_STRING << "\n"
       << compilerIdentity() << "\n"
       << tm.getTargetTriple().str() << " " << tm.getTargetCPU() << " "
       << tm.getTargetFeatureString() << "\n"
       << "O" << options.optLevel << " interchange " << options.interchange
       << " vectorize " << options.vectorize << " blas " << options.blas
       << " im2col " << options.im2col << "\n";
  for (const std::string &name : entries)
    hash << "entry " << name << "\n";
  for (const std::string &name : rawEntries)
    hash << "raw " << name << "\n";
  // Everything printed in full (whatever the printer's command-line
  // defaults), locations left out: they do not change code.
  module->print(hash, exactPrintingFlags());
  std::array<uint8_t, 20> digest = hash.sha1();
  return llvm::toHex(digest, /*LowerCase=*/true);
}

/// The file of `key` in `dir`.
static llvm::SmallString<256> cachePath(StringRef dir, StringRef key) {
  llvm::SmallString<256> path(dir);
  llvm::sys::path::append(path, key + ".a");
  return path;
}

ObjectFiles mlir::pp::exec::detail::readCachedObjects(StringRef dir,
                                                      StringRef key) {
  auto buffer = llvm::MemoryBuffer::getFile(cachePath(dir, key),
                                            /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return {};
  auto archive = llvm::object::Archive::create((*buffer)->getMemBufferRef());
  if (!archive) {
    llvm::consumeError(archive.takeError());
    return {};
  }
  ObjectFiles objects;
  llvm::Error error = llvm::Error::success();
  for (const llvm::object::Archive::Child &child :
       (*archive)->children(error)) {
    auto member = child.getMemoryBufferRef();
    if (!member) {
      llvm::consumeError(member.takeError());
      llvm::consumeError(std::move(error));
      return {};
    }
    auto object = llvm::object::ObjectFile::createObjectFile(*member);
    if (!object) {
      llvm::consumeError(object.takeError());
      llvm::consumeError(std::move(error));
      return {};
    }
    objects.push_back(llvm::MemoryBuffer::getMemBufferCopy(
        member->getBuffer(), member->getBufferIdentifier()));
  }
  if (error) {
    llvm::consumeError(std::move(error));
    return {};
  }
  return objects;
}

void mlir::pp::exec::detail::removeCachedObjects(StringRef dir, StringRef key) {
  llvm::sys::fs::remove(cachePath(dir, key));
}

llvm::Error
mlir::pp::exec::detail::writeCachedObjects(StringRef dir, StringRef key,
                                           const ObjectFiles &objects) {
  std::vector<llvm::NewArchiveMember> members;
  for (const std::unique_ptr<llvm::MemoryBuffer> &object : objects) {
    llvm::NewArchiveMember member(object->getMemBufferRef());
    member.MemberName = object->getBufferIdentifier();
    members.push_back(std::move(member));
  }
  auto archive = llvm::writeArchiveToBuffer(
      members, llvm::SymtabWritingMode::NoSymtab, llvm::object::Archive::K_GNU,
      /*Deterministic=*/true, /*Thin=*/false);
  if (!archive)
    return archive.takeError();
  if (std::error_code ec = llvm::sys::fs::create_directories(dir))
    return llvm::createStringError(ec, "cannot create %s: %s",
                                   dir.str().c_str(), ec.message().c_str());
  llvm::SmallString<256> path = cachePath(dir, key);
  int fd;
  llvm::SmallString<256> temporary;
  if (std::error_code ec =
          llvm::sys::fs::createUniqueFile(path + ".%%%%%%.tmp", fd, temporary))
    return llvm::createStringError(ec, "cannot write in %s: %s",
                                   dir.str().c_str(), ec.message().c_str());
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << (*archive)->getBuffer();
    os.close();
    if (os.has_error()) {
      std::error_code ec = os.error();
      os.clear_error();
      llvm::sys::fs::remove(temporary);
      return llvm::createStringError(ec, "cannot write %s: %s",
                                     temporary.c_str(), ec.message().c_str());
    }
  }
  if (std::error_code ec = llvm::sys::fs::rename(temporary, path)) {
    llvm::sys::fs::remove(temporary);
    return llvm::createStringError(ec, "cannot rename %s to %s: %s",
                                   temporary.c_str(), path.c_str(),
                                   ec.message().c_str());
  }
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// Compiling
//===----------------------------------------------------------------------===//

/// Adds `void packedWrapperName(entry)(ptr args)` to `module`: it calls the
/// C interface of entry `entry` with args[0], args[1], ... (each a pointer
/// to a memref descriptor).
static llvm::Error addPackedWrapper(llvm::Module &module, StringRef entry) {
  std::string cName = ("_mlir_ciface_" + kWrapperPrefix + entry).str();
  llvm::Function *callee = module.getFunction(cName);
  if (!callee)
    return llvm::createStringError("the lowered module has no @" + cName);
  llvm::LLVMContext &ctx = module.getContext();
  llvm::IRBuilder<> b(ctx);
  llvm::Type *ptr = b.getPtrTy();
  auto *wrapper = llvm::Function::Create(
      llvm::FunctionType::get(b.getVoidTy(), {ptr}, /*isVarArg=*/false),
      llvm::GlobalValue::ExternalLinkage, packedWrapperName(entry), module);
  b.SetInsertPoint(llvm::BasicBlock::Create(ctx, "entry", wrapper));
  llvm::SmallVector<llvm::Value *> args;
  for (llvm::Argument &arg : callee->args()) {
    llvm::Value *slot =
        b.CreateConstGEP1_64(ptr, wrapper->getArg(0), arg.getArgNo());
    args.push_back(b.CreateLoad(arg.getType(), slot));
  }
  b.CreateCall(callee, args);
  b.CreateRetVoid();
  return llvm::Error::success();
}

/// Compiles without optimization (`optnone`) each function that makes a
/// call with more than `maxArguments` arguments: a rank program calling a
/// stage function, or pp-exec's wrapper calling its entry, passes every
/// memref as its descriptor's scalars (3 + 2 x rank each: a stage function
/// of a small ResNet takes 1207). Optimizing the stores of those arguments
/// to the stack is quadratic in their number (the DAG combiner's store
/// merging, BaseIndexOffset::match): 4.5 of the 11 s that one stage
/// function took to compile. These functions are calls in sequence, whose
/// speed does not matter next to the callees'.
static void compileLongCallsUnoptimized(llvm::Module &module,
                                        unsigned maxArguments) {
  for (llvm::Function &f : module) {
    if (f.isDeclaration() || f.hasOptNone())
      continue;
    bool longCall = llvm::any_of(llvm::instructions(f), [&](auto &i) {
      auto *call = dyn_cast<llvm::CallBase>(&i);
      return call && call->arg_size() > maxArguments;
    });
    if (!longCall)
      continue;
    f.removeFnAttr(llvm::Attribute::AlwaysInline);
    f.removeFnAttr(llvm::Attribute::MinSize);
    f.removeFnAttr(llvm::Attribute::OptimizeForSize);
    f.addFnAttr(llvm::Attribute::OptimizeNone);
    f.addFnAttr(llvm::Attribute::NoInline);
  }
}

/// The global values (functions, variables) that `f` refers to, directly
/// or through constant expressions.
static void collectReferences(llvm::Function &f,
                              llvm::SmallPtrSetImpl<llvm::GlobalValue *> &out) {
  llvm::SmallVector<llvm::Constant *> worklist;
  llvm::SmallPtrSet<llvm::Constant *, 32> seen;
  for (llvm::Instruction &i : llvm::instructions(f))
    for (llvm::Value *operand : i.operands())
      if (auto *c = dyn_cast<llvm::Constant>(operand))
        worklist.push_back(c);
  while (!worklist.empty()) {
    llvm::Constant *c = worklist.pop_back_val();
    if (!seen.insert(c).second)
      continue;
    if (auto *value = dyn_cast<llvm::GlobalValue>(c)) {
      out.insert(value);
      continue;
    }
    for (llvm::Value *operand : c->operands())
      if (auto *inner = dyn_cast<llvm::Constant>(operand))
        worklist.push_back(inner);
  }
}

/// The leaves of aggregate type `type` (struct and array fields, nested),
/// as index lists.
static void
collectLeaves(llvm::Type *type, llvm::SmallVectorImpl<unsigned> &at,
              llvm::SmallVectorImpl<llvm::SmallVector<unsigned>> &out) {
  if (!type->isAggregateType()) {
    out.emplace_back(at.begin(), at.end());
    return;
  }
  unsigned n = type->isStructTy() ? type->getStructNumElements()
                                  : type->getArrayNumElements();
  for (unsigned i = 0; i < n; ++i) {
    at.push_back(i);
    collectLeaves(type->isStructTy() ? type->getStructElementType(i)
                                     : type->getArrayElementType(),
                  at, out);
    at.pop_back();
  }
}

/// Whether `alloca`, and every value computed from it, is used in its own
/// block only (never through a PHI node): then one slot for every time the
/// block runs holds what each run needs until it ends.
static bool usedInItsBlockOnly(llvm::AllocaInst *alloca) {
  llvm::SmallVector<llvm::Instruction *> work{alloca};
  llvm::SmallPtrSet<llvm::Instruction *, 8> seen;
  while (!work.empty()) {
    llvm::Instruction *i = work.pop_back_val();
    if (!seen.insert(i).second)
      continue;
    for (llvm::User *user : i->users()) {
      auto *use = dyn_cast<llvm::Instruction>(user);
      if (!use || isa<llvm::PHINode>(use) ||
          use->getParent() != alloca->getParent())
        return false;
      if (!use->getType()->isVoidTy())
        work.push_back(use);
    }
  }
  return true;
}

/// Rewrites `f` into what fast instruction selection (CodeGenOptLevel::None)
/// selects without falling back to SelectionDAG, whose time grows faster
/// than a block's size (a rank program is one block of tens of thousands of
/// instructions, mostly the memref descriptors that the LLVM dialect builds
/// and takes apart around each call): an extractvalue of a field an
/// insertvalue wrote becomes that field's value, a store of an aggregate
/// becomes a store of each field, the insertvalues left unused go, and a
/// block ends after each call. Its allocas of a constant size move to the
/// entry block, where they are static: `f` is one block, or a rank program
/// whose steady state is a loop (takeUnoptimized), whose allocas hold the
/// memref descriptor a call takes, each used until that call returns, so
/// one slot serves every iteration (pp-roll-rank-programs never loops a
/// stack allocation nor carries a descriptor across iterations; an alloca
/// whose value leaves its block anyway stays where it is).
/// What the function computes does not change.
static void prepareForFastSelection(llvm::Function &f) {
  llvm::SmallVector<llvm::Instruction *> dead;
  llvm::SmallVector<llvm::StoreInst *> stores;
  llvm::IRBuilder<> b(f.getContext());
  for (llvm::Instruction &i : llvm::instructions(f)) {
    if (auto *extract = dyn_cast<llvm::ExtractValueInst>(&i)) {
      llvm::Value *field = llvm::FindInsertedValue(
          extract->getAggregateOperand(), extract->getIndices());
      if (field && field != extract) {
        extract->replaceAllUsesWith(field);
        dead.push_back(extract);
      }
    } else if (auto *store = dyn_cast<llvm::StoreInst>(&i)) {
      llvm::Value *value = store->getValueOperand();
      if (!value->getType()->isAggregateType() || store->isVolatile() ||
          store->isAtomic())
        continue;
      llvm::SmallVector<unsigned> at;
      llvm::SmallVector<llvm::SmallVector<unsigned>> leaves;
      collectLeaves(value->getType(), at, leaves);
      b.SetInsertPoint(store);
      const llvm::DataLayout &layout = f.getDataLayout();
      for (const llvm::SmallVector<unsigned> &leaf : leaves) {
        llvm::Value *field = llvm::FindInsertedValue(value, leaf);
        if (!field)
          field = b.CreateExtractValue(value, leaf);
        if (isa<llvm::PoisonValue, llvm::UndefValue>(field))
          continue;
        llvm::SmallVector<llvm::Value *> indices{b.getInt32(0)};
        for (unsigned index : leaf)
          indices.push_back(b.getInt32(index));
        llvm::Value *at = b.CreateInBoundsGEP(
            value->getType(), store->getPointerOperand(), indices);
        uint64_t offset =
            layout.getIndexedOffsetInType(value->getType(), indices);
        b.CreateAlignedStore(field, at,
                             llvm::commonAlignment(store->getAlign(), offset));
      }
      stores.push_back(store);
    }
  }
  for (llvm::StoreInst *store : stores) {
    llvm::Value *value = store->getValueOperand();
    store->eraseFromParent();
    llvm::RecursivelyDeleteTriviallyDeadInstructions(value);
  }
  for (llvm::Instruction *i : dead)
    llvm::RecursivelyDeleteTriviallyDeadInstructions(i);
  llvm::SmallVector<llvm::Instruction *> splits;
  for (llvm::Instruction &i : llvm::instructions(f))
    if (isa<llvm::CallBase>(i) && i.getNextNode() &&
        !i.getNextNode()->isTerminator())
      splits.push_back(i.getNextNode());
  // From the end: each split moves the rest of a block.
  for (llvm::Instruction *at : llvm::reverse(splits))
    llvm::SplitBlock(at->getParent(), at);
  llvm::SmallVector<llvm::AllocaInst *> allocas; // of a constant size
  for (llvm::Instruction &i : llvm::instructions(f))
    if (auto *alloca = dyn_cast<llvm::AllocaInst>(&i))
      if (isa<llvm::ConstantInt>(alloca->getArraySize()) &&
          usedInItsBlockOnly(alloca))
        allocas.push_back(alloca);
  for (llvm::AllocaInst *alloca : allocas)
    alloca->moveBefore(f.getEntryBlock().getFirstInsertionPt());
}

/// Moves the definitions of `module`'s functions compiled without
/// optimization (`optnone`) that are straight-line code (one block: entry
/// wrappers; a function with loops stays, so that they run optimized), and
/// its rank programs (kRankProgramAttribute; their one loop, if any, is the
/// schedule's steady state, each iteration a few calls), into a module of their
/// own, returned; null when the module has no such function or nothing else.
/// The functions moved and what they refer to become external if they were
/// local, so that the two objects resolve each other's symbols in the JIT (each
/// LLJIT links one module's objects alone: no other code sees them).
static std::unique_ptr<llvm::Module> takeUnoptimized(llvm::Module &module) {
  llvm::SmallPtrSet<llvm::GlobalValue *, 8> unoptimized;
  llvm::SmallPtrSet<llvm::GlobalValue *, 32> shared;
  bool optimized = false;
  for (llvm::Function &f : module) {
    if (f.isDeclaration())
      continue;
    if (!f.hasOptNone() ||
        (f.size() != 1 && !f.hasFnAttribute(kRankProgramAttribute))) {
      optimized = true;
      continue;
    }
    unoptimized.insert(&f);
    shared.insert(&f);
    collectReferences(f, shared);
  }
  if (unoptimized.empty() || !optimized)
    return nullptr;
  // Defined in one object, referred to from the other: external (not local,
  // not discardable), and not dso_local, so that position-independent code
  // reaches it through the GOT or a stub wherever the linker puts it.
  for (llvm::GlobalValue *value : shared) {
    if (!value->isDeclaration() && !value->hasExternalLinkage()) {
      if (!value->hasName())
        value->setName("__pp_exec_local");
      value->setLinkage(llvm::GlobalValue::ExternalLinkage);
    }
    value->setDSOLocal(false);
  }
  for (llvm::GlobalValue *value : unoptimized)
    prepareForFastSelection(*cast<llvm::Function>(value));
  llvm::ValueToValueMapTy map;
  std::unique_ptr<llvm::Module> split =
      llvm::CloneModule(module, map, [&](const llvm::GlobalValue *value) {
        return unoptimized.contains(value);
      });
  for (llvm::GlobalValue *value : unoptimized)
    cast<llvm::Function>(value)->deleteBody();
  for (llvm::GlobalValue &value : split->global_values())
    if (value.isDeclaration())
      value.setDSOLocal(false);
  return split;
}

/// Emits `module` for `tm` as an object named `name`.
static llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
emitModule(llvm::Module &module, llvm::TargetMachine &tm, StringRef name) {
  llvm::SmallVector<char, 0> object;
  llvm::raw_svector_ostream os(object);
  llvm::legacy::PassManager codegen;
  if (tm.addPassesToEmitFile(codegen, os, /*DwoOut=*/nullptr,
                             llvm::CodeGenFileType::ObjectFile))
    return llvm::createStringError(
        "the target machine cannot emit object files");
  codegen.run(module);
  return std::make_unique<llvm::SmallVectorMemoryBuffer>(
      std::move(object), name, /*RequiresNullTerminator=*/false);
}

llvm::Expected<ObjectFiles>
mlir::pp::exec::detail::emitObjects(ModuleOp lowered, llvm::TargetMachine &tm,
                                    llvm::TargetMachine &unoptimizedTm,
                                    ArrayRef<std::string> entries,
                                    unsigned optLevel, CompileTimes &times) {
  using Clock = std::chrono::steady_clock;
  auto seconds = [](Clock::time_point since) {
    return std::chrono::duration<double>(Clock::now() - since).count();
  };
  Clock::time_point start = Clock::now();
  llvm::LLVMContext ctx;
  std::unique_ptr<llvm::Module> module =
      translateModuleToLLVMIR(lowered, ctx, "pp-exec");
  if (!module)
    return llvm::createStringError("translating to LLVM IR failed");
  module->setDataLayout(tm.createDataLayout());
  module->setTargetTriple(tm.getTargetTriple());
  for (const std::string &entry : entries)
    if (llvm::Error error = addPackedWrapper(*module, entry))
      return std::move(error);
  compileLongCallsUnoptimized(*module, 64);
  // Taken out before optimizing: LLVM's pass builder as MLIR's
  // makeOptimizingTransformer sets it up registers no instrumentation, so
  // its passes would optimize `optnone` functions too.
  std::unique_ptr<llvm::Module> unoptimized = takeUnoptimized(*module);
  if (unoptimized) {
    std::string problems;
    llvm::raw_string_ostream os(problems);
    if (llvm::verifyModule(*module, &os) ||
        llvm::verifyModule(*unoptimized, &os))
      return llvm::createStringError(
          "splitting off the unoptimized functions broke the LLVM IR: " +
          problems);
  }
  times.llvmTranslation += seconds(start);

  start = Clock::now();
  auto optimize = makeOptimizingTransformer(std::min(optLevel, 3u),
                                            /*sizeLevel=*/0, &tm);
  if (llvm::Error error = optimize(module.get()))
    return std::move(error);
  times.llvmOptimization += seconds(start);

  start = Clock::now();
  ObjectFiles objects;
  auto object = emitModule(*module, tm, "pp-exec.o");
  if (!object)
    return object.takeError();
  objects.push_back(std::move(*object));
  if (unoptimized) {
    auto object = emitModule(*unoptimized, unoptimizedTm, "pp-exec-O0.o");
    if (!object)
      return object.takeError();
    objects.push_back(std::move(*object));
  }
  times.codeGeneration += seconds(start);
  return objects;
}

llvm::Expected<std::unique_ptr<llvm::orc::LLJIT>>
mlir::pp::exec::detail::linkObjects(
    ObjectFiles objects, llvm::orc::JITTargetMachineBuilder builder,
    llvm::orc::SymbolMap (*symbols)(llvm::orc::MangleAndInterner)) {
  // RuntimeDyld with a section memory manager, as MLIR's ExecutionEngine
  // links.
  auto linkingLayer = [](llvm::orc::ExecutionSession &session) {
    return std::make_unique<llvm::orc::RTDyldObjectLinkingLayer>(
        session, [](const llvm::MemoryBuffer &) {
          // One reservation per object: small-code-model code (the
          // unoptimized object's) reaches its constants, and its unwind
          // tables reach it, with 32-bit offsets.
          return std::make_unique<llvm::SectionMemoryManager>(
              /*MM=*/nullptr, /*ReserveAlloc=*/true);
        });
  };
  auto dataLayout = builder.getDefaultDataLayoutForTarget();
  if (!dataLayout)
    return dataLayout.takeError();
  auto jit = llvm::orc::LLJITBuilder()
                 .setJITTargetMachineBuilder(std::move(builder))
                 .setObjectLinkingLayerCreator(linkingLayer)
                 .create();
  if (!jit)
    return jit.takeError();
  llvm::orc::JITDylib &main = (*jit)->getMainJITDylib();
  llvm::orc::MangleAndInterner interner((*jit)->getExecutionSession(),
                                        *dataLayout);
  if (llvm::Error error =
          main.define(llvm::orc::absoluteSymbols(symbols(interner))))
    return std::move(error);
  auto process = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
      dataLayout->getGlobalPrefix());
  if (!process)
    return process.takeError();
  main.addGenerator(std::move(*process));
  for (std::unique_ptr<llvm::MemoryBuffer> &object : objects)
    if (llvm::Error error = (*jit)->addObjectFile(std::move(object)))
      return std::move(error);
  return std::move(*jit);
}
