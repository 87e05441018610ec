"""Helpers every tool shares: configuration resolution, candidates, the answer frame."""
from __future__ import annotations

from typing import Any

from v8atlas.formats.classes import class_by_any_name
from v8atlas.formats.platform_version import format_version
from v8atlas.formats.text import fold

from ..snapshot import ConfigInfo, Snapshot
from .result import ToolInputError

# Class names people type (Russian or English, singular or plural) → the names cards carry.
CLASS_BY_NAME = class_by_any_name()


def config_names(snap: Snapshot) -> str:
    return ", ".join(f"`{c.name}`" for c in snap.configs) or "none"


def resolve_config(snap: Snapshot, config: str | None, *, required_when_many: bool = True
                   ) -> ConfigInfo | None:
    """The configuration asked about; an error when it is unknown or must be named."""
    if config:
        info = snap.config(config)
        if info is None:
            raise ToolInputError("unknown_config", f"no configuration {config!r} in this bundle; "
                                                   f"loaded: {config_names(snap)}")
        return info
    if len(snap.configs) == 1:
        return snap.configs[0]
    if len(snap.configs) > 1 and required_when_many:
        raise ToolInputError("config_required", f"{len(snap.configs)} configurations are loaded "
                                                f"({config_names(snap)}); pass `config` to say which")
    return None


def resolve_kind(snap: Snapshot, kind: str | None, domain: str) -> str | None:
    """A class/kind as the cards name it, from its English or Russian name (any case)."""
    if not kind:
        return None
    kinds = set(snap.catalog.meta.get("kinds") or [])
    folded = fold(kind).replace(" ", "")
    for k in kinds:
        if fold(k) == folded:
            return k
    mapped = CLASS_BY_NAME.get(folded)
    if mapped and mapped in kinds:
        return mapped
    present = kinds_in_domain(snap, domain)
    raise ToolInputError("bad_argument", f"unknown kind {kind!r}; kinds here: "
                                         f"{', '.join(present[:60]) or 'none'}")


def kinds_in_domain(snap: Snapshot, domain: str) -> list[str]:
    import numpy as np
    code = snap.catalog.domain_code(domain)
    mask = np.asarray(snap.catalog.domain) == code
    names = snap.catalog.meta.get("kinds") or []
    return sorted(names[int(k)] for k in np.unique(np.asarray(snap.catalog.kind)[mask]))


def version_text(code: int | None) -> str:
    return format_version(code) if code else "any version"


def node(snap: Snapshot, doc: int) -> dict[str, Any]:
    """How a document is named in ``data`` (ids are stable within one bundle only)."""
    return {"id": doc, "name": snap.key(doc), "title": snap.title(doc),
            "kind": snap.catalog.kind_name(doc), "config": snap.catalog.config_name(doc),
            "domain": snap.catalog.domain_name(doc)}


def address(snap: Snapshot, doc: int) -> str:
    """The exact name to ask for next: the title, with the configuration when several exist."""
    cfg = snap.catalog.config_name(doc)
    t = snap.title(doc)
    return f"`{t}` (config=`{cfg}`)" if cfg and len(snap.configs) > 1 else f"`{t}`"
