"""Pretty (custom assembly) op forms, as a parser mixin.

Most ops share one shape: ``name items [{attrs}] [: types]`` where the
items are operands, ``key = value`` pairs (mapped to the generic attribute
names by ``KEYWORDS``), positional enums (``compare LT, ..., FLOAT``) and a
bare literal (``constant dense<...>``).  Ops with their own syntax are in
``SPECIAL`` (see ``region_forms.py`` for the ones that carry regions).
"""
from __future__ import annotations

import re

from ..dialects.registry import OPS
from ..ir import attributes as A
from ..ir.types import FunctionType, TensorType, TupleType, is_complex
from .attr_parser import STRUCT_DEFAULTS
from .region_forms import RegionFormsMixin

# bare op names (``return``), from each declaration's ``bare_name``
NAME_ALIASES = {d.bare_name: n for n, d in OPS.items() if d.bare_name}
# results-less ops: the registry's terminators, and names it does not declare
ZERO_RESULT_OPS = frozenset(n for n, d in OPS.items() if d.terminator) | frozenset((
    "chlo.return", "sdy.return", "interpreter.print", "stablehlo.outfeed_void"))
_LITERAL_WORDS = frozenset(("dense", "dense_resource", "array", "sparse"))
_FORMAT = re.compile(r"e(\d+)m(\d+)$")


def _dims(attr):
    def conv(p, attrs, op):
        attrs[attr] = A.DenseArrayAttr("i64", tuple(p.parse_int_list("dims list")))
    return conv


def _i64(attr, ty="i64"):
    def conv(p, attrs, op):
        t = p.tok
        if t.kind != "int":
            raise p.error(f"expected an integer for '{attr}', got '{t.text}'", t)
        p.advance()
        attrs[attr] = A.IntAttr(int(t.text, 0) if "x" in t.text else int(t.text), ty)
    return conv


def _string(attr):
    def conv(p, attrs, op):
        t = p.tok
        if t.kind != "string":
            raise p.error(f"expected a string for '{attr}', got '{t.text}'", t)
        attrs[attr] = p.parse_attribute()
    return conv


def _enum(attr, kind):
    def conv(p, attrs, op):
        t = p.tok
        if t.kind != "ident":
            raise p.error(f"expected a {kind} name, got '{t.text}'", t)
        p.advance()
        attrs[attr] = A.EnumAttr("stablehlo", kind, t.text)
    return conv


def _precision(p, attrs, op):
    p.expect("[", "to start the precision list")
    items = []
    if not p.accept("]"):
        while True:
            t = p.tok
            if t.kind != "ident":
                raise p.error(f"expected a precision (DEFAULT, HIGH, HIGHEST), got '{t.text}'", t)
            items.append(A.EnumAttr("stablehlo", "precision", p.advance().text))
            if not p.accept(","):
                break
        p.expect("]", "in precision list", alt="','")
    attrs["precision_config"] = A.ArrayAttr(tuple(items))


def _dim_pair(kind):
    def conv(p, attrs, op):
        lhs = p.parse_int_list(f"{kind} dims list")
        x = p.tok
        if x.text != "x":
            raise p.error(f"expected 'x' between lhs and rhs {kind} dims", x)
        p.advance()
        rhs = p.parse_int_list(f"{kind} dims list")
        attrs[f"lhs_{kind}_dimensions"] = tuple(lhs)
        attrs[f"rhs_{kind}_dimensions"] = tuple(rhs)
    return conv


def _format(p, attrs, op):
    t = p.tok
    m = _FORMAT.match(t.text)
    if t.kind != "ident" or m is None:
        raise p.error(f"expected a format like e5m10, got '{t.text}'", t)
    p.advance()
    attrs["exponent_bits"] = A.IntAttr(int(m.group(1)), "i32")
    attrs["mantissa_bits"] = A.IntAttr(int(m.group(2)), "i32")


def _algorithm(p, attrs, op):
    p.expect("<", "to start the dot algorithm")
    attrs["algorithm"] = p.parse_struct_body("stablehlo.dot_algorithm")


_S = "stablehlo."
# ``key = value`` items of pretty forms: the registry's ``keywords`` (dims lists
# , i64 integers and strings; dialects/registry.py, which the printer reads too), plus the
# items with a converter of their own below
_KINDS = {"dims": _dims, "int": _i64, "string": _string}
KEYWORDS = {d.name: {kw: _KINDS[kind](attr) for kw, attr, kind in d.keywords}
            for d in OPS.values() if d.keywords}
for _name, _items in {
    # parsed, and printed in the attribute dict
    _S + "dynamic_broadcast_in_dim": {"known_expanding_dimensions": _dims("known_expanding_dimensions"),
                                      "known_nonexpanding_dimensions": _dims("known_nonexpanding_dimensions")},
    _S + "reduce_precision": {"format": _format},
    _S + "rng_bit_generator": {"algorithm": _enum("rng_algorithm", "rng_algorithm")},
    _S + "rng": {"distribution": _enum("rng_distribution", "rng_distribution")},
    _S + "fft": {"type": _enum("fft_type", "fft_type")},
    _S + "dot": {"precision": _precision},
    _S + "dot_general": {"batching_dims": _dim_pair("batching"),
                         "contracting_dims": _dim_pair("contracting"),
                         "precision": _precision, "algorithm": _algorithm},
}.items():
    KEYWORDS.setdefault(_name, {}).update(_items)
POSITIONAL = {
    _S + "compare": (("comparison_direction", "comparison_direction"),
                     ("compare_type", "comparison_type")),
}


def _finish_dot_general(attrs):
    fields = dict(STRUCT_DEFAULTS["stablehlo.dot"])
    for k in list(fields):
        if k in attrs:
            fields[k] = attrs.pop(k)
    attrs["dot_dimension_numbers"] = A.StructAttr("stablehlo.dot", fields)


FINISH = {_S + "dot_general": _finish_dot_general}


class OpFormsMixin(RegionFormsMixin):
    """Dispatches pretty op names to their parsers."""

    def parse_pretty_op(self, loc, nres):
        name_tok = self.advance()
        name = NAME_ALIASES.get(name_tok.text, name_tok.text)
        special = SPECIAL.get(name)
        if special is not None:
            return getattr(self, special)(name, name_tok, loc, nres)
        return self.parse_default_form(name, name_tok, loc, nres)

    def parse_int_list(self, what: str) -> list:
        self.expect("[", f"to start the {what}")
        vals = []
        if not self.accept("]"):
            while True:
                t = self.tok
                if t.kind != "int":
                    raise self.error(f"expected an integer in {what}, got '{t.text}'", t)
                vals.append(int(t.text, 0) if "x" in t.text else int(t.text))
                self.advance()
                if not self.accept(","):
                    break
            self.expect("]", f"in {what}", alt="','")
        return vals

    def _next_is(self, text: str) -> bool:
        save = self.save()
        self.advance()
        ok = self.tok.text == text
        self.restore(save)
        return ok

    def parse_items(self, name, attrs, keywords=None, positional=()):
        """Comma-separated operands, ``key = value`` pairs, positional enums
        and literals; returns the operand tokens."""
        keywords = KEYWORDS.get(name, {}) if keywords is None else keywords
        toks = []
        pi = 0
        while True:
            t = self.tok
            if t.kind == "value":
                toks.append(self.advance())
            elif t.kind == "ident" and self._next_is("="):
                self.advance()
                self.advance()
                conv = keywords.get(t.text)
                if conv is not None:
                    conv(self, attrs, name)
                else:
                    attrs[t.text] = self.parse_attribute()
            elif t.kind == "ident" and t.text not in _LITERAL_WORDS and pi < len(positional):
                attr, kind = positional[pi]
                attrs[attr] = A.EnumAttr("stablehlo", kind, self.advance().text)
                pi += 1
            elif t.kind in ("hash", "int", "float", "string") or t.text in _LITERAL_WORDS:
                attrs["value"] = self.parse_attribute()
            else:
                raise self.error(f"unexpected '{t.text}' in the operands of '{name}'", t)
            if not self.accept(","):
                return toks

    def _items_start(self, name) -> bool:
        t = self.tok
        if t.kind == "value":
            return True
        if t.kind == "ident":
            return t.text in _LITERAL_WORDS or name in POSITIONAL or self._next_is("=")
        return t.kind == "hash"

    def parse_signature(self):
        """After ``:``: ``(T, ..) -> R``, ``T, .. -> R`` or ``T, ..``.
        Returns (types, result types or None)."""
        if self.tok.text == "(":
            fty = self.parse_type()
            if isinstance(fty, FunctionType):
                return list(fty.inputs), list(fty.results)
            types = [fty]
        else:
            types = [self.parse_type()]
        while self.accept(","):
            types.append(self.parse_type())
        if self.accept("->"):
            return types, self.parse_result_types()
        return types, None

    def parse_default_form(self, name, name_tok, loc, nres, regions=()):
        if self.tok.text == "(" and not regions:      # a bare name with the generic body
            return self.parse_generic_body(name, loc)
        attrs = {}
        if self.tok.text == "{":
            attrs.update(self.parse_attr_dict())
        toks = []
        if self._items_start(name):
            toks = self.parse_items(name, attrs, positional=POSITIONAL.get(name, ()))
        if self.tok.text == "{":
            attrs.update(self.parse_attr_dict())
        finish = FINISH.get(name)
        if finish is not None:
            finish(attrs)
        types, outs = (None, None)
        if self.accept(":"):
            types, outs = self.parse_signature()
        if outs is not None:
            if len(types) != len(toks):
                raise self.error(f"custom op '{name}' {len(toks)} operands present, but expected "
                                 f"{len(types)}", name_tok)
            rtypes = outs
            operands = self.resolve_operands(toks, types)
        else:
            self.check_type_list(name, name_tok, toks, types)
            operands = self.resolve_operands(toks)
            rtypes = self.infer_results(name, name_tok, nres, types, attrs)
        return self.make_op(name, operands, rtypes, attrs, regions, loc)

    def check_type_list(self, name, name_tok, toks, types) -> None:
        """The type lists of the pretty forms that MLIR's parsers constrain:
        ``select`` takes (predicate, value) types, ``tuple`` one tuple type
        with one element per operand."""
        if types is None:
            return
        if name == _S + "select" and len(types) != 2:
            raise self.error(f"custom op '{name}' expected functional type or list of two types",
                             name_tok)
        if name == _S + "optimization_barrier" and len(types) != len(toks):
            raise self.error(f"custom op '{name}' number of operands and types do not match: "
                             f"got {len(toks)} operands and {len(types)} types", name_tok)
        if name == _S + "complex" and (len(types) != 1 or not isinstance(types[0], TensorType)
                                      or not is_complex(types[0].element)):
            raise self.error(f"custom op '{name}' expected tensor with complex element type", name_tok)
        if name == _S + "tuple":
            if len(types) != 1 or not isinstance(types[0], TupleType):
                raise self.error(f"custom op '{name}' expected tuple type", name_tok)
            if len(types[0].types) != len(toks):
                raise self.error(f"custom op '{name}' number of operands and types do not match: "
                                 f"got {len(toks)} operands and {len(types[0].types)} types", name_tok)

    def infer_results(self, name, name_tok, nres, types, attrs) -> list:
        if types is None:
            value = attrs.get("value")
            if nres and isinstance(value, A.DenseElementsAttr):
                return [value.type] * nres
            if nres:
                raise self.error(f"expected ':' and the result type of '{name}'", self.tok)
            return []
        if nres is None:
            if name in ZERO_RESULT_OPS or name.startswith(("check.", "func.")):
                return []
            return [types[-1]]
        if nres > len(types):
            raise self.error(f"'{name}' binds {nres} results but only {len(types)} types "
                             "were given", name_tok)
        return types[len(types) - nres:]

    # -- small special forms --
    def parse_call(self, name, name_tok, loc, nres):
        sym = self.tok
        if sym.kind != "sym":
            raise self.error(f"expected the callee (@name) of '{name}'", sym)
        callee = self.parse_symbol_ref()
        self.expect("(", "to start the call operands")
        toks = self.parse_operand_list()
        attrs = self.parse_attr_dict() if self.tok.text == "{" else {}
        fty = self.parse_trailing_function_type(name)
        operands = self.resolve_operands(toks, fty.inputs)
        if name == "func.call":
            attrs["callee"] = callee
        else:
            attrs["call_target_name"] = A.StringAttr(callee.name)
        return self.make_op(name, operands, fty.results, attrs, (), loc)

    def parse_composite(self, name, name_tok, loc, nres):
        t = self.tok
        if t.kind != "string":
            raise self.error("expected the composite name as a string", t)
        attr_name = self.parse_attribute()
        op = self.parse_default_form(name, name_tok, loc, nres)
        op.attributes = {"name": attr_name, **op.attributes}
        return op

    def parse_get_tuple_element(self, name, name_tok, loc, nres):
        t = self.tok
        if t.kind != "value":
            raise self.error(f"expected a tuple operand, got '{t.text}'", t)
        self.advance()
        idx = self.parse_int_list("tuple index")
        if len(idx) != 1:
            raise self.error("expected exactly one tuple index", t)
        attrs = self.parse_attr_dict() if self.tok.text == "{" else {}
        attrs["index"] = A.IntAttr(idx[0], "i32")
        return self.finish_op(name, name_tok, loc, nres, [t], attrs, attr_dict=False)

    def parse_slice(self, name, name_tok, loc, nres):
        t = self.tok
        if t.kind != "value":
            raise self.error(f"expected the operand of '{name}', got '{t.text}'", t)
        self.advance()
        if self.tok.text == ",":       # keyword spelling: slice %x, start_indices = ...
            self.advance()
            attrs = {}
            self.parse_items(name, attrs)
            toks = [t]
        else:
            starts, limits, strides = [], [], []
            self.expect("[", "to start the slice ranges")
            if not self.accept("]"):
                while True:
                    parts = []
                    for _ in range(3):
                        p = self.tok
                        if p.kind != "int":
                            raise self.error(f"expected an integer in slice range, got '{p.text}'", p)
                        parts.append(int(self.advance().text))
                        if not self.accept(":"):
                            break
                    if len(parts) < 2:
                        raise self.error("expected 'start:limit' or 'start:limit:stride'", self.tok)
                    starts.append(parts[0])
                    limits.append(parts[1])
                    strides.append(parts[2] if len(parts) == 3 else 1)
                    if not self.accept(","):
                        break
                self.expect("]", "in slice ranges", alt="','")
            attrs = {"start_indices": A.DenseArrayAttr("i64", tuple(starts)),
                     "limit_indices": A.DenseArrayAttr("i64", tuple(limits)),
                     "strides": A.DenseArrayAttr("i64", tuple(strides))}
            toks = [t]
        return self.finish_op(name, name_tok, loc, nres, toks, attrs)

    def parse_paren_default(self, name, name_tok, loc, nres):
        """``chlo.top_k(%x, k = 2) : T -> (T, T)``."""
        self.expect("(", f"after '{name}'")
        attrs = {}
        toks = self.parse_items(name, attrs)
        self.expect(")", f"after the operands of '{name}'", alt="','")
        return self.finish_op(name, name_tok, loc, nres, toks, attrs)

    def finish_op(self, name, name_tok, loc, nres, toks, attrs, attr_dict=True):
        """The end every own form shares: an optional attribute dict, then
        ``: signature``; the operand tokens ``toks`` resolved against it and
        the results inferred where the signature gives only operand types."""
        if attr_dict and self.tok.text == "{":
            attrs.update(self.parse_attr_dict())
        self.expect(":", f"and the type of '{name}'")
        types, outs = self.parse_signature()
        operands = self.resolve_operands(toks, types if outs is not None else None)
        rtypes = outs if outs is not None else self.infer_results(name, name_tok, nres, types, attrs)
        return self.make_op(name, operands, rtypes, attrs, (), loc)


# the parser method of each op with a form of its own: its declaration's
# ``parser``, and the sdy ops (not in the registry)
SPECIAL = {**{n: d.parser for n, d in OPS.items() if d.parser},
           "sdy.mesh": "parse_sdy_mesh",
           "sdy.manual_computation": "parse_sdy_manual_computation",
           "sdy.sharding_constraint": "parse_sdy_sharding_constraint"}
