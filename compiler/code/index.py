"""The code domain's typed link, ``CodeIndex``: modules and procedures of every view, as the
code linker (``link.py``) leaves them for the builder and for the forms domain's handler check.
A module of its own so that registering the domain (``domain.py``) needs only these classes,
not the readers and linker a no-change recompile never runs."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

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
    # The card, packed as the card store holds it the moment the link has written it
    # (``build.seal_card``: the cards as dicts, all alive until the link's end, were its
    # largest memory at scale), with ``brief`` — what the build reads of it: (prior,
    # deprecated, address, one-line description).
    card: bytes = b""
    brief: tuple[float, bool, str, str] | None = None

    def card_dict(self) -> dict[str, Any]:
        """The card as a dict."""
        from v8atlas.formats.reader import unpack_record   # (numpy: not at registration)
        return unpack_record(self.card)


@dataclass
class CodeIndex:
    views: list[str] = field(default_factory=list)
    modules: list[ModuleEntry] = field(default_factory=list)
    module_cards: list[dict[str, Any]] = field(default_factory=list)
    procs: list[ProcEntry] = field(default_factory=list)
