"""Standard attributes of each class with their real conditions and types (domain-1c.md §2).

``standard_attributes(obj, index)`` lists the fields the platform adds to an object of that
class: Владелец only with owners, Родитель/ЭтоГруппа only with a hierarchy, ВидДвижения only
for balance accumulation registers, Период/Регистратор/НомерСтроки/Активность by register kind
and write mode, Счет/Субконто by correspondence, … Each is a ``Field`` with both names.
"""
from __future__ import annotations

from collections.abc import Callable

from . import model as M
from .confindex import ConfigIndex, as_bool, as_int, as_refs
from .fields import (Field, fixed_field, t_bool, t_datetime, t_number, t_platform, t_ref, t_string)


def _code(obj: M.MDObject, prop: str = "code") -> list[M.TypeRef]:
    """Код/Номер type: Строка(len[, fixed]) or Число(len,0) (§2.1)."""
    length = as_int(obj.props.get(f"{prop}_length"))
    if str(obj.props.get(f"{prop}_type") or "String") == "Number":
        return [t_number(length, 0)]
    return [t_string(length, str(obj.props.get(f"{prop}_allowed_length") or "") == "Fixed")]


def _refs(cls: str, names: list[str]) -> list[M.TypeRef]:
    return [t_ref(cls, n) for n in names]


def _head(obj: M.MDObject) -> list[Field]:
    """Ссылка, ВерсияДанных, ПометкаУдаления of every reference table (§2.2). ВерсияДанных is a
    string whose length dumps never state; production code selects and compares it."""
    return [fixed_field("Ссылка", t_ref(obj.cls, obj.name)), fixed_field("ВерсияДанных", t_string(None)),
            fixed_field("ПометкаУдаления", t_bool())]


def _catalog_like(obj: M.MDObject, *, owners: bool, hierarchy: bool) -> list[Field]:
    """Ссылка, ВерсияДанных, ПометкаУдаления, Код, Наименование [, Владелец] [, Родитель, ЭтоГруппа]."""
    out = _head(obj)
    if as_int(obj.props.get("code_length")) > 0:
        out.append(fixed_field("Код", *_code(obj)))
    if as_int(obj.props.get("description_length")) > 0:
        out.append(fixed_field("Наименование", t_string(as_int(obj.props.get("description_length")))))
    if owners:
        owner_refs = [r.split(".", 1) for r in as_refs(obj.props.get("owners")) if "." in r]
        if owner_refs:
            out.append(fixed_field("Владелец", *(t_ref(c, n) for c, n in owner_refs)))
    if hierarchy and as_bool(obj.props.get("hierarchical")):
        out.append(fixed_field("Родитель", t_ref(obj.cls, obj.name)))
        out.append(fixed_field("ЭтоГруппа", t_bool()))
    return out


def _predefined() -> list[Field]:
    # ИмяПредопределенныхДанных: a string of unstated length, yet comparable — production code
    # compares it in WHERE (§2.1), so it is not an unlimited string and gets no ПОДСТРОКА recipe.
    return [fixed_field("Предопределенный", t_bool()),
            fixed_field("ИмяПредопределенныхДанных", t_string(None))]


def _dated(obj: M.MDObject) -> list[Field]:
    """Ссылка, ВерсияДанных, ПометкаУдаления, Дата, Номер (when NumberLength > 0)."""
    out = _head(obj) + [fixed_field("Дата", t_datetime())]
    if as_int(obj.props.get("number_length")) > 0:
        out.append(fixed_field("Номер", *_code(obj, "number")))
    return out


def _recorder(ix: ConfigIndex, register: str) -> Field:
    return fixed_field("Регистратор", *_refs("Document", ix.recorders.get(register, [])))


def _register_head(obj: M.MDObject, ix: ConfigIndex) -> list[Field]:
    return [fixed_field("Период", t_datetime()), _recorder(ix, obj.full_name),
            fixed_field("НомерСтроки", t_number()), fixed_field("Активность", t_bool())]


def catalog(obj: M.MDObject, ix: ConfigIndex) -> list[Field]:
    return _catalog_like(obj, owners=True, hierarchy=True) + _predefined()


def document(obj: M.MDObject, ix: ConfigIndex) -> list[Field]:
    return _dated(obj) + [fixed_field("Проведен", t_bool())]


def document_journal(obj: M.MDObject, ix: ConfigIndex) -> list[Field]:
    docs = [r.split(".", 1)[1] for r in as_refs(obj.props.get("registered_documents"))
            if r.startswith("Document.")]
    number: list[M.TypeRef] = []
    for d in docs:
        o = ix.get("Document." + d)
        if o is not None and as_int(o.props.get("number_length")) > 0:
            for t in _code(o, "number"):
                if all(t.key() != n.key() for n in number):
                    number.append(t)
    return [fixed_field("Ссылка", *_refs("Document", docs)), fixed_field("ПометкаУдаления", t_bool()),
            fixed_field("Дата", t_datetime()), fixed_field("Номер", *number),
            fixed_field("Проведен", t_bool()), fixed_field("Тип", t_platform("Type"))]


def enum(obj: M.MDObject, ix: ConfigIndex) -> list[Field]:
    return [fixed_field("Ссылка", t_ref(obj.cls, obj.name)), fixed_field("Порядок", t_number())]


def chart_of_characteristic_types(obj: M.MDObject, ix: ConfigIndex) -> list[Field]:
    return (_catalog_like(obj, owners=False, hierarchy=True)
            + [fixed_field("ТипЗначения", t_platform("TypeDescription"))] + _predefined())


def chart_of_accounts(obj: M.MDObject, ix: ConfigIndex) -> list[Field]:
    # Accounts are always hierarchical (subaccounts): Родитель without a condition (§2.2).
    out = _catalog_like(obj, owners=False, hierarchy=False)
    out.append(fixed_field("Родитель", t_ref(obj.cls, obj.name)))
    if as_int(obj.props.get("order_length")) > 0:
        out.append(fixed_field("Порядок", t_string(as_int(obj.props.get("order_length")))))
    out += [fixed_field("Вид", t_platform("AccountType")), fixed_field("Забалансовый", t_bool())]
    return out + _predefined()


def chart_of_calculation_types(obj: M.MDObject, ix: ConfigIndex) -> list[Field]:
    return (_catalog_like(obj, owners=False, hierarchy=False)
            + [fixed_field("ПериодДействияБазовый", t_bool())] + _predefined())


def exchange_plan(obj: M.MDObject, ix: ConfigIndex) -> list[Field]:
    return _catalog_like(obj, owners=False, hierarchy=False) + [
        fixed_field("ЭтотУзел", t_bool()), fixed_field("НомерОтправленного", t_number()),
        fixed_field("НомерПринятого", t_number()),
        fixed_field("ДатаОбмена", t_datetime(), unverified=True)]


def business_process(obj: M.MDObject, ix: ConfigIndex) -> list[Field]:
    # ВедущаяЗадача: any task (domain-1c.md §2.1; mdclasses types it as the process's own task).
    return _dated(obj) + [fixed_field("Стартован", t_bool()), fixed_field("Завершен", t_bool()),
                          fixed_field("ВедущаяЗадача", M.TypeRef(M.REF_SET, ref_class="TaskRef"))]


def task(obj: M.MDObject, ix: ConfigIndex) -> list[Field]:
    out = _dated(obj)
    if as_int(obj.props.get("description_length")) > 0:
        out.append(fixed_field("Наименование", t_string(as_int(obj.props.get("description_length")))))
    processes = ix.processes_of_task.get(obj.full_name, [])
    out += [fixed_field("Выполнена", t_bool()),
            fixed_field("БизнесПроцесс", *_refs("BusinessProcess", processes)),
            fixed_field("ТочкаМаршрута", *(M.TypeRef(M.REF, ref_class="BusinessProcessRoutePointRef", name=p)
                                           for p in processes))]
    return out


def information_register(obj: M.MDObject, ix: ConfigIndex) -> list[Field]:
    out = []
    if periodic(obj):
        out.append(fixed_field("Период", t_datetime()))
    if recorder_subordinate(obj):
        out += [_recorder(ix, obj.full_name), fixed_field("НомерСтроки", t_number()),
                fixed_field("Активность", t_bool())]
    return out


def accumulation_register(obj: M.MDObject, ix: ConfigIndex) -> list[Field]:
    out = _register_head(obj, ix)
    if balance_register(obj):
        out.append(fixed_field("ВидДвижения", t_platform("AccumulationRecordType")))
    return out


def account_fields(obj: M.MDObject, ix: ConfigIndex, side: str = "", *, kinds: bool = False,
                   stem: str = "Счет", sub: str = "Субконто", role: str = "standard") -> list[Field]:
    """Счет<side>, Субконто<side>1..N [, ВидСубконто<side>1..N] of an accounting register; N and
    the ext-dimension chart come from its chart of accounts (§3.4)."""
    chart, n, pvh = ix.chart_of_accounts(obj)
    acc = [t_ref("ChartOfAccounts", chart)] if chart else []
    val = [M.TypeRef(M.CHARACTERISTIC, name=pvh)] if pvh else []
    kind = [t_ref("ChartOfCharacteristicTypes", pvh)] if pvh else []
    out = [fixed_field(stem + side, *acc, role=role)]
    out += [fixed_field(f"{sub}{side}{i}", *val, role=role) for i in range(1, n + 1)]
    if kinds:
        out += [fixed_field(f"ВидСубконто{side}{i}", *kind, role=role, unverified=role == "standard")
                for i in range(1, n + 1)]
    return out


def accounting_account_fields(obj: M.MDObject, ix: ConfigIndex) -> list[Field]:
    """The main table's account fields: Счет…, then Субконто…, then ВидСубконто… (Дт before Кт)."""
    sides = ("Дт", "Кт") if correspondence(obj) else ("",)
    fields = [f for side in sides for f in account_fields(obj, ix, side, kinds=True)]
    group = {"Счет": 0, "Субконто": 1, "ВидСубконто": 2}
    return sorted(fields, key=lambda f: group[f.ru.rstrip("0123456789").removesuffix("Дт").removesuffix("Кт")])


def accounting_register(obj: M.MDObject, ix: ConfigIndex) -> list[Field]:
    out = _register_head(obj, ix)
    if not correspondence(obj):
        out.append(fixed_field("ВидДвижения", t_platform("AccountingRecordType")))
    out += accounting_account_fields(obj, ix)
    if as_int(obj.props.get("period_adjustment_length")) > 0:
        out.append(fixed_field("УточнениеПериода", t_number()))
    return out


def calculation_register(obj: M.MDObject, ix: ConfigIndex) -> list[Field]:
    charts = as_refs(obj.props.get("chart_of_calculation_types"))
    kind = [t_ref("ChartOfCalculationTypes", charts[0].split(".", 1)[-1])] if charts else []
    out = [_recorder(ix, obj.full_name), fixed_field("НомерСтроки", t_number()),
           fixed_field("Активность", t_bool()), fixed_field("ПериодРегистрации", t_datetime()),
           fixed_field("ВидРасчета", *kind), fixed_field("Сторно", t_bool())]
    if as_bool(obj.props.get("action_period")):
        out += [fixed_field(n, t_datetime()) for n in ("ПериодДействия", "ПериодДействияНачало",
                                                       "ПериодДействияКонец")]
    if as_bool(obj.props.get("base_period")):
        out += [fixed_field(n, t_datetime()) for n in ("БазовыйПериодНачало", "БазовыйПериодКонец")]
    return out


def sequence(obj: M.MDObject, ix: ConfigIndex) -> list[Field]:
    return [fixed_field("Период", t_datetime(), unverified=True),
            fixed_field("Регистратор", *_refs("Document", ix.sequence_docs.get(obj.full_name, [])),
                        unverified=True)]


def constant(obj: M.MDObject, ix: ConfigIndex) -> list[Field]:
    td = obj.props.get("type")
    f = fixed_field("Значение")
    if isinstance(td, M.TypeDescription):
        f.type = td
    return [f]


def filter_criterion(obj: M.MDObject, ix: ConfigIndex) -> list[Field]:
    owners = list(dict.fromkeys(".".join(r.split(".")[:2]) for r in as_refs(obj.props.get("content"))))
    return [fixed_field("Ссылка", *(t_ref(*o.split(".", 1)) for o in owners if "." in o))]


RULES: dict[str, Callable[[M.MDObject, ConfigIndex], list[Field]]] = {
    "Catalog": catalog, "Document": document, "DocumentJournal": document_journal, "Enum": enum,
    "ChartOfCharacteristicTypes": chart_of_characteristic_types, "ChartOfAccounts": chart_of_accounts,
    "ChartOfCalculationTypes": chart_of_calculation_types, "ExchangePlan": exchange_plan,
    "BusinessProcess": business_process, "Task": task, "InformationRegister": information_register,
    "AccumulationRegister": accumulation_register, "AccountingRegister": accounting_register,
    "CalculationRegister": calculation_register, "Sequence": sequence, "Constant": constant,
    "FilterCriterion": filter_criterion,
}


def standard_attributes(obj: M.MDObject, ix: ConfigIndex) -> list[Field]:
    """The standard attributes of ``obj``; classes without any give an empty list."""
    rule = RULES.get(obj.cls)
    if rule is None:
        return []
    fields = rule(obj, ix)
    for f in fields:   # settings the source states (synonym, comment) for a standard attribute
        over = obj.standard_attributes.get(f.en) or {}
        syn = over.get("synonym")
        if isinstance(syn, dict):
            f.synonym = pick_synonym(syn, ix.cfg)
        elif isinstance(syn, str):
            f.synonym = syn
        f.comment = str(over.get("comment") or "")
    return fields


def tabular_section_fields(owner: M.MDObject) -> list[Field]:
    """Ссылка (the owner's ref) and НомерСтроки of every tabular section (§2.2)."""
    return [fixed_field("Ссылка", t_ref(owner.cls, owner.name)), fixed_field("НомерСтроки", t_number())]


# -- class predicates used by the query tables too ------------------------------------------

def periodic(obj: M.MDObject) -> bool:
    return str(obj.props.get("periodicity") or "Nonperiodical") != "Nonperiodical"


def recorder_subordinate(obj: M.MDObject) -> bool:
    return str(obj.props.get("write_mode") or "Independent") == "RecorderSubordinate"


def balance_register(obj: M.MDObject) -> bool:
    return str(obj.props.get("register_type") or "Balance") == "Balance"


def correspondence(obj: M.MDObject) -> bool:
    return as_bool(obj.props.get("correspondence"))


def pick_synonym(synonyms: dict[str, str], cfg: M.Configuration) -> str:
    """The synonym in the configuration's default language, else Russian, else the first."""
    code = ""
    for lang_obj in cfg.languages:
        if lang_obj.name == cfg.default_language:
            code = str(lang_obj.props.get("language_code") or "")
    for k in (code, "ru", "en"):
        if k and synonyms.get(k):
            return synonyms[k]
    return next(iter(synonyms.values()), "")

