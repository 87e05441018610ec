"""Core segments: document cards, per-document arrays, the exact-name table."""
from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

import numpy as np

from v8atlas.formats import schema as S
from v8atlas.formats.platform_version import UNBOUNDED_SINCE, UNBOUNDED_UNTIL, encode_version
from v8atlas.formats.strtable import encoded_string_table, sort_utf8
from v8atlas.formats.text import name_key

from .links import DocIndex

if TYPE_CHECKING:
    from v8atlas.formats.writer import BundleWriter

    from .pipeline import LinkContext


def add_string_table(writer: "BundleWriter", prefix: str, strings: Iterable[str]) -> None:
    add_encoded_string_table(writer, prefix, [s.encode("utf-8") for s in strings])


def add_encoded_string_table(writer: "BundleWriter", prefix: str, encoded: list[bytes]) -> None:
    """``add_string_table`` of strings given UTF-8 encoded (in their order)."""
    off_name, blob_name = S.table_segments(prefix)
    offsets, blob = encoded_string_table(encoded)
    writer.add_array(off_name, offsets)
    writer.add_blob(blob_name, blob)


def doc_domains(ctx: "LinkContext") -> list[str]:
    """The built-in document domains (fixed codes) and then those registered domains add."""
    out = list(S.DOMAINS)
    for d in ctx.domains:
        out += [x for x in d.doc_domains if x not in out]
    return out


def outside_core_index(ctx: "LinkContext") -> set[str]:
    """Document domains whose documents keep out of the core name and search indexes."""
    return {x for d in ctx.domains if not d.core_index for x in d.doc_domains}


def number(ctx: "LinkContext") -> None:
    """Sort the documents into their ids (``ctx.docs``, ``DocIndex``): a stable order whatever
    the linkers did, so the same inputs give the same ids and the same bytes; a repeated key
    keeps its first document, with a warning. What the search and card builds need."""
    domains = doc_domains(ctx)
    order = {d: i for i, d in enumerate(domains)}
    docs = sorted(ctx.docs, key=lambda d: (order[d.domain], d.config or "", d.key))
    seen: set[str] = set()
    unique = []
    for d in docs:
        if d.key in seen:
            ctx.report.warn(d.config or d.domain, f"duplicate document key {d.key!r}; kept the first",
                            code="duplicate-key", object=d.key)
            continue
        seen.add(d.key)
        unique.append(d)
    ctx.docs = unique
    ctx.links.put(DocIndex({d.key: i for i, d in enumerate(unique)}))


def build(ctx: "LinkContext", writer: "BundleWriter", cards: bool = True, numbered: bool = False) -> None:
    """The core segments of the documents; ``cards=False`` leaves their cards to
    ``write_cards`` (which the compile runs in a forked child while the domains build);
    ``numbered``: ``number`` has run already (the compile numbers before forking)."""
    if not numbered:
        number(ctx)
    docs = ctx.docs
    domains = doc_domains(ctx)
    order = {d: i for i, d in enumerate(domains)}

    kinds = sorted({d.kind for d in docs})
    configs = sorted({d.config for d in docs if d.config}) or []
    configs = list(dict.fromkeys(ctx.info.get("config_order", []) + configs))
    kind_ix = {k: i for i, k in enumerate(kinds)}
    config_ix = {c: i for i, c in enumerate(configs)}

    n = len(docs)
    if cards:
        write_cards(ctx, writer)
    writer.add_array(S.DOC_DOMAIN, np.array([order[d.domain] for d in docs], dtype="<u1"))
    writer.add_array(S.DOC_KIND, np.array([kind_ix[d.kind] for d in docs], dtype="<u2"))
    writer.add_array(S.DOC_CONFIG, np.array([config_ix[d.config] if d.config else S.NO_CONFIG
                                             for d in docs], dtype="<u2"))
    writer.add_array(S.DOC_SINCE, _versions([d.since for d in docs], UNBOUNDED_SINCE))
    writer.add_array(S.DOC_UNTIL, _versions([d.until for d in docs], UNBOUNDED_UNTIL))
    # Keys and titles by id: stored in id order (not sorted), read by index only.
    for prefix, values in ((S.DOC_KEYS, [d.key for d in docs]), (S.DOC_TITLES, [d.title for d in docs])):
        add_string_table(writer, prefix, values)
    writer.add_json(S.DOC_META, {"kinds": kinds, "configs": configs, "count": n, "domains": domains})

    # Exact names: every name, the title and the key resolve to their document (only the
    # declared names for a domain outside the core indexes, Domain.core_index).
    outside = outside_core_index(ctx)
    postings: dict[str, set[int]] = {}
    for i, d in enumerate(docs):
        # each distinct name once (the title is most often one of the names): the same sets
        for nm in dict.fromkeys(d.names if d.domain in outside else (d.key, d.title, *d.names)):
            if nm:
                postings.setdefault(name_key(nm), set()).add(i)
    keys = sort_utf8(postings)
    add_string_table(writer, S.NAMES, keys)
    post_off = np.zeros(len(keys) + 1, dtype="<u4")
    post_doc: list[int] = []
    for j, k in enumerate(keys):
        post_doc.extend(sorted(postings[k]))
        post_off[j + 1] = len(post_doc)
    writer.add_array(S.NAMES_POST_OFF, post_off)
    writer.add_array(S.NAMES_POST_DOC, np.array(post_doc, dtype="<u4"))
    ctx.counts["documents"] = n
    ctx.counts["documents_by_domain"] = {dom: sum(1 for d in docs if d.domain == dom)
                                         for dom in domains}
    ctx.counts["names"] = len(keys)


def _versions(values: list[str | None], default: int) -> np.ndarray:
    """``encode_version`` of each value (uint32), each distinct value parsed once: most
    documents share a few (none at all for a configuration's objects)."""
    codes = {v: encode_version(v, default) for v in set(values)}
    return np.array([codes[v] for v in values], dtype="<u4")


def write_cards(ctx: "LinkContext", writer: "BundleWriter") -> None:
    """Every document's card, by id (``build`` numbered ``ctx.docs``): packed, compressed."""
    writer.add_records(S.DOC_CARDS, (d.card for d in ctx.docs))
