"""Builder: the code domain's segments (layout in ``formats/code.py``) from its ``CodeIndex`` link.

Procedure cards, module cards and bodies are chunked stores (formats/chunked.py) of frames made
where they were packed — the link's (cardstore.py), the readers' (bodies.py): a card or a body
is only decompressed (its frame) when asked for;
addresses, calls and the search postings are flat arrays, so the server answers from the mapping without building anything.

Search: BM25F over a few short fields per procedure (name words, module name words, the first
sentences of the description, parameter names, the innermost region), with per-posting
impacts precomputed like the main index (compiler/search/build.py) and a static prior per
procedure (exported API first; deprecated and internal ones later), see docs/code.md.
"""
from __future__ import annotations

import itertools
import operator
import re
from array import array
from collections import defaultdict
from collections.abc import Callable, Collection, Sequence
from typing import TYPE_CHECKING

import numpy as np
from v8atlas.formats import code as FC
from v8atlas.formats.text import fold, name_key
from v8atlas.formats.chunked import chunked_records
from v8atlas.formats.writer import pack_plain

from .. import heap, pool
from ..build_docs import add_encoded_string_table, add_string_table
from ..search.build import (_add_encoded_table, _add_table_parts,   # sorted table + fixed-width head
                            _table_parts, TableParts)               # (fast lookups)
from .cardstore import pack_module_cards
from .index import CodeIndex

if TYPE_CHECKING:
    from v8atlas.formats.writer import BundleWriter

    from ..pipeline import LinkContext

# field → (weight, length normalisation b)
FIELDS = {"name": (6.0, 0.3), "module": (1.5, 0.3), "description": (1.0, 0.6),
          "params": (0.5, 0.5), "region": (0.8, 0.3)}
K1 = 1.2
# occurrences whose postings are computed at once (``_postings``): its temporaries are ~50
# bytes per occurrence (2 M were ~100 MB, the top of the × 4 compile's peak once the rest shrank)
POSTING_RANGE = 1 << 19
# Static prior: what an agent should call comes first.
PRIOR_EXPORT, PRIOR_PRIVATE = 1.0, 0.55
PRIOR_API_REGION = 1.15        # #Область ПрограммныйИнтерфейс: БСП's public contract
PRIOR_INTERNAL_REGION = 0.9    # СлужебныйПрограммныйИнтерфейс / СлужебныеПроцедурыИФункции
PRIOR_DEPRECATED = 0.5
PRIOR_NOT_COMMON = 0.8         # an object's, form's or command's export: not the library API
PRIOR_CLIENT_TWIN = 0.95       # a client-only common module: its server twin is asked for first
API_REGIONS = {"программныйинтерфейс", "public"}
INTERNAL_REGIONS = {"служебныйпрограммныйинтерфейс", "internal", "служебныепроцедурыифункции", "private"}


def _prior(card: dict) -> float:
    prior = PRIOR_EXPORT if card["export"] else PRIOR_PRIVATE
    factor = _region_factor(card.get("region") or ())
    if factor != 1.0:
        prior *= factor
    if card.get("deprecated"):
        prior *= PRIOR_DEPRECATED
    if card.get("module_kind") != "Module" or card.get("owner", "").startswith(("HTTP", "Web")):
        prior *= PRIOR_NOT_COMMON
    elif "client" in card.get("availability", ()) and "server" not in card.get("availability", ()):
        prior *= PRIOR_CLIENT_TWIN
    return prior


_REGION_FACTORS: dict[tuple[str, ...], float] = {}    # region path → its factor (``_region_factor``)


def _region_factor(region: Sequence[str]) -> float:
    """The prior's factor of a region path: API, internal or neither (1.0). Memoized per
    path: a module's procedures share a few paths, and folding each path's words per
    procedure was a fifth of the prior's time."""
    key = tuple(region)
    factor = _REGION_FACTORS.get(key)
    if factor is None:
        regions = {r.casefold() for r in key}
        factor = _REGION_FACTORS[key] = (PRIOR_API_REGION if regions & API_REGIONS else
                                         PRIOR_INTERNAL_REGION if regions & INTERNAL_REGIONS else 1.0)
    return factor


_SPACE = re.compile(r"[^\S\n]")        # whitespace but a line break (``_name_key_parts``)
_SIGMA = "ς".encode("utf-8")


def _name_key_parts(names: list[str]) -> list[bytes]:
    """Each name's key part, UTF-8 encoded: ``name_key(name)``, such that
    ``name_key(f"{a}.{name}")`` is ``f"{name_key(a)}.{part}"`` (identifiers have no spaces and
    fold per character), or b"" for a Greek final sigma, whose lower case depends on what
    follows it (keyed whole). Folded all at once, joined by line breaks: NFC and lower case
    see a line break as a string's end (it neither composes nor is cased); the rest of
    ``name_key`` (its whitespace and its dots' spaces) changes nothing without whitespace —
    a name with any (a line break included) sends every name the slow way. ``name_key`` one
    by one was a third of the address table's instructions."""
    joined = fold("\n".join(names))
    if joined.count("\n") != len(names) - 1 or _SPACE.search(joined):
        return [b"" if "ς" in k else k.encode("utf-8") for k in map(name_key, names)]
    data = joined.encode("utf-8")
    parts = data.split(b"\n")
    return [b"" if _SIGMA in k else k for k in parts] if _SIGMA in data else parts


def _csr(rows: Sequence[Collection[int]], n: int) -> tuple[np.ndarray, np.ndarray]:
    """CSR of rows already sorted (the link keeps each procedure's callees a sorted tuple)."""
    off = np.zeros(n + 1, dtype="<u4")
    if rows:
        off[1:] = np.cumsum([len(r) for r in rows])
    flat = np.fromiter(itertools.chain.from_iterable(rows), dtype="<u4", count=int(off[-1]))
    return off, flat


def _callers(off: np.ndarray, callees: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The callers CSR from the callees CSR (``_csr``): each procedure's callers ascending.
    Callers are numbered in order and each lists a callee once, so a stable sort of the calls
    by callee keeps every callee's callers in order — the sorted lists a list per procedure
    gave, without that list per procedure."""
    n = len(off) - 1
    caller = np.repeat(np.arange(n, dtype="<u4"), np.diff(off).astype(np.int64))
    flat = caller[np.argsort(callees, kind="stable")]
    out = np.zeros(n + 1, dtype="<u4")
    out[1:] = np.cumsum(np.bincount(callees, minlength=n))
    return out, flat


def _run_starts(keys: np.ndarray) -> np.ndarray:
    """Where each run of equal values of the sorted ``keys`` starts."""
    first = np.empty(len(keys), dtype=bool)
    first[:1] = True
    np.not_equal(keys[1:], keys[:-1], out=first[1:])
    return np.flatnonzero(first)


def _postings(index: CodeIndex) -> tuple[list[bytes], np.ndarray, np.ndarray, np.ndarray]:
    """BM25F postings from the terms the readers computed (``compiler/code/terms.py``), in numpy:
    tf per (term, procedure, field), length normalisation per (procedure, field), then one
    pseudo-frequency and impact per (term, procedure). The terms UTF-8 encoded, in byte order."""
    names = list(FIELDS)
    weight = np.array([FIELDS[f][0] for f in names])
    b = np.array([FIELDS[f][1] for f in names])
    # The readers packed each procedure's terms as ids into its model's vocabulary
    # (``terms.TermPacker``); ids here are in one space: each vocabulary at its own base, then
    # the modules' terms (one dict lookup per module). A term list a module shares between its
    # procedures is looked up once. Only the terms that occur are kept, in UTF-8 order (the
    # string table's), mapped in numpy.
    vocabularies = list({id(pe.vocabulary): pe.vocabulary for pe in index.procs}.values())
    bases, space = {}, 0
    for v in vocabularies:
        bases[id(v)], space = space, space + len(v)
    # a module term not seen yet takes the next id (in C: no Python call per occurrence),
    # module after module in the order the procedures first name them
    module_ix: defaultdict[str, int] = defaultdict(itertools.count(space).__next__)
    module_ids = {m: np.fromiter(map(module_ix.__getitem__, index.modules[m].terms), dtype=np.uint32)
                  for m in dict.fromkeys(pe.module for pe in index.procs)}     # module id → its terms' ids
    assert names == ["name", "module", "description", "params", "region"]   # _occurrences' order
    occ, slot_len = _occurrences(index, bases, module_ids)
    del module_ids
    total = space + len(module_ix)
    used = np.zeros(total, dtype=bool)
    used[occ] = True
    every = list(itertools.chain(*vocabularies, module_ix))
    cids = np.flatnonzero(used)
    del used, module_ix
    uniq: dict[str, int] = {}                 # term → its id among the terms that occur
    of_cid = np.fromiter((uniq.setdefault(every[c], len(uniq)) for c in cids.tolist()),
                         dtype=np.int64, count=len(cids))
    del every
    first_seen = list(uniq)
    encoded = [t.encode("utf-8") for t in first_seen]
    order = sorted(range(len(first_seen)), key=encoded.__getitem__)
    terms = [encoded[j] for j in order]
    del first_seen, encoded, uniq
    n, nf, nt = len(index.procs), len(names), len(terms)
    # Narrow arrays, each dropped once used: at scale the occurrences are tens of millions
    # (SSL: 1.1 M postings), and int64 temporaries of all of them were most of the build's peak.
    rank = np.empty(nt, dtype=np.int32)
    rank[np.array(order, dtype=np.int64)] = np.arange(nt, dtype=np.int32)
    del order
    remap = np.zeros(total, dtype=np.int32)
    remap[cids] = rank[of_cid]
    del cids, of_cid, rank
    tid = remap[occ]
    del occ, remap
    # slot = procedure * fields + field, one per occurrence
    slot = np.repeat(np.arange(len(slot_len), dtype=np.int32 if len(slot_len) < 2**31 else np.int64),
                     slot_len)
    del slot_len
    # field lengths and their averages over the procedures that have the field
    flen = np.bincount(slot, minlength=n * nf).reshape(n, nf).astype(np.float64)
    has = (flen > 0).sum(axis=0)
    avg = np.where(has > 0, flen.sum(axis=0) / np.maximum(has, 1), 1.0)
    norm = 1.0 - b + b * flen / avg                                  # (n, nf)
    del flen
    # tf per (term, procedure, field) → weighted pseudo-frequency per (term, procedure), by
    # ranges of terms (``_term_ranges``): the keys and their runs are temporaries of every
    # occurrence of a range, not of all of them at once (at × 12 SSL those of every
    # occurrence were the top of the compile's peak). A term's postings are all in one range,
    # in the same order, so the sums and impacts are the same as over all at once.
    df = np.zeros(nt, dtype=np.int64)
    procs: list[np.ndarray] = []
    imps: list[np.ndarray] = []
    ranges = _term_ranges(np.bincount(tid, minlength=nt), POSTING_RANGE)
    # each occurrence's range, once (a byte or two each): a range's occurrences are then found
    # by one pass over it, not by two comparisons and an ``and`` over every term id
    of_range = np.zeros(nt, dtype=np.uint8 if len(ranges) <= 256 else np.uint16 if len(ranges) <= 65536
                        else np.uint32)
    for r, (t0, t1) in enumerate(ranges):
        of_range[t0:t1] = r
    occ_range = of_range[tid] if len(ranges) > 1 else None
    del of_range
    for r, (t0, t1) in enumerate(ranges):
        sel = np.flatnonzero(occ_range == r) if occ_range is not None else slice(None)
        key3 = tid[sel].astype(np.int64)
        key3 -= t0
        key3 *= n * nf
        key3 += slot[sel]                # ((term - t0) * n + procedure) * nf + field
        del sel
        p2, imp = _range_postings(key3, n, nf, weight, norm, df[t0:t1])
        procs.append(p2)
        imps.append(imp)
    del tid, slot, occ_range
    off = np.zeros(nt + 1, dtype="<u4")
    off[1:] = np.cumsum(df)
    if not procs:
        return terms, off, np.zeros(0, dtype="<u4"), np.zeros(0, dtype="<f4")
    return terms, off, np.concatenate(procs), np.concatenate(imps)


# The search postings as the build writes them: the terms' table (``_table_parts``), each
# term's offset into the postings, their procedures and impacts.
Postings = tuple[TableParts, np.ndarray, np.ndarray, np.ndarray]


def _search_postings(index: CodeIndex) -> Postings:
    terms, off, procs, imps = _postings(index)
    return _table_parts(terms), off, procs, imps


OCCURRENCE_BLOCK = 8192     # procedures whose occurrences ``_occurrences`` gathers at once


def _occurrences(index: CodeIndex, bases: dict[int, int],
                 module_ids: dict[int, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Every procedure's term ids in one id space (its vocabulary's base added), in the
    fields' order — its name's, its module's (``module_ids``), then its description's,
    parameters' and region's — and the occurrences per (procedure, field), row-major (int64).
    In numpy, ``OCCURRENCE_BLOCK`` procedures at a time (a Python loop per procedure was a
    fifth of the postings); the gather's temporaries are a block's."""
    procs = index.procs
    n = len(procs)
    mods = list(module_ids)
    mod_at = {m: i for i, m in enumerate(mods)}
    mod_flat = np.concatenate([module_ids[m] for m in mods]) if mods else np.zeros(0, dtype=np.uint32)
    mod_len = np.fromiter((len(module_ids[m]) for m in mods), dtype=np.int64, count=len(mods))
    mod_off = np.zeros(len(mods), dtype=np.int64)
    np.cumsum(mod_len[:-1], out=mod_off[1:])
    pm = np.fromiter((mod_at[pe.module] for pe in procs), dtype=np.int64, count=n)
    base = np.fromiter((bases[id(pe.vocabulary)] for pe in procs), dtype=np.uint32, count=n)
    words = np.fromiter((len(pe.proc.terms) for pe in procs), dtype=np.int64, count=n) // 4
    counts = np.empty((n, 5), dtype=np.int64)     # name, module, description, params, region
    counts[:, 1] = mod_len[pm]
    occ = np.empty(int(words.sum()) - 4 * n + int(counts[:, 1].sum()), dtype=np.uint32)
    at = 0
    for lo in range(0, n, OCCURRENCE_BLOCK):
        hi = min(lo + OCCURRENCE_BLOCK, n)
        raw = np.frombuffer(b"".join([pe.proc.terms for pe in procs[lo:hi]]), dtype=np.uint32)  # type: ignore[misc]
        w = words[lo:hi]
        start = np.zeros(hi - lo, dtype=np.int64)
        np.cumsum(w[:-1], out=start[1:])
        head = raw[start[:, None] + np.arange(4)].astype(np.int64)   # name, description, params, region
        counts[lo:hi, 0] = head[:, 0]
        counts[lo:hi, 2:] = head[:, 1:]
        b = base[lo:hi]
        if b.any():
            raw = raw + np.repeat(b, w)
        # three runs a procedure: its name's ids, its module's, the rest of its own
        src = np.concatenate((raw, mod_flat))
        run_from = np.stack((start + 4, len(raw) + mod_off[pm[lo:hi]], start + 4 + head[:, 0]), axis=1).ravel()
        run_len = np.stack((head[:, 0], counts[lo:hi, 1], w - 4 - head[:, 0]), axis=1).ravel()
        run_at = np.zeros(len(run_len), dtype=np.int64)
        np.cumsum(run_len[:-1], out=run_at[1:])
        m = int(run_len.sum())
        take = np.repeat(run_from - run_at, run_len)
        take += np.arange(m)
        occ[at:at + m] = src[take]
        at += m
    assert at == len(occ)
    return occ, counts.ravel()


def _term_ranges(per_term: np.ndarray, budget: int) -> list[tuple[int, int]]:
    """[t0, t1) ranges of term ids, in order, covering every term, each of at most ``budget``
    occurrences (a term more frequent than that alone)."""
    cum = np.cumsum(per_term)
    bounds = [0]
    while bounds[-1] < len(per_term):
        done = int(cum[bounds[-1] - 1]) if bounds[-1] else 0
        bounds.append(max(int(np.searchsorted(cum, done + budget, side="right")), bounds[-1] + 1))
    return list(zip(bounds, bounds[1:]))


def _range_postings(key3: np.ndarray, n: int, nf: int, weight: np.ndarray, norm: np.ndarray,
                    df: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The postings of one range of terms from its occurrences' keys
    (``(term * n + procedure) * nf + field``, terms from the range's first): procedures and
    impacts sorted by term, then procedure; ``df`` (the range's slice) filled."""
    # np.unique's work done by hand on sorted keys, without its copies: key3 sorted in place
    # (np.unique sorts a copy), and the (term, procedure) keys, already sorted, summed by runs
    # (np.unique would argsort them again and return an inverse).
    key3.sort()
    starts = _run_starts(key3)
    tf = np.diff(np.append(starts, len(key3)))
    key3 = key3[starts]
    del starts
    # (the same values as ``tf * weight[key3 % nf] / norm[procedure, field]``, with fewer
    # passes: one divmod, the (procedure, field) slot as a flat index, the products in place)
    k_tp, slot = np.divmod(key3, nf)
    np.remainder(key3, n * nf, out=slot)                             # procedure * nf + field
    del key3
    contrib = weight.take(slot % nf)
    contrib *= tf
    contrib /= norm.ravel().take(slot)
    del tf, slot
    starts = _run_starts(k_tp)
    key2 = k_tp[starts]
    del k_tp
    w = np.add.reduceat(contrib, starts) if len(starts) else np.zeros(0)
    del starts, contrib
    t2, p2 = np.divmod(key2, n)                                      # sorted by term, then procedure
    del key2
    df[:] = np.bincount(t2, minlength=len(df))
    idf = np.log(1.0 + (n - df + 0.5) / (df + 0.5))
    imp = idf.take(t2)                                  # idf[t2] * w * (K1 + 1.0) / (w + K1)
    del t2
    imp *= w
    imp *= K1 + 1.0
    w += K1
    imp /= w
    return p2.astype("<u4"), imp.astype("<f4")


def seal_card(card: dict) -> tuple[float, bool, bytes]:
    """The link's last word on one card: what the build reads of it (``ProcEntry.prior`` and
    ``deprecated``) and the card packed as the card store holds it. Called per procedure as
    the link writes each card, so no more than one card is a dict at a time."""
    keys = reversed(card)       # the call counts last, as stored (not a list of the keys a card)
    assert next(keys) == "callers" and next(keys) == "callees"
    return _prior(card), bool(card.get("deprecated")), pack_plain(card)   # (``pack_record``'s bytes)


def _release(index: CodeIndex) -> None:
    """Drop what the rest of the build does not read — the cards (stored above) and the
    bodies; the tokens, parameters and parsed doc comments went at the link's end
    (``link._drop_linked``) — before the address table, the build's largest temporaries here
    (the postings are made in the stores' child, ``_stores_and_postings``). The caches were
    written from snapshots taken earlier, so nothing saved loses them; nothing reads this link
    after the build."""
    index.cards = None
    for pe in index.procs:
        pe.proc.body = b""


def _aliases(names: list[str]) -> list[tuple[bytes | None, str]]:
    """Each alias's key and a dot, UTF-8 encoded (None when it ends in a final sigma), and
    the alias as written."""
    return [(None if "ς" in k else (k + ".").encode("utf-8"), a) for a in names for k in [name_key(a)]]


def _procedure_keys(heads: list[tuple[bytes | None, str]], pids: list[int], names: list[str],
                    part_of: dict[str, bytes], keys: list[bytes], ids: array) -> None:
    """The keys of procedures ``pids`` (named ``names``) through each alias of ``heads``
    (``_aliases``), added to ``keys`` and their ids to ``ids``: the alias's key and the
    name's part (``_name_key_parts``) — keyed whole where either ends in a final sigma.
    A list per alias and module: a Python loop per key was a third of the address table."""
    parts = [part_of[n] for n in names]
    for head, raw in heads:
        if head is not None and all(parts):
            keys += [head + part for part in parts]
        else:
            keys += [head + part if part and head is not None
                     else name_key(f"{raw}.{n}").encode("utf-8") for part, n in zip(parts, names)]
        ids.extend(pids)


def _address_table(index: CodeIndex) -> tuple[list[bytes], np.ndarray, np.ndarray]:
    """Exact addresses: every alias of a procedure, and of a module (``MODULE_BIT`` | module
    id) — the keys UTF-8 encoded, in byte order, each once, with the ids of each key (CSR,
    sorted). Built from one encoded key and one uint32 per alias, sorted by key: a dict of the
    key strings (and a set per shared key) was the top of the build's memory at scale."""
    keys: list[bytes] = []
    ids = array("I")
    # a key is its alias's key, ".", its name's part — in UTF-8 as in the string; each
    # name's part once (copies and event handlers repeat names). The keys' order is free:
    # they are sorted below, and each key's ids too.
    names = list(dict.fromkeys(pe.proc.name for pe in index.procs))
    part_of = dict(zip(names, _name_key_parts(names)))
    del names
    for mid, (m, mc) in enumerate(zip(index.modules, index.module_cards)):
        own = _aliases(mc["aliases"])
        for head, a in own:     # (head is the key and its dot, or None for a final sigma)
            keys.append(head[:-1] if head is not None else name_key(a).encode("utf-8"))
            ids.append(FC.MODULE_BIT | mid)
        procs = [index.procs[pid].proc for pid in m.procs]
        _procedure_keys(own, m.procs, [p.name for p in procs], part_of, keys, ids)
        # exported procedures are also reached through the manager (Справочники.X.Проц)
        managers = _aliases(FC.manager_aliases(m.ref.owner, m.ref.kind))
        if managers:
            exported = [(pid, p.name) for pid, p in zip(m.procs, procs) if p.export]
            _procedure_keys(managers, [pid for pid, _n in exported], [n for _pid, n in exported],
                            part_of, keys, ids)
    # Sorted once by key; then, in numpy, the runs of equal keys (the few shared ones) and
    # each run's ids ascending and once (a Python loop over every key was half this table's CPU).
    order = sorted(range(len(keys)), key=keys.__getitem__)
    skeys = [keys[i] for i in order]
    del keys
    sid = np.frombuffer(ids, dtype=np.uint32)[np.array(order, dtype=np.int64)]
    del order, ids
    n = len(skeys)
    first = np.ones(n, dtype=bool)
    if n > 1:
        first[1:] = ~np.fromiter(map(operator.eq, skeys[1:], skeys[:-1]), dtype=bool, count=n - 1)
    if first.all():     # no key shared (SSL: none of 101 k): an id each, nothing to merge
        return skeys, np.arange(n + 1, dtype="<u4"), sid.astype("<u4")
    run = np.cumsum(first) - 1                   # each key's run (unique key) number
    by_id = np.lexsort((sid, run))               # within each run, ids ascending
    sid, run = sid[by_id], run[by_id]
    keep = np.ones(n, dtype=bool)
    keep[1:] = (run[1:] != run[:-1]) | (sid[1:] != sid[:-1])
    uniq = [skeys[i] for i in np.flatnonzero(first).tolist()]
    off = np.zeros(len(uniq) + 1, dtype="<u4")
    off[1:] = np.cumsum(np.bincount(run[keep], minlength=len(uniq)))
    return uniq, off, sid[keep].astype("<u4")


def _titles(index: CodeIndex) -> list[bytes]:
    """Each procedure's address as its card says it — its module's, ".", its name — UTF-8
    encoded, each module's part once (a string per procedure, then its encoding, took half as
    long again)."""
    heads = [f"{m.address}.".encode("utf-8") for m in index.modules]
    return [heads[pe.module] + pe.proc.name.encode("utf-8") for pe in index.procs]


def _record_stores(index: CodeIndex, writer: BundleWriter) -> None:
    """The card store — the link's frames of packed cards (call counts included, seal_card),
    copied (cardstore.py) —, the body store — the readers' frames the procedures use, copied
    (bodies.py) — and the module store, in frames as the cards are (a few hundred KB: made
    here). Nothing is recompressed: one forked child (two, when the cards were recompressed
    with a trained dictionary, docs/perf/code.md "Round 2, session 11")."""
    assert index.cards is not None and len(index.cards) == len(index.procs)
    writer.add_chunked(FC.PROCS, index.cards.chunked(), msgpack=True)
    writer.add_chunked(FC.BODIES, chunked_records(pe.proc.body for pe in index.procs))
    modules = [pack_plain({**mc, "procs": m.procs}) for mc, m in zip(index.module_cards, index.modules)]
    writer.add_chunked(FC.MODULES, chunked_records(pack_module_cards(modules)), msgpack=True)


def _stores_and_postings(index: CodeIndex, writer: BundleWriter) -> None:
    """The record stores (``_record_stores``), then the search postings (``_search_postings``):
    the forked child's share of the build. The postings were the code child's largest step
    after the address table, and its child ended early with the stores (nothing recompressed):
    the code child then ran the build's last ≈ 0.4 s alone on one core (SSL 3.1.12,
    docs/perf/code.md "Round 2, session 11: the postings beside the stores")."""
    _record_stores(index, writer)
    terms, t_off, post_proc, post_imp = _search_postings(index)
    _add_table_parts(writer, FC.TERMS, terms)
    writer.add_array(FC.TERMS_OFF, t_off)
    writer.add_array(FC.POST_PROC, post_proc)
    writer.add_array(FC.POST_IMP, post_imp)


def _apart(store: Callable[[CodeIndex, BundleWriter], None], index: CodeIndex,
           writer: BundleWriter) -> tuple[dict, dict]:
    """``store`` (maybe in a forked child) and what it added to the writer's segments and records."""
    segments, records = set(writer.segments), set(writer.records)
    store(index, writer)
    return ({k: v for k, v in writer.segments.items() if k not in segments},
            {k: v for k, v in writer.records.items() if k not in records})


def build(ctx: LinkContext, writer: BundleWriter) -> None:
    index = ctx.links.get(CodeIndex)
    if index is None or not index.procs:
        return
    n = len(index.procs)
    prior = np.array([pe.prior for pe in index.procs], dtype="<f4")
    # The record stores and the postings in a forked child, while this process makes the
    # tables below from what it keeps of the index (in-process: now, before ``_release``
    # drops the cards and bodies the stores read).
    stores = pool.split_call(_apart, _stores_and_postings, index, writer)
    writer.add_array(FC.PROC_CONFIG, np.array([pe.view for pe in index.procs], dtype="<u2"))
    writer.add_array(FC.PROC_MODULE, np.array([pe.module for pe in index.procs], dtype="<u4"))
    flags = np.array([(FC.EXPORT if pe.proc.export else 0) | (FC.FUNCTION if pe.proc.is_function else 0)
                      | (FC.DEPRECATED if pe.deprecated else 0)
                      | (FC.EXTENSION if pe.origin else 0) for pe in index.procs], dtype="<u1")
    writer.add_array(FC.PROC_FLAGS, flags)
    writer.add_array(FC.PROC_PRIOR, prior)
    _release(index)
    heap.trim()      # what _release freed of the C heap: not under the tables and postings below
    # as the cards say them: "address" and the first sentence of "description"
    # (each encoded as it comes: not a list of the strings and one of their encodings at once)
    add_encoded_string_table(writer, FC.PROC_TITLES, _titles(index))
    add_string_table(writer, FC.PROC_SUMMARIES, (pe.summary for pe in index.procs))

    keys, off, ids = _address_table(index)
    _add_encoded_table(writer, FC.NAMES, keys)
    writer.add_array(FC.NAMES_OFF, off)
    writer.add_array(FC.NAMES_IDS, ids)
    n_keys = len(keys)
    del keys

    off, flat = _csr([pe.callees for pe in index.procs], n)
    writer.add_array(FC.CALLEES_OFF, off)
    writer.add_array(FC.CALLEES, flat)
    off, flat = _callers(off, flat)
    writer.add_array(FC.CALLERS_OFF, off)
    writer.add_array(FC.CALLERS, flat)

    writer.add_json(FC.META, {"configs": index.views, "procedures": n, "modules": len(index.modules),
                              "fields": {k: list(v) for k, v in FIELDS.items()}, "k1": K1})
    segments, records = stores.result()
    writer.segments.update(segments)
    writer.records.update(records)
    ctx.counts["code_index"] = {"terms": writer.segments[FC.TERMS_OFF]["shape"][0] - 1,
                                "postings": writer.segments[FC.POST_PROC]["shape"][0], "names": n_keys}
