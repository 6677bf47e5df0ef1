"""Tokens of the VM assembly text (one line at a time, on demand).

Kept apart from the assembler so that the grammar code reads as grammar.
Strings are JSON string literals; ``;`` starts a comment outside strings.
"""
from __future__ import annotations

import json
import re
from typing import NamedTuple

from .errors import AssemblyError

_NAME = r"[A-Za-z0-9_.$\-]+"
_PATTERNS = [
    ("num", re.compile(r"[-+]?(?:0[xX][0-9a-fA-F]+|(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)"
                       r"|[-+](?:inf|nan)\b")),
    ("reg", re.compile(r"%([A-Za-z0-9_.$]+)")),
    ("idx", re.compile(r"#(\d+)")),
    ("ident", re.compile(r"[A-Za-z_][A-Za-z0-9_.$]*")),
    ("punct", re.compile(r"->|[()\[\]{},=:*<>]")),
]
_BARE_SYMBOL = re.compile(_NAME)
_JSON = json.JSONDecoder()


class Token(NamedTuple):
    kind: str      # num reg sym idx str hex ident punct end
    value: object  # text for most kinds; decoded str / bytes for str / hex
    line: int
    column: int    # 1-based


class Cursor:
    """Reads the tokens of one line; every error names line and column."""

    def __init__(self, text: str, line: int):
        self.text, self.line, self.pos = text, line, 0
        self._peeked = None

    def error(self, message: str, token: Token | None = None) -> AssemblyError:
        col = token.column if token is not None else self.pos + 1
        return AssemblyError(message, self.line, col)

    def _skip(self):
        t = self.text
        while self.pos < len(t) and t[self.pos] in " \t\r":
            self.pos += 1
        if self.pos < len(t) and t[self.pos] == ";":
            self.pos = len(t)

    def _json_string(self, start: int):
        try:
            value, end = _JSON.raw_decode(self.text, start)
        except json.JSONDecodeError as e:
            raise AssemblyError(f"bad string literal: {e.msg}", self.line, start + 1) from None
        if not isinstance(value, str):
            raise AssemblyError("expected a string literal", self.line, start + 1)
        return value, end

    def next(self) -> Token:
        if self._peeked is not None:
            tok, self._peeked = self._peeked, None
            return tok
        self._skip()
        t, p = self.text, self.pos
        if p >= len(t):
            return Token("end", None, self.line, p + 1)
        c = t[p]
        if c == '"':
            value, self.pos = self._json_string(p)
            return Token("str", value, self.line, p + 1)
        if t.startswith('hex"', p):
            end = t.find('"', p + 4)
            if end < 0:
                raise AssemblyError("unterminated hex literal", self.line, p + 1)
            digits = "".join(t[p + 4:end].split())
            try:
                value = bytes.fromhex(digits)
            except ValueError:
                raise AssemblyError("hex literal needs an even number of hex digits",
                                    self.line, p + 1) from None
            self.pos = end + 1
            return Token("hex", value, self.line, p + 1)
        if c == "@":
            if t.startswith('"', p + 1):
                value, self.pos = self._json_string(p + 1)
            else:
                m = _BARE_SYMBOL.match(t, p + 1)
                if not m:
                    raise AssemblyError("expected a symbol name after '@'", self.line, p + 1)
                value, self.pos = m.group(), m.end()
            return Token("sym", value, self.line, p + 1)
        for kind, rx in _PATTERNS:
            m = rx.match(t, p)
            if m:
                self.pos = m.end()
                value = m.group(1) if kind in ("reg", "idx") else m.group()
                return Token(kind, value, self.line, p + 1)
        raise AssemblyError(f"unexpected character {c!r}", self.line, p + 1)

    def peek(self) -> Token:
        if self._peeked is None:
            self._peeked = self.next()
        return self._peeked

    def accept(self, value: str) -> Token | None:
        """Consume the next token if it is the punctuation/keyword ``value``."""
        tok = self.peek()
        if tok.kind in ("punct", "ident") and tok.value == value:
            return self.next()
        return None

    def expect(self, kind: str, value: str | None = None, what: str | None = None) -> Token:
        tok = self.next()
        if tok.kind != kind or (value is not None and tok.value != value):
            want = what or (repr(value) if value is not None else kind)
            got = "end of line" if tok.kind == "end" else repr(tok.value)
            raise self.error(f"expected {want}, got {got}", tok)
        return tok

    def expect_end(self):
        tok = self.next()
        if tok.kind != "end":
            raise self.error(f"unexpected {tok.value!r} at end of line", tok)

    def json_object(self):
        """A JSON object starting at the next non-blank character."""
        assert self._peeked is None
        self._skip()
        start = self.pos
        try:
            value, self.pos = _JSON.raw_decode(self.text, start)
        except json.JSONDecodeError as e:
            raise AssemblyError(f"bad JSON: {e.msg}", self.line, e.pos + 1) from None
        if not isinstance(value, dict):
            raise AssemblyError("expected a JSON object", self.line, start + 1)
        return value


def parse_int(tok: Token, cursor: Cursor) -> int:
    text = tok.value if tok.kind == "num" else None
    try:
        if text is None:
            raise ValueError
        neg = text.startswith("-")
        body = text.lstrip("+-")
        v = int(body, 16) if body[:2] in ("0x", "0X") else int(body, 10)
        return -v if neg else v
    except ValueError:
        raise cursor.error(f"expected an integer, got {tok.value!r}", tok) from None


def parse_float_text(tok: Token, cursor: Cursor) -> float:
    if tok.kind == "ident" and tok.value in ("inf", "nan"):
        return float(tok.value)
    if tok.kind == "num":
        body = tok.value.lstrip("+-")
        try:
            v = float(int(body, 16)) if body[:2] in ("0x", "0X") else float(body)
        except ValueError:
            v = None
        if v is not None:
            return -v if tok.value.startswith("-") else v
    raise cursor.error(f"expected a number, got {tok.value!r}", tok)
