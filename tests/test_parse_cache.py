"""The caches' forms: a configuration read in two processes is cached from the child's bytes, the
linked model's documents and edges as marshalled rows; a damaged cache file is said and rebuilt."""
from __future__ import annotations

import copy
import enum
import pickle
import shutil
import sys
from pathlib import Path

import pytest
from shared_read import one_claim_then_the_child

from v8atlas.compiler import cache, pipeline, pool
from v8atlas.compiler.config import objects as config_objects
from v8atlas.compiler.config.model import MDObject
from v8atlas.compiler.config.plugin import read_configuration
from v8atlas.compiler.documents import Doc, Edge
from v8atlas.compiler.report import CompileReport
from v8atlas.formats import Bundle

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@pytest.fixture(autouse=True)
def own_cache_key(tmp_path, monkeypatch):
    monkeypatch.setenv("V8ATLAS_CACHE_KEY", str(tmp_path / "cache.key"))


@pytest.fixture()
def pooled(monkeypatch):
    monkeypatch.setattr(pool, "POOL_THRESHOLD", 2)    # the examples are small: force the pool
    monkeypatch.setenv("V8ATLAS_JOBS", "2")


@pytest.fixture()
def shared(pooled, monkeypatch):
    """The read shared for sure (``objects.read_received``): this process takes the first task
    only, the forked child, waiting for that claim, all the others."""
    monkeypatch.setattr(config_objects, "_STEP", 1)
    one_claim_then_the_child(monkeypatch)


def _read(path: Path):
    with pool.session():
        return read_configuration(path, CompileReport())


@pytest.mark.parametrize("dump", ["config-designer", "config-edt"])
def test_a_shared_read_configuration_is_cached_from_the_childs_bytes(dump, shared, monkeypatch):
    cfg = _read(EXAMPLES / dump)
    received = cfg.__dict__["_received"]
    assert received.first == 1 and len(received.results) > 2, "the read was not shared"
    payload = cache.dumps((cfg, "report"))
    assert all(blob in payload for blob in received.batches)   # written as the child sent them
    back, _ = pickle.loads(payload)
    assert back == cfg and "_received" not in back.__dict__
    # the same model a plain pickle gives, byte for byte (object sharing included)
    assert pickle.dumps(back) == pickle.dumps(cfg)
    monkeypatch.setenv("V8ATLAS_JOBS", "1")
    assert back == _read(EXAMPLES / dump)             # and the one read in-process


def test_the_childs_bytes_go_into_no_other_pickle_or_copy(shared):
    cfg = _read(EXAMPLES / "config-designer")
    assert "_received" in cfg.__dict__
    assert "_received" not in pickle.loads(pickle.dumps(cfg)).__dict__
    merged = copy.deepcopy(cfg)
    assert merged == cfg and "_received" not in merged.__dict__


def test_objects_changed_after_the_read_are_cached_as_they_are_now(shared):
    cfg = _read(EXAMPLES / "config-designer")
    added = MDObject(cls="Catalog", name="Добавленный")
    dropped = cfg.objects.pop(0)
    cfg.objects.insert(1, added)
    cfg.languages.append(dropped)
    back, = pickle.loads(cache.dumps((cfg,)))
    assert [o.name for o in back.objects] == [o.name for o in cfg.objects]
    assert back.objects[1] == added and back.languages[-1] == dropped


def _designer_copy(tmp_path: Path) -> Path:
    src = tmp_path / "cfg"
    shutil.copytree(EXAMPLES / "config-designer", src)
    return src


def _forget_builds(out: Path) -> None:
    """Drop the built bundles' records and the linked models (a skip set is part of the
    sources' fingerprints now, so another selection no longer shares the parse cache)."""
    for later in ("builds", "linked"):
        shutil.rmtree(out / ".cache" / later, ignore_errors=True)


def test_a_cached_pool_parse_gives_the_bundle_of_a_cold_compile(tmp_path, pooled):
    src = _designer_copy(tmp_path)
    out = tmp_path / "bundles"
    pipeline.compile_bundle([src], out, quiet=True)
    _forget_builds(out)     # only the parse cache is left: the compile must link again from it
    warm = pipeline.compile_bundle([src], out, quiet=True)
    assert "parse config" not in warm.report.timings            # the parse came from the cache
    cold = pipeline.compile_bundle([src], tmp_path / "cold", quiet=True, cache=False)
    assert Bundle.open(warm.bundle_path).content_hash == Bundle.open(cold.bundle_path).content_hash


def test_a_truncated_parse_cache_is_said_and_parsed_again(tmp_path, pooled, capsys):
    src = _designer_copy(tmp_path)
    out = tmp_path / "bundles"
    pipeline.compile_bundle([src], out, quiet=True)
    parsed = sorted((out / ".cache" / "parsed").glob("*.pickle"))
    assert parsed
    for f in parsed:
        f.write_bytes(f.read_bytes()[:len(f.read_bytes()) // 2])
    _forget_builds(out)
    capsys.readouterr()
    again = pipeline.compile_bundle([src], out, quiet=True)
    err = capsys.readouterr().err
    assert "parse config" in again.report.timings               # parsed from the sources
    assert any(f.name in err and "not used" in err for f in parsed)
    cold = pipeline.compile_bundle([src], tmp_path / "cold", quiet=True, cache=False)
    assert Bundle.open(again.bundle_path).content_hash == Bundle.open(cold.bundle_path).content_hash


class _Colour(enum.Enum):
    RED = "red"


def test_linked_rows_round_trip_marshalled_or_not():
    docs = [Doc("metadata", "К/Справочник.Ё", "Catalog", "Справочник.Ё",
                {"n": 1, "f": 0.5, "ok": True, "list": [1, (2, 3)], "none": None},
                names=["Справочник.Ё"], fields={"name": "ё"}, config="К")]
    edges = [Edge("a", "b", "owner"), Edge("a", "c", "attribute_type", "Поле", True)]
    for objects, row, cls in ((docs, pipeline._DOC_ROW, Doc), (edges, pipeline._EDGE_ROW, Edge)):
        stored = pipeline._rows(objects, row)
        assert isinstance(stored, bytes)
        assert [cls(*r) for r in pipeline._from_rows(stored)] == objects
    odd = [Doc("metadata", "k", "Catalog", "t", {"colour": _Colour.RED})]   # marshal refuses it
    stored = pipeline._rows(odd, pipeline._DOC_ROW)
    assert not isinstance(stored, bytes)
    assert [Doc(*r) for r in pipeline._from_rows(pickle.loads(pickle.dumps(stored)))] == odd


def _code_index():
    """A code index of two models (two vocabularies), with every kind of field value the
    link leaves: an annotation, parameters, a form module, calls, priors, packed cards."""
    from v8atlas.compiler.code.cardstore import PackedCards, pack_chunk
    from v8atlas.compiler.code.index import CodeIndex, ModuleEntry, ProcEntry
    from v8atlas.compiler.code.model import Annotation, ModuleRef, Param, Procedure
    base, ext = ["получить", "значение"], ["ё", "перед"]
    index = CodeIndex(views=["База", "База+Доработки"], cards=PackedCards())
    for m in range(5):
        ref = ModuleRef("Catalog.Ёлки", "Form", f"Форма{m}") if m % 2 else \
            ModuleRef(f"CommonModule.Модуль{m}", "Module")
        index.modules.append(ModuleEntry(ref, m % 2, [f"f{m}.bsl"], ["", "Доработки"][:1 + m % 2],
                                         procs=[m], names={"проц": m}, doc="Модуль ё",
                                         terms=["модуль"], address=f"Модуль{m}"))
        index.module_cards.append({"api": [{"name": f"Проц{m}", "n": m}], "f": 0.25})
    for pid in range(7):
        proc = Procedure(f"Проц{pid}", bool(pid % 2), [Param("Ссылка", True, "Неопределено"), Param("Б")],
                         export=True, directive="AtServer", region=["ПрограммныйИнтерфейс"],
                         annotation=Annotation("Before", "Цель") if pid == 3 else None,
                         line=pid, end_line=pid + 2, body=bytes([pid]) * 3, terms=b"\x01\x02",
                         local_calls=("а",), usages=(("Catalog", "Ёлки", "query"),))
        index.procs.append(ProcEntry(proc, pid % 5, pid % 2, "", ext if pid == 6 else base,
                                     callees=(0, pid), prior=0.1 * pid, deprecated=pid == 2,
                                     summary="Одна строка."))
    index.cards.add_chunk(*pack_chunk(list(range(7)), [bytes([pid]) * 10 for pid in range(7)]))
    return index


def test_a_code_index_reads_back_from_its_cache_parts_equal(tmp_path, monkeypatch):
    """The linked model's code index is written as parts of row chunks (columns marshalled):
    read back, every module, card and procedure is equal, the vocabularies shared as before."""
    from v8atlas.compiler.code import index as code_index
    monkeypatch.setattr(code_index, "PART_ROWS", 2)   # several chunks of each table
    index = _code_index()
    assert cache.save_parts(tmp_path / "ix.pickle", index.cache_parts())
    ok, parts = cache.load_parts(tmp_path / "ix.pickle")
    assert ok
    back = code_index.CodeIndex.from_cache_parts(parts)
    assert next(parts, None) is None                   # every part read, none left over
    assert (back.views, back.modules, back.module_cards) == (index.views, index.modules,
                                                             index.module_cards)
    assert back.procs == index.procs and back.procs[3].proc.annotation.target == "Цель"
    assert back.procs[0].vocabulary is back.procs[5].vocabulary is not back.procs[6].vocabulary
    assert [back.cards[i] for i in range(7)] == [index.cards[i] for i in range(7)]


def test_the_linked_model_reads_back_from_its_parts(tmp_path, monkeypatch):
    from v8atlas.compiler.code.index import CodeIndex
    from v8atlas.compiler.links import ConfigModels
    from v8atlas.compiler.sources import Project
    from v8atlas.formats.domain import Links
    monkeypatch.setattr(pipeline, "_ROWS_PER_PART", 2)
    docs = [Doc("metadata", f"К/Справочник.Ё{i}", "Catalog", f"Справочник.Ё{i}", {"n": i},
                names=[f"Справочник.Ё{i}"], config="К") for i in range(5)]
    edges = [Edge(f"a{i}", "b", "owner", "Поле", bool(i % 2)) for i in range(3)]
    links = Links()
    links.put(ConfigModels(platforms={"К": "8.3.24"}))
    links.put(_code_index())
    report = CompileReport()
    report.warn("src", "замечание")
    path = tmp_path / "linked" / "m.pickle"
    pipeline._save_linked(docs, edges, {"i": 1}, {"c": 2}, links, report, [], path)
    ctx = pipeline._load_linked(path, Project(sources=[]), CompileReport())
    assert ctx is not None and (ctx.docs, ctx.edges, ctx.info, ctx.counts) == (docs, edges, {"i": 1}, {"c": 2})
    assert ctx.links.need(ConfigModels).platforms == {"К": "8.3.24"}
    assert ctx.links.need(CodeIndex).procs == links.need(CodeIndex).procs
    assert [w.message for w in ctx.report.warnings] == ["замечание"]


def test_an_unreadable_linked_model_is_a_miss_and_removed(tmp_path, capsys, monkeypatch):
    from v8atlas.compiler.sources import Project
    path = tmp_path / "m.pickle"
    assert cache.save_parts(path, [(1, 0, {}, {}, None, None, [_Colour]), b"x"])
    ok, parts = cache.load_parts(path)
    assert ok and next(parts)[0] == 1 and next(parts) == b"x" and next(parts, None) is None
    monkeypatch.delattr(sys.modules[__name__], "_Colour")   # a class renamed since it was written
    assert pipeline._load_linked(path, Project(sources=[]), CompileReport()) is None
    assert not path.exists() and "not used" in capsys.readouterr().err


def test_an_edit_to_the_shared_modules_the_caches_hold_changes_the_compiler_fingerprint(tmp_path, monkeypatch):
    """The search terms (formats/text.py) and the zstd frames (formats/chunked.py) are made
    into the parse and linked-model caches: an edit to either misses them, as a compiler edit
    does (the fingerprint is part of every cache key)."""
    import types
    from v8atlas.formats import chunked, text
    assert {m.__name__ for m in pipeline._cached_formats()} == {text.__name__, chunked.__name__}
    copy_ = tmp_path / "chunked.py"
    copy_.write_bytes(Path(chunked.__file__).read_bytes())
    fake = types.SimpleNamespace(__name__=chunked.__name__, __file__=str(copy_))
    monkeypatch.setattr(pipeline, "_cached_formats", lambda: (text, fake))
    before = pipeline.compiler_fingerprint()
    copy_.write_bytes(copy_.read_bytes() + b"\n# an edit\n")
    assert pipeline.compiler_fingerprint() != before
