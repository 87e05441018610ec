#!/usr/bin/env python3
"""Split a query set into a tuning half and a held-out half, deterministically.

    python tools/split_search_set.py SET.tsv [--seed 13]  →  SET.tune.tsv, SET.holdout.tsv

The lines are shuffled by ``random.Random(seed)`` and cut in two (the tuning half gets the
extra line of an odd count); each half keeps the set's header comments and its lines in the
original order. Rules are chosen on the tuning half only; the held-out half is measured and
reported, never looked at to pick a rule (docs/search.md, "Held-out sets").
"""
from __future__ import annotations

import random
from pathlib import Path

import click

SEED = 13


def split_lines(text: str, seed: int = SEED) -> tuple[list[str], list[str], list[str]]:
    """(header comments, tuning lines, held-out lines) of a TSV set."""
    lines = text.splitlines()
    header = []
    for raw in lines:
        if raw.startswith("#"):
            header.append(raw)
        else:
            break
    body = [raw for raw in lines[len(header):] if raw.strip() and not raw.lstrip().startswith("#")]
    order = list(range(len(body)))
    random.Random(seed).shuffle(order)
    tune_ix = set(order[: (len(body) + 1) // 2])
    tune = [b for i, b in enumerate(body) if i in tune_ix]
    held = [b for i, b in enumerate(body) if i not in tune_ix]
    return header, tune, held


@click.command()
@click.argument("set_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--seed", default=SEED, show_default=True)
def main(set_file: Path, seed: int) -> None:
    header, tune, held = split_lines(set_file.read_text(encoding="utf-8"), seed)
    stem = set_file.name.removesuffix(".tsv")
    for part, rows in (("tune", tune), ("holdout", held)):
        note = f"# {part} half of {set_file.name}: tools/split_search_set.py --seed {seed}"
        out = set_file.with_name(f"{stem}.{part}.tsv")
        out.write_text("\n".join([*header, note, *rows]) + "\n", encoding="utf-8")
        click.echo(f"{out}: {len(rows)} lines")


if __name__ == "__main__":
    main()
