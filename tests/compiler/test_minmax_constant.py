"""max / min against a literal (relu, relu6, clamp) compile to a select
specialised on the constant; it must keep StableHLO's semantics: NaN
propagates, +0 wins max and -0 wins min against a zero of the other sign."""
from __future__ import annotations

import shutil

import numpy as np
import pytest
from tvm_testing import run_text

pytestmark = pytest.mark.skipif(shutil.which("cc") is None, reason="needs a C compiler")

X = np.array([np.nan, -0.0, 0.0, -1.0, 1.0, 6.0, 7.5, -np.inf, np.inf, 5.999], np.float32)


def _ref(op, x, c):
    x = x.astype(np.float64)
    out = np.maximum(x, c) if op == "maximum" else np.minimum(x, c)
    zero = (x == 0) & (c == 0)
    signed = np.where(op == "maximum", np.where(np.signbit(x) & np.signbit(c), -0.0, 0.0),
                      np.where(np.signbit(x) | np.signbit(c), -0.0, 0.0))
    return np.where(zero, signed, out)


@pytest.mark.parametrize("dt", ["f32", "f64"])
@pytest.mark.parametrize("op", ["maximum", "minimum"])
@pytest.mark.parametrize("c", [0.0, -0.0, 6.0, -1.0])
@pytest.mark.parametrize("const_first", [False, True])
def test_minmax_against_a_literal(op, c, const_first, dt):
    n = len(X)
    t = f"tensor<{n}x{dt}>"
    lhs, rhs = ("%k", "%x") if const_first else ("%x", "%k")
    text = (f"func.func @main(%x: {t}) -> {t} {{\n"
            f"  %c = stablehlo.constant dense<{c!r}> : tensor<{dt}>\n"
            f"  %k = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<{dt}>) -> {t}\n"
            f"  %0 = stablehlo.{op} {lhs}, {rhs} : {t}\n"
            f"  return %0 : {t}\n}}")
    x = X.astype(np.float32 if dt == "f32" else np.float64)
    got = np.asarray(run_text(text, x)).astype(np.float64)
    want = _ref(op, x, np.float64(c))
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    ok = ~np.isnan(want)
    np.testing.assert_array_equal(got[ok], want[ok])
    np.testing.assert_array_equal(np.signbit(got[ok]), np.signbit(want[ok]))
