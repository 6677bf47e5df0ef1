"""Ops that compile by decomposition into other ops (passes/decompose.py):
small programs per op on the local-sync device, against numpy; bad inputs
raise typed errors naming the op."""
from __future__ import annotations

import shutil

import numpy as np
import pytest

from tvm_testing import run_text  # noqa: E402

from tensorvm.compiler import compile_str
from tensorvm.compiler.dialects import registry as R
from tensorvm.compiler.errors import CompileError, UnsupportedOpError

pytestmark = pytest.mark.skipif(shutil.which("cc") is None, reason="needs a C compiler")


def _fn(args, results, body):
    sig = ", ".join(f"%a{i}: {t}" for i, t in enumerate(args))
    res = ", ".join(results)
    return f"func.func @main({sig}) -> ({res}) {{\n{body}\n}}"


# -- chlo.broadcast_* --------------------------------------------------------------

@pytest.mark.parametrize("name,fn", [("add", np.add), ("subtract", np.subtract),
                                     ("multiply", np.multiply), ("divide", np.divide),
                                     ("maximum", np.maximum), ("minimum", np.minimum),
                                     ("power", np.power), ("atan2", np.arctan2),
                                     ("next_after", np.nextafter)])
def test_broadcast_binary_numpy_style(name, fn):
    t = _fn(["tensor<2x1x4xf32>", "tensor<3x1xf32>"], ["tensor<2x3x4xf32>"], f"""
  %0 = chlo.broadcast_{name} %a0, %a1 : (tensor<2x1x4xf32>, tensor<3x1xf32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>""")
    rng = np.random.default_rng(0)
    x = rng.uniform(0.5, 2, (2, 1, 4)).astype(np.float32)
    y = rng.uniform(0.5, 2, (3, 1)).astype(np.float32)
    np.testing.assert_allclose(run_text(t, x, y), fn(x, y), rtol=1e-5)


def test_broadcast_dimensions_place_the_lower_rank_operand():
    t = _fn(["tensor<2x3x4xf32>", "tensor<3xf32>"], ["tensor<2x3x4xf32>"], """
  %0 = "chlo.broadcast_subtract"(%a0, %a1) {broadcast_dimensions = array<i64: 1>} : (tensor<2x3x4xf32>, tensor<3xf32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>""")
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    y = np.array([1, 10, 100], np.float32)
    np.testing.assert_array_equal(run_text(t, x, y), x - y[None, :, None])


def test_broadcast_integer_and_shift_ops():
    ops = ["and", "or", "xor", "shift_left", "shift_right_arithmetic", "shift_right_logical",
           "remainder"]
    body = "\n".join(f"  %{i} = chlo.broadcast_{n} %a0, %a1 : (tensor<2x3xi32>, tensor<i32>) -> tensor<2x3xi32>"
                     for i, n in enumerate(ops))
    ret = ", ".join(f"%{i}" for i in range(len(ops)))
    t = _fn(["tensor<2x3xi32>", "tensor<i32>"], ["tensor<2x3xi32>"] * len(ops),
            body + f"\n  return {ret} : " + ", ".join(["tensor<2x3xi32>"] * len(ops)))
    x = np.array([[1, -8, 7], [100, -3, 0]], np.int32)
    y = np.array(3, np.int32)
    out = run_text(t, x, y)
    want = [x & y, x | y, x ^ y, x << y, x >> y,
            (x.view(np.uint32) >> np.uint32(3)).view(np.int32), np.fmod(x, y)]
    for o, w in zip(out, want):
        np.testing.assert_array_equal(o, w)


def test_broadcast_compare_select_and_complex():
    t = _fn(["tensor<2x3xf32>", "tensor<3xf32>"], ["tensor<2x3xi1>", "tensor<2x3xf32>", "tensor<2x3xcomplex<f32>>"], """
  %0 = chlo.broadcast_compare %a0, %a1 {comparison_direction = #chlo<comparison_direction LT>, compare_type = #chlo<comparison_type FLOAT>} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  %1 = chlo.broadcast_select %0, %a0, %a1 : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %2 = chlo.broadcast_complex %a0, %a1 : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xcomplex<f32>>
  return %0, %1, %2 : tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xcomplex<f32>>""")
    x = np.array([[1, 5, 2], [7, 0, 3]], np.float32)
    y = np.array([2, 2, 2], np.float32)
    lt, sel, c = run_text(t, x, y)
    np.testing.assert_array_equal(lt, x < y)
    np.testing.assert_array_equal(sel, np.where(x < y, x, y))
    np.testing.assert_array_equal(c, x + 1j * y)


def test_broadcast_with_dynamic_shapes():
    t = _fn(["tensor<?x1xf32>", "tensor<?xf32>"], ["tensor<?x?xf32>"], """
  %0 = chlo.broadcast_add %a0, %a1 : (tensor<?x1xf32>, tensor<?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>""")
    for n, m in ((3, 4), (1, 5), (2, 1)):
        x = np.arange(n, dtype=np.float32).reshape(n, 1)
        y = 10 * np.arange(m, dtype=np.float32)
        np.testing.assert_array_equal(run_text(t, x, y), x + y)


def test_broadcast_of_incompatible_static_shapes_is_a_typed_error():
    t = _fn(["tensor<2x3xf32>", "tensor<4xf32>"], ["tensor<2x3xf32>"], """
  %0 = chlo.broadcast_add %a0, %a1 : (tensor<2x3xf32>, tensor<4xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>""")
    with pytest.raises(CompileError) as err:
        compile_str(t)
    assert "broadcast_add" in str(err.value)


# -- predicates and constants ------------------------------------------------------

@pytest.mark.parametrize("el,dt", [("f32", np.float32), ("f64", np.float64), ("f16", np.float16)])
def test_is_inf_family(el, dt):
    t = _fn([f"tensor<6x{el}>"], ["tensor<6xi1>"] * 3, f"""
  %0 = chlo.is_inf %a0 : tensor<6x{el}> -> tensor<6xi1>
  %1 = chlo.is_pos_inf %a0 : tensor<6x{el}> -> tensor<6xi1>
  %2 = chlo.is_neg_inf %a0 : tensor<6x{el}> -> tensor<6xi1>
  return %0, %1, %2 : tensor<6xi1>, tensor<6xi1>, tensor<6xi1>""")
    x = np.array([1, np.inf, -np.inf, np.nan, 0, -3], dt)
    a, p, n = run_text(t, x)
    np.testing.assert_array_equal(a, np.isinf(x))
    np.testing.assert_array_equal(p, np.isposinf(x))
    np.testing.assert_array_equal(n, np.isneginf(x))


def test_is_inf_on_integers_is_rejected_by_the_verifier_or_lowering():
    t = _fn(["tensor<3xi32>"], ["tensor<3xi1>"], """
  %0 = chlo.is_inf %a0 : tensor<3xi32> -> tensor<3xi1>
  return %0 : tensor<3xi1>""")
    with pytest.raises(CompileError):
        compile_str(t)


def test_chlo_constant_and_constant_like():
    t = _fn(["tensor<2x3xi64>", "tensor<?xf32>"], ["tensor<2x3xi32>", "tensor<2xf32>", "tensor<?xf32>"], """
  %0 = "chlo.constant_like"(%a0) { value = 7 : i32 } : (tensor<2x3xi64>) -> tensor<2x3xi32>
  %1 = chlo.constant dense<[1.5, -2.0]> : tensor<2xf32>
  %2 = "chlo.constant_like"(%a1) { value = 3.25 : f32 } : (tensor<?xf32>) -> tensor<?xf32>
  return %0, %1, %2 : tensor<2x3xi32>, tensor<2xf32>, tensor<?xf32>""")
    a, c, d = run_text(t, np.zeros((2, 3), np.int64), np.zeros(5, np.float32))
    np.testing.assert_array_equal(a, np.full((2, 3), 7, np.int32))
    assert a.dtype == np.int32
    np.testing.assert_array_equal(c, [1.5, -2.0])
    np.testing.assert_array_equal(d, np.full(5, 3.25, np.float32))


def test_registry_marks_the_decomposed_ops():
    for n in ("chlo.broadcast_add", "chlo.is_inf", "chlo.constant_like"):
        assert R.OPS[n].lowering == R.DECOMPOSED, n
