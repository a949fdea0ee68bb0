# Installs headers (hand-written and generated), the CMake package that
# find_package(PPMLIR) reads from another project, and the pkg-config file of
# the C API (ppmlir-c.pc).
include(CMakePackageConfigHelpers)

# Headers only: the build tree's include/pp also holds CMake's bookkeeping
# (CMakeFiles/), which must not become empty directories of the install.
install(DIRECTORY ${PP_SOURCE_DIR}/include/pp ${PP_SOURCE_DIR}/include/pp-c
  DESTINATION include
  FILES_MATCHING PATTERN "*.h" PATTERN "*.td")
install(DIRECTORY ${PP_BINARY_DIR}/include/pp
  DESTINATION include
  FILES_MATCHING PATTERN "*.inc"
  PATTERN "CMakeFiles" EXCLUDE)

# The libraries pp_add_library made (they include MLIR's or LLVM's headers):
# PPMLIRConfig.cmake gives them MLIR's include directories and definitions.
get_property(PP_CONFIG_MLIR_TARGETS GLOBAL PROPERTY PP_EXPORTED_LIBS)

set(PP_INSTALL_CMAKE_DIR lib/cmake/ppmlir)
install(EXPORT PPMLIRTargets NAMESPACE PPMLIR:: DESTINATION ${PP_INSTALL_CMAKE_DIR})
configure_package_config_file(
  ${PP_SOURCE_DIR}/cmake/PPMLIRConfig.cmake.in
  ${PP_BINARY_DIR}/cmake/PPMLIRConfig.cmake
  INSTALL_DESTINATION ${PP_INSTALL_CMAKE_DIR})
write_basic_package_version_file(
  ${PP_BINARY_DIR}/cmake/PPMLIRConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES
  ${PP_BINARY_DIR}/cmake/PPMLIRConfig.cmake
  ${PP_BINARY_DIR}/cmake/PPMLIRConfigVersion.cmake
  DESTINATION ${PP_INSTALL_CMAKE_DIR})

# pkg-config for C programs: cc prog.c $(pkg-config --cflags --libs ppmlir-c)
# with PKG_CONFIG_PATH=<prefix>/lib/pkgconfig. The mlir-c headers come from
# MLIR's include directory; a sanitized build's users link its runtimes.
list(GET MLIR_INCLUDE_DIRS 0 PP_PC_MLIR_INCLUDE_DIR)
string(REPLACE ";" " " PP_PC_EXTRA_LIBS "${PP_SANITIZE_LINK_FLAGS}")
configure_file(${PP_SOURCE_DIR}/cmake/ppmlir-c.pc.in
  ${PP_BINARY_DIR}/cmake/ppmlir-c.pc @ONLY)
install(FILES ${PP_BINARY_DIR}/cmake/ppmlir-c.pc
  DESTINATION lib/pkgconfig)
