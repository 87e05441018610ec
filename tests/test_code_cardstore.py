"""The code link's packed cards in chunks of zstd frames (compiler/code/cardstore.py), and the
card store made of those frames as they are (formats/chunked.py)."""
from __future__ import annotations

import pickle

import pytest

from v8atlas.compiler.code import cardstore
from v8atlas.compiler.code.cardstore import PackedCards, pack_chunk
from v8atlas.formats.chunked import split_frames
from v8atlas.formats.reader import Bundle
from v8atlas.formats.writer import BundleWriter, pack_record


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
