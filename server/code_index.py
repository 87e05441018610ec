"""The code domain's segments, mapped: exact addresses, procedure cards, calls, search postings.

Nothing is parsed or built here: a lookup is a bisection in a string table, a search is a few
posting runs summed with numpy (layout in ``formats/code.py``).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
from v8atlas.formats import code as FC
from v8atlas.formats.reader import Bundle
from v8atlas.formats.schema import table_segments
from v8atlas.formats.strtable import StringTable
from v8atlas.formats.text import name_key, stem_stop_words, words

from .search import _member, _table as _head_table

WHOLE_NAME_BONUS = 2.0     # a query word that *is* the procedure's name (or its whole CamelCase)
SURFACE_BONUS = 0.3        # a query word met in the form it was typed, beside its stem
BONUS_MARK = "\x00"
_STOP = stem_stop_words()


@dataclass
class CodeHit:
    proc: int
    score: float
    matched: list[str]


@dataclass
class ListRow:
    """What a result list shows of a procedure, read from flat tables (no card decoded)."""
    address: str
    export: bool
    deprecated: bool
    summary: str
    config: str


def _table(bundle: Bundle, prefix: str) -> StringTable:
    """A sorted table found through its head array when it has one (server/search.py)."""
    return _head_table(bundle, prefix)


class CodeIndex:
    def __init__(self, bundle: Bundle) -> None:
        self.bundle = bundle
        self.meta: dict[str, Any] = bundle.json(FC.META)
        self.configs: list[str] = list(self.meta.get("configs") or [])

    # -- arrays (mapped on first use) -------------------------------------------------------
    @cached_property
    def cards(self) -> Any:
        return self.bundle.records(FC.PROCS)

    @cached_property
    def bodies(self) -> Any:
        return self.bundle.records(FC.BODIES)

    @cached_property
    def module_cards(self) -> Any:
        return self.bundle.records(FC.MODULES)

    @cached_property
    def config(self) -> np.ndarray:
        return self.bundle.array(FC.PROC_CONFIG)

    @cached_property
    def flags(self) -> np.ndarray:
        return self.bundle.array(FC.PROC_FLAGS)

    @cached_property
    def prior(self) -> np.ndarray:
        return self.bundle.array(FC.PROC_PRIOR)

    @cached_property
    def titles(self) -> StringTable:
        return _table(self.bundle, FC.PROC_TITLES)

    @cached_property
    def _names(self) -> tuple[StringTable, np.ndarray, np.ndarray]:
        return (_table(self.bundle, FC.NAMES), self.bundle.array(FC.NAMES_OFF),
                self.bundle.array(FC.NAMES_IDS))

    @cached_property
    def _terms(self) -> tuple[StringTable, np.ndarray, np.ndarray, np.ndarray]:
        return (_table(self.bundle, FC.TERMS), self.bundle.array(FC.TERMS_OFF),
                self.bundle.array(FC.POST_PROC), self.bundle.array(FC.POST_IMP))

    @cached_property
    def summaries(self) -> StringTable | None:
        """One-line descriptions; None in a bundle written before they were stored."""
        return _table(self.bundle, FC.PROC_SUMMARIES) if self.bundle.has(table_segments(FC.PROC_SUMMARIES)[0]) else None

    def __len__(self) -> int:
        return int(self.meta.get("procedures") or 0)

    def list_row(self, proc: int) -> ListRow:
        flags = int(self.flags[proc])
        summaries = self.summaries
        summary = (summaries[proc] if summaries is not None
                   else FC.one_line(self.card(proc).get("description") or ""))
        return ListRow(self.titles[proc], bool(flags & FC.EXPORT), bool(flags & FC.DEPRECATED),
                       summary, self.configs[int(self.config[proc])])

    def config_index(self, name: str | None) -> int | None:
        if name is None:
            return None
        return self.configs.index(name) if name in self.configs else -1

    # -- exact addresses --------------------------------------------------------------------
    def lookup(self, name: str, config: int | None) -> tuple[list[int], list[int]]:
        """(procedure ids, module ids) an address names, in the configuration asked about."""
        table, off, ids = self._names
        i = table.find(name_key(name))
        if i < 0:
            return [], []
        found = ids[off.item(i):off.item(i + 1)]
        procs, modules = [], []
        for x in found.tolist():
            if x & FC.MODULE_BIT:
                m = x & ~FC.MODULE_BIT
                if config is None or self.module_cards[m].get("config") == self.configs[config]:
                    modules.append(m)
            elif config is None or int(self.config[x]) == config:
                procs.append(x)
        return procs, modules

    def card(self, proc: int) -> dict[str, Any]:
        return self.cards[proc]

    def body(self, proc: int) -> str:
        raw = self.bodies[proc]
        return raw.decode("utf-8", "replace") if isinstance(raw, bytes) else str(raw)

    def _run(self, off_name: str, items: str, proc: int) -> list[int]:
        off = self.bundle.array(off_name)
        return self.bundle.array(items)[off.item(proc):off.item(proc + 1)].tolist()

    def callees(self, proc: int) -> list[int]:
        return self._run(FC.CALLEES_OFF, FC.CALLEES, proc)

    def callers(self, proc: int) -> list[int]:
        return self._run(FC.CALLERS_OFF, FC.CALLERS, proc)

    # -- search -----------------------------------------------------------------------------
    def _postings(self, term: str) -> tuple[np.ndarray, np.ndarray] | None:
        table, off, procs, imp = self._terms
        i = table.find(term)
        if i < 0:
            return None
        a, b = off.item(i), off.item(i + 1)
        return procs[a:b], imp[a:b]

    def search(self, query: str, config: int | None, *, exported_only: bool = False,
               limit: int = 10) -> list[CodeHit]:
        """BM25F over name, module, description, parameter and region words, times the static
        prior (exported API first). Every query word must match (a conjunction); when none
        matches them all, the best partial matches come back."""
        qwords = [w for w in words(query) if not w.whole and w.term not in _STOP]
        wholes = [w.term for w in words(query) if w.whole]
        if not qwords and not wholes:
            return []
        runs: list[tuple[str, np.ndarray, np.ndarray]] = []
        for w in qwords:
            stem = self._postings(w.term)
            if stem is not None:
                runs.append((w.surface, *stem))
            if w.surface != w.term:
                # the word as typed, where a name has it so (Объекта, not Объектов): a bonus
                exact = self._postings(w.surface)
                if exact is not None and stem is None:
                    runs.append((w.surface, *exact))
                elif exact is not None:
                    runs.append((w.surface + BONUS_MARK, exact[0], exact[1] * SURFACE_BONUS))
        for t in wholes:
            p = self._postings(t)
            if p is not None:
                runs.append((t, p[0], p[1] * WHOLE_NAME_BONUS))
        if not runs:
            return []
        # Dense accumulators (one float per procedure): each run's procedures are unique, so
        # fancy-index addition is exact and no sort or unique is needed.
        runs = list({word: (word, procs, imp) for word, procs, imp in reversed(runs)}.values())[::-1]
        n = len(self)
        total = np.zeros(n)
        matched = np.zeros(n, dtype=np.int32)
        for word, procs, imp in runs:
            total[procs] += imp
            if not word.endswith(BONUS_MARK):      # a bonus run is no extra word to match
                matched[procs] += 1
        keep = matched > 0
        if config is not None:
            keep &= self.config == config
        if exported_only:
            keep &= (self.flags & FC.EXPORT) > 0
        cand = np.flatnonzero(keep)
        if not len(cand):
            return []
        need = matched[cand].max()
        cand = cand[matched[cand] >= need]
        sc = total[cand] * self.prior[cand]
        top = cand[np.argsort(-sc, kind="stable")[:limit]]
        # which runs each hit is in: one vectorized membership test per run, not per (hit, run)
        member = [_member(top, procs).tolist() for _w, procs, _imp in runs]
        out = []
        for k, pid in enumerate(top.tolist()):
            hit = [w.removesuffix(BONUS_MARK) for (w, _p, _i), m in zip(runs, member) if m[k]]
            out.append(CodeHit(pid, float(total[pid] * self.prior[pid]), list(dict.fromkeys(hit))))
        return out


def find(code: CodeIndex, query: str, config: int | None, scope: str = "api", limit: int = 10
         ) -> tuple[list[CodeHit], str]:
    """What ``search_code`` answers (and ``bench search`` measures): an exact address first, else
    words over the exported API, else over every procedure. Returns (hits, the scope used)."""
    procs, _modules = code.lookup(query, config)
    if procs:
        return [CodeHit(p, 0.0, ["exact address"]) for p in procs[:limit]], scope
    hits = code.search(query, config, exported_only=scope == "api", limit=limit)
    if not hits and scope == "api":
        return code.search(query, config, exported_only=False, limit=limit), "all (no exported procedure matched)"
    return hits, scope


def open_code(bundle: Bundle) -> CodeIndex | None:
    return CodeIndex(bundle) if bundle.has(FC.META) else None
