#!/usr/bin/env python3
"""Benchmark forms, composition schemas and roles (compiler/forms): parse cost, whole-compile
growth, the no-change recompile and the largest form's answer.

    python tools/bench_forms.py [--copies 1,4,12] [--source DUMP] [--baseline PKG] [--skip-parse]

* in one process on SSL 3.1.12: the configuration read, then ``read_ui`` (forms, schemas and
  rights) — the parse cost forms add;
* ``v8atlas compile`` of SSL × N (objects *with* their form, template and rights bodies and
  form modules copied under new names) in a child: wall time and peak RSS of the whole
  compile, then the same compile again (no change);
* the largest form's ``get_object detail=full``: pages under the size cap;
* ``--baseline PKG``: the cold compile of the source by another v8atlas (a folder holding a
  ``v8atlas`` package built from another checkout, put first on PYTHONPATH), alternated with
  this one twice: the cost forms add to the whole compile.

Wall times depend on the machine's load; the CPU time (user + system of every process of the
compile) much less, so both are printed.
"""
from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO / "tools"))

from bench_config import compile_once, replicate  # noqa: E402

# Bodies the forms domain reads stay; pictures, help and binary parts do not matter here.
_SKIP = shutil.ignore_patterns("Picture.*", "*.png", "*.bin", "Help", "Help.xml", "*.html", "*.zip")


def parse_split(src: Path) -> None:
    from v8atlas.compiler.config.plugin import open_source, read_configuration
    from v8atlas.compiler.forms.read import read_ui
    from v8atlas.compiler.report import CompileReport
    report = CompileReport()
    t = time.perf_counter()
    cfg = read_configuration(src, report)
    t1 = time.perf_counter()
    ui = read_ui(open_source(src)[1], cfg, "src", report)
    t2 = time.perf_counter()
    print(f"configuration read {t1 - t:6.2f} s ({len(cfg.objects)} objects); forms/schemas/roles read "
          f"{t2 - t1:6.2f} s ({len(ui.forms)} forms, {sum(t.schema is not None for t in ui.templates)} schemas, "
          f"{len(ui.roles)} roles; form modules are the code domain's)")


def largest_answer(bundles: Path) -> None:
    from v8atlas.formats import Bundle
    from v8atlas.formats.publish import resolve_bundle_path
    from v8atlas.server import tools
    from v8atlas.server.snapshot import Snapshot
    snap = Snapshot(Bundle.open(resolve_bundle_path(bundles)))
    for name in ("ОбщаяФорма.ФормаНастроекОтчета", "Справочник.РассылкиОтчетов.Форма.ФормаЭлемента"):
        cursor, sizes = None, []
        t = time.perf_counter()
        while True:
            r = tools.call(snap, "get_object", {"name": name, "detail": "full", **({"cursor": cursor} if cursor else {})})
            sizes.append(len(r.text))
            cursor = r.data.get("cursor")
            if not cursor:
                break
        print(f"{name}: {len(sizes)} page(s), largest {max(sizes)} chars, "
              f"{(time.perf_counter() - t) * 1000 / len(sizes):.1f} ms a page")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--copies", default="1,4,12")
    ap.add_argument("--source", type=Path)
    ap.add_argument("--baseline", type=Path, help="folder with another checkout's v8atlas package")
    ap.add_argument("--skip-parse", action="store_true")
    args = ap.parse_args()
    if args.source:
        src = args.source
    else:
        from realdata import extracted
        src = extracted("configs/ssl-3.1-designer/ssl_3_1-src-cf-3.1.12.238.tar.zst") / "src/cf"
    if not args.skip_parse:
        parse_split(src)
    with tempfile.TemporaryDirectory() as tmp:
        if args.baseline:
            env = dict(os.environ, PYTHONPATH=str(args.baseline))
            for i in range(2):
                for label, kw in (("baseline", {"env": env}), ("this", {})):
                    m = compile_once(src, Path(tmp) / f"b-{label}-{i}", **kw)
                    print(f"{label:8s} cold compile {m['wall_s']:6.2f} s wall, {m['cpu_s']:6.2f} s CPU, "
                          f"peak RSS {m['peak_rss_mb']:5d} MB", flush=True)
        for n in [int(x) for x in args.copies.split(",") if x]:
            path = src if n == 1 else replicate(src, n, Path(tmp) / f"x{n}", ignore=_SKIP)
            out = Path(tmp) / f"bundles-{n}"
            cold = compile_once(path, out)
            again = compile_once(path, out)
            print(f"SSL ×{n:<3d} cold compile {cold['wall_s']:6.2f} s wall, {cold['cpu_s']:6.2f} s CPU, "
                  f"peak RSS {cold['peak_rss_mb']:5d} MB; no-change {again['wall_s']:5.2f} s wall, "
                  f"{again['cpu_s']:5.2f} s CPU ({again['result']})", flush=True)
            if n == 1:
                largest_answer(out)
            if n != 1:
                shutil.rmtree(path)
            shutil.rmtree(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
