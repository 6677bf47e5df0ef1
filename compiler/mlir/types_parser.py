"""Type parsing (a mixin of the parser): tensors, tuples, tokens, functions."""
from __future__ import annotations

import re

from ..ir.types import (ELEMENT_TYPES, FunctionType, OpaqueType, ScalarType, TensorType,
                        TokenType, TupleType, UnrankedTensorType, is_builtin_integer)
from ..ir import attributes as A
from ..ir import quant

_UNRANKED = re.compile(r"\s*\*\s*x")
_DIMS = re.compile(r"\s*((?:(?:\?|\d+)\s*x\s*)*)")
_BOUNDS = re.compile(r"#stablehlo\.(?:type_extensions<\s*bounds\s*=\s*\[([^\]]*)\]|bounds<([^>]*))\s*>$")
_QUANT_FLOAT = re.compile(r"(?<![\w.])-?(?:\d+\.\d*(?:[eE][+-]?\d+)?|\d+[eE][+-]?\d+)")
_TYPE_START = frozenset(("tensor", "tuple", "complex", "none", "vector", "memref"))


def is_element_name(word: str) -> bool:
    """Whether ``word`` names an element type: StableHLO's, or a builtin
    integer of another width (the verifier rejects those where ops need
    StableHLO's types)."""
    return word in ELEMENT_TYPES or is_builtin_integer(word)


class TypeParserMixin:
    """Needs ``self.tok``, ``self.lex``, ``advance``, ``expect``, ``error``."""

    def at_type(self) -> bool:
        t = self.tok
        if t.kind == "ident":
            return is_element_name(t.text) or t.text in _TYPE_START
        return t.kind == "bang" or t.text == "("

    def parse_type(self):
        self.enter(self.tok)
        try:
            return self._parse_type()
        finally:
            self.depth -= 1

    def _parse_type(self):
        t = self.tok
        if t.kind == "ident":
            name = t.text
            if name == "tensor":
                return self.parse_tensor_type()
            if name == "tuple":
                self.advance()
                self.expect("<", "after 'tuple'")
                types = []
                if not self.accept(">"):
                    types.append(self.parse_type())
                    while self.accept(","):
                        types.append(self.parse_type())
                    self.expect(">", "to close tuple type", alt="','")
                return TupleType(tuple(types))
            if is_element_name(name) or name in ("complex", "none"):
                return ScalarType(self.parse_element_type())
            if name in ("vector", "memref"):
                self.advance()
                return OpaqueType(name + self.raw_angle())
        if t.kind == "bang":
            return self.parse_bang_type()
        if t.text == "(":
            return self.parse_function_type()
        raise self.error(f"expected a type, got '{t.text}'", t)

    def parse_bang_type(self):
        t = self.advance()
        if t.text == "!stablehlo.token":
            return TokenType()
        if t.text in self.type_aliases and self.tok.text != "<":
            return self.type_aliases[t.text]
        if self.tok.text == "<" and self.tok.pos == t.end:
            text = t.text + self.raw_angle(current_is_open=True)
            if text.startswith("!quant."):       # one spelling per type: 2.0 == 2.000000e+00
                canon = quant.canonical(text)
                text = canon if canon != text else _QUANT_FLOAT.sub(lambda m: f"{float(m.group(0)):e}", text)
            return OpaqueType(text)
        if t.text in ("!stablehlo.token", "!chlo.token"):
            return TokenType()
        raise self.error(f"unknown type '{t.text}'", t)

    def raw_angle(self, current_is_open=False) -> str:
        """Consume ``<...>`` verbatim (the current token is ``<``); return it."""
        tok = self.tok
        if tok.text != "<":
            raise self.error("expected '<'", tok)
        close = self.lex.scan_angle_body(tok.end)
        text = self.lex.text[tok.pos:close + 1]
        self.reset(close + 1)
        return text

    def parse_element_type(self) -> str:
        t = self.tok
        if t.kind == "bang":
            ty = self.parse_bang_type()
            return str(ty)
        if t.kind != "ident":
            raise self.error(f"expected an element type, got '{t.text}'", t)
        if t.text == "complex":
            self.advance()
            self.expect("<", "after 'complex'")
            inner = self.tok
            self.advance()
            self.expect(">", "to close complex type")
            name = f"complex<{inner.text}>"
            if name not in ELEMENT_TYPES:
                raise self.error(f"unknown type '{name}'", t)
            return name
        if not is_element_name(t.text) and t.text != "none":
            raise self.error(f"unknown type '{t.text}'", t)
        self.advance()
        return t.text

    def parse_tensor_type(self) -> TensorType | UnrankedTensorType:
        start = self.advance()            # 'tensor'
        lt = self.tok
        if lt.text != "<":
            raise self.error("expected '<' after 'tensor'", lt)
        m = _UNRANKED.match(self.lex.text, lt.end)
        if m is not None:                 # tensor<*xT> (no encoding, as in MLIR)
            self.reset(m.end())
            element = self.parse_element_type()
            self.expect(">", "to close tensor type")
            return UnrankedTensorType(element)
        m = _DIMS.match(self.lex.text, lt.end)
        dims = m.group(1).replace(" ", "").replace("\t", "").replace("\n", "")
        shape = tuple(None if d == "?" else int(d) for d in dims.split("x")[:-1])
        self.reset(m.end())
        el = self.tok
        try:
            element = self.parse_element_type()
        except Exception:
            close = self.lex.scan_angle_body(lt.end)
            raise self.error(f"unknown type '{self.lex.text[start.pos:close + 1]}'", el) from None
        encoding = None
        if self.accept(","):
            enc_tok = self.tok
            encoding = A.OpaqueAttr(self.encoding_text())
            self.check_bounds(shape, encoding.text, enc_tok)
        self.expect(">", "to close tensor type", alt="','")
        return TensorType(shape, element, encoding)

    def check_bounds(self, shape, text, tok) -> None:
        """``#stablehlo.type_extensions<bounds = [..]>``: one bound per dim, a
        static dim takes ``?`` (StableHLO's TypeExtensionsAttr rule)."""
        m = _BOUNDS.match(text)
        if m is None:
            return
        bounds = [b.strip() for b in (m.group(1) or m.group(2) or "").split(",") if b.strip()]
        if len(bounds) != len(shape):
            raise self.error(f"Bounds length is {len(bounds)}, expected to be equal to rank"
                             f"({len(shape)}) of the tensor", tok)
        for i, (d, b) in enumerate(zip(shape, bounds)):
            if d is not None and b != "?":
                raise self.error(f"Static dimension {i} cannot have a bound, use "
                                 "ShapedType::kDynamic to indicate a missing bound", tok)

    def encoding_text(self) -> str:
        """A tensor encoding's source text, an attribute alias replaced by what
        it stands for (so a printed type needs no alias definitions)."""
        text = self.raw_attribute_text()
        alias = self.attr_aliases.get(text)
        if alias is None:
            return text
        if isinstance(alias, A.OpaqueAttr):
            return alias.text
        from ..ir.printer import attr_str
        return attr_str(alias)

    def raw_attribute_text(self) -> str:
        """Consume one attribute and return its source text (whitespace kept)."""
        start = self.tok.pos
        self.parse_attribute()
        return self.lex.text[start:self.prev_end].strip()

    def parse_function_type(self) -> FunctionType:
        ins = self.parse_paren_types()
        self.expect("->", "in function type")
        return FunctionType(tuple(ins), tuple(self.parse_result_types()))

    def parse_paren_types(self) -> list:
        self.expect("(", "to start a type list")
        types = []
        if not self.accept(")"):
            types.append(self.parse_type())
            while self.accept(","):
                types.append(self.parse_type())
            self.expect(")", "to close the type list", alt="','")
        return types

    def parse_result_types(self) -> list:
        """After ``->``: ``T`` or ``(T, ...)``."""
        if self.tok.text == "(":
            # a parenthesised list, unless it is itself a function type
            save = self.save()
            types = self.parse_paren_types()
            if self.tok.text != "->":
                return types
            self.restore(save)
        return [self.parse_type()]
