"""Text normalization shared by the compiler (at index time) and the server (at query time)."""
from __future__ import annotations

import unicodedata


def nfc(s: str) -> str:
    """Names of 1C objects are data: stored and shown exactly, only NFC-normalized."""
    return unicodedata.normalize("NFC", s)


def fold(s: str) -> str:
    """Matching form: NFC, lower case, ё→е. Never shown to anyone."""
    return unicodedata.normalize("NFC", s).lower().replace("ё", "е")


def name_key(s: str) -> str:
    """Key of the exact-name tables: folded, whitespace squeezed, spaces around dots dropped."""
    s = " ".join(fold(s).split())
    return s.replace(" .", ".").replace(". ", ".")
