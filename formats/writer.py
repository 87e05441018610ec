"""BundleWriter: writes segments into a temporary directory and publishes them atomically.

Everything hashed is deterministic: segment bytes depend only on what the caller adds, the
content hash covers the format version, the compiler version and every segment's sha256.
Time-dependent data (created_at, the compile report's timings) stays outside that hash.
"""
from __future__ import annotations

import hashlib
import json
import os
import secrets
import shutil
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import msgpack
import numpy as np
import zstandard

from .chunked import KIND as CHUNKED, MSGPACK, ChunkedRecords
from .errors import BundleError
from .manifest import content_hash
from .publish import cleanup_leftovers, find_bundle_by_hash, fsync_path, set_newest
from .version import (CHUNKED_MSGPACK_VERSION, CHUNKED_VERSION, FORMAT_VERSION, MANIFEST_NAME,
                      REPORT_NAME, TEMP_PREFIX)

# Records are compressed one by one; below this many samples a trained dictionary does not pay.
_DICT_MIN_RECORDS = 256
_DICT_SIZE = 112 * 1024
_ZSTD_LEVEL = 3


# One packer per process, reused: ``msgpack.packb`` makes a packer (and its 1 MiB buffer) per
# call, a quarter of packing a procedure card (SSL's 38 k cards: 0.18 → 0.14 s). Its buffer is
# reset after every record and after a failed one; records are packed in one thread.
_PACKER = msgpack.Packer(use_bin_type=True)


def pack_record(obj: Any) -> bytes:
    """The one msgpack encoding of records (writer side); see reader.unpack_record."""
    return _PACKER.pack(obj)


def _plain(o: Any) -> Any:
    """What ``_PLAIN_PACKER`` does not take as it is, as ``_PACKER`` packs it: a tuple as a
    list, an instance of a subclass of a packed type as that type (its own data: no override
    of its methods is called, as none is by the packer)."""
    if isinstance(o, tuple):
        return list(o)
    for cls, exact in _EXACT:
        if isinstance(o, cls):
            return exact(o)
    raise TypeError(f"can not serialize {type(o).__name__!r} object")


_EXACT: tuple[tuple[type, Callable[[Any], Any]], ...] = (
    (int, int.__int__), (float, float.__float__), (str, str.__str__), (bytes, bytes.__bytes__),
    (bytearray, bytes), (dict, dict.copy), (list, list))
# ``pack_record``'s bytes with the exact types tested first (``strict_types``): the packer's
# subclass tests of every value (a float's, a bytes-like's, an ``ExtType``'s ``isinstance`` per
# list) were a third of its time on the procedure cards (SSL's 38 k: 0.093 → 0.063 s); the
# rest goes through ``_plain``.
_PLAIN_PACKER = msgpack.Packer(use_bin_type=True, strict_types=True, default=_plain)


def pack_plain(obj: Any) -> bytes:
    """``pack_record(obj)``, faster for records of exact built-in types (a tuple or a subclass
    costs a Python call: for records that hold few)."""
    return _PLAIN_PACKER.pack(obj)


# A record store's bytes before they are written: (records, frames, offsets (uint64, n+1),
# the dictionary's bytes or None). Picklable: a forked child may compress a store.
CompressedRecords = tuple[int, "bytes | bytearray", np.ndarray, "bytes | None"]


def compress_records(records: Iterable[Any], *, train_bytes: int | None = None) -> CompressedRecords:
    """msgpack records, each compressed with zstd (trained dictionary when worth it), for
    ``BundleWriter.add_compressed``. ``train_bytes`` bounds the samples the dictionary is
    trained on (every k-th record, deterministic): training on 80 MB of records costs seconds
    and gains nothing over a few MB of them."""
    packed = [pack_record(r) for r in records]
    zdict = _train(len(packed), sum(map(len, packed)), train_bytes, lambda k: packed[::k])
    return _compressed(packed, len(packed), zdict)


def _train(count: int, total: int, train_bytes: int | None,
           every: Callable[[int], list[bytes]]) -> zstandard.ZstdCompressionDict | None:
    """The dictionary trained on every k-th of ``count`` packed records (``every(k)``), k such
    that the samples stay within ``train_bytes``; None for few records or a failure."""
    if count < _DICT_MIN_RECORDS:
        return None
    samples = every(-(-total // train_bytes) if train_bytes and total > train_bytes else 1)
    try:
        # threads=0 and fixed k/d keep training deterministic for the same samples.
        return zstandard.train_dictionary(_DICT_SIZE, samples, k=1024, d=8, threads=0,
                                          level=_ZSTD_LEVEL)
    except zstandard.ZstdError:
        return None


def _compressed(packed: Iterable[bytes], count: int,
                zdict: zstandard.ZstdCompressionDict | None) -> CompressedRecords:
    params = dict(level=_ZSTD_LEVEL, write_checksum=False, write_content_size=True,
                  write_dict_id=False)
    cctx = (zstandard.ZstdCompressor(dict_data=zdict, **params) if zdict is not None
            else zstandard.ZstdCompressor(**params))
    offsets = np.zeros(count + 1, dtype="<u8")
    frames = bytearray()
    for i, raw in enumerate(packed):
        frames += cctx.compress(raw)
        offsets[i + 1] = len(frames)
    return count, frames, offsets, zdict.as_bytes() if zdict is not None else None


class BundleWriter:
    """Collects segments for one bundle; use as a context manager.

    ``with BundleWriter(out_dir, "sample", compiler_version="0.1.0") as w: ...`` publishes on a
    clean exit and removes the temporary directory on an exception, so a reader never sees a
    half-written bundle.
    """

    def __init__(self, bundles_dir: str | os.PathLike, name: str, *, compiler_version: str) -> None:
        if not name or any(c in name for c in "/\\") or name.startswith("."):
            raise BundleError(f"bundle name {name!r} is not a plain folder name")
        self.bundles_dir = Path(bundles_dir)
        self.name = name
        self.compiler_version = compiler_version
        self.bundles_dir.mkdir(parents=True, exist_ok=True)
        cleanup_leftovers(self.bundles_dir)
        self.tmp = self.bundles_dir / f"{TEMP_PREFIX}{name}-{os.getpid()}-{secrets.token_hex(4)}"
        self.tmp.mkdir()
        self.segments: dict[str, dict[str, Any]] = {}
        self.records: dict[str, dict[str, Any]] = {}
        self.sources: list[dict[str, Any]] = []
        self.counts: dict[str, Any] = {}
        self.info: dict[str, Any] = {}
        self.report: dict[str, Any] | None = None
        self.published: Path | None = None
        self.reused = False

    # -- segments -----------------------------------------------------------------------
    def _write(self, name: str, data: bytes | memoryview, meta: dict[str, Any]) -> None:
        if name in self.segments:
            raise BundleError(f"segment {name!r} added twice")
        if not name.replace(".", "").replace("_", "").replace("-", "").isalnum():
            raise BundleError(f"segment name {name!r} must be letters, digits, '.', '_' or '-'")
        fname = f"{name}.bin"
        path = self.tmp / fname
        with open(path, "wb") as f:   # made durable by publish, all files at once
            f.write(data)
        # Size and digest of the bytes just written, not read back from the file (the same
        # figures: a write to a regular file writes all of them or raises).
        view = memoryview(data)
        meta.update(file=fname, size=view.nbytes, sha256=hashlib.sha256(view).hexdigest())
        self.segments[name] = meta

    def add_array(self, name: str, array: np.ndarray) -> None:
        """A typed array, stored little-endian and C-contiguous; read back zero-copy."""
        arr = np.ascontiguousarray(array)
        if arr.dtype.byteorder == ">" or (arr.dtype.byteorder == "=" and np.little_endian is False):
            arr = arr.astype(arr.dtype.newbyteorder("<"))
        if arr.dtype.kind not in "iufbS":
            raise BundleError(f"segment {name!r}: dtype {arr.dtype} is not a plain numeric/bytes type")
        self._write(name, arr.tobytes(), {"kind": "array", "dtype": arr.dtype.newbyteorder("<").str
                                          if arr.dtype.kind in "iuf" else arr.dtype.str,
                                          "shape": list(arr.shape)})

    def add_blob(self, name: str, data: bytes) -> None:
        self._write(name, data, {"kind": "blob"})

    def add_json(self, name: str, obj: Any) -> None:
        """Small structured metadata (configuration list, name tables of a few entries)."""
        data = json.dumps(obj, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode()
        self._write(name, data, {"kind": "json"})

    def add_records(self, name: str, records: Iterable[Any], *, train_bytes: int | None = None) -> int:
        """msgpack records, each compressed with zstd (trained dictionary when worth it):
        ``compress_records`` (its arguments), then ``add_compressed``. Returns the number of
        records."""
        return self.add_compressed(name, compress_records(records, train_bytes=train_bytes))

    def add_compressed(self, name: str, compressed: CompressedRecords) -> int:
        """A record store ``compress_records`` made (maybe in another process), as three
        segments: ``<name>.dat`` (frames), ``<name>.off`` (uint64, n+1) and, when trained,
        ``<name>.zdict``. Returns the number of records."""
        count, frames, offsets, zdict = compressed
        self._write(f"{name}.dat", memoryview(frames), {"kind": "blob"})   # not copied
        self.add_array(f"{name}.off", offsets)
        entry: dict[str, Any] = {"count": count, "data": f"{name}.dat", "offsets": f"{name}.off",
                                 "dict": None}
        if zdict is not None:
            self.add_blob(f"{name}.zdict", zdict)
            entry["dict"] = f"{name}.zdict"
        self.records[name] = entry
        return count

    def add_chunked(self, name: str, chunked: ChunkedRecords, *, msgpack: bool = False) -> int:
        """A chunked record store ``chunked.chunked_records`` made (maybe in another process),
        as ``<name>.dat`` (frames), ``<name>.frames`` (uint64, frames + 1) and ``<name>.idx``
        (uint32, (count, 3)); formats/chunked.py. ``msgpack``: its records are msgpack records
        (``pack_record``'s), handed out decoded. Returns the number of records."""
        count, frames, offsets, index, frame_max = chunked
        self._write(f"{name}.dat", memoryview(frames), {"kind": "blob"})   # not copied
        self.add_array(f"{name}.frames", offsets)
        self.add_array(f"{name}.idx", index)
        entry = {"kind": CHUNKED, "count": count, "data": f"{name}.dat", "frames": f"{name}.frames",
                 "index": f"{name}.idx", "frame_max": frame_max}
        if msgpack:     # (absent for byte strings: a bodies-only entry as format 2.0 wrote it)
            entry["encoding"] = MSGPACK
        self.records[name] = entry
        return count

    # -- manifest pieces ------------------------------------------------------------------
    def add_source(self, kind: str, name: str, size: int, sha256: str, **extra: Any) -> None:
        self.sources.append({"kind": kind, "name": name, "size": size, "sha256": sha256, **extra})

    @property
    def format_version(self) -> str:
        """The lowest format that reads this bundle (version.py)."""
        chunked = [e for e in self.records.values() if e.get("kind") == CHUNKED]
        if any(e.get("encoding") == MSGPACK for e in chunked):
            return CHUNKED_MSGPACK_VERSION
        return CHUNKED_VERSION if chunked else FORMAT_VERSION

    def content_hash(self) -> str:
        return content_hash(self.format_version, self.compiler_version, self.segments, self.records, self.info)

    # -- publishing -----------------------------------------------------------------------
    def publish(self, *, reuse_identical: bool = True) -> Path:
        """fsync, rename into ``<name>-<UTC stamp>-<hash12>/`` and point NEWEST at it.

        With ``reuse_identical`` an existing bundle of the same content hash is re-pointed
        instead of stored twice (a no-change recompile publishes nothing new).
        """
        digest = self.content_hash()
        now = datetime.now(timezone.utc)
        manifest = {
            "format_version": self.format_version,
            "compiler_version": self.compiler_version,
            "name": self.name,
            "content_hash": digest,
            "created_at": now.strftime("%Y-%m-%dT%H:%M:%SZ"),
            "sources": self.sources,
            "segments": dict(sorted(self.segments.items())),
            "records": dict(sorted(self.records.items())),
            "counts": self.counts,
            "info": self.info,
        }
        if reuse_identical:
            existing = find_bundle_by_hash(self.bundles_dir, digest)
            if existing is not None:
                if self.report is not None:
                    _write_json_atomic(existing / REPORT_NAME, self.report)
                set_newest(self.bundles_dir, existing.name)
                shutil.rmtree(self.tmp, ignore_errors=True)
                self.published, self.reused = existing, True
                return existing
        _fsync_files([self.tmp / meta["file"] for meta in self.segments.values()])
        if self.report is not None:
            _write_json(self.tmp / REPORT_NAME, self.report)
            manifest["report"] = REPORT_NAME
        _write_json(self.tmp / MANIFEST_NAME, manifest)
        fsync_path(self.tmp)
        final = self.bundles_dir / f"{self.name}-{now.strftime('%Y%m%dT%H%M%S%fZ')}-{digest[:12]}"
        os.rename(self.tmp, final)
        fsync_path(self.bundles_dir)
        set_newest(self.bundles_dir, final.name)
        self.published = final
        from .reader import Bundle
        Bundle(final, manifest).mark_verified()   # its hashes were just computed from these bytes
        return final

    def abort(self) -> None:
        shutil.rmtree(self.tmp, ignore_errors=True)

    def __enter__(self) -> "BundleWriter":
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        if exc_type is not None:
            self.abort()
        elif self.published is None:
            self.publish()


def _fsync_files(paths: list[Path]) -> None:
    """Every segment on disk before the bundle's folder is renamed into place. From threads,
    at once (fsync releases the GIL): the file system commits them together — the 52
    segments of SSL's bundle in 0.05 s, against 0.2–0.3 s fsynced one by one as written
    (segments are written by the parent and by forked children alike)."""
    with ThreadPoolExecutor(max_workers=8) as threads:
        list(threads.map(fsync_path, paths))


def _write_json(path: Path, obj: Any) -> None:
    with open(path, "w", encoding="utf-8") as f:
        json.dump(obj, f, ensure_ascii=False, indent=1)
        f.flush()
        os.fsync(f.fileno())


def _write_json_atomic(path: Path, obj: Any) -> None:
    tmp = path.with_name(f"{TEMP_PREFIX}{path.name}.{os.getpid()}")
    _write_json(tmp, obj)
    os.replace(tmp, path)
