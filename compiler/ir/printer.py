"""IR -> MLIR text.  ``print_module(module, generic=False)``.

Every op has a generic form that re-parses to an equal op.  The pretty form
is used for func.func/return/call, constants, compare and plain ops whose
attributes all have a keyword spelling (``dims = [...]``, ``dim = 0``).
Values are renumbered per function (%0, %1, ... and %argN).
"""
from __future__ import annotations

import re
import struct

import numpy as np

from ..dialects.registry import OPS, OWN, PRETTY, names
from . import attributes as A
from .types import (FunctionType, OpaqueType, ScalarType, TensorType, TokenType,
                    TupleType, UnrankedTensorType, is_complex, is_float, numpy_dtype)

_BARE_SYMBOL = re.compile(r"[\w$.\-]+$")
_BARE_KEY = re.compile(r"[A-Za-z_][\w$.]*$")
_LIST_LIMIT = 64
_SUB_BYTE = ("i2", "i4", "ui2", "ui4")
# op -> ((pretty keyword, attribute name, "dims" | "int" | "string"), ...), from the registry
KEYWORD_FORMS = {d.name: d.keywords for d in OPS.values() if d.keywords and d.syntax == PRETTY}
# ops the default pretty form must not be used for (they have their own syntax;
# the op registry, dialects/registry.py, declares which)
_OWN_SYNTAX = names(syntax=OWN)


# -- types --
def type_str(t) -> str:
    if isinstance(t, TensorType):
        dims = "".join(("?" if d is None else str(d)) + "x" for d in t.shape)
        enc = f", {attr_str(t.encoding)}" if t.encoding is not None else ""
        return f"tensor<{dims}{t.element}{enc}>"
    if isinstance(t, TupleType):
        return "tuple<" + ", ".join(type_str(x) for x in t.types) + ">"
    if isinstance(t, FunctionType):
        ins = ", ".join(type_str(x) for x in t.inputs)
        if len(t.results) == 1 and not isinstance(t.results[0], FunctionType):
            return f"({ins}) -> {type_str(t.results[0])}"
        return f"({ins}) -> (" + ", ".join(type_str(x) for x in t.results) + ")"
    if isinstance(t, (ScalarType,)):
        return t.element
    if isinstance(t, (TokenType, OpaqueType, UnrankedTensorType)):
        return str(t)
    raise TypeError(f"cannot print type {t!r}")


# -- attributes --
def string_literal(s: str) -> str:
    out = []
    for ch in s:
        o = ord(ch)
        if ch in '"\\' or o < 0x20 or o == 0x7F:
            out.append("\\%02X" % o)
        elif 0xDC80 <= o <= 0xDCFF:          # undecodable byte kept by the lexer
            out.append("\\%02X" % (o - 0xDC00))
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def symbol_str(name: str) -> str:
    return "@" + (name if _BARE_SYMBOL.fullmatch(name) else string_literal(name))


def key_str(key: str) -> str:
    """A dictionary key: bare where the lexer reads it as one identifier."""
    return key if _BARE_KEY.fullmatch(key) else string_literal(key)


def _float_bits(value: float, element: str) -> str:
    if element == "f64":
        bits = struct.unpack("<Q", struct.pack("<d", value))[0]
        return "0x%016X" % bits
    dt = numpy_dtype(element)
    raw = np.array([value], dtype=np.float64).astype(dt).view(f"u{dt.itemsize}")[0]
    return "0x%0*X" % (2 * dt.itemsize, int(raw))


def float_str(value: float, element: str) -> str:
    if np.isfinite(value):
        return repr(float(value))
    return _float_bits(value, element)


def _scalar_str(x, element: str) -> str:
    if element == "i1":
        return "true" if x else "false"
    if is_complex(element):
        part = "f32" if element == "complex<f32>" else "f64"
        return f"({float_str(float(x.real), part)}, {float_str(float(x.imag), part)})"
    if is_float(element):
        if isinstance(x, np.generic) and not np.isfinite(x):
            bits = np.array(x).reshape(1).view(f"u{x.dtype.itemsize}")[0]
            return "0x%0*X" % (2 * x.dtype.itemsize, int(bits))
        return float_str(float(x), element)
    return str(int(x))


def _list_str(arr: np.ndarray, element: str) -> str:
    if arr.ndim == 0:
        return _scalar_str(arr[()], element)
    flat = arr.reshape(-1)
    flat = [_scalar_str(x, element) for x in (flat if is_float(element) or is_complex(element)
                                              else flat.tolist())]
    it = iter(flat)

    def build(shape):
        if len(shape) == 1:
            return "[" + ", ".join(next(it) for _ in range(shape[0])) + "]"
        return "[" + ", ".join(build(shape[1:]) for _ in range(shape[0])) + "]"
    return build(arr.shape)


def dense_str(attr: A.DenseElementsAttr) -> str:
    arr = np.asarray(attr.array)
    el = attr.type.element
    ty = type_str(attr.type)
    if arr.size == 0:
        return f"dense<> : {ty}"
    b = np.ascontiguousarray(arr).view(np.uint8).reshape(arr.size, -1)
    if arr.size == 1 or (b == b[0]).all():
        return f"dense<{_scalar_str(arr.reshape(-1)[0], el)}> : {ty}"
    if arr.size <= _LIST_LIMIT or el == "i1" or el in _SUB_BYTE:
        return f"dense<{_list_str(arr, el)}> : {ty}"
    return f'dense<"0x{np.ascontiguousarray(arr).tobytes().hex().upper()}"> : {ty}'


def _field_str(v) -> str:
    if v is None:
        return "?"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, tuple):
        return "[" + ", ".join(_field_str(x) for x in v) + "]"
    return attr_str(v)


def attr_str(a) -> str:
    if isinstance(a, A.IntAttr):
        return f"{a.value} : {a.type}"
    if isinstance(a, A.FloatAttr):
        return f"{float_str(a.value, a.type)} : {a.type}"
    if isinstance(a, A.BoolAttr):
        return "true" if a.value else "false"
    if isinstance(a, A.StringAttr):
        return string_literal(a.value)
    if isinstance(a, A.UnitAttr):
        return "unit"
    if isinstance(a, A.ArrayAttr):
        return "[" + ", ".join(attr_str(x) for x in a.elements) + "]"
    if isinstance(a, A.DenseArrayAttr):
        if not a.values:
            return f"array<{a.element}>"
        vals = ", ".join(_scalar_str(v, a.element) for v in a.values)
        return f"array<{a.element}: {vals}>"
    if isinstance(a, A.DenseElementsAttr):
        return dense_str(a)
    if isinstance(a, A.DictAttr):
        return dict_str(a.entries)
    if isinstance(a, A.SymbolRefAttr):
        return symbol_str(a.name) + "".join("::" + symbol_str(n) for n in a.nested)
    if isinstance(a, A.TypeAttr):
        return type_str(a.type)
    if isinstance(a, A.EnumAttr):
        return f"#{a.dialect}<{a.kind} {a.value}>"
    if isinstance(a, A.StructAttr):
        if a.name == "stablehlo.conv":
            return f"#{a.name}<{conv_str(a.fields)}>"
        body = ", ".join(f"{k} = {_field_str(v)}" for k, v in a.fields.items())
        return f"#{a.name}<{body}>"
    if isinstance(a, A.OpaqueAttr):
        return a.text
    raise TypeError(f"cannot print attribute {a!r}")


def conv_str(f: dict) -> str:
    def group(batch, feature, spatial, letters):
        n = 2 + len(spatial)
        items = [""] * n
        items[batch], items[feature] = letters
        for i, d in enumerate(spatial):
            items[d] = str(i)
        return "[" + ", ".join(items) + "]"
    return (group(f["input_batch_dimension"], f["input_feature_dimension"],
                  f["input_spatial_dimensions"], "bf") + "x" +
            group(f["kernel_input_feature_dimension"], f["kernel_output_feature_dimension"],
                  f["kernel_spatial_dimensions"], "io") + "->" +
            group(f["output_batch_dimension"], f["output_feature_dimension"],
                  f["output_spatial_dimensions"], "bf"))


def dict_str(entries: dict) -> str:
    parts = []
    for k, v in entries.items():
        key = key_str(k)
        parts.append(key if isinstance(v, A.UnitAttr) else f"{key} = {attr_str(v)}")
    return "{" + ", ".join(parts) + "}"


# -- operations --
class _OpPrinter:
    def __init__(self, generic: bool):
        self.generic = generic
        self.lines = []
        self.names = {}
        self.next_id = 0
        self.next_arg = 0

    def name(self, v) -> str:
        n = self.names.get(id(v))
        if n is None:
            raise ValueError(f"value {v!r} is used before it is defined (or not in scope)")
        return n

    def operands(self, op) -> str:
        return ", ".join(self.name(v) for v in op.operands)

    def bind_results(self, op) -> str:
        if not op.results:
            return ""
        base = f"%{self.next_id}"
        self.next_id += 1
        if len(op.results) == 1:
            self.names[id(op.results[0])] = base
            return base + " = "
        for i, r in enumerate(op.results):
            self.names[id(r)] = f"{base}#{i}"
        return f"{base}:{len(op.results)} = "

    def bind_arg(self, v) -> str:
        n = f"%arg{self.next_arg}"
        self.next_arg += 1
        self.names[id(v)] = n
        return n

    def emit(self, depth, text):
        self.lines.append("  " * depth + text)

    # -- module / functions --
    def module(self, m) -> str:
        head = "module"
        if m.name:
            head += " " + symbol_str(m.name)
        if m.attributes:
            head += " attributes " + dict_str(m.attributes)
        self.emit(0, head + " {")
        for op in m.body.operations:
            self.op(op, 1)
        self.emit(0, "}")
        return "\n".join(self.lines) + "\n"

    def func(self, op, depth):
        attrs = dict(op.attributes)
        name = attrs.pop("sym_name").value
        fty = attrs.pop("function_type").type
        vis = attrs.pop("sym_visibility", None)
        arg_attrs = attrs.pop("arg_attrs", None)
        res_attrs = attrs.pop("res_attrs", None)
        self.names, self.next_id, self.next_arg = {}, 0, 0
        body = op.regions[0].blocks if op.regions else []
        args = []
        for i, t in enumerate(fty.inputs):
            a = type_str(t)
            if body:
                a = f"{self.bind_arg(body[0].arguments[i])}: {a}"
            if arg_attrs is not None and arg_attrs.elements[i].entries:
                a += " " + dict_str(arg_attrs.elements[i].entries)
            args.append(a)
        res = []
        for i, t in enumerate(fty.results):
            r = type_str(t)
            if res_attrs is not None and res_attrs.elements[i].entries:
                r += " " + dict_str(res_attrs.elements[i].entries)
            res.append(r)
        head = "func.func "
        if vis is not None:
            head += vis.value + " "
        head += f"{symbol_str(name)}({', '.join(args)})"
        if res:
            head += " -> (" + ", ".join(res) + ")"
        if attrs:
            head += " attributes " + dict_str(attrs)
        if not body:
            self.emit(depth, head)
            return
        self.emit(depth, head + " {")
        self.region_body(op.regions[0], depth, entry_args_printed=True)
        self.emit(depth, "}")

    # -- regions --
    def region_body(self, region, depth, entry_args_printed=False):
        many = len(region.blocks) > 1
        for i, block in enumerate(region.blocks):
            if not (i == 0 and entry_args_printed) and (
                    i > 0 or many or block.arguments or not block.operations):
                args = ", ".join(f"{self.bind_arg(a)}: {type_str(a.type)}"
                                 for a in block.arguments)
                self.emit(depth, f"^bb{i}" + (f"({args})" if args else "") + ":")
            for op in block.operations:
                self.op(op, depth + 1)

    def op(self, op, depth):
        if op.name == "func.func" and not self.generic and "function_type" in op.attributes:
            return self.func(op, depth)
        if not self.generic:
            text = self.pretty(op)
            if text is not None:
                self.emit(depth, self.bind_results(op) + text)
                return
        self.generic_op(op, depth)

    def generic_op(self, op, depth):
        isolated = op.name == "func.func"
        saved = (self.names, self.next_id, self.next_arg) if isolated else None
        operands = self.operands(op)
        head = f'"{op.name}"({operands})'
        if isolated:
            self.names, self.next_id, self.next_arg = {}, 0, 0
        tail = ""
        if op.attributes:
            tail += " " + dict_str(op.attributes)
        tail += " : " + type_str(FunctionType(tuple(v.type for v in op.operands),
                                              tuple(r.type for r in op.results)))
        if not op.regions:
            if isolated:
                self.names, self.next_id, self.next_arg = saved
            self.emit(depth, self.bind_results(op) + head + tail)
            return
        # results are bound after the regions so nested ops cannot see them
        start = len(self.lines)
        self.emit(depth, head + " ({")
        for i, region in enumerate(op.regions):
            if i:
                self.emit(depth, "}, {")
            self.region_body(region, depth)
        self.emit(depth, "})" + tail)
        if isolated:
            self.names, self.next_id, self.next_arg = saved
        self.lines[start] = "  " * depth + self.bind_results(op) + self.lines[start].lstrip()

    # -- pretty forms --
    def pretty(self, op) -> str | None:
        name, attrs = op.name, op.attributes
        if op.regions or "." not in name:
            return None
        results = [r.type for r in op.results]
        if name == "func.return" and not attrs:
            if not op.operands:
                return "return"
            return f"return {self.operands(op)} : " + ", ".join(type_str(v.type) for v in op.operands)
        if name == "func.call" and set(attrs) == {"callee"}:
            fty = FunctionType(tuple(v.type for v in op.operands), tuple(results))
            return f"call {attr_str(attrs['callee'])}({self.operands(op)}) : {type_str(fty)}"
        if name == "stablehlo.constant" and set(attrs) == {"value"} and len(results) == 1 \
                and isinstance(attrs["value"], A.DenseElementsAttr) and attrs["value"].type == results[0]:
            return f"stablehlo.constant {dense_str(attrs['value'])}"
        if name == "stablehlo.return" and not attrs:
            if not op.operands:
                return None
            return f"stablehlo.return {self.operands(op)} : " + \
                ", ".join(type_str(v.type) for v in op.operands)
        if len(results) != 1:
            return None
        items = [self.name(v) for v in op.operands]
        if name == "stablehlo.compare":
            d, c = attrs.get("comparison_direction"), attrs.get("compare_type")
            if not isinstance(d, A.EnumAttr) or set(attrs) - {"comparison_direction", "compare_type"} \
                    or (c is not None and not isinstance(c, A.EnumAttr)):
                return None
            items = [d.value] + items + ([c.value] if c is not None else [])
        elif name in _OWN_SYNTAX or name.startswith(("check.", "interpreter.")):
            return None
        else:
            forms = KEYWORD_FORMS.get(name, ())
            known = {attr: (kw, kind) for kw, attr, kind in forms}
            for key, value in attrs.items():
                if key not in known:
                    return None
                kw, kind = known[key]
                if kind == "dims" and isinstance(value, A.DenseArrayAttr) and value.element == "i64":
                    items.append(f"{kw} = [" + ", ".join(str(v) for v in value.values) + "]")
                elif kind == "int" and isinstance(value, A.IntAttr) and value.type == "i64":
                    items.append(f"{kw} = {value.value}")
                elif kind == "string" and isinstance(value, A.StringAttr):
                    items.append(f"{kw} = {string_literal(value.value)}")
                else:
                    return None
        ins = [v.type for v in op.operands]
        if name == "stablehlo.select" and all(t == results[0] for t in ins[1:]):
            sig = f"{type_str(ins[0])}, {type_str(results[0])}"     # MLIR's (pred, result) form
        elif all(t == results[0] for t in ins):
            sig = type_str(results[0])
        else:
            sig = type_str(FunctionType(tuple(ins), tuple(results)))
        return f"{name} {', '.join(items)} : {sig}" if items else f"{name} : {sig}"


def print_module(module, generic: bool = False) -> str:
    """MLIR text for ``module`` that re-parses to an equal module."""
    return _OpPrinter(generic).module(module)


def print_op(op, generic: bool = False) -> str:
    """One op (with its regions) as text; values it uses from outside are
    named by their source names, for debugging and error messages."""
    p = _OpPrinter(generic)
    for v in op.operands:
        p.names.setdefault(id(v), f"%{v.name or '?'}")
    p.op(op, 0)
    return "\n".join(p.lines)
