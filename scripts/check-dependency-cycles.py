#!/usr/bin/env python3
"""Checks that the files of a library do not depend on each other in a cycle.

Two graphs per library, each must be acyclic:
- headers: a header includes another of the project's headers;
- sources: a .cpp file calls a function another .cpp file of the library
  defines out of line (`mlir::pp::<ns>::name(`, `pprt::<ns>::name(` or
  `pprt_name(` on a line that starts a definition; names defined in
  several files, such as overloads, are left out; a definition inside a
  `namespace ... {` block is not seen). A cycle (Compile.cpp calls partitionModel in Partition.cpp, which
  calls back into Compile.cpp's buildCutPipeline) means the files are one
  piece of code split in two. docs/Architecture.md says how the libraries
  are layered.

  scripts/check-dependency-cycles.py [--root DIR] [LIBRARY_DIR...]
      (default: every directory under DIR/lib, and DIR/runtime/lib, and
      each of their subdirectories with a CMakeLists.txt of its own; DIR
      is the repository, or --root's)
Prints every cycle with the edges that make it, and exits 1 if there is one.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCE = (".cpp", ".h", ".c")
DEFINITION = re.compile(
    r"^(?=[^\s/#]).*?\b(?:mlir::pp|pprt)::(?:\w+::)*(\w+)\s*\(", re.M)
C_DEFINITION = re.compile(r"^[^\s/#][^;{}()]*?\b(pprt_\w+)\s*\([^;]*$", re.M)
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
STRING = re.compile(r'"(?:\\.|[^"\\\n])*"')


def library_files(directory):
    """The sources of a library directory and its public headers. A
    subdirectory with a CMakeLists.txt of its own is another library
    (sub_libraries())."""
    files = []
    top = os.path.join(ROOT, directory)
    for base, subdirs, names in os.walk(top):
        subdirs[:] = [d for d in subdirs if not os.path.isfile(
            os.path.join(base, d, "CMakeLists.txt"))]
        files += [os.path.join(base, n) for n in names if n.endswith(SOURCE)]
    rel = os.path.relpath(directory, "lib")
    public = os.path.join(ROOT, "include", "pp", rel)
    if not rel.startswith("..") and os.path.isdir(public):
        for base, _, names in os.walk(public):
            files += [os.path.join(base, n) for n in names if n.endswith(".h")]
    return files


def sub_libraries(directory):
    """`directory` and its subdirectories that are libraries of their own."""
    found = []
    for base, _, names in os.walk(os.path.join(ROOT, directory)):
        if base == os.path.join(ROOT, directory) or "CMakeLists.txt" in names:
            found.append(os.path.relpath(base, ROOT))
    return found


def resolve(includer, name):
    """The file an #include "name" in `includer` names, or None."""
    for base in (os.path.dirname(includer), os.path.join(ROOT, "include"),
                 os.path.join(ROOT, "runtime", "include")):
        path = os.path.normpath(os.path.join(base, name))
        if os.path.isfile(path):
            return path
    return None


def graphs(files):
    """(header graph, source graph): node -> {node: why}."""
    text = {}
    for f in files:
        with open(f, encoding="utf-8", errors="replace") as handle:
            text[f] = handle.read()
    rel = {f: os.path.relpath(f, ROOT) for f in files}
    headers = {rel[f]: {} for f in files if f.endswith(".h")}
    for f in files:
        if not f.endswith(".h"):
            continue
        for m in INCLUDE.finditer(text[f]):
            target = resolve(f, m.group(1))
            if target in rel and target.endswith(".h") and target != f:
                headers[rel[f]].setdefault(rel[target], "includes")
    sources = [f for f in files if f.endswith((".cpp", ".c"))]
    defined = {}  # function name -> the sources defining it out of line
    for f in sources:
        for pattern in (DEFINITION, C_DEFINITION):
            for m in pattern.finditer(text[f]):
                defined.setdefault(m.group(1), set()).add(rel[f])
    defined = {n: next(iter(s)) for n, s in defined.items() if len(s) == 1}
    calls = {rel[f]: {} for f in sources}
    if defined:
        call = re.compile(r"\b(" + "|".join(map(re.escape, defined)) +
                          r")\s*\(")
        for f in sources:
            body = STRING.sub('""', COMMENT.sub("", text[f]))
            for m in call.finditer(body):
                target = defined[m.group(1)]
                if target != rel[f]:
                    calls[rel[f]].setdefault(target, "calls " + m.group(1))
    return headers, calls


def cycles(edges):
    """The strongly connected components with more than one unit (Tarjan)."""
    index, low, stack, on, found = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(10000)
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def main():
    global ROOT
    dirs = sys.argv[1:]
    if dirs[:1] == ["--root"] and len(dirs) > 1:
        ROOT = os.path.abspath(dirs[1])
        dirs = dirs[2:]
    if not dirs:
        tops = sorted(os.path.join("lib", d) for d in os.listdir(
            os.path.join(ROOT, "lib")) if os.path.isdir(os.path.join(ROOT, "lib", d)))
        if os.path.isdir(os.path.join(ROOT, "runtime", "lib")):
            tops.append(os.path.join("runtime", "lib"))
        dirs = [d for top in tops for d in sub_libraries(top)]
    status = 0
    for d in dirs:
        for edges in graphs(library_files(d)):
            for component in cycles(edges):
                status = 1
                members = set(component)
                why = "; ".join(f"{x} {edges[x][y]} {y}" for x in component
                                for y in sorted(edges[x]) if y in members)
                print(f"{d}: cycle: {why}")
    if status == 0:
        print(f"no dependency cycles in {len(dirs)} libraries")
    return status


if __name__ == "__main__":
    sys.exit(main())
