"""The packed GEMM's large-M loop order (codegen/gemm.py): one packed B panel
serves up to MC rows, swept MB rows of A at a time, A read in place when its
K stride is 1 and packed otherwise.  Shapes cross every block edge: more
rows than MC, a last MB block and a last MR tile that are partial, K over
two KC slices, N not a whole number of NR panels."""
from __future__ import annotations

import numpy as np
import pytest

from tensorvm import runtime
from tensorvm.compiler.codegen import gemm, gemm_rows
from tvm_testing import compiled

DEVICES = ["local-sync", "local-task://3"]      # one thread; workers splitting the rows


def _text(lhs_shape, rhs_shape, out_shape, dims, dt):
    t = lambda s: f"tensor<{'x'.join(map(str, s))}x{dt}>"  # noqa: E731
    return (f"func.func @main(%a: {t(lhs_shape)}, %b: {t(rhs_shape)}, %c: {t(out_shape[-1:])}) -> {t(out_shape)} {{\n"
            f"  %0 = stablehlo.dot_general %a, %b, {dims} : ({t(lhs_shape)}, {t(rhs_shape)}) -> {t(out_shape)}\n"
            f"  %1 = stablehlo.broadcast_in_dim %c, dims = [{len(out_shape) - 1}] : "
            f"({t(out_shape[-1:])}) -> {t(out_shape)}\n"
            f"  %2 = stablehlo.add %0, %1 : {t(out_shape)}\n"
            f"  return %2 : {t(out_shape)}\n}}")


M_BIG = gemm.MC + gemm.MB + 13      # a full MC sweep, then a partial one


@pytest.mark.parametrize("dt", ["f32", "f64"])
@pytest.mark.parametrize("lhs_t", [False, True], ids=["a_rows", "a_kmajor"])
def test_more_rows_than_one_b_panel_serves(lhs_t, dt):
    """M > MC: B is packed once per MC rows; a K-major A (lhs_t) is packed,
    a row-major one read in place; the bias epilogue reads the accumulator
    block of every swept MB block."""
    m, k, n = M_BIG, 300, 70
    npdt = np.float32 if dt == "f32" else np.float64
    rng = np.random.default_rng(11)
    a = rng.standard_normal((k, m) if lhs_t else (m, k)).astype(npdt)
    b = rng.standard_normal((k, n)).astype(npdt)
    c = rng.standard_normal(n).astype(npdt)
    text = _text(a.shape, b.shape, (m, n), f"contracting_dims = [{0 if lhs_t else 1}] x [0]", dt)
    want = (a.T if lhs_t else a) @ b + c
    tol = dict(rtol=1e-4, atol=1e-4 * np.sqrt(k)) if dt == "f32" else dict(rtol=1e-10, atol=1e-10)
    for device in DEVICES:
        got = runtime.load_module(compiled(text), device=device).main(a, b, c)
        np.testing.assert_allclose(np.asarray(got), want, **tol)


def test_batched_rows_do_not_cross_batches():
    """A batch of products, each with more rows than MB: a swept block stops
    at its batch's last row (B differs per batch)."""
    bt, m, k, n = 3, 2 * gemm.MB + 5, 40, 33
    rng = np.random.default_rng(12)
    a = rng.standard_normal((bt, m, k)).astype(np.float32)
    b = rng.standard_normal((bt, k, n)).astype(np.float32)
    c = rng.standard_normal(n).astype(np.float32)
    text = _text(a.shape, b.shape, (bt, m, n),
                 "batching_dims = [0] x [0], contracting_dims = [2] x [1]", "f32")
    for device in DEVICES:
        got = runtime.load_module(compiled(text), device=device).main(a, b, c)
        np.testing.assert_allclose(np.asarray(got), a @ b + c, rtol=1e-4, atol=1e-3)


def test_rows_are_independent_of_how_many_there_are():
    """Each output row's bits do not depend on M (from GEMV_ROWS rows up):
    the same sums in the same order whether a row is read in place, in a
    partial tile or a full one -- what lets a batcher's merged call answer
    every request with a single call's bits."""
    k, n = 300, 70
    rng = np.random.default_rng(13)
    b = rng.standard_normal((k, n)).astype(np.float32)
    c = rng.standard_normal(n).astype(np.float32)
    a = rng.standard_normal((M_BIG, k)).astype(np.float32)
    outs = {}
    for m in (gemm.GEMV_ROWS, 37, M_BIG):
        mod = runtime.load_module(compiled(_text((m, k), b.shape, (m, n), "contracting_dims = [1] x [0]", "f32")),
                                  device="local-sync")
        outs[m] = np.asarray(mod.main(a[:m], b, c))
    for m, out in outs.items():
        np.testing.assert_array_equal(out, outs[M_BIG][:m])


@pytest.mark.parametrize("m", [1, 3])
def test_a_gemv_row_has_the_packed_rows_bits(m):
    """Fewer than GEMV_ROWS rows take the unpacked row kernel; with B's rows
    contiguous it sums each output in K order like the micro-kernel, so a
    batch-1 call (a classifier head's M = batch) and a merged call agree
    bit for bit; K over one KC slice, N with a partial vector."""
    k, n = 2 * gemm.KC + 7, 70
    rng = np.random.default_rng(14)
    a = rng.standard_normal((16, k)).astype(np.float32)
    b = rng.standard_normal((k, n)).astype(np.float32)
    c = rng.standard_normal(n).astype(np.float32)
    outs = {}
    for rows in (m, 16):
        mod = runtime.load_module(compiled(_text((rows, k), b.shape, (rows, n), "contracting_dims = [1] x [0]", "f32")),
                                  device="local-sync")
        outs[rows] = np.asarray(mod.main(a[:rows], b, c))
    np.testing.assert_array_equal(outs[m], outs[16][:m])


def test_few_rows_split_into_whole_row_column_strips():
    """At most MC rows whose columns are split (BERT-base's 128-row
    products): each CPU workgroup is a column strip of every row, so a
    thread's claim packs each B panel once; GPU plans keep their row
    blocks.  K over two KC slices and N over several NB blocks, so the
    sweep's prefetch of the next slice and of the next block both run;
    three workers claim strips in any order."""
    from tensorvm.compiler.codegen.kernel import contraction_plan

    class Shape:
        B, M, K, N = 1, 128, 2 * gemm.KC + 37, 4 * gemm.NB + 88
    cpu, gpu = gemm.cpu_plan(Shape), contraction_plan(Shape)
    assert (cpu.rows, cpu.row_blocks) == (128, 1) and cpu.col_blocks == cpu.count > 3
    assert gpu.rows < 128 and gpu.count == gpu.row_blocks * gpu.col_blocks
    m, k, n = Shape.M, Shape.K, Shape.N
    rng = np.random.default_rng(15)
    a = rng.standard_normal((m, k)).astype(np.float32)
    b = rng.standard_normal((k, n)).astype(np.float32)
    c = rng.standard_normal(n).astype(np.float32)
    text = _text(a.shape, b.shape, (m, n), "contracting_dims = [1] x [0]", "f32")
    for device in DEVICES:
        got = runtime.load_module(compiled(text), device=device).main(a, b, c)
        np.testing.assert_allclose(np.asarray(got), a @ b + c, rtol=1e-4, atol=1e-4 * np.sqrt(k))


@pytest.mark.parametrize("m", [16, "?"])
def test_b_read_in_place_is_prefetched(m):
    """Few rows (at most DIRECT_B_ROWS, static or symbolic): B is read in
    place, and the sweep prefetches the next K slice and the next column
    block as the packing path does (B from DRAM otherwise stalls every
    micro-kernel).  K over two KC slices, N over several NB blocks."""
    from tensorvm.compiler.api import CompileOptions, compile_text
    rows, k, n = 16, 2 * gemm.KC + 37, 3 * gemm.NB + 40
    assert rows <= gemm.DIRECT_B_ROWS
    text = (f"func.func @main(%a: tensor<{m}x{k}xf32>, %b: tensor<{k}x{n}xf32>) -> tensor<{m}x{n}xf32> {{\n"
            f"  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : "
            f"(tensor<{m}x{k}xf32>, tensor<{k}x{n}xf32>) -> tensor<{m}x{n}xf32>\n"
            f"  return %0 : tensor<{m}x{n}xf32>\n}}")
    out = compile_text(text, CompileOptions(keep_source=True))
    assert "__builtin_prefetch" in out.stats["c_source"]
    rng = np.random.default_rng(16)
    a = rng.standard_normal((rows, k)).astype(np.float32)
    b = rng.standard_normal((k, n)).astype(np.float32)
    for device in DEVICES:
        got = runtime.load_module(out.vmfb, device=device).main(a, b)
        np.testing.assert_allclose(np.asarray(got), a @ b, rtol=1e-4, atol=1e-4 * np.sqrt(k))


@pytest.mark.parametrize("dt", ["f32", "f64"])
@pytest.mark.parametrize("m", [1, 5, "?"])
def test_few_rows_stream_a_big_b_once_with_the_packed_rows_bits(m, dt):
    """B of at least GEMV_STREAM_BYTES with contiguous rows and under
    GEMV_STREAM_ROWS rows (static, or a symbol bound to 1..8): one pass
    over B for all rows (gemm_rows.gemv_stream, GEMV_KT rows of B side by side, a
    K tail, columns past the last whole vector).  Each output is the packed
    micro-kernel's FMA chain: a row's bits equal its bits in a 16-row call."""
    from tensorvm.compiler.api import CompileOptions, compile_text
    npdt = np.float32 if dt == "f32" else np.float64
    item = np.dtype(npdt).itemsize
    k, n = 4 * gemm_rows.GEMV_KT * 40 + 3, 1000 + 5
    assert k * n * item >= gemm_rows.GEMV_STREAM_BYTES
    rng = np.random.default_rng(17)
    a = rng.standard_normal((16, k)).astype(npdt)
    b = rng.standard_normal((k, n)).astype(npdt)
    c = rng.standard_normal(n).astype(npdt)
    big = runtime.load_module(compiled(_text((16, k), b.shape, (16, n), "contracting_dims = [1] x [0]", dt)),
                              device="local-sync").main(a, b, c)
    big = np.asarray(big)
    text = (f"func.func @main(%a: tensor<{m}x{k}x{dt}>, %b: tensor<{k}x{n}x{dt}>) -> tensor<{m}x{n}x{dt}> {{\n"
            f"  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : "
            f"(tensor<{m}x{k}x{dt}>, tensor<{k}x{n}x{dt}>) -> tensor<{m}x{n}x{dt}>\n"
            f"  return %0 : tensor<{m}x{n}x{dt}>\n}}") if m == "?" else \
        _text((m, k), b.shape, (m, n), "contracting_dims = [1] x [0]", dt)
    out = compile_text(text, CompileOptions(keep_source=True))
    assert "for (; k + %d <= %d; k += %d)" % (gemm_rows.GEMV_KT, k, gemm_rows.GEMV_KT) in out.stats["c_source"]
    for rows in ([m] if m != "?" else [1, 3, gemm_rows.GEMV_STREAM_ROWS - 1, gemm_rows.GEMV_STREAM_ROWS]):
        for device in DEVICES:
            mod = runtime.load_module(out.vmfb, device=device)
            got = np.asarray(mod.main(a[:rows], b, c) if m != "?" else mod.main(a[:rows], b))
            want = big[:rows] if m != "?" else big[:rows] - c
            if m != "?":
                np.testing.assert_array_equal(got, want)
            else:     # the bias is not in this program: compare the product
                tol = dict(rtol=1e-4, atol=1e-4 * np.sqrt(k)) if dt == "f32" else dict(rtol=1e-10, atol=1e-10)
                np.testing.assert_allclose(got, want, **tol)



@pytest.mark.parametrize("dt", ["f32", "f64"])
@pytest.mark.parametrize("k", [gemm_rows.DOT_ALL_K + 13, 300])
def test_b_stored_n_by_k_takes_dot_products_with_one_rows_bits(k, dt):
    """B stored N x K (a tied LM head, torch's Linear weights) with A's rows
    along K: dot products read B in place (gemm_rows.dot_rows) for under
    DOT_ROWS rows, for any number from DOT_ALL_K up; 4, 2 and 1 rows per
    call, several column blocks (the next one prefetched), a last partial
    group of columns, a K tail.  A row's bits do not depend on how many
    rows its call has: every output's lanes meet in the same tree."""
    from tensorvm.compiler.api import CompileOptions, compile_text
    npdt = np.float32 if dt == "f32" else np.float64
    n = 400 + 5
    rng = np.random.default_rng(19)
    top = 100 if k >= gemm_rows.DOT_ALL_K else gemm_rows.DOT_ROWS - 1
    a = rng.standard_normal((top, k)).astype(npdt)
    b = rng.standard_normal((n, k)).astype(npdt)
    c = rng.standard_normal(n).astype(npdt)
    tol = dict(rtol=1e-4, atol=1e-4 * np.sqrt(k)) if dt == "f32" else dict(rtol=1e-10, atol=1e-10)
    outs = {}
    for rows in (top, 1, 2, 3, 5, 7, 16):
        out = compile_text(_text((rows, k), b.shape, (rows, n), "contracting_dims = [1] x [1]", dt),
                           CompileOptions(keep_source=True))
        assert "tvm_dot_" in out.stats["c_source"] and "tvm_gemm_f" not in out.stats["c_source"]
        for device in DEVICES:
            got = np.asarray(runtime.load_module(out.vmfb, device=device).main(a[:rows], b, c))
            np.testing.assert_allclose(got, a[:rows] @ b.T + c, **tol)
            np.testing.assert_array_equal(got, outs.setdefault(top, got)[:rows])


def test_dot_products_at_a_symbolic_row_count():
    """M a symbol and K under DOT_ALL_K: dot products under DOT_ROWS rows,
    the packed path from there (the choice is made per call)."""
    k, n = 200, 70
    rng = np.random.default_rng(20)
    a = rng.standard_normal((gemm_rows.DOT_ROWS + 8, k)).astype(np.float32)
    b = rng.standard_normal((n, k)).astype(np.float32)
    text = (f"func.func @main(%a: tensor<?x{k}xf32>, %b: tensor<{n}x{k}xf32>) -> tensor<?x{n}xf32> {{\n"
            f"  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [1] : "
            f"(tensor<?x{k}xf32>, tensor<{n}x{k}xf32>) -> tensor<?x{n}xf32>\n"
            f"  return %0 : tensor<?x{n}xf32>\n}}")
    mod = runtime.load_module(compiled(text), device="local-task://3")
    ref = np.asarray(mod.main(a[:gemm_rows.DOT_ROWS - 1], b))
    for rows in (1, 4, 9, gemm_rows.DOT_ROWS - 1, gemm_rows.DOT_ROWS, len(a)):
        got = np.asarray(mod.main(a[:rows], b))
        np.testing.assert_allclose(got, a[:rows] @ b.T, rtol=1e-4, atol=1e-4 * np.sqrt(k))
        if rows < gemm_rows.DOT_ROWS:
            np.testing.assert_array_equal(got, ref[:rows])


@pytest.mark.parametrize("dt", ["f32", "f64"])
@pytest.mark.parametrize("m", [16, 40, "?"])
def test_few_rows_sweep_k_over_whole_rows_of_a_big_b(m, dt, monkeypatch):
    """9 to DIRECT_B_ROWS rows against a B bigger than the caches
    (``_swept_rows``): K is the outer loop over all the rectangle's column
    blocks, so B streams a slice of whole rows at a time.  A K tail inside
    a slice and N past the last whole panel; every row's bits equal the
    block-by-block order's (SWEEP off), whatever the row count."""
    from tensorvm.compiler.api import CompileOptions, compile_text
    npdt = np.float32 if dt == "f32" else np.float64
    k, n = 300, 1000 + 5
    assert k * n * np.dtype(npdt).itemsize >= gemm_rows.GEMV_STREAM_BYTES
    rng = np.random.default_rng(21)
    a = rng.standard_normal((gemm.DIRECT_B_ROWS + 1, k)).astype(npdt)
    b = rng.standard_normal((k, n)).astype(npdt)
    c = rng.standard_normal(n).astype(npdt)
    if m == "?":          # (a static broadcast of the bias cannot take a symbolic shape)
        c = np.zeros(n, npdt)
        text = (f"func.func @main(%a: tensor<?x{k}x{dt}>, %b: tensor<{k}x{n}x{dt}>, %c: tensor<{n}x{dt}>)"
                f" -> tensor<?x{n}x{dt}> {{\n  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0]"
                f" : (tensor<?x{k}x{dt}>, tensor<{k}x{n}x{dt}>) -> tensor<?x{n}x{dt}>\n"
                f"  return %0 : tensor<?x{n}x{dt}>\n}}")
    else:
        text = _text((m, k), b.shape, (m, n), "contracting_dims = [1] x [0]", dt)
    swept = compile_text(text, CompileOptions(keep_source=True))
    assert "ccs + (n0 - c0)" in swept.stats["c_source"]
    monkeypatch.setattr(gemm, "SWEEP", False)
    blocks = compiled(text)
    tol = dict(rtol=1e-4, atol=1e-4 * np.sqrt(k)) if dt == "f32" else dict(rtol=1e-10, atol=1e-10)
    for rows in ([m] if m != "?" else [9, 16, 40, gemm.DIRECT_B_ROWS, gemm.DIRECT_B_ROWS + 1]):
        for device in DEVICES:
            got = np.asarray(runtime.load_module(swept.vmfb, device=device).main(a[:rows], b, c))
            np.testing.assert_allclose(got, a[:rows] @ b + c, **tol)
            ref = np.asarray(runtime.load_module(blocks, device=device).main(a[:rows], b, c))
            np.testing.assert_array_equal(got, ref)


def test_plans_for_a_symbolic_row_count_and_for_few_rows_per_batch():
    """A symbolic row count (a dynamic batch) against a big B gets column
    strips (the generic dynamic plan gave 1 to 16 rows one workgroup); few
    rows per batch, each batch against a B of its own (a decode step's
    attention over its cache), get workgroups of BATCHED_ROWS_BYTES of B."""
    from types import SimpleNamespace
    from tensorvm.compiler.ir.symbolic import Dim
    dyn = SimpleNamespace(B=1, M=Dim.symbol(0), K=768, N=3072, rhs_strides=(0, 3072, 1), batch_runs=(),
                          operand_element="f32")
    plan = gemm.cpu_plan(dyn)
    assert plan.rows == gemm.MC and plan.cols == gemm.STREAM_STRIP and plan.col_blocks == 3072 // plan.cols
    assert plan.count.evaluate({Dim.symbol(0): 16}) == plan.col_blocks
    heads = SimpleNamespace(B=Dim.symbol(0), M=1, K=64, N=128, rhs_strides=(128 * 64, 1, 64),
                            batch_runs=(), operand_element="f32")
    plan = gemm.cpu_plan(heads)
    per_wg = gemm.BATCHED_ROWS_BYTES // (64 * 128 * 4)
    assert plan.rows == per_wg and plan.count.evaluate({Dim.symbol(0): 192}) == 192 // per_wg
