"""The code domain: every BSL module of the dumps the configuration domain reads (docs/code.md).

It parses the same Designer/EDT source on its own (its parse is cached on its own), checks
module owners against the configuration domain's model at link time (``ConfigModels``), and
writes the ``code.*`` segments the server's ``search_code``/``get_procedure`` read.
"""
from __future__ import annotations

from v8atlas.formats import code as FC
from v8atlas.formats.domain import Domain

from ..links import ConfigModels
from . import build, link, read

DOMAIN = Domain(
    "code",
    reads=("configuration",),
    parse=read.parse,
    link=link.link,
    build=build.build,
    needs=(ConfigModels,),
    provides=(link.CodeIndex,),
    segments=(FC.PREFIX,),
)
