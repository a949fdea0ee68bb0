# Installs headers (hand-written and generated) and the CMake package that
# find_package(PPMLIR) reads from another project.
include(CMakePackageConfigHelpers)

install(DIRECTORY ${PP_SOURCE_DIR}/include/pp ${PP_SOURCE_DIR}/include/pp-c
  DESTINATION include
  FILES_MATCHING PATTERN "*.h" PATTERN "*.td")
install(DIRECTORY ${PP_BINARY_DIR}/include/pp
  DESTINATION include
  FILES_MATCHING PATTERN "*.inc")

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
