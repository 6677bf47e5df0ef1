"""Constant GEMM weights stored as compile-time panels (issue 34.1,
codegen/packed_weights.py): the module holds B as [N / W][K][W] panels one
cache line wide, each CPU variant's kernel reads them in place, and a
constant that anything else reads keeps its layout."""
from __future__ import annotations

import platform

import numpy as np
import pytest

from tensorvm import compiler, runtime
from tensorvm.compiler.codegen import gemm
from tensorvm.vmfb import container

MARK = "compile-time panels"
FLAGS = open("/proc/cpuinfo").read() if platform.machine() == "x86_64" else ""
LEVELS = [lv for lv, need in (("x86-64-v2", "sse4_2"), ("x86-64-v3", "avx2"),
                              ("x86-64-v4", "avx512f")) if need in FLAGS]


def _t(shape, dt):
    return f"tensor<{''.join(f'{d}x' for d in shape)}{dt}>"


def _hex(arr):
    return f'dense<"0x{arr.tobytes().hex().upper()}">'


def _text(a_shape, w, dt, rhs_t, extra_use=False):
    """main(a) = a . W (+ W's sum when ``extra_use``), W a constant."""
    m, n = a_shape[0], w.shape[0] if rhs_t else w.shape[1]
    out = _t((m, n), dt)
    lines = [f"func.func @main(%a: {_t(a_shape, dt)}) -> ({out}, {_t((), dt)}) {{",
             f"  %w = stablehlo.constant {_hex(w)} : {_t(w.shape, dt)}",
             f"  %0 = stablehlo.dot_general %a, %w, contracting_dims = [1] x [{1 if rhs_t else 0}] : "
             f"({_t(a_shape, dt)}, {_t(w.shape, dt)}) -> {out}",
             f"  %z = stablehlo.constant dense<0.0> : {_t((), dt)}"]
    if extra_use:
        lines += [f"  %s = stablehlo.reduce(%w init: %z) applies stablehlo.add across dimensions = [0, 1] : "
                  f"({_t(w.shape, dt)}, {_t((), dt)}) -> {_t((), dt)}",
                  f"  return %0, %s : {out}, {_t((), dt)}", "}"]
    else:
        lines += [f"  return %0, %z : {out}, {_t((), dt)}", "}"]
    return "\n".join(lines)


def _compile(text, cpu="host"):
    return compiler.api.compile_text(text, compiler.CompileOptions(
        targets=("cpu",), cpu=cpu, keep_source=True))


def _check(text, a, want, dt, cpu="host"):
    res = _compile(text, cpu=cpu)
    tol = dict(rtol=1e-4, atol=1e-4 * np.sqrt(a.shape[1])) if dt == "f32" else dict(rtol=1e-10, atol=1e-10)
    for device in ("local-sync", "local-task://3"):
        got = runtime.load_module(res.vmfb, device=device).main(a)[0]
        np.testing.assert_allclose(np.asarray(got), want, **tol)
    return res


def _packed(w, rhs_t, cols):
    """The panels of ``cols`` columns that pack_panels stores, from numpy."""
    kn = w.T if rhs_t else w
    k, n = kn.shape
    return np.ascontiguousarray(kn.reshape(k, n // cols, cols).transpose(1, 0, 2)).tobytes()


def _panel_cols(rodata, w, rhs_t):
    """The panel widths (micro-tile widths or one cache line) whose layout
    of ``w`` the module's rodata holds."""
    line = gemm.PANEL_BYTES // w.dtype.itemsize
    n = w.shape[0] if rhs_t else w.shape[1]
    return [c for c in sorted({4, 8, 12, 16, 24, 32, line}) if n % c == 0
            and _packed(w, rhs_t, c) in rodata]


@pytest.mark.parametrize("dt", ["f32", "f64"])
@pytest.mark.parametrize("rhs_t", [False, True], ids=["kn", "nk"])
def test_constant_b_is_stored_packed_and_read_in_place(dt, rhs_t):
    """Edges in M (130 rows), K over two KC slices, N (208) not a whole
    number of AVX2 tiles; B stored K x N or N x K: the module's rodata
    holds the panels, and the product is right."""
    npdt = np.float32 if dt == "f32" else np.float64
    rng = np.random.default_rng(3)
    m, k, n = 130, gemm.KC + 44, 208
    a = rng.standard_normal((m, k)).astype(npdt)
    w = rng.standard_normal((n, k) if rhs_t else (k, n)).astype(npdt)
    res = _check(_text(a.shape, w, dt, rhs_t), a, a @ (w.T if rhs_t else w), dt)
    assert MARK in res.stats["c_source"]
    assert res.stats["packed_weights"] == {"constants": 1, "bytes": w.nbytes}
    rodata = b"".join(bytes(r.data) for r in container.read_module(res.vmfb).rodata)
    assert _panel_cols(rodata, w, rhs_t) and w.tobytes() not in rodata


@pytest.mark.parametrize("dt", ["f32", "f64"])
def test_rows_of_any_count_read_the_panels(dt):
    """A symbolic M picks the one-row GEMV or the packed path per call, and
    a static single row the GEMV: both read the constant's panels (with
    the packed micro-kernel's bits, so a row's result does not depend on
    how many rows its call has)."""
    npdt = np.float32 if dt == "f32" else np.float64
    rng = np.random.default_rng(8)
    k, n = gemm.KC + 20, 224
    w = rng.standard_normal((k, n)).astype(npdt)
    dyn = _text(("?", k), w, dt, False).replace(f"-> (tensor<{n}x", f"-> (tensor<?x{n}x")
    dyn = dyn.replace(f"-> tensor<{n}x", f"-> tensor<?x{n}x")
    a = rng.standard_normal((70, k)).astype(npdt)
    res = _compile(dyn)
    assert MARK in res.stats["c_source"] and "gemm_rows.gemv_panels" in res.stats["c_source"]
    m = runtime.load_module(res.vmfb, device="local-sync")
    whole = np.asarray(m.main(a)[0])
    tol = dict(rtol=1e-4, atol=1e-4 * np.sqrt(k)) if dt == "f32" else dict(rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(whole, a @ w, **tol)
    for rows in (1, 2, 5):
        np.testing.assert_array_equal(np.asarray(m.main(a[:rows])[0]), whole[:rows])
    one = _check(_text((1, k), w, dt, False), a[:1], a[:1] @ w, dt)
    assert "gemm_rows.gemv_panels" in one.stats["c_source"]


def test_a_constant_read_by_other_ops_keeps_its_layout():
    """W also reduced on its own: nothing is packed, both results right."""
    rng = np.random.default_rng(4)
    a = rng.standard_normal((40, 64)).astype(np.float32)
    w = rng.standard_normal((64, 96)).astype(np.float32)
    res = _compile(_text(a.shape, w, "f32", False, extra_use=True))
    assert MARK not in res.stats["c_source"] and res.stats["packed_weights"]["constants"] == 0
    got, s = runtime.load_module(res.vmfb, device="local-sync").main(a)
    np.testing.assert_allclose(np.asarray(got), a @ w, rtol=1e-4, atol=1e-3)
    np.testing.assert_allclose(float(np.asarray(s)), float(w.sum(dtype=np.float64)), rtol=1e-4)


@pytest.mark.skipif(not LEVELS, reason="this machine runs no x86-64 level")
def test_each_variant_reads_its_tile_panels_and_a_module_of_several_one_copy():
    """Alone, each x86-64 level's kernels read panels as wide as their
    micro-tile (8, 16 or 32 f32 columns); one module with all of them
    stores one copy in 64-byte panels, which every variant's vectors tile.
    Column blocks are split over workgroups (few rows, N = 960) at 256
    columns; in the several-level module an AVX-512 tile (32 columns, where
    the host runs x86-64-v4) reads two 16-column panels."""
    rng = np.random.default_rng(5)
    m, k, n = 20, 512, 960
    a = rng.standard_normal((m, k)).astype(np.float32)
    w = rng.standard_normal((k, n)).astype(np.float32)
    text = _text(a.shape, w, "f32", False)
    tile = {"x86-64-v2": 8, "x86-64-v3": 16, "x86-64-v4": 32}
    runs = [(lv, tile[lv]) for lv in LEVELS] + ([(",".join(LEVELS), 16)] if len(LEVELS) > 1 else [])
    for cpu, cols in runs:
        res = _check(text, a, a @ w, "f32", cpu=cpu)
        assert MARK in res.stats["c_source"]
        mod = container.read_module(res.vmfb)
        rodata = b"".join(bytes(r.data) for r in mod.rodata)
        assert _panel_cols(rodata, w, False) == [cols], cpu
    assert len(mod.executables[0].variants) == len(LEVELS)


def test_streamed_packed_constant_is_checked_chunk_by_chunk(tmp_path):
    """A packed constant over several CRC chunks, streamed to a file as it
    is packed: the load checks none of it, the kernel's binding checks it
    all, and a flipped byte in the panels is caught at the first call."""
    import msgpack
    import struct

    from tensorvm.compiler.api import compile_text
    from tensorvm.runtime.vm.cache import MODULES
    from tensorvm.vmfb.chunks import CHUNK_BYTES
    from tensorvm.vmfb.errors import VmfbError
    rng = np.random.default_rng(6)
    k, n = 512, 1536                         # 3 MiB of f32: three chunks
    a = rng.standard_normal((8, k)).astype(np.float32)
    w = rng.standard_normal((k, n)).astype(np.float32)
    path = tmp_path / "m.vmfb"
    res = compile_text(_text(a.shape, w, "f32", False),
                       compiler.CompileOptions(targets=("cpu",), keep_source=True), output=path)
    assert MARK in res.stats["c_source"]
    blob = path.read_bytes()
    MODULES.clear()
    m = runtime.load_module(blob, device="local-sync")
    (r,) = [r for r in m.bytecode.definition.rodata if len(r.check.data) >= w.nbytes]
    assert r.check.unchecked_chunks == -(-len(r.check.data) // CHUNK_BYTES) >= 3
    np.testing.assert_allclose(np.asarray(m.main(a)[0]), a @ w, rtol=1e-4, atol=1e-3)
    assert r.check.complete
    h = msgpack.unpackb(blob[64:64 + struct.unpack_from("<Q", blob, 32)[0]])
    (sec,) = [s for s in h["sections"] if s["kind"] == "rodata" and s["length"] >= w.nbytes]
    bad = bytearray(blob)
    bad[sec["offset"] + CHUNK_BYTES + 9] ^= 0x10
    MODULES.clear()
    with pytest.raises(VmfbError, match="checksum mismatch in bytes"):
        runtime.load_module(bytes(bad), device="local-sync").main(a)
