#!/usr/bin/env python3
"""Checks that every repository path the docs and comments name exists.

Scans README.md, docs/**/*.md, bench/README.md, runtime/README.md and the
comments of the C++, TableGen, CMake, Python and shell sources for words
that start with one of the repository's top-level directories (lib/,
include/, docs/, test/, ...) and reports those that name no file or
directory. Paths with placeholders (<name>, *, ..., {a,b}, $VAR) are
skipped, and so are paths under build/ or ../shared; a path may also be
relative to the directory of the file that names it (runtime/README.md);
"file.py:factory" and "file:line" name the file.

    scripts/check-doc-paths.py [ROOT]

Exit status 0 when every path exists, 1 otherwise (one line per path:
file:line: path).
"""

import os
import re
import sys

TOP = ("lib", "include", "docs", "test", "integration_test", "tools",
       "runtime", "scripts", "bench", "examples", "python", "unittests",
       "fuzz", "cmake")
PATH = re.compile(r"(?<![\w./-])((?:%s)/[^\s`'\")\]|]*)" % "|".join(TOP))
PLACEHOLDER = set("*{}<>$%")
SOURCE_EXT = (".cpp", ".h", ".td", ".py", ".sh", ".txt", ".cmake", ".mlir",
              ".test")
SKIP_DIRS = {"build", ".git", ".venv-torch", "shared", "__pycache__"}


def comment_lines(path, text):
    """The lines of `text` that are comments (or all, for Markdown)."""
    for number, line in enumerate(text.splitlines(), 1):
        if path.endswith(".md"):
            yield number, line
            continue
        stripped = line.strip()
        for marker in ("//", "#"):
            at = line.find(marker)
            # A comment line, or a trailing comment ("// ", "# ").
            if at >= 0 and (stripped.startswith(marker) or
                            line.startswith(marker + " ", at)):
                yield number, line[at:]
                break


def files(root):
    for top in ["README.md", "docs", "bench", "runtime", "lib", "include",
                "tools", "scripts", "python", "unittests", "fuzz", "cmake",
                "test", "integration_test", "examples", "CMakeLists.txt"]:
        path = os.path.join(root, top)
        if os.path.isfile(path):
            yield path
            continue
        for base, dirs, names in os.walk(path):
            dirs[:] = [d for d in dirs if d not in SKIP_DIRS]
            for name in names:
                if name.endswith(".md") or name.endswith(SOURCE_EXT) or \
                        name == "CMakeLists.txt":
                    yield os.path.join(base, name)


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                           os.path.join(os.path.dirname(__file__), ".."))
    missing = []
    for path in files(root):
        try:
            text = open(path, encoding="utf-8").read()
        except (UnicodeDecodeError, OSError):
            continue
        rel = os.path.relpath(path, root)
        for number, line in comment_lines(path, text):
            for match in PATH.finditer(line):
                word = match.group(1).rstrip(".,;:")
                # file.py:factory (pp-import-torch), file:line
                word = word.split(":")[0]
                if PLACEHOLDER & set(word) or "..." in word:
                    continue
                before = line[max(0, match.start() - 6):match.start()]
                if before.endswith("../") or before.endswith("build/"):
                    continue
                here = os.path.dirname(path)
                if not (os.path.exists(os.path.join(root, word)) or
                        os.path.exists(os.path.join(here, word))):
                    missing.append("%s:%d: %s" % (rel, number, word))
    for m in missing:
        print(m)
    print("check-doc-paths: %d missing path(s)" % len(missing))
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
