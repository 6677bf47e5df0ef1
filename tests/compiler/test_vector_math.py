"""The CPU target's vectorisable f32 exp / tanh / erf / logistic / log
(codegen/vector_math.py) against numpy in float64, over a wide range of
magnitudes (tiny, subnormal, large, negative) and the special values; the
same helpers on OpenCL CPU devices (PoCL: opencl.py ``_cpu_device_math``)."""
from __future__ import annotations

import math
import shutil

import numpy as np
import pytest

from tvm_testing import compiled  # noqa: E402

from tensorvm import hal, runtime

pytestmark = pytest.mark.skipif(shutil.which("cc") is None, reason="needs a C compiler")
OPENCL = hal.registry.driver_availability("opencl")
DEVICES = ["local-sync", pytest.param("opencl", marks=pytest.mark.skipif(
    OPENCL is not None, reason=f"opencl unavailable: {OPENCL}"))]


def run_text(text, x, device):
    out = runtime.load_module(compiled(text, ("cpu", "opencl")), device=device).main(x)
    return tuple(np.asarray(o) for o in out) if isinstance(out, tuple) else np.asarray(out)

SPECIAL = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, -np.nan, 1e-45, -1e-45, 1e-38,
                    88.72283, 88.72284, 89.0, -87.3, -103.9, -104.0, -200.0, 1e30, -1e30,
                    0.625, -0.625, 1.0, -1.0, 3.92, 4.0, 9.0, 44.0, 0.3465736, -0.3465736],
                   np.float32)


def _inputs(n=20000):
    rng = np.random.default_rng(7)
    mag = 10.0 ** rng.uniform(-40, 2.3, n)           # 1e-40 .. 200, subnormals included
    x = (mag * rng.choice([-1.0, 1.0], n)).astype(np.float32)
    dense = np.linspace(-12, 12, 4001, dtype=np.float32)
    return np.concatenate([SPECIAL, x, dense])


def _ulps(got, want):
    """Distance in representable f32 values (NaN must match NaN)."""
    def order(a):
        i = a.view(np.int32).astype(np.int64)
        return np.where(i < 0, np.int64(-(2 ** 31)) - i, i)
    nan = np.isnan(want)
    assert np.array_equal(np.isnan(got), nan)
    return np.abs(order(got[~nan]) - order(want[~nan]))


TEXT = """func.func @main(%x: tensor<{n}xf32>) -> (tensor<{n}xf32>, tensor<{n}xf32>, tensor<{n}xf32>, tensor<{n}xf32>) {{
  %0 = stablehlo.exponential %x : tensor<{n}xf32>
  %1 = stablehlo.tanh %x : tensor<{n}xf32>
  %2 = chlo.erf %x : tensor<{n}xf32> -> tensor<{n}xf32>
  %3 = stablehlo.logistic %x : tensor<{n}xf32>
  return %0, %1, %2, %3 : tensor<{n}xf32>, tensor<{n}xf32>, tensor<{n}xf32>, tensor<{n}xf32>
}}"""


@pytest.mark.parametrize("device", DEVICES)
def test_exp_tanh_erf_logistic_within_two_ulp(device):
    x = _inputs()
    e, t, f, s = run_text(TEXT.format(n=x.size), x, device)
    x64 = x.astype(np.float64)
    with np.errstate(over="ignore"):
        want_exp = np.exp(x64).astype(np.float32)
        want_sig = (1.0 / (1.0 + np.exp(-x64))).astype(np.float32)   # exact enough in f64
    want_erf = np.array([math.erf(v) if not math.isnan(v) else math.nan for v in x64]).astype(np.float32)
    assert _ulps(e, want_exp).max() <= 1
    assert _ulps(t, np.tanh(x64).astype(np.float32)).max() <= 1
    assert _ulps(f, want_erf).max() <= 1
    # e / (1 + e), e = exp(-|x|): the exp's ulp plus the add and divide roundings
    assert _ulps(s, want_sig).max() <= 3


@pytest.mark.parametrize("device", DEVICES)
def test_special_values_are_exact(device):
    x = SPECIAL
    e, t, f, s = run_text(TEXT.format(n=x.size), x, device)
    def at(v):
        return int(np.flatnonzero(x == np.float32(v))[0])
    assert e[at(np.inf)] == np.inf and e[at(-np.inf)] == 0 and e[at(89.0)] == np.inf
    assert e[at(0.0)] == 1 and e[at(-104.0)] == 0 and e[at(1e30)] == np.inf
    assert t[at(np.inf)] == 1 and t[at(-np.inf)] == -1 and t[at(1e30)] == 1
    assert np.signbit(t[1]) and t[1] == 0 and np.signbit(f[1])     # x[1] is -0.0
    assert f[at(np.inf)] == 1 and f[at(-np.inf)] == -1 and f[at(4.0)] == 1
    assert s[at(np.inf)] == 1 and s[at(-np.inf)] == 0
    assert all(np.isnan(a[4]) and np.isnan(a[5]) for a in (e, t, f, s))


LOG = """func.func @main(%x: tensor<{n}xf32>) -> tensor<{n}xf32> {{
  %0 = stablehlo.log %x : tensor<{n}xf32>
  return %0 : tensor<{n}xf32>
}}"""


@pytest.mark.parametrize("device", DEVICES)
def test_log_within_one_ulp_and_its_special_values(device):
    rng = np.random.default_rng(11)
    tiny = np.arange(1, 5000, dtype=np.int32).view(np.float32)          # subnormals
    mags = (10.0 ** rng.uniform(-45, 38.5, 40000)).astype(np.float32)
    near_one = np.float32(1) + np.linspace(-0.3, 0.45, 20001, dtype=np.float32)
    bounds = np.float32([np.sqrt(0.5), np.sqrt(2), 0.5, 2.0, 1.0, np.finfo(np.float32).max,
                         np.finfo(np.float32).tiny, 1.4e-45])
    with np.errstate(over="ignore"):
        up = np.nextafter(bounds, np.float32(np.inf))
    x = np.concatenate([tiny, mags, near_one, bounds, np.nextafter(bounds, np.float32(0)), up])
    x = x[x > 0]
    got = run_text(LOG.format(n=x.size), x, device)
    want = np.log(x.astype(np.float64)).astype(np.float32)
    assert _ulps(got, want).max() <= 1
    special = np.float32([0.0, -0.0, np.inf, -np.inf, np.nan, -1.0, -1e-40, 1.0])
    got = run_text(LOG.format(n=special.size), special, device)
    assert got[0] == -np.inf and got[1] == -np.inf and got[2] == np.inf and got[7] == 0
    assert np.isnan(got[3]) and np.isnan(got[4]) and np.isnan(got[5]) and np.isnan(got[6])
