"""Digests of the source files the readers read, so that a cold compile reads each file once.

A folder's fingerprint is the sha256 over its files' sha256 (``compiler/fingerprint.py``).
On a cold compile none of them is known, and the readers are about to read many of the same
files anyway (the object descriptors; with the code and form domains, most of the dump). So
while a folder is *watched* (``watch``: its fingerprint is pending), the folder reader
(``compiler/config/files.py``, ``FolderFiles.read``) notes each file's stat key, taken before
the read, and the sha256 of the bytes it read; the pool's workers hand their notes back with
each chunk (``compiler/pool.py``). The hashing child, forked before the parse, leaves the
files the parse is about to read (``read_by_readers``) to
``Fingerprinter.finish``, which takes their digests from these notes after the link and
hashes a file itself only when no reader read it or its stat changed since (``known``).
Same digests, same fingerprint; only who computes them differs.

The stat key is taken *before* the read: a file edited while it is read gets a key older
than the bytes, so the next compile sees the new stat and hashes it again (never the other
way round, a new key with the old digest, which would hide the edit).
"""
from __future__ import annotations

import hashlib
import os
from typing import Iterable

StatKey = tuple[int, int, int, int]        # size, mtime_ns, ctime_ns, inode

_roots: frozenset[str] = frozenset()       # real paths of the folders being watched
_read: dict[str, tuple[StatKey, str]] = {}  # real path of a file read → (stat key, sha256)


def stat_key(st: os.stat_result) -> StatKey:
    """What says a file is unchanged without reading it (ctime cannot be set back by a user)."""
    return (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)


# Below an object's folder (``Catalogs/Имя/…``), the Designer files the configuration reader
# opens (``compiler/config/designer.py``): a child's own descriptor (``Forms/Ф.xml``,
# ``Templates/…``, ``Recalculations/…``, an external source's ``Tables``/``Cubes``/``Functions``),
# a nested subsystem's (``Subsystems/А/Subsystems/Б.xml``, at any depth), and three bodies.
OWN_FILE_FOLDERS = {"Form": "Forms", "Template": "Templates", "Recalculation": "Recalculations",
                    "Table": "Tables", "Cube": "Cubes", "Function": "Functions"}   # tag → folder
_CHILD_FOLDERS = frozenset(OWN_FILE_FOLDERS.values()) | {"Subsystems"}
_READ_EXT = frozenset({"Predefined.xml", "Content.xml", "Flowchart.xml"})


def read_by_readers(rel: str) -> bool:
    """Whether a cold compile's parse is about to read this file, so that its digest will come
    from the reader (``note``) and the hashing child skips it: ``Configuration.xml`` and the
    object descriptors of a Designer dump (``Catalogs/Имя.xml``), and below an object's folder
    its children's descriptors and ``Ext/Predefined.xml``, ``Ext/Content.xml``,
    ``Ext/Flowchart.xml`` — in SSL 3.1.12 1,000 of the 1,660 deeper files the structure compile
    hashes (the forms' descriptors most), which the child read and hashed again. Other files at
    the top (``ConfigDumpInfo.xml``: tens of MB in a large dump, read by no reader) and the
    configuration's ``Ext/`` stay with the child. Only a schedule: a file left here and read by no reader is hashed by ``finish``,
    on the critical path."""
    depth = rel.count("/")
    if depth == 0:
        return rel == "Configuration.xml"
    if depth == 1:   # the configuration's own Ext/ (pictures, ParentConfigurations.bin): unread
        return not rel.startswith("Ext/")
    if not rel.endswith(".xml"):
        return False
    parts = rel.split("/")
    if depth == 3 and parts[2] == "Ext":
        return parts[3] in _READ_EXT
    # Class/Имя/Forms/Ф.xml; Subsystems/А/Subsystems/Б/Subsystems/В.xml
    return depth % 2 == 1 and parts[-2] in _CHILD_FOLDERS and (
        depth == 3 or all(p == "Subsystems" for p in parts[2:-1:2]))


def watch(roots: Iterable[str]) -> None:
    """Note the digests of files read below these folders (real paths) from now on. Pool
    workers started after this call inherit it; those started before note nothing (the
    fingerprinter then reads their files itself: slower, the same fingerprint)."""
    global _roots
    _roots = frozenset(roots)
    _read.clear()


def stop() -> None:
    """Note nothing more and forget what was noted."""
    watch(())


def watching(root_real: str) -> bool:
    return root_real in _roots


def note(full: str, key: StatKey, data: bytes) -> None:
    """The bytes read from ``full``, whose stat before the read was ``key``."""
    _read[full] = (key, hashlib.sha256(data).hexdigest())


_inherited: list[dict] = []   # a forked process's copies of its parent's notes (``forget``)


def forget() -> None:
    """A new pool worker's start: what it inherited from the parent is the parent's already.
    Set aside, not freed: freeing the copy wrote to every page it sits on (copy on write),
    11 ms at the code read child's start (SSL 3.1.12: the configuration's 3,600 notes)."""
    global _read
    _inherited.append(_read)
    _read = {}


def take() -> dict[str, tuple[StatKey, str]]:
    """What this process noted since the last ``take`` (a worker sends it with its chunk)."""
    if not _read:
        return {}
    out = dict(_read)
    _read.clear()
    return out


def merge(notes: dict[str, tuple[StatKey, str]]) -> None:
    """A worker's notes, in the parent."""
    if notes and _roots:
        _read.update(notes)


def known(full: str, key: StatKey) -> str | None:
    """The sha256 a reader computed for ``full`` if its stat is still ``key``, else None."""
    hit = _read.get(full)
    return hit[1] if hit is not None and hit[0] == key else None
