"""Names of the segments both sides agree on (one place per fact).

Documents are numbered 0..N-1; every per-document array is indexed by that number.
"""
from __future__ import annotations

# The built-in document domains, with fixed codes; a registered domain's own document domains
# follow them in the "domains" list of DOC_META, which is what readers index by.
DOMAINS = ("metadata", "platform", "query")

DOC_CARDS = "docs.cards"        # record store: the card of each document
DOC_DOMAIN = "docs.domain"      # uint8  index into the "domains" list of DOC_META
DOC_KIND = "docs.kind"          # uint16 index into the "kinds" list of DOC_META
DOC_CONFIG = "docs.config"      # uint16 index into the "configs" list of DOC_META; NO_CONFIG if none
DOC_SINCE = "docs.since"        # uint32 platform_version.encode_version; 0 = always
DOC_UNTIL = "docs.until"        # uint32 first version without it; 0xFFFFFFFF = still there
DOC_KEYS = "docs.keys"          # string table (…​.off/…​.blob): document key by id, for edges
DOC_TITLES = "docs.titles"      # string table: title by id (lists without decoding cards)
DOC_META = "docs.meta"          # json: {"kinds": [...], "configs": [...], "count": N, "domains": [...]}
NO_CONFIG = 0xFFFF

NAMES = "names"                 # string table of name_key(...) values, sorted
NAMES_POST_OFF = "names.post_off"   # uint32 CSR offsets, one run of doc ids per name
NAMES_POST_DOC = "names.post_doc"   # uint32 doc ids

GRAPH = "graph"                 # prefix of the relation graph segments (compiler/config/graph.py)
SEARCH = "search"               # prefix of the full-text index segments (compiler/search/build.py)


def table_segments(prefix: str) -> tuple[str, str]:
    """A string table is stored as two segments: offsets and blob."""
    return f"{prefix}.off", f"{prefix}.blob"
