# -*- Python -*-
# lit configuration for the pp-mlir regression tests.

import os
import shlex
import shutil
import subprocess
import sys

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

# One configuration for both suites: test/ (regression tests of passes,
# tools and the IR: fast, no JIT) and integration_test/ (runs that
# JIT-compile, train, spawn processes or build outside projects); the site
# configuration names the suite.
suite = getattr(config, "pp_test_suite", "test")
config.name = "PP" if suite == "test" else "PP-integration"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".c", ".test"]
config.test_source_root = os.path.join(config.pp_src_root, suite)
config.test_exec_root = os.path.join(config.pp_obj_root, suite)
# Unit/ is its own suite (GoogleTest binaries, found by lit as a nested
# suite); Inputs/ hold test data.
config.excludes = ["Inputs", "CMakeLists.txt", "README.md",
                   "lit.cfg.py", "lit.site.cfg.py"]

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%shlibext", config.llvm_shlib_ext))
config.substitutions.append(("%pp_src_root", config.pp_src_root))
config.substitutions.append(("%pp_libs", config.pp_libs_dir))
config.substitutions.append(("%shared_models", config.shared_models_dir))

# OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE pass through (docs/Testing.md: the
# suite run under forced OpenBLAS kernels). PPRT_BLOCK_CACHE=0:
# scripts/sanitize.sh and valgrind.sh turn the runtime's
# block cache off so that every large free reaches the allocator.
llvm_config.with_system_environment(
    ["HOME", "INCLUDE", "LIB", "TMP", "TEMP", "PPRT_BLOCK_CACHE",
     "OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE"])
llvm_config.use_default_substitutions()
# pp-run compiles every module (tests of the JIT cache pass --jit-cache).
config.environment["PP_JIT_CACHE"] = "none"
# Match variables inside one CHECK-LABEL block only.
config.environment["FILECHECK_OPTS"] = "-enable-var-scope"

tool_dirs = [config.pp_tools_dir, config.llvm_tools_dir]
# In a sanitized build (-DPP_SANITIZE=address,...) our plugin (PPPlugin.so)
# needs the ASan runtime, which Debian's uninstrumented mlir-opt lacks:
# preload it there.
mlir_opt = "mlir-opt"
if "address" in config.pp_sanitize:
    asan_rt = subprocess.run(
        [config.cxx_compiler, "-print-file-name=libclang_rt.asan-x86_64.so"],
        capture_output=True, text=True).stdout.strip()
    mlir_opt = ToolSubst("mlir-opt", command="env LD_PRELOAD=%s %s" % (
        asan_rt, os.path.join(config.llvm_tools_dir, "mlir-opt")))
tools = ["pp-opt", "pp-translate", "pp-exec", "pp-run", "pp-bench-runtime", "not", mlir_opt, "mlir-translate", ToolSubst("%pp_capi_test", os.path.join(
    config.pp_tools_dir, "pp-capi-test"), unresolved="ignore"),
    ToolSubst("pprt-mpi-test", unresolved="ignore"),
    # RUNPATHs of the installed tree (integration_test/Embedding).
    ToolSubst("llvm-readelf", unresolved="ignore"),
    # Damaged JIT cache entries (integration_test/pp-run/jit-cache.test).
    ToolSubst("llvm-objcopy", unresolved="ignore"),
    # fuzz/: built where clang has libFuzzer (libclang-rt-22-dev).
    ToolSubst("pp-fuzz-ir", unresolved="ignore"),
    ToolSubst("pp-fuzz-schedule", unresolved="ignore"),
    ToolSubst("pp-fuzz-table", unresolved="ignore"),
    ToolSubst("pp-fuzz-npy", unresolved="ignore"),
    # Built only with the CUDA plugin (bench/gemm.cpp).
    ToolSubst("pp-bench-gemm", unresolved="ignore")]
llvm_config.add_tool_substitutions(tools, tool_dirs)

# The repository's example pipelines.
config.substitutions.append(("%examples", os.path.join(config.pp_src_root,
                                                       "examples")))

# The fuzz targets' smoke tests (test/fuzz) say `REQUIRES: libfuzzer`.
if os.path.exists(os.path.join(config.pp_tools_dir, "pp-fuzz-schedule")):
    config.available_features.add("libfuzzer")

# Tests that use the third-party models in ../shared/models say
# `REQUIRES: shared-models`.
# Tests of the PyTorch exporter (python/pp-import-torch, docs/Frontends.md)
# say `REQUIRES: torch`: the virtual environment of scripts/install-deps.sh
# --torch ($PP_TORCH_VENV, else .venv-torch at the source root), complete
# (its pin stamp written); %torch_python is its interpreter.
torch_venv = os.environ.get("PP_TORCH_VENV") or os.path.join(
    config.pp_src_root, ".venv-torch")
torch_python = os.path.join(torch_venv, "bin", "python")
if os.path.exists(torch_python) and \
        os.path.exists(os.path.join(torch_venv, ".pp-pins")):
    config.available_features.add("torch")
    config.substitutions.append(("%torch_python", torch_python))
if os.path.isdir(config.shared_models_dir):
    config.available_features.add("shared-models")

# Embedding tests configure and build a small outside project against an
# installed pp-mlir; they need cmake and the install step.
config.substitutions.append(("%cmake_generator", config.cmake_generator))
# A sanitized build's libraries need the sanitizer runtimes of the compiler
# that built them (g++'s UBSan lacks clang's handlers).
config.substitutions.append(
    ("%embed_cmake_args", "-DCMAKE_CXX_COMPILER=" + config.cxx_compiler
     if config.pp_sanitize else ""))
config.substitutions.append(("%cmake", config.cmake_command))
# The C compiler an outside C program is built with (cc, as a user would;
# the sanitized build's clang, whose runtimes libPPCAPI.so then needs).
config.substitutions.append(
    ("%embed_cc", config.c_compiler if config.pp_sanitize else "cc"))
config.substitutions.append(("%mlir_dir", config.mlir_dir))
config.substitutions.append(("%pp_build", config.pp_obj_root))
# integration_test/Embedding/pkg-config.test builds a C program with it.
if shutil.which("pkg-config"):
    config.available_features.add("pkg-config")

# Tests of the runtime's mpi transport say `REQUIRES: mpi`: the runtime was
# built with MPI and mpirun is there. %mpirun runs as root too (containers)
# and with more processes than cores.
if config.pprt_have_mpi.upper() in ("ON", "1", "TRUE", "YES") and \
        config.mpiexec and os.path.exists(config.mpiexec):
    config.available_features.add("mpi")
    mpirun = config.mpiexec + " --allow-run-as-root --oversubscribe"
    # Sanitized build (scripts/sanitize.sh): OpenMPI keeps ~120 KB until exit
    # in components it unloads at MPI_Finalize, so LeakSanitizer reports them
    # with no names to suppress by (and the slow unwinder that would name them
    # hangs OpenMPI). Ranks under mpirun run without leak checking; ASan and
    # UBSan stay on, and the same code's leaks are checked in-process.
    if "address" in config.pp_sanitize:
        mpirun += " -x ASAN_OPTIONS=" + shlex.quote(
            os.environ.get("ASAN_OPTIONS", "") + ":detect_leaks=0")
    config.substitutions.append(("%mpirun", mpirun))

# The runtime's CUDA plugin (runtime/lib/cuda): tests that only inspect the
# library say `REQUIRES: cuda-runtime-plugin`; %pprt_cuda_plugin is its path.
cuda_plugin = os.path.join(config.pp_libs_dir, "libPPRuntimeCUDA.so")
if config.pprt_have_cuda_plugin.upper() in ("ON", "1", "TRUE", "YES") and \
        os.path.exists(cuda_plugin):
    config.available_features.add("cuda-runtime-plugin")
    config.substitutions.append(("%pprt_cuda_plugin", cuda_plugin))
config.substitutions.append(
    ("%pprt_runtime", os.path.join(config.pp_libs_dir, "libPPRuntime.so")))

# GPU lowering (docs/GPU.md). Tests that assemble PTX say `REQUIRES: ptxas`;
# %ptxas is CUDA's assembler, %extract_ptx pulls the PTX out of gpu.binary.
config.substitutions.append(
    ("%extract_ptx", "%s %s" % (sys.executable,
                                os.path.join(config.pp_src_root, "scripts",
                                             "extract-ptx.py"))))
ptxas = shutil.which("ptxas") or shutil.which(
    "ptxas", path=os.path.join(os.environ.get("CUDA_HOME", "/usr/local/cuda"),
                               "bin"))
if ptxas:
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))
# Tests that run kernels say `REQUIRES: cuda`: a GPU is listed by nvidia-smi.
nvidia_smi = shutil.which("nvidia-smi")
gpus = ""
if nvidia_smi:
    try:
        gpus = subprocess.run([nvidia_smi, "-L"], capture_output=True,
                              text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        gpus = ""
if "GPU " in gpus:
    config.available_features.add("cuda")
else:
    lit_config.note("no GPU found (nvidia-smi -L): tests that REQUIRE cuda "
                    "are skipped")
