"""A configuration model as a plain, format-neutral dict: for comparing two readers' output.

Dropped: where things came from (``source``, ``source_file``, ``format``, ``format_version``)
and the raw spelling of the compatibility mode (``Version8_3_24`` vs ``8.3.24``; the implied
``platform_version`` is compared instead).
"""
from __future__ import annotations

import dataclasses
from typing import Any

from .model import Configuration, MDObject

_DROP = {"source", "source_file", "format", "format_version", "compatibility_mode",
         "extension_compatibility_mode"}


def to_plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value):
        return {f.name: to_plain(getattr(value, f.name)) for f in dataclasses.fields(value)
                if f.name not in _DROP}
    if isinstance(value, dict):
        return {str(k): to_plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_plain(v) for v in value]
    return value


def object_dict(obj: MDObject) -> dict[str, Any]:
    d = to_plain(obj)
    d["subsystems"] = {s.name: object_dict(s) for s in obj.subsystems}
    return d


def config_dict(cfg: Configuration) -> dict[str, Any]:
    """``{"configuration": {...header...}, "objects": {"Catalog.X": {...}}}``."""
    head = to_plain(dataclasses.replace(cfg, objects=[], languages=[]))
    head.pop("objects", None)
    head["languages"] = {lang.name: object_dict(lang) for lang in cfg.languages}
    return {"configuration": head,
            "objects": {o.full_name: object_dict(o) for o in cfg.objects}}


def diff(a: Any, b: Any, path: str = "", out: list[str] | None = None, limit: int = 10_000) -> list[str]:
    """Human-readable differences between two plain values, one line each."""
    out = [] if out is None else out
    if len(out) >= limit:
        return out
    if isinstance(a, dict) and isinstance(b, dict):
        for k in a.keys() | b.keys():
            p = f"{path}/{k}" if path else str(k)
            if k not in b:
                out.append(f"{p}: only in A")
            elif k not in a:
                out.append(f"{p}: only in B")
            else:
                diff(a[k], b[k], p, out, limit)
    elif isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            out.append(f"{path}: {len(a)} items in A, {len(b)} in B: A={_short(a)} B={_short(b)}")
        else:
            for i, (x, y) in enumerate(zip(a, b)):
                diff(x, y, f"{path}[{i}]", out, limit)
    elif a != b:
        out.append(f"{path}: A={_short(a)} B={_short(b)}")
    return out


def _short(v: Any, n: int = 160) -> str:
    s = repr(v)
    return s if len(s) <= n else s[:n] + "…"
