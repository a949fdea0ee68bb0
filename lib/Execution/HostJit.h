//===- HostJit.h - object code for the host, its cache and its linker -*- C++
//-*-===//
//
// Internal to lib/Execution: the CPU half of JitModule::compile after the
// MLIR lowering. The LLVM-dialect module becomes LLVM IR, is optimized and
// compiled to one relocatable object in memory, which an ORC LLJIT links
// into the process. The object can be kept in a cache directory keyed by
// everything that determines it (jitCacheKey), so a later run of the same
// module loads it instead of compiling (docs/Execution.md, "The JIT cache").
//
//===----------------------------------------------------------------------===//

#ifndef PP_LIB_EXECUTION_HOSTJIT_H
#define PP_LIB_EXECUTION_HOSTJIT_H

#include "pp/Execution/Jit.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ExecutionEngine/Orc/Core.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <memory>
#include <string>

namespace llvm {
class TargetMachine;
namespace orc {
class LLJIT;
class JITTargetMachineBuilder;
} // namespace orc
} // namespace llvm

namespace mlir::pp::exec::detail {

/// The functions of the process that compiled code calls by name: the
/// runtime's GEMMs and allocator (pprt.h) and `memrefCopy`.
llvm::orc::SymbolMap runtimeSymbols(llvm::orc::MangleAndInterner interner);

/// The packed form of entry wrapper `__pp_exec_<name>`: one argument, an
/// array with a pointer to each memref descriptor (arguments, then
/// results), forwarded to `_mlir_ciface___pp_exec_<name>`.
std::string packedWrapperName(llvm::StringRef entry);

/// The cache key (40 hexadecimal digits, SHA-1) of compiling `module`, a
/// prepared module not yet lowered, with `entries`, `rawEntries` and
/// `options` for the target `tm`: it covers the module's text, the
/// entries, the options that change code (optimization level, interchange,
/// vectorization, BLAS), the target's triple, CPU and features, the LLVM
/// version and the identity (path, size, modification time) of the binary
/// that holds this lowering, so a rebuilt compiler never reads an object
/// an older one wrote.
std::string jitCacheKey(ModuleOp module, llvm::ArrayRef<std::string> entries,
                        llvm::ArrayRef<std::string> rawEntries,
                        const JitOptions &options, llvm::TargetMachine &tm);

/// The object cached under `key` in `dir`, or null when there is none or
/// the file is not an object file (a damaged entry is compiled again and
/// replaced).
std::unique_ptr<llvm::MemoryBuffer> readCachedObject(llvm::StringRef dir,
                                                     llvm::StringRef key);

/// Removes the object cached under `key` in `dir`, if any.
void removeCachedObject(llvm::StringRef dir, llvm::StringRef key);

/// Stores `object` under `key` in `dir` (created if needed), atomically:
/// written to a temporary file and renamed, so that processes compiling
/// the same module at once never read half an object.
llvm::Error writeCachedObject(llvm::StringRef dir, llvm::StringRef key,
                              llvm::MemoryBufferRef object);

/// Translates `lowered` (the LLVM dialect) to LLVM IR for `tm`, adds a
/// packed wrapper (packedWrapperName) for each of `entries`, optimizes at
/// `optLevel` and emits a relocatable object. Adds the translation,
/// optimization and code generation times to `times`.
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
emitObject(ModuleOp lowered, llvm::TargetMachine &tm,
           llvm::ArrayRef<std::string> entries, unsigned optLevel,
           CompileTimes &times);

/// An LLJIT for the host with `object` linked in: symbols it does not
/// define resolve to `symbols`, then to the process's.
llvm::Expected<std::unique_ptr<llvm::orc::LLJIT>>
linkObject(std::unique_ptr<llvm::MemoryBuffer> object,
           llvm::orc::JITTargetMachineBuilder builder,
           llvm::orc::SymbolMap (*symbols)(llvm::orc::MangleAndInterner));

} // namespace mlir::pp::exec::detail

#endif // PP_LIB_EXECUTION_HOSTJIT_H
