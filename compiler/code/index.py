"""The code domain's typed link, ``CodeIndex``: modules and procedures of every view, as the
code linker (``link.py``) leaves them for the builder and for the forms domain's handler check.
A module of its own so that registering the domain (``domain.py``) needs only these classes,
not the readers and linker a no-change recompile never runs."""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, Iterator

from .. import cache
from .model import PROC_INIT_FIELDS, ModuleRef, Param, Procedure, annotation_of, annotation_row, param_row

if TYPE_CHECKING:
    from .cardstore import PackedCards


@dataclass
class ModuleEntry:
    ref: ModuleRef
    view: int
    files: list[str]
    origins: list[str]                      # "" = the configuration's own; else extension names
    procs: list[int] = field(default_factory=list)
    names: dict[str, int] = field(default_factory=dict)   # folded name → first procedure id
    doc: str = ""
    terms: list[str] = field(default_factory=list)        # search terms of the module's name
    address: str = ""                       # as BSL calls it (``FC.module_address``; set by the link)


# ``slots``: one per procedure (ERP: ~500 k); a ``__dict__`` and an empty ``callees`` set each
# were ~14 MB per SSL copy.
@dataclass(slots=True)
class ProcEntry:
    proc: Procedure
    module: int
    view: int
    origin: str
    vocabulary: list[str]                   # its model's (``CodeModel.vocabulary``: proc.terms' ids)
    callees: tuple[int, ...] = ()           # resolved callee ids, sorted (``link.resolve_calls``)
    # What the build reads of the card (``build.seal_card``); the card itself is packed into
    # ``CodeIndex.cards`` the moment the link has written it.
    prior: float = 0.0
    deprecated: bool = False
    summary: str = ""                       # the first sentence of its description (FC.one_line)


@dataclass
class CodeIndex:
    views: list[str] = field(default_factory=list)
    modules: list[ModuleEntry] = field(default_factory=list)
    module_cards: list[dict[str, Any]] = field(default_factory=list)
    procs: list[ProcEntry] = field(default_factory=list)
    # Every procedure's card as the card store holds it, by procedure id (``cardstore.py``:
    # compressed chunks, not a ``bytes`` per procedure); dropped by the build once stored.
    cards: PackedCards | None = None

    def cache_parts(self) -> Iterator[Any]:
        """This index as the parts of the linked-model cache file (``pipeline._linked_stream``):
        a head, then its modules, module cards and procedures in chunks of ``PART_ROWS`` rows,
        each chunk a marshalled column per field. Pickled as objects, the pickler's memo held
        every object and the temporary state of every slotted one till the dump's end (its
        writer grew 0.86 GB at SSL × 12, 17.5 s CPU; in chunks +0.12 GB, 8.0 s:
        ``tools/bench_linked_cache.py``). ``from_cache_parts`` reads the same parts back."""
        vocabularies: dict[int, int] = {}        # id(list) → its place (one per code model)
        shared = []
        # The bodies' frames by identity (a module's procedures share its frames, views share
        # procedures: the body store copies each once, ``chunked_records``): written once,
        # each body naming its frames by their place — not in each part that has one of its
        # procedures (a module across two parts gave two copies, and another bundle)
        frames: dict[int, int] = {}
        blobs: list[bytes] = []
        for pe in self.procs:
            if id(pe.vocabulary) not in vocabularies:
                vocabularies[id(pe.vocabulary)] = len(shared)
                shared.append(pe.vocabulary)
            body = pe.proc.body
            if type(body) is tuple and id(body[0]) not in frames:
                frames[id(body[0])] = len(blobs)
                blobs.append(body[0])
        yield (self.views, len(self.modules), len(self.module_cards), len(self.procs), shared, self.cards,
               len(blobs))
        for start in range(0, len(blobs), PART_ROWS):
            yield cache.marshalled(blobs[start:start + PART_ROWS])
        for start in range(0, len(self.modules), PART_ROWS):
            chunk = self.modules[start:start + PART_ROWS]
            yield cache.marshalled([[tuple(m.ref) for m in chunk]]
                                   + [[getattr(m, n) for m in chunk] for n in _MODULE_FIELDS[1:]])
        for start in range(0, len(self.module_cards), PART_ROWS):
            yield cache.marshalled(self.module_cards[start:start + PART_ROWS])
        for start in range(0, len(self.procs), PART_ROWS):
            chunk = self.procs[start:start + PART_ROWS]
            procs = [pe.proc for pe in chunk]
            yield cache.marshalled(
                [_stored(n, [getattr(p, n) for p in procs], frames) for n in PROC_INIT_FIELDS]
                + [[vocabularies[id(pe.vocabulary)] if n == "vocabulary" else getattr(pe, n)
                    for pe in chunk] for n in _ENTRY_FIELDS])

    @classmethod
    def from_cache_parts(cls, parts: Iterator[Any]) -> "CodeIndex":
        views, n_modules, n_cards, n_procs, shared, cards, n_blobs = next(parts)
        index = cls(views=views, cards=cards)
        blobs: list[bytes] = []
        while len(blobs) < n_blobs:
            blobs += cache.unmarshalled(next(parts))
        while len(index.modules) < n_modules:
            refs, *columns = cache.unmarshalled(next(parts))
            index.modules += [ModuleEntry(ModuleRef(*ref), *row)
                              for ref, row in zip(refs, zip(*columns))]
        while len(index.module_cards) < n_cards:
            index.module_cards += cache.unmarshalled(next(parts))
        n_proc = len(PROC_INIT_FIELDS)
        vocabulary = _ENTRY_FIELDS.index("vocabulary")
        while len(index.procs) < n_procs:
            columns = cache.unmarshalled(next(parts))
            columns[n_proc + vocabulary] = [shared[i] for i in columns[n_proc + vocabulary]]
            procs = [Procedure(*row) for row in zip(*[_restored(n, column, blobs) for n, column
                                                      in zip(PROC_INIT_FIELDS, columns[:n_proc])])]
            index.procs += [ProcEntry(p, *row) for p, row in zip(procs, zip(*columns[n_proc:]))]
        return index

    def card(self, pid: int) -> dict[str, Any]:
        """A procedure's card as a dict (until the build has stored and dropped them)."""
        from v8atlas.formats.reader import unpack_record
        assert self.cards is not None
        return unpack_record(self.cards[pid])


PART_ROWS = 16_384       # rows per part of the linked-model cache file (~12 MB of procedures)
_MODULE_FIELDS = tuple(f.name for f in fields(ModuleEntry))            # ``ref`` first
_ENTRY_FIELDS = tuple(f.name for f in fields(ProcEntry) if f.name != "proc")   # after ``proc``


def _stored(name: str, column: list[Any], frames: dict[int, int]) -> list[Any]:
    """A column of a procedure field as marshal can write it (parameters, annotations: tuples;
    a body's frames: their place among the index's, ``frames``: id → place)."""
    if name == "params":
        return [[param_row(q) for q in params] for params in column]
    if name == "annotation":
        return [annotation_row(a) for a in column]
    if name == "body":
        return [(frames[id(b[0])], b[1], b[2]) if type(b) is tuple else b for b in column]
    return column


def _restored(name: str, column: list[Any], blobs: list[bytes]) -> list[Any]:
    if name == "params":
        return [[Param(*q) for q in params] for params in column]
    if name == "annotation":
        return [annotation_of(a) for a in column]
    if name == "body":
        return [(blobs[b[0]], b[1], b[2]) if type(b) is tuple else b for b in column]
    return column
