"""Safe XML parsing for configuration sources: DTDs and external entities are never resolved.

One parser setting for every file we read: no network, no DTD loading, entity references
left unexpanded (an ``&xxe;`` stays a reference node and contributes no text), comments and
processing instructions dropped. A UTF-8 BOM is handled by lxml itself.
"""
from __future__ import annotations

import threading

from lxml import etree

_local = threading.local()


def _parser() -> etree.XMLParser:
    p = getattr(_local, "parser", None)
    if p is None:
        p = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False,
                            dtd_validation=False, remove_comments=True, remove_pis=True,
                            huge_tree=False, collect_ids=False)
        _local.parser = p
    return p


class XmlError(Exception):
    """A file is not well-formed XML; ``line`` is where the parser stopped."""

    def __init__(self, file: str, line: int | None, message: str) -> None:
        super().__init__(f"{file}:{line or '?'}: malformed XML: {message}")
        self.file = file
        self.line = line
        self.message = message


def parse_bytes(data: bytes, file: str) -> etree._Element:
    try:
        root = etree.fromstring(data, _parser())
    except etree.XMLSyntaxError as e:
        line = e.lineno if e.lineno else None
        msg = str(e.msg if hasattr(e, "msg") and e.msg else e)
        raise XmlError(file, line, msg) from None
    if root is None:
        raise XmlError(file, None, "empty document")
    return root


_LOCAL: dict[str, str] = {}   # "{ns}Name" → "Name": a handful of distinct tags, looked up ~10⁵ times


def local(el: etree._Element) -> str:
    tag = el.tag
    name = _LOCAL.get(tag)   # type: ignore[arg-type]
    if name is None:
        if not isinstance(tag, str):
            return ""
        name = _LOCAL[tag] = tag[tag.rfind("}") + 1:]
    return name


def text(el: etree._Element | None) -> str:
    """Element text; entity references (never resolved) contribute nothing."""
    if el is None:
        return ""
    t = el.text
    if not len(el):     # the common case: a leaf (~10⁵ calls per SSL parse)
        return t.strip() if t else ""
    # text split by an unresolved entity reference: keep the literal parts only
    parts = [t or ""]
    for c in el:
        if not isinstance(c.tag, str):
            parts.append(c.tail or "")
    return "".join(parts).strip()


def elements(el: etree._Element):
    """Child elements only (no comments, no entity nodes); filtered in C by lxml."""
    return el.iterchildren(etree.Element)
