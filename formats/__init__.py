"""The bundle contract shared by the compiler and the server (numpy, msgpack, zstandard only)."""
from .errors import BundleCorrupt, BundleError, BundleFormatError, BundleNotFound
from .reader import Bundle, RecordStore, open_bundle
from .version import FORMAT_VERSION

__all__ = [
    "Bundle", "BundleCorrupt", "BundleError", "BundleFormatError", "BundleNotFound",
    "BundleWriter", "FORMAT_VERSION", "RecordStore", "open_bundle",
]


def __getattr__(name: str):
    # The writer is the compiler's; the server never needs to import it.
    if name == "BundleWriter":
        from .writer import BundleWriter
        return BundleWriter
    raise AttributeError(name)
