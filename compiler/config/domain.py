"""The configuration domain: metadata objects of Designer dumps and EDT projects."""
from __future__ import annotations

from typing import Any

from v8atlas.formats import schema as S
from v8atlas.formats.domain import Domain, SourceKind, TomlKey, TomlTable

from ..code.domain import is_module_file
from ..documents import METADATA
from ..forms.domain import is_ui_file
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

# Binary and text bodies no reader of any domain opens (measured in SSL 3.1: 30 of its 53 MB
# outside modules and forms): XDTO packages, pictures, non-schema templates, the parents' list;
# and the objects' and forms' help pages (Designer's Ext/Help.xml and Ext/Help/<lang>.html:
# 1,630 of SSL 3.1.12's 9,300 files, 3.5 MB, a sixth of what a structure compile hashed).
_NOT_READ_PARTS = ("/Ext/Picture/", "/Ext/Help/")
_NOT_READ_LEAVES = ("/Ext/Package.bin", "/Ext/Template.bin", "/Ext/Template.txt",
                    "/Ext/ParentConfigurations.bin", "/Ext/Help.xml")


def may_read(rel: str) -> bool:
    """Every file of a dump but the modules, the form, template and rights bodies and the
    bodies above: its readers open the descriptors, Ext/Predefined.xml, Ext/Content.xml,
    Ext/Flowchart.xml, ConfigDumpInfo.xml…; a file it does not know is counted as read."""
    return not (is_module_file(rel) or is_ui_file(rel) or rel.endswith(_NOT_READ_LEAVES)
                or any(map(rel.__contains__, _NOT_READ_PARTS)))


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
    reads_files=may_read,
    link=link,
    build=build,
    provides=(ConfigModels,),
    doc_domains=(METADATA,),
    segments=(S.GRAPH,),
)
