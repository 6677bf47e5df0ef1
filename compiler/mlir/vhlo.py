"""StableHLO portable artifacts (VHLO bytecode) read natively, without jaxlib.

``read_portable_artifact(data)`` reads MLIR bytecode with ``bytecode.py``,
decodes the VHLO dialect's attributes and types (codes as in StableHLO's
VhloBytecode.cpp), and renders the module as StableHLO text in generic op
form -- the skeleton ``Source`` that ``parser.py`` reads.  Every dense
constant is left in the text as an empty ``dense<"">`` whose bytes wait in
``Source.blobs``: a ``memoryview`` of the input, which ``dense.decode_raw``
turns into a read-only numpy view, so weights are never copied into text or
held twice.  The skeleton is small (no constant data), and the parser keeps
its checks and its one home for every op and attribute form.

VHLO -> StableHLO follows StableHLO's legalisation: ``vhlo.<op>_v<N>`` becomes
``stablehlo.<op>`` (``func_v1``/``call_v1``/``return_v1`` the func dialect's),
attributes that VHLO keeps apart are gathered into their StableHLO structs
(``#stablehlo.dot``, ``gather``, ``scatter``, ``conv``, ``channel_handle``,
``dot_algorithm``), i64 lists StableHLO holds as ``array<i64: ...>`` become
that, and attributes at their default value are dropped.  Each op's
properties are its attributes in name order (the table below: VhloOps.td's
attribute names).  An op, attribute or type this reader does not know
raises ``BytecodeError(unsupported=True)`` naming it.
"""
from __future__ import annotations

import math

import numpy as np

from ..dialects import vhlo as vhlo_ops
from ..ir.printer import key_str, string_literal, symbol_str
from .attr_parser import CONV_FIELDS
from .bytecode import Asm, Attr, BytecodeError, BytecodeFile, Cursor, DialectReader, Malformed
from .bytecode import Type, composite_type, float_width, int_width
from .source import Source

_INT64_MIN = -(1 << 63)
_SCALAR_TYPES = {
    0: "i1", 2: "bf16", 3: "f16", 4: "f32", 5: "f64", 6: "f8E4M3FN", 7: "f8E5M2",
    9: "index", 10: "i4", 11: "i8", 12: "i16", 13: "i32", 14: "i64", 15: "ui4", 16: "ui8",
    17: "ui16", 18: "ui32", 19: "ui64", 22: "token", 27: "f8E4M3FNUZ", 28: "f8E5M2FNUZ",
    29: "f8E4M3B11FNUZ", 31: "i2", 32: "ui2", 33: "none", 34: "tf32", 35: "f8E4M3",
    36: "f8E3M4", 37: "f4E2M1FN", 38: "f6E2M3FN", 39: "f6E3M2FN", 40: "f8E8M0FNU"}
_COMPOSITES = {1: "complex", 8: "function", 20: "tensor", 21: "encoded tensor", 23: "tuple",
               25: "unranked tensor"}
_OTHER_TYPES = {24: "uniform quantized", 26: "witness", 30: "per-axis uniform quantized",
                41: "ranked buffer", 42: "future"}
#: VHLO enum attributes: code -> (kind, value names by number).
_ENUMS = {
    3: ("comparison_direction", ("EQ", "NE", "GE", "GT", "LE", "LT")),
    4: ("comparison_type", ("NOTYPE", "FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED")),
    5: ("custom_call_api_version", ("API_VERSION_UNSPECIFIED", "API_VERSION_ORIGINAL",
                                    "API_VERSION_STATUS_RETURNING",
                                    "API_VERSION_STATUS_RETURNING_UNIFIED",
                                    "API_VERSION_TYPED_FFI")),
    7: ("fft_type", ("FFT", "IFFT", "RFFT", "IRFFT")),
    11: ("precision", ("DEFAULT", "HIGH", "HIGHEST")),
    12: ("rng_algorithm", ("DEFAULT", "THREE_FRY", "PHILOX")),
    13: ("rng_distribution", (None, "UNIFORM", "NORMAL")),
    16: ("transpose", ("TRANSPOSE_INVALID", "NO_TRANSPOSE", "TRANSPOSE", "ADJOINT")),
    19: ("result_accuracy_mode", ("DEFAULT", "HIGHEST", "TOLERANCE")),
}
_OTHER_ATTRS = {21: "sub_axis_info", 22: "axis_ref", 23: "replica_group_mesh_axes",
                24: "mesh_axis", 25: "mesh"}


def _int_type(kind: str) -> Type:
    return Type(kind, (int(kind.lstrip("ui")),)) if kind[0] in "iu" and kind != "index" \
        else Type(kind)


class VhloHooks:
    """Decoders of the VHLO dialect's attributes and types (VhloBytecode.cpp)."""
    name = "vhlo"

    def read_type(self, r: DialectReader):
        code = r.varint()
        if code in _SCALAR_TYPES:
            return _int_type(_SCALAR_TYPES[code])
        if code in _COMPOSITES:
            return composite_type(r, _COMPOSITES[code])
        r.fail(f"VHLO type {_OTHER_TYPES.get(code, f'code {code}')} is not supported")

    def read_attribute(self, r: DialectReader):
        code = r.varint()
        if code in _ENUMS:
            kind, names = _ENUMS[code]
            v = r.varint()
            if v >= len(names) or names[v] is None:
                r.fail(f"VHLO {kind} value {v} is unknown", unsupported=False)
            return Attr("enum", (kind, names[v]))
        if code == 1:
            return Attr("array", tuple(r.attributes()))
        if code == 2:
            return Attr("bool", (r.varint() == 1,))
        if code == 6:
            return Attr("dict", tuple((r.attribute(), r.attribute()) for _ in range(r.varint())))
        if code == 8:
            return Attr("float", r.typed_number(float_width))
        if code == 9:
            return Attr("integer", r.typed_number(int_width))
        if code == 10:
            return Attr("output_operand_alias", (tuple(r.svarints()), r.svarint(),
                                                 tuple(r.svarints())))
        if code == 14:
            return Attr("string", (r.string(),))
        if code == 15:
            return Attr("tensor", (r.type(), r.blob()))
        if code == 17:
            return Attr("type", (r.type(),))
        if code == 18:
            return Attr("type_extensions", tuple(r.svarints()))
        if code == 20:
            atol, rtol = r.apint(64), r.apint(64)
            return Attr("result_accuracy", (atol, rtol, r.svarint(), r.attribute()))
        r.fail(f"VHLO attribute {_OTHER_ATTRS.get(code, f'code {code}')} is not supported")


# -- values of decoded attributes --

def _element(t: Type) -> str:
    return t.args[1].kind


def tensor_values(a: Attr) -> np.ndarray:
    """A ``tensor_v1``'s elements (read-only; i1 unpacked from VHLO's bits)."""
    from ..ir.types import numpy_dtype
    t, blob = a.args
    shape, elem = t.args[0], _element(t)
    n = math.prod(shape)
    raw = blob.data
    if elem == "i1":
        b = np.frombuffer(raw, np.uint8)
        if len(b) == 1 and b[0] == 0xFF:           # VHLO's splat of true (a view, any size)
            return np.broadcast_to(np.True_, (n,))
        if len(b) == (n + 7) // 8 and len(b) != n:
            return np.unpackbits(b, bitorder="little")[:n].astype(bool)
        vals = b.astype(bool)
    else:
        vals = np.frombuffer(raw, np.dtype(numpy_dtype(elem)).newbyteorder("<"))
    return np.broadcast_to(vals, (n,)) if len(vals) == 1 and n != 1 else vals   # a splat


def _i1_bytes(a: Attr):
    """A bool tensor's bytes as the parser reads them: one per element (or a splat byte)."""
    v = tensor_values(a)
    n_raw = len(a.args[1].data)
    return np.array([1 if v.all() else 0], np.uint8) if n_raw == 1 and len(v) > 1 and \
        (v.all() or not v.any()) else v.astype(np.uint8)


def _ints(a: Attr) -> list:
    return [int(x) for x in tensor_values(a)]


def _int(a: Attr) -> int:
    t, v = a.args
    w = int_width(t)
    return v - (1 << w) if not t.kind.startswith("ui") and v >> (w - 1) else v


# -- defaults StableHLO leaves out (VhloLegalizeToStablehlo's removeDefaults) --

def _is_int(n):
    return lambda a: a.kind == "integer" and _int(a) == n


def _is_bool(b):
    return lambda a: a.kind == "bool" and a.args[0] == b


def _is_str(s):
    return lambda a: a.kind == "string" and a.args[0] == s


def _is_empty(a):
    if a.kind == "tensor":
        return len(a.args[1].data) == 0
    return a.kind in ("array", "dict") and not a.args


def _is_splat(v):
    def check(a):
        vals = tensor_values(a) if a.kind == "tensor" else None
        return vals is not None and vals.size > 0 and bool(np.all(vals == v))
    return check


def _all_default_precision(a):
    return a.kind == "array" and all(x == Attr("enum", ("precision", "DEFAULT")) for x in a.args)


def _is_default_accuracy(a):
    atol, rtol, ulps, mode = a.args
    return atol == 0 and rtol == 0 and ulps == 0 and mode.args[1] == "DEFAULT"




def _default_check(spec):
    """The predicate of a default-value spec of dialects/vhlo.py's ``DEFAULTS``."""
    form, *arg = spec if isinstance(spec, tuple) else (spec,)
    if form == "int":
        return _is_int(arg[0])
    if form == "bool":
        return _is_bool(arg[0])
    if form == "str":
        return _is_str(arg[0])
    if form == "splat":
        return _is_splat(arg[0])
    if form == "enum":
        return lambda a: a.kind == "enum" and a.args[1] == arg[0]
    if form == "accuracy":
        return lambda a: a.kind == "result_accuracy" and _is_default_accuracy(a)
    if form == "either":
        checks = [_default_check(x) for x in arg]
        return lambda a: any(c(a) for c in checks)
    return {"empty": _is_empty, "precision": _all_default_precision}[form]


_DEFAULTS = {kind: {name: _default_check(spec) for name, spec in specs.items()}
             for kind, specs in vhlo_ops.DEFAULTS.items()}
_CONV_FIELDS = tuple((f, f, f.endswith("spatial_dimensions")) for f in CONV_FIELDS)


class Raw(str):
    """Attribute text already in StableHLO form."""


def _struct(name: str, fields) -> Raw:
    def val(v):
        return "[" + ", ".join(map(str, v)) + "]" if isinstance(v, list) else str(v)
    name, _, prefix = name.partition(" ")           # "stablehlo.conv raw"
    return Raw(f"#{name}<" + (prefix + " " if prefix else "") +
               ", ".join(f"{k} = {val(v)}" for k, v in fields) + ">")


def stablehlo_attributes(kind: str, attrs: dict, error) -> dict:
    """StableHLO attributes (name -> Attr or Raw) of VHLO op ``kind``'s ``attrs``."""
    attrs = dict(attrs)
    for name, is_default in _DEFAULTS.get(kind, {}).items():
        if name in attrs and is_default(attrs[name]):
            del attrs[name]
    if kind == "custom_call" and _is_empty(attrs.get("operand_layouts", Attr("array"))) \
            and _is_empty(attrs.get("result_layouts", Attr("array"))):
        attrs.pop("operand_layouts", None), attrs.pop("result_layouts", None)
    out = {}
    for kinds, name, struct, fields in vhlo_ops.STRUCTS:
        if kind in kinds.split():
            fields = _CONV_FIELDS if fields is None else fields
            vals = []
            for vname, field, is_list in fields:
                a = attrs.pop(vname, None)
                if a is None:
                    continue                      # an older version's missing field
                if a.kind not in ("tensor", "integer"):
                    raise error(f"'{vname}' of vhlo.{kind} is a {a.kind}, not integers")
                vals.append((field, _ints(a) if is_list else _int(a)))
            out[name] = _struct(struct, vals)
    if kind == "dot_general" and "lhs_component_count" in attrs:
        algo = [attrs.pop(n) for n in vhlo_ops.ALGORITHM]
        if algo[3] != Attr("type", (Type("none"),)):
            vals = [(n, type_text(a.args[0]) if a.kind == "type" else
                     ("true" if a.args[0] else "false") if a.kind == "bool" else _int(a))
                    for n, a in zip(vhlo_ops.ALGORITHM, algo)]
            out["algorithm"] = _struct("stablehlo.dot_algorithm", vals)
    for name, a in attrs.items():
        if kind in vhlo_ops.CHANNEL_OPS and name == "channel_id":
            out["channel_handle"] = _struct("stablehlo.channel_handle",
                                            (("handle", _int(a)), ("type", 0)))
        elif name in ("use_global_device_ids", "has_dynamic_root") and a.kind == "bool":
            if a.args[0]:
                out[name] = Raw("")
        elif (kind, name) in (("call", "callee"), ("composite", "decomposition")):
            out[name] = Raw(symbol_str(a.args[0]))
        elif kind == "custom_call" and name == "called_computations":
            out[name] = Raw("[" + ", ".join(symbol_str(x.args[0]) for x in a.args) + "]")
        elif name in vhlo_ops.I64_ARRAYS.get(kind, ()) and a.kind == "tensor":
            out[name] = Raw("array<i64" + "".join(
                (": " if i == 0 else ", ") + str(v) for i, v in enumerate(_ints(a))) + ">")
        elif name in vhlo_ops.BOOL_ARRAYS.get(kind, ()) and a.kind == "tensor":
            out[name] = Raw("array<i1" + "".join(
                (": " if i == 0 else ", ") + ("true" if v else "false")
                for i, v in enumerate(tensor_values(a))) + ">")
        else:
            out[name] = a
    return out


# -- text --

def type_text(t) -> str:
    if isinstance(t, Asm):
        return t.text
    k = t.kind
    if k == "tensor":
        shape, elem, enc = t.args
        if shape is None:
            return f"tensor<*x{type_text(elem)}>"
        dims = "".join(("?" if d < 0 else str(d)) + "x" for d in shape)
        if enc is not None:
            if not (isinstance(enc, Attr) and enc.kind == "type_extensions"):
                raise ValueError(f"tensor encoding {enc}")
            bounds = ", ".join("?" if b == _INT64_MIN else str(b) for b in enc.args)
            return f"tensor<{dims}{type_text(elem)}, #stablehlo.bounds<{bounds}>>"
        return f"tensor<{dims}{type_text(elem)}>"
    if k == "complex":
        return f"complex<{type_text(t.args[0])}>"
    if k == "tuple":
        return "tuple<" + ", ".join(map(type_text, t.args)) + ">"
    if k == "function":
        ins, outs = t.args
        res = type_text(outs[0]) if len(outs) == 1 and outs[0].kind != "function" else \
            "(" + ", ".join(map(type_text, outs)) + ")"
        return "(" + ", ".join(map(type_text, ins)) + ") -> " + res
    if k == "token":
        return "!stablehlo.token"
    return k


def _float_text(t: Type, bits: int) -> str:
    width = float_width(t)
    return f"0x{bits:0{(width + 3) // 4}X} : {type_text(t)}"


_ENUM_FORMS = {"result_accuracy_mode": "#stablehlo.result_accuracy_mode<{}>"}


class _Renderer:
    """Writes a BytecodeFile's IR as StableHLO text; dense data go to ``blobs``."""

    def __init__(self, file: BytecodeFile):
        self.file = file
        self.out, self.pos, self.blobs = [], 0, {}
        self.refs, self.types = {}, {}           # value id -> "%v1" / "%v1#0", type text

    def emit(self, s: str):
        self.out.append(s)
        self.pos += len(s)

    def error(self, message: str) -> BytecodeError:
        return BytecodeError(message, self.file.filename, unsupported=True)

    # -- attributes --
    def attr(self, a):
        if isinstance(a, Raw):
            return self.emit(a)
        if isinstance(a, Asm):
            return self.emit(a.text)
        k = a.kind.rsplit(".", 1)[-1]
        if k in ("array",):
            self.emit("[")
            for i, x in enumerate(a.args):
                self.emit(", " if i else "")
                self.attr(x)
            return self.emit("]")
        if k == "dict":
            return self.dict(a.args)
        if k == "bool":
            return self.emit("true" if a.args[0] else "false")
        if k == "string":
            return self.emit(string_literal(a.args[0]))
        if k == "integer":
            t = a.args[0]
            return self.emit(f"{_int(a)} : {type_text(t)}" if t.kind != "i1" else
                             ("true" if a.args[1] else "false"))
        if k == "float":
            return self.emit(_float_text(*a.args))
        if k == "type":
            return self.emit(type_text(a.args[0]))
        if k == "unit":
            return self.emit("unit")
        if k == "enum":
            kind, value = a.args
            if kind == "custom_call_api_version":
                return self.emit(f"{_ENUMS[5][1].index(value)} : i32")
            return self.emit(_ENUM_FORMS.get(kind, f"#stablehlo<{kind} {{}}>").format(value))
        if k in ("tensor", "dense"):
            return self.dense(a)
        if k == "dense_array":
            t, n, blob = a.args
            from ..ir.types import numpy_dtype
            vals = np.frombuffer(blob.data, np.dtype(numpy_dtype(t.kind)).newbyteorder("<"))
            items = ", ".join(("true" if v else "false") if t.kind == "i1" else str(v)
                              for v in vals.tolist())
            return self.emit(f"array<{type_text(t)}" + (f": {items}>" if n else ">"))
        if k == "symbol":
            root, nested = a.args
            return self.emit(symbol_str(root.args[0]) + "".join("::" + symbol_str(x.args[0].args[0])
                                                            for x in nested))
        if k == "output_operand_alias":
            outs, idx, ins = a.args
            return self.emit(_struct("stablehlo.output_operand_alias", (
                ("output_tuple_indices", list(outs)), ("operand_index", idx),
                ("operand_tuple_indices", list(ins)))))
        if k == "result_accuracy":
            atol, rtol, ulps, mode = a.args
            f = [float(np.array(x, np.uint64).view(np.float64)) for x in (atol, rtol)]
            return self.emit(f"#stablehlo.result_accuracy<atol = {f[0]!r}, rtol = {f[1]!r}, "
                             f"ulps = {ulps}, mode = #stablehlo.result_accuracy_mode<"
                             f"{mode.args[1]}>>")
        raise self.error(f"attribute {a.kind} cannot be written as StableHLO")

    def dense(self, a):
        t, blob = a.args
        if t.kind != "tensor" or t.args[0] is None:
            raise self.error(f"dense elements of type {type_text(t)}")
        data = _i1_bytes(a) if _element(t) == "i1" else blob.data
        self.emit("dense<")
        self.blobs[self.pos] = data
        self.emit(f'""> : {type_text(t)}')

    def dict(self, entries, skip=()):
        self.emit("{")
        first = True
        for key, value in (entries.items() if isinstance(entries, dict) else entries):
            name = key if isinstance(key, str) else key.args[0]
            if name in skip:
                continue
            self.emit(("" if first else ", ") + key_str(name))
            first = False
            if not (isinstance(value, Raw) and value == ""):
                self.emit(" = ")
                self.attr(value)
        self.emit("}")

    # -- ops --
    def split_attributes(self, op, names: list) -> tuple:
        """(inherent, discardable) attributes of ``op``: the inherent ones from
        its properties (bytecode 6: StableHLO 0.15 on) or, before that, from
        its attribute dictionary by name."""
        extra = self.discardable(op)
        if isinstance(op.properties, Cursor):
            r = DialectReader(op.properties, self.file)
            return {n: r.attribute() for n in names}, extra
        if op.properties is not None:
            raise self.error(f"properties of '{op.name}' stored as an attribute")
        return {n: extra.pop(n) for n in names if n in extra}, extra

    def op(self, op, indent: str, parent: str):
        name = op.name
        if name == "builtin.module":
            return self.module(op, indent)
        if not name.startswith("vhlo."):
            raise self.error(f"op '{name}' (only VHLO ops are read natively)")
        base = name[5:]
        if base in vhlo_ops.NO_ATTRIBUTES:
            names = []
        elif base in vhlo_ops.ATTRIBUTES:
            names = vhlo_ops.ATTRIBUTES[base].split()
        else:
            raise self.error(f"op '{name}' (VHLO op or version unknown to this reader)")
        kind = base.rsplit("_v", 1)[0]
        attrs, extra = self.split_attributes(op, names)
        if kind == "func":
            return self.func(op, attrs, extra, indent)
        out = stablehlo_attributes(kind, attrs, self.error)
        func_op = kind == "call" or (kind == "return" and parent == "func")
        target = ("func." if func_op else "stablehlo.") + kind
        self.emit(indent)
        self.results(op)
        self.emit(f'"{target}"(' + ", ".join(self.refs[v] for v in op.operands) + ")")
        if op.regions:
            self.emit(" (")
            for i, region in enumerate(op.regions):
                self.emit(", " if i else "")
                self.region(region, indent, kind)
            self.emit(")")
        if out or extra:
            self.emit(" ")
            self.dict({**out, **extra})
        ins = ", ".join(self.types[v] for v in op.operands)
        outs = ", ".join(type_text(t) for _, t in op.results)
        self.emit(f" : ({ins}) -> ({outs})\n")

    def discardable(self, op) -> dict:
        if op.attrs is None:
            return {}
        if not (isinstance(op.attrs, Attr) and op.attrs.kind.endswith("dict")):
            raise self.error(f"the attributes of '{op.name}' are not a dictionary")
        return {k.args[0]: v for k, v in op.attrs.args}

    def results(self, op):
        if not op.results:
            return
        first = op.results[0][0]
        for i, (vid, t) in enumerate(op.results):
            self.refs[vid] = f"%v{first}" if len(op.results) == 1 else f"%v{first}#{i}"
            self.types[vid] = type_text(t)
        self.emit(f"%v{first}" + (f":{len(op.results)}" if len(op.results) > 1 else "") + " = ")

    def define(self, args) -> str:
        for vid, t in args:
            self.refs[vid] = f"%v{vid}"
            self.types[vid] = type_text(t)
        return ", ".join(f"%v{vid}: {type_text(t)}" for vid, t in args)

    def region(self, region, indent: str, parent: str):
        self.emit("{\n")
        for i, block in enumerate(region.blocks):
            if block.args or i:
                self.emit(f"{indent}^bb{i}({self.define(block.args)}):\n")
            for op in block.ops:
                self.op(op, indent + "  ", parent)
        self.emit(indent + "}")

    def module(self, op, indent: str):
        extra = self.discardable(op)
        sym = extra.pop("sym_name", None)
        extra.pop("sym_visibility", None)
        if isinstance(op.properties, Cursor):
            r = DialectReader(op.properties, self.file)
            sym = r.optional_attribute()           # then sym_visibility (dropped)
        elif op.properties is not None:
            raise self.error("builtin.module properties stored as an attribute")
        self.emit(indent + "module" + (" " + symbol_str(sym.args[0]) if sym is not None else ""))
        if extra:
            self.emit(" attributes ")
            self.dict(extra)
        self.emit(" ")
        for region in op.regions:
            self.region(region, indent, "module")
        self.emit("\n")

    def signature(self, entries: list, attrs: tuple):
        """``(entry {attrs}, ...)``: a function's arguments or results."""
        self.emit("(")
        for i, entry in enumerate(entries):
            self.emit((", " if i else "") + entry)
            if i < len(attrs) and attrs[i].args:
                self.emit(" ")
                self.attr(attrs[i])
        self.emit(")")

    def func(self, op, attrs: dict, extra: dict, indent: str):
        attrs = {k: v for k, v in attrs.items()
                 if not _DEFAULTS["func"].get(k, lambda a: False)(v)}
        fty = attrs["function_type"].args[0]
        ins, outs = fty.args
        vis = attrs.get("sym_visibility")
        self.emit(indent + "func.func " + (vis.args[0] + " " if vis else "") +
                  symbol_str(attrs["sym_name"].args[0]))
        arg_attrs = attrs.get("arg_attrs", Attr("array")).args
        res_attrs = attrs.get("res_attrs", Attr("array")).args
        block = op.regions[0].blocks[0] if op.regions and op.regions[0].blocks else None
        if block is not None and len(block.args) != len(ins):
            raise self.error(f"function {attrs['sym_name'].args[0]}: {len(block.args)} block "
                             f"arguments for {len(ins)} inputs")
        self.signature([self.define([block.args[i]]) if block is not None else type_text(t)
                        for i, t in enumerate(ins)], arg_attrs)
        if outs:
            self.emit(" -> ")
            self.signature([type_text(t) for t in outs], res_attrs)
        if extra:
            self.emit(" attributes ")
            self.dict(extra)
        if block is None:
            return self.emit("\n")
        if len(op.regions[0].blocks) > 1:
            raise self.error("functions of more than one block")
        self.emit(" {\n")
        for inner in block.ops:
            self.op(inner, indent + "  ", "func")
        self.emit(indent + "}\n")


def read_portable_artifact(data, filename: str = "<input>") -> Source:
    """The StableHLO text skeleton (a ``Source``, dense data as views of
    ``data``) of the VHLO bytecode ``data`` (bytes, mmap or memoryview)."""
    file = BytecodeFile(data, filename, hooks=(VhloHooks(),))
    r = _Renderer(file)
    try:
        for op in file.top:
            r.op(op, "", "top")
    except Malformed as e:                  # an attribute decoded on demand
        raise BytecodeError(str(e), filename) from None
    except (KeyError, IndexError, ValueError, AttributeError, TypeError, ZeroDivisionError,
            OverflowError, RecursionError) as e:
        raise BytecodeError(f"inconsistent VHLO ({type(e).__name__}: {e})", filename) from None
    return Source("".join(r.out), r.blobs, [], len(file.buf))
