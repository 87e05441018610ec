#!/usr/bin/env python3
"""Per-query CPU time of search, the scheduler's noise left out:

    python tools/bench_search_cpu.py BUNDLES SET [SET …] [--runs 15] [--disable SIGNAL …]
        [--domain metadata] [--slowest N] [--ref OLD_SEARCH_PY]

Each query of the sets runs ``--runs`` times; its CPU time (``time.process_time_ns``) is the
minimum of those runs, so other processes on a shared machine barely move it. Prints p50/p99 of
the per-query minima and, for comparison, p50/p99 of the wall time of all runs. ``--disable``
switches query-time signals off (server/search.py SIGNALS) to see what each one costs.
``--domain metadata`` runs every query as ``search_metadata`` does (that domain only, whatever the
set says); ``--slowest N`` lists the N queries of the highest CPU time (what sets the p99).
``--cold`` drops what the searcher keeps per word (``Searcher.forget_words``: alternatives,
merged posting runs) before every run, so each run is timed as the first query of its words.
``--ref`` loads another copy of server/search.py (``git show main:server/search.py > /tmp/ref.py``)
and times it on the same bundle in the same process, query by query interleaved with this one:
the before/after pair that a busy machine cannot skew.
"""
from __future__ import annotations

import importlib.util
import sys
import time
from pathlib import Path
from typing import Any

import click

from v8atlas.formats.publish import resolve_bundle_path
from v8atlas.formats.reader import Bundle
from v8atlas.server.search import SIGNALS, Searcher
from v8atlas.server.search_bench import load_set


def _pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))] if s else 0.0


def _reference_searcher(path: Path) -> Any:
    """The Searcher class of another copy of server/search.py (imported as a sibling module, so
    its relative imports resolve to this checkout's formats/ and server/)."""
    spec = importlib.util.spec_from_file_location("v8atlas.server._bench_reference_search", path)
    if spec is None or spec.loader is None:
        raise click.BadParameter(f"{path}: not a Python module", param_hint="--ref")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module.Searcher


@click.command()
@click.argument("bundles", type=click.Path(exists=True, path_type=Path))
@click.argument("sets", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--runs", default=15, show_default=True)
@click.option("--disable", multiple=True, type=click.Choice(SIGNALS))
@click.option("--domain", "domain", default=None, help="search this domain only (metadata: as search_metadata)")
@click.option("--slowest", default=0, show_default=True, help="list the N slowest queries")
@click.option("--cold", is_flag=True, help="drop the per-word caches before every run")
@click.option("--ref", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
              help="another server/search.py to time beside this one, interleaved")
def main(bundles: Path, sets: tuple[Path, ...], runs: int, disable: tuple[str, ...], domain: str | None,
         slowest: int, ref: Path | None, cold: bool) -> None:
    bundle = Bundle.open(resolve_bundle_path(bundles))
    searchers = {"this": Searcher(bundle, disabled=disable)}
    if ref is not None:
        searchers["ref"] = _reference_searcher(ref)(bundle, disabled=disable)
    cases = [c for s in sets for c in load_set(s)]
    cpu: dict[str, list[float]] = {k: [] for k in searchers}
    wall: dict[str, list[float]] = {k: [] for k in searchers}
    for c in cases:
        best: dict[str, int] = {}
        for _ in range(runs):
            for name, searcher in searchers.items():
                if cold and hasattr(searcher, "forget_words"):
                    searcher.forget_words()
                t0, w0 = time.process_time_ns(), time.perf_counter()
                searcher.search(c.query, config=c.config, domains=[domain] if domain else c.domains, limit=10)
                t1, w1 = time.process_time_ns(), time.perf_counter()
                best[name] = min(best.get(name, t1 - t0), t1 - t0)
                wall[name].append((w1 - w0) * 1000)
        for name in searchers:
            cpu[name].append(best[name] / 1e6)
    for name in searchers:
        label = "" if ref is None else f"{name} ({ref if name == 'ref' else 'server/search.py'}): "
        click.echo(f"{label}{len(cases)} queries; CPU, minimum of {runs} runs: p50 {_pct(cpu[name], .5):.3f} ms, "
                   f"p99 {_pct(cpu[name], .99):.3f} ms; wall, all runs: p50 {_pct(wall[name], .5):.3f} ms, "
                   f"p99 {_pct(wall[name], .99):.3f} ms")
    for ms, c in sorted(zip(cpu["this"], cases), key=lambda x: -x[0])[:slowest]:
        click.echo(f"  {ms:.3f} ms  {c.query}")


if __name__ == "__main__":
    main()
