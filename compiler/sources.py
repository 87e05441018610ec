"""Source discovery: which inputs a compile has, of which kind, with a cheap fingerprint.

Every domain plugs in through a *source plugin* module (listed in ``SOURCE_PLUGINS``)::

    KIND = "configuration"                       # the domain it feeds
    def detect(path: Path) -> str | None: ...    # its format name if the path is one of its own
    def parse(source: Source, report: CompileReport) -> object: ...   # picklable, cached

A ``v8atlas.toml`` beside the sources names configurations, sets a configuration's platform
version and attaches extensions to a base (docs/compile.md).
"""
from __future__ import annotations

import importlib
import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from .fingerprint import SKIP_DIRS

PROJECT_FILE = "v8atlas.toml"

# Order matters only for detection: the first plugin that claims a path gets it.
SOURCE_PLUGINS = (
    "v8atlas.compiler.config.plugin",
    "v8atlas.compiler.help.plugin",
    "v8atlas.compiler.dictionary",
)

_MAX_SCAN_DEPTH = 4


class SourceError(Exception):
    """A source argument cannot be used; the message names it and says what was expected."""


@dataclass(frozen=True)
class Source:
    kind: str                     # domain: "configuration", "help", "dictionary"
    format: str                   # "designer", "edt", "designer-zip", "hbk", "dictionary-json"…
    path: Path
    name: str                     # how messages name it: relative to the working folder when inside it
    options: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)



# Binary files of the platform that hold a configuration: they are dumped to files first.
BINARY_DUMPS = {
    ".cf": "a configuration file (.cf, a binary v8 container) is not read directly",
    ".cfe": "a configuration extension file (.cfe, a binary v8 container) is not read directly",
    ".cfu": "a configuration update file (.cfu) is not read directly",
    ".dt": "an infobase dump (.dt) is not read directly",
}
HOW_TO_DUMP = (
    ": dump the configuration to files first and compile that folder. In Designer: "
    "Конфигурация → Загрузить конфигурацию из файла… (for a .cf), then Конфигурация → Выгрузить "
    "конфигурацию в файлы… (Configuration → Dump configuration to files); from the command line: "
    "`1cv8 DESIGNER /F <infobase> /LoadCfg <file.cf> /DumpConfigToFiles <folder>` (an extension: "
    "add `-Extension <name>`), or with ibcmd: `ibcmd infobase config export --db-path=<infobase> <folder>`.")

def import_optional(names: tuple[str, ...]) -> list[ModuleType]:
    """Import the modules that exist: a domain not in this install (or not written) is absent."""
    modules = []
    for name in names:
        try:
            modules.append(importlib.import_module(name))
        except ModuleNotFoundError as e:
            if e.name and name.startswith(e.name):
                continue
            raise
    return modules


def load_plugins() -> list[ModuleType]:
    return import_optional(SOURCE_PLUGINS)


def _display_name(path: Path) -> str:
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return path.as_posix()


def _detect(path: Path, plugins: list[ModuleType]) -> Source | None:
    for plugin in plugins:
        fmt = plugin.detect(path)
        if fmt:
            return Source(plugin.KIND, fmt, path, _display_name(path))
    return None


def _scan(path: Path, plugins: list[ModuleType], depth: int, found: list[Source]) -> None:
    src = _detect(path, plugins)
    if src is not None:
        found.append(src)
        return
    if path.is_dir() and depth < _MAX_SCAN_DEPTH:
        for child in sorted(path.iterdir()):
            if child.name in SKIP_DIRS or child.name.startswith("."):
                continue
            _scan(child, plugins, depth + 1, found)


@dataclass
class Project:
    """What the sources are, after reading any v8atlas.toml."""
    sources: list[Source]
    settings: dict[str, Any] = field(default_factory=dict)   # the merged v8atlas.toml tables
    project_files: list[Path] = field(default_factory=list)


def _read_project_file(path: Path) -> dict[str, Any]:
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise SourceError(f"{path}: cannot read project file ({e})") from None


def discover(paths: list[str | os.PathLike]) -> Project:
    """Resolve command-line arguments into sources.

    A folder that no plugin claims is searched (a few levels deep) for sources, so
    ``v8atlas compile ../data/help`` finds every versioned book below it. An argument in
    which nothing is found is an error naming it.
    """
    plugins = load_plugins()
    if not plugins:
        raise SourceError("no source plugins are installed (install v8atlas[compiler])")
    project = Project(sources=[])
    for arg in paths:
        p = Path(arg)
        if not p.exists():
            raise SourceError(f"{p}: no such file or folder")
        toml_path = p if p.is_file() and p.name == PROJECT_FILE else p / PROJECT_FILE
        from_project = 0
        if toml_path.is_file():
            settings = _read_project_file(toml_path)
            project.project_files.append(toml_path)
            before = len(project.sources)
            _merge_settings(project, settings, toml_path.parent, plugins)
            from_project = len(project.sources) - before
            if p.is_file():
                continue
        found: list[Source] = []
        _scan(p, plugins, 0, found)
        if not found and not from_project and p.is_file() and p.suffix.lower() in BINARY_DUMPS:
            raise SourceError(f"{p}: {BINARY_DUMPS[p.suffix.lower()]}{HOW_TO_DUMP}")
        if not found and not from_project:
            raise SourceError(
                f"{p}: not a recognized source. Expected a Designer XML dump (a folder or .zip with "
                f"Configuration.xml), an EDT project (src/Configuration/Configuration.mdo), a help "
                f"book (*.hbk), a dictionary (dictionary.json/.toml) or a {PROJECT_FILE}")
        for s in found:
            if all(s.path.resolve() != o.path.resolve() for o in project.sources):
                project.sources.append(s)
    # Options from v8atlas.toml attach to sources by path.
    for i, s in enumerate(project.sources):
        opts = project.settings.get("_by_path", {}).get(str(s.path.resolve()))
        if opts:
            project.sources[i] = Source(s.kind, s.format, s.path, s.name, dict(opts))
    return project


def _merge_settings(project: Project, settings: dict[str, Any], base: Path,
                    plugins: list[ModuleType]) -> None:
    """[[configuration]] / [[extension]] / [[help]] tables with a ``source`` path each."""
    by_path = project.settings.setdefault("_by_path", {})
    for table in ("configuration", "extension", "help", "dictionary"):
        for entry in settings.get(table, []) or []:
            if not isinstance(entry, dict) or "source" not in entry:
                raise SourceError(f"{base / PROJECT_FILE}: every [[{table}]] needs source = \"path\"")
            sp = (base / entry["source"]).resolve()
            if not sp.exists():
                raise SourceError(f"{base / PROJECT_FILE}: [[{table}]] source {entry['source']!r} "
                                  f"does not exist ({sp})")
            opts = {k: v for k, v in entry.items() if k != "source"}
            opts["table"] = table
            # A folder of several sources (e.g. help books of every version) is searched as on
            # the command line; the table's options apply to each source found in it.
            found: list[Source] = []
            _scan(sp, plugins, 0, found)
            if not found:
                raise SourceError(f"{base / PROJECT_FILE}: [[{table}]] source {entry['source']!r} is "
                                  f"not a recognized source and holds none")
            for src in found:
                by_path[str(src.path.resolve())] = opts
                if all(src.path.resolve() != o.path.resolve() for o in project.sources):
                    project.sources.append(src)
    for k, v in settings.items():
        if k not in ("configuration", "extension", "help", "dictionary"):
            project.settings[k] = v
