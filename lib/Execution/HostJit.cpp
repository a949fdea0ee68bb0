//===- HostJit.cpp - object code for the host, its cache and its linker ---===//

#include "HostJit.h"
#include "CPULowering.h"

#include "pprt/pprt.h"

#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/ADT/StringExtras.h"
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
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SmallVectorMemoryBuffer.h"
#include "llvm/Support/raw_sha1_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"

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
  hash << "pp-mlir JIT object 1\nLLVM " << LLVM_VERSION_STRING << "\n"
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
  llvm::sys::path::append(path, key + ".o");
  return path;
}

std::unique_ptr<llvm::MemoryBuffer>
mlir::pp::exec::detail::readCachedObject(StringRef dir, StringRef key) {
  auto buffer = llvm::MemoryBuffer::getFile(cachePath(dir, key),
                                            /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return nullptr;
  auto object =
      llvm::object::ObjectFile::createObjectFile((*buffer)->getMemBufferRef());
  if (!object) {
    llvm::consumeError(object.takeError());
    return nullptr;
  }
  return std::move(*buffer);
}

void mlir::pp::exec::detail::removeCachedObject(StringRef dir, StringRef key) {
  llvm::sys::fs::remove(cachePath(dir, key));
}

llvm::Error
mlir::pp::exec::detail::writeCachedObject(StringRef dir, StringRef key,
                                          llvm::MemoryBufferRef object) {
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
    os << object.getBuffer();
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

llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
mlir::pp::exec::detail::emitObject(ModuleOp lowered, llvm::TargetMachine &tm,
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
  times.llvmTranslation += seconds(start);

  start = Clock::now();
  auto optimize = makeOptimizingTransformer(std::min(optLevel, 3u),
                                            /*sizeLevel=*/0, &tm);
  if (llvm::Error error = optimize(module.get()))
    return std::move(error);
  times.llvmOptimization += seconds(start);

  start = Clock::now();
  llvm::SmallVector<char, 0> object;
  {
    llvm::raw_svector_ostream os(object);
    llvm::legacy::PassManager codegen;
    if (tm.addPassesToEmitFile(codegen, os, /*DwoOut=*/nullptr,
                               llvm::CodeGenFileType::ObjectFile))
      return llvm::createStringError(
          "the target machine cannot emit object files");
    codegen.run(*module);
  }
  times.codeGeneration += seconds(start);
  return std::make_unique<llvm::SmallVectorMemoryBuffer>(
      std::move(object), "pp-exec.o", /*RequiresNullTerminator=*/false);
}

llvm::Expected<std::unique_ptr<llvm::orc::LLJIT>>
mlir::pp::exec::detail::linkObject(
    std::unique_ptr<llvm::MemoryBuffer> object,
    llvm::orc::JITTargetMachineBuilder builder,
    llvm::orc::SymbolMap (*symbols)(llvm::orc::MangleAndInterner)) {
  // RuntimeDyld with a section memory manager, as MLIR's ExecutionEngine
  // links.
  auto linkingLayer = [](llvm::orc::ExecutionSession &session) {
    return std::make_unique<llvm::orc::RTDyldObjectLinkingLayer>(
        session, [](const llvm::MemoryBuffer &) {
          return std::make_unique<llvm::SectionMemoryManager>();
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
  if (llvm::Error error = (*jit)->addObjectFile(std::move(object)))
    return std::move(error);
  return std::move(*jit);
}
