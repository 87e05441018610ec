"""One spelling of form and schema value types for both formats.

Designer writes form-only platform types in the current-config namespace
(``cfg:DynamicList``); the config reader takes those for configuration types without an
object name. EDT writes them bare (``DynamicList``), read as platform types. Both become
``Platform`` members here, so the two formats give the same model.
"""
from __future__ import annotations

from v8atlas.compiler.config.model import (
    CONFIG_TYPE,
    PLATFORM,
    TypeDescription,
    TypeRef,
)

# Designer names of a few platform types, with the EDT names the model uses.
_RENAMES = {"Field": "DataCompositionField", "FlowchartContextType": "GraphicalSchema"}


def form_type(td: TypeDescription) -> TypeDescription:
    out = []
    for t in td.types:
        if t.kind == CONFIG_TYPE and not t.name:
            t = TypeRef(PLATFORM, name=t.ref_class)
        if t.kind == PLATFORM and t.name in _RENAMES:
            t = TypeRef(PLATFORM, name=_RENAMES[t.name])
        out.append(t)
    td.types = out
    return td
