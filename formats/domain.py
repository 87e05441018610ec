"""The domain contract: what one kind of knowledge gives the compiler and the server.

A *domain* (configuration metadata, platform help, the dictionary, the coming code and
forms domains…) is one registered object (``formats/registry.py``). Its compile side is a
``Domain``: the source kinds it introduces, the source kinds it reads (several domains may
read the same source: the configuration and code domains both read a Designer dump), its
``v8atlas.toml`` tables, its parse / link / build steps, the document domains and search
fields it adds, the segments it writes and the typed links it provides to or needs from
other domains. Its serve side is a ``ServePart``: the tools it serves and the parameters it
adds to other domains' tools. Both are plain objects; nothing here imports either side.

The contract is versioned with the bundle format: ``CONTRACT_VERSION`` changes when a field
is added here, so a domain written against another contract is refused by name.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, TypeVar

from .version import FORMAT_MAJOR

CONTRACT_VERSION = f"{FORMAT_MAJOR}.3"   # bundle format major . contract revision

# Link stages, in this order. A *model* linker makes documents and edges (its result is cached
# as the linked model); an *index* linker only adds search data to documents (the dictionary),
# so changing only its sources reuses the cached model.
MODEL = "model"
INDEX = "index"
STAGES = (MODEL, INDEX)


class SourceError(Exception):
    """A source cannot be used; the message names it and says what was expected."""


@dataclass(frozen=True)
class Source:
    """One input of a compile, as discovery found it."""
    kind: str                     # source kind: "configuration", "help", "dictionary"…
    format: str                   # "designer", "edt", "designer-zip", "hbk", "dictionary-json"…
    path: Path
    name: str                     # how messages name it: relative to the working folder when inside it
    options: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)
    # How the bundle names it: relative to the sources' common folder, never absolute, so the
    # same inputs compiled from two folders give the same bundle (set by the pipeline).
    portable: str = field(default="", compare=False, hash=False)


@dataclass(frozen=True)
class TomlKey:
    """One key of a ``v8atlas.toml`` table; ``check`` returns a problem ("must be …") or None."""
    name: str
    types: tuple[type, ...]
    meaning: str
    check: Callable[[Any], str | None] | None = None


@dataclass(frozen=True)
class TomlTable:
    """A ``[[name]]`` array of tables; every entry has ``source = "path"`` plus ``keys``.

    Each entry's options reach the parse step of every domain reading the sources found under
    its path as ``Source.options`` (with ``table`` = this table's name)."""
    name: str
    keys: tuple[TomlKey, ...] = ()


@dataclass(frozen=True)
class SourceKind:
    """A kind of input a domain introduces: how to recognize it and how to name it in errors."""
    name: str
    detect: Callable[[Path], str | None]     # its format name when ``path`` is one, else None
    expected: str                            # "a help book (*.hbk)": for "not a recognized source"
    toml_tables: tuple[TomlTable, ...] = ()
    # A kind nothing marks (a folder of documents): a path one of its toml tables declares is
    # a source of this format, taken whole (not scanned for other kinds). None: only
    # ``detect`` claims paths.
    declared_format: str | None = None


@dataclass(frozen=True)
class SearchField:
    """A full-text field a domain's documents fill (``Doc.fields[name]``), with its BM25F weights."""
    name: str
    weight: float
    b: float


# parse(source, report) -> plain, picklable data (cached per source content; may run in a worker)
ParseFn = Callable[[Source, Any], Any]
# link(parsed: this domain's [(source, parse result)], ctx: LinkContext) -> None
LinkFn = Callable[[list[tuple[Source, Any]], Any], None]
# build(ctx: LinkContext, writer: BundleWriter) -> None, after the documents are numbered
BuildFn = Callable[[Any, Any], None]
# reads_files(relative POSIX path below a source) -> whether the domain's parse may open it
FilesFn = Callable[[str], bool]


@dataclass(frozen=True)
class Apart:
    """A domain whose parse, link and build can run whole in one forked child, from the
    compile's start, beside the other domains (``compiler/apart.py``): a domain of its own
    large input (the code domain's modules) whose link needs only a little of the others'.
    Its link is then three steps: ``inputs(ctx)`` in the compile, as soon as the links the
    domain ``needs`` are there (or at its link's place) — what its link reads of the other
    domains' (small, picklable; only what those links' linkers made); ``link(parsed, inputs,
    ctx, answer)`` in the child, on its own context — its link, calling ``answer(value)`` once
    with what the compile needs of it (the edges and additions to other domains' documents,
    the links later linkers read: picklable) as soon as it is known, then going on with what
    only its build reads; ``merge(value, ctx)`` in the compile, at its link's place — that
    answer put in. Its ``build`` runs in the child on the links its ``link`` put there."""
    inputs: Callable[[Any], Any]
    link: Callable[[list[tuple[Source, Any]], Any, Any, Callable[[Any], None]], None]
    merge: Callable[[Any, Any], None]


@dataclass(frozen=True)
class Domain:
    """The compile side of one kind of knowledge."""
    name: str
    source_kinds: tuple[SourceKind, ...] = ()   # kinds it introduces (detection, toml tables)
    reads: tuple[str, ...] = ()                 # source kinds it parses (its own or another's)
    parse: ParseFn | None = None
    # The files below a source of ``reads`` its parse may open (None: any). A compile that
    # skips a domain leaves unhashed the files none of its enabled domains may read, so a
    # predicate must say True for every file it cannot rule out (an unknown file: True).
    reads_files: FilesFn | None = None
    link: LinkFn | None = None
    stage: str = MODEL
    build: BuildFn | None = None
    needs: tuple[type, ...] = ()                # typed links it reads at link time (Links.need)
    provides: tuple[type, ...] = ()             # typed links its link step puts
    doc_domains: tuple[str, ...] = ()           # Doc.domain values its documents carry
    search_fields: tuple[SearchField, ...] = ()
    segments: tuple[str, ...] = ()              # prefixes of the bundle segments its build writes
    # False: its documents keep out of the core indexes (their key and title are no exact
    # names, they have no core full-text entries, they do not count in its statistics); only
    # their declared ``names`` resolve. For a domain that ranks its documents in its own index
    # (corpora), so it cannot move how metadata and platform answers are ranked.
    core_index: bool = True
    # True: its build reads only the links its own link step put and writes only its own
    # segments (nothing another build reads), so the compile runs it in a forked child from
    # the build's start, beside the core's builds, and merges it at its place in this order.
    build_apart: bool = False
    # Its parse, link and build can run whole in a forked child (``Apart``), when the compile
    # forks and parses its sources (not from the linked-model cache).
    apart: Apart | None = None
    contract: str = CONTRACT_VERSION


@dataclass(frozen=True)
class ServePart:
    """The serve side: tools it serves and parameters it adds to other tools.

    ``tools`` holds ``server.tools.spec.ToolSpec`` objects; ``params`` maps a tool name to
    ``Param`` objects whose values reach that tool's function as keyword arguments."""
    name: str
    tools: tuple[Any, ...] = ()
    params: Mapping[str, tuple[Any, ...]] = field(default_factory=dict)
    contract: str = CONTRACT_VERSION


T = TypeVar("T")


class LinkMissing(Exception):
    """A domain needs a link no domain provided in this compile."""


class Links:
    """Typed hand-over between domains: one value per link class.

    A domain that resolves owners through the configuration model ``need``s the link the
    configuration domain ``put``; the pipeline orders linkers so providers run first."""

    def __init__(self) -> None:
        self._values: dict[type, Any] = {}

    def put(self, value: Any) -> None:
        self._values[type(value)] = value

    def get(self, cls: type[T]) -> T | None:
        return self._values.get(cls)

    def need(self, cls: type[T]) -> T:
        value = self._values.get(cls)
        if value is None:
            raise LinkMissing(f"no domain provided {cls.__name__} in this compile")
        return value

    def __getstate__(self) -> dict[type, Any]:
        return self._values

    def __setstate__(self, state: dict[type, Any]) -> None:
        self._values = state
