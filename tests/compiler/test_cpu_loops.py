"""CPU loop bodies that vectorise: selects as bit blends (codegen/cpu_body.py)
and row reductions in lanes (codegen/lane_reduce.py), with the values of the
sequential forms (exact for max/min/integers, within rounding for sums)."""
from __future__ import annotations

import numpy as np
import pytest

from tensorvm.compiler.api import CompileOptions, compile_text
from tvm_testing import innermost_loop_bodies, run_text

MASKED = """func.func @main(%s: tensor<4x64xf32>, %m: tensor<4x64xi1>, %i: tensor<4x64xi32>) -> (tensor<4x64xf32>, tensor<4x64xi32>) {
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %b = stablehlo.broadcast_in_dim %ninf, dims = [] : (tensor<f32>) -> tensor<4x64xf32>
  %y = stablehlo.select %m, %s, %b : tensor<4x64xi1>, tensor<4x64xf32>
  %z = stablehlo.constant dense<-7> : tensor<4x64xi32>
  %j = stablehlo.select %m, %z, %i : tensor<4x64xi1>, tensor<4x64xi32>
  return %y, %j : tensor<4x64xf32>, tensor<4x64xi32>
}"""


def _c(text):
    return compile_text(text, CompileOptions(keep_source=True)).stats["c_source"]


def test_select_is_a_blend_not_a_branch():
    body = "\n".join(line for b in innermost_loop_bodies(_c(MASKED)) for line in b)
    assert "tvm_blend_float(" in body and "tvm_blend_u32(" in body and " ? " not in body
    rng = np.random.default_rng(0)
    s = rng.standard_normal((4, 64)).astype(np.float32)
    s[0, :4] = [np.nan, -0.0, np.inf, -np.inf]
    m = rng.random((4, 64)) < 0.5
    m[0, :4] = True
    i = rng.integers(-2 ** 31, 2 ** 31, (4, 64), dtype=np.int32)
    y, j = run_text(MASKED, s, m, i)
    want = np.where(m, s, -np.inf).astype(np.float32)
    assert y.tobytes() == want.tobytes()
    np.testing.assert_array_equal(j, np.where(m, np.int32(-7), i))


def _reduce(op, el, shape, dims, init):
    out = [n for k, n in enumerate(shape) if k not in dims]
    t = "x".join(map(str, shape)) + f"x{el}"
    o = "x".join(map(str, out)) + f"x{el}" if out else el
    return f"""func.func @main(%x: tensor<{t}>) -> tensor<{o}> {{
  %i = stablehlo.constant dense<{init}> : tensor<{el}>
  %r = stablehlo.reduce(%x init: %i) applies stablehlo.{op} across dimensions = [{', '.join(map(str, dims))}] : (tensor<{t}>, tensor<{el}>) -> tensor<{o}>
  return %r : tensor<{o}>
}}"""


@pytest.mark.parametrize("shape, dims", [((5, 32), [1]), ((3, 77), [1]), ((2, 3, 40), [1, 2]),
                                         ((6, 9), [1]), ((300,), [0]), ((4, 5, 33), [0, 2])])
def test_row_maximum_and_minimum_are_exact(shape, dims):
    rng = np.random.default_rng(1)
    x = rng.standard_normal(shape).astype(np.float32)
    flat = x.reshape(-1)
    flat[::17] = -0.0
    flat[5::23] = 0.0
    x2 = x.copy()
    x2.reshape(-1)[7] = np.nan
    src = _c(_reduce("maximum", "f32", shape, dims, "0xFF800000"))
    assert ("float acc" in src) == (shape[-1] >= 4)
    for arr in (x, x2):
        got = run_text(_reduce("maximum", "f32", shape, dims, "0xFF800000"), arr)
        want = np.max(arr, axis=tuple(dims))
        assert got.tobytes() == np.asarray(want, np.float32).tobytes()
        got = run_text(_reduce("minimum", "f32", shape, dims, "0x7F800000"), arr)
        assert got.tobytes() == np.asarray(np.min(arr, axis=tuple(dims)), np.float32).tobytes()


def test_row_maximum_with_an_init_above_the_values():
    x = np.random.default_rng(2).standard_normal((4, 40)).astype(np.float32)
    got = run_text(_reduce("maximum", "f32", (4, 40), [1], "5.0"), x)
    np.testing.assert_array_equal(got, np.full(4, 5.0, np.float32))


def test_integer_row_sums_wrap_exactly_and_count_the_init_once():
    x = np.random.default_rng(3).integers(-2 ** 31, 2 ** 31, (3, 70), dtype=np.int32)
    got = run_text(_reduce("add", "i32", (3, 70), [1], "11"), x)
    want = (x.astype(np.int64).sum(1) + 11).astype(np.int32)       # wraps as int32
    np.testing.assert_array_equal(got, want)
    got = run_text(_reduce("xor", "i32", (3, 70), [1], "5"), x)
    np.testing.assert_array_equal(got, np.bitwise_xor.reduce(x, axis=1) ^ 5)


def test_float_row_sums_count_the_init_once_and_keep_signed_zero():
    x = np.random.default_rng(4).standard_normal((6, 130)).astype(np.float32)
    got = run_text(_reduce("add", "f32", (6, 130), [1], "2.5"), x)
    np.testing.assert_allclose(got, x.astype(np.float64).sum(1) + 2.5, rtol=1e-5, atol=1e-5)
    z = np.full((2, 64), -0.0, np.float32)
    got = run_text(_reduce("add", "f32", (2, 64), [1], "-0.0"), z)
    assert np.all(np.signbit(got)) and np.all(got == 0)


def _argmax(shape, cmp="GT"):
    """JAX's argmax (argmin with LT) over the last dim: (value, index) pairs,
    NaN first, ties to the lower index."""
    t = "x".join(map(str, shape))
    o = "x".join(map(str, shape[:-1]))
    last = len(shape) - 1
    init = "0xFF800000" if cmp == "GT" else "0x7F800000"
    return f"""func.func @main(%x: tensor<{t}xf32>) -> (tensor<{o}xf32>, tensor<{o}xi32>) {{
  %iota = stablehlo.iota dim = {last} : tensor<{t}xi32>
  %v0 = stablehlo.constant dense<{init}> : tensor<f32>
  %i0 = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.reduce(%x init: %v0), (%iota init: %i0) across dimensions = [{last}] : (tensor<{t}xf32>, tensor<{t}xi32>, tensor<f32>, tensor<i32>) -> (tensor<{o}xf32>, tensor<{o}xi32>)
   reducer(%a: tensor<f32>, %b: tensor<f32>) (%ai: tensor<i32>, %bi: tensor<i32>) {{
    %2 = stablehlo.compare {cmp}, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %3 = stablehlo.compare NE, %a, %a, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %4 = stablehlo.or %2, %3 : tensor<i1>
    %5 = stablehlo.compare EQ, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %6 = stablehlo.compare LT, %ai, %bi, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %7 = stablehlo.and %5, %6 : tensor<i1>
    %8 = stablehlo.or %4, %7 : tensor<i1>
    %9 = stablehlo.select %4, %a, %b : tensor<i1>, tensor<f32>
    %10 = stablehlo.select %8, %ai, %bi : tensor<i1>, tensor<i32>
    stablehlo.return %9, %10 : tensor<f32>, tensor<i32>
  }}
  return %r#0, %r#1 : tensor<{o}xf32>, tensor<{o}xi32>
}}"""


@pytest.mark.parametrize("shape", [(1, 1000), (3, 77), (2, 5), (4, 64)])
@pytest.mark.parametrize("cmp", ["GT", "LT"])
def test_argmax_runs_in_lanes_and_keeps_first_index_and_nan(shape, cmp):
    """A (value, index) selection body reduces in lanes (lane_reduce.selection_body)
    with the sequential result: the first index of the best value, a NaN first."""
    text = _argmax(shape, cmp)
    assert ("float acc" in _c(text)) == (shape[-1] >= 4)
    rng = np.random.default_rng(5)
    x = rng.integers(-3, 4, shape).astype(np.float32)     # many ties
    pick = np.argmax if cmp == "GT" else np.argmin
    for arr in (x, np.where(np.arange(shape[-1]) == shape[-1] - 2, np.nan, x).astype(np.float32)):
        v, i = run_text(text, arr)
        want_i = pick(arr, axis=-1)        # numpy's argmax/argmin: NaN first, then first index
        np.testing.assert_array_equal(i, want_i.astype(np.int32))
        np.testing.assert_array_equal(v, np.take_along_axis(arr, want_i[..., None], -1)[..., 0])
