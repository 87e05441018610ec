"""The code link's packed cards in compressed chunks (compiler/code/cardstore.py)."""
from __future__ import annotations

import pickle

import pytest

from v8atlas.compiler.code import cardstore
from v8atlas.compiler.code.cardstore import PackedCards
from v8atlas.formats.writer import pack_record


def _cards(n: int) -> dict[int, bytes]:
    return {i: pack_record({"address": f"Модуль{i % 7}.Процедура{i}", "lines": [i, i + 3],
                            "description": "Возвращает значение реквизита. " * (i % 5)})
            for i in range(n)}


@pytest.mark.parametrize("chunk", [64, 1 << 20])
def test_cards_appended_in_any_order_read_back_by_id(monkeypatch, chunk):
    monkeypatch.setattr(cardstore, "CHUNK_BYTES", chunk)
    cards = _cards(300)
    store = PackedCards()
    # an extension's procedures come after the base module's, their ids later in the index
    order = [i for i in range(300) if i % 3] + [i for i in range(300) if not i % 3]
    for i in order:
        store.append(i, cards[i])
    store.seal()
    assert len(store) == 300
    assert store.sizes() == [len(cards[i]) for i in range(300)]
    assert [store[i] for i in range(300)] == [cards[i] for i in range(300)]
    assert [store[i] for i in reversed(range(300))] == [cards[i] for i in reversed(range(300))]
    assert list(map(bytes, store)) == [cards[i] for i in range(300)]     # iterated: by id
    assert store.nbytes() < sum(map(len, cards.values()))


def test_cards_survive_the_linked_model_pickle_and_reads_before_seal():
    cards = _cards(50)
    store = PackedCards()
    for i, c in cards.items():
        store.append(i, c)
    assert store[49] == cards[49]            # still in the chunk being filled
    assert list(map(bytes, store)) == [cards[i] for i in range(50)]
    back = pickle.loads(pickle.dumps(store))
    assert [back[i] for i in range(50)] == [cards[i] for i in range(50)]


def test_an_id_without_a_card_is_an_error():
    store = PackedCards()
    store.append(2, b"\x80")
    with pytest.raises(KeyError):
        store[0]


def test_chunks_packed_elsewhere_read_back_by_id_beside_appended_cards():
    """The link's forked workers pack a batch of cards as one chunk (``pack_chunk``); the
    parent adds the chunks in module order, after cards it appended itself (the chunk being
    filled is closed first), and every card reads back by id, pickled or not."""
    cards = _cards(120)
    store = PackedCards()
    for i in range(10):                       # appended here, still in the chunk being filled
        store.append(i, cards[i])
    # batches of ids, as a view's modules number their procedures (an extension's ids later)
    batches = [list(range(10, 40)), list(range(80, 120)), list(range(40, 80))]
    for ids in batches:
        store.add_chunk(*cardstore.pack_chunk(ids, [cards[i] for i in ids]))
    store.seal()
    assert store.sizes() == [len(cards[i]) for i in range(120)]
    assert [store[i] for i in range(120)] == [cards[i] for i in range(120)]
    assert list(map(bytes, store)) == [cards[i] for i in range(120)]
    back = pickle.loads(pickle.dumps(store))
    assert [back[i] for i in reversed(range(120))] == [cards[i] for i in reversed(range(120))]
