"""The bundle contract shared by the compiler and the server (numpy, msgpack, zstandard only)."""
from .errors import BundleCorrupt, BundleError, BundleFormatError, BundleNotFound
from .version import FORMAT_VERSION

__all__ = [
    "Bundle", "BundleCorrupt", "BundleError", "BundleFormatError", "BundleNotFound",
    "BundleWriter", "FORMAT_VERSION", "RecordStore", "open_bundle",
]


def __getattr__(name: str):
    # The reader and the writer bring numpy (~0.15 s to import): a compile reaches its parse
    # without them (its workers need none) and imports them while the workers parse. The
    # writer is the compiler's; the server never needs to import it.
    if name in ("Bundle", "RecordStore", "open_bundle"):
        from . import reader
        return getattr(reader, name)
    if name == "BundleWriter":
        from .writer import BundleWriter
        return BundleWriter
    raise AttributeError(name)
