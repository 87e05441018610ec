"""Source plugin for configurations: detects Designer dumps (folder or .zip) and EDT projects.

``detect(path)`` → ``"designer"``, ``"designer-zip"``, ``"edt"``, ``"edt-zip"``, or
``"external"``/``"external-zip"`` for an external data processor/report dump (claimed only
so that ``parse`` refuses it with that reason), or None;
``parse(source, report)`` → ``Configuration`` (picklable; the pipeline caches it).
A ``[[configuration]]``/``[[extension]]`` table of v8atlas.toml reaches us as
``source.options`` (``name``, ``base``, ``platform``), see docs/config-model.md.
"""
from __future__ import annotations

import zipfile
from pathlib import Path

from ..report import CompileReport
from v8atlas.formats.domain import Source
from .classes import FOLDER_TO_CLASS
from .designer import read_designer
from .edt import CONFIG_MDO, read_edt
from .errors import ConfigSourceError, ExternalDumpError
from .external import external_objects, refusal
from .files import FolderFiles, SourceFiles, ZipFiles, open_zip
from .model import Configuration
from .xmlsafe import XmlError

KIND = "configuration"

__all__ = ["KIND", "ConfigSourceError", "ExternalDumpError", "detect", "open_source", "parse",
           "read_configuration"]

# The root file per format: messages name it.
_ROOT_FILE = {"designer": "Configuration.xml", "edt": CONFIG_MDO}


def detect(path: Path) -> str | None:
    if path.is_dir():
        if (path / "Configuration.xml").is_file():
            return "designer"
        if (path / CONFIG_MDO).is_file():
            return "edt"
        # Claimed so that compiling them says why they are refused, not "not a recognized source".
        if external_objects(path):
            return "external"
        # A dump that lost its root file is still claimed, so that compiling it says what is
        # missing instead of "not a recognized source".
        if _has_class_folders(path, "*.xml"):
            return "designer"
        if (path / "src").is_dir() and _has_class_folders(path / "src", "*/*.mdo"):
            return "edt"
        return None
    if path.suffix.lower() == ".zip" and path.is_file():
        try:
            with zipfile.ZipFile(path) as zf:
                names = zf.namelist()
        except (zipfile.BadZipFile, OSError):
            return None
        if any(n.rstrip("/").endswith("Configuration.xml") for n in names):
            return "designer-zip"
        if any(n.endswith(CONFIG_MDO) for n in names):
            return "edt-zip"
        if external_objects(path):
            return "external-zip"
    return None


def _has_class_folders(path: Path, pattern: str) -> bool:
    try:
        children = list(path.iterdir())
    except OSError:
        return False
    return any(c.name in FOLDER_TO_CLASS and c.is_dir() and next(c.glob(pattern), None) is not None
               for c in children)


def _zip_root(zf: ZipFiles, marker: str) -> str | None:
    """The shallowest folder inside the archive that holds ``marker``."""
    best = None
    for n in zf.all_names():
        if n == marker or n.endswith("/" + marker):
            prefix = n[: -len(marker)].rstrip("/")
            if best is None or prefix.count("/") < best.count("/"):
                best = prefix
    return best


def open_source(path: Path) -> tuple[str, SourceFiles]:
    """(format, files rooted at the configuration) or a ConfigSourceError saying why not."""
    if path.is_dir():
        if (path / "Configuration.xml").is_file():
            return "designer", FolderFiles(path)
        if (path / CONFIG_MDO).is_file():
            return "edt", FolderFiles(path)
        _refuse_external(path)
        raise ConfigSourceError(_not_a_configuration(sorted(p.name for p in path.iterdir())))
    if path.suffix.lower() == ".zip":
        try:
            zf = open_zip(path)
        except zipfile.BadZipFile as e:
            raise ConfigSourceError(f"not a readable zip archive ({e})") from None
        except OSError as e:
            raise ConfigSourceError(f"cannot read the archive ({e.strerror or e})") from None
        for fmt, marker in (("designer", "Configuration.xml"), ("edt", CONFIG_MDO)):
            root = _zip_root(zf, marker)
            if root is not None:
                return fmt, ZipFiles(path, root, zf.zf)
        _refuse_external(path)
        raise ConfigSourceError(_not_a_configuration(sorted(zf.all_names())))
    raise ConfigSourceError("expected a folder or a .zip with a configuration dump")


def _refuse_external(path: Path) -> None:
    found = external_objects(path)
    if found:
        raise ExternalDumpError(refusal(found))


def _not_a_configuration(found: list[str], shown: int = 12) -> str:
    listed = ", ".join(found[:shown]) if found else "nothing"
    if len(found) > shown:
        listed += f" and {len(found) - shown} more"
    return (f"not a configuration dump: expected Configuration.xml (Designer DumpConfigToFiles) or "
            f"{CONFIG_MDO} (EDT project) at its root, found {listed}")


def read_configuration(path: Path, report: CompileReport, source_name: str | None = None
                       ) -> Configuration:
    """Read a configuration from a folder or zip; a whole-source failure raises ConfigSourceError,
    whose message does not repeat ``path`` (callers name the source)."""
    name = source_name or str(path)
    fmt, files = open_source(path)       # UnsafeZip is a ConfigSourceError
    try:
        if fmt == "designer":
            cfg = read_designer(files, name, report)
        else:
            cfg = read_edt(files, name, report)
    except XmlError as e:           # the root file is malformed: nothing to read the rest by
        raise ConfigSourceError(str(e)) from None
    except OSError as e:            # the root file is unreadable (object files are reported one by one)
        raise ConfigSourceError(f"cannot read {_ROOT_FILE[fmt]} ({e.strerror or e})") from None
    cfg.source = name
    root_file = _ROOT_FILE[fmt]
    if not cfg.name:
        raise ConfigSourceError(f"{root_file} gives the configuration no name (<Name> is empty); "
                                f"a bundle addresses configurations by name")
    if cfg.script_variant not in ("Russian", "English"):
        raise ConfigSourceError(f"{root_file}: unsupported script variant {cfg.script_variant!r} "
                                f"(expected Russian or English)")
    return cfg


def parse(source: Source, report: CompileReport) -> Configuration:
    cfg = read_configuration(source.path, report, source.name)
    opts = source.options or {}
    if opts.get("name"):
        # v8atlas.toml may address a configuration under another name (e.g. the same
        # configuration in two formats, or two versions side by side in one bundle)
        cfg.props["declared_name"] = cfg.name
        cfg.name = str(opts["name"])
    if opts.get("base"):
        cfg.base_name = str(opts["base"])
    if opts.get("platform"):
        cfg.platform_version = str(opts["platform"])
    if opts.get("table") == "extension" and not cfg.is_extension:
        report.warn(source.name, f"listed as [[extension]] in v8atlas.toml, but {cfg.name} is not an "
                    f"extension (its header has neither ConfigurationExtensionPurpose nor ObjectBelonging "
                    f"Adopted); compiled as a configuration", code="not-extension",
                    file=_ROOT_FILE[cfg.format])
    counts: dict[str, int] = {}
    for o in cfg.objects:
        counts[o.cls] = counts.get(o.cls, 0) + 1
    if cfg.languages:
        counts["Language"] = len(cfg.languages)
    # one section per configuration: CompileReport.merge keeps the first value of a key
    report.sections[f"configuration {cfg.name}"] = {
        "source": source.name, "format": cfg.format, "format_version": cfg.format_version,
        "objects": sum(counts.values()), "by_class": dict(sorted(counts.items())),
        "is_extension": cfg.is_extension}
    return cfg
