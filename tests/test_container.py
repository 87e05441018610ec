"""v8 container reader: flavours, chains, stacked layers, and bounded failure on bad input."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from v8atlas.compiler.v8container import (Container, ContainerError, inflate_if_deflated, is_container,
                                          open_container, write_container)

from realdata import data_path

REPO = Path(__file__).resolve().parent.parent


def _headers(data: bytes) -> list[re.Match]:
    return list(re.finditer(rb"\r\n([0-9a-f]{8}) ([0-9a-f]{8}) ([0-9a-f]{8}) \r\n", data))


def test_round_trip_chains_no_body_and_data_first():
    blob = write_container([("a", b"x" * 2000), ("empty", None), ("b", b"hi")], chain_page=512, data_first=True)
    c = Container(blob, name="t.bin")
    assert c.names() == ["a", "empty", "b"]
    assert c.read("a") == b"x" * 2000 and c.read("empty") == b"" and c.read("b") == b"hi"
    assert c.element("a").size == 2000


def test_deflated_nested_and_stacked_64bit_layer():
    inner = write_container([("info", b"{1}"), ("text", "Процедура А() КонецПроцедуры".encode())])
    layer64 = write_container([("root", b"{2}"), ("module", inner)], bits=64, deflate=True)
    stub = write_container([("root", b"stub"), ("version", b"{216,0}")])
    layers = open_container(stub + layer64, name="stacked.cf")
    assert [(l.flavor.bits, l.names()) for l in layers] == [(32, ["root", "version"]), (64, ["root", "module"])]
    data, deflated = inflate_if_deflated(layers[1].read("module"))
    assert deflated and is_container(data)
    assert Container(data).read("text").decode().startswith("Процедура")


def test_not_a_container_names_the_file():
    with pytest.raises(ContainerError, match=r"notes\.txt: not a v8 container"):
        Container(b"hello, this is plain text and nothing else at all" * 3, name="notes.txt")


def test_truncated_container():
    blob = write_container([("a", b"y" * 3000)], chain_page=512)
    with pytest.raises(ContainerError, match=r"cut\.cf: element 'a'.*(truncated|past the end|larger than)"):
        Container(blob[:1500], name="cut.cf").read("a")


def test_cyclic_chain_is_detected_not_looped():
    blob = bytearray(write_container([("a", b"z" * 3000)], chain_page=512))
    hs = [m for m in _headers(bytes(blob)) if m.group(2) == b"00000200" and m.group(3) != b"7fffffff"]
    first_data = hs[0].start()
    third = hs[2]
    # the third data block points back to the first one
    blob[third.start(3):third.end(3)] = b"%08x" % first_data
    with pytest.raises(ContainerError, match=r"loop\.cf: element 'a': cyclic block chain"):
        Container(bytes(blob), name="loop.cf").read("a")


def test_lying_size_does_not_allocate():
    blob = bytearray(write_container([("a", b"q" * 100)]))
    m = [m for m in _headers(bytes(blob)) if m.group(1) == b"%08x" % 100][0]
    blob[m.start(1):m.end(1)] = b"7ffffff0"
    c = Container(bytes(blob), name="liar.cf")
    with pytest.raises(ContainerError, match=r"liar\.cf: element 'a'.*larger than the file"):
        c.read("a")


@pytest.mark.realdata
def test_every_shared_container_opens_and_lists():
    folder = data_path("containers")
    files = sorted(p for p in folder.iterdir() if p.suffix in (".cf", ".epf", ".cfe", ".erf"))
    assert files
    for f in files:
        layers = open_container(f)
        assert layers[0].elements
        for el in layers[0].elements:
            layers[0].read(el)
        root, deflated = inflate_if_deflated(layers[0].read("root"))
        assert deflated and root.startswith(b"\xef\xbb\xbf{"), f"{f.name}: root is raw-deflated brace text"
        out = subprocess.run([sys.executable, str(REPO / "tools" / "list_container.py"), str(f)],
                             capture_output=True, text=True, check=True).stdout
        assert re.search(r"^\s+root\t\d+ → \d+\tdeflate", out, re.M), out
        assert "version" in out
        assert re.search(r"^\s+\S+\t\d+", out, re.M)
