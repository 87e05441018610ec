"""The platform help domain: built-in language (shcntx/shlang) and query language (shquery) books."""
from __future__ import annotations

from v8atlas.formats.domain import Domain, SourceKind, TomlKey, TomlTable

from ..documents import PLATFORM, QUERY
from . import link, plugin

HELP_SOURCE = SourceKind(
    "help", plugin.detect, "a help book (*.hbk)",
    toml_tables=(TomlTable("help", (TomlKey("version", (str,), "platform version of the book, "
                                                                "when its path does not say it"),)),))

# Both document domains come from the same books and one merge of their versions, so they are
# one domain here; its link reads the configurations' platforms (ConfigModels) when present.
DOMAIN = Domain(
    "help",
    source_kinds=(HELP_SOURCE,),
    reads=("help",),
    parse=plugin.parse,
    link=link.link,
    doc_domains=(PLATFORM, QUERY),
)
