"""Query tables and standard attributes on hand-built models, checked against domain-1c.md §2–3."""
from __future__ import annotations

from v8atlas.compiler.config import model as M
from v8atlas.compiler.config.confindex import ConfigIndex
from v8atlas.compiler.config.fields import recipe, recipe_length, render_type
from v8atlas.compiler.config.query_tables import query_tables
from v8atlas.compiler.config.standard import standard_attributes


def S(n: int = 0) -> M.TypeDescription:
    return M.TypeDescription([M.TypeRef(M.STRING, length=n)])


def N(d: int = 15, f: int = 2, nonneg: bool = False) -> M.TypeDescription:
    return M.TypeDescription([M.TypeRef(M.NUMBER, digits=d, fraction=f, nonnegative=nonneg)])


def R(cls: str, name: str) -> M.TypeDescription:
    return M.TypeDescription([M.TypeRef(M.REF, ref_class=cls + "Ref", name=name)])


def A(name: str, td: M.TypeDescription | None = None, **props) -> M.Attribute:
    return M.Attribute(name, type=td or N(), props=props)


def tables(cfg: M.Configuration, cls: str, name: str) -> dict[str, list[str]]:
    """Field names by table, without the virtual fields (tested on their own)."""
    ix = ConfigIndex(cfg)
    return {t.ru: [f.ru for f in t.fields if f.role != "virtual"] for t in query_tables(cfg.find(cls, name), ix)}


def table(cfg: M.Configuration, cls: str, name: str, table_ru: str):
    ix = ConfigIndex(cfg)
    return next(t for t in query_tables(cfg.find(cls, name), ix) if t.ru == table_ru)


def std_names(cfg: M.Configuration, cls: str, name: str) -> list[str]:
    return [f.ru for f in standard_attributes(cfg.find(cls, name), ConfigIndex(cfg))]


PERIOD_FIELDS = ["Период", "Регистратор", "НомерСтроки", "ПериодСекунда", "ПериодМинута", "ПериодЧас",
                 "ПериодДень", "ПериодНеделя", "ПериодДекада", "ПериодМесяц", "ПериодКвартал",
                 "ПериодПолугодие", "ПериодГод"]


# -- standard attributes: real conditions (§2.2) ------------------------------------------------

def test_catalog_owner_hierarchy_code_description_conditions():
    plain = M.MDObject("Catalog", "Простой", props={"code_length": 0, "description_length": 25})
    full = M.MDObject("Catalog", "Полный", props={"code_length": 9, "description_length": 100,
                                                  "hierarchical": True, "owners": ["Catalog.Простой"]})
    cfg = M.Configuration("C", objects=[plain, full])
    assert std_names(cfg, "Catalog", "Простой") == [
        "Ссылка", "ВерсияДанных", "ПометкаУдаления", "Наименование", "Предопределенный", "ИмяПредопределенныхДанных"]
    assert std_names(cfg, "Catalog", "Полный") == [
        "Ссылка", "ВерсияДанных", "ПометкаУдаления", "Код", "Наименование", "Владелец", "Родитель", "ЭтоГруппа",
        "Предопределенный", "ИмяПредопределенныхДанных"]
    owner = next(f for f in standard_attributes(full, ConfigIndex(cfg)) if f.ru == "Владелец")
    assert render_type(owner.type, "ru") == ("СправочникСсылка.Простой", None)
    assert owner.en == "Owner"


def test_catalog_with_two_owners_has_composite_owner_and_numeric_code():
    c = M.MDObject("Catalog", "Договоры", props={"code_length": 5, "code_type": "Number",
                                                 "owners": ["Catalog.А", "Catalog.Б"]})
    cfg = M.Configuration("C", objects=[c, M.MDObject("Catalog", "А"), M.MDObject("Catalog", "Б")])
    std = {f.ru: f for f in standard_attributes(c, ConfigIndex(cfg))}
    assert render_type(std["Владелец"].type, "ru") == (
        "Составной (2)", ["СправочникСсылка.А", "СправочникСсылка.Б"])
    assert render_type(std["Код"].type, "ru") == ("Число(5,0)", None)


def test_information_register_fields_by_periodicity_and_write_mode():
    plain = M.MDObject("InformationRegister", "Курсы0", props={"periodicity": "Nonperiodical"},
                       dimensions=[A("Валюта", S(3))], resources=[A("Курс")])
    periodic = M.MDObject("InformationRegister", "Курсы", props={"periodicity": "Day"},
                          dimensions=[A("Валюта", S(3))], resources=[A("Курс")])
    sub = M.MDObject("InformationRegister", "Цены", props={"periodicity": "Month",
                                                          "write_mode": "RecorderSubordinate"},
                     dimensions=[A("Товар", S(10))], resources=[A("Цена")])
    doc = M.MDObject("Document", "Установка", props={"register_records": ["InformationRegister.Цены"]})
    cfg = M.Configuration("C", objects=[plain, periodic, sub, doc])
    assert tables(cfg, "InformationRegister", "Курсы0") == {"РегистрСведений.Курсы0": ["Валюта", "Курс"]}
    t = tables(cfg, "InformationRegister", "Курсы")
    assert list(t) == ["РегистрСведений.Курсы", "РегистрСведений.Курсы.СрезПоследних",
                       "РегистрСведений.Курсы.СрезПервых"]
    assert t["РегистрСведений.Курсы.СрезПоследних"] == ["Период", "Валюта", "Курс"]
    slice_last = table(cfg, "InformationRegister", "Курсы", "РегистрСведений.Курсы.СрезПоследних")
    assert slice_last.en == "InformationRegister.Курсы.SliceLast"
    assert slice_last.params == [("Период", "Period"), ("Условие", "Condition")]
    assert tables(cfg, "InformationRegister", "Цены")["РегистрСведений.Цены"] == [
        "Период", "Регистратор", "НомерСтроки", "Активность", "Товар", "Цена"]
    rec = table(cfg, "InformationRegister", "Цены", "РегистрСведений.Цены").fields[1]
    assert render_type(rec.type, "ru") == ("ДокументСсылка.Установка", None)


def test_accumulation_balance_register_virtual_tables():
    reg = M.MDObject("AccumulationRegister", "ТоварыНаСкладах", props={"register_type": "Balance"},
                     dimensions=[A("Склад", S(9)), A("Номенклатура", S(9)),
                                 A("Партия", S(9), use_in_totals=False)],
                     resources=[A("Количество")], attributes=[A("Комментарий", S(0))])
    cfg = M.Configuration("C", objects=[reg])
    t = tables(cfg, "AccumulationRegister", "ТоварыНаСкладах")
    assert list(t) == ["РегистрНакопления.ТоварыНаСкладах", "РегистрНакопления.ТоварыНаСкладах.Остатки",
                       "РегистрНакопления.ТоварыНаСкладах.Обороты",
                       "РегистрНакопления.ТоварыНаСкладах.ОстаткиИОбороты"]
    assert t["РегистрНакопления.ТоварыНаСкладах"] == [
        "Период", "Регистратор", "НомерСтроки", "Активность", "ВидДвижения", "Склад", "Номенклатура",
        "Партия", "Количество", "Комментарий"]
    # UseInTotals=false dimensions are not in Остатки / ОстаткиИОбороты, but stay in Обороты (Addendum)
    assert t["РегистрНакопления.ТоварыНаСкладах.Остатки"] == ["Склад", "Номенклатура", "КоличествоОстаток"]
    assert t["РегистрНакопления.ТоварыНаСкладах.Обороты"] == PERIOD_FIELDS + [
        "Склад", "Номенклатура", "Партия", "КоличествоПриход", "КоличествоРасход", "КоличествоОборот"]
    assert t["РегистрНакопления.ТоварыНаСкладах.ОстаткиИОбороты"] == PERIOD_FIELDS + [
        "Склад", "Номенклатура", "КоличествоНачальныйОстаток", "КоличествоПриход", "КоличествоРасход",
        "КоличествоОборот", "КоличествоКонечныйОстаток"]
    bt = table(cfg, "AccumulationRegister", "ТоварыНаСкладах",
               "РегистрНакопления.ТоварыНаСкладах.ОстаткиИОбороты")
    assert [p[0] for p in bt.params] == ["НачалоПериода", "КонецПериода", "Периодичность", "МетодДополнения",
                                         "Условие"]
    assert bt.en == "AccumulationRegister.ТоварыНаСкладах.BalanceAndTurnovers"
    assert "КоличествоClosingBalance" in [f.en for f in bt.fields]


def test_accumulation_turnover_register_has_only_turnovers_and_no_record_type():
    reg = M.MDObject("AccumulationRegister", "Продажи", props={"register_type": "Turnovers"},
                     dimensions=[A("Товар", S(9))], resources=[A("Сумма")])
    t = tables(M.Configuration("C", objects=[reg]), "AccumulationRegister", "Продажи")
    assert list(t) == ["РегистрНакопления.Продажи", "РегистрНакопления.Продажи.Обороты"]
    assert "ВидДвижения" not in t["РегистрНакопления.Продажи"]
    assert t["РегистрНакопления.Продажи.Обороты"][-2:] == ["Товар", "СуммаОборот"]


def _accounting_config(correspondence: bool) -> M.Configuration:
    """The worked example of domain-1c.md §3.4 (Хозрасчетный, N = 3)."""
    chart = M.MDObject("ChartOfAccounts", "Хозрасчетный", props={
        "max_ext_dimension_count": 3, "ext_dimension_types": "ChartOfCharacteristicTypes.ВидыСубконто",
        "code_length": 8, "description_length": 120, "order_length": 5})
    pvh = M.MDObject("ChartOfCharacteristicTypes", "ВидыСубконто")
    reg = M.MDObject("AccountingRegister", "Хозрасчетный", props={
        "chart_of_accounts": "ChartOfAccounts.Хозрасчетный", "correspondence": correspondence,
        "period_adjustment_length": 0},
        dimensions=[A("Организация", S(9), balance=True), A("Валюта", S(3), balance=False)],
        resources=[A("Сумма", balance=True), A("ВалютнаяСумма", balance=False)],
        attributes=[A("Содержание", S(150))])
    return M.Configuration("C", objects=[pvh, chart, reg])


def test_accounting_register_with_correspondence():
    cfg = _accounting_config(True)
    t = tables(cfg, "AccountingRegister", "Хозрасчетный")
    assert t["РегистрБухгалтерии.Хозрасчетный"] == [
        "Период", "Регистратор", "НомерСтроки", "Активность", "СчетДт", "СчетКт",
        "СубконтоДт1", "СубконтоДт2", "СубконтоДт3", "СубконтоКт1", "СубконтоКт2", "СубконтоКт3",
        "ВидСубконтоДт1", "ВидСубконтоДт2", "ВидСубконтоДт3", "ВидСубконтоКт1", "ВидСубконтоКт2",
        "ВидСубконтоКт3", "Организация", "ВалютаДт", "ВалютаКт", "Сумма", "ВалютнаяСуммаДт",
        "ВалютнаяСуммаКт", "Содержание"]
    assert t["РегистрБухгалтерии.Хозрасчетный.Остатки"] == [
        "Счет", "Субконто1", "Субконто2", "Субконто3", "Организация", "Валюта",
        "СуммаОстаток", "СуммаОстатокДт", "СуммаОстатокКт", "СуммаРазвернутыйОстатокДт",
        "СуммаРазвернутыйОстатокКт", "ВалютнаяСуммаОстаток", "ВалютнаяСуммаОстатокДт",
        "ВалютнаяСуммаОстатокКт", "ВалютнаяСуммаРазвернутыйОстатокДт", "ВалютнаяСуммаРазвернутыйОстатокКт"]
    assert t["РегистрБухгалтерии.Хозрасчетный.ОборотыДтКт"] == PERIOD_FIELDS + [
        "СчетДт", "СубконтоДт1", "СубконтоДт2", "СубконтоДт3", "СчетКт", "СубконтоКт1", "СубконтоКт2",
        "СубконтоКт3", "Организация", "ВалютаДт", "ВалютаКт", "СуммаОборот", "ВалютнаяСуммаОборотДт",
        "ВалютнаяСуммаОборотКт"]
    turnovers = t["РегистрБухгалтерии.Хозрасчетный.Обороты"]
    for name in ("КорСчет", "КорСубконто1", "ВалютаКор", "ВалютнаяСуммаКорОборотДт", "СуммаОборотДт"):
        assert name in turnovers
    assert "СуммаКорОборот" not in turnovers        # balanced resources have no Кор… turnovers
    with_ext = t["РегистрБухгалтерии.Хозрасчетный.ДвиженияССубконто"]
    assert with_ext[:5] == ["Период", "Регистратор", "НомерСтроки", "Активность", "СчетДт"]
    assert "ВидСубконтоКт3" in with_ext and "ВалютнаяСуммаКт" in with_ext and "Содержание" in with_ext
    ob = table(cfg, "AccountingRegister", "Хозрасчетный", "РегистрБухгалтерии.Хозрасчетный.Обороты")
    assert [p[0] for p in ob.params] == ["НачалоПериода", "КонецПериода", "Периодичность", "УсловиеСчета",
                                         "Субконто", "Условие", "УсловиеКорСчета", "КорСубконто"]
    bt = table(cfg, "AccountingRegister", "Хозрасчетный", "РегистрБухгалтерии.Хозрасчетный.ОстаткиИОбороты")
    assert [p[0] for p in bt.params][4] == "УсловиеСчета"   # 5th parameter (§3.4 corroboration)
    assert "СуммаКонечныйРазвернутыйОстатокКт" in [f.ru for f in bt.fields]
    assert "СуммаClosingSplittedBalanceCr" in [f.en for f in bt.fields]


def test_accounting_register_without_correspondence():
    cfg = _accounting_config(False)
    cfg.objects[2].props["period_adjustment_length"] = 5
    t = tables(cfg, "AccountingRegister", "Хозрасчетный")
    assert "ОборотыДтКт" not in " ".join(t)
    main = t["РегистрБухгалтерии.Хозрасчетный"]
    assert main[:6] == ["Период", "Регистратор", "НомерСтроки", "Активность", "ВидДвижения", "Счет"]
    assert "Валюта" in main and "ВалютаДт" not in main and "УточнениеПериода" in main
    for vt in ("Обороты", "ОстаткиИОбороты", "ДвиженияССубконто"):   # Addendum: УточнениеПериода
        assert "УточнениеПериода" in t[f"РегистрБухгалтерии.Хозрасчетный.{vt}"]
    ob = table(cfg, "AccountingRegister", "Хозрасчетный", "РегистрБухгалтерии.Хозрасчетный.Обороты")
    assert len(ob.params) == 6 and "КорСчет" not in [f.ru for f in ob.fields]
    subconto = next(f for f in ob.fields if f.ru == "Субконто1")
    assert render_type(subconto.type, "ru") == ("Характеристика.ВидыСубконто", None)
    assert subconto.en == "ExtDimension1"


def test_calculation_register_virtual_tables():
    chart = M.MDObject("ChartOfCalculationTypes", "Начисления",
                       props={"base_calculation_types": ["ChartOfCalculationTypes.Начисления"]})
    sched = M.MDObject("InformationRegister", "Графики", props={"periodicity": "Day"},
                       dimensions=[A("График", S(9))], resources=[A("Значение"), A("Дни")])
    reg = M.MDObject("CalculationRegister", "Начисления", props={
        "chart_of_calculation_types": "ChartOfCalculationTypes.Начисления", "periodicity": "Month",
        "action_period": True, "base_period": True, "schedule": "InformationRegister.Графики"},
        dimensions=[A("Сотрудник", S(9))], resources=[A("Результат")],
        recalculations=[M.Child("ПерерасчетНачислений")])
    cfg = M.Configuration("C", objects=[chart, sched, reg])
    t = tables(cfg, "CalculationRegister", "Начисления")
    assert t["РегистрРасчета.Начисления"][:11] == [
        "Регистратор", "НомерСтроки", "Активность", "ПериодРегистрации", "ВидРасчета", "Сторно",
        "ПериодДействия", "ПериодДействияНачало", "ПериодДействияКонец", "БазовыйПериодНачало",
        "БазовыйПериодКонец"]
    assert t["РегистрРасчета.Начисления.ФактическийПериодДействия"] == [
        "Регистратор", "НомерСтроки", "ВидРасчета", "ПериодРегистрации", "ПериодДействия",
        "ПериодДействияНачало", "ПериодДействияКонец", "Сотрудник"]
    assert "ЗначениеФактическийПериодДействия" in t["РегистрРасчета.Начисления.ДанныеГрафика"]
    assert t["РегистрРасчета.Начисления.БазаНачисления"][-1] == "РезультатБаза"
    assert t["РегистрРасчета.Начисления.ПерерасчетНачислений"] == ["ОбъектПерерасчета", "ВидРасчета"]
    no_action = M.MDObject("CalculationRegister", "Удержания", props={"action_period": False})
    t2 = tables(M.Configuration("C", objects=[no_action]), "CalculationRegister", "Удержания")
    assert list(t2) == ["РегистрРасчета.Удержания"]
    assert "ПериодДействия" not in t2["РегистрРасчета.Удержания"]


def test_task_business_process_exchange_changes():
    task = M.MDObject("Task", "Задание", props={"number_length": 9, "description_length": 150},
                      addressing_attributes=[A("Исполнитель", S(9))])
    bp = M.MDObject("BusinessProcess", "Согласование", props={"task": "Task.Задание", "number_length": 9})
    cat = M.MDObject("Catalog", "Контрагенты", props={"description_length": 50})
    plan = M.MDObject("ExchangePlan", "Полный", props={"content": [
        {"metadata": "Catalog.Контрагенты", "auto_record": "Allow"}]})
    cfg = M.Configuration("C", objects=[task, bp, cat, plan])
    t = tables(cfg, "Task", "Задание")
    assert t["Задача.Задание"] == ["Ссылка", "ВерсияДанных", "ПометкаУдаления", "Дата", "Номер", "Наименование",
                                   "Выполнена", "БизнесПроцесс", "ТочкаМаршрута", "Исполнитель"]
    by_performer = table(cfg, "Task", "Задание", "Задача.Задание.ЗадачиПоИсполнителю")
    assert by_performer.en == "Task.Задание.TaskByPerformer"
    assert [p[0] for p in by_performer.params] == ["Исполнитель", "Условие"]
    ix = ConfigIndex(cfg)
    point = next(f for f in standard_attributes(task, ix) if f.ru == "ТочкаМаршрута")
    assert render_type(point.type, "ru")[0] == "ТочкаМаршрутаБизнесПроцессаСсылка.Согласование"
    changes = table(cfg, "Catalog", "Контрагенты", "Справочник.Контрагенты.Изменения")
    assert [f.ru for f in changes.fields] == ["Узел", "НомерСообщения", "Ссылка"]
    assert changes.en == "Catalog.Контрагенты.Changes"
    assert "ТочкиМаршрута" in " ".join(tables(cfg, "BusinessProcess", "Согласование"))


def test_chart_of_accounts_standard_tabular_section_and_flags():
    chart = M.MDObject("ChartOfAccounts", "Основной", props={
        "max_ext_dimension_count": 2, "ext_dimension_types": "ChartOfCharacteristicTypes.Виды",
        "code_length": 8, "description_length": 100},
        accounting_flags=[A("Валютный", M.TypeDescription([M.TypeRef(M.BOOLEAN)]))],
        ext_dimension_accounting_flags=[A("Суммовой", M.TypeDescription([M.TypeRef(M.BOOLEAN)]))])
    t = tables(M.Configuration("C", objects=[chart]), "ChartOfAccounts", "Основной")
    assert t["ПланСчетов.Основной"] == ["Ссылка", "ВерсияДанных", "ПометкаУдаления", "Код", "Наименование", "Родитель",
                                       "Вид", "Забалансовый", "Предопределенный",
                                       "ИмяПредопределенныхДанных", "Валютный"]
    assert t["ПланСчетов.Основной.ВидыСубконто"] == ["Ссылка", "НомерСтроки", "ВидСубконто", "ТолькоОбороты",
                                                     "Предопределенный", "Суммовой"]


def test_common_attribute_applies_by_content_and_auto_use():
    cat = M.MDObject("Catalog", "А", props={"description_length": 10})
    cat2 = M.MDObject("Catalog", "Б", props={"description_length": 10})
    listed = M.MDObject("CommonAttribute", "Организация", props={
        "type": S(9), "auto_use": "DontUse", "content": [{"metadata": "Catalog.А", "use": "Use"}]})
    auto = M.MDObject("CommonAttribute", "Область", props={
        "type": N(7, 0), "auto_use": "Use", "content": [{"metadata": "Catalog.Б", "use": "DontUse"}]})
    cfg = M.Configuration("C", objects=[cat, cat2, listed, auto])
    assert tables(cfg, "Catalog", "А")["Справочник.А"][-2:] == ["Организация", "Область"]
    assert "Организация" not in tables(cfg, "Catalog", "Б")["Справочник.Б"]
    assert "Область" not in tables(cfg, "Catalog", "Б")["Справочник.Б"]


def test_classes_without_query_tables_and_document_journal_columns():
    doc = M.MDObject("Document", "Заказ", props={"number_length": 9},
                     attributes=[A("Контрагент", R("Catalog", "Контрагенты"))])
    journal = M.MDObject("DocumentJournal", "Продажи", props={"registered_documents": ["Document.Заказ"]},
                         columns=[M.Attribute("Контрагент", props={
                             "references": ["Document.Заказ.Attribute.Контрагент"]})])
    module = M.MDObject("CommonModule", "Общий")
    cfg = M.Configuration("C", objects=[doc, journal, module])
    assert tables(cfg, "CommonModule", "Общий") == {}
    j = table(cfg, "DocumentJournal", "Продажи", "ЖурналДокументов.Продажи")
    assert [f.ru for f in j.fields] == ["Ссылка", "ПометкаУдаления", "Дата", "Номер", "Проведен", "Тип",
                                        "Контрагент", "Представление", "МоментВремени"]
    assert render_type(j.fields[6].type, "ru")[0] == "СправочникСсылка.Контрагенты"


# -- types and the unlimited-string recipe (§4.6, §5.4) --------------------------------------------

def test_type_rendering_in_both_languages():
    assert render_type(S(50), "ru") == ("Строка(50)", None)
    assert render_type(S(0), "ru") == ("Строка (неогр.)", None)
    assert render_type(S(0), "en") == ("String (unlimited)", None)
    assert render_type(N(15, 2, True), "ru") == ("Число(15,2,неотр.)", None)
    assert render_type(N(15, 2, True), "en") == ("Number(15,2,nonneg.)", None)
    d = lambda f: M.TypeDescription([M.TypeRef(M.DATE, date_fractions=f)])  # noqa: E731
    assert [render_type(d(f), "ru")[0] for f in (M.DATE_ONLY, M.DATE_TIME, M.TIME_ONLY)] == [
        "Дата", "ДатаВремя", "Время"]
    assert render_type(R("Catalog", "X"), "en") == ("CatalogRef.X", None)
    comp = M.TypeDescription([M.TypeRef(M.REF, ref_class="DocumentRef", name="Заказ"),
                              M.TypeRef(M.DEFINED_TYPE, name="Владелец"), M.TypeRef(M.ANY_REF)])
    assert render_type(comp, "ru") == ("Составной (3)", ["ДокументСсылка.Заказ", "ОпределяемыйТип.Владелец",
                                                          "ЛюбаяСсылка"])


def test_recipe_length_follows_the_fields_meaning():
    assert recipe_length("Комментарий") == 1024
    assert recipe_length("ОписаниеОшибки") == 1024
    assert recipe_length("КодЯзыка") == 100
    assert recipe_length("ИдентификаторОбъекта") == 100
    assert recipe_length("ПолноеИмя") == 500 and recipe_length("ИмяФайла") == 500
    assert recipe_length("ОписаниеКода") == 1024          # only nominative words decide
    assert recipe_length("ПредставлениеКлюча") == 500     # Russian head noun comes first
    assert recipe_length("LanguageCode") == 100            # English head noun comes last
    assert recipe("Комментарий", "ru") == "ПОДСТРОКА(Комментарий, 1, 1024)"
    assert recipe("Comment", "en") == "SUBSTRING(Comment, 1, 1024)"


def test_unlimited_flag_reaches_every_table_listing_the_field():
    reg = M.MDObject("InformationRegister", "Журнал", props={"periodicity": "Second"},
                     dimensions=[A("Ключ", S(100))], resources=[A("Текст", S(0))])
    cfg = M.Configuration("C", objects=[reg])
    ix = ConfigIndex(cfg)
    for t in query_tables(reg, ix):
        text = next(f for f in t.fields if f.ru == "Текст")
        assert any(m.unlimited for m in text.type.types), t.ru


def test_virtual_fields_presentation_and_point_in_time():
    doc = M.MDObject("Document", "Заказ", props={"number_length": 9})
    cat = M.MDObject("Catalog", "Товары", props={"description_length": 9})
    reg = M.MDObject("InformationRegister", "Цены", resources=[A("Цена")])
    cfg = M.Configuration("C", objects=[doc, cat, reg])
    ix = ConfigIndex(cfg)
    virtual = {o.name: [f.ru for f in query_tables(o, ix)[0].fields if f.role == "virtual"] for o in (doc, cat, reg)}
    assert virtual == {"Заказ": ["Представление", "МоментВремени"], "Товары": ["Представление"], "Цены": []}
    # ВерсияДанных is a standard attribute of reference tables (domain-1c.md §2), not a virtual field
    assert all("ВерсияДанных" in [f.ru for f in query_tables(o, ix)[0].fields] for o in (doc, cat))
    moment = next(f for f in query_tables(doc, ix)[0].fields if f.ru == "МоментВремени")
    assert moment.en == "PointInTime" and render_type(moment.type, "ru")[0] == "МоментВремени"
