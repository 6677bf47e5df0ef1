"""Algebraic simplification: each rewrite removes what it should, keeps what
is not exact, and the compiled program computes the same bits."""
from __future__ import annotations

import numpy as np
import pytest

from tensorvm.compiler.mlir.parser import parse_module
from tensorvm.compiler.passes.fold import AlgebraicSimplification
from tensorvm.compiler.passes.simplify import DeadCodeElimination
from tvm_testing import run_text
from tvm_testing import simplified as _simplified


def _check_same_bits(text, *args):
    """The program with and without simplification returns identical bits."""
    from tensorvm import runtime
    from tensorvm.compiler import compile_str
    outs = []
    for simplify in (True, False):
        m = runtime.load_module(compile_str(text, simplify=simplify), device="local-sync")
        r = m.main(*args)
        outs.append([np.asarray(x) for x in (r if isinstance(r, (list, tuple)) else [r])])
    for a, b in zip(*outs):
        assert a.dtype == b.dtype and a.tobytes() == b.tobytes()
    return outs[0]


IDENTITIES = """
func.func @main(%x: tensor<4x8xf32>, %i: tensor<4x8xi32>) -> (tensor<4x8xf32>, tensor<4x8xi32>) {
  %one = stablehlo.constant dense<1.0> : tensor<f32>
  %ones = stablehlo.broadcast_in_dim %one, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<4x8xf32>
  %nzero = stablehlo.constant dense<-0.0> : tensor<4x8xf32>
  %a = stablehlo.multiply %ones, %x : tensor<4x8xf32>
  %b = stablehlo.divide %a, %ones : tensor<4x8xf32>
  %c = stablehlo.subtract %b, %zero : tensor<4x8xf32>
  %d = stablehlo.add %nzero, %c : tensor<4x8xf32>
  %e = stablehlo.negate %d : tensor<4x8xf32>
  %f = stablehlo.negate %e : tensor<4x8xf32>
  %iz = stablehlo.constant dense<0> : tensor<4x8xi32>
  %j = stablehlo.add %i, %iz : tensor<4x8xi32>
  %im = stablehlo.constant dense<-1> : tensor<4x8xi32>
  %k = stablehlo.and %j, %im : tensor<4x8xi32>
  return %f, %k : tensor<4x8xf32>, tensor<4x8xi32>
}
"""


def test_exact_identities_disappear():
    ops, counts = _simplified(IDENTITIES)
    assert ops == ["return"]
    assert counts["identity"] == 7     # negate(negate) is one rewrite


def test_float_plus_positive_zero_is_kept():
    """-0.0 + 0.0 is +0.0: `x + 0.0 -> x` would change the sign of zeros."""
    text = """
    func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
      %z = stablehlo.constant dense<0.0> : tensor<4xf32>
      %y = stablehlo.add %x, %z : tensor<4xf32>
      return %y : tensor<4xf32>
    }"""
    ops, _ = _simplified(text)
    assert "add" in ops
    got = _check_same_bits(text, np.array([-0.0, 0.0, 1.0, -2.0], np.float32))
    assert not np.signbit(got[0][0])


def test_chains_collapse():
    text = """
    func.func @main(%x: tensor<2x3x8xf32>) -> (tensor<8x2x3xf32>, tensor<48xf32>, tensor<48xf32>, tensor<2x3x8xf32>) {
      %t0 = stablehlo.transpose %x, dims = [1, 0, 2] : (tensor<2x3x8xf32>) -> tensor<3x2x8xf32>
      %t1 = stablehlo.transpose %t0, dims = [2, 1, 0] : (tensor<3x2x8xf32>) -> tensor<8x2x3xf32>
      %r0 = stablehlo.reshape %x : (tensor<2x3x8xf32>) -> tensor<6x8xf32>
      %r1 = stablehlo.reshape %r0 : (tensor<6x8xf32>) -> tensor<48xf32>
      %c0 = stablehlo.convert %r1 : (tensor<48xf32>) -> tensor<48xf64>
      %c1 = stablehlo.convert %c0 : (tensor<48xf64>) -> tensor<48xf32>
      %u0 = stablehlo.transpose %x, dims = [1, 0, 2] : (tensor<2x3x8xf32>) -> tensor<3x2x8xf32>
      %u1 = stablehlo.transpose %u0, dims = [1, 0, 2] : (tensor<3x2x8xf32>) -> tensor<2x3x8xf32>
      return %t1, %r1, %c1, %u1 : tensor<8x2x3xf32>, tensor<48xf32>, tensor<48xf32>, tensor<2x3x8xf32>
    }"""
    ops, counts = _simplified(text)
    assert ops == ["transpose", "reshape", "return"]
    x = np.arange(48, dtype=np.float32).reshape(2, 3, 8)
    got = _check_same_bits(text, x)
    np.testing.assert_array_equal(got[0], x.transpose(2, 0, 1))
    np.testing.assert_array_equal(got[3], x)


def test_lossy_round_trip_is_kept():
    text = """
    func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
      %h = stablehlo.convert %x : (tensor<4xf32>) -> tensor<4xf16>
      %y = stablehlo.convert %h : (tensor<4xf16>) -> tensor<4xf32>
      return %y : tensor<4xf32>
    }"""
    ops, _ = _simplified(text)
    assert ops.count("convert") == 2


def test_constants_fold_within_budget():
    text = """
    func.func @main(%x: tensor<4x2xf32>) -> (tensor<4x2xf32>, tensor<4096x2x4xf32>) {
      %a = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]]> : tensor<4x2xf32>
      %t = stablehlo.transpose %a, dims = [1, 0] : (tensor<4x2xf32>) -> tensor<2x4xf32>
      %r = stablehlo.reshape %t : (tensor<2x4xf32>) -> tensor<4x2xf32>
      %s = stablehlo.multiply %r, %a : tensor<4x2xf32>
      %y = stablehlo.add %x, %s : tensor<4x2xf32>
      %big = stablehlo.broadcast_in_dim %t, dims = [1, 2] : (tensor<2x4xf32>) -> tensor<4096x2x4xf32>
      return %y, %big : tensor<4x2xf32>, tensor<4096x2x4xf32>
    }"""
    ops, counts = _simplified(text)
    assert ops == ["constant", "constant", "add", "broadcast_in_dim", "return"]
    assert counts["constant"] == 3
    x = np.ones((4, 2), np.float32)
    a = np.arange(1, 9, dtype=np.float32).reshape(4, 2)
    got = _check_same_bits(text, x)
    np.testing.assert_array_equal(got[0], x + a.T.reshape(4, 2) * a)


@pytest.mark.parametrize("op", ["divide", "remainder"])
def test_integer_division_is_not_folded(op):
    """StableHLO's x/0 and x%0 semantics stay with the kernels."""
    text = f"""
    func.func @main() -> tensor<2xi32> {{
      %a = stablehlo.constant dense<[7, -7]> : tensor<2xi32>
      %b = stablehlo.constant dense<[0, 2]> : tensor<2xi32>
      %c = stablehlo.{op} %a, %b : tensor<2xi32>
      return %c : tensor<2xi32>
    }}"""
    ops, _ = _simplified(text)
    assert op in ops


# jnp.var's "ddof" guard as BERT's layernorm exports it: a scalar compare of
# constants selects the whole variance; folded, no host value is left and the
# function keeps the static, recorded-once command buffer.
CONSTANT_GUARD = """
func.func @main(%x: tensor<2x8xf32>) -> (tensor<2x8xf32>, tensor<4xi1>) {
  %ddof = stablehlo.constant dense<0> : tensor<i32>
  %n = stablehlo.constant dense<8.0> : tensor<f32>
  %d = stablehlo.convert %ddof : (tensor<i32>) -> tensor<f32>
  %m = stablehlo.subtract %n, %d : tensor<f32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %ok = stablehlo.compare GT, %m, %zero, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
  %nan = stablehlo.constant dense<0x7FC00000> : tensor<f32>
  %nans = stablehlo.broadcast_in_dim %nan, dims = [] : (tensor<f32>) -> tensor<2x8xf32>
  %v = stablehlo.select %ok, %x, %nans : tensor<i1>, tensor<2x8xf32>
  %a = stablehlo.constant dense<[1.0, 0x7FC00000, -0.0, 2.0]> : tensor<4xf32>
  %b = stablehlo.constant dense<[1.0, 0x7FC00000, 0.0, 3.0]> : tensor<4xf32>
  %ne = stablehlo.compare NE, %a, %b, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return %v, %ne : tensor<2x8xf32>, tensor<4xi1>
}
"""


def test_constant_compares_and_selects_fold():
    ops, counts = _simplified(CONSTANT_GUARD)
    assert "compare" not in ops and "select" not in ops
    x = np.arange(16, dtype=np.float32).reshape(2, 8)
    v, ne = _check_same_bits(CONSTANT_GUARD, x)
    np.testing.assert_array_equal(v, x)
    np.testing.assert_array_equal(ne, [False, True, False, True])    # IEEE: NaN != NaN, -0 == 0


def test_totalorder_compare_is_left_to_the_kernel():
    text = CONSTANT_GUARD.replace("NE, %a, %b, FLOAT", "NE, %a, %b, TOTALORDER")
    ops, _ = _simplified(text)
    assert "compare" in ops


def _oihw_conv(w, uses=1):
    """A torch-style NCHW x OIHW convolution with a constant filter."""
    lit = str(w.astype(np.float64).tolist())
    other = ""
    ret = "%y, %w" if uses == 2 else "%y"
    rtype = "tensor<1x4x5x5xf32>, tensor<4x3x3x3xf32>" if uses == 2 else "tensor<1x4x5x5xf32>"
    return f"""
func.func @main(%x: tensor<1x3x5x5xf32>) -> ({rtype}) {{
  %w = stablehlo.constant dense<{lit}> : tensor<4x3x3x3xf32>
{other}  %y = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {{pad = [[1, 1], [1, 1]]}} {{batch_group_count = 1 : i64, feature_group_count = 1 : i64}} : (tensor<1x3x5x5xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x5x5xf32>
  return {ret} : {rtype}
}}
"""


def _conv_reference(x, w):
    """NCHW x OIHW, stride 1, pad 1 (float64)."""
    n, c, h, wd = x.shape
    xp = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (1, 1), (1, 1)))
    out = np.zeros((n, w.shape[0], h, wd))
    for kh in range(3):
        for kw in range(3):
            out += np.einsum("nchw,oc->nohw", xp[:, :, kh:kh + h, kw:kw + wd], w[:, :, kh, kw])
    return out


def test_constant_oihw_filter_is_stored_output_feature_last():
    """torch's OIHW filter constant is relaid out at compile time (no packing
    per call); the result is the convolution's."""
    from tensorvm import runtime
    from tensorvm.compiler import compile_str
    rng = np.random.default_rng(0)
    w = rng.standard_normal((4, 3, 3, 3)).astype(np.float32)
    x = rng.standard_normal((1, 3, 5, 5)).astype(np.float32)
    text = _oihw_conv(w)
    module = parse_module(text)
    p = AlgebraicSimplification()
    p.run(module)
    DeadCodeElimination().run(module)
    assert p.counts["filter layout"] == 1
    conv = [o for o in module.functions[0].regions[0].blocks[0].operations
            if o.name == "stablehlo.convolution"][0]
    f = conv.attr("dimension_numbers").fields
    assert tuple(f["kernel_spatial_dimensions"]) == (0, 1)
    assert (f["kernel_input_feature_dimension"], f["kernel_output_feature_dimension"]) == (2, 3)
    assert conv.operands[1].type.shape == (3, 3, 3, 4)
    got = np.asarray(runtime.load_module(compile_str(text), device="local-sync").main(x))
    np.testing.assert_allclose(got, _conv_reference(x, w), rtol=1e-5, atol=1e-5)


def test_shared_filter_constant_keeps_its_layout():
    """A filter constant with another user is not copied in a second layout."""
    w = np.arange(108, dtype=np.float32).reshape(4, 3, 3, 3)
    _, counts = _simplified(_oihw_conv(w, uses=2))
    assert counts["filter layout"] == 0


WIDENED_MAXPOOL = """
func.func @main(%x: tensor<1x2x6x6xf32>) -> tensor<1x2x3x3xf32> {
  %w = stablehlo.convert %x : (tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf64>
  %init = stablehlo.constant dense<0xFFF0000000000000> : tensor<f64>
  %m = "stablehlo.reduce_window"(%w, %init) <{padding = dense<[[0, 0], [0, 0], [1, 1], [1, 1]]> : tensor<4x2xi64>, window_dimensions = array<i64: 1, 1, 3, 3>, window_strides = array<i64: 1, 1, 2, 2>}> ({
  ^bb0(%a: tensor<f64>, %b: tensor<f64>):
    %c = stablehlo.maximum %a, %b : tensor<f64>
    stablehlo.return %c : tensor<f64>
  }) : (tensor<1x2x6x6xf64>, tensor<f64>) -> tensor<1x2x3x3xf64>
  %y = stablehlo.convert %m : (tensor<1x2x3x3xf64>) -> tensor<1x2x3x3xf32>
  return %y : tensor<1x2x3x3xf32>
}
"""


def test_widened_max_pool_runs_in_its_own_type():
    """torchax's f32 -> f64 -> max-pool -> f32 is the f32 max-pool, bit for bit."""
    ops, counts = _simplified(WIDENED_MAXPOOL)
    assert counts["narrowed order reduction"] == 1
    assert "convert" not in ops
    x = np.random.default_rng(1).standard_normal((1, 2, 6, 6)).astype(np.float32)
    x[0, 0, 0, 0] = np.nan
    got = _check_same_bits(WIDENED_MAXPOOL, x)[0]
    assert got.dtype == np.float32 and np.isnan(got[0, 0, 0, 0])


def test_widened_sum_is_kept():
    """An add body is not an order-only reduction: the f64 sum stays."""
    _, counts = _simplified(WIDENED_MAXPOOL.replace("stablehlo.maximum", "stablehlo.add"))
    assert counts["narrowed order reduction"] == 0


def test_returned_unit_dim_broadcast_is_a_reshape():
    """A returned broadcast_in_dim that only adds unit dims (GPT-2's
    ``logits[None]``) becomes a reshape, an alias of the product's buffer,
    not a copy dispatch; one that expands, or reorders dims, stays."""
    text = """
    func.func @main(%a: tensor<4x8xf32>, %b: tensor<8x6xf32>, %v: tensor<6xf32>)
        -> (tensor<1x4x6xf32>, tensor<3x6xf32>, tensor<6x4x1xf32>) {
      %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x6xf32>) -> tensor<4x6xf32>
      %r = stablehlo.broadcast_in_dim %d, dims = [1, 2] : (tensor<4x6xf32>) -> tensor<1x4x6xf32>
      %e = stablehlo.broadcast_in_dim %v, dims = [1] : (tensor<6xf32>) -> tensor<3x6xf32>
      %t = stablehlo.broadcast_in_dim %d, dims = [1, 0] : (tensor<4x6xf32>) -> tensor<6x4x1xf32>
      return %r, %e, %t : tensor<1x4x6xf32>, tensor<3x6xf32>, tensor<6x4x1xf32>
    }"""
    ops, counts = _simplified(text)
    assert ops == ["dot_general", "reshape", "broadcast_in_dim", "broadcast_in_dim", "return"]
    assert counts["returned relabel"] == 1
    rng = np.random.default_rng(3)
    a, b, v = (rng.standard_normal(s, np.float32) for s in ((4, 8), (8, 6), (6,)))
    got = _check_same_bits(text, a, b, v)
    np.testing.assert_allclose(got[0], (a @ b)[None], rtol=1e-5)
    np.testing.assert_array_equal(got[2], (a @ b).T[:, :, None])
