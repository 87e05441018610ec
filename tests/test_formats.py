"""The bundle contract: write, publish, open by mmap, verify, refuse what is broken."""
from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np
import pytest

from v8atlas.formats import Bundle, BundleCorrupt, BundleFormatError, BundleNotFound
from v8atlas.formats.publish import (cleanup_leftovers, list_bundles, pin, prune, read_newest_name,
                                     set_newest)
from v8atlas.formats.strtable import StringTable, build_string_table, sort_utf8
from hostile_bundles import truncate_segment
from v8atlas.formats.writer import BundleWriter, pack_plain, pack_record


def _records(n: int) -> list[dict]:
    return [{"name": f"Справочник.Объект{i}", "i": i, "fields": [f"Реквизит{j}" for j in range(i % 7)]}
            for i in range(n)]


def write_bundle(out: Path, n: int = 400, name: str = "t", extra: int = 0) -> Path:
    with BundleWriter(out, name, compiler_version="test") as w:
        w.add_array("ids", np.arange(n + extra, dtype="<u4"))
        w.add_array("scores", np.linspace(0, 1, 50, dtype="<f4").reshape(5, 10))
        w.add_records("cards", _records(n))
        w.add_json("meta", {"configs": ["БСП"], "ё": "ёлка"})
        w.add_source("configuration", "src/cf", 123, "ab" * 32)
        w.counts["documents"] = n
    return w.published


def test_roundtrip_arrays_records_json(tmp_path):
    path = write_bundle(tmp_path)
    b = Bundle.open(tmp_path)  # through NEWEST
    assert b.path == path
    assert b.array("ids")[399] == 399
    assert b.array("scores").shape == (5, 10)
    cards = b.records("cards")
    assert len(cards) == 400
    assert cards[123] == _records(400)[123]
    assert cards[0]["name"] == "Справочник.Объект0"
    assert b.json("meta")["ё"] == "ёлка"
    assert b.verify() == []
    assert b.manifest["records"]["cards"]["dict"] is not None  # 400 records train a dictionary
    with pytest.raises(IndexError):
        cards[400]



def test_records_read_together_are_the_records_and_are_guarded(tmp_path):
    # many() (a page of hits) checks the mapped file once for all its records: the same records
    # as one at a time, an index out of range refused before any read, a shrunk file refused
    path = write_bundle(tmp_path)
    b = Bundle.open(tmp_path)
    cards = b.records("cards")
    picked = [399, 0, 123, 123, 7]
    assert cards.many(picked) == [_records(400)[i] for i in picked] and cards.many([]) == []
    with pytest.raises(IndexError):
        cards.many([1, 400])
    truncate_segment(path, b.manifest["records"]["cards"]["data"])
    with pytest.raises(BundleCorrupt, match="changed on disk"):
        cards.many([1, 2])
    with pytest.raises(BundleCorrupt, match="changed on disk"):
        cards[1]

def test_same_inputs_same_hash_and_bytes(tmp_path):
    a = write_bundle(tmp_path / "a")
    b = write_bundle(tmp_path / "b")
    ma = json.loads((a / "manifest.json").read_text())
    mb = json.loads((b / "manifest.json").read_text())
    assert ma["content_hash"] == mb["content_hash"]
    assert {k: v["sha256"] for k, v in ma["segments"].items()} == \
           {k: v["sha256"] for k, v in mb["segments"].items()}
    c = write_bundle(tmp_path / "c", extra=1)
    assert json.loads((c / "manifest.json").read_text())["content_hash"] != ma["content_hash"]


def test_identical_recompile_repoints_instead_of_copying(tmp_path):
    first = write_bundle(tmp_path)
    second = write_bundle(tmp_path)
    assert first == second
    assert len(list_bundles(tmp_path)) == 1
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".tmp-")]


def test_verify_names_corrupted_segment(tmp_path):
    path = write_bundle(tmp_path)
    seg = path / "ids.bin"
    data = bytearray(seg.read_bytes())
    data[10] ^= 0xFF
    seg.write_bytes(bytes(data))
    problems = Bundle.open(path).verify()
    assert len(problems) == 1 and "'ids'" in problems[0] and "corrupted" in problems[0]


def test_short_and_missing_segments_are_named(tmp_path):
    path = write_bundle(tmp_path)
    (path / "ids.bin").write_bytes(b"\0" * 8)
    b = Bundle.open(path)
    with pytest.raises(BundleCorrupt, match="'ids' is 8 bytes"):
        b.array("ids")
    (path / "cards.dat.bin").unlink()
    assert any("'cards.dat' is missing" in p for p in Bundle.open(path).verify())


def test_manifest_that_lies_about_shape(tmp_path):
    path = write_bundle(tmp_path)
    m = json.loads((path / "manifest.json").read_text())
    m["segments"]["ids"]["shape"] = [10_000]
    (path / "manifest.json").write_text(json.dumps(m))
    with pytest.raises(BundleFormatError, match="does not fit"):   # refused before mapping
        Bundle.open(path)


def test_unknown_major_version_refused(tmp_path):
    path = write_bundle(tmp_path)
    m = json.loads((path / "manifest.json").read_text())
    m["format_version"] = "9.0"
    (path / "manifest.json").write_text(json.dumps(m))
    with pytest.raises(BundleFormatError, match="format 9.0 is not readable"):
        Bundle.open(path)


def test_dangling_pointer_and_empty_dir(tmp_path):
    with pytest.raises(BundleNotFound, match="no bundle here"):
        Bundle.open(tmp_path)
    write_bundle(tmp_path)
    set_newest(tmp_path, "t-20000101T000000Z-000000000000")
    with pytest.raises(BundleNotFound, match="does not exist"):
        Bundle.open(tmp_path)


def test_half_written_temp_dir_is_ignored_and_cleaned(tmp_path):
    path = write_bundle(tmp_path)
    leftover = tmp_path / ".tmp-t-999999-deadbeef"   # pid that is not running
    leftover.mkdir()
    (leftover / "ids.bin").write_bytes(b"half")
    assert Bundle.open(tmp_path).path == path
    assert [e.path for e in list_bundles(tmp_path)] == [path]
    assert leftover in cleanup_leftovers(tmp_path)
    assert not leftover.exists()


def test_failed_compile_publishes_nothing(tmp_path):
    first = write_bundle(tmp_path)
    with pytest.raises(RuntimeError):
        with BundleWriter(tmp_path, "t", compiler_version="test") as w:
            w.add_array("ids", np.arange(3, dtype="<u4"))
            raise RuntimeError("parser blew up")
    assert read_newest_name(tmp_path) == first.name
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".tmp-") and p.is_dir()]


def test_retention_keeps_newest_pointer_and_pinned(tmp_path):
    paths = []
    for i in range(5):
        paths.append(write_bundle(tmp_path, n=300 + i))
        time.sleep(0.002)
    pin(paths[0])
    set_newest(tmp_path, paths[1].name)
    removed = prune(tmp_path, keep=2)
    left = {e.path for e in list_bundles(tmp_path)}
    assert left == {paths[0], paths[1], paths[3], paths[4]}
    assert removed == [paths[2]]


def test_string_table_lookup_and_prefix():
    words = sort_utf8(["заказ", "заказпокупателя", "ёлка", "abc", "заказы"])
    off, blob = build_string_table(words)
    t = StringTable(off, blob)
    assert t.find("заказ") >= 0 and t[t.find("заказ")] == "заказ"
    assert t.find("заказ2") == -1
    assert sorted(t[i] for i in t.prefix_range("заказ")) == ["заказ", "заказпокупателя", "заказы"]
    assert t.get_many([4, 0, 4]) == [t[4], t[0], t[4]] and t.get_many([]) == []


def test_long_string_table_finds_every_string_through_its_sample():
    # Longer than SAMPLE_MIN: lookups narrow through every SAMPLE_STEP-th string first; every
    # string, every gap between strings and both ends must still be found where bisect puts them.
    import bisect
    import random
    rng = random.Random(7)
    words = sort_utf8("".join(rng.choice("абвёzy") for _ in range(rng.randint(1, 7))) for _ in range(9000))
    assert len(words) > 2048
    off, blob = build_string_table(words)
    t = StringTable(off, blob)
    encoded = [w.encode("utf-8") for w in words]
    probes = words + [w + "\u0000" for w in words[::7]] + ["", "\uffff", "а", "ёёёёёёёёё"]
    for q in probes:
        k = q.encode("utf-8")
        assert t.lower_bound(k) == bisect.bisect_left(encoded, k), q
        assert t.find(q) == (words.index(q) if q in words else -1)
    assert [t[i] for i in t.prefix_range("аб")] == [w for w in words if w.startswith("аб")]



def test_sketches_hold_every_string_and_tell_most_absent_ones():
    # may_hold must never say no to a string of the table (lengths 0–20: shorter and longer
    # than the 8 bytes read at each end, Cyrillic two bytes a letter), and says no to most
    # others: the exact-name lookup of a search phrase relies on both.
    import random
    rng = random.Random(11)
    words = sort_utf8(["", "a", "ab", "справочник.пользователи", "справочник.пользователи2"] +
                      ["".join(rng.choice("абвёxyz.") for _ in range(rng.randint(1, 20))) for _ in range(3000)])
    off, blob = build_string_table(words)
    t = StringTable(off, blob)
    assert all(t.may_hold(w.encode("utf-8")) for w in words)
    absent = [w + suffix for w in words[::5] for suffix in ("q", "ж")] + ["справочник.пользователи3"]
    absent = [w for w in absent if w not in set(words)]
    told = sum(not t.may_hold(w.encode("utf-8")) for w in absent)
    assert told >= 0.9 * len(absent), (told, len(absent))
    assert not StringTable(*build_string_table([])).may_hold(b"a")


def test_verify_reports_files_added_after_publishing(tmp_path):
    path = write_bundle(tmp_path)
    pin(path)
    assert Bundle.open(path).verify() == []          # PINNED and report.json belong there
    (path / "notes.txt").write_text("hand-made")
    assert Bundle.open(path).verify() == ["file 'notes.txt' is not part of this bundle (added after publishing?)"]


def test_verified_marker_skips_rehash_until_a_file_changes(tmp_path, monkeypatch):
    path = write_bundle(tmp_path)
    b = Bundle.open(path)
    calls = []
    real_verify = Bundle.verify
    monkeypatch.setattr(Bundle, "verify", lambda self: calls.append(1) or real_verify(self))
    assert b.verify_fast() == [] and calls == []          # marked verified at publishing
    seg = path / "ids.bin"
    data = bytearray(seg.read_bytes())
    data[0] ^= 0xFF
    seg.write_bytes(bytes(data))                            # same size; ctime changes
    problems = Bundle.open(path).verify_fast()
    assert calls == [1] and any("'ids'" in p for p in problems)


def test_publish_makes_every_segment_durable_before_the_rename(tmp_path, monkeypatch):
    """Segments are written without a sync each and synced together at publish: every one
    of them (the parent's and a forked child's alike, by name) before the folder's rename."""
    import os as _os

    synced: list[str] = []
    renamed: list[int] = []
    real_fsync, real_rename = _os.fsync, _os.rename

    def fsync(fd: int) -> None:
        synced.append(_os.path.basename(_os.readlink(f"/proc/self/fd/{fd}")))
        real_fsync(fd)

    def rename(src, dst) -> None:
        renamed.append(len(synced))
        real_rename(src, dst)

    monkeypatch.setattr(_os, "fsync", fsync)
    monkeypatch.setattr(_os, "rename", rename)
    w = BundleWriter(tmp_path, "t", compiler_version="0")
    w.add_array("a.x", np.arange(10, dtype="<u4"))
    w.add_blob("a.y", b"abc")
    w.add_json("a.z", {"k": 1})
    w.add_records("a.r", [{"n": i} for i in range(3)])
    w.publish()
    before_rename = set(synced[:renamed[0]])
    assert {m["file"] for m in w.segments.values()} <= before_rename
    assert "manifest.json" in before_rename


def test_a_record_that_cannot_be_packed_leaves_the_next_ones_whole():
    """pack_record reuses one packer: a record it refuses must not leave bytes behind."""
    from v8atlas.formats.reader import unpack_record
    card = {"address": "ОбщегоНазначения.П", "params": [["Ссылка", False, None]], "callers": 3}
    first = pack_record(card)
    with pytest.raises(TypeError):
        pack_record({"address": "x", "bad": object()})
    assert pack_record(card) == first
    assert unpack_record(pack_record(card)) == card
    assert pack_record(b"\x00" * 300)[:3] == b"\xc5\x01\x2c"


def test_pack_plain_gives_pack_records_bytes_whatever_the_types():
    """pack_plain (exact types first, the rest through a Python fallback) = pack_record: tuples,
    subclasses of str, int, float, bytes, dict and list, nested; what neither packs is refused."""
    import collections
    import enum

    class Name(str):
        def __str__(self) -> str:            # not called: the string's own data is packed
            return "other"

    class Kind(enum.IntEnum):
        A = 3

    class Ratio(float):
        pass

    class Items(list):
        pass

    Pair = collections.namedtuple("Pair", "a b")
    values = [None, True, 0, -5, 2**40, 1.5, "abc", "тест", b"x", bytearray(b"yz"), (1, 2), [1, (2, "a")],
              {"k": (1,)}, Name("строка"), Kind.A, Ratio(2.5), Pair(1, "b"), Items([1, Kind.A]),
              collections.OrderedDict(z=1, a=2), collections.defaultdict(list, {"a": Items([Name("q")])}),
              {"nested": [Pair(Name("a"), Kind.A), (), {}]}, memoryview(b"mv")]
    for v in values:
        assert pack_plain(v) == pack_record(v), v
    for bad in (object(), {1, 2}):
        with pytest.raises(TypeError):
            pack_plain({"address": "x", "bad": bad})
    card = {"address": "ОбщегоНазначения.П", "params": [["Ссылка", False, None]], "callers": 3}
    assert pack_plain(card) == pack_record(card)
