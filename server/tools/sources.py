"""list_sources: what this bundle answers for, and how fresh it is."""
from __future__ import annotations

from typing import Any

from v8atlas.formats.platform_version import encode_version, format_version

from v8atlas.formats.info import to_dict
from v8atlas.formats.schema import DOMAINS as BUILT_IN_DOMAINS

from ..snapshot import Snapshot
from .result import LIST, ToolResult


def _age(seconds: float | None) -> str:
    if seconds is None:
        return "age unknown"
    if seconds < 120:
        return f"{seconds:.0f} s old"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min old"
    if seconds < 172800:
        return f"{seconds / 3600:.0f} h old"
    return f"{seconds / 86400:.0f} days old"


def help_info(snap: Snapshot) -> dict[str, Any]:
    """Help versions loaded / missing / unused, as the help domain declared them (formats/info.py)."""
    h = snap.info.help
    if h is None:
        return {}
    # per-book details are the compile report's; an answer shows the versions
    out: dict[str, Any] = {k: v for k, v in to_dict(h).items() if k != "books"}
    out["loaded"] = list(h.platform_versions)
    if h.query_versions:
        out["query"] = [f"shquery {v}" for v in h.query_versions]
    return out


def list_sources(snap: Snapshot) -> ToolResult:
    b = snap.bundle
    per_config = snap.docs_per_config
    per_domain = snap.docs_per_domain
    lines = ["# Sources (outcome: list)",
             f"Bundle `{b.id}`, compiled {b.manifest.get('created_at', '?')} ({_age(snap.age_seconds())})"
             + (", integrity check still running" if snap.verified is False else "") + "."]
    configs = []
    lines.append(f"\n## Configurations ({len(snap.configs)})")
    if not snap.configs:
        lines.append("- none loaded: metadata tools answer `unavailable`; compile a configuration dump")
    for c in snap.configs:
        n = per_config.get(c.index, 0)
        parts = [f"- `{c.name}`"]
        if c.synonym and c.synonym != c.name:
            parts.append(f" ({c.synonym})")
        parts.append(f" version {c.version or '?'}")
        if c.platform_code:
            src = f" (from {c.platform_source.replace('_', ' ')})" if c.platform_source else ""
            parts.append(f"; platform {format_version(c.platform_code)}{src}")
        else:
            parts.append("; platform version unknown (platform answers are not filtered)")
        if c.compatibility_mode:
            parts.append(f"; compatibility mode {c.compatibility_mode}")
        parts.append(f"; {n} objects")
        if c.base:
            parts.append(f"; base + extensions of `{c.base}`")
        if c.extensions:
            parts.append(f"; extensions: {', '.join(f'`{e}`' for e in c.extensions)}")
        lines.append("".join(parts))
        configs.append({"name": c.name, "synonym": c.synonym, "version": c.version,
                        "platform_version": format_version(c.platform_code) if c.platform_code else None,
                        "platform_source": c.platform_source, "compatibility_mode": c.compatibility_mode,
                        "objects": n, "extensions": list(c.extensions), "base": c.base})
    hv = help_info(snap)
    lines.append("\n## Platform and query-language help")
    lines.append(f"- platform elements: {per_domain.get('platform', 0)}; "
                 f"query-language elements: {per_domain.get('query', 0)}")
    if hv.get("loaded"):
        lines.append(f"- help versions loaded: {', '.join(hv['loaded'])}")
    elif per_domain.get("platform", 0) == 0:
        lines.append("- no platform help loaded: platform tools answer `unavailable`")
    for key, label in (("missing", "needed but not loaded"), ("unused", "loaded but no configuration "
                                                                        "needs them")):
        v = hv.get(key)
        if v:
            lines.append(f"- {label}: {_join(v)}")
    for name, cov in (hv.get("configurations") or {}).items():
        if isinstance(cov, dict) and cov.get("needs"):
            used = cov.get("served_by")
            lines.append(f"- `{name}` needs help {cov['needs']}: "
                         + (f"{_STATUS.get(cov.get('status'), cov.get('status'))} ({used})" if used
                            else "no platform help loaded"))
    if hv.get("query"):
        lines.append(f"- query-language book: {_join(hv['query'])}")
    others = [d for d in snap.catalog.domains if d not in BUILT_IN_DOMAINS and per_domain.get(d, 0)] \
        if snap.has_docs else []
    if others:
        lines.append("\n## Other knowledge")
        lines += [f"- `{d}`: {per_domain.get(d, 0)} document(s)" for d in others]
    lines.append("\nAsk with exact names (`Справочник.Имя`, `Массив.Найти`); "
                 + ("pass `config` on every call." if len(snap.configs) > 1 else
                    "config may be omitted (one configuration)."))
    data = {"bundle": {"id": b.id, "content_hash": b.content_hash,
                       "created_at": b.manifest.get("created_at"), "age_seconds": snap.age_seconds(),
                       "verified": snap.verified},
            "configs": configs, "help": hv, "documents": per_domain}
    return ToolResult(LIST, "\n".join(lines) + "\n", data)


_STATUS = {"loaded": "loaded", "nearest-older": "answered by the nearest older book",
           "missing": "not loaded, answered by the oldest book"}


def _join(v: Any) -> str:
    if isinstance(v, dict):
        return "; ".join(f"{k}: {_join(x)}" for k, x in v.items())
    if isinstance(v, (list, tuple)):
        return ", ".join(_join(x) for x in v)
    return str(v)


__all__ = ["list_sources", "help_info", "encode_version"]
