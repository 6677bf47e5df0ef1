"""Strength reduction (passes/strength.py): which rewrites are made (IR in,
IR out), that special values come out as the original ops give them, and
that finite values stay within the contract's ulps."""
from __future__ import annotations

import math

import numpy as np
import pytest

from tvm_testing import run_text, simplified

SPECIAL = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 2.0, -2.0, 0.25, -3.5,
                    1e-30, -1e-30, 1e-40, 3e12, -3e12, 1e30, -1e30], np.float32)


def _ops(text):
    ops, counts = simplified(text)
    return ops, dict(counts)


def _power(k, el="f32", n=8, splat_form="broadcast"):
    const = (f"""  %c = stablehlo.constant dense<{k}> : tensor<{el}>
  %k = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<{el}>) -> tensor<{n}x{el}>"""
             if splat_form == "broadcast" else
             f"  %k = stablehlo.constant dense<{k}> : tensor<{n}x{el}>")
    return f"""func.func @main(%x: tensor<{n}x{el}>) -> tensor<{n}x{el}> {{
{const}
  %y = stablehlo.power %x, %k : tensor<{n}x{el}>
  return %y : tensor<{n}x{el}>
}}"""


@pytest.mark.parametrize("k, ops", [
    ("3.0", ["multiply", "multiply"]),
    ("2.0", ["multiply"]),
    ("4.0", ["multiply", "multiply"]),
    ("1.0", []),
    ("-1.0", ["constant", "broadcast_in_dim", "divide"]),
    ("-2.0", ["constant", "broadcast_in_dim", "divide", "multiply"]),
])
def test_integer_powers_become_multiplies(k, ops):
    got, counts = _ops(_power(k))
    assert got == ops + ["return"]
    assert counts == {"power": 1}


def test_power_zero_is_one_and_large_or_odd_powers_stay():
    got, _ = _ops(_power("0.0"))
    assert got == ["constant", "broadcast_in_dim", "return"]
    for k in ("5.0", "-3.0", "0.3", "-2.5", "7.5", "0x7F800000"):
        assert "power" in _ops(_power(k))[0], k


def test_half_powers_become_square_roots():
    got, counts = _ops(_power("0.5", splat_form="full"))
    assert [o for o in got if o not in ("constant", "broadcast_in_dim")] == [
        "sqrt", "add", "compare", "select", "return"]
    got, _ = _ops(_power("-0.5"))
    assert "rsqrt" in got and "power" not in got and "sqrt" not in got
    got, _ = _ops(_power("1.5"))
    assert {"sqrt", "abs", "multiply"} <= set(got) and "power" not in got


def test_narrow_floats_expand_only_one_op_forms():
    assert "power" not in _ops(_power("2.0", "bf16"))[0]
    assert "power" not in _ops(_power("0.5", "f16"))[0]
    assert "power" in _ops(_power("3.0", "bf16"))[0]       # two roundings in bf16
    assert "power" in _ops(_power("1.5", "f16"))[0]


def test_integer_powers():
    got, _ = _ops(_power("3", "i32"))
    assert got == ["multiply", "multiply", "return"]
    assert "power" in _ops(_power("-1", "i32"))[0]
    x = np.array([0, 1, -1, 2, -3, 1000, -70000, 2 ** 30], np.int32)
    with np.errstate(over="ignore"):
        want = x * x * x
    np.testing.assert_array_equal(run_text(_power("3", "i32"), x), want)


def _c_pow(x, k):
    """C99 ``pow`` (numpy's gives NaN for pow(-inf, 0.5); the kernels call C's)."""
    def one(v):
        try:
            return math.pow(v, k)
        except (OverflowError, ValueError, ZeroDivisionError):
            with np.errstate(all="ignore"):
                return float(np.power(np.float64(v), k))
    with np.errstate(over="ignore"):
        return np.array([one(float(v)) for v in x]).astype(np.float32)


@pytest.mark.parametrize("k", ["2.0", "3.0", "4.0", "-1.0", "-2.0", "0.0", "0.5", "-0.5", "1.5", "2.5"])
def test_power_values(k):
    x = np.concatenate([SPECIAL, np.random.default_rng(3).uniform(-50, 50, 200).astype(np.float32),
                        np.geomspace(1e-20, 1e20, 200).astype(np.float32)])
    got = run_text(_power(k, n=x.size), x)
    want = _c_pow(x, float(k))
    special = np.isnan(want) | np.isinf(want) | (want == 0)
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    np.testing.assert_array_equal(got[special & ~np.isnan(want)], want[special & ~np.isnan(want)])
    np.testing.assert_array_equal(np.signbit(got[special]), np.signbit(want[special]))
    finite = ~special
    ulp = np.spacing(np.abs(want[finite]))
    assert np.all(np.abs(got[finite] - want[finite]) <= 2 * ulp)


def _divide(k, el="f32"):
    return f"""func.func @main(%x: tensor<8x{el}>) -> tensor<8x{el}> {{
  %c = stablehlo.constant dense<{k}> : tensor<8x{el}>
  %y = stablehlo.divide %x, %c : tensor<8x{el}>
  return %y : tensor<8x{el}>
}}"""


@pytest.mark.parametrize("k", ["8.0", "-0.25", "1.024000e+03", "2.0"])
def test_divide_by_power_of_two_is_an_exact_multiply(k):
    got, counts = _ops(_divide(k))
    assert "divide" not in got and "multiply" in got and counts == {"reciprocal multiply": 1}
    x = np.concatenate([SPECIAL, np.float32([3e-38, 1.5e-45, 3.4e38, -7.0])])
    x = np.resize(x, 8 * ((x.size + 7) // 8)).reshape(-1, 8)
    for row in x:
        with np.errstate(over="ignore"):
            want = row / np.float32(float(k))
        assert run_text(_divide(k), row).tobytes() == want.tobytes()


def test_divide_by_other_constants_stays():
    for k in ("3.0", "0.1", "0.0", "0x7F800000", "1.000000e+38"):
        assert "divide" in _ops(_divide(k))[0], k
    assert "divide" in _ops(_divide("5.960464477539063e-08", "f16"))[0]    # 2^-24: 2^24 overflows f16


def test_log_of_exp_is_x_and_exp_of_log_stays():
    text = """func.func @main(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %e = stablehlo.exponential %x : tensor<4xf32>
  %l = stablehlo.log %e : tensor<4xf32>
  %m = stablehlo.log %x : tensor<4xf32>
  %n = stablehlo.exponential %m : tensor<4xf32>
  return %l, %n : tensor<4xf32>, tensor<4xf32>
}"""
    got, counts = _ops(text)
    assert got == ["log", "exponential", "return"] and counts == {"log of exp": 1}


def test_converts_through_a_wider_type_are_one_convert():
    text = """func.func @main(%x: tensor<4xf32>, %i: tensor<4xi8>) -> (tensor<4xf16>, tensor<4xf32>) {
  %w = stablehlo.convert %x : (tensor<4xf32>) -> tensor<4xf64>
  %h = stablehlo.convert %w : (tensor<4xf64>) -> tensor<4xf16>
  %a = stablehlo.convert %i : (tensor<4xi8>) -> tensor<4xi32>
  %b = stablehlo.convert %a : (tensor<4xi32>) -> tensor<4xf32>
  return %h, %b : tensor<4xf16>, tensor<4xf32>
}"""
    got, counts = _ops(text)
    assert got == ["convert", "convert", "return"] and counts == {"chain": 2}
    lossy = text.replace("tensor<4xf64>", "tensor<4xbf16>")      # f32 -> bf16 rounds
    assert _ops(lossy)[0].count("convert") == 3


def test_print_stats_counts_strength_reductions():
    from tensorvm.compiler.api import CompileOptions, compile_text
    stats = compile_text(_power("3.0"), CompileOptions()).stats
    assert stats["simplifications"].get("power") == 1
