# tle_add_backend_plugin(name [NO_INSTALL] SOURCES src... [LINK_LIBS lib...])
#
# Builds a TLE backend plugin `name.so`. Used unchanged by the plugins in this
# repository and, through find_package(TLE), by plugins built out of tree, so
# that vendor_plugins/ are built exactly as an outside vendor builds theirs.
#
# The plugin links the same shared libMLIR/libLLVM and TLEDialects as the
# host: with private copies, TypeIDs would differ across the boundary and
# isa<> on the host's IR would fail silently. It is built with hidden
# visibility (only tleGetBackendPluginInfo is exported, so two plugins cannot
# interpose each other's classes) and linked with -z defs so that a missing
# symbol fails the plugin's link, not the host's dlopen.
#
# TLE_BACKEND_PLUGIN_OUTPUT_DIR, when set, is where the .so is written. The
# plugin is installed to <prefix>/lib/tle/plugins, where the host looks,
# unless NO_INSTALL (plugins that only tests load).
function(tle_add_backend_plugin name)
  cmake_parse_arguments(ARG "NO_INSTALL" "" "SOURCES;LINK_LIBS" ${ARGN})
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "tle_add_backend_plugin(${name}): no SOURCES given")
  endif()
  add_library(${name} MODULE ${ARG_SOURCES})
  set_target_properties(${name} PROPERTIES
    PREFIX ""
    CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON)
  if(TLE_BACKEND_PLUGIN_OUTPUT_DIR)
    set_target_properties(${name} PROPERTIES
      LIBRARY_OUTPUT_DIRECTORY "${TLE_BACKEND_PLUGIN_OUTPUT_DIR}")
  endif()
  target_compile_features(${name} PRIVATE cxx_std_17)
  target_include_directories(${name} SYSTEM PRIVATE
    ${MLIR_INCLUDE_DIRS} ${LLVM_INCLUDE_DIRS})
  # LLVM_DEFINITIONS is one string; passing it whole would garble
  # _GLIBCXX_USE_CXX11_ABI.
  separate_arguments(_tle_llvm_defs NATIVE_COMMAND "${LLVM_DEFINITIONS}")
  target_compile_options(${name} PRIVATE ${_tle_llvm_defs})
  target_link_libraries(${name} PRIVATE
    TLE::BackendSDK TLE::TLEDialects TLE::TLEHwDesc MLIR LLVM ${ARG_LINK_LIBS})
  target_link_options(${name} PRIVATE LINKER:-z,defs)
  if(NOT ARG_NO_INSTALL)
    install(TARGETS ${name} LIBRARY DESTINATION lib/tle/plugins)
  endif()
endfunction()
