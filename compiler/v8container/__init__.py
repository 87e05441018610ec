"""The 1C v8 container format: a bounded reader (``reader``) and a writer for fixtures (``writer``)."""
from .reader import (Container, ContainerError, Element, detect_flavor, inflate_if_deflated,
                     is_container, open_container)
from .writer import write_container

__all__ = ["Container", "ContainerError", "Element", "detect_flavor", "inflate_if_deflated",
           "is_container", "open_container", "write_container"]
