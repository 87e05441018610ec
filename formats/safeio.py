"""Opening bundle files without following a trap: no symlinks, no FIFOs or devices.

A bundle folder is data that may have been tampered with or carelessly copied: a segment
that is a symlink to ``/etc/passwd`` or a FIFO (which blocks ``open`` forever) must be refused
with a message, not followed.
"""
from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import BinaryIO

_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)


class NotRegularFile(OSError):
    """The path is a symlink, a folder, a FIFO or a device, not a regular file."""


def open_regular(path: Path) -> BinaryIO:
    """Open ``path`` for reading only if it is a regular file itself (not through a symlink)."""
    try:
        fd = os.open(path, _FLAGS)
    except OSError as e:
        if os.path.islink(path):
            raise NotRegularFile(e.errno, "is a symlink, not a regular file", str(path)) from None
        raise
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            what = "a folder" if stat.S_ISDIR(mode) else "not a regular file"
            raise NotRegularFile(0, f"is {what}", str(path))
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise
