"""The CPU kernels' f16 <-> f32 conversions (integer arithmetic and masks,
no _Float16 and no branch, so loops over f16 data vectorise on every ISA
and every compiler) agree bit for bit with numpy's on every f16 and on
f32s around every f16 rounding boundary."""
from __future__ import annotations

import ctypes
import shutil
import subprocess

import numpy as np
import pytest

from tensorvm.compiler.codegen import cpu, scalar
from tensorvm.compiler.codegen.c_style import helper_chunks, helper_name

CONVERSIONS = [c for c in helper_chunks(scalar.HELPERS)
               if helper_name(c) in ("tvm_f16_to_f32", "tvm_f32_to_f16")]

pytestmark = pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler")


@pytest.fixture(scope="module")
def soft(tmp_path_factory):
    d = tmp_path_factory.mktemp("f16")
    src = "#include <stdint.h>\n#include <string.h>\n" + "\n".join(CONVERSIONS) + """
void to_f32(const uint16_t* h, float* f, long n) { for (long i = 0; i < n; ++i) f[i] = tvm_f16_to_f32(h[i]); }
void to_f16(const float* f, uint16_t* h, long n) { for (long i = 0; i < n; ++i) h[i] = tvm_f32_to_f16(f[i]); }
"""
    (d / "soft.c").write_text(src)
    subprocess.run(["cc", "-O2", "-fPIC", "-shared", "-fno-fast-math", str(d / "soft.c"), "-o",
                    str(d / "soft.so")], check=True)
    return ctypes.CDLL(str(d / "soft.so"))


def _call(fn, src, out_dtype):
    out = np.empty(src.shape, out_dtype)
    fn(src.ctypes.data_as(ctypes.c_void_p), out.ctypes.data_as(ctypes.c_void_p),
       ctypes.c_long(src.size))
    return out


def test_every_f16_widens_exactly(soft):
    h = np.arange(1 << 16, dtype=np.uint16)
    got = _call(soft.to_f32, h, np.float32)
    want = h.view(np.float16).astype(np.float32)
    nan = np.isnan(want)
    assert np.array_equal(np.isnan(got), nan)
    assert np.array_equal(got[~nan].view(np.uint32), want[~nan].view(np.uint32))


def test_f32_narrows_with_round_to_nearest_even(soft):
    f16 = np.arange(1 << 16, dtype=np.uint16).view(np.float16)
    base = f16[np.isfinite(f16)].astype(np.float32)
    bits = base.view(np.uint32).astype(np.int64)
    # each f16 value, the f32s next to it, and the midpoints to its neighbours
    near = np.concatenate([bits + k for k in (-2, -1, 0, 1, 2)]).clip(0, 0xFFFFFFFF)
    mids = (base[:-1].astype(np.float64) + base[1:]) / 2
    rng = np.random.default_rng(0)
    f = np.concatenate([near.astype(np.uint32).view(np.float32), mids.astype(np.float32),
                        rng.integers(0, 1 << 32, 200_000, dtype=np.uint64).astype(np.uint32)
                        .view(np.float32),
                        np.float32([np.inf, -np.inf, 65504, 65519.99, 65520, 1e-8, -1e-8, 0, -0.0])])
    got = _call(soft.to_f16, np.ascontiguousarray(f), np.uint16)
    with np.errstate(over="ignore"):
        want = f.astype(np.float16)
    nan = np.isnan(want)
    assert np.array_equal(np.isnan(got.view(np.float16)), nan)
    assert np.array_equal(got[~nan], want[~nan].view(np.uint16))


def test_prologue_converts_without_float16_or_branches():
    assert len(CONVERSIONS) == 2
    pro = cpu.prologue()
    assert "_Float16" not in pro and all(c in pro for c in CONVERSIONS)
    assert not any(kw in c for c in CONVERSIONS for kw in ("if (", "?", "for ("))
