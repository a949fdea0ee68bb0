#!/usr/bin/env python3
"""Writes the PTX held by the gpu.binary ops of an MLIR module.

pp-opt -pp-lower-stages-to-gpu leaves each kernel module as
  gpu.binary @name [#gpu.object<#nvvm.target<...>, ..., assembly = "...">]
This prints the decoded assembly strings (one per object, in order), or with
-o DIR writes DIR/<name>.ptx (DIR is created) for each binary. Reads a file or stdin.
"""
import argparse
import os
import re
import sys

BINARY = re.compile(r'gpu\.binary\s+@([\w$.]+)')
ASSEMBLY = re.compile(r'assembly\s*=\s*"((?:[^"\\]|\\.)*)"')


def decode(text):
    """Undoes MLIR's string escapes (\\XX hex, \\\\, \\", \\n, \\t)."""
    out = bytearray()
    i = 0
    while i < len(text):
        c = text[i]
        if c != '\\':
            out += c.encode()
            i += 1
            continue
        nxt = text[i + 1]
        if nxt in '\\"':
            out += nxt.encode()
            i += 2
        elif nxt == 'n':
            out += b'\n'
            i += 2
        elif nxt == 't':
            out += b'\t'
            i += 2
        else:
            out.append(int(text[i + 1:i + 3], 16))
            i += 3
    return out.decode()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('input', nargs='?', default='-')
    parser.add_argument('-o', '--output-dir')
    args = parser.parse_args()
    source = sys.stdin.read() if args.input == '-' else open(args.input).read()
    if args.output_dir:
        os.makedirs(args.output_dir, exist_ok=True)
    found = 0
    for line in source.splitlines():
        binary = BINARY.search(line)
        if not binary:
            continue
        for index, match in enumerate(ASSEMBLY.finditer(line)):
            ptx = decode(match.group(1))
            found += 1
            if args.output_dir:
                suffix = '' if index == 0 else '.%d' % index
                path = os.path.join(args.output_dir,
                                    binary.group(1) + suffix + '.ptx')
                with open(path, 'w') as f:
                    f.write(ptx)
                print(path)
            else:
                sys.stdout.write(ptx)
    if not found:
        sys.exit('extract-ptx: no gpu.binary with an assembly string')


if __name__ == '__main__':
    main()
