"""Type qualifiers (string length, number digits, date fractions) for both source formats.

Each format names the qualifier blocks and their fields differently; the tables below map
them onto ``TypeRef`` fields, and ``apply`` sets them on the members they belong to. An
absent block means the platform default: unlimited string, Number(0,0), DateTime.
"""
from __future__ import annotations

from typing import Any, Callable

from lxml import etree

from .model import BINARY, DATE, NUMBER, STRING, TypeRef
from .xmlsafe import elements, local, text

Table = dict[str, tuple[str, dict[str, tuple[str, Callable[[str], Any]]]]]


def _int(s: str) -> int:
    try:
        return int(s or 0)
    except ValueError:
        return 0


DESIGNER: Table = {
    STRING: ("StringQualifiers", {"Length": ("length", _int), "AllowedLength": ("fixed", lambda v: v == "Fixed")}),
    BINARY: ("BinaryDataQualifiers", {"Length": ("length", _int), "AllowedLength": ("fixed", lambda v: v == "Fixed")}),
    NUMBER: ("NumberQualifiers", {"Digits": ("digits", _int), "FractionDigits": ("fraction", _int),
                                  "AllowedSign": ("nonnegative", lambda v: v == "Nonnegative")}),
    DATE: ("DateQualifiers", {"DateFractions": ("date_fractions", lambda v: v or "DateTime")}),
}
EDT: Table = {
    STRING: ("stringQualifiers", {"length": ("length", _int), "fixed": ("fixed", lambda v: v == "true")}),
    BINARY: ("binaryDataQualifiers", {"length": ("length", _int), "fixed": ("fixed", lambda v: v == "true")}),
    NUMBER: ("numberQualifiers", {"precision": ("digits", _int), "scale": ("fraction", _int),
                                  "nonNegative": ("nonnegative", lambda v: v == "true")}),
    DATE: ("dateQualifiers", {"dateFractions": ("date_fractions", lambda v: v or "DateTime")}),
}
_DEFAULTS: dict[str, dict[str, Any]] = {
    STRING: {"length": 0}, BINARY: {"length": 0}, NUMBER: {"digits": 0, "fraction": 0},
    DATE: {"date_fractions": "DateTime"},
}


def apply(members: list[TypeRef], blocks: dict[str, etree._Element], table: Table) -> None:
    """Set qualifier fields on each member from ``blocks`` (qualifier element by local name)."""
    for m in members:
        spec = table.get(m.kind)
        if spec is None:
            continue
        for k, v in _DEFAULTS[m.kind].items():
            setattr(m, k, v)
        block = blocks.get(spec[0])
        if block is None:
            continue
        for c in elements(block):
            field = spec[1].get(local(c))
            if field is not None:
                setattr(m, field[0], field[1](text(c)))
