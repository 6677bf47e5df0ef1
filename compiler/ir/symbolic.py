"""Symbolic dimensions: the ``?`` dims of a function as integer expressions.

A ``Dim`` is either a symbol (``s3``, a run-time i64 the host computes) or
an arithmetic node over symbols and ints.  ``str(d)`` is a C expression, so
kernel emitters that format shapes into C keep working when a dim is a
``Dim``; ``+ - * // %`` build new nodes (folding ints).  Equality is
structural; ``d == 1`` with an int is False (an unknown size is not assumed
to be any particular number), ordering comparisons and ``int(d)`` raise
``UnsupportedOpError``: code that needs a concrete size must handle dynamic
dims explicitly.  Sizes are non-negative, so ``//`` is C's ``/``.
"""
from __future__ import annotations

from ..errors import UnsupportedOpError

_PREC = {"+": 1, "-": 1, "*": 2, "/": 2, "%": 2}


class Dim:
    __slots__ = ("op", "args", "_hash")

    def __init__(self, op: str, args: tuple):
        self.op = op              # "sym", "+", "-", "*", "/", "%", "max", "min"
        self.args = args          # sym: (number,); otherwise two operands
        self._hash = hash((op, args))

    @staticmethod
    def symbol(n: int) -> "Dim":
        return Dim("sym", (n,))

    @property
    def is_symbol(self) -> bool:
        return self.op == "sym"

    def symbols(self) -> set:
        """The symbols this expression reads."""
        if self.op == "sym":
            return {self}
        out = set()
        for a in self.args:
            if isinstance(a, Dim):
                out |= a.symbols()
        return out

    def substitute(self, fn):
        """This expression with every symbol ``s`` replaced by ``fn(s)``."""
        if self.op == "sym":
            return fn(self)
        a, b = (x.substitute(fn) if isinstance(x, Dim) else x for x in self.args)
        return make(self.op, a, b)

    def evaluate(self, env: dict) -> int:
        if self.op == "sym":
            return env[self]
        a, b = (x.evaluate(env) if isinstance(x, Dim) else x for x in self.args)
        return _fold(self.op, a, b)

    # -- printing ----------------------------------------------------------------
    def __str__(self) -> str:
        if self.op == "sym":
            return f"s{self.args[0]}"
        a, b = self.args
        if self.op in ("max", "min"):
            cmp = ">" if self.op == "max" else "<"
            return f"(({a}) {cmp} ({b}) ? ({a}) : ({b}))"
        return f"({a} {self.op} {b})"

    __repr__ = __str__

    # -- arithmetic -------------------------------------------------------------------
    def __add__(self, o): return make("+", self, o)
    def __radd__(self, o): return make("+", o, self)
    def __sub__(self, o): return make("-", self, o)
    def __rsub__(self, o): return make("-", o, self)
    def __mul__(self, o): return make("*", self, o)
    def __rmul__(self, o): return make("*", o, self)
    def __floordiv__(self, o): return make("/", self, o)
    def __rfloordiv__(self, o): return make("/", o, self)
    def __mod__(self, o): return make("%", self, o)
    def __rmod__(self, o): return make("%", o, self)

    # -- comparisons --------------------------------------------------------------------
    def __eq__(self, o):
        return isinstance(o, Dim) and self._hash == o._hash and self.op == o.op and self.args == o.args

    def __ne__(self, o):
        return not self.__eq__(o)

    def __hash__(self):
        return self._hash

    def __bool__(self):
        return True               # "may be non-zero": the safe answer for shortcuts

    def _undecidable(self, o):
        raise UnsupportedOpError("shape comparison", f"{self} against {o} with dynamic dims "
                                 "(this op needs a static size here)")

    __lt__ = __le__ = __gt__ = __ge__ = _undecidable

    def __index__(self):
        raise UnsupportedOpError("shape", f"dimension {self} with dynamic dims: a static size "
                                 "is needed here")

    __int__ = __index__


def _fold(op, a, b):
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    if op == "/":
        return a // b if b else 0
    if op == "%":
        return a % b if b else 0
    return max(a, b) if op == "max" else min(a, b)


def make(op, a, b):
    """``a op b`` folded where ints allow."""
    if isinstance(a, int) and isinstance(b, int):
        return _fold(op, a, b)
    if op == "+":
        if a == 0 and isinstance(a, int):
            return b
        if b == 0 and isinstance(b, int):
            return a
    elif op == "-":
        if isinstance(b, int) and b == 0:
            return a
        if isinstance(a, Dim) and a == b:
            return 0
        if isinstance(a, Dim) and a.op == "+" and a.args[1] == b and not isinstance(b, int):
            return a.args[0]
    elif op == "*":
        for x, y in ((a, b), (b, a)):
            if isinstance(x, int):
                if x == 1:
                    return y
                if x == 0:
                    return 0
    elif op == "/":
        if isinstance(b, int) and b == 1:
            return a
        if isinstance(a, Dim) and a.op == "*":
            x, y = a.args
            if y == b:
                return x
            if x == b:
                return y
            if isinstance(b, int) and isinstance(y, int) and y % b == 0:
                return make("*", x, y // b)
    return Dim(op, (a, b))


def cdiv(a, b):
    """ceil(a / b) for non-negative a and positive b."""
    if isinstance(a, int) and isinstance(b, int):
        return -(-a // b)
    return make("/", make("+", a, make("-", b, 1)), b)


def is_dynamic(d) -> bool:
    return isinstance(d, Dim)


def shape_product(shape):
    n = 1
    for d in shape:
        n = make("*", n, d)
    return n
