"""External data processors and reports: recognised so that they are refused with a reason.

They are not configurations (no Configuration.xml / Configuration.mdo) and are not compiled
yet; without this a compile would only say "not a recognized source". Layouts:

* Designer (``DumpExternalDataProcessorOrReportToFiles``): ``<Name>.xml`` whose
  ``<MetaDataObject>`` holds ``<ExternalDataProcessor>`` or ``<ExternalReport>``, beside a
  ``<Name>/`` folder with its forms, templates and module;
* EDT: ``src/ExternalDataProcessors/<Name>/<Name>.mdo``, ``src/ExternalReports/<Name>/<Name>.mdo``.
"""
from __future__ import annotations

import os
import re
import zipfile
import zlib
from pathlib import Path, PurePosixPath

from ..safefile import read_inside
from .files import member_name

# class → how a message names it
EXTERNAL_CLASSES = {"ExternalDataProcessor": "external data processor",
                    "ExternalReport": "external report"}
_EDT_FOLDERS = {"ExternalDataProcessors": "ExternalDataProcessor", "ExternalReports": "ExternalReport"}
_ROOT = re.compile(rb"<(ExternalDataProcessor|ExternalReport)[\s>]")
_HEAD = 8192          # the root element follows the namespace declarations (~1 KB)
_MAX_CANDIDATES = 16  # *.xml files looked into per folder: detection runs on every scanned folder
_MAX_NAMED = 8        # objects a message lists


def _root_class(head: bytes) -> str | None:
    m = _ROOT.search(head)
    return m.group(1).decode() if m else None


def _in_folder(path: Path) -> list[tuple[str, str]]:
    found = []
    for folder, cls in _EDT_FOLDERS.items():
        d = path / "src" / folder
        if d.is_dir():
            found += [(cls, c.name) for c in sorted(d.iterdir()) if (c / f"{c.name}.mdo").is_file()]
    if found:
        return found
    for x in sorted(path.glob("*.xml"))[:_MAX_CANDIDATES]:
        try:
            # regular files inside the folder only: a FIFO must not block, a link not lead out
            cls = _root_class(read_inside(os.path.realpath(path), x.name, head=_HEAD))
        except OSError:
            continue
        if cls:
            found.append((cls, x.stem))
    return found


def _in_zip(path: Path) -> list[tuple[str, str]]:
    try:
        with zipfile.ZipFile(path) as zf:
            members = [(PurePosixPath(member_name(i)), i) for i in zf.infolist() if not i.is_dir()]
            found = []
            for p, _ in members:
                parts = p.parts
                # …/src/ExternalReports/<Name>/<Name>.mdo
                if (len(parts) >= 4 and parts[-4] == "src" and parts[-3] in _EDT_FOLDERS
                        and p.name == f"{parts[-2]}.mdo"):
                    found.append((_EDT_FOLDERS[parts[-3]], parts[-2]))
            if found:
                return found
            xmls = sorted((m for m in members if m[0].suffix == ".xml"),
                          key=lambda m: (len(m[0].parts), str(m[0])))
            top = [m for m in xmls if len(m[0].parts) == len(xmls[0][0].parts)] if xmls else []
            for p, info in top[:_MAX_CANDIDATES]:
                with zf.open(info) as f:
                    cls = _root_class(f.read(_HEAD))
                if cls:
                    found.append((cls, p.stem))
            return found
    except (zipfile.BadZipFile, OSError, zlib.error):   # unreadable: not ours to explain
        return []


def external_objects(path: Path) -> list[tuple[str, str]]:
    """(class, name) of each external processor/report at the root of a folder or zip; [] if none."""
    if path.is_dir():
        return _in_folder(path)
    if path.suffix.lower() == ".zip" and path.is_file():
        return _in_zip(path)
    return []


def refusal(found: list[tuple[str, str]]) -> str:
    """Why such a dump is not compiled, naming what it holds."""
    kinds = [c for c in EXTERNAL_CLASSES if any(f[0] == c for f in found)]
    what = " and ".join(EXTERNAL_CLASSES[c] for c in kinds)
    names = ", ".join(f"{c}.{n}" for c, n in found[:_MAX_NAMED])
    if len(found) > _MAX_NAMED:
        names += f" and {len(found) - _MAX_NAMED} more"
    return (f"{what} dump ({names}): external data processors and reports are not "
            f"configurations and are not compiled yet")
