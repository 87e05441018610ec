"""search_docs and get_doc: the document corpora (guides, format specs, standards, code
templates, project notes) compiled into the bundle; see docs/corpus.md."""
from __future__ import annotations

import threading
import unicodedata
import weakref
from typing import Any

from v8atlas.formats import corpus as C
from v8atlas.formats.domain import ServePart
from v8atlas.formats.reader import Bundle
from v8atlas.formats.text import fold

from ..corpus_search import CorpusHit, corpus_index
from ..snapshot import Snapshot
from . import answer as A
from .result import FOUND, ToolInputError, ToolResult
from .spec import CURSOR, Param, ToolSpec

NOTE_LABEL = "project note (written by the team or an agent; not checked against any configuration)"
_FRAGMENT_LINES = 3


def _card(snap: Snapshot, doc: int) -> dict[str, Any]:
    card = snap.catalog.card(doc)
    return card if isinstance(card, dict) else {}


def citation(card: dict[str, Any]) -> str:
    """How a section is cited: its id and part, the section path, the URL when known."""
    cite = f"`{card['doc']}#{card['part']}` · {' › '.join(card['path'])}"
    return cite + (f" · {card['url']}" if card.get("url") else "")


def folded_text(text: str) -> str | None:
    """The text folded for ``fragments`` (lower case, ё → е), or None when the fold would
    shift offsets (not NFC, or a letter whose lower case is longer)."""
    if text.isascii():              # (a flag of the string: no ё, no letter that grows, NFC)
        return text.lower()
    folded = text.lower().replace("ё", "е")
    if len(folded) != len(text) or not unicodedata.is_normalized("NFC", text):
        return None
    return folded


def fragments(text: str, folded: str | None, stems: list[str], max_chars: int) -> str:
    """The lines of ``text`` holding most query stems (substring match on the folded line: no
    tokenizing at serve time), in text order, within ``max_chars``; ``folded`` is the text's
    ``folded_text`` (kept per section).

    The text is folded once and each stem's occurrences are found with ``str.find``, so the
    cost follows the matches, not the section's lines (a section holds up to 6,000 characters;
    folding it line by line was a third of the whole answer, docs/corpus.md)."""
    if folded is None:
        return _fragments_by_line(text, stems, max_chars)   # offsets would not line up
    hits: dict[int, int] = {}           # line start → how many distinct stems it holds
    for s in dict.fromkeys(stems):
        if not s:
            continue
        at = folded.find(s)
        while at >= 0:
            start = folded.rfind("\n", 0, at) + 1
            end = folded.find("\n", at)
            end = len(folded) if end < 0 else end
            hits[start] = hits.get(start, 0) + 1
            at = folded.find(s, end)
    chosen: list[tuple[int, str]] = []  # (line start, line) of the best usable lines
    for _, start in sorted((-n, start) for start, n in hits.items()):
        end = text.find("\n", start)
        line = text[start:end if end >= 0 else len(text)].strip()
        if line and not line.startswith("```"):
            chosen.append((start, line))
            if len(chosen) == _FRAGMENT_LINES:
                break
    if chosen:
        out = " … ".join(line for _, line in sorted(chosen))
    else:
        out = next((ln.strip() for ln in text.split("\n") if ln.strip() and not ln.lstrip().startswith("```")), "")
    return out if len(out) <= max_chars else out[:max_chars - 1].rstrip() + "…"


def _fragments_by_line(text: str, stems: list[str], max_chars: int) -> str:
    lines = [ln.strip() for ln in text.split("\n") if ln.strip() and not ln.lstrip().startswith("```")]
    scored = []
    for i, ln in enumerate(lines):
        folded = fold(ln)
        n = sum(1 for s in stems if s in folded)
        if n:
            scored.append((-n, i))
    best = sorted(i for _, i in sorted(scored)[:_FRAGMENT_LINES])
    out = " … ".join(lines[i] for i in best) if best else (lines[0] if lines else "")
    return out if len(out) <= max_chars else out[:max_chars - 1].rstrip() + "…"


def _kind_label(card: dict[str, Any]) -> str:
    return NOTE_LABEL if card.get("ckind") == C.NOTES else card.get("ckind", "docs")


class _Section:
    """What a hit shows of its section that no query changes, read from the card once. A
    not_found guess shows only its citation, so the parts a hit adds (its head and facts line,
    the fold for fragments, the catalog's title) are made on first use, then kept."""
    __slots__ = ("card", "cite", "_head", "_meta", "_folded", "_title")

    def __init__(self, card: dict[str, Any]) -> None:
        self.card = card
        self.cite = citation(card)
        self._head: str | None = None
        self._meta: str | None | bool = False        # False: not made yet (None: no facts)
        self._folded: str | None | bool = False
        self._title: str | None = None

    @property
    def head(self) -> str:
        """The hit's first line after its number."""
        if self._head is None:
            card = self.card
            self._head = f"**{card['title']}** · corpus `{card['corpus']}` · {_kind_label(card)}"
        return self._head

    @property
    def meta(self) -> str | None:
        """The front-matter line, when the card has facts."""
        if self._meta is False:
            meta = self.card.get("meta") or {}
            self._meta = " · ".join(f"{k}: {v}" for k, v in meta.items() if k != "tags") if meta else None
        return self._meta

    @property
    def folded(self) -> str | None:
        """``folded_text`` of the card's text."""
        if self._folded is False:
            self._folded = folded_text(self.card["text"])
        return self._folded

    def title(self, snap: Snapshot, doc: int) -> str:
        """The catalog's title (the hit data's)."""
        if self._title is None:
            self._title = snap.title(doc)
        return self._title


class _Sections:
    """Sections already shown, per bundle (a bundle is immutable, so a section's view is a
    function of it): the card's zstd + msgpack decode, the citation and the text's fold were
    a third of an answer. Bounded by the text held (the text and its fold): cleared when full."""
    KEPT_CHARS = 2_000_000  # ~4–8 MB; the public corpora's 3,387 sections hold 1.2 M characters

    def __init__(self) -> None:
        self.views: dict[int, _Section] = {}
        self.chars = 0

    def get_many(self, snap: Snapshot, docs: list[int]) -> list[_Section]:
        """The views of ``docs``, in order; those not kept yet read in one pass over the card
        file (one guard check for the page, not one a card)."""
        views = self.views
        got = {d: v for d in docs if (v := views.get(d)) is not None}   # (cleared by other threads)
        missing = [d for d in dict.fromkeys(docs) if d not in got]
        if missing:
            for doc, card in zip(missing, snap.catalog.cards(missing)):
                card = card if isinstance(card, dict) else {}
                size = 2 * len(card["text"])
                if self.chars + size > self.KEPT_CHARS:
                    views.clear()
                    self.chars = 0
                views[doc] = got[doc] = _Section(card)
                self.chars += size
        return [got[d] for d in docs]


_SECTIONS: "weakref.WeakKeyDictionary[Bundle, _Sections]" = weakref.WeakKeyDictionary()
_SECTIONS_LOCK = threading.Lock()


def _sections(snap: Snapshot) -> _Sections:
    with _SECTIONS_LOCK:
        got = _SECTIONS.get(snap.bundle)
        if got is None:
            got = _SECTIONS[snap.bundle] = _Sections()
        return got


def _hit_data(h: CorpusHit, view: _Section, title: str) -> dict[str, Any]:
    card = view.card
    return {"id": card["doc"], "part": card["part"], "corpus": card["corpus"], "kind": card.get("ckind"),
            "title": title, "url": card.get("url"), "score": round(h.score, 3),
            "coverage": round(h.coverage, 3), "matched": list(h.matched),
            "note": card.get("ckind") == C.NOTES}


def search_docs(snap: Snapshot, query: str, corpus: str | None = None, limit: int = 5,
                cursor: str | None = None, max_chars: int = 300, detailed: bool = False) -> ToolResult:
    index = corpus_index(snap.bundle)
    if index is None:
        return A.unavailable(f"no document corpus is compiled into bundle `{snap.id}`; declare one "
                             "in v8atlas.toml ([[corpus]] source=… kind=…).", {"reason": "no_corpus"})
    ids = index.corpus_ids(corpus)
    if not ids:
        names = ", ".join(f"`{c['name']}` ({c['kind']})" for c in index.corpora)
        raise ToolInputError("bad_argument", f"no corpus {corpus!r}; corpora: {names}")
    paging = A.Paging(snap, "search_docs", {"query": query, "corpus": corpus, "limit": limit, "cursor": cursor,
                                            "max_chars": max_chars, "detailed": detailed})
    found = index.search(query, ids, paging.offset + limit)
    where = f"corpus `{corpus}`" if corpus else f"{len(ids)} corpus(es)"
    if not found.hits:
        guesses = [h.doc for h in found.rejected]
        views = dict(zip(guesses, _sections(snap).get_many(snap, guesses)))
        cards = {d: v.card for d, v in views.items()}
        return A.not_found(
            f"no section of {where} answers {query!r} well enough (searched: "
            f"{', '.join(found.words) or 'no words'}).", [h.doc for h in found.rejected],
            lambda d: f"- {views[d].cite} · corpus `{cards[d]['corpus']}` · {_kind_label(cards[d])}",
            lambda d: {"id": cards[d]["doc"], "part": cards[d]["part"], "corpus": cards[d]["corpus"]},
            {"hits": []})
    page = found.hits[paging.offset:paging.offset + limit]
    lines = [A.headline(FOUND, f"{found.total} document(s) in {where} for {query!r}; "
                        "`get_doc` with an id reads it whole:")]
    hits = []
    for i, (h, view) in enumerate(zip(page, _sections(snap).get_many(snap, [h.doc for h in page])),
                                  paging.offset + 1):
        lines.append(f"{i}. {view.head}")
        lines.append(f"   Cite: {view.cite}")
        if view.meta is not None:
            lines.append("   " + view.meta)
        text = view.card["text"]
        body = text[:max_chars * 4] if detailed else fragments(text, view.folded, found.stems, max_chars)
        if body:
            lines.append("   > " + body.replace("\n", "\n   > "))
        hits.append(_hit_data(h, view, view.title(snap, h.doc)))
    data: dict[str, Any] = {"hits": hits}
    lines += paging.footer("document(s)", len(page), found.total, data)
    return ToolResult(FOUND, "\n".join(lines) + "\n", data)


def _parts(snap: Snapshot, doc_id: str) -> list[int]:
    """Core document ids of every part of a corpus document, in order: the first part has the
    document's name, the others follow it in the corpus index."""
    first = [d for d in snap.catalog.lookup(doc_id) if snap.catalog.domain_name(d) == C.DOC_DOMAIN]
    index = corpus_index(snap.bundle)
    if not first or index is None:
        return []
    return index.parts(first[0], int(_card(snap, first[0]).get("parts", 1)))


def get_doc(snap: Snapshot, id: str, part: int | None = None, cursor: str | None = None) -> ToolResult:
    if corpus_index(snap.bundle) is None:
        return A.unavailable(f"no document corpus is compiled into bundle `{snap.id}`.", {"reason": "no_corpus"})
    doc_id, _, tail = id.partition("#")
    if tail.isdigit() and part is None:
        part = int(tail)
    parts = _parts(snap, doc_id)
    if not parts:
        found = corpus_index(snap.bundle).search(doc_id.replace("/", " ").replace(":", " "),
                                                 list(range(len(corpus_index(snap.bundle).corpora))), 5)
        guesses = [h.doc for h in (found.hits + found.rejected)[:5]]
        cards = {d: _card(snap, d) for d in guesses}
        return A.not_found(f"no corpus document `{id}`; ids look like `corpus:path/file.md`.", guesses,
                           lambda d: f"- `{cards[d]['doc']}` · {cards[d]['title']}",
                           lambda d: {"id": cards[d]["doc"], "corpus": cards[d]["corpus"]})
    cards = [_card(snap, d) for d in parts]
    first = cards[0]
    if part is not None and not 0 <= part < len(parts):
        raise ToolInputError("bad_argument", f"`{doc_id}` has parts 0–{len(parts) - 1}; got {part}")
    head = [A.headline(FOUND, f"**{first['title']}** · corpus `{first['corpus']}` · {_kind_label(first)}"),
            f"Source: `{doc_id}`" + (f" · {first['url']}" if first.get("url") else "")]
    if first.get("meta"):
        head.append(" · ".join(f"{k}: {v}" for k, v in first["meta"].items()))
    head.append("Parts: " + "; ".join(f"{i}. {' › '.join(c['path'][1:]) or c['title']}"
                                      for i, c in enumerate(cards)))
    shown = [part] if part is not None else range(len(cards))
    body = []
    for i in shown:
        c = cards[i]
        heading = " › ".join(c["path"][1:])
        body.append((f"\n## [{i}] {heading}\n" if heading else f"\n## [{i}]\n") + c["text"])
    data = {"id": doc_id, "corpus": first["corpus"], "kind": first.get("ckind"), "parts": len(cards),
            "note": first.get("ckind") == C.NOTES, "url": first.get("url")}
    return A.paged(snap, "get_doc", {"id": doc_id, "part": part, "cursor": cursor}, FOUND, head, body, data)


SERVE = ServePart("corpus", tools=(
    ToolSpec("search_docs", "Search documents",
             "Search guides, format specs, standards, BSL code templates, project notes; hits cite "
             "corpus, id, section. not_found when nothing answers well.",
             (Param("query", "string", required=True),
              Param("corpus", "string", "Corpus name or kind (docs, formats, standards, templates, notes)"),
              Param("limit", "integer", default=5, minimum=1, maximum=20), CURSOR,
              Param("max_chars", "integer", "Fragment size per hit", default=300, minimum=80, maximum=4000),
              Param("detailed", "boolean", "Section beginnings, not fragments", default=False)),
             search_docs),
    ToolSpec("get_doc", "Read a document",
             "A corpus document by id from search_docs, paged, parts listed; `part` for one.",
             (Param("id", "string", "corpus:path[#part]", required=True),
              Param("part", "integer", minimum=0, maximum=100000), CURSOR),
             get_doc),
))
