"""The code link's packed cards in chunks of zstd frames (compiler/code/cardstore.py), the
card store made of those frames as they are (formats/chunked.py, format 3.0), what a user
reads of it, and of the format 2.0 bundles before it."""
from __future__ import annotations

import json
import pickle
import shutil
from pathlib import Path

import pytest

from hostile_bundles import rehash
from v8atlas.compiler.code import cardstore
from v8atlas.compiler.code.cardstore import PackedCards, pack_chunk
from v8atlas.compiler.pipeline import compile_bundle
from v8atlas.formats import code as FC
from v8atlas.formats.chunked import chunked_records, framed, split_frames
from v8atlas.formats.errors import BundleCorrupt, BundleError
from v8atlas.formats.reader import Bundle
from v8atlas.formats.writer import BundleWriter, pack_record
from v8atlas.server import tools
from v8atlas.server.snapshot import Snapshot


def _card(i: int) -> dict:
    return {"address": f"Модуль{i % 7}.Процедура{i}", "lines": [i, i + 3],
            "description": "Возвращает значение реквизита. " * (i % 5), "callees": i % 3}


def _cards(n: int) -> dict[int, bytes]:
    return {i: pack_record(_card(i)) for i in range(n)}


# batches of ids as a view's modules number their procedures (an extension's ids later), in the
# order the link takes them
BATCHES = [list(range(0, 40)), list(range(80, 120)), list(range(40, 80))]


def _store(cards: dict[int, bytes]) -> PackedCards:
    store = PackedCards()
    for ids in BATCHES:
        store.add_chunk(*pack_chunk(ids, [cards[i] for i in ids]))
    return store


@pytest.mark.parametrize("frame", [64, 1 << 15])
def test_chunks_packed_anywhere_read_back_by_id(monkeypatch, frame):
    """The link packs each batch of cards (maybe in its forked child) as frames of at most
    ``FRAME_BYTES`` of whole cards; every card reads back by id, in any order, pickled or not
    (the linked-model cache)."""
    monkeypatch.setattr(cardstore, "FRAME_BYTES", frame)
    cards = _cards(120)
    store = _store(cards)
    assert len(store) == 120 and store.sizes() == [len(cards[i]) for i in range(120)]
    assert [store[i] for i in range(120)] == [cards[i] for i in range(120)]
    assert [store[i] for i in reversed(range(120))] == [cards[i] for i in reversed(range(120))]
    assert list(store) == [cards[i] for i in range(120)]
    assert store.nbytes() < sum(map(len, cards.values()))
    back = pickle.loads(pickle.dumps(store))
    assert [back[i] for i in reversed(range(120))] == [cards[i] for i in reversed(range(120))]
    frames = [len(split_frames(blob)) for blob in store._chunks]
    assert len(frames) == 3 and (min(frames) > 1) == (frame == 64)


def test_an_id_without_a_card_is_an_error():
    store = PackedCards()
    store.add_chunk(*pack_chunk([2], [b"\x80"]))
    with pytest.raises(KeyError):
        store[0]
    with pytest.raises(KeyError):
        store.chunked()


def test_the_card_store_copies_the_link_s_frames_and_reads_cards_back(tmp_path, monkeypatch):
    """The card store is the link's frames, copied: a bundle's store hands every card back as
    the dict it was, by id (the server's get_procedure), one by one, several at once, or all."""
    monkeypatch.setattr(cardstore, "FRAME_BYTES", 512)
    cards = _cards(120)
    store = _store(cards)
    with BundleWriter(tmp_path, "cards", compiler_version="t") as w:
        w.add_chunked("code.procs", store.chunked(), msgpack=True)
    bundle = Bundle.open(w.published)
    read = bundle.records("code.procs")
    assert bundle.manifest["format_version"] == "3.0"
    assert bundle.manifest["records"]["code.procs"]["encoding"] == "msgpack"
    assert [read[i] for i in range(120)] == [_card(i) for i in range(120)]
    assert read.many([119, 0, 77]) == [_card(119), _card(0), _card(77)]
    assert list(read) == [_card(i) for i in range(120)]
    assert read.raw(5) == cards[5]                       # raw: the packed bytes
    assert bundle.blob("code.procs.dat").nbytes == store.nbytes()     # every frame, as it was


# -- the card and module stores in a compiled bundle, and the bundles before them -------------

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "config-designer"


@pytest.fixture(scope="module")
def compiled(tmp_path_factory) -> Path:
    result = compile_bundle([EXAMPLES], tmp_path_factory.mktemp("out"), quiet=True, cache=False)
    return result.bundle_path


def _answers(bundle: Path) -> list[str]:
    """What a user reads of every procedure (card and body) and every module (its listing)."""
    snap = Snapshot(Bundle.open(bundle))
    code = snap.code
    names = [code.titles[i] for i in range(len(code))]
    names += [code.module_cards[m]["address"] for m in range(len(code.module_cards))]
    return [tools.call(snap, "get_procedure", {"name": n, "detail": d}).text
            for n in names for d in ("brief", "full", "body")]


def _as_format_2(bundle: Path) -> None:
    """The bundle as a session-10 compiler wrote it (format 2.0): the same chunked bodies, the
    cards and module cards per-record stores with a trained dictionary."""
    b = Bundle.open(bundle)
    cards, modules = list(b.records(FC.PROCS)), list(b.records(FC.MODULES))
    m = json.loads((bundle / "manifest.json").read_text(encoding="utf-8"))
    for store in (FC.PROCS, FC.MODULES):
        for part in ("data", "frames", "index"):
            seg = m["segments"].pop(m["records"][store][part])
            (bundle / seg["file"]).unlink()
    with BundleWriter(bundle.parent / "old", "old", compiler_version="t") as w:
        w.add_records(FC.PROCS, cards, train_bytes=4_000_000)
        w.add_records(FC.MODULES, modules)
    for name, seg in w.segments.items():
        shutil.copy(w.published / seg["file"], bundle / seg["file"])
    m["segments"].update(w.segments)
    m["records"].update(w.records)
    m["format_version"] = "2.0"
    rehash(m)
    (bundle / "manifest.json").write_text(json.dumps(m, ensure_ascii=False), encoding="utf-8")


def test_a_bundle_of_the_per_record_card_stores_is_served_alike(compiled, tmp_path):
    """A format 2.0 bundle (session 10: chunked bodies, per-record cards and module cards) is
    read by this server: every procedure and module answers as from the bundle of today."""
    old = tmp_path / "old-bundle"
    shutil.copytree(compiled, old)
    _as_format_2(old)
    b = Bundle.open(old)
    assert b.manifest["format_version"] == "2.0" and "kind" not in b.manifest["records"][FC.PROCS]
    assert b.manifest["records"][FC.BODIES]["kind"] == "chunked"
    assert _answers(old) == _answers(compiled)
    assert any("ОбновитьЦены" in a for a in _answers(old))


def test_the_compiled_card_stores_are_msgpack_chunked_stores_of_format_3(compiled):
    b = Bundle.open(compiled)
    assert b.manifest["format_version"] == "3.0"
    for store in (FC.PROCS, FC.MODULES):
        entry = b.manifest["records"][store]
        assert (entry["kind"], entry["encoding"]) == ("chunked", "msgpack")
    assert "encoding" not in b.manifest["records"][FC.BODIES]
    assert b.records(FC.PROCS)[0]["address"] == Snapshot(b).code.titles[0]


def test_a_2x_reader_refuses_a_bundle_of_msgpack_chunked_stores(compiled, monkeypatch):
    """A session-10 server (reads 1.x and 2.x) would hand the cards out as bytes: the bundle
    says 3.0, and it refuses it instead."""
    from v8atlas.formats import manifest
    monkeypatch.setattr(manifest, "READABLE_MAJORS", (1, 2))
    with pytest.raises(BundleError, match="bundle format 3.0 is not readable"):
        Bundle.open(compiled)


def _edited(compiled: Path, tmp_path: Path, edit) -> Path:
    bundle = tmp_path / "b"
    shutil.copytree(compiled, bundle)
    m = json.loads((bundle / "manifest.json").read_text(encoding="utf-8"))
    edit(m)
    rehash(m)
    (bundle / "manifest.json").write_text(json.dumps(m, ensure_ascii=False), encoding="utf-8")
    return bundle


@pytest.mark.parametrize("case,expect", [
    ("encoding-unknown", "encoding must be 'msgpack' or absent"),
    ("msgpack-in-2x", "encoding is 'msgpack' in a 2.x bundle"),
    ("encoding-on-per-record", "encoding is for chunked stores only"),
])
def test_a_crafted_encoding_is_refused_at_open(compiled, tmp_path, case, expect):
    edits = {"encoding-unknown": lambda m: m["records"][FC.PROCS].update(encoding="pickle"),
             "msgpack-in-2x": lambda m: m.update(format_version="2.0"),
             # a per-record store (the docs' cards) has no encoding to choose
             "encoding-on-per-record": lambda m: next(e for e in m["records"].values()
                                                      if "kind" not in e).update(encoding="pickle")}
    with pytest.raises(BundleError, match=expect):
        Bundle.open(_edited(compiled, tmp_path, edits[case]))


@pytest.mark.parametrize("kind", ["chunked", "per-record"])
def test_a_record_that_is_not_msgpack_is_a_bundle_corrupt_naming_its_store(tmp_path, kind):
    """A store whose frames decompress but whose record is not one msgpack record (cut short,
    trailing bytes, a bad byte) is a damaged bundle, named, whatever the store's kind."""
    records = [pack_record(_card(0)), pack_record(_card(1))[:-3], pack_record(_card(2)) + b"\x01", b"\xc1"]
    with BundleWriter(tmp_path, kind, compiler_version="t") as w:
        if kind == "chunked":
            w.add_chunked("code.procs", chunked_records(framed(records, 64, 1)), msgpack=True)
        else:
            w.add_compressed("code.procs", _per_record(records))
    store = Bundle.open(w.published).records("code.procs")
    assert store[0] == _card(0)
    for i in (1, 2, 3):
        with pytest.raises(BundleCorrupt, match=rf"code.procs: record {i} is not a msgpack record"):
            store[i]
        with pytest.raises(BundleCorrupt, match="code.procs"):
            store.many([0, i])
    assert store.raw(1) == records[1]


def _per_record(packed: list[bytes]):
    """A per-record store of bytes that are not all msgpack (no writer packs such)."""
    import numpy as np
    import zstandard
    cctx = zstandard.ZstdCompressor()
    frames = [cctx.compress(p) for p in packed]
    offsets = np.zeros(len(frames) + 1, dtype="<u8")
    offsets[1:] = np.cumsum([len(f) for f in frames])
    return len(frames), b"".join(frames), offsets, None
