"""Cross-object facts of one configuration, computed once: who records into a register, which
processes use a task, which common attributes and exchange plans apply to an object…

The per-object rules (standard attributes, query tables, relations) ask this index instead of
scanning the configuration, so a whole configuration is linked in linear time.
"""
from __future__ import annotations

from collections import defaultdict
from typing import Any, Iterator

from . import model as M
from . import words as W

# Classes a common attribute can be added to (domain-1c.md §1.2 CommonAttribute, §3.1).
COMMON_ATTRIBUTE_CLASSES = frozenset({
    "Catalog", "Document", "ChartOfCharacteristicTypes", "ChartOfAccounts", "ChartOfCalculationTypes",
    "ExchangePlan", "BusinessProcess", "Task", "InformationRegister", "AccumulationRegister",
    "AccountingRegister", "CalculationRegister",
})


def as_bool(v: Any, default: bool = False) -> bool:
    if v is None or v == "":
        return default
    if isinstance(v, str):
        return v.strip().lower() in ("true", "1", "yes")
    return bool(v)


def as_int(v: Any, default: int = 0) -> int:
    try:
        return int(v)
    except (TypeError, ValueError):
        return default


def as_refs(v: Any) -> list[str]:
    """A property holding one MDObjectRef, a list of them or list items as dicts."""
    if not v:
        return []
    if isinstance(v, str):
        return [v]
    out = []
    for item in v:
        if isinstance(item, str):
            out.append(item)
        elif isinstance(item, dict) and item.get("metadata"):
            out.append(item["metadata"])
    return out


def object_ref(ref: str) -> str:
    """The top-level object an MDObjectRef points into: ``Catalog.X.Attribute.Y`` → ``Catalog.X``;
    nested subsystems keep their path (``Subsystem.A.Subsystem.B``)."""
    parts = ref.split(".")
    if parts[0] == "Subsystem":
        n = 2
        while n + 1 < len(parts) and parts[n] == "Subsystem":
            n += 2
        return ".".join(parts[:n])
    return ".".join(parts[:2])


def split_handler(ref: str) -> tuple[str, str]:
    """``CommonModule.M.Proc`` → (``CommonModule.M``, ``Proc``); a bare ``M.Proc`` too."""
    parts = ref.split(".")
    if parts[0] == "CommonModule" and len(parts) >= 3:
        return ".".join(parts[:2]), ".".join(parts[2:])
    if len(parts) == 2:
        return "CommonModule." + parts[0], parts[1]
    return ref, ""


class ConfigIndex:
    def __init__(self, cfg: M.Configuration) -> None:
        self.cfg = cfg
        self.objects: dict[str, M.MDObject] = {}
        self.subsystem_paths: dict[int, str] = {}     # id(subsystem) → "Subsystem.A.Subsystem.B"
        for o in list(cfg.languages) + cfg.objects:
            self.objects.setdefault(o.full_name, o)
        for path, s in self._subsystems():
            self.subsystem_paths[id(s)] = path
            self.objects.setdefault(path, s)
        self.by_class: dict[str, list[M.MDObject]] = defaultdict(list)
        for o in list(cfg.languages) + cfg.objects:
            self.by_class[o.cls].append(o)

        self.recorders: dict[str, list[str]] = defaultdict(list)       # register → document names
        self.sequence_docs: dict[str, list[str]] = defaultdict(list)   # sequence → document names
        self.journals_of: dict[str, list[str]] = defaultdict(list)     # document → journal names
        self.processes_of_task: dict[str, list[str]] = defaultdict(list)
        self.exchange_plans_of: dict[str, list[str]] = defaultdict(list)
        self.common_attributes_of: dict[str, list[M.MDObject]] = defaultdict(list)
        self.common_attribute_users: dict[str, list[str]] = defaultdict(list)   # attribute → objects
        for d in self.by_class.get("Document", []):
            for r in as_refs(d.props.get("register_records")):
                self.recorders[r].append(d.name)
        for s in self.by_class.get("Sequence", []):
            self.sequence_docs[s.full_name] = [r.split(".", 1)[1] for r in as_refs(s.props.get("documents"))
                                               if r.startswith("Document.")]
        for j in self.by_class.get("DocumentJournal", []):
            for r in as_refs(j.props.get("registered_documents")):
                self.journals_of[r].append(j.name)
        for bp in self.by_class.get("BusinessProcess", []):
            for t in as_refs(bp.props.get("task")):
                self.processes_of_task[t].append(bp.name)
        for ep in self.by_class.get("ExchangePlan", []):
            for r in as_refs(ep.props.get("content")):
                self.exchange_plans_of[r].append(ep.name)
        for ca in self.by_class.get("CommonAttribute", []):
            self._apply_common_attribute(ca)

    def _subsystems(self) -> Iterator[tuple[str, M.MDObject]]:
        stack = [(o.full_name, o) for o in reversed(self.cfg.objects) if o.cls == "Subsystem"]
        while stack:
            path, s = stack.pop()
            yield path, s
            stack.extend((f"{path}.Subsystem.{c.name}", c) for c in reversed(s.subsystems))

    def _apply_common_attribute(self, ca: M.MDObject) -> None:
        """Use → yes; DontUse → no; Auto or not listed → yes when AutoUse = Use (§4.7)."""
        listed: dict[str, str] = {}
        for item in ca.props.get("content") or []:
            if isinstance(item, dict) and item.get("metadata"):
                listed[item["metadata"]] = str(item.get("use") or "Auto")
        auto = str(ca.props.get("auto_use") or "DontUse") == "Use"
        for cls in sorted(COMMON_ATTRIBUTE_CLASSES):
            for o in self.by_class.get(cls, []):
                use = listed.get(o.full_name, "Auto")
                if use == "Use" or (use == "Auto" and auto):
                    self.common_attributes_of[o.full_name].append(ca)
                    self.common_attribute_users[ca.full_name].append(o.full_name)

    def class_paths(self, cls: str) -> list[str]:
        """MDObjectRefs of every object of a class (cached: whole-class types ask it often)."""
        cache = self.__dict__.setdefault("_class_paths", {})
        if cls not in cache:
            cache[cls] = [o.full_name for o in self.by_class.get(cls, [])]
        return cache[cls]

    def reference_paths(self) -> list[str]:
        """Every object of every reference class (what ЛюбаяСсылка may point to)."""
        cache = self.__dict__.setdefault("_class_paths", {})
        if "*ref" not in cache:
            cache["*ref"] = [p for c in W.CLASSES if c.ref for p in self.class_paths(c.en)]
        return cache["*ref"]

    def get(self, ref: str) -> M.MDObject | None:
        return self.objects.get(ref)

    def path_of(self, obj: M.MDObject) -> str:
        """Full MDObjectRef path (nested subsystems included)."""
        return self.subsystem_paths.get(id(obj), obj.full_name)

    def chart_of_accounts(self, register: M.MDObject) -> tuple[str, int, str]:
        """(chart name, N = MaxExtDimensionCount, ext-dimension PVH name) of an accounting register."""
        refs = as_refs(register.props.get("chart_of_accounts"))
        chart = self.get(refs[0]) if refs else None
        if chart is None:
            return (refs[0].split(".", 1)[-1] if refs else ""), 0, ""
        pvh = as_refs(chart.props.get("ext_dimension_types"))
        return chart.name, as_int(chart.props.get("max_ext_dimension_count")), (
            pvh[0].split(".", 1)[-1] if pvh else "")

    def attribute(self, ref: str) -> M.Attribute | None:
        """``Document.X.Attribute.Y`` / ``Catalog.X.TabularSection.T.Attribute.Y`` → the attribute."""
        parts = ref.split(".")
        obj = self.get(".".join(parts[:2]))
        if obj is None or len(parts) < 4:
            return None
        rest = parts[2:]
        if rest[0] == "TabularSection" and len(rest) >= 4:
            ts = next((t for t in obj.tabular_sections if t.name == rest[1]), None)
            return next((a for a in ts.attributes if a.name == rest[3]), None) if ts else None
        pools = {"Attribute": obj.attributes, "Dimension": obj.dimensions, "Resource": obj.resources,
                 "AddressingAttribute": obj.addressing_attributes}
        return next((a for a in pools.get(rest[0], []) if a.name == rest[1]), None)
