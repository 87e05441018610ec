"""The procedures' search terms packed by the compiled path (``_bslscan.pack_procedures``) equal
the Python reference (``terms._pack_procedures_python``): the same bytes, the same vocabulary in the same order,
the same memo contents, on synthesized texts (scripts mixed, ё, homoglyphs, digits, NFC-changing
input, empty and long texts, memos at their bound) and on every procedure of SSL 3.1.12."""
from __future__ import annotations

import random
import unicodedata

import pytest
from realdata import extracted
from v8atlas.compiler.code import lexer
from v8atlas.compiler.code import terms as T
from v8atlas.compiler.code.model import Param, Procedure
from v8atlas.formats import text as FT

SSL_12 = "configs/ssl-3.1-designer/ssl_3_1-src-cf-3.1.12.238.tar.zst"   # as test_code_realdata
compiled = pytest.mark.skipif(getattr(lexer._compiled, "pack_procedures", None) is None,
                              reason="the C scanner is not built")

# Fragments texts are made of: CamelCase and all-caps runs, ё/Ё, a Latin "a" in a Cyrillic word
# (and the other way), runs mixing scripts in capitals, digits, punctuation that separates, text
# NFC changes (и + combining breve → й, e + combining acute), characters past U+FFFF, the
# Cyrillic letters past the basic block, and words the stemmers treat apart.
FRAGMENTS = [
    "ПриСозданииНаСервере", "ЗаказПокупателя", "HTTPСервис", "ОКВЭД2", "ЕСТЬNULL", "WSСсылки",
    "зaказ", "зaкaз", "Зaказ", "cтpoка", "ЁЛКА", "Ёлка", "ёжик", "елка", "ЁжИк", "GetValue",
    "getHTTPResponse", "ABC", "A", "a", "aB", "Ab", "ABc", "Я", "я1", "2", "123abc", "abc123",
    "Массив", "массиве", "Справочники.Номенклатура", "Отказ", "СтандартнаяОбработка",
    "и\u0306ти", "cafe\u0301", "Ё\u0308", "\U0001F600", "ЇЖАК", "ѢѣѲ", "ҐанокҐ", "Ї", "ї",
    "_", "-", ".", " ", "  ", "\t", "«", "»", "—", "№", "(", ")", ",", "\n", "Ω", "Å",
    "the", "running", "Returns", "values", "OFFSET", "ИЗ", "Для", "сервер", "сервера",
]


def _texts(rng: random.Random, procs: int) -> list[str]:
    out = []
    for _ in range(4 * procs):
        k = rng.choice((0, 0, 1, 1, 2, 3, 5, 8, 40, 120))
        out.append("".join(rng.choices(FRAGMENTS, k=k)))
    return out


def _procs(texts: list[str]) -> list[Procedure]:
    """Procedures whose four texts (``terms._procedure_texts``) are ``texts``, four a procedure."""
    out = []
    for k in range(0, len(texts), 4):
        name, description, params, region = texts[k:k + 4]
        out.append(Procedure(name=name, is_function=False,
                             params=[Param(x, False, None) for x in params.split(" ")] if params else [],
                             region=["Внешняя", region] if region else [],
                             info={"description": description} if description or k % 8 else {}))
    assert T._procedure_texts(out) == [t if i % 4 != 1 else t[:T.DESCRIPTION_CHARS] for i, t in enumerate(texts)]
    return out


def _run(pack, texts_by_module: list[list[str]]) -> tuple[list[list[bytes]], list[str]]:
    T.forget_memos()
    packer = T.TermPacker()
    procs = [_procs(texts) for texts in texts_by_module]
    return [pack(packer._ids, p) for p in procs], packer.vocabulary()


def _python(texts_by_module: list[list[str]]) -> tuple[list[list[bytes]], list[str]]:
    return _run(T._pack_procedures_python, texts_by_module)


def _compiled(texts_by_module: list[list[str]]) -> tuple[list[list[bytes]], list[str]]:
    return _run(T._pack_procedures_compiled, texts_by_module)


def _memos() -> tuple[dict, dict, dict]:
    return dict(T._whole), dict(T._memo), dict(FT._part_terms)


@compiled
def test_compiled_texts_pack_as_the_python_reference():
    """Random texts of the fragments, several modules a packer: the same bytes and vocabulary;
    the memos the C filled hold what the Python fills (so either path can read the other's)."""
    rng = random.Random(11)
    for _ in range(60):
        modules = [_texts(rng, rng.randint(0, 6)) for _ in range(rng.randint(1, 4))]
        want = _python(modules)
        want_memos = _memos()
        assert _compiled(modules) == want
        assert _memos() == want_memos


@compiled
def test_compiled_and_python_paths_share_their_memos():
    """Memos one path filled, read by the other, give the same bytes."""
    rng = random.Random(12)
    modules = [_texts(rng, 8) for _ in range(6)]
    want = _python(modules)
    procs = [_procs(texts) for texts in modules]
    py, c = T._pack_procedures_python, T._pack_procedures_compiled
    for first, then in ((py, c), (c, py)):
        T.forget_memos()
        packer = T.TermPacker()
        got = [(first if i % 2 else then)(packer._ids, p) for i, p in enumerate(procs)]
        assert (got, packer.vocabulary()) == want
        packer = T.TermPacker()           # memos warm now
        assert ([then(packer._ids, p) for p in procs], packer.vocabulary()) == want


@compiled
def test_compiled_path_cases():
    """Texts picked by hand, each with the Python's terms read back from the bytes."""
    cases = ["", " ", "зaказ", "ЗАКAЗ", "HTTPСервис", "ОКВЭД2", "ЁЖИК ёжик", "и\u0306ти", "cafe\u0301",
             "e\u0301\u0301", "Ω", "x" * 81, "ПриСозданииНаСервере " * 30, "\U0001F600Заказ",
             "a1b2C3", "ABCdef", "ЇЖАК", "АБВ-где_ЖЗ.ийк", "Ab" * 200, "1" * 80, "Я" * 81]
    texts = [t for c in cases for t in (c, c[:300], "", c)]
    want = _python([texts])
    assert _compiled([texts]) == want
    for case in cases:            # one procedure: the ids read back are the Python's terms
        T.forget_memos()
        packer = T.TermPacker()
        blob, = T._pack_procedures_compiled(packer._ids, _procs([case, "", case, ""]))
        words = list(memoryview(blob).cast("I"))
        vocabulary = packer.vocabulary()
        assert words[:4] == [len(T.terms(case)), 0, len(T.terms(case)), 0]      # params: case's words
        assert [vocabulary[i] for i in words[4:]] == T.terms(case) * 2


@compiled
def test_a_module_of_many_distinct_terms_packs_as_the_python_reference():
    """Thousands of distinct terms in one module (one call), some met again far apart."""
    words = [f"Слово{i}Word{i * 7}" for i in range(3000)]
    texts = [" ".join(words[i:i + 5]) if i % 3 else words[i] for i in range(0, 3000, 2)]   # 1,500
    texts += texts[:500]
    assert len(texts) % 4 == 0
    assert _compiled([texts, texts[::-1]]) == _python([texts, texts[::-1]])


@compiled
def test_compiled_path_keeps_the_memos_bounds(monkeypatch):
    """With the memos' bounds reached early: the same bytes, and no memo past its bound."""
    monkeypatch.setattr(T, "_MEMO_MAX", 5)
    monkeypatch.setattr(FT, "_STEM_MEMO_MAX", 7)
    rng = random.Random(13)
    modules = [_texts(rng, 10) for _ in range(4)]
    want = _python(modules)
    assert _compiled(modules) == want
    assert len(T._whole) <= 5 and len(T._memo) <= 5 and len(FT._part_terms) <= 7
    assert len(T._whole) == 5 and len(T._memo) == 5      # filled up to it
    T.forget_memos()
    assert not T._whole and not T._memo and not FT._part_terms and not FT._stem_memo


def test_nfc_leaves_the_characters_the_compiled_path_does_not_normalize_alone():
    """``_bslscan.nfc_inert``'s set (below U+0300, U+0400–U+045F): every character a starter,
    and NFC changes no string of them — each one beside each other one, both ways round."""
    inert = [chr(c) for c in range(0x300)] + [chr(c) for c in range(0x400, 0x460)]
    assert all(unicodedata.combining(c) == 0 for c in inert)
    for a in inert:
        s = "".join(a + b for b in inert)
        assert unicodedata.normalize("NFC", s) == s
    assert unicodedata.normalize("NFC", "и\u0306") != "и\u0306"    # the check can fail


@compiled
def test_compiled_path_passes_errors_on():
    """A callback that raises, a part's terms of the wrong shape, a plain dict of ids (no new
    ids), a procedure's field of the wrong type or missing, procedures not in a list: the
    error comes back."""
    def boom(_):
        raise RuntimeError("boom")
    part_terms, terms_of_part, stem_memo, stem, bound = FT.chunk_memos()
    memos = ({}, {}, 10, 80, T.terms)

    def pack(texts, ids=None, memos=memos, text_memos=None, procs=None):
        return lexer._compiled.pack_procedures(T.TermPacker()._ids if ids is None else ids,
                                               _procs(texts) if procs is None else procs, 300, memos,
                                               text_memos or ({}, terms_of_part, {}, stem, bound))

    with pytest.raises(RuntimeError, match="boom"):
        pack(["и\u0306", "", "", ""], memos=({}, {}, 10, 80, boom))       # NFC changes it: the fallback
    with pytest.raises(RuntimeError, match="boom"):
        pack(["зaказ", "", "", ""], text_memos=({}, boom, {}, stem, bound))   # scripts mixed
    with pytest.raises(RuntimeError, match="boom"):
        pack(["Заказ", "", "", ""], text_memos=({}, terms_of_part, {}, boom, bound))   # a stem
    with pytest.raises(TypeError):
        pack(["зaказ", "", "", ""], text_memos=({}, lambda part: [part], {}, stem, bound))
    with pytest.raises(TypeError):
        pack(["Заказ", "", "", ""], text_memos=({"Заказ": ("заказ",)}, terms_of_part, {}, stem, bound))
    with pytest.raises(KeyError):
        pack(["Заказ", "", "", ""], ids={})
    bad = _procs(["Заказ", "", "", ""])
    bad[0].name = None
    with pytest.raises(TypeError):
        pack([], procs=bad)
    bad[0].name, bad[0].info = "Заказ", {"description": 5}
    with pytest.raises(TypeError):
        pack([], procs=bad)
    with pytest.raises(AttributeError):
        pack([], procs=[object()])
    with pytest.raises(TypeError):
        pack([], procs=tuple(_procs(["Заказ", "", "", ""])))
    assert pack([]) == []



@compiled
def test_params_changed_while_their_names_are_read_do_not_crash_the_compiled_path():
    """A parameter whose ``name`` empties the procedure's parameter list (nothing the scanner
    makes, but Python code can): the compiled path reads the names of the list as it was
    (a snapshot), never an item the list has let go."""
    class Param:
        def __init__(self, name, owner):
            self._name, self.owner = name, owner

        @property
        def name(self):
            self.owner.params.clear()
            return self._name

    proc = _procs(["Заказ", "", "", ""])[0]
    proc.params = [Param(f"Парам{i}" + "x" * 50, proc) for i in range(5)]
    packed = lexer._compiled.pack_procedures(T.TermPacker()._ids, [proc], 300,
                                             (T._whole, T._memo, T._MEMO_MAX, T._WHOLE_MAX_CHARS, T.terms),
                                             FT.chunk_memos())
    assert len(packed) == 1 and isinstance(packed[0], bytes) and proc.params == []

@pytest.mark.realdata
@compiled
def test_ssl_every_procedure_packs_the_same_in_c_and_python():
    """SSL 3.1.12: every procedure's packed terms, and the vocabulary, equal between the two paths."""
    from v8atlas.compiler.code.doccomment import parse_doc
    from v8atlas.compiler.code.modules import bsl_files
    from v8atlas.compiler.config.plugin import open_source
    _, files = open_source(extracted(SSL_12) / "src" / "cf")
    modules = []
    for rel in bsl_files(files):
        text, _ = lexer.decode_module(files.read(rel))
        procs = lexer.scan_module(text).procedures
        for p in procs:
            p.info = parse_doc(p.doc) if p.doc else {}
        modules.append(procs)
    assert sum(map(len, modules)) > 38_000
    results = []
    for pack in (T._pack_procedures_python, T._pack_procedures_compiled):
        T.forget_memos()
        packer = T.TermPacker()
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(T, "_pack_procedures", pack)
            results.append(([packer.pack_procedures(procs) for procs in modules], packer.vocabulary()))
    assert results[0] == results[1]
    T.forget_memos()
