#!/usr/bin/env python3
"""Benchmarks of the code domain (docs/perf/code.md). Prints numbers; asserts nothing.

    python tools/bench_code.py DUMP [--copies N] [--calls 2000]

1. cold compile of DUMP without and with the code domain (wall and CPU seconds, the code
   domain's stage timings), then a no-change recompile;
2. the code segments' size per MB of BSL;
3. in-process latency of ``search_code`` (the phrasing sets in tests/search_sets/code/*.tsv)
   and ``get_procedure`` (every exported procedure's address, shuffled; then with
   ``detail=body``; every module's listing, ``ОбщегоНазначения``'s alone), p50/p99;
4. private memory (RssAnon) of the process after those calls, against after opening.
``--latency BUNDLE`` runs only 3-4 in a fresh process. ``--copies N`` compiles N copies of
DUMP side by side (v8atlas.toml names them) instead.
"""
from __future__ import annotations

import argparse
import os
import random
import resource
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from v8atlas.compiler.pipeline import compile_bundle
from v8atlas.formats import registry
from v8atlas.formats.reader import Bundle

REPO = Path(__file__).resolve().parent.parent


def _cpu() -> float:
    s, c = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return s.ru_utime + s.ru_stime + c.ru_utime + c.ru_stime


def _rss_anon_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("RssAnon:"):
            return int(line.split()[1]) / 1024
    return 0.0


def _compile(sources: list[Path], out: Path) -> tuple[float, float, object]:
    t0, c0 = time.perf_counter(), _cpu()
    r = compile_bundle(sources, out, quiet=True)
    return time.perf_counter() - t0, _cpu() - c0, r


def _sources(dump: Path, copies: int, work: Path) -> list[Path]:
    if copies <= 1:
        return [dump]
    lines = []
    for i in range(copies):
        d = work / f"copy{i}"
        shutil.copytree(dump, d, symlinks=True)
        lines += ["[[configuration]]", f'source = "copy{i}"', f'name = "copy{i}"', ""]
    (work / "v8atlas.toml").write_text("\n".join(lines), encoding="utf-8")
    return [work / "v8atlas.toml"]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dump", type=Path, help="a dump; or, with --latency, a bundle folder")
    ap.add_argument("--latency", action="store_true", help="only step 3-4, on the bundle given")
    ap.add_argument("--copies", type=int, default=1)
    ap.add_argument("--calls", type=int, default=2000)
    args = ap.parse_args(argv)
    if args.latency:        # a fresh process: memory figures are the server's, not a compile's
        print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
        latency(args.dump, args.calls)
        return 0
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        sources = _sources(args.dump, args.copies, work)
        bsl = sum(p.stat().st_size for p in args.dump.rglob("*.bsl")) * max(1, args.copies)
        code_reg = next(r for r in registry.registrations() if r.name == "code")
        registry.unregister("code")
        try:
            wall0, cpu0, _ = _compile(sources, work / "without")
        finally:
            registry.register(code_reg)
        wall1, cpu1, res = _compile(sources, work / "with")
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        t0 = time.perf_counter()
        again = compile_bundle(sources, work / "with", quiet=True)
        nochange = time.perf_counter() - t0
        timings = {k: v for k, v in res.report.timings.items() if "code" in k}
        print(f"BSL: {bsl / 1e6:.1f} MB in {args.copies} cop{'y' if args.copies == 1 else 'ies'}")
        print(f"cold compile without code: {wall0:.2f} s wall, {cpu0:.2f} s CPU")
        print(f"cold compile with code:    {wall1:.2f} s wall, {cpu1:.2f} s CPU "
              f"(+{wall1 - wall0:.2f} s wall, +{cpu1 - cpu0:.2f} s CPU); peak RSS of this process {peak:.0f} MB")
        print(f"code stages: {timings}")
        print(f"no-change recompile: {nochange:.2f} s (reused={again.reused})")
        bundle = Bundle.open(res.bundle_path)
        seg = sum(p.stat().st_size for p in res.bundle_path.iterdir() if p.name.startswith("code."))
        print(f"code segments: {seg / 1e6:.1f} MB = {seg / bsl:.3f} MB per MB of BSL; "
              f"counts {bundle.counts.get('code')}")
        latency(res.bundle_path, args.calls)
    return 0


def _pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))]


def latency(bundle_path: Path, calls: int) -> None:
    from v8atlas.server import tools
    from v8atlas.server.snapshot import Snapshot
    snap = Snapshot(Bundle.open(bundle_path))
    code = snap.code
    base = _rss_anon_mb()
    queries = []
    for f in sorted((REPO / "tests" / "search_sets").glob("code/*.tsv")):
        queries += [ln.split("\t")[0] for ln in f.read_text(encoding="utf-8").splitlines()
                    if ln.strip() and not ln.startswith("#")]
    config = code.configs[0]
    addresses = [code.titles[i] for i in range(len(code)) if code.flags[i] & 1]
    random.Random(1).shuffle(addresses)
    # every module's listing (its exported procedures' cards), ОбщегоНазначения's on its own
    modules = [code.module_cards[m]["address"] for m in range(len(code.module_cards))]
    random.Random(1).shuffle(modules)
    common = [a for a in modules if a == "ОбщегоНазначения"]
    for name, tool, arg, items, extra in (("search_code", "search_code", "query", queries, {}),
                                          ("get_procedure", "get_procedure", "name", addresses, {}),
                                          ("get_procedure body", "get_procedure", "name", addresses,
                                           {"detail": "body"}),
                                          ("module listing", "get_procedure", "name", modules, {}),
                                          ("ОбщегоНазначения listing", "get_procedure", "name", common, {})):
        if not items:
            continue
        times = []
        for i in range(min(calls, max(len(items), 1) * 20)):
            a = {arg: items[i % len(items)], "config": config, **extra}
            t0 = time.perf_counter()
            tools.call(snap, tool, a)
            times.append((time.perf_counter() - t0) * 1000)
        times = times[len(items):] or times     # the first pass warms the mapping
        print(f"{name}: p50 {statistics.median(times):.3f} ms, p99 {_pct(times, 0.99):.3f} ms "
              f"over {len(times)} calls")
    print(f"private memory (RssAnon): {base:.0f} MB after opening → {_rss_anon_mb():.0f} MB after the calls")


if __name__ == "__main__":
    sys.exit(main())
