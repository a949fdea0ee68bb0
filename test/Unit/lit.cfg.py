# -*- Python -*-
# Runs the GoogleTest binaries under <build>/unittests, one lit test per case.

import os

import lit.formats

config.name = "PP-Unit"
config.suffixes = []
config.test_exec_root = os.path.join(config.pp_obj_root, "unittests")
config.test_source_root = config.test_exec_root
config.test_format = lit.formats.GoogleTest(".", "Tests")
