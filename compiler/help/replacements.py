"""The curated replacements table (data/replacements.json): what to use on older platforms."""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent / "data"


class ReplacementsError(ValueError):
    pass


def load_replacements(path: Path | None = None) -> dict[str, dict[str, Any]]:
    """element full name → entry; every alternative must carry a non-empty caveat."""
    p = path or DATA / "replacements.json"
    return _load(str(p))


@lru_cache(maxsize=4)
def _load(p: str) -> dict[str, dict[str, Any]]:
    with open(p, encoding="utf-8") as f:
        data = json.load(f)
    out: dict[str, dict[str, Any]] = {}
    for i, e in enumerate(data.get("entries", [])):
        where = f"{p}: entry {i} ({e.get('element', '?')})"
        if not e.get("element") or not e.get("since"):
            raise ReplacementsError(f"{where}: 'element' and 'since' are required")
        alts = e.get("alternatives") or []
        if not alts:
            raise ReplacementsError(f"{where}: no alternatives")
        for a in alts:
            if not str(a.get("caveat", "")).strip():
                raise ReplacementsError(f"{where}: alternative {a.get('name')!r} has no caveat "
                                        f"(every replacement must say how it differs)")
            if not a.get("name"):
                raise ReplacementsError(f"{where}: an alternative has no name")
        out[e["element"]] = e
    return out


def load_query_language() -> dict[str, Any]:
    with open(DATA / "query_language.json", encoding="utf-8") as f:
        return json.load(f)
