"""The configuration domain: metadata objects of Designer dumps and EDT projects."""
from __future__ import annotations

from typing import Any

from v8atlas.formats import schema as S
from v8atlas.formats.domain import Domain, SourceKind, TomlKey, TomlTable

from ..documents import METADATA
from ..links import ConfigModels
from . import plugin

_NAME = TomlKey("name", (str,), "how tools address the configuration")
_PLATFORM = TomlKey("platform", (str,), "platform version it runs on, e.g. \"8.3.24\"")
_BASE = TomlKey("base", (str,), "the configuration an extension extends")

CONFIGURATION_SOURCE = SourceKind(
    "configuration", plugin.detect,
    "a Designer XML dump (a folder or .zip with Configuration.xml), an EDT project "
    "(src/Configuration/Configuration.mdo)",
    toml_tables=(TomlTable("configuration", (_NAME, _PLATFORM, _BASE)),
                 TomlTable("extension", (_NAME, _PLATFORM, _BASE))))

# The linker and the graph builder are imported when a compile runs them: a no-change
# recompile only detects the sources and lists the domains.


def link(parsed: list[tuple[Any, Any]], ctx: Any) -> None:
    from .link import link as config_link
    config_link(parsed, ctx)


def build(ctx: Any, writer: Any) -> None:
    from .graph import build as graph_build
    graph_build(ctx, writer)


DOMAIN = Domain(
    "configuration",
    source_kinds=(CONFIGURATION_SOURCE,),
    reads=("configuration",),
    parse=plugin.parse,
    link=link,
    build=build,
    provides=(ConfigModels,),
    doc_domains=(METADATA,),
    segments=(S.GRAPH,),
)
