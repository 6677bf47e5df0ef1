"""f16/bf16 dot_general through the contraction plans of every target:
operands converted to f32 as they are packed or staged, products summed in
f32 and rounded once to the result type (XLA's and IREE's semantics), a
bf16/f16 x bf16/f16 -> f32 product (``preferred_element_type``) kept in f32.
Checked against float64 products rounded to the result type on the CPU
drivers and PoCL; the CUDA form must pass ptxas.  Before, these products
ran as one scalar loop per output (2 GFLOP/s for a 512^3 bf16 product)."""
from __future__ import annotations

import shutil

import numpy as np
import pytest

from tensorvm import compiler, hal, runtime
from tensorvm.compiler.codegen import cuda as cuda_codegen
from tensorvm.vmfb import container

ml_dtypes = pytest.importorskip("ml_dtypes")
pytestmark = pytest.mark.skipif(shutil.which("cc") is None, reason="needs a C compiler")

NP = {"f16": np.float16, "bf16": ml_dtypes.bfloat16, "f32": np.float32}
EPS = {"f16": 2.0 ** -10, "bf16": 2.0 ** -7, "f32": 2.0 ** -23}


def _t(shape, el):
    return f"tensor<{'x'.join(map(str, shape))}x{el}>" if shape else f"tensor<{el}>"


def _program(ls, rs, os_, dims, el, out_el, epilogue):
    body = f"  %0 = stablehlo.dot_general %a, %b, {dims} : ({_t(ls, el)}, {_t(rs, el)}) -> {_t(os_, out_el)}\n"
    res = "%0"
    if epilogue:                      # an epilogue op on the rounded product
        body += f"  %1 = stablehlo.multiply %0, %0 : {_t(os_, out_el)}\n"
        res = "%1"
    return (f"func.func @main(%a: {_t(ls, el)}, %b: {_t(rs, el)}) -> {_t(os_, out_el)} {{\n"
            f"{body}  return {res} : {_t(os_, out_el)}\n}}")


# (lhs shape, rhs shape, out shape, dimension numbers, numpy reference of float64 operands)
CASES = {
    "square": ((64, 96), (96, 80), (64, 80), "contracting_dims = [1] x [0]", lambda a, b: a @ b),
    "edges": ((37, 300), (300, 45), (37, 45), "contracting_dims = [1] x [0]", lambda a, b: a @ b),
    "row": ((1, 130), (130, 70), (1, 70), "contracting_dims = [1] x [0]", lambda a, b: a @ b),
    "rows": ((3, 50), (50, 40), (3, 40), "contracting_dims = [1] x [0]", lambda a, b: a @ b),
    "row_rhs_transposed": ((1, 200), (70, 200), (1, 70), "contracting_dims = [1] x [1]",
                           lambda a, b: a @ b.T),
    "column": ((50, 33), (33, 1), (50, 1), "contracting_dims = [1] x [0]", lambda a, b: a @ b),
    "rhs_transposed": ((20, 64), (48, 64), (20, 48), "contracting_dims = [1] x [1]",
                       lambda a, b: a @ b.T),
    "lhs_transposed": ((64, 20), (64, 48), (20, 48), "contracting_dims = [0] x [0]",
                       lambda a, b: a.T @ b),
    "batched": ((3, 17, 32), (3, 32, 24), (3, 17, 24),
                "batching_dims = [0] x [0], contracting_dims = [2] x [1]", lambda a, b: a @ b),
}


def _args(name, el):
    ls, rs = CASES[name][:2]
    rng = np.random.default_rng(len(name))
    a = rng.standard_normal(ls).astype(np.float32).astype(NP[el])
    b = rng.standard_normal(rs).astype(np.float32).astype(NP[el])
    return a, b


def _check(got, a, b, reference, out_el, epilogue, k):
    want = reference(a.astype(np.float64), b.astype(np.float64))
    assert got.dtype == NP[out_el]
    got = got.astype(np.float64)
    if epilogue:    # the square of the product rounded to out_el (as the program computes it)
        want = want.astype(NP[out_el]).astype(np.float64) ** 2
    # f32 sums of k products, then one rounding to out_el
    tol = (2 * EPS[out_el] + k * 2.0 ** -23) * np.abs(want).max()
    np.testing.assert_allclose(got, want, rtol=2 * EPS[out_el] * (2 if epilogue else 1), atol=tol)


@pytest.mark.parametrize("el,out_el", [("bf16", "bf16"), ("f16", "f16"), ("bf16", "f32"), ("f16", "f32")])
@pytest.mark.parametrize("name", list(CASES))
def test_narrow_products_match_on_cpu(name, el, out_el):
    ls, rs, os_, dims, _ = CASES[name]
    epilogue = name in ("square", "batched")
    res = compiler.api.compile_text(_program(ls, rs, os_, dims, el, out_el, epilogue),
                                    compiler.CompileOptions(targets=("cpu",), keep_source=True))
    src = res.stats["c_source"]
    # B stored N x K: its dot products, which convert as they read
    assert ("tvm_dot_" if "rhs_transposed" in name else "tvm_gemm_") in src, \
        "the product did not take the GEMM kernel"
    if name.startswith("row"):      # under 4 rows: the converting row kernels, no padded tile
        row_read = "x0_ = tvm_%s_v" if "transposed" in name else "x0 = tvm_%s_to_f32(la["
        assert row_read % el in src
    a, b = _args(name, el)
    for device in ("local-sync", "local-task://3"):
        got = np.asarray(runtime.load_module(res.vmfb, device=device).main(a, b))
        _check(got, a, b, CASES[name][4], out_el, epilogue, _k(name))


def _k(name):
    return CASES[name][0][0 if name == "lhs_transposed" else -1]


def test_narrow_product_with_dynamic_k_takes_the_blocked_plan():
    """K a symbol: not the packed GEMM (it needs static N and K) but the
    register-blocked contraction, converting each operand load."""
    text = ("func.func @main(%a: tensor<9x?xbf16>, %b: tensor<?x21xbf16>) -> tensor<9x21xbf16> {\n"
            "  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : "
            "(tensor<9x?xbf16>, tensor<?x21xbf16>) -> tensor<9x21xbf16>\n"
            "  return %0 : tensor<9x21xbf16>\n}")
    res = compiler.api.compile_text(text, compiler.CompileOptions(targets=("cpu",), keep_source=True))
    assert "acc[i][j] += a * tvm_bf16_to_f32(" in res.stats["c_source"]
    rng = np.random.default_rng(5)
    a = rng.standard_normal((9, 70)).astype(np.float32).astype(ml_dtypes.bfloat16)
    b = rng.standard_normal((70, 21)).astype(np.float32).astype(ml_dtypes.bfloat16)
    got = np.asarray(runtime.load_module(res.vmfb, device="local-sync").main(a, b))
    _check(got, a, b, lambda x, y: x @ y, "bf16", False, 70)


OPENCL = hal.registry.driver_availability("opencl")


@pytest.mark.skipif(OPENCL is not None, reason=f"opencl unavailable: {OPENCL}")
@pytest.mark.parametrize("el,out_el", [("bf16", "bf16"), ("f16", "f32")])
@pytest.mark.parametrize("name", ["edges", "rhs_transposed", "batched"])
def test_narrow_products_match_on_opencl(name, el, out_el):
    """PoCL runs the vector form (gpu_gemm.py); the staged-tile form GPUs
    build is in the same source, its loads converted."""
    ls, rs, os_, dims, _ = CASES[name]
    data = compiler.compile_str(_program(ls, rs, os_, dims, el, out_el, False), targets=["opencl"])
    src = "".join(bytes(v.data).decode() for exe in container.read_module(data).executables
                  for v in exe.variants)
    load = f"tvm_{el}_to_f32(g_lp["
    assert "g_As" in src and load in src, "the GPU form does not stage converted tiles"
    a, b = _args(name, el)
    got = np.asarray(runtime.load_module(data, device="opencl").main(a, b))
    _check(got, a, b, CASES[name][4], out_el, False, _k(name))


TOOLCHAIN = cuda_codegen.have_toolchain()


@pytest.mark.skipif(TOOLCHAIN is not None, reason=f"no CUDA toolchain: {TOOLCHAIN}")
@pytest.mark.parametrize("el", ["bf16", "f16"])
def test_narrow_products_compile_for_cuda(el):
    """The staged-tile CUDA form (compile runs nvcc, then ptxas on its PTX)."""
    ls, rs, os_, dims, _ = CASES["square"]
    data = compiler.compile_str(_program(ls, rs, os_, dims, el, el, True), targets=["cuda"])
    (exe,) = container.read_module(data).executables
    ptx = bytes(exe.variants[0].data).decode()
    assert "cvt.f32.f16" in ptx or el == "bf16", "the f16 operands are not converted in the kernel"
    assert ".shared" in ptx, "the contraction did not stage tiles in shared memory"


@pytest.mark.parametrize("cpu", ["x86-64", "x86-64-v3"])
@pytest.mark.parametrize("el", ["bf16", "f16"])
@pytest.mark.parametrize("name", ["edges", "row"])
def test_narrow_products_on_narrower_x86_variants(name, el, cpu):
    """SSE2 (16-byte vectors, f16 widened one element at a time) and AVX2 +
    F16C (``_mm256_cvtph_ps``) builds beside the host's, where this host
    runs them (an x86-64 host runs every lower level)."""
    import platform
    if platform.machine() not in ("x86_64", "AMD64"):
        pytest.skip("needs an x86-64 host to run x86-64 variants")
    ls, rs, os_, dims, ref = CASES[name]
    res = compiler.api.compile_text(_program(ls, rs, os_, dims, el, el, False),
                                    compiler.CompileOptions(targets=("cpu",), cpu=cpu))
    a, b = _args(name, el)
    got = np.asarray(runtime.load_module(res.vmfb, device="local-sync").main(a, b))
    _check(got, a, b, ref, el, False, _k(name))


# -- convolutions: f32 convolutions between converts (passes/widen_convolutions.py) --

CONVS = {   # (input NHWC, filter HWIO, strides, feature groups)
    "3x3": ((2, 12, 12, 8), (3, 3, 8, 16), (1, 1), 1),
    "strided": ((1, 15, 15, 6), (3, 3, 6, 10), (2, 2), 1),
    "depthwise": ((1, 10, 10, 12), (3, 3, 1, 12), (1, 1), 12),
}


def _conv_case(name, el):
    import jax
    import jax.numpy as jnp
    xs, ws, strides, groups = CONVS[name]
    rng = np.random.default_rng(len(name) + 3)
    x = rng.standard_normal(xs).astype(np.float32).astype(NP[el])
    w = rng.standard_normal(ws).astype(np.float32).astype(NP[el])

    def conv(a, b):
        return jax.lax.conv_general_dilated(a, b, strides, "SAME", feature_group_count=groups,
                                            dimension_numbers=("NHWC", "HWIO", "NHWC"),
                                            preferred_element_type=jnp.float32)
    text = jax.jit(lambda a, b: conv(a, b).astype(a.dtype)).lower(x, w).as_text()
    want = np.asarray(conv(jnp.asarray(x, jnp.float32), jnp.asarray(w, jnp.float32)), np.float64)
    return text, x, w, want, ws[0] * ws[1] * ws[2]


@pytest.mark.parametrize("el", ["bf16", "f16"])
@pytest.mark.parametrize("name", list(CONVS))
def test_narrow_convolutions_take_the_f32_plans(name, el):
    text, x, w, want, k = _conv_case(name, el)
    res = compiler.api.compile_text(text, compiler.CompileOptions(targets=("cpu",), keep_source=True))
    src = res.stats["c_source"]
    # two operand converts, then the convolution plan (cpu_conv.py's filter blocks) storing el
    assert "wblk" in src and src.count("_convert(const tvm_dispatch_state_t*") == 3
    for device in ("local-sync", "local-task://3"):
        got = np.asarray(runtime.load_module(res.vmfb, device=device).main(x, w))
        assert got.dtype == NP[el]
        tol = (2 * EPS[el] + k * 2.0 ** -23) * np.abs(want).max()
        np.testing.assert_allclose(got.astype(np.float64), want, rtol=2 * EPS[el], atol=tol)


@pytest.mark.skipif(OPENCL is not None, reason=f"opencl unavailable: {OPENCL}")
def test_narrow_convolution_on_opencl():
    text, x, w, want, k = _conv_case("strided", "bf16")
    got = np.asarray(runtime.load_module(compiler.compile_str(text, targets=["opencl"]),
                                         device="opencl").main(x, w))
    np.testing.assert_allclose(got.astype(np.float64), want, rtol=2 * EPS["bf16"],
                               atol=(2 * EPS["bf16"] + k * 2.0 ** -23) * np.abs(want).max())


@pytest.mark.skipif(TOOLCHAIN is not None, reason=f"no CUDA toolchain: {TOOLCHAIN}")
def test_narrow_convolution_compiles_for_cuda():
    text = _conv_case("3x3", "f16")[0]
    (exe,) = container.read_module(compiler.compile_str(text, targets=["cuda"])).executables
    assert "cvt.f32.f16" in bytes(exe.variants[0].data).decode()


# -- the matrix-unit form (gpu_mma.py): tensor cores on CUDA --

@pytest.mark.skipif(TOOLCHAIN is not None, reason=f"no CUDA toolchain: {TOOLCHAIN}")
@pytest.mark.parametrize("el", ["bf16", "f16"])
def test_narrow_products_take_tensor_cores_where_the_arch_has_them(el):
    """One CUDA source: WMMA on sm_80 and up for both types, on sm_75 for
    f16 only (Turing has no bf16 tensor cores), the staged f32 tiles else."""
    ls, rs, os_, dims, _ = CASES["edges"]
    res = compiler.api.compile_text(_program(ls, rs, os_, dims, el, el, True),
                                    compiler.CompileOptions(targets=("cuda",), keep_source=True))
    src = res.stats["cuda_source"]
    for arch, tensor_cores in (("sm_75", el == "f16"), ("sm_80", True), ("sm_90", True)):
        ptx = cuda_codegen.compile_ptx(src, arch)      # ptxas-checked
        assert ("wmma.mma.sync" in ptx) == tensor_cores, arch
        assert ".shared" in ptx


class _EmulatedFragments:
    """WMMA's semantics as OpenCL C, so PoCL runs gpu_mma.py's kernels: every
    work-item of a 32-wide "warp" holds whole 16 x 16 fragments (a collective
    load or product is the same in every lane) and lane 0 stores them.  What
    this checks is the kernel around the fragments: staging, zero padding
    past the edges, fragment offsets and leading dimensions, the epilogue."""
    mma_align = ""
    cpu_device_macro = None              # the GPU form, not PoCL's vector one
    local_size_hint = 128                # four warps: the CUDA target's tiles
    _CONVERT = {"f16": "tvm_f16_to_f32", "bf16": "tvm_bf16_to_f32"}

    def mma_guard(self, element):
        return "1" if element in self._CONVERT else None

    def prologue(self, needs_f64):
        return super().prologue(needs_f64) + """
typedef struct { float v[256]; } tvm_frag;
#define TVM_FRAG_LOAD(f, p, ld, cv) for (int r_ = 0; r_ < 16; ++r_) \\
  for (int c_ = 0; c_ < 16; ++c_) (f).v[r_ * 16 + c_] = cv((p)[r_ * (ld) + c_])
"""

    def mma_declare(self, element, a, b, acc):
        return [f"  tvm_frag {', '.join(a + b + acc)};"]

    def mma_zero(self, acc):
        return f"for (int q_ = 0; q_ < 256; ++q_) {acc}.v[q_] = 0.0f;"

    def mma_load(self, element, frag, pointer, ld):
        return f"TVM_FRAG_LOAD({frag}, {pointer}, {ld}, {self._CONVERT[element]});"

    def mma_step(self, acc, a, b):
        return (f"for (int i_ = 0; i_ < 16; ++i_) for (int j_ = 0; j_ < 16; ++j_) "
                f"for (int k_ = 0; k_ < 16; ++k_) "
                f"{acc}.v[i_ * 16 + j_] += {a}.v[i_ * 16 + k_] * {b}.v[k_ * 16 + j_];")

    def mma_store(self, pointer, acc, ld):
        return (f"if (g_lid % 32 == 0) for (int r_ = 0; r_ < 16; ++r_) for (int c_ = 0; c_ < 16; ++c_) "
                f"({pointer})[r_ * {ld} + c_] = {acc}.v[r_ * 16 + c_];")


@pytest.fixture
def emulated_fragments(monkeypatch):
    from tensorvm.compiler.codegen import opencl
    monkeypatch.setattr(opencl, "TARGET", type("EmulatedMma", (_EmulatedFragments, opencl.OpenCLTarget), {})())


def _emulated_source(data):
    src = "".join(bytes(v.data).decode() for exe in container.read_module(data).executables
                  for v in exe.variants)
    assert "TVM_FRAG_LOAD(g_fa0" in src, "the product did not take the matrix-unit form"


@pytest.mark.skipif(OPENCL is not None, reason=f"opencl unavailable: {OPENCL}")
@pytest.mark.parametrize("el,out_el", [("bf16", "bf16"), ("f16", "f32")])
@pytest.mark.parametrize("name", list(CASES))
def test_matrix_unit_form_matches_with_emulated_fragments(name, el, out_el, emulated_fragments):
    ls, rs, os_, dims, _ = CASES[name]
    epilogue = name in ("square", "batched")
    data = compiler.compile_str(_program(ls, rs, os_, dims, el, out_el, epilogue), targets=["opencl"])
    _emulated_source(data)
    a, b = _args(name, el)
    got = np.asarray(runtime.load_module(data, device="opencl").main(a, b))
    _check(got, a, b, CASES[name][4], out_el, epilogue, _k(name))


@pytest.mark.skipif(OPENCL is not None, reason=f"opencl unavailable: {OPENCL}")
@pytest.mark.parametrize("rows", [5, 70, 200])
def test_matrix_unit_form_with_symbolic_rows(rows, emulated_fragments):
    """Rows a symbol: the tall tiles, rows past the call's count not stored."""
    text = ("func.func @main(%a: tensor<?x40xf16>, %b: tensor<40x150xf16>) -> tensor<?x150xf16> {\n"
            "  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : "
            "(tensor<?x40xf16>, tensor<40x150xf16>) -> tensor<?x150xf16>\n"
            "  return %0 : tensor<?x150xf16>\n}")
    data = compiler.compile_str(text, targets=["opencl"])
    _emulated_source(data)
    rng = np.random.default_rng(rows)
    a = rng.standard_normal((rows, 40)).astype(np.float16)
    b = rng.standard_normal((40, 150)).astype(np.float16)
    got = np.asarray(runtime.load_module(data, device="opencl").main(a, b))
    _check(got, a, b, lambda x, y: x @ y, "f16", False, 40)


CUDA = hal.registry.driver_availability("cuda")


@pytest.mark.skipif(TOOLCHAIN is not None or CUDA is not None,
                    reason=f"needs nvcc and a GPU: {TOOLCHAIN or CUDA}")
@pytest.mark.parametrize("el,out_el", [("bf16", "bf16"), ("f16", "f32")])
@pytest.mark.parametrize("name", list(CASES))
def test_narrow_products_match_on_cuda(name, el, out_el):
    """The tensor-core form on the GPU itself (sm_80 PTX: any Ampere or newer)."""
    ls, rs, os_, dims, _ = CASES[name]
    epilogue = name in ("square", "batched")
    data = compiler.compile_str(_program(ls, rs, os_, dims, el, out_el, epilogue), targets=["cuda"])
    a, b = _args(name, el)
    got = np.asarray(runtime.load_module(data, device="cuda").main(a, b))
    _check(got, a, b, CASES[name][4], out_el, epilogue, _k(name))


@pytest.mark.skipif(TOOLCHAIN is not None, reason=f"no CUDA toolchain: {TOOLCHAIN}")
def test_a_loop_with_a_narrow_product_stays_one_cuda_launch():
    """Loop steps keep the f32 tiles (their arena aligns arrays to 16 bytes,
    fragments need 32): the loop is still one launch, the standalone
    dispatch of the same product takes the tensor cores."""
    t, w = "tensor<4x16xf16>", "tensor<16x16xf16>"
    text = f"""func.func @main(%x: {t}, %w: {w}) -> {t} {{
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %n = stablehlo.constant dense<5> : tensor<i32>
  %r:2 = stablehlo.while(%i = %c0, %h = %x) : tensor<i32>, {t}
    cond {{
      %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    }} do {{
      %d = stablehlo.dot_general %h, %w, contracting_dims = [1] x [0] : ({t}, {w}) -> {t}
      %e = stablehlo.tanh %d : {t}
      %in = stablehlo.add %i, %c1 : tensor<i32>
      stablehlo.return %in, %e : tensor<i32>, {t}
    }}
  return %r#1 : {t}
}}"""
    res = compiler.api.compile_text(text, compiler.CompileOptions(targets=("cuda",), keep_source=True))
    src = res.stats["cuda_source"]
    loop = src[src.index('extern "C" __global__ void loop'):]
    assert "_native_vm(" not in loop and "_native(" in loop.split("\n")[0]
    assert "wmma" not in loop and "wmma::mma_sync" in src
