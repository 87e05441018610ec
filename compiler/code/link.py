"""Code linker: code models of every configuration view → procedure table, call graph, usages.

Runs after the configuration linker (it needs its views in ``ctx.info["configurations"]`` and
its documents). For every view (a base configuration, base+extensions, a lone extension):

* procedures get their addresses (``formats/code.py``), availability and parsed doc comment;
* calls are resolved: within the module, ``ОбщийМодуль.Процедура(``, ``ОбщийМодуль("Имя")``
  with a literal name, ``Справочники.X.Процедура(`` (manager modules), global modules' exports;
* metadata usages (code, writes through ``Создать…``, query texts) become graph edges
  ``code_uses`` / ``code_writes`` / ``code_reads`` from the module owner's document to the
  object's, labelled with the procedures;
* extension procedures with ``&Перед/&После/&Вместо/&ИзменениеИКонтроль`` are linked to the base
  procedure they change (``changes``);
* cards are enriched: a common module's card lists its exported API by region, an object's
  card names its modules' event handlers.

The result is the typed link ``CodeIndex`` (``ctx.links``) for ``compiler/code/build.py``.
"""
from __future__ import annotations

import mmap
import os
import time
from collections import defaultdict
from collections.abc import Callable
from functools import partial
from itertools import chain
from typing import Any, NamedTuple

import numpy as np

from v8atlas.formats import code as FC

from .. import heap, pool
from ..config import words as W
from ..config.model import Configuration
from ..documents import Edge
from ..links import ConfigModels
from .doccomment import summary
from .events import handlers_of, is_event_handler
from .lexer import _compiled
from .read import check_owners, forget_received
from .index import CodeIndex, ModuleEntry, ProcEntry
from .model import CodeModel, Module, ModuleRef, Procedure
from .model import ModuleKind as K

MAX_LABEL_NAMES = 6           # procedures named on one usage edge
FORK_CARDS = 4_000            # procedures in a view from which its cards are shared with a forked child
CARD_BATCH = 32               # modules whose cards one task writes (SSL: ~0.6 MB packed)
USAGE_EDGE = {"query": "code_reads", "write": "code_writes"}   # anything else: code_uses
_DIRECTIVE_RU = {"AtClient": "НаКлиенте", "AtServer": "НаСервере", "AtServerNoContext": "НаСервереБезКонтекста",
                 "AtClientAtServerNoContext": "НаКлиентеНаСервереБезКонтекста",
                 "AtClientAtServer": "НаКлиентеНаСервере"}
# Common module flags (config model props) → how availability names them.
_FLAGS = (("server", "server"), ("client_managed_application", "client"),
          ("client_ordinary_application", "client (ordinary application)"),
          ("external_connection", "external connection"), ("server_call", "server call"),
          ("global", "global"), ("privileged", "privileged"))
_UNSEEN: Any = object()      # a usage not looked at yet (``_ViewLinker._uses``)
_KIND_WHERE = {K.OBJECT: "server", K.MANAGER: "server", K.RECORD_SET: "server", K.VALUE_MANAGER: "server",
               K.SESSION: "server", K.EXTERNAL_CONNECTION: "external connection",
               K.MANAGED_APPLICATION: "client", K.ORDINARY_APPLICATION: "client (ordinary application)"}


def _pairs(parsed: list[tuple[Any, CodeModel]], models: ConfigModels, report: Any
           ) -> dict[str, tuple[Configuration, CodeModel]]:
    """Configuration name → (its model, the code parsed from the same source), owners checked."""
    out: dict[str, tuple[Configuration, CodeModel]] = {}
    for source, code in parsed:
        cfg = models.by_source.get(getattr(source, "name", ""))
        if cfg is None or not isinstance(code, CodeModel):
            continue          # the configuration domain refused this source: nothing to own the code
        check_owners(code, cfg, report)
        out.setdefault(cfg.name, (cfg, code))
    return out


def _view_sources(info: dict[str, Any], by_view: dict[str, str],
                  pairs: dict[str, tuple[Configuration, CodeModel]]) -> list[tuple[str, Configuration, CodeModel]]:
    """(origin, configuration, code) that make up a view: the base first, then its extensions
    (an attached extension has no view of its own; its view name is its configuration's name)."""
    base = by_view.get(info["base"], info["base"]) if info.get("base") else info["configuration_name"]
    out = [("", *pairs[base])] if base in pairs else []
    for ext in info.get("extensions") or []:
        if ext in pairs:
            out.append((ext, *pairs[ext]))
    return out


class _ViewLinker:
    """One view: its modules and procedures appended to the index, calls and usages resolved."""

    def __init__(self, index: CodeIndex, view: int, view_name: str, language: str,
                 parts: list[tuple[str, Configuration, CodeModel]]) -> None:
        self.ix, self.view, self.view_name, self.language = index, view, view_name, language
        self.parts = parts
        self.by_ref: dict[ModuleRef, int] = {}
        self.objects: dict[str, str] = {}        # folded "Catalog.x" → "Catalog.X"
        self.props: dict[str, dict[str, Any]] = {}
        # The view's procedures' names folded, by id from ``first`` (``add_modules`` numbers them
        # in a row): folded once, where the event handlers and extension targets are matched
        self.first = len(index.procs)
        self.folded: list[str] = []
        self.annotated: set[ModuleRef] = set()   # modules with an extension's annotated procedure
        # (cls, name) of a usage → the object's path and name (``_object``; None: no such object)
        self._paths: dict[tuple[str, str], tuple[str, str] | None] = {}
        # (owner, object, edge kind) → addresses of the procedures that use it (``_uses``)
        self.grouped: defaultdict[tuple[str, str, str], list[str]] = defaultdict(list)
        # procedure id → its card's ``uses``, when made before the cards (``collect_uses``)
        self.uses: dict[int, list[list[str]]] | None = None
        for _origin, cfg, _code in parts:
            for o in cfg.objects:
                self.objects.setdefault(o.full_name.casefold(), o.full_name)
                if o.cls == "CommonModule":
                    self.props.setdefault(o.full_name, {}).update(
                        {k: v for k, v in o.props.items() if v})

    # -- modules and procedures ------------------------------------------------------------
    def add_modules(self) -> None:
        for origin, _cfg, code in self.parts:
            for m in code.modules:
                self._add_module(m, origin, code.vocabulary)

    def _add_module(self, m: Module, origin: str, vocabulary: list[str]) -> None:
        mid = self.by_ref.get(m.ref)
        if mid is None:
            mid = len(self.ix.modules)
            self.by_ref[m.ref] = mid
            self.ix.modules.append(ModuleEntry(m.ref, self.view, [m.file], [origin], doc=m.doc,
                                               terms=m.terms))
        else:
            entry = self.ix.modules[mid]
            entry.files.append(m.file)
            entry.origins.append(origin)
        entry = self.ix.modules[mid]
        for p in m.procedures:
            pid = len(self.ix.procs)
            self.ix.procs.append(ProcEntry(p, mid, self.view, origin, vocabulary))
            entry.procs.append(pid)
            folded = p.name.casefold()
            self.folded.append(folded)
            entry.names.setdefault(folded, pid)
            if p.annotation:
                self.annotated.add(m.ref)

    def folded_name(self, pid: int) -> str:
        """A procedure's name, folded (``add_modules``)."""
        return self.folded[pid - self.first]

    # -- calls ------------------------------------------------------------------------------
    def resolve_calls(self) -> None:
        modules = self.ix.modules
        common: dict[str, ModuleEntry] = {}
        managers: dict[tuple[str, str], ModuleEntry] = {}
        global_names: dict[str, int] = {}
        for mid in self.by_ref.values():
            e = modules[mid]
            cls, _, name = e.ref.owner.partition(".")
            if cls == "CommonModule" and e.ref.kind == K.COMMON:
                common[name.casefold()] = e
                if self.props.get(e.ref.owner, {}).get("global"):
                    for pid in e.procs:
                        if self.ix.procs[pid].proc.export:
                            global_names.setdefault(self.folded_name(pid), pid)
            elif e.ref.kind == K.MANAGER:
                managers[(cls, name.casefold())] = e
        # Each distinct token folded once per view (``folded``, filled as they come): modules
        # call the same few names over and over; the modules' names by their folded names
        common_names = {name: e.names for name, e in common.items()}
        manager_names = {key: e.names for key, e in managers.items()}
        folded: dict[str, str] = {}
        for mid in self.by_ref.values():
            _resolve(self.ix.procs, modules[mid].procs, folded, modules[mid].names, global_names,
                     common_names, manager_names)

    # -- usages -----------------------------------------------------------------------------
    def collect_uses(self) -> None:
        """Every procedure's ``uses`` and the usage edges' keys at once, before the cards
        (which then take them from ``uses``): the usage edges are known before any card is
        written (the link apart answers the compile then: ``link_apart``)."""
        lang = 0 if self.language == W.RU else 1
        grouped: list[tuple[tuple[str, str, str], str]] = []
        self.uses = {}
        for mid in self.by_ref.values():
            e = self.ix.modules[mid]
            address = FC.module_address(*e.ref, lang=lang)
            for pid in e.procs:
                p = self.ix.procs[pid].proc
                if p.usages:
                    self.uses[pid] = self._uses(e, p, f"{address}.{p.name}", grouped)
        for key, address in grouped:
            self.grouped[key].append(address)

    def _uses(self, e: ModuleEntry, p: Procedure, address: str,
              grouped: list[tuple[tuple[str, str, str], str]]) -> list[list[str]]:
        """The card's ``uses`` ([object, edge kind] sorted); the module owner's usage edges'
        keys are collected on the way, each with the procedure (``grouped``: ``usage_edges``)."""
        if not p.usages:             # most procedures mention no metadata object
            return []
        uses: dict[str, str] = {}
        named: dict[str, str] = {}          # path → as the view's language names it
        # sorted: the first read/write kind wins (whatever order a model was made in)
        for cls, name, how in sorted(p.usages):
            found = self._paths.get((cls, name), _UNSEEN)
            if found is _UNSEEN:
                found = self._object(cls, name)
            if found is None:
                continue
            path = found[0]
            named[path] = found[1]
            kind = USAGE_EDGE.get(how, "code_uses")
            # one kind per object and procedure: a query read or a write says more than a mention
            if uses.get(path) in (None, "code_uses"):
                uses[path] = kind
        if e.ref.owner != "Configuration":
            for path, kind in uses.items():
                if path != e.ref.owner:
                    grouped.append(((e.ref.owner, path, kind), address))
        return sorted([named[path], kind] for path, kind in uses.items())

    def _object(self, cls: str, name: str) -> tuple[str, str] | None:
        """A usage's object: its path and its name in the view's language (None: no such
        object), once per view (procedures mention the same few objects over and over)."""
        path = self.objects.get(f"{cls}.{name}".casefold())
        found = self._paths[(cls, name)] = None if path is None else (path, W.ref_name(path, self.language))
        return found

    def usage_edges(self, doc_key: Any) -> list[Edge]:
        """The usage edges ``cards`` collected: one per (owner, object, kind), labelled with
        the procedures."""
        edges = []
        for (src, dst, kind), procs in sorted(self.grouped.items()):
            names = sorted(set(procs))
            label = ", ".join(names[:MAX_LABEL_NAMES]) + (f" (+{len(names) - MAX_LABEL_NAMES})"
                                                          if len(names) > MAX_LABEL_NAMES else "")
            edges.append(Edge(doc_key(self.view_name, src), doc_key(self.view_name, dst), kind, label))
        self.grouped.clear()
        return edges

    # -- cards ------------------------------------------------------------------------------
    def module_availability(self, e: ModuleEntry) -> list[str]:
        """Where a module's procedures run, before their own directive and ``#Если``."""
        if e.ref.owner.partition(".")[0] == "CommonModule":
            props = self.props.get(e.ref.owner, {})
            return [label for key, label in _FLAGS if props.get(key)]
        return [_KIND_WHERE[e.ref.kind]] if e.ref.kind in _KIND_WHERE else []

    def cards(self, meanwhile: Callable[[], None] | None = None, last: bool = False,
              resolved: bool = False) -> None:
        """Every procedure's card, written whole and packed at once (``seal_card``) into
        ``CodeIndex.cards``: the extension links (``_extension_keys``), the usages and the call
        counts are known before it is packed, so no card stays a dict past its own procedure.

        The cards are most of the link's time and each module's need only the view's data,
        read-only: at ``FORK_CARDS`` procedures they are shared by this process and one forked
        child (``pool.fork_share``: this process from the first batch on, the child from the
        last, until they meet; two forked workers (``fork_imap``, before) cost 0.4–0.5 s more CPU at
        SSL for no shorter link, docs/perf/code.md, "the build and the forks"), ``CARD_BATCH``
        modules a task, each batch packed and compressed where it is written
        (``cardstore.pack_chunk``: the card store's frames); taken in module order, whoever wrote them, so the index is
        the same as written here in one process.

        The child is forked before the calls are resolved (``pool.fork_share``'s ``first``): it
        writes cards while this process resolves them, and puts their call counts in once this
        process has published them (``_CallCounts``). What only this process can do is done
        while the child writes (its share of the batches is then smaller): ``meanwhile()``
        after its first batch (before any is taken), and each batch taken (and, in the ``last``
        view, its procedures' tokens dropped: ``_drop_tokens``) as soon as the batches before
        it are — done after the child's end, they were serial."""
        from .cardstore import PackedCards
        if self.ix.cards is None:
            self.ix.cards = PackedCards()
        self.ix.cards.reserve(len(self.ix.procs))
        mids = list(self.by_ref.values())
        n_procs = sum(len(self.ix.modules[mid].procs) for mid in mids)
        batches = [mids[i:i + CARD_BATCH] for i in range(0, len(mids), CARD_BATCH)]
        pooled = n_procs >= FORK_CARDS
        counts = _CallCounts(len(self.ix.procs), shared=pooled and pool.splits())

        def resolve() -> None:
            if not resolved:     # (else resolved before: ``_link``'s early answer)
                self.resolve_calls()
            # Per procedure of the view (ids ``first`` on, ``add_modules``): its callees, and
            # its callers — a view's calls resolve within the view, so every callee of its
            # procedures, counted at once (not one by one in Python)
            procs, first = self.ix.procs[self.first:], self.first
            callees = [0] * first + [len(pe.callees) for pe in procs]
            every = np.fromiter(chain.from_iterable(pe.callees for pe in procs), dtype=np.int64)
            counts.publish(callees, np.bincount(every, minlength=len(self.ix.procs)).tolist())

        finish = partial(_finished, counts)
        if pooled:      # the child writes cards while this process resolves the calls
            written = pool.fork_share(_write_cards, batches, (self, counts), first=resolve, finish=finish)
        else:
            resolve()
            written = ((i, finish(self.write_cards(b, counts))) for i, b in enumerate(batches))
        waiting: dict[int, _WrittenCards] = {}
        taken = 0
        for i, answer in written:
            if meanwhile is not None:       # (before any batch is taken: it reads the tokens)
                meanwhile()
                meanwhile = None
            waiting[i] = answer
            while taken in waiting:         # in module order, whoever wrote them
                self._take(batches[taken], waiting.pop(taken), last)
                taken += 1
        if meanwhile is not None:           # a view without modules
            meanwhile()

    def _take(self, batch: list[int], answer: _WrittenCards, last: bool) -> None:
        """One batch's written cards into the index."""
        module_cards, (priors, deprecated, summaries), chunk, grouped = answer
        for mid, card in zip(batch, module_cards):
            self.ix.modules[mid].address = card["address"]
            self.ix.module_cards.append(card)
        taken = list(map(self.ix.procs.__getitem__, chunk[0]))       # (ids: the chunk's)
        for pe, prior, old, one_line in zip(taken, priors, deprecated, summaries):
            pe.prior, pe.deprecated, pe.summary = prior, old, one_line
        if last:            # no later view reads its tokens
            _drop_tokens([pe.proc for pe in taken])
        self.ix.cards.add_chunk(*chunk)
        for key, address in grouped:
            self.grouped[key].append(address)

    def write_cards(self, mids: list[int], counts: "_CallCounts") -> "_Unfinished":
        """The cards of these modules (``cards``) as ``_Unfinished``: compressed at once when
        the call counts are known here, else held (``_CallCounts.pending``) until they are."""
        from .build import seal_card      # the builder's packing (and its imports) only here
        final = counts.ready()
        if final:
            counts.finish_pending()
        callees, callers = counts.callees, counts.callers
        lang = 0 if self.language == W.RU else 1
        module_cards: list[dict[str, Any]] = []
        # per procedure, in the order of ``rids``: its prior, deprecated flag and one-line
        # summary (three lists, not a tuple each: the child's answer is pickled)
        priors: list[float] = []
        deprecated: list[bool] = []
        summaries: list[str] = []
        rids: list[int] = []
        packed_cards: list[bytes] = []
        grouped: list[tuple[tuple[str, str, str], str]] = []
        # per module and per view what every card of it repeats; per procedure only what
        # it has (most have no usages, description or described parameters)
        directives = {k: "&" + (v if lang == 0 else k) for k, v in _DIRECTIVE_RU.items()}
        script = "en" if lang else "ru"
        folded, first = self.folded, self.first
        for mid in mids:
            e = self.ix.modules[mid]
            address = FC.module_address(*e.ref, lang=lang)
            owner = W.ref_name(e.ref.owner, self.language) if e.ref.owner != "Configuration" else ""
            module_where = self.module_availability(e)
            late = self._extension_keys(e, address)
            events = handlers_of(e.ref.kind)
            files = dict(zip(reversed(e.origins), reversed(e.files)))    # the first file per origin
            for pid in e.procs:
                pe = self.ix.procs[pid]
                p = pe.proc
                info = p.info           # (its ``params``: the described ones, not the card's)
                described = info.get("params") if info else None
                if described:
                    by_name = {d["name"].casefold(): d for d in described}
                    params = [[x.name, x.by_value, x.default, *_described(by_name, x.name)] for x in p.params]
                else:
                    params = [[x.name, x.by_value, x.default, "", ""] for x in p.params]
                where = module_where
                if p.directive or p.conditions:
                    where = [*module_where]
                    if p.directive:
                        where.append(directives.get(p.directive) or "&" + p.directive)
                    if p.conditions:
                        where.append("#Если " + " И ".join(p.conditions))
                own = f"{address}.{p.name}"
                card = {
                    "address": own, "name": p.name, "module": address,
                    "owner": owner,
                    "module_kind": e.ref.kind, "function": p.is_function, "export": p.export,
                    # [name, Знач, default or None, type from the doc comment, its description]
                    "params": params,
                    "directive": p.directive, "async": p.is_async, "region": p.region,
                    "conditions": p.conditions, "availability": where,
                    "lines": [p.line, p.end_line], "file": files[pe.origin],
                    "config": self.view_name, "script": script,
                }
                if info:                # most procedures have no doc comment
                    card.update(info)
                    if described is not None:
                        card["params"] = params     # (in its place among the card's keys)
                if pe.origin:
                    card["extension"] = pe.origin
                if p.annotation:
                    card["annotation"] = [p.annotation.kind, p.annotation.target,
                                          FC.ANNOTATION_RU[p.annotation.kind]]
                if p.inserts or p.deletes:
                    card["changes_blocks"] = {"inserted": p.inserts, "deleted": p.deletes}
                if events and folded[pid - first] in events:
                    card["event_handler"] = True
                if pid in late:
                    card.update(late[pid])
                card["uses"] = (self._uses(e, p, own, grouped) if self.uses is None
                                else self.uses.get(pid, [])) if p.usages else []
                # (0 until the counts are known: ``_finished`` puts them in the packed card)
                card["callees"], card["callers"] = (callees[pid], callers[pid]) if final else (0, 0)
                prior, old, packed = seal_card(card)
                description = info.get("description") if info else None
                priors.append(prior)
                deprecated.append(old)
                summaries.append(FC.one_line(description) if description else "")
                rids.append(pid)
                packed_cards.append(packed)
            module_cards.append(self._module_card(e, address, lang))
        answer: _Unfinished = [module_cards, (priors, deprecated, summaries), rids, packed_cards, grouped, None]
        if final:
            _compress(answer)
        else:
            counts.pending.append(answer)
        return answer

    def _module_card(self, e: ModuleEntry, address: str, lang: int) -> dict[str, Any]:
        procs = [self.ix.procs[pid] for pid in e.procs]
        return {"address": address, "aliases": FC.module_aliases(*e.ref), "owner": e.ref.owner,
                "kind": e.ref.kind, "child": e.ref.child, "files": e.files, "config": self.view_name,
                "procedures": len(procs), "exported": sum(1 for pe in procs if pe.proc.export),
                "extensions": sorted({o for o in e.origins if o}),
                "doc": summary(e.doc, 300) if e.doc else ""}

    def _extension_keys(self, e: ModuleEntry, address: str) -> dict[int, dict[str, Any]]:
        """``&Перед("X")`` etc. in one module: the extension procedure → the base procedure it
        changes (``changes``, and ``changed_by`` on the base one), or why not — per procedure
        id, in the order the cards list them. The base procedure is in the same module."""
        late: dict[int, dict[str, Any]] = {}
        if e.ref not in self.annotated:      # (most modules: no procedure of theirs read)
            return late
        for pid in e.procs:
            pe = self.ix.procs[pid]
            ann = pe.proc.annotation
            if not ann or not ann.target:
                continue
            keys = late.setdefault(pid, {})
            wanted = ann.target.casefold()
            target = next((q for q in e.procs if self.folded_name(q) == wanted and not self.ix.procs[q].origin), None)
            if target is None:
                keys["annotation_unresolved"] = True
                # Real extensions annotate platform events the base module does not handle
                # (&После("ПередЗаписью") on a record set module without one): say so.
                if is_event_handler(e.ref.kind, ann.target):
                    keys["annotation_event"] = True
                continue
            keys["changes"] = f"{address}.{self.ix.procs[target].proc.name}"
            changed = late.setdefault(target, {}).setdefault("changed_by", [])
            changed.append([f"{address}.{pe.proc.name}", ann.kind, pe.origin])
        return late


# ``_ViewLinker.write_cards``'s answer: [module cards, (priors, deprecated flags, summaries)
# in the order of the procedure ids, the ids, their packed cards, [(usage edge key, procedure
# address)], the packed cards as one chunk of frames (``cardstore.pack_chunk``) — None until
# the cards hold their call counts]; a list: the batches a child wrote before the counts were
# known are finished in place (``_CallCounts.finish_pending``)
_Unfinished = list[Any]
# ``_finished``'s: (module cards, (priors, deprecated flags, summaries), chunk, usage edge keys)
_WrittenCards = tuple[list[dict[str, Any]], tuple[list[float], list[bool], list[str]],
                      tuple[list[int], list[int], bytes, int],
                      list[tuple[tuple[str, str, str], str]]]


class _CallCounts:
    """Each procedure's callees and callers counts, the last two values of its card. Published
    by the process that resolves the calls (``resolve_calls``); when ``shared``, also to the
    card child forked before that, through an anonymous shared mapping inherited by the fork:
    the counts, then a flag word the child polls. No semaphore: a process-shared event made
    the publisher wait on a waiter that had died (a killed child hung the compile), and its
    waiter waited forever on a dead publisher; the child checks its parent while it polls."""

    _POLL_S = 0.002      # the child's wait comes once, after its last batch

    def __init__(self, n: int, shared: bool) -> None:
        self.n = n
        self.callees: list[int] = []
        self.callers: list[int] = []
        self._ready = False
        self.pending: list[_Unfinished] = []      # written here before the counts were known
        self._shared = mmap.mmap(-1, 8 + 8 * n) if shared and n else None
        self._publisher = os.getpid()

    def publish(self, callees: list[int], callers: list[int]) -> None:
        self.callees, self.callers, self._ready = callees, callers, True
        if self._shared is not None:
            self._array()[:] = (callees, callers)
            self._shared[:8] = _PUBLISHED       # after the counts: the child reads them once set

    def ready(self) -> bool:
        """Whether the counts are known here (without waiting)."""
        if not self._ready and self._shared is not None and self._shared[:8] == _PUBLISHED:
            self._load()
        return self._ready

    def wait(self) -> None:
        """Until the counts are published; a child whose publisher has ended leaves at once
        (its answer would go nowhere, and its pipes would keep the others waiting)."""
        while not self.ready():
            assert self._shared is not None, "counts never published"
            if os.getppid() != self._publisher:
                os._exit(1)
            time.sleep(self._POLL_S)

    def finish_pending(self) -> None:
        """The batches written here before the counts were known, finished in place as soon as
        they are (not all at this process's end, after its last batch)."""
        while self.pending:
            _put_counts(self, self.pending.pop())

    def _load(self) -> None:
        got = self._array()
        self.callees, self.callers, self._ready = got[0].tolist(), got[1].tolist(), True

    def _array(self) -> np.ndarray:
        return np.frombuffer(self._shared, dtype=np.int32, count=2 * self.n, offset=8).reshape(2, self.n)


_PUBLISHED = b"counts\x00\x01"


def _finished(counts: _CallCounts, answer: _Unfinished) -> _WrittenCards:
    """A batch's answer with its cards' call counts, compressed as one chunk of frames
    (``fork_share``'s ``finish``: in the child, after its last batch, it waits for the counts
    if it must). The card store keeps those frames as they are."""
    if answer[5] is None:
        counts.wait()
        counts.finish_pending()           # this one among them, as it was written here
        if answer[5] is None:
            _put_counts(counts, answer)
    module_cards, procs, _rids, _packed, grouped, chunk = answer
    return module_cards, procs, chunk, grouped


def _put_counts(counts: _CallCounts, answer: _Unfinished) -> None:
    """The call counts into a batch's cards written before they were known, and the batch
    compressed. Those cards end with zero counts (``write_cards``): their last two values are
    packed again (the map's length and every other byte stay as they are)."""
    rids, packed = answer[2], answer[3]
    zero = _count_tail(0, 0)
    callees, callers, tails = counts.callees, counts.callers, _TAILS
    for k, (rid, card) in enumerate(zip(rids, packed)):
        assert card.endswith(zero)
        key = (callees[rid], callers[rid])
        packed[k] = card[:-len(zero)] + (tails.get(key) or _count_tail(*key))
    _compress(answer)


def _compress(answer: _Unfinished) -> None:
    from .cardstore import pack_chunk
    answer[5] = pack_chunk(answer[2], answer[3])
    answer[2] = answer[3] = None      # (not pickled back to the parent twice)


_TAILS: dict[tuple[int, int], bytes] = {}     # (callees, callers) → ``_count_tail``


def _count_tail(callees: int, callers: int) -> bytes:
    """The end of a packed card: its ``callees`` and ``callers`` keys and values (memoized:
    most procedures share a few pairs of small counts; packed anew per card, they were most of
    ``_put_counts``)."""
    from v8atlas.formats.writer import pack_record
    tail = _TAILS[(callees, callers)] = (pack_record("callees") + pack_record(callees)
                                         + pack_record("callers") + pack_record(callers))
    return tail


def _write_cards(mids: list[int]) -> _Unfinished:
    """A ``fork_share`` task: the cards of these modules, from the view linker and the call
    counts the parent publishes (``pool.fork_state()``)."""
    linker, counts = pool.fork_state()
    return linker.write_cards(mids, counts)


def _resolve_module(procs: list[ProcEntry], pids: list[int], folded: dict[str, str],
                    names: dict[str, int], global_names: dict[str, int],
                    common: dict[str, dict[str, int]], managers: dict[tuple[str, str], dict[str, int]]) -> None:
    """The callees of one module's procedures ``procs[pid]``, each a sorted tuple where it calls
    any (``ProcEntry.callees``): ``Имя(`` — the module's own procedure (``names``: folded name →
    id) or a global module's export, not itself; ``Модуль.Имя(`` and ``ОбщийМодуль("Модуль").Имя(``
    — a common module's (``common``: its folded name → its names); a usage ``(class, object,
    "call:Имя")`` — the manager module's (``managers``: (class, folded object) → its names).
    ``folded``: each raw name's ``casefold``, filled as they come. The reference of the compiled
    ``resolve_calls`` (``_bslscan.c``), and what runs without it."""
    def fold(s: str) -> str:
        f = folded.get(s)
        if f is None:
            f = folded[s] = s.casefold()
        return f

    for pid in pids:
        pe = procs[pid]
        p = pe.proc
        out: set[int] = set()
        for n in p.local_calls:
            f = folded.get(n) or fold(n)
            target = names.get(f)
            if target is None:
                target = global_names.get(f)
            if target is not None and target != pid:
                out.add(target)
        for q, n in (*p.qualified_calls, *p.literal_module_calls):
            m = common.get(folded.get(q) or fold(q))
            target = m.get(folded.get(n) or fold(n)) if m is not None else None
            if target is not None:
                out.add(target)
        for cls, obj, how in p.usages:
            if how.startswith("call:"):
                m = managers.get((cls, folded.get(obj) or fold(obj)))
                target = m.get(fold(how[5:])) if m is not None else None
                if target is not None:
                    out.add(target)
        if out:                 # most call nothing resolvable: the shared empty tuple
            pe.callees = tuple(sorted(out))


_resolve: Callable[..., None] = getattr(_compiled, "resolve_calls", None) or _resolve_module


def _described(described: dict[str, dict[str, Any]], name: str) -> tuple[str, str]:
    """A parameter's type and description from the doc comment's ``Параметры:`` (by folded name)."""
    d = described.get(name.casefold()) if described else None
    return (d.get("type", ""), d.get("text", "")) if d else ("", "")


def _api_by_region(index: CodeIndex, e: ModuleEntry) -> list[dict[str, Any]]:
    regions: dict[str, list[list[Any]]] = {}
    for pid in e.procs:
        pe = index.procs[pid]
        if not pe.proc.export:
            continue
        regions.setdefault(" / ".join(pe.proc.region) or "—", []).append(   # as its card says
            [pe.proc.name, summary(pe.proc.info.get("description", "")), pe.proc.is_function,
             bool(pe.proc.info.get("deprecated"))])     # as its card will say (``seal_card``)
    return [{"region": r, "procedures": items} for r, items in regions.items()]


def _handlers(vl: _ViewLinker, e: ModuleEntry) -> list[str]:
    events = handlers_of(e.ref.kind)
    if not events:
        return []
    return [vl.ix.procs[pid].proc.name for pid in e.procs if vl.folded_name(pid) in events]


def _enrichments(index: CodeIndex, vl: _ViewLinker, doc_key: Any) -> list[tuple[Any, str, Any]]:
    """What a view's owners' cards gain — a common module's API by region and counts, an
    object's modules — as (document key, card field, value), in the order a card takes them
    (``_apply_enrichments`` puts them in). Made while the view's cards are written
    (``_ViewLinker.cards``' ``meanwhile``): it reads the procedures' doc comments, not their cards."""
    lang = 0 if vl.language == W.RU else 1
    out: list[tuple[Any, str, Any]] = []
    per_owner: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for mid in vl.by_ref.values():
        e = index.modules[mid]
        if e.ref.owner == "Configuration" or not e.procs:   # an empty module file says nothing
            continue
        if e.ref.kind == K.COMMON and e.ref.owner.startswith("CommonModule."):
            key = doc_key(vl.view_name, e.ref.owner)
            out.append((key, "api", _api_by_region(index, e)))
            out.append((key, "code", {"procedures": len(e.procs), "exported": sum(
                1 for pid in e.procs if index.procs[pid].proc.export)}))
            continue
        entry: dict[str, Any] = {"module": FC.module_address(*e.ref, lang=lang),
                                 "procedures": len(e.procs)}
        handlers = _handlers(vl, e)
        if handlers:
            entry["handlers"] = handlers
        exported = sum(1 for pid in e.procs if index.procs[pid].proc.export)
        if exported:
            entry["exported"] = exported
        per_owner[e.ref.owner].append(entry)
    for owner, entries in per_owner.items():
        out.append((doc_key(vl.view_name, owner), "modules", sorted(entries, key=lambda x: x["module"])))
    return out


def _apply_enrichments(enrichments: list[tuple[Any, str, Any]], docs: list[Any]) -> None:
    """``_enrichments`` put in the cards of the documents there are (an owner without a
    document — its object left out of the configuration's documents — gains nothing)."""
    docs_by_key = {d.key: d for d in docs}
    for key, name, value in enrichments:
        doc = docs_by_key.get(key)
        if doc is not None:
            doc.card[name] = value


def _view_counts(index: CodeIndex, vl: _ViewLinker) -> dict[str, int]:
    procs = [index.procs[pid] for mid in vl.by_ref.values() for pid in index.modules[mid].procs]
    return {"modules": len(vl.by_ref), "procedures": len(procs),
            "exported": sum(1 for pe in procs if pe.proc.export),
            "calls": sum(len(pe.callees) for pe in procs)}


def _drop_tokens(procs: list[Procedure]) -> None:
    """Drop what only the link reads of a parsed procedure — the call and usage tokens, the
    parameters, the parsed doc comment (all in its packed card now) — before the build and
    its forked children start on top of it: at SSL × 12 they were ~40 MB per copy of the
    memory the build's peak stands on. A parse cache is always written before the link
    (``pipeline._save_unkeyed``, from the workers' rows: ``read._cache_form``); the
    linked-model cache and the build read none of it."""
    for p in procs:          # (a batch's in one call, not a call per procedure)
        p.params, p.info = [], {}
        p.local_calls = p.qualified_calls = p.literal_module_calls = p.usages = ()


def _drop_linked(index: CodeIndex, dropped: int | None) -> None:
    """``_drop_tokens`` of every procedure but those of view ``dropped`` (its cards dropped
    them as they were taken: ``_ViewLinker._take``)."""
    _drop_tokens([pe.proc for pe in index.procs if pe.view != dropped])


def link(parsed: list[tuple[Any, CodeModel]], ctx: Any) -> None:
    """The code domain's link in the compile's process (one core, or a compile from its
    parse cache beside a linked-model miss): ``_link``, its answer put in ``ctx``."""
    linked = _link(parsed, ctx.links.get(ConfigModels), ctx.info.get("configurations") or [], ctx.report)
    if linked is not None:
        index, edges, enrichments, counts = linked
        ctx.links.put(index)
        _merge(edges, enrichments, counts, ctx)


def _merge(edges: list[Any], enrichments: list[tuple[Any, str, Any]], counts: dict[str, Any],
           ctx: Any) -> None:
    ctx.edges += edges
    _apply_enrichments(enrichments, ctx.docs)
    ctx.counts["code"] = counts


def _link(parsed: list[tuple[Any, CodeModel]], models: ConfigModels | None, infos: list[dict[str, Any]],
          report: Any, early: Callable[[CodeIndex, list[Any], list[tuple[Any, str, Any]], dict[str, Any]], None]
          | None = None
          ) -> tuple[CodeIndex, list[Any], list[tuple[Any, str, Any]], dict[str, Any]] | None:
    """Every view's modules and procedures into one ``CodeIndex``, calls and usages resolved,
    cards written: (the index, the usage edges, the owners' cards' additions
    (``_enrichments``), the counts per view), or None when there is nothing to link.
    ``early(index, edges, additions, counts)``: called with those as soon as they are known — every
    view's calls and usages resolved — before any card is written."""
    from ..config.link import doc_key  # the configuration domain's document keys
    for _source, model in parsed:   # the parse cache is written (or forked off) by now, and
        forget_received(model)       # the link changes the models: their rows go
    if not parsed or models is None:     # no configuration in this compile (help books only…)
        return None
    pairs = _pairs(parsed, models, report)
    if not pairs or not infos:
        return None
    by_view = {i["name"]: i["configuration_name"] for i in infos}
    views = [(info, parts) for info in infos if (parts := _view_sources(info, by_view, pairs))]
    index = CodeIndex()
    edges: list[Any] = []
    enrichments: list[tuple[Any, str, Any]] = []
    counts: dict[str, dict[str, int]] = {}
    if early is not None:
        _link_early(index, views, edges, enrichments, counts, early)
        return index, edges, enrichments, {v: counts[v] for v in index.views}
    for info, parts in views:
        vl = _add_view(index, info, parts)      # (the calls are resolved by ``cards``, beside its child)

        def meanwhile(vl: _ViewLinker = vl) -> None:
            enrichments.extend(_enrichments(index, vl, doc_key))
            counts[vl.view_name] = _view_counts(index, vl)

        # (a later view may hold the same parsed procedures: the last one's drop as they go)
        vl.cards(meanwhile, last=vl.view == len(views) - 1)
        edges += vl.usage_edges(doc_key)
    _drop_linked(index, len(views) - 1)   # (the parse cache was written before the link: _save_unkeyed)
    heap.trim()      # before the build forks its children (their RSS starts at this one's)
    return index, edges, enrichments, {v: counts[v] for v in index.views}


def _add_view(index: CodeIndex, info: dict[str, Any], parts: list) -> _ViewLinker:
    """A view's linker, its name in the index, its modules and procedures added."""
    vl = _ViewLinker(index, len(index.views), info["name"], info.get("language") or W.RU, parts)
    index.views.append(info["name"])
    vl.add_modules()
    return vl


def _link_early(index: CodeIndex, views: list[tuple[dict[str, Any], list]], edges: list[Any],
                enrichments: list[tuple[Any, str, Any]], counts: dict[str, dict[str, int]],
                early: Callable[[CodeIndex, list[Any], list[tuple[Any, str, Any]], dict[str, Any]], None]
                ) -> None:
    """``_link`` answering ``early`` before the cards: every view's calls resolved, usages
    collected (``collect_uses``), edges, additions and counts made first, then the cards."""
    from ..config.link import doc_key
    linkers = []
    for info, parts in views:
        vl = _add_view(index, info, parts)
        vl.resolve_calls()
        vl.collect_uses()
        enrichments.extend(_enrichments(index, vl, doc_key))
        counts[vl.view_name] = _view_counts(index, vl)
        edges += vl.usage_edges(doc_key)
        linkers.append(vl)
    early(index, edges, enrichments, {v: counts[v] for v in index.views})
    for vl in linkers:
        vl.cards(last=vl.view == len(views) - 1, resolved=True)
    _drop_linked(index, len(views) - 1)
    heap.trim()


# -- the link apart (``formats.domain.Apart``: the domain's parse, link and build in a child) --

class _Named(NamedTuple):
    name: str


class _ObjectDigest(NamedTuple):
    """What the code link reads of a configuration object (``check_owners``, ``_ViewLinker``)."""
    full_name: str
    cls: str
    props: dict[str, Any]          # a common module's flags (availability); others: none
    forms: tuple[_Named, ...]
    commands: tuple[_Named, ...]


class _ConfigDigest(NamedTuple):
    """What the code link reads of a parsed configuration: its name, script and objects."""
    name: str
    script_variant: str
    objects: list[_ObjectDigest]


def _digest(cfg: Configuration) -> _ConfigDigest:
    return _ConfigDigest(cfg.name, cfg.script_variant, [
        _ObjectDigest(o.full_name, o.cls, {k: v for k, v in o.props.items() if v} if o.cls == "CommonModule" else {},
                      tuple(_Named(f.name) for f in o.forms), tuple(_Named(c.name) for c in o.commands))
        for o in cfg.objects])


def apart_inputs(ctx: Any) -> tuple[dict[str, _ConfigDigest] | None, list[dict[str, Any]]]:
    """In the compile, at the code link's place: what the link apart reads of the configuration
    domain's — each parsed configuration's digest by its source's name, and the views."""
    models = ctx.links.get(ConfigModels)
    digests = None if models is None else {name: _digest(cfg) for name, cfg in models.by_source.items()}
    return digests, ctx.info.get("configurations") or []


def link_apart(parsed: list[tuple[Any, CodeModel]], inputs: tuple, ctx: Any,
               answer: Callable[[Any], None]) -> None:
    """In the code domain's child: ``_link`` on the digests, answering the compile before the
    cards are written — the edges, the cards' additions, the counts and the form modules'
    procedure names (the forms domain's handler check: ``_handler_index``); the index stays
    here, for the build."""
    digests, infos = inputs
    models = None if digests is None else ConfigModels(by_source=digests)

    def early(index: CodeIndex, edges: list[Any], enrichments: list[tuple[Any, str, Any]],
              counts: dict[str, Any]) -> None:
        answer((edges, enrichments, counts, _handler_index(index)))

    linked = _link(parsed, models, infos, ctx.report, early=early)
    if linked is None:
        answer(None)
        return
    ctx.links.put(linked[0])


def merge_apart(answer: tuple | None, ctx: Any) -> None:
    """In the compile: the link apart's answer put in (as ``link`` puts its own)."""
    if answer is None:
        return
    edges, enrichments, counts, handlers = answer
    ctx.links.put(handlers)
    _merge(edges, enrichments, counts, ctx)


def _handler_index(index: CodeIndex) -> CodeIndex:
    """The index as the forms domain's handler check reads it (``forms/handlers.py``): the
    views, and the form modules with their procedures' folded names — no procedures, no
    cards (the build runs where the whole index is)."""
    return CodeIndex(views=list(index.views),
                     modules=[ModuleEntry(m.ref, m.view, [], [], names=m.names)
                              for m in index.modules if m.ref.kind == K.FORM])
