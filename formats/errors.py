"""Errors raised by the bundle format. Every message names the bundle (and segment) at fault."""
from __future__ import annotations


class BundleError(Exception):
    """Base of every bundle problem; the message is meant for a person."""


class BundleNotFound(BundleError):
    """No bundle where one was expected (empty directory, dangling pointer)."""


class BundleFormatError(BundleError):
    """The manifest is unreadable or written by an incompatible format version."""

    def __init__(self, message: str, found_version: str | None = None) -> None:
        super().__init__(message)
        self.found_version = found_version


class BundleCorrupt(BundleError):
    """A segment is missing, short, or its bytes do not match the manifest."""

    def __init__(self, message: str, segment: str | None = None) -> None:
        super().__init__(message)
        self.segment = segment
