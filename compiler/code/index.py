"""The code domain's typed link, ``CodeIndex``: modules and procedures of every view, as the
code linker (``link.py``) leaves them for the builder and for the forms domain's handler check.
A module of its own so that registering the domain (``domain.py``) needs only these classes,
not the readers and linker a no-change recompile never runs."""
from __future__ import annotations

from array import array
from dataclasses import dataclass, field
from typing import Any

from v8atlas.formats.reader import unpack_record

from . import bodies
from .model import ModuleRef, Procedure


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
    # The card's id in ``CodeIndex.cards``, where the link puts it packed the moment it has
    # written it (``build.seal_card``: the cards as dicts, all alive until the link's end, were
    # its largest memory at scale), with ``brief`` — what the build reads of it: (prior,
    # deprecated, address, one-line description).
    card: int = -1
    brief: tuple[float, bool, str, str] | None = None


class CardStore:
    """The packed cards (``pack_record`` bytes) as zstd frames (``bodies.pack``: half their
    size), one after another in one buffer: a bytes object each, however small, left the
    allocator's arenas holding as much again (measured at × 4 SSL: frames held one each
    lowered no peak)."""

    def __init__(self) -> None:
        self.data = bytearray()
        self.ends = array("Q")

    def add(self, packed: bytes) -> int:
        self.data += bodies.pack(packed)
        self.ends.append(len(self.data))
        return len(self.ends) - 1

    def get(self, i: int) -> bytes:
        """The card as ``pack_record`` wrote it."""
        return bodies.unpack(bytes(self.data[self.ends[i - 1] if i else 0:self.ends[i]]))


@dataclass
class CodeIndex:
    views: list[str] = field(default_factory=list)
    modules: list[ModuleEntry] = field(default_factory=list)
    module_cards: list[dict[str, Any]] = field(default_factory=list)
    procs: list[ProcEntry] = field(default_factory=list)
    cards: CardStore = field(default_factory=CardStore)     # ProcEntry.card → the packed card

    def card(self, pid: int) -> dict[str, Any]:
        """Procedure ``pid``'s card as a dict."""
        return unpack_record(self.cards.get(self.procs[pid].card))
