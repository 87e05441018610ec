"""Split Markdown, plain text and HTML into sections by their structure.

Only the structure is needed (headings, fenced code, front matter): the server shows the
Markdown as written, so no renderer is involved. HTML is turned into the same Markdown
(headings, paragraphs, lists, tables as pipe rows, ``pre`` as fenced code) with lxml.html and
split by the same code; the 1C help-page style (``V8SH_pagetitle``, ``V8SH_chapter``
paragraphs, tables of parameters) maps to headings and rows.
"""
from __future__ import annotations

import re
from pathlib import PurePosixPath

from .model import Document, Section

MAX_SECTION_CHARS = 6000        # a longer section is cut at paragraph breaks (pages stay small)
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_FENCE = re.compile(r"^\s*(```|~~~)")
_IDENT = re.compile(r"[A-Za-zА-Яа-яЁё_][0-9A-Za-zА-Яа-яЁё_]*")
_META_LINE = re.compile(r"^([A-Za-z_][\w-]*)\s*:\s*(.*)$")


def front_matter(lines: list[str]) -> tuple[dict[str, str], list[str]]:
    """``---`` / ``key: value`` lines / ``---`` at the top: simple keys only (no YAML nesting)."""
    if not lines or lines[0].strip() != "---":
        return {}, lines
    meta: dict[str, str] = {}
    for i, line in enumerate(lines[1:], 1):
        if line.strip() == "---":
            return meta, lines[i + 1:]
        m = _META_LINE.match(line)
        if m:
            meta[m.group(1).lower()] = m.group(2).strip().strip('"').strip("'")
    return {}, lines        # no closing line: not front matter


def code_identifiers(code: str) -> list[str]:
    """Identifiers in a code block, in first-seen order (templates are found by them)."""
    seen: dict[str, None] = {}
    for m in _IDENT.finditer(code):
        if len(m.group()) > 2:
            seen.setdefault(m.group(), None)
    return list(seen)


def _cut(text: str) -> list[str]:
    """Pieces of about MAX_SECTION_CHARS, cut at blank lines outside code fences; a piece that
    reaches twice the limit with no blank line (a long table: its rows follow each other) is
    cut at the next line outside code (the public corpora had tables of 90,000 characters in
    one section: it matched any query by its size, and folding it cost 0.6 ms an answer)."""
    if len(text) <= MAX_SECTION_CHARS:
        return [text]
    pieces, cur, size, in_code = [], [], 0, False
    for line in text.split("\n"):
        if _FENCE.match(line):
            in_code = not in_code
        cur.append(line)
        size += len(line) + 1
        if size >= MAX_SECTION_CHARS and not in_code and (not line.strip() or size >= 2 * MAX_SECTION_CHARS):
            pieces.append("\n".join(cur).strip("\n"))
            cur, size = [], 0
    if cur:
        pieces.append("\n".join(cur).strip("\n"))
    return [p for p in pieces if p.strip()]


def split_markdown(rel: str, text: str, fmt: str = "markdown") -> Document:
    meta, lines = front_matter(text.split("\n"))
    title = meta.get("title", "")
    stack: list[tuple[int, str]] = []
    raw: list[tuple[list[str], list[str], list[str]]] = [([], [], [])]   # (headings, lines, code)
    in_code, code_buf = False, []
    for line in lines:
        if _FENCE.match(line):
            if in_code:
                raw[-1][2].append("\n".join(code_buf))
                code_buf = []
            in_code = not in_code
            raw[-1][1].append(line)
            continue
        if in_code:
            code_buf.append(line)
            raw[-1][1].append(line)
            continue
        m = _HEADING.match(line)
        if m:
            level, heading = len(m.group(1)), m.group(2).strip()
            if level == 1 and (not title or heading == title):
                title = heading             # the title (front matter may name it too)
                stack = []
                continue
            while stack and stack[-1][0] >= level:
                stack.pop()
            stack.append((level, heading))
            raw.append(([h for _, h in stack], [], []))
            continue
        raw[-1][1].append(line)
    if in_code and code_buf:
        raw[-1][2].append("\n".join(code_buf))
    title = title or PurePosixPath(rel).stem
    sections: list[Section] = []
    for headings, body_lines, code in raw:
        body = "\n".join(body_lines).strip("\n")
        if not body.strip() and (sections or len(raw) > 1):
            continue            # a heading right before its first subheading: kept in their paths
        idents = [i for c in code for i in code_identifiers(c)]
        for piece in _cut(body):
            sections.append(Section([title, *headings], piece, idents))
    if not sections:
        sections.append(Section([title], "", []))
    return Document(rel, fmt, title, sections, url=meta.get("url") or None, meta=meta,
                    chars=len(text))


def split_text(rel: str, text: str) -> Document:
    """Plain text: the first short line is the title; paragraphs group into sections."""
    lines = text.split("\n")
    first = next((ln.strip() for ln in lines if ln.strip()), "")
    title = first if 0 < len(first) <= 120 else PurePosixPath(rel).stem
    body = text.strip("\n")
    if first == title:
        body = body[body.find(first) + len(first):].strip("\n")
    doc = Document(rel, "text", title, [Section([title], p, []) for p in _cut(body)] or
                   [Section([title], "", [])], chars=len(text))
    return doc
