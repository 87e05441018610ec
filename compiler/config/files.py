"""Read a source's files from a folder or a zip archive (members are read, never extracted)."""
from __future__ import annotations

import os
import zipfile
from pathlib import Path, PurePosixPath

from .. import readhash, safefile
from ..safefile import RefusedFile, SourceDirs, read_inside, resolve_inside
from .zipsafe import check_zip


class SourceFiles:
    """Files of one source, addressed by POSIX paths relative to the source root."""

    def read(self, rel: str) -> bytes | None:   # None when absent
        raise NotImplementedError

    def exists(self, rel: str) -> bool:
        raise NotImplementedError

    def listdir(self, rel: str) -> list[str]:
        raise NotImplementedError

    def size(self, rel: str) -> int | None:   # bytes, None when absent
        raise NotImplementedError

    def head(self, rel: str, n: int) -> bytes:
        """The first ``n`` bytes (b"" when absent): to tell a file's kind without reading it all."""
        raise NotImplementedError

    def files(self) -> list[str]:
        """Every file of the source, by relative path."""
        raise NotImplementedError

    def spec(self) -> tuple[str, str, str]:
        """What a worker process needs to reopen these files."""
        raise NotImplementedError


class FolderFiles(SourceFiles):
    """A folder dump; reads stay inside it (``safefile``): a name with ``..``, a link leading
    outside, a FIFO or device, an oversized file raise ``RefusedFile`` (an ``OSError``)."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self._real = os.path.realpath(self.root)
        self._dirs = SourceDirs(self._real)   # folders kept open while the source is read

    def read(self, rel: str) -> bytes | None:
        # While the folder's fingerprint is pending (a cold compile), the bytes read are
        # hashed here, so the fingerprinter need not read the file again (compiler/readhash.py).
        # Only the files the hashing child leaves to the readers (the rest it hashes itself).
        key = (self._stat_key(rel) if readhash.watching(self._real) and readhash.read_by_readers(rel)
               else None)
        try:
            data = read_inside(self._real, rel, dirs=self._dirs)
        except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
            return None
        if key is not None:
            readhash.note(os.path.join(self._real, rel), key, data)
        return data

    def _stat_key(self, rel: str) -> readhash.StatKey | None:
        try:   # before the read: an edit during it then shows as a changed stat next time
            return readhash.stat_key(os.lstat(os.path.join(self._real, rel)))
        except OSError:
            return None

    def exists(self, rel: str) -> bool:
        try:
            return os.path.exists(resolve_inside(self._real, rel))
        except RefusedFile:
            return False

    def listdir(self, rel: str) -> list[str]:
        try:
            return sorted(os.listdir(resolve_inside(self._real, rel)))
        except (FileNotFoundError, NotADirectoryError, RefusedFile):
            return []

    def size(self, rel: str) -> int | None:
        try:
            return (self.root / rel).stat().st_size
        except OSError:
            return None

    def head(self, rel: str, n: int) -> bytes:
        try:
            with open(self.root / rel, "rb") as f:
                return f.read(n)
        except OSError:
            return b""

    def files(self, suffix: str = "", skip_hidden: bool = False) -> list[str]:
        """Every file below the root whose name ends with ``suffix`` (relative POSIX paths, in
        no set order); ``skip_hidden``: folders named ``.…`` are not entered."""
        # scandir with relative paths built as strings: os.walk + relpath cost 3.5× as much
        # (an ERP dump holds ~10⁵ files). Links to folders are not followed, as os.walk does;
        # a link to a file is listed.
        out: list[str] = []
        stack = [("", str(self.root))]
        while stack:
            prefix, path = stack.pop()
            try:
                entries = os.scandir(path)
            except OSError:
                continue
            with entries:
                for e in entries:
                    name = e.name
                    try:
                        folder = e.is_dir()
                    except OSError:
                        folder = False
                    if not folder:
                        if name.endswith(suffix):
                            out.append(prefix + name)
                    elif not e.is_symlink() and not (skip_hidden and name.startswith(".")):
                        stack.append((f"{prefix}{name}/", e.path))
        return out

    def spec(self) -> tuple[str, str, str]:
        return ("folder", str(self.root), "")


def member_name(info: zipfile.ZipInfo) -> str:
    """A member's real name. Without the UTF-8 flag zipfile decodes names as cp437; dumps
    zipped by Info-ZIP on Linux hold UTF-8 bytes there, Windows archivers cp866 (Cyrillic)."""
    if info.flag_bits & 0x800:
        return info.filename
    raw = info.filename.encode("cp437")
    for enc in ("utf-8", "cp866"):
        try:
            return raw.decode(enc)
        except UnicodeDecodeError:
            continue
    return info.filename


class ZipFiles(SourceFiles):
    """A zip archive (checked by ``check_zip``); ``prefix`` is the source root inside it."""

    def __init__(self, path: Path, prefix: str = "", zf: zipfile.ZipFile | None = None) -> None:
        self.path = Path(path)
        self.zf = zf or zipfile.ZipFile(self.path)
        self.prefix = prefix.strip("/")
        self._names = {member_name(i).rstrip("/"): i for i in self.zf.infolist()}
        self._dirs: dict[str, set[str]] = {}
        for name in self._names:
            parts = PurePosixPath(name).parts
            for i in range(len(parts)):
                self._dirs.setdefault("/".join(parts[:i]), set()).add(parts[i])

    def _full(self, rel: str) -> str:
        return f"{self.prefix}/{rel}" if self.prefix else rel

    def read(self, rel: str) -> bytes | None:
        info = self._names.get(self._full(rel))
        if info is None or info.is_dir():
            return None
        if info.file_size > safefile.MAX_FILE_BYTES:
            raise RefusedFile(f"refused: {info.file_size} bytes, over the limit of "
                              f"{safefile.MAX_FILE_BYTES} bytes per file (V8ATLAS_MAX_FILE_BYTES)")
        return self.zf.read(info)

    def exists(self, rel: str) -> bool:
        full = self._full(rel).rstrip("/")
        return full in self._names or full in self._dirs

    def listdir(self, rel: str) -> list[str]:
        return sorted(self._dirs.get(self._full(rel).rstrip("/"), ()))

    def size(self, rel: str) -> int | None:
        info = self._names.get(self._full(rel))
        return None if info is None or info.is_dir() else info.file_size

    def head(self, rel: str, n: int) -> bytes:
        info = self._names.get(self._full(rel))
        if info is None or info.is_dir():
            return b""
        with self.zf.open(info) as f:
            return f.read(n)

    def files(self) -> list[str]:
        cut = len(self.prefix) + 1 if self.prefix else 0
        return [name[cut:] for name, info in self._names.items()
                if not info.is_dir() and (not self.prefix or name.startswith(self.prefix + "/"))]

    def all_names(self) -> list[str]:
        return list(self._names)

    def spec(self) -> tuple[str, str, str]:
        return ("zip", str(self.path), self.prefix)


def open_spec(spec: tuple[str, str, str]) -> SourceFiles:
    kind, path, prefix = spec
    if kind == "folder":
        return FolderFiles(Path(path))
    return ZipFiles(Path(path), prefix)


def open_zip(path: Path) -> ZipFiles:
    """Open and check a zip; the returned files are rooted at the archive root."""
    zf = zipfile.ZipFile(path)
    check_zip(zf, path)
    return ZipFiles(path, "", zf)
