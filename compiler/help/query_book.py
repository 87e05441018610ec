"""The query-language book (shquery) → query elements: functions, keywords, operators, articles.

shquery pages carry no V8SH classes (hbk-format.md §3.8): ``<H1>Функция ИМЯ</H1>``, a
signature in ``<PRE>`` (or the first line of the first ``<P>``), parameters as
``<P>&lt;Имя&gt; – текст</P>`` (sometimes inside ``<BLOCKQUOTE>``), examples in ``<PRE>``, and
data tables whose cells hold paragraphs. Tables are kept as tables (rows of cell texts, in
place in the page body) and are not part of the searchable text. An unclosed ``<TABLE>``
makes the page parse without its tables, with a warning naming the page.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any, Callable

from .hbk import Book

# H1 prefixes → kind (longest first).
_KIND_PREFIXES = (
    ("Агрегатная функция", "aggregate_function"),
    ("Функция", "function"),
    ("Ключевое слово", "keyword"),
    ("Оператор", "operator"),
    ("Литерал типа", "literal"),
    ("Секция", "section"),
    ("Предложение", "section"),
)
FUNCTION_KINDS = ("function", "aggregate_function")


@dataclass
class QueryTable:
    rows: list[list[str]]
    css_class: str | None = None
    closed: bool = True
    diagram: bool = False
    nested: list[dict[str, Any]] = field(default_factory=list)   # {"row", "col", "table": QueryTable}

    def as_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"rows": self.rows}
        if self.css_class:
            d["class"] = self.css_class
        if self.diagram:
            d["diagram"] = True
        if self.nested:
            d["nested"] = [{"row": n["row"], "col": n["col"], "table": n["table"].as_dict()}
                           for n in self.nested]
        return d


@dataclass
class QueryRecord:
    name: str                       # "ПОДСТРОКА", "СТРНАЙТИ", "СГРУППИРОВАТЬ ПО", article title
    kind: str
    title: str                      # H1 text
    page: str
    toc_id: int | None
    title_name: str | None = None   # name as written in the title ("СтрНайти")
    name_en: str | None = None
    signature: str | None = None
    signature_style: str | None = None        # "pre" | "first_p"
    params: list[dict[str, Any]] = field(default_factory=list)
    description: str = ""
    example: str | None = None
    body: list[dict[str, Any]] = field(default_factory=list)   # {"p"|"pre"|"table": …} in page order
    tables: list[QueryTable] = field(default_factory=list)
    tables_dropped: bool = False
    page_en: str | None = None      # English guessed from the page id (last resort)


class _BlockParser(HTMLParser):
    """HTML → blocks (h1/p/pre/table) in document order; tables as rows of cell texts."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.blocks: list[dict[str, Any]] = []
        self.tables: list[QueryTable] = []
        self._stack: list[dict[str, Any]] = []       # open tables: {"t", "row", "cell"}
        self._buf: list[str] | None = None            # current h1/p/pre text outside tables
        self._buf_kind: str | None = None
        self._quote = 0
        self._strong: list[str] | None = None
        self.strong_texts: list[str] = []

    # text sinks
    def _cell(self) -> list[str] | None:
        if not self._stack:
            return None
        top = self._stack[-1]
        return top["cell"]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        tag = tag.lower()
        if tag == "table":
            self._flush()
            t = QueryTable(rows=[], css_class=dict(attrs).get("class"))
            if self._stack:
                parent = self._stack[-1]
                parent["t"].nested.append({"row": max(len(parent["t"].rows) - 1, 0),
                                           "col": max(len(parent["t"].rows[-1]) - 1 if parent["t"].rows else 0, 0),
                                           "table": t})
            else:
                self.tables.append(t)
                self.blocks.append({"table": len(self.tables) - 1})
            self._stack.append({"t": t, "cell": None})
        elif tag == "tr" and self._stack:
            self._stack[-1]["t"].rows.append([])
            self._stack[-1]["cell"] = None
        elif tag in ("td", "th") and self._stack:
            top = self._stack[-1]
            if not top["t"].rows:
                top["t"].rows.append([])
            top["cell"] = []
            top["t"].rows[-1].append("")
        elif tag == "br":
            self._data("\n")
        elif tag == "p":
            cell = self._cell()
            if cell is not None:
                if cell and cell[-1] != "\n":
                    cell.append("\n")
            elif self._buf_kind != "pre":
                self._flush()
                self._buf, self._buf_kind = [], "p"
        elif tag in ("pre", "h1") and not self._stack:
            self._flush()
            self._buf, self._buf_kind = [], tag
        elif tag == "blockquote":
            self._quote += 1
        elif tag == "strong":
            self._strong = []

    def handle_endtag(self, tag: str) -> None:
        tag = tag.lower()
        if tag == "table" and self._stack:
            self._close_cell()
            self._stack.pop()
        elif tag in ("td", "th") and self._stack:
            self._close_cell()
        elif tag in ("p", "pre", "h1") and not self._stack and self._buf_kind == tag:
            self._flush()
        elif tag == "blockquote":
            self._quote = max(0, self._quote - 1)
        elif tag == "strong" and self._strong is not None:
            self.strong_texts.append("".join(self._strong).strip())
            self._strong = None

    def handle_data(self, data: str) -> None:
        self._data(data)

    def _data(self, data: str) -> None:
        if self._strong is not None:
            self._strong.append(data)
        cell = self._cell()
        if cell is not None:
            cell.append(data)
        elif self._stack:
            pass                               # text between cells: not part of any cell
        elif self._buf is not None:
            self._buf.append(data)
        elif data.strip():
            self._buf, self._buf_kind = [data], "p"

    def _close_cell(self) -> None:
        top = self._stack[-1]
        if top["cell"] is not None and top["t"].rows and top["t"].rows[-1]:
            text = "".join(top["cell"]).replace("\xa0", " ")
            top["t"].rows[-1][-1] = "\n".join(" ".join(x.split()) for x in text.split("\n")
                                              if x.strip())
        top["cell"] = None

    def _flush(self) -> None:
        if self._buf is not None and self._buf_kind:
            text = "".join(self._buf).replace("\xa0", " ").replace("\r\n", "\n")
            if self._buf_kind == "pre":
                text = text.strip("\n")
            else:
                text = "\n".join(" ".join(x.split()) for x in text.split("\n") if x.strip())
            if text:
                blk = {self._buf_kind: text}
                if self._quote and self._buf_kind == "p":
                    blk["quote"] = True
                self.blocks.append(blk)
        self._buf, self._buf_kind = None, None

    def finish(self) -> bool:
        """Close the parse; False when a table was left open (broken markup)."""
        self.close()
        self._flush()
        broken = bool(self._stack)
        while self._stack:
            self._close_cell()
            self._stack.pop()
        for t in self.tables:
            _inline_nested(t)
        return not broken


def inline_table(t: QueryTable) -> str:
    """A table as one line: cells joined by " | ", rows by "; " (a sub-table inside a cell)."""
    return "; ".join(" | ".join(" ".join(c.split()) for c in row) for row in t.rows if row)


def _inline_nested(t: QueryTable) -> None:
    """Write each nested table into its host cell, so a renderer that shows cells as text shows it
    in place; ``nested`` keeps the structure for one that can draw a sub-table."""
    for n in t.nested:
        _inline_nested(n["table"])
        row, col = n["row"], n["col"]
        if row < len(t.rows) and col < len(t.rows[row]):
            host = t.rows[row][col]
            sub = inline_table(n["table"])
            t.rows[row][col] = f"{host}\n{sub}" if host else sub


_SIG_RE = re.compile(r"^[\wА-Яа-яЁё]+\s*\(.*\)\s*$", re.S)
_PARAM_RE = re.compile(r"^<([^<>]+)>\s*[–—-]\s*(.*)$", re.S)
_EN_MARK = re.compile(r"Англоязычное написание:\s*(.+?)\.?$", re.I)


def _strip_tables(page: str) -> str:
    """Remove every table region (for a page whose table markup is broken)."""
    start = re.search(r"<table\b", page, re.I)
    if not start:
        return page
    ends = list(re.finditer(r"</(table|tr|td)>", page, re.I))
    end = ends[-1].end() if ends else len(page)
    return page[:start.start()] + page[end:]


# A "<" that no ">" closes before the next "<" opens no tag: it is text. Python 3.11's
# HTMLParser backtracks super-linearly on such runs ("<h1 " × 4,000 took 9 s), so they are
# escaped first, in one linear pass; every tag of a real page is closed.
_UNCLOSED_LT = re.compile(r"<(?![^<>]*>)")


def parse_query_page(page: str, path: str) -> tuple[QueryRecord | None, list[str]]:
    warnings: list[str] = []
    page = _UNCLOSED_LT.sub("&lt;", page)
    p = _BlockParser()
    p.feed(page)
    dropped = False
    if not p.finish():
        warnings.append("table markup is broken (unclosed <TABLE>); page parsed without its tables")
        p = _BlockParser()
        p.feed(_strip_tables(page))
        p.finish()
        p.tables, dropped = [], True
        p.blocks = [b for b in p.blocks if "table" not in b]
    h1 = next((b["h1"] for b in p.blocks if "h1" in b), None)
    if not h1:
        warnings.append("no <H1> title; page skipped")
        return None, warnings
    title = " ".join(h1.split())
    kind, rest = "article", title
    for prefix, k in _KIND_PREFIXES:
        if title.startswith(prefix + " "):
            kind, rest = k, title[len(prefix) + 1:].strip()
            break
    rec = QueryRecord(name=rest, kind=kind, title=title, page=path, toc_id=None,
                      tables=p.tables, tables_dropped=dropped)
    if kind != "article":
        m = re.match(r"^(.*?)\s*\(([A-Za-z][\w ]*)\)$", rest)
        title_name = m.group(1) if m else rest
        en = m.group(2) if m else None
        rec.title_name = title_name
        rec.name = title_name.upper() if kind in FUNCTION_KINDS else title_name
        rec.name_en = en.upper() if en and kind in FUNCTION_KINDS else en
    blocks = [b for b in p.blocks if "h1" not in b]
    rec.body = blocks
    # signature: a <PRE> before the first <P>, or the first line of the first <P>
    first_p = next((i for i, b in enumerate(blocks) if "p" in b), len(blocks))
    first_pre = next((i for i, b in enumerate(blocks) if "pre" in b), None)
    if kind in FUNCTION_KINDS:
        if first_pre is not None and first_pre < first_p:
            rec.signature, rec.signature_style = blocks[first_pre]["pre"], "pre"
        elif first_p < len(blocks):
            line = blocks[first_p]["p"].split("\n", 1)[0]
            if _SIG_RE.match(line):
                rec.signature, rec.signature_style = line, "first_p"
    elif first_pre is not None and first_pre < first_p:
        rec.signature = blocks[first_pre]["pre"]
    desc: list[str] = []
    in_example = False
    for b in blocks:
        if "p" in b:
            text = b["p"]
            pm = _PARAM_RE.match(text)
            if pm:
                ptext = pm.group(2).strip()
                rec.params.append({"name": pm.group(1).strip(),
                                   "required": "необязательный" not in ptext.lower(),
                                   "description": ptext})
                continue
            if text.rstrip(":") in ("Параметры", "Пример", "Примеры"):
                in_example = text.startswith("Пример")
                continue
            if rec.signature_style == "first_p" and text.startswith(rec.signature or "\0"):
                text = text[len(rec.signature or ""):].strip()
            em = _EN_MARK.search(text)
            if em and not rec.name_en:
                rec.name_en = em.group(1).strip()
            if text:
                desc.append(text)
        elif "pre" in b and in_example and rec.example is None:
            rec.example = b["pre"]
            in_example = False
    rec.description = "\n".join(desc)
    for t in rec.tables:
        t.diagram = any(cell.strip() == "|" for row in t.rows for cell in row)
    return rec, warnings


def read_query_book(book: Book, warn: Callable[[str, str], None]) -> tuple[list[QueryRecord], dict[str, int]]:
    counts = {"pages": 0, "broken_pages": 0, "pages_without_tables": 0}
    items: list[tuple[int | None, str]] = []
    seen: set[str] = set()
    for node_id in book.toc_order:
        node = book.toc[node_id]
        if node.path and node.path not in seen:
            seen.add(node.path)
            items.append((node_id, node.path))
    if not book.toc:
        items = [(None, p) for p in sorted(book.html_pages())]
    records: list[QueryRecord] = []
    for node_id, path in items:
        parsed = book.parsed_page(path, parse_query_page, warn, counts, node_id)
        if parsed is None:
            continue
        rec, page_warnings = parsed
        for w in page_warnings:
            warn(path, w)
        if rec is None:
            counts["broken_pages"] += 1
            continue
        if rec.tables_dropped:
            counts["pages_without_tables"] += 1
        rec.toc_id = node_id
        if rec.kind != "article":
            en = _english_from_page_id(path)
            rec.page_en = en.upper() if rec.kind in FUNCTION_KINDS else en
        records.append(rec)
    return records, counts


def _english_from_page_id(path: str) -> str:
    stem = path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    for suffix in ("Section", "OPERATOR", "LITERAL"):
        if stem.endswith(suffix) and len(stem) > len(suffix):
            stem = stem[: -len(suffix)]
    return stem
