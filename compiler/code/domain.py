"""The code domain: every BSL module of the dumps the configuration domain reads (docs/code.md).

It parses the same Designer/EDT source on its own (its parse is cached on its own), checks
module owners against the configuration domain's model at link time (``ConfigModels``), and
writes the ``code.*`` segments the server's ``search_code``/``get_procedure`` read.
"""
from __future__ import annotations

from typing import Any

from v8atlas.formats import code as FC
from v8atlas.formats.domain import Apart, Domain

from ..links import ConfigModels
from .index import CodeIndex

# The reader, linker and builder are imported when a compile runs them: a no-change recompile
# only lists the domains (their imports were ~0.3 s of it).


def is_module_file(rel: str) -> bool:
    """A file the code domain may read: a BSL module (``compiler/code/modules.py`` lists them)."""
    return rel.endswith(".bsl")


def parse(source: Any, report: Any) -> Any:
    from .read import parse as read_parse
    return read_parse(source, report)


def link(parsed: list[tuple[Any, Any]], ctx: Any) -> None:
    from .link import link as code_link
    code_link(parsed, ctx)


def apart_inputs(ctx: Any) -> Any:
    from .link import apart_inputs as inputs
    return inputs(ctx)


def link_apart(parsed: list[tuple[Any, Any]], inputs: Any, ctx: Any, answer: Any) -> None:
    from .link import link_apart as linked
    linked(parsed, inputs, ctx, answer)


def merge_apart(answer: Any, ctx: Any) -> None:
    from .link import merge_apart as merge
    merge(answer, ctx)


def build(ctx: Any, writer: Any) -> None:
    from .build import build as code_build
    code_build(ctx, writer)


DOMAIN = Domain(
    "code",
    reads=("configuration",),
    parse=parse,
    reads_files=is_module_file,
    link=link,
    build=build,
    needs=(ConfigModels,),
    provides=(CodeIndex,),
    segments=(FC.PREFIX,),
    build_apart=True,       # its build reads the code index alone: a forked child's work
    # Its parse, link and build whole in a child from the compile's start: the modules are
    # most of a dump's bytes, and the link needs only the configuration's names (``link.py``).
    apart=Apart(inputs=apart_inputs, link=link_apart, merge=merge_apart),
)
