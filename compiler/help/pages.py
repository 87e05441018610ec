"""Syntax-helper pages (shcntx/shlang) → element records, for both markups (hbk-format.md §3).

Pages are one line of loosely formed HTML: chapter markers are ``<p class="V8SH_chapter">``
(8.3.6+) or ``<div class="V8SH_chapter"> <p …>Title:</div>`` (8.3.5 and older, with an
unclosed ``<p>``), and a chapter's content is everything up to the next marker or ``<HR>``.
Parameter rubrics leave their ``<p>`` unclosed too. A tree parser re-nests such markup in
ways that differ between parsers, so the page is cut into chapters with anchored regular
expressions over the raw text and only small fragments are turned into text.

``parse_page(html, path)`` returns a ``PageRecord`` (a plain dataclass, picklable) plus a list
of warnings; it never raises on odd markup: what cannot be read is reported.
"""
from __future__ import annotations

import html as htmllib
import re
from dataclasses import dataclass, field
from typing import Any

__all__ = ["PageRecord", "Variant", "Param", "parse_page", "split_bilingual", "html_to_text",
           "AVAILABILITY_TOKENS"]

# Page text → stable token (hbk-format.md §3.2); unknown values are kept as written.
AVAILABILITY_TOKENS = {
    "тонкий клиент": "ТонкийКлиент",
    "веб-клиент": "ВебКлиент",
    "мобильный клиент": "МобильныйКлиент",
    "сервер": "Сервер",
    "толстый клиент": "ТолстыйКлиент",
    "внешнее соединение": "ВнешнееСоединение",
    "мобильное приложение (клиент)": "МобильноеПриложениеКлиент",
    "мобильное приложение (сервер)": "МобильноеПриложениеСервер",
    "мобильный автономный сервер": "МобильныйАвтономныйСервер",
    # English (root books)
    "thin client": "ТонкийКлиент",
    "web-client": "ВебКлиент",
    "web client": "ВебКлиент",
    "mobile client": "МобильныйКлиент",
    "server": "Сервер",
    "thick client": "ТолстыйКлиент",
    "external connection": "ВнешнееСоединение",
    "mobile application (client)": "МобильноеПриложениеКлиент",
    "mobile application (server)": "МобильноеПриложениеСервер",
    "mobile standalone server": "МобильныйАвтономныйСервер",
}


@dataclass(slots=True)
class Param:
    name: str
    required: bool | None             # None: no flag on the page (event parameters)
    types: list[str] = field(default_factory=list)
    description: str = ""
    default: str | None = None
    variadic: str | None = None       # "range" (<A1-A10>) or "ellipsis" (<A1>,...,<AN>)

    def as_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"name": self.name, "required": self.required, "types": self.types}
        if self.description:
            d["description"] = self.description
        if self.default is not None:
            d["default"] = self.default
        if self.variadic:
            d["variadic"] = self.variadic
        return d


@dataclass(slots=True)
class Variant:
    title: str | None = None
    syntax: str = ""
    params: list[Param] = field(default_factory=list)
    description: str = ""

    def signature_key(self) -> tuple:
        return tuple((p.name, p.required, tuple(p.types)) for p in self.params)


@dataclass
class PageRecord:
    path: str
    markup: str                              # "new" | "old"
    page_title: str = ""                     # <h1 class=V8SH_pagetitle>
    title: str = ""                          # V8SH_title (owner or the type itself)
    heading: str = ""                        # V8SH_heading (member), "" on type pages
    chapters: list[str] = field(default_factory=list)
    variants: list[Variant] = field(default_factory=list)
    returns: list[str] = field(default_factory=list)
    returns_description: str = ""
    has_returns: bool = False
    description: str = ""
    usage: str | None = None                 # "read_only" | "read_write" | other text
    prop_type: list[str] = field(default_factory=list)
    availability: list[str] = field(default_factory=list)
    availability_note: str = ""
    collection_of: list[str] = field(default_factory=list)
    members: dict[str, list[tuple[str, str]]] = field(default_factory=dict)  # chapter → [(title, href)]
    enum_values: list[tuple[str, str]] = field(default_factory=list)
    examples: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    see_also: list[tuple[str, str]] = field(default_factory=list)             # (title, href)
    since: str | None = None
    since_compat: str | None = None
    deprecated: bool = False
    deprecated_since: str | None = None
    replacement_links: list[tuple[str, str]] = field(default_factory=list)   # (title, href)
    changed_in: list[str] = field(default_factory=list)
    unknown_chapters: list[str] = field(default_factory=list)


_FLAGS = re.I | re.S


class _Found:
    """One element found by ``_Element``: ``group()`` as a regex match of the old patterns
    (``<(tag)…>(content)</tag>`` gives group 1 the tag, 2 the content)."""
    __slots__ = ("_groups", "_start", "_end", "opening")

    def __init__(self, groups: tuple[str, ...], start: int, end: int, opening: str) -> None:
        self._groups, self._start, self._end, self.opening = groups, start, end, opening

    def group(self, i: int = 0) -> str:
        return self._groups[i]

    def start(self) -> int:
        return self._start

    def end(self) -> int:
        return self._end


class _Element:
    """``<tag …class="NAME"…>content</tag>`` found in linear time.

    A single regex ``<tag\\b[^>]*class=…[^>]*>(.*?)</tag>`` backtracks quadratically on hostile
    pages (``<h1 `` × 250,000; an opening tag repeated without its close runs the lazy group to
    the end of the page at each one). Here the opening tag cannot cross ``<``, the class is
    checked inside the tag, and the close is one forward search; once a tag has no close after
    some point, no later opening of it is tried again.

    Same matches as the old patterns on every page of the real books (4,049 pages compared).
    """

    def __init__(self, tags: str, cls: str | None = None, close: str | None = None,
                 tag_group: bool = True) -> None:
        # The class is looked for by a lookahead that cannot leave the tag (lookaheads are
        # atomic) and the rest of the tag is taken possessively: O(tag length) per opening,
        # and openings never overlap, so a search is linear in the page.
        has_cls = rf'(?=[^<>]*?class="?{cls})' if cls else ""
        self._open = re.compile(rf"<({tags})\b{has_cls}[^<>]*+>", re.I)
        self._close = re.compile(close, re.I) if close else None
        self._tag_group = tag_group
        self._ntags = len(tags.split("|"))

    def finditer(self, s: str, pos: int = 0, endpos: int | None = None):
        end = len(s) if endpos is None else endpos
        unclosed: set[str] = set()
        while True:
            m = self._open.search(s, pos, end)
            if m is None:
                return
            tag = m.group(1).lower()
            if tag in unclosed:
                pos = m.end()
                continue
            closer = self._close or _closer(tag)
            c = closer.search(s, m.end(), end)
            if c is None:        # no close after here: no later opening of this tag matches
                unclosed.add(tag)
                if len(unclosed) == self._ntags or self._close is not None:
                    return
                pos = m.end()
                continue
            content = s[m.end():c.start()]
            groups = (s[m.start():c.end()], m.group(1), content) if self._tag_group else (
                s[m.start():c.end()], content)
            yield _Found(groups, m.start(), c.end(), m.group(0))
            pos = c.end() if c.end() > m.start() else m.end()

    def search(self, s: str, pos: int = 0, endpos: int | None = None) -> _Found | None:
        return next(self.finditer(s, pos, endpos), None)

    def split(self, s: str) -> list[str]:
        """As ``re.split`` with one group: [before, content1, between, content2, …, after]."""
        pieces: list[str] = []
        last = 0
        for m in self.finditer(s):
            pieces += [s[last:m.start()], m.group(2 if self._tag_group else 1)]
            last = m.end()
        pieces.append(s[last:])
        return pieces


_CLOSERS: dict[str, re.Pattern[str]] = {}


def _closer(tag: str) -> re.Pattern[str]:
    if tag not in _CLOSERS:
        _CLOSERS[tag] = re.compile(rf"</{re.escape(tag)}>", re.I)
    return _CLOSERS[tag]


_PAGETITLE = _Element("h1", "V8SH_pagetitle", tag_group=False)
_TITLE = _Element("p|div", "V8SH_title")
_HEADING = _Element("p|div", "V8SH_heading")
_CHAPTER = _Element("p|div", "V8SH_chapter")
_HR = re.compile(r"<hr\b[^<>]*>", re.I)
_DEPRECATED = _Element("div", "__DEPRECATED_SHOW_STYLE__", close=r"</ul>\s*</div>|</div>",
                       tag_group=False)
_SINCE_BANNER = _Element("div", "__SINCE_SHOW_STYLE__", tag_group=False)
_VERSION_INFO = _Element("p", "V8SH_versionInfo", tag_group=False)
_RUBRIC = _Element("div", "V8SH_rubric", tag_group=False)
_LINK = _Element("a", tag_group=False)
_HREF = re.compile(r"""href\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))""", re.I)
_TAG = re.compile(r"<[^<>]*>")
_BR = re.compile(r"<br\s*/?>", re.I)
_BLOCK_END = re.compile(r"</(p|div|li|tr|h\d)>|<(p|div|li|tr)\b[^<>]*>", re.I)
_PRE = _Element("pre", tag_group=False)
_FIRST_P = _Element("p", tag_group=False)

_VER = r"(\d+\.\d+(?:\.\d+){0,2})"
_SINCE_RE = re.compile(r"Доступ\w*,?\s+начиная\s+с\s+версии\s+" + _VER +
                       r"(?:\s*\(в\s+режиме\s+совместимости\s+с\s+версией\s+" + _VER + r")?", re.I)
_SINCE_EN = re.compile(r"Available\s+since\s+version\s+" + _VER, re.I)
_DEPR_RE = re.compile(r"Не\s+рекомендуется\s+использовать,?\s+начиная\s+с\s+версии\s+" + _VER, re.I)
_DEPR_EN = re.compile(r"(?:Not\s+recommended|Deprecated)[^.]{0,200}?version\s+" + _VER, re.I)
_CHANGED_RE = re.compile(r"(?:Описание\s+изменено\s+в\s+версии|Description\s+changed\s+in\s+version)\s+" + _VER, re.I)
_DEFAULT_RE = re.compile(r"Значение\s+по\s+умолчанию:[ \t]*([^\n]*)", re.I)
_TYPE_PREFIX = re.compile(r"^\s*(?:Тип|Type):\s*", re.I)

# Chapter titles (without the trailing colon), Russian and English, → role.
_ROLES = {
    "вариант синтаксиса": "variant", "syntax variant": "variant",
    "синтаксис": "syntax", "syntax": "syntax",
    "параметры": "params", "parameters": "params",
    "возвращаемое значение": "returns", "return value": "returns", "returned value": "returns",
    "описание варианта метода": "variant_description", "method variant description": "variant_description",
    "описание": "description", "description": "description",
    "использование": "usage", "use": "usage", "usage": "usage",
    "доступность": "availability", "availability": "availability",
    "замечание": "note", "примечание": "note", "note": "note",
    "пример": "example", "example": "example",
    "см. также": "see_also", "see also": "see_also",
    "использование в версии": "version", "version usage": "version",
    "свойства": "members", "properties": "members",
    "методы": "members", "methods": "members",
    "события": "members", "events": "members",
    "конструкторы": "members", "constructors": "members",
    "значения": "values", "values": "values",
    "элементы коллекции": "collection", "collection items": "collection",
}


def html_to_text(fragment: str, *, keep_lines: bool = False) -> str:
    """Tags dropped, entities decoded, ``<br>``/block ends → newlines (kept or squeezed)."""
    s = _BR.sub("\n", fragment)
    s = _BLOCK_END.sub("\n", s)
    s = _TAG.sub("", s)
    s = htmllib.unescape(s).replace("\xa0", " ")
    if keep_lines:
        lines = [ln.rstrip() for ln in s.split("\n")]
        while lines and not lines[0].strip():
            lines.pop(0)
        while lines and not lines[-1].strip():
            lines.pop()
        return "\n".join(lines)
    parts = [" ".join(ln.split()) for ln in s.split("\n")]
    return "\n".join(p for p in parts if p)


_MAX_PARAM_HEAD = 300
_LATINISH = re.compile(r"^[\x20-\x7E]+$")


def split_bilingual(text: str) -> tuple[str, str | None]:
    """``Русское (English)`` → (ru, en); only an ASCII parenthesised tail counts as English."""
    t = " ".join(text.split())
    # "head (tail)" with no parenthesis inside the tail; found by rfind, not a backtracking regex
    if t.endswith(")"):
        i = t.rfind("(")
        inner, head = t[i + 1:-1], t[:i].rstrip()
        if i > 0 and head and ")" not in inner and _LATINISH.match(inner) and re.search(r"[A-Za-z]", inner):
            return head.strip(), inner.strip()
    return t, None


def _links(fragment: str) -> list[tuple[str, str]]:
    out = []
    for m in _LINK.finditer(fragment):
        h = _HREF.search(m.opening)
        if h is None:
            continue
        href = h.group(1) or h.group(2) or h.group(3) or ""
        out.append((html_to_text(m.group(1)), htmllib.unescape(href)))
    return out


def _types(fragment: str) -> tuple[list[str], str]:
    """``Тип: <a>T1</a>, T2. <br>rest`` → ([T1, T2], rest-as-text)."""
    text = html_to_text(fragment)
    first, _, rest = text.partition("\n")
    if not _TYPE_PREFIX.match(first):
        return [], text
    body = _TYPE_PREFIX.sub("", first).strip()
    # the list ends at ". " (sentence end) — types themselves never contain ". "
    head, sep, tail = body.partition(". ")
    head = head.rstrip(".").strip()
    types = [t.strip() for t in re.split(r",\s*|\s+или\s+|;\s*", head) if t.strip()]
    rest_text = "\n".join(x for x in (tail.strip(), rest.strip()) if x)
    return types, rest_text


def _param_name(head_text: str) -> tuple[str, str | None]:
    """Rubric head text (decoded) → (name, variadic kind)."""
    if len(head_text) > _MAX_PARAM_HEAD:      # no parameter name is this long; the patterns
        return head_text.strip(), None        # below backtrack on long runs of digits
    text = re.sub(r"\s*\((?:обязательный|необязательный|required|optional)\)\s*$", "", head_text.strip(),
                  flags=re.I)
    m = re.match(r"^<([^<>]+)>\s*,\s*\.\.\.\s*,\s*<([^<>]+)>$", text)
    if m:
        return f"{m.group(1).strip()}-{m.group(2).strip()}", "ellipsis"
    if text.startswith("<") and text.endswith(">"):
        text = text[1:-1].strip()          # one level only: "<<ЗначениеN>>" keeps its inner brackets
    if re.match(r"^[^\s<>-]+\d+\s*-\s*[^\s<>-]+$", text) or re.match(r"^[^\s<>-]+-[^\s<>-]+$", text):
        return re.sub(r"\s*-\s*", "-", text), "range"
    return text, None


def _params(fragment: str) -> list[Param]:
    params: list[Param] = []
    pieces = _RUBRIC.split(fragment)
    # split() with one group yields [before, head1, body1, head2, body2, …]
    for i in range(1, len(pieces), 2):
        head = html_to_text(pieces[i])
        body = pieces[i + 1] if i + 1 < len(pieces) else ""
        low = head.lower()
        required: bool | None = None
        if "(необязательный)" in low or "(optional)" in low:
            required = False
        elif "(обязательный)" in low or "(required)" in low:
            required = True
        name, variadic = _param_name(head)
        types, rest = _types(body)
        default = None
        m = _DEFAULT_RE.search(rest)
        if m:
            default = m.group(1).strip().removesuffix(".").rstrip()
        params.append(Param(name, required, types, rest, default, variadic))
    return params


def _example(fragment: str) -> str:
    m = _PRE.search(fragment)
    if m:
        return htmllib.unescape(_TAG.sub("", _BR.sub("\n", m.group(1)))).replace("\xa0", " ").strip("\n")
    s = _BR.sub("\n", fragment)
    s = re.sub(r"</?(table|tbody|tr|td|font)\b[^<>]*>", "", s, flags=re.I)
    return html_to_text(s, keep_lines=True)


def _versions(text: str, rec: PageRecord) -> None:
    for m in _SINCE_RE.finditer(text):
        if rec.since is None:
            rec.since = m.group(1)
            rec.since_compat = m.group(2)
        elif m.group(2) and rec.since_compat is None:
            rec.since_compat = m.group(2)
    if rec.since is None:
        m = _SINCE_EN.search(text)
        if m:
            rec.since = m.group(1)
    m = _DEPR_RE.search(text) or _DEPR_EN.search(text)
    if m:
        rec.deprecated = True
        rec.deprecated_since = rec.deprecated_since or m.group(1)
    for m in _CHANGED_RE.finditer(text):
        if m.group(1) not in rec.changed_in:
            rec.changed_in.append(m.group(1))


def parse_page(page: str, path: str) -> tuple[PageRecord, list[str]]:
    """One page → record + warnings (strings, to be reported with the book and page name)."""
    warnings: list[str] = []
    rec = PageRecord(path=path, markup="new")
    m = _PAGETITLE.search(page)
    if m:
        rec.page_title = html_to_text(m.group(1))
    m = _TITLE.search(page)
    if m:
        rec.title = html_to_text(m.group(2))
        if m.group(1).lower() == "div":
            rec.markup = "old"
    m = _HEADING.search(page)
    if m:
        rec.heading = html_to_text(m.group(2))
    if not rec.page_title and not rec.title:
        warnings.append("no page title (V8SH_pagetitle/V8SH_title); page skipped")
        return rec, warnings

    # Deprecation block (top) and since banner; the bottom "Использование в версии" is read below.
    m = _DEPRECATED.search(page)
    if m:
        block = m.group(1)
        _versions(html_to_text(block), rec)
        rec.deprecated = True
        rec.replacement_links = _links(block)
    m = _SINCE_BANNER.search(page)
    if m:
        _versions(html_to_text(m.group(1)), rec)

    markers = list(_CHAPTER.finditer(page))
    hr = _HR.search(page, markers[-1].end() if markers else 0)
    page_end = hr.start() if hr else len(page)
    current: Variant | None = None
    for i, mk in enumerate(markers):
        if mk.group(1).lower() == "div":
            rec.markup = "old"
        title = html_to_text(mk.group(2))
        end = markers[i + 1].start() if i + 1 < len(markers) else page_end
        hr_in = _HR.search(page, mk.end(), end)
        body = page[mk.end():hr_in.start() if hr_in else end]
        key, _, rest_title = title.partition(":")
        role = _ROLES.get(key.strip().lower())
        rec.chapters.append(key.strip())
        if role is None:
            rec.unknown_chapters.append(key.strip())      # reported as unknown, kept as a note
            rec.notes.append(html_to_text(body))
            continue
        if role == "variant":
            current = Variant(title=rest_title.strip() or None)
            rec.variants.append(current)
        elif role == "syntax":
            if current is None or current.syntax:
                current = Variant()
                rec.variants.append(current)
            current.syntax = html_to_text(body)
        elif role == "params":
            if current is None:
                current = Variant()
                rec.variants.append(current)
            current.params.extend(_params(body))
        elif role == "variant_description":
            if current is not None:
                current.description = html_to_text(body)
        elif role == "returns":
            rec.has_returns = True
            rec.returns, rec.returns_description = _types(body)
        elif role == "description":
            types, text = _types(body)
            if types and not rec.prop_type:
                rec.prop_type = types
            rec.description = text if types else html_to_text(body)
        elif role == "usage":
            text = html_to_text(body).strip()
            rec.usage = {"только чтение": "read_only", "чтение и запись": "read_write",
                         "read only": "read_only", "read and write": "read_write",
                         "read-only": "read_only"}.get(text.rstrip(".").lower(), text or None)
        elif role == "availability":
            pm = _FIRST_P.search(body)
            first = html_to_text(pm.group(1) if pm else _BR.split(body)[0]).strip().rstrip(".")
            for item in first.split(","):
                item = item.strip()
                if item:
                    rec.availability.append(AVAILABILITY_TOKENS.get(item.lower(), item))
            rest = body[pm.end():] if pm else ""
            rec.availability_note = html_to_text(rest)
        elif role == "example":
            ex = _example(body)
            if ex:
                rec.examples.append(ex)
        elif role == "note":
            rec.notes.append(html_to_text(body))
        elif role == "see_also":
            rec.see_also.extend(_links(body))
        elif role == "version":
            for vm in _VERSION_INFO.finditer(body):
                _versions(html_to_text(vm.group(1)), rec)
            if not _VERSION_INFO.search(body):
                _versions(html_to_text(body), rec)
        elif role == "members":
            rec.members[key.strip()] = _links(body)
        elif role == "values":
            rec.enum_values = _links(body)
        elif role == "collection":
            first = re.split(r"<br\s*/?>\s*<br\s*/?>", body, maxsplit=1, flags=re.I)[0]
            rec.collection_of = [t.strip() for t in html_to_text(first).replace("\n", ",").split(",")
                                 if t.strip()]
    return rec, warnings
