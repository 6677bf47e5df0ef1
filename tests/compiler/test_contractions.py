"""CPU contractions against numpy: the packed GEMM kernel's edges (M, N, K
not multiples of its blocks, K = 1, N = 1, M = 1), row-vector (GEMV)
products, batched and transposed operands, f64, fused epilogues, and
workgroup ranges that split rows and columns (local-task with several
workers); transposes feeding a dot_general are folded into its strides."""
from __future__ import annotations

import shutil

import numpy as np
import pytest
from tvm_testing import compiled, run_text

from tensorvm import runtime
from tensorvm.compiler.codegen.kernel import Contraction, contraction_plan

pytestmark = pytest.mark.skipif(shutil.which("cc") is None, reason="needs a C compiler")

DEVICES = ["local-sync", "local-task://3"]


def _dot(lhs_shape, rhs_shape, out_shape, dims, dt="f32", epilogue=False):
    t = lambda s: f"tensor<{'x'.join(map(str, s))}x{dt}>"
    extra = f", %c: {t(out_shape[-1:])}" if epilogue else ""
    body = (f"  %0 = stablehlo.dot_general %a, %b, {dims} : ({t(lhs_shape)}, {t(rhs_shape)}) -> {t(out_shape)}\n")
    if epilogue:
        body += (f"  %1 = stablehlo.broadcast_in_dim %c, dims = [{len(out_shape) - 1}] : "
                 f"({t(out_shape[-1:])}) -> {t(out_shape)}\n"
                 f"  %2 = stablehlo.add %0, %1 : {t(out_shape)}\n"
                 f"  %3 = stablehlo.tanh %2 : {t(out_shape)}\n")
    res = "%3" if epilogue else "%0"
    return (f"func.func @main(%a: {t(lhs_shape)}, %b: {t(rhs_shape)}{extra}) -> {t(out_shape)} {{\n"
            f"{body}  return {res} : {t(out_shape)}\n}}")


def _check(text, args, expected, device, dt):
    out = runtime.load_module(compiled(text), device=device).main(*args)
    k = max(1, max(a.shape[-1] for a in args))
    tol = dict(rtol=1e-4, atol=1e-4 * np.sqrt(k)) if dt == "f32" else dict(rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(np.asarray(out), expected, **tol)


# (M, K, N): blocks are MR = 8 rows, NR = 16 / 32 columns (AVX-512), KC = 256, MB = 128, NB = 256 / 128
SHAPES = [(1, 64, 64), (1, 1, 1), (1, 300, 10), (2, 77, 40), (3, 5, 7), (37, 19, 45),
          (17, 1, 33), (200, 33, 1), (129, 130, 257), (8, 1000, 700), (300, 260, 600),
          (13, 70, 20), (45, 9, 16), (16, 140, 40)]


@pytest.mark.parametrize("dt", ["f32", "f64"])
@pytest.mark.parametrize("m,k,n", SHAPES)
@pytest.mark.parametrize("device", DEVICES)
def test_matmul_edges(m, k, n, dt, device):
    rng = np.random.default_rng(m * 7 + k * 3 + n)
    npdt = np.float32 if dt == "f32" else np.float64
    a, b = rng.standard_normal((m, k)).astype(npdt), rng.standard_normal((k, n)).astype(npdt)
    text = _dot((m, k), (k, n), (m, n), "contracting_dims = [1] x [0]", dt)
    _check(text, (a, b), a @ b, device, dt)


@pytest.mark.parametrize("m,k,n", [(1, 64, 48), (5, 40, 33), (70, 130, 90), (1, 7, 3), (12, 30, 20), (16, 140, 40)])
@pytest.mark.parametrize("layout", ["lhs_t", "rhs_t", "both_t"])
@pytest.mark.parametrize("dt", ["f32", "f64"])
def test_transposed_operands(m, k, n, layout, dt):
    """Operands stored K-major: the lhs as K x M, the rhs as N x K (q @ k^T)."""
    rng = np.random.default_rng(m + k + n)
    npdt = np.float32 if dt == "f32" else np.float64
    a = rng.standard_normal((k, m) if layout != "rhs_t" else (m, k)).astype(npdt)
    b = rng.standard_normal((n, k) if layout != "lhs_t" else (k, n)).astype(npdt)
    lc = 0 if layout != "rhs_t" else 1
    rc = 1 if layout != "lhs_t" else 0
    text = _dot(a.shape, b.shape, (m, n), f"contracting_dims = [{lc}] x [{rc}]", dt)
    expected = (a.T if lc == 0 else a) @ (b.T if rc == 1 else b)
    for device in DEVICES:
        _check(text, (a, b), expected, device, dt)


@pytest.mark.parametrize("bsz,m,k,n", [(3, 37, 19, 45), (4, 1, 64, 32), (2, 130, 70, 300), (6, 9, 1, 5)])
@pytest.mark.parametrize("rhs_t", [False, True])
def test_batched_with_epilogue(bsz, m, k, n, rhs_t):
    """Batches whose rows straddle workgroups, attention-style rhs (unit
    stride in K), a fused bias + tanh epilogue."""
    rng = np.random.default_rng(bsz + m)
    a = rng.standard_normal((bsz, m, k), np.float32)
    b = rng.standard_normal((bsz, n, k) if rhs_t else (bsz, k, n), np.float32)
    c = rng.standard_normal(n).astype(np.float32)
    dims = f"batching_dims = [0] x [0], contracting_dims = [2] x [{2 if rhs_t else 1}]"
    text = _dot(a.shape, b.shape, (bsz, m, n), dims, epilogue=True)
    bm = b.transpose(0, 2, 1) if rhs_t else b
    for device in DEVICES:
        _check(text, (a, b, c), np.tanh(a @ bm + c), device, "f32")


def test_two_batch_dims_attention_scores():
    """[batch, heads, seq, dim] q @ k^T over two batch dims."""
    rng = np.random.default_rng(1)
    q = rng.standard_normal((2, 3, 17, 16), np.float32)
    k = rng.standard_normal((2, 3, 21, 16), np.float32)
    text = _dot(q.shape, k.shape, (2, 3, 17, 21),
                "batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [3]")
    for device in DEVICES:
        _check(text, (q, k), q @ k.transpose(0, 1, 3, 2), device, "f32")


@pytest.mark.parametrize("form", ["scores", "context", "swapped"])
def test_uncollapsible_batch_dims_use_the_gemm_kernel(form):
    """Attention over a [batch, seq, heads, dim] layout: the batch dims
    (batch, heads) are not one strided run, so the batch index splits into
    mixed-radix offsets; the product still compiles to the GEMM kernel
    (q k^T, 17 rows: its dot products)."""
    from tensorvm.compiler.api import CompileOptions, compile_text
    rng = np.random.default_rng(3)
    q = rng.standard_normal((2, 17, 3, 16), np.float32)
    k = rng.standard_normal((2, 21, 3, 16), np.float32)
    if form == "scores":      # q k^T: contract dim, free seq
        args, out = (q, k), (2, 3, 17, 21)
        dims = "batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3]"
        expected = np.einsum("bqhd,bkhd->bhqk", q, k)
    elif form == "context":   # p^T v: contract seq, the lhs K-major
        args, out = (q, k[:, :17]), (2, 3, 16, 16)
        dims = "batching_dims = [0, 2] x [0, 2], contracting_dims = [1] x [1]"
        expected = np.einsum("bshd,bshe->bhde", q, k[:, :17])
    else:                     # batch dims listed heads first
        args, out = (q, k), (3, 2, 17, 21)
        dims = "batching_dims = [2, 0] x [2, 0], contracting_dims = [3] x [3]"
        expected = np.einsum("bqhd,bkhd->hbqk", q, k)
    text = _dot(args[0].shape, args[1].shape, out, dims)
    src = compile_text(text, CompileOptions(targets=("cpu",), keep_source=True)).stats["c_source"]
    assert ("tvm_dot_f32" if form != "context" else "tvm_gemm_f32") in src
    for device in DEVICES:
        _check(text, tuple(np.ascontiguousarray(a) for a in args), expected, device, "f32")


TRANSPOSED = """
func.func @main(%a: tensor<2x24x40xf32>, %b: tensor<2x40x33xf32>) -> tensor<2x33x24xf32> {
  %0 = stablehlo.transpose %b, dims = [0, 2, 1] : (tensor<2x40x33xf32>) -> tensor<2x33x40xf32>
  %1 = stablehlo.transpose %a, dims = [0, 2, 1] : (tensor<2x24x40xf32>) -> tensor<2x40x24xf32>
  %2 = stablehlo.dot_general %0, %1, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x33x40xf32>, tensor<2x40x24xf32>) -> tensor<2x33x24xf32>
  return %2 : tensor<2x33x24xf32>
}"""


def test_transposes_fold_into_the_contraction():
    """Both operands come from transposes: they read the transposes' inputs
    with permuted strides, so the program is one dispatch (three before)."""
    from tensorvm import compiler
    from tensorvm.vmfb import container
    mdef = container.read_module(compiler.compile_str(TRANSPOSED, targets=["cpu"]))
    (exe,) = mdef.executables
    assert len(exe.variants[0].entry_points) == 1
    rng = np.random.default_rng(2)
    a = rng.standard_normal((2, 24, 40), np.float32)
    b = rng.standard_normal((2, 40, 33), np.float32)
    expected = b.transpose(0, 2, 1) @ a.transpose(0, 2, 1)
    np.testing.assert_allclose(run_text(TRANSPOSED, a, b), expected, rtol=1e-4, atol=1e-4)


DYNAMIC_TRANSPOSED = """
func.func @main(%q: tensor<?x4x16x8xf32>, %k: tensor<?x4x16x8xf32>) -> tensor<?x4x16x16xf32> {
  %0 = stablehlo.transpose %k, dims = [0, 1, 3, 2] : (tensor<?x4x16x8xf32>) -> tensor<?x4x8x16xf32>
  %1 = stablehlo.dot_general %q, %0, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2] : (tensor<?x4x16x8xf32>, tensor<?x4x8x16xf32>) -> tensor<?x4x16x16xf32>
  return %1 : tensor<?x4x16x16xf32>
}"""


@pytest.mark.parametrize("batch", [1, 3])
def test_transpose_with_a_dynamic_batch_feeds_the_contraction(batch):
    """Attention's q @ k^T with a dynamic batch (torch.export's
    TransformerEncoder): a dynamic extent has no static stride, so the
    transpose is materialized instead of folded (compiling used to fail
    computing row-major strides of a ``?`` dim)."""
    rng = np.random.default_rng(3)
    q = rng.standard_normal((batch, 4, 16, 8), np.float32)
    k = rng.standard_normal((batch, 4, 16, 8), np.float32)
    np.testing.assert_allclose(run_text(DYNAMIC_TRANSPOSED, q, k), q @ k.transpose(0, 1, 3, 2),
                               rtol=1e-4, atol=1e-4)


def test_few_rows_split_columns_across_workgroups():
    """A product with few rows and large K * N tiles its columns too, so it
    still spreads over workers; every output column is covered once."""
    c = Contraction(None, None, None, 1, 8, 1000, 1000, (0, 1000, 1), (0, 1000, 1), ((), (8,), (1000,)))
    plan = contraction_plan(c)
    assert plan.col_blocks > 1 and plan.count == plan.row_blocks * plan.col_blocks
    assert plan.cols % 32 == 0 and plan.cols * plan.col_blocks >= 1000 > plan.cols * (plan.col_blocks - 1)


@pytest.mark.parametrize("lshape, rshape", [((3, 4), (4, 5)), ((4,), (4, 5)), ((3, 4), (4,)),
                                            ((4,), (4,))])
def test_legacy_dot_is_a_dot_general(lshape, rshape):
    """``stablehlo.dot`` (what TensorFlow's XLA bridge emits), ranks 1 and 2,
    with TF's ``precision`` and frontend attributes."""
    rng = np.random.default_rng(5)
    a = rng.standard_normal(lshape).astype(np.float32)
    b = rng.standard_normal(rshape).astype(np.float32)
    ref = a @ b

    def ty(s):
        return "tensor<" + "".join(f"{d}x" for d in s) + "f32>"

    text = f"""func.func @main(%a: {ty(lshape)}, %b: {ty(rshape)}) -> {ty(ref.shape)} {{
  %0 = stablehlo.dot %a, %b, precision = [DEFAULT, DEFAULT] {{mhlo.frontend_attributes = {{grad_x = "false"}}}} : ({ty(lshape)}, {ty(rshape)}) -> {ty(ref.shape)}
  return %0 : {ty(ref.shape)}
}}"""
    np.testing.assert_allclose(run_text(text, a, b), ref, rtol=1e-5, atol=1e-5)


def test_legacy_dot_of_rank_3_is_refused():
    from tensorvm.compiler.errors import CompileError
    text = """func.func @main(%a: tensor<2x3x4xf32>, %b: tensor<4x5xf32>) -> tensor<2x3x5xf32> {
  %0 = stablehlo.dot %a, %b : (tensor<2x3x4xf32>, tensor<4x5xf32>) -> tensor<2x3x5xf32>
  return %0 : tensor<2x3x5xf32>
}"""
    with pytest.raises(CompileError, match="'stablehlo.dot' op expected both lhs/rhs ranks"):
        compiled(text)


@pytest.mark.parametrize("m,k", [(32, 64), (37, 5), (200, 129), (16, 1), (3, 40)])
@pytest.mark.parametrize("dt", ["f32", "f64"])
def test_one_column_products_with_contiguous_rows(m, k, dt):
    """N = 1 with A stored K x M (rows contiguous): the axpy-along-M path
    (gemm_rows.column_gemv), vector rows and a scalar tail."""
    rng = np.random.default_rng(m + k)
    npdt = np.float32 if dt == "f32" else np.float64
    a, b = rng.standard_normal((k, m)).astype(npdt), rng.standard_normal((k, 1)).astype(npdt)
    text = _dot(a.shape, b.shape, (m, 1), "contracting_dims = [0] x [0]", dt)
    from tensorvm.compiler.api import CompileOptions, compile_text
    assert "gemm_rows.column_gemv" in compile_text(text, CompileOptions(keep_source=True)).stats["c_source"]
    for device in DEVICES:
        _check(text, (a, b), a.T @ b, device, dt)


def test_decode_attention_context_is_one_column_per_head():
    """A decode step's probabilities times V: V [positions, heads, dim], p
    [heads, 1, positions] -> [heads, dim, 1], batched over heads."""
    rng = np.random.default_rng(3)
    v = rng.standard_normal((64, 4, 32), np.float32)
    p = rng.random((4, 1, 64), np.float32)
    text = _dot(v.shape, p.shape, (4, 32, 1), "batching_dims = [1] x [0], contracting_dims = [0] x [2]")
    want = np.einsum("phd,hqp->hdq", v, p)
    for device in DEVICES:
        _check(text, (v, p), want, device, "f32")


# torch's attention as bmm: heads split by a transpose, (batch, heads) merged
# by a reshape before each dot_general; GQA repeats the key/value heads with a
# broadcast.  Q: [B, S, H, D]; K, V: [B, S, KV, D]; H = KV * REP.
BMM_ATTENTION = """
func.func @main(%q: tensor<2x9x4x8xf32>, %k: tensor<2x9x{kv}x8xf32>, %v: tensor<2x9x{kv}x8xf32>) -> tensor<18x32xf32> {{
  %qt = stablehlo.transpose %q, dims = [0, 2, 1, 3] : (tensor<2x9x4x8xf32>) -> tensor<2x4x9x8xf32>
  %qm = stablehlo.reshape %qt : (tensor<2x4x9x8xf32>) -> tensor<8x9x8xf32>
  %kt = stablehlo.transpose %k, dims = [0, 2, 3, 1] : (tensor<2x9x{kv}x8xf32>) -> tensor<2x{kv}x8x9xf32>
  %kb = stablehlo.broadcast_in_dim %kt, dims = [0, 1, 3, 4] : (tensor<2x{kv}x8x9xf32>) -> tensor<2x{kv}x{rep}x8x9xf32>
  %km = stablehlo.reshape %kb : (tensor<2x{kv}x{rep}x8x9xf32>) -> tensor<8x8x9xf32>
  %s = stablehlo.dot_general %qm, %km, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<8x9x8xf32>, tensor<8x8x9xf32>) -> tensor<8x9x9xf32>
  %e = stablehlo.exponential %s : tensor<8x9x9xf32>
  %vt = stablehlo.transpose %v, dims = [0, 2, 1, 3] : (tensor<2x9x{kv}x8xf32>) -> tensor<2x{kv}x9x8xf32>
  %vb = stablehlo.broadcast_in_dim %vt, dims = [0, 1, 3, 4] : (tensor<2x{kv}x9x8xf32>) -> tensor<2x{kv}x{rep}x9x8xf32>
  %vm = stablehlo.reshape %vb : (tensor<2x{kv}x{rep}x9x8xf32>) -> tensor<8x9x8xf32>
  %c = stablehlo.dot_general %e, %vm, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<8x9x9xf32>, tensor<8x9x8xf32>) -> tensor<8x9x8xf32>
  %c4 = stablehlo.reshape %c : (tensor<8x9x8xf32>) -> tensor<2x4x9x8xf32>
  %ct = stablehlo.transpose %c4, dims = [0, 2, 1, 3] : (tensor<2x4x9x8xf32>) -> tensor<2x9x4x8xf32>
  %o = stablehlo.reshape %ct : (tensor<2x9x4x8xf32>) -> tensor<18x32xf32>
  return %o : tensor<18x32xf32>
}}"""


def _bmm_case(kv, seed):
    """(q, k, v, the expected output) of BMM_ATTENTION with ``kv`` key/value heads."""
    rng = np.random.default_rng(seed)
    q = rng.standard_normal((2, 9, 4, 8), np.float32) * 0.3
    k = rng.standard_normal((2, 9, kv, 8), np.float32) * 0.3
    v = rng.standard_normal((2, 9, kv, 8), np.float32)
    kr, vr = np.repeat(k, 4 // kv, axis=2), np.repeat(v, 4 // kv, axis=2)
    e = np.exp(np.einsum("bqhd,bkhd->bhqk", q, kr))
    return q, k, v, np.einsum("bhqk,bkhd->bqhd", e, vr).reshape(18, 32)


@pytest.mark.parametrize("kv", [4, 2, 1], ids=["mha", "gqa", "mqa"])
def test_bmm_attention_reads_heads_through_strides(kv):
    """The merged (batch, heads) dim is split back (passes/split_batch.py) so
    the head-split transposes and GQA's repeated heads are strided views of
    q, k, v: no copy dispatch before either product."""
    from tensorvm.compiler.api import CompileOptions, compile_text
    text = BMM_ATTENTION.format(kv=kv, rep=4 // kv)
    res = compile_text(text, CompileOptions(targets=("cpu",), keep_source=True))
    entries = [ep.name for ep in _entry_points(res.vmfb)]
    # the two products and the exponential: nothing copies q, k or v, and the
    # second product stores its result in the merged-heads layout (the
    # dispatch is named after that transpose, its root)
    assert len(entries) == 3, entries
    q, k, v, want = _bmm_case(kv, 5)
    for device in DEVICES:
        got = runtime.load_module(res.vmfb, device=device).main(q, k, v)
        np.testing.assert_allclose(np.asarray(got), want, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("kv", [4, 2], ids=["mha", "gqa"])
def test_the_head_merge_is_stored_by_the_product_on_opencl(kv):
    """The transposed store of the second product (kernel.store_view) on the
    GPU renderers too: values checked on PoCL."""
    from tensorvm import hal
    missing = hal.registry.driver_availability("opencl")
    if missing is not None:
        pytest.skip(f"opencl unavailable: {missing}")
    from tensorvm import compiler
    vm = compiler.compile_str(BMM_ATTENTION.format(kv=kv, rep=4 // kv), targets=["cpu", "opencl"])
    q, k, v, want = _bmm_case(kv, 8)
    got = runtime.load_module(vm, device="opencl").main(q, k, v)
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-4, atol=1e-4)


def test_scaled_attention_operands_stay_views():
    """torch's SDPA scales q and k by a constant after the head split: the
    scale moves to the product's result (split_batch.hoist_operand_scale),
    so q and k are still read through strides, not copied."""
    from tensorvm.compiler.api import CompileOptions, compile_text
    text = BMM_ATTENTION.format(kv=2, rep=2)
    text = text.replace(
        "  %qm = stablehlo.reshape %qt :",
        "  %sq = stablehlo.constant dense<0.5> : tensor<2x4x9x8xf32>\n"
        "  %qs = stablehlo.multiply %qt, %sq : tensor<2x4x9x8xf32>\n"
        "  %qm = stablehlo.reshape %qs :").replace(
        "  %kb = stablehlo.broadcast_in_dim %kt,",
        "  %sk = stablehlo.constant dense<0.5> : tensor<2x2x8x9xf32>\n"
        "  %ks = stablehlo.multiply %sk, %kt : tensor<2x2x8x9xf32>\n"
        "  %kb = stablehlo.broadcast_in_dim %ks,")
    res = compile_text(text, CompileOptions(targets=("cpu",), keep_source=True))
    entries = [ep.name for ep in _entry_points(res.vmfb)]
    assert len(entries) == 3, entries           # the two products and the exponential
    rng = np.random.default_rng(6)
    q = rng.standard_normal((2, 9, 4, 8), np.float32)
    k = rng.standard_normal((2, 9, 2, 8), np.float32)
    v = rng.standard_normal((2, 9, 2, 8), np.float32)
    kr, vr = np.repeat(k, 2, axis=2), np.repeat(v, 2, axis=2)
    e = np.exp(0.25 * np.einsum("bqhd,bkhd->bhqk", q, kr))
    want = np.einsum("bhqk,bkhd->bqhd", e, vr).reshape(18, 32)
    for device in DEVICES:
        got = runtime.load_module(res.vmfb, device=device).main(q, k, v)
        np.testing.assert_allclose(np.asarray(got), want, rtol=1e-4, atol=1e-4)


def _entry_points(vmfb):
    from tensorvm.vmfb import container
    (exe,) = container.read_module(vmfb).executables
    return exe.variants[0].entry_points


@pytest.mark.parametrize("cpu", ["x86-64-v2", "x86-64-v3", "x86-64-v4"])
@pytest.mark.parametrize("dt", ["f32", "f64"])
def test_each_vector_width_tiles_its_own_micro_kernel(cpu, dt):
    """The micro-tile is per vector width (16-byte 4 x 2 vectors, AVX2 4 x 3,
    AVX-512 8 x 2): edges in every dimension, K over two KC slices, plain
    and transposed rhs, on each x86-64 level this machine runs."""
    import platform
    flags = open("/proc/cpuinfo").read() if platform.machine() == "x86_64" else ""
    need = {"x86-64-v2": "sse4_2", "x86-64-v3": "avx2", "x86-64-v4": "avx512f"}[cpu]
    if need not in flags:
        pytest.skip(f"this machine has no {need}")
    from tensorvm import compiler
    npdt = np.float32 if dt == "f32" else np.float64
    rng = np.random.default_rng(7)
    for m, k, n, rhs_t in [(130, 300, 75, False), (7, 520, 49, True), (3, 9, 5, False)]:
        a = rng.standard_normal((m, k)).astype(npdt)
        b = rng.standard_normal((n, k) if rhs_t else (k, n)).astype(npdt)
        text = _dot(a.shape, b.shape, (m, n), f"contracting_dims = [1] x [{1 if rhs_t else 0}]", dt)
        vm = compiler.compile_str(text, targets=["cpu"], cpu=cpu)
        for device in DEVICES:
            out = runtime.load_module(vm, device=device).main(a, b)
            tol = dict(rtol=1e-4, atol=1e-4 * np.sqrt(k)) if dt == "f32" else dict(rtol=1e-10, atol=1e-10)
            np.testing.assert_allclose(np.asarray(out), a @ (b.T if rhs_t else b), **tol)


def _dispatches(text):
    import contextlib
    import io
    from tensorvm.compiler.api import CompileOptions, compile_text
    ir = io.StringIO()
    with contextlib.redirect_stdout(ir), contextlib.redirect_stderr(ir):
        compile_text(text, CompileOptions(targets=("cpu",), dump_ir_after=["form-dispatch-regions"]))
    return ir.getvalue().split('"tvm.dispatch"')[1:]


_FORK = ("func.func @main(%a: tensor<16x32xf32>, %b: tensor<32x24xf32>, %c: tensor<24xf32>) -> RESULTS {\n"
         "  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : "
         "(tensor<16x32xf32>, tensor<32x24xf32>) -> tensor<16x24xf32>\n"
         "  %1 = stablehlo.broadcast_in_dim %c, dims = [1] : (tensor<24xf32>) -> tensor<16x24xf32>\n"
         "  %2 = stablehlo.add %0, %1 : tensor<16x24xf32>\n"
         "  %3 = stablehlo.exponential %2 : tensor<16x24xf32>\n"
         "  %4 = stablehlo.sine %2 : tensor<16x24xf32>\n")


def test_a_forked_epilogue_that_meets_again_stays_in_the_product_kernel():
    """x = a . b + bias read by two branches that meet again in one op (the
    exact GELU's 0.5 * x and erf(x / sqrt 2), a SiLU's x * sigmoid(x)): one
    dispatch, the product and the whole epilogue, x computed once per
    element (BERT-base: its FFN's GELU was a dispatch of its own)."""
    t = "tensor<16x24xf32>"
    text = _FORK.replace("RESULTS", t) + (f"  %5 = stablehlo.multiply %3, %4 : {t}\n"
                                          f"  return %5 : {t}\n}}")
    dispatches = _dispatches(text)
    assert len(dispatches) == 1 and "dot_general" in dispatches[0], dispatches
    rng = np.random.default_rng(3)
    a, b = rng.standard_normal((16, 32), np.float32), rng.standard_normal((32, 24), np.float32)
    c = rng.standard_normal(24).astype(np.float32)
    x = a @ b + c
    for device in ("local-sync", "local-task"):
        out = run_text(text, a, b, c, device=device)
        np.testing.assert_allclose(out, np.exp(x) * np.sin(x), rtol=1e-4, atol=1e-4 * np.abs(np.exp(x)).max())


def test_a_forked_epilogue_that_stays_apart_computes_the_product_once():
    """The branches end in two results: x is materialized once, not the
    product redone in each branch's dispatch."""
    t = "tensor<16x24xf32>"
    text = _FORK.replace("RESULTS", f"({t}, {t})") + f"  return %3, %4 : {t}, {t}\n}}"
    dispatches = _dispatches(text)
    assert sum("dot_general" in d for d in dispatches) == 1 and len(dispatches) == 3, dispatches
    rng = np.random.default_rng(4)
    a, b = rng.standard_normal((16, 32), np.float32), rng.standard_normal((32, 24), np.float32)
    c = rng.standard_normal(24).astype(np.float32)
    x = a @ b + c
    e, s = run_text(text, a, b, c)
    np.testing.assert_allclose(e, np.exp(x), rtol=1e-4)
    np.testing.assert_allclose(s, np.sin(x), rtol=1e-4, atol=1e-5)

def test_a_slice_of_an_operand_is_read_in_place():
    """A dot operand that is a static slice of a buffer (a decode step's
    layer of a KV cache, q/k/v split from a fused projection) is read at
    an offset with the slice's strides: one dispatch, no copy of the slice;
    both operands sliced, a strided slice, several batch runs."""
    from tensorvm.compiler.api import CompileOptions, compile_text
    rng = np.random.default_rng(21)
    cache = rng.standard_normal((3, 4, 5, 40, 16), np.float32)     # batch, layer, head, seq, dim
    qkv = rng.standard_normal((3, 5, 3 * 16 + 7), np.float32)      # batch, head, (q | k | v | pad)
    text = """
func.func @main(%c: tensor<3x4x5x40x16xf32>, %x: tensor<3x5x55xf32>) -> tensor<3x5x20xf32> {
  %k = stablehlo.slice %c [0:3, 2:3, 0:5, 0:40:2, 0:16] : (tensor<3x4x5x40x16xf32>) -> tensor<3x1x5x20x16xf32>
  %kr = stablehlo.reshape %k : (tensor<3x1x5x20x16xf32>) -> tensor<3x5x20x16xf32>
  %q = stablehlo.slice %x [0:3, 0:5, 16:32] : (tensor<3x5x55xf32>) -> tensor<3x5x16xf32>
  %s = stablehlo.dot_general %q, %kr, batching_dims = [0, 1] x [0, 1], contracting_dims = [2] x [3] : (tensor<3x5x16xf32>, tensor<3x5x20x16xf32>) -> tensor<3x5x20xf32>
  return %s : tensor<3x5x20xf32>
}"""
    stats = compile_text(text, CompileOptions(targets=("cpu",))).stats
    assert stats["dispatches"]["main"] == 1
    want = np.einsum("bhd,bhtd->bht", qkv[:, :, 16:32], cache[:, 2, :, 0:40:2])
    from tensorvm import hal
    opencl = hal.registry.driver_availability("opencl") is None    # PoCL in CI: the GPU renderer's offsets
    for device in DEVICES + (["opencl"] if opencl else []):
        vmfb = compiled(text, ("cpu", "opencl")) if device == "opencl" else compiled(text)
        got = runtime.load_module(vmfb, device=device).main(cache, qkv)
        np.testing.assert_allclose(np.asarray(got), want, rtol=1e-5, atol=1e-5)
