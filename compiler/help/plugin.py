"""Source plugin for platform help books (*.hbk): detect, open, parse every page.

``parse`` returns a ``ParsedHelpBook`` (picklable, cached per book hash); merging books of
several versions into documents happens later in ``link.py``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from v8atlas.compiler.report import CompileReport
from v8atlas.formats.domain import Source

from . import versions

if TYPE_CHECKING:
    from .context_book import ElementRecord
    from .query_book import QueryRecord

KIND = "help"
QUERY_BOOK = "SyntaxHelperQueries"


@dataclass
class ParsedHelpBook:
    source: str                      # display name
    book: str                        # v8help host (SyntaxHelperContext, SyntaxHelperQueries…)
    domain: str                      # "platform" | "query"
    version: str                     # full version as found ("8.3.27.2130")
    version_source: str              # "option" | "path" | "content"
    markup: str                      # "old" | "new" | "query"
    elements: list[ElementRecord] = field(default_factory=list)
    queries: list[QueryRecord] = field(default_factory=list)
    counts: dict[str, Any] = field(default_factory=dict)
    warnings: int = 0


def detect(path: Path) -> str | None:
    if not (path.is_file() and path.suffix.lower() == ".hbk"):
        return None
    low = path.name.lower()
    if low.startswith("shquery"):
        return "hbk-query"
    if low.startswith(("shcntx", "shlang", "shclang")):
        return "hbk-context"
    return "hbk"


def parse(source: Source, report: CompileReport) -> ParsedHelpBook:
    # The book readers are imported when a book is read: a compile without help books
    # (most configuration compiles) does not pay for them (0.1 s of its start).
    from .hbk import HelpBookError
    try:
        return _parse(source, report)
    except HelpBookError as e:
        # The report pairs the message with the source: do not name the book twice.
        message = str(e)
        if message.startswith(f"{source.name}: "):
            raise HelpBookError(message[len(source.name) + 2:]) from None
        raise


def _parse(source: Source, report: CompileReport) -> ParsedHelpBook:
    from .context_book import read_context_book
    from .hbk import HelpBookError, open_book
    from .query_book import read_query_book
    name = source.name
    book = open_book(source.path, label=name)      # HelpBookError names the book and element
    n_warn = 0

    def warn(page: str, message: str) -> None:
        nonlocal n_warn
        n_warn += 1
        report.warn(name, message, code="help-page", file=page)

    for element, message in book.problems:
        n_warn += 1
        report.warn(name, f"{element}: {message}", code="help-book", object=element)

    if book.name == QUERY_BOOK:
        queries, counts = read_query_book(book, warn)
        parsed = ParsedHelpBook(name, book.name, "query", "", "", "query", queries=queries, counts=counts)
        marks: list[str] = []
    else:
        elements, counts = read_context_book(
            book, warn, lambda page, what: report.note_unknown(name, what, page))
        old = sum(1 for e in elements if e.rec and e.rec.markup == "old")
        markup = "old" if old > len(elements) / 2 else "new"
        parsed = ParsedHelpBook(name, book.name, "platform", "", "", markup, elements=elements,
                                counts=counts)
        marks = [v for e in elements if e.rec for v in
                 (e.rec.since, e.rec.deprecated_since, *e.rec.changed_in) if v]
    if not parsed.elements and not parsed.queries:
        if source.format != "hbk":        # shcntx/shlang/shquery: a syntax-helper book must yield elements
            raise HelpBookError(f"{name}: no elements could be read from this help book "
                                f"({counts.get('pages', 0)} page(s) read)")
        # Other books of the platform folder (UI help, dcsui …) are not syntax-helper books.
        report.warn(name, f"book {book.name or '?'} has no syntax-helper pages "
                          f"({counts.get('pages', 0)} page(s) read); skipped", code="help-book")
        parsed.version, parsed.version_source = source.options.get("version") or "", "none"
        parsed.counts["elements"] = 0
        return parsed

    opt = source.options.get("version")
    if opt:
        parsed.version, parsed.version_source = versions.normalize(str(opt)), "option"
    elif (pv := versions.version_from_path(source.path)) is not None:
        parsed.version, parsed.version_source = pv, "path"
    elif marks:
        parsed.version, parsed.version_source = versions.newest(marks) or "", "content"
        report.warn(name, f"platform version not in the path; taken from the newest version mark "
                          f"in the pages ({parsed.version}), which is only a lower bound. "
                          f"Set it exactly with [[help]] source = \"{name}\" version = \"…\" in "
                          f"v8atlas.toml", code="help-version")
    else:
        raise HelpBookError(versions.fix_message(name))
    parsed.counts["elements"] = len(parsed.elements) or len(parsed.queries)
    parsed.warnings = n_warn
    return parsed
