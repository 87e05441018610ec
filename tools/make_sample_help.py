#!/usr/bin/env python3
"""Write the embedded sample help books (our own short text about a few dozen real elements).

    python3 tools/make_sample_help.py [OUT]        # default OUT = examples/help

Writes ``OUT/8.3.5.1570/shcntx_ru.hbk`` (old ``div`` markup, no version marks),
``OUT/8.3.23.1997/shcntx_ru.hbk`` and ``OUT/8.3.27.2130/shcntx_ru.hbk`` (V8SH ``p`` markup with
since/deprecation marks; 8.3.27 adds ЭлементФайлаАрхива, since 8.3.26) and
``OUT/8.3.27.2130/shquery_ru.hbk`` (query language, the pages the search keys name). Real containers (32-bit, 512-byte page
chains), ZIP FileStorage/PackBlock, brace-format TOC and Book descriptor. Deterministic: the same
script writes byte-identical files (a test compares them with the committed ones).
Names are the platform's; every sentence is ours.
"""
from __future__ import annotations

import io
import sys
import zipfile
from dataclasses import dataclass, field
from html import escape
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

from v8atlas.compiler.help.brace import dumps          # noqa: E402
from v8atlas.compiler.v8container import write_container  # noqa: E402

OLD, MID, NEW = "8.3.5.1570", "8.3.23.1997", "8.3.27.2130"
BOOKS = ((OLD, True), (MID, False), (NEW, False))   # (version, old markup)
ALL = "Тонкий клиент, веб-клиент, сервер, толстый клиент, внешнее соединение"
SRV = "Сервер, толстый клиент, внешнее соединение"
ZIP_DATE = (2024, 1, 1, 0, 0, 0)


@dataclass
class P:                      # a parameter
    name: str
    type: str
    text: str
    required: bool = True
    default: str | None = None


@dataclass
class M:                      # a method / property / constructor / enum value
    ru: str
    en: str | None
    text: str
    kind: str = "method"      # method | property | ctor | value
    variants: list[tuple[str | None, list[P]]] = field(default_factory=list)
    returns: str | None = None
    since: str | None = None  # since-mark shown in the newer book; absent from OLD if > 8.3.5
    deprecated: tuple[str, str] | None = None     # (since, replacement page key)
    usage: str | None = None
    type: str | None = None
    old_variants: list[tuple[str | None, list[P]]] | None = None   # a different OLD signature
    avail: str = ALL


@dataclass
class T:                      # a type or enum with members
    ru: str
    en: str
    text: str
    members: list[M]
    enum: bool = False
    since: str | None = None
    avail: str = ALL
    deprecated: tuple[str, str] | None = None     # (since, replacement type)


S = "Строка"
N = "Число"
A = "Произвольный"
GLOBAL: list[M] = [
    M("Сообщить", "Message", "Выводит текст в окно сообщений пользователю.",
      variants=[(None, [P("ТекстСообщения", S, "Текст, который увидит пользователь."),
                        P("Статус", "СтатусСообщения", "Уровень важности.", False)])]),
    M("СтрДлина", "StrLen", "Считает символы в строке.", variants=[(None, [P("Строка", S, "Исходная строка.")])],
      returns=N),
    M("Найти", "Find", "Ищет подстроку и сообщает позицию первого совпадения.",
      variants=[(None, [P("Строка", S, "Где искать."), P("ПодстрокаПоиска", S, "Что искать.")])],
      returns=N, deprecated=("8.3.6", "СтрНайти")),
    M("СтрНайти", "StrFind", "Ищет подстроку с выбором направления, начала и номера вхождения.",
      variants=[(None, [P("Строка", S, "Где искать."), P("ПодстрокаПоиска", S, "Что искать."),
                        P("НаправлениеПоиска", "НаправлениеПоиска", "С начала или с конца.", False,
                          "НаправлениеПоиска.СНачала"),
                        P("НачальнаяПозиция", N, "С какого символа.", False),
                        P("НомерВхождения", N, "Какое совпадение вернуть.", False, "1")])],
      returns=N, since="8.3.6"),
    M("СтрРазделить", "StrSplit", "Режет строку на части по символам-разделителям и возвращает массив.",
      variants=[(None, [P("Строка", S, "Исходная строка."),
                        P("Разделитель", S, "Каждый символ этой строки считается разделителем."),
                        P("ВключатьПустые", "Булево", "Оставлять ли пустые части.", False, "Истина")])],
      returns="Массив", since="8.3.6"),
    M("СтрСоединить", "StrConcat", "Склеивает строки массива через разделитель.",
      variants=[(None, [P("Строки", "Массив", "Строки для склейки."), P("Разделитель", S, "Что вставить между ними.", False)])],
      returns=S, since="8.3.6"),
    M("СтрШаблон", "StrTemplate", "Подставляет значения вместо маркеров %1…%10.",
      variants=[(None, [P("Шаблон", S, "Строка с маркерами."),
                        P("Значение1-Значение10", A, "Подставляемые значения.", False)])],
      returns=S, since="8.3.6"),
    M("СтрНачинаетсяС", "StrStartsWith", "Проверяет, начинается ли строка с подстроки.",
      variants=[(None, [P("Строка", S, "Проверяемая строка."), P("СтрокаПоиска", S, "Ожидаемое начало.")])],
      returns="Булево", since="8.3.6"),
    M("СтрЗаканчиваетсяНа", "StrEndsWith", "Проверяет, заканчивается ли строка подстрокой.",
      variants=[(None, [P("Строка", S, "Проверяемая строка."), P("СтрокаПоиска", S, "Ожидаемый конец.")])],
      returns="Булево", since="8.3.6"),
    M("ЗначениеЗаполнено", "ValueIsFilled", "Отвечает, отличается ли значение от пустого значения своего типа.",
      variants=[(None, [P("Значение", A, "Проверяемое значение.")])], returns="Булево"),
    M("ТекущаяДата", "CurrentDate", "Дата и время компьютера, на котором выполняется код.",
      variants=[(None, [])], returns="Дата"),
    M("ТипЗнч", "TypeOf", "Тип переданного значения.", variants=[(None, [P("Значение", A, "Любое значение.")])],
      returns="Тип"),
]
TYPES: list[T] = [
    T("Массив", "Array", "Упорядоченный набор значений с доступом по номеру.", [
        M("Добавить", "Add", "Дописывает значение в конец.", variants=[(None, [P("Значение", A, "Что добавить.", False)])]),
        M("Вставить", "Insert", "Вставляет значение по индексу.",
          variants=[(None, [P("Индекс", N, "Позиция вставки."), P("Значение", A, "Что вставить.", False)])]),
        M("Найти", "Find", "Возвращает индекс первого совпадающего элемента или Неопределено.",
          variants=[(None, [P("Значение", A, "Искомое значение.")])], returns=N),
        M("Количество", "Count", "Число элементов.", variants=[(None, [])], returns=N),
        M("Удалить", "Delete", "Убирает элемент по индексу.", variants=[(None, [P("Индекс", N, "Номер элемента.")])]),
        M("По умолчанию", None, "Пустой массив.", kind="ctor", variants=[(None, [])]),
        M("По количеству элементов", None, "Массив заданной размерности.", kind="ctor",
          variants=[(None, [P("КоличествоЭлементов", N, "Размер.", False)])]),
    ]),
    T("Структура", "Structure", "Набор пар «ключ — значение» с ключами-идентификаторами.", [
        M("<Имя ключа>", "<Key name>", "Значение по ключу.", kind="property", usage="Чтение и запись.", type=A),
        M("Вставить", "Insert", "Добавляет или заменяет пару.",
          variants=[(None, [P("Ключ", S, "Имя ключа."), P("Значение", A, "Значение.", False)])]),
        M("Свойство", "Property", "Проверяет наличие ключа и возвращает значение.",
          variants=[(None, [P("Ключ", S, "Имя ключа."), P("НайденноеЗначение", A, "Сюда попадет значение.", False)])],
          returns="Булево"),
        M("Количество", "Count", "Число пар.", variants=[(None, [])], returns=N),
    ]),
    T("Запрос", "Query", "Выполняет запрос к данным информационной базы.", [
        M("Текст", "Text", "Текст запроса.", kind="property", usage="Чтение и запись.", type=S, avail=SRV),
        M("УстановитьПараметр", "SetParameter", "Задает значение параметра запроса.",
          variants=[(None, [P("Имя", S, "Имя параметра без &."), P("Значение", A, "Значение параметра.")])], avail=SRV),
        M("Выполнить", "Execute", "Выполняет запрос и возвращает результат.", variants=[(None, [])],
          returns="РезультатЗапроса", avail=SRV),
    ], avail=SRV),
    T("ЗаписьXML", "XMLWriter", "Последовательная запись документа XML.", [
        M("ОткрытьФайл", "OpenFile", "Открывает файл для записи XML.",
          variants=[("По имени и кодировке", [P("ИмяФайла", S, "Путь к файлу."), P("Кодировка", S, "Кодировка.", False),
                                              P("ЗаписыватьBOM", "Булево", "Писать ли BOM.", False)]),
                    ("С параметрами записи", [P("ИмяФайла", S, "Путь к файлу."),
                                              P("ПараметрыЗаписи", "ПараметрыЗаписиXML", "Параметры."),
                                              P("ЗаписыватьBOM", "Булево", "Писать ли BOM.", False)])],
          old_variants=[(None, [P("ИмяФайла", S, "Путь к файлу."), P("Кодировка", S, "Кодировка.", False)])]),
        M("Закрыть", "Close", "Закрывает запись.", variants=[(None, [])]),
    ]),
    T("ЗаписьJSON", "JSONWriter", "Последовательная запись текста JSON.", [
        M("ОткрытьФайл", "OpenFile", "Открывает файл для записи JSON.",
          variants=[(None, [P("ИмяФайла", S, "Путь к файлу."), P("Кодировка", S, "Кодировка.", False)])]),
        M("Закрыть", "Close", "Завершает запись.", variants=[(None, [])], returns=S),
    ], since="8.3.6"),
    T("ЭлементZipФайла", "ZipFileEntry", "Сведения об одном файле внутри ZIP-архива.", [
        M("Имя", "Name", "Имя файла с расширением.", kind="property", type=S),
        M("ПолноеИмя", "FullName", "Путь и имя файла внутри архива.", kind="property", type=S),
    ], deprecated=("8.3.26", "ЭлементФайлаАрхива")),
    T("ЭлементФайлаАрхива", "ArchiveFileEntry", "Сведения об одном файле внутри архива.", [
        M("Имя", "Name", "Имя файла с расширением.", kind="property", type=S),
        M("ПолноеИмя", "FullName", "Путь и имя файла внутри архива.", kind="property", type=S),
        M("РазмерНесжатого", "UncompressedSize", "Размер файла до сжатия, в байтах.", kind="property", type=N),
    ], since="8.3.26"),
    T("КодировкаТекста", "TextEncoding", "Способы кодирования текста.", [
        M("UTF8", "UTF8", "Кодировка UTF-8.", kind="value"),
        M("ANSI", "ANSI", "Кодировка ANSI.", kind="value"),
    ], enum=True),
]


def _bi(ru: str, en: str | None) -> str:
    return f"{escape(ru)} ({escape(en)})" if en else escape(ru)


class Page:
    """One page in either markup."""

    def __init__(self, old: bool) -> None:
        self.old = old
        self.parts: list[str] = []

    def tag(self, cls: str, text: str) -> None:
        t = "div" if self.old else "p"
        self.parts.append(f'<{t} class="{cls}">{text}</{t}>')

    def chapter(self, title: str, body: str = "") -> None:
        if self.old:
            self.parts.append(f'<div class="V8SH_chapter"> <p style="margin-top: 3px">{title}</div>{body}')
        else:
            self.parts.append(f'<p class="V8SH_chapter">{title}</p>{body}')

    def html(self, pagetitle: str) -> bytes:
        head = ('<html><head><meta http-equiv="Content-Type" content="text/html; charset=utf-8">'
                '<meta http-equiv="Content-Language" content="ru"></head><body>'
                f'<h1 class="V8SH_pagetitle">{pagetitle}</h1>')
        tail = '<HR><p>&nbsp;&nbsp;Пример книги v8atlas</p></body></html>'
        return ("\ufeff" + head + "".join(self.parts) + tail).encode("utf-8")


def _params(ps: list[P]) -> str:
    out = []
    for p in ps:
        flag = "обязательный" if p.required else "необязательный"
        d = f" <br>Значение по умолчанию: {escape(p.default)}." if p.default else ""
        out.append(f'<div class="V8SH_rubric"> <p style="margin-top: 2px; margin-bottom: 1px">&lt;{escape(p.name)}&gt; '
                   f'({flag})</div>Тип: {escape(p.type)}. <br>{escape(p.text)}{d}')
    return "".join(out)


def _versions(page: Page, since: str | None, deprecated: tuple[str, str] | None, dep_href: str | None) -> None:
    if page.old:
        return
    if deprecated and dep_href:
        page.parts.append(
            '<div class="__DEPRECATED_SHOW_STYLE__"><p class="not_used">Не рекомендуется использовать, начиная с '
            f'версии {deprecated[0]}.</p><p class="__DEPRECATED_SHOW_STYLE__">Рекомендуется использовать:</p>'
            f'<ul class="__DEPRECATED_SHOW_STYLE__"><li><a href="v8help://SyntaxHelperContext/{dep_href}">'
            f'{escape(deprecated[1])}</a></li></ul></div>')
    if since:
        page.parts.append(f'<div class="__SINCE_SHOW_STYLE__"><p class="not_used">Доступен, начиная с версии '
                          f'{since}.</p></div>')


def _member_page(old: bool, owner: tuple[str, str], m: M, pages: dict[str, str]) -> bytes:
    pg = Page(old)
    pg.tag("V8SH_title", _bi(*owner))
    pg.tag("V8SH_heading", _bi(m.ru, m.en if m.kind != "ctor" else None))
    dep_href = pages.get(f"{owner[0]}.{m.deprecated[1]}") if m.deprecated else None
    _versions(pg, m.since, m.deprecated, dep_href)
    if m.kind == "property":
        pg.chapter("Использование:", m.usage or "Только чтение.")
        pg.chapter("Описание:", f"Тип: {escape(m.type or A)}. <br>{escape(m.text)}")
    elif m.kind == "value":
        pg.chapter("Описание:", f"Тип: {escape(owner[0])}. <br>{escape(m.text)}")
    else:
        variants = m.old_variants if old and m.old_variants else m.variants
        for title, ps in variants:
            if title and len(variants) > 1:
                pg.chapter(f"Вариант синтаксиса: {escape(title)}")
            call = (f"Новый {owner[0]}" if m.kind == "ctor" else m.ru)
            pg.chapter("Синтаксис:", escape(f"{call}(" + ", ".join(f"<{p.name}>" for p in ps) + ")"))
            if ps:
                pg.chapter("Параметры:", _params(ps))
        if m.returns:
            pg.chapter("Возвращаемое значение:", f"Тип: {escape(m.returns)}.")
        pg.chapter("Описание:", f"<p>{escape(m.text)}</p>")
    if m.kind != "value":
        pg.chapter("Доступность: " if not old else "Доступность:", f"<p>{m.avail}.</p>")
    if m.deprecated and dep_href and not old:
        pg.chapter("Использование в версии:", f'<p class="V8SH_versionInfo">Не рекомендуется использовать, '
                                              f'начиная с версии {m.deprecated[0]}.</p>')
    full = f"{owner[0]}.{m.ru}"
    full_en = f"{owner[1]}.{m.en}" if m.en and m.kind != "ctor" else None
    return pg.html(_bi(full, full_en))


def _ver(v: str) -> tuple[int, ...]:
    return tuple(int(x) for x in v.split("."))[:3]


def _present(since: str | None, version: str) -> bool:
    return not since or _ver(since) <= _ver(version)


def _shown(deprecated: tuple[str, str] | None, version: str) -> tuple[str, str] | None:
    """A deprecation mark appears in books of its version and later."""
    return deprecated if deprecated and _ver(deprecated[0]) <= _ver(version) else None


def build_context(version: str, old: bool) -> dict[str, bytes]:
    """FileStorage entries and the TOC text of one shcntx book."""
    files: dict[str, bytes] = {}
    toc: list[list] = []
    ids = iter(range(1, 10_000))
    pages: dict[str, str] = {}
    gid = next(ids)
    # Page paths first, so deprecation links can point at them.
    for i, m in enumerate(GLOBAL):
        pages[f"Глобальный контекст.{m.ru}"] = f"objects/Global context/methods/catalog1/{m.en}{100 + i}.html"
    for t in TYPES:
        base = f"objects/catalog2/{t.en}"
        for j, m in enumerate(t.members):
            sub = {"method": "methods", "property": "properties", "value": "properties", "ctor": "ctors"}[m.kind]
            stem = f"ctor{300 + j}" if m.kind == "ctor" else f"{(m.en or m.ru).strip('<>').replace(' ', '')}{200 + j}"
            pages[f"{t.ru}.{m.ru}"] = f"{base}/{sub}/{stem}.html"
    for t in TYPES:
        pages[t.ru] = f"objects/catalog2/{t.en}.html"
    # Global context
    g = Page(old)
    g.tag("V8SH_title", _bi("Глобальный контекст", "Global context"))
    g.chapter("Методы:", "<br>".join(f'<a href="Global context/methods/catalog1/{Path(pages["Глобальный контекст." + m.ru]).name}">'
                                     f"{_bi(m.ru, m.en)}</a>" for m in GLOBAL if _present(m.since, version)))
    files["objects/Global context.html"] = g.html("Глобальный контекст")
    meth_children = []
    methods_group = next(ids)
    for m in GLOBAL:
        if not _present(m.since, version):
            continue
        key = f"Глобальный контекст.{m.ru}"
        deprecated = _shown(m.deprecated, version)
        if deprecated:
            m = M(**{**m.__dict__, "deprecated": (deprecated[0], deprecated[1])})
            pages_local = {f"Глобальный контекст.{deprecated[1]}": pages[f"Глобальный контекст.{deprecated[1]}"]}
        else:
            m = M(**{**m.__dict__, "deprecated": None})
            pages_local = {}
        files[pages[key]] = _member_page(old, ("Глобальный контекст", "Global context"), m,
                                         pages_local if not old else {})
        nid = next(ids)
        meth_children.append(nid)
        toc.append([nid, methods_group, 0, [0, 0, [1, 2, ["ru", m.ru], ["en", m.en]], "/" + pages[key]]])
    toc.insert(0, [methods_group, gid, len(meth_children), *meth_children, [0, 0, [1, 1, ["ru", "Методы"]], ""]])
    toc.insert(0, [gid, 0, 1, methods_group, [0, 0, [1, 2, ["ru", "Глобальный контекст"], ["en", "Global context"]],
                                              "/objects/Global context.html"]])
    # Types and enums under one catalog
    cat = next(ids)
    files["objects/catalog2.html"] = Page(old).html("Общие объекты")
    cat_children = []
    for t in TYPES:
        if not _present(t.since, version):
            continue
        tp = Page(old)
        tp.tag("V8SH_title", _bi(t.ru, t.en))
        dep = _shown(t.deprecated, version)
        _versions(tp, t.since, dep, pages.get(dep[1]) if dep else None)
        groups: dict[str, list[M]] = {}
        for m in t.members:
            groups.setdefault({"method": "Методы:", "property": "Свойства:", "ctor": "Конструкторы:",
                               "value": "Значения"}[m.kind], []).append(m)
        for title, ms in groups.items():
            tp.chapter(title, "<br>".join(
                f'<a href="{t.en}/{pages[t.ru + "." + m.ru].split(t.en + "/", 1)[1]}">'
                f'{_bi(m.ru, m.en if m.kind != "ctor" else None)}</a>' for m in ms))
        tp.chapter("Описание:", f"<p>{escape(t.text)}</p>")
        tp.chapter("Доступность: " if not old else "Доступность:", f"<p>{t.avail}.</p>")
        if dep and not old:
            tp.chapter("Использование в версии:", f'<p class="V8SH_versionInfo">Не рекомендуется использовать, '
                                                  f'начиная с версии {dep[0]}.</p>')
        files[f"objects/catalog2/{t.en}.html"] = tp.html(_bi(t.ru, t.en))
        tid = next(ids)
        cat_children.append(tid)
        kids = []
        member_nodes = []
        for m in t.members:
            nid = next(ids)
            kids.append(nid)
            files[pages[f"{t.ru}.{m.ru}"]] = _member_page(old, (t.ru, t.en), m, pages)
            titles = [1, 2, ["ru", m.ru], ["en", m.en]] if m.en and m.kind != "ctor" else [1, 1, ["ru", m.ru]]
            member_nodes.append([nid, tid, 0, [0, 0, titles, "/" + pages[f"{t.ru}.{m.ru}"]]])
        toc.append([tid, cat, len(kids), *kids, [1, 1, [1, 2, ["ru", t.ru], ["en", t.en]],
                                                 f"/objects/catalog2/{t.en}.html"]])
        toc.extend(member_nodes)
    toc.append([cat, 0, len(cat_children), *cat_children, [0, 0, [1, 1, ["ru", "Общие объекты"]], "/objects/catalog2.html"]])
    files["__toc__"] = ("\ufeff" + dumps([len(toc), *toc])).encode("utf-8")
    return files


# (page id, H1 title, parameters "Имя:текст" or None for non-functions, one sentence of ours)
F, AG, K, O = "Функция", "Агрегатная функция", "Ключевое слово", "Оператор"
QUERY_PAGES: list[tuple[str, str, list[str] | None, str]] = [
    ("SUBSTRING", f"{F} ПОДСТРОКА", ["Строка:исходная строка", "Начало:номер первого символа", "Длина:сколько символов взять"],
     "Вырезает часть строки заданной длины."),
    ("YEAR", f"{F} ГОД", ["Дата:значение даты"], "Номер года даты."),
    ("MONTH", f"{F} МЕСЯЦ", ["Дата:значение даты"], "Номер месяца даты, от 1 до 12."),
    ("DAY", f"{F} ДЕНЬ", ["Дата:значение даты"], "Число месяца даты."),
    ("WEEKDAY", f"{F} ДЕНЬНЕДЕЛИ", ["Дата:значение даты"], "Номер дня недели, понедельник — 1."),
    ("BEGINOFPERIOD", f"{F} НАЧАЛОПЕРИОДА", ["Дата:исходная дата", "Период:СЕКУНДА, МИНУТА, ЧАС, ДЕНЬ, НЕДЕЛЯ, МЕСЯЦ, КВАРТАЛ, ГОД, ДЕКАДА или ПОЛУГОДИЕ"],
     "Первое мгновение периода, в который попадает дата."),
    ("ENDOFPERIOD", f"{F} КОНЕЦПЕРИОДА", ["Дата:исходная дата", "Период:вид периода"], "Последнее мгновение периода, в который попадает дата."),
    ("DATEADD", f"{F} ДОБАВИТЬКДАТЕ", ["Дата:исходная дата", "Период:единица сдвига", "Количество:на сколько единиц сдвинуть"],
     "Сдвигает дату на заданное число единиц периода."),
    ("DATEDIFF", f"{F} РАЗНОСТЬДАТ", ["Дата1:начальная дата", "Дата2:конечная дата", "Период:в каких единицах считать"],
     "Разница между двумя датами в заданных единицах."),
    ("PRESENTATION", f"{F} ПРЕДСТАВЛЕНИЕ", ["Выражение:любое значение"], "Строковое представление значения."),
    ("VALUETYPE", f"{F} ТИПЗНАЧЕНИЯ", ["Выражение:любое значение"], "Тип значения выражения."),
    ("VALUE", f"{F} ЗНАЧЕНИЕ", ["Имя:предопределенное значение"], "Предопределенное значение прямо в тексте запроса."),
    ("CAST", f"{F} ВЫРАЗИТЬ", ["Выражение:приводимое значение", "Тип:тип результата"], "Приводит значение к указанному типу."),
    ("ISNULL", f"{F} ЕСТЬNULL", ["Выражение:проверяемое значение", "Замена:что вернуть вместо NULL"], "Подставляет замену вместо NULL."),
    ("RECORDAUTONUMBER", f"{F} АВТОНОМЕРЗАПИСИ", [], "Порядковый номер записи во временной таблице."),
    ("StringLength", f"{F} ДлинаСтроки(StringLength)", ["Строка:исходная строка"], "Число символов строки."),
    ("TrimAll", f"{F} СокрЛП(TrimAll)", ["Строка:исходная строка"], "Убирает пробелы по краям."),
    ("StrFind", f"{F} СтрНайти(StrFind)", ["Строка:где искать", "Подстрока:что искать"], "Позиция подстроки в строке; 0, если ее нет."),
    ("StrReplace", f"{F} СтрЗаменить(StrReplace)", ["Строка:исходная строка", "Что:заменяемая подстрока", "НаЧто:новая подстрока"],
     "Заменяет все вхождения подстроки."),
    ("Upper", f"{F} ВРег(Upper)", ["Строка:исходная строка"], "Переводит строку в верхний регистр."),
    ("Lower", f"{F} НРег(Lower)", ["Строка:исходная строка"], "Переводит строку в нижний регистр."),
    ("Round", f"{F} Окр(Round)", ["Число:исходное число", "Разрядность:знаков после запятой"], "Округляет число."),
    ("Int", f"{F} Цел(Int)", ["Число:исходное число"], "Отбрасывает дробную часть."),
    ("SUM", f"{AG} СУММА", ["Выражение:суммируемое значение"], "Сумма по группе; NULL не учитывается."),
    ("COUNT", f"{AG} КОЛИЧЕСТВО", ["Выражение:что считать, * или РАЗЛИЧНЫЕ поле"], "Число записей группы."),
    ("MAX", f"{AG} МАКСИМУМ", ["Выражение:сравниваемое значение"], "Наибольшее значение в группе."),
    ("MIN", f"{AG} МИНИМУМ", ["Выражение:сравниваемое значение"], "Наименьшее значение в группе."),
    ("AVG", f"{AG} СРЕДНЕЕ", ["Выражение:числовое значение"], "Среднее значение по группе."),
    ("SELECT", f"{K} ВЫБРАТЬ", None, "Открывает описание выборки. Англоязычное написание: <STRONG>SELECT</STRONG>."),
    ("ALLOWED", f"{K} РАЗРЕШЕННЫЕ", None, "Отбрасывает записи, недоступные пользователю. Англоязычное написание: <STRONG>ALLOWED</STRONG>."),
    ("DISTINCT", f"{K} РАЗЛИЧНЫЕ", None, "Убирает повторяющиеся строки. Англоязычное написание: <STRONG>DISTINCT</STRONG>."),
    ("TOP", f"{K} ПЕРВЫЕ", None, "Ограничивает число строк результата. Англоязычное написание: <STRONG>TOP</STRONG>."),
    ("WHERE", f"{K} ГДЕ", None, "Условие отбора записей. Англоязычное написание: <STRONG>WHERE</STRONG>."),
    ("GROUPBY", f"{K} СГРУППИРОВАТЬ ПО", None, "Сворачивает записи с одинаковыми полями. Англоязычное написание: <STRONG>GROUP BY</STRONG>."),
    ("HAVING", f"{K} ИМЕЮЩИЕ", None, "Условие на результаты агрегатов. Англоязычное написание: <STRONG>HAVING</STRONG>."),
    ("ORDERBY", f"{K} УПОРЯДОЧИТЬ ПО", None, "Порядок строк результата. Англоязычное написание: <STRONG>ORDER BY</STRONG>."),
    ("DESC", f"{K} УБЫВ", None, "Сортировка по убыванию. Англоязычное написание: <STRONG>DESC</STRONG>."),
    ("UNION", f"{K} ОБЪЕДИНИТЬ", None, "Склеивает результаты запросов без повторов. Англоязычное написание: <STRONG>UNION</STRONG>."),
    ("UNIONALL", f"{K} ОБЪЕДИНИТЬ ВСЕ", None, "Склеивает результаты запросов целиком. Англоязычное написание: <STRONG>UNION ALL</STRONG>."),
    ("LEFTJOIN", f"{K} ЛЕВОЕ СОЕДИНЕНИЕ", None, "Все записи левой таблицы и найденные пары. Англоязычное написание: <STRONG>LEFT JOIN</STRONG>."),
    ("INNERJOIN", f"{K} ВНУТРЕННЕЕ СОЕДИНЕНИЕ", None, "Только записи, у которых нашлась пара. Англоязычное написание: <STRONG>INNER JOIN</STRONG>."),
    ("FULLJOIN", f"{K} ПОЛНОЕ СОЕДИНЕНИЕ", None, "Записи обеих таблиц, с парами и без. Англоязычное написание: <STRONG>FULL JOIN</STRONG>."),
    ("INTO", f"{K} ПОМЕСТИТЬ", None, "Сохраняет результат во временную таблицу. Англоязычное написание: <STRONG>INTO</STRONG>."),
    ("TOTALS", f"{K} ИТОГИ", None, "Добавляет строки итогов. Англоязычное написание: <STRONG>TOTALS</STRONG>."),
    ("PERIODS", f"{K} ПЕРИОДАМИ", None, "Дополняет итоги пропущенными периодами. Англоязычное написание: <STRONG>PERIODS</STRONG>."),
    ("FORUPDATE", f"{K} ДЛЯ ИЗМЕНЕНИЯ", None, "Блокирует прочитанные данные до конца транзакции. Англоязычное написание: <STRONG>FOR UPDATE</STRONG>."),
    ("INDEXBY", f"{K} ИНДЕКСИРОВАТЬ ПО", None, "Индекс временной таблицы. Англоязычное написание: <STRONG>INDEX BY</STRONG>."),
    ("EMPTYTABLE", f"{K} ПУСТАЯТАБЛИЦА", None, "Пустая вложенная таблица. Англоязычное написание: <STRONG>EMPTYTABLE</STRONG>."),
    ("CASE", f"{O} ВЫБОР", None, "Выбирает значение по первому истинному условию."),
    ("ISNULLOPERATOR", f"{O} ЕСТЬ NULL", None, "Проверяет значение на NULL."),
    ("REFS", f"{O} ССЫЛКА", None, "Проверяет, что значение — ссылка на объект указанной таблицы."),
    ("INHIERARCHY", f"{O} В ИЕРАРХИИ", None, "Проверяет вхождение в группу с учетом подчиненных."),
    ("IN", f"{O} В", None, "Проверяет вхождение в список или в результат подзапроса."),
    ("LIKE", f"{O} ПОДОБНО", None, "Сравнение строки с шаблоном."),
    ("BETWEEN", f"{O} МЕЖДУ", None, "Проверяет попадание в диапазон, границы включаются."),
    ("temp_tables", "Временные таблицы", None, "Временная таблица живет в менеджере временных таблиц до его закрытия."),
    ("virtual_tables.html", "Виртуальные таблицы регистров", None, "Регистры дают готовые выборки: остатки, обороты, срезы."),
    ("vt_params", "Параметры виртуальных таблиц", None, "Параметры задаются в скобках после имени таблицы; условие в них сужает выборку заранее."),
    ("joins.html", "Соединения таблиц", None, "Вид соединения решает, что делать с записями без пары."),
    ("batch_queries", "Пакетные запросы", None, "Запросы пакета разделяются точкой с запятой."),
    ("query_parameters", "Параметры запроса", None, "Параметр пишется через амперсанд и задается методом УстановитьПараметр."),
    ("nestedtables_fetch.html", "Выборка вложенных таблиц", None, "Табличную часть можно выбрать как вложенную таблицу."),
]
_TEMP_TABLE = ("<TABLE class=SimplyTable border=1><TBODY><TR><TD><P>Действие</P></TD><TD><P>Конструкция</P></TD></TR>"
               "<TR><TD><P>Создать</P></TD><TD><P>ПОМЕСТИТЬ Имя</P></TD></TR>"
               "<TR><TD><P>Удалить</P></TD><TD><P>УНИЧТОЖИТЬ Имя</P></TD></TR></TBODY></TABLE>")


def build_query() -> dict[str, bytes]:
    files: dict[str, bytes] = {}
    toc: list[list] = []
    for i, (page, title, params, text) in enumerate(QUERY_PAGES, start=2):
        body = f"<H1>{title}</H1>"
        if params is not None:
            call = title.split(" ", 1)[1] if title.startswith(F + " ") else title.split(" ", 2)[2]
            call = call.split("(")[0].upper()
            body += "<PRE>" + escape(f"{call}(" + ", ".join(f"<{p.split(':')[0]}>" for p in params) + ")") + "</PRE>"
        body += f"<P>{text}</P>"
        if params:
            body += "<P><STRONG>Параметры:</STRONG></P>" + "".join(
                f"<P>&lt;{escape(p.split(':')[0])}&gt; – {escape(p.split(':', 1)[1])}.</P>" for p in params)
        if page == "temp_tables":
            body += _TEMP_TABLE
        files[page] = ("\ufeff<html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=utf-8\">"
                       f"</head><body>{body}</body></html>").encode("utf-8")
        label = title.split(" ", 1)[1] if title.startswith((F + " ", K + " ", O + " ")) else title
        toc.append([i, 1, 0, [0, 0, [1, 1, ["#", label]], "/" + page]])
    toc.insert(0, [1, 0, len(toc), *range(2, 2 + len(toc)), [0, 0, [1, 1, ["#", "Язык запросов"]], ""]])
    files["__toc__"] = ("\ufeff" + dumps([len(toc), *toc])).encode("utf-8")
    return files


def _zip(entries: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name in sorted(entries):
            info = zipfile.ZipInfo(name, ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, entries[name])
    return buf.getvalue()


def make_book(files: dict[str, bytes], book_name: str, short: str) -> bytes:
    toc = files.pop("__toc__")
    book = ("\ufeff" + dumps([7, book_name, [1, 1, ["#", short]], 2, "CONFIG", [1, 0], "ENTERPRISE", [1, 0], 0])).encode()
    elements = [("Book", book), ("FileStorage", _zip(files)), ("IndexMainData", b"\0" * 16),
                ("IndexPackBlock", _zip({"0": "\ufeff{0}".encode()})), ("MainData", b"\1\0\0\0"),
                ("PackBlock", _zip({"0": toc})), ("PackLookup", b"\0" * 8)]
    return write_container(elements, chain_page=512)


def write_all(out: Path) -> list[Path]:
    written = []
    for version, old in BOOKS:
        p = out / version / "shcntx_ru.hbk"
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(make_book(build_context(version, old), "SyntaxHelperContext", "Shcntx"))
        written.append(p)
    p = out / NEW / "shquery_ru.hbk"
    p.write_bytes(make_book(build_query(), "SyntaxHelperQueries", "Shquery"))
    written.append(p)
    return written


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else REPO / "examples" / "help"
    for p in write_all(out):
        print(f"{p}\t{p.stat().st_size}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
