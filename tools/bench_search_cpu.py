#!/usr/bin/env python3
"""Per-query CPU time of search, the scheduler's noise left out:

    python tools/bench_search_cpu.py BUNDLES SET [SET …] [--runs 15] [--disable SIGNAL …]
        [--domain metadata] [--slowest N]

Each query of the sets runs ``--runs`` times; its CPU time (``time.process_time_ns``) is the
minimum of those runs, so other processes on a shared machine barely move it. Prints p50/p99 of
the per-query minima and, for comparison, p50/p99 of the wall time of all runs. ``--disable``
switches query-time signals off (server/search.py SIGNALS) to see what each one costs.
``--domain metadata`` runs every query as ``search_metadata`` does (that domain only, whatever the
set says); ``--slowest N`` lists the N queries of the highest CPU time (what sets the p99).
"""
from __future__ import annotations

import time
from pathlib import Path

import click

from v8atlas.formats.publish import resolve_bundle_path
from v8atlas.formats.reader import Bundle
from v8atlas.server.search import SIGNALS, Searcher
from v8atlas.server.search_bench import load_set


def _pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))] if s else 0.0


@click.command()
@click.argument("bundles", type=click.Path(exists=True, path_type=Path))
@click.argument("sets", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--runs", default=15, show_default=True)
@click.option("--disable", multiple=True, type=click.Choice(SIGNALS))
@click.option("--domain", "domain", default=None, help="search this domain only (metadata: as search_metadata)")
@click.option("--slowest", default=0, show_default=True, help="list the N slowest queries")
def main(bundles: Path, sets: tuple[Path, ...], runs: int, disable: tuple[str, ...], domain: str | None,
         slowest: int) -> None:
    searcher = Searcher(Bundle.open(resolve_bundle_path(bundles)), disabled=disable)
    cases = [c for s in sets for c in load_set(s)]
    cpu: list[float] = []
    wall: list[float] = []
    for c in cases:
        best = None
        for _ in range(runs):
            t0, w0 = time.process_time_ns(), time.perf_counter()
            searcher.search(c.query, config=c.config, domains=[domain] if domain else c.domains, limit=10)
            t1, w1 = time.process_time_ns(), time.perf_counter()
            best = t1 - t0 if best is None else min(best, t1 - t0)
            wall.append((w1 - w0) * 1000)
        cpu.append((best or 0) / 1e6)
    click.echo(f"{len(cases)} queries; CPU, minimum of {runs} runs: p50 {_pct(cpu, .5):.3f} ms, "
               f"p99 {_pct(cpu, .99):.3f} ms; wall, all runs: p50 {_pct(wall, .5):.3f} ms, "
               f"p99 {_pct(wall, .99):.3f} ms")
    for ms, c in sorted(zip(cpu, cases), key=lambda x: -x[0])[:slowest]:
        click.echo(f"  {ms:.3f} ms  {c.query}")


if __name__ == "__main__":
    main()
