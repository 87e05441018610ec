"""Content fingerprints of sources: sha256 of a file's bytes; of a folder, of its files' hashes.

A folder of 90,000 files must not be read whole on every compile, so file hashes are kept in
a stat cache (like git's index): a file whose size, mtime, ctime and inode are unchanged is
not read again. ctime cannot be set back by a user, so an edit is always seen, even one
that keeps the size and restores the mtime. A few files to read are hashed at once (over the
compile's worker pool); a folder with many (a cold compile: all of them, nothing known below
it, so not even walked yet) is returned ``Pending`` and walked and hashed by a forked child
while the parent parses and links (``compiler/pipeline.py``); the fingerprint is the same
either way.

A compile that skips a domain (``--skip code``) hashes only the files some enabled domain may
read (``Domain.reads_files``, gathered by ``compiler/pipeline.py`` into a ``FileRule``): the
others count by their path alone (``UNREAD``), so their edits are not seen — nothing of
them is in the bundle — while an added or removed file still is. With every domain enabled
every file is hashed.
"""
from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path
from operator import attrgetter
from typing import Any, Callable

from v8atlas.formats.hashing import sha256_file

from . import cache, pool, readhash
from .readhash import StatKey as _StatKey, read_by_readers, stat_key

SKIP_DIRS = frozenset({".git", ".svn", "__pycache__", "node_modules", ".venv"})


def walk_files(root: Path | str) -> list[tuple[str, os.DirEntry]]:
    """(relative posix path, DirEntry) of every regular file below ``root``, in sorted order
    (each folder's entries by name, a folder's files where its name sorts)."""
    out: list[tuple[str, os.DirEntry]] = []
    _scan(os.fspath(root), "", out)
    return out


_NAME = attrgetter("name")


def _scan(folder: str, prefix: str, out: list[tuple[str, os.DirEntry]]) -> None:
    # Into one list, not through nested generators: SSL's 9,300 files sit in 8,400 folders,
    # and each file's yield passed up every level (a third of the walk's CPU).
    _gather(_level(folder, prefix), out)


def _gather(entries: list["_Entry"], out: list[tuple[str, os.DirEntry]]) -> None:
    """The files of these entries (``_level``'s), its subfolders' walked, into ``out``."""
    for rel, path, entry in entries:
        if entry is None:
            _scan(path, rel, out)
        else:
            out.append((rel, entry))


_Entry = tuple[str, str, "os.DirEntry | None"]    # rel (a folder's: its prefix), full path, file


def _level(folder: str, prefix: str) -> list[_Entry]:
    """One folder's entries in walk order (by name): a subfolder as (``prefix`` + its name +
    "/", its path, None), a file as (its relative path, its path, its entry)."""
    try:
        with os.scandir(folder) as it:
            entries = sorted(it, key=_NAME)
    except OSError:
        return []
    out: list[_Entry] = []
    for e in entries:
        try:
            if e.is_dir(follow_symlinks=False):
                if e.name not in SKIP_DIRS:
                    out.append((f"{prefix}{e.name}/", e.path, None))   # a str: no Path per folder
            elif e.is_file(follow_symlinks=False):
                out.append((prefix + e.name, e.path, e))
        except OSError:
            continue
    return out


# The digest of a file no enabled domain reads: its path is in the fingerprint, its bytes not.
UNREAD = "-"


@dataclass(frozen=True)
class FileRule:
    """Which files below a source to hash: those any of ``reads`` (the enabled domains'
    ``reads_files``: module-level functions, so a rule pickles) may read."""
    reads: tuple[Callable[[str], bool], ...]

    def __call__(self, rel: str) -> bool:
        for read in self.reads:   # once per file of the dump: no generator
            if read(rel):
                return True
        return False


# A folder with this many files unknown by their stat is hashed beside its parse (``begin``).
DEFER_AT = 300


def _read_digest(real: str, rel: str, full: str, key: _StatKey, leave: Callable[[str], bool]
                 ) -> tuple[str | None, int]:
    """A file's digest and the bytes hashed for it: a reader's (``compiler/readhash.py``: the
    bytes it read, the stat unchanged; ``real`` is the source's real path, as the readers note
    it), else hashed now — but not a file ``leave`` names (``None``)."""
    digest = readhash.known(os.path.join(real, rel), key)
    if digest is None and not leave(rel):
        return sha256_file(full), key[0]
    return digest, 0


def _fill_digests(p: "Pending") -> None:
    """Each missing file's digest (``_read_digest``)."""
    real = os.path.realpath(p.path)
    for i in p.missing:
        if p.digests[i] is None:
            p.digests[i], hashed = _read_digest(real, p.rels[i], p.fulls[i], p.keys[i], _no_file)
            p.hashed += hashed


def _no_file(rel: str) -> bool:
    """``leave`` that leaves no file undigested."""
    return False


@dataclass
class Pending:
    """A folder whose fingerprint is not computed yet: its files in walk order, their stat
    keys and the digests known from the stat cache (None where ``missing`` says the file must
    be read). ``walked`` is False for a folder none of whose files is known (a cold compile):
    even its walk (a readdir per folder, 62,000 of them in SSL × 8) is left to ``complete``."""
    path: Path
    walked: bool = True
    rule: FileRule | None = None    # None: hash every file
    rels: list[str] = field(default_factory=list)
    fulls: list[str] = field(default_factory=list)
    keys: list[_StatKey] = field(default_factory=list)
    digests: list[str | None] = field(default_factory=list)
    missing: list[int] = field(default_factory=list)
    hashed: int = 0     # bytes the fingerprinter read itself (not known from a reader)


class Fingerprinter:
    """Computes content fingerprints, reusing file hashes from ``cache_file`` when given."""

    def __init__(self, cache_file: Path | None = None) -> None:
        self.cache_file = cache_file
        self._cache: dict[str, tuple[_StatKey, str]] = {}
        self._seen: dict[str, tuple[_StatKey, str]] = {}
        self.bytes_hashed = 0
        self.sizes: dict[Path, int] = {}    # path given → bytes of its files (seen while walking)
        if cache_file is not None:
            ok, hashes = cache.load(cache_file)     # absent, damaged or not ours: start afresh
            self._cache = hashes if ok and isinstance(hashes, dict) else {}

    def _cached(self, path: str, key: _StatKey) -> str | None:
        """The digest the stat cache holds for ``path`` at this stat, else None."""
        hit = self._cache.get(path)
        return hit[1] if hit is not None and hit[0] == key else None

    def __call__(self, path: Path) -> str:
        got = self.begin(path, defer=False)
        assert isinstance(got, str)
        return got

    def begin(self, path: Path, defer: bool = True, rule: FileRule | None = None
              ) -> "str | Pending":
        """The fingerprint of ``path`` now, or — a folder with at least ``DEFER_AT`` files not
        known by their stat (a cold compile) — a ``Pending`` completed later by ``complete``
        (in a forked child, while the parent parses and links) and finished by ``finish``: the cold
        compile's walk and hashing leave the parse's and link's critical path. Below a folder
        only the files ``rule`` names are hashed (a single file is always)."""
        if path.is_file():
            full = str(path.resolve())
            key = stat_key(path.stat())
            digest = self._cached(full, key)
            if digest is None:
                digest = sha256_file(full)
                self.bytes_hashed += key[0]
            self._seen[full] = (key, digest)
            self.sizes[path] = key[0]
            return digest
        if defer and not self._knows_below(path):
            return Pending(path, walked=False, rule=rule)
        pending = self._walk(path, rule)
        if defer and len(pending.missing) >= max(1, DEFER_AT):
            return pending
        for j, digest in pool.imap(sha256_file, [pending.fulls[i] for i in pending.missing]):
            pending.digests[pending.missing[j]] = digest
        pending.hashed = sum(pending.keys[i][0] for i in pending.missing)
        return self.finish(pending)

    def _knows_below(self, path: Path) -> bool:
        """Whether the stat cache holds any file below the folder (else every file is missing)."""
        prefix = os.path.join(os.path.abspath(path), "")
        return any(k.startswith(prefix) for k in self._cache)

    def _walk(self, path: Path, rule: FileRule | None) -> Pending:
        pending = Pending(path, rule=rule)
        rels, fulls, keys, digests, missing = (pending.rels, pending.fulls, pending.keys,
                                               pending.digests, pending.missing)
        # From an absolute root each entry's path is absolute and normal already.
        for rel, entry in walk_files(os.path.abspath(path)):
            full = entry.path
            key = stat_key(entry.stat(follow_symlinks=False))
            digest: str | None = UNREAD   # whatever the stat cache knows: the fingerprint is of the rule
            if rule is None or rule(rel):
                digest = self._cached(full, key)
                if digest is None:
                    missing.append(len(rels))
            rels.append(rel)
            fulls.append(full)
            keys.append(key)
            digests.append(digest)
        return pending

    def complete(self, pendings: list[Pending]) -> list[Pending]:
        """Each pending folder walked (if it was not) and its missing files hashed — but those
        a reader has read (``compiler/readhash.py``: the digest of the bytes read, the file's
        stat unchanged) and those a reader is about to read (``read_by_readers``), left to
        ``finish``. All of ``Completion``'s work in one process."""
        work = Completion(self, pendings)
        return work.assemble(work.claim(front=True, leave=read_by_readers))

    def finish(self, pending: Pending) -> str:
        """The folder's fingerprint from its ``complete``d ``Pending``: the files it left
        are known from the readers by now (``compiler/readhash.py``), else hashed here."""
        self.sizes[pending.path] = sum(k[0] for k in pending.keys)
        _fill_digests(pending)   # what the child left: read by now, or hashed here
        self.bytes_hashed += pending.hashed
        lines = []
        for rel, full, key, digest in zip(pending.rels, pending.fulls, pending.keys, pending.digests):
            assert digest is not None
            if digest != UNREAD:
                self._seen[full] = (key, digest)
            elif (known := self._cached(full, key)) is not None:
                self._seen[full] = (key, known)   # kept for a later compile that reads it
            lines.append(f"{rel}\0{digest}\n")
        # hashed as one text (the same bytes as line by line): on the compile's critical path
        return hashlib.sha256("".join(lines).encode()).hexdigest()

    def save(self) -> None:
        """Keep the hashes of the files seen in this compile (others are dropped)."""
        if self.cache_file is None:
            return
        cache.save(self.cache_file, self._seen)


# Units a claim of the fingerprint's work takes at a time: SSL's walk is ~580 units of
# ``_ENTRIES_PER_UNIT`` entries two levels down (an object's descriptor, its folder, …),
# ≈ 0.4 ms each — small enough that the parent never waits long on the child's last claim,
# large enough that a unit's overhead is small beside its files.
_UNITS_PER_CLAIM = 2
_ENTRIES_PER_UNIT = 8
_UNIT_SECONDS = 0.0005    # a unit's work when none was timed (SSL: 0.25 s CPU over ~580 units)
# Files a unit of a walked folder's hashing holds (a warm stat cache, many files changed).
_FILES_PER_UNIT = 32



def _top_entries(root: str) -> list[_Entry]:
    """A folder's walk (``walk_files``) cut two levels down, in walk order: each entry of the
    root and of its subfolders — a file itself, a folder its whole subtree. Their walks one
    after the other are the folder's."""
    units: list[_Entry] = []
    for rel, path, entry in _level(root, ""):
        units += _level(path, rel) if entry is None else [(rel, path, entry)]
    return units


class Completion:
    """The pending folders' walk and hashing as one list of small units, claimed from the
    front by the hashing child (forked before the parse, at low priority: it takes
    the CPU the compile leaves) and from the back by the parent once it needs the
    fingerprint (``pool.Claims``). Whoever claims first lists the units (two levels of each
    folder: ~30 ``scandir`` for SSL, off the compile's serial start); the other lists them
    too and works only if its listing is the same (``listing``). The units' results are put
    together in walk order (``assemble``), any unit not done (the child's, when it is
    starved or listed another tree) done there: the same ``Pending`` whoever did which."""

    def __init__(self, fingerprinter: Fingerprinter, pendings: list[Pending]) -> None:
        self.fingerprinter = fingerprinter
        self.pendings = pendings
        self.reals = [os.path.realpath(p.path) for p in pendings]   # the readers note real paths
        self.units: list[tuple[int, Any, int]] | None = None   # (pending, entries | start, end)
        self.listing = ""
        self.claims = pool.Claims(-1, _UNITS_PER_CLAIM)

    def _list(self) -> list[tuple[int, Any, int]]:
        if self.units is None:
            units: list[tuple[int, Any, int]] = []
            for pi, p in enumerate(self.pendings):
                if p.walked:     # hashing only: the missing files in runs
                    units += [(pi, s, min(s + _FILES_PER_UNIT, len(p.missing)))
                              for s in range(0, len(p.missing), _FILES_PER_UNIT)]
                else:
                    entries = _top_entries(os.path.abspath(p.path))
                    units += [(pi, entries[s:s + _ENTRIES_PER_UNIT], 0)
                              for s in range(0, len(entries), _ENTRIES_PER_UNIT)]
            self.units = units
            self.listing = hashlib.sha256(repr([u if isinstance(u[1], int) else
                                                (u[0], [e[0] for e in u[1]]) for u in units]
                                               ).encode()).hexdigest()
        return self.units

    def claim(self, front: bool, leave: Callable[[str], bool] = _no_file
              ) -> tuple[str, list[tuple[int, list]]]:
        """Units claimed from one end until the ends meet: (the listing they are of,
        [(first unit, its claim's results)]). ``leave``: files to leave undigested (``None``)
        for ``finish`` (the readers'), as in ``_fill_digests``."""
        units = self._list()
        done: list[tuple[int, list]] = []
        if self.claims.settle(len(units)) != len(units):   # the other listed another tree
            return self.listing, done
        for start, end in self.claims.ranges(front):
            done.append((start, [self._unit(units[k], leave) for k in range(start, end)]))
        return self.listing, done

    def _unit(self, unit: tuple, leave: Callable[[str], bool]) -> tuple:
        p = self.pendings[unit[0]]
        if p.walked:     # (index, start, end) of its missing files: (digest, bytes hashed) each
            out = []
            for i in p.missing[unit[1]:unit[2]]:
                out.append((i, *_read_digest(self.reals[unit[0]], p.rels[i], p.fulls[i], p.keys[i], leave)))
            return tuple(out)
        found: list[tuple[str, os.DirEntry]] = []
        _gather(unit[1], found)
        rels, fulls, keys, digests = [], [], [], []
        hashed = 0
        cached, rule = self.fingerprinter._cached, p.rule
        for rel, e in found:
            key = stat_key(e.stat(follow_symlinks=False))
            digest: str | None = UNREAD
            if rule is None or rule(rel):
                digest = cached(e.path, key) or readhash.known(os.path.join(self.reals[unit[0]], rel), key)
                if digest is None and not leave(rel):
                    digest = sha256_file(e.path)
                    hashed += key[0]
            rels.append(rel)
            fulls.append(e.path)
            keys.append(key)
            digests.append(digest)
        return rels, fulls, keys, digests, hashed

    def redo_seconds(self, own: tuple[str, list[tuple[int, list]]], spent: float) -> float:
        """About what doing the other process's units would take here, from ``own`` (this
        process's claims) and the ``spent`` seconds they took: how long waiting for its
        answer is worth before doing them instead."""
        mine = sum(len(got) for _, got in own[1])
        per_unit = spent / mine if mine >= 8 else _UNIT_SECONDS
        return max(0.0, len(self._list()) - mine) * per_unit

    def assemble(self, *claimed: tuple[str, list[tuple[int, list]]]) -> list[Pending]:
        """The pendings filled from every unit's result (``claim``'s, from both ends; those
        of another listing dropped), a unit nobody did done now (every file read)."""
        units = self._list()
        results: list[Any] = [None] * len(units)
        for listing, parts in claimed:
            if listing == self.listing:
                for start, got in parts:
                    results[start:start + len(got)] = got
        for k, got in enumerate(results):
            if got is None:
                results[k] = self._unit(units[k], _no_file)
        filled = [p if p.walked else Pending(p.path, rule=p.rule) for p in self.pendings]
        walks: list[list[tuple]] = [[] for _ in self.pendings]
        for unit, got in zip(units, results):
            pi = unit[0]
            if not self.pendings[pi].walked:
                walks[pi].append(got)
                continue
            p = filled[pi]
            for i, digest, hashed in got:
                p.digests[i] = digest
                p.hashed += hashed
        for p, walk in zip(filled, walks):
            if walk:   # the units' walks one after the other: the folder's walk
                p.rels = [r for got in walk for r in got[0]]
                p.fulls = [f for got in walk for f in got[1]]
                p.keys = [k for got in walk for k in got[2]]
                p.digests = [d for got in walk for d in got[3]]
                p.hashed = sum(got[4] for got in walk)
                p.missing = [i for i, d in enumerate(p.digests) if d is None]
        return filled
