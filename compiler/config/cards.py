"""The card of a metadata object: everything an answer renders, without touching any source.

Schema: docs/cards-metadata.md (keys are stable; empty collections are left out). Lists keep
the source order of the configuration (the order its developers see in Designer), so two
configurations' cards compare item by item.
"""
from __future__ import annotations

from typing import Any

from . import model as M
from . import words as W
from .confindex import ConfigIndex, as_refs
from .fields import Field, is_unlimited, recipe, render_type
from .query_tables import QueryTable, attribute_field, journal_columns
from .standard import pick_synonym

CARD_SCHEMA = 1
# Fields whose type the developer states: an empty type there means "Произвольный" (any value).
ARBITRARY_ROLES = frozenset({"attribute", "dimension", "resource", "common_attribute",
                             "addressing_attribute"})

# Class properties that matter for code (model MDObject.props keys), shown in "properties".
PROPERTIES: dict[str, tuple[str, ...]] = {
    "Catalog": ("hierarchical", "hierarchy_type", "limit_level_count", "level_count", "folders_on_top",
                "owners", "subordination_use", "code_length", "code_type", "code_allowed_length",
                "code_series", "description_length", "autonumbering", "check_unique", "based_on"),
    # a document's register_records are its card's "movements" (one list, shown once)
    "Document": ("number_type", "number_length", "number_allowed_length", "number_periodicity", "posting",
                 "real_time_posting", "based_on", "numerator", "sequence_filling",
                 "post_in_privileged_mode", "unpost_in_privileged_mode"),
    "DocumentJournal": ("registered_documents",),
    "ChartOfCharacteristicTypes": ("type", "characteristic_ext_values", "hierarchical", "code_length",
                                   "code_type", "description_length", "based_on"),
    "ChartOfAccounts": ("ext_dimension_types", "max_ext_dimension_count", "code_mask", "code_length",
                        "description_length", "order_length", "auto_order_by_code", "based_on"),
    "ChartOfCalculationTypes": ("dependence_on_calculation_types", "base_calculation_types",
                                "action_period_use", "code_length", "code_type", "description_length",
                                "based_on"),
    "InformationRegister": ("periodicity", "write_mode", "main_filter_on_period"),
    "AccumulationRegister": ("register_type", "enable_totals_splitting"),
    "AccountingRegister": ("chart_of_accounts", "correspondence", "period_adjustment_length"),
    "CalculationRegister": ("chart_of_calculation_types", "periodicity", "action_period", "base_period",
                            "schedule", "schedule_value", "schedule_date"),
    "BusinessProcess": ("task", "number_type", "number_length", "based_on"),
    "Task": ("addressing", "main_addressing_attribute", "current_performer", "number_type",
             "number_length", "description_length", "based_on"),
    "ExchangePlan": ("distributed_info_base", "code_length", "description_length", "content", "based_on"),
    "Constant": ("type",), "SessionParameter": ("type",), "DefinedType": ("type",),
    "CommonAttribute": ("type", "auto_use", "data_separation", "content"),
    "FilterCriterion": ("type", "content"),
    "Sequence": ("documents", "register_records", "move_boundary_on_posting"),
    "CommonModule": ("global", "server", "server_call", "client_managed_application",
                     "client_ordinary_application", "external_connection", "privileged",
                     "return_values_reuse"),
    "ScheduledJob": ("method_name", "use", "predefined", "restart_count_on_failure",
                     "restart_interval_on_failure"),
    "EventSubscription": ("source", "event", "handler"),
    "FunctionalOption": ("location", "privileged_get_mode", "content"),
    "FunctionalOptionsParameter": ("use",),
    "Subsystem": ("include_in_command_interface", "content"),
    "CommonTemplate": ("template_type",), "CommonForm": ("form_type",), "Language": ("language_code",),
    "XDTOPackage": ("namespace",), "HTTPService": ("root_url",), "WebService": ("namespace",),
    "StyleItem": ("type",), "Bot": ("predefined",), "Report": ("main_data_composition_schema",),
}


def _value(v: Any, language: str) -> Any:
    """A property value for the card: types rendered, MDObjectRefs in the configuration's language."""
    if isinstance(v, M.TypeDescription):
        text, members = render_type(v, language)
        return {"type": text, "types": members} if members else text
    if isinstance(v, str):
        return W.ref_name(v, language) if "." in v else v
    if isinstance(v, (bool, int, float)) or v is None:
        return v
    if isinstance(v, dict):
        return {("object" if k == "metadata" else k): _value(x, language) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_value(x, language) for x in v]
    return str(v)


def properties(obj: M.MDObject, language: str) -> dict[str, Any]:
    out = {}
    for k in PROPERTIES.get(obj.cls, ()):
        v = obj.props.get(k)
        if v is None or v == "" or v == []:
            continue
        out[k] = W.platform_type(v, language) if k == "template_type" else _value(v, language)
    return out


def field_entry(f: Field, language: str, *, detail: bool = True, queryable: bool = True) -> dict[str, Any]:
    """One field: name (configuration's language), alias (the other one, when different), type…"""
    name = f.name(language)
    other = f.ru if language == W.EN else f.en
    e: dict[str, Any] = {"name": name}
    if other != name:
        e["alias"] = other
    text, members = render_type(f.type, language)
    if not text and f.role in ARBITRARY_ROLES:   # <Type/>: no restriction, any value
        text = W.type_name("Произвольный", language)
    if text:
        e["type"] = text
    if members:
        e["types"] = members
    if f.role:
        e["role"] = f.role
    if is_unlimited(f.type):
        e["unlimited"] = True
        if queryable:   # the recipe is for query texts; reports/data processors have no tables
            e["recipe"] = recipe(name, language)
    if detail:
        if f.synonym:
            e["synonym"] = f.synonym
        if f.comment:
            e["comment"] = f.comment
        if f.flags:
            e["flags"] = {k: _value(v, language) for k, v in f.flags.items()}
    if f.origin:
        e["origin"] = f.origin
    if f.unverified:
        e["unverified"] = True
    return e


def table_entry(t: QueryTable, language: str) -> dict[str, Any]:
    name = t.name(language)
    other = t.ru if language == W.EN else t.en
    e: dict[str, Any] = {"name": name, "alias": other, "kind": t.kind}
    if t.params:
        e["params"] = [p[1] if language == W.EN else p[0] for p in t.params]
        e["params_alias"] = [p[0] if language == W.EN else p[1] for p in t.params]
    e["fields"] = [field_entry(f, language, detail=False) for f in t.fields]
    unlimited = [f.name(language) for f in t.fields if is_unlimited(f.type)]
    if unlimited:
        e["unlimited"] = unlimited
    if t.note:
        e["note"] = t.note
    return e


def _child(c: M.Child | M.TabularSection, cfg: M.Configuration, prop: str = "", key: str = "",
           **extra: Any) -> dict[str, Any]:
    """A named child: name, synonym, comment, one property under ``key``, ``extra``, origin."""
    e: dict[str, Any] = {"name": c.name}
    syn = pick_synonym(c.synonym, cfg) if c.synonym else ""
    if syn:
        e["synonym"] = syn
    if c.comment:
        e["comment"] = c.comment
    if prop and c.props.get(prop):
        e[key] = str(c.props[prop])
    e.update(extra)
    if c.origin:
        e["origin"] = c.origin
    return e


def _predefined(items: list[M.PredefinedItem], language: str) -> list[dict[str, Any]]:
    out = []
    for p in items:
        e: dict[str, Any] = {"name": p.name}
        if p.code:
            e["code"] = p.code
        if p.description:
            e["description"] = p.description
        if p.is_folder:
            e["is_folder"] = True
        if p.props:   # charts: account type, off-balance, value type…
            e["properties"] = {k: _value(v, language) for k, v in sorted(p.props.items())}
        if p.children:
            e["children"] = _predefined(p.children, language)
        out.append(e)
    return out


def _fields(items: list[M.Attribute], role: str, cfg: M.Configuration, language: str,
            queryable: bool) -> list[dict[str, Any]]:
    out = []
    for a in items:
        f = attribute_field(a, role, pick_synonym(a.synonym, cfg) if a.synonym else "")
        out.append(field_entry(f, language, queryable=queryable))
    return out


def full_names(obj: M.MDObject, path: str) -> dict[str, str]:
    return {W.RU: W.ref_name(path, W.RU), W.EN: path}


def build_card(obj: M.MDObject, path: str, ix: ConfigIndex, config: str, standard: list[Field],
               tables: list[QueryTable], language: str, extension_view: bool) -> dict[str, Any]:
    """An object's card; its relation counts are put in by ``add_relation_counts`` (they need
    every relation of the configuration, the card only the object and the index)."""
    cfg = ix.cfg
    c = W.class_words(obj.cls)
    names = full_names(obj, path)
    other = W.RU if language == W.EN else W.EN
    card: dict[str, Any] = {
        "schema": CARD_SCHEMA,
        "config": config,
        "language": language,
        "class": obj.cls,
        "class_name": c.name(language),
        "class_alias": c.name(other),
        "name": obj.name,
        "full_name": names[language],
        "full_name_alias": names[other],
    }
    if c.ref:
        card["ref_type"] = f"{c.ref_type(language)}.{obj.name}"
        card["ref_type_alias"] = f"{c.ref_type(other)}.{obj.name}"
    if obj.synonym:
        card["synonym"] = pick_synonym(obj.synonym, cfg)
        if len(obj.synonym) > 1:
            card["synonyms"] = dict(sorted(obj.synonym.items()))
    if obj.comment:
        card["comment"] = obj.comment
    if not obj.known:
        card["known"] = False
    props = properties(obj, language)
    if props:
        card["properties"] = props
    if standard:
        card["standard_attributes"] = [field_entry(f, language) for f in standard]
    for key, items, role in (("attributes", obj.attributes, "attribute"),
                             ("dimensions", obj.dimensions, "dimension"),
                             ("resources", obj.resources, "resource"),
                             ("accounting_flags", obj.accounting_flags, "accounting_flag"),
                             ("ext_dimension_accounting_flags", obj.ext_dimension_accounting_flags,
                              "ext_dimension_accounting_flag"),
                             ("addressing_attributes", obj.addressing_attributes, "addressing_attribute")):
        if items:
            card[key] = _fields(items, role, cfg, language, bool(tables))
    if obj.columns:
        card["columns"] = []
        for col, f in zip(obj.columns, journal_columns(obj, ix)):
            f.synonym = pick_synonym(col.synonym, cfg) if col.synonym else ""
            card["columns"].append(field_entry(f, language))
    if obj.tabular_sections:
        card["tabular_sections"] = [
            _child(ts, cfg, attributes=_fields(ts.attributes, "attribute", cfg, language, bool(tables)))
            for ts in obj.tabular_sections]
    common = ix.common_attributes_of.get(obj.full_name, [])
    if common:
        card["common_attributes"] = [ca.name for ca in common]
    for key, items, prop, out_key in (("enum_values", obj.enum_values, "", ""),
                                      ("forms", obj.forms, "form_type", "type"),
                                      ("templates", obj.templates, "template_type", "type"),
                                      ("commands", obj.commands, "group", "group"),
                                      ("recalculations", obj.recalculations, "", "")):
        if items:
            card[key] = [_child(x, cfg, prop, out_key) for x in items]
            if key == "templates":   # a template's kind is a platform type: in the card's language
                for t in card[key]:
                    if t.get("type"):
                        t["type"] = W.platform_type(t["type"], language)
    points = obj.other_children.get("RoutePoint") or []
    if points:   # used in code as ЗНАЧЕНИЕ(БизнесПроцесс.X.ТочкаМаршрута.<name>)
        card["route_points"] = [_child(x, cfg, "kind", "kind") for x in points]
    others = {k: [_child(x, cfg) for x in v] for k, v in sorted(obj.other_children.items())
              if v and k != "RoutePoint"}
    if others:
        card["other_children"] = others
    if obj.predefined:
        card["predefined"] = _predefined(obj.predefined, language)
    if obj.subsystems:
        card["subsystems"] = [s.name for s in obj.subsystems]
    if tables:
        card["query_tables"] = [table_entry(t, language) for t in tables]
    movements = _movements(obj, ix, language)
    if movements:
        card["movements"] = movements
    if extension_view:
        ext = extension_marks(obj)
        if ext:
            card["extension"] = ext
    if obj.source_file:
        card["source_file"] = obj.source_file
    return card


# The card keys that come after "relations" (the order is part of the card's bytes).
_AFTER_RELATIONS = ("extension", "source_file")


def add_relation_counts(card: dict[str, Any], relation_counts: dict[str, Any]) -> None:
    """Put an object's relation counts in its card, after its movements and before its
    extension marks and source file; none when it has no relations."""
    if not relation_counts:
        return
    tail = {k: card.pop(k) for k in _AFTER_RELATIONS if k in card}
    card["relations"] = relation_counts
    card.update(tail)


def _movements(obj: M.MDObject, ix: ConfigIndex, language: str) -> dict[str, list[str]]:
    """Documents: the registers they write; registers: the documents recording into them."""
    if obj.cls == "Document":
        regs = [W.ref_name(r, language) for r in as_refs(obj.props.get("register_records"))]
        return {"registers": regs} if regs else {}
    recorders = ix.recorders.get(obj.full_name)
    if recorders:
        doc = W.class_words("Document").name(language)
        return {"recorders": [f"{doc}.{d}" for d in recorders]}
    return {}


def extension_marks(obj: M.MDObject) -> dict[str, Any]:
    """What extensions did to this object in a base+extensions view."""
    out: dict[str, Any] = {}
    if obj.origin:
        out["added_by"] = obj.origin
    if obj.extended_by:
        out["adopted_by"] = list(obj.extended_by)
    additions: dict[str, list[str]] = {}
    for kind, items in (("Реквизит", obj.attributes), ("Измерение", obj.dimensions),
                        ("Ресурс", obj.resources), ("ТабличнаяЧасть", obj.tabular_sections),
                        ("Форма", obj.forms), ("Команда", obj.commands), ("Макет", obj.templates),
                        ("ЗначениеПеречисления", obj.enum_values)):
        for x in items:
            if x.origin and x.origin != obj.origin:
                additions.setdefault(x.origin, []).append(f"{kind}.{x.name}")
        if kind == "ТабличнаяЧасть":
            for ts in obj.tabular_sections:
                for a in ts.attributes:
                    if a.origin and a.origin not in (obj.origin, ts.origin):
                        additions.setdefault(a.origin, []).append(f"{kind}.{ts.name}.Реквизит.{a.name}")
    if additions:
        out["additions"] = additions
    return out
