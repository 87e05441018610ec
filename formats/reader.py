"""Bundle: a published bundle opened read-only by mmap; nothing is read whole at open.

Opening reads manifest.json and checks the format major version. Segments are mapped on
first use and handed out as zero-copy numpy views; a record is one slice of the mapping,
one zstd frame and one msgpack decode, so any record is O(1) to reach.
"""
from __future__ import annotations

import json
import mmap
import os
import threading
from functools import cached_property
from pathlib import Path
from typing import Any, Callable, Iterator

import msgpack
import numpy as np
import zstandard

from .chunked import KIND as CHUNKED, MSGPACK, ChunkedRecordStore
from .errors import BundleCorrupt
from .hashing import sha256_stream
from .manifest import read_manifest_file
from .publish import resolve_bundle_path
from .safeio import open_regular
from .version import MANIFEST_NAME, PIN_MARKER, REPORT_NAME, VERIFIED_DIR


def unpack_record(data: bytes | memoryview) -> Any:
    return msgpack.unpackb(data, raw=False, strict_map_key=False)


def decode_record(store: str, i: int, data: bytes | memoryview) -> Any:
    """Record ``i`` of record store ``store`` decoded; a ``BundleCorrupt`` naming the store
    when it is not one msgpack record (a damaged store, not a server error)."""
    try:
        return unpack_record(data)
    except (ValueError, TypeError, msgpack.UnpackException) as e:   # (ExtraData, FormatError, …)
        raise BundleCorrupt(f"record store {store}: record {i} is not a msgpack record ({e})",
                            store) from None


def read_manifest(bundle_path: Path) -> dict[str, Any]:
    """The validated manifest of a bundle folder (formats/manifest.py checks every key)."""
    return read_manifest_file(bundle_path)


class RecordStore:
    """Random access to msgpack+zstd records by index."""

    def __init__(self, name: str, data: memoryview, offsets: np.ndarray, zdict: bytes | None,
                 guard: Callable[[], None] | None = None) -> None:
        self.name = name
        self._data = data
        self._guard = guard          # raises BundleCorrupt when the mapped file has shrunk
        self._offsets = offsets
        self._zdict = zstandard.ZstdCompressionDict(zdict) if zdict else None
        self._local = threading.local()  # a ZstdDecompressor is not thread-safe

    def _dctx(self) -> zstandard.ZstdDecompressor:
        d = getattr(self._local, "dctx", None)
        if d is None:
            d = (zstandard.ZstdDecompressor(dict_data=self._zdict) if self._zdict is not None
                 else zstandard.ZstdDecompressor())
            self._local.dctx = d
        return d

    def __len__(self) -> int:
        return len(self._offsets) - 1

    def raw(self, i: int) -> bytes:
        if not 0 <= i < len(self):
            raise IndexError(f"record {i} out of range 0..{len(self) - 1} in {self.name}")
        if self._guard is not None:
            self._guard()
        return self._unguarded(i)

    def many(self, indices: list[int]) -> list[Any]:
        """Records ``indices`` decoded, the mapped file checked once before them all (a page of
        hits reads several records in a row: one fstat, not one a record)."""
        for i in indices:
            if not 0 <= i < len(self):
                raise IndexError(f"record {i} out of range 0..{len(self) - 1} in {self.name}")
        if indices and self._guard is not None:
            self._guard()
        return [decode_record(self.name, i, self._unguarded(i)) for i in indices]

    def _unguarded(self, i: int) -> bytes:
        start, end = self._offsets.item(i), self._offsets.item(i + 1)
        if end < start or end > len(self._data):
            raise BundleCorrupt(f"record store {self.name}: record {i} lies outside its data", self.name)
        try:
            return self._dctx().decompress(self._data[start:end])
        except zstandard.ZstdError as e:
            raise BundleCorrupt(f"record store {self.name}: record {i} does not decompress ({e})",
                                self.name) from None

    def __getitem__(self, i: int) -> Any:
        return decode_record(self.name, i, self.raw(i))

    get = __getitem__

    def __iter__(self) -> Iterator[Any]:
        for i in range(len(self)):
            yield self[i]


class Bundle:
    """A read-only view of one published bundle."""

    def __init__(self, path: Path, manifest: dict[str, Any]) -> None:
        self.path = path
        self.manifest = manifest
        self._maps: dict[str, mmap.mmap | bytes] = {}
        self._files: dict[str, Any] = {}
        self.baseline: dict[str, list[int]] | None = None   # file signature when last verified
        self._lock = threading.Lock()
        self._json: dict[str, Any] = {}
        self._stores: dict[str, RecordStore | ChunkedRecordStore] = {}

    @classmethod
    def open(cls, path: str | os.PathLike) -> "Bundle":
        """Open a bundle folder, or the newest bundle of a bundles directory."""
        bundle_path = resolve_bundle_path(path)
        return cls(bundle_path, read_manifest(bundle_path))

    # -- identity -------------------------------------------------------------------------
    @property
    def id(self) -> str:
        return self.path.name

    @property
    def content_hash(self) -> str:
        return str(self.manifest.get("content_hash", ""))

    @property
    def info(self) -> dict[str, Any]:
        return self.manifest.get("info") or {}

    @property
    def counts(self) -> dict[str, Any]:
        return self.manifest.get("counts") or {}

    def has(self, segment: str) -> bool:
        return segment in self.manifest["segments"]

    def has_records(self, name: str) -> bool:
        return name in (self.manifest.get("records") or {})

    # -- segments -------------------------------------------------------------------------
    def _meta(self, segment: str) -> dict[str, Any]:
        try:
            return self.manifest["segments"][segment]
        except KeyError:
            raise BundleCorrupt(f"{self.id}: segment {segment!r} is not in this bundle "
                                f"(compiled by an older compiler? recompile)", segment) from None

    def _buffer(self, segment: str) -> mmap.mmap | bytes:
        buf = self._maps.get(segment)
        if buf is not None:
            return buf
        meta = self._meta(segment)
        path = self.path / meta["file"]        # a plain name: the manifest schema checked it
        with self._lock:
            if segment in self._maps:
                return self._maps[segment]
            try:
                f = open_regular(path)
            except FileNotFoundError:
                raise BundleCorrupt(f"{self.id}: segment {segment!r} is missing ({path.name})",
                                    segment) from None
            except OSError as e:
                raise BundleCorrupt(f"{self.id}: segment {segment!r} cannot be opened ({path.name}: "
                                    f"{e.strerror or e})", segment) from None
            size = os.fstat(f.fileno()).st_size
            if size != meta["size"]:
                f.close()
                raise BundleCorrupt(f"{self.id}: segment {segment!r} is {size} bytes, the manifest "
                                    f"says {meta['size']}", segment)
            if size == 0:
                f.close()
                buf = b""
            else:
                buf = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
                self._files[segment] = f       # kept open: guard() fstat()s it before record reads
            self._maps[segment] = buf
            return buf

    def guard(self, segment: str) -> Callable[[], None]:
        """A check that the mapped file of ``segment`` still has its size.

        Touching a page of a mapping past the end of a truncated file is SIGBUS, which Python
        cannot catch; one fstat (about a microsecond) before each record read turns a file
        truncated under the server into a BundleCorrupt answer instead."""
        meta = self._meta(segment)

        def check() -> None:
            f = self._files.get(segment)
            if f is None:
                return
            try:
                size = os.fstat(f.fileno()).st_size
            except (OSError, ValueError):
                size = -1
            if size != meta["size"]:
                raise BundleCorrupt(f"{self.id}: segment {segment!r} changed on disk while served "
                                    f"({size} bytes, the manifest says {meta['size']})", segment)
        return check

    def array(self, segment: str) -> np.ndarray:
        meta = self._meta(segment)
        if meta.get("kind") != "array":
            raise BundleCorrupt(f"{self.id}: segment {segment!r} is not an array", segment)
        dtype = np.dtype(meta["dtype"])
        shape = tuple(meta["shape"])
        count = int(np.prod(shape)) if shape else 1
        if count * dtype.itemsize != meta["size"]:
            raise BundleCorrupt(f"{self.id}: segment {segment!r}: shape {shape} of {dtype} does not "
                                f"fit {meta['size']} bytes", segment)
        buf = self._buffer(segment)
        return np.frombuffer(buf, dtype=dtype, count=count).reshape(shape)

    def blob(self, segment: str) -> memoryview:
        return memoryview(self._buffer(segment))

    def json(self, segment: str) -> Any:
        if segment not in self._json:
            try:
                self._json[segment] = json.loads(bytes(self.blob(segment)).decode("utf-8"))
            except (UnicodeDecodeError, ValueError) as e:
                raise BundleCorrupt(f"{self.id}: segment {segment!r} is not valid JSON ({e})",
                                    segment) from None
        return self._json[segment]

    def records(self, name: str) -> RecordStore | ChunkedRecordStore:
        """Record store ``name``: per-record frames (msgpack records) or chunked (byte strings,
        or msgpack records when the entry says so; formats/chunked.py) as the manifest says."""
        store = self._stores.get(name)
        if store is None:
            try:
                entry = self.manifest["records"][name]
            except KeyError:
                raise BundleCorrupt(f"{self.id}: record store {name!r} is not in this bundle",
                                    name) from None
            if entry.get("kind") == CHUNKED:     # (its shapes checked with the manifest)
                store = self._stores[name] = ChunkedRecordStore(
                    name, self.blob(entry["data"]), self.array(entry["frames"]),
                    self.array(entry["index"]), entry["frame_max"], self.guard(entry["data"]),
                    decode_record if entry.get("encoding") == MSGPACK else None)
                return store
            offsets = self.array(entry["offsets"])
            if len(offsets) != entry["count"] + 1:
                raise BundleCorrupt(f"{self.id}: record store {name!r} has {len(offsets) - 1} offsets "
                                    f"for {entry['count']} records", name)
            zdict = bytes(self.blob(entry["dict"])) if entry.get("dict") else None
            store = RecordStore(name, self.blob(entry["data"]), offsets, zdict, self.guard(entry["data"]))
            self._stores[name] = store
        return store

    def report(self) -> dict[str, Any]:
        """The compile report (warnings, unknowns, timings); outside the content hash."""
        name = self.manifest.get("report")
        if not name:
            return {}
        try:
            with open_regular(self.path / name) as f:
                return json.loads(f.read().decode("utf-8"))
        except (OSError, ValueError, RecursionError):
            return {}

    # -- integrity ------------------------------------------------------------------------
    def expected_files(self) -> set[str]:
        files = {m["file"] for m in self.manifest["segments"].values()}
        return files | {MANIFEST_NAME, PIN_MARKER, str(self.manifest.get("report") or REPORT_NAME)}

    def verify(self) -> list[str]:
        """Recompute every segment's sha256; return problems (empty when intact)."""
        problems = []
        baseline = self._signature()
        for name, meta in self.manifest["segments"].items():
            path = self.path / meta["file"]
            try:
                with open_regular(path) as f:
                    size = os.fstat(f.fileno()).st_size
                    if size != meta["size"]:
                        problems.append(f"segment {name!r} is {size} bytes, the manifest says {meta['size']}")
                    elif sha256_stream(f) != meta["sha256"]:
                        problems.append(f"segment {name!r} is corrupted (sha256 differs from the manifest)")
            except FileNotFoundError:
                problems.append(f"segment {name!r} is missing ({path.name})")
            except OSError as e:
                problems.append(f"segment {name!r} cannot be read ({path.name}: {e.strerror or e})")
        expected = self.expected_files()
        try:
            present = sorted(p.name for p in self.path.iterdir())
        except OSError as e:
            return problems + [f"the bundle folder cannot be listed ({e.strerror or e})"]
        for extra in (n for n in present if n not in expected):
            problems.append(f"file {extra!r} is not part of this bundle (added after publishing?)")
        if not problems:
            self.baseline = baseline
        return problems

    def changed_files(self) -> list[str]:
        """Files that differ (size, mtime, ctime, inode) from when this bundle was verified: a copy
        over it, a truncation, a deletion. A few stat calls; the server runs it on a timer."""
        if self.baseline is None:
            return []
        now = self._signature()
        out = []
        for name, sig in self.baseline.items():
            cur = now.get(name)
            if cur is None:
                out.append(f"{name} is gone")
            elif cur[0] != sig[0]:
                out.append(f"{name} is {cur[0]} bytes, was {sig[0]}")
            elif cur[1] != sig[1] or cur[2] != sig[2] or cur[3] != sig[3]:
                out.append(f"{name} was rewritten")   # ctime too: `touch -r` cannot hide an edit
        return out

    # A full verify hashes every byte: O(bundle). A server restart must not pay that for a
    # bundle already verified on this machine, so the stat signature of its files (size,
    # mtime, ctime, inode) is remembered beside it. Any change to a file changes its ctime,
    # which nobody can set back, so a modified segment is always hashed again.
    def _signature(self) -> dict[str, list[int]]:
        files = sorted({m["file"] for m in self.manifest["segments"].values()} | {MANIFEST_NAME})
        sig = {}
        for name in files:
            try:
                st = os.stat(self.path / name, follow_symlinks=False)
            except OSError:
                continue     # missing: verify() says so; changed_files() reports it gone
            sig[name] = [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino]
        return sig

    def _marker(self) -> Path:
        return self.path.parent / VERIFIED_DIR / f"{self.path.name}.json"

    def mark_verified(self) -> None:
        """Remember that this bundle, as it is on disk now, passed verification (best effort)."""
        try:
            marker = self._marker()
            marker.parent.mkdir(exist_ok=True)
            tmp = marker.with_name(f".{marker.name}.{os.getpid()}")
            tmp.write_text(json.dumps({"content_hash": self.content_hash, "files": self._signature()}),
                           encoding="utf-8")
            os.replace(tmp, marker)
        except OSError:
            pass   # a read-only bundles directory: the next start verifies in full again

    def verify_fast(self) -> list[str]:
        """``verify()``, skipped when the files are exactly as they were when last verified here."""
        try:
            marker = json.loads(self._marker().read_text(encoding="utf-8"))
            signature = self._signature()
            if marker.get("content_hash") == self.content_hash and marker.get("files") == signature:
                expected = self.expected_files()
                if all(p.name in expected for p in self.path.iterdir()):
                    self.baseline = signature
                    return []
        except (OSError, ValueError, AttributeError):
            pass
        problems = self.verify()
        if not problems:
            self.mark_verified()
        return problems

    def close(self) -> None:
        """Drop the mappings; views still held elsewhere keep their pages alive until freed."""
        maps, self._maps = self._maps, {}
        files, self._files = self._files, {}
        self._stores.clear()
        for f in files.values():
            f.close()       # the mapping keeps its own duplicate of the descriptor
        for m in maps.values():
            if isinstance(m, mmap.mmap):
                try:
                    m.close()
                except BufferError:
                    pass  # a live numpy view still uses it; the GC closes it with the last view

    def __enter__(self) -> "Bundle":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @cached_property
    def size_bytes(self) -> int:
        return sum(m["size"] for m in self.manifest["segments"].values())


def open_bundle(path: str | os.PathLike) -> Bundle:
    return Bundle.open(path)
