"""Sub-byte integers (i2, i4, ui2, ui4), 4- and 6-bit floats and quantized
types, end to end, against ml_dtypes / numpy computations.

Sub-byte integers: one element per byte as ml_dtypes stores them; every op
wraps to the N-bit width as StableHLO defines (two's complement), float ->
int conversion saturates like the wider types do."""
from __future__ import annotations

import shutil

import numpy as np
import pytest

from tvm_testing import run_text  # noqa: E402

pytestmark = pytest.mark.skipif(shutil.which("cc") is None, reason="needs a C compiler")
ml_dtypes = pytest.importorskip("ml_dtypes")

SUB_BYTE = [("i4", "int4", 4, True), ("ui4", "uint4", 4, False),
            ("i2", "int2", 2, True), ("ui2", "uint2", 2, False)]


def wrap(x, bits, signed):
    """int64 values wrapped to ``bits`` (two's complement when signed)."""
    x = np.asarray(x, np.int64) & ((1 << bits) - 1)
    if signed:
        x = np.where(x >= 1 << (bits - 1), x - (1 << bits), x)
    return x


def every_value(bits, signed):
    lo = -(1 << (bits - 1)) if signed else 0
    return np.arange(lo, lo + (1 << bits), dtype=np.int64)


@pytest.mark.parametrize("el,name,bits,signed", SUB_BYTE)
def test_sub_byte_elementwise_wraps_like_n_bit_integers(el, name, bits, signed):
    """Every pair of values through add/sub/mul/div/rem/shifts/max and
    negate/abs/not/popcnt/clz: results wrap mod 2^N; x/0 is -1 (all ones),
    INT_MIN/-1 is INT_MIN, shifts by >= N give 0 or the sign fill."""
    dt = getattr(ml_dtypes, name)
    v = every_value(bits, signed)
    a64, b64 = (x.ravel() for x in np.meshgrid(v, v, indexing="ij"))
    n = a64.size
    T = f"tensor<{n}x{el}>"
    ops = ["add", "subtract", "multiply", "divide", "remainder", "shift_left",
           "shift_right_logical", "shift_right_arithmetic", "maximum", "and", "xor"]
    un = ["negate", "abs", "not", "popcnt", "count_leading_zeros"]
    lines = [f"  %r{i} = stablehlo.{o} %a, %b : {T}" for i, o in enumerate(ops)]
    lines += [f"  %u{i} = stablehlo.{o} %a : {T}" for i, o in enumerate(un)]
    rets = [f"%r{i}" for i in range(len(ops))] + [f"%u{i}" for i in range(len(un))]
    t = (f"func.func @main(%a: {T}, %b: {T}) -> ({', '.join([T] * len(rets))}) {{\n"
         + "\n".join(lines) + f"\n  return {', '.join(rets)} : {', '.join([T] * len(rets))}\n}}")
    out = run_text(t, a64.astype(dt), b64.astype(dt))
    for o in out:
        assert o.dtype == dt
    got = dict(zip(ops + un, (np.asarray(o).astype(np.int64) for o in out)))
    m = (1 << bits) - 1
    ua, ub = a64 & m, b64 & m            # the N-bit patterns
    smin = -(1 << (bits - 1)) if signed else None
    with np.errstate(all="ignore"):
        safe_b = np.where(b64 == 0, 1, b64)
        q = np.trunc(a64 / safe_b).astype(np.int64)
        div = np.where(b64 == 0, -1, q)
        rem = np.where(b64 == 0, a64, a64 - q * safe_b)
        if signed:
            ovf = (a64 == smin) & (b64 == -1)
            div, rem = np.where(ovf, smin, div), np.where(ovf, 0, rem)
    big = ub >= bits
    ref = {
        "add": a64 + b64, "subtract": a64 - b64, "multiply": a64 * b64,
        "divide": div, "remainder": rem,
        "shift_left": np.where(big, 0, a64 << np.minimum(ub, 63)),
        "shift_right_logical": np.where(big, 0, ua >> np.minimum(ub, 63)),
        "shift_right_arithmetic": np.where(big, np.where(a64 < 0, -1, 0), a64 >> np.minimum(ub, 63)),
        "maximum": np.maximum(a64, b64), "and": a64 & b64, "xor": a64 ^ b64,
        "negate": -a64, "abs": np.abs(a64), "not": ~a64,
        "popcnt": np.array([bin(int(x)).count("1") for x in ua]),
        "count_leading_zeros": np.array([bits - int(x).bit_length() for x in ua]),
    }
    for k in ref:
        np.testing.assert_array_equal(got[k], wrap(ref[k], bits, signed), err_msg=k)
    # the storage bytes are ml_dtypes' own (high bits zero)
    np.testing.assert_array_equal(np.asarray(out[0]).view(np.uint8),
                                  wrap(a64 + b64, bits, signed).astype(dt).view(np.uint8))


@pytest.mark.parametrize("el,name,bits,signed", SUB_BYTE)
def test_sub_byte_converts_and_constants(el, name, bits, signed):
    """i32 -> iN truncates (keeps the low N bits), iN -> i32/f32 extends,
    f32 -> iN saturates (NaN -> 0); decimal and hex dense literals."""
    dt = getattr(ml_dtypes, name)
    v = every_value(bits, signed)
    wide = np.array([-9, -8, -3, -1, 0, 1, 3, 7, 8, 15, 16, 300, -300, 2**31 - 1, -2**31, 5], np.int32)
    fl = np.array([0.4, -0.6, 1.7, -1.7, 2.5, 100, -100, np.nan, np.inf, -np.inf, 3.0, -2.0], np.float32)
    n = v.size
    hexes = "".join(f"{int(x) & ((1 << bits) - 1):02X}" for x in v)
    t = f"""func.func @main(%w: tensor<16xi32>, %f: tensor<12xf32>, %x: tensor<{n}x{el}>) -> (tensor<16x{el}>, tensor<12x{el}>, tensor<{n}xi32>, tensor<{n}xf32>, tensor<{n}x{el}>, tensor<{n}x{el}>) {{
  %0 = stablehlo.convert %w : (tensor<16xi32>) -> tensor<16x{el}>
  %1 = stablehlo.convert %f : (tensor<12xf32>) -> tensor<12x{el}>
  %2 = stablehlo.convert %x : (tensor<{n}x{el}>) -> tensor<{n}xi32>
  %3 = stablehlo.convert %x : (tensor<{n}x{el}>) -> tensor<{n}xf32>
  %4 = stablehlo.constant dense<[{', '.join(str(int(x)) for x in v)}]> : tensor<{n}x{el}>
  %5 = stablehlo.constant dense<"0x{hexes}"> : tensor<{n}x{el}>
  return %0, %1, %2, %3, %4, %5 : tensor<16x{el}>, tensor<12x{el}>, tensor<{n}xi32>, tensor<{n}xf32>, tensor<{n}x{el}>, tensor<{n}x{el}>
}}"""
    x = v.astype(dt)
    trunc, sat, ext, tof, c_dec, c_hex = run_text(t, wide, fl, x)
    np.testing.assert_array_equal(trunc.astype(np.int64), wrap(wide, bits, signed))
    lo, hi = (v.min(), v.max())
    ref = np.where(np.isnan(fl), 0, np.clip(np.nan_to_num(fl, posinf=1e9, neginf=-1e9), lo, hi)).astype(np.int64)
    np.testing.assert_array_equal(sat.astype(np.int64), ref)
    np.testing.assert_array_equal(ext, v)
    np.testing.assert_array_equal(tof, v.astype(np.float32))
    np.testing.assert_array_equal(c_dec.astype(np.int64), v)
    np.testing.assert_array_equal(c_hex.view(np.uint8), x.view(np.uint8))


def test_sub_byte_reduce_dot_and_layout_ops():
    """Reductions and a dot_general wrap mod 2^4 like their elementwise
    forms; transpose/broadcast/concatenate/compare/select keep values."""
    rng = np.random.default_rng(1)
    a = rng.integers(-8, 8, (5, 7)).astype(ml_dtypes.int4)
    b = rng.integers(-8, 8, (7, 3)).astype(ml_dtypes.int4)
    u = rng.integers(0, 16, (5, 7)).astype(ml_dtypes.uint4)
    t = """func.func @main(%a: tensor<5x7xi4>, %b: tensor<7x3xi4>, %u: tensor<5x7xui4>) -> (tensor<5xi4>, tensor<5x3xi4>, tensor<7x5xi4>, tensor<10x7xi4>, tensor<5x7xui4>, tensor<7xui4>) {
  %z = stablehlo.constant dense<0> : tensor<i4>
  %s = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [1] : (tensor<5x7xi4>, tensor<i4>) -> tensor<5xi4>
  %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<5x7xi4>, tensor<7x3xi4>) -> tensor<5x3xi4>
  %t = stablehlo.transpose %a, dims = [1, 0] : (tensor<5x7xi4>) -> tensor<7x5xi4>
  %c = stablehlo.concatenate %a, %a, dim = 0 : (tensor<5x7xi4>, tensor<5x7xi4>) -> tensor<10x7xi4>
  %k = stablehlo.constant dense<9> : tensor<5x7xui4>
  %p = stablehlo.compare GT, %u, %k : (tensor<5x7xui4>, tensor<5x7xui4>) -> tensor<5x7xi1>
  %q = stablehlo.select %p, %u, %k : tensor<5x7xi1>, tensor<5x7xui4>
  %z8 = stablehlo.constant dense<0> : tensor<ui4>
  %m = stablehlo.reduce(%u init: %z8) applies stablehlo.maximum across dimensions = [0] : (tensor<5x7xui4>, tensor<ui4>) -> tensor<7xui4>
  return %s, %d, %t, %c, %q, %m : tensor<5xi4>, tensor<5x3xi4>, tensor<7x5xi4>, tensor<10x7xi4>, tensor<5x7xui4>, tensor<7xui4>
}"""
    s, d, tr, c, q, m = run_text(t, a, b, u)
    a64, b64, u64 = (x.astype(np.int64) for x in (a, b, u))
    np.testing.assert_array_equal(s.astype(np.int64), wrap(a64.sum(1), 4, True))
    np.testing.assert_array_equal(d.astype(np.int64), wrap(a64 @ b64, 4, True))
    np.testing.assert_array_equal(tr, a.T)
    np.testing.assert_array_equal(c, np.concatenate([a, a]))
    np.testing.assert_array_equal(q.astype(np.int64), np.maximum(u64, 9))
    np.testing.assert_array_equal(m.astype(np.int64), u64.max(0))


def test_sub_byte_arguments_are_typed():
    """An int8 array for an i4 argument is a typed error, not a silent wrap;
    an out-of-range literal is a located parse error."""
    from tensorvm import compiler, runtime
    from tensorvm.compiler.errors import CompileError
    from tensorvm.runtime import InvalidArgumentError
    t = """func.func @main(%a: tensor<3xi4>) -> tensor<3xi4> {
  %0 = stablehlo.add %a, %a : tensor<3xi4>
  return %0 : tensor<3xi4>
}"""
    m = runtime.load_module(compiler.compile_str(t), device="local-sync")
    with pytest.raises(InvalidArgumentError, match="tensor<3xi4>"):
        m.main(np.array([1, 2, 3], np.int8))
    np.testing.assert_array_equal(m.main(np.array([1, 4, -5], ml_dtypes.int4)), [2, -8, 6])
    bad = """func.func @main() -> tensor<2xi4> {
  %0 = stablehlo.constant dense<[1, 16]> : tensor<2xi4>
  return %0 : tensor<2xi4>
}"""
    with pytest.raises(CompileError, match="out of range"):
        compiler.compile_str(bad)


SMALL = [("f4E2M1FN", "float4_e2m1fn", 16), ("f6E2M3FN", "float6_e2m3fn", 64),
         ("f6E3M2FN", "float6_e3m2fn", 64)]
EDGES = np.array([0, -0.0, 1, -1.5, 0.1, 0.25, 0.75, 2.5, 3.3, 5, 6, 6.5, 7, 7.5, 7.75, 8, 27,
                  28, 29.9, 30, 31, 1e-3, 1e-6, 500, 1e5, -1e5, np.inf, -np.inf, np.nan,
                  -np.nan, 0.0625, 0.03125, 0.09375, 0.046875, 0.1875, 3.25, 3.75, 4.5], np.float32)


@pytest.mark.parametrize("el,name,count", SMALL)
def test_small_float_converts_are_bit_exact(el, name, count):
    """f32 -> f4/f6 rounds to nearest even, saturates overflow and inf to
    the largest finite value, and encodes NaN as ml_dtypes does; every
    pattern decodes exactly; f16/bf16/f64 sources and an f4 <-> f6 convert
    agree with ml_dtypes."""
    dt = getattr(ml_dtypes, name)
    n = EDGES.size
    t = f"""func.func @main(%x: tensor<{n}xf32>, %y: tensor<{count}x{el}>, %h: tensor<{n}xf16>, %d: tensor<{n}xf64>) -> (tensor<{n}x{el}>, tensor<{count}xf32>, tensor<{n}x{el}>, tensor<{n}x{el}>, tensor<{count}xbf16>, tensor<{count}xf8E4M3FN>) {{
  %0 = stablehlo.convert %x : (tensor<{n}xf32>) -> tensor<{n}x{el}>
  %1 = stablehlo.convert %y : (tensor<{count}x{el}>) -> tensor<{count}xf32>
  %2 = stablehlo.convert %h : (tensor<{n}xf16>) -> tensor<{n}x{el}>
  %3 = stablehlo.convert %d : (tensor<{n}xf64>) -> tensor<{n}x{el}>
  %4 = stablehlo.convert %y : (tensor<{count}x{el}>) -> tensor<{count}xbf16>
  %5 = stablehlo.convert %y : (tensor<{count}x{el}>) -> tensor<{count}xf8E4M3FN>
  return %0, %1, %2, %3, %4, %5 : tensor<{n}x{el}>, tensor<{count}xf32>, tensor<{n}x{el}>, tensor<{n}x{el}>, tensor<{count}xbf16>, tensor<{count}xf8E4M3FN>
}}"""
    every = np.arange(count, dtype=np.uint8).view(dt)
    with np.errstate(over="ignore"):
        h, d = EDGES.astype(np.float16), EDGES.astype(np.float64)
    enc, dec, enc_h, enc_d, to_bf, to_f8 = run_text(t, EDGES, every, h, d)
    with np.errstate(invalid="ignore"):
        np.testing.assert_array_equal(enc.view(np.uint8), EDGES.astype(dt).view(np.uint8))
        np.testing.assert_array_equal(enc_h.view(np.uint8), h.astype(dt).view(np.uint8))
        np.testing.assert_array_equal(enc_d.view(np.uint8), d.astype(dt).view(np.uint8))
    np.testing.assert_array_equal(dec, every.astype(np.float32))
    np.testing.assert_array_equal(to_bf.view(np.uint16), every.astype(ml_dtypes.bfloat16).view(np.uint16))
    np.testing.assert_array_equal(to_f8.view(np.uint8), every.astype(ml_dtypes.float8_e4m3fn).view(np.uint8))


@pytest.mark.parametrize("el,name,count", SMALL)
def test_small_float_ops_compute_in_f32_then_round(el, name, count):
    """add / multiply / divide / exp on every pair: computed in f32 and
    rounded once to the type (what ml_dtypes gives for the f32 result);
    decimal and hex literals encode as ml_dtypes does."""
    dt = getattr(ml_dtypes, name)
    every = np.arange(count, dtype=np.uint8).view(dt)
    a, b = (x.ravel() for x in np.meshgrid(every, every, indexing="ij"))
    n = a.size
    T = f"tensor<{n}x{el}>"
    t = f"""func.func @main(%a: {T}, %b: {T}) -> ({T}, {T}, {T}, {T}, tensor<6x{el}>) {{
  %0 = stablehlo.add %a, %b : {T}
  %1 = stablehlo.multiply %a, %b : {T}
  %2 = stablehlo.divide %a, %b : {T}
  %3 = stablehlo.exponential %a : {T}
  %4 = stablehlo.constant dense<[0.1, 3.1415, -2.6, 100.0, 0x01, 0x07]> : tensor<6x{el}>
  return %0, %1, %2, %3, %4 : {T}, {T}, {T}, {T}, tensor<6x{el}>
}}"""
    s, p, q, e, c = run_text(t, a, b)
    af, bf = a.astype(np.float32), b.astype(np.float32)
    with np.errstate(all="ignore"):
        for got, ref in ((s, af + bf), (p, af * bf), (q, af / bf), (e, np.exp(af))):
            np.testing.assert_array_equal(got.view(np.uint8), ref.astype(dt).view(np.uint8))
    ref = np.array([0.1, 3.1415, -2.6, 100.0]).astype(dt).view(np.uint8)
    np.testing.assert_array_equal(c.view(np.uint8), list(ref) + [1, 7])


def test_f8_saturating_rounding_near_the_largest_value():
    """Values just above an f8 type's largest finite value round down to it
    (round to nearest), only past the midpoint do they overflow."""
    for el, name in (("f8E4M3FN", "float8_e4m3fn"), ("f8E5M2", "float8_e5m2"),
                     ("f8E4M3", "float8_e4m3"), ("f8E4M3FNUZ", "float8_e4m3fnuz"),
                     ("f8E3M4", "float8_e3m4"), ("f8E5M2FNUZ", "float8_e5m2fnuz")):
        dt = getattr(ml_dtypes, name)
        mx = float(ml_dtypes.finfo(dt).max)
        x = (mx * np.array([1, 1.01, 1.03, 1.06, 1.0625, 1.07, 1.2, -1.01, -1.2])).astype(np.float32)
        t = f"""func.func @main(%x: tensor<9xf32>) -> tensor<9x{el}> {{
  %0 = stablehlo.convert %x : (tensor<9xf32>) -> tensor<9x{el}>
  return %0 : tensor<9x{el}>
}}"""
        got = run_text(t, x)
        np.testing.assert_array_equal(got.view(np.uint8), x.astype(dt).view(np.uint8), err_msg=el)


# -- quantized types ---------------------------------------------------------------------
Q1 = "!quant.uniform<i8:f32, 0.5:-3>"
Q2 = "!quant.uniform<i8:f32, 0.25:2>"
QA = "!quant.uniform<i8<-127:127>:f32:1, {0.25:-3, 0.5:4}>"


def np_quantize(x, scale, zp, lo=-128, hi=127, axis=None, ndim=None):
    """The spec's quantize in f32: round_nearest_even(clamp(x / s + zp))."""
    s, z = np.float32(scale), np.float32(zp)
    if axis is not None:
        shape = [1] * ndim
        shape[axis] = -1
        s, z = (np.asarray(v, np.float32).reshape(shape) for v in (scale, zp))
    x = np.asarray(x, np.float32)
    return np.rint(np.clip(x / s + z, lo, hi)).astype(np.int64)


def np_dequantize(q, scale, zp, axis=None):
    s, z = np.float32(scale), np.float32(zp)
    if axis is not None:
        shape = [1] * q.ndim
        shape[axis] = -1
        s, z = (np.asarray(v, np.float32).reshape(shape) for v in (scale, zp))
    return (q.astype(np.float32) - z) * s


def test_quant_types_parse_and_print_canonically():
    """Per-tensor and per-axis types print in MLIR's spelling whatever the
    source spacing; zero points of 0 and full storage ranges are implied."""
    from tensorvm.compiler.mlir.parser import parse_module
    from tensorvm.compiler.ir import quant
    from tensorvm.compiler.ir.printer import print_module
    q = quant.parse("!quant.uniform<i8<-127:127>:f32:1, {0.1:-3, 0.2:4}>")
    assert (q.storage_min, q.storage_max, q.axis, q.scales, q.zero_points) == (-127, 127, 1, (0.1, 0.2), (-3, 4))
    assert str(q) == "!quant.uniform<i8<-127:127>:f32:1, {1.000000e-01:-3,2.000000e-01:4}>"
    assert str(quant.parse("!quant.uniform<u8<0:255>:f32, 0.1>")) == "!quant.uniform<u8:f32, 1.000000e-01>"
    assert quant.parse("!quant.uniform<u8:f32, 2.0:7>").storage_element == "ui8"
    assert str(quant.parse("!quant.uniform<i8:f32, 0.0123456789:1>")) == \
        "!quant.uniform<i8:f32, 0.0123456789:1>"        # %e would lose digits
    with pytest.raises(quant.QuantTypeError):
        quant.parse("!quant.uniform<i8:f32:0, 0.1:2>")   # per-axis without {...}
    text = f"""func.func @main(%a: tensor<2x!quant.uniform<i8:f32,0.5 : -3>>) -> tensor<2x{Q1}> {{
  return %a : tensor<2x{Q1}>
}}"""
    printed = print_module(parse_module(text))
    assert printed.count("!quant.uniform<i8:f32, 5.000000e-01:-3>") == 3
    assert print_module(parse_module(printed)) == printed


def test_uniform_quantize_dequantize_match_the_spec_formulas():
    """float -> quant rounds half to even after the zero point and clamps to
    the storage range (a narrowed one too); per-axis scales follow their
    dimension; quant -> quant requantizes; the API carries storage ints."""
    rng = np.random.default_rng(4)
    x = np.concatenate([rng.uniform(-80, 80, 16), [0.25, 0.75, -1.25, 1000, -1000, 2.5, -0.25, 0]])
    x = x.astype(np.float32).reshape(4, 6)
    qa = rng.integers(-127, 128, (3, 2)).astype(np.int8)
    t = f"""func.func @main(%x: tensor<4x6xf32>, %a: tensor<3x2x{QA}>) -> (tensor<4x6x{Q1}>, tensor<4x6x{QA.replace(':1,', ':0,').replace('{0.25:-3, 0.5:4}', '{0.25:-3, 0.5:4, 1.0:0, 2.0:-1}')}>, tensor<3x2xf32>, tensor<4x6x{Q2}>, tensor<4x6x!quant.uniform<u8:f32, 0.5:128>>) {{
  %0 = stablehlo.uniform_quantize %x : (tensor<4x6xf32>) -> tensor<4x6x{Q1}>
  %1 = stablehlo.uniform_quantize %x : (tensor<4x6xf32>) -> tensor<4x6x!quant.uniform<i8<-127:127>:f32:0, {{0.25:-3, 0.5:4, 1.0:0, 2.0:-1}}>>
  %2 = stablehlo.uniform_dequantize %a : (tensor<3x2x{QA}>) -> tensor<3x2xf32>
  %3 = stablehlo.uniform_quantize %0 : (tensor<4x6x{Q1}>) -> tensor<4x6x{Q2}>
  %4 = stablehlo.uniform_quantize %x : (tensor<4x6xf32>) -> tensor<4x6x!quant.uniform<u8:f32, 0.5:128>>
  return %0, %1, %2, %3, %4 : tensor<4x6x{Q1}>, tensor<4x6x!quant.uniform<i8<-127:127>:f32:0, {{0.25:-3, 0.5:4, 1.0:0, 2.0:-1}}>>, tensor<3x2xf32>, tensor<4x6x{Q2}>, tensor<4x6x!quant.uniform<u8:f32, 0.5:128>>
}}"""
    q, pa, d, rq, u = run_text(t, x, qa)
    assert q.dtype == np.int8 and pa.dtype == np.int8 and u.dtype == np.uint8
    np.testing.assert_array_equal(q, np_quantize(x, 0.5, -3))
    np.testing.assert_array_equal(pa, np_quantize(x, [0.25, 0.5, 1.0, 2.0], [-3, 4, 0, -1], -127, 127, 0, 2))
    np.testing.assert_array_equal(d, np_dequantize(qa, [0.25, 0.5], [-3, 4], axis=1))
    np.testing.assert_array_equal(rq, np_quantize(np_dequantize(q, 0.5, -3), 0.25, 2))
    np.testing.assert_array_equal(u, np_quantize(x, 0.5, 128, 0, 255))


def test_quantized_ops_dequantize_compute_and_quantize():
    """add (operands and result with different parameters), dot_general,
    a hybrid f32 x quant dot, convolution and compare: the float op on the
    dequantized values, quantized to the result type (scales that are powers
    of two keep every float step exact, so the comparison is exact)."""
    rng = np.random.default_rng(5)
    a = rng.integers(-20, 20, (4, 5)).astype(np.int8)
    b = rng.integers(-20, 20, (4, 5)).astype(np.int8)
    w = rng.integers(-8, 8, (5, 3)).astype(np.int8)
    f = rng.integers(-4, 4, (4, 5)).astype(np.float32)
    img = rng.integers(-10, 10, (1, 6, 6, 2)).astype(np.int8)
    ker = rng.integers(-3, 4, (3, 3, 2, 4)).astype(np.int8)
    R = "!quant.uniform<i8:f32, 2.0:1>"
    D = "!quant.uniform<i32:f32, 0.125>"
    W = "!quant.uniform<i8:f32, 0.25>"        # dot_general: rhs zero points are 0
    t = f"""func.func @main(%a: tensor<4x5x{Q1}>, %b: tensor<4x5x{Q2}>, %w: tensor<5x3x{W}>, %f: tensor<4x5xf32>, %img: tensor<1x6x6x2x{Q2}>, %ker: tensor<3x3x2x4x{Q1}>) -> (tensor<4x5x{R}>, tensor<4x3x{D}>, tensor<4x3xf32>, tensor<1x4x4x4x{R}>, tensor<4x5xi1>) {{
  %0 = "stablehlo.add"(%a, %b) : (tensor<4x5x{Q1}>, tensor<4x5x{Q2}>) -> tensor<4x5x{R}>
  %1 = "stablehlo.dot_general"(%a, %w) {{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}} : (tensor<4x5x{Q1}>, tensor<5x3x{W}>) -> tensor<4x3x{D}>
  %2 = "stablehlo.dot_general"(%f, %w) {{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}} : (tensor<4x5xf32>, tensor<5x3x{W}>) -> tensor<4x3xf32>
  %3 = stablehlo.convolution(%img, %ker) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {{}} {{batch_group_count = 1 : i64, feature_group_count = 1 : i64}} : (tensor<1x6x6x2x{Q2}>, tensor<3x3x2x4x{Q1}>) -> tensor<1x4x4x4x{R}>
  %4 = stablehlo.compare GT, %a, %b : (tensor<4x5x{Q1}>, tensor<4x5x{Q2}>) -> tensor<4x5xi1>
  return %0, %1, %2, %3, %4 : tensor<4x5x{R}>, tensor<4x3x{D}>, tensor<4x3xf32>, tensor<1x4x4x4x{R}>, tensor<4x5xi1>
}}"""
    s, d, h, c, g = run_text(t, a, b, w, f, img, ker)
    da, db, dw = np_dequantize(a, 0.5, -3), np_dequantize(b, 0.25, 2), np_dequantize(w, 0.25, 0)
    np.testing.assert_array_equal(s, np_quantize(da + db, 2.0, 1))
    assert d.dtype == np.int32
    np.testing.assert_array_equal(d, np_quantize(da @ dw, 0.125, 0, -2**31, 2**31 - 1))
    np.testing.assert_array_equal(h, f @ dw)
    di, dk = np_dequantize(img, 0.25, 2), np_dequantize(ker, 0.5, -3)
    conv = np.zeros((1, 4, 4, 4), np.float32)
    for y in range(4):
        for x in range(4):
            conv[0, y, x] = np.einsum("hwi,hwio->o", di[0, y:y + 3, x:x + 3], dk)
    np.testing.assert_array_equal(c, np_quantize(conv, 2.0, 1))
    np.testing.assert_array_equal(g, da > db)


def test_quantized_shape_ops_move_storage_integers():
    """transpose, reshape, broadcast_in_dim, slice and concatenate keep the
    element type: they move the storage integers; a concatenate whose
    operands have other parameters than its result requantizes them."""
    rng = np.random.default_rng(6)
    a = rng.integers(-128, 128, (2, 3)).astype(np.int8)
    b = rng.integers(-128, 128, (2, 3)).astype(np.int8)
    t = f"""func.func @main(%a: tensor<2x3x{Q1}>, %b: tensor<2x3x{Q1}>, %c: tensor<2x3x{Q2}>) -> (tensor<3x2x{Q1}>, tensor<6x{Q1}>, tensor<4x2x3x{Q1}>, tensor<2x2x{Q1}>, tensor<4x3x{Q1}>, tensor<4x3x{Q1}>) {{
  %0 = stablehlo.transpose %a, dims = [1, 0] : (tensor<2x3x{Q1}>) -> tensor<3x2x{Q1}>
  %1 = stablehlo.reshape %a : (tensor<2x3x{Q1}>) -> tensor<6x{Q1}>
  %2 = stablehlo.broadcast_in_dim %a, dims = [1, 2] : (tensor<2x3x{Q1}>) -> tensor<4x2x3x{Q1}>
  %3 = stablehlo.slice %a [0:2, 1:3] : (tensor<2x3x{Q1}>) -> tensor<2x2x{Q1}>
  %4 = stablehlo.concatenate %a, %b, dim = 0 : (tensor<2x3x{Q1}>, tensor<2x3x{Q1}>) -> tensor<4x3x{Q1}>
  %5 = "stablehlo.concatenate"(%a, %c) {{dimension = 0 : i64}} : (tensor<2x3x{Q1}>, tensor<2x3x{Q2}>) -> tensor<4x3x{Q1}>
  return %0, %1, %2, %3, %4, %5 : tensor<3x2x{Q1}>, tensor<6x{Q1}>, tensor<4x2x3x{Q1}>, tensor<2x2x{Q1}>, tensor<4x3x{Q1}>, tensor<4x3x{Q1}>
}}"""
    tr, rs, bc, sl, cc, rq = run_text(t, a, b, b)
    np.testing.assert_array_equal(tr, a.T)
    np.testing.assert_array_equal(rs, a.reshape(6))
    np.testing.assert_array_equal(bc, np.broadcast_to(a, (4, 2, 3)))
    np.testing.assert_array_equal(sl, a[:, 1:3])
    np.testing.assert_array_equal(cc, np.concatenate([a, b]))
    np.testing.assert_array_equal(rq, np.concatenate([a, np_quantize(np_dequantize(b, 0.25, 2), 0.5, -3)]))


def test_quantized_signature_and_typed_errors():
    """Quantized arguments/results are storage integers at the API, named in
    reflection; a float array for one is an InvalidArgumentError; a reduce
    over quantized values and an unknown !quant type are typed errors."""
    from tensorvm import compiler, runtime
    from tensorvm.compiler.errors import CompileError, UnsupportedOpError
    from tensorvm.runtime import InvalidArgumentError
    from tensorvm.vmfb import container
    t = f"""func.func @main(%a: tensor<3x{Q1}>) -> tensor<3xf32> {{
  %0 = stablehlo.uniform_dequantize %a : (tensor<3x{Q1}>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}}"""
    vm = compiler.compile_str(t)
    refl = next(f for f in container.read_module(vm).functions if f.name == "main").reflection
    assert refl["args"][0]["dtype"] == "i8"
    assert refl["args"][0]["quantized"] == "!quant.uniform<i8:f32, 5.000000e-01:-3>"
    assert "quantized" not in refl["results"][0]
    m = runtime.load_module(vm, device="local-sync")
    np.testing.assert_array_equal(m.main(np.array([-3, 0, 5], np.int8)), [0, 1.5, 4])
    with pytest.raises(InvalidArgumentError, match="tensor<3xi8>"):
        m.main(np.array([1, 2, 3], np.float32))
    reduce = f"""func.func @main(%a: tensor<4x{Q1}>, %z: tensor<{Q1}>) -> tensor<{Q1}> {{
  %0 = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [0] : (tensor<4x{Q1}>, tensor<{Q1}>) -> tensor<{Q1}>
  return %0 : tensor<{Q1}>
}}"""
    with pytest.raises(UnsupportedOpError, match="quantized element type .* region"):
        compiler.compile_str(reduce)
    other = """func.func @main(%a: tensor<2x!quant.any<i8:f32>>) -> tensor<2x!quant.any<i8:f32>> {
  return %a : tensor<2x!quant.any<i8:f32>>
}"""
    with pytest.raises(CompileError, match="quant.any"):
        compiler.compile_str(other)


def test_per_axis_add_and_dot_general_match_the_spec_formulas():
    """Per-axis operands: add of two per-axis tensors (other scales and zero
    points per column) into a per-axis result, and int8 weights quantized
    per output channel (axis 1) in a quant x quant dot_general whose i32
    result is per-axis too, and in a hybrid f32 x quant dot: each the float
    op on the spec's dequantized values, quantized per slice."""
    rng = np.random.default_rng(7)
    a = rng.integers(-40, 40, (4, 3)).astype(np.int8)
    b = rng.integers(-40, 40, (4, 3)).astype(np.int8)
    x = rng.integers(-30, 30, (2, 4)).astype(np.int8)
    w = rng.integers(-127, 128, (4, 3)).astype(np.int8)
    f = rng.integers(-4, 4, (2, 4)).astype(np.float32)
    PA = "!quant.uniform<i8:f32:1, {0.5:-3, 0.25:2, 1.0:0}>"
    PB = "!quant.uniform<i8:f32:1, {0.25:1, 0.5:-4, 2.0:5}>"
    PR = "!quant.uniform<i8:f32:1, {1.0:2, 0.5:0, 0.25:-1}>"
    PW = "!quant.uniform<i8<-127:127>:f32:1, {0.125, 0.25, 0.5}>"
    PD = "!quant.uniform<i32:f32:1, {0.0625, 0.125, 0.25}>"
    t = f"""func.func @main(%a: tensor<4x3x{PA}>, %b: tensor<4x3x{PB}>, %x: tensor<2x4x{Q1}>, %w: tensor<4x3x{PW}>, %f: tensor<2x4xf32>) -> (tensor<4x3x{PR}>, tensor<2x3x{PD}>, tensor<2x3xf32>) {{
  %0 = stablehlo.add %a, %b : (tensor<4x3x{PA}>, tensor<4x3x{PB}>) -> tensor<4x3x{PR}>
  %1 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<2x4x{Q1}>, tensor<4x3x{PW}>) -> tensor<2x3x{PD}>
  %2 = stablehlo.dot_general %f, %w, contracting_dims = [1] x [0] : (tensor<2x4xf32>, tensor<4x3x{PW}>) -> tensor<2x3xf32>
  return %0, %1, %2 : tensor<4x3x{PR}>, tensor<2x3x{PD}>, tensor<2x3xf32>
}}"""
    s, d, h = run_text(t, a, b, x, w, f)
    da = np_dequantize(a, [0.5, 0.25, 1.0], [-3, 2, 0], axis=1)
    db = np_dequantize(b, [0.25, 0.5, 2.0], [1, -4, 5], axis=1)
    np.testing.assert_array_equal(s, np_quantize(da + db, [1.0, 0.5, 0.25], [2, 0, -1], axis=1, ndim=2))
    dx, dw = np_dequantize(x, 0.5, -3), np_dequantize(w, [0.125, 0.25, 0.5], [0, 0, 0], axis=1)
    assert d.dtype == np.int32
    np.testing.assert_array_equal(d, np_quantize(dx @ dw, [0.0625, 0.125, 0.25], [0, 0, 0],
                                                 -2**31, 2**31 - 1, axis=1, ndim=2))
    np.testing.assert_array_equal(h, f @ dw)


def test_quantize_saturates_to_the_storage_range():
    """Values far outside the range clamp to storage_min/max, i32 storage
    included (2^31 - 1 is not an f32: the clamped 2^31 must not wrap)."""
    x = np.array([1e12, -1e12, 3.0, -3.0, np.inf, -np.inf], np.float32)
    t = """func.func @main(%x: tensor<6xf32>) -> (tensor<6x!quant.uniform<i32:f32, 1.0>>, tensor<6x!quant.uniform<i8<-100:100>:f32, 1.0:7>>) {
  %0 = stablehlo.uniform_quantize %x : (tensor<6xf32>) -> tensor<6x!quant.uniform<i32:f32, 1.0>>
  %1 = stablehlo.uniform_quantize %x : (tensor<6xf32>) -> tensor<6x!quant.uniform<i8<-100:100>:f32, 1.0:7>>
  return %0, %1 : tensor<6x!quant.uniform<i32:f32, 1.0>>, tensor<6x!quant.uniform<i8<-100:100>:f32, 1.0:7>>
}"""
    q32, q8 = run_text(t, x)
    np.testing.assert_array_equal(q32, [2**31 - 1, -2**31, 3, -3, 2**31 - 1, -2**31])
    np.testing.assert_array_equal(q8, [100, -100, 10, 4, 100, -100])


@pytest.mark.parametrize("el,dtype", [("f16", np.float16), ("bf16", "bfloat16"), ("f8E5M2", "float8_e5m2"),
                                      ("f8E4M3", "float8_e4m3"), ("f8E3M4", "float8_e3m4")])
def test_next_after_steps_in_the_narrow_type(el, dtype):
    """chlo.next_after on types computed in float steps by the type's own ulp
    (it used to step by an f32 ulp and round back to its input): every value
    of the type toward +inf, -inf, 0 and NaN, against numpy / ml_dtypes (numpy's float16
    nextafter(-0, +0) gives -0; C's nextafter, and the f32 kernels, give y)."""
    dt = np.dtype(getattr(ml_dtypes, dtype) if isinstance(dtype, str) else dtype)
    bits = np.arange(1 << (8 * dt.itemsize), dtype=np.uint16 if dt.itemsize == 2 else np.uint8)
    x = bits.view(dt)
    x = x[~np.isnan(x.astype(np.float32))]
    n = x.size
    xs = np.concatenate([x, x, x, x[:16]])
    ys = np.concatenate([np.full(n, np.inf), np.full(n, -np.inf), np.zeros(n),
                         np.full(16, np.nan)]).astype(dt)
    m = xs.size
    t = f"""func.func @main(%x: tensor<{m}x{el}>, %y: tensor<{m}x{el}>) -> tensor<{m}x{el}> {{
  %0 = chlo.next_after %x, %y : tensor<{m}x{el}>, tensor<{m}x{el}> -> tensor<{m}x{el}>
  return %0 : tensor<{m}x{el}>
}}"""
    got = run_text(t, xs, ys)
    with np.errstate(over="ignore"):
        want = np.where(xs == ys, ys, np.nextafter(xs, ys))   # x == y gives y, as C's nextafter
    gf, wf = got.astype(np.float32), want.astype(np.float32)
    assert np.array_equal(np.isnan(gf), np.isnan(wf)), el
    ok = ~np.isnan(wf)
    np.testing.assert_array_equal(got[ok].view(bits.dtype), want[ok].view(bits.dtype), err_msg=el)


def test_next_after_on_finite_only_small_floats_is_a_typed_error():
    from tensorvm.compiler import compile_str
    from tensorvm.compiler.errors import UnsupportedOpError
    t = """func.func @main(%x: tensor<4xf8E4M3FN>, %y: tensor<4xf8E4M3FN>) -> tensor<4xf8E4M3FN> {
  %0 = chlo.next_after %x, %y : tensor<4xf8E4M3FN>, tensor<4xf8E4M3FN> -> tensor<4xf8E4M3FN>
  return %0 : tensor<4xf8E4M3FN>
}"""
    with pytest.raises(UnsupportedOpError, match="f8E4M3FN"):
        compile_str(t)
