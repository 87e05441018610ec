"""A purpose-built BSL scanner: procedure boundaries, signatures, directives, annotations,
preprocessor and region context, doc comments, and the call/usage tokens of each body.

Why not a full grammar (tree-sitter-bsl): the code domain needs only the structure of a module
and a few token kinds; this scanner reads SSL 3.1.12's 78 MB several times faster and never
gives up on a file (docs/code.md, "Parser choice", with the figures).

How it stays fast: everything runs on the UTF-8 bytes with regular expressions that start with
a literal byte (``\\n``, ``(``, ``.``), so the C engine skips to candidates instead of testing
every character; identifiers are ``[0-9A-Za-z_\\x80-\\xff]`` runs (outside strings and comments
non-ASCII bytes only occur in identifiers). Calls and metadata references are found in the
*reversed* code, where ``Имя(`` and ``Справочники.`` begin with a literal. Python touches only
structural lines (a few hundred per module) and the found tokens.

BSL facts relied on: structural keywords open a line; a string literal is ``"…"`` with ``""``
for a quote and continues on lines that start with ``|``; a comment runs from ``//`` to the end
of the line. Keywords are matched in either case letter by letter (BSL ignores case: ``КОНЕЦФУНКЦИИ``,
``КонецпРоцедуры`` are end words too).

The same scan in C (``_bslscan.c``, an optional extension) runs when it is built; this file
stays its reference (``scan_module_pure``, ``decode_module_pure``) and its fallback
(``V8ATLAS_PURE_SCANNER=1`` forces it). docs/code.md, "The scanner".
"""
from __future__ import annotations

import hashlib
import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from v8atlas.formats.classes import CLASSES

from .model import Annotation, Param, Procedure, init_fields

_W = rb"[0-9A-Za-z_\x80-\xff]"          # an identifier byte
_ID = rb"[A-Za-z_\x80-\xff]" + _W + rb"*+"


def _spellings(*words: str) -> bytes:
    """An alternation of the words in any letter case (longest first): BSL keywords are
    case-insensitive and real dumps write ``КонеЦПроцедуры``, ``Конецфункции`` (ДО КОРП 2.1).
    The pattern runs on UTF-8 bytes, where IGNORECASE does not fold Cyrillic: each letter is
    its own alternation of the two encoded forms."""
    def any_case(word: str) -> bytes:
        out = b""
        for ch in word:
            lo, up = ch.lower().encode(), ch.upper().encode()
            out += re.escape(lo) if lo == up else (b"[" + lo + up + b"]" if len(lo) == 1 == len(up)
                                                    else b"(?:" + lo + b"|" + up + b")")
        return out
    return b"|".join(any_case(w) for w in sorted(set(words), key=len, reverse=True))


_HEAD_WORDS = {"процедура": False, "функция": True, "procedure": False, "function": True}
_END_WORDS = {"конецпроцедуры": False, "конецфункции": True, "endprocedure": False, "endfunction": True}

_STRUCT_WORDS = ("Процедура", "Функция", "Procedure", "Function", "КонецПроцедуры", "КонецФункции",
                 "EndProcedure", "EndFunction")
_ASYNC_WORDS = ("Асинх", "Async")


def _first_letters(*words: str) -> bytes:
    """A lookahead for a line whose first letter may open one of ``words`` (either case), on the
    UTF-8 bytes: a Cyrillic letter is two bytes, so most code lines (``Если``, ``Результат``)
    fail it at their first letter instead of trying every keyword."""
    single, pairs = set(), {}
    for ch in {w[0] for w in words} | {w[0].lower() for w in words} | {w[0].upper() for w in words}:
        b = ch.encode()
        if len(b) == 1:
            single.add(b)
        else:
            pairs.setdefault(b[:1], set()).add(b[1:])
    alts = [b"[#&" + b"".join(re.escape(c) for c in sorted(single)) + b"]"]
    alts += [re.escape(lead) + b"[" + b"".join(re.escape(c) for c in sorted(rest)) + b"]"
             for lead, rest in sorted(pairs.items())]
    return b"(?=" + b"|".join(alts) + b")"


_STRUCT = re.compile(
    rb"\n[ \t]*+" + _first_letters(*_STRUCT_WORDS, *_ASYNC_WORDS) + rb"(?:"   # a literal \n, a filter
    rb"(?P<pp>\#[ \t]*+" + _ID + rb")"                     # #Область, #Если, #Вставка…
    rb"|(?P<dir>&[ \t]*+" + _ID + rb")"                     # &НаСервере, &Перед("X")…
    rb"|(?P<kw>(?:(?:" + _spellings(*_ASYNC_WORDS) + rb")[ \t]++)?(?:"
    + _spellings(*_STRUCT_WORDS) + rb"))(?!" + _W + rb"))")

# Compile directives, English canonical names (both spellings accepted).
DIRECTIVES = {
    "наклиенте": "AtClient", "atclient": "AtClient",
    "насервере": "AtServer", "atserver": "AtServer",
    "насерверебезконтекста": "AtServerNoContext", "atservernocontext": "AtServerNoContext",
    "наклиентенасерверебезконтекста": "AtClientAtServerNoContext",
    "atclientatservernocontext": "AtClientAtServerNoContext",
    "наклиентенасервере": "AtClientAtServer", "atclientatserver": "AtClientAtServer",
}
# Extension annotations: how an extension's procedure changes the base one.
ANNOTATIONS = {
    "перед": "Before", "before": "Before", "после": "After", "after": "After",
    "вместо": "Around", "around": "Around",
    "изменениеиконтроль": "ChangeAndValidate", "changeandvalidate": "ChangeAndValidate",
}
_PP_REGION = {"область", "region"}
_PP_END_REGION = {"конецобласти", "endregion"}
_PP_IF = {"если", "if"}
_PP_ELSIF = {"иначеесли", "elsif"}
_PP_ELSE = {"иначе", "else"}
_PP_END_IF = {"конецесли", "endif"}
_PP_INSERT = {"вставка", "insert"}
_PP_DELETE = {"удаление", "delete"}
# Region and #Если nesting a procedure records (each procedure keeps its own path and conditions:
# memory ~ procedures × depth). Real modules nest a few levels; deeper lines are counted (so
# their #КонецОбласти/#КонецЕсли still balance) but not recorded, with one problem per module.
MAX_DEPTH = 64
# Problem wording (the compiled scanner takes these too).
MSG_DEEP_REGION = f"#Область nested deeper than {MAX_DEPTH}: the regions inside are not recorded"
MSG_DEEP_IF = f"#Если nested deeper than {MAX_DEPTH}: the conditions inside are not recorded"
MSG_NOT_OPEN = "#КонецОбласти without #Область"
MSG_IF_NOT_OPEN = "#КонецЕсли without #Если"
MSG_REGION_NOT_CLOSED = "#Область {} is not closed"                              # its name
MSG_UNMATCHED = "{} without a matching Процедура/Функция"                         # the end word
MSG_CLOSED_BY = "{} (line {}) is a {} closed by {}"             # name, line, KINDS[…], end word
MSG_NO_END_BEFORE_HEADER = "{} (line {}) has no {} before the next header; taken to end there"
MSG_NO_END_BEFORE_EOF = "{} (line {}) has no {} before the end of the module"   # name, line, end
MSG_NO_HEADER = "cannot read the header after {} (a name and a parameter list are expected)"
MSG_DUPLICATE = "{} is declared twice in this module (lines {} and {})"           # name, lines
# A parameter list longer than this is not a header's list (the header is a problem, the scan goes
# on). Why: a list that closes only at the end of the module (``"Функция А(\n" * n + ")"``) would
# be every later header's list too — quadratic parsing; bounded, each byte is parsed by at most
# MAX_LIST_LINES headers. Real lists: at most 1,491 bytes and 20 lines (SSL 3.1, its English
# edition, УТ 11 агро): the bound is 11× and 3× above them (docs/code.md, "The scanner").
MAX_LIST_BYTES = 16 * 1024
MAX_LIST_LINES = 64
MSG_LONG_LIST = (f"the parameter list of {{}} {{}} is longer than {MAX_LIST_LINES} lines or "
                 f"{MAX_LIST_BYTES} bytes: not read as a header")                 # the keyword, name
KINDS = ("procedure", "function")
NOT = "НЕ ({})"                  # #Иначе: the branch's condition negated
_PP_THEN = re.compile(r"\s+(?:Тогда|Then)\s*(?://.*)?$", re.IGNORECASE)

# A header after its keyword: the name and ``(`` (``_HEAD``), the parameter list (``_LIST``: it may
# span lines; a string default may hold ``)``), ``)`` and ``Экспорт`` (``_EXPORT``) — one possessive
# pattern cut in three so the list's outcome can be memoized (``_HeaderMemo``).
_HEAD = re.compile(rb"[ \t]++(" + _ID + rb")[ \t]*+\(")
_LIST = re.compile(rb"(?:[^)\"]++|\"[^\"\n]*+\")*+")
_EXPORT = re.compile(rb"(?:[ \t]*+(?:" + _spellings("Экспорт", "Export") + rb")(?!" + _W + rb"))?")
# ``_PARAM``'s opening lookahead skips a start inside a whitespace run or an identifier (not before
# ``Знач ``/``Val ``): such a start succeeds only if the one before it does, so findall's matches
# are unchanged — and a long run is no longer tried from each of its bytes (quadratic).
_PARAM = re.compile(r'(?!(?<=\s)\s|(?<=[^\W\d])(?!(?:Знач|Val)\s)\w)'
                    r'\s*(?:(Знач|Val)\s+)?([^\W\d]\w*)\s*(?:=\s*("(?:[^"]|"")*"|[^,]*?))?\s*(?:,|$)', re.IGNORECASE)
_END_ON_LINE = re.compile(rb"(?<!" + _W + rb")(?:" + _spellings("КонецПроцедуры", "КонецФункции",
                                                                  "EndProcedure", "EndFunction") + rb")(?!" + _W + rb")")
_ANNOTATION_ARG = re.compile(r'\(\s*"([^"]*)"\s*\)')
_LINE_COMMENT = re.compile(r"//[^\n]*")

# -- tokens of a body -------------------------------------------------------------------------

# Strings (a quoted run, or a ``|`` continuation line up to its closing quote) and comments in
# one alternation, so ``//`` inside a string and ``"`` inside a comment are each what they are.
# The capture group makes ``split`` return them between the code parts.
_STRINGS_AND_COMMENTS = re.compile(rb'([|"/](?:(?<=/)/[^\n]*|(?<=[|"])[^"\n]*+(?:""[^"\n]*+)*+"?))')
# In reversed code: ``(`` + name and up to two ``.qualifier`` parts.
# Not a call, so no match: a name that is a number (``1(``: its last reversed byte a digit), a
# method of an expression (``Ф().Имя(``: a dot before the chain).
_REV_CALL = re.compile(rb"\([ \t]*+(" + _W + rb"++)(?<![0-9])(?:[ \t]*+\.[ \t]*+(" + _W + rb"++))?+"
                       rb"(?:[ \t]*+\.[ \t]*+(" + _W + rb"++))?+(?!\.)")
_NAME = re.compile(rb"[ \t]*+(" + _ID + rb")")
_AFTER_NAME = re.compile(rb"[ \t]*+(" + _ID + rb")(?:[ \t]*+\.[ \t]*+(" + _ID + rb")[ \t]*+\()?")
# ``ОбщегоНазначения.ОбщийМодуль("Имя")``: the literal argument, a direct call after it, and the
# variable it is assigned to (matched from the start of its line, so never a scan).
_COMMON_MODULE_WORDS = ("ОбщийМодуль(".encode(), b"CommonModule(")
_CM_ARG = re.compile(rb'[ \t]*+"(' + _ID + rb')"[ \t]*+\)')
_CM_DIRECT = re.compile(rb"[ \t]*+\.[ \t]*+(" + _ID + rb")[ \t]*+\(")
_CM_VAR = re.compile(rb"[ \t]*+(" + _ID + rb")[ \t]*+=[ \t]*+(?:" + _ID + rb"[ \t]*+\.[ \t]*+)?$")

# Class words → English class: plural (manager) words in code, singular ones in query texts and
# type names inside strings (``ИЗ РегистрНакопления.X.Остатки``, ``Тип("СправочникСсылка.X")``).
# Keys are the *reversed* UTF-8 spellings (as written, upper, lower): tokens are found in
# reversed text, and a dictionary lookup is cheaper than an alternation of 200 words.
MANAGER_WORDS: dict[bytes, str] = {}
QUERY_WORDS: dict[bytes, str] = {}


def _add_forms(table: dict[bytes, str], word: str, cls: str) -> None:
    for form in (word, word.upper(), word.lower()):
        table[form.encode()[::-1]] = cls


for _en, _ru, _en_plural, _ru_plural in CLASSES:
    for _w in (_en_plural, _ru_plural):
        _add_forms(MANAGER_WORDS, _w, _en)
    for _w in (_en, _ru, _en + "Ref", _ru + "Ссылка", _en + "Object", _ru + "Объект"):
        _add_forms(QUERY_WORDS, _w, _en)

_MANAGER_KEYS = frozenset(MANAGER_WORDS)
_QUERY_KEYS = frozenset(QUERY_WORDS)

# In reversed text every ``Слово.`` (a word before a dot) is a candidate; the dictionary decides.
_REV_QUALIFIER = re.compile(rb"\.[ \t]*+(" + _W + rb"++)")
_WRITE_METHODS = ("создать", "create")          # СоздатьЭлемент, СоздатьНаборЗаписей, CreateItem…

# Keywords and operators that look like calls (``Если (``, ``Новый Структура(``) are not calls.
_NOT_CALLS = frozenset((
    "если", "if", "иначеесли", "elsif", "пока", "while", "для", "for", "возврат", "return",
    "и", "and", "или", "or", "не", "not", "новый", "new", "тогда", "then", "цикл", "do", "из",
    "in", "каждого", "each", "по", "to", "выполнить", "execute", "вызватьисключение", "raise",
    "ждать", "await"))


@dataclass
class Problem:
    code: str
    message: str
    line: int


@dataclass
class ScanResult:
    procedures: list[Procedure] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    regions: int = 0
    lines: int = 0
    module_doc: str = ""          # the comment block that opens the module


def decode_module(data: bytes) -> tuple[bytes | None, Problem | None]:
    """The module's UTF-8 bytes (BOM stripped, CRLF → LF), or why it is not a BSL text. The
    compiled check when it is built (one pass; a module that is not clean text is worded by
    ``decode_module_pure``), else ``decode_module_pure``."""
    return _decode(data)


def decode_module_pure(data: bytes) -> tuple[bytes | None, Problem | None]:
    """``decode_module`` in Python (the reference; it words every problem)."""
    nul = data.find(b"\x00")
    if nul >= 0:
        return None, Problem("binary", "binary content (a NUL byte): not a BSL text module",
                             data.count(b"\n", 0, nul) + 1)
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        return None, Problem("encoding", f"invalid UTF-8 (byte 0x{data[e.start]:02x} at offset "
                                         f"{e.start}): not a UTF-8 BSL module", line)
    if b"\r" in data:
        # Every CR of a CRLF file dropped in one C pass (3× faster than replacing the pairs),
        # when every CR is one of a pair; a lone CR (old Mac line ends) becomes a LF.
        lf = data.translate(None, b"\r")
        if len(data) - len(lf) == data.count(b"\r\n"):
            return lf, None
        data = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    return data, None


def _line_end(text: bytes, pos: int) -> int:
    e = text.find(b"\n", pos)
    return len(text) if e < 0 else e


def _split_params(inner: str) -> list[Param]:
    """``Знач А, Б = "x,y", В = Неопределено`` → params (commas inside strings are kept)."""
    if not inner or inner.isspace():
        return []
    if "//" in inner:
        inner = _LINE_COMMENT.sub("", inner)
    return [Param(name, bool(val), " ".join(default.split()) if default else None)
            for val, name, default in _PARAM.findall(inner) if name]


# A parameter list as written → its params: handlers repeat the same lists (``Отказ``,
# ``Форма, Отказ, СтандартнаяОбработка``) across modules. The Param objects are shared (never
# changed once read; pickled once per batch), each procedure gets its own list. Bounded.
_PARAMS: dict[bytes, tuple[Param, ...]] = {}
_PARAMS_MAX = 100_000
_PARAMS_KEY_MAX = 256         # longer lists are not kept (rarely repeated; the cache stays < ~30 MB)


def _params_of(inner: bytes) -> tuple[Param, ...]:
    """The parameters of a list as written (``_PARAMS`` first)."""
    params = _PARAMS.get(inner)
    if params is None:
        params = tuple(_split_params(inner.decode()))
        if len(_PARAMS) < _PARAMS_MAX and len(inner) <= _PARAMS_KEY_MAX:
            _PARAMS[inner] = params
    return params


class _HeaderMemo:
    """The last parameter list read in a module: where its read began (``start``) and stopped
    (``stop``: its ``)``, an unclosed ``"``, or the end) and the ``)`` found (or -1).

    Why: an unclosed ``(`` makes ``_LIST`` run to the end of the module, and every later header
    would run it again — quadratic (``"Процедура А(\\n" * n``). A list read from ``i`` ends where
    the read from the first ``)`` or ``"`` at or after ``i`` ends. A later header's list opens
    on a later line: if that is at or before ``stop``, it sits in a stretch between the strings
    of the last read (a string never spans a line), so its first ``)`` or ``"`` is one the last
    read passed through and its outcome is the last one. Headers come in order, so each byte is
    read by ``_LIST`` once per module. The C scanner (``header_at``) keeps the same memo."""
    __slots__ = ("start", "stop", "close")

    def __init__(self) -> None:
        self.start, self.stop, self.close = 0, -1, -1

    def list_end(self, text: bytes, i: int) -> int:
        """The ``)`` that closes the list opening at ``i``, or -1."""
        if not self.start <= i <= self.stop:
            self.start, self.stop = i, _LIST.match(text, i).end()  # type: ignore[union-attr]
            self.close = self.stop if text[self.stop:self.stop + 1] == b")" else -1
        return self.close


def _signature(text: bytes, pos: int, memo: _HeaderMemo) -> tuple[str, list[Param], bool, int] | str | None:
    """Name, params, export flag and the end offset of a header whose keyword ends at ``pos``;
    None when there is no header; its name alone when its list is over the bound
    (``MAX_LIST_BYTES``, ``MAX_LIST_LINES``: the bytes are checked first, so the lines counted
    are at most ``MAX_LIST_BYTES``)."""
    m = _HEAD.match(text, pos)
    if not m:
        return None
    close = memo.list_end(text, m.end())
    if close < 0:
        return None
    if close - m.end() > MAX_LIST_BYTES or text.count(b"\n", m.end(), close) >= MAX_LIST_LINES:
        return m.group(1).decode()
    export = _EXPORT.match(text, close + 1)
    return (m.group(1).decode(), list(_params_of(text[m.end():close])), bool(export.group()),  # type: ignore[union-attr]
            export.end())  # type: ignore[union-attr]


def _doc_comment(text: bytes, start: int, stop: int) -> str:
    """The ``//`` lines right above ``stop`` (nothing between them and it but directives)."""
    chunk = text[start:stop]
    if b"//" not in chunk:
        return ""
    lines = chunk.rstrip(b"\n").split(b"\n")
    k = len(lines)
    while k and lines[k - 1].lstrip().startswith(b"//"):
        k -= 1
    if k == len(lines):
        return ""
    # the block's lines without their ``//``, decoded at once (a decode per line cost more)
    return _without_rules(b"\n".join([ln.strip()[2:] for ln in lines[k:]]).decode())


def _without_rules(doc: str) -> str:
    """A doc comment less the separator rules (////////) that open it: SSL opens modules and
    sections with one, and it is not a description."""
    while True:
        head, _, rest = doc.partition("\n")
        head = head.strip()
        if not (head and not head.strip("/")):
            return doc.strip("\n")
        doc = rest


# A keyword as matched (bytes) → (as written, its last word folded, whether ``Асинх`` opens it):
# a module writes the same few spellings over and over. Bounded by the spellings there are.
_KEYWORDS: dict[bytes, tuple[str, str, bool]] = {}


def _annotation(word: str, rest: str) -> Annotation:
    """``&Перед("Имя")``: the annotation of folded ``word`` and the rest of its line."""
    arg = _ANNOTATION_ARG.match(rest.strip())
    return Annotation(ANNOTATIONS[word], arg.group(1) if arg else "")


class _Open:
    """A procedure whose end has not been seen yet."""
    __slots__ = ("is_function", "proc", "start")

    def __init__(self, proc: Procedure, start: int, is_function: bool) -> None:
        self.proc, self.start, self.is_function = proc, start, is_function


def _end_word(is_function: bool) -> str:
    return "КонецФункции" if is_function else "КонецПроцедуры"


def scan_module(data: bytes) -> ScanResult:
    """Every procedure of one module (``decode_module``'s bytes) with its context and tokens;
    problems keep their line numbers. The compiled scanner when it is built (``_bslscan``),
    else (or with ``V8ATLAS_PURE_SCANNER=1``) ``scan_module_pure``: the same answers."""
    return _scan(data)


def scan_module_pure(data: bytes) -> ScanResult:
    """``scan_module`` in Python: the reference the compiled scanner is held to."""
    res = ScanResult()
    text = b"\n" + data          # every line, the first too, follows a \n (so lines count from 0)
    regions: list[str] = []
    region_lines: list[int] = []
    conditions: list[str] = []
    pending: list[tuple[str, str]] = []     # (word, rest of line) of & lines above a header
    comment_from = 0          # where the text a doc comment may come from begins
    comment_to: int | None = None
    open_: _Open | None = None
    # The region path and #Если conditions as procedures keep them: one pair of lists shared by
    # the procedures between two preprocessor lines (read only from then on; pickled once).
    context: tuple[list[str], list[str]] | None = None
    seen: dict[tuple[str, tuple[str, ...]], int] = {}
    memo = _HeaderMemo()            # the last parameter list read (linear time on unclosed lists)
    deep_regions = deep_ifs = 0     # #Область / #Если lines past MAX_DEPTH still open
    said_region = said_if = False   # whether the module's problem for each was reported
    line_no, line_pos = 0, 0        # the line of line_pos (counted forward as matches come)
    n_text = len(text)
    count, find = text.count, text.find
    common_module = tuple(w for w in _COMMON_MODULE_WORDS if w in text)

    def close(end_pos: int, end_line: int) -> None:
        nonlocal open_
        assert open_ is not None
        p = open_.proc
        p.end_line = end_line
        p.body = text[open_.start:end_pos]
        add_tokens(p, p.body, common_module)
        res.procedures.append(p)
        open_ = None

    for m in _STRUCT.finditer(text):
        pos = m.start() + 1          # the line itself, after its \n
        line_no += count(b"\n", line_pos, pos)
        ln, line_pos = line_no, pos
        le = find(b"\n", m.end())
        if le < 0:
            le = n_text
        group = m.lastgroup          # the alternatives are the only named groups
        if group == "pp":
            word = m.group("pp")[1:].strip().decode().lower()
            context = None
            rest = text[m.end("pp"):le].decode().strip()
            if word in _PP_REGION:
                res.regions += 1
                if len(regions) < MAX_DEPTH:
                    regions.append(rest.split("//")[0].strip())
                    region_lines.append(ln)
                else:                   # past the cap: counted, not recorded (reported once)
                    if not said_region:
                        res.problems.append(Problem("deep-nesting", MSG_DEEP_REGION, ln))
                        said_region = True
                    deep_regions += 1
            elif word in _PP_END_REGION:
                if deep_regions:
                    deep_regions -= 1
                elif regions:
                    regions.pop()
                    region_lines.pop()
                else:
                    res.problems.append(Problem("unbalanced-region", MSG_NOT_OPEN, ln))
            elif word in _PP_IF:
                if len(conditions) < MAX_DEPTH:
                    conditions.append(_PP_THEN.sub("", rest))
                else:
                    if not said_if:
                        res.problems.append(Problem("deep-nesting", MSG_DEEP_IF, ln))
                        said_if = True
                    deep_ifs += 1
            elif word in _PP_ELSIF and conditions:
                if not deep_ifs:
                    conditions[-1] = _PP_THEN.sub("", rest)
            elif word in _PP_ELSE and conditions:
                if not deep_ifs:
                    conditions[-1] = NOT.format(conditions[-1])
            elif word in _PP_END_IF:
                if deep_ifs:
                    deep_ifs -= 1
                elif conditions:
                    conditions.pop()
                else:
                    res.problems.append(Problem("unbalanced-if", MSG_IF_NOT_OPEN, ln))
            elif open_ is not None and word in _PP_INSERT:
                open_.proc.inserts += 1
            elif open_ is not None and word in _PP_DELETE:
                open_.proc.deletes += 1
            if open_ is None:
                comment_from, comment_to, pending = le, None, []
            continue
        if group == "dir":
            if open_ is None:
                if comment_to is None:
                    comment_to = pos
                pending.append((m.group("dir")[1:].strip().decode().lower(), text[m.end("dir"):le].decode()))
            continue
        kw_bytes = m.group("kw")
        got = _KEYWORDS.get(kw_bytes)
        if got is None:
            kw = kw_bytes.decode()
            got = (kw, kw.lower().split()[-1], " " in kw or "\t" in kw)
            if len(_KEYWORDS) < 1000:
                _KEYWORDS[kw_bytes] = got
        kw, head, is_async = got
        if head in _END_WORDS:
            if open_ is None:
                res.problems.append(Problem("unbalanced", MSG_UNMATCHED.format(kw), ln))
            else:
                if _END_WORDS[head] != open_.is_function:
                    res.problems.append(Problem("unbalanced", MSG_CLOSED_BY.format(
                        open_.proc.name, open_.proc.line, KINDS[open_.is_function], kw), ln))
                close(le, ln)
            comment_from, comment_to, pending = le, None, []
            continue
        # a header
        if open_ is not None:
            res.problems.append(Problem("unbalanced", MSG_NO_END_BEFORE_HEADER.format(
                open_.proc.name, open_.proc.line, _end_word(open_.is_function)), ln))
            close(pos - 1, ln - 1)
        sig = _signature(text, m.end("kw"), memo)
        if sig is None or isinstance(sig, str):
            res.problems.append(Problem("syntax", MSG_NO_HEADER.format(kw) if sig is None
                                        else MSG_LONG_LIST.format(kw, sig), ln))
            comment_from, comment_to, pending = le, None, []
            continue
        name, params, export, sig_end = sig
        if context is None:
            context = (list(regions), list(conditions))
        proc = Procedure(name=name, is_function=_HEAD_WORDS[head], params=params, export=export,
                         line=ln, end_line=ln, is_async=is_async,
                         region=context[0], conditions=context[1])
        proc.doc = _doc_comment(text, comment_from, comment_to if comment_to is not None else pos)
        for word, rest in pending:
            if word in DIRECTIVES:
                proc.directive = DIRECTIVES[word]
            elif word in ANNOTATIONS:
                proc.annotation = _annotation(word, rest)
        key = (name.lower(), tuple(conditions))
        if key in seen:
            res.problems.append(Problem("duplicate", MSG_DUPLICATE.format(name, seen[key], ln), ln))
        else:
            seen[key] = ln
        open_ = _Open(proc, pos, proc.is_function)
        pending, comment_to = [], None
        tail_end = _line_end(text, sig_end)
        tail = text[sig_end:tail_end]
        if _END_ON_LINE.search(tail) and _END_ON_LINE.search(_STRINGS_AND_COMMENTS.sub(b" ", tail)):
            # a one-line procedure (the end word outside strings and comments)
            line_no += count(b"\n", line_pos, tail_end)
            line_pos = tail_end
            close(tail_end, line_no)
            comment_from = tail_end
    last_line = line_no + count(b"\n", line_pos)
    if open_ is not None:
        res.problems.append(Problem("unbalanced", MSG_NO_END_BEFORE_EOF.format(
            open_.proc.name, open_.proc.line, _end_word(open_.is_function)), open_.proc.line))
        close(len(text), last_line)
    if regions:
        res.problems.append(Problem("unbalanced-region", MSG_REGION_NOT_CLOSED.format(regions[-1]),
                                    region_lines[-1]))
    res.lines = last_line
    first = _STRUCT.search(text)
    res.module_doc = _doc_comment(text, 0, first.start() + 1) if first else ""
    return res


# -- tokens -----------------------------------------------------------------------------------

def split_code(body: bytes) -> tuple[bytes, list[bytes]]:
    """(the body with strings and comments blanked, its string literals)."""
    parts = _STRINGS_AND_COMMENTS.split(body)
    return b" ".join(parts[0::2]), [s for s in parts[1::2] if s[:1] != b"/"]


# Reversed identifier bytes → the name as written. Per process (a worker), bounded: the same
# few thousand names are called everywhere, so each is decoded once, and the model's token
# strings are shared objects (the parse's pickle stores each once per chunk).
_NAMES: dict[bytes, str] = {}
_NAMES_MAX = 400_000


def _name(rev: bytes) -> str:
    n = _NAMES.get(rev)
    if n is None:
        n = rev[::-1].decode()
        if len(_NAMES) < _NAMES_MAX:
            _NAMES[rev] = n
    return n


# ``\.[ \t]*+(word)`` (reversed) for the class words a body holds: its positions without visiting
# every other ``Слово.`` of the body in Python. Per set of words, bounded.
_WORDS_AT: dict[frozenset[bytes], re.Pattern[bytes]] = {}


def _class_words_at(words: frozenset[bytes]) -> re.Pattern[bytes]:
    got = _WORDS_AT.get(words)
    if got is None:
        got = re.compile(rb"\.[ \t]*+(" + b"|".join(map(re.escape, sorted(words))) + rb")(?!" + _W + rb")")
        if len(_WORDS_AT) < 4096:
            _WORDS_AT[words] = got
    return got


# Reversed identifier bytes of an unqualified call → its name, or "" for a keyword that looks
# like a call (``Если (``): decided once per name, bounded like ``_NAMES``.
_LOCAL_NAMES: dict[bytes, str] = {}


def _local_name(rev: bytes) -> str:
    n = _name(rev)
    if n.lower() in _NOT_CALLS:
        n = ""
    if len(_LOCAL_NAMES) < _NAMES_MAX:
        _LOCAL_NAMES[rev] = n
    return n


def add_tokens(proc: Procedure, body: bytes, common_module: tuple[bytes, ...]) -> None:
    """Calls and metadata usages of one body, as written (the linker resolves them).
    ``common_module``: the ``ОбщийМодуль(`` spellings its module holds (most hold none, and a
    body cannot hold one its module lacks: two searches per module instead of per body)."""
    code, strings = split_code(body)
    rev = code[::-1]
    local, qualified = proc.local_calls, proc.qualified_calls
    # a set: a body calls the same few names many times, and every token lands in a set anyway
    names = _NAMES
    for name, q1, q2 in set(_REV_CALL.findall(rev)):
        if not q1:
            n = _LOCAL_NAMES.get(name)
            if n is None:
                n = _local_name(name)
            if n:
                local.add(n)
            continue
        n = names.get(name) or _name(name)
        q = names.get(q1) or _name(q1)
        qualified.add((q, n))
        if q2:                    # Справочники.X.Имя( — a manager call, or deeper: kept as X.Имя
            cls = MANAGER_WORDS.get(q2)
            if cls:
                proc.usages.add((cls, q, "call:" + n))
    n_code = len(code)
    # Positions only of the class words there are (most bodies have none): C-level first.
    hits = _MANAGER_KEYS.intersection(_REV_QUALIFIER.findall(rev))
    for m in _class_words_at(frozenset(hits)).finditer(rev) if hits else ():
        cls = MANAGER_WORDS[m.group(1)]
        after = _AFTER_NAME.match(code, n_code - m.start())   # just after the dot
        if after:
            method = (after.group(2) or b"").decode().lower()
            proc.usages.add((cls, after.group(1).decode(),
                             "write" if method.startswith(_WRITE_METHODS) else "code"))
    if strings:
        joined = b"\n".join(strings)
        rj = joined[::-1]
        n_str = len(joined)
        hits = _QUERY_KEYS.intersection(_REV_QUALIFIER.findall(rj))
        for m in _class_words_at(frozenset(hits)).finditer(rj) if hits else ():
            cls = QUERY_WORDS[m.group(1)]
            after = _NAME.match(joined, n_str - m.start())
            if after:
                proc.usages.add((cls, after.group(1).decode(), "query"))
    _literal_calls(proc, body, common_module)


def _literal_calls(proc: Procedure, body: bytes, common_module: tuple[bytes, ...]) -> None:
    """The ``ОбщийМодуль("Имя")`` calls of a body whose module holds ``common_module``."""
    for word in common_module:
        i = body.find(word)
        while i >= 0:
            _literal_module_call(body, i, len(word), proc)
            i = body.find(word, i + 1)


def _literal_module_call(body: bytes, at: int, size: int, proc: Procedure) -> None:
    """Calls through ``ОбщийМодуль("Имя")`` at ``at``: direct, or through the variable the line
    assigns it to (``Модуль = ОбщегоНазначения.ОбщийМодуль("Имя"); Модуль.Проц(``)."""
    arg = _CM_ARG.match(body, at + size)
    if not arg:
        return
    module = arg.group(1).decode()
    direct = _CM_DIRECT.match(body, arg.end())
    if direct:
        proc.literal_module_calls.add((module, direct.group(1).decode()))
    var = _CM_VAR.match(body, body.rfind(b"\n", 0, at) + 1, at)
    if var:
        name = var.group(1).decode().lower()
        proc.literal_module_calls |= {(module, n) for q, n in proc.qualified_calls if q.lower() == name}


# -- the compiled scanner ----------------------------------------------------------------------
# ``_bslscan`` (``_bslscan.c``, an optional extension: a machine without a C compiler installs
# without it) replays ``scan_module_pure`` on the bytes; the tables and the rare Unicode steps
# stay here and are handed to it once.

def _case_forms(*words: str) -> list[tuple[list[tuple[bytes, bytes]], bool, bool]]:
    """Each word as (its characters' lower and upper UTF-8 forms, is an end word, is a function):
    ``_spellings``' alternation, letter by letter."""
    return [([(ch.lower().encode(), ch.upper().encode()) for ch in w], w.lower() in _END_WORDS,
             _END_WORDS.get(w.lower(), _HEAD_WORDS.get(w.lower(), False)))
            for w in sorted(set(words), key=len, reverse=True)]


# The C source beside this file (a checkout or an editable install; an installed wheel has none).
_SOURCE = Path(__file__).with_name("_bslscan.c")


def _source_sha(path: Path) -> str:
    """What setup.py builds into the extension as its SOURCE_SHA: the source's sha256, 16 hex."""
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


def _load_compiled() -> object | None:
    """The compiled scanner, configured; or None: not built (an optional extension: silent),
    turned off (``V8ATLAS_PURE_SCANNER``), or unusable — a build of another ``_bslscan.c`` than
    the one beside this file (an editable install keeps the .so it built), or a configure that
    failed — which one warning on stderr names before the Python scanner takes over."""
    if os.environ.get("V8ATLAS_PURE_SCANNER", "") not in ("", "0"):
        return None
    try:
        from . import _bslscan  # type: ignore[attr-defined]
    except ImportError:
        return None
    built = getattr(_bslscan, "SOURCE_SHA", None)
    source = _source_sha(_SOURCE) if _SOURCE.is_file() else built
    if built != source:
        reason = (f"it was built from another _bslscan.c (sha256 {built}; the source here is {source}): "
                  f"rebuild with `pip install -e .`")
    else:
        try:
            _bslscan.configure(_config())
            return _bslscan
        except Exception as e:  # noqa: BLE001 — any failure: the Python scanner gives the same answers
            reason = f"its configure failed ({type(e).__name__}: {e})"
    print(f"v8atlas: the compiled BSL scanner is not used: {reason}; scanning in Python", file=sys.stderr)
    return None


# The Procedure fields the compiled scanner passes, positionally and in this order (a keyword
# call costs SSL 3.1.12's 38,310 procedures ~40 ms more): body, inserts, deletes as their defaults
# (b"", 0, 0), literal_module_calls a new set.
_PROC_FIELDS = ("name", "is_function", "params", "export", "directive", "annotation", "is_async", "region",
                "conditions", "doc", "line", "end_line", "body", "inserts", "deletes", "local_calls",
                "qualified_calls", "literal_module_calls", "usages")


def _proc_fields() -> tuple[str, ...]:
    """``_PROC_FIELDS``, when they are the first of Procedure's constructor (else configure fails:
    the Python scanner takes over)."""
    if init_fields(Procedure)[:len(_PROC_FIELDS)] != _PROC_FIELDS:
        raise ValueError("Procedure's fields are not the ones _bslscan passes")
    return _PROC_FIELDS


def _config() -> dict[str, object]:
    """What ``_bslscan.configure`` takes: the tables and callbacks this file owns."""
    return {
        "Procedure": Procedure, "Problem": Problem, "DIRECTIVES": DIRECTIVES, "ANNOTATIONS": ANNOTATIONS,
        "PP_REGION": _PP_REGION, "PP_END_REGION": _PP_END_REGION, "PP_IF": _PP_IF, "PP_ELSIF": _PP_ELSIF,
        "PP_ELSE": _PP_ELSE, "PP_END_IF": _PP_END_IF, "PP_INSERT": _PP_INSERT, "PP_DELETE": _PP_DELETE,
        "PARAMS": _PARAMS, "params_of": _params_of, "then_sub": lambda s: _PP_THEN.sub("", s),
        "annotation_of": _annotation, "doc_rules": _without_rules, "literal_calls": _literal_calls,
        # the class words as written forwards: C reads the code forwards
        "MANAGER_FWD": {k[::-1]: v for k, v in MANAGER_WORDS.items()},
        "QUERY_FWD": {k[::-1]: v for k, v in QUERY_WORDS.items()},
        "NOT_CALLS": _NOT_CALLS,
        "fields": _proc_fields(),
        "END_PROCEDURE": _end_word(False), "END_FUNCTION": _end_word(True),
        "MSG_NOT_OPEN": MSG_NOT_OPEN, "MSG_IF_NOT_OPEN": MSG_IF_NOT_OPEN,
        "MSG_REGION_NOT_CLOSED": MSG_REGION_NOT_CLOSED, "MSG_UNMATCHED": MSG_UNMATCHED,
        "MSG_CLOSED_BY": MSG_CLOSED_BY, "MSG_NO_END_BEFORE_HEADER": MSG_NO_END_BEFORE_HEADER,
        "MSG_NO_END_BEFORE_EOF": MSG_NO_END_BEFORE_EOF, "MSG_NO_HEADER": MSG_NO_HEADER,
        "MSG_DUPLICATE": MSG_DUPLICATE, "KIND_PROCEDURE": KINDS[0], "KIND_FUNCTION": KINDS[1],
        "NOT": NOT, "MSG_DEEP_REGION": MSG_DEEP_REGION, "MSG_DEEP_IF": MSG_DEEP_IF, "MAX_DEPTH": MAX_DEPTH,
        "MSG_LONG_LIST": MSG_LONG_LIST, "MAX_LIST_BYTES": MAX_LIST_BYTES, "MAX_LIST_LINES": MAX_LIST_LINES,
        "STRUCT": _case_forms(*_STRUCT_WORDS),
        "ASYNC": _case_forms(*_ASYNC_WORDS), "EXPORT": _case_forms("Экспорт", "Export"),
        "ENDS": _case_forms("КонецПроцедуры", "КонецФункции", "EndProcedure", "EndFunction"),
    }


def _decode_compiled(data: bytes) -> tuple[bytes | None, Problem | None]:
    text = _compiled.decode(data) if type(data) is bytes else None  # type: ignore[attr-defined]
    return (text, None) if text is not None else decode_module_pure(data)


def _scan_compiled(data: bytes) -> ScanResult:
    if type(data) is not bytes:       # the C reads bytes objects; anything else as before
        return scan_module_pure(data)
    procedures, problems, regions, lines, module_doc = _compiled.scan(  # type: ignore[attr-defined]
        data, tuple(w for w in _COMMON_MODULE_WORDS if w in data))
    return ScanResult(procedures, problems, regions, lines, module_doc)


def use_compiled(on: bool) -> bool:
    """Decode and scan with the compiled scanner (``on``, when it is built) or in Python;
    whether the compiled one is now in use."""
    global _scan, _decode
    on = on and _compiled is not None
    _scan, _decode = (_scan_compiled, _decode_compiled) if on else (scan_module_pure, decode_module_pure)
    return on


_compiled = _load_compiled()
_scan, _decode = scan_module_pure, decode_module_pure     # the module's scanner (``use_compiled``)
use_compiled(True)
