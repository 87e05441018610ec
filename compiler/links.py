"""Typed links: what one domain's link step hands to another's (``formats.domain.Links``).

A domain ``provides`` a link class and ``put``s one value of it; a domain that ``needs`` it
reads it with ``ctx.links.need(Cls)``. The pipeline runs providers before their readers.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class ConfigModels:
    """The linked configurations by the name tools address them by: their parsed models
    (``compiler.config.model.Configuration``) and platform versions. A domain reading the same
    dump (code, forms) resolves owners through it."""
    models: dict[str, Any] = field(default_factory=dict)
    platforms: dict[str, str] = field(default_factory=dict)
    # Every parsed configuration by its source's name, extensions attached to a base included
    # (they have no view of their own): how a domain that parsed the same source finds its model.
    by_source: dict[str, Any] = field(default_factory=dict)


@dataclass
class SearchDictionary:
    """Search data the dictionary adds: synonym groups and resolved aliases."""
    synonyms: list[dict[str, Any]] = field(default_factory=list)
    aliases: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class DocIndex:
    """Document key → id, once the core build has numbered the documents."""
    ids: dict[str, int] = field(default_factory=dict)


@dataclass
class FormCards:
    """The forms domain's managed forms, for the handler check after the code domain has
    linked: ``(source, view, owner, form name ("" for a common form), file, title, card)``,
    ``card`` being the form's card section (the dict in the document, amended in place)."""
    forms: list[tuple[str, str, str, str, str, str, dict[str, Any]]] = field(default_factory=list)
