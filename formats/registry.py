"""The one registry of domains: built-ins are registered here exactly as a third party would be.

Each ``Registration`` names a domain and where its two sides live ("module:attribute"): the
compile side (a ``formats.domain.Domain``) and the serve side (a ``formats.domain.ServePart``).
Sides are imported lazily by the side that needs them, so ``server/`` never imports
``compiler/`` and an install without the compiler extras still serves. A domain not in this
install (its module absent) is skipped; any other import error is raised.

Why a module and not entry points (docs/architecture.md): the order of the list is the order
linkers run and detection is tried in, which entry points do not keep; a registration is one
line a reviewer sees; and a test or a third-party package adds one with ``register(...)``
without reinstalling.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

from .domain import CONTRACT_VERSION, Domain, ServePart


@dataclass(frozen=True)
class Registration:
    name: str
    compile: str | None = None    # "package.module:ATTR" holding a Domain
    serve: str | None = None      # "package.module:ATTR" holding a ServePart


_REGISTERED: list[Registration] = [
    Registration("configuration", "v8atlas.compiler.config.domain:DOMAIN",
                 "v8atlas.server.tools.configuration:SERVE"),
    # forms, schemas, roles: reads the configuration's dumps; answered by its tools (docs/forms.md)
    Registration("forms", "v8atlas.compiler.forms.domain:DOMAIN"),
    Registration("help", "v8atlas.compiler.help.domain:DOMAIN", "v8atlas.server.tools.platform:SERVE"),
    Registration("dictionary", "v8atlas.compiler.dictionary:DOMAIN"),
    Registration("code", "v8atlas.compiler.code.domain:DOMAIN", "v8atlas.server.tools.code:SERVE"),
    # the forms' handler check against the code domain's procedures: after both (docs/forms.md)
    Registration("form_handlers", "v8atlas.compiler.forms.handlers:DOMAIN"),
    Registration("corpus", "v8atlas.compiler.corpus.domain:DOMAIN", "v8atlas.server.tools.corpus:SERVE"),
]


class DomainContractError(Exception):
    """A registered domain cannot be used as written (wrong contract version, bad object)."""


_generation = [0]     # bumped on every change, so tables built from the registry are rebuilt


def register(registration: Registration) -> None:
    """Add a domain (after the built-ins); registering the same name again replaces it."""
    unregister(registration.name)
    _REGISTERED.append(registration)


def unregister(name: str) -> None:
    _REGISTERED[:] = [r for r in _REGISTERED if r.name != name]
    _generation[0] += 1


def generation() -> int:
    return _generation[0]


def registrations() -> list[Registration]:
    return list(_REGISTERED)


def _load(ref: str, expected: type) -> Any | None:
    module_name, _, attr = ref.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as e:
        if e.name and module_name.startswith(e.name):
            return None          # not part of this install
        raise
    obj = getattr(module, attr, None)
    if not isinstance(obj, expected):
        raise DomainContractError(f"{ref} is not a {expected.__name__}")
    if obj.contract != CONTRACT_VERSION:
        raise DomainContractError(f"{ref} is written for domain contract {obj.contract}; this "
                                  f"v8atlas has {CONTRACT_VERSION}")
    return obj


def compile_domains() -> list[Domain]:
    """The compile sides of the registered domains present in this install, in order."""
    return [d for r in _REGISTERED if r.compile and (d := _load(r.compile, Domain)) is not None]


def serve_parts() -> list[ServePart]:
    return [p for r in _REGISTERED if r.serve and (p := _load(r.serve, ServePart)) is not None]
