# tle_enable_exceptions(target): for the few translation units that talk to
# yaml-cpp or Boost.DLL. Exceptions are caught at the boundary and never cross
# LLVM frames.
function(tle_enable_exceptions target)
  target_compile_options(${target} PRIVATE -fexceptions)
endfunction()

# tle_mlir_link(target): link the shared libMLIR and libLLVM.
function(tle_mlir_link target)
  target_link_libraries(${target} PUBLIC MLIR LLVM)
endfunction()
