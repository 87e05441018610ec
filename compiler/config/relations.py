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
from itertools import repeat
from operator import add, methodcaller
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


# One group of relations of an object: (targets, kind, label, weak), one relation per target.
# Grouped because a whole-class type expands to every object of the class: the relations of
# a group are keyed and deduplicated in C (zip, dict.fromkeys, set.update), not one Python
# step per relation (hundreds of thousands of them at ERP scale).
Group = tuple[list[str], str, str, bool]
Key = tuple[str, str, str, str]
_is_defined_type = methodcaller("startswith", "DefinedType.")


def _object_relations(obj: M.MDObject, path: str, ix: ConfigIndex) -> Iterator[Group]:
    p = obj.props
    for label, td in _typed_fields(obj):
        targets, wide = type_targets(td, ix)
        yield targets, ATTRIBUTE_TYPE, label, wide
    yield as_refs(p.get("register_records")), SEQUENCE if obj.cls == "Sequence" else MOVEMENT, "", False
    yield as_refs(p.get("based_on")), BASED_ON, "", False
    yield as_refs(p.get("owners")), OWNER, "", False
    yield as_refs(p.get("registered_documents")), JOURNAL_DOCUMENT, "", False
    cls = obj.cls
    if cls == "EventSubscription":
        # Code runs when any listed object is written: that says something about each of them,
        # however many there are. Only a whole class (every catalog…) is weak.
        src = p.get("source")
        targets, _ = type_targets(src, ix)
        whole_class = isinstance(src, M.TypeDescription) and any(
            not t.name and t.kind in (M.CONFIG_TYPE, M.REF_SET, M.ANY_REF) for t in src.types)
        yield targets, SUBSCRIPTION_SOURCE, str(p.get("event") or ""), whole_class
        if p.get("handler"):
            module, proc = split_handler(str(p["handler"]))
            yield [module], SUBSCRIPTION_HANDLER, proc, False
    elif cls == "CommonCommand":
        # A command whose parameter is an object's ref acts on that object (its form shows it).
        targets, wide = type_targets(p.get("command_parameter_type"), ix)
        yield targets, COMMAND_PARAMETER, "", wide
    elif cls == "ScheduledJob" and p.get("method_name"):
        module, proc = split_handler(str(p["method_name"]))
        yield [module], SCHEDULED_JOB_METHOD, proc, False
    elif cls in ("DefinedType", "ChartOfCharacteristicTypes"):
        targets, wide = type_targets(p.get("type"), ix)
        yield targets, DEFINED_TYPE if cls == "DefinedType" else CHARACTERISTIC_TYPE, "", wide
    elif cls in ("AccountingRegister", "CalculationRegister"):
        yield as_refs(p.get("chart_of_accounts")) + as_refs(p.get("chart_of_calculation_types")), CHART, "", False
        yield as_refs(p.get("schedule")), SCHEDULE, "", False
    elif cls == "ChartOfAccounts":
        yield as_refs(p.get("ext_dimension_types")), EXT_DIMENSION_TYPES, "", False
    elif cls == "BusinessProcess":
        yield as_refs(p.get("task")), TASK, "", False
    elif cls == "Task":
        yield as_refs(p.get("addressing")), TASK, "addressing", False
    elif cls == "Sequence":
        yield as_refs(p.get("documents")), SEQUENCE, "", False
    elif cls == "ExchangePlan":
        yield [object_ref(r) for r in as_refs(p.get("content"))], EXCHANGE_PLAN_CONTENT, "", False
    elif cls == "FunctionalOption":
        yield [object_ref(r) for r in as_refs(p.get("location"))], FUNCTIONAL_OPTION, "location", False
        yield [object_ref(r) for r in as_refs(p.get("content"))], FUNCTIONAL_OPTION, "content", False
    elif cls == "FilterCriterion":
        for r in as_refs(p.get("content")):
            yield [object_ref(r)], FILTER_CRITERION, r.split(".", 2)[-1] if r.count(".") >= 2 else "", False
    elif cls == "CommonAttribute":
        yield ix.common_attribute_users.get(path, []), COMMON_ATTRIBUTE, "", False
    elif cls == "Subsystem":
        yield [object_ref(r) for r in as_refs(p.get("content"))], SUBSYSTEM_CONTENT, "", False
        yield [f"{path}.Subsystem.{child.name}" for child in obj.subsystems], SUBSYSTEM_CHILD, "", False


def relations(ix: ConfigIndex) -> list[Rel]:
    """Every relation of the configuration, deduplicated (weak only when every occurrence is
    weak), in the order first seen; targets that do not exist in the configuration are kept
    (``split_dangling`` sets them apart)."""
    first: dict[Key, None] = {}                  # (src, dst, kind, label), first-seen order
    strong: set[Key] = set()                      # seen at least once not weak
    users: dict[str, set[str]] = defaultdict(set)  # defined type → objects typed by it
    typed_by: list[tuple[Key, str]] = []          # (key, defined type) of those attribute types
    on_objects: dict[str, list[Key]] = {}         # common attribute → its relations' keys
    for path, obj in ix.objects.items():
        for targets, kind, label, weak in _object_relations(obj, path, ix):
            if not targets:
                continue
            if kind == ATTRIBUTE_TYPE and not label and path in targets:
                targets = [t for t in targets if t != path]   # a constant of its own type says nothing
            keys = list(zip(repeat(path), targets, repeat(kind), repeat(label)))
            first.update(dict.fromkeys(keys))
            if not weak:
                strong.update(keys)
            if kind == ATTRIBUTE_TYPE:
                for t in filter(_is_defined_type, targets):   # filtered in C
                    users[t].add(path)
                    typed_by.append(((path, t, kind, label), t))
            elif kind == COMMON_ATTRIBUTE:
                on_objects[path] = keys
    weak_keys = first.keys() - strong
    # Defined types used everywhere: their attribute edges say nothing about the object.
    crowded = {d for d, s in users.items() if len(s) > USED_EVERYWHERE}
    weak_keys.update(k for k, d in typed_by if d in crowded)
    # A common attribute on (nearly) everything (data separation) is plumbing too.
    for keys in on_objects.values():
        if len(set(keys)) > USED_EVERYWHERE:
            weak_keys.update(keys)
    # key + (weak,) as a Rel, in C: a Python step per relation was most of this function
    rows = map(add, first, zip(map(weak_keys.__contains__, first)))
    return list(map(tuple.__new__, repeat(Rel), rows))


def split_dangling(rels: list[Rel], ix: ConfigIndex) -> tuple[list[Rel], list[Rel]]:
    objects = ix.objects
    ok = [r for r in rels if r.dst in objects and r.src in objects]
    if len(ok) == len(rels):
        return ok, []
    return ok, [r for r in rels if not (r.dst in objects and r.src in objects)]
