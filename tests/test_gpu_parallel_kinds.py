"""Parallel sort, top_k and scatter on the GPU targets (codegen/gpu_sort.py,
gpu_scatter.py, passes/split_sorts.py): checked on PoCL against numpy, with
the launch shapes the command buffers record; the CUDA form must pass ptxas."""
from __future__ import annotations

import numpy as np
import pytest

from tensorvm import compiler, runtime
from tensorvm.compiler.api import CompileOptions, compile_text
from tensorvm.compiler.codegen import cuda as cuda_codegen
from tensorvm.hal.loaders import opencl_c
from test_gpu_kernels import launches  # noqa: F401  (the fixture: launch shapes)

N = 1 << 20
PAIRS = f"""func.func @main(%x: tensor<{N}xf32>, %i: tensor<{N}xi32>) -> (tensor<{N}xf32>, tensor<{N}xi32>) {{
  %0:2 = "stablehlo.sort"(%x, %i) ({{
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %r = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %r : tensor<i1>
  }}) {{dimension = 0 : i64, is_stable = true}} : (tensor<{N}xf32>, tensor<{N}xi32>) -> (tensor<{N}xf32>, tensor<{N}xi32>)
  return %0#0, %0#1 : tensor<{N}xf32>, tensor<{N}xi32>
}}"""
# descending, along a middle dim of 5000 = 1250 * 4 (blocks of 1250, two
# merges), the operand negated on the way in (a fused producer)
MIDDLE = """func.func @main(%x: tensor<3x5000x2xi32>) -> tensor<3x5000x2xi32> {
  %n = stablehlo.negate %x : tensor<3x5000x2xi32>
  %0 = "stablehlo.sort"(%n) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %r = stablehlo.compare GT, %a, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %r : tensor<i1>
  }) {dimension = 1 : i64, is_stable = false} : (tensor<3x5000x2xi32>) -> tensor<3x5000x2xi32>
  return %0 : tensor<3x5000x2xi32>
}"""


def scatter(el: str, combiner: str, unique: bool) -> str:
    """Rows of ``g`` combined into rows ``i`` of ``x`` (an embedding gradient's shape)."""
    return f"""func.func @main(%x: tensor<300x40x{el}>, %i: tensor<2000x1xi32>, %g: tensor<2000x40x{el}>) -> tensor<300x40x{el}> {{
  %s = "stablehlo.scatter"(%x, %i, %g) ({{
    ^bb0(%a: tensor<{el}>, %b: tensor<{el}>):
      %c = stablehlo.{combiner} %a, %b : tensor<{el}>
      stablehlo.return %c : tensor<{el}>
  }}) {{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1],
        inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>,
        unique_indices = {str(unique).lower()}}}
     : (tensor<300x40x{el}>, tensor<2000x1xi32>, tensor<2000x40x{el}>) -> tensor<300x40x{el}>
  return %s : tensor<300x40x{el}>
}}"""


TOP_K = """func.func @main(%x: tensor<32x32768xf32>) -> (tensor<32x8xf32>, tensor<32x8xi32>) {
  %0:2 = chlo.top_k(%x, k = 8) : tensor<32x32768xf32> -> (tensor<32x8xf32>, tensor<32x8xi32>)
  return %0#0, %0#1 : tensor<32x8xf32>, tensor<32x8xi32>
}"""


def test_sort_of_2_20_pairs_runs_on_many_work_groups_and_is_stable(launches):
    rng = np.random.default_rng(0)
    x = rng.standard_normal(N).astype(np.float32)
    x[::5] = np.round(x[::5]) + 0.5                 # many ties (none at zero: -0 < +0 in total order)
    x[7], x[11] = np.nan, -np.inf
    i = np.arange(N, dtype=np.int32)
    order = np.argsort(x, kind="stable")            # numpy puts NaN last, as TOTALORDER does here
    data = compiler.compile_str(PAIRS, targets=["cpu", "opencl"])
    for device in ("opencl", "local-task"):          # one module: block sorts and merges on both
        launches.clear()
        v, p = runtime.load_module(data, device=device).main(x, i)
        np.testing.assert_array_equal(np.asarray(p), order)
        np.testing.assert_array_equal(np.asarray(v), x[order])
        if device == "opencl":
            # 1024 blocks of 1024 sorted in local memory, then 10 merges of 1024 work-groups
            assert [w[0] for _, w in launches] == [1024] * 11


def test_descending_sort_along_a_middle_dim(launches):
    x = np.random.default_rng(1).integers(-50, 50, (3, 5000, 2), dtype=np.int32)
    r = compile_text(MIDDLE, CompileOptions(targets=["cpu", "opencl"], keep_source=True))
    assert "g_si[g_a]" in r.stats["opencl_source"]               # the bitonic block kernel
    for device in ("opencl", "local-task"):
        launches.clear()
        out = runtime.load_module(r.vmfb, device=device).main(x)
        np.testing.assert_array_equal(np.asarray(out), -np.sort(x, axis=1))
        if device == "opencl":
            assert [w[0] for _, w in launches] == [3 * 4 * 2, 30, 30]   # rows of blocks; merges


@pytest.mark.parametrize("gpu_form", [True, False], ids=["work_group_tree", "cpu_device_form"])
def test_top_k_over_rows_on_work_groups(launches, monkeypatch, gpu_form):
    monkeypatch.setattr(opencl_c, "CPU_FORMS", not gpu_form)    # the GPU form on PoCL too
    x = np.round(np.random.default_rng(2).standard_normal((32, 32768)), 1).astype(np.float32)
    x[3, 100], x[4, 9] = np.nan, np.inf
    r = compile_text(TOP_K, CompileOptions(targets=["opencl"], keep_source=True))
    assert "g_tv[g_lid * 8 + g_c]" in r.stats["opencl_source"]
    v, p = runtime.load_module(r.vmfb, device="opencl").main(x)
    order = np.argsort(-x, axis=1, kind="stable")[:, :8]         # NaN first: the largest in total order
    nan = np.isnan(x[3]).nonzero()[0]
    order[3] = np.concatenate([nan, np.argsort(-x[3], kind="stable")[:8 - len(nan)]])
    np.testing.assert_array_equal(np.asarray(p), order)
    np.testing.assert_array_equal(np.asarray(v), np.take_along_axis(x, order, 1))
    assert [w[0] for _, w in launches] == [32]


DYNAMIC_ROWS = """func.func @main(%x: tensor<?x1000xf32>, %i: tensor<?x1000xi32>) -> (tensor<?x1000xf32>, tensor<?x1000xi32>, tensor<?x4xf32>, tensor<?x4xi32>) {
  %0:2 = "stablehlo.sort"(%x, %i) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %r = stablehlo.compare GT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %r : tensor<i1>
  }) {dimension = 1 : i64} : (tensor<?x1000xf32>, tensor<?x1000xi32>) -> (tensor<?x1000xf32>, tensor<?x1000xi32>)
  %1:2 = chlo.top_k(%x, k = 4) : tensor<?x1000xf32> -> (tensor<?x4xf32>, tensor<?x4xi32>)
  return %0#0, %0#1, %1#0, %1#1 : tensor<?x1000xf32>, tensor<?x1000xi32>, tensor<?x4xf32>, tensor<?x4xi32>
}"""


def test_dynamic_row_counts_take_the_work_group_kernels(launches):
    r = compile_text(DYNAMIC_ROWS, CompileOptions(targets=["cpu", "opencl"], keep_source=True))
    assert "g_si[g_a]" in r.stats["opencl_source"] and "g_tv[g_lid * 4 + g_c]" in r.stats["opencl_source"]
    m = runtime.load_module(r.vmfb, device="opencl")
    for rows in (1, 5, 70):
        launches.clear()
        x = np.round(np.random.default_rng(rows).standard_normal((rows, 1000)), 1).astype(np.float32) + 0.05
        i = np.tile(np.arange(1000, dtype=np.int32), (rows, 1))
        v, p, tv, tp = m.main(x, i)
        order = np.argsort(-x, axis=1, kind="stable")           # GT comparator: descending, stable
        np.testing.assert_array_equal(np.asarray(p), order)
        np.testing.assert_array_equal(np.asarray(v), np.take_along_axis(x, order, 1))
        np.testing.assert_array_equal(np.asarray(tp), order[:, :4])
        np.testing.assert_array_equal(np.asarray(tv), np.take_along_axis(x, order[:, :4], 1))
        assert sorted(w[0] for _, w in launches) == [rows, rows]  # a work-group per row, each kernel


def test_top_k_of_one_long_row_is_split_over_work_groups(launches):
    text = TOP_K.replace("32x32768", "1x1048576").replace("32x8", "1x8")
    x = np.round(np.random.default_rng(4).standard_normal((1, 1 << 20)), 2).astype(np.float32)
    v, p = runtime.load_module(compiler.compile_str(text, targets=["opencl"]), device="opencl").main(x)
    order = np.argsort(-x, axis=1, kind="stable")[:, :8]        # ties: the earlier index first
    np.testing.assert_array_equal(np.asarray(p), order)
    np.testing.assert_array_equal(np.asarray(v), np.take_along_axis(x, order, 1))
    # 32 parts of 32768, then the 256 candidates sorted by one work-group and cut to 8
    assert [w[0] for _, w in launches] == [32, 1, 1, 1]


def _scatter_case(el, combiner, unique, seed=3):
    """Arguments of ``scatter(el, combiner, unique)`` (duplicate ids unless
    unique, some out of bounds) and numpy's sequential result."""
    rng = np.random.default_rng(seed)
    ids = rng.integers(-5, 305, (2000, 1)).astype(np.int32)
    if unique:
        ids[:, 0] = rng.permutation(2000)[:2000] - 1700          # distinct: 300 in bounds
    x, g = (rng.integers(-9, 9, s).astype(el.replace("f", "float").replace("i", "int"))
            for s in ((300, 40), (2000, 40)))
    ref = x.copy()
    ok = (ids[:, 0] >= 0) & (ids[:, 0] < 300)
    getattr(np, combiner).at(ref, ids[ok, 0], g[ok])
    return (x, ids, g), ref


@pytest.fixture
def bindings(monkeypatch):
    """(entry point, workgroups, [(buffer or slot, offset) per binding]) of every dispatch."""
    from tensorvm.hal import command_buffer
    seen = []
    original = command_buffer.CommandBuffer.dispatch

    def dispatch(self, executable, entry, workgroups, constants, binds, *args, **kwargs):
        seen.append((executable.entry_points[entry], tuple(workgroups),
                     [(b if isinstance(b, int) else id(b), off) for b, off, _ in binds]))
        return original(self, executable, entry, workgroups, constants, binds, *args, **kwargs)
    monkeypatch.setattr(command_buffer.CommandBuffer, "dispatch", dispatch)
    return seen


@pytest.mark.parametrize("el,combiner,unique,mark", [
    ("f32", "add", False, "atomic_cmpxchg"), ("i32", "add", False, "atomic_add("),
    ("f32", "multiply", True, "g_u = g_first"), ("i32", "maximum", False, "atomic_max("),
    ("ui32", "minimum", False, "atomic_min("), ("f32", "maximum", False, "atomic_cmpxchg"),
    ("f32", "minimum", False, "atomic_cmpxchg"), ("i32", "multiply", False, "atomic_cmpxchg")],
    ids=["f32_add_atomic", "i32_add_atomic", "unique_multiply", "i32_max_atomic",
         "ui32_min_atomic", "f32_max_cas", "f32_min_cas", "i32_multiply_cas"])
def test_large_scatter_updates_in_place_over_many_work_groups(bindings, el, combiner, unique, mark):
    """80000 update elements: the operand (an argument) is copied by a
    dispatch of its own into the result's buffer, and the scatter dispatch,
    bound to that buffer as operand and result, spreads the updates over
    ceil(80000 / 1024) work-groups; values match numpy's sequential order
    (small integers: exact in any order).  CPU variants of the same module
    run the same two dispatches."""
    args, ref = _scatter_case(el, combiner, unique)
    r = compile_text(scatter(el, combiner, unique),
                     CompileOptions(targets=["cpu", "opencl"], keep_source=True))
    src = r.stats["opencl_source"]
    assert mark in src and "g_inplace" in src
    for device in ("opencl", "local-task"):
        bindings.clear()
        out = runtime.load_module(r.vmfb, device=device).main(*args)
        np.testing.assert_array_equal(np.asarray(out), ref)
        (copy, cw, cb), (name, sw, sb) = bindings
        assert copy.endswith("_copy0") and name.endswith("_scatter")
        assert sw[0] == (79 if device == "opencl" else 1)
        assert sb[0] == sb[-1] == cb[-1]          # operand, result and copy: one buffer


def test_scatter_in_order_keeps_the_sequential_kernel(launches):
    """A combiner whose result depends on the order (non-unique ids)
    keeps one item applying the updates in order: no copy dispatch."""
    args, ref = _scatter_case("i32", "subtract", False)
    r = compile_text(scatter("i32", "subtract", False), CompileOptions(targets=["opencl"],
                                                                       keep_source=True))
    assert "g_u = g_first" not in r.stats["opencl_source"]
    out = runtime.load_module(r.vmfb, device="opencl").main(*args)
    np.testing.assert_array_equal(np.asarray(out), ref)
    assert [w[0] for _, w in launches] == [1]


def test_scatter_of_a_transient_needs_no_copy(bindings):
    """The operand made by a dispatch that only the scatter reads is updated
    in place (no copy dispatch; its slab range lives on as the result);
    one read elsewhere too (returned) gets a copy and stays intact."""
    src = """func.func @main(%a: tensor<300x40x4xf32>, %i: tensor<2000x1xi32>, %g: tensor<2000x40xf32>) -> (tensor<300x40xf32>, tensor<300x40xf32>) {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %x = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [2] : (tensor<300x40x4xf32>, tensor<f32>) -> tensor<300x40xf32>
  %s = "stablehlo.scatter"(%x, %i, %g) ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %c = stablehlo.maximum %p, %q : tensor<f32>
      stablehlo.return %c : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1],
        inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}
     : (tensor<300x40xf32>, tensor<2000x1xi32>, tensor<2000x40xf32>) -> tensor<300x40xf32>
  %w = stablehlo.reduce(%g init: %z) applies stablehlo.add across dimensions = [0] : (tensor<2000x40xf32>, tensor<f32>) -> tensor<40xf32>
  %wb = stablehlo.broadcast_in_dim %w, dims = [1] : (tensor<40xf32>) -> tensor<300x40xf32>
  %y = stablehlo.multiply %s, %wb : tensor<300x40xf32>
  return %y, RET : tensor<300x40xf32>, tensor<300x40xf32>
}"""
    rng = np.random.default_rng(5)
    a = rng.integers(-4, 4, (300, 40, 4)).astype(np.float32)
    (_, ids, g), _ = _scatter_case("f32", "maximum", False, seed=5)
    x = a.sum(2)
    s = x.copy()
    ok = (ids[:, 0] >= 0) & (ids[:, 0] < 300)
    np.maximum.at(s, ids[ok, 0], g[ok])
    y = s * g.sum(0)
    for ret, second, copies in (("%y", y, 0), ("%x", x, 1)):
        r = compile_text(src.replace("RET", ret), CompileOptions(targets=["opencl"]))
        bindings.clear()
        out = runtime.load_module(r.vmfb, device="opencl").main(a, ids, g)
        np.testing.assert_array_equal(np.asarray(out[0]), y)
        np.testing.assert_array_equal(np.asarray(out[1]), second)
        names = [n for n, _, _ in bindings]
        assert sum(n.endswith("_copy0") for n in names) == copies
        (sw, sb), = [(w, b) for n, w, b in bindings if n.endswith("_scatter")]
        assert sw[0] == 79 and sb[0] == sb[-1]


def test_parallel_kernels_pass_ptxas():
    """compile_ptx runs ptxas over the PTX: a rejected kernel is a CompileError;
    each text's sort / top_k takes its work-group kernel on CUDA too."""
    why = cuda_codegen.have_toolchain()
    if why is not None:
        pytest.skip(f"no CUDA toolchain: {why}")
    for text, mark in ((PAIRS, "g_si[g_a]"), (MIDDLE, "g_si[g_a]"), (TOP_K, "g_tv[g_lid * 8 + g_c]"),
                       (scatter("f32", "add", False), "atomicAdd((float*)"),
                       (scatter("i32", "add", False), "atomicAdd((int*)"),
                       (scatter("i32", "maximum", False), "atomicMax((int*)"),
                       (scatter("ui32", "minimum", False), "atomicMin((unsigned int*)"),
                       (scatter("f32", "maximum", False), "atomicCAS(g_ap, g_was, __float_as_int("),
                       (scatter("f32", "multiply", True), "g_u = g_first")):
        source = compile_text(text, CompileOptions(targets=["cuda"], keep_source=True)).stats["cuda_source"]
        assert mark in source and "__syncthreads();" in source


def test_scatter_in_a_function_with_control_flow_stays_one_work_group():
    """The general host path gives every result its own buffer: a large
    scatter in a while body keeps the one-work-group kernel, no copy dispatch."""
    body = scatter("f32", "add", False).split("\n", 1)[1].rsplit("  return", 1)[0]
    body = body.replace("%x, %i, %g", "%x, %i, %g0").replace("%s =", "%s2 =")
    text = """func.func @main(%x0: tensor<300x40xf32>, %i: tensor<2000x1xi32>, %g0: tensor<2000x40xf32>) -> tensor<300x40xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %c3 = stablehlo.constant dense<3> : tensor<i32>
  %r:2 = stablehlo.while(%k = %c0, %x = %x0) : tensor<i32>, tensor<300x40xf32>
  cond {
    %p = stablehlo.compare LT, %k, %c3 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
  BODY
    %k1 = stablehlo.add %k, %c1 : tensor<i32>
    stablehlo.return %k1, %s2 : tensor<i32>, tensor<300x40xf32>
  }
  return %r#1 : tensor<300x40xf32>
}""".replace("BODY", body)
    (x, ids, g), _ = _scatter_case("f32", "add", False)
    ref = x.copy()
    ok = (ids[:, 0] >= 0) & (ids[:, 0] < 300)
    for _ in range(3):
        np.add.at(ref, ids[ok, 0], g[ok])
    r = compile_text(text, CompileOptions(targets=["opencl"], keep_source=True))
    src = r.stats["opencl_source"]
    assert "atomic_cmpxchg" in src and "g_inplace" not in src and "_copy0" not in src
    out = runtime.load_module(r.vmfb, device="opencl").main(x, ids, g)
    np.testing.assert_array_equal(np.asarray(out), ref)


def test_scatter_into_a_donated_argument_needs_no_copy(bindings):
    """A donated operand: the scatter's result takes over its buffer
    (host/donation.py), so there is no copy dispatch and the updates run
    over the grid; the array passed in is invalidated, a host array is
    never written."""
    from tensorvm.runtime import DonatedArrayError
    text = scatter("f32", "add", False).replace(
        "%x: tensor<300x40xf32>", "%x: tensor<300x40xf32> {jax.buffer_donor = true}", 1)
    (x, ids, g), ref = _scatter_case("f32", "add", False)
    m = runtime.load_module(compile_text(text, CompileOptions(targets=["opencl"])).vmfb,
                            device="opencl")
    assert m.main.args[0]["donated_to"] == 0
    host = x.copy()
    out = m.main(host, ids, g)
    np.testing.assert_array_equal(host, x)
    np.testing.assert_array_equal(np.asarray(out), ref)
    (name, sw, _), = bindings                 # the call's one dispatch
    assert name.endswith("_scatter") and sw[0] == 79
    again = m.main(out, ids, g)
    ok = (ids[:, 0] >= 0) & (ids[:, 0] < 300)
    np.add.at(ref, ids[ok, 0], g[ok])
    np.testing.assert_array_equal(np.asarray(again), ref)
    with pytest.raises(DonatedArrayError):
        m.main(out, ids, g)
