"""Forms linker: parsed forms, schemas and roles → documents, card additions and edges.

Runs after the configuration domain's link (the registry's order; it ``needs`` ConfigModels)
and works on its documents:

* an object's form or template becomes a document of its own, addressed as a sub-object
  (``Справочник.X.Форма.Y`` / ``Catalog.X.Form.Y``, ``Отчет.X.Макет.Y`` / ``Report.X.Template.Y``);
* a common form, a common template and a role are objects already: their cards get the
  ``form`` / ``template`` / ``rights`` sections;
* every object named in a role's rights gets a ``roles`` list on its card (who may do what),
  and the graph gets ``rights`` edges (role → object), ``form`` edges (object → its form),
  ``form_data`` edges (form → objects its attributes hold).

Each managed form's card section is handed on (``FormCards``): once the code domain has
linked, ``handlers.py`` checks its event handlers against the procedures of the form module
and reports those naming none (``form-handler-missing``). Only views of a configuration's own
name are linked: a base+extensions view shows its base's forms through the base view
(docs/forms.md).
"""
from __future__ import annotations

from collections import defaultdict
from typing import Any

from v8atlas.compiler.config import words as W
from v8atlas.compiler.config.cards import CARD_SCHEMA
from v8atlas.compiler.config.link import doc_key
from v8atlas.compiler.config.model import CONFIG_TYPE, REF
from v8atlas.compiler.config.relations import type_class
from v8atlas.compiler.documents import METADATA, Doc, Edge
from v8atlas.compiler.links import ConfigModels, FormCards

from .cards import form_card, role_card, template_card, title_text
from .model import Form, FormItem, Template, UIModel
from .read import ParsedUI, assemble, form_key, template_key

FORM_KIND = "Form"
TEMPLATE_KIND = "Template"


def _walk(items: list[FormItem]):
    for i in items:
        yield i
        yield from _walk(i.items)


def _search_fields(name: str, titles: list[str], kind_words: str, owner: Doc | None,
                   extra: str = "") -> dict[str, str]:
    """A sub-object is found by its own name and titles, its kind, and its owner's name and synonym."""
    out = {"name": name, "class": kind_words}
    titles = [t for t in dict.fromkeys(titles) if t]
    if titles:
        out["synonym"] = " ".join(titles)
    if owner is not None:
        out["owner"] = " ".join(filter(None, [owner.fields.get("name", ""), owner.fields.get("synonym", "")]))
    if extra:
        out["attributes"] = extra
    return out


def _type_refs(form: Form) -> list[tuple[str, str]]:
    """(attribute, MDObjectRef) for every configuration object a form attribute holds."""
    out = []
    for a in form.attributes:
        for t in a.type.types:
            if t.kind in (REF, CONFIG_TYPE) and t.name:
                out.append((a.name, f"{type_class(t.ref_class)}.{t.name}"))
        if a.main_table:     # Catalog.X, or a virtual table: InformationRegister.X.SliceLast
            out.append((a.name, ".".join(a.main_table.split(".")[:2])))
    return out


def sub_card(view: str, language: str, cls: str, name: str, ref: str, owner: str, synonym: dict[str, str],
             source_file: str, section: str, body: dict[str, Any]) -> dict[str, Any]:
    """The card of a form or template of an object: the head every metadata card has, then its section."""
    other = W.RU if language == W.EN else W.EN
    words = {FORM_KIND: ("Форма", "Form"), TEMPLATE_KIND: ("Макет", "Template")}[cls]
    card: dict[str, Any] = {
        "schema": CARD_SCHEMA, "config": view, "language": language, "class": cls,
        "class_name": words[0] if language == W.RU else words[1],
        "class_alias": words[0] if other == W.RU else words[1],
        "name": name, "full_name": W.ref_name(ref, language), "full_name_alias": W.ref_name(ref, other),
        "owner": W.ref_name(owner, language)}
    if synonym:
        card["synonym"] = title_text(synonym)
    if source_file:
        card["source_file"] = source_file
    card[section] = body
    return card


def link(parsed: list[tuple[Any, ParsedUI | None]], ctx: Any) -> None:
    config_models = ctx.links.get(ConfigModels)
    if config_models is None or not any(dump is not None for _, dump in parsed):
        return     # no configuration in this compile (help books only, or every dump refused)
    models = config_models.models
    infos = {i["name"]: i for i in ctx.info.get("configurations", [])}
    docs_by_key = {d.key: d for d in ctx.docs if d.domain == METADATA}
    counts: dict[str, dict[str, int]] = {}
    cards = FormCards()
    for source, dump in parsed:
        if dump is None:
            continue
        # The view of this source's own configuration (the first: a base+extensions view
        # comes after its base). None when the configuration domain skipped the source (two
        # sources claimed one name) or when it is an extension attached to a base.
        name = next((n for n, m in models.items() if m.source == source.name and not m.extensions), None)
        if name is None or name not in infos:
            continue
        ui = assemble(models[name], dump, source.name, ctx.report)
        counts[name] = _link_view(ui, infos[name], source.name, docs_by_key, cards, ctx)
    if counts:
        ctx.counts["forms"] = counts
    ctx.links.put(cards)


def _link_view(ui: UIModel, info: dict[str, Any], source: str, docs_by_key: dict[str, Doc],
               cards: FormCards, ctx: Any) -> dict[str, int]:
    view = info["name"]
    language = info.get("language") or W.RU
    n = defaultdict(int)

    def title(ref: str) -> str:
        return W.ref_name(ref, language)

    for form in ui.forms:
        fkey = form_key(form)
        managed = form.form_type == "Managed" and not form.not_read
        if managed:
            n["managed_forms"] += 1
            n["handlers"] += len(form.handlers) + sum(len(i.handlers) for i in _walk(form.items)) + \
                sum(1 for c in form.commands if c.action)
        else:
            n["other_forms"] += 1
        card = form_card(form, language)
        if managed:
            cards.forms.append((source, view, form.owner, "" if form.common else form.name, form.file,
                                title(fkey), card))
        key = doc_key(view, fkey)
        if form.common:
            doc = docs_by_key.get(key)
            if doc is not None:
                doc.card["form"] = card
        else:
            ref_ru, ref_en = W.ref_name(fkey, W.RU), fkey
            head = sub_card(view, language, FORM_KIND, form.name, fkey, form.owner, form.synonym, form.file,
                            "form", card)
            doc = Doc(METADATA, key, FORM_KIND, title(fkey), head, list(dict.fromkeys([ref_ru, ref_en])),
                      _search_fields(form.name, [title_text(form.synonym), title_text(form.title)], "Форма Form",
                                     docs_by_key.get(doc_key(view, form.owner))), config=view)
            ctx.docs.append(doc)
            docs_by_key[key] = doc
            ctx.edges.append(Edge(doc_key(view, form.owner), key, "form", form.name))
        for attr, ref in _type_refs(form):
            ctx.edges.append(Edge(key, doc_key(view, ref), "form_data", attr))

    for t in ui.templates:
        tkey = template_key(t)
        key = doc_key(view, tkey)
        n["schemas" if t.schema is not None else "other_templates"] += 1
        card = template_card(t, language)
        if t.common:
            doc = docs_by_key.get(key)
            if doc is not None:
                doc.card["template"] = card
            continue
        head = sub_card(view, language, TEMPLATE_KIND, t.name, tkey, t.owner, t.synonym, t.file,
                        "template", card)
        words = "Макет Template" + (" схема компоновки данных" if t.schema is not None else "")
        fields = " ".join(f.data_path for d in (t.schema.data_sets if t.schema else []) for f in d.fields)
        doc = Doc(METADATA, key, TEMPLATE_KIND, title(tkey), head,
                  list(dict.fromkeys([W.ref_name(tkey, W.RU), tkey])),
                  _search_fields(t.name, [title_text(t.synonym), _template_title(t)], words,
                                 docs_by_key.get(doc_key(view, t.owner)), fields), config=view)
        ctx.docs.append(doc)
        docs_by_key[key] = doc
        ctx.edges.append(Edge(doc_key(view, t.owner), key, "template", t.name))

    roles_of: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for role in ui.roles:
        n["roles"] += 1
        key = doc_key(view, f"Role.{role.name}")
        doc = docs_by_key.get(key)
        if doc is not None:
            doc.card["rights"] = role_card(role, language)
        unknown = 0
        for o in role.objects:
            parts = o.name.split(".")
            top = ".".join(parts[:2])
            granted = [r for r, v in o.rights.items() if v]
            if parts[0] == "Configuration":
                continue
            if doc_key(view, top) not in docs_by_key:
                unknown += 1
                if unknown <= 5:
                    ctx.report.warn(source, f"the rights of role {role.name} name {o.name}, which is not in "
                                    f"the configuration; that entry is kept in the role's card only",
                                    code="rights-unknown-object", file=role.file or None, line=o.line or None,
                                    object=title(f"Role.{role.name}"))
                continue
            if not granted:
                continue
            entry = {"role": role.name, "rights": granted}
            if len(parts) > 2:
                entry["part"] = W.ref_name(o.name, language).split(".", 2)[2]
            if o.restrictions:
                entry["rls"] = sorted(o.restrictions)
            roles_of[top].append(entry)
            if len(parts) == 2:
                ctx.edges.append(Edge(key, doc_key(view, top), "rights", ", ".join(granted)))
        n["rights_unknown_objects"] += unknown
    for top, entries in roles_of.items():
        doc = docs_by_key.get(doc_key(view, top))
        if doc is not None:
            doc.card["roles"] = entries
    return dict(n)


def _template_title(t: Template) -> str:
    if t.schema is None:
        return ""
    return " ".join(dict.fromkeys(title for _, title in t.schema.variants if title))
