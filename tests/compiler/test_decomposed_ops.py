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


# -- einsum, unary_einsum, torch_index_select --------------------------------------

def _ty(shape, el="f32"):
    return "tensor<" + "".join(f"{n}x" for n in shape) + el + ">"


@pytest.mark.parametrize("config,ls,rs", [
    ("ab,bc->ac", (2, 3), (3, 4)),
    ("ab,cb->ca", (2, 3), (4, 3)),
    ("bij,bjk->bik", (2, 3, 4), (2, 4, 5)),
    ("bqhd,bkhd->bhqk", (2, 3, 2, 4), (2, 5, 2, 4)),
    ("ij,ij->ij", (3, 4), (3, 4)),
    ("ij,ij->", (3, 4), (3, 4)),
    ("i,j->ij", (3,), (4,)),
    ("iij,jk->ik", (3, 3, 2), (2, 4)),
    ("abc,cd->d", (2, 3, 4), (4, 5)),
    ("...ij,...jk->...ik", (2, 3, 4), (2, 4, 5)),
    ("ab,bc", (2, 3), (3, 4)),
])
def test_einsum_matches_numpy(config, ls, rs):
    rng = np.random.default_rng(3)
    x = rng.standard_normal(ls).astype(np.float32)
    y = rng.standard_normal(rs).astype(np.float32)
    want = np.einsum(config, x, y)
    t = _fn([_ty(ls), _ty(rs)], [_ty(want.shape)], f"""
  %0 = "stablehlo.einsum"(%a0, %a1) {{einsum_config = "{config}"}} : ({_ty(ls)}, {_ty(rs)}) -> {_ty(want.shape)}
  return %0 : {_ty(want.shape)}""")
    np.testing.assert_allclose(run_text(t, x, y), want, rtol=1e-5, atol=1e-5)


def test_einsum_pretty_form_and_integer_widening():
    t = _fn(["tensor<2x3xi8>", "tensor<3x2xi8>"], ["tensor<2x2xi32>"], """
  %0 = stablehlo.einsum %a0, %a1, config = "ab,bc->ac" : (tensor<2x3xi8>, tensor<3x2xi8>) -> tensor<2x2xi32>
  return %0 : tensor<2x2xi32>""")
    x = np.array([[100, 100, 100], [-100, 2, 3]], np.int8)
    y = np.array([[100, 1], [100, 2], [100, 3]], np.int8)
    np.testing.assert_array_equal(run_text(t, x, y), x.astype(np.int32) @ y.astype(np.int32))


@pytest.mark.parametrize("config,shape", [("ab->ba", (2, 3)), ("aa->a", (4, 4)), ("ab->a", (2, 3)),
                                          ("abc->cb", (2, 3, 4)), ("ii->", (3, 3)),
                                          ("a...->...a", (2, 3, 4)), ("aba->ab", (3, 2, 3))])
def test_unary_einsum_matches_numpy(config, shape):
    x = np.random.default_rng(4).standard_normal(shape).astype(np.float32)
    want = np.einsum(config, x)
    t = _fn([_ty(shape)], [_ty(want.shape)], f"""
  %0 = "stablehlo.unary_einsum"(%a0) {{einsum_config = "{config}"}} : ({_ty(shape)}) -> {_ty(want.shape)}
  return %0 : {_ty(want.shape)}""")
    np.testing.assert_allclose(run_text(t, x), want, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("config,why", [("ab,bc->ad", "output index 'd' is in no operand"),
                                        ("abc,bc->ac", "names 3 dims"),
                                        ("ab,cb->ac", "sizes"),
                                        ("ab->ab", "names 1 operand")])
def test_bad_einsum_configs_are_typed_errors(config, why):
    t = _fn(["tensor<2x3xf32>", "tensor<3x4xf32>"], ["tensor<2x4xf32>"], f"""
  %0 = "stablehlo.einsum"(%a0, %a1) {{einsum_config = "{config}"}} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>""")
    with pytest.raises(CompileError) as err:
        compile_str(t)
    assert why in str(err.value)


@pytest.mark.parametrize("dim,batch,xs,ishape", [(0, 0, (5, 3), (4,)), (1, 0, (2, 5, 3), (2, 2)),
                                                 (1, 1, (2, 5, 3), (2, 4)), (2, 1, (2, 3, 5), (2,)),
                                                 (-1, 0, (3, 5), (6,))])
def test_torch_index_select_matches_numpy(dim, batch, xs, ishape):
    rng = np.random.default_rng(5)
    x = rng.standard_normal(xs).astype(np.float32)
    d = dim % len(xs)
    idx = rng.integers(0, xs[d], ishape).astype(np.int32)
    if batch == 0:
        want = np.take(x, idx, axis=d)
    else:
        want = np.stack([np.take(x[i], idx[i], axis=d - 1) for i in range(xs[0])])
    t = _fn([_ty(xs), _ty(ishape, "i32")], [_ty(want.shape)], f"""
  %0 = "stablehlo.torch_index_select"(%a0, %a1) {{dim = {dim} : i64, batch_dims = {batch} : i64}} : ({_ty(xs)}, {_ty(ishape, "i32")}) -> {_ty(want.shape)}
  return %0 : {_ty(want.shape)}""")
    np.testing.assert_array_equal(run_text(t, x, idx), want)


def test_torch_index_select_with_a_wrong_result_shape_is_a_typed_error():
    t = _fn(["tensor<5x3xf32>", "tensor<4xi32>"], ["tensor<4x4xf32>"], """
  %0 = "stablehlo.torch_index_select"(%a0, %a1) {dim = 0 : i64, batch_dims = 0 : i64} : (tensor<5x3xf32>, tensor<4xi32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>""")
    with pytest.raises(CompileError) as err:
        compile_str(t)
    assert "torch_index_select" in str(err.value)


def test_einsum_pretty_forms_print_and_reparse():
    from tensorvm.compiler.mlir.parser import parse_module
    from tensorvm.compiler.ir.printer import print_module
    t = _fn(["tensor<2x3xf32>", "tensor<3x4xf32>"], ["tensor<2x4xf32>", "tensor<3x2xf32>"], """
  %0 = stablehlo.einsum %a0, %a1, config = "ab,bc->ac" : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %1 = stablehlo.unary_einsum %a0, config = "ab->ba" : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0, %1 : tensor<2x4xf32>, tensor<3x2xf32>""")
    text = print_module(parse_module(t))
    assert 'stablehlo.einsum %arg0, %arg1, config = "ab,bc->ac" :' in text
    assert 'stablehlo.unary_einsum %arg0, config = "ab->ba" :' in text
    assert print_module(parse_module(text)) == text


# -- batch_norm_* ------------------------------------------------------------------

def _bn_ref(x, fi):
    axes = tuple(d for d in range(x.ndim) if d != fi)
    shape = [1] * x.ndim
    shape[fi] = x.shape[fi]
    return axes, shape


@pytest.mark.parametrize("el,dt,fi", [("f32", np.float32, 1), ("f64", np.float64, 3), ("f32", np.float32, 0)])
def test_batch_norm_inference_and_training(el, dt, fi):
    xs = (2, 3, 4, 5)
    c = xs[fi]
    X, V = _ty(xs, el), _ty((c,), el)
    t = _fn([X, V, V, V, V], [X, X, V, V], f"""
  %0 = "stablehlo.batch_norm_inference"(%a0, %a1, %a2, %a3, %a4) {{epsilon = 1.0e-3 : f32, feature_index = {fi} : i64}} : ({X}, {V}, {V}, {V}, {V}) -> {X}
  %1:3 = "stablehlo.batch_norm_training"(%a0, %a1, %a2) {{epsilon = 1.0e-3 : f32, feature_index = {fi} : i64}} : ({X}, {V}, {V}) -> ({X}, {V}, {V})
  return %0, %1#0, %1#1, %1#2 : {X}, {X}, {V}, {V}""")
    rng = np.random.default_rng(6)
    x = rng.standard_normal(xs).astype(dt) * 3 + 1
    scale, offset = rng.uniform(0.5, 2, c).astype(dt), rng.standard_normal(c).astype(dt)
    mean, var = rng.standard_normal(c).astype(dt), rng.uniform(0.5, 2, c).astype(dt)
    inf, out, bm, bv = run_text(t, x, scale, offset, mean, var)
    axes, shape = _bn_ref(x, fi)
    eps = np.float32(1e-3).astype(dt)
    r = lambda v: v.reshape(shape)  # noqa: E731
    np.testing.assert_allclose(inf, r(scale) * (x - r(mean)) / np.sqrt(r(var) + eps) + r(offset), rtol=1e-5, atol=1e-5)
    m, v = x.mean(axis=axes), x.var(axis=axes)
    np.testing.assert_allclose(bm, m, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(bv, v, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(out, r(scale) * (x - r(m)) / np.sqrt(r(v) + eps) + r(offset), rtol=1e-4, atol=1e-5)


def test_batch_norm_grad_matches_the_analytic_gradient():
    """grad_operand / grad_scale / grad_offset of y = scale * (x - mean) /
    sqrt(var + eps) + offset with mean and var the batch statistics of x
    (what batch_norm_grad computes), against numpy, and grad_operand against
    a finite difference of sum(grad_output * y)."""
    xs, fi = (4, 3, 2), 1
    X, V = _ty(xs, "f64"), _ty((3,), "f64")
    t = _fn([X, V, V, V, X], [X, V, V], f"""
  %0:3 = "stablehlo.batch_norm_grad"(%a0, %a1, %a2, %a3, %a4) {{epsilon = 1.0e-2 : f32, feature_index = {fi} : i64}} : ({X}, {V}, {V}, {V}, {X}) -> ({X}, {V}, {V})
  return %0#0, %0#1, %0#2 : {X}, {V}, {V}""")
    rng = np.random.default_rng(7)
    x = rng.standard_normal(xs)
    scale = rng.uniform(0.5, 2, 3)
    g = rng.standard_normal(xs)
    axes, shape = _bn_ref(x, fi)
    eps = float(np.float32(1e-2))
    mean, var = x.mean(axis=axes), x.var(axis=axes)
    gx, gs, go = run_text(t, x, scale, mean, var, g)

    def loss(xv):
        m, v = xv.mean(axis=axes), xv.var(axis=axes)
        y = scale.reshape(shape) * (xv - m.reshape(shape)) / np.sqrt(v.reshape(shape) + eps)
        return float((g * y).sum())
    num = np.zeros_like(x)
    h = 1e-6
    for i in np.ndindex(*xs):
        e = np.zeros_like(x)
        e[i] = h
        num[i] = (loss(x + e) - loss(x - e)) / (2 * h)
    np.testing.assert_allclose(gx, num, rtol=1e-5, atol=1e-6)
    xhat = (x - mean.reshape(shape)) / np.sqrt(var.reshape(shape) + eps)
    np.testing.assert_allclose(gs, (g * xhat).sum(axis=axes), rtol=1e-10)
    np.testing.assert_allclose(go, g.sum(axis=axes), rtol=1e-10)


def test_batch_norm_with_a_bad_feature_index_is_a_typed_error():
    t = _fn(["tensor<2x3xf32>", "tensor<3xf32>", "tensor<3xf32>"], ["tensor<2x3xf32>"], """
  %0:3 = "stablehlo.batch_norm_training"(%a0, %a1, %a2) {epsilon = 1.0e-3 : f32, feature_index = 2 : i64} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>)
  return %0#0 : tensor<2x3xf32>""")
    with pytest.raises(CompileError) as err:
        compile_str(t)
    assert "batch_norm_training" in str(err.value)


# -- rng ---------------------------------------------------------------------------

def _rng_text(dist, el, shape, a_el=None):
    a_el = a_el or el
    T = _ty(shape, el)
    dims = ", ".join(str(s) for s in shape)
    return _fn([f"tensor<{a_el}>", f"tensor<{a_el}>"], [T], f"""
  %s = stablehlo.constant dense<[{dims}]> : tensor<{len(shape)}xi64>
  %0 = "stablehlo.rng"(%a0, %a1, %s) {{rng_distribution = #stablehlo<rng_distribution {dist}>}} : (tensor<{a_el}>, tensor<{a_el}>, tensor<{len(shape)}xi64>) -> {T}
  return %0 : {T}""")


@pytest.mark.parametrize("el,dt", [("f32", np.float32), ("f64", np.float64), ("f16", np.float16),
                                   ("bf16", None)])
def test_rng_uniform_float_is_in_range_with_uniform_statistics(el, dt):
    if dt is None:
        dt = pytest.importorskip("ml_dtypes").bfloat16
    shape = (64, 128)
    r = run_text(_rng_text("UNIFORM", el, shape), np.array(-2, dt), np.array(3, dt)).astype(np.float64)
    assert r.shape == shape
    assert r.min() >= -2 and r.max() < 3
    assert abs(r.mean() - 0.5) < 0.05 and abs(r.var() - 25 / 12) < 0.1
    hist = np.histogram(r, bins=5, range=(-2, 3))[0] / r.size
    assert np.all(np.abs(hist - 0.2) < 0.02), hist
    assert len(np.unique(r)) > 100


def test_rng_uniform_narrow_interval_stays_half_open():
    r = run_text(_rng_text("UNIFORM", "f16", (4096,)), np.array(1, np.float16), np.array(1.001, np.float16))
    assert r.min() >= np.float16(1) and r.max() < np.float16(1.001)


@pytest.mark.parametrize("el,dt", [("i32", np.int32), ("i64", np.int64), ("ui8", np.uint8), ("i8", np.int8)])
def test_rng_uniform_integers(el, dt):
    lo, hi = (3, 10) if el.startswith("u") else (-5, 7)
    r = run_text(_rng_text("UNIFORM", el, (8000,)), np.array(lo, dt), np.array(hi, dt))
    assert r.dtype == dt and r.min() == lo and r.max() == hi - 1
    counts = np.bincount((r.astype(np.int64) - lo), minlength=hi - lo) / r.size
    assert np.all(np.abs(counts - 1 / (hi - lo)) < 0.02), counts


def test_rng_uniform_bool():
    r = run_text(_rng_text("UNIFORM", "i1", (1000,)), np.array(False), np.array(True))
    assert r.dtype == np.bool_ and not r.any()     # [0, 1) holds only 0


@pytest.mark.parametrize("el,dt", [("f32", np.float32), ("f64", np.float64)])
def test_rng_normal_statistics(el, dt):
    r = run_text(_rng_text("NORMAL", el, (100, 200)), np.array(1.5, dt), np.array(2.0, dt)).astype(np.float64)
    assert r.shape == (100, 200) and np.isfinite(r).all()
    assert abs(r.mean() - 1.5) < 0.05 and abs(r.std() - 2.0) < 0.05
    z = (r - 1.5) / 2
    assert abs((np.abs(z) < 1).mean() - 0.6827) < 0.015
    assert abs((z ** 3).mean()) < 0.1 and abs((z ** 4).mean() - 3) < 0.2


def test_two_rng_ops_draw_different_streams():
    t = _fn(["tensor<f32>", "tensor<f32>"], ["tensor<16xf32>", "tensor<16xf32>"], """
  %s = stablehlo.constant dense<[16]> : tensor<1xi64>
  %0 = "stablehlo.rng"(%a0, %a1, %s) {rng_distribution = #stablehlo<rng_distribution UNIFORM>} : (tensor<f32>, tensor<f32>, tensor<1xi64>) -> tensor<16xf32>
  %1 = "stablehlo.rng"(%a0, %a1, %s) {rng_distribution = #stablehlo<rng_distribution UNIFORM>} : (tensor<f32>, tensor<f32>, tensor<1xi64>) -> tensor<16xf32>
  return %0, %1 : tensor<16xf32>, tensor<16xf32>""")
    x, y = run_text(t, np.float32(0), np.float32(1))
    assert not np.array_equal(x, y)


def test_rng_normal_on_integers_is_a_typed_error():
    with pytest.raises(CompileError):
        compile_str(_rng_text("NORMAL", "i32", (4,)))


# -- cross-replica-sum, async_start/async_done, set_dimension_size -----------------

def test_cross_replica_sum_is_an_all_reduce_over_two_replicas():
    from tensorvm import runtime
    t = """module @m attributes {mhlo.num_replicas = 2 : i32} {
  func.func @main(%x: tensor<5xf32>) -> tensor<5xf32> {
    %0 = "stablehlo.cross-replica-sum"(%x) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<5xf32>) -> tensor<5xf32>
    return %0 : tensor<5xf32>
  }
}"""
    pm = runtime.load_module(compile_str(t), device="local-sync", replicas=2, timeout_s=20)
    xs = [np.arange(5, dtype=np.float32), 10 * np.ones(5, np.float32)]
    out = pm.main.run([(xs[0],), (xs[1],)])
    for o in out:
        np.testing.assert_array_equal(np.asarray(o[0] if isinstance(o, tuple) else o), xs[0] + xs[1])


def test_async_start_runs_its_computation_and_async_done_yields_it():
    t = _fn(["tensor<4x3xf32>"], ["tensor<2x3xf32>"], """
  %f = "stablehlo.async_start"(%a0) ({
  ^bb0(%x: tensor<4x3xf32>):
    %s = "stablehlo.slice"(%x) {start_indices = array<i64: 1, 0>, limit_indices = array<i64: 3, 3>, strides = array<i64: 1, 1>} : (tensor<4x3xf32>) -> tensor<2x3xf32>
    "stablehlo.return"(%s) : (tensor<2x3xf32>) -> ()
  }) : (tensor<4x3xf32>) -> !stablehlo.future<tensor<2x3xf32>>
  %r = "stablehlo.async_done"(%f) : (!stablehlo.future<tensor<2x3xf32>>) -> tensor<2x3xf32>
  %n = stablehlo.negate %r : tensor<2x3xf32>
  return %n : tensor<2x3xf32>""")
    x = np.arange(12, dtype=np.float32).reshape(4, 3)
    np.testing.assert_array_equal(run_text(t, x), -x[1:3])


def test_async_all_reduce_over_two_replicas():
    from tensorvm import runtime
    t = """module @m attributes {mhlo.num_replicas = 2 : i32} {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    %f = "stablehlo.async_start"(%x) ({
    ^bb0(%b: tensor<4xf32>):
      %1 = "stablehlo.all_reduce"(%b) ({
      ^bb1(%p: tensor<f32>, %q: tensor<f32>):
        %2 = "stablehlo.maximum"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%2) : (tensor<f32>) -> ()
      }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4xf32>) -> tensor<4xf32>
      "stablehlo.return"(%1) : (tensor<4xf32>) -> ()
    }) : (tensor<4xf32>) -> !stablehlo.future<tensor<4xf32>>
    %r = "stablehlo.async_done"(%f) : (!stablehlo.future<tensor<4xf32>>) -> tensor<4xf32>
    return %r : tensor<4xf32>
  }
}"""
    pm = runtime.load_module(compile_str(t), device="local-sync", replicas=2, timeout_s=20)
    xs = [np.array([1, 5, 2, 0], np.float32), np.array([3, 4, 2, -1], np.float32)]
    for o in pm.main.run([(xs[0],), (xs[1],)]):
        np.testing.assert_array_equal(np.asarray(o[0] if isinstance(o, tuple) else o), np.maximum(*xs))


def test_a_returned_future_is_a_typed_error():
    t = _fn(["tensor<4xf32>"], ["!stablehlo.future<tensor<4xf32>>"], """
  %f = "stablehlo.async_start"(%a0) ({
  ^bb0(%x: tensor<4xf32>):
    %s = "stablehlo.slice"(%x) {start_indices = array<i64: 0>, limit_indices = array<i64: 4>, strides = array<i64: 1>} : (tensor<4xf32>) -> tensor<4xf32>
    "stablehlo.return"(%s) : (tensor<4xf32>) -> ()
  }) : (tensor<4xf32>) -> !stablehlo.future<tensor<4xf32>>
  return %f : !stablehlo.future<tensor<4xf32>>""")
    with pytest.raises(UnsupportedOpError) as err:
        compile_str(t)
    assert err.value.op_name == "stablehlo.async_start" and "func.return" in str(err.value)


def test_set_dimension_size_to_its_own_size_forwards_the_operand():
    t = _fn(["tensor<2x3xf32>"], ["tensor<2x3xf32>"], """
  %n = stablehlo.constant dense<3> : tensor<i32>
  %0 = "stablehlo.set_dimension_size"(%a0, %n) {dimension = 1 : i64} : (tensor<2x3xf32>, tensor<i32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>""")
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    np.testing.assert_array_equal(run_text(t, x), x)


def test_set_dimension_size_of_a_dynamic_result_dim_keeps_the_first_elements():
    t = _fn(["tensor<2x5xf32>", "tensor<i32>"], ["tensor<2x?xf32>"], """
  %0 = "stablehlo.set_dimension_size"(%a0, %a1) {dimension = 1 : i64} : (tensor<2x5xf32>, tensor<i32>) -> tensor<2x?xf32>
  return %0 : tensor<2x?xf32>""")
    x = np.arange(10, dtype=np.float32).reshape(2, 5)
    for n in (3, 5, 0):
        np.testing.assert_array_equal(run_text(t, x, np.int32(n)), x[:, :n])


def test_set_dimension_size_of_a_static_dim_to_another_size_is_a_typed_error():
    """A constant other size is invalid (the verifier infers the result
    shape); one known only at run time has no static meaning."""
    t = _fn(["tensor<2x5xf32>"], ["tensor<2x5xf32>"], """
  %n = stablehlo.constant dense<3> : tensor<i32>
  %0 = "stablehlo.set_dimension_size"(%a0, %n) {dimension = 1 : i64} : (tensor<2x5xf32>, tensor<i32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>""")
    with pytest.raises(CompileError):
        compile_str(t)
    t = _fn(["tensor<2x5xf32>", "tensor<i32>"], ["tensor<2x5xf32>"], """
  %0 = "stablehlo.set_dimension_size"(%a0, %a1) {dimension = 1 : i64} : (tensor<2x5xf32>, tensor<i32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>""")
    with pytest.raises(UnsupportedOpError) as err:
        compile_str(t)
    assert err.value.op_name == "stablehlo.set_dimension_size" and "'?'" in str(err.value)


# -- chlo.zeta, chlo.polygamma -----------------------------------------------------

def _hurwitz_reference(s, q):
    """zeta(s, q) to ~1e-20 relative by mpmath when installed, else by a
    direct sum with an Euler-Maclaurin tail in long double-free Python floats
    at a large cut-off (independent of the C code's cut-offs)."""
    try:
        import mpmath
        return float(mpmath.zeta(s, q))
    except ImportError:
        n = 1000
        head = sum((q + k) ** -s for k in range(n))
        w = q + n
        return head + w ** (1 - s) / (s - 1) + 0.5 * w ** -s + s * w ** (-s - 1) / 12


_ZQ = [(2.0, 1.0), (1.5, 0.5), (3.0, 2.5), (1.01, 1.0), (4.0, 0.1), (10.0, 3.0), (50.0, 1.5),
       (2.0, 1e-3), (2.5, 40.0), (3.0, -1.5), (1.2, 1e4)]


@pytest.mark.parametrize("el,dt,rtol", [("f64", np.float64, 1e-13), ("f32", np.float32, 2e-6)])
def test_zeta_matches_a_high_precision_reference(el, dt, rtol):
    s = np.array([p[0] for p in _ZQ], dt)
    q = np.array([p[1] for p in _ZQ], dt)
    n = len(_ZQ)
    T = f"tensor<{n}x{el}>"
    t = _fn([T, T], [T], f"""
  %0 = chlo.zeta %a0, %a1 : {T}, {T} -> {T}
  return %0 : {T}""")
    got = run_text(t, s, q)
    want = np.array([_hurwitz_reference(float(a), float(b)) for a, b in zip(s, q)])
    np.testing.assert_allclose(got, want, rtol=rtol)


def test_zeta_poles_and_domain():
    T = "tensor<5xf64>"
    t = _fn([T, T], [T], f"""
  %0 = chlo.zeta %a0, %a1 : {T}, {T} -> {T}
  return %0 : {T}""")
    s = np.array([1.0, 0.5, 2.0, 2.5, np.nan])
    q = np.array([1.0, 1.0, -2.0, -0.5, 1.0])
    got = run_text(t, s, q)
    assert got[0] == np.inf and np.isnan(got[1]) and got[2] == np.inf
    assert np.isnan(got[3]) and np.isnan(got[4])


@pytest.mark.parametrize("el,dt,rtol", [("f64", np.float64, 1e-12), ("f32", np.float32, 5e-6)])
def test_polygamma_matches_scipy_or_mpmath(el, dt, rtol):
    ns = np.array([0, 1, 2, 3, 1, 4, 2, 0, 1], dt)
    xs = np.array([1.5, 1.0, 0.5, 2.0, 10.0, 3.5, -1.5, -2.5, 1e3], dt)
    T = f"tensor<{len(ns)}x{el}>"
    t = _fn([T, T], [T], f"""
  %0 = chlo.polygamma %a0, %a1 : {T}, {T} -> {T}
  return %0 : {T}""")
    got = run_text(t, ns, xs)
    try:
        from scipy.special import polygamma
        want = polygamma(ns.astype(np.int64), xs.astype(np.float64))
    except ImportError:
        mpmath = pytest.importorskip("mpmath")
        want = np.array([float(mpmath.polygamma(int(n), float(x))) for n, x in zip(ns, xs)])
    np.testing.assert_allclose(got, want, rtol=rtol)


def test_polygamma_of_a_non_integer_order_is_nan_and_broadcast_zeta_works():
    t = _fn(["tensor<3xf64>", "tensor<f64>"], ["tensor<3xf64>", "tensor<3xf64>"], """
  %0 = chlo.broadcast_polygamma %a0, %a1 : (tensor<3xf64>, tensor<f64>) -> tensor<3xf64>
  %1 = chlo.broadcast_zeta %a0, %a1 : (tensor<3xf64>, tensor<f64>) -> tensor<3xf64>
  return %0, %1 : tensor<3xf64>, tensor<3xf64>""")
    n = np.array([1.5, -1.0, 2.0])
    p, z = run_text(t, n, np.float64(2.0))
    assert np.isnan(p[0]) and np.isnan(p[1])
    np.testing.assert_allclose(p[2], -2 * (_hurwitz_reference(3.0, 2.0)), rtol=1e-13)
    np.testing.assert_allclose(z[0], _hurwitz_reference(1.5, 2.0), rtol=1e-13)
    assert np.isnan(z[1])      # s < 1
    np.testing.assert_allclose(z[2], np.pi ** 2 / 6 - 1, rtol=1e-13)


# -- chlo._asin_acos_kernel ---------------------------------------------------------

def _asin_acos_kernel_program(el, n):
    return _fn([f"tensor<{n}x{el}>"], [f"tensor<{n}x{el}>"], f"""
  %0 = chlo._asin_acos_kernel %a0 : tensor<{n}x{el}> -> tensor<{n}x{el}>
  return %0 : tensor<{n}x{el}>""")


@pytest.mark.parametrize("el,dt,rtol", [("complex<f32>", np.complex64, 2e-6),
                                        ("complex<f64>", np.complex128, 1e-14)])
def test_asin_acos_kernel_gives_asin_and_acos_as_chlo_defines(el, dt, rtol):
    """ChloOps.td: asin(z) = complex(atan2(z.re, w.re), sign(z.im) w.im) and
    acos(z) = complex(atan2(w.re, z.re), -sign(z.im) w.im), w the kernel of z,
    on all four quadrants, the real axis inside and outside [-1, 1] and 1."""
    rng = np.random.default_rng(11)
    z = (rng.uniform(-3, 3, 60) + 1j * rng.uniform(-3, 3, 60)).tolist()
    z += [0.5, -0.5, 2, -2, 1, -1, 0, 0.25j, -4j, 1 + 0.5j, -1 - 0.5j]
    z = np.array(z, dt)
    w = run_text(_asin_acos_kernel_program(el, z.size), z).astype(np.complex128)
    z128 = z.astype(np.complex128)
    sgn = np.where(np.signbit(z128.imag), -1.0, 1.0)
    asin = np.arctan2(z128.real, w.real) + 1j * sgn * w.imag
    acos = np.arctan2(w.real, z128.real) - 1j * sgn * w.imag
    np.testing.assert_allclose(asin, np.arcsin(z128), rtol=rtol, atol=rtol)
    np.testing.assert_allclose(acos, np.arccos(z128), rtol=rtol, atol=rtol)
    assert (w.real >= 0).all() and (w.imag >= 0).all()


def test_asin_acos_kernel_is_accurate_at_extremes():
    """w.re = sqrt(A^2 - x^2), w.im = acosh(A), A = (|z + 1| + |z - 1|) / 2,
    against mpmath at 650 digits: tiny imaginary parts inside and outside
    [-1, 1] (where y^2 underflows), |z| near 1, huge |z| (where y^2 would
    overflow), relative error per part."""
    mpmath = pytest.importorskip("mpmath")
    mpmath.mp.dps = 650             # A - 1 ~ y^2 ~ 1e-600 for y = 1e-300

    def ref(z):
        x, y = mpmath.mpf(abs(z.real)), mpmath.mpf(abs(z.imag))
        a = (mpmath.hypot(x + 1, y) + mpmath.hypot(x - 1, y)) / 2
        return complex(float(mpmath.sqrt(a * a - x * x)), float(mpmath.acosh(a)))

    cases = [0.5 + 1e-30j, 1.5 + 1e-30j, -0.5 - 1e-300j, 3 + 1e-200j, 1 + 1e-10j, 0.999 + 1e-3j,
             1e25 + 1j, 1e200 + 1e190j, -1e300 - 1e300j, 1e-300 + 1e-300j, 0.3 - 0.2j, 1 + 0j]
    for el, dt, rtol in (("complex<f64>", np.complex128, 1e-14), ("complex<f32>", np.complex64, 4e-6)):
        zs = np.array([c for c in cases if dt == np.complex128 or
                       (abs(c) < 1e30 and (c.imag == 0 or abs(c.imag) > 1e-38))], dt)
        w = run_text(_asin_acos_kernel_program(el, zs.size), zs)
        for z, got in zip(zs, w):
            want = ref(complex(z))
            for g, e in ((got.real, want.real), (got.imag, want.imag)):
                assert abs(g - e) <= rtol * abs(e) + 1e-300, (el, z, got, want)


def test_asin_acos_kernel_on_a_real_tensor_is_rejected_by_the_verifier():
    t = _asin_acos_kernel_program("f32", 4)
    with pytest.raises(CompileError, match="complex values"):
        compile_str(t)
