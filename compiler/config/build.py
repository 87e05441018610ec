"""Helpers both readers share: defaults for omitted properties and the reader's result shape."""
from __future__ import annotations

import functools
from typing import Any

from .model import ADOPTED, Configuration, TypeDescription, compatibility_to_platform
from .spec import CLASS_KEYS, FIELD_PROPS, OBJECT_PROPS, field_keys, object_prop


def _default(value: Any) -> Any:
    if isinstance(value, tuple):
        return list(value)
    if value is None:
        return None
    return value


_TEXT_KEYS = frozenset(p.key for p in OBJECT_PROPS.values() if p.kind == "lstr")


def fill_object_defaults(cls: str, props: dict[str, Any], belonging: str) -> None:
    """Give every kept property of ``cls`` its default when the source omitted it.

    Adopted objects (extensions) are left alone: they state only what the extension controls,
    an omitted property there means "as in the base", not "default".
    """
    # A multi-language text the source leaves empty (Designer writes <Explanation/>, EDT
    # omits it) is not stated: both formats give the same model.
    for key in [k for k, v in props.items() if v == {} and k in _TEXT_KEYS]:
        del props[key]
    if belonging == ADOPTED:
        return
    _fill(props, _object_defaults(cls))


def fill_field_defaults(owner: str, kind: str, props: dict[str, Any], belonging: str) -> None:
    """Defaults for the properties a ``kind`` child of ``owner`` has (``Type`` lives on the field)."""
    if belonging == ADOPTED:
        return
    _fill(props, _field_defaults(owner, kind))


# (model key, is a type, default) per class / per (owner, field kind), worked out from the
# spec once: the readers fill defaults for every one of ~10⁴ objects and fields per SSL.
_Defaults = tuple[tuple[str, bool, Any], ...]


@functools.cache
def _object_defaults(cls: str) -> _Defaults:
    specs = (object_prop(cls, name) for name in CLASS_KEYS.get(cls, ()))
    return tuple((s.key, s.kind == "type", s.default) for s in specs if s is not None)


@functools.cache
def _field_defaults(owner: str, kind: str) -> _Defaults:
    specs = (FIELD_PROPS[name] for name in field_keys(owner, kind) if name != "Type")
    return tuple((s.key, s.kind == "type", s.default) for s in specs)


def _fill(props: dict[str, Any], defaults: _Defaults) -> None:
    for key, is_type, default in defaults:
        if key not in props:
            props[key] = TypeDescription() if is_type else _default(default)


# Configuration properties EDT omits when they have these (first-literal) values.
CONFIG_DEFAULTS = {
    "synchronousPlatformExtensionAndAddInCallUseMode": "Use",
    "modalityUseMode": "Use",
    "dataLockControlMode": "Automatic",
    "interfaceCompatibilityMode": "Taxi",
    "defaultRunMode": "Auto",
    "objectAutonumerationMode": "NotAutoFree",
    "keepMappingToExtendedConfigurationObjectsByIDs": "false",
}


def finish_config_props(props: dict[str, Any], is_extension: bool) -> None:
    for k in [k for k, v in props.items() if v in ("", [])]:
        del props[k]
    for k, v in CONFIG_DEFAULTS.items():
        if k == "keepMappingToExtendedConfigurationObjectsByIDs" and not is_extension:
            continue
        props.setdefault(k, v)


def finish_header(cfg: Configuration, belonging: str) -> None:
    """What both readers conclude from the configuration header alike."""
    cfg.script_variant = cfg.script_variant or "Russian"
    cfg.is_extension = belonging == ADOPTED or bool(cfg.extension_purpose)
    finish_config_props(cfg.props, cfg.is_extension)
    cfg.platform_version = compatibility_to_platform(cfg.compatibility_mode)
    if cfg.is_extension and not cfg.platform_version:
        cfg.platform_version = compatibility_to_platform(cfg.extension_compatibility_mode)
