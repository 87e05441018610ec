#!/usr/bin/env python3
"""Check that the compiled BSL scanner gives the Python scanner's procedure model.

    python tools/check_scanner.py SOURCE [SOURCE …]

Each SOURCE (a Designer dump folder or an EDT project) is read twice as a compile reads it (over
the pool): with lexer.py's Python scanner (the reference) and with the compiled one
(compiler/code/_bslscan.c), each in a process of its own (``V8ATLAS_PURE_SCANNER``: the pool's
workers are forked once, so a switch inside one process would not reach them). Printed for
each: the sha256 of ``json.dumps(code_dict(model), sort_keys=True, ensure_ascii=False)``
(compiler/code/read.py) and of the read's report, and the read's time. Exit status 0 when every
source gives equal hashes, 1 when one differs, 2 when the compiled scanner is not built (a
machine without a C compiler: nothing to compare), 3 when a child read fails or does not scan as
asked (its stderr is printed).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from v8atlas.compiler.code import lexer
from v8atlas.compiler.code.read import code_dict, read_code
from v8atlas.compiler.config.plugin import open_source, read_configuration
from v8atlas.compiler.report import CompileReport


def model_hashes(path: Path) -> tuple[str, str, int, float]:
    """(code_dict's hash, the report's hash, procedures, the code read's seconds) of ``path``."""
    report = CompileReport()
    cfg = read_configuration(path, report)
    t0 = time.perf_counter()
    model = read_code(open_source(path)[1], cfg, str(path), report)
    took = time.perf_counter() - t0
    model_json = json.dumps(code_dict(model), sort_keys=True, ensure_ascii=False).encode()
    report_json = json.dumps([[w.as_dict() for w in report.warnings], [w.as_dict() for w in report.errors]],
                             sort_keys=True, ensure_ascii=False).encode()
    procs = sum(len(m.procedures) for m in model.modules)
    return hashlib.sha256(model_json).hexdigest()[:16], hashlib.sha256(report_json).hexdigest()[:16], procs, took


class ChildFailed(Exception):
    """A child read that failed or printed no hashes (its stderr in the message)."""


def _read_in_child(path: Path, compiled: bool) -> tuple[str, str, int, float, bool]:
    env = {**os.environ, "V8ATLAS_PURE_SCANNER": "0" if compiled else "1"}
    run = subprocess.run([sys.executable, __file__, "--one", str(path)], env=env, capture_output=True, text=True)
    lines = run.stdout.splitlines()
    if run.returncode != 0 or not lines:
        raise ChildFailed(f"the {'compiled' if compiled else 'python'} read of {path} failed (exit status "
                          f"{run.returncode}); its stderr:\n{run.stderr.rstrip()}")
    return tuple(json.loads(lines[-1]))  # type: ignore[return-value]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("sources", nargs="+", type=Path)
    ap.add_argument("--one", action="store_true", help="read one source in this process, print its hashes (JSON)")
    args = ap.parse_args(argv)
    if args.one:
        print(json.dumps([*model_hashes(args.sources[0]), lexer._scan is lexer.scan_module_pure]))
        return 0
    if lexer._compiled is None:
        print("the compiled scanner is not built here (or V8ATLAS_PURE_SCANNER is set): nothing to compare")
        return 2
    differ = False
    for path in args.sources:
        got = {}
        for name, compiled in (("python", False), ("compiled", True)):
            try:
                model, report, procs, took, pure = got[name] = _read_in_child(path, compiled)
            except ChildFailed as e:
                print(e, file=sys.stderr)
                return 3
            if pure == compiled:      # e.g. a stale build the child left unused (its warning above)
                print(f"{path}: the {name} child did not scan as asked (it scanned "
                      f"{'in Python' if pure else 'compiled'})", file=sys.stderr)
                return 3
            print(f"{path} {name:8} code_dict {model} report {report} ({procs} procedures, "
                  f"read in {took:.2f} s wall)", flush=True)
        same = got["python"][:3] == got["compiled"][:3]
        differ |= not same
        print(f"{path}: {'equal' if same else 'DIFFERENT'}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
