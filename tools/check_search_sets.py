#!/usr/bin/env python3
"""Every expected name of a query set exists: python tools/check_search_sets.py --bundles DIR SET...

Each alternative of each line (not only one of them) must resolve through the bundle's
exact-name table, in the line's configuration when it names one; a set whose author mistyped
a target would otherwise count that line as "not in the bundle" and quietly shrink. Exit 1
names every line and alternative that is absent. Compile the dump the set was written for
(docs/search.md, "Held-out sets", says which repository and commit) and point --bundles at it.
"""
from __future__ import annotations

import sys
from pathlib import Path

import click

from v8atlas.formats.catalog import Catalog
from v8atlas.formats.publish import resolve_bundle_path
from v8atlas.formats.reader import Bundle
from v8atlas.server.search_bench import load_set


def missing_names(catalog: Catalog, path: Path) -> list[str]:
    """``file:line: name`` for every expected alternative the bundle does not hold."""
    out = []
    for case in load_set(path):
        for name in case.expected:
            docs = [d for d in catalog.lookup(name)
                    if case.config is None or catalog.config_name(d) in (None, case.config)]
            if not docs:
                out.append(f"{path}:{case.line}: {name!r} (query {case.query!r}) is not in the bundle"
                           + (f" for configuration {case.config!r}" if case.config else ""))
    return out


@click.command()
@click.option("--bundles", "bundles", required=True, type=click.Path(exists=True, path_type=Path))
@click.argument("sets", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path))
def main(bundles: Path, sets: tuple[Path, ...]) -> None:
    bundle = Bundle.open(resolve_bundle_path(bundles))
    catalog = Catalog(bundle)
    problems = [p for s in sets for p in missing_names(catalog, s)]
    for p in problems:
        click.echo(p, err=True)
    total = sum(len(load_set(s)) for s in sets)
    click.echo(f"{total} lines in {len(sets)} set(s); {len(problems)} expected name(s) missing")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
