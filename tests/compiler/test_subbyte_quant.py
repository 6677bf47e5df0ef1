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
