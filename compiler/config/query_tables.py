"""Query tables of an object: physical tables, tabular sections, virtual tables with their
parameters and generated field names, exactly per domain-1c.md §3.

``query_tables(obj, index)`` returns ``QueryTable``s whose names and fields exist in both
languages (``РегистрНакопления.X.ОстаткиИОбороты`` / ``AccumulationRegister.X.BalanceAndTurnovers``,
``КоличествоОстаток`` / ``КоличествоBalance``); the configuration's script variant picks the
one answers show. Fields keep their model types, so unlimited strings are known per field.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from . import model as M
from . import standard as STD
from . import words as W
from .confindex import ConfigIndex, as_bool, as_refs
from .fields import Field, fixed_field, t_datetime, t_number, t_ref, user_field

# Kinds of query tables (card key "kind").
OBJECT = "object"                    # Справочник.X, РегистрСведений.X …
TABULAR_SECTION = "tabular_section"  # Документ.X.Товары
STANDARD_TABULAR_SECTION = "standard_tabular_section"   # ПланСчетов.X.ВидыСубконто …
VIRTUAL = "virtual"                  # РегистрНакопления.X.Остатки(…)
CHANGES = "changes"                  # <Table>.Изменения
RECALCULATION = "recalculation"      # РегистрРасчета.X.<Перерасчет>
AUXILIARY = "auxiliary"              # РегистрБухгалтерии.X.Субконто, БизнесПроцесс.X.ТочкиМаршрута

# Attribute settings worth showing beside a field (model Attribute.props keys).
FLAG_KEYS = ("indexing", "master", "main_filter", "deny_incomplete_values", "balance", "use_in_totals",
             "accounting_flag", "ext_dimension_accounting_flag", "base_dimension", "schedule_link",
             "addressing_dimension", "use", "fill_checking", "multi_line", "references")


@dataclass
class QueryTable:
    ru: str                                    # full table name in Russian
    en: str                                    # in English
    kind: str
    params: list[tuple[str, str]] = field(default_factory=list)   # (ru, en) positional parameters
    fields: list[Field] = field(default_factory=list)
    note: str = ""                             # why something is uncertain (domain-1c.md marks)

    def name(self, language: str) -> str:
        return self.en if language == W.EN else self.ru


# Values that are the platform default say nothing; they are left out of "flags".
FLAG_DEFAULTS = {"indexing": "DontIndex", "master": False, "main_filter": False,
                 "deny_incomplete_values": False, "fill_checking": "DontCheck", "multi_line": False,
                 "use_in_totals": True, "balance": False, "base_dimension": False, "use": "ForItem"}


def attribute_field(a: M.Attribute, role: str, synonym: str = "") -> Field:
    flags = {}
    props = a.props
    for k in FLAG_KEYS:
        v = props.get(k)
        if v is None:   # most flags are absent: decided before building the empty values below
            continue
        if v not in ("", [], {}) and (k not in FLAG_DEFAULTS or v != FLAG_DEFAULTS[k]):
            flags[k] = v if isinstance(v, (bool, int, str)) else [str(x) for x in v] if isinstance(
                v, (list, tuple)) else str(v)
    return user_field(a.name, a.type, role, flags=flags, synonym=synonym, comment=a.comment,
                      origin=a.origin)


def _attrs(items: Iterable[M.Attribute], role: str) -> list[Field]:
    return [attribute_field(a, role) for a in items]


def _common_attributes(obj: M.MDObject, ix: ConfigIndex) -> list[Field]:
    out = []
    for ca in ix.common_attributes_of.get(obj.full_name, []):
        td = ca.props.get("type")
        out.append(user_field(ca.name, td if isinstance(td, M.TypeDescription) else None,
                              "common_attribute", origin=ca.origin))
    return out


def _suffixed(src: Field, suffix_ru: str, role: str = "generated") -> Field:
    return Field(src.ru + suffix_ru, src.en + W.SUFFIXES.get(suffix_ru, suffix_ru), src.type, role)


def _params(*names: str) -> list[tuple[str, str]]:
    return [(n, W.PARAMS.get(n, n)) for n in names]


def _table(obj: M.MDObject, tail_ru: str = "", tail_en: str = "") -> tuple[str, str]:
    c = W.class_words(obj.cls)
    ru, en = f"{c.ru}.{obj.name}", f"{c.en}.{obj.name}"
    if tail_ru:
        ru, en = f"{ru}.{tail_ru}", f"{en}.{tail_en or tail_ru}"
    return ru, en


def _vt(obj: M.MDObject, vt_ru: str, params: list[tuple[str, str]], fields: list[Field],
        note: str = "") -> QueryTable:
    ru, en = _table(obj, vt_ru, W.TABLES.get(vt_ru, vt_ru))
    return QueryTable(ru, en, VIRTUAL, params, fields, note)


def _period_fields(ix: ConfigIndex, obj: M.MDObject) -> list[Field]:
    """Период, Регистратор, НомерСтроки and ПериодСекунда…ПериодГод of Обороты-like tables (§3.2)."""
    recorder = STD._recorder(ix, obj.full_name)
    recorder.role = "generated"
    out = [fixed_field("Период", t_datetime(), role="generated"), recorder,
           fixed_field("НомерСтроки", t_number(), role="generated")]
    out += [fixed_field("Период" + p, t_datetime(), role="generated")
            for p in ("Секунда", "Минута", "Час", "День", "Неделя", "Декада", "Месяц", "Квартал",
                      "Полугодие", "Год")]
    return out


# -- reference objects -------------------------------------------------------------------------

def _tabular_sections(obj: M.MDObject) -> list[QueryTable]:
    out = []
    for ts in obj.tabular_sections:
        ru, en = _table(obj, ts.name)
        out.append(QueryTable(ru, en, TABULAR_SECTION, [],
                              STD.tabular_section_fields(obj) + _attrs(ts.attributes, "attribute")))
    return out


def virtual_fields(obj: M.MDObject) -> list[Field]:
    """Fields a query may read but ``*`` does not return (§2.2 note): Представление on tables with
    Ссылка, МоментВремени on documents. The list is marked unverified by domain-1c.md."""
    out = []
    out.append(fixed_field("Представление", role="virtual", unverified=True))
    if obj.cls in ("Document", "DocumentJournal"):
        out.append(fixed_field("МоментВремени", M.TypeRef(M.PLATFORM, name="PointInTime"), role="virtual",
                               unverified=True))
    return out


def _main(obj: M.MDObject, ix: ConfigIndex, extra: list[Field] | None = None) -> QueryTable:
    ru, en = _table(obj)
    fields = STD.standard_attributes(obj, ix) + (extra or []) + _attrs(obj.attributes, "attribute")
    return QueryTable(ru, en, OBJECT, [], fields + _common_attributes(obj, ix) + virtual_fields(obj))


def reference_object(obj: M.MDObject, ix: ConfigIndex) -> list[QueryTable]:
    return [_main(obj, ix)] + _tabular_sections(obj)


def chart_of_accounts(obj: M.MDObject, ix: ConfigIndex) -> list[QueryTable]:
    flags = _attrs(obj.accounting_flags, "accounting_flag")
    out = [_main(obj, ix, flags)] + _tabular_sections(obj)
    ru, en = _table(obj, "ВидыСубконто", W.TABLES["ВидыСубконто"])
    pvh = [t_ref("ChartOfCharacteristicTypes", r.split(".", 1)[-1])
           for r in as_refs(obj.props.get("ext_dimension_types"))][:1]
    fields = STD.tabular_section_fields(obj) + [
        fixed_field("ВидСубконто", *pvh), fixed_field("ТолькоОбороты", M.TypeRef(M.BOOLEAN)),
        fixed_field("Предопределенный", M.TypeRef(M.BOOLEAN))]
    out.append(QueryTable(ru, en, STANDARD_TABULAR_SECTION, [],
                          fields + _attrs(obj.ext_dimension_accounting_flags, "ext_dimension_accounting_flag")))
    return out


def chart_of_calculation_types(obj: M.MDObject, ix: ConfigIndex) -> list[QueryTable]:
    out = [_main(obj, ix)] + _tabular_sections(obj)
    for ts in ("БазовыеВидыРасчета", "ВедущиеВидыРасчета", "ВытесняющиеВидыРасчета"):
        ru, en = _table(obj, ts, W.TABLES[ts])
        out.append(QueryTable(ru, en, STANDARD_TABULAR_SECTION, [], STD.tabular_section_fields(obj) + [
            fixed_field("ВидРасчета", t_ref(obj.cls, obj.name)),
            fixed_field("Предопределенный", M.TypeRef(M.BOOLEAN))]))
    return out


def task(obj: M.MDObject, ix: ConfigIndex) -> list[QueryTable]:
    main = _main(obj, ix, _attrs(obj.addressing_attributes, "addressing_attribute"))
    by_performer = _vt(obj, "ЗадачиПоИсполнителю", _params("Исполнитель", "Условие"), list(main.fields))
    return [main, by_performer] + _tabular_sections(obj)


def business_process(obj: M.MDObject, ix: ConfigIndex) -> list[QueryTable]:
    ru, en = _table(obj, "ТочкиМаршрута", W.TABLES["ТочкиМаршрута"])
    points = QueryTable(ru, en, AUXILIARY, [], [fixed_field(
        "Ссылка", M.TypeRef(M.REF, ref_class="BusinessProcessRoutePointRef", name=obj.name))],
        note="field list not confirmed by the platform documentation")
    return [_main(obj, ix)] + _tabular_sections(obj) + [points]


def journal_columns(obj: M.MDObject, ix: ConfigIndex) -> list[Field]:
    """Columns of a document journal; a column's type is the union of the attributes it maps (§4.7)."""
    columns = []
    for col in obj.columns:
        f = attribute_field(col, "column")
        if f.type.empty:
            members: list[M.TypeRef] = []
            for ref in as_refs(col.props.get("references")):
                a = ix.attribute(ref)
                for t in (a.type.types if a else []):
                    if all(t.key() != m.key() for m in members):
                        members.append(t)
            f.type = M.TypeDescription(members)
        columns.append(f)
    return columns


def document_journal(obj: M.MDObject, ix: ConfigIndex) -> list[QueryTable]:
    ru, en = _table(obj)
    return [QueryTable(ru, en, OBJECT, [], STD.standard_attributes(obj, ix) + journal_columns(obj, ix)
                       + virtual_fields(obj))]


def constant(obj: M.MDObject, ix: ConfigIndex) -> list[QueryTable]:
    ru, en = _table(obj)
    return [QueryTable(ru, en, OBJECT, [], STD.standard_attributes(obj, ix))]


def filter_criterion(obj: M.MDObject, ix: ConfigIndex) -> list[QueryTable]:
    ru, en = _table(obj)
    return [QueryTable(ru, en, VIRTUAL, _params("Значение"), STD.standard_attributes(obj, ix),
                       note="used as КритерийОтбора.X(&Значение), no virtual-table name")]


def sequence(obj: M.MDObject, ix: ConfigIndex) -> list[QueryTable]:
    ru, en = _table(obj)
    fields = STD.standard_attributes(obj, ix) + _attrs(obj.dimensions, "dimension")
    note = "field list not confirmed by the platform documentation"
    return [QueryTable(ru, en, OBJECT, [], fields, note),
            _vt(obj, "Границы", _params("Условие"), list(fields), note)]


def external_data_source(obj: M.MDObject, ix: ConfigIndex) -> list[QueryTable]:
    out = []
    c = W.class_words(obj.cls)
    for t in obj.other_children.get("Table", []):
        fields = [user_field(f.name, getattr(f, "type", None), "field")
                  for f in t.children.get("Field", []) if getattr(f, "name", "")]
        out.append(QueryTable(f"{c.ru}.{obj.name}.Таблица.{t.name}", f"{c.en}.{obj.name}.Table.{t.name}",
                              OBJECT, [], fields))
    for cube in obj.other_children.get("Cube", []):
        for dt in cube.children.get("DimensionTable", []):
            name = getattr(dt, "name", "")
            out.append(QueryTable(f"{c.ru}.{obj.name}.Куб.{cube.name}.ТаблицаИзмерения.{name}",
                                  f"{c.en}.{obj.name}.Cube.{cube.name}.DimensionTable.{name}", OBJECT))
    return out


# -- registers -----------------------------------------------------------------------------------

def _register_main(obj: M.MDObject, ix: ConfigIndex) -> list[Field]:
    """Standard attributes, dimensions, resources, attributes, common attributes (§3.1)."""
    return (STD.standard_attributes(obj, ix) + _attrs(obj.dimensions, "dimension")
            + _attrs(obj.resources, "resource") + _attrs(obj.attributes, "attribute")
            + _common_attributes(obj, ix))


def information_register(obj: M.MDObject, ix: ConfigIndex) -> list[QueryTable]:
    ru, en = _table(obj)
    fields = _register_main(obj, ix)
    out = [QueryTable(ru, en, OBJECT, [], fields)]
    if STD.periodic(obj):   # СрезПервых/СрезПоследних only for periodic registers (§3.3)
        note = ("Регистратор/НомерСтроки/Активность in slices not confirmed by the platform documentation"
                if STD.recorder_subordinate(obj) else "")
        for vt in ("СрезПоследних", "СрезПервых"):
            out.append(_vt(obj, vt, _params("Период", "Условие"), list(fields), note))
    return out


def _in_totals(dims: list[M.Attribute]) -> list[M.Attribute]:
    return [d for d in dims if as_bool(d.props.get("use_in_totals"), True)]


def accumulation_register(obj: M.MDObject, ix: ConfigIndex) -> list[QueryTable]:
    ru, en = _table(obj)
    out = [QueryTable(ru, en, OBJECT, [], _register_main(obj, ix))]
    res = _attrs(obj.resources, "resource")
    totals_dims = _attrs(_in_totals(obj.dimensions), "dimension")
    # Dimensions with UseInTotals off still appear in Обороты (Addendum).
    all_dims = _attrs(obj.dimensions, "dimension")
    period = _period_fields(ix, obj)
    balance = STD.balance_register(obj)
    if balance:
        out.append(_vt(obj, "Остатки", _params("Период", "Условие"),
                       totals_dims + [_suffixed(r, "Остаток") for r in res]))
    turnover_suffixes = ("Приход", "Расход", "Оборот") if balance else ("Оборот",)
    out.append(_vt(obj, "Обороты", _params("НачалоПериода", "КонецПериода", "Периодичность", "Условие"),
                   period + all_dims + [_suffixed(r, s) for r in res for s in turnover_suffixes]))
    if balance:
        out.append(_vt(obj, "ОстаткиИОбороты",
                       _params("НачалоПериода", "КонецПериода", "Периодичность", "МетодДополнения", "Условие"),
                       period + totals_dims + [_suffixed(r, s) for r in res for s in (
                           "НачальныйОстаток", "Приход", "Расход", "Оборот", "КонечныйОстаток")]))
    return out


def _balanced(a: M.Attribute) -> bool:
    return as_bool(a.props.get("balance"))


def _split(items: list[M.Attribute], role: str, corr: bool, dr: str = "Дт", cr: str = "Кт") -> list[Field]:
    """Balanced items as is; non-balance ones as <name>Дт, <name>Кт in correspondence registers."""
    out = []
    for a in items:
        f = attribute_field(a, role)
        if corr and not _balanced(a):
            out += [_suffixed(f, dr, role), _suffixed(f, cr, role)]
        else:
            out.append(f)
    return out


def _account_fields(ix: ConfigIndex, obj: M.MDObject, side: str = "", kinds: bool = False,
                    stem: str = "Счет", sub: str = "Субконто") -> list[Field]:
    return STD.account_fields(obj, ix, side, kinds=kinds, stem=stem, sub=sub, role="generated")


def accounting_register(obj: M.MDObject, ix: ConfigIndex) -> list[QueryTable]:
    corr = STD.correspondence(obj)
    ru, en = _table(obj)
    dims_main = _split(obj.dimensions, "dimension", corr)
    res_main = _split(obj.resources, "resource", corr)
    attrs = _attrs(obj.attributes, "attribute")
    std = STD.standard_attributes(obj, ix)
    out = [QueryTable(ru, en, OBJECT, [], std + dims_main + res_main + attrs + _common_attributes(obj, ix))]
    dims = _attrs(obj.dimensions, "dimension")
    res = _attrs(obj.resources, "resource")
    period = _period_fields(ix, obj)
    adjust = [f for f in std if f.ru == "УточнениеПериода"]

    # Остатки (§3.4)
    out.append(_vt(obj, "Остатки", _params("Период", "УсловиеСчета", "Субконто", "Условие"),
                   _account_fields(ix, obj) + dims + [
                       _suffixed(r, s) for r in res for s in (
                           "Остаток", "ОстатокДт", "ОстатокКт", "РазвернутыйОстатокДт", "РазвернутыйОстатокКт")]))
    # Обороты: correspondence adds Кор… parameters and fields (§3.4, Addendum)
    params = ["НачалоПериода", "КонецПериода", "Периодичность", "УсловиеСчета", "Субконто", "Условие"]
    fields = _account_fields(ix, obj)
    if corr:
        params += ["УсловиеКорСчета", "КорСубконто"]
        fields += _account_fields(ix, obj, stem="КорСчет", sub="КорСубконто")
    for d, a in zip(dims, obj.dimensions):
        fields.append(d)
        if corr and not _balanced(a):
            fields.append(_suffixed(d, "Кор"))
    for r, a in zip(res, obj.resources):
        fields += [_suffixed(r, s) for s in ("Оборот", "ОборотДт", "ОборотКт")]
        if corr and not _balanced(a):
            fields += [_suffixed(r, s) for s in ("КорОборот", "КорОборотДт", "КорОборотКт")]
    note = "dimension suffix Кор taken from a third-party model, not from the platform documentation" if corr else ""
    out.append(_vt(obj, "Обороты", _params(*params), period + adjust + fields, note))
    # ОстаткиИОбороты
    out.append(_vt(obj, "ОстаткиИОбороты",
                   _params("НачалоПериода", "КонецПериода", "Периодичность", "МетодДополнения",
                           "УсловиеСчета", "Субконто", "Условие"),
                   period + adjust + _account_fields(ix, obj) + dims + [_suffixed(r, s) for r in res for s in (
                       "НачальныйОстаток", "НачальныйОстатокДт", "НачальныйОстатокКт",
                       "НачальныйРазвернутыйОстатокДт", "НачальныйРазвернутыйОстатокКт",
                       "Оборот", "ОборотДт", "ОборотКт", "КонечныйОстаток", "КонечныйОстатокДт",
                       "КонечныйОстатокКт", "КонечныйРазвернутыйОстатокДт", "КонечныйРазвернутыйОстатокКт")]))
    # ОборотыДтКт: only with correspondence
    if corr:
        fields = _account_fields(ix, obj, "Дт") + _account_fields(ix, obj, "Кт")
        fields += _split(obj.dimensions, "dimension", True)
        for r, a in zip(res, obj.resources):
            fields += ([_suffixed(r, "Оборот")] if _balanced(a)
                       else [_suffixed(r, "ОборотДт"), _suffixed(r, "ОборотКт")])
        out.append(_vt(obj, "ОборотыДтКт",
                       _params("НачалоПериода", "КонецПериода", "Периодичность", "УсловиеСчетаДт",
                               "СубконтоДт", "УсловиеСчетаКт", "СубконтоКт", "Условие"), period + fields))
    # ДвиженияССубконто
    head = [f for f in std if f.ru in ("Период", "Регистратор", "НомерСтроки", "Активность")]
    if corr:
        acc = _account_fields(ix, obj, "Дт", kinds=True) + _account_fields(ix, obj, "Кт", kinds=True)
    else:
        acc = ([f for f in std if f.ru == "ВидДвижения"] + _account_fields(ix, obj, kinds=True))
    out.append(_vt(obj, "ДвиженияССубконто",
                   _params("НачалоПериода", "КонецПериода", "Условие", "Порядок", "Первые"),
                   head + acc + dims_main + res_main + attrs + adjust))
    # Субконто: the real table of ext-dimension values
    ru_s, en_s = _table(obj, "Субконто", W.TABLES["Субконто"])
    recorder = next((f for f in std if f.ru == "Регистратор"), None)
    _, _, pvh = ix.chart_of_accounts(obj)
    period_field = next((f for f in std if f.ru == "Период"), None)
    sub_fields = ([period_field] if period_field else []) + ([recorder] if recorder else []) + [
        fixed_field("НомерСтроки", t_number()),
        fixed_field("ВидДвижения", M.TypeRef(M.PLATFORM, name="AccountingRecordType")),
        fixed_field("Вид", *([t_ref("ChartOfCharacteristicTypes", pvh)] if pvh else [])),
        fixed_field("Значение", *([M.TypeRef(M.CHARACTERISTIC, name=pvh)] if pvh else []))] + adjust
    out.append(QueryTable(ru_s, en_s, AUXILIARY, [], sub_fields,
                          note="field list not confirmed by the platform documentation"))
    return out


def _base_registers(obj: M.MDObject, ix: ConfigIndex) -> list[M.MDObject]:
    """Registers whose chart of calculation types supplies base types to this register's chart."""
    charts = as_refs(obj.props.get("chart_of_calculation_types"))
    chart = ix.get(charts[0]) if charts else None
    if chart is None:
        return []
    bases = set(as_refs(chart.props.get("base_calculation_types")))
    return [r for r in ix.by_class.get("CalculationRegister", [])
            if set(as_refs(r.props.get("chart_of_calculation_types"))) & bases]


def calculation_register(obj: M.MDObject, ix: ConfigIndex) -> list[QueryTable]:
    ru, en = _table(obj)
    dims = _attrs(obj.dimensions, "dimension")
    main = _register_main(obj, ix)
    out = [QueryTable(ru, en, OBJECT, [], main)]
    if as_bool(obj.props.get("action_period")):
        names = ("Регистратор", "НомерСтроки", "ВидРасчета", "ПериодРегистрации", "ПериодДействия",
                 "ПериодДействияНачало", "ПериодДействияКонец")
        # The register's attributes too: production queries read them from this table (ERP Начисления).
        fields = [f for n in names for f in main if f.ru == n] + dims + _attrs(obj.attributes, "attribute")
        out.append(_vt(obj, "ФактическийПериодДействия", _params("Условие"), fields,
                       "field list not confirmed by the platform documentation"))
        sched = ix.get(next(iter(as_refs(obj.props.get("schedule"))), ""))
        if sched is not None:
            extra = [_suffixed(r, s) for r in _attrs(sched.resources, "resource") for s in (
                "ПериодДействия", "ФактическийПериодДействия", "ПериодРегистрации", "БазовыйПериод")]
            out.append(_vt(obj, "ДанныеГрафика", _params("Условие"), list(main) + extra,
                           "suffix set partly not confirmed by the platform documentation"))
    if as_bool(obj.props.get("base_period")):
        for base in _base_registers(obj, ix):
            extra = [_suffixed(r, "База") for r in _attrs(base.resources, "resource")]
            vt_ru, vt_en = "База" + base.name, "Base" + base.name
            t_ru, t_en = _table(obj, vt_ru, vt_en)
            out.append(QueryTable(t_ru, t_en, VIRTUAL, _params(
                "ИзмеренияОсновногоРегистра", "ИзмеренияБазовогоРегистра", "Разрезы", "Условие"),
                list(main) + extra))
    for rc in obj.recalculations:
        t_ru, t_en = _table(obj, rc.name)
        by_name = {f.ru: f for f in main}
        # ОбъектПерерасчета is the recorder whose records need recalculating.
        target = fixed_field("ОбъектПерерасчета", *by_name["Регистратор"].type.types)
        fields = [target] + ([by_name["ВидРасчета"]] if "ВидРасчета" in by_name else [])
        out.append(QueryTable(t_ru, t_en, RECALCULATION, [], fields,
                              note="field list not confirmed by the platform documentation"))
    return out


# -- change tables of exchange plans -------------------------------------------------------------

def changes_table(obj: M.MDObject, ix: ConfigIndex, main: QueryTable | None) -> QueryTable | None:
    """``<Table>.Изменения`` for an object included in some exchange plan (§3.1)."""
    plans = ix.exchange_plans_of.get(obj.full_name)
    if not plans:
        return None
    node = fixed_field("Узел", *(t_ref("ExchangePlan", p) for p in plans))
    fields = [node, fixed_field("НомерСообщения", t_number())]
    if main is not None:
        keys: list[str]
        if obj.cls == "Constant":
            keys = []
        elif obj.cls == "InformationRegister" and not STD.recorder_subordinate(obj):
            keys = ["Период"] + [d.name for d in obj.dimensions]
        elif obj.cls.endswith("Register") or obj.cls == "Sequence":
            keys = ["Регистратор"]
        else:
            keys = ["Ссылка"]
        fields += [f for k in keys for f in main.fields if f.ru == k]
    ru, en = _table(obj, "Изменения", W.TABLES["Изменения"])
    return QueryTable(ru, en, CHANGES, [], fields,
                      note="Узел and НомерСообщения confirmed; the other key fields not confirmed by the platform documentation")


RULES: dict[str, Callable[[M.MDObject, ConfigIndex], list[QueryTable]]] = {
    "Catalog": reference_object, "Document": reference_object, "Enum": reference_object,
    "ExchangePlan": reference_object, "ChartOfCharacteristicTypes": reference_object,
    "ChartOfAccounts": chart_of_accounts, "ChartOfCalculationTypes": chart_of_calculation_types,
    "BusinessProcess": business_process, "Task": task, "DocumentJournal": document_journal,
    "Constant": constant, "FilterCriterion": filter_criterion, "Sequence": sequence,
    "ExternalDataSource": external_data_source, "InformationRegister": information_register,
    "AccumulationRegister": accumulation_register, "AccountingRegister": accounting_register,
    "CalculationRegister": calculation_register,
}


def query_tables(obj: M.MDObject, ix: ConfigIndex) -> list[QueryTable]:
    rule = RULES.get(obj.cls)
    if rule is None:
        return []
    tables = rule(obj, ix)
    changes = changes_table(obj, ix, tables[0] if tables and tables[0].kind == OBJECT else None)
    return tables + ([changes] if changes else [])
