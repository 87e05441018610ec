"""`v8atlas bench …`: benchmarks that print numbers (never asserts)."""
from __future__ import annotations

from v8atlas.cli import LazyGroup

import click

BENCHES = {
    "bundle": "v8atlas.formats.bench:bench_bundle_cmd",
    "search": "v8atlas.server.search_bench:bench_search_cmd",
}


@click.group(cls=LazyGroup, lazy=BENCHES)
def bench_group() -> None:
    """Benchmarks: print figures for docs/performance.md."""
