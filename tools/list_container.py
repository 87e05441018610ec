#!/usr/bin/env python3
"""List every element of a v8 container (.cf/.cfe/.epf/.erf/.hbk) with its size.

    python3 tools/list_container.py FILE [--depth N]

Deflated element data is inflated and, when it is itself a container, listed below it
(indented) up to ``--depth`` levels. Stacked 8.3.16+ files show each layer.
"""
from __future__ import annotations

import argparse
import sys

from v8atlas.compiler.v8container import Container, ContainerError, inflate_if_deflated, is_container, open_container


def _list(layer: Container, depth: int, indent: str, out) -> int:
    n = 0
    for el in layer.elements:
        data = layer.read(el)
        inflated, deflated = inflate_if_deflated(data)
        kind = "no body" if el.data_addr is None else ("deflate" if deflated else "raw")
        extra = f" → {len(inflated)}" if deflated else ""
        nested = is_container(inflated)
        print(f"{indent}{el.name}\t{el.size}{extra}\t{kind}{'  [container]' if nested else ''}", file=out)
        n += 1
        if nested and depth > 0:
            n += _list(Container(inflated, name=f"{layer.name}/{el.name}"), depth - 1, indent + "    ", out)
    return n


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--depth", type=int, default=2, help="levels of nested containers to list")
    args = ap.parse_args(argv)
    rc = 0
    for path in args.files:
        try:
            layers = open_container(path)
            for i, layer in enumerate(layers):
                print(f"# {path} layer {i}: {layer.flavor.bits}-bit at 0x{layer.base:x}, "
                      f"page {layer.page_size}, {len(layer.elements)} elements")
                n = _list(layer, args.depth, "  ", sys.stdout)
                print(f"# {n} element(s) listed")
        except ContainerError as e:
            print(f"error: {e}", file=sys.stderr)
            rc = 1
    return rc


if __name__ == "__main__":
    sys.exit(main())
