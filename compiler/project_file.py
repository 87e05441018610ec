"""v8atlas.toml: read and validated in this one place, against the tables domains declare.

Top-level keys are the project's own (``PROJECT_KEYS``); every ``[[table]]`` is declared by
a source kind of a registered domain (``formats.domain.TomlTable``). An unknown key, a wrong
type or value is a ``SourceError`` naming the file, the table and the key — never a traceback.
"""
from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

from v8atlas.formats.domain import Domain, SourceError, TomlKey, TomlTable

PROJECT_FILE = "v8atlas.toml"
_SAFE_NAME = re.compile(r"^[A-Za-z0-9А-Яа-яЁё_][A-Za-z0-9А-Яа-яЁё_.\-]*$")


def check_bundle_name(value: Any) -> str | None:
    """A bundle name becomes a folder name: no separators, no leading dot."""
    if not _SAFE_NAME.match(value) or ".." in value:
        return "must be a plain name (letters, digits, _ . -), not a path"
    return None


def _non_empty(value: Any) -> str | None:
    return None if value.strip() else "must not be empty"


PROJECT_KEYS: tuple[TomlKey, ...] = (
    TomlKey("name", (str,), "bundle name", check_bundle_name),
)
SOURCE_KEY = TomlKey("source", (str,), "path of the source, relative to this file", _non_empty)


def known_tables(domains: list[Domain]) -> dict[str, TomlTable]:
    return {t.name: t for d in domains for k in d.source_kinds for t in k.toml_tables}


def _type_names(types: tuple[type, ...]) -> str:
    names = {str: "a string", int: "an integer", bool: "true or false", float: "a number",
             list: "a list", dict: "a table"}
    return " or ".join(names.get(t, t.__name__) for t in types)


def _check_value(where: str, key: TomlKey, value: Any) -> None:
    # bool is an int in Python; a TOML `true` is not a valid integer key
    if not isinstance(value, key.types) or (isinstance(value, bool) and bool not in key.types):
        raise SourceError(f"{where}: {key.name} must be {_type_names(key.types)} ({key.meaning}), "
                          f"got {value!r}")
    problem = key.check(value) if key.check else None
    if problem:
        raise SourceError(f"{where}: {key.name} {problem}, got {value!r}")


def _check_keys(where: str, entry: dict[str, Any], keys: tuple[TomlKey, ...]) -> None:
    by_name = {k.name: k for k in keys}
    for name, value in entry.items():
        key = by_name.get(name)
        if key is None:
            raise SourceError(f"{where}: unknown key {name!r}; known keys: "
                              f"{', '.join(by_name) or 'none'}")
        _check_value(where, key, value)


def read_project_file(path: Path, domains: list[Domain]) -> dict[str, Any]:
    """The validated content of one v8atlas.toml: top-level keys and ``[[table]]`` lists."""
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise SourceError(f"{path}: cannot read project file ({e})") from None
    tables = known_tables(domains)
    top = {k.name: k for k in PROJECT_KEYS}
    for name, value in data.items():
        if name in top:
            _check_value(str(path), top[name], value)
            continue
        table = tables.get(name)
        if table is None:
            known = [*top, *(f"[[{t}]]" for t in tables)]
            raise SourceError(f"{path}: unknown key {name!r}; known: {', '.join(known)}")
        if not isinstance(value, list) or not all(isinstance(e, dict) for e in value):
            raise SourceError(f"{path}: {name} must be written as [[{name}]] tables, each with "
                              f"source = \"path\"")
        for i, entry in enumerate(value, 1):
            where = f"{path}: [[{name}]] #{i}"
            if "source" not in entry:
                raise SourceError(f"{where}: needs source = \"path\"")
            _check_keys(where, entry, (SOURCE_KEY, *table.keys))
    return data
