# Installs the SDK that out-of-tree backend plugins build against: the
# shared libraries they link (TLEDialects, TLEHwDesc), their headers, and a
# CMake package (TLEConfig.cmake) with tle_add_backend_plugin.
include(CMakePackageConfigHelpers)
include(GNUInstallDirs)

install(TARGETS TLEDialects EXPORT TLETargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS TLEBackendSDK EXPORT TLETargets)

# Dialect headers and the TableGen output they include, under the paths the
# sources use (dialects/TLE/TLEDialect.h, ...).
install(DIRECTORY ${CMAKE_SOURCE_DIR}/dialects/
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/dialects
  FILES_MATCHING PATTERN "*.h")
install(DIRECTORY ${CMAKE_BINARY_DIR}/dialects/
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/dialects
  FILES_MATCHING PATTERN "*.inc"
  PATTERN "CMakeFiles" EXCLUDE)

set(TLE_CMAKE_INSTALL_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/tle)
install(EXPORT TLETargets NAMESPACE TLE::
  DESTINATION ${TLE_CMAKE_INSTALL_DIR})
configure_package_config_file(
  ${CMAKE_CURRENT_LIST_DIR}/TLEConfig.cmake.in
  ${CMAKE_BINARY_DIR}/cmake/TLEConfig.cmake
  INSTALL_DESTINATION ${TLE_CMAKE_INSTALL_DIR}
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR)
write_basic_package_version_file(
  ${CMAKE_BINARY_DIR}/cmake/TLEConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES
  ${CMAKE_BINARY_DIR}/cmake/TLEConfig.cmake
  ${CMAKE_BINARY_DIR}/cmake/TLEConfigVersion.cmake
  ${CMAKE_CURRENT_LIST_DIR}/TLEBackendPlugin.cmake
  DESTINATION ${TLE_CMAKE_INSTALL_DIR})
