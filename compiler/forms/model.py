"""The format-neutral model of managed forms, composition schemas and roles.

Both dump formats fill exactly these dataclasses (Designer ``Ext/Form.xml`` and EDT
``Form.form``; schemas and rights have one XML format in both). Names and texts are kept
as written; only what an agent editing a module or a report needs is kept.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from operator import attrgetter
from typing import Any

from v8atlas.compiler.config.model import TypeDescription

# Item kinds use the Designer element names (EDT's xsi:type + <type> is mapped onto them).
GROUP_KINDS = frozenset({"UsualGroup", "Pages", "Page", "ColumnGroup", "CommandBar", "ButtonGroup",
                         "Popup", "ContextMenu", "AutoCommandBar"})
FIELD_KINDS = frozenset({
    "InputField", "LabelField", "CheckBoxField", "RadioButtonField", "PictureField",
    "SpreadSheetDocumentField", "TextDocumentField", "HTMLDocumentField", "FormattedDocumentField",
    "CalendarField", "ChartField", "ProgressBarField", "TrackBarField", "GraphicalSchemaField",
    "PeriodField", "PlannerField", "DendrogramField", "GanttChartField", "GeographicalSchemaField",
    "PDFDocumentField"})
OTHER_KINDS = frozenset({"Button", "Table", "LabelDecoration", "PictureDecoration",
                         "SearchStringAddition", "ViewStatusAddition", "SearchControlAddition"})
KNOWN_KINDS = GROUP_KINDS | FIELD_KINDS | OTHER_KINDS


def pickled_by_fields(cls: type) -> type:
    """Pickle a dataclass as its constructor's arguments (one tuple, read in C by
    ``attrgetter``) instead of a ``__dict__``: a worker's batch of forms — tens of thousands of
    items and handlers — loads a quarter faster in the parent. Every field is an ``__init__``
    argument, in field order, so the tuple is always complete."""
    names = [f.name for f in fields(cls)]
    assert len(names) > 1, "attrgetter of one name returns the value, not a tuple"
    getter = attrgetter(*names)

    def __reduce__(self: Any) -> tuple[type, tuple[Any, ...]]:
        return cls, getter(self)

    cls.__reduce__ = __reduce__
    return cls


@pickled_by_fields
@dataclass
class Handler:
    """An event handler: the event (English platform name) and the module procedure."""
    event: str
    procedure: str
    call_type: str = ""            # extensions: Before / After / Override


@pickled_by_fields
@dataclass
class FormItem:
    kind: str                      # Designer element name; an unknown kind keeps its own spelling
    name: str
    title: dict[str, str] = field(default_factory=dict)
    data_path: str = ""
    command: str = ""              # Button: Form.Command.X / Form.StandardCommand.Y …
    props: dict[str, Any] = field(default_factory=dict)   # visible/enabled False, read_only True, only when set
    handlers: list[Handler] = field(default_factory=list)
    items: list[FormItem] = field(default_factory=list)
    known: bool = True


@pickled_by_fields
@dataclass
class FormAttribute:
    name: str
    title: dict[str, str] = field(default_factory=dict)
    type: TypeDescription = field(default_factory=TypeDescription)
    main: bool = False
    columns: list[FormAttribute] = field(default_factory=list)   # value table / tree columns
    main_table: str = ""           # dynamic list
    custom_query: bool = False
    query_text: str = ""


@pickled_by_fields
@dataclass
class FormCommand:
    name: str
    title: dict[str, str] = field(default_factory=dict)
    action: str = ""               # the module procedure
    call_type: str = ""


@pickled_by_fields
@dataclass
class FormParameter:
    name: str
    type: TypeDescription = field(default_factory=TypeDescription)
    key: bool = False


@dataclass
class Form:
    owner: str                     # MDObjectRef of the owner: Catalog.X, or CommonForm.X itself
    name: str
    form_type: str = "Managed"     # Managed / Ordinary
    synonym: dict[str, str] = field(default_factory=dict)   # from the configuration's form description
    title: dict[str, str] = field(default_factory=dict)
    handlers: list[Handler] = field(default_factory=list)
    items: list[FormItem] = field(default_factory=list)
    attributes: list[FormAttribute] = field(default_factory=list)
    commands: list[FormCommand] = field(default_factory=list)
    parameters: list[FormParameter] = field(default_factory=list)
    not_read: str = ""             # why the layout is not read (ordinary form, missing file…)
    file: str = ""

    @property
    def common(self) -> bool:
        return self.owner.startswith("CommonForm.")


@pickled_by_fields
@dataclass
class SchemaField:
    data_path: str
    field_name: str = ""            # the field in the data set (query column, object field)
    title: dict[str, str] = field(default_factory=dict)
    role: dict[str, Any] = field(default_factory=dict)   # period number, dimension, account…
    kind: str = "field"            # field / folder / nested


@dataclass
class DataSet:
    name: str
    kind: str                      # query / object / union (unknown kinds keep the xsi type)
    data_source: str = ""
    query: str = ""
    object_name: str = ""
    fields: list[SchemaField] = field(default_factory=list)
    items: list[DataSet] = field(default_factory=list)    # union members
    known: bool = True


@dataclass
class CalculatedField:
    data_path: str
    expression: str
    title: dict[str, str] = field(default_factory=dict)


@dataclass
class SchemaResource:
    data_path: str
    expression: str
    aggregate: str = ""            # the function of the expression: Сумма, Максимум…
    group: list[str] = field(default_factory=list)


@dataclass
class SchemaParameter:
    name: str
    title: dict[str, str] = field(default_factory=dict)
    type: TypeDescription = field(default_factory=TypeDescription)
    value: str = ""                # default, as text
    expression: str = ""
    list_allowed: bool = False
    hidden: bool = False           # useRestriction: not offered to the user


@dataclass
class Schema:
    data_sources: list[tuple[str, str]] = field(default_factory=list)   # (name, type)
    data_sets: list[DataSet] = field(default_factory=list)
    calculated_fields: list[CalculatedField] = field(default_factory=list)
    resources: list[SchemaResource] = field(default_factory=list)
    parameters: list[SchemaParameter] = field(default_factory=list)
    variants: list[tuple[str, str]] = field(default_factory=list)        # (name, title)
    links: list[tuple[str, str]] = field(default_factory=list)           # (source set, destination set)


@dataclass
class Template:
    owner: str                     # Report.X, or CommonTemplate.X itself
    name: str
    template_type: str
    synonym: dict[str, str] = field(default_factory=dict)
    schema: Schema | None = None   # DataCompositionSchema only
    not_read: str = ""
    file: str = ""

    @property
    def common(self) -> bool:
        return self.owner.startswith("CommonTemplate.")


@pickled_by_fields
@dataclass
class RoleObject:
    name: str                      # MDObjectRef: Catalog.X, Catalog.X.Attribute.Y, Configuration.X
    rights: dict[str, bool] = field(default_factory=dict)
    restrictions: dict[str, str] = field(default_factory=dict)   # right → RLS condition text
    line: int = 0                  # where the rights file names it (not compared between formats)


@dataclass
class Role:
    name: str
    set_for_new_objects: bool = False
    set_for_attributes_by_default: bool = False
    independent_rights_of_child_objects: bool = False
    objects: list[RoleObject] = field(default_factory=list)
    templates: list[tuple[str, str]] = field(default_factory=list)      # (name, text)
    file: str = ""


@dataclass
class UIModel:
    """What one configuration source holds of forms, templates and roles."""
    config: str                    # the configuration's own name
    forms: list[Form] = field(default_factory=list)
    templates: list[Template] = field(default_factory=list)
    roles: list[Role] = field(default_factory=list)
