"""Scalar semantics of StableHLO element ops, as C expressions.

One table serves every C-like target (C, OpenCL C, CUDA C): each entry turns
operand expressions (already-evaluated C temporaries) into one C expression.
Integer arithmetic goes through unsigned types so overflow wraps instead of
being undefined; division, shifts and float->int conversion follow StableHLO's
defined results (x/0 == -1, x%0 == x, INT_MIN/-1 == INT_MIN, shifts past the
width give 0 or the sign fill, conversions saturate and map NaN to 0).
"""
from __future__ import annotations

import re

from ..dialects.registry import ORDER_PICK, has
from ..errors import UnsupportedOpError
from ..ir.types import bit_width, is_complex, is_float, is_integer, is_unsigned
from . import complex_c, special_c

CTYPE = {
    "i1": "uint8_t", "i8": "int8_t", "i16": "int16_t", "i32": "int32_t", "i64": "int64_t",
    "si8": "int8_t", "si16": "int16_t", "si32": "int32_t", "si64": "int64_t",
    "ui8": "uint8_t", "ui16": "uint16_t", "ui32": "uint32_t", "ui64": "uint64_t",
    "f32": "float", "f64": "double",
    "complex<f32>": "tvm_c64", "complex<f64>": "tvm_c128",
    "i2": "int8_t", "i4": "int8_t", "ui2": "uint8_t", "ui4": "uint8_t",
}
# Sub-byte integers: one element per byte as ml_dtypes stores them (the
# N-bit two's complement pattern in the low bits, the high bits zero);
# kernels hold them widened (signed ones sign-extended in an int8_t) and
# every op result is wrapped back to N bits (``rounded``).
SUB_BYTE_INTS = {"i2": (2, True), "i4": (4, True), "ui2": (2, False), "ui4": (4, False)}
# Types a kernel can hold in registers; loads and stores of other storage
# types (f16, bf16) convert through these.
COMPUTE_TYPE = dict(CTYPE, f16="float", bf16="float", **{k: "float" for k in special_c.SMALL_FLOATS})
STORAGE_TYPE = dict(CTYPE, f16="uint16_t", bf16="uint16_t", **{k: "uint8_t" for k in special_c.SMALL_FLOATS},
                    **{k: "uint8_t" for k in SUB_BYTE_INTS})


def sub_byte_wrap(element: str, expr: str) -> str:
    """``expr`` (an integer) wrapped to ``element``'s N bits, in compute form
    (signed: sign-extended into int8_t; unsigned: masked)."""
    w, signed = SUB_BYTE_INTS[element]
    return f"tvm_sext{w}((uint32_t)({expr}))" if signed else f"((uint8_t)(({expr}) & {(1 << w) - 1}u))"


def sub_byte_store(element: str, expr: str) -> str:
    """Storage byte of a sub-byte value: its N-bit pattern, high bits zero."""
    w, _ = SUB_BYTE_INTS[element]
    return f"((uint8_t)(({expr}) & {(1 << w) - 1}u))"


def small_float_load(element: str, raw: str) -> str:
    e, m, bias, kind = special_c.SMALL_FLOATS[element]
    return f"tvm_sf_decode({raw}, {e}, {m}, {bias}, {kind})"


def small_float_store(element: str, expr: str) -> str:
    e, m, bias, kind = special_c.SMALL_FLOATS[element]
    return f"((uint8_t)tvm_sf_encode({expr}, {e}, {m}, {bias}, {kind}))"


def ctype(element: str) -> str:
    try:
        return COMPUTE_TYPE[element]
    except KeyError:
        raise UnsupportedOpError("element type", f"'{element}' is not supported by the C backend yet") from None


def utype(element: str) -> str:
    """The unsigned C type of the same width (for wrapping arithmetic)."""
    return {8: "uint8_t", 16: "uint16_t", 32: "uint32_t", 64: "uint64_t", 1: "uint8_t",
            2: "uint8_t", 4: "uint8_t"}[bit_width(element)]


def _fsuffix(element: str) -> str:
    return "f" if ctype(element) == "float" else ""


def _wrap(element, a, b, op):
    return f"(({ctype(element)})(({utype(element)}){a} {op} ({utype(element)}){b}))"


def binary(name: str, element: str, a: str, b: str) -> str:
    """C expression for ``name(a, b)`` on elements of type ``element``."""
    ct = ctype(element)
    if is_complex(element):
        e = (f"{ct}_make({a}, {b})" if name == "complex"
             else complex_c.binary(name, element, a, b))
        if e is None:
            raise UnsupportedOpError(f"stablehlo.{name}", f"on element type {element}")
        return e
    if is_float(element):
        f = _fsuffix(element)
        if has("stablehlo." + name, ORDER_PICK):
            e = _minmax_with_constant(name, f, a, b)
            if e is not None:
                return e
        table = {
            "add": f"({a} + {b})", "subtract": f"({a} - {b})",
            "multiply": f"({a} * {b})", "divide": f"({a} / {b})",
            "remainder": f"fmod{f}({a}, {b})",
            "maximum": f"tvm_fmax{f}({a}, {b})", "minimum": f"tvm_fmin{f}({a}, {b})",
            "power": f"pow{f}({a}, {b})", "atan2": f"atan2{f}({a}, {b})",
        }
    elif element == "i1":
        table = {
            "and": f"({a} & {b})", "or": f"({a} | {b})", "xor": f"({a} ^ {b})",
            "add": f"({a} | {b})", "multiply": f"({a} & {b})",
            "maximum": f"({a} | {b})", "minimum": f"({a} & {b})",
            "subtract": f"({a} ^ {b})",
        }
    elif is_integer(element):
        w = bit_width(element)
        sfx = ("u" if is_unsigned(element) else "s") + str(w)
        table = {
            "add": _wrap(element, a, b, "+"), "subtract": _wrap(element, a, b, "-"),
            "multiply": _wrap(element, a, b, "*"),
            "divide": f"tvm_div_{sfx}({a}, {b})", "remainder": f"tvm_rem_{sfx}({a}, {b})",
            "maximum": f"({a} > {b} ? {a} : {b})", "minimum": f"({a} < {b} ? {a} : {b})",
            "and": f"({a} & {b})", "or": f"({a} | {b})", "xor": f"({a} ^ {b})",
            "shift_left": f"tvm_shl_{sfx}({a}, {b})",
            "shift_right_logical": f"tvm_shrl_{sfx}({a}, {b})",
            "shift_right_arithmetic": f"tvm_shra_{sfx}({a}, {b})",
            "power": f"tvm_ipow_{sfx}({a}, {b})",
        }
    else:
        table = {}
    if name == "next_after" and element in special_c.NARROW_NEXT_AFTER:
        m, emin, emax = special_c.NARROW_NEXT_AFTER[element]
        return f"tvm_next_after_narrow({a}, {b}, {m}, {emin}, {emax})"
    if name == "next_after" and element in special_c.SMALL_FLOATS:
        raise UnsupportedOpError("chlo.next_after", f"on element type {element} (no inf or a "
                                                    f"non-IEEE NaN encoding: stepping is not defined here)")
    if name not in table and is_float(element):
        e = special_c.binary(name, ct, a, b)
        if e is not None:
            return e
    if name not in table:
        raise UnsupportedOpError(f"stablehlo.{name}", f"on element type {element}")
    return f"(({ct}){table[name]})" if not is_float(element) else table[name]


_FLOAT_LITERAL = re.compile(r"-?\d+(\.\d*)?(e[-+]?\d+)?f?")


def _minmax_with_constant(name: str, f: str, a: str, b: str):
    """max/min against a finite literal (relu, relu6, clamp): a compare and
    a select, which vectorise to a few instructions, instead of the general
    helper that must order signed zeros and NaNs of two unknowns.  A NaN
    operand still comes back as NaN; the constant's sign picks the compare
    that orders a zero against it (+0 wins max, -0 wins min)."""
    for x, c in ((a, b), (b, a)):
        if not _FLOAT_LITERAL.fullmatch(c):
            continue
        v = float(c.rstrip("f"))
        negative_zero = v == 0 and c.startswith("-")
        if name == "maximum":
            cmp = "ge" if negative_zero else "gt"
        else:
            cmp = "le" if v == 0 and not negative_zero else "lt"
        return f"tvm_sel{cmp}{f}({x}, {c})"
    return None


def unary(name: str, element: str, a: str) -> str:
    """C expression for ``name(a)``."""
    ct = ctype(element)
    if is_complex(element):
        e = (complex_c.binary("multiply", element, a, a) if name == "square"
             else complex_c.unary(name, element, a))
        if e is None:
            raise UnsupportedOpError(f"stablehlo.{name}", f"on element type {element}")
        return e
    if name == "real":
        return a
    if name == "imag":
        return literal(element, 0)
    if is_float(element):
        f = _fsuffix(element)
        one = "1.0f" if f else "1.0"
        table = {
            "negate": f"(-{a})", "abs": f"fabs{f}({a})", "sqrt": f"sqrt{f}({a})",
            "rsqrt": f"({one} / sqrt{f}({a}))", "cbrt": f"cbrt{f}({a})",
            "exponential": f"tvm_expf({a})" if f else f"exp({a})",
            "exponential_minus_one": f"expm1{f}({a})",
            "log": f"tvm_logf({a})" if f else f"log({a})", "log_plus_one": f"log1p{f}({a})",
            "logistic": f"tvm_logisticf({a})" if f else f"(1.0 / (1.0 + exp(-{a})))",
            "sine": f"sin{f}({a})", "cosine": f"cos{f}({a})", "tan": f"tan{f}({a})",
            "tanh": f"tvm_tanhf({a})" if f else f"tanh({a})", "atan": f"atan{f}({a})",
            "floor": f"floor{f}({a})", "ceil": f"ceil{f}({a})",
            "round_nearest_afz": f"round{f}({a})", "round_nearest_even": f"nearbyint{f}({a})",
            "sign": f"tvm_fsign{f}({a})", "square": f"({a} * {a})",
        }
        if name == "is_finite":
            return f"((uint8_t)isfinite({a}))"
    elif element == "i1":
        table = {"not": f"({a} ^ 1)", "abs": a, "negate": a, "sign": a, "square": a}
    elif is_integer(element):
        w = bit_width(element)
        ut = utype(element)
        table = {
            "negate": f"(({ct})(({ut})0 - ({ut}){a}))",
            "abs": (a if is_unsigned(element) else f"(({ct})({a} < 0 ? ({ut})0 - ({ut}){a} : ({ut}){a}))"),
            "not": f"(({ct})~{a})",
            "sign": (f"(({ct})({a} != 0))" if is_unsigned(element) else f"(({ct})(({a} > 0) - ({a} < 0)))"),
            "popcnt": f"(({ct})__builtin_popcountll((uint64_t)({ut}){a} & {(1 << w) - 1}ull))",
            "count_leading_zeros": f"(({ct})tvm_clz{w}(({ut}){a}))",
            "square": _wrap(element, a, a, "*"),
        }
    else:
        table = {}
    if name not in table and is_float(element):
        e = special_c.unary(name, ct, a)
        if e is not None:
            return e
    if name not in table:
        raise UnsupportedOpError(f"stablehlo.{name}", f"on element type {element}")
    return table[name]


def compare(direction: str, compare_type: str | None, element: str, a: str, b: str) -> str:
    """C expression (0/1) for ``compare``."""
    ops = {"EQ": "==", "NE": "!=", "LT": "<", "LE": "<=", "GT": ">", "GE": ">="}
    if direction not in ops:
        raise UnsupportedOpError("stablehlo.compare", f"comparison direction {direction}")
    if is_complex(element):
        if direction not in ("EQ", "NE"):
            raise UnsupportedOpError("stablehlo.compare", f"{direction} on complex elements")
        return f"{ctype(element)}_{direction.lower()}({a}, {b})"
    if is_float(element) and compare_type == "TOTALORDER":
        k = "32" if ctype(element) == "float" else "64"
        return f"((uint8_t)(tvm_totalorder{k}({a}) {ops[direction]} tvm_totalorder{k}({b})))"
    if is_integer(element) and compare_type == "UNSIGNED" and not is_unsigned(element):
        ut = utype(element)
        return f"((uint8_t)(({ut}){a} {ops[direction]} ({ut}){b}))"
    if element in SUB_BYTE_INTS and compare_type in ("SIGNED", "UNSIGNED") \
            and (compare_type == "SIGNED") != SUB_BYTE_INTS[element][1]:
        w = SUB_BYTE_INTS[element][0]
        cast = ((lambda x: f"tvm_sext{w}((uint32_t){x})") if compare_type == "SIGNED"
                else (lambda x: f"((uint8_t)({x} & {(1 << w) - 1}u))"))
        return f"((uint8_t)({cast(a)} {ops[direction]} {cast(b)}))"
    if is_integer(element) and compare_type == "SIGNED" and is_unsigned(element) and element != "i1":
        st = {8: "int8_t", 16: "int16_t", 32: "int32_t", 64: "int64_t"}[bit_width(element)]
        return f"((uint8_t)(({st}){a} {ops[direction]} ({st}){b}))"
    return f"((uint8_t)({a} {ops[direction]} {b}))"


def convert(src: str, dst: str, a: str) -> str:
    """C expression converting ``a`` from ``src`` to ``dst`` element type."""
    if src == dst:
        return a
    dt = ctype(dst)
    if is_complex(src) or is_complex(dst):
        if is_complex(src) and is_complex(dst):
            r = ctype(complex_c.PART[dst])
            return f"{dt}_make(({r}){a}.re, ({r}){a}.im)"
        if is_complex(dst):
            part = complex_c.PART[dst]
            return f"{dt}_make({convert(src, part, a)}, {literal(part, 0)})"
        return convert(complex_c.PART[src], dst, f"{a}.re")   # the spec: real part only (even to i1)
    if dst == "i1":
        return f"((uint8_t)({a} != 0))"
    if is_float(src) and is_integer(dst):
        sfx = ("u" if is_unsigned(dst) else "s") + str(bit_width(dst))
        return f"tvm_f2i_{sfx}((double){a})"
    return f"(({dt}){a})"


def rounded(element: str, expr: str) -> str:
    """``expr`` (computed in float) rounded to the precision of a narrow
    storage type, so every op result is exactly representable in it."""
    if element == "f16":
        return f"tvm_f16_to_f32(tvm_f32_to_f16({expr}))"
    if element == "bf16":
        return f"tvm_bf16_to_f32(tvm_f32_to_bf16({expr}))"
    if element in special_c.SMALL_FLOATS:
        return small_float_load(element, small_float_store(element, expr))
    if element in SUB_BYTE_INTS:
        return sub_byte_wrap(element, expr)
    return expr


def literal(element: str, value) -> str:
    """A C literal for one element value."""
    import math
    if is_complex(element):
        return complex_c.literal(element, value, literal)
    if is_float(element):
        v = float(value)
        f = _fsuffix(element)
        if math.isnan(v):
            # a constant expression in C and OpenCL C alike (PoCL's NAN is not)
            return f"(({ctype(element)})__builtin_nanf(\"\"))"
        if math.isinf(v):
            return f"(({ctype(element)})({'-' if v < 0 else ''}INFINITY))"
        return f"{v!r}{f}" if f else f"{v!r}"
    if element == "i1":
        return "1" if value else "0"
    v = int(value)
    ct = ctype(element)
    if ct == "int64_t" and v == -(1 << 63):
        return "INT64_MIN"
    if ct == "int32_t" and v == -(1 << 31):
        return "INT32_MIN"
    suffix = "ULL" if ct.startswith("uint") else ("LL" if ct == "int64_t" else "")
    return f"(({ct}){v}{suffix})"


def _int_helpers() -> str:
    out = []
    for w in (8, 16, 32, 64):
        st, ut = f"int{w}_t", f"uint{w}_t"
        smin = f"INT{w}_MIN"
        for sign, t in (("s", st), ("u", ut)):
            sfx = f"{sign}{w}"
            if sign == "s":
                out.append(f"static inline {t} tvm_div_{sfx}({t} a, {t} b) {{ return b == 0 ? ({t})-1 : (a == {smin} && b == -1) ? a : a / b; }}")
                out.append(f"static inline {t} tvm_rem_{sfx}({t} a, {t} b) {{ return b == 0 ? a : (a == {smin} && b == -1) ? 0 : a % b; }}")
                out.append(f"static inline {t} tvm_shra_{sfx}({t} a, {t} b) {{ return (({ut})b >= {w}) ? (a < 0 ? ({t})-1 : 0) : ({t})(a >> b); }}")
            else:
                out.append(f"static inline {t} tvm_div_{sfx}({t} a, {t} b) {{ return b == 0 ? ({t})-1 : a / b; }}")
                out.append(f"static inline {t} tvm_rem_{sfx}({t} a, {t} b) {{ return b == 0 ? a : a % b; }}")
                out.append(f"static inline {t} tvm_shra_{sfx}({t} a, {t} b) {{ return b >= {w} ? 0 : ({t})(a >> b); }}")
            out.append(f"static inline {t} tvm_shl_{sfx}({t} a, {t} b) {{ return (({ut})b >= {w}) ? 0 : ({t})(({ut})a << b); }}")
            out.append(f"static inline {t} tvm_shrl_{sfx}({t} a, {t} b) {{ return (({ut})b >= {w}) ? 0 : ({t})(({ut})a >> b); }}")
            neg = ("if (b < 0) return a == 1 ? 1 : (a == -1 ? ((b & 1) ? -1 : 1) : 0);" if sign == "s" else "")
            out.append(f"static inline {t} tvm_ipow_{sfx}({t} a, {t} b) {{ {neg} {ut} r = 1, x = ({ut})a; {ut} e = ({ut})b; "
                       f"while (e) {{ if (e & 1) r *= x; x *= x; e >>= 1; }} return ({t})r; }}")
            lo = "0.0" if sign == "u" else f"(double){smin}"
            hi = f"(double)UINT{w}_MAX" if sign == "u" else f"(double)INT{w}_MAX"
            mx = f"UINT{w}_MAX" if sign == "u" else f"INT{w}_MAX"
            mn = "0" if sign == "u" else smin
            out.append(f"static inline {t} tvm_f2i_{sfx}(double v) {{ return v != v ? 0 : v <= {lo} ? {mn} : v >= {hi} ? {mx} : ({t})v; }}")
        out.append(f"static inline int tvm_clz{w}({ut} a) {{ return a == 0 ? {w} : __builtin_clzll((uint64_t)a) - {64 - w}; }}")
    out.extend(_sub_byte_helpers())
    return "\n".join(out)


def _sub_byte_helpers() -> list:
    """The integer helpers at 2 and 4 bits, on their widened forms (results
    are wrapped by the caller's ``rounded``; shifts by >= N bits follow the
    spec: 0, or the sign fill for an arithmetic right shift)."""
    out = []
    for w in (2, 4):
        mask, smin, smax, umax = (1 << w) - 1, -(1 << (w - 1)), (1 << (w - 1)) - 1, (1 << w) - 1
        out.append(f"static inline int8_t tvm_sext{w}(uint32_t x) {{ return (int8_t)((int8_t)(uint8_t)(x << {8 - w}) >> {8 - w}); }}")
        for sign, t in (("s", "int8_t"), ("u", "uint8_t")):
            sfx = f"{sign}{w}"
            if sign == "s":
                out.append(f"static inline {t} tvm_div_{sfx}({t} a, {t} b) {{ return b == 0 ? ({t})-1 : (a == {smin} && b == -1) ? a : ({t})(a / b); }}")
                out.append(f"static inline {t} tvm_rem_{sfx}({t} a, {t} b) {{ return b == 0 ? a : (a == {smin} && b == -1) ? 0 : ({t})(a % b); }}")
                out.append(f"static inline {t} tvm_shra_{sfx}({t} a, {t} b) {{ return ((uint8_t)b >= {w}) ? (a < 0 ? ({t})-1 : 0) : ({t})(a >> b); }}")
                lo, hi = smin, smax
            else:
                out.append(f"static inline {t} tvm_div_{sfx}({t} a, {t} b) {{ return b == 0 ? ({t}){umax} : ({t})(a / b); }}")
                out.append(f"static inline {t} tvm_rem_{sfx}({t} a, {t} b) {{ return b == 0 ? a : ({t})(a % b); }}")
                out.append(f"static inline {t} tvm_shra_{sfx}({t} a, {t} b) {{ return b >= {w} ? 0 : ({t})(a >> b); }}")
                lo, hi = 0, umax
            out.append(f"static inline {t} tvm_shl_{sfx}({t} a, {t} b) {{ return ((uint8_t)b >= {w}) ? 0 : ({t})((uint8_t)a << b); }}")
            out.append(f"static inline {t} tvm_shrl_{sfx}({t} a, {t} b) {{ return ((uint8_t)b >= {w}) ? 0 : ({t})(((uint8_t)a & {mask}u) >> b); }}")
            neg = ("if (b < 0) return a == 1 ? 1 : (a == -1 ? ((b & 1) ? -1 : 1) : 0);" if sign == "s" else "")
            out.append(f"static inline {t} tvm_ipow_{sfx}({t} a, {t} b) {{ {neg} uint8_t r = 1, x = (uint8_t)a, e = (uint8_t)b & {mask}u; "
                       f"while (e) {{ if (e & 1) r = (uint8_t)(r * x); x = (uint8_t)(x * x); e >>= 1; }} return ({t})r; }}")
            out.append(f"static inline {t} tvm_f2i_{sfx}(double v) {{ return v != v ? 0 : v <= {lo}.0 ? ({t}){lo} : v >= {hi}.0 ? ({t}){hi} : ({t})v; }}")
        out.append(f"static inline int tvm_clz{w}(uint8_t a) {{ a &= {mask}u; return a == 0 ? {w} : __builtin_clzll((uint64_t)a) - {64 - w}; }}")
    return out


def _float_helpers() -> str:
    return r"""
static inline float tvm_fmaxf(float a, float b) { return (a != a || b != b) ? NAN : (a > b ? a : (b > a ? b : (signbit(a) ? b : a))); }
static inline float tvm_fminf(float a, float b) { return (a != a || b != b) ? NAN : (a < b ? a : (b < a ? b : (signbit(a) ? a : b))); }
static inline double tvm_fmax(double a, double b) { return (a != a || b != b) ? NAN : (a > b ? a : (b > a ? b : (signbit(a) ? b : a))); }
static inline double tvm_fmin(double a, double b) { return (a != a || b != b) ? NAN : (a < b ? a : (b < a ? b : (signbit(a) ? a : b))); }
static inline float tvm_selgtf(float a, float c) { return ((a > c) | (a != a)) ? a : c; }
static inline float tvm_selgef(float a, float c) { return ((a >= c) | (a != a)) ? a : c; }
static inline float tvm_selltf(float a, float c) { return ((a < c) | (a != a)) ? a : c; }
static inline float tvm_sellef(float a, float c) { return ((a <= c) | (a != a)) ? a : c; }
static inline double tvm_selgt(double a, double c) { return ((a > c) | (a != a)) ? a : c; }
static inline double tvm_selge(double a, double c) { return ((a >= c) | (a != a)) ? a : c; }
static inline double tvm_sellt(double a, double c) { return ((a < c) | (a != a)) ? a : c; }
static inline double tvm_selle(double a, double c) { return ((a <= c) | (a != a)) ? a : c; }
static inline float tvm_expf(float a) { return expf(a); }
static inline float tvm_tanhf(float a) { return tanhf(a); }
static inline float tvm_logf(float a) { return logf(a); }
static inline float tvm_erff(float a) { return erff(a); }
static inline float tvm_logisticf(float a) { return 1.0f / (1.0f + expf(-a)); }
static inline float tvm_fsignf(float a) { return a != a ? a : (a > 0 ? 1.0f : (a < 0 ? -1.0f : a)); }
static inline double tvm_fsign(double a) { return a != a ? a : (a > 0 ? 1.0 : (a < 0 ? -1.0 : a)); }
static inline int32_t tvm_totalorder32(float a) { int32_t i; memcpy(&i, &a, 4); return i < 0 ? (i ^ INT32_MAX) : i; }
static inline int64_t tvm_totalorder64(double a) { int64_t i; memcpy(&i, &a, 8); return i < 0 ? (i ^ INT64_MAX) : i; }
static inline float tvm_f16_to_f32(uint16_t h) {
  const uint32_t em = h & 0x7fffu, inf = (uint32_t)0 - (uint32_t)(em >= 0x7c00u);
  const uint32_t nan = (uint32_t)0 - (uint32_t)(em > 0x7c00u), sub = (uint32_t)0 - (uint32_t)(em < 0x400u);
  const float s = (float)(int32_t)em * 0x1p-24f; uint32_t sb; memcpy(&sb, &s, 4);
  const uint32_t nb = ((em << 13) + 0x38000000u + (0x38000000u & inf)) | (0x400000u & nan);
  const uint32_t u = (nb & ~sub) | (sb & sub) | ((uint32_t)(h & 0x8000u) << 16);
  float f; memcpy(&f, &u, 4); return f; }
static inline uint16_t tvm_f32_to_f16(float f) {
  uint32_t u; memcpy(&u, &f, 4);
  const uint32_t a = u & 0x7fffffffu; float af; memcpy(&af, &a, 4);
  const float sf = af + 0.5f; uint32_t sb; memcpy(&sb, &sf, 4);
  const uint32_t nan = (uint32_t)0 - (uint32_t)(a > 0x7f800000u);
  const uint32_t big = (uint32_t)0 - (uint32_t)(a >= 0x47800000u), sub = (uint32_t)0 - (uint32_t)(a < 0x38800000u);
  const uint32_t inf_nan = 0x7c00u | ((0x200u | ((a >> 13) & 0x3ffu)) & nan);
  const uint32_t normal = (a + 0xc8000fffu + ((a >> 13) & 1u)) >> 13;
  return (uint16_t)((inf_nan & big) | ((sb - 0x3f000000u) & sub) | (normal & ~(big | sub)) | ((u >> 16) & 0x8000u)); }
static inline float tvm_bf16_to_f32(uint16_t h) { uint32_t u = (uint32_t)h << 16; float f; memcpy(&f, &u, 4); return f; }
static inline uint16_t tvm_f32_to_bf16(float f) { uint32_t u; memcpy(&u, &f, 4); const uint32_t nan = (uint32_t)0 - (uint32_t)((u & 0x7fffffffu) > 0x7f800000u); return (uint16_t)(((u >> 16 | 0x40u) & nan) | ((u + 0x7fffu + ((u >> 16) & 1u)) >> 16 & ~nan)); }
"""


HELPERS = (_float_helpers() + "\n" + _int_helpers() + "\n" + complex_c.helpers() + "\n"
           + special_c.HELPERS + special_c.BIT_HELPERS + special_c.NEXT_AFTER_HELPERS + special_c.SMALL_FLOAT_HELPERS + special_c.complex_helpers() + "\n")
