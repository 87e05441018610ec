"""The RU↔EN word tables: class words, MDObjectRef translation, generated types, numbered fields."""
from __future__ import annotations

from v8atlas.compiler.config import words as W
from v8atlas.compiler.config.classes import CLASSES as READER_CLASSES


def test_every_reader_class_has_words_and_flags_name_known_classes():
    assert [c.en for c in W.CLASSES] == [en for en, *_ in READER_CLASSES]
    assert W.QUERY_CLASSES <= set(W.BY_EN) and W.REF_CLASSES <= W.QUERY_CLASSES
    assert W.BY_EN["Catalog"].ref_type("ru") == "СправочникСсылка"
    assert W.BY_EN["ChartOfCharacteristicTypes"].ref_type("en") == "ChartOfCharacteristicTypesRef"
    assert W.class_words("FancyNewThing").ru == "FancyNewThing"
    assert W.class_search_words("Catalog") == "Справочник Справочники Catalog Catalogs"
    # case kept: the search tokenizer splits it ("регистр сведений" matches word by word)
    assert W.class_search_words("InformationRegister").startswith("РегистрСведений РегистрыСведений")


def test_mdobject_refs_translate_class_and_child_words_only():
    assert W.ref_name("Catalog.Товары.TabularSection.Цены.Attribute.Цена", "ru") == \
        "Справочник.Товары.ТабличнаяЧасть.Цены.Реквизит.Цена"
    assert W.ref_name("CommonModule.Общий.Attribute", "ru") == "ОбщийМодуль.Общий.Attribute"  # a procedure name
    assert W.ref_name("Subsystem.А.Subsystem.Б", "ru") == "Подсистема.А.Подсистема.Б"
    assert W.ref_name("Catalog.X", "en") == "Catalog.X"
    assert W.ref_name("not a ref", "ru") == "not a ref"


def test_generated_types_and_numbered_fields():
    assert W.generated_type("ConstantValueManager", "ru") == "КонстантаМенеджерЗначения"
    assert W.generated_type("InformationRegisterRecordSet", "ru") == "РегистрСведенийНаборЗаписей"
    assert W.generated_type("BusinessProcessRoutePointRef", "ru") == "ТочкаМаршрутаБизнесПроцессаСсылка"
    assert W.split_generated("CatalogTabularSectionRow") == ("Catalog", "TabularSectionRow")
    assert W.split_generated("ValueTable") == ("", "")
    assert W.field_name("СубконтоДт2", "en") == "ExtDimensionDr2"
    assert W.field_name("ВидСубконто3", "en") == "ExtDimensionType3"
    assert W.field_name("Товар", "en") == "Товар"
    assert W.suffixed("Quantity", "КонечныйРазвернутыйОстатокКт", "en") == "QuantityClosingSplittedBalanceCr"
    assert W.lang("English") == "en" and W.lang("Russian") == "ru" and W.lang("") == "ru"
