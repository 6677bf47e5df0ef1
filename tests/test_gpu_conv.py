"""GPU direct convolution kernels (codegen/gpu_conv.py) against
jax.lax.conv_general_dilated on OpenCL (PoCL here), and the same kernels
through nvcc + ptxas for CUDA: layouts, strides, padding, dilation, groups,
depthwise, window reversal, a symbolic batch, fused epilogues, tiles that
end inside the pixel range or channel block."""
from __future__ import annotations

import numpy as np
import pytest
from tvm_testing import NCHW, compiled, jax_conv, window_reversal_case

from tensorvm import hal, runtime
from tensorvm.compiler.codegen import cuda as cuda_codegen

jax = pytest.importorskip("jax")

OPENCL = hal.registry.driver_availability("opencl")
TOOLCHAIN = cuda_codegen.have_toolchain()
_conv = jax_conv


def _rand(*shape, seed=0):
    return np.random.RandomState(seed + sum(shape)).randn(*shape).astype(np.float32)


CASES = {
    "3x3_same_bias_relu": (lambda x, w, b: jax.nn.relu(_conv(x, w) + b),
                           (_rand(1, 12, 12, 16), _rand(3, 3, 16, 32), _rand(32))),
    "stride2_valid": (lambda x, w: _conv(x, w, (2, 2), "VALID"), (_rand(2, 13, 11, 8), _rand(3, 3, 8, 16))),
    "pointwise_24": (lambda x, w: _conv(x, w, padding="VALID"), (_rand(1, 10, 10, 96), _rand(1, 1, 96, 24))),
    "dilated": (lambda x, w: _conv(x, w, rdil=(2, 3)), (_rand(1, 14, 15, 8), _rand(3, 3, 8, 16))),
    "grouped_2x16": (lambda x, w: _conv(x, w, groups=2), (_rand(1, 9, 10, 8), _rand(3, 3, 4, 32))),
    "grouped_3x2": (lambda x, w: _conv(x, w, groups=3), (_rand(1, 9, 10, 12), _rand(3, 3, 4, 6))),
    "depthwise_relu6": (lambda x, w, b: jax.nn.relu6(_conv(x, w, groups=38) + b),
                        (_rand(1, 15, 13, 38), _rand(3, 3, 1, 38), _rand(38))),
    "depthwise_s2_vec": (lambda x, w: _conv(x, w, (2, 2), groups=48), (_rand(1, 15, 13, 48), _rand(3, 3, 1, 48))),
    "depthwise_nchw": (lambda x, w: _conv(x, w, (2, 2), rdil=(2, 2), groups=5, dn=NCHW),
                       (_rand(2, 5, 17, 20), _rand(5, 1, 3, 3))),
    "channel_multiplier": (lambda x, w: _conv(x, w, groups=4), (_rand(1, 8, 8, 4), _rand(3, 3, 1, 8))),
    "nchw_oihw": (lambda x, w, b: _conv(x, w, (1, 2), ((1, 1), (2, 0)), dn=NCHW) + b[:, None, None],
                  (_rand(2, 8, 11, 9), _rand(12, 8, 3, 3), _rand(12))),
    "odd_edges_bn_residual": (lambda x, w, s, t, r: _conv(x, w, padding=((1, 1), (0, 2))) * s + t + r,
                              (_rand(1, 9, 13, 7), _rand(3, 3, 7, 19), _rand(19, seed=1),
                               _rand(19, seed=2), _rand(1, 9, 13, 19, seed=3))),
    "crop_and_pad": (lambda x, w: _conv(x, w, padding=((-1, 0), (-2, 1))), (_rand(1, 4, 3, 8), _rand(3, 3, 8, 16))),
    "5x5_on_4x3": (lambda x, w: _conv(x, w, padding=((2, 2), (2, 2))), (_rand(1, 4, 3, 8), _rand(5, 5, 8, 16))),
    "1d": (lambda x, w: jax.lax.conv_general_dilated(x, w, (2,), "SAME", dimension_numbers=("NWC", "WIO", "NWC")),
           (_rand(2, 17, 6), _rand(5, 6, 16))),
    "nchw_output": (lambda x, w: _conv(x, w, dn=("NHWC", "HWIO", "NCHW")), (_rand(2, 7, 6, 8), _rand(3, 3, 8, 16))),
    "few_pixels_wide": (lambda x, w: jax.nn.relu(_conv(x, w)), (_rand(1, 3, 3, 40), _rand(3, 3, 40, 136))),
}


def _check(name, text=None):
    f, args = CASES[name]
    text = text or jax.jit(f).lower(*args).as_text()
    got = runtime.load_module(compiled(text, ("cpu", "opencl")), device="opencl").main(*args)
    np.testing.assert_allclose(np.asarray(got), np.asarray(jax.jit(f)(*args)), rtol=1e-4, atol=1e-4)


@pytest.mark.skipif(OPENCL is not None, reason=f"opencl unavailable: {OPENCL}")
@pytest.mark.parametrize("name", list(CASES))
def test_opencl_convolution_matches_jax(name):
    _check(name)


@pytest.mark.skipif(OPENCL is not None, reason=f"opencl unavailable: {OPENCL}")
def test_opencl_window_reversal_and_direct_kernel_source():
    from tensorvm.compiler.api import CompileOptions, compile_text
    t, args, want = window_reversal_case()
    got = runtime.load_module(compiled(t, ("cpu", "opencl")), device="opencl").main(*args)
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-4, atol=1e-4)
    src = compile_text(t, CompileOptions(keep_source=True, targets=["opencl"])).stats["opencl_source"]
    assert "vload8(0, g_wp" in src and "g_a3_1 +=" in src     # 4 pixels x 2 float8 vectors


@pytest.mark.skipif(OPENCL is not None, reason=f"opencl unavailable: {OPENCL}")
def test_opencl_symbolic_batch():
    f = lambda x, w, b: jax.nn.relu(_conv(x, w, (2, 2)) + b)
    w, b = _rand(3, 3, 6, 24), _rand(24)
    spec = jax.ShapeDtypeStruct((jax.export.symbolic_shape("n")[0], 11, 10, 6), np.float32)
    text = jax.export.export(jax.jit(f))(spec, w, b).mlir_module()
    module = runtime.load_module(compiled(text, ("cpu", "opencl")), device="opencl")
    for n in (1, 3):
        x = _rand(n, 11, 10, 6)
        np.testing.assert_allclose(np.asarray(module.main(x, w, b)), np.asarray(jax.jit(f)(x, w, b)),
                                   rtol=1e-4, atol=1e-4)


@pytest.fixture
def gpu_form(monkeypatch):
    """PoCL builds the kernels as a GPU device does (no TVM_CPU_DEVICE), so it
    runs the staged implicit GEMM GPUs take."""
    from tensorvm.hal.loaders import opencl_c
    monkeypatch.setattr(opencl_c, "CPU_FORMS", False)


@pytest.mark.skipif(OPENCL is not None, reason=f"opencl unavailable: {OPENCL}")
@pytest.mark.parametrize("name", list(CASES))
def test_staged_implicit_gemm_matches_jax(name, gpu_form):
    """Ungrouped convolutions stage input windows and filter rows in local
    memory (gpu_conv.render_staged); grouped ones keep the register tiles."""
    from tensorvm.compiler.api import CompileOptions, compile_text
    f, args = CASES[name]
    text = jax.jit(f).lower(*args).as_text()
    res = compile_text(text, CompileOptions(keep_source=True, targets=["opencl"]))
    grouped = name.startswith(("grouped", "depthwise", "channel_multiplier"))
    assert ("g_As[g_kk][g_ii] = g_ii < g_nr && g_sk <" in res.stats["opencl_source"]) != grouped
    got = runtime.load_module(res.vmfb, device="opencl").main(*args)
    np.testing.assert_allclose(np.asarray(got), np.asarray(jax.jit(f)(*args)), rtol=1e-4, atol=1e-4)


@pytest.mark.skipif(OPENCL is not None, reason=f"opencl unavailable: {OPENCL}")
def test_staged_implicit_gemm_with_a_symbolic_batch_and_reversed_windows(gpu_form):
    from tensorvm import compiler
    t, args, want = window_reversal_case()
    got = runtime.load_module(compiler.compile_str(t, targets=["opencl"]), device="opencl").main(*args)
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-4, atol=1e-4)
    f = lambda x, w, b: jax.nn.relu(_conv(x, w, (2, 2)) + b)
    w, b = _rand(3, 3, 6, 24), _rand(24)
    spec = jax.ShapeDtypeStruct((jax.export.symbolic_shape("n")[0], 11, 10, 6), np.float32)
    text = jax.export.export(jax.jit(f))(spec, w, b).mlir_module()
    module = runtime.load_module(compiler.compile_str(text, targets=["opencl"]), device="opencl")
    for n in (1, 3):
        x = _rand(n, 11, 10, 6)
        np.testing.assert_allclose(np.asarray(module.main(x, w, b)), np.asarray(jax.jit(f)(x, w, b)),
                                   rtol=1e-4, atol=1e-4)


@pytest.mark.skipif(TOOLCHAIN is not None, reason=f"no CUDA toolchain: {TOOLCHAIN}")
def test_cuda_convolutions_pass_ptxas():
    """Every case in one module: nvcc and ptxas run once (compile_ptx raises on a rejection)."""
    from tensorvm.compiler.api import CompileOptions, compile_text
    fs, args = zip(*CASES.values())
    flat = [a for group in args for a in group]

    def all_cases(*xs):
        out, k = [], 0
        for f, a in zip(fs, args):
            out.append(f(*xs[k:k + len(a)]))
            k += len(a)
        return tuple(out)
    text = jax.jit(all_cases).lower(*flat).as_text()
    stats = compile_text(text, CompileOptions(keep_source=True, targets=["cuda"])).stats
    assert stats["cuda_source"].count("g_tiles") >= len(CASES) - 2    # direct kernels, not loops
