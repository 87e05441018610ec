"""The configuration model: what both readers (Designer XML, EDT .mdo) fill, identically.

Everything here is a plain picklable dataclass: a parsed source is cached as a pickle and
handed to the linker (``link.py``), which derives query tables, standard attributes,
relations and cards from it. The model keeps *what the source says*, normalized so that the
two formats agree (English class names, Designer enum spellings such as ``"Balance"``,
``"Nonperiodical"``, ``"RecorderSubordinate"``); it computes nothing the linker derives.

Naming rules
* ``MDObject.cls`` — English singular class name (domain-1c.md §1.2): ``"Catalog"``,
  ``"AccumulationRegister"``; ``"Unknown"`` never appears — an unrecognized kind keeps the
  element name it had (e.g. ``"FancyNewThing"``) with ``known=False``.
* Object references (owners, register records, based-on, subsystem content…) are kept as
  MDObjectRef text in the Designer form ``"Catalog.Номенклатура"`` /
  ``"Document.Заказ.Attribute.Склад"`` (EDT writes the same), see ``full_name``.
* Enum-like property values use the Designer spelling (EDT's omitted defaults are filled
  with the same spelling, domain-1c.md §4.9).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# ---------------------------------------------------------------------------------------
# Types


# TypeRef.kind values
STRING = "String"
NUMBER = "Number"
DATE = "Date"
BOOLEAN = "Boolean"
BINARY = "BinaryData"
VALUE_STORAGE = "ValueStorage"
UUID = "UUID"
NULL = "Null"
REF = "Ref"                  # a reference to one object: ref_class="CatalogRef", name="X"
REF_SET = "RefSet"           # all refs of a class: ref_class="CatalogRef", name=""  (cfg:CatalogRef)
ANY_REF = "AnyRef"           # cfg:AnyIBRef (ЛюбаяСсылка)
DEFINED_TYPE = "DefinedType"     # name = defined type's name
CHARACTERISTIC = "Characteristic"  # name = chart of characteristic types' name
CONFIG_TYPE = "ConfigType"   # other current-config types: ref_class="CatalogObject", name="X" (event sources…)
PLATFORM = "Platform"        # other platform types (v8:ValueTable, v8:StandardPeriod…): name = local name
OTHER = "Other"              # unresolvable (v8:TypeId uuid, unknown namespace): name = raw text

# DateFractions values
DATE_ONLY = "Date"
DATE_TIME = "DateTime"
TIME_ONLY = "Time"


@dataclass
class TypeRef:
    """One member of a type description.

    Qualifiers live on the member they apply to (a composite type may carry a string and a
    number qualifier at once; each goes to its own member).
    """
    kind: str
    ref_class: str = ""        # REF/REF_SET/CONFIG_TYPE: "CatalogRef", "DocumentObject"…
    name: str = ""             # object name (REF, DEFINED_TYPE, CHARACTERISTIC, CONFIG_TYPE), local name (PLATFORM)
    # String: length 0 = unlimited, None = not stated (platform fields); fixed=True when AllowedLength=Fixed
    length: int | None = None
    fixed: bool = False
    # Number
    digits: int | None = None
    fraction: int | None = None
    nonnegative: bool = False
    # Date: DATE_ONLY / DATE_TIME / TIME_ONLY
    date_fractions: str | None = None

    @property
    def unlimited(self) -> bool:
        return self.kind == STRING and self.length == 0   # None: length not stated, comparable

    def key(self) -> tuple:
        return (self.kind, self.ref_class, self.name, self.length, self.fixed, self.digits,
                self.fraction, self.nonnegative, self.date_fractions)


@dataclass
class TypeDescription:
    """A (possibly composite) type: the members in source order."""
    types: list[TypeRef] = field(default_factory=list)

    @property
    def composite(self) -> bool:
        return len(self.types) > 1

    @property
    def empty(self) -> bool:
        return not self.types


# ---------------------------------------------------------------------------------------
# Objects

OWN = "Own"            # ObjectBelonging Native (the default)
ADOPTED = "Adopted"    # borrowed into an extension from its base configuration


@dataclass
class Attribute:
    """An attribute, dimension, resource, column, addressing attribute, accounting flag or
    any other typed child field.

    ``props`` holds the role-specific settings that matter for code, normalized:
    ``indexing`` ("DontIndex"/"Index"/"IndexWithAdditionalOrder"), ``master`` (bool,
    information register dimensions), ``main_filter``, ``deny_incomplete_values``,
    ``balance`` (accounting register dimensions/resources), ``accounting_flag``
    (MDObjectRef), ``ext_dimension_accounting_flag``, ``use_in_totals``, ``base_dimension``,
    ``schedule_link``, ``addressing_dimension``, ``references`` (journal column: list of
    refs), ``use`` ("ForItem"/"ForFolder"/"ForFolderAndItem"), ``fill_checking``
    ("DontCheck"/"ShowError"/"ShowWarning"), ``multi_line``, ``password_mode``,
    ``format``, ``choice_parameter_links``…: only what the source states.
    """
    name: str
    uuid: str = ""
    synonym: dict[str, str] = field(default_factory=dict)
    comment: str = ""
    type: TypeDescription = field(default_factory=TypeDescription)
    props: dict[str, Any] = field(default_factory=dict)
    belonging: str = OWN
    origin: str = ""           # "" = the configuration's own; extension name when added by one


@dataclass
class TabularSection:
    name: str
    uuid: str = ""
    synonym: dict[str, str] = field(default_factory=dict)
    comment: str = ""
    attributes: list[Attribute] = field(default_factory=list)
    props: dict[str, Any] = field(default_factory=dict)   # use, fill_checking, line_number_length…
    standard_attributes: dict[str, dict[str, Any]] = field(default_factory=dict)
    belonging: str = OWN
    origin: str = ""


@dataclass
class Child:
    """A named child without a type: form, template, command, enum value, recalculation,
    URL template, WS operation, integration-service channel, external-source table…

    ``props`` examples: form ``form_type`` ("Managed"/"Ordinary"); template
    ``template_type``; command ``group``; URL template ``template`` + ``methods``
    (list of {"name", "http_method", "handler"}); WS operation ``return_type`` +
    ``parameters``; enum value nothing.
    """
    name: str
    uuid: str = ""
    synonym: dict[str, str] = field(default_factory=dict)
    comment: str = ""
    props: dict[str, Any] = field(default_factory=dict)
    children: dict[str, list[Any]] = field(default_factory=dict)  # e.g. external table fields
    belonging: str = OWN
    origin: str = ""


@dataclass
class PredefinedItem:
    """One predefined item (Ext/Predefined.xml or EDT ``<predefined>``), nested as in source."""
    name: str
    uuid: str = ""
    code: str = ""
    description: str = ""
    is_folder: bool = False
    props: dict[str, Any] = field(default_factory=dict)   # charts: type, off_balance, value_type…
    children: list["PredefinedItem"] = field(default_factory=list)


@dataclass
class MDObject:
    """A top-level metadata object (or a nested subsystem, kept in ``subsystems``).

    ``props`` keys (snake_case, only when the source states them or a documented default
    applies), by class:

    * Catalog: hierarchical, hierarchy_type ("HierarchyFoldersAndItems"/"HierarchyOfItems"),
      limit_level_count, level_count, folders_on_top, owners (refs), subordination_use,
      code_length, code_type ("String"/"Number"), code_allowed_length ("Variable"/"Fixed"),
      code_series, description_length, autonumbering, check_unique, based_on, default_*_form…
    * Document: number_type, number_length, number_allowed_length, number_periodicity,
      posting ("Allow"/"Deny"), real_time_posting, register_records (refs), based_on,
      numerator, sequence_filling, post_in_privileged_mode…
    * DocumentJournal: registered_documents.  Enum: —.
    * ChartOfCharacteristicTypes: type (TypeDescription), characteristic_ext_values,
      hierarchical, code_length, description_length…
    * ChartOfAccounts: ext_dimension_types, max_ext_dimension_count, code_mask,
      code_length, description_length, order_length, auto_order_by_code, hierarchical.
    * ChartOfCalculationTypes: dependence_on_calculation_types, base_calculation_types,
      action_period_use, code_length, description_length…
    * InformationRegister: periodicity (InformationRegisterPeriodicity), write_mode,
      main_filter_on_period.
    * AccumulationRegister: register_type ("Balance"/"Turnovers"), enable_totals_splitting.
    * AccountingRegister: chart_of_accounts, correspondence, period_adjustment_length.
    * CalculationRegister: chart_of_calculation_types, periodicity, action_period,
      base_period, schedule, schedule_value, schedule_date.
    * BusinessProcess: task.  Task: addressing, main_addressing_attribute, current_performer,
      number_*, description_length.
    * ExchangePlan: distributed_info_base, content (list of {"metadata", "auto_record"}).
    * Constant, SessionParameter, DefinedType, CommonAttribute, FilterCriterion,
      ChartOfCharacteristicTypes: type (TypeDescription).
    * Sequence: documents, register_records, move_boundary_on_posting.
    * FilterCriterion: content.  CommonAttribute: content (list of {"metadata", "use"}),
      auto_use, data_separation, …
    * CommonModule: global, client_managed_application, server, external_connection,
      client_ordinary_application, server_call, privileged, return_values_reuse.
    * ScheduledJob: method_name, use, predefined, restart_count_on_failure…
    * EventSubscription: source (TypeDescription of *Object/RecordSet types), event, handler.
    * FunctionalOption: location, privileged_get_mode, content (refs).
    * FunctionalOptionsParameter: use (refs).
    * Subsystem: content (refs), include_in_command_interface.
    * CommonTemplate / template children: template_type.  CommonForm: form_type.
    * Language: language_code.  XDTOPackage: namespace.  HTTPService: root_url.
      WebService: namespace.  StyleItem: type.  Role: —.  Bot: predefined.
    """
    cls: str
    name: str
    uuid: str = ""
    synonym: dict[str, str] = field(default_factory=dict)
    comment: str = ""
    known: bool = True                         # False: a kind this reader does not know
    belonging: str = OWN
    extended_uuid: str = ""                    # Adopted: uuid of the base object
    origin: str = ""                           # "" or the extension's name (set by overlay)
    extended_by: list[str] = field(default_factory=list)   # extensions adopting it (set by overlay)
    props: dict[str, Any] = field(default_factory=dict)
    attributes: list[Attribute] = field(default_factory=list)
    tabular_sections: list[TabularSection] = field(default_factory=list)
    dimensions: list[Attribute] = field(default_factory=list)
    resources: list[Attribute] = field(default_factory=list)
    accounting_flags: list[Attribute] = field(default_factory=list)
    ext_dimension_accounting_flags: list[Attribute] = field(default_factory=list)
    addressing_attributes: list[Attribute] = field(default_factory=list)
    columns: list[Attribute] = field(default_factory=list)          # document journal
    enum_values: list[Child] = field(default_factory=list)
    forms: list[Child] = field(default_factory=list)
    templates: list[Child] = field(default_factory=list)
    commands: list[Child] = field(default_factory=list)
    recalculations: list[Child] = field(default_factory=list)
    other_children: dict[str, list[Child]] = field(default_factory=dict)
    # ^ URLTemplate, Operation, Table, Cube, Function, IntegrationServiceChannel… by English element name
    standard_attributes: dict[str, dict[str, Any]] = field(default_factory=dict)
    # ^ English standard attribute name → overrides the source states (synonym, fill_checking…)
    predefined: list[PredefinedItem] = field(default_factory=list)
    subsystems: list["MDObject"] = field(default_factory=list)     # nested subsystems
    source_file: str = ""                      # relative to the source root

    @property
    def full_name(self) -> str:
        """MDObjectRef form: ``Catalog.Номенклатура``."""
        return f"{self.cls}.{self.name}"


@dataclass
class Configuration:
    """One configuration (or extension) as read from one source."""
    name: str
    uuid: str = ""
    synonym: dict[str, str] = field(default_factory=dict)
    comment: str = ""
    version: str = ""
    vendor: str = ""
    compatibility_mode: str = ""           # as written: "Version8_3_24" or EDT "8.3.24"
    platform_version: str = ""             # implied by it: "8.3.24" ("" for DontUse/absent)
    extension_compatibility_mode: str = ""
    script_variant: str = "Russian"        # "Russian" / "English"
    format: str = "designer"               # "designer" / "edt"
    format_version: str = ""               # Designer MetaDataObject/@version ("2.20"); EDT ""
    is_extension: bool = False
    name_prefix: str = ""
    extension_purpose: str = ""            # Patch / Customization / AddOn
    default_language: str = ""             # language object name ("Русский")
    languages: list[MDObject] = field(default_factory=list)   # also kept here, not in objects
    props: dict[str, Any] = field(default_factory=dict)       # other Configuration properties
    objects: list[MDObject] = field(default_factory=list)     # top-level, in source order
    source: str = ""                       # the source path as given
    base_name: str = ""                    # extensions: the base configuration's name, if known
    extensions: list[str] = field(default_factory=list)       # set by overlay(): applied extensions

    # Not a field: ``_received``, the pool workers' pickles of the objects as they came
    # (``objects.Received``), set by ``objects.add_objects`` so that the parse cache is
    # written from those bytes instead of pickling the objects again. No other pickle, nor a
    # deep copy (``overlay``), carries it.
    def __getstate__(self) -> dict[str, Any]:
        if "_received" not in self.__dict__:
            return self.__dict__
        state = dict(self.__dict__)
        del state["_received"]
        return state

    def by_class(self) -> dict[str, list[MDObject]]:
        out: dict[str, list[MDObject]] = {}
        for o in self.objects:
            out.setdefault(o.cls, []).append(o)
        return out

    def find(self, cls: str, name: str) -> MDObject | None:
        for o in self.objects:
            if o.cls == cls and o.name == name:
                return o
        return None

    def iter_subsystems(self):
        """All subsystems, nested ones included, depth-first (parents before children)."""
        stack = [o for o in reversed(self.objects) if o.cls == "Subsystem"]
        while stack:
            s = stack.pop()
            yield s
            stack.extend(reversed(s.subsystems))


def compatibility_to_platform(mode: str) -> str:
    """``Version8_3_24`` / ``8.3.24`` → ``8.3.24``; ``DontUse``/empty → ``""``."""
    m = (mode or "").strip()
    if m.startswith("Version"):
        m = m[len("Version"):].replace("_", ".")
    parts = m.split(".")
    if len(parts) >= 2 and all(p.isdigit() for p in parts):
        return m
    return ""
