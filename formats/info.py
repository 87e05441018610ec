"""The manifest ``info``: what the compiler declares about a bundle's content, typed, in one place.

The compiler builds these objects and writes ``to_dict()``; the server reads
``BundleInfo.from_dict(manifest["info"])`` and nothing else: no key guessing, one spelling per
fact. ``info`` is part of the content hash, so it never holds where a compile ran. Each
configuration is stored once (``configurations``); a domain that is not built in keeps its
own section under ``domains[<name>]``.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any


@dataclass(frozen=True)
class ConfigurationInfo:
    name: str                          # how tools address it (v8atlas.toml may rename it)
    configuration_name: str = ""       # the name its own header gives
    synonym: dict[str, str] = field(default_factory=dict)   # by language code
    version: str = ""
    vendor: str = ""
    platform_version: str = ""         # what platform answers are filtered for ("" unknown)
    platform_version_from: str = ""    # "v8atlas.toml" | "compatibility_mode" | ""
    compatibility_mode: str = ""
    script_variant: str = ""
    language: str = ""
    format: str = ""                   # "designer" | "edt"
    format_version: str = ""
    is_extension: bool = False
    name_prefix: str = ""
    base: str = ""                     # base + extensions view: the base view's name
    extensions: list[str] = field(default_factory=list)
    objects: int = 0
    counts_by_class: dict[str, int] = field(default_factory=dict)
    relations: int = 0
    weak_relations: int = 0
    dangling_references: int = 0
    adopted_objects: int = 0


@dataclass(frozen=True)
class HelpInfo:
    platform_versions: list[str] = field(default_factory=list)   # built-in language books, merged
    query_versions: list[str] = field(default_factory=list)      # query-language books
    books: dict[str, dict[str, Any]] = field(default_factory=dict)   # by portable source name
    configurations: dict[str, dict[str, str]] = field(default_factory=dict)  # coverage per config
    missing: list[str] = field(default_factory=list)
    unused: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class BundleInfo:
    configurations: list[ConfigurationInfo] = field(default_factory=list)
    config_order: list[str] = field(default_factory=list)
    help: HelpInfo | None = None
    domains: dict[str, Any] = field(default_factory=dict)    # sections of registered domains

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> "BundleInfo":
        help_raw = raw.get("help")
        return cls(configurations=[_typed(ConfigurationInfo, c) for c in raw.get("configurations") or []],
                   config_order=list(raw.get("config_order") or []),
                   help=_typed(HelpInfo, help_raw) if isinstance(help_raw, dict) else None,
                   domains=dict(raw.get("domains") or {}))


def _typed(cls: Any, raw: dict[str, Any]) -> Any:
    """The declared fields of ``raw``; keys a newer compiler added are ignored (minor format)."""
    names = {f.name for f in fields(cls)}
    return cls(**{k: v for k, v in raw.items() if k in names})


def to_dict(value: Any) -> dict[str, Any]:
    return asdict(value)
