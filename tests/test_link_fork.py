"""The configuration link builds the objects' documents over two processes (a forked child
builds the last share): the same documents, in the same order, as in one process, and the
model that later domains read is not written by building them."""
from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from v8atlas.compiler import pool
from v8atlas.compiler.config import link as L
from v8atlas.compiler.config.plugin import read_configuration
from v8atlas.compiler.pipeline import LinkContext
from v8atlas.compiler.report import CompileReport
from v8atlas.compiler.sources import discover

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "config-designer"


def _link(monkeypatch, jobs: str, fork_objects: int, claim: int = L._CLAIM) -> tuple[LinkContext, bytes, bytes]:
    monkeypatch.setenv("V8ATLAS_JOBS", jobs)
    monkeypatch.setattr(L, "_FORK_OBJECTS", fork_objects)
    monkeypatch.setattr(L, "_CLAIM", claim)
    project = discover([EXAMPLE])
    cfg = read_configuration(EXAMPLE, CompileReport())
    before = pickle.dumps(cfg)
    ctx = LinkContext(project=project, report=CompileReport())
    with pool.session():
        L.link([(project.sources[0], cfg)], ctx)
    return ctx, before, pickle.dumps(cfg)


@pytest.mark.parametrize("claim", [1, 32])
def test_forked_documents_are_the_in_process_ones_and_the_model_is_unchanged(monkeypatch, claim):
    # claim=1: the two processes take one object at a time from either end of the range
    serial, serial_before, serial_after = _link(monkeypatch, "1", 10**9)
    forked, before, after = _link(monkeypatch, "2", 1, claim)
    assert len(serial.docs) > 20
    assert [d.__dict__ for d in forked.docs] == [d.__dict__ for d in serial.docs]
    assert [e.__dict__ for e in forked.edges] == [e.__dict__ for e in serial.edges]
    assert forked.info == serial.info
    assert serial_after == serial_before, "building the documents changed the configuration model"
    assert after == before


def test_the_split_claims_every_object_once_from_either_end(monkeypatch):
    monkeypatch.setattr(L, "_CLAIM", 3)
    claims = L._Claims(10)
    got = [claims.take(front=f) for f in (True, False, True, False, True, False, True)]
    covered = sorted(i for a, b in got for i in range(a, b))
    assert covered == list(range(10)), got
    assert got[:4] == [(0, 3), (7, 10), (3, 6), (6, 7)]
    assert claims.take(front=True)[0] >= claims.take(front=True)[1]   # nothing left: empty claims
