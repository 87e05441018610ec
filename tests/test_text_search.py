"""Search tokenization (formats/text.py): the same terms at compile and at query time."""
from __future__ import annotations

from v8atlas.formats.text import (analyze, chunk_terms, fold, index_terms, name_key, phrase_key,
                                  split_identifier, stem, swap_layout, transliterate, words)


def test_camel_case_splits_and_keeps_the_whole_identifier():
    assert split_identifier("ЗаказПокупателя") == ["Заказ", "Покупателя"]
    assert split_identifier("HTTPСервис") == ["HTTP", "Сервис"]
    assert split_identifier("ОКВЭД2") == ["ОКВЭД", "2"]
    assert split_identifier("ПолучитьДанныеHTTPЗапроса") == ["Получить", "Данные", "HTTP", "Запроса"]
    assert split_identifier("ЕСТЬNULL") == ["ЕСТЬ", "NULL"]
    ws = words("ЗаказПокупателя")
    assert [w.surface for w in ws] == ["заказ", "покупателя", "заказпокупателя"]
    assert ws[-1].whole and not ws[0].whole


def test_terms_are_lower_case_stemmed_and_fold_yo():
    assert analyze("Заказы покупателей") == analyze("заказ покупателя") == ["заказ", "покупател"]
    assert analyze("Счёт") == analyze("счет")
    assert analyze("Users") == [stem("users")] == ["user"]     # English stemmer for Latin words
    assert analyze("ОКВЭД2") == ["оквэд", "2"]                  # digits kept
    assert "оквэд2" in index_terms("ОКВЭД2")                    # whole identifier indexed too


def test_surfaces_bridge_stems_of_one_family():
    # Snowball stems "Массив" and "массиве" apart; indexing the surface form joins them.
    assert stem("массив") != stem("массиве")
    assert "массив" in index_terms("Массив", surfaces=True)


def test_phrase_keys_ignore_order_and_stop_words():
    assert phrase_key("версии подсистем") == phrase_key("ВерсииПодсистем") == phrase_key("подсистем версии")
    assert phrase_key("количество дней между датами") == phrase_key("количество дней датами")
    assert phrase_key("задача исполнителя", ordered=True) != phrase_key("исполнители задач", ordered=True)
    assert phrase_key("в на") == ""


def test_latin_look_alikes_inside_a_cyrillic_word_are_fixed():
    assert analyze("зaказ") == analyze("заказ")                 # Latin "a"
    assert split_identifier("WSСсылки") == ["WS", "Ссылки"]     # a real identifier stays split


def test_chunk_terms_are_the_index_terms_of_the_chunk():
    # the code domain's terms (chunk_terms, built from memoized CamelCase runs) mean what the
    # main index and the queries mean (index_terms); runs met again inside other chunks
    chunks = ["ЗначениеРеквизитаОбъекта", "ЗначенияРеквизитовОбъекта", "Значение", "HTTPСервис",
              "ОКВЭД2", "ЕСТЬNULL", "WSСсылки", "зaказ", "ЗaказПокупателя", "Ёлка", "ПолучитьЁлку",
              "XMLDOMПостроитель", "x2Y", "НДС", "а"]
    for _ in range(2):
        for chunk in chunks:
            for surfaces in (False, True):
                assert chunk_terms(chunk, surfaces) == index_terms(chunk, surfaces), (chunk, surfaces)
    assert chunk_terms("ЗначениеРеквизита")[-1] == "значениереквизита"   # the whole identifier last
    assert chunk_terms("Значение") == index_terms("Значение") == [stem("значение")]


def test_layout_and_transliteration_rewrites():
    assert swap_layout("pfrfp gjregfntkz") == "заказ покупателя"
    assert swap_layout("ЗФКФЬ") == "PARAM"
    assert transliterate("zakaz pokupatelya") == "заказ покупателя"
    assert transliterate("schet-faktura") == "счет-фактура"


def test_exact_name_helpers_unchanged():
    assert fold("Ёлка") == "елка"
    assert name_key("Справочник . Пользователи") == "справочник.пользователи"
