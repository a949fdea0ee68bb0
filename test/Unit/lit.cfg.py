# -*- Python -*-
# Runs the GoogleTest binaries under <build>/unittests, one lit test per case.

import os

import lit.formats

config.name = "PP-Unit"
config.suffixes = []
config.test_exec_root = os.path.join(config.pp_obj_root, "unittests")
config.test_source_root = config.test_exec_root
config.test_format = lit.formats.GoogleTest(".", "Tests")
# scripts/sanitize.sh turns the runtime's block cache off (PPRT_BLOCK_CACHE=0)
# so that every large free reaches the allocator.
if "PPRT_BLOCK_CACHE" in os.environ:
    config.environment["PPRT_BLOCK_CACHE"] = os.environ["PPRT_BLOCK_CACHE"]
