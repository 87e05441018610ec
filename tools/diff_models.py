#!/usr/bin/env python3
"""Print the differences between the models of two configuration sources.

    python tools/diff_models.py A B [--limit N] [--summary]

A and B are configuration sources (Designer dump folder/zip, EDT project). Both are read into
the model (compiler/config/model.py) with their forms, composition schemas and roles
(compiler/forms/, under ``ui/``), turned into format-neutral dicts
(compiler/config/normalize.py, compiler/forms/normalize.py) and compared; with ``--code`` the
procedure models of their modules are compared instead (compiler/code/read.py ``code_dict``:
every procedure's signature, context, doc comment, calls and usages); each difference is one line
``path: A=… B=…`` / ``path: only in A``. Exit status 0 when equal, 1 when they differ, 2 when
a source cannot be read (the message names it).
"""
from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from pathlib import Path

from v8atlas.compiler.config.normalize import config_dict, diff
from v8atlas.compiler.config.plugin import ConfigSourceError, open_source, read_configuration
from v8atlas.compiler.forms.normalize import ui_dict
from v8atlas.compiler.forms.read import read_ui
from v8atlas.compiler.report import CompileReport


def source_dict(path: Path) -> dict:
    """The configuration model and its forms, schemas and roles, format-neutral."""
    report = CompileReport()
    cfg = read_configuration(path, report)
    ui = read_ui(open_source(path)[1], cfg, str(path), report)
    return {**config_dict(cfg), "ui": ui_dict(ui)}


def model_diff(a: Path, b: Path) -> list[str]:
    return sorted(diff(source_dict(a), source_dict(b)))


def code_diff(a: Path, b: Path) -> list[str]:
    from v8atlas.compiler.code.read import code_dict, read_code
    dicts = []
    for p in (a, b):
        cfg = read_configuration(p, CompileReport())
        dicts.append(code_dict(read_code(open_source(p)[1], cfg, str(p), CompileReport())))
    return sorted(diff(*dicts))


def _readable(paths: list[Path]) -> bool:
    """Each source opens as a configuration; else say which and why (the message does not
    repeat the path)."""
    for p in paths:
        try:
            read_configuration(p, CompileReport())
        except ConfigSourceError as e:
            print(f"error: {p}: {e}", file=sys.stderr)
            return False
    return True


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("a", type=Path)
    ap.add_argument("b", type=Path)
    ap.add_argument("--limit", type=int, default=200, help="lines to print (default 200)")
    ap.add_argument("--summary", action="store_true", help="count differences by property path")
    ap.add_argument("--code", action="store_true", help="compare the procedure models of the modules")
    args = ap.parse_args(argv)
    try:
        lines = (code_diff if args.code else model_diff)(args.a, args.b)
    except ConfigSourceError:
        _readable([args.a, args.b])
        return 2
    if args.summary:
        c = Counter(re.sub(r"\[\d+\]", "[]", re.sub(r"^(objects|ui/\w+)/[^/]+", r"\1/*", x.split(": ")[0]))
                    for x in lines)
        for k, n in c.most_common():
            print(f"{n:6d}  {k}")
    else:
        for line in lines[: args.limit]:
            print(line)
        if len(lines) > args.limit:
            print(f"… and {len(lines) - args.limit} more")
    print(f"{len(lines)} difference(s)", file=sys.stderr)
    return 1 if lines else 0


if __name__ == "__main__":
    sys.exit(main())
