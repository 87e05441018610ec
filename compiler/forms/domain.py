"""The forms domain: managed forms, composition schemas and roles of Designer dumps and EDT
projects (docs/forms.md). It reads the configuration domain's sources with a parse of its own
(files found by path) and resolves owners, form types and synonyms at link time through the
configuration domain's ``ConfigModels``; its documents are metadata documents (sub-object
addresses of ``get_object``), so the configuration domain's tools answer them."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from v8atlas.formats.domain import Domain, Source

from ..documents import METADATA
from ..links import ConfigModels

if TYPE_CHECKING:
    from .read import ParsedUI

# The file names of the form bodies, templates and role rights this domain reads (the readers
# pick their tasks by them; the configuration domain never opens them).
UI_LEAVES = ("/Ext/Form.xml", "/Ext/Template.xml", "/Ext/Rights.xml", "/Form.form", "/Template.dcs",
             "/Rights.rights")


def is_ui_file(rel: str) -> bool:
    """A file the forms domain may read: a form body, a template or a role's rights."""
    return rel.endswith(UI_LEAVES)


# The readers and the linker are imported when a compile parses or links: a no-change
# recompile only lists the domains and needs none of them.


def parse(source: Source, report: Any) -> "ParsedUI | None":
    from ..config.errors import ConfigSourceError
    from ..config.plugin import open_source
    from .read import parse_dump
    try:
        fmt, files = open_source(source.path)
    except ConfigSourceError:
        return None          # the configuration domain reports why the source is refused
    return parse_dump(files, fmt, source.name, report)


def link(parsed: list[tuple[Any, Any]], ctx: Any) -> None:
    from . import link as linker
    linker.link(parsed, ctx)


DOMAIN = Domain(
    "forms",
    reads=("configuration",),
    parse=parse,
    reads_files=is_ui_file,
    link=link,
    needs=(ConfigModels,),
    doc_domains=(METADATA,),
)
