"""chlo.scan (pretty syntax, lowered to a while loop) and chlo.ragged_dot
(lowered to a masked dot_general) against numpy."""
from __future__ import annotations

import shutil

import numpy as np
import pytest

from tvm_testing import run_text  # noqa: E402

pytestmark = pytest.mark.skipif(shutil.which("cc") is None, reason="needs a C compiler")


def test_scan_pretty_form_parses_to_the_generic_op():
    from tensorvm.compiler.mlir.parser import parse_module
    src = """func.func @main(%x: tensor<4x3xf32>, %c: tensor<3xf32>) -> (tensor<4x3xf32>, tensor<3xf32>) {
  %0:2 = chlo.scan(%x) inits(%c) dimension=0 attributes {is_reverse = true} {
  ^bb0(%a: tensor<3xf32>, %b: tensor<3xf32>):
    %1 = stablehlo.add %a, %b : tensor<3xf32>
    stablehlo.return %1, %1 : tensor<3xf32>, tensor<3xf32>
  } : (tensor<4x3xf32>, tensor<3xf32>) -> (tensor<4x3xf32>, tensor<3xf32>)
  return %0#0, %0#1 : tensor<4x3xf32>, tensor<3xf32>
}"""
    op = [o for o in parse_module(src).walk() if o.name == "chlo.scan"][0]
    assert op.attributes["dimension"].value == 0
    assert op.attributes["is_reverse"].value is True
    assert op.attributes["operandSegmentSizes"].values == (1, 1)
    assert len(op.regions) == 1 and len(op.regions[0].blocks[0].arguments) == 2


@pytest.mark.parametrize("reverse", [False, True])
def test_scan_two_inputs_along_dim1(reverse):
    """out0 = running sum of x*y along dim 1, out1 = running max of x; the
    carries are the last sum and max."""
    attrs = " attributes {is_reverse = true}" if reverse else ""
    t = f"""func.func @main(%x: tensor<2x5xf32>, %y: tensor<2x5xf32>) -> (tensor<2x5xf32>, tensor<2x5xf32>, tensor<2xf32>, tensor<2xf32>) {{
  %z = stablehlo.constant dense<0.0> : tensor<2xf32>
  %m = stablehlo.constant dense<-1.0e30> : tensor<2xf32>
  %0:4 = chlo.scan(%x, %y) inits(%z, %m) dimension=1{attrs} {{
  ^bb0(%a: tensor<2xf32>, %b: tensor<2xf32>, %s: tensor<2xf32>, %mx: tensor<2xf32>):
    %p = stablehlo.multiply %a, %b : tensor<2xf32>
    %s2 = stablehlo.add %s, %p : tensor<2xf32>
    %m2 = stablehlo.maximum %mx, %a : tensor<2xf32>
    stablehlo.return %s2, %m2, %s2, %m2 : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
  }} : (tensor<2x5xf32>, tensor<2x5xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<2x5xf32>, tensor<2x5xf32>, tensor<2xf32>, tensor<2xf32>)
  return %0#0, %0#1, %0#2, %0#3 : tensor<2x5xf32>, tensor<2x5xf32>, tensor<2xf32>, tensor<2xf32>
}}"""
    rng = np.random.default_rng(1)
    x, y = rng.standard_normal((2, 5)).astype(np.float32), rng.standard_normal((2, 5)).astype(np.float32)
    s, m, sc, mc = run_text(t, x, y)
    xs, ys = (x[:, ::-1], y[:, ::-1]) if reverse else (x, y)
    rs, rm = np.cumsum(xs * ys, axis=1), np.maximum.accumulate(xs, axis=1)
    if reverse:
        rs, rm = rs[:, ::-1], rm[:, ::-1]
    np.testing.assert_allclose(s, rs, rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(m, rm)
    last = 0 if reverse else -1
    np.testing.assert_allclose(sc, rs[:, last], rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(mc, rm[:, last])


def test_ragged_dot_rows_use_their_group_and_rows_past_the_groups_are_zero():
    t = """func.func @main(%l: tensor<2x9x4xf32>, %r: tensor<3x2x4x5xf32>, %g: tensor<3xi32>) -> tensor<2x9x5xf32> {
  %0 = "chlo.ragged_dot"(%l, %r, %g) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [1],
      lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [2],
      lhs_ragged_dimensions = [1], rhs_group_dimensions = [0]>,
    precision_config = [#chlo<precision DEFAULT>, #chlo<precision DEFAULT>]
  } : (tensor<2x9x4xf32>, tensor<3x2x4x5xf32>, tensor<3xi32>) -> tensor<2x9x5xf32>
  return %0 : tensor<2x9x5xf32>
}"""
    rng = np.random.default_rng(2)
    lhs = rng.standard_normal((2, 9, 4)).astype(np.float32)
    rhs = rng.standard_normal((3, 2, 4, 5)).astype(np.float32)
    sizes = np.array([3, 0, 4], np.int32)   # rows 7, 8 are in no group
    out = run_text(t, lhs, rhs, sizes)
    ref = np.zeros((2, 9, 5), np.float32)
    start = 0
    for g, n in enumerate(sizes):
        for b in range(2):
            ref[b, start:start + n] = lhs[b, start:start + n] @ rhs[g, b]
        start += n
    np.testing.assert_allclose(out, ref, rtol=1e-5, atol=1e-5)


def test_ragged_dot_with_ragged_contracting_dimension_is_unsupported():
    from tensorvm.compiler import compile_str
    from tensorvm.compiler.errors import UnsupportedOpError
    t = """func.func @main(%l: tensor<6x4xf32>, %r: tensor<4x5xf32>, %g: tensor<2xi64>) -> tensor<2x6x5xf32> {
  %0 = "chlo.ragged_dot"(%l, %r, %g) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [],
      lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0],
      lhs_ragged_dimensions = [1], rhs_group_dimensions = []>
  } : (tensor<6x4xf32>, tensor<4x5xf32>, tensor<2xi64>) -> tensor<2x6x5xf32>
  return %0 : tensor<2x6x5xf32>
}"""
    with pytest.raises(UnsupportedOpError, match="chlo.ragged_dot"):
        compile_str(t)
