"""Refuse unsafe zip archives before reading anything from them.

A member whose name is absolute (``/etc/x``, ``C:\\x``) or climbs out with ``..`` is refused;
so is an archive whose members claim more than ``MAX_TOTAL`` bytes uncompressed, or whose
compression ratio is beyond ``MAX_RATIO`` (a zip bomb). Members are only ever read into
memory, never extracted, but a hostile name is refused anyway: it means the archive was not
made by a dump tool.
"""
from __future__ import annotations

import os
import zipfile
from pathlib import Path, PurePosixPath, PureWindowsPath

from .errors import ConfigSourceError

MAX_TOTAL = int(os.environ.get("V8ATLAS_ZIP_MAX_BYTES", 8 << 30))     # 8 GiB uncompressed
MAX_RATIO = int(os.environ.get("V8ATLAS_ZIP_MAX_RATIO", 200))          # per member and overall
_RATIO_MIN_SIZE = 1 << 20   # tiny members compress absurdly well; judge ratio above 1 MiB


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
        if total > MAX_TOTAL:
            raise UnsafeZip(f"the archive is refused: members unpack to more than {MAX_TOTAL} bytes "
                            f"(zip bomb limit, V8ATLAS_ZIP_MAX_BYTES)")
        if info.file_size > _RATIO_MIN_SIZE and info.file_size > MAX_RATIO * max(info.compress_size, 1):
            raise UnsafeZip(f"the archive is refused: member {name!r} expands {info.file_size} bytes from "
                            f"{info.compress_size} (ratio over {MAX_RATIO}, zip bomb limit)")
    if total > _RATIO_MIN_SIZE and total > MAX_RATIO * max(compressed, 1):
        raise UnsafeZip(f"the archive is refused: it expands {total} bytes from {compressed} "
                        f"(ratio over {MAX_RATIO}, zip bomb limit)")
