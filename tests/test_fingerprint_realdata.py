"""Each domain's ``reads_files`` names every file its parse opens, on real dumps (SSL 3.1.12
Designer, SSL 3.1.10 EDT): a compile that skips a domain hashes only the files its enabled
domains declare, so a file read but not declared would be an edit the compile cannot see.
Skipped with a reason when /work/shared's data is absent."""
from __future__ import annotations

import pytest
from realdata import extracted
from v8atlas.compiler.code.domain import DOMAIN as CODE
from v8atlas.compiler.config.domain import DOMAIN as CONFIG
from v8atlas.compiler.config.files import FolderFiles
from v8atlas.compiler.forms.domain import DOMAIN as FORMS
from v8atlas.compiler.report import CompileReport
from v8atlas.compiler.sources import discover

pytestmark = pytest.mark.realdata

DUMPS = {"designer": ("configs/ssl-3.1-designer/ssl_3_1-src-cf-3.1.12.238.tar.zst", "src/cf"),
         "edt": ("configs/ssl-3.1-edt/ssl_3_1_edt-configuration-3.1.10.441.tar.zst", "configuration")}


@pytest.mark.parametrize("fmt", sorted(DUMPS))
def test_every_file_a_domain_reads_is_one_it_declares(fmt, monkeypatch):
    archive, below = DUMPS[fmt]
    root = extracted(archive) / below
    monkeypatch.setenv("V8ATLAS_JOBS", "1")          # the reads happen in this process
    opened: list[str] = []
    read, head = FolderFiles.read, FolderFiles.head
    monkeypatch.setattr(FolderFiles, "read", lambda self, rel: opened.append(rel) or read(self, rel))
    monkeypatch.setattr(FolderFiles, "head", lambda self, rel, n: opened.append(rel) or head(self, rel, n))
    source = discover([root]).sources[0]
    for domain in (CONFIG, FORMS, CODE):
        opened.clear()
        assert domain.parse is not None and domain.reads_files is not None
        domain.parse(source, CompileReport())
        assert len(opened) > 50, (domain.name, len(opened))    # it read this dump
        undeclared = sorted({rel for rel in opened if not domain.reads_files(rel)})
        assert undeclared == [], (domain.name, undeclared[:10])
        print(f"{fmt} {domain.name}: {len(set(opened))} files read, all declared")


def test_a_structure_compile_leaves_the_bodies_unhashed_and_hashes_every_descriptor():
    """Of SSL 3.1.12 the structure compile's rule leaves the modules and the form bodies;
    every object descriptor (and Configuration.xml) is hashed, and the fingerprint differs
    from the one of every file."""
    from v8atlas.compiler.config.domain import may_read
    from v8atlas.compiler.fingerprint import FileRule, Fingerprinter, walk_files
    root = extracted(DUMPS["designer"][0]) / "src" / "cf"
    rels = [rel for rel, _ in walk_files(root)]
    left = [rel for rel in rels if not may_read(rel)]
    assert any(r.endswith(".bsl") for r in left) and any(r.endswith("/Ext/Form.xml") for r in left)
    descriptors = [rel for rel in rels if rel.endswith(".xml") and rel.count("/") <= 1]
    assert len(descriptors) > 1000 and all(may_read(rel) for rel in descriptors)
    fp = Fingerprinter()
    assert fp.begin(root, defer=False, rule=FileRule((may_read,))) != fp.begin(root, defer=False)

