"""A field of a query table or object, its type in 1C notation, and the unlimited-string recipe.

``Field`` carries its name in both languages (fixed names translate, user names do not) and
its model ``TypeDescription``; ``render_type`` writes the type the way 1C shows it
(``Строка(50)``, ``Строка (неогр.)``, ``Число(15,2,неотр.)``, ``СправочникСсылка.X``), and
``recipe`` says how to use an unlimited string where the query language forbids it
(domain-1c.md §5.4).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from . import model as M
from . import words as W


@dataclass
class Field:
    ru: str                                   # name in Russian (the user's name if not a fixed word)
    en: str                                   # name in English
    type: M.TypeDescription = field(default_factory=M.TypeDescription)
    role: str = ""                            # standard / attribute / dimension / resource / generated…
    flags: dict[str, Any] = field(default_factory=dict)   # indexing, master, balance, use_in_totals…
    synonym: str = ""
    comment: str = ""
    origin: str = ""                          # extension that added it ("" = the configuration)
    unverified: bool = False                  # domain-1c.md marks its presence unverified

    def name(self, language: str) -> str:
        return self.en if language == W.EN else self.ru


def fixed_field(ru: str, *types: M.TypeRef, role: str = "standard", unverified: bool = False) -> Field:
    """A field with a platform-fixed name (``Ссылка``/``Ref``, ``Субконто1``/``ExtDimension1``)."""
    return Field(ru, W.field_name(ru, W.EN), M.TypeDescription(list(types)), role, unverified=unverified)


def user_field(name: str, td: M.TypeDescription | None, role: str, **kw: Any) -> Field:
    return Field(name, name, td or M.TypeDescription(), role, **kw)


# -- type constructors used by the rules ---------------------------------------------------

def t_bool() -> M.TypeRef:
    return M.TypeRef(M.BOOLEAN)


def t_datetime() -> M.TypeRef:
    return M.TypeRef(M.DATE, date_fractions=M.DATE_TIME)


def t_number(digits: int | None = None, fraction: int | None = 0) -> M.TypeRef:
    return M.TypeRef(M.NUMBER, digits=digits, fraction=fraction if digits else None)


def t_string(length: int | None = 0, fixed: bool = False) -> M.TypeRef:
    """``length`` 0 = unlimited; None = a platform string whose length is not stated (comparable)."""
    return M.TypeRef(M.STRING, length=length, fixed=fixed)


def t_ref(cls: str, name: str) -> M.TypeRef:
    """Reference to object ``cls.name`` (``Catalog``, ``X`` → ``CatalogRef.X``)."""
    return M.TypeRef(M.REF, ref_class=cls + "Ref", name=name)


def t_platform(en_name: str) -> M.TypeRef:
    return M.TypeRef(M.PLATFORM, name=en_name)


# -- rendering -------------------------------------------------------------------------------

def render_member(t: M.TypeRef, language: str) -> str:
    k = t.kind
    if k == M.STRING:
        base = W.type_name("Строка", language)
        if t.length is None:
            return base
        if not t.length:
            return f"{base} ({W.UNLIMITED[language]})"
        return f"{base}({t.length}{',' + W.FIXED[language] if t.fixed else ''})"
    if k == M.NUMBER:
        base = W.type_name("Число", language)
        if t.digits is None:
            return base
        sign = "," + W.NONNEGATIVE[language] if t.nonnegative else ""
        return f"{base}({t.digits},{t.fraction or 0}{sign})"
    if k == M.DATE:
        word = {M.DATE_ONLY: "Дата", M.TIME_ONLY: "Время"}.get(t.date_fractions or "", "ДатаВремя")
        return W.type_name(word, language)
    simple = {M.BOOLEAN: "Булево", M.BINARY: "ДвоичныеДанные", M.VALUE_STORAGE: "ХранилищеЗначения",
              M.UUID: "УникальныйИдентификатор", M.NULL: "Null", M.ANY_REF: "ЛюбаяСсылка"}
    if k in simple:
        return W.type_name(simple[k], language)
    if k in (M.REF, M.REF_SET, M.CONFIG_TYPE):
        head = W.generated_type(t.ref_class, language)
        return f"{head}.{t.name}" if t.name else head
    if k == M.DEFINED_TYPE:
        return f"{W.type_name('ОпределяемыйТип', language)}.{t.name}"
    if k == M.CHARACTERISTIC:
        return f"{W.type_name('Характеристика', language)}.{t.name}"
    if k == M.PLATFORM:
        return W.platform_type(t.name, language)
    return t.name or k


def render_type(td: M.TypeDescription, language: str) -> tuple[str, list[str] | None]:
    """(text, members): ``("Строка(50)", None)`` or ``("Составной (3)", [three members])``."""
    members = [render_member(t, language) for t in td.types]
    if not members:
        return "", None
    if len(members) == 1:
        return members[0], None
    return f"{W.type_name('Составной', language)} ({len(members)})", members


def is_unlimited(td: M.TypeDescription) -> bool:
    """A string member of unlimited length makes the whole field unlimited (§5.4)."""
    return any(t.unlimited for t in td.types)


# -- the ПОДСТРОКА recipe (domain-1c.md §5.4) --------------------------------------------------
#
# An unlimited string cannot be compared, grouped, ordered, joined on or made distinct; the
# workaround is ПОДСТРОКА(Поле, 1, N). N never exceeds 1024: the platform returns a limited
# string only for a constant length ≤ 1024. Below that, N follows the field's meaning, read
# from the words of its name: the first word (in the name's reading order from the head: left
# to right for Russian, right to left for English CamelCase) that is one of the words below,
# in the nominative form — so ``ПолноеИмя`` is a name, ``ОписаниеКода`` is not a code:
#   * identifiers — codes, keys, ids, hashes, versions, numbers, prefixes, tokens: 100
#     (a GUID is 36 characters, a SHA-256 hex digest 64, version strings far less);
#   * one-line human values — names, titles, presentations, paths, addresses, URLs,
#     e-mails, phones: 500;
#   * anything else — comments, descriptions, texts, XML/JSON bodies, settings: 1024, the
#     longest prefix that still yields a comparable string.
RECIPE_MAX = 1024
_KEY_WORDS = {
    "код", "ключ", "идентификатор", "ид", "хеш", "хэш", "версия", "префикс", "номер", "инн", "кпп",
    "артикул", "токен", "guid", "uuid", "code", "key", "id", "identifier", "hash", "version",
    "prefix", "number", "token", "checksum",
}
_NAME_WORDS = {
    "имя", "наименование", "название", "заголовок", "представление", "путь", "адрес", "url", "uri",
    "email", "почта", "телефон", "name", "title", "caption", "presentation", "path", "address",
    "phone",
}
_WORD_RE = re.compile(r"[A-ZА-ЯЁ]+(?![a-zа-яё])|[A-ZА-ЯЁ]?[a-zа-яё]+|\d+")


def name_words(name: str) -> list[str]:
    """CamelCase words of a name in head-first order (English names reversed)."""
    parts = [p.lower() for p in _WORD_RE.findall(name) if not p.isdigit()]
    latin = bool(parts) and all("a" <= c <= "z" for c in "".join(parts))
    return list(reversed(parts)) if latin else parts


def recipe_length(name: str) -> int:
    for w in name_words(name):
        if w in _KEY_WORDS:
            return 100
        if w in _NAME_WORDS:
            return 500
    return RECIPE_MAX


def recipe(name: str, language: str, qualifier: str = "") -> str:
    """``ПОДСТРОКА(Комментарий, 1, 1024)``; ``qualifier`` prefixes the field (a table alias)."""
    target = f"{qualifier}.{name}" if qualifier else name
    return f"{W.SUBSTRING[language]}({target}, 1, {recipe_length(name)})"
