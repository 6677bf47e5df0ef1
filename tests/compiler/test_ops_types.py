"""Element types: f8 variants round-trip bit-exactly with ml_dtypes; complex
arithmetic against numpy."""
from __future__ import annotations

import shutil

import numpy as np
import pytest

from tvm_testing import run_text  # noqa: E402

pytestmark = pytest.mark.skipif(shutil.which("cc") is None, reason="needs a C compiler")
ml_dtypes = pytest.importorskip("ml_dtypes")

F8 = [("f8E5M2", "float8_e5m2"), ("f8E4M3", "float8_e4m3"), ("f8E3M4", "float8_e3m4"),
      ("f8E4M3FN", "float8_e4m3fn"), ("f8E4M3FNUZ", "float8_e4m3fnuz"),
      ("f8E5M2FNUZ", "float8_e5m2fnuz"), ("f8E4M3B11FNUZ", "float8_e4m3b11fnuz"),
      ("f8E8M0FNU", "float8_e8m0fnu")]
VALUES = np.array([0, -0.0, 1, -1.5, 0.1, 3.3, 1e-3, 1e-6, 500, 1e5, -1e5, np.inf, -np.inf,
                   np.nan, 240, 57344, 448, 0.0137, 2.7e-3, 1.9e-3], np.float32)


@pytest.mark.parametrize("el,name", F8)
def test_f8_convert_is_bit_exact(el, name):
    dt = getattr(ml_dtypes, name)
    t = f"""func.func @main(%x: tensor<20xf32>, %y: tensor<256x{el}>) -> (tensor<20x{el}>, tensor<256xf32>) {{
  %0 = stablehlo.convert %x : (tensor<20xf32>) -> tensor<20x{el}>
  %1 = stablehlo.convert %y : (tensor<256x{el}>) -> tensor<256xf32>
  return %0, %1 : tensor<20x{el}>, tensor<256xf32>
}}"""
    every = np.arange(256, dtype=np.uint8).view(dt)
    enc, dec = run_text(t, VALUES, every)
    np.testing.assert_array_equal(enc.view(np.uint8), VALUES.astype(dt).view(np.uint8))
    np.testing.assert_array_equal(dec, every.astype(np.float32))


def test_e8m0fnu_rounding_edges_and_arithmetic():
    """E8M0FNU: exponent only -- ties round up, tiny values clamp to 2^-127,
    zero / negative / inf / overflow encode NaN (0xFF); a multiply computes
    in float and rounds back."""
    dt = ml_dtypes.float8_e8m0fnu
    x = np.array([1.5, 3, 0.75, 1.49, 1.1e-38, 8.8e-39, 9e-39, 1e-45, 0, -0.0, -2, np.inf,
                  1.7e38, 3e38, 2.0 ** -127, 2.0 ** 127], np.float32)
    t = """func.func @main(%x: tensor<16xf32>, %a: tensor<4xf8E8M0FNU>) -> (tensor<16xf8E8M0FNU>, tensor<4xf8E8M0FNU>, tensor<4xf8E8M0FNU>) {
  %0 = stablehlo.convert %x : (tensor<16xf32>) -> tensor<16xf8E8M0FNU>
  %1 = stablehlo.multiply %a, %a : tensor<4xf8E8M0FNU>
  %2 = stablehlo.constant dense<[1.0, 0.1, 3.1415, 0xFF]> : tensor<4xf8E8M0FNU>
  return %0, %1, %2 : tensor<16xf8E8M0FNU>, tensor<4xf8E8M0FNU>, tensor<4xf8E8M0FNU>
}"""
    a = np.array([0.5, 4, 2.0 ** 60, 2.0 ** -60], np.float32).astype(dt)
    enc, sq, c = run_text(t, x, a)
    np.testing.assert_array_equal(enc.view(np.uint8), x.astype(dt).view(np.uint8))
    np.testing.assert_array_equal(sq.view(np.uint8), (a.astype(np.float64) ** 2).astype(dt).view(np.uint8))
    np.testing.assert_array_equal(c.view(np.uint8), [127, 124, 129, 255])


def test_complex_arithmetic_matches_numpy():
    rng = np.random.RandomState(0)
    a = (rng.randn(8) + 1j * rng.randn(8)).astype(np.complex128)
    b = (rng.randn(8) + 1j * rng.randn(8)).astype(np.complex128)
    t = """func.func @main(%a: tensor<8xcomplex<f64>>, %b: tensor<8xcomplex<f64>>) -> (tensor<8xcomplex<f64>>, tensor<8xf64>) {
  %0 = stablehlo.divide %a, %b : tensor<8xcomplex<f64>>
  %1 = stablehlo.sqrt %0 : tensor<8xcomplex<f64>>
  %2 = stablehlo.exponential %1 : tensor<8xcomplex<f64>>
  %3 = stablehlo.abs %2 : (tensor<8xcomplex<f64>>) -> tensor<8xf64>
  return %2, %3 : tensor<8xcomplex<f64>>, tensor<8xf64>
}"""
    z, m = run_text(t, a, b)
    ref = np.exp(np.sqrt(a / b))
    np.testing.assert_allclose(z, ref, rtol=1e-12)
    np.testing.assert_allclose(m, np.abs(ref), rtol=1e-12)


@pytest.mark.parametrize("shape,dims,kind", [
    ((37, 53), (0,), "add"), ((1029, 1024), (0,), "add"), ((5, 7, 19), (0, 1), "maximum"),
    ((6, 9, 1100), (1,), "add"), ((3, 4, 5), (0,), "minimum")])
def test_column_reductions_match_numpy(shape, dims, kind):
    """Reductions that keep the contiguous last dim (the interchanged loop
    nest): odd sizes, chunked inner dims, several reduced dims, max/min."""
    x = np.random.default_rng(3).standard_normal(shape).astype(np.float32)
    oshape = tuple(d for k, d in enumerate(shape) if k not in dims)
    ts = lambda s: "tensor<" + "x".join(map(str, s)) + "xf32>"
    init = {"add": "0.0", "maximum": "0xFF800000", "minimum": "0x7F800000"}[kind]
    t = f"""func.func @main(%x: {ts(shape)}) -> {ts(oshape)} {{
  %init = stablehlo.constant dense<{init}> : tensor<f32>
  %0 = stablehlo.reduce(%x init: %init) applies stablehlo.{kind} across dimensions = {list(dims)}
     : ({ts(shape)}, tensor<f32>) -> {ts(oshape)}
  return %0 : {ts(oshape)}
}}"""
    ref = {"add": np.sum, "maximum": np.max, "minimum": np.min}[kind](x.astype(np.float64), axis=dims)
    np.testing.assert_allclose(run_text(t, x), ref, rtol=1e-4, atol=1e-3)
