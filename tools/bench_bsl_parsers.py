#!/usr/bin/env python3
"""Compare the code domain's BSL scanner with tree-sitter-bsl on a dump's modules.

    python tools/bench_bsl_parsers.py DUMP [--limit N] [--tree-sitter-python PATH]

Prints, for both: CPU seconds (process time, so a loaded machine skews it less than wall time),
MB/s, procedures found, and for tree-sitter the files whose tree has ERROR nodes. tree-sitter
is not a project dependency: it runs in the interpreter given by ``--tree-sitter-python`` (a
venv with ``pip install tree-sitter tree-sitter-bsl``), or is skipped with a note.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

_TS_SCRIPT = r"""
import json, sys, time
import tree_sitter, tree_sitter_bsl
lang = tree_sitter.Language(tree_sitter_bsl.language())
parser = tree_sitter.Parser(lang)
files = json.load(sys.stdin)
t0 = time.process_time()
errors = procs = size = 0
for f in files:
    data = open(f, "rb").read()
    size += len(data)
    tree = parser.parse(data)
    errors += tree.root_node.has_error
    procs += sum(1 for c in tree.root_node.children
                 if c.type in ("procedure_definition", "function_definition"))
print(json.dumps({"cpu": time.process_time() - t0, "files_with_errors": errors, "procedures": procs,
                  "bytes": size}))
"""


def scanner(files: list[Path]) -> dict:
    from v8atlas.compiler.code.lexer import decode_module, scan_module
    datas = [f.read_bytes() for f in files]
    t0 = time.process_time()
    procs = problems = 0
    for d in datas:
        text, problem = decode_module(d)
        if problem:
            problems += 1
            continue
        r = scan_module(text)
        procs += len(r.procedures)
        problems += bool(r.problems)
    return {"cpu": time.process_time() - t0, "files_with_problems": problems, "procedures": procs,
            "bytes": sum(map(len, datas))}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dump", type=Path)
    ap.add_argument("--limit", type=int, default=0, help="first N modules only (0 = all)")
    ap.add_argument("--tree-sitter-python", default=os.environ.get("TREE_SITTER_PYTHON", ""),
                    help="python of a venv with tree-sitter and tree-sitter-bsl")
    args = ap.parse_args(argv)
    files = sorted(args.dump.rglob("*.bsl"))
    if args.limit:
        files = files[:args.limit]
    print(f"{len(files)} modules; load average {os.getloadavg()[0]:.1f}")
    s = scanner(files)
    print(f"scanner:     {s['cpu']:.2f} s CPU, {s['bytes'] / 1e6 / s['cpu']:.1f} MB/s, "
          f"{s['procedures']} procedures, {s['files_with_problems']} files with problems")
    if args.tree_sitter_python:
        out = subprocess.run([args.tree_sitter_python, "-c", _TS_SCRIPT], input=json.dumps([str(f) for f in files]),
                             capture_output=True, text=True, check=False)
        if out.returncode:
            print(f"tree-sitter: failed: {out.stderr.strip()[-300:]}")
        else:
            t = json.loads(out.stdout)
            print(f"tree-sitter: {t['cpu']:.2f} s CPU, {t['bytes'] / 1e6 / t['cpu']:.1f} MB/s, "
                  f"{t['procedures']} top-level procedures, {t['files_with_errors']} files with ERROR nodes")
    else:
        print("tree-sitter: skipped (pass --tree-sitter-python)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
