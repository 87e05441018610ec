"""Procedure bodies as a user reads them: the body store made of the readers' frames
(formats/chunked.py, compiler/code/bodies.py) gives back every body as written (LF line ends),
whatever its size; a crafted or damaged store is a ``BundleCorrupt`` naming it; a bundle of the
per-record store an older compiler wrote is still read."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
import zstandard

from hostile_bundles import rehash
from v8atlas.compiler.code import bodies
from v8atlas.compiler.pipeline import compile_bundle
from v8atlas.formats import code as FC
from v8atlas.formats.chunked import MAX_FRAME, chunked_records, split_frames
from v8atlas.formats.errors import BundleCorrupt, BundleError
from v8atlas.formats.reader import Bundle
from v8atlas.formats.schema import table_segments
from v8atlas.formats.writer import BundleWriter, pack_record
from v8atlas.server.code_index import CodeIndex

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "config-designer"

BIG = "Процедура Большая() Экспорт\n" + "".join(
    f"\tЗначение{i} = \"Строка номер {i} — кириллица\";\n" for i in range(6000)) + "КонецПроцедуры"
EMPTY = "Процедура Пустая()\nКонецПроцедуры"
CYRILLIC = "Функция Привет(Имя) Экспорт\n\tВозврат \"Привет, \" + Имя + \"! ёЁ\";\nКонецФункции"
TINY = [f"Процедура П{i}()\n\tА = {i};\nКонецПроцедуры" for i in range(6000)]


def _titles(bundle: Bundle) -> list[str]:
    off_name, blob_name = table_segments(FC.PROC_TITLES)
    off, blob = bundle.array(off_name), bytes(bundle.blob(blob_name))
    return [blob[off[i]:off[i + 1]].decode("utf-8") for i in range(len(off) - 1)]


def _bodies(bundle: Bundle) -> dict[str, str]:
    index = CodeIndex(bundle)
    return {t.rpartition(".")[2]: index.body(i) for i, t in enumerate(_titles(bundle))}


@pytest.fixture(scope="module")
def compiled(tmp_path_factory) -> Bundle:
    root = tmp_path_factory.mktemp("bodies") / "cf"
    shutil.copytree(EXAMPLES, root)
    common = "\n\n".join([CYRILLIC, EMPTY, BIG]) + "\n"
    (root / "CommonModules/ОбщегоНазначения/Ext").mkdir(parents=True, exist_ok=True)
    (root / "CommonModules/ОбщегоНазначения/Ext/Module.bsl").write_bytes(
        b"\xef\xbb\xbf" + common.replace("\n", "\r\n").encode())        # CRLF, a BOM
    (root / "Catalogs/Номенклатура/Ext").mkdir(parents=True, exist_ok=True)
    (root / "Catalogs/Номенклатура/Ext/ObjectModule.bsl").write_bytes(("\n".join(TINY) + "\n").encode())
    result = compile_bundle([root], tmp_path_factory.mktemp("out"), quiet=True, cache=False)
    return Bundle.open(result.bundle_path)


def test_every_body_reads_back_as_written(compiled):
    got = _bodies(compiled)
    assert got["Привет"] == CYRILLIC and got["Пустая"] == EMPTY     # CRLF read as LF
    assert got["Большая"] == BIG and len(BIG.encode()) > bodies.FRAME_BYTES
    assert [got[f"П{i}"] for i in range(6000)] == TINY
    entry = compiled.manifest["records"][FC.BODIES]
    assert entry["kind"] == "chunked" and "encoding" not in entry      # byte strings
    assert compiled.manifest["format_version"] == "3.0"                 # (the cards: msgpack)
    # the module of many small bodies is several bounded frames; the large body a frame alone
    index, titles = compiled.array(entry["index"]), _titles(compiled)
    tiny = {int(index[i, 0]) for i, t in enumerate(titles) if t.rpartition(".")[2][1:].isdigit()}
    assert len(tiny) > 1 and len(TINY[0]) * len(TINY) > bodies.FRAME_BYTES
    assert entry["frame_max"] == len(BIG.encode())


def _store_bundle(tmp_path: Path, raw: list[bytes], name: str = "b") -> Path:
    """A bundle of one chunked store of ``raw`` (two modules' worth, packed as the readers do)."""
    packed = bodies.pack_module(raw[: len(raw) // 2]) + bodies.pack_module(raw[len(raw) // 2:])
    with BundleWriter(tmp_path, name, compiler_version="t") as w:
        w.add_chunked("bodies", chunked_records(packed))
    return w.published


def test_records_round_trip_empty_large_and_many(tmp_path):
    raw = [b"", "кириллица\r\n".encode(), b"x" * (3 * bodies.FRAME_BYTES), b""] + [b"%d" % i for i in range(5000)]
    store = Bundle.open(_store_bundle(tmp_path, raw)).records("bodies")
    assert len(store) == len(raw) and list(store) == raw
    assert store.many([2, 0, 4000]) == [raw[2], raw[0], raw[4000]]
    with pytest.raises(IndexError):
        store.raw(len(raw))


def test_frames_of_procedures_left_out_are_not_copied():
    big = [bytes([65 + i % 26]) * 50_000 for i in range(12)]
    packed = bodies.pack_module(big)
    assert len(split_frames(packed[0][0])) > 3
    count, frames, offsets, index, _ = chunked_records(packed[:2])     # the first frame's two
    assert count == 2 and len(offsets) == 2 and index[:, 0].tolist() == [0, 0]


def test_empty_records_at_a_module_s_end_stay_in_their_module(tmp_path, monkeypatch):
    """An empty body ends a module (its offset is its blob's whole content) and the next
    module's frames follow: it is read back empty, the next module's bodies as written."""
    monkeypatch.setattr(bodies, "FRAME_BYTES", 8)
    raw = [b"abcdef", b"gh", b"", b"ijklmnop", b"", b"qr", b""]
    bundle = _store_bundle(tmp_path, raw)
    assert list(Bundle.open(bundle).records("bodies")) == raw
    assert _index(bundle)[2].tolist() == [0, 8, 8]      # the end of its own module's frame
    with BundleWriter(tmp_path, "none", compiler_version="t") as w:
        assert w.add_chunked("bodies", chunked_records([])) == 0
    assert len(Bundle.open(w.published).records("bodies")) == 0


def test_a_record_across_two_frames_is_refused_by_the_writer():
    (blob, _s, _e), *_ = bodies.pack_module([b"a" * 100, b"b" * (bodies.FRAME_BYTES + 1)])
    assert len(split_frames(blob)) == 2
    with pytest.raises(ValueError, match="not within one frame"):
        chunked_records([(blob, 50, 150)])


def _edit_manifest(bundle: Path, edit) -> None:
    path = bundle / "manifest.json"
    m = json.loads(path.read_text(encoding="utf-8"))
    edit(m)
    rehash(m)
    path.write_text(json.dumps(m, ensure_ascii=False), encoding="utf-8")


def _rewrite_segment(bundle: Path, segment: str, data: bytes, edit=None) -> None:
    """Segment ``segment`` replaced by ``data``, the manifest made to agree (size, sha256):
    only the store's own checks can catch it."""
    import hashlib
    m = json.loads((bundle / "manifest.json").read_text(encoding="utf-8"))
    seg = m["segments"][segment]
    (bundle / seg["file"]).write_bytes(data)

    def agree(m):
        seg = m["segments"][segment]
        seg.update(size=len(data), sha256=hashlib.sha256(data).hexdigest())
        if seg["kind"] == "array":
            seg["shape"] = [len(data) // int(seg["dtype"][2:]) // 3, 3] if len(seg["shape"]) == 2 \
                else [len(data) // int(seg["dtype"][2:])]
        if edit is not None:
            edit(m)
    _edit_manifest(bundle, agree)


@pytest.mark.parametrize("case,expect", [
    ("index-shape", "must be 7 × 3 uint32"),
    ("frames-dtype", "must be uint64 offsets"),
    ("frame-max-huge", "frame_max must be an integer"),
    ("frame-max-string", "frame_max must be an integer"),
    ("kind-unknown", "kind must be"),
    ("missing-index", "index must name a segment"),
    ("chunked-in-1x", "chunked in a 1.x bundle"),
])
def test_a_crafted_chunked_entry_is_refused_at_open(tmp_path, case, expect):
    bundle = _store_bundle(tmp_path, [b"a", b"bb", b"ccc", b"", b"d", b"e", b"f"])
    edits = {
        "index-shape": lambda m: m["records"]["bodies"].update(count=7) or m["segments"]["bodies.idx"].update(
            shape=[3, 7]),
        "frames-dtype": lambda m: m["segments"]["bodies.frames"].update(dtype="<u4", shape=[
            m["segments"]["bodies.frames"]["shape"][0] * 2]),
        "frame-max-huge": lambda m: m["records"]["bodies"].update(frame_max=MAX_FRAME + 1),
        "frame-max-string": lambda m: m["records"]["bodies"].update(frame_max="9"),
        "kind-unknown": lambda m: m["records"]["bodies"].update(kind="zip"),
        "missing-index": lambda m: m["records"]["bodies"].update(index="nope"),
        "chunked-in-1x": lambda m: m.update(format_version="1.0"),
    }
    _edit_manifest(bundle, edits[case])
    with pytest.raises(BundleError, match=expect):
        Bundle.open(bundle)


def _index(bundle: Path) -> np.ndarray:
    b = Bundle.open(bundle)
    return np.array(b.array(b.manifest["records"]["bodies"]["index"]))


@pytest.mark.parametrize("case,expect", [
    ("frame-out-of-range", "names frame"),
    ("end-beyond-frame", "lies outside its frame"),
    ("start-after-end", "lies outside its frame"),
    ("frame-offsets-beyond-data", "frame 1 lies outside its data"),
    ("not-zstd", "does not decompress"),
    ("zip-bomb", r"declares 209715200 content size \(at most 67108864 bytes\)"),
    ("no-content-size", "declares no content size"),
])
def test_a_crafted_chunked_store_is_a_bundle_corrupt_naming_it(tmp_path, case, expect):
    raw = [b"first", b"second", b"third"]
    bundle = _store_bundle(tmp_path, raw)
    idx = _index(bundle)
    if case == "frame-out-of-range":
        idx[1, 0] = 1000
        _rewrite_segment(bundle, "bodies.idx", idx.astype("<u4").tobytes())
    elif case == "end-beyond-frame":
        idx[1, 2] = 1 << 20
        _rewrite_segment(bundle, "bodies.idx", idx.astype("<u4").tobytes())
    elif case == "start-after-end":
        idx[1, 1] = idx[1, 2] + 1
        _rewrite_segment(bundle, "bodies.idx", idx.astype("<u4").tobytes())
    elif case == "frame-offsets-beyond-data":
        _rewrite_segment(bundle, "bodies.frames", np.array([0, 1 << 30, 1 << 31], dtype="<u8").tobytes())
    else:
        if case == "no-content-size":
            c = zstandard.ZstdCompressor(write_content_size=False).compressobj()
            frame = c.compress(b"x" * 100) + c.flush()
        elif case == "zip-bomb":
            frame = zstandard.ZstdCompressor().compress(b"\0" * (200 << 20))     # (a few KB)
        else:
            frame = b"\x28\xb5\x2f\xfd" + b"\xff" * 40
        _rewrite_segment(bundle, "bodies.dat", frame,
                         lambda m: m["records"]["bodies"].update(frame_max=MAX_FRAME))
        _rewrite_segment(bundle, "bodies.frames", np.array([0, 0, len(frame)], dtype="<u8").tobytes(),
                         lambda m: m["records"]["bodies"].update(frame_max=MAX_FRAME))
    store = Bundle.open(bundle).records("bodies")
    with pytest.raises(BundleCorrupt, match=expect) as e:
        store.raw(1)
    assert "bodies" in str(e.value)


def test_a_zip_bomb_under_the_hard_bound_is_refused_by_the_store_s_own(tmp_path):
    """A frame that declares more content than the store's ``frame_max`` is refused before
    anything is allocated."""
    bundle = _store_bundle(tmp_path, [b"a" * 10, b"b" * 10])
    frame = zstandard.ZstdCompressor().compress(b"\0" * (1 << 20))
    _rewrite_segment(bundle, "bodies.dat", frame)
    _rewrite_segment(bundle, "bodies.frames", np.array([0, len(frame)], dtype="<u8").tobytes())
    with pytest.raises(BundleCorrupt, match=r"declares 1048576 content size \(at most 10 bytes\)"):
        Bundle.open(bundle).records("bodies").raw(0)


def test_a_store_truncated_under_the_server_is_a_bundle_corrupt(tmp_path):
    bundle = _store_bundle(tmp_path, [b"x" * 1000, b"y" * 1000] * 50)
    store = Bundle.open(bundle).records("bodies")
    assert store.raw(0) == b"x" * 1000
    seg = bundle / "bodies.dat.bin"
    with open(seg, "r+b") as f:
        f.truncate(seg.stat().st_size // 2)
    with pytest.raises(BundleCorrupt, match="bodies.dat.*changed on disk"):
        store.raw(99)


def test_a_bundle_of_the_older_per_record_body_store_is_read(tmp_path):
    """Bundles compiled before the chunked store (format 1.0, a msgpack record a body) are
    read by this server as before; a bundle without a chunked store still says 1.0."""
    raw = [CYRILLIC.encode(), EMPTY.encode(), BIG.encode()] * 100
    with BundleWriter(tmp_path, "old", compiler_version="t") as w:
        w.add_records(FC.BODIES, raw, train_bytes=1 << 20)
        w.add_json(FC.META, {"configs": ["x"], "procedures": len(raw)})
    bundle = Bundle.open(w.published)
    assert bundle.manifest["format_version"] == "1.0" and pack_record(raw[0])
    index = CodeIndex(bundle)
    assert [index.body(i) for i in range(len(raw))] == [b.decode() for b in raw]


def test_a_1x_reader_refuses_a_chunked_bundle_instead_of_misreading_it(tmp_path, monkeypatch):
    from v8atlas.formats import manifest
    bundle = _store_bundle(tmp_path, [b"a", b"b"])
    monkeypatch.setattr(manifest, "READABLE_MAJORS", (1,))
    with pytest.raises(BundleError, match="bundle format 2.0 is not readable"):
        Bundle.open(bundle)
