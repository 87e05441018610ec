"""check_query: a 1C query text parsed and checked against a bundle's configuration.

``check(text, schema)`` → ``Report``: problems (errors are certain, warnings are not) with
line and column, and notes. The parser never sees a source file: the text is the request.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .checker import ERROR, WARNING, Checker, Problem
from .lexer import FRAGMENT, LexError, Token, tokenize
from .parser import ParseError, parse
from .schema import Schema, schema_for

__all__ = ["ERROR", "WARNING", "Problem", "Report", "Schema", "check", "schema_for"]


@dataclass
class Report:
    problems: list[Problem] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    statements: int = 0
    dcs: bool = False

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == ERROR]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == WARNING]


def _fragments(text: str) -> list[Token]:
    try:
        toks = tokenize(text)
    except LexError:
        return []
    return [toks.token(i) for i, k in enumerate(toks.kinds) if k == FRAGMENT]


def _shown(t: Token) -> str:
    return t.text if t.text[:1] in ("?", "@", "[", "]", "%") else "#" + t.text


def check(text: str, schema: Schema, platform_code: int | None = None) -> Report:
    """Parse and check ``text``; ``platform_code`` overrides the configuration's platform."""
    rep = Report()
    try:
        stmts, rep.dcs, frags = parse(text)
    except (ParseError, LexError) as e:
        if frags := _fragments(text):
            rep.problems.append(Problem(WARNING, e.line, e.col, "dynamic_text",
                                        f"the text holds fragments a module fills in (`{_shown(frags[0])}`); "
                                        f"it cannot be read as a query, so it was not checked",
                                        "check the text as it is run"))
        else:
            rep.problems.append(Problem(ERROR, e.line, e.col, "syntax", e.message))
        return rep
    rep.statements = len(stmts)
    ch = Checker(schema, platform_code)
    ch.statements(stmts)
    if frags:
        shown = ", ".join(f"`{_shown(t)}`" for t in frags[:3])
        ch.problems.append(Problem(WARNING, frags[0].line, frags[0].col, "dynamic_text",
                                   f"fragments a module fills in ({shown}) are not checked"))
    seen: set[tuple[int, int, str]] = set()
    for p in ch.problems:
        key = (p.line, p.col, p.message)
        if key not in seen:
            seen.add(key)
            rep.problems.append(p)
    rep.problems.sort(key=lambda p: (p.line, p.col))
    rep.notes = ch.notes
    return rep
