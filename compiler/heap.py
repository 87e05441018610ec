"""The C heap's free pages handed back to the system between a compile's large steps."""
from __future__ import annotations

import ctypes


def trim() -> None:
    """glibc ``malloc_trim(0)``; elsewhere nothing. Objects of more than 512 bytes (procedure
    bodies in transit, packed cards, msgpack and zstd buffers) live in the C heap; once freed,
    their pages stay resident there, and Python's own arenas — where the small objects of the
    next step go — cannot reuse them. Trimmed, they leave the RSS that the rest of the compile
    (and every child it forks, whose RSS starts at the parent's) stands on."""
    try:
        ctypes.CDLL(None).malloc_trim(0)
    except (AttributeError, OSError):      # not glibc
        pass
