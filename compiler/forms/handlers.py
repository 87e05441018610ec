"""The handler check of managed forms, through the code domain (docs/forms.md).

A step of its own, registered after the code domain (``formats/registry.py``): the forms
linker runs before it (its documents keep their place) and hands each managed form's card
section over (``FormCards``); here every event handler — form, item and command action — is
looked up among the procedures the code domain parsed from that form's module
(``CodeIndex``: the module of ``ModuleRef(owner, "Form", form)`` in the form's view, names
folded as BSL folds them). A handler naming no procedure is marked ``missing`` in the card
(when the form has a module) and reported once per form (``form-handler-missing``, the first 50 forms); the card gets the
module's procedure count. Without the code domain in the compile (``--skip code``) handlers
are shown unchecked.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from v8atlas.formats.domain import Domain
from v8atlas.formats.form_card import card_handlers

from ..links import FormCards

if TYPE_CHECKING:
    from ..code.index import CodeIndex

FORM_MODULE = "Form"          # code.model.ModuleKind.FORM (not imported: a no-change compile needs no code)

MAX_MISSING_WARNINGS = 50


def check(cards: FormCards, index: "CodeIndex", report: Any, counts: dict[str, dict[str, int]]) -> None:
    views = {v: i for i, v in enumerate(index.views)}
    modules = {(m.view, m.ref.owner, m.ref.child): m for m in index.modules if m.ref.kind == FORM_MODULE}
    shown = 0
    for source, view, owner, form, file, title, card in cards.forms:
        entry = modules.get((views.get(view, -1), owner, form))
        names = entry.names if entry is not None else {}
        missing = []
        for where, e, proc in card_handlers(card):
            if proc and proc.casefold() not in names:
                if entry is not None:        # no module at all: reported, the card shows it unchecked
                    e["missing"] = True
                missing.append(f"{where} → {proc}")
        if entry is not None:
            card["module"] = {"procedures": len(names)}
        if not missing:
            continue
        per_view = counts.setdefault(view, {})
        per_view["handlers_missing"] = per_view.get("handlers_missing", 0) + len(missing)
        if shown < MAX_MISSING_WARNINGS:
            shown += 1
            module = "the form has no module" if entry is None else "its module has no such procedure"
            report.warn(source, f"{len(missing)} handler(s) name a procedure the form module lacks "
                        f"({module}): " + "; ".join(missing[:8]) + (" …" if len(missing) > 8 else ""),
                        code="form-handler-missing", file=file or None, object=title)


def link(parsed: list[Any], ctx: Any) -> None:
    from ..code.index import CodeIndex
    cards = ctx.links.get(FormCards)
    index = ctx.links.get(CodeIndex)
    if cards is None or index is None:       # no forms, or no code domain in this compile
        return
    check(cards, index, ctx.report, ctx.counts.setdefault("forms", {}))


DOMAIN = Domain("form_handlers", link=link)
