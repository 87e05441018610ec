"""A second toy domain that reads the *configuration* domain's source (a Designer dump), the
way the code and forms domains do: its own parse of the dump, owners resolved at link time
through the configuration domain's ``ConfigModels`` link."""
from __future__ import annotations

from typing import Any

from v8atlas.compiler.documents import Doc
from v8atlas.compiler.links import ConfigModels
from v8atlas.formats.domain import Domain, Source

DOC_DOMAIN = "census"


def parse(source: Source, report: Any) -> dict[str, int]:
    """Files per top-level folder of the dump: plain data, no model."""
    counts: dict[str, int] = {}
    for p in source.path.rglob("*.xml"):
        top = p.relative_to(source.path).parts[0]
        counts[top] = counts.get(top, 0) + 1
    return counts


def link(parsed: list[tuple[Source, dict[str, int]]], ctx: Any) -> None:
    models = ctx.links.need(ConfigModels).models
    for source, counts in parsed:
        # the dump's configuration, as the configuration domain named it
        name = next(n for n, m in models.items() if m.source == source.name)
        ctx.docs.append(Doc(DOC_DOMAIN, f"census/{name}", "Census", f"Перепись.{name}",
                            {"files": counts, "objects": len(models[name].objects)},
                            names=[f"Перепись.{name}"], fields={"name": f"перепись {name}"}))


DOMAIN = Domain("census", reads=("configuration",), parse=parse, link=link, needs=(ConfigModels,),
                doc_domains=(DOC_DOMAIN,))
