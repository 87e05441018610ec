"""Text normalization shared by the compiler (at index time) and the server (at query time).

``fold``/``name_key`` serve exact names. ``analyze``/``index_terms`` turn text into search
terms: identifiers split at CamelCase and script boundaries (ЗаказПокупателя → заказ
покупателя, HTTPСервис → http сервис, ОКВЭД2 → оквэд 2), lower case, ё→е, Snowball stems
(Russian for Cyrillic words, English for Latin ones). Both sides import this one module, so a
term means the same thing in the bundle and in a query.
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

import Stemmer  # PyStemmer: the C Snowball stemmers (0.5 µs a word, see docs/search.md)


def nfc(s: str) -> str:
    """Names of 1C objects are data: stored and shown exactly, only NFC-normalized."""
    return unicodedata.normalize("NFC", s)


def fold(s: str) -> str:
    """Matching form: NFC, lower case, ё→е. Never shown to anyone."""
    return unicodedata.normalize("NFC", s).lower().replace("ё", "е")


def name_key(s: str) -> str:
    """Key of the exact-name tables: folded, whitespace squeezed, spaces around dots dropped."""
    s = " ".join(fold(s).split())
    return s.replace(" .", ".").replace(". ", ".")


# --- words -------------------------------------------------------------------------------

# A "chunk" is a run of letters and digits; dots, underscores, hyphens, spaces separate.
WORD_RUNS = re.compile(r"[0-9A-Za-zА-Яа-яЁё]+")   # the letters-and-digits runs terms come from
# Inside a chunk: an all-caps run before Upper+lower (HTTP|Сервис), an optional capital and a
# lower-case run (Заказ), an all-caps run (НДС), digits (2). Explicit classes: no \p{Lu} needed.
_PART = re.compile(
    r"[A-ZА-ЯЁ]+(?=[A-ZА-ЯЁ][a-zа-яё])|[A-ZА-ЯЁ]?[a-zа-яё]+|[A-ZА-ЯЁ]+|[0-9]+")
# All-caps or lower-case runs that mix scripts (ЕСТЬNULL, WSСсылки) split where the script changes.
_SCRIPT = re.compile(r"[A-Za-z]+|[А-Яа-яЁё]+|[0-9]+")
_LATIN = re.compile(r"[A-Za-z]")
_CYR = re.compile(r"[А-Яа-яЁё]")

# Latin letters that look like Cyrillic ones: "зaкaз" typed with a Latin "a" is still "заказ".
_HOMO_LAT = "aAeEoOpPcCxXyBHKMTk"
_HOMO_CYR = "аАеЕоОрРсСхХуВНКМТк"
_HOMO_TO_CYR = str.maketrans(_HOMO_LAT, _HOMO_CYR)
_HOMO_TO_LAT = str.maketrans(_HOMO_CYR, _HOMO_LAT)

_ru = Stemmer.Stemmer("russian")
_en = Stemmer.Stemmer("english")
_stem_memo: dict[str, str] = {}
_STEM_MEMO_MAX = 200_000   # bounded: a server fed random words must not grow without end


def stem(word: str) -> str:
    """Snowball stem of one folded word; Latin words get the English stemmer. Memoized."""
    s = _stem_memo.get(word)
    if s is not None:
        return s
    if word.isdigit():
        s = word
    elif _CYR.search(word):
        s = _ru.stemWord(word)
    elif word.isascii():
        s = _en.stemWord(word)
    else:
        s = word
    if len(_stem_memo) < _STEM_MEMO_MAX:
        _stem_memo[word] = s
    return s


def forget_memos() -> None:
    """Empty the analyzer's memos (a compile's parse is done with them)."""
    _stem_memo.clear()
    _chunk_memo.clear()
    _part_words.clear()
    _part_terms.clear()


def split_identifier(chunk: str) -> list[str]:
    """CamelCase/script/digit parts of one chunk, case kept: ЗаказПокупателя → [Заказ, Покупателя]."""
    parts: list[str] = []
    for p in _PART.findall(chunk):
        parts.extend(_split_part(p))
    return parts


def _split_part(p: str) -> list[str]:
    """One ``_PART`` match as parts: itself, or a run mixing scripts fixed or split by script."""
    if _LATIN.search(p) and _CYR.search(p):
        fixed = _fix_homoglyphs(p)
        return [fixed] if fixed else _SCRIPT.findall(p)
    return [p]


def _fix_homoglyphs(part: str) -> str | None:
    """A lower-case run mixing scripts ("зaказ" with a Latin "a") is a typo when every letter of
    the minority script has a look-alike: give it the majority script. All-caps runs
    (ЕСТЬNULL, WSСсылки) are real identifiers and split by script instead (None)."""
    if part.isupper():
        return None
    lat = _LATIN.findall(part)
    cyr = _CYR.findall(part)
    if len(cyr) >= len(lat):
        return part.translate(_HOMO_TO_CYR) if all(c in _HOMO_LAT for c in lat) else None
    return part.translate(_HOMO_TO_LAT) if all(c in _HOMO_CYR for c in cyr) else None


@dataclass(frozen=True)
class Word:
    """One word of a text: its folded surface form, its stem, and whether it is a whole
    identifier (the unsplit chunk, indexed beside its parts so exact names outrank parts)."""
    surface: str
    term: str
    whole: bool = False


_chunk_memo: dict[str, tuple[Word, ...]] = {}
# One part's word (Заказ → заказ, its stem): parts repeat across far more chunks than chunks
# repeat (a configuration's identifiers share their words), and a Word is immutable.
_part_words: dict[str, Word] = {}


def _part_word(part: str) -> Word:
    f = part.lower().replace("ё", "е")
    w = Word(f, stem(f))
    if len(_part_words) < _STEM_MEMO_MAX:
        _part_words[part] = w
    return w


def _word_of(part: str) -> Word:
    """One part's word, memoized (``_part_word``)."""
    return _part_words.get(part) or _part_word(part)


def _whole_term(chunk: str) -> str:
    """The term of a whole identifier of several parts (lower case, ё → е; its chunk is NFC)."""
    return chunk.lower().replace("ё", "е")


def _chunk_words(chunk: str) -> tuple[Word, ...]:
    """The words of one chunk. Memoized (bounded like the stems): identifiers repeat across a
    configuration's documents, and splitting and stemming them again was the index build's
    largest cost."""
    got = _chunk_memo.get(chunk)
    if got is not None:
        return got
    parts = split_identifier(chunk)
    out = [_word_of(p) for p in parts]
    if len(parts) > 1:
        f = _whole_term(chunk)
        out.append(Word(f, f, whole=True))
    got = tuple(out)
    if len(_chunk_memo) < _STEM_MEMO_MAX:
        _chunk_memo[chunk] = got
    return got


def words(text: str) -> list[Word]:
    """Words of ``text`` in order. A CamelCase chunk yields its parts, then the whole identifier."""
    out: list[Word] = []
    for chunk in WORD_RUNS.findall(unicodedata.normalize("NFC", text)):
        out.extend(_chunk_words(chunk))
    return out


def index_terms(text: str, surfaces: bool = False) -> list[str]:
    """Terms to index for ``text`` (parts' stems plus whole identifiers), in order.

    With ``surfaces`` a word whose stem differs from it is indexed in both forms: Snowball
    stems some words of one family apart (Массив → масс, массиве → массив), and a query word
    is looked up by its stem *and* its surface form, so either side's form can meet.
    """
    return word_terms(words(text), surfaces)


def word_terms(ws: Iterable[Word], surfaces: bool = False) -> list[str]:
    """``index_terms`` of a text's ``words`` (for a caller that also needs its ``analyze``:
    one split of the text serves both)."""
    out: list[str] = []
    _add_terms(out, ws, surfaces)
    return out


def chunk_terms(chunk: str, surfaces: bool = False) -> list[str]:
    """``index_terms`` of one chunk (a letters-and-digits run of NFC text, as ``WORD_RUNS``
    finds them) without normalizing and splitting it again: for callers that memoize by chunk.
    Built from its ``_PART`` runs' terms (``_part_terms``): the callers' chunks are mostly seen
    once (SSL: 26,000 distinct procedure names), their CamelCase parts over and over."""
    out: list[str] = []
    words_ = 0
    k = 0 if surfaces else 1
    for part in _PART.findall(chunk):
        got = _part_terms.get(part) or _terms_of_part(part)
        out += got[k]
        words_ += got[2]
    if words_ > 1:        # the whole identifier after its parts, as ``_chunk_words`` adds it
        out.append(_whole_term(chunk))
    return out


# A ``_PART`` run → (its terms with surfaces, without, how many words it makes): what
# ``_chunk_words`` + ``_add_terms`` give for it inside any chunk (a run splits alone). Bounded.
_part_terms: dict[str, tuple[list[str], list[str], int]] = {}


def _terms_of_part(part: str) -> tuple[list[str], list[str], int]:
    ws = [_word_of(p) for p in _split_part(part)]
    with_surfaces: list[str] = []
    _add_terms(with_surfaces, ws, True)
    got = (with_surfaces, [w.term for w in ws], len(ws))
    if len(_part_terms) < _STEM_MEMO_MAX:
        _part_terms[part] = got
    return got


def chunk_memos() -> tuple:
    """What a compiled ``chunk_terms`` (``_bslscan.pack_procedures``) reads and fills as this module
    would: the runs' terms memo, ``_terms_of_part`` (for a run that mixes scripts), the stems'
    memo, ``stem``, and the memos' bound."""
    return _part_terms, _terms_of_part, _stem_memo, stem, _STEM_MEMO_MAX


def _add_terms(out: list[str], ws: Iterable[Word], surfaces: bool) -> None:
    for w in ws:
        out.append(w.term)
        if surfaces and not w.whole and w.surface != w.term:
            out.append(w.surface)


def analyze(text: str) -> list[str]:
    """Terms of a phrase without the whole-identifier extras (for dictionary phrases)."""
    return phrase_terms(words(text))


def phrase_terms(ws: Iterable[Word]) -> list[str]:
    """``analyze`` of a text's ``words``."""
    return [w.term for w in ws if not w.whole]


# --- query-side helpers ----------------------------------------------------------------------

# Words that carry no meaning in a developer's question. Never applied at index time (a query
# that is only stop words is answered as such), and never to exact names (ИЗ, КАК, В are
# query-language keywords: the exact-name step sees the raw query first).
STOP_WORDS = frozenset(fold(w) for w in """
    а в во на над под по с со к ко у о об от до из изо за для при про без через между и или
    ли не ни же бы как так что чтобы это этот эта эти тот та те то как какой какая какие
    где куда когда чем чего кто который которая которые мне меня мой моя нам нас есть быть
    ли либо только все всё весь вся его ее её их он она они оно я мы вы ты там тут здесь
    нужно надо можно хочу
    перед после около среди нами наш наша наше наши нашей нашего нашему нашим наших нашу свой
    своя свое свои своего своей своих
    the a an of in on at to for from by with and or is are be how what which where do does
""".split())


def stem_stop_words() -> frozenset[str]:
    return frozenset(stem(w) for w in STOP_WORDS)


# QWERTY typed while the ЙЦУКЕН layout was meant (and back): "pfrfp" → "заказ".
_QWERTY = "qwertyuiop[]asdfghjkl;'zxcvbnm,.`QWERTYUIOP{}ASDFGHJKL:\"ZXCVBNM<>~"
_JCUKEN = "йцукенгшщзхъфывапролджэячсмитьбюёЙЦУКЕНГШЩЗХЪФЫВАПРОЛДЖЭЯЧСМИТЬБЮЁ"
_TO_RU_LAYOUT = str.maketrans(_QWERTY, _JCUKEN)
_TO_EN_LAYOUT = str.maketrans(_JCUKEN, _QWERTY)


def swap_layout(text: str) -> str:
    """Re-type ``text`` on the other keyboard layout (decided by which script dominates)."""
    lat = len(_LATIN.findall(text))
    cyr = len(_CYR.findall(text))
    return text.translate(_TO_RU_LAYOUT if lat >= cyr else _TO_EN_LAYOUT)


# Latin → Cyrillic, longest match first. Only "shch" gives щ ("schet" → счет, not щет).
_TRANSLIT = sorted({
    "shch": "щ", "sch": "сч", "zh": "ж", "kh": "х", "ts": "ц", "tz": "ц", "ch": "ч", "sh": "ш",
    "yu": "ю", "iu": "ю", "ju": "ю", "ya": "я", "ia": "я", "ja": "я", "yo": "е", "jo": "е",
    "ye": "е", "ey": "ей", "iy": "ий", "yy": "ый", "ay": "ай", "oy": "ой", "uy": "уй",
    "a": "а", "b": "б", "v": "в", "w": "в", "g": "г", "d": "д", "e": "е", "z": "з", "i": "и",
    "j": "й", "y": "ы", "k": "к", "l": "л", "m": "м", "n": "н", "o": "о", "p": "п", "r": "р",
    "s": "с", "t": "т", "u": "у", "f": "ф", "h": "х", "c": "к", "q": "к", "x": "кс",
    "'": "ь",
}.items(), key=lambda kv: -len(kv[0]))
_TRANSLIT_RE = re.compile("|".join(re.escape(k) for k, _ in _TRANSLIT))
_TRANSLIT_MAP = dict(_TRANSLIT)


def transliterate(text: str) -> str:
    """Latin transliteration back to Cyrillic: "zakaz pokupatelya" → "заказ покупателя"."""
    return _TRANSLIT_RE.sub(lambda m: _TRANSLIT_MAP[m.group(0)], text.lower())


def deletions(term: str) -> list[str]:
    """Every string one character shorter: the symmetric-delete neighbourhood for typos."""
    return [term[:i] + term[i + 1:] for i in range(len(term))]


def phrase_key(text: str, stop: frozenset[str] | None = None, ordered: bool = False) -> str:
    """Order-free key of a whole short phrase: "=" + its sorted distinct stems, stop words out.

    Indexed for names, synonyms, aliases and search keys, and computed for the query, so
    "версии подсистем", "подсистем версии" and "ВерсииПодсистем" all meet on
    "=верс+подсист": the document whose whole name is the query outranks longer names.
    ``ordered`` gives the in-order key "=верс_подсист" (ЗадачаИсполнителя before
    ИсполнителиЗадач for "задача исполнителя").
    """
    stop = _STOP_STEMS if stop is None else stop
    stems = [t for t in analyze(text) if t not in stop]
    return whole_key(stems, ordered)


def whole_key(stems: list[str], ordered: bool = False) -> str:
    """``phrase_key`` of stems already analysed: "=a+b" (sorted, distinct) or "=a_b" (in order)."""
    if not stems:
        return ""
    if ordered:
        return "=" + "_".join(stems) if len(stems) > 1 else ""
    return "=" + "+".join(sorted(set(stems)))


_STOP_STEMS = stem_stop_words()
