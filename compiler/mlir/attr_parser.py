"""Attribute parsing (a mixin of the parser).

Produces the value objects of ``compiler/ir/attributes.py``; dialect
attributes become EnumAttr (``#d<kind V>``), StructAttr (``#d.name<k = v>``,
with known structs normalised to all fields) or OpaqueAttr (anything else).
"""
from __future__ import annotations

import struct

import numpy as np

from ..ir import attributes as A
from ..ir.types import ScalarType, TensorType, is_float, numpy_dtype
from .dense import DenseError, decode_hex, decode_literal, decode_raw
from .lexer import _STRING, unescape
from .types_parser import TypeParserMixin, is_element_name

# Known structs: every field with its default, so pretty and generic agree.
STRUCT_DEFAULTS = {
    "stablehlo.dot": {"lhs_batching_dimensions": (), "rhs_batching_dimensions": (),
                      "lhs_contracting_dimensions": (), "rhs_contracting_dimensions": ()},
    "stablehlo.gather": {"offset_dims": (), "collapsed_slice_dims": (),
                         "operand_batching_dims": (), "start_indices_batching_dims": (),
                         "start_index_map": (), "index_vector_dim": 0},
    "stablehlo.scatter": {"update_window_dims": (), "inserted_window_dims": (),
                          "input_batching_dims": (), "scatter_indices_batching_dims": (),
                          "scatter_dims_to_operand_dims": (), "index_vector_dim": 0},
}
CONV_FIELDS = ("input_batch_dimension", "input_feature_dimension", "input_spatial_dimensions",
               "kernel_input_feature_dimension", "kernel_output_feature_dimension",
               "kernel_spatial_dimensions", "output_batch_dimension",
               "output_feature_dimension", "output_spatial_dimensions")
_TYPE_WORDS = frozenset(("tensor", "tuple", "complex", "none", "vector", "memref"))
_OPAQUE_WORDS = frozenset(("affine_map", "affine_set", "strided", "opaque", "sparse",
                           "distinct"))


def float_from_bits(bits: int, type_name: str) -> float:
    """The value of a float attribute written as a hex bit pattern."""
    if type_name == "f64":
        return struct.unpack("<d", bits.to_bytes(8, "little"))[0]
    dt = numpy_dtype(type_name)
    raw = np.array([bits], dtype=np.uint64).astype(f"u{dt.itemsize}")
    return float(raw.view(dt)[0])


class AttrParserMixin(TypeParserMixin):
    """Parses attribute values; see the module docstring."""

    def parse_attribute(self):
        self.enter(self.tok)
        try:
            return self._parse_attribute()
        finally:
            self.depth -= 1

    def _parse_attribute(self):
        t = self.tok
        k = t.kind
        if k == "int" or k == "float":
            self.advance()
            return self._typed_number(t)
        if k == "string":
            self.advance()
            return A.StringAttr(unescape(t.text[1:-1]))
        if k == "sym":
            return self.parse_symbol_ref()
        if k == "hash":
            return self.parse_hash_attribute()
        if t.text == "[":
            self.advance()
            items = []
            if not self.accept("]"):
                items.append(self.parse_attribute())
                while self.accept(","):
                    items.append(self.parse_attribute())
                self.expect("]", "in array attribute", alt="','")
            return A.ArrayAttr(tuple(items))
        if t.text == "{":
            return self.parse_dict()
        if k == "ident":
            w = t.text
            if w in ("true", "false"):
                self.advance()
                if self.tok.text == ":" and self._colon_type_follows():
                    self.advance()
                    self.parse_type()
                return A.BoolAttr(w == "true")
            if w == "unit":
                self.advance()
                return A.UnitAttr()
            if w == "dense":
                return self.parse_dense()
            if w == "dense_resource":
                return self.parse_dense_resource()
            if w == "array":
                return self.parse_dense_array()
            if w in ("inf", "nan"):
                self.advance()
                return self._typed_number(t)
            if w in _OPAQUE_WORDS:
                self.advance()
                return A.OpaqueAttr(w + (self.raw_angle() if self.tok.text == "<" else ""))
            if is_element_name(w) or w in _TYPE_WORDS:
                return A.TypeAttr(self.parse_type())
        if k == "bang" or t.text == "(":
            return A.TypeAttr(self.parse_type())
        raise self.error(f"expected an attribute value, got '{t.text}'", t)

    def _colon_type_follows(self) -> bool:
        """After a number: is ``: <scalar type>`` next (not an op's ``: tensor``)?"""
        save = self.save()
        self.advance()
        t = self.tok
        ok = t.kind == "ident" and (is_element_name(t.text) or t.text == "complex")
        self.restore(save)
        return ok

    def _typed_number(self, t):
        text = t.text
        ty = None
        if self.tok.text == ":" and self._colon_type_follows():
            self.advance()
            ty = self.parse_type()
        name = ty.element if isinstance(ty, ScalarType) else None
        if ty is not None and name is None:
            raise self.error(f"a number cannot have type {ty}", t)
        if t.kind == "float" or text.lstrip("+-") in ("inf", "nan"):
            if name is not None and not is_float(name):
                raise self.error(f"float literal {text} with non-float type {name}", t)
            return A.FloatAttr(float(text), name or "f64")
        value = int(text, 16) if "x" in text else int(text)
        if name is not None and is_float(name):
            if "x" in text:
                return A.FloatAttr(float_from_bits(value, name), name)
            return A.FloatAttr(float(value), name)
        if name == "i1":
            return A.BoolAttr(bool(value))
        return A.IntAttr(value, name or "i64")

    def parse_symbol_ref(self) -> A.SymbolRefAttr:
        t = self.advance()
        name = self.symbol_name(t)
        nested = []
        while self.tok.text == "::":
            self.advance()
            if self.tok.kind != "sym":
                raise self.error("expected a symbol after '::'", self.tok)
            nested.append(self.symbol_name(self.advance()))
        return A.SymbolRefAttr(name, tuple(nested))

    @staticmethod
    def symbol_name(t) -> str:
        body = t.text[1:]
        return unescape(body[1:-1]) if body.startswith('"') else body

    def parse_dict(self) -> A.DictAttr:
        self.expect("{", "to start an attribute dictionary")
        entries = {}
        if not self.accept("}"):
            while True:
                key_tok = self.tok
                if key_tok.kind == "ident":
                    key = key_tok.text
                elif key_tok.kind == "string":
                    key = unescape(key_tok.text[1:-1])
                else:
                    raise self.error(f"expected an attribute name, got '{key_tok.text}'", key_tok)
                self.advance()
                entries[key] = self.parse_attribute() if self.accept("=") else A.UnitAttr()
                if not self.accept(","):
                    break
            self.expect("}", "in attribute dictionary", alt="','")
        return A.DictAttr(entries)

    # -- dense literals --
    def parse_dense(self) -> A.DenseElementsAttr:
        start = self.advance()
        lt = self.tok
        if lt.text != "<":
            raise self.error("expected '<' after 'dense'", lt)
        text = self.lex.text
        body_start = lt.end
        q = self.lex.skip_ws_at(body_start)
        blob = self.blobs.get(q)            # a long hex string cut out by source.py
        if text.startswith('"', q):
            m = _STRING.match(text, q)
            if m is None:
                raise self.error("unterminated string in dense literal", q)
            close = self.lex.skip_ws_at(m.end())
            if not text.startswith(">", close):
                raise self.error("expected '>' after the dense string", close)
        else:
            close = text.find(">", body_start)
            if close < 0:
                raise self.error("expected '>' to close dense<", lt)
        body = text[body_start:close].strip()
        self.reset(close + 1)
        self.expect(":", "and a type after the dense literal")
        ty_tok = self.tok
        ty = self.parse_type()
        if not isinstance(ty, TensorType):
            raise self.error(f"dense literal needs a tensor type, got {ty}", ty_tok)
        if not ty.is_static:
            raise self.error(f"dense literal needs a static shape, got {ty}", ty_tok)
        try:
            numpy_dtype(ty.element)
        except KeyError:
            raise self.error(f"dense literals of {ty.element} are not supported", ty_tok) from None
        try:
            if blob is not None:
                arr = decode_raw(blob, ty.element, ty.shape)
            elif body.startswith('"'):
                s = unescape(body[1:-1])
                if not s.startswith("0x"):
                    raise DenseError("string dense literals are not supported")
                arr = decode_hex(s[2:], ty.element, ty.shape)
            else:
                arr = decode_literal(body, ty.element, ty.shape)
        except DenseError as e:
            raise self.error(f"{e} (in dense<...> : {ty})", start) from None
        return A.DenseElementsAttr(ty, arr)

    def parse_dense_resource(self):
        start = self.advance()
        self.expect("<", "after 'dense_resource'")
        key = self.advance().text
        self.expect(">", "to close dense_resource")
        self.expect(":", "and a type after dense_resource")
        ty = self.parse_type()
        blob = self.resources.get(key)
        if blob is None:
            raise self.error(f"dense_resource blob '{key}' is not present in the file "
                             "(no {-# dialect_resources #-} entry)", start)
        try:
            if isinstance(blob, str):           # not hex (parser.py kept the digits)
                arr = decode_hex(blob[8:], ty.element, ty.shape)
            else:                               # first 4 bytes: the alignment
                arr = decode_raw(memoryview(blob)[4:], ty.element, ty.shape)
        except DenseError as e:
            raise self.error(f"{e} (in dense_resource<{key}>)", start) from None
        return A.DenseElementsAttr(ty, arr)

    def parse_dense_array(self) -> A.DenseArrayAttr:
        self.advance()
        self.expect("<", "after 'array'")
        el = self.tok
        element = self.parse_element_type()
        values = []
        if self.accept(":"):
            while True:
                v = self.tok
                if v.text in ("true", "false"):
                    values.append(v.text == "true")
                elif v.kind == "int":
                    n = int(v.text, 16) if "x" in v.text else int(v.text)
                    values.append(bool(n) if element == "i1" else
                                  (float_from_bits(n, element) if is_float(element) and "x" in v.text
                                   else (float(n) if is_float(element) else n)))
                elif v.kind == "float" or v.text in ("inf", "nan"):
                    if not is_float(element):
                        raise self.error(f"float value in array<{element}>", v)
                    values.append(float(v.text))
                else:
                    raise self.error(f"expected a value in array<{element}: ...>", v)
                self.advance()
                if not self.accept(","):
                    break
        self.expect(">", f"in array<{element}: ...>", alt="','")
        del el
        return A.DenseArrayAttr(element, tuple(values))

    # -- dialect attributes --
    def parse_hash_attribute(self):
        t = self.advance()
        name = t.text[1:]
        if self.tok.text != "<" or self.tok.pos != t.end:
            alias = self.attr_aliases.get(t.text)
            if alias is None:
                raise self.error(f"undefined attribute alias '{t.text}'", t)
            return alias
        save = self.save()
        self.advance()
        try:
            if "." not in name:
                a, b = self.tok, None
                if a.kind == "ident":
                    self.advance()
                    b = self.tok
                    if b.kind == "ident":
                        self.advance()
                        if self.accept(">"):
                            return A.EnumAttr(name, a.text, b.text)
            else:
                return self.parse_struct_body(name, t)
        except Exception as e:          # not a form we model: keep it verbatim
            if name in STRUCT_DEFAULTS or name in ("stablehlo.conv", "stablehlo.dot_algorithm"):
                raise
            del e
        self.restore(save)
        return A.OpaqueAttr(t.text + self.raw_angle())

    def parse_struct_body(self, name: str, at=None):
        """After ``#name<``: ``k = v, ...>`` (or the conv shorthand); ``at``:
        the ``#name`` token, where attribute errors are reported."""
        if name == "stablehlo.conv" and self.tok.text != "raw":
            fields = self.parse_conv_dims()
            self.expect(">", "to close #stablehlo.conv")
            return A.StructAttr(name, fields)
        if name == "stablehlo.conv":
            self.advance()
        fields = dict(STRUCT_DEFAULTS.get(name, {}))
        start, seen, known = self.tok, set(), STRUCT_DEFAULTS.get(name)
        if not self.accept(">"):
            while True:
                key = self.tok
                if key.kind != "ident":
                    raise self.error(f"expected a field name in #{name}<...>", key)
                if key.text in seen:
                    raise self.error(f"duplicated `{key.text}` entry in #{name}<...>", key)
                if known is not None and key.text not in known:
                    raise self.error(f"expected one of: {', '.join(f'`{k}`' for k in known)} in "
                                     f"#{name}<...>, got `{key.text}`", key)
                seen.add(key.text)
                self.advance()
                self.expect("=", f"after field '{key.text}' of #{name}")
                fields[key.text] = self.parse_struct_value()
                if not self.accept(",") or self.tok.text == ">":   # MLIR allows a trailing comma
                    break
            self.expect(">", f"to close #{name}<...>", alt="','")
        if name == "stablehlo.dot_algorithm":
            self.check_dot_algorithm(fields, start if at is None else at)
        return A.StructAttr(name, fields)

    def check_dot_algorithm(self, fields, tok):
        """DotAlgorithmAttr's own rule, checked where the attribute is written."""
        for key, label in (("lhs_component_count", "lhs component count"),
                           ("rhs_component_count", "rhs component count"),
                           ("num_primitive_operations", "num primitive operations")):
            v = fields.get(key, 1)
            v = getattr(v, "value", v)
            if isinstance(v, int) and v <= 0:
                raise self.error(f"{label} must be positive", tok)
        from ..dialects.stablehlo.contraction import dot_algorithm_error
        problem = dot_algorithm_error(fields)
        if problem is not None:
            raise self.error(problem, tok)

    def parse_struct_value(self):
        t = self.tok
        if t.kind == "int":
            self.advance()
            return int(t.text, 0) if "x" in t.text else int(t.text)
        if t.text == "?":
            self.advance()
            return None
        if t.text == "[":
            self.enter(t)           # bounded nesting: a located error, not RecursionError
            self.advance()
            items = []
            if not self.accept("]"):
                items.append(self.parse_struct_value())
                while self.accept(","):
                    items.append(self.parse_struct_value())
                self.expect("]", "in list", alt="','")
            self.depth -= 1
            return tuple(items)
        return self.parse_attribute()

    def parse_conv_dims(self) -> dict:
        """``[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]``."""
        def group(letters):
            tok = self.tok
            self.expect("[", "to start a convolution dimension list")
            items = []
            if not self.accept("]"):
                while True:
                    items.append(self.advance().text)
                    if not self.accept(","):
                        break
                self.expect("]", "in convolution dimension list", alt="','")
            named = {}
            spatial = {}
            for i, s in enumerate(items):
                if s.isdigit():
                    if int(s) in spatial:
                        raise self.error(f"Duplicate entries for spatial dimension {s}", tok)
                    spatial[int(s)] = i
                elif s in letters and s not in named:
                    named[s] = i
                else:
                    raise self.error(f"unexpected '{s}' in convolution dimensions "
                                     f"(expected {', '.join(letters)} or spatial indices)", tok)
            if set(named) != set(letters) or sorted(spatial) != list(range(len(spatial))):
                raise self.error("convolution dimension list must name "
                                 f"{', '.join(letters)} once and spatial dims 0..n-1", tok)
            return [named[c] for c in letters] + [tuple(spatial[k] for k in range(len(spatial)))]
        lhs = group("bf")
        x = self.tok
        if x.text != "x":
            raise self.error("expected 'x' between convolution input and kernel dims", x)
        self.advance()
        rhs = group("io")
        self.expect("->", "before convolution output dims")
        out = group("bf")
        vals = [lhs[0], lhs[1], lhs[2], rhs[0], rhs[1], rhs[2], out[0], out[1], out[2]]
        return dict(zip(CONV_FIELDS, vals))
