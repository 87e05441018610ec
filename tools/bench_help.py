#!/usr/bin/env python3
"""Benchmark the help compiler on a ~25,000-element book and on a three-version merge.

    python3 tools/bench_help.py [--scale 25000] [--data DIR]

Generates the scaled books once with ../shared/tools/make_help_fixtures.py into a cache folder
(``$V8ATLAS_BENCH_CACHE`` or ~/.cache/v8atlas-bench/help-<scale>), then compiles, each in its own
process so that peak RSS is per run: (1) the newest shcntx book alone, (2) all three shcntx
books merged. Prints wall time, peak RSS, documents and exact-name keys, and how many keys the
merge adds over the newest book alone. Numbers are printed, never asserted.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
GENERATOR = REPO.parent / "shared" / "tools" / "make_help_fixtures.py"

_CHILD = r"""
import json, resource, sys, time
from v8atlas.compiler.pipeline import compile_bundle
t0 = time.perf_counter()
res = compile_bundle(sys.argv[2:], sys.argv[1], cache=False, quiet=True)
dt = time.perf_counter() - t0
print(json.dumps({"seconds": round(dt, 2), "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
                  "documents": res.counts.get("documents"), "names": res.counts.get("names"),
                  "timings": res.report.timings, "errors": len(res.report.errors)}))
"""


def _run(out: Path, sources: list[Path]) -> dict:
    proc = subprocess.run([sys.executable, "-c", _CHILD, str(out), *map(str, sources)],
                          capture_output=True, text=True, check=True)
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scale", type=int, default=25000)
    ap.add_argument("--data", type=Path, help="folder with <version>/shcntx_ru.hbk books (skips generation)")
    args = ap.parse_args(argv)
    data = args.data or Path(os.environ.get("V8ATLAS_BENCH_CACHE") or Path.home() / ".cache" / "v8atlas-bench") \
        / f"help-{args.scale}"
    books = sorted(data.glob("*/shcntx_ru.hbk"))
    if not books:
        if not GENERATOR.is_file():
            print(f"error: {GENERATOR} not found; pass --data", file=sys.stderr)
            return 2
        print(f"generating {data} (--scale {args.scale}) …", file=sys.stderr)
        subprocess.run([sys.executable, str(GENERATOR), str(data), "--scale", str(args.scale)], check=True,
                       stdout=subprocess.DEVNULL)
        books = sorted(data.glob("*/shcntx_ru.hbk"))
    newest = max(books, key=lambda p: p.stat().st_size)
    with tempfile.TemporaryDirectory() as tmp:
        alone = _run(Path(tmp) / "a", [newest])
        merged = _run(Path(tmp) / "b", books)
    growth_docs = (merged["documents"] - alone["documents"]) / alone["documents"] * 100
    growth_names = (merged["names"] - alone["names"]) / alone["names"] * 100
    print(f"book: {newest} ({newest.stat().st_size / 1e6:.1f} MB)")
    print(f"newest book alone : {alone['seconds']:6.2f} s, peak RSS {alone['peak_rss_mb']} MB, "
          f"{alone['documents']} documents, {alone['names']} name keys")
    print(f"3 versions merged : {merged['seconds']:6.2f} s, peak RSS {merged['peak_rss_mb']} MB, "
          f"{merged['documents']} documents, {merged['names']} name keys")
    print(f"merge adds {growth_docs:+.2f} % documents, {growth_names:+.2f} % name keys over the newest book alone")
    print(json.dumps({"alone": alone, "merged": merged}, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
