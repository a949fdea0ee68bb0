//===- HostJit.h - object code for the host, its cache and its linker -*- C++
//-*-===//
//
// Internal to lib/Execution: the CPU half of JitModule::compile after the
// MLIR lowering. The LLVM-dialect module becomes LLVM IR, is optimized and
// compiled to relocatable objects in memory (the functions compiled without
// optimization, such as rank programs, in one of their own), which an ORC
// LLJIT links into the process. The objects can be kept in a cache
// directory keyed by everything that determines them (jitCacheKey), so a
// later run of the same module loads them instead of compiling
// (docs/Execution.md, "Rank programs" and "The JIT cache").
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
#include <vector>

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

/// The objects of one compiled module: the optimized code, then (when the
/// module has functions compiled without optimization) those functions.
using ObjectFiles = std::vector<std::unique_ptr<llvm::MemoryBuffer>>;

/// The objects cached under `key` in `dir` (an `ar` archive of them), or
/// none when there is no entry or it is not an archive of object files (a
/// damaged entry is compiled again and replaced).
ObjectFiles readCachedObjects(llvm::StringRef dir, llvm::StringRef key);

/// Removes the entry cached under `key` in `dir`, if any.
void removeCachedObjects(llvm::StringRef dir, llvm::StringRef key);

/// Stores `objects` under `key` in `dir` (created if needed) as one `ar`
/// archive, atomically: written to a temporary file and renamed, so that
/// processes compiling the same module at once never read half an entry.
llvm::Error writeCachedObjects(llvm::StringRef dir, llvm::StringRef key,
                               const ObjectFiles &objects);

/// Translates `lowered` (the LLVM dialect) to LLVM IR for `tm`, adds a
/// packed wrapper (packedWrapperName) for each of `entries`, optimizes at
/// `optLevel` and emits relocatable objects: one with the optimized
/// functions, for `tm`, and one with the functions compiled without
/// optimization (`optnone`: rank programs, calls with long argument lists),
/// for `unoptimizedTm`, a target machine at CodeGenOptLevel::None, whose
/// fast instruction selection and register allocation take time linear in
/// a function's size (the register allocator is chosen per module, not per
/// function). Adds the translation, optimization and code generation times
/// to `times`.
llvm::Expected<ObjectFiles> emitObjects(ModuleOp lowered,
                                        llvm::TargetMachine &tm,
                                        llvm::TargetMachine &unoptimizedTm,
                                        llvm::ArrayRef<std::string> entries,
                                        unsigned optLevel, CompileTimes &times);

/// An LLJIT for the host with `objects` linked in: symbols they do not
/// define resolve to `symbols`, then to the process's.
llvm::Expected<std::unique_ptr<llvm::orc::LLJIT>>
linkObjects(ObjectFiles objects, llvm::orc::JITTargetMachineBuilder builder,
            llvm::orc::SymbolMap (*symbols)(llvm::orc::MangleAndInterner));

} // namespace mlir::pp::exec::detail

#endif // PP_LIB_EXECUTION_HOSTJIT_H
