"""compare_configurations: objects and fields added, removed or changed between two
configurations of the bundle (two versions, or a base and base + extensions)."""
from __future__ import annotations

import difflib
import re
from typing import Any

import numpy as np

from v8atlas.formats import schema as S

from ..snapshot import ConfigInfo, Snapshot
from .answer import answer, headline, paged
from .common import resolve_config
from .metadata import METADATA, empty_domain
from .render import value_text
from .result import FOUND, NOT_FOUND, ToolInputError, ToolResult

# Card keys that name the card's place rather than its content.
_IDENTITY_KEYS = {"config", "key", "id", "configuration", "path", "file", "uuid", "source_file", "schema"}
# Card keys derived from the rest of the configuration (relation counts): they change whenever
# any referring object changes, so they are summed up in one line, not listed per object.
_DERIVED_KEYS = {"relations"}


def _objects(snap: Snapshot, cfg: ConfigInfo) -> dict[str, int]:
    c = snap.catalog
    mask = (np.asarray(c.domain) == c.domains.index(METADATA)) & (np.asarray(c.config) == cfg.index)
    return {c.titles[int(d)]: int(d) for d in np.nonzero(mask)[0]}


def _content(card: Any, top: bool = True) -> Any:
    """The card without identity keys (and, at the top level, without derived relation counts)."""
    if isinstance(card, dict):
        return {k: _content(v, False) for k, v in card.items()
                if k not in _IDENTITY_KEYS and not (top and k in _DERIVED_KEYS)}
    if isinstance(card, list):
        return [_content(x, False) for x in card]
    return card


# Card keys in the card's language (change lines speak it); other keys are shown as they are.
_LABELS: dict[str, tuple[str, str]] = {
    "standard_attributes": ("Стандартные реквизиты", "Standard attributes"),
    "attributes": ("Реквизиты", "Attributes"), "dimensions": ("Измерения", "Dimensions"),
    "resources": ("Ресурсы", "Resources"), "tabular_sections": ("Табличные части", "Tabular sections"),
    "addressing_attributes": ("Реквизиты адресации", "Addressing attributes"),
    "accounting_flags": ("Признаки учета", "Accounting flags"),
    "ext_dimension_accounting_flags": ("Признаки учета субконто", "Ext. dimension accounting flags"),
    "columns": ("Графы", "Columns"), "values": ("Значения", "Values"), "enum_values": ("Значения", "Values"),
    "query_tables": ("Таблицы запросов", "Query tables"), "forms": ("Формы", "Forms"),
    "commands": ("Команды", "Commands"), "templates": ("Макеты", "Templates"),
    "predefined": ("Предопределенные", "Predefined"), "children": ("Подчиненные", "Children"),
    "properties": ("Свойства", "Properties"), "content": ("Состав", "Content"), "type": ("Тип", "Type"),
    "types": ("Тип", "Type"), "comment": ("Комментарий", "Comment"), "synonym": ("Синоним", "Synonym"),
    "synonyms": ("Синонимы", "Synonyms"), "fields": ("Поля", "Fields"), "params": ("Параметры", "Parameters"),
    "params_alias": ("Параметры (англ.)", "Parameters (Russian)"), "flags": ("Флаги", "Flags"),
    "common_attributes": ("Общие реквизиты", "Common attributes"), "movements": ("Движения", "Movements"),
    "registers": ("Регистры", "Registers"), "recorders": ("Регистраторы", "Recorders"),
    "route_points": ("Точки маршрута", "Route points"), "recalculations": ("Перерасчеты", "Recalculations"),
    "other_children": ("Прочие подчиненные", "Other children"), "extension": ("Расширение", "Extension"),
    "note": ("Примечание", "Note"), "description": ("Описание", "Description"),
    "unlimited": ("Неограниченные строки", "Unlimited strings"), "recipe": ("Рецепт", "Recipe"),
    "based_on": ("Ввод на основании", "Based on"), "owners": ("Владельцы", "Owners"),
    "register_records": ("Движения", "Register records"), "documents": ("Документы", "Documents"),
    "registered_documents": ("Графы журнала: документы", "Registered documents"),
    "subsystems": ("Подсистемы", "Subsystems"), "source": ("Источник", "Source"),
    "method_name": ("Имя метода", "Method name"), "handler": ("Обработчик", "Handler"),
    "event": ("Событие", "Event"), "indexing": ("Индексирование", "Indexing"),
    "fill_checking": ("Проверка заполнения", "Fill checking"), "master": ("Ведущее", "Master"),
    "main_filter": ("Основной отбор", "Main filter"), "use": ("Использование", "Use"),
    "adopted_by": ("Заимствован расширениями", "Adopted by"), "added_by": ("Добавлен расширением", "Added by"),
    "additions": ("Добавлено расширениями", "Additions"),
    # keys added by the code and forms domains (issues 11, 12)
    "api": ("Программный интерфейс", "API"), "code": ("Код", "Code"), "modules": ("Модули", "Modules"),
    "form": ("Форма", "Form"), "rights": ("Права", "Rights"), "roles": ("Роли", "Roles"),
}
_ITEM_NAME_KEYS = ("name", "object", "full_name", "title")
LIST_IN_LINE = 20     # named items listed on one change line before "… N more"
_WORDS = re.compile(r"\S+")


def _label(key: str, lang: str) -> str:
    pair = _LABELS.get(key)
    return (pair[1] if lang == "en" else pair[0]) if pair else key


def _item_name(x: Any) -> str | None:
    if isinstance(x, dict):
        k = next((k for k in _ITEM_NAME_KEYS if x.get(k)), None)
        return str(x[k]) if k else None
    return None if isinstance(x, (list, tuple)) else str(x)


def _types(v: Any) -> list[str]:
    """A card type value (text, {type, types}, a field dict) as its list of member types."""
    if isinstance(v, dict):
        if isinstance(v.get("types"), list) and v["types"]:
            return [str(t) for t in v["types"]]
        return [str(v["type"])] if v.get("type") else []
    return [str(v)] if v not in (None, "") else []


def _quoted(names: list[str], suffix: Any = None) -> str:
    shown = [f"`{n}`" + (f" ({suffix(n)})" if suffix and suffix(n) else "") for n in names[:LIST_IN_LINE]]
    more = len(names) - len(shown)
    return ", ".join(shown) + (f", … {more} more" if more > 0 else "")


def _type_lines(path: str, a: Any, b: Any) -> list[str]:
    ta, tb = _types(a), _types(b)
    if ta == tb:
        return []
    if len(ta) <= 1 and len(tb) <= 1:
        return [f"  ~ {path}: {ta[0] if ta else '∅'} → {tb[0] if tb else '∅'}"]
    added = [t for t in tb if t not in ta]
    removed = [t for t in ta if t not in tb]
    parts = ([f"+ {_quoted(added)}"] if added else []) + ([f"− {_quoted(removed)}"] if removed else [])
    return [f"  ~ {path} ({len(ta)} → {len(tb)}): {'; '.join(parts) or 'same types, other order'}"]


def _is_text(a: Any, b: Any) -> bool:
    texts = [x for x in (a, b) if isinstance(x, str)]
    return len(texts) == 2 and any(" " in t or "\n" in t for t in texts) and max(map(len, texts)) > 40


def _text_lines(path: str, a: str, b: str) -> list[str]:
    """Changed words (one-line texts) or changed lines (multi-line texts), with a little context."""
    if "\n" in a or "\n" in b:
        la, lb = a.splitlines(), b.splitlines()
        out = []
        for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, la, lb, autojunk=False).get_opcodes():
            if tag != "equal":
                out += [f"  − {path}: {_cut(x)}" for x in la[i1:i2]]
                out += [f"  + {path}: {_cut(x)}" for x in lb[j1:j2]]
        return out
    wa, wb = _WORDS.findall(a), _WORDS.findall(b)
    parts = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, wa, wb, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        before = " ".join(wa[max(0, i1 - 3):i1])
        lead = f"…{before} " if before else ""
        old, new = " ".join(wa[i1:i2]), " ".join(wb[j1:j2])
        parts.append(lead + (f"«{_cut(old)}» → «{_cut(new)}»" if old and new
                             else f"+ «{_cut(new)}»" if new else f"− «{_cut(old)}»"))
    return [f"  ~ {path}: " + "; ".join(parts)] if parts else []


def _cut(s: str, n: int = 120) -> str:
    return s if len(s) <= n else s[:n] + "…"


def _list_lines(path: str, la: list[Any], lb: list[Any], lang: str) -> list[str]:
    """Lists compared as sets of named items: added, removed, and each common item's changes."""
    na = {_item_name(x): x for x in la}
    nb = {_item_name(x): x for x in lb}
    if None in na or None in nb:        # unnamed items: say how the list changed as a whole
        return [f"  ~ {path}: {len(la)} → {len(lb)} item(s)"]
    added = [n for n in nb if n not in na]
    removed = [n for n in na if n not in nb]
    out = []
    if added:
        kinds = {n: ", ".join(_types(nb[n])) if isinstance(nb[n], dict) else "" for n in added}
        out.append(f"  + {path}{f' ({len(added)})' if len(added) > 1 else ''}: {_quoted(added, kinds.get)}")
    if removed:
        out.append(f"  − {path}{f' ({len(removed)})' if len(removed) > 1 else ''}: {_quoted(removed)}")
    for n in na:
        if n in nb and na[n] != nb[n]:
            out += _diff(na[n], nb[n], f"{path} › `{n}`", lang)
    if not out and list(na) != list(nb):
        out.append(f"  ~ {path}: {'order changed' if lang == 'en' else 'изменен порядок'}")
    return out


def _is_type(v: Any) -> bool:
    """A rendered composite type {type, types}; {type: text} is compared as a dict (its Тип)."""
    return isinstance(v, dict) and isinstance(v.get("types"), list) and set(v) <= {"type", "types"}


def _diff(a: Any, b: Any, path: str, lang: str) -> list[str]:
    if a == b:
        return []
    if _is_type(a) or _is_type(b):
        return _type_lines(path, a, b)
    if isinstance(a, dict) or isinstance(b, dict):
        da = a if isinstance(a, dict) else {}
        db = b if isinstance(b, dict) else {}
        out = []
        # A field's "type" text and "types" list are one fact: its type (a dict under "type" is
        # a property holding a type value and is compared as such below).
        field_type = not isinstance(da.get("type"), dict) and not isinstance(db.get("type"), dict) \
            and any(k in da or k in db for k in ("type", "types"))
        if field_type:
            out += _type_lines(f"{path} › {_label('type', lang)}" if path else _label("type", lang),
                               {k: da.get(k) for k in ("type", "types")},
                               {k: db.get(k) for k in ("type", "types")})
        for key in dict.fromkeys([*da, *db]):
            if key in _IDENTITY_KEYS or (field_type and key in ("type", "types")) or da.get(key) == db.get(key):
                continue
            label = _label(key, lang)
            out += _diff(da.get(key), db.get(key), f"{path} › {label}" if path else label, lang)
        return out
    if isinstance(a, list) or isinstance(b, list):
        return _list_lines(path, a if isinstance(a, list) else [], b if isinstance(b, list) else [], lang)
    if _is_text(a, b):
        return _text_lines(path, str(a), str(b))
    return [f"  ~ {path}: {_short(a)} → {_short(b)}"]


# Sections computed from the others (query tables repeat the fields): listed only when the
# other sections show no change, so one added attribute is one line, not four.
_DERIVED_SECTIONS = ("query_tables",)


def _field_diff(a: Any, b: Any) -> list[str]:
    """Lines describing how two cards differ, in the card's language, section by section."""
    lang = "en" if (isinstance(b, dict) and b.get("language") == "en") else "ru"
    da, db = (x if isinstance(x, dict) else {} for x in (a, b))
    own = _diff({k: v for k, v in da.items() if k not in _DERIVED_SECTIONS},
                {k: v for k, v in db.items() if k not in _DERIVED_SECTIONS}, "", lang)
    if own:
        return own
    return _diff({k: da.get(k) for k in _DERIVED_SECTIONS}, {k: db.get(k) for k in _DERIVED_SECTIONS}, "", lang)


def _short(v: Any) -> str:
    s = "∅" if v in (None, "", [], {}) else value_text(v, shown=5)
    return _cut(s, 80)


def compare_configurations(snap: Snapshot, a: str, b: str, name: str | None = None,
                           cursor: str | None = None) -> ToolResult:
    if (r := empty_domain(snap)) is not None:
        return r
    ca, cb = resolve_config(snap, a), resolve_config(snap, b)
    assert ca is not None and cb is not None
    if ca.name == cb.name:
        raise ToolInputError("bad_argument", "`a` and `b` name the same configuration")
    oa, ob = _objects(snap, ca), _objects(snap, cb)
    args = {"a": ca.name, "b": cb.name, "name": name, "cursor": cursor}
    if name:
        ta = _find_title(snap, oa, name)
        tb = _find_title(snap, ob, name)
        if ta is None and tb is None:
            return answer(NOT_FOUND, f"{name!r} is in neither `{ca.name}` nor `{cb.name}`.", (),
                          {"object": name})
        title = ta or tb
        head = [headline(FOUND, f"`{title}`: `{ca.name}` → `{cb.name}`")]
        if ta is None:
            body = [f"Added in `{cb.name}` (absent from `{ca.name}`)."]
        elif tb is None:
            body = [f"Removed: present in `{ca.name}`, absent from `{cb.name}`."]
        else:
            diff = _field_diff(_content(snap.catalog.card(oa[ta])), _content(snap.catalog.card(ob[tb])))
            body = diff or ["No differences."]
        return paged(snap, "compare_configurations", args, FOUND, head, body, {"object": title})
    added, removed, changed, relations_only = _diff_all(snap, ca, cb, oa, ob)
    head = [headline(FOUND, f"`{ca.name}` → `{cb.name}`: {len(added)} object(s) added, "
                            f"{len(removed)} removed, {len(changed)} changed")
            + ("" if added or removed or changed else " (identical)")
            + (f"; {relations_only} other object(s) differ only in how many objects refer to them "
               f"(relation counts, not listed; `get_relations` shows them)" if relations_only else "")]
    body: list[str] = []
    if added:
        body.append(f"**Added** ({len(added)}):")
        body += [f"- `{t}`" for t in added]
    if removed:
        body.append(f"**Removed** ({len(removed)}):")
        body += [f"- `{t}`" for t in removed]
    if changed:
        body.append(f"**Changed** ({len(changed)}; `name=` shows one object's field diff):")
        for t, lines in changed:
            body.append(f"- `{t}`\n" + "\n".join(lines[:8])
                        + (f"\n  … {len(lines) - 8} more (name=`{t}`)" if len(lines) > 8 else ""))
    return paged(snap, "compare_configurations", args, FOUND, head, body,
                  {"added": len(added), "removed": len(removed), "changed": len(changed),
                   "relations_only": relations_only})


# Diffs of whole configurations, kept per snapshot: paging through a long diff re-asks it.
_CACHE_SIZE = 4


def _derived(card: Any) -> Any:
    return {k: card.get(k) for k in _DERIVED_KEYS} if isinstance(card, dict) else None


def _diff_all(snap: Snapshot, ca: ConfigInfo, cb: ConfigInfo, oa: dict[str, int], ob: dict[str, int]
              ) -> tuple[list[str], list[str], list[tuple[str, list[str]]], int]:
    """Added, removed, changed (with field lines) and the count of objects whose only
    difference is their derived relation counts."""
    cache: dict = snap.__dict__.setdefault("_compare_cache", {})
    key = (ca.name, cb.name)
    if key in cache:
        return cache[key]
    added = sorted(ob.keys() - oa.keys())
    removed = sorted(oa.keys() - ob.keys())
    changed: list[tuple[str, list[str]]] = []
    relations_only = 0
    records = snap.bundle.records(S.DOC_CARDS)
    for t in sorted(oa.keys() & ob.keys()):
        if records.raw(oa[t]) == records.raw(ob[t]):
            continue
        ra, rb = records[oa[t]], records[ob[t]]
        ka, kb = _content(ra), _content(rb)
        if ka != kb:
            changed.append((t, _field_diff(ka, kb)))
        elif _derived(ra) != _derived(rb):
            relations_only += 1
    if len(cache) >= _CACHE_SIZE:
        cache.pop(next(iter(cache)))
    cache[key] = (added, removed, changed, relations_only)
    return cache[key]


def _find_title(snap: Snapshot, objects: dict[str, int], name: str) -> str | None:
    if name in objects:
        return name
    docs = set(snap.catalog.lookup(name))
    for t, d in objects.items():
        if d in docs:
            return t
    return None
