"""Search answers a user can judge: junk in gets "nothing to search for" or an honest "nearest
guesses", an attribute's exact name finds the objects that have it, data objects come before
pictures, class words select the class once, 1C abbreviations expand (synthetic documents)."""
from __future__ import annotations

import json

import pytest

try:   # tests/ is a package once tests/__init__.py exists (other branches add it)
    from tests.search_sets.standin import build_bundle
except ImportError:
    from search_sets.standin import build_bundle
from v8atlas.formats.classes import CLASSES
from v8atlas.compiler.config.words import class_search_words
from v8atlas.compiler.documents import Doc, Edge
from v8atlas.compiler.search import build as search_build
from v8atlas.formats import Bundle
from v8atlas.server.search import Searcher

RU = {en: ru for en, ru, _, _ in CLASSES}


def meta(cls: str, name: str, synonym: str, attrs: str = "") -> Doc:
    """A metadata document with the fields the config linker gives it (class words included)."""
    title = f"{RU[cls]}.{name}"
    return Doc("metadata", f"БСП/{title}", cls, title, {"title": title}, names=[title, f"{cls}.{name}", name],
               fields={"name": name, "synonym": synonym, "attributes": attrs,
                       "class": class_search_words(cls)}, config="БСП")


DOCS = [
    meta("Catalog", "Пользователи", "Пользователи", "ФизическоеЛицо"),
    meta("CommonModule", "ОтправкаSMSЧерезSMS4B", "Отправка SMS через SMS4B"),
    meta("BusinessProcess", "Процесс", "Процесс"),
    meta("Catalog", "ВстречаПрисоединенныеФайлы", "Присоединенные файлы встречи", "ВладелецФайла Автор Размер"),
    meta("Catalog", "ПисьмоПрисоединенныеФайлы", "Присоединенные файлы письма", "ВладелецФайла Автор"),
    meta("DefinedType", "ВладелецФайлов", "Владелец файлов"),
    meta("InformationRegister", "ВладелецФайловИФайлы", "Владелец файлов и файлы", "Файл Владелец"),
    meta("CommonPicture", "ЭлектроннаяПочта", "Электронная почта"),
    meta("Catalog", "УчетныеЗаписиЭлектроннойПочты", "Учетные записи электронной почты", "ИмяПользователя Пароль"),
    meta("InformationRegister", "ЗагруженныеВерсииАдресныхСведений", "Загруженные версии адресных сведений"),
    meta("InformationRegister", "ВерсииОбъектов", "Версии объектов", "Объект НомерВерсии"),
    meta("ChartOfCharacteristicTypes", "ДополнительныеРеквизитыИСведения", "Дополнительные реквизиты и сведения"),
    meta("Catalog", "НаборыДополнительныхРеквизитовИСведений", "Наборы дополнительных реквизитов и сведений"),
    meta("Report", "ПраваРолей", "Права ролей"),
    meta("Report", "ПраваДоступа", "Права доступа"),
    meta("InformationRegister", "ПраваРолей", "Права ролей"),
]


@pytest.fixture(scope="module")
def searcher(tmp_path_factory):
    path, _ = build_bundle(DOCS, tmp_path_factory.mktemp("bundles"))
    return Searcher(Bundle.open(path))


def titles(result) -> list[str]:
    return [h.title for h in result.hits]


# --- meaningless input ---------------------------------------------------------------------

def test_only_stop_words_is_nothing_to_search_for_and_never_rewritten(searcher):
    # On the other layout "и в на по для" is "b d yf gj lkz", and "b" is a word of SMS4B.
    r = searcher.search("и в на по для")
    assert r.hits == [] and r.total == 0 and not r.confident
    assert r.rewrites == []
    assert "no words to search for" in r.notes[0]


def test_a_rewrite_plus_a_typo_is_a_guess_not_a_find(searcher):
    r = searcher.search("ghjatccbz")          # "профессия" on the Latin layout; only "процесс" is near
    assert r.rewrites and r.rewrites[0].startswith("keyboard layout")
    assert r.hits and r.hits[0].title == "БизнесПроцесс.Процесс"
    assert r.hits[0].fuzzy and not r.confident
    assert any(w.startswith("typo профессия") for w in r.hits[0].why)
    assert any("nearest guesses" in n for n in r.notes)
    assert r.as_dict()["confident"] is False and r.as_dict()["hits"][0]["fuzzy"] is True


def test_finds_are_confident(searcher):
    for q in ("Справочник.Пользователи", "пользователи", "права ролей", "gjkmpjdfntkb"):
        r = searcher.search(q)
        assert r.confident and not r.hits[0].fuzzy, q
        assert not any("nearest guesses" in n for n in r.notes), q


def test_control_characters_inside_a_word_are_removed_not_separators(searcher):
    r = searcher.search("поль\x01зов\x1bатели")
    assert r.hits[0].title == "Справочник.Пользователи" and "exact name" in r.hits[0].why
    r = searcher.search("\tпользователи\n")       # tabs and newlines still separate
    assert r.hits[0].title == "Справочник.Пользователи"
    r = searcher.search("права\tролей")
    assert r.hits[0].title in ("Отчет.ПраваРолей", "РегистрСведений.ПраваРолей")


# --- objects with field X ------------------------------------------------------------------

def test_an_attribute_name_finds_the_objects_that_have_it(searcher):
    r = searcher.search("ВладелецФайла")
    assert set(titles(r)[:2]) == {"Справочник.ВстречаПрисоединенныеФайлы", "Справочник.ПисьмоПрисоединенныеФайлы"}
    assert "has attribute ВладелецФайла" in r.hits[0].why
    # the look-alike type and register (ВладелецФайлов, words Владелец/Файл) come after them
    assert titles(r).index("ОпределяемыйТип.ВладелецФайлов") >= 2
    assert not any(w.startswith("has attribute") for h in r.hits[2:] for w in h.why)


# --- data objects, class words, abbreviations ------------------------------------------------

def test_a_picture_loses_to_a_data_object_unless_its_class_is_named(searcher):
    r = searcher.search("электронная почта")
    assert r.hits[0].title == "Справочник.УчетныеЗаписиЭлектроннойПочты"
    assert titles(r).index("ОбщаяКартинка.ЭлектроннаяПочта") > 0
    r = searcher.search("общая картинка электронная почта")
    assert r.hits[0].title == "ОбщаяКартинка.ЭлектроннаяПочта"


def test_class_words_select_the_class_and_are_not_name_words_again(searcher):
    r = searcher.search("регистр сведений версии")
    assert r.hits[0].title == "РегистрСведений.ВерсииОбъектов"
    assert "class named in the query: InformationRegister" in r.hits[0].why
    # "сведений" must not match ЗагруженныеВерсииАдресныхСведений's name a second time
    loaded = next(h for h in r.hits if h.title.endswith("ЗагруженныеВерсииАдресныхСведений"))
    assert not any("сведен in" in w for w in loaded.why)
    # class words inside a name stay name words: Report + the name ПраваРолей
    r = searcher.search("отчет права ролей")
    assert r.hits[0].title == "Отчет.ПраваРолей"


def test_class_words_come_from_the_config_class_table_with_case_kept(searcher):
    # The linker's class field keeps CamelCase, so "регистры сведений" meets it word by word.
    assert class_search_words("InformationRegister").split()[:2] == ["РегистрСведений", "РегистрыСведений"]
    r = searcher.search("регистры сведений")
    registers = sum(1 for d in DOCS if d.kind == "InformationRegister")
    assert [h.kind for h in r.hits[:registers]] == ["InformationRegister"] * registers
    assert any("регистр in class" in w for w in r.hits[0].why)
    classes = {c["kind"]: c for c in search_build.load_classes()}
    assert set(classes) == {en for en, *_ in CLASSES}
    assert {"РегистрСведений", "InformationRegisters"} <= set(classes["InformationRegister"]["words"])
    assert "пвх" in classes["ChartOfCharacteristicTypes"]["words"]
    # classes.json keeps only search facts; the names live in formats/classes.py
    data = json.loads((search_build.DATA_DIR / "classes.json").read_text(encoding="utf-8"))
    assert not any({"ru", "en"} & set(c) for c in data["classes"])


def test_common_1c_abbreviations_expand(searcher):
    r = searcher.search("доп реквизиты")
    assert r.hits[0].title == "ПланВидовХарактеристик.ДополнительныеРеквизитыИСведения"
    assert "abbreviation доп → дополнительные" in r.hits[0].why
    r = searcher.search("рс версии")              # рс → регистр сведений: a class
    assert r.hits[0].kind == "InformationRegister"
    assert any(w == "class named in the query: InformationRegister" for w in r.hits[0].why)
    r = searcher.search("спр пользователи")
    assert r.hits[0].title == "Справочник.Пользователи"


def test_of_two_objects_with_the_same_words_the_referenced_one_comes_first(tmp_path):
    docs = [meta("Catalog", "НастройкиПочтыКлиента", "Настройки почты клиента"),
            meta("Catalog", "НастройкиПочтыСервера", "Настройки почты сервера"),
            *(meta("Document", f"Письмо{i}", f"Письмо {i}") for i in range(3))]
    for hub, path in (("НастройкиПочтыКлиента", "a"), ("НастройкиПочтыСервера", "b")):
        edges = [Edge(f"БСП/Документ.Письмо{i}", f"БСП/Справочник.{hub}", "attribute_type") for i in range(3)]
        built, _ = build_bundle(docs, tmp_path / path, edges=edges)
        r = Searcher(Bundle.open(built)).search("настройки почты")
        assert r.hits[0].title == f"Справочник.{hub}"


def test_a_named_class_without_matches_gives_its_words_back_to_the_name(tmp_path):
    docs = [meta("Catalog", "Пользователи", "Пользователи"),
            meta("InformationRegister", "ВерсииОбъектов", "Версии объектов"),
            meta("InformationRegister", "ВерсииСправочников", "Версии справочников")]
    built, _ = build_bundle(docs, tmp_path)
    r = Searcher(Bundle.open(built)).search("справочник версии данных")   # no catalog is about versions
    assert r.hits[0].title == "РегистрСведений.ВерсииСправочников"
    assert not any(w.startswith("class named") for w in r.hits[0].why)
