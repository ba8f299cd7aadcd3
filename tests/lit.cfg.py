# Root lit configuration: IR tests under lit/ (ShTest + FileCheck) and the
# GoogleTest units under unit/ (see unit/lit.local.cfg).
import os
import lit.formats
from lit.llvm import llvm_config

config.name = "TLE"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".py", ".yaml", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tle_obj_root, "tests")
config.excludes = ["lit.cfg.py", "lit.site.cfg.py", "Inputs", "CMakeLists.txt", "fuzz",
                   # GPU scripts run through the device tool, not lit.
                   "gpu"]

config.substitutions.append(("%shlibext", config.shlibext))
config.substitutions.append(("%tle_src", config.tle_src_root))
config.substitutions.append(("%tle_obj", config.tle_obj_root))

llvm_config.use_default_substitutions()
# Prepend our tools and LLVM's (FileCheck, not) to the inherited PATH.
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.tle_tools_dir, append_path=True)
llvm_config.add_tool_substitutions(
    ["tle-opt", "tlec", "tle-hwdesc", "tle-run", "tle-reference",
     "tle-lite-reference"], [config.tle_tools_dir])

# tlec's compile cache: one per build tree, emptied at the start of each lit
# run, so that tests never depend on (or fill) the user's ~/.cache/tle and a
# run starts cold. Tests about the cache name their own --cache-dir.
import shutil
tle_test_cache = os.path.join(config.tle_obj_root, "tests", "tle-cache")
shutil.rmtree(tle_test_cache, ignore_errors=True)
config.environment["TLE_CACHE_DIR"] = tle_test_cache
