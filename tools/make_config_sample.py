#!/usr/bin/env python3
"""Write the embedded sample configuration in both formats from one description.

    python tools/make_config_sample.py            # rewrites examples/config-designer, examples/config-edt

The sample (``ДемоТорговля``) is described once below; the Designer dump (format 2.16,
every property written, UTF-8 with BOM) and the EDT project (defaults omitted, as EDT does)
are rendered from it, so the two cannot drift apart. tests/test_config_sample.py checks
that both readers give the same model.
"""
from __future__ import annotations

import shutil
import uuid
from pathlib import Path
from xml.sax.saxutils import escape

from v8atlas.compiler.config.classes import FOLDER
from v8atlas.compiler.config.spec import CLASS_KEYS, FIELD_PROPS, field_keys, object_prop

ROOT = Path(__file__).resolve().parent.parent / "examples"
NAME = "ДемоТорговля"
NS = uuid.UUID("6f1c9a52-1e0b-4c1e-9a55-0d1c0ffee000")


def uid(*parts: str) -> str:
    return str(uuid.uuid5(NS, "/".join(parts)))


# --- the description ---------------------------------------------------------------------
# Types: ("String", n) n=0 unlimited; ("Number", digits, fraction[, nonneg]); ("Date", fractions);
# ("Boolean",); ("Ref", "CatalogRef", name); ("DefinedType", name); ("Characteristic", name);
# ("Object", "DocumentObject", name)
S = lambda n: [("String", n)]                      # noqa: E731
N = lambda d, f=0, nn=False: [("Number", d, f, nn)]  # noqa: E731
REF = lambda cls, name: [("Ref", cls + "Ref", name)]  # noqa: E731


def attr(name, syn, typ, **props):
    return {"name": name, "syn": syn, "type": typ, "props": props}


OBJECTS = [
    ("Language", "Русский", "Русский", {"LanguageCode": "ru"}, {}),
    ("Subsystem", "Торговля", "Торговля", {"IncludeInCommandInterface": True, "Content": [
        "Catalog.Номенклатура", "Catalog.Партнеры", "Document.ПриходТовара",
        "AccumulationRegister.ОстаткиТоваров"]}, {}),
    ("CommonModule", "ОбщегоНазначения", "Общего назначения",
     {"Server": True, "ServerCall": True, "ExternalConnection": True}, {}),
    ("CommonModule", "ОбработчикиСобытий", "Обработчики событий", {"Server": True}, {}),
    ("EventSubscription", "ПроверкаПриходаПередЗаписью", "Проверка прихода перед записью",
     {"Source": [("Object", "DocumentObject", "ПриходТовара")], "Event": "BeforeWrite",
      "Handler": "CommonModule.ОбработчикиСобытий.ПроверкаПриходаПередЗаписью"}, {}),
    ("ScheduledJob", "ОбновлениеЦен", "Обновление цен",
     {"MethodName": "CommonModule.ОбщегоНазначения.ОбновитьЦены", "Description": "Обновление цен",
      "Use": False, "Predefined": True, "RestartCountOnFailure": 3, "RestartIntervalOnFailure": 10}, {}),
    ("ExchangePlan", "ОбменСФилиалом", "Обмен с филиалом",
     {"CodeLength": 9, "CodeAllowedLength": "Variable", "DescriptionLength": 100,
      "DefaultPresentation": "AsDescription",
      "Content": [{"metadata": "Catalog.Номенклатура", "auto_record": "Allow"},
                  {"metadata": "Document.ПриходТовара", "auto_record": "Deny"}]},
     {"attributes": [attr("АдресСервера", "Адрес сервера", S(0))]}),
    ("DefinedType", "ВладелецДоговора", "Владелец договора", {"Type": REF("Catalog", "Партнеры")}, {}),
    ("Catalog", "Партнеры", "Партнеры",
     {"Hierarchical": True, "HierarchyType": "HierarchyFoldersAndItems", "CodeLength": 9,
      "CodeType": "String", "CodeAllowedLength": "Variable", "DescriptionLength": 100,
      "Autonumbering": True, "DefaultPresentation": "AsDescription", "FoldersOnTop": True,
      "LevelCount": 2},
     {"attributes": [attr("ИНН", "ИНН", S(12), Indexing="Index"),
                     attr("Комментарий", "Комментарий", S(0))]}),
    ("Catalog", "Договоры", "Договоры",
     {"Hierarchical": True, "HierarchyType": "HierarchyOfItems", "Owners": ["Catalog.Партнеры"],
      "SubordinationUse": "ToItems", "CodeLength": 9, "CodeType": "String",
      "CodeAllowedLength": "Variable", "DescriptionLength": 150, "Autonumbering": True,
      "DefaultPresentation": "AsDescription", "LevelCount": 2},
     {"attributes": [attr("Дата", "Дата договора", [("Date", "Date")]),
                     attr("ВидДоговора", "Вид договора", REF("Enum", "ВидыДоговоров"))]}),
    ("Catalog", "Номенклатура", "Номенклатура",
     {"Hierarchical": True, "HierarchyType": "HierarchyFoldersAndItems", "CodeLength": 11,
      "CodeType": "String", "CodeAllowedLength": "Variable", "DescriptionLength": 100,
      "Autonumbering": True, "DefaultPresentation": "AsDescription", "FoldersOnTop": True,
      "LevelCount": 2, "BasedOn": []},
     {"attributes": [attr("Артикул", "Артикул", S(25), Indexing="Index"),
                     attr("Описание", "Описание (неограниченная строка)", S(0)),
                     attr("Весовой", "Весовой", [("Boolean",)]),
                     attr("Вес", "Вес, кг", N(10, 3, True))],
      "tabular_sections": [{"name": "Штрихкоды", "syn": "Штрихкоды",
                            "attributes": [attr("Штрихкод", "Штрихкод", S(200))]}],
      "predefined": [("Услуги", True, [("Доставка", False, [])])],
      "forms": ["ФормаЭлемента", "ФормаСписка"], "templates": ["Ценник"],
      "commands": ["ПечатьЦенника"]}),
    ("Catalog", "Склады", "Склады",
     {"CodeLength": 5, "CodeType": "Number", "DescriptionLength": 50,
      "DefaultPresentation": "AsDescription", "Autonumbering": True}, {}),
    ("Enum", "ВидыДоговоров", "Виды договоров", {}, {"enum_values": ["СПоставщиком", "СПокупателем", "Прочее"]}),
    ("Document", "ПриходТовара", "Приход товара",
     {"NumberType": "String", "NumberLength": 11, "NumberAllowedLength": "Variable",
      "NumberPeriodicity": "Year", "CheckUnique": True, "Autonumbering": True, "Posting": "Allow",
      "RealTimePosting": "Deny", "RegisterRecordsDeletion": "AutoDeleteOnUnpost",
      "RegisterRecordsWritingOnPost": "WriteModified", "SequenceFilling": "AutoFill",
      "RegisterRecords": ["AccumulationRegister.ОстаткиТоваров", "AccumulationRegister.Продажи",
                          "AccountingRegister.Хозрасчетный"],
      "BasedOn": ["Catalog.Договоры"]},
     {"attributes": [attr("Партнер", "Партнер", REF("Catalog", "Партнеры"), FillChecking="ShowError"),
                     attr("Договор", "Договор", REF("Catalog", "Договоры")),
                     attr("Склад", "Склад", REF("Catalog", "Склады")),
                     attr("Основание", "Основание", [("Ref", "CatalogRef", "Договоры"),
                                                     ("Ref", "CatalogRef", "Партнеры"), ("String", 50)]),
                     attr("Комментарий", "Комментарий", S(0))],
      "tabular_sections": [{"name": "Товары", "syn": "Товары", "attributes": [
          attr("Номенклатура", "Номенклатура", REF("Catalog", "Номенклатура")),
          attr("Количество", "Количество", N(15, 3)),
          attr("Цена", "Цена", N(15, 2, True)),
          attr("Сумма", "Сумма", N(15, 2))]},
          {"name": "Услуги", "syn": "Услуги", "attributes": [
              attr("Содержание", "Содержание", S(0)), attr("Сумма", "Сумма", N(15, 2))]}],
      "forms": ["ФормаДокумента"]}),
    ("InformationRegister", "ЦеныНоменклатуры", "Цены номенклатуры",
     {"InformationRegisterPeriodicity": "Day", "WriteMode": "Independent", "MainFilterOnPeriod": True},
     {"dimensions": [attr("Номенклатура", "Номенклатура", REF("Catalog", "Номенклатура"),
                          Master=True, MainFilter=True, DenyIncompleteValues=True)],
      "resources": [attr("Цена", "Цена", N(15, 2))]}),
    ("InformationRegister", "АдресаСкладов", "Адреса складов",
     {"InformationRegisterPeriodicity": "Nonperiodical", "WriteMode": "Independent"},
     {"dimensions": [attr("Склад", "Склад", REF("Catalog", "Склады"), MainFilter=True)],
      "resources": [attr("Адрес", "Адрес", S(0))]}),
    ("AccumulationRegister", "ОстаткиТоваров", "Остатки товаров",
     {"RegisterType": "Balance", "EnableTotalsSplitting": True},
     {"dimensions": [attr("Номенклатура", "Номенклатура", REF("Catalog", "Номенклатура"), UseInTotals=True),
                     attr("Склад", "Склад", REF("Catalog", "Склады"), UseInTotals=True)],
      "resources": [attr("Количество", "Количество", N(15, 3))]}),
    ("AccumulationRegister", "Продажи", "Продажи",
     {"RegisterType": "Turnovers", "EnableTotalsSplitting": True},
     {"dimensions": [attr("Номенклатура", "Номенклатура", REF("Catalog", "Номенклатура"), UseInTotals=True),
                     attr("Партнер", "Партнер", REF("Catalog", "Партнеры"), UseInTotals=True)],
      "resources": [attr("Количество", "Количество", N(15, 3)), attr("Сумма", "Сумма", N(15, 2))],
      "attributes": [attr("Комментарий", "Комментарий", S(0))]}),
    ("ChartOfCharacteristicTypes", "ВидыСубконто", "Виды субконто",
     {"Type": [("Ref", "CatalogRef", "Партнеры"), ("Ref", "CatalogRef", "Номенклатура"),
               ("Ref", "CatalogRef", "Склады")],
      "CodeLength": 9, "CodeAllowedLength": "Variable", "DescriptionLength": 100,
      "DefaultPresentation": "AsDescription", "Autonumbering": True},
     {"predefined": [("Партнеры", False, []), ("Номенклатура", False, []), ("Склады", False, [])]}),
    ("ChartOfAccounts", "Хозрасчетный", "Хозрасчетный",
     {"ExtDimensionTypes": "ChartOfCharacteristicTypes.ВидыСубконто", "MaxExtDimensionCount": 3,
      "CodeMask": "@@.@@", "CodeLength": 8, "DescriptionLength": 120, "OrderLength": 5,
      "AutoOrderByCode": True, "CodeSeries": "WholeChartOfAccounts",
      "DefaultPresentation": "AsCode"},
     {"accounting_flags": [attr("Количественный", "Количественный", [("Boolean",)])],
      "ext_dimension_accounting_flags": [attr("Суммовой", "Суммовой", [("Boolean",)])],
      "predefined": [("Товары", False, [])]}),
    ("AccountingRegister", "Хозрасчетный", "Хозрасчетный",
     {"ChartOfAccounts": "ChartOfAccounts.Хозрасчетный", "Correspondence": True,
      "PeriodAdjustmentLength": 0, "EnableTotalsSplitting": True},
     {"resources": [attr("Сумма", "Сумма", N(15, 2), Balance=True),
                    attr("Количество", "Количество", N(15, 3), Balance=False,
                         AccountingFlag="ChartOfAccounts.Хозрасчетный.AccountingFlag.Количественный")]}),
    ("ChartOfCalculationTypes", "ВидыНачислений", "Виды начислений",
     {"CodeLength": 5, "CodeType": "String", "CodeAllowedLength": "Variable", "DescriptionLength": 100,
      "DefaultPresentation": "AsDescription", "DependenceOnCalculationTypes": "OnActionPeriod",
      "BaseCalculationTypes": ["ChartOfCalculationTypes.ВидыНачислений"], "ActionPeriodUse": True},
     {"predefined": [("Оклад", False, [])]}),
    ("CalculationRegister", "Начисления", "Начисления",
     {"ChartOfCalculationTypes": "ChartOfCalculationTypes.ВидыНачислений", "Periodicity": "Month",
      "ActionPeriod": True, "BasePeriod": True},
     {"dimensions": [attr("Сотрудник", "Сотрудник", S(100), BaseDimension=True)],
      "resources": [attr("Результат", "Результат", N(15, 2))]}),
    ("BusinessProcess", "Согласование", "Согласование",
     {"NumberType": "String", "NumberLength": 9, "NumberAllowedLength": "Variable",
      "Autonumbering": True, "CheckUnique": True, "Task": "Task.ЗадачаИсполнителя"},
     {"attributes": [attr("Предмет", "Предмет", REF("Document", "ПриходТовара"))]}),
    ("Task", "ЗадачаИсполнителя", "Задача исполнителя",
     {"NumberType": "String", "NumberLength": 9, "NumberAllowedLength": "Variable",
      "Autonumbering": True, "CheckUnique": True, "DescriptionLength": 150,
      "TaskNumberAutoPrefix": "BusinessProcessNumber", "DefaultPresentation": "AsDescription"},
     {"attributes": [attr("Результат", "Результат", S(0))],
      "addressing_attributes": [attr("Исполнитель", "Исполнитель", S(100))]}),
]

# --- rendering helpers -------------------------------------------------------------------

_CLASS_DEFAULT_PROPS = {}


def full_props(cls: str, props: dict) -> dict:
    out = {}
    for name in CLASS_KEYS.get(cls, ()):
        spec = object_prop(cls, name)
        out[name] = props.get(name, spec.default if spec.kind != "type" else [])
    return out


def is_default(cls: str, name: str, value) -> bool:
    spec = object_prop(cls, name)
    d = spec.default
    if isinstance(d, tuple):
        d = list(d)
    return value == d or (spec.kind == "type" and not value)


def field_full(owner: str, kind: str, props: dict) -> dict:
    out = {}
    for name in field_keys(owner, kind):
        if name == "Type":
            continue
        spec = FIELD_PROPS[name]
        d = spec.default
        out[name] = props.get(name, list(d) if isinstance(d, tuple) else d)
    return out


def xbool(v) -> str:
    return "true" if v else "false"


def d_type(typ, tag="Type", indent="\t\t\t\t\t") -> str:
    lines = [f"{indent}<{tag}>"]
    quals = []
    for t in typ:
        k = t[0]
        if k == "String":
            lines.append(f"{indent}\t<v8:Type>xs:string</v8:Type>")
            quals.append(f"{indent}\t<v8:StringQualifiers>\n{indent}\t\t<v8:Length>{t[1]}</v8:Length>\n"
                         f"{indent}\t\t<v8:AllowedLength>Variable</v8:AllowedLength>\n{indent}\t</v8:StringQualifiers>")
        elif k == "Number":
            lines.append(f"{indent}\t<v8:Type>xs:decimal</v8:Type>")
            quals.append(f"{indent}\t<v8:NumberQualifiers>\n{indent}\t\t<v8:Digits>{t[1]}</v8:Digits>\n"
                         f"{indent}\t\t<v8:FractionDigits>{t[2]}</v8:FractionDigits>\n"
                         f"{indent}\t\t<v8:AllowedSign>{'Nonnegative' if t[3] else 'Any'}</v8:AllowedSign>\n"
                         f"{indent}\t</v8:NumberQualifiers>")
        elif k == "Date":
            lines.append(f"{indent}\t<v8:Type>xs:dateTime</v8:Type>")
            quals.append(f"{indent}\t<v8:DateQualifiers>\n{indent}\t\t<v8:DateFractions>{t[1]}</v8:DateFractions>\n"
                         f"{indent}\t</v8:DateQualifiers>")
        elif k == "Boolean":
            lines.append(f"{indent}\t<v8:Type>xs:boolean</v8:Type>")
        elif k == "Ref":
            # a local re-declaration of the current-config namespace, as real dumps have
            lines.append(f'{indent}\t<v8:Type xmlns:d6p1="http://v8.1c.ru/8.1/data/enterprise/current-config">'
                         f"d6p1:{t[1]}.{t[2]}</v8:Type>" if t[2] == "Склады" else
                         f"{indent}\t<v8:Type>cfg:{t[1]}.{t[2]}</v8:Type>")
        elif k in ("DefinedType", "Characteristic"):
            lines.append(f"{indent}\t<v8:TypeSet>cfg:{k}.{t[1]}</v8:TypeSet>")
        elif k == "Object":
            lines.append(f"{indent}\t<v8:Type>cfg:{t[1]}.{t[2]}</v8:Type>")
    lines += quals
    lines.append(f"{indent}</{tag}>")
    return "\n".join(lines)


def e_type(typ, tag="type", indent="  ") -> str:
    lines = [f"{indent}<{tag}>"]
    quals = []
    for t in typ:
        k = t[0]
        if k == "String":
            lines.append(f"{indent}  <types>String</types>")
            quals.append(f"{indent}  <stringQualifiers>" + (f"\n{indent}    <length>{t[1]}</length>\n{indent}  "
                                                             if t[1] else "") + "</stringQualifiers>")
        elif k == "Number":
            lines.append(f"{indent}  <types>Number</types>")
            q = f"{indent}  <numberQualifiers>\n{indent}    <precision>{t[1]}</precision>\n"
            if t[2]:
                q += f"{indent}    <scale>{t[2]}</scale>\n"
            if t[3]:
                q += f"{indent}    <nonNegative>true</nonNegative>\n"
            quals.append(q + f"{indent}  </numberQualifiers>")
        elif k == "Date":
            lines.append(f"{indent}  <types>Date</types>")
            quals.append(f"{indent}  <dateQualifiers>\n{indent}    <dateFractions>{t[1]}</dateFractions>\n"
                         f"{indent}  </dateQualifiers>")
        elif k == "Boolean":
            lines.append(f"{indent}  <types>Boolean</types>")
        elif k == "Ref":
            lines.append(f"{indent}  <types>{t[1]}.{t[2]}</types>")
        elif k in ("DefinedType", "Characteristic"):
            lines.append(f"{indent}  <types>{k}.{t[1]}</types>")
        elif k == "Object":
            lines.append(f"{indent}  <types>{t[1]}.{t[2]}</types>")
    lines += quals
    lines.append(f"{indent}</{tag}>")
    return "\n".join(lines)


def d_syn(syn: str, indent: str) -> str:
    if not syn:
        return f"{indent}<Synonym/>"
    return (f"{indent}<Synonym>\n{indent}\t<v8:item>\n{indent}\t\t<v8:lang>ru</v8:lang>\n"
            f"{indent}\t\t<v8:content>{escape(syn)}</v8:content>\n{indent}\t</v8:item>\n{indent}</Synonym>")


def e_syn(syn: str, indent: str) -> str:
    return f"{indent}<synonym>\n{indent}  <key>ru</key>\n{indent}  <value>{escape(syn)}</value>\n{indent}</synonym>" if syn else ""


def d_value(kind: str, name: str, v, indent: str) -> str:
    if kind == "bool":
        return f"{indent}<{name}>{xbool(v)}</{name}>"
    if kind in ("int", "str", "ref"):
        return f"{indent}<{name}>{escape(str(v))}</{name}>" if v != "" else f"{indent}<{name}/>"
    if kind == "refs":
        if not v:
            return f"{indent}<{name}/>"
        items = "\n".join(f'{indent}\t<xr:Item xsi:type="xr:MDObjectRef">{escape(x)}</xr:Item>' for x in v)
        return f"{indent}<{name}>\n{items}\n{indent}</{name}>"
    if kind == "type":
        return d_type(v, name, indent)
    raise ValueError(kind)


def e_value(kind: str, name: str, v, indent: str) -> str:
    if kind == "bool":
        return f"{indent}<{name}>{xbool(v)}</{name}>"
    if kind in ("int", "str", "ref"):
        return f"{indent}<{name}>{escape(str(v))}</{name}>"
    if kind == "refs":
        return "\n".join(f"{indent}<{name}>{escape(x)}</{name}>" for x in v)
    if kind == "type":
        return e_type(v, name, indent)
    raise ValueError(kind)


def lower1(s: str) -> str:
    return {"XDTOPackages": "xdtoPackages"}.get(s, s[:1].lower() + s[1:])


HEADER = ('<?xml version="1.0" encoding="UTF-8"?>\n'
          '<MetaDataObject xmlns="http://v8.1c.ru/8.3/MDClasses" '
          'xmlns:cfg="http://v8.1c.ru/8.1/data/enterprise/current-config" '
          'xmlns:v8="http://v8.1c.ru/8.1/data/core" xmlns:xr="http://v8.1c.ru/8.3/xcf/readable" '
          'xmlns:xpr="http://v8.1c.ru/8.3/xcf/predef" '
          'xmlns:xs="http://www.w3.org/2001/XMLSchema" '
          'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" version="2.16">\n')


def write(path: Path, text: str, bom: bool) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(("\ufeff" if bom else "").encode() + text.encode("utf-8"))


# --- form bodies (the same form in both formats: compiler/forms reads them) -----------------

FORM_MODULE = ("&НаСервере\nПроцедура ПриСозданииНаСервере(Отказ, СтандартнаяОбработка)\n"
               "КонецПроцедуры\n")


def _form_main(cls: str, name: str, form: str) -> tuple[str, str]:
    """(main attribute, its type): a list form shows a dynamic list of the object's table."""
    if "Список" in form:
        return "Список", "DynamicList"
    return "Объект", f"{cls}Object.{name}"


def d_form_body(cls: str, name: str, form: str) -> str:
    attr, typ = _form_main(cls, name, form)
    prefix = "cfg:"
    settings = (f"\t\t\t<Settings xsi:type=\"DynamicList\">\n\t\t\t\t<ManualQuery>false</ManualQuery>\n"
                f"\t\t\t\t<MainTable>{cls}.{name}</MainTable>\n\t\t\t</Settings>\n") if typ == "DynamicList" else ""
    item = (f'\t\t<Table name="{attr}" id="1">\n\t\t\t<DataPath>{attr}</DataPath>\n\t\t</Table>\n'
            if typ == "DynamicList" else "")
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<Form xmlns="http://v8.1c.ru/8.3/xcf/logform" xmlns:cfg="http://v8.1c.ru/8.1/data/enterprise/current-config" '
            'xmlns:v8="http://v8.1c.ru/8.1/data/core" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" version="2.16">\n'
            '\t<Events>\n\t\t<Event name="OnCreateAtServer">ПриСозданииНаСервере</Event>\n\t</Events>\n'
            + (f"\t<ChildItems>\n{item}\t</ChildItems>\n" if item else "")
            + f'\t<Attributes>\n\t\t<Attribute name="{attr}" id="1">\n'
            f"\t\t\t<Type>\n\t\t\t\t<v8:Type>{prefix}{typ}</v8:Type>\n\t\t\t</Type>\n"
            f"\t\t\t<MainAttribute>true</MainAttribute>\n{settings}\t\t</Attribute>\n\t</Attributes>\n</Form>\n")


def e_form_body(cls: str, name: str, form: str) -> str:
    attr, typ = _form_main(cls, name, form)
    ext = (f'    <extInfo xsi:type="form:DynamicListExtInfo">\n      <mainTable>{cls}.{name}</mainTable>\n'
           f"    </extInfo>\n") if typ == "DynamicList" else ""
    item = (f'  <items xsi:type="form:Table">\n    <name>{attr}</name>\n    <id>1</id>\n'
            f"    <visible>true</visible>\n    <enabled>true</enabled>\n"
            f'    <dataPath xsi:type="form:DataPath">\n      <segments>{attr}</segments>\n    </dataPath>\n'
            f"  </items>\n") if typ == "DynamicList" else ""
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<form:Form xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:form="http://g5.1c.ru/v8/dt/form">\n'
            + item
            + "  <handlers>\n    <event>OnCreateAtServer</event>\n    <name>ПриСозданииНаСервере</name>\n  </handlers>\n"
            f"  <attributes>\n    <name>{attr}</name>\n    <id>1</id>\n    <valueType>\n      <types>{typ}</types>\n"
            f"    </valueType>\n    <main>true</main>\n{ext}  </attributes>\n</form:Form>\n")


# --- Designer -----------------------------------------------------------------------------

_CHILD_ORDER = ("attributes", "tabular_sections", "dimensions", "resources", "accounting_flags",
                "ext_dimension_accounting_flags", "addressing_attributes")
_CHILD_TAG = {"attributes": "Attribute", "tabular_sections": "TabularSection", "dimensions": "Dimension",
              "resources": "Resource", "accounting_flags": "AccountingFlag",
              "ext_dimension_accounting_flags": "ExtDimensionAccountingFlag",
              "addressing_attributes": "AddressingAttribute"}


def d_field(owner: str, cls: str, tag: str, a: dict, ind: str) -> str:
    props = field_full(owner, tag, a["props"])
    body = [f"{ind}<{tag} uuid=\"{uid(cls, owner, tag, a['name'])}\">", f"{ind}\t<Properties>",
            f"{ind}\t\t<Name>{a['name']}</Name>", d_syn(a["syn"], ind + "\t\t"), f"{ind}\t\t<Comment/>"]
    if "Type" in field_keys(owner, tag):
        body.append(d_type(a["type"], "Type", ind + "\t\t"))
    for k, v in props.items():
        body.append(d_value(FIELD_PROPS[k].kind, k, v, ind + "\t\t"))
    body += [f"{ind}\t</Properties>", f"{ind}</{tag}>"]
    return "\n".join(body)


def designer(out: Path) -> None:
    if out.exists():
        shutil.rmtree(out)
    children = []
    for cls, name, syn, props, kids in OBJECTS:
        children.append(f"\t\t\t<{cls}>{name}</{cls}>")
        folder = FOLDER[cls]
        ind = "\t\t\t"
        lines = [HEADER + f'\t<{cls} uuid="{uid(cls, name)}">', "\t\t<Properties>",
                 f"{ind}<Name>{name}</Name>", d_syn(syn, ind), f"{ind}<Comment/>"]
        for k, v in full_props(cls, props).items():
            spec = object_prop(cls, k)
            if spec.kind == "exchange_plan_content":
                continue
            lines.append(d_value(spec.kind, k, v, ind))
        lines.append("\t\t</Properties>")
        co = []
        owner = cls
        for coll in _CHILD_ORDER:
            for a in kids.get(coll, []):
                tag = _CHILD_TAG[coll]
                if tag == "TabularSection":
                    ts_props = field_full(owner, "TabularSection", {})
                    t = [f'\t\t\t<TabularSection uuid="{uid(cls, name, "ts", a["name"])}">', "\t\t\t\t<Properties>",
                         f"\t\t\t\t\t<Name>{a['name']}</Name>", d_syn(a["syn"], "\t\t\t\t\t"), "\t\t\t\t\t<Comment/>"]
                    t += [d_value(FIELD_PROPS[k].kind, k, v, "\t\t\t\t\t") for k, v in ts_props.items()]
                    t += ["\t\t\t\t</Properties>", "\t\t\t\t<ChildObjects>"]
                    t += [d_field(f"{cls}.TabularSection", f"{name}.{a['name']}", "Attribute", x, "\t\t\t\t\t")
                          for x in a["attributes"]]
                    t += ["\t\t\t\t</ChildObjects>", "\t\t\t</TabularSection>"]
                    co.append("\n".join(t))
                else:
                    co.append(d_field(owner, name, tag, a, "\t\t\t"))
        for v in kids.get("enum_values", []):
            co.append(f'\t\t\t<EnumValue uuid="{uid(cls, name, "ev", v)}">\n\t\t\t\t<Properties>\n'
                      f"\t\t\t\t\t<Name>{v}</Name>\n\t\t\t\t\t<Synonym/>\n\t\t\t\t\t<Comment/>\n"
                      f"\t\t\t\t</Properties>\n\t\t\t</EnumValue>")
        for c in kids.get("commands", []):
            co.append(f'\t\t\t<Command uuid="{uid(cls, name, "cmd", c)}">\n\t\t\t\t<Properties>\n'
                      f"\t\t\t\t\t<Name>{c}</Name>\n\t\t\t\t\t<Synonym/>\n\t\t\t\t\t<Comment/>\n"
                      f"\t\t\t\t\t<Group>FormCommandBarImportant</Group>\n"
                      f"\t\t\t\t\t<CommandParameterType/>\n\t\t\t\t\t<ModifiesData>false</ModifiesData>\n"
                      f"\t\t\t\t</Properties>\n\t\t\t</Command>")
        for f in kids.get("forms", []):
            co.append(f"\t\t\t<Form>{f}</Form>")
            write(out / folder / name / "Forms" / f"{f}.xml",
                  HEADER + f'\t<Form uuid="{uid(cls, name, "form", f)}">\n\t\t<Properties>\n'
                  f"\t\t\t<Name>{f}</Name>\n\t\t\t<Synonym/>\n\t\t\t<Comment/>\n"
                  f"\t\t\t<FormType>Managed</FormType>\n\t\t</Properties>\n\t</Form>\n</MetaDataObject>\n", True)
            body = out / folder / name / "Forms" / f / "Ext"
            write(body / "Form.xml", d_form_body(cls, name, f), True)
            write(body / "Form" / "Module.bsl", FORM_MODULE, True)
        for t in kids.get("templates", []):
            co.append(f"\t\t\t<Template>{t}</Template>")
            write(out / folder / name / "Templates" / f"{t}.xml",
                  HEADER + f'\t<Template uuid="{uid(cls, name, "tpl", t)}">\n\t\t<Properties>\n'
                  f"\t\t\t<Name>{t}</Name>\n\t\t\t<Synonym/>\n\t\t\t<Comment/>\n"
                  f"\t\t\t<TemplateType>SpreadsheetDocument</TemplateType>\n\t\t</Properties>\n"
                  f"\t</Template>\n</MetaDataObject>\n", True)
        if co:
            lines.append("\t\t<ChildObjects>\n" + "\n".join(co) + "\n\t\t</ChildObjects>")
        elif cls not in ("Language", "CommonModule", "EventSubscription", "ScheduledJob", "DefinedType"):
            lines.append("\t\t<ChildObjects/>")
        lines.append(f"\t</{cls}>\n</MetaDataObject>\n")
        write(out / folder / f"{name}.xml", "\n".join(lines), True)
        if kids.get("predefined"):
            write(out / folder / name / "Ext" / "Predefined.xml", d_predefined(cls, name, kids["predefined"]), True)
        if cls == "ExchangePlan":
            items = "".join(f"\t<Item>\n\t\t<Metadata>{c['metadata']}</Metadata>\n\t\t<AutoRecord>{c['auto_record']}"
                            f"</AutoRecord>\n\t</Item>\n" for c in props["Content"])
            write(out / folder / name / "Ext" / "Content.xml",
                  '<?xml version="1.0" encoding="UTF-8"?>\n<ExchangePlanContent xmlns="http://v8.1c.ru/8.3/xcf/extrnprops" '
                  'xmlns:xr="http://v8.1c.ru/8.3/xcf/readable" version="2.16">\n' + items + "</ExchangePlanContent>\n", True)
        if cls == "CommonModule":
            write(out / folder / name / "Ext" / "Module.bsl", MODULES.get(name, ""), True)
        if cls == "BusinessProcess":
            write(out / folder / name / "Ext" / "Flowchart.xml", flowchart("2.16"), True)
    cfg = (HEADER + f'\t<Configuration uuid="{uid("Configuration")}">\n\t\t<Properties>\n'
           f"\t\t\t<Name>{NAME}</Name>\n" + d_syn("Демо: торговля", "\t\t\t") + "\n\t\t\t<Comment>Встроенный пример v8atlas</Comment>\n"
           "\t\t\t<NamePrefix/>\n\t\t\t<ConfigurationExtensionCompatibilityMode>Version8_3_23</ConfigurationExtensionCompatibilityMode>\n"
           "\t\t\t<DefaultRunMode>ManagedApplication</DefaultRunMode>\n\t\t\t<ScriptVariant>Russian</ScriptVariant>\n"
           "\t\t\t<Vendor>v8atlas</Vendor>\n\t\t\t<Version>1.0.0.1</Version>\n"
           "\t\t\t<DefaultLanguage>Language.Русский</DefaultLanguage>\n"
           "\t\t\t<DataLockControlMode>Managed</DataLockControlMode>\n\t\t\t<ModalityUseMode>DontUse</ModalityUseMode>\n"
           "\t\t\t<SynchronousPlatformExtensionAndAddInCallUseMode>DontUse</SynchronousPlatformExtensionAndAddInCallUseMode>\n"
           "\t\t\t<InterfaceCompatibilityMode>Taxi</InterfaceCompatibilityMode>\n"
           "\t\t\t<ObjectAutonumerationMode>NotAutoFree</ObjectAutonumerationMode>\n"
           "\t\t\t<CompatibilityMode>Version8_3_23</CompatibilityMode>\n\t\t</Properties>\n"
           "\t\t<ChildObjects>\n" + "\n".join(children) + "\n\t\t</ChildObjects>\n\t</Configuration>\n</MetaDataObject>\n")
    write(out / "Configuration.xml", cfg, True)


def d_predefined(cls: str, name: str, items) -> str:
    def render(its, ind):
        out = []
        for n, folder, kids in its:
            out.append(f'{ind}<Item id="{uid(cls, name, "pre", n)}">\n{ind}\t<Name>{n}</Name>\n{ind}\t<Code/>\n'
                       f"{ind}\t<Description>{n}</Description>\n{ind}\t<IsFolder>{xbool(folder)}</IsFolder>")
            if kids:
                out.append(f"{ind}\t<ChildItems>\n" + render(kids, ind + "\t\t") + f"\n{ind}\t</ChildItems>")
            out.append(f"{ind}</Item>")
        return "\n".join(out)
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<PredefinedData xmlns="http://v8.1c.ru/8.3/xcf/predef" '
            'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
            f'xsi:type="{cls}PredefinedItems" version="2.16">\n' + render(items, "\t") + "\n</PredefinedData>\n")


# --- EDT ------------------------------------------------------------------------------------

def e_field(owner: str, cls: str, coll: str, tag: str, a: dict, ind: str) -> str:
    lines = [f'{ind}<{coll} uuid="{uid(cls, owner, tag, a["name"])}">', f"{ind}  <name>{a['name']}</name>"]
    s = e_syn(a["syn"], ind + "  ")
    if s:
        lines.append(s)
    if "Type" in field_keys(owner, tag):
        lines.append(e_type(a["type"], "type", ind + "  "))
    for k, v in a["props"].items():
        spec = FIELD_PROPS[k]
        d = list(spec.default) if isinstance(spec.default, tuple) else spec.default
        if v != d:
            lines.append(e_value(spec.kind, lower1(k), v, ind + "  "))
    lines.append(f"{ind}</{coll}>")
    return "\n".join(lines)


_EDT_COLL = {"attributes": "attributes", "tabular_sections": "tabularSections", "dimensions": "dimensions",
             "resources": "resources", "accounting_flags": "accountingFlags",
             "ext_dimension_accounting_flags": "extDimensionAccountingFlags",
             "addressing_attributes": "addressingAttributes"}


def edt(out: Path) -> None:
    if out.exists():
        shutil.rmtree(out)
    write(out / ".project", '<?xml version="1.0" encoding="UTF-8"?>\n<projectDescription>\n  <name>ДемоТорговля</name>\n'
          '  <natures>\n    <nature>com._1c.g5.v8.dt.core.V8ConfigurationNature</nature>\n  </natures>\n</projectDescription>\n', False)
    write(out / "DT-INF" / "PROJECT.PMF", "Manifest-Version: 1.0\nRuntime-Version: 8.3.23\n", False)
    head = ('<?xml version="1.0" encoding="UTF-8"?>\n<mdclass:{cls} xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
            'xmlns:core="http://g5.1c.ru/v8/dt/mcore" xmlns:mdclass="http://g5.1c.ru/v8/dt/metadata/mdclass" uuid="{uuid}">\n')
    refs = []
    langs = []
    for cls, name, syn, props, kids in OBJECTS:
        if cls == "Language":
            langs.append(f'  <languages uuid="{uid(cls, name)}">\n    <name>{name}</name>\n' + e_syn(syn, "    ")
                         + f"\n    <languageCode>{props['LanguageCode']}</languageCode>\n  </languages>")
            continue
        refs.append((cls, name))
        lines = [head.format(cls=cls, uuid=uid(cls, name)).rstrip("\n"), f"  <name>{name}</name>"]
        s = e_syn(syn, "  ")
        if s:
            lines.append(s)
        for k, v in full_props(cls, props).items():
            if is_default(cls, k, v):
                continue
            spec = object_prop(cls, k)
            if spec.kind == "exchange_plan_content":
                for c in v:
                    lines.append(f"  <content>\n    <mdObject>{c['metadata']}</mdObject>\n"
                                 + (f"    <autoRecord>{c['auto_record']}</autoRecord>\n" if c["auto_record"] != "Deny" else "")
                                 + "  </content>")
                continue
            lines.append(e_value(spec.kind, lower1(k), v, "  "))
        if kids.get("predefined"):
            lines.append("  <predefined>\n" + e_predefined(cls, name, kids["predefined"], "    ") + "\n  </predefined>")
        for coll in _CHILD_ORDER:
            for a in kids.get(coll, []):
                tag = _CHILD_TAG[coll]
                if tag == "TabularSection":
                    t = [f'  <tabularSections uuid="{uid(cls, name, "ts", a["name"])}">', f"    <name>{a['name']}</name>"]
                    s = e_syn(a["syn"], "    ")
                    if s:
                        t.append(s)
                    if "LineNumberLength" in field_keys(cls, "TabularSection"):
                        t.append("    <lineNumberLength>5</lineNumberLength>")
                    t += [e_field(f"{cls}.TabularSection", f"{name}.{a['name']}", "attributes", "Attribute", x, "    ")
                          for x in a["attributes"]]
                    t.append("  </tabularSections>")
                    lines.append("\n".join(t))
                else:
                    lines.append(e_field(cls, name, _EDT_COLL[coll], tag, a, "  "))
        for v in kids.get("enum_values", []):
            lines.append(f'  <enumValues uuid="{uid(cls, name, "ev", v)}">\n    <name>{v}</name>\n  </enumValues>')
        for f in kids.get("forms", []):
            lines.append(f'  <forms uuid="{uid(cls, name, "form", f)}">\n    <name>{f}</name>\n  </forms>')
            write(out / "src" / FOLDER[cls] / name / "Forms" / f / "Module.bsl", FORM_MODULE, False)
            write(out / "src" / FOLDER[cls] / name / "Forms" / f / "Form.form", e_form_body(cls, name, f), False)
        for t in kids.get("templates", []):
            lines.append(f'  <templates uuid="{uid(cls, name, "tpl", t)}">\n    <name>{t}</name>\n  </templates>')
        for c in kids.get("commands", []):
            lines.append(f'  <commands uuid="{uid(cls, name, "cmd", c)}">\n    <name>{c}</name>\n'
                         f"    <group>FormCommandBarImportant</group>\n  </commands>")
        lines.append(f"</mdclass:{cls}>\n")
        write(out / "src" / FOLDER[cls] / name / f"{name}.mdo", "\n".join(lines), False)
        if cls == "CommonModule":
            write(out / "src" / FOLDER[cls] / name / "Module.bsl", MODULES.get(name, ""), False)
        if cls == "BusinessProcess":
            write(out / "src" / FOLDER[cls] / name / "Flowchart.scheme", flowchart(""), False)
    coll_of = {}
    for cls, name in refs:
        folder = FOLDER[cls]
        coll_of.setdefault(cls, []).append(f"  <{lower1(folder)}>{cls}.{name}</{lower1(folder)}>")
    order = ["Subsystem", "CommonModule", "ExchangePlan", "EventSubscription", "ScheduledJob", "DefinedType",
             "Catalog", "Document", "Enum", "InformationRegister", "AccumulationRegister",
             "ChartOfCharacteristicTypes", "ChartOfAccounts", "AccountingRegister", "ChartOfCalculationTypes",
             "CalculationRegister", "BusinessProcess", "Task"]
    body = [head.format(cls="Configuration", uuid=uid("Configuration")).rstrip("\n"), f"  <name>{NAME}</name>",
            e_syn("Демо: торговля", "  "), "  <comment>Встроенный пример v8atlas</comment>",
            "  <configurationExtensionCompatibilityMode>8.3.23</configurationExtensionCompatibilityMode>",
            "  <defaultRunMode>ManagedApplication</defaultRunMode>", "  <scriptVariant>Russian</scriptVariant>",
            "  <vendor>v8atlas</vendor>", "  <version>1.0.0.1</version>",
            "  <defaultLanguage>Language.Русский</defaultLanguage>",
            "  <dataLockControlMode>Managed</dataLockControlMode>", "  <modalityUseMode>DontUse</modalityUseMode>",
            "  <synchronousPlatformExtensionAndAddInCallUseMode>DontUse</synchronousPlatformExtensionAndAddInCallUseMode>",
            "  <compatibilityMode>8.3.23</compatibilityMode>"]
    body += langs
    for cls in order:
        body += coll_of.get(cls, [])
    body.append("</mdclass:Configuration>\n")
    write(out / "src" / "Configuration" / "Configuration.mdo", "\n".join(body), False)


def e_predefined(cls: str, name: str, items, ind: str, tag: str = "items") -> str:
    out = []
    for n, folder, kids in items:
        out.append(f'{ind}<{tag} id="{uid(cls, name, "pre", n)}">\n{ind}  <name>{n}</name>\n'
                   f"{ind}  <description>{n}</description>\n{ind}  <code xsi:type=\"core:StringValue\">\n"
                   f"{ind}    <value></value>\n{ind}  </code>")
        if folder:
            out.append(f"{ind}  <isFolder>true</isFolder>")
        if kids:
            out.append(e_predefined(cls, name, kids, ind + "  ", "content"))
        out.append(f"{ind}</{tag}>")
    return "\n".join(out)


def flowchart(version: str) -> str:
    """A minimal route map (GraphicalSchema): start → approve → completion."""
    points = [("Start", "Старт"), ("Activity", "Согласовать"), ("Completion", "Завершение")]
    items = "".join(f'\t\t<{k} id="{i}" uuid="{uid("bp", n)}">\n\t\t\t<Properties>\n\t\t\t\t<Name>{n}</Name>\n'
                    f"\t\t\t\t<Title/>\n\t\t\t</Properties>\n\t\t</{k}>\n" for i, (k, n) in enumerate(points, 1))
    line = ('\t\t<ConnectionLine id="9">\n\t\t\t<Properties>\n\t\t\t\t<Name>Линия1</Name>\n\t\t\t\t<Connect>\n'
            "\t\t\t\t\t<From><Item>Старт</Item><PortIndex>4</PortIndex></From>\n"
            "\t\t\t\t\t<To><Item>Согласовать</Item><PortIndex>2</PortIndex></To>\n"
            "\t\t\t\t</Connect>\n\t\t\t</Properties>\n\t\t</ConnectionLine>\n")
    ver = f' version="{version}"' if version else ""
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<GraphicalSchema xmlns="http://v8.1c.ru/8.3/xcf/scheme"'
            f"{ver}>\n\t<Items>\n" + items + line + "\t</Items>\n</GraphicalSchema>\n")


MODULES = {
    "ОбщегоНазначения": "Процедура ОбновитьЦены() Экспорт\n\t// Регламентное задание ОбновлениеЦен.\nКонецПроцедуры\n",
    "ОбработчикиСобытий": ("Процедура ПроверкаПриходаПередЗаписью(Источник, Отказ, РежимЗаписи, РежимПроведения) Экспорт\n"
                           "\tЕсли Не ЗначениеЗаполнено(Источник.Партнер) Тогда\n\t\tОтказ = Истина;\n\tКонецЕсли;\n"
                           "КонецПроцедуры\n"),
}


if __name__ == "__main__":
    designer(ROOT / "config-designer")
    edt(ROOT / "config-edt")
    print(f"wrote {ROOT / 'config-designer'} and {ROOT / 'config-edt'}")
