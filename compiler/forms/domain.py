"""The forms domain: managed forms, composition schemas and roles of Designer dumps and EDT
projects (docs/forms.md). It reads the configuration domain's sources with a parse of its own
(files found by path) and resolves owners, form types and synonyms at link time through the
configuration domain's ``ConfigModels``; its documents are metadata documents (sub-object
addresses of ``get_object``), so the configuration domain's tools answer them."""
from __future__ import annotations

from typing import Any

from v8atlas.formats.domain import Domain, Source

from ..config.errors import ConfigSourceError
from ..config.plugin import open_source
from ..documents import METADATA
from ..links import ConfigModels
from . import link
from .read import ParsedUI, parse_dump


def parse(source: Source, report: Any) -> ParsedUI | None:
    try:
        fmt, files = open_source(source.path)
    except ConfigSourceError:
        return None          # the configuration domain reports why the source is refused
    return parse_dump(files, fmt, source.name, report)


DOMAIN = Domain(
    "forms",
    reads=("configuration",),
    parse=parse,
    link=link.link,
    needs=(ConfigModels,),
    doc_domains=(METADATA,),
)
