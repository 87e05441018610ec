#!/usr/bin/env python3
"""Search quality on the tuning and held-out sets, one line per (bundle, set).

    python tools/eval_search.py --pair BUNDLES SET [--pair BUNDLES SET …] [--misses] [--ablate SIGNAL]

Prints queries, P@1, P@5, MRR and how often the answer is `found` (the searcher is confident)
and right when found. ``--misses`` lists the queries not ranked first — for tuning halves only:
a held-out half (``*.holdout.tsv``) is measured, never inspected query by query, so no rule is
chosen by looking at it (docs/search.md, "Held-out sets").
"""
from __future__ import annotations

from pathlib import Path

import click

from v8atlas.formats.publish import resolve_bundle_path
from v8atlas.formats.reader import Bundle
from v8atlas.server.search import SIGNALS, Searcher
from v8atlas.server.search_bench import TOP, load_set, run_set, summarize


def evaluate(searcher: Searcher, set_path: Path) -> tuple[dict, list[str]]:
    cases = load_set(set_path)
    results, missing = run_set(searcher, cases, rounds=1)
    summary = summarize(results)
    found = right_found = 0
    misses = []
    for r in results:
        res = searcher.search(r.case.query, config=r.case.config, domains=r.case.domains, limit=TOP)
        if res.confident:
            found += 1
            right_found += r.rank == 1
        if r.rank != 1:
            misses.append(f"  {r.case.query!r}: rank {r.rank or '—'}, first {r.first}"
                          f"{'' if res.confident else ' (not_found)'}")
    n = summary.get("queries", 0) or 1
    summary["found"] = round(found / n, 3)
    summary["found_right"] = round(right_found / found, 3) if found else None
    summary["missing_targets"] = len(missing)
    return summary, misses


@click.command()
@click.option("--pair", "pairs", nargs=2, multiple=True, required=True,
              type=(click.Path(exists=True, path_type=Path), click.Path(exists=True, path_type=Path)))
@click.option("--misses", is_flag=True, help="List the queries not ranked first (tuning halves only).")
@click.option("--ablate", "ablate", multiple=True, type=click.Choice(SIGNALS),
              help="Switch a query-time signal off (compile-time ones: V8ATLAS_SEARCH_ABLATE).")
def main(pairs: tuple[tuple[Path, Path], ...], misses: bool, ablate: tuple[str, ...]) -> None:
    searchers: dict[Path, Searcher] = {}
    click.echo(f"{'set':34} {'n':>3} {'P@1':>6} {'P@5':>6} {'MRR':>6} {'found':>6} {'f.right':>7}")
    for bundles, set_path in pairs:
        if bundles not in searchers:
            searchers[bundles] = Searcher(Bundle.open(resolve_bundle_path(bundles)), disabled=ablate)
        s, miss = evaluate(searchers[bundles], set_path)
        fr = "—" if s["found_right"] is None else f"{s['found_right']:.3f}"
        click.echo(f"{set_path.name:34} {s['queries']:>3} {s['p@1']:>6.3f} {s['p@5']:>6.3f} "
                   f"{s['mrr']:>6.3f} {s['found']:>6.3f} {fr:>7}"
                   + (f"  ({s['missing_targets']} targets missing)" if s["missing_targets"] else ""))
        if misses and not set_path.name.endswith(".holdout.tsv"):
            for m in miss:
                click.echo(m)


if __name__ == "__main__":
    main()
