"""The configuration domain: metadata objects of Designer dumps and EDT projects."""
from __future__ import annotations

from v8atlas.formats import schema as S
from v8atlas.formats.domain import Domain, SourceKind, TomlKey, TomlTable

from ..documents import METADATA
from ..links import ConfigModels
from . import graph, link, plugin

_NAME = TomlKey("name", (str,), "how tools address the configuration")
_PLATFORM = TomlKey("platform", (str,), "platform version it runs on, e.g. \"8.3.24\"")
_BASE = TomlKey("base", (str,), "the configuration an extension extends")

CONFIGURATION_SOURCE = SourceKind(
    "configuration", plugin.detect,
    "a Designer XML dump (a folder or .zip with Configuration.xml), an EDT project "
    "(src/Configuration/Configuration.mdo)",
    toml_tables=(TomlTable("configuration", (_NAME, _PLATFORM, _BASE)),
                 TomlTable("extension", (_NAME, _PLATFORM, _BASE))))

DOMAIN = Domain(
    "configuration",
    source_kinds=(CONFIGURATION_SOURCE,),
    reads=("configuration",),
    parse=plugin.parse,
    link=link.link,
    build=graph.build,
    provides=(ConfigModels,),
    doc_domains=(METADATA,),
    segments=(S.GRAPH,),
)
