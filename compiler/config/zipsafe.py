"""Refuse unsafe zip archives before reading anything from them.

A member whose name is absolute (``/etc/x``, ``C:\\x``) or climbs out with ``..`` is refused;
so is an archive whose members claim more than ``MAX_TOTAL`` bytes uncompressed, or whose
compression ratio is beyond ``MAX_RATIO`` (a zip bomb). Members are only ever read into
memory, never extracted, but a hostile name is refused anyway: it means the archive was not
made by a dump tool.
"""
from __future__ import annotations

import zipfile
from pathlib import Path, PurePosixPath, PureWindowsPath

from ..safefile import MAX_TOTAL, member_bomb, total_bomb
from .errors import ConfigSourceError


class UnsafeZip(ConfigSourceError):
    """The archive is refused; the message names the member and the rule (the caller, the archive)."""


def check_zip(zf: zipfile.ZipFile, path: Path | str) -> None:
    total = 0
    compressed = 0
    for info in zf.infolist():
        name = info.filename
        posix = PurePosixPath(name.replace("\\", "/"))
        if (name.startswith(("/", "\\")) or PureWindowsPath(name).drive
                or posix.is_absolute()):
            raise UnsafeZip(f"the archive is refused: member {name!r} has an absolute path")
        if ".." in posix.parts:
            raise UnsafeZip(f"the archive is refused: member {name!r} climbs out of the archive with '..'")
        total += info.file_size
        compressed += info.compress_size
        problem = member_bomb(info) or (total_bomb(total, compressed) if total > MAX_TOTAL else None)
        if problem:
            raise UnsafeZip(f"the archive is refused: {problem}")
    problem = total_bomb(total, compressed)
    if problem:
        raise UnsafeZip(f"the archive is refused: {problem}")
