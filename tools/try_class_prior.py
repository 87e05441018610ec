#!/usr/bin/env python3
"""A class prior learned from the configuration's own relation graph, measured at query time
(docs/search.md, round 2, session 8; measured, negative, not served):

    python tools/try_class_prior.py --pair BUNDLES SET [--pair …] --gamma 0 --gamma 0.5 --gamma -1

Per metadata class, m = the mean of log(1 + r) over the configuration's objects of that class,
r = the documents referring to the object by a strong edge (``search.refs``: attributes typed by
it, documents recording into it, subsystems holding it, code using it). The learned prior is
(m / max m) ** |gamma|: with gamma > 0 it multiplies the built-in class prior, with gamma < 0 it
replaces it (the forms domain's Form/Template keep theirs); 0 is the bundle as built. The
searcher's prior arrays are scaled in memory — the same as a compile-time prior, without a
compile per variant. Held-out halves are refused: rules are chosen on the tuning halves.
"""
from __future__ import annotations

from pathlib import Path

import click
import numpy as np

from eval_search import evaluate
from v8atlas.formats.publish import resolve_bundle_path
from v8atlas.formats.reader import Bundle
from v8atlas.server.search import Searcher


def learned(searcher: Searcher, gamma: float) -> Searcher:
    """``searcher`` with its prior scaled by the learned class prior (in place)."""
    if gamma == 0 or searcher.refs is None:
        return searcher
    kind = np.asarray(searcher.catalog.kind)
    meta = searcher._metadata_docs
    nk = len(searcher._kind_names)
    m = np.zeros(nk)
    for k in range(nk):
        sel = meta & (kind == k)
        if sel.any():
            m[k] = np.mean(np.log1p(searcher.refs[sel]))
    prior = (m / m.max()) ** abs(gamma)
    base = searcher._kind_prior[:nk]
    f_kind = np.where(m > 0, prior / base if gamma < 0 else prior, 1.0)
    for k, name in enumerate(searcher._kind_names):
        if name in ("Form", "Template"):      # the forms domain's documents: not classes
            f_kind[k] = 1.0
    f = np.where(meta, f_kind[kind], 1.0).astype(np.float32)
    searcher.prior = (searcher.prior * f).astype(np.float32)
    searcher._prior_demoted = (searcher._prior_demoted * f).astype(np.float32)
    searcher._prior_demoted_q = (searcher._prior_demoted_q * f).astype(np.float32)
    searcher._kind_prior = searcher._kind_prior * np.pad(f_kind, (0, len(searcher._kind_prior) - nk),
                                                         constant_values=1.0)
    return searcher


@click.command()
@click.option("--pair", "pairs", nargs=2, multiple=True, required=True,
              type=(click.Path(exists=True, path_type=Path), click.Path(exists=True, path_type=Path)))
@click.option("--gamma", "gammas", multiple=True, type=float, default=(0.0,))
def main(pairs: tuple[tuple[Path, Path], ...], gammas: tuple[float, ...]) -> None:
    for _, set_path in pairs:
        if set_path.name.endswith(".holdout.tsv"):
            raise click.UsageError(f"{set_path.name}: a held-out half is not used to choose a rule")
    for gamma in gammas:
        searchers: dict[Path, Searcher] = {}
        cells = []
        for bundles, set_path in pairs:
            if bundles not in searchers:
                searchers[bundles] = learned(Searcher(Bundle.open(resolve_bundle_path(bundles))), gamma)
            s, _ = evaluate(searchers[bundles], set_path)
            cells.append(f"{set_path.stem} {s['p@1']:.3f}/{s['mrr']:.3f}")
        click.echo(f"gamma {gamma:+.2f}: " + " | ".join(cells))


if __name__ == "__main__":
    main()
