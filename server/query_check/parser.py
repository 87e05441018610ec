"""Recursive-descent parser of the 1C query language (batches, unions, joins, virtual tables).

Composition-schema braces are handled as the schema does: `{ВЫБРАТЬ …}`, `{ГДЕ …}`,
`{ХАРАКТЕРИСТИКИ …}` and the like are field lists for the report settings — skipped; braces
around a join, a condition or a parameter are optional parts of the query — read through.
"""
from __future__ import annotations

from . import ast as A
from .lexer import EOF, FRAGMENT, IDENT, NUMBER, PARAM, PUNCT, STRING, Token, Tokens, tokenize, word_key
from .words import FUNCTION, SOFT

_JOIN_WORDS = {"LEFT", "RIGHT", "FULL", "INNER", "JOIN"}
_COMPARE = {"=", "<>", "<", ">", "<=", ">="}
_ARITH = {"+": 0, "-": 0, "*": 1, "/": 1, "%": 1}
_PREDICATE_WORDS = {"NOT", "IN", "BETWEEN", "LIKE", "IS", "REFS"}
# Keywords after which an expression is over (a lone path before one needs no precedence climb).
_EXPR_END = {"AS", "FROM", "INTO", "WHERE", "GROUP", "HAVING", "UNION", "ORDER", "TOTALS", "FOR", "INDEX",
             "AUTOORDER", "BY", "ASC", "DESC", "HIERARCHY", "ONLY", "THEN", "ELSE", "END", "WHEN",
             "LEFT", "RIGHT", "FULL", "INNER", "JOIN"}
# Words after `{` that open a settings block of a composition schema, not query text.
_DCS_BLOCKS = {"SELECT", "WHERE", "ORDER", "GROUP", "TOTALS", "ХАРАКТЕРИСТИКИ", "CHARACTERISTICS",
               "BY"}
# Words that end an expression list / a clause.
_CLAUSE_END = {"FROM", "WHERE", "GROUP", "HAVING", "UNION", "ORDER", "TOTALS", "FOR", "INTO", "INDEX",
               "AUTOORDER", "BY", "LEFT", "RIGHT", "FULL", "INNER", "JOIN", "WHEN", "THEN", "ELSE",
               "END", "AS", "ASC", "DESC", "HIERARCHY", "AND", "OR"}


class ParseError(Exception):
    def __init__(self, message: str, line: int, col: int) -> None:
        super().__init__(message)
        self.message, self.line, self.col = message, line, col


def _strip_dcs(toks: Tokens) -> tuple[Tokens, bool]:
    """Drop composition-schema braces: settings blocks whole, other braces alone."""
    kinds, texts = toks.kinds, toks.texts
    keep: list[int] = []
    saw = False
    n = len(kinds)
    i = 0
    while i < n:
        if kinds[i] == PUNCT and texts[i] == "{":
            saw = True
            nxt = i + 1 if i + 1 < n else i
            depth, j, fields = 0, i, False
            while j < n and kinds[j] != EOF:
                if kinds[j] == PUNCT and texts[j] == "{":
                    depth += 1
                elif kinds[j] == PUNCT and texts[j] == "}":
                    depth -= 1
                    if depth == 0:
                        break
                elif texts[j] == "*" and texts[j - 1] == ".":
                    fields = True                    # `{(Склад).* КАК Склад}`: a field list
                j += 1
            if fields or kinds[nxt] == IDENT and (toks.kws[nxt] in _DCS_BLOCKS
                                                  or word_key(texts[nxt]) in _DCS_BLOCKS):
                if kinds[j] == EOF:                  # the block runs to the end: nothing to read after it
                    raise ParseError("`{` is not closed by `}`", *toks.pos(i))
                i = j + 1
                continue
            i += 1
            continue
        if kinds[i] == PUNCT and texts[i] == "}":
            saw = True
            i += 1
            continue
        keep.append(i)
        i += 1
    return toks.subset(keep), saw


class Parser:
    def __init__(self, text: str) -> None:
        toks = tokenize(text)
        self.dcs = False
        if "{" in text or "}" in text:
            toks, self.dcs = _strip_dcs(toks)
        self.toks = toks
        # Parallel lists (lexer.Tokens): the parser asks about every token many times.
        self.kinds, self.texts, self.kws = toks.kinds, toks.texts, toks.kws
        self.pos = toks.pos                      # line and column of token i
        self.last = len(self.kinds) - 1
        self.i = 0

    # -- token helpers -----------------------------------------------------------------------
    def kind_at(self, k: int = 0) -> str:
        return self.kinds[min(self.last, self.i + k)]

    def kw_at(self, k: int = 0) -> str | None:
        """The keyword of the token ``k`` ahead (None for a non-keyword)."""
        return self.kws[min(self.last, self.i + k)]

    def at_kw(self, *words: str) -> bool:
        return self.kws[self.i] in words

    def at_punct(self, *chars: str) -> bool:
        i = self.i
        return self.kinds[i] == PUNCT and self.texts[i] in chars

    def punct_at(self, k: int, ch: str) -> bool:
        j = min(self.last, self.i + k)
        return self.kinds[j] == PUNCT and self.texts[j] == ch

    def advance(self) -> int:
        """Move past the current token; its index."""
        i = self.i
        if i < self.last:
            self.i = i + 1
        return i

    def accept_kw(self, *words: str) -> bool:
        if self.kws[self.i] in words:
            self.advance()
            return True
        return False

    def expect_kw(self, word: str, what: str) -> int:
        if self.kws[self.i] != word:
            raise self.error(f"expected {what}")
        return self.advance()

    def expect_punct(self, ch: str) -> int:
        if not self.at_punct(ch):
            raise self.error(f"expected `{ch}`")
        return self.advance()

    def error(self, message: str) -> ParseError:
        i = self.i
        shown = "end of text" if self.kinds[i] == EOF else f"`{self.texts[i]}`"
        return ParseError(f"{message}, found {shown}", *self.pos(i))

    def is_name(self, i: int) -> bool:
        """A word that may be a name: not a keyword, or a soft one."""
        return self.kinds[i] == IDENT and (self.kws[i] is None or self.kws[i] in SOFT)

    def name(self, what: str = "a name") -> str:
        """An identifier (its text); soft keywords count, reserved words do not."""
        i = self.i
        k = self.kws[i]
        if self.kinds[i] == IDENT and (k is None or k in SOFT):
            self.i = i + 1                   # a word is never the EOF token: no bound to check
            return self.texts[i]
        raise self.error(f"expected {what}")

    # -- statements --------------------------------------------------------------------------
    def batch(self) -> list[A.Statement]:
        out: list[A.Statement] = []
        while True:
            while self.at_punct(";"):
                self.advance()
            if self.kinds[self.i] == EOF:
                return out
            out.append(self.statement())
            if not self.at_punct(";") and self.kinds[self.i] != EOF:
                raise self.error("expected `;` or the end of the query")

    def statement(self) -> A.Statement:
        line, col = self.pos(self.i)
        if self.accept_kw("DROP"):
            return A.Drop(line, col, self.name("a temporary table name"))
        return self.query()

    def query(self) -> A.Query:
        line, col = self.pos(self.i)
        parts = [self.select_part()]
        while self.accept_kw("UNION"):
            self.accept_kw("ALL")
            parts.append(self.select_part())
        q = A.Query(line, col, parts)
        while True:
            k = self.kws[self.i]
            if k == "ORDER":
                self.advance()
                self.expect_kw("BY", "ПО after УПОРЯДОЧИТЬ")
                q.order_by += self.order_list()
            elif k == "AUTOORDER":
                self.advance()
            elif k == "TOTALS":
                self.advance()
                q.totals += self.totals()
            elif k == "FOR" and self.kw_at(1) == "UPDATE":
                self.advance(), self.advance()
                q.for_update += self.for_update_tables()
            elif k == "INDEX":
                self.advance()
                self.expect_kw("BY", "ПО after ИНДЕКСИРОВАТЬ")
                q.index_by += self.expr_list()
            else:
                return q

    def select_part(self) -> A.Select:
        if self.at_punct("(") and self.kw_at(1) == "SELECT":   # (ВЫБРАТЬ …) ОБЪЕДИНИТЬ …
            self.advance()
            inner = self.query()
            self.expect_punct(")")
            return inner.parts[0]
        t = self.expect_kw("SELECT", "ВЫБРАТЬ")
        sel = A.Select(*self.pos(t), [])
        while True:
            if self.accept_kw("ALLOWED"):
                continue
            if self.accept_kw("DISTINCT"):
                sel.distinct = True
                continue
            if self.at_kw("TOP"):
                self.advance()
                if self.kinds[self.i] != NUMBER:
                    raise self.error("expected a number after ПЕРВЫЕ")
                sel.top = self.texts[self.advance()]
                continue
            break
        sel.items = self.select_items()
        if self.at_kw("INTO"):
            self.advance()
            pos = self.pos(self.i)
            sel.into, sel.into_pos = self.name("a temporary table name"), pos
        if self.accept_kw("FROM"):
            sel.sources = self.sources()
        self.select_tail(sel)
        if self.accept_kw("WHERE"):
            sel.where = self.expr()
        self.select_tail(sel)
        if self.at_kw("GROUP"):
            self.advance()
            self.expect_kw("BY", "ПО after СГРУППИРОВАТЬ")
            sel.group_by = self.group_list()
        if self.accept_kw("HAVING"):
            sel.having = self.expr()
        self.select_tail(sel)
        return sel

    def select_tail(self, sel: A.Select) -> None:
        """ДЛЯ ИЗМЕНЕНИЯ and ИНДЕКСИРОВАТЬ ПО of one select (read leniently at any clause end)."""
        while True:
            k = self.kws[self.i]
            if k == "FOR" and self.kw_at(1) == "UPDATE":
                self.advance(), self.advance()
                sel.for_update += self.for_update_tables()
            elif k == "INDEX" and self.kw_at(1) == "BY":
                self.advance(), self.advance()
                sel.index_by += self.expr_list()
            else:
                return

    def select_items(self) -> list[A.SelectItem]:
        items = []
        kinds, texts = self.kinds, self.texts
        while True:
            i = self.i
            line, col = self.pos(i)
            if kinds[i] == PUNCT and texts[i] == "*":
                self.i = i + 1
                items.append(A.SelectItem(line, col, A.Path(line, col, [], star=True)))
            else:
                e = self.expr()
                items.append(A.SelectItem(line, col, e, self.alias()))
            i = self.i
            if kinds[i] != PUNCT or texts[i] != ",":
                return items
            self.i = i + 1

    def alias(self) -> str | None:
        i = self.i
        k = self.kws[i]
        if k == "AS":
            self.i = i + 1
            return self.name("an alias after КАК")
        if k is None and self.kinds[i] == IDENT:
            self.i = i + 1
            return self.texts[i]
        return None

    def order_list(self) -> list[A.Expr]:
        out = []
        while True:
            out.append(self.expr())
            self.accept_kw("ASC") or self.accept_kw("DESC") or self.accept_kw("HIERARCHY")
            self.accept_kw("ASC") or self.accept_kw("DESC")
            if not self.at_punct(","):
                return out
            self.advance()

    def group_list(self) -> list[A.Expr]:
        if self.at_kw("GROUPING") and self.kw_at(1) == "SETS":
            self.advance(), self.advance()
            self.expect_punct("(")
            out: list[A.Expr] = []
            while not self.at_punct(")"):
                if self.at_punct("("):
                    self.advance()
                    if not self.at_punct(")"):
                        out += self.expr_list()
                    self.expect_punct(")")
                else:
                    out.append(self.expr())
                if self.at_punct(","):
                    self.advance()
            self.advance()
            return out
        return self.expr_list()

    def expr_list(self) -> list[A.Expr]:
        out = [self.expr()]
        kinds, texts = self.kinds, self.texts
        while kinds[self.i] == PUNCT and texts[self.i] == ",":
            self.i += 1
            out.append(self.expr())
        return out

    def totals(self) -> list[A.Expr]:
        out: list[A.Expr] = []
        if not self.at_kw("BY"):
            while True:
                out.append(self.expr())
                self.alias()
                if not self.at_punct(","):
                    break
                self.advance()
        self.expect_kw("BY", "ПО in ИТОГИ")
        while True:
            if self.accept_kw("OVERALL"):
                pass
            else:
                out.append(self.expr())
                self.alias()
                self.accept_kw("ONLY")
                self.accept_kw("HIERARCHY")
                if self.accept_kw("PERIODS"):
                    self.expect_punct("(")
                    self.expr_list()
                    self.expect_punct(")")
            if not self.at_punct(","):
                return out
            self.advance()

    def for_update_tables(self) -> list[A.TypeName]:
        out = []
        while self.kinds[self.i] == IDENT and self.kws[self.i] is None:
            line, col = self.pos(self.i)
            out.append(A.TypeName(line, col, self.dotted()))
            if not self.at_punct(","):
                break
            self.advance()
        return out

    def dotted(self) -> list[str]:
        parts = [self.name()]
        while self.at_punct(".") and self.kind_at(1) == IDENT:
            self.advance()
            parts.append(self.texts[self.advance()])
        return parts

    # -- sources -----------------------------------------------------------------------------
    def sources(self) -> list[A.Source]:
        out = [self.join_chain()]
        while self.at_punct(","):
            self.advance()
            out.append(self.join_chain())
        return out

    def join_kind(self) -> str | None:
        k = self.kws[self.i]
        if k in ("LEFT", "RIGHT", "FULL", "INNER") and self.punct_at(1, "("):
            return None
        if k == "JOIN":
            return "INNER"
        if k in ("LEFT", "RIGHT", "FULL", "INNER"):
            return k
        return None

    def join_chain(self) -> A.Source:
        left = self.source()
        while (kind := self.join_kind()) is not None:
            left = self.join(left, kind)
        return left

    def join(self, left: A.Source, kind: str) -> A.Join:
        t = self.advance()
        word = self.kws[t]
        if kind != "INNER" or word == "INNER":
            self.accept_kw("OUTER")
            if word != "JOIN":
                self.expect_kw("JOIN", "СОЕДИНЕНИЕ")
        right = self.source()
        while (inner := self.join_kind()) is not None:   # nested: А ЛЕВОЕ СОЕДИНЕНИЕ Б ЛЕВОЕ СОЕДИНЕНИЕ В ПО … ПО …
            right = self.join(right, inner)
        self.expect_kw("BY", "ПО (the join condition)")
        return A.Join(*self.pos(t), kind, left, right, self.expr())

    def source(self) -> A.Source:
        i = self.i
        line, col = self.pos(i)
        if self.at_punct("("):
            if self.kw_at(1) == "SELECT":
                self.advance()
                q = self.query()
                self.expect_punct(")")
                return A.SubquerySource(line, col, q, self.alias())
            self.advance()
            inner = self.join_chain()
            self.expect_punct(")")
            return inner
        kind = self.kinds[i]
        if kind in (PARAM, FRAGMENT):
            self.advance()
            return A.TableSource(line, col, [self.texts[i]], alias=self.alias(), dynamic=True)
        if not self.is_name(i):
            raise self.error("expected a table")
        parts = self.dotted()
        src = A.TableSource(line, col, parts)
        if self.at_punct("("):
            src.params = self.table_params()
        src.alias = self.alias()
        return src

    def table_params(self) -> list[A.Expr | None]:
        self.expect_punct("(")
        out: list[A.Expr | None] = []
        expect_value = True
        while not self.at_punct(")"):
            if self.kinds[self.i] == EOF:
                raise self.error("expected `)` closing the table parameters")
            if self.at_punct(","):
                if expect_value:
                    out.append(None)
                self.advance()
                expect_value = True
                continue
            out.append(self.expr())
            expect_value = False
        if expect_value and out:
            out.append(None)
        self.advance()
        return out

    # -- expressions -------------------------------------------------------------------------
    def expr(self) -> A.Expr:
        # A name or dotted path that is the whole expression (most select items, group and
        # order items) is built directly instead of through every precedence level.
        i, kinds, texts, kws = self.i, self.kinds, self.texts, self.kws
        if kinds[i] == IDENT and kws[i] is None:
            j = i + 1
            while kinds[j] == PUNCT and texts[j] == "." and kinds[j + 1] == IDENT:
                j += 2
            end = kinds[j]
            if end == EOF or end == PUNCT and texts[j] in (",", ")", ";") or kws[j] in _EXPR_END:
                self.i = j
                return A.Path(*self.pos(i), texts[i:j:2])
        left = self.and_expr()
        while self.kws[self.i] == "OR":
            t = self.advance()
            left = A.Op(*self.pos(t), "OR", [left, self.and_expr()])
        return left

    def and_expr(self) -> A.Expr:
        left = self.not_expr()
        while self.kws[self.i] == "AND":
            t = self.advance()
            left = A.Op(*self.pos(t), "AND", [left, self.not_expr()])
        return left

    def not_expr(self) -> A.Expr:
        if self.kws[self.i] == "NOT":
            t = self.advance()
            return A.Op(*self.pos(t), "NOT", [self.not_expr()])
        return self.predicate()

    def predicate(self) -> A.Expr:
        left = self._binary(0)
        i = self.i
        if self.kinds[i] == PUNCT:
            op = self.texts[i]
            if op in _COMPARE:
                self.i += 1   # `А <> ИСТИНА В (…)`: the right side is a whole predicate
                return A.Op(*self.pos(i), op, [left, self.predicate()])
            return left
        if self.kws[i] not in _PREDICATE_WORDS:
            return left
        line, col = self.pos(i)
        negated = False
        if self.at_kw("NOT") and self.kw_at(1) in ("IN", "BETWEEN", "LIKE", "REFS"):
            self.advance()
            negated = True
        k = self.kws[self.i]
        if k == "IN":
            self.advance()
            op = "IN"
            if self.accept_kw("HIERARCHY"):
                op = "IN_HIERARCHY"
            return A.Op(line, col, op, [left, *self.in_list()], negated)
        if k == "BETWEEN":
            self.advance()
            low = self.additive()
            self.expect_kw("AND", "И in МЕЖДУ")
            return A.Op(line, col, "BETWEEN", [left, low, self.additive()], negated)
        if k == "LIKE":
            self.advance()
            args = [left, self.additive()]
            if self.accept_kw("ESCAPE"):
                args.append(self.additive())
            return A.Op(line, col, "LIKE", args, negated)
        if k == "IS":
            self.advance()
            neg = self.accept_kw("NOT")
            self.expect_kw("NULL", "NULL after ЕСТЬ")
            return A.Op(line, col, "IS_NULL", [left], neg)
        if k == "REFS":
            self.advance()
            tline, tcol = self.pos(self.i)
            return A.Op(line, col, "REFS", [left], negated, A.TypeName(tline, tcol, self.dotted()))
        if negated:
            raise self.error("expected В, МЕЖДУ, ПОДОБНО or ССЫЛКА after НЕ")
        return left

    def in_list(self) -> list[A.Expr]:
        line, col = self.pos(self.i)
        if not self.at_punct("("):
            if self.kinds[self.i] == PARAM:     # `В &Список`: read it; an error here would not be certain
                return [A.Param(line, col, self.texts[self.advance()])]
            raise self.error("expected `(` after В")
        self.advance()
        if self.at_kw("SELECT"):
            q = self.query()
            self.expect_punct(")")
            return [A.Subquery(line, col, q)]
        if self.at_punct(")"):
            raise self.error("expected a value list in В (…)")
        out = self.expr_list()
        self.expect_punct(")")
        return out

    def additive(self) -> A.Expr:
        """Arithmetic by precedence climbing: one loop instead of a call per level."""
        return self._binary(0)

    def _binary(self, min_prec: int) -> A.Expr:
        kinds, texts = self.kinds, self.texts
        i = self.i
        if kinds[i] == PUNCT and texts[i] in ("-", "+"):
            self.i += 1
            left: A.Expr = A.Op(*self.pos(i), "NEG", [self._binary(2)])
        else:
            left = self.primary()
        while True:
            i = self.i
            prec = _ARITH.get(texts[i]) if kinds[i] == PUNCT else None
            if prec is None or prec < min_prec:
                return left
            self.i += 1
            left = A.Op(*self.pos(i), texts[i], [left, self._binary(prec + 1)])

    def primary(self) -> A.Expr:
        i = self.i
        kind, text = self.kinds[i], self.texts[i]
        if kind == IDENT:
            k = self.kws[i]
            if k is None and not self.punct_at(1, "("):
                return self.path()                   # the common case: a name or a path
        line, col = self.pos(i)
        if kind == NUMBER:
            self.advance()
            return A.Literal(line, col, text, "number")
        if kind == STRING:
            self.advance()
            return A.Literal(line, col, text, "string")
        if kind == PARAM:
            self.advance()
            return A.Param(line, col, text)
        if kind == FRAGMENT:
            self.advance()
            return A.Fragment(line, col, "#" + text)
        if kind == PUNCT and text == "%":
            self.advance()
            if self.kinds[self.i] == NUMBER:
                return A.Fragment(line, col, "%" + self.texts[self.advance()])
            raise self.error("expected an expression")
        if kind == PUNCT and text == "(":
            self.advance()
            if self.at_kw("SELECT"):
                q = self.query()
                self.expect_punct(")")
                return A.Subquery(line, col, q)
            items = self.expr_list()
            self.expect_punct(")")
            return items[0] if len(items) == 1 else A.Op(line, col, "TUPLE", items)
        if kind != IDENT:
            raise self.error("expected an expression")
        k = self.kws[i]
        nxt_paren = self.punct_at(1, "(")
        if k in ("TRUE", "FALSE"):
            self.advance()
            return A.Literal(line, col, text, "bool")
        if k == "NULL":
            self.advance()
            return A.Literal(line, col, text, "null")
        if k == "UNDEFINED":
            self.advance()
            return A.Literal(line, col, text, "undefined")
        if k == "CASE":
            return self.case()
        if k in ("VALUE", "TYPE") and nxt_paren:
            self.advance(), self.advance()
            parts = self.value_path()
            self.expect_punct(")")
            return A.ValueRef(line, col, "value" if k == "VALUE" else "type", parts)
        if k == "CAST" and nxt_paren:
            self.advance(), self.advance()
            e = self.expr()
            self.expect_kw("AS", "КАК in ВЫРАЗИТЬ")
            ty = self.type_name()
            self.expect_punct(")")
            cast = A.Cast(line, col, e, ty)
            if self.at_punct(".") and self.kind_at(1) == IDENT:
                return self.path_tail(A.Path(line, col, [], base=cast))
            return cast
        if nxt_paren and (k is None or k in SOFT or word_key(self.texts[i]) in FUNCTION):
            return self.call()
        if k is not None and k not in SOFT:
            raise self.error("expected an expression")
        return self.path()

    def value_path(self) -> list[str]:
        if self.kinds[self.i] == PARAM:           # ТИП(&Тип): filled in by the module
            return ["&" + self.texts[self.advance()]]
        if self.kinds[self.i] != IDENT:
            raise self.error("expected a name")
        parts = [self.texts[self.advance()]]
        while self.at_punct("."):
            self.advance()
            if self.kinds[self.i] != IDENT:
                raise self.error("expected a name after `.`")
            parts.append(self.texts[self.advance()])
        return parts

    def type_name(self) -> A.TypeName:
        if self.kinds[self.i] != IDENT:
            raise self.error("expected a type")
        line, col = self.pos(self.i)
        ty = A.TypeName(line, col, self.value_path())
        if self.at_punct("("):
            self.advance()
            while not self.at_punct(")"):
                if self.kinds[self.i] == EOF:
                    raise self.error("expected `)`")
                j = self.advance()
                if self.kinds[j] == NUMBER:
                    ty.size.append(self.texts[j])
            self.advance()
        return ty

    def call(self) -> A.Call:
        t = self.advance()
        self.expect_punct("(")
        c = A.Call(*self.pos(t), self.texts[t], word_key(self.texts[t]), [])
        if self.at_punct("*"):
            self.advance()
            c.star = True
        else:
            if self.accept_kw("DISTINCT"):
                c.distinct = True
            elif self.accept_kw("ALL"):
                pass
            if not self.at_punct(")"):
                while True:
                    if self.at_punct(","):          # ДОБАВИТЬКДАТЕ(, …) is not valid, but
                        c.args.append(A.Literal(*self.pos(self.i), "", "omitted"))
                    else:
                        c.args.append(self.expr())
                    if not self.at_punct(","):
                        break
                    self.advance()
        self.expect_punct(")")
        return c

    def case(self) -> A.Case:
        t = self.advance()
        subject = None if self.at_kw("WHEN") else self.expr()
        whens = []
        while self.accept_kw("WHEN"):
            cond = self.expr()
            self.expect_kw("THEN", "ТОГДА")
            whens.append((cond, self.expr()))
        if not whens:
            raise self.error("expected КОГДА in ВЫБОР")
        default = self.expr() if self.accept_kw("ELSE") else None
        self.expect_kw("END", "КОНЕЦ closing ВЫБОР")
        return A.Case(*self.pos(t), subject, whens, default)

    def path(self) -> A.Path:
        t = self.advance()
        p = A.Path(*self.pos(t), [self.texts[t]])
        if self.kinds[self.i] != PUNCT or self.texts[self.i] != ".":     # the common case: a bare name
            return p
        return self.path_tail(p)

    def path_tail(self, p: A.Path) -> A.Path:
        kinds, texts = self.kinds, self.texts
        while True:
            i = self.i
            if kinds[i] != PUNCT or texts[i] != ".":
                return p
            self.i = i = i + 1
            if kinds[i] == IDENT:                            # `.Поле`: the common case
                p.parts.append(texts[i])
                self.i += 1
                continue
            if self.at_punct("*"):
                self.advance()
                p.star = True
                break
            if self.at_punct("("):                  # Т.Товары.(Номенклатура, Количество)
                self.advance()
                p.nested = self.select_items()
                self.expect_punct(")")
                break
            raise self.error("expected a field name after `.`")
        return p


def parse(text: str) -> tuple[list[A.Statement], bool, list[Token]]:
    """Statements of ``text``, whether it had composition-schema braces, its template fragments."""
    p = Parser(text)
    stmts = p.batch()
    frags = [p.toks.token(i) for i, k in enumerate(p.kinds) if k == FRAGMENT] if FRAGMENT in p.kinds else []
    return stmts, p.dcs, frags
