"""compare_configurations reads like a change log (issue 14, item 8): lists compared as sets of
named items, types as type lists, texts by changed words or lines, every change line in the
card's language. Hand-made cards through the real bundle builders; then SSL 3.1.10 → 3.1.12."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from bundle_factory import build_bundle
from v8atlas.compiler.documents import Doc
from v8atlas.formats import Bundle
from v8atlas.server import tools
from v8atlas.server.snapshot import Snapshot

LONG = ("Способы хранения: \"ВИнформационнойБазе\", \"ВТомахНаДиске\", \"ВИнформационнойБазеИТомахНаДиске\" — "
        "выбирается администратором в настройках работы с файлами")


def obj(cfg: str, title: str, cls: str, card: dict) -> Doc:
    name = title.split(".", 1)[1]
    return Doc("metadata", f"{cfg}/{title}", cls, title, {"name": name, "class": cls, **card},
               fields={"name": name}, config=cfg)


def attr(name: str, type_: str) -> dict:
    return {"name": name, "type": type_, "role": "attribute"}


def version(cfg: str, new: bool, language: str = "ru") -> list[Doc]:
    content = [f"Справочник.К{i:03d}" for i in range(40)]
    types = ["СправочникСсылка.А", "СправочникСсылка.Б"]
    attrs = [attr("Код", "Строка(9)"), attr("Имя", "Строка(50)"), attr("Вес", "Число(10,3)")]
    comment = LONG
    if new:
        content = content[:10] + ["Справочник.Новый"] + content[10:]      # inserted in the middle
        types = types + ["СправочникСсылка.В"]
        attrs = [attrs[1], attr("Цвет", "Строка(20)"), attrs[0], attr("Вес", "Число(12,3)")]
        comment = LONG.replace("\"ВИнформационнойБазеИТомахНаДиске\"",
                               "\"ВИнформационнойБазеИТомахНаДиске\", \"ВоВстроенномХранилище\"")
    lang = {"language": language}
    return [obj(cfg, "ОбщийРеквизит.Область", "CommonAttribute", {**lang, "properties": {"content": content}}),
            obj(cfg, "ОпределяемыйТип.Владелец", "DefinedType", {**lang, "properties": {
                "type": {"type": f"Составной ({len(types)})", "types": types}}}),
            obj(cfg, "Справочник.Товары", "Catalog", {**lang, "attributes": attrs, "comment": comment,
                                                      "query_tables": [{"name": "Справочник.Товары",
                                                                        "fields": [a["name"] for a in attrs]}]})]


def snapshot(tmp: Path, language: str = "ru") -> Snapshot:
    docs = version("Старая", False, language) + version("Новая", True, language)
    info = {"configurations": [{"name": "Старая", "version": "1"}, {"name": "Новая", "version": "2"}],
            "config_order": ["Старая", "Новая"]}
    return Snapshot(Bundle.open(build_bundle(tmp, docs, info=info)))


@pytest.fixture(scope="module")
def snap(tmp_path_factory) -> Snapshot:
    return snapshot(tmp_path_factory.mktemp("cmp"))


def compare(snap: Snapshot, **args) -> str:
    r = tools.call(snap, "compare_configurations", {"a": "Старая", "b": "Новая", **args})
    assert r.outcome == "found", r.text
    return r.text


def test_list_is_compared_as_a_set_of_names_not_by_position(snap):
    text = compare(snap, name="ОбщийРеквизит.Область")
    assert "  + Свойства › Состав: `Справочник.Новый`" in text
    assert not re.search(r"\.\d+\b|: `\d+`", text), text          # no positions anywhere
    assert text.count("\n  ") == 1, text                           # one change, one line


def test_named_items_added_removed_changed_by_name(snap):
    text = compare(snap, name="Справочник.Товары")
    assert "  + Реквизиты: `Цвет` (Строка(20))" in text
    assert "  ~ Реквизиты › `Вес` › Тип: Число(10,3) → Число(12,3)" in text
    assert "`Код`" not in text and "`Имя`" not in text              # moved, not changed
    assert "Таблицы запросов" not in text                          # derived from the attributes


def test_type_change_is_a_type_list_change(snap):
    text = compare(snap, name="ОпределяемыйТип.Владелец")
    assert "  ~ Свойства › Тип (2 → 3): + `СправочникСсылка.В`" in text, text
    assert "{'" not in text and "['" not in text


def test_long_text_shows_the_changed_words(snap):
    text = compare(snap, name="Справочник.Товары")
    line = next(x for x in text.splitlines() if "Комментарий" in x)
    assert "«\"ВИнформационнойБазеИТомахНаДиске\"» → «\"ВИнформационнойБазеИТомахНаДиске\", " \
           "\"ВоВстроенномХранилище\"»" in line, line
    assert "администратором" not in line                           # the unchanged tail is left out


def test_whole_configuration_summary_and_english_cards(snap, tmp_path):
    text = compare(snap)
    assert "0 object(s) added, 0 removed, 3 changed" in text
    assert "+ Свойства › Состав: `Справочник.Новый`" in text
    en = snapshot(tmp_path / "en", "en")
    r = tools.call(en, "compare_configurations", {"a": "Старая", "b": "Новая", "name": "Справочник.Товары"})
    assert "  + Attributes: `Цвет` (Строка(20))" in r.text and "  ~ Comment:" in r.text
    assert "Реквизиты" not in r.text


# -- SSL 3.1.10 → 3.1.12 (measured; docs/perf/compare.md) ---------------------------------------

@pytest.mark.realdata
@pytest.mark.slow
def test_ssl_3_1_10_to_3_1_12_summary(tmp_path):
    import realdata
    from v8atlas.compiler.pipeline import compile_bundle
    old = realdata.extracted("configs/ssl-3.1-designer/ssl_3_1-src-cf-3.1.10.441.tar.zst") / "src" / "cf"
    new = realdata.extracted("configs/ssl-3.1-designer/ssl_3_1-src-cf-3.1.12.238.tar.zst") / "src" / "cf"
    (tmp_path / "v8atlas.toml").write_text(
        f'[[configuration]]\nsource = "{old}"\nname = "SSL_3_1_10"\n\n'
        f'[[configuration]]\nsource = "{new}"\nname = "SSL_3_1_12"\n', encoding="utf-8")
    res = compile_bundle([tmp_path], tmp_path / "out", cache=False, quiet=True)
    snap = Snapshot(Bundle.open(res.bundle_path))
    pages = []
    r = tools.call(snap, "compare_configurations", {"a": "SSL_3_1_10", "b": "SSL_3_1_12"})
    pages.append(r.text)
    while r.data.get("cursor"):
        r = tools.call(snap, "compare_configurations", {"a": "SSL_3_1_10", "b": "SSL_3_1_12",
                                                        "cursor": r.data["cursor"]})
        pages.append(r.text)
    text = "\n".join(pages)
    assert pages[0].startswith("**Outcome: found** — `SSL_3_1_10` → `SSL_3_1_12`: 162 object(s) added, "
                               "7 removed, 95 changed; 196 other object(s) differ only in how many "
                               "objects refer to them"), pages[0][:300]
    assert r.data["changed"] == 95 and r.data["added"] == 162 and r.data["removed"] == 7
    assert "{'" not in text and "['" not in text                     # no raw dictionaries or lists
    assert not re.search(r"Состав\.\d+|: `\d+`$", text, re.M)       # no positions
    assert re.search(r"^- `ОбщийРеквизит\.ОбластьДанныхОсновныеДанные`\n  \+ Свойства › Состав \(13\): ",
                     text, re.M), text
    assert "  ~ Свойства › Тип (37 → 40): + `СправочникСсылка.НастройкиОтправкиВГосключ`" in text
    assert ("  ~ Комментарий: …хранения: \"ВИнформационнойБазе\", \"ВТомахНаДиске\", "
            "«\"ВИнформационнойБазеИТомахНаДиске\"» → «\"ВИнформационнойБазеИТомахНаДиске\", "
            "\"ВоВстроенномХранилищеДвоичныхДанных\", \"ВоВнешнемХранилищеДвоичныхДанных\"»") in text
    assert "  + Реквизиты: `ХешСуммаФайла` (Строка (неогр.))" in text
    # every change line speaks Russian: no English card keys left
    keys = {m for line in text.splitlines() if line.startswith("  ")
            for m in re.findall(r"[~+−] ([a-z_]+)\b", line)}
    assert not keys, keys
