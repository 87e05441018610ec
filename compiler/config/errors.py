"""Whole-source refusals of the configuration readers.

They derive from ``SourceError`` so the pipeline prints the message as it is (no exception
class name). The report line already names the source, so messages do not repeat its path:
they say which file inside it and what is wrong, as a sentence.
"""
from __future__ import annotations

from v8atlas.formats.domain import SourceError


class ConfigSourceError(SourceError):
    """The source cannot be read as a configuration; the message says what was expected."""


class ExternalDumpError(ConfigSourceError):
    """The source is an external data processor/report dump, not a configuration."""
