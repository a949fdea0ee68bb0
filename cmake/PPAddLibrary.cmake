# pp_add_library(<name> [SHARED]
#                SOURCES <src>...
#                [DEPENDS <target>...]        # e.g. tablegen targets
#                [LIBS <target>...]           # other pp-mlir libraries
#                [MLIR_LIBS <lib>...]         # MLIR libraries this library uses
#                [LLVM_SUPPORT])              # links LLVMSupport (or libLLVM.so)
#
# MLIR_LIBS are linked through mlir_target_link_libraries, so with
# PP_LINK_MLIR_DYLIB=ON they become the single libMLIR.so; with OFF exactly the
# listed static libraries are linked. Every library is installed and exported
# in the PPMLIRTargets set used by find_package(PPMLIR); its users get C++17
# and, where LLVM is built without RTTI, -fno-rtti from it, and MLIR's and
# LLVM's include directories and definitions from PPMLIRConfig.cmake.
function(pp_add_library name)
  cmake_parse_arguments(ARG "SHARED;LLVM_SUPPORT" "" "SOURCES;DEPENDS;LIBS;MLIR_LIBS" ${ARGN})
  if(ARG_SHARED)
    add_library(${name} SHARED ${ARG_SOURCES})
  else()
    add_library(${name} STATIC ${ARG_SOURCES})
    set_target_properties(${name} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  endif()
  if(ARG_DEPENDS)
    add_dependencies(${name} ${ARG_DEPENDS})
  endif()
  target_include_directories(${name} PUBLIC
    $<BUILD_INTERFACE:${PP_SOURCE_DIR}/include>
    $<BUILD_INTERFACE:${PP_BINARY_DIR}/include>
    $<INSTALL_INTERFACE:include>)
  # What code that includes pp-mlir's (and so MLIR's) headers needs.
  target_compile_features(${name} PUBLIC cxx_std_17)
  if(NOT LLVM_ENABLE_RTTI)
    target_compile_options(${name} PUBLIC $<$<COMPILE_LANGUAGE:CXX>:-fno-rtti>)
  endif()
  if(ARG_LIBS)
    target_link_libraries(${name} PUBLIC ${ARG_LIBS})
  endif()
  if(ARG_MLIR_LIBS)
    mlir_target_link_libraries(${name} PUBLIC ${ARG_MLIR_LIBS})
  endif()
  if(ARG_LLVM_SUPPORT)
    if(LLVM_LINK_LLVM_DYLIB)
      target_link_libraries(${name} PUBLIC LLVM)
    else()
      target_link_libraries(${name} PUBLIC LLVMSupport)
    endif()
  endif()
  pp_sanitize_interface(${name})
  install(TARGETS ${name} EXPORT PPMLIRTargets
    ARCHIVE DESTINATION lib
    LIBRARY DESTINATION lib
    RUNTIME DESTINATION bin)
  set_property(GLOBAL APPEND PROPERTY PP_EXPORTED_LIBS ${name})
endfunction()
