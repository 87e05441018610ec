"""Read one corpus folder: every Markdown, HTML and text file below it, safely.

Each unusable file is reported by name and skipped, the rest is read: a symlink leading
outside the folder, a file over the size limit (checked by ``stat`` before any read), a file
holding NUL bytes (binary), Markdown or text that is not UTF-8 (skipped, not guessed: a
cp1251 file decoded as UTF-8 with replacements would publish garbage). HTML the parser had to
repair is kept and reported. PDF is not read (see docs/corpus.md: no library extracts headings
reliably enough to split by structure).
"""
from __future__ import annotations

import os
from pathlib import Path, PurePosixPath
from typing import Any

from v8atlas.formats.domain import Source, SourceError

from ..fingerprint import SKIP_DIRS
from .html import html_to_markdown
from .model import Corpus, Document
from .split import split_markdown, split_text

MAX_FILE_BYTES = 16 * 1024 * 1024
SUFFIXES = {".md": "markdown", ".markdown": "markdown", ".html": "html", ".htm": "html",
            ".txt": "text", ".bsl": "code"}
_MAX_DEPTH = 32


def _files(root: Path, source: Source, report: Any) -> list[tuple[str, Path]]:
    """(relative posix path, path) of the files to read, sorted; symlinks checked."""
    real_root = root.resolve()
    out: list[tuple[str, Path]] = []

    def walk(folder: Path, prefix: str, depth: int) -> None:
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError as e:
            report.warn(source.name, f"cannot list {prefix or '.'}: {e.strerror}", code="corpus-unreadable",
                        file=prefix or ".")
            return
        for e in entries:
            rel = f"{prefix}{e.name}"
            if e.name.startswith(".") or e.name in SKIP_DIRS:
                continue
            path = Path(e.path)
            if e.is_symlink():
                target = path.resolve()
                if not target.is_relative_to(real_root):
                    report.warn(source.name, f"symlink leads outside the corpus folder (to {target}); "
                                "skipped", code="corpus-symlink-outside", file=rel)
                    continue
                if target.is_dir():
                    continue        # inside the folder: its files are read where they lie
            if e.is_dir():
                if depth < _MAX_DEPTH:
                    walk(path, rel + "/", depth + 1)
            elif e.is_file() and PurePosixPath(rel).suffix.lower() in SUFFIXES:
                out.append((rel, path))
            elif e.is_file() and rel.lower().endswith(".pdf"):
                report.warn(source.name, "PDF is not read; convert it to Markdown or HTML",
                            code="corpus-pdf", file=rel)

    walk(root, "", 0)
    return out


def _decode(data: bytes) -> str:
    text = data.decode("utf-8")
    return text[1:] if text.startswith("\ufeff") else text


def _bad_utf8(data: bytes, e: UnicodeDecodeError) -> str:
    line = data.count(b"\n", 0, e.start) + 1
    return f"not valid UTF-8 (byte 0x{data[e.start]:02x} at offset {e.start}, line {line}); skipped"


def read_file(rel: str, path: Path, data: bytes) -> tuple[Document | None, list[str]]:
    """One file's document and the problems found; None when it cannot be used."""
    fmt = SUFFIXES[PurePosixPath(rel).suffix.lower()]
    nul = data.find(b"\x00")
    if nul >= 0:
        return None, [f"holds NUL bytes (first at offset {nul}; a binary file?); skipped"]
    if fmt == "html":
        md, title, problems = html_to_markdown(data)
        if not md.strip():
            return None, problems or ["no text in this HTML; skipped"]
        doc = split_markdown(rel, md, "html")
        if title and doc.title == PurePosixPath(rel).stem:
            doc.title = title
            for s in doc.sections:
                s.path[0] = title
        return doc, ([f"HTML is not well-formed (recovered; kept): {'; '.join(problems)}"] if problems else [])
    try:
        text = _decode(data)
    except UnicodeDecodeError as e:
        return None, [_bad_utf8(data, e)]
    text = text.replace("\r\n", "\n")
    if fmt == "text":
        return split_text(rel, text), []
    if fmt == "code":
        return split_markdown(rel, f"# {PurePosixPath(rel).stem}\n\n```bsl\n{text}\n```\n"), []
    return split_markdown(rel, text), []


def read_corpus(source: Source, report: Any) -> Corpus:
    root = source.path
    if not root.is_dir():
        raise SourceError("a corpus is a folder of Markdown, HTML or text files")
    name = source.options.get("name") or root.name
    corpus = Corpus(name, source.options.get("kind", "docs"))
    base_url = source.options.get("url")
    for rel, path in _files(root, source, report):
        try:
            size = path.stat().st_size
        except OSError as e:
            report.warn(source.name, f"cannot read: {e.strerror}", code="corpus-unreadable", file=rel)
            corpus.skipped += 1
            continue
        if size > MAX_FILE_BYTES:
            report.warn(source.name, f"file is {size / 2**20:.1f} MB; the limit is "
                        f"{MAX_FILE_BYTES // 2**20} MB; skipped", code="corpus-too-large", file=rel)
            corpus.skipped += 1
            continue
        try:
            data = path.read_bytes()
        except OSError as e:
            report.warn(source.name, f"cannot read: {e.strerror}", code="corpus-unreadable", file=rel)
            corpus.skipped += 1
            continue
        corpus.bytes_read += len(data)
        doc, problems = read_file(rel, path, data)
        for p in problems:
            report.warn(source.name, p, code="corpus-bad-file", file=rel)
        if doc is None:
            corpus.skipped += 1
            continue
        if doc.url is None and base_url:
            doc.url = base_url.rstrip("/") + "/" + rel
        corpus.documents.append(doc)
    if not corpus.documents:
        raise SourceError(f"no readable Markdown, HTML or text file in it ({corpus.skipped} skipped)")
    return corpus
