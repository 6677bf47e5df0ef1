"""Pull lexer for MLIR text.

Tokens are produced on demand so the parser can hand raw spans (dense
literals, tensor dims, opaque dialect bodies) to fast regex scanners and
then continue lexing after them.  ``loc(...)`` locations are skipped here.
"""
from __future__ import annotations

import bisect
import re

from ..errors import ParseError

_WS = re.compile(r"(?:[ \t\r\n\f]+|//[^\n]*)*")
_TOKEN = re.compile(r"""
 (?P<value>%[\w$.\-]+(?:\#\d+)?)
|(?P<sym>@(?:[\w$.\-]+|"[^"\\]*(?:\\.[^"\\]*)*"))
|(?P<caret>\^[\w$.\-]+)
|(?P<hash>\#[\w$.\-]+)
|(?P<bang>![\w$.\-]+)
|(?P<float>[-+]?\d+\.\d*(?:[eE][-+]?\d+)?|[-+]?\d+[eE][-+]?\d+)
|(?P<int>[-+]?0x[0-9a-fA-F]+|[-+]?\d+)
|(?P<string>"[^"\\\n]*(?:\\.[^"\\\n]*)*")
|(?P<ident>[A-Za-z_][\w$.]*)
|(?P<punct>->|::|[()\[\]{}<>,:=?*+\-|])
""", re.X)
_STRING_OR_PAREN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[()]')
_ESCAPE = re.compile(r"\\([0-9a-fA-F]{2}|.)", re.S)
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_SIMPLE_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\", "r": "\r"}


class Token:
    """One lexed token: kind, text and source offset."""
    __slots__ = ("kind", "text", "pos", "end")

    def __init__(self, kind: str, text: str, pos: int, end: int):
        self.kind = kind      # value sym caret hash bang float int string ident punct eof
        self.text = text
        self.pos = pos
        self.end = end

    def __repr__(self) -> str:
        return f"Token({self.kind}, {self.text!r}@{self.pos})"


def unescape(body: str) -> str:
    """The value of an MLIR string literal body (between the quotes)."""
    if "\\" not in body:
        return body

    def sub(m):
        e = m.group(1)
        if len(e) == 2:
            return chr(int(e, 16))
        return _SIMPLE_ESCAPES.get(e, e)
    return _ESCAPE.sub(sub, body)


class Lexer:
    """Tokenises ``text`` lazily; ``pos`` is the offset after the last token."""

    def __init__(self, text: str, filename: str = "<input>", source=None):
        self.text = text
        self.filename = filename
        self.source = source         # source.Source whose skeleton ``text`` is: columns
        self.pos = 0
        self._line_starts = None
        self.skipped_loc = False     # the last next() skipped a loc(...)

    # -- positions --
    def line_col(self, pos: int) -> tuple:
        if self._line_starts is None:
            self._line_starts = [0] + [m.end() for m in re.finditer("\n", self.text)]
        i = bisect.bisect_right(self._line_starts, pos) - 1
        start = self._line_starts[i]
        cut = self.source.column_shift(start, pos) if self.source is not None else 0
        return i + 1, pos - start + cut + 1

    def error(self, message: str, pos: int) -> ParseError:
        line, col = self.line_col(pos)
        return ParseError(message, line, col, self.filename)

    # -- scanning --
    def skip_ws_at(self, pos: int) -> int:
        return _WS.match(self.text, pos).end()

    def skip_ws(self) -> int:
        self.pos = _WS.match(self.text, self.pos).end()
        return self.pos

    def next(self) -> Token:
        """The next token (``loc(...)`` skipped); kind ``eof`` at the end."""
        text = self.text
        self.skipped_loc = False
        while True:
            pos = _WS.match(text, self.pos).end()
            if pos >= len(text):
                self.pos = pos
                return Token("eof", "", pos, pos)
            m = _TOKEN.match(text, pos)
            if m is None:
                if text[pos] == '"':
                    raise self.error("unterminated string literal", pos)
                raise self.error(f"unexpected character {text[pos]!r}", pos)
            self.pos = end = m.end()
            kind = m.lastgroup
            tok = m.group(kind)
            if kind == "ident" and tok == "loc" and text.startswith("(", end):
                self.pos = self.skip_balanced(end)
                self.skipped_loc = True
                continue
            return Token(kind, tok, pos, end)

    def skip_balanced(self, pos: int) -> int:
        """Offset after the ``)`` matching the ``(`` at ``pos`` (strings honoured)."""
        depth = 0
        for m in _STRING_OR_PAREN.finditer(self.text, pos):
            t = m.group()
            if t == "(":
                depth += 1
            elif t == ")":
                depth -= 1
                if depth == 0:
                    return m.end()
        raise self.error("unbalanced '(' in location", pos)

    def scan_angle_body(self, pos: int) -> int:
        """``pos`` is just after a ``<``: offset of the matching ``>``.

        Nested ``<``/``>`` pairs, strings and ``->`` arrows are honoured."""
        text = self.text
        depth = 1
        i = pos
        n = len(text)
        while i < n:
            c = text[i]
            if c == '"':
                m = _STRING.match(text, i)
                if m is None:
                    raise self.error("unterminated string", i)
                i = m.end()
                continue
            if c == "<":
                depth += 1
            elif c == ">" and text[i - 1] != "-":
                depth -= 1
                if depth == 0:
                    return i
            i += 1
        raise self.error("expected '>' to close '<'", pos - 1)
