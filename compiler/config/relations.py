"""Relations between the objects of one configuration, by MDObjectRef (``Catalog.X``).

``relations(index)`` yields ``Rel``s: attribute types (label = the attribute's name), document
movements, based-on, owners, journals' documents, event subscriptions (sources and handler
module), scheduled jobs (method's module), defined types, characteristic types, charts used by
registers, common commands' parameter types, subsystem content, exchange-plan content,
functional options, common attributes.

Weak relations (hidden by default) are those that say little about either end (an event
subscription's sources are not: code runs for each of them; only a whole-class source is weak):
* a type that admits more than ``WIDE_TYPE`` reference targets (wide composite types, a
  whole class such as ``СправочникСсылка`` — expanded to every object of the class — or
  ``ЛюбаяСсылка``, expanded to every object of every reference class);
* an attribute typed by a defined type that more than ``USED_EVERYWHERE`` objects use
  (``ОпределяемыйТип.ВладелецФайлов``-like plumbing);
* a common attribute added to more than ``USED_EVERYWHERE`` objects (data separation).
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from typing import NamedTuple

from . import model as M
from . import words as W
from .confindex import ConfigIndex, as_refs, object_ref, split_handler

WIDE_TYPE = 5          # more reference targets than this in one type → weak
USED_EVERYWHERE = 25   # a defined type used by more objects than this → its attribute edges weak

# Edge kinds (stable names; formats/graph.py documents them for the server).
ATTRIBUTE_TYPE = "attribute_type"
MOVEMENT = "movement"
BASED_ON = "based_on"
OWNER = "owner"
JOURNAL_DOCUMENT = "journal_document"
SUBSCRIPTION_SOURCE = "subscription_source"
SUBSCRIPTION_HANDLER = "subscription_handler"
SCHEDULED_JOB_METHOD = "scheduled_job_method"
DEFINED_TYPE = "defined_type"
CHARACTERISTIC_TYPE = "characteristic_type"
CHART = "chart"                        # register → its chart (of accounts / calculation types)
EXT_DIMENSION_TYPES = "ext_dimension_types"   # chart of accounts → its PVH
TASK = "task"                          # business process → task; task → addressing register
SEQUENCE = "sequence"                  # sequence → documents and registers
EXCHANGE_PLAN_CONTENT = "exchange_plan_content"
FUNCTIONAL_OPTION = "functional_option"
COMMON_ATTRIBUTE = "common_attribute"
SUBSYSTEM_CONTENT = "subsystem_content"
SUBSYSTEM_CHILD = "subsystem_child"
FILTER_CRITERION = "filter_criterion"
SCHEDULE = "schedule"                  # calculation register → schedule information register
COMMAND_PARAMETER = "command_parameter"   # common command → the objects its parameter may be
ADOPTED_FROM = "adopted_from"          # base+extensions view → base view, label = extension


class Rel(NamedTuple):   # a tuple: hundreds of thousands of them at ERP scale
    src: str        # MDObjectRef of the source object
    dst: str
    kind: str
    label: str = ""
    weak: bool = False


def type_class(ref_class: str) -> str:
    """Metadata class of a generated type name: ``CatalogRef``/``CatalogObject`` → ``Catalog``."""
    return W.split_generated(ref_class)[0] or ref_class


def type_targets(td: M.TypeDescription | None, ix: ConfigIndex) -> tuple[list[str], bool]:
    """(objects a type points to, wide?) — REF/CONFIG_TYPE → one object, REF_SET → a whole class,
    ANY_REF → every reference object, DEFINED_TYPE → the defined type, CHARACTERISTIC → the chart
    of characteristic types."""
    if not isinstance(td, M.TypeDescription):
        return [], False
    out: list[str] = []
    wide = False
    for t in td.types:
        if t.kind in (M.REF, M.CONFIG_TYPE) and t.name:
            out.append(f"{type_class(t.ref_class)}.{t.name}")
        elif t.kind in (M.REF_SET, M.CONFIG_TYPE) and not t.name:
            wide = True
            out += ix.class_paths(type_class(t.ref_class))
        elif t.kind == M.ANY_REF:
            wide = True
            out += ix.reference_paths()
        elif t.kind == M.DEFINED_TYPE:
            out.append(f"DefinedType.{t.name}")
        elif t.kind == M.CHARACTERISTIC:
            out.append(f"ChartOfCharacteristicTypes.{t.name}")
    out = list(dict.fromkeys(out))
    return out, wide or len(out) > WIDE_TYPE


def _typed_fields(obj: M.MDObject) -> Iterator[tuple[str, M.TypeDescription]]:
    """(label, type) of every typed field an object declares."""
    for group in (obj.attributes, obj.dimensions, obj.resources, obj.addressing_attributes,
                  obj.accounting_flags, obj.ext_dimension_accounting_flags):
        for a in group:
            yield a.name, a.type
    for ts in obj.tabular_sections:
        for a in ts.attributes:
            yield f"{ts.name}.{a.name}", a.type
    td = obj.props.get("type")
    if isinstance(td, M.TypeDescription) and obj.cls in ("Constant", "SessionParameter",
                                                          "CommonAttribute", "FilterCriterion"):
        yield "", td


def _object_relations(obj: M.MDObject, path: str, ix: ConfigIndex) -> Iterator[Rel]:
    p = obj.props
    for label, td in _typed_fields(obj):
        targets, wide = type_targets(td, ix)
        for t in targets:
            yield Rel(path, t, ATTRIBUTE_TYPE, label, wide)
    for r in as_refs(p.get("register_records")):
        yield Rel(path, r, SEQUENCE if obj.cls == "Sequence" else MOVEMENT)
    for r in as_refs(p.get("based_on")):
        yield Rel(path, r, BASED_ON)
    for r in as_refs(p.get("owners")):
        yield Rel(path, r, OWNER)
    for r in as_refs(p.get("registered_documents")):
        yield Rel(path, r, JOURNAL_DOCUMENT)
    cls = obj.cls
    if cls == "EventSubscription":
        # Code runs when any listed object is written: that says something about each of them,
        # however many there are. Only a whole class (every catalog…) is weak.
        src = p.get("source")
        targets, _ = type_targets(src, ix)
        whole_class = isinstance(src, M.TypeDescription) and any(
            not t.name and t.kind in (M.CONFIG_TYPE, M.REF_SET, M.ANY_REF) for t in src.types)
        event = str(p.get("event") or "")
        for t in targets:
            yield Rel(path, t, SUBSCRIPTION_SOURCE, event, whole_class)
        if p.get("handler"):
            module, proc = split_handler(str(p["handler"]))
            yield Rel(path, module, SUBSCRIPTION_HANDLER, proc)
    elif cls == "CommonCommand":
        # A command whose parameter is an object's ref acts on that object (its form shows it).
        targets, wide = type_targets(p.get("command_parameter_type"), ix)
        for t in targets:
            yield Rel(path, t, COMMAND_PARAMETER, "", wide)
    elif cls == "ScheduledJob" and p.get("method_name"):
        module, proc = split_handler(str(p["method_name"]))
        yield Rel(path, module, SCHEDULED_JOB_METHOD, proc)
    elif cls in ("DefinedType", "ChartOfCharacteristicTypes"):
        targets, wide = type_targets(p.get("type"), ix)
        kind = DEFINED_TYPE if cls == "DefinedType" else CHARACTERISTIC_TYPE
        for t in targets:
            yield Rel(path, t, kind, "", wide)
    elif cls in ("AccountingRegister", "CalculationRegister"):
        for r in as_refs(p.get("chart_of_accounts")) + as_refs(p.get("chart_of_calculation_types")):
            yield Rel(path, r, CHART)
        for r in as_refs(p.get("schedule")):
            yield Rel(path, r, SCHEDULE)
    elif cls == "ChartOfAccounts":
        for r in as_refs(p.get("ext_dimension_types")):
            yield Rel(path, r, EXT_DIMENSION_TYPES)
    elif cls == "BusinessProcess":
        for r in as_refs(p.get("task")):
            yield Rel(path, r, TASK)
    elif cls == "Task":
        for r in as_refs(p.get("addressing")):
            yield Rel(path, r, TASK, "addressing")
    elif cls == "Sequence":
        for r in as_refs(p.get("documents")):
            yield Rel(path, r, SEQUENCE)
    elif cls == "ExchangePlan":
        for r in as_refs(p.get("content")):
            yield Rel(path, object_ref(r), EXCHANGE_PLAN_CONTENT)
    elif cls == "FunctionalOption":
        for r in as_refs(p.get("location")):
            yield Rel(path, object_ref(r), FUNCTIONAL_OPTION, "location")
        for r in as_refs(p.get("content")):
            yield Rel(path, object_ref(r), FUNCTIONAL_OPTION, "content")
    elif cls == "FilterCriterion":
        for r in as_refs(p.get("content")):
            yield Rel(path, object_ref(r), FILTER_CRITERION, r.split(".", 2)[-1] if r.count(".") >= 2 else "")
    elif cls == "CommonAttribute":
        for o in ix.common_attribute_users.get(path, []):
            yield Rel(path, o, COMMON_ATTRIBUTE)
    elif cls == "Subsystem":
        for r in as_refs(p.get("content")):
            yield Rel(path, object_ref(r), SUBSYSTEM_CONTENT)
        for child in obj.subsystems:
            yield Rel(path, f"{path}.Subsystem.{child.name}", SUBSYSTEM_CHILD)


def relations(ix: ConfigIndex) -> list[Rel]:
    """Every relation of the configuration, deduplicated, in a stable order; targets that do not
    exist in the configuration are dropped (``dangling`` counts them)."""
    out: dict[tuple[str, str, str, str], Rel] = {}
    for path, obj in ix.objects.items():
        for rel in _object_relations(obj, path, ix):
            if rel.dst == rel.src and rel.kind == ATTRIBUTE_TYPE and not rel.label:
                continue
            key = (rel.src, rel.dst, rel.kind, rel.label)
            prev = out.get(key)
            out[key] = rel if prev is None else Rel(*key, weak=prev.weak and rel.weak)
    rels = list(out.values())
    # Defined types used everywhere: their attribute edges say nothing about the object.
    users: dict[str, set[str]] = defaultdict(set)
    for r in rels:
        if r.kind == ATTRIBUTE_TYPE and r.dst.startswith("DefinedType."):
            users[r.dst].add(r.src)
    crowded = {d for d, s in users.items() if len(s) > USED_EVERYWHERE}
    # A common attribute on (nearly) everything (data separation) is plumbing too.
    fanout: dict[str, int] = defaultdict(int)
    for r in rels:
        if r.kind == COMMON_ATTRIBUTE:
            fanout[r.src] += 1
    rels = [Rel(r.src, r.dst, r.kind, r.label, True)
            if (r.kind == ATTRIBUTE_TYPE and r.dst in crowded)
            or (r.kind == COMMON_ATTRIBUTE and fanout[r.src] > USED_EVERYWHERE) else r for r in rels]
    return rels


def split_dangling(rels: list[Rel], ix: ConfigIndex) -> tuple[list[Rel], list[Rel]]:
    ok, dangling = [], []
    for r in rels:
        (ok if r.dst in ix.objects and r.src in ix.objects else dangling).append(r)
    return ok, dangling
