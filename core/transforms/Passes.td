//===- Passes.td - Tile-level passes of the core -----------*- tablegen -*-===//

#ifndef TLE_CORE_TRANSFORMS_PASSES_TD
#define TLE_CORE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TLECheckHwDesc : Pass<"tle-check-hwdesc", "mlir::ModuleOp"> {
  let summary = "Check a kernel against a hardware description";
  let description = [{
    Resolves every memory level and parallel level the kernel names
    (tle_struct.alloc, tle_struct.to_buffer, tle_struct.parallel) against the
    hardware description, checks that block-level local buffers fit the
    level's capacity per block, and that every tle_raw.call has a variant in
    a native language the chip accepts. Problems are errors at the kernel's
    source line, naming the description.
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "Hardware description: a name (h200) or a YAML file">
  ];
}

#endif // TLE_CORE_TRANSFORMS_PASSES_TD
