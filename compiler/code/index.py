"""The code domain's typed link, ``CodeIndex``: modules and procedures of every view, as the
code linker (``link.py``) leaves them for the builder and for the forms domain's handler check.
A module of its own so that registering the domain (``domain.py``) needs only these classes,
not the readers and linker a no-change recompile never runs."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .model import ModuleRef, Procedure

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

    def card(self, pid: int) -> dict[str, Any]:
        """A procedure's card as a dict (until the build has stored and dropped them)."""
        from v8atlas.formats.reader import unpack_record
        assert self.cards is not None
        return unpack_record(self.cards[pid])
