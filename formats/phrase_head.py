"""The head noun of a Russian search phrase (docs/search.md, round 2, session 8): the word the
phrase is about — «чек» in «кассовый чек розничной продажи», «счет» in «выставить счет фактуру».
Grammar only, no vocabulary: a Russian noun phrase starts with its head after the adjectives
(and participles) that agree with it; an infinitive before it is the action done to it.
English phrases get none: their head is last before the complement ("bank accounts of
companies"), but a class word ends many of them ("bank directory"), and the rule lost two
English tuning queries.
"""
from __future__ import annotations

# Folded endings of Russian adjectives and participles in every case and number (полный,
# синий, большой; -ого/-его, -ому/-ему, -ым/-им, -ых/-их, -ую/-юю, -ая/-яя, -ое/-ее, -ые/-ие)
# and of infinitives (-ть, -ти, -чь). A noun rarely ends so; when one does (животное) the
# phrase's next word is taken as its head, which costs that query the lift, nothing more.
_ADJECTIVE = ("ый", "ий", "ой", "ая", "яя", "ое", "ее", "ые", "ие", "ого", "его", "ому", "ему",
              "ым", "им", "ых", "их", "ую", "юю")
_VERB = ("ть", "ти", "чь")
_MIN_LEN = 4       # shorter words (чек, лиц…) are nouns whatever they end with


def _modifier(surface: str) -> bool:
    return len(surface) >= _MIN_LEN and surface.endswith(_ADJECTIVE + _VERB)


def head_position(surfaces: list[str], positions: list[int]) -> int | None:
    """Of the phrase's kept words (folded surfaces, at ``positions`` in the phrase, ascending),
    the position of the head: the first Cyrillic word that is no adjective, participle or
    infinitive; None for fewer than two words or when no word qualifies."""
    if len(positions) < 2:
        return None
    for s, p in zip(surfaces, positions):
        if not s.isascii() and not _modifier(s) and not s.isdigit():
            return p
    return None
