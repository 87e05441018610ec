"""`v8atlas dict show|synonyms|alias`: read and edit the search dictionary beside the sources.

Edits go to ``dictionary.json`` in ``--dir`` (default: the current folder); the built-in rules
(compiler/search/data/) are shown with their origin but never edited here. A dictionary change
reaches the server by recompiling (only the dictionary is parsed again; docs/search.md).
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import click

from . import dictionary as D

FILE_NAME = "dictionary.json"


def _path(directory: str) -> Path:
    d = Path(directory)
    if d.is_file():
        return d
    toml = d / "dictionary.toml"
    if toml.is_file() and not (d / FILE_NAME).is_file():
        raise click.ClickException(f"{toml}: TOML dictionaries are read by compile but not edited "
                                   f"here; convert it to {FILE_NAME} or edit it by hand")
    return d / FILE_NAME


def _load(path: Path) -> dict[str, Any]:
    if not path.is_file():
        return {"synonyms": [], "aliases": []}
    try:
        data = D.load_file(path)
    except ValueError as e:
        raise click.ClickException(str(e)) from None
    data.setdefault("synonyms", [])
    data.setdefault("aliases", [])
    return data


def _save(path: Path, data: dict[str, Any]) -> None:
    tmp = path.with_suffix(f".tmp{os.getpid()}")
    tmp.write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def _words(group: Any) -> list[str]:
    return list(group.get("words", [])) if isinstance(group, dict) else list(group)


def _fold(words: list[str]) -> set[str]:
    return {" ".join(w.lower().replace("ё", "е").split()) for w in words}


@click.group("dict")
def dict_group() -> None:
    """Search dictionary: synonym groups and per-configuration aliases."""


@dict_group.command("show")
@click.option("--dir", "directory", default=".", show_default=True,
              help="Folder of dictionary.json (or the file itself).")
@click.option("--builtin/--no-builtin", default=True, show_default=True, help="Include built-in rules.")
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
def show_cmd(directory: str, builtin: bool, as_json: bool) -> None:
    """Every rule with its origin: built-in synonyms, then the file's synonyms and aliases."""
    if not Path(directory).exists():
        raise click.ClickException(f"{directory}: no such folder or dictionary file")
    path = _path(directory)
    parsed = D.from_tables(_load(path), str(path))
    synonyms = (D.builtin_synonyms() if builtin else []) + parsed.synonyms
    aliases = [{"phrase": a.phrase, "targets": a.targets, "config": a.config, "origin": a.origin}
               for a in parsed.aliases]
    from v8atlas.compiler.search.build import load_abbreviations
    abbreviations = load_abbreviations() if builtin else {}
    if as_json:
        click.echo(json.dumps({"synonyms": synonyms, "aliases": aliases, "abbreviations": abbreviations},
                              ensure_ascii=False, indent=1))
        return
    click.echo(f"synonym groups ({len(synonyms)}):")
    for g in synonyms:
        only = f" (only {', '.join(g['domains'])})" if g.get("domains") else ""
        click.echo(f"  [{g['origin']}] " + " / ".join(g["words"]) + only)
    click.echo(f"aliases ({len(aliases)}):")
    for a in aliases:
        where = f" (in {a['config']})" if a["config"] else ""
        click.echo(f"  [{a['origin']}] «{a['phrase']}» → {', '.join(a['targets'])}{where}")
    if builtin:
        click.echo(f"abbreviations ({len(abbreviations)}) [built-in]: "
                   + ", ".join(f"{k} → {v}" for k, v in abbreviations.items()))
        keys = D.builtin_query_keys()
        click.echo(f"query-language search keys: {sum(len(p['keys']) for p in keys['pages'].values())} "
                   f"keys for {len(keys['pages'])} pages [built-in, {keys['book']} v{keys['version']}]")


@dict_group.group("synonyms")
def synonyms_group() -> None:
    """Add or remove a synonym group in dictionary.json."""


@synonyms_group.command("add")
@click.argument("words", nargs=-1, required=True)
@click.option("--dir", "directory", default=".", show_default=True)
def synonyms_add(words: tuple[str, ...], directory: str) -> None:
    """Add WORDS as one group (phrases with spaces are quoted): клиент покупатель "заказчик услуг"."""
    clean = list(dict.fromkeys(w.strip() for w in words if w.strip()))
    if len(clean) < 2:
        raise click.ClickException("a synonym group needs at least two words or phrases")
    path = _path(directory)
    data = _load(path)
    new = _fold(clean)
    for g in data["synonyms"]:
        if _fold(_words(g)) == new:
            click.echo(f"already there: {' / '.join(_words(g))} ({path})")
            return
    data["synonyms"].append(clean)
    _save(path, data)
    click.echo(f"added synonym group {' / '.join(clean)} to {path}; recompile to use it")


@synonyms_group.command("remove")
@click.argument("words", nargs=-1, required=True)
@click.option("--dir", "directory", default=".", show_default=True)
def synonyms_remove(words: tuple[str, ...], directory: str) -> None:
    """Remove every group of dictionary.json that contains all WORDS."""
    path = _path(directory)
    data = _load(path)
    want = _fold(list(words))
    keep = [g for g in data["synonyms"] if not want <= _fold(_words(g))]
    removed = len(data["synonyms"]) - len(keep)
    if not removed:
        raise click.ClickException(f"{path}: no synonym group contains {', '.join(words)} "
                                   "(built-in groups cannot be removed, only overridden by aliases)")
    data["synonyms"] = keep
    _save(path, data)
    click.echo(f"removed {removed} group(s) from {path}; recompile to apply")


@dict_group.group("alias")
def alias_group() -> None:
    """Add or remove an alias: a phrase that names exact objects."""


@alias_group.command("add")
@click.argument("phrase")
@click.argument("targets", nargs=-1, required=True)
@click.option("--config", default=None, help="Only in this configuration (default: any that has it).")
@click.option("--dir", "directory", default=".", show_default=True)
def alias_add(phrase: str, targets: tuple[str, ...], config: str | None, directory: str) -> None:
    """PHRASE names TARGETS (full names: Справочник.Пользователи). Checked at compile."""
    if not phrase.strip():
        raise click.ClickException("the alias phrase is empty")
    bad = [t for t in targets if "." not in t]
    if bad:
        raise click.ClickException(f"targets are full names like Справочник.Пользователи: {', '.join(bad)}")
    path = _path(directory)
    data = _load(path)
    for a in data["aliases"]:
        if isinstance(a, dict) and _fold([a.get("phrase", "")]) == _fold([phrase]) \
                and a.get("config") == config:
            merged = list(dict.fromkeys([*a.get("targets", []), *targets]))
            a["targets"] = merged
            _save(path, data)
            click.echo(f"alias «{phrase}» now → {', '.join(merged)} ({path}); recompile to use it")
            return
    entry: dict[str, Any] = {"phrase": phrase.strip(), "targets": list(targets)}
    if config:
        entry["config"] = config
    data["aliases"].append(entry)
    _save(path, data)
    click.echo(f"added alias «{phrase}» → {', '.join(targets)} to {path}; recompile to use it")


@alias_group.command("remove")
@click.argument("phrase")
@click.option("--config", default=None)
@click.option("--dir", "directory", default=".", show_default=True)
def alias_remove(phrase: str, config: str | None, directory: str) -> None:
    """Remove the alias PHRASE (of --config, when given)."""
    path = _path(directory)
    data = _load(path)
    keep = [a for a in data["aliases"] if not (
        isinstance(a, dict) and _fold([a.get("phrase", "")]) == _fold([phrase])
        and (config is None or a.get("config") == config))]
    if len(keep) == len(data["aliases"]):
        raise click.ClickException(f"{path}: no alias «{phrase}»")
    data["aliases"] = keep
    _save(path, data)
    click.echo(f"removed alias «{phrase}» from {path}; recompile to apply")
