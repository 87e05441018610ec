"""Source discovery: which inputs a compile has, of which kind, with a cheap fingerprint.

Source kinds come from the registered domains (``formats/registry.py``): each
``SourceKind`` detects its own inputs; the first kind that claims a path gets it, and every
domain that ``reads`` that kind parses it. A ``v8atlas.toml`` beside the sources names
configurations, sets a configuration's platform version and attaches extensions to a base
(docs/compile.md); it is validated by ``project_file.py``.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from v8atlas.formats.domain import Domain, Source, SourceError, SourceKind
from v8atlas.formats.registry import compile_domains

from .fingerprint import SKIP_DIRS
from .project_file import PROJECT_FILE, known_tables, read_project_file

__all__ = ["PROJECT_FILE", "Project", "Source", "SourceError", "discover", "source_kinds"]

_MAX_SCAN_DEPTH = 4

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


def source_kinds(domains: list[Domain]) -> list[SourceKind]:
    """Every source kind the domains introduce, in registration order (detection order)."""
    return [k for d in domains for k in d.source_kinds]


def _display_name(path: Path) -> str:
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return path.as_posix()


def _detect(path: Path, kinds: list[SourceKind]) -> Source | None:
    for kind in kinds:
        fmt = kind.detect(path)
        if fmt:
            return Source(kind.name, fmt, path, _display_name(path))
    return None


def _scan(path: Path, plugins: list[SourceKind], depth: int, found: list[Source],
          skipped: list[str] | None = None) -> None:
    src = _detect(path, plugins)
    if src is not None:
        found.append(src)
        return
    if path.is_dir() and depth < _MAX_SCAN_DEPTH:
        try:
            children = sorted(path.iterdir())
        except OSError:
            return
        for child in children:
            if child.name in SKIP_DIRS or child.name.startswith("."):
                continue
            # What is found inside a folder is a real file or folder of it: a link (to "/", to
            # another disk) is named by the user or not at all; FIFOs and devices are no source.
            if child.is_symlink() or not (child.is_dir() or child.is_file()):
                if skipped is not None:
                    what = "a symbolic link" if child.is_symlink() else "not a regular file or folder"
                    skipped.append(f"{child.as_posix()}: {what}; not searched for sources")
                continue
            _scan(child, plugins, depth + 1, found, skipped)


@dataclass
class Project:
    """What the sources are, after reading any v8atlas.toml."""
    sources: list[Source]
    settings: dict[str, Any] = field(default_factory=dict)   # the merged v8atlas.toml tables
    project_files: list[Path] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)        # entries the search did not follow


def discover(paths: list[str | os.PathLike]) -> Project:
    """Resolve command-line arguments into sources.

    A folder that no plugin claims is searched (a few levels deep) for sources, so
    ``v8atlas compile ../data/help`` finds every versioned book below it. An argument in
    which nothing is found is an error naming it.
    """
    domains = compile_domains()
    plugins = source_kinds(domains)
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
            settings = read_project_file(toml_path, domains)
            project.project_files.append(toml_path)
            before = len(project.sources)
            _merge_settings(project, settings, toml_path.parent, plugins, list(known_tables(domains)))
            from_project = len(project.sources) - before
            if p.is_file():
                continue
        found: list[Source] = []
        _scan(p, plugins, 0, found, project.skipped)
        if not found and not from_project and p.is_file() and p.suffix.lower() in BINARY_DUMPS:
            raise SourceError(f"{p}: {BINARY_DUMPS[p.suffix.lower()]}{HOW_TO_DUMP}")
        if not found and not from_project:
            expected = ", ".join(k.expected for k in plugins)
            raise SourceError(f"{p}: not a recognized source. Expected {expected} or a {PROJECT_FILE}")
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
                    plugins: list[SourceKind], tables: list[str]) -> None:
    """The ``[[table]]`` entries (validated already) with a ``source`` path each."""
    by_path = project.settings.setdefault("_by_path", {})
    for table in tables:
        for entry in settings.get(table, []) or []:
            sp = (base / entry["source"]).resolve()
            if not sp.exists():
                raise SourceError(f"{base / PROJECT_FILE}: [[{table}]] source {entry['source']!r} "
                                  f"does not exist ({sp})")
            opts = {k: v for k, v in entry.items() if k != "source"}
            opts["table"] = table
            # A folder of several sources (e.g. help books of every version) is searched as on
            # the command line; the table's options apply to each source found in it.
            found: list[Source] = []
            _scan(sp, plugins, 0, found, project.skipped)
            if not found:
                raise SourceError(f"{base / PROJECT_FILE}: [[{table}]] source {entry['source']!r} is "
                                  f"not a recognized source and holds none")
            for src in found:
                by_path[str(src.path.resolve())] = opts
                if all(src.path.resolve() != o.path.resolve() for o in project.sources):
                    project.sources.append(src)
    for k, v in settings.items():
        if k not in tables:
            project.settings[k] = v
