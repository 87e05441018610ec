"""The platform help domain: built-in language (shcntx/shlang) and query language (shquery) books."""
from __future__ import annotations

from typing import Any

from v8atlas.formats.domain import Domain, SourceKind, TomlKey, TomlTable

from ..documents import PLATFORM, QUERY
from . import plugin

HELP_SOURCE = SourceKind(
    "help", plugin.detect, "a help book (*.hbk)",
    toml_tables=(TomlTable("help", (TomlKey("version", (str,), "platform version of the book, "
                                                                "when its path does not say it"),)),))

# Both document domains come from the same books and one merge of their versions, so they are
# one domain here; its link reads the configurations' platforms (ConfigModels) when present.
def link(parsed: list[tuple[Any, Any]], ctx: Any) -> None:
    from .link import link as help_link      # imported when a compile links (not on no-change)
    help_link(parsed, ctx)


DOMAIN = Domain(
    "help",
    source_kinds=(HELP_SOURCE,),
    reads=("help",),
    parse=plugin.parse,
    link=link,
    doc_domains=(PLATFORM, QUERY),
)
