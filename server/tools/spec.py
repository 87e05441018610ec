"""Tool declarations: parameters, validation and the JSON Schema every transport publishes.

One validator for MCP, the JSON API and ``v8atlas call``, so a wrong argument gets the same
short message everywhere. Strings from a command line or a query string are coerced
(``limit=5``); JSON values must already have the declared type.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable

from .result import ToolInputError, ToolResult

# Longest string argument accepted (names and queries are short; anything longer is a mistake).
MAX_STRING_ARG = 500
MAX_CURSOR_ARG = 200
_BOOL_TEXT = {"true": True, "1": True, "yes": True, "false": False, "0": False, "no": False}


@dataclass(frozen=True)
class Param:
    name: str
    type: str                       # "string" | "integer" | "boolean"
    description: str = ""
    required: bool = False
    default: Any = None
    enum: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    max_length: int = MAX_STRING_ARG

    def schema(self) -> dict[str, Any]:
        s: dict[str, Any] = {"type": self.type}
        if self.enum:
            s["enum"] = list(self.enum)
        if self.minimum is not None:
            s["minimum"] = self.minimum
        if self.maximum is not None:
            s["maximum"] = self.maximum
        if self.default is not None and self.default is not False:
            s["default"] = self.default
        if self.description:
            s["description"] = self.description
        return s

    def coerce(self, value: Any, from_text: bool) -> Any:
        if value is None:
            return None
        if self.type == "boolean":
            if isinstance(value, str) and from_text and value.strip().lower() in _BOOL_TEXT:
                return _BOOL_TEXT[value.strip().lower()]
            if not isinstance(value, bool):
                raise ToolInputError("bad_argument", f"`{self.name}` must be true or false, "
                                                     f"got {_type_name(value)}")
            return value
        if self.type == "integer":
            if isinstance(value, bool):
                raise ToolInputError("bad_argument", f"`{self.name}` must be an integer, got a boolean")
            if isinstance(value, str) and from_text:
                try:
                    value = int(value.strip())
                except ValueError:
                    raise ToolInputError("bad_argument",
                                         f"`{self.name}` must be an integer, got {_short(value)!r}") from None
            if not isinstance(value, int):
                raise ToolInputError("bad_argument",
                                     f"`{self.name}` must be an integer, got {_type_name(value)}")
            if self.minimum is not None and value < self.minimum or \
                    self.maximum is not None and value > self.maximum:
                raise ToolInputError("bad_argument", f"`{self.name}` must be between {self.minimum} "
                                                     f"and {self.maximum}, got {value}")
            return value
        if not isinstance(value, str):
            raise ToolInputError("bad_argument", f"`{self.name}` must be a string, got {_type_name(value)}")
        if len(value) > self.max_length:
            raise ToolInputError("too_long", f"`{self.name}` is {len(value)} characters; "
                                             f"the limit is {self.max_length}")
        if "\x00" in value:
            raise ToolInputError("bad_argument", f"`{self.name}` contains a NUL character")
        value = value.strip()
        if self.enum and value not in self.enum:
            raise ToolInputError("bad_argument", f"`{self.name}` must be one of "
                                                 f"{', '.join(self.enum)}; got {_short(value)!r}")
        return value


def _short(s: str, n: int = 40) -> str:
    return s if len(s) <= n else s[:n] + "…"


def _type_name(v: Any) -> str:
    return {dict: "an object", list: "an array", float: "a number", bool: "a boolean",
            int: "an integer", str: "a string"}.get(type(v), type(v).__name__)


@dataclass(frozen=True)
class ParamExtension:
    """A parameter a domain adds to another domain's tool (``ServePart.params``).

    When the call gives it a value other than its default, ``apply(snap, value, result, args)``
    receives the tool's answer (``args``: the tool's own checked arguments) and returns the
    answer to send, e.g. with a section of the domain's own appended."""
    param: Param
    apply: Callable[[Any, Any, ToolResult, dict[str, Any]], ToolResult] = field(compare=False)


@dataclass(frozen=True)
class ToolSpec:
    name: str
    title: str
    description: str
    params: tuple[Param, ...]
    fn: Callable[..., ToolResult] = field(compare=False)
    extensions: tuple[ParamExtension, ...] = field(default=(), compare=False)

    def extended(self, extensions: tuple[ParamExtension, ...]) -> "ToolSpec":
        return replace(self, params=self.params + tuple(e.param for e in extensions),
                       extensions=self.extensions + extensions)

    def run(self, snap: Any, kwargs: dict[str, Any]) -> ToolResult:
        """The tool on its own arguments, then each extension whose parameter was given."""
        own = {k: v for k, v in kwargs.items() if all(k != e.param.name for e in self.extensions)}
        result = self.fn(snap, **own)
        for e in self.extensions:
            value = kwargs.get(e.param.name)
            if value is not None and value != e.param.default:
                result = e.apply(snap, value, result, own)
        return result

    def input_schema(self) -> dict[str, Any]:
        schema: dict[str, Any] = {"type": "object",
                                  "properties": {p.name: p.schema() for p in self.params}}
        required = [p.name for p in self.params if p.required]
        if required:
            schema["required"] = required
        return schema

    def validate(self, args: dict[str, Any] | None, *, from_text: bool = False) -> dict[str, Any]:
        """Checked keyword arguments for ``fn``; raises ToolInputError with a short message."""
        if args is None:
            args = {}
        if not isinstance(args, dict):
            raise ToolInputError("bad_argument", "arguments must be a JSON object")
        known = {p.name: p for p in self.params}
        unknown = [k for k in args if k not in known]
        if unknown:
            raise ToolInputError("bad_argument", f"{self.name} has no argument "
                                                 f"{', '.join(repr(_short(str(k))) for k in unknown)}; "
                                                 f"it takes {', '.join(known) or 'none'}")
        out: dict[str, Any] = {}
        for p in self.params:
            v = p.coerce(args.get(p.name), from_text)
            if v in (None, "") and p.required:
                raise ToolInputError("bad_argument", f"`{p.name}` is required")
            if v in (None, ""):
                v = p.default
            out[p.name] = v
        return out


# Parameters several tools share: one declaration each.
CONFIG = Param("config", "string", "Configuration name; required when several are loaded")
CURSOR = Param("cursor", "string", "From a previous answer, to continue it", max_length=MAX_CURSOR_ARG)
LIMIT = Param("limit", "integer", default=10, minimum=1, maximum=50)
