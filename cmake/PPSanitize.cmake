# Sanitizer and fuzzing instrumentation for every pp-mlir target
# (docs/Testing.md).
#
#   -DPP_SANITIZE=address,undefined   compile and link everything with
#                                      -fsanitize=address,undefined
#   -DPP_FUZZ_COVERAGE=ON             also -fsanitize=fuzzer-no-link (libFuzzer's
#                                      coverage) on every library, for fuzz/
#
# The flags go on every target of this project (compiler, runtime/, tools,
# unittests, bench, fuzz); Debian's libMLIR.so and libLLVM.so stay
# uninstrumented, which ASan and UBSan tolerate (no reports from inside them,
# and what they allocate is still tracked through malloc's interceptor).
set(PP_SANITIZE "" CACHE STRING
  "Comma-separated -fsanitize= list for every pp-mlir target (e.g. address,undefined); empty for none")
option(PP_FUZZ_COVERAGE
  "Compile every pp-mlir target with -fsanitize=fuzzer-no-link (a fuzzing build)" OFF)

set(PP_SANITIZE_COMPILE_FLAGS "")
set(PP_SANITIZE_LINK_FLAGS "")
if(PP_SANITIZE)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "PP_SANITIZE needs clang (CXX=clang++-22)")
  endif()
  list(APPEND PP_SANITIZE_COMPILE_FLAGS -fsanitize=${PP_SANITIZE}
    -fno-omit-frame-pointer -gline-tables-only)
  list(APPEND PP_SANITIZE_LINK_FLAGS -fsanitize=${PP_SANITIZE})
  if(PP_SANITIZE MATCHES "undefined")
    # A UBSan report fails the process, as an ASan report does.
    list(APPEND PP_SANITIZE_COMPILE_FLAGS -fno-sanitize-recover=undefined)
  endif()
  message(STATUS "pp-mlir: sanitizers: ${PP_SANITIZE}")
endif()
if(PP_FUZZ_COVERAGE)
  list(APPEND PP_SANITIZE_COMPILE_FLAGS -fsanitize=fuzzer-no-link)
  list(APPEND PP_SANITIZE_LINK_FLAGS -fsanitize=fuzzer-no-link)
  message(STATUS "pp-mlir: libFuzzer coverage instrumentation on every target")
endif()
if(PP_SANITIZE_COMPILE_FLAGS)
  add_compile_options(${PP_SANITIZE_COMPILE_FLAGS})
  add_link_options(${PP_SANITIZE_LINK_FLAGS})
  # Shared libraries and plugins leave the sanitizer runtimes' symbols to the
  # executable that loads them (clang links the runtimes into executables
  # only), so -z defs, which HandleLLVMOptions adds, cannot hold.
  foreach(var CMAKE_SHARED_LINKER_FLAGS CMAKE_MODULE_LINKER_FLAGS)
    string(REPLACE "-Wl,-z,defs" "" ${var} "${${var}}")
  endforeach()
endif()

# pp_sanitize_interface(<target>...): an installed library carries the link
# flags to its users (integration_test/Embedding links an outside project against it).
function(pp_sanitize_interface)
  if(PP_SANITIZE_LINK_FLAGS)
    foreach(t ${ARGN})
      target_link_options(${t} INTERFACE ${PP_SANITIZE_LINK_FLAGS})
    endforeach()
  endif()
endfunction()
