"""Facts about the served bundle that the tools do not carry: manifest, compile report, counts.

Read from the manifest, ``report.json`` and the per-document arrays (no cards decoded), so the
Sources page costs the same whatever the bundle's size.
"""
from __future__ import annotations

import calendar
import json
import logging
import re
import time
from pathlib import Path
from typing import Any

log = logging.getLogger("v8atlas.dashboard")


# An absolute path of the compiling machine (two parts or more): "/root/src/ssl", "C:\\x\\y".
_SEP = r"[\\/]"
_PART = r"[^\s/\\:'\"<>|]+"
_ABS_PATH = re.compile(rf"(?<![\w.:/\\])(?:/|[A-Za-z]:{_SEP}){_PART}(?:{_SEP}{_PART})+")


def _tail(m: re.Match[str]) -> str:
    return "/".join(re.split(_SEP, m.group(0))[-2:])


def without_paths(value: Any) -> Any:
    """``value`` with every absolute path in its strings (and keys) cut to its last two parts:
    a compile run outside its sources' folder names them absolutely in counts, help books and
    the report, and no path of the compiling machine is shown to a client."""
    if isinstance(value, str):
        return _ABS_PATH.sub(_tail, value) if ("/" in value or "\\" in value) else value
    if isinstance(value, list):
        return [without_paths(v) for v in value]
    if isinstance(value, dict):
        return {without_paths(k): without_paths(v) for k, v in value.items()}
    return value


def bundle_facts(bundle: Any) -> dict[str, Any]:
    manifest = bundle.manifest
    report = read_report(Path(bundle.path), manifest)
    created = manifest.get("created_at", "")
    return without_paths({
        "id": bundle.id, "name": manifest.get("name"), "content_hash": manifest.get("content_hash"),
        "created_at": created, "age_s": age_s(created),
        "compiler_version": manifest.get("compiler_version"),
        "format_version": manifest.get("format_version"),
        "sources": manifest.get("sources") or [], "counts": manifest.get("counts") or {},
        "info": manifest.get("info") or {},
        "report": {k: report.get(k, []) for k in ("errors", "warnings", "unknown")},
        "configs": configs(bundle),
        "counts_by_class": counts_by_class(bundle),
    })


def read_report(path: Path, manifest: dict[str, Any]) -> dict[str, Any]:
    name = manifest.get("report") or "report.json"
    try:
        data = json.loads((path / str(name)).read_text(encoding="utf-8"))
        return data if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}


def configs(bundle: Any) -> list[str]:
    try:
        from v8atlas.formats.catalog import Catalog
        return list(Catalog(bundle).meta.get("configs") or [])
    except Exception:
        return []


def counts_by_class(bundle: Any) -> dict[str, dict[str, int]]:
    """Objects per class per configuration, counted over the per-document arrays (no cards read)."""
    try:
        import numpy as np

        from v8atlas.formats import schema as S
        from v8atlas.formats.catalog import Catalog
        catalog = Catalog(bundle)
        if not len(catalog):
            return {}
        metadata = np.asarray(catalog.domain) == catalog.domains.index("metadata")
        configs, kinds = np.asarray(catalog.config)[metadata], np.asarray(catalog.kind)[metadata]
        out: dict[str, dict[str, int]] = {}
        for c in np.unique(configs):
            ks, ns = np.unique(kinds[configs == c], return_counts=True)
            name = catalog.meta["configs"][int(c)] if int(c) != S.NO_CONFIG else "—"
            out[name] = {catalog.meta["kinds"][int(k)]: int(n)
                         for k, n in sorted(zip(ks, ns), key=lambda kn: -kn[1])}
        return out
    except Exception:  # an old or partial bundle: the page shows what it can
        log.debug("counts by class unavailable", exc_info=True)
        return {}


def age_s(created: str) -> int | None:
    try:
        return int(time.time() - calendar.timegm(time.strptime(created, "%Y-%m-%dT%H:%M:%SZ")))
    except (ValueError, OverflowError):
        return None
