#!/usr/bin/env python3
"""Calibrate the `found` bar of search (server/search.py RELEVANCE_MIN, LEAD_MIN) on tuning halves.

    python tools/calibrate_found.py --pair BUNDLES SET [--pair BUNDLES SET …]

For the first hit of every query: is it right, its relevance (share of the query's words in
its naming fields), its lead over the second hit ((s1 − s2) / s1) and whether it is a guess
anyway (fuzzy). Over a grid of (relevance ≥ r, lead ≥ m) it counts the right decisions —
`found` and right, or `not_found` and wrong — and prints the grid with the best pair first.
A held-out half (``*.holdout.tsv``) is refused: the bar is chosen on tuning halves only
(docs/search.md, "Relevance you can trust").
"""
from __future__ import annotations

from pathlib import Path

import click

from v8atlas.formats.publish import resolve_bundle_path
from v8atlas.formats.reader import Bundle
from v8atlas.server.search import LEAD_MIN, RELEVANCE_MIN, Searcher
from v8atlas.server.search_bench import TOP, load_set

RELEVANCE_GRID = (0.0, 0.2, 0.25, 0.34, 0.4, 0.5, 0.6, 0.67, 0.75, 1.0)
LEAD_GRID = (0.0, 0.01, 0.02, 0.03, 0.05, 0.1, 0.15, 0.2)


def first_hits(searcher: Searcher, set_path: Path) -> list[tuple[bool, float, float, bool, bool]]:
    """(right, relevance, lead, fuzzy, certain) of each query's first hit; certain = exact name or alias."""
    rows = []
    for c in load_set(set_path):
        targets = {d for e in c.expected for d in searcher.catalog.lookup(e)}
        r = searcher.search(c.query, config=c.config, domains=c.domains, limit=TOP)
        if not r.hits:
            rows.append((False, 0.0, 0.0, True, False))
            continue
        h = r.hits[0]
        lead = (h.score - r.hits[1].score) / h.score if len(r.hits) > 1 and h.score > 0 else 1.0
        certain = any(w == "exact name" or w.startswith("alias «") for w in h.why)
        rows.append((h.doc in targets, h.relevance, lead, h.fuzzy, certain))
    return rows


def right_decisions(rows: list[tuple[bool, float, float, bool, bool]], rel: float, lead: float) -> float:
    right = 0
    for ok, relevance, margin, fuzzy, certain in rows:
        found = certain or (not fuzzy and relevance >= rel and margin >= lead)
        right += found == ok
    return right / len(rows) if rows else 0.0


@click.command()
@click.option("--pair", "pairs", nargs=2, multiple=True, required=True,
              type=(click.Path(exists=True, path_type=Path), click.Path(exists=True, path_type=Path)))
def main(pairs: tuple[tuple[Path, Path], ...]) -> None:
    rows: list[tuple[bool, float, float, bool, bool]] = []
    searchers: dict[Path, Searcher] = {}
    for bundles, set_path in pairs:
        if set_path.name.endswith(".holdout.tsv"):
            raise click.UsageError(f"{set_path.name} is a held-out half: the bar is chosen on tuning halves only")
        if bundles not in searchers:
            searchers[bundles] = Searcher(Bundle.open(resolve_bundle_path(bundles)), disabled=("threshold",))
        rows += first_hits(searchers[bundles], set_path)
    grid = sorted(((right_decisions(rows, r, m), r, m) for r in RELEVANCE_GRID for m in LEAD_GRID),
                  key=lambda x: (-x[0], x[1], x[2]))
    click.echo(f"{len(rows)} queries; first hit right: {sum(r[0] for r in rows) / max(len(rows), 1):.3f}")
    click.echo(f"now (relevance ≥ {RELEVANCE_MIN}, lead ≥ {LEAD_MIN}): right decisions "
               f"{right_decisions(rows, RELEVANCE_MIN, LEAD_MIN):.3f}; not fuzzy alone: "
               f"{right_decisions(rows, 0.0, 0.0):.3f}")
    for share, r, m in grid[:12]:
        click.echo(f"  relevance ≥ {r:<4}  lead ≥ {m:<4}  right decisions {share:.3f}")


if __name__ == "__main__":
    main()
