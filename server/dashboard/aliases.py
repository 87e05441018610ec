"""The dictionary file the dashboard writes aliases into (format of compiler/dictionary.py).

``dictionary.json``::

    {"synonyms": [["клиент", "покупатель"], …],
     "aliases": [{"phrase": "заказ клиента", "targets": ["Документ.ЗаказПокупателя"], "config": "БСП"}]}

Only ``aliases`` is touched (one entry per phrase and configuration); every other key is kept
as it was. The file is replaced
atomically so a compile running at the same moment reads the old or the new one, whole.
"""
from __future__ import annotations

import json
import os
import re
import unicodedata
from pathlib import Path
from typing import Any

MAX_PHRASE = 200
MAX_TARGETS = 20
GLOBAL = "*"   # how an alias without a configuration (it applies to all of them) is listed
# "Класс.Имя" with an optional child path: the exact full name of a metadata object.
_FULL_NAME = re.compile(r"^[^\W\d][\w]*(\.[^\W\d][\w]*)+$")


class AliasError(ValueError):
    """Input a person can fix; the message says what is wrong."""


def clean_phrase(phrase: str) -> str:
    text = unicodedata.normalize("NFC", phrase or "").strip()
    text = re.sub(r"\s+", " ", text)
    if not text:
        raise AliasError("the phrase is empty")
    if len(text) > MAX_PHRASE:
        raise AliasError(f"the phrase is longer than {MAX_PHRASE} characters")
    if any(unicodedata.category(ch) == "Cc" for ch in text):
        raise AliasError("the phrase contains control characters")
    return text


def clean_targets(raw: str | list[str]) -> list[str]:
    items = raw.splitlines() if isinstance(raw, str) else list(raw)
    targets: list[str] = []
    for item in items:
        name = unicodedata.normalize("NFC", item).strip()
        if not name:
            continue
        if not _FULL_NAME.match(name):
            raise AliasError(f"{name!r} is not an object's full name such as Документ.ЗаказПокупателя")
        if name not in targets:
            targets.append(name)
    if not targets:
        raise AliasError("name at least one object (its full name, one per line)")
    if len(targets) > MAX_TARGETS:
        raise AliasError(f"at most {MAX_TARGETS} objects per phrase")
    return targets


def read_dictionary(path: Path) -> dict[str, Any]:
    if not path.is_file():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as e:
        raise AliasError(f"{path.name}: cannot read the dictionary ({e}); fix or remove it first") from None
    if not isinstance(data, dict):
        raise AliasError(f"{path.name}: the dictionary is not a JSON object")
    return data


def _entries(data: dict[str, Any], path: Path) -> list[Any]:
    entries = data.get("aliases")
    if entries is None:
        entries = data["aliases"] = []
    if not isinstance(entries, list):
        raise AliasError(f"{path.name}: \"aliases\" is not a list of {{phrase, targets, config}}")
    return entries


def aliases_by_config(data: dict[str, Any]) -> dict[str, dict[str, list[str]]]:
    """{config: {phrase: targets}} for showing; an alias without config is listed under "*"."""
    out: dict[str, dict[str, list[str]]] = {}
    entries = data.get("aliases")
    for entry in entries if isinstance(entries, list) else []:
        if not isinstance(entry, dict) or not isinstance(entry.get("phrase"), str):
            continue
        targets = entry.get("targets")
        targets = [targets] if isinstance(targets, str) else [str(t) for t in targets or []]
        out.setdefault(str(entry.get("config") or GLOBAL), {})[entry["phrase"]] = targets
    return out


def set_alias(path: Path, config: str, phrase: str, targets: list[str]) -> dict[str, Any]:
    """Add one alias, or replace the targets of the same phrase in the same configuration."""
    if not config:
        raise AliasError("choose the configuration the alias belongs to")
    data = read_dictionary(path)
    entries = _entries(data, path)
    for entry in entries:
        if isinstance(entry, dict) and entry.get("phrase") == phrase and entry.get("config") == config:
            entry["targets"] = targets
            break
    else:
        entries.append({"phrase": phrase, "targets": targets, "config": config})
    write_dictionary(path, data)
    return data


def remove_alias(path: Path, config: str, phrase: str) -> bool:
    """Remove the alias of ``phrase`` in ``config``; ``GLOBAL`` names the one without a config."""
    data = read_dictionary(path)
    entries = _entries(data, path)
    wanted = None if config == GLOBAL else config
    kept = [e for e in entries if not (isinstance(e, dict) and e.get("phrase") == phrase
                                       and (e.get("config") or None) == wanted)]
    if len(kept) == len(entries):
        return False
    data["aliases"] = kept
    write_dictionary(path, data)
    return True


def write_dictionary(path: Path, data: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp{os.getpid()}")
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(data, f, ensure_ascii=False, indent=2)
        f.write("\n")
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
