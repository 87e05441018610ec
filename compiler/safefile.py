"""The source boundary: a source's files are regular files inside its folder, of bounded size.

A dump comes from elsewhere and may be hostile: a name with ``..`` in ``Configuration.xml``, a
symbolic link to ``/etc`` or ``/dev/zero``, a FIFO in place of an object file (``open`` would
block forever), a 200 MB descriptor. Every read of a source file goes through ``read_inside``,
which refuses all of these with a reason (``RefusedFile``, an ``OSError``, so the readers'
per-file handling reports it against the file and keeps the rest of the source).

The per-file limit (``V8ATLAS_MAX_FILE_BYTES``, default 64 MiB) is about 15 times the largest
file of the real dumps measured (SSL 3.1: 3.5 MB ``Module.bsl``; UT 11: 4.1 MB ``Rights.xml``,
docs/compile.md); ERP-class templates of tens of MB still pass.
"""
from __future__ import annotations

import errno
import os
import stat
import zipfile
from pathlib import Path, PurePosixPath

MAX_FILE_BYTES = int(os.environ.get("V8ATLAS_MAX_FILE_BYTES", 64 << 20))
# Zip bomb limits, for dump archives and for the ZIP elements inside help books alike.
MAX_TOTAL = int(os.environ.get("V8ATLAS_ZIP_MAX_BYTES", 8 << 30))     # 8 GiB uncompressed
MAX_RATIO = int(os.environ.get("V8ATLAS_ZIP_MAX_RATIO", 200))          # per member and overall
_RATIO_MIN_SIZE = 1 << 20   # tiny members compress absurdly well; judge ratio above 1 MiB

_OPEN_FLAGS = (os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
               | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0))


class RefusedFile(OSError):
    """A file of a source that is not read; ``str()`` is the reason, as a phrase."""

    def __init__(self, reason: str) -> None:
        super().__init__(errno.EACCES, reason)

    def __str__(self) -> str:
        return str(self.strerror)


def is_inside(path: str, root: str) -> bool:
    """Whether the resolved ``path`` is ``root`` or below it (both already real paths)."""
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def check_relative(rel: str) -> None:
    """A name relative to a source root must stay in it."""
    if ".." not in rel and "\\" not in rel and not rel.startswith("/") and rel[1:2] != ":":
        return   # the common case, decided without a path object (once per file read)
    p = PurePosixPath(rel.replace("\\", "/"))
    if p.is_absolute() or rel.startswith(("/", "\\")) or (len(rel) > 1 and rel[1] == ":"):
        raise RefusedFile("refused: an absolute path, outside the source folder")
    if ".." in p.parts:
        raise RefusedFile("refused: the name climbs out of the source folder with '..'")


def resolve_inside(root_real: str, rel: str) -> str:
    """The real path of ``rel`` under the (real) root; ``RefusedFile`` when it leads outside."""
    check_relative(rel)
    real = os.path.realpath(os.path.join(root_real, rel))
    if not is_inside(real, root_real):
        raise RefusedFile("refused: a symbolic link leading outside the source folder")
    return real


def read_fd(fd: int, limit: int | None = None, head: int | None = None) -> bytes:
    """All of an open file (or its first ``head`` bytes), which must be a regular file of at
    most ``limit`` bytes (default ``MAX_FILE_BYTES``)."""
    limit = MAX_FILE_BYTES if limit is None else limit
    st = os.fstat(fd)
    if stat.S_ISDIR(st.st_mode):
        raise IsADirectoryError(errno.EISDIR, "is a folder")
    if not stat.S_ISREG(st.st_mode):
        raise RefusedFile("refused: not a regular file (a FIFO, socket or device)")
    if head is not None:
        return os.read(fd, head)
    if st.st_size > limit:
        raise RefusedFile(f"refused: {st.st_size} bytes, over the limit of {limit} bytes per "
                          f"file (V8ATLAS_MAX_FILE_BYTES)")
    first = os.read(fd, st.st_size + 1)     # the whole file in one read, as a rule
    if len(first) == st.st_size:
        return first
    chunks = [first]
    total = len(first)
    while True:   # short read, or the file grew: read to EOF, never past the limit
        chunk = os.read(fd, min(1 << 20, limit + 1 - total))
        if not chunk:
            break
        chunks.append(chunk)
        total += len(chunk)
        if total > limit:
            raise RefusedFile(f"refused: grew over the limit of {limit} bytes per file while read")
    return b"".join(chunks)


def read_real(real: str, limit: int | None = None, head: int | None = None) -> bytes:
    """Read a fully resolved path (no symlink is followed at the last step)."""
    fd = os.open(real, _OPEN_FLAGS)
    try:
        return read_fd(fd, limit, head)
    finally:
        os.close(fd)


def _fd_path(fd: int) -> str | None:
    """Where an open file really is (Linux: one readlink instead of realpath's lstat per part)."""
    try:
        return os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        return None


_DIR_FLAGS = (os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0)
              | getattr(os, "O_CLOEXEC", 0))
_WALK = os.open in os.supports_dir_fd and hasattr(os, "O_DIRECTORY") and hasattr(os, "O_NOFOLLOW")


class SourceDirs:
    """Open folders of one source root, each reached from the root one name at a time without
    following a link (``O_NOFOLLOW | O_DIRECTORY``). A file opened in one of them by its bare
    name, again without following a link, is inside the root by construction — no
    ``/proc/self/fd`` lookup per file, and a one-name path walk instead of the whole absolute
    path (file reads −45 % on SSL's 3,700 descriptors). A path with a link anywhere, an odd
    name, or a platform without ``dir_fd`` takes ``read_inside``'s general way. The last
    ``keep`` folders opened stay open (files are read folder by folder); one compile's source only:
    a folder replaced on disk meanwhile would still be read through its old descriptor."""

    def __init__(self, root_real: str, keep: int = 16) -> None:
        self.root_real = root_real
        self._keep = keep
        self._fds: dict[str, int] = {}      # folder (relative, "" = the root) → descriptor

    def open_file(self, rel: str) -> int | None:
        """A descriptor of ``rel`` opened inside the root, or None: take the general way.
        ``FileNotFoundError`` as ``open`` would."""
        folder, _, name = rel.rpartition("/")
        if not _WALK or name in ("", ".") or "//" in rel or "/./" in f"/{folder}/":
            return None
        try:
            fd = self._folder(folder)
            return os.open(name, _OPEN_FLAGS, dir_fd=fd)
        except FileNotFoundError:
            raise
        except OSError:       # a link on the way (ELOOP, ENOTDIR) or anything unusual
            return None

    def _folder(self, folder: str) -> int:
        fd = self._fds.pop(folder, None)
        if fd is not None:
            self._fds[folder] = fd   # the most recently used goes last: the busy folders stay
        else:
            if folder:
                parent, _, name = folder.rpartition("/")
                fd = os.open(name, _DIR_FLAGS, dir_fd=self._folder(parent))
            else:
                fd = os.open(self.root_real, _DIR_FLAGS)
            if len(self._fds) >= self._keep:
                # the least recently used goes (a class folder evicted is reopened by one call)
                os.close(self._fds.pop(next(iter(self._fds))))
            self._fds[folder] = fd
        return fd

    def close(self) -> None:
        while self._fds:
            os.close(self._fds.popitem()[1])

    def __del__(self) -> None:
        try:
            self.close()
        except (OSError, TypeError):   # at interpreter exit ``os`` may be gone already
            pass


def read_inside(root_real: str, rel: str, limit: int | None = None,
                head: int | None = None, dirs: SourceDirs | None = None) -> bytes:
    """The bytes of ``root/rel``: a regular file inside the root, at most ``limit`` bytes.
    ``FileNotFoundError``/``NotADirectoryError``/``IsADirectoryError`` as ``open`` would;
    ``RefusedFile`` for anything outside the boundary. ``dirs`` (of this root): folders kept
    open, for a source read file after file."""
    check_relative(rel)
    if dirs is not None:
        fd = dirs.open_file(rel)
        if fd is not None:
            try:
                return read_fd(fd, limit, head)
            finally:
                os.close(fd)
    full = os.path.join(root_real, rel)
    try:
        fd = os.open(full, _OPEN_FLAGS)    # a link as the last part fails (O_NOFOLLOW) …
    except OSError as e:
        if e.errno != errno.ELOOP:
            raise
        return read_real(resolve_inside(root_real, rel), limit, head)   # … and is resolved here
    try:
        real = _fd_path(fd) or os.path.realpath(full)
        if not is_inside(real, root_real):   # a folder on the way was a link leading out
            raise RefusedFile("refused: a symbolic link leading outside the source folder")
        return read_fd(fd, limit, head)
    finally:
        os.close(fd)


def read_file(path: Path, limit: int | None = None) -> bytes:
    """A source given by its own path (a help book, a dictionary): regular, bounded."""
    return read_real(os.path.realpath(path), limit)


def member_bomb(info: zipfile.ZipInfo, name: str | None = None) -> str | None:
    """Why one zip member is a zip bomb (its compression ratio), or None."""
    if info.file_size > _RATIO_MIN_SIZE and info.file_size > MAX_RATIO * max(info.compress_size, 1):
        return (f"member {name or info.filename!r} expands {info.file_size} bytes from "
                f"{info.compress_size} (ratio over {MAX_RATIO}, zip bomb limit)")
    return None


def total_bomb(total: int, compressed: int) -> str | None:
    """Why zip members of these summed sizes are a bomb (total size or overall ratio), or None."""
    if total > MAX_TOTAL:
        return (f"members unpack to more than {MAX_TOTAL} bytes "
                f"(zip bomb limit, V8ATLAS_ZIP_MAX_BYTES)")
    if total > _RATIO_MIN_SIZE and total > MAX_RATIO * max(compressed, 1):
        return f"it expands {total} bytes from {compressed} (ratio over {MAX_RATIO}, zip bomb limit)"
    return None
