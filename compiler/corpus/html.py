"""HTML to the Markdown the splitter reads, with lxml.html (lenient: recovers broken markup).

Headings become ``#`` lines, ``pre`` fenced code, tables pipe rows (the 1C help pages keep
parameters and values in tables), lists ``-`` items; scripts and styles are dropped. The 1C
help-page classes are headings too: ``V8SH_pagetitle`` the title, ``V8SH_chapter`` ("Синтаксис:",
"Параметры:") a second-level heading. Problems the parser recovered from are returned so the
compile report can name the file.
"""
from __future__ import annotations

import lxml.etree
import lxml.html

_BLOCKS = {"p", "div", "section", "article", "blockquote", "dd", "dt", "br", "hr", "body", "main"}
_SKIP = {"script", "style", "head", "noscript", "template"}
_CLASS_LEVEL = {"V8SH_pagetitle": 1, "V8SH_chapter": 2, "V8SH_heading": 3}


def _text(el: lxml.html.HtmlElement) -> str:
    return " ".join(el.text_content().split())


def _table(el: lxml.html.HtmlElement) -> list[str]:
    rows = []
    for tr in el.iter("tr"):
        cells = [_text(c).replace("|", "\\|") for c in tr if c.tag in ("td", "th")]
        if any(cells):
            rows.append("| " + " | ".join(cells) + " |")
    if rows:
        width = rows[0].count(" | ") + 1
        rows.insert(1, "|" + "---|" * width)
    return rows


def html_to_markdown(data: bytes) -> tuple[str, str | None, list[str]]:
    """(markdown, <title> text or None, recovered problems)."""
    # UTF-8 when the bytes are UTF-8 (libxml2 would assume Latin-1 without a charset);
    # otherwise the page's own declaration (1C help pages: windows-1251) decides.
    try:
        data.decode("utf-8")
        encoding: str | None = "utf-8"
    except UnicodeDecodeError:
        encoding = None
    parser = lxml.html.HTMLParser(recover=True, encoding=encoding, remove_comments=True)
    try:
        root = lxml.html.document_fromstring(data, parser=parser)
    except (lxml.etree.ParserError, ValueError) as e:
        return "", None, [f"not parsable as HTML: {e}"]
    problems = [f"line {e.line}: {e.message}" for e in parser.error_log
                if e.level >= lxml.etree.ErrorLevels.ERROR][:3]
    title_el = root.find(".//title")
    title = _text(title_el) if title_el is not None and _text(title_el) else None
    out: list[str] = []

    def walk(el: lxml.html.HtmlElement) -> None:
        tag = el.tag if isinstance(el.tag, str) else ""
        if tag in _SKIP:
            return
        level = _CLASS_LEVEL.get((el.get("class") or "").split(" ")[0]) if tag else None
        if tag in ("h1", "h2", "h3", "h4", "h5", "h6") or level:
            text = _text(el)
            if text:
                out.extend(["", "#" * (level or int(tag[1])) + " " + text, ""])
            return
        if tag == "pre":
            out.extend(["", "```", el.text_content().rstrip("\n"), "```", ""])
            return
        if tag == "table":
            out.extend(["", *_table(el), ""])
            return
        if tag == "li":
            out.append("- " + _text(el))
            return
        inline = [c for c in el if isinstance(c.tag, str)]
        if tag in _BLOCKS or tag in ("ul", "ol", "dl", "html"):
            has_block = any(c.tag in _BLOCKS or c.tag in ("pre", "table", "ul", "ol", "li", "h1", "h2",
                                                          "h3", "h4", "h5", "h6") or
                            _CLASS_LEVEL.get((c.get("class") or "").split(" ")[0]) for c in inline)
            if not has_block:
                text = _text(el)
                if text:
                    out.extend([text, ""])
                return
            if el.text and el.text.strip():
                out.extend([" ".join(el.text.split()), ""])
            for c in inline:
                walk(c)
                if c.tail and c.tail.strip():
                    out.extend([" ".join(c.tail.split()), ""])
            return
        text = _text(el)
        if text:
            out.extend([text, ""])

    body = root.find("body")
    walk(body if body is not None else root)
    md = "\n".join(out)
    while "\n\n\n" in md:
        md = md.replace("\n\n\n", "\n\n")
    return md.strip() + "\n", title, problems
