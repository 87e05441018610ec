"""What parsing a corpus folder gives: plain, picklable documents split into sections."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Section:
    path: list[str]                 # headings from the document's title down to this section
    text: str                       # the section's Markdown (code blocks fenced), heading excluded
    code: list[str] = field(default_factory=list)   # identifiers of its code blocks


@dataclass
class Document:
    rel: str                        # posix path inside the corpus folder (portable)
    format: str                     # "markdown" | "html" | "text"
    title: str
    sections: list[Section]
    url: str | None = None
    meta: dict[str, str] = field(default_factory=dict)   # front matter: description, platform…
    chars: int = 0


@dataclass
class Corpus:
    name: str
    kind: str
    documents: list[Document] = field(default_factory=list)
    bytes_read: int = 0
    skipped: int = 0
