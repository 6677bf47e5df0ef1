"""Sharded JAX programs (tests/models/sharded, Shardy exports over a 2- or
4-device mesh) run as one rank per mesh device and match JAX: shard_map
bodies (psum, all_gather, a 2x2 tensor-parallel matmul, a transformer block
data-parallel and tensor-parallel) and a jit with sharded arguments; in
process and as 2 MPI ranks on loopback."""
from __future__ import annotations

import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from tensorvm import runtime
from tensorvm.compiler import compile_str
from tensorvm.compiler.errors import CompileError, UnsupportedOpError
from tensorvm.runtime.errors import InvalidArgumentError
from tensorvm.runtime.parallel import ParallelCallError
from tensorvm.runtime.sharded import ShardedArray

pytestmark = pytest.mark.skipif(shutil.which("cc") is None, reason="needs a C compiler")
SHARDED = pathlib.Path(__file__).resolve().parents[1] / "models" / "sharded"
CASES = sorted(p.stem for p in SHARDED.glob("*.mlir"))


def _case(name):
    text = (SHARDED / f"{name}.mlir").read_text()
    with np.load(SHARDED / f"{name}.npz") as z:
        args = [z[f"arr_{i}"] for i in sorted(int(k[4:]) for k in z.files if k.startswith("arr_"))]
        out = z["out"]
    return text, args, out, int(re.search(r"mhlo.num_partitions = (\d+)", text).group(1))


def _layout(name):
    """A jit case's (mesh axes, per-argument dims, result dims); None for shard_map cases."""
    with np.load(SHARDED / f"{name}.npz") as z:
        return json.loads(str(z["shardings"])) if "shardings" in z.files else None


def _piece(arr, dims, mesh, p):
    """Partition ``p``'s shard of ``arr`` (``dims``: per dimension the mesh axes it is split
    over, major first; mesh positions are partition ids)."""
    coords, pos = {}, p
    for axis, size in reversed(mesh):
        coords[axis], pos = pos % size, pos // size
    sizes = dict((a, n) for a, n in mesh)
    index = []
    for n, axes in zip(arr.shape, dims):
        k, i = 1, 0
        for a in axes:
            k, i = k * sizes[a], i * sizes[a] + coords[a]
        index.append(slice(i * (n // k), (i + 1) * (n // k)))
    return arr[tuple(index)]


def _per_rank(name, args, want, partitions):
    layout = _layout(name)
    if layout is None:                  # shard_map: every rank takes and returns whole arrays
        return [tuple(args)] * partitions, [want] * partitions
    mesh = layout["mesh"]
    ins = [tuple(_piece(a, d, mesh, p) for a, d in zip(args, layout["in"]))
           for p in range(partitions)]
    return ins, [_piece(want, layout["out"], mesh, p) for p in range(partitions)]


@pytest.mark.parametrize("name", CASES)
def test_sharded_program_matches_jax_on_every_rank(name):
    text, args, want, partitions = _case(name)
    pm = runtime.load_module(compile_str(text), device="local-sync", partitions=partitions)
    ins, wants = _per_rank(name, args, want, partitions)
    results = pm.main.run(ins)
    assert len(results) == partitions
    for got, w in zip(results, wants):
        assert np.asarray(got).shape == w.shape
        np.testing.assert_allclose(np.asarray(got), w, rtol=1e-5, atol=1e-5)


JIT_CASES = [n for n in CASES if _layout(n) is not None]


@pytest.mark.parametrize("name", CASES)
def test_whole_arrays_in_whole_arrays_out(name):
    """``pm.main(*whole)`` splits each argument by the sharding recorded in the
    export's reflection and assembles each result: the JAX result, whole."""
    text, args, want, partitions = _case(name)
    pm = runtime.load_module(compile_str(text), device="local-sync", partitions=partitions)
    got = pm.main(*args)
    assert isinstance(got, ShardedArray) and got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-5, atol=1e-5)
    layout = _layout(name)
    if layout is not None:          # (GSPMD's derived mesh: _g0, _g1 for x, y)
        axis = {o: t for (o, _), (t, _) in zip(got.layout.axes, layout["mesh"])}
        assert tuple(tuple(axis[a] for a in d) for d in got.dims) == tuple(
            tuple(a) for a in layout["out"])


@pytest.mark.parametrize("name", JIT_CASES)
def test_jit_sharded_reflection_and_the_per_rank_form(name):
    """A jit over a mesh is partitioned: each partition's main has the shard shapes of
    its in_shardings as parameters (``pm.main.run`` takes those, per rank), and its
    reflection says which dims are split over which mesh axes."""
    from tensorvm.vmfb.container import read_module
    text, args, want, partitions = _case(name)
    vmfb = compile_str(text)
    layout = _layout(name)
    refl = next(f for f in read_module(vmfb).functions if f.name == "main").reflection
    mesh = refl["sharding"]["mesh"]
    assert [n for _, n in mesh["axes"]] == [n for _, n in layout["mesh"]]
    # GSPMD exports name no axes: the derived mesh's _g0, _g1 stand for JAX's x, y
    axis = {ours: theirs for (ours, _), (theirs, _) in zip(mesh["axes"], layout["mesh"])}

    def named(dims):
        return [[axis[a] for a in axes] for axes in dims]
    assert [named(d) for d in refl["sharding"]["args"]] == layout["in"]
    assert [named(d) for d in refl["sharding"]["results"]] == [layout["out"]]
    ins, wants = _per_rank(name, args, want, partitions)
    assert [a["shape"] for a in refl["args"]] == [list(a.shape) for a in ins[0]]
    m = runtime.load_module(vmfb, device="local-sync", partitions=partitions)
    for got, w in zip(m.main.run(ins), wants):
        assert np.asarray(got).shape == w.shape
        np.testing.assert_allclose(np.asarray(got), w, rtol=1e-5, atol=1e-5)
    i = next(k for k, (a, b) in enumerate(zip(ins[0], args)) if a.shape != b.shape)
    bad = list(args)
    bad[i] = np.zeros(tuple(n + 1 for n in args[i].shape), args[i].dtype)
    with pytest.raises(InvalidArgumentError, match=rf"\(#{i}\): a whole array of rank"):
        m.main(*bad)


ELEMENTWISE = """
module @m attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%a: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>},
                  %b: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>})
      -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) {
    %0 = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<4xf32>) -> tensor<8x4xf32>
    %1 = stablehlo.multiply %a, %0 : tensor<8x4xf32>
    %2 = stablehlo.tanh %1 : tensor<8x4xf32>
    return %2 : tensor<8x4xf32>
  }
}
"""


def test_a_sharded_result_stays_on_the_devices_into_the_next_call(monkeypatch):
    pm = runtime.load_module(compile_str(ELEMENTWISE), device=["local-task://1"] * 4,
                             partitions=4)
    a = np.arange(32, dtype=np.float32).reshape(8, 4) / 16
    b = np.array([1.0, -1.0, 0.5, 2.0], np.float32)
    y = pm.main(a, b)
    assert y.dims == (("x",), ("y",)) and [s.shape for s in y.shards] == [(4, 2)] * 4
    want = np.tanh(a * b)
    np.testing.assert_allclose(np.asarray(y), want, rtol=1e-6)
    np.testing.assert_allclose(np.asarray(y.shards[1]), want[:4, 2:], rtol=1e-6)

    def no_host_copy(self):
        raise AssertionError("a shard went through the host")
    monkeypatch.setattr(ShardedArray, "to_host", no_host_copy)
    z = pm.main(y, b)                 # each rank takes its own shard of y as it is
    monkeypatch.undo()
    np.testing.assert_allclose(np.asarray(z), np.tanh(want * b), rtol=1e-6)
    other = runtime.load_module(compile_str(ELEMENTWISE), device="local-sync", partitions=4)
    np.testing.assert_allclose(np.asarray(other.main(z, b)), np.tanh(np.tanh(want * b) * b),
                               rtol=1e-6)     # another module's shards: assembled and split


def test_jit_4_partition_cases_run_on_local_task_devices():
    for name in ("jit_mlp_data_parallel_4", "jit_mlp_2x2"):
        text, args, want, partitions = _case(name)
        assert partitions == 4
        pm = runtime.load_module(compile_str(text), device=["local-task://1"] * 4, partitions=4)
        ins, wants = _per_rank(name, args, want, partitions)
        for got, w in zip(pm.main.run(ins), wants):
            np.testing.assert_allclose(np.asarray(got), w, rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(np.asarray(pm.main(*args)), want, rtol=1e-5, atol=1e-5)


def _partitioned(name):
    from tensorvm.compiler.mlir.parser import parse_module
    from tensorvm.compiler.passes.canonicalize import CanonicalizeOps
    from tensorvm.compiler.passes.gspmd_import import ImportGspmd
    from tensorvm.compiler.passes.inline import InlineCalls
    from tensorvm.compiler.passes.manual_partition import PartitionManualComputations
    from tensorvm.compiler.passes.spmd_partition import PartitionSpmd
    module = parse_module((SHARDED / f"{name}.mlir").read_text())
    spmd = PartitionSpmd()
    for p in (ImportGspmd(), PartitionManualComputations(), CanonicalizeOps(), InlineCalls(),
              spmd):
        p.run(module)
    ops = [o for f in module.functions for o in f.walk()]
    assert not any(o.name.startswith("sdy.") for o in ops)
    return module, ops, spmd.notes


def test_the_data_parallel_mlp_needs_no_collective():
    module, ops, notes = _partitioned("jit_mlp_data_parallel")
    main = module.functions[0]
    assert [a.type.shape for a in main.regions[0].blocks[0].arguments] == [
        (4, 16), (16, 32), (32,), (32, 4)]
    assert [o.results[0].type.shape for o in ops if o.name == "stablehlo.dot_general"] == [
        (4, 32), (4, 4)]
    assert not [o for o in ops if o.name.startswith("stablehlo.all_")] and not notes


def test_a_split_contracting_dim_is_a_local_dot_and_an_all_reduce():
    module, ops, notes = _partitioned("jit_matmul_contracting")
    dots = [o for o in ops if o.name == "stablehlo.dot_general"]
    assert [(tuple(v.type.shape for v in d.operands), d.results[0].type.shape) for d in dots] == [
        (((8, 8), (8, 6)), (8, 6))]
    assert [o.name for o in ops if o.name.startswith("stablehlo.all_")] == ["stablehlo.all_reduce"]
    assert not notes


def test_a_partial_sum_wanted_split_is_a_reduce_scatter():
    """A contracting-dim-split dot whose result is wanted split over the same axes
    reduce_scatters the partial sums (each partition receives only its rows) instead of
    all_reducing them and slicing; wanted whole it stays an all_reduce."""
    for name, shape in (("jit_matmul_reduce_scatter", (4, 6)), ("jit_mlp_2x2_scatter", (4, 2))):
        module, ops, notes = _partitioned(name)
        coll = [o for o in ops if o.name.startswith(("stablehlo.all_", "stablehlo.reduce_scatter"))]
        assert [(o.name, o.results[0].type.shape) for o in coll] == [
            ("stablehlo.reduce_scatter", shape)]
        assert not [o for o in ops if o.name == "stablehlo.dynamic_slice"] and not notes
    groups = coll[0].attributes["replica_groups"].array.tolist()
    assert groups == [[0, 1], [2, 3]] and int(coll[0].attributes["scatter_dimension"].value) == 1


_PARTIAL_TWICE = """
module @partial_twice attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2]>
  func.func public @main(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>},
                         %w: tensor<16x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
      -> (tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
          tensor<8x6xf32>, tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
    %d = stablehlo.dot_general %a, %w, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x6xf32>) -> tensor<8x6xf32>
    %c = sdy.sharding_constraint %d <@mesh, [{"x"}, {}]> : tensor<8x6xf32>
    %t = stablehlo.tanh %d : tensor<8x6xf32>
    %init = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %m = stablehlo.reduce(%a init: %init) applies stablehlo.maximum across dimensions = [1] : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
    %mm = stablehlo.concatenate %m, %m, dim = 0 : (tensor<8xf32>, tensor<8xf32>) -> tensor<16xf32>
    return %c, %t, %mm : tensor<8x6xf32>, tensor<8x6xf32>, tensor<16xf32>
  }
}
"""


def test_a_partial_sum_scattered_for_one_use_is_all_reduced_for_another():
    """One dot's partial sum feeds a constraint that splits it over its axis (a
    reduce_scatter) and then a tanh (needs the whole sum: one all_reduce); a max-reduce
    over a split dim is all_reduced with maximum; all match numpy."""
    from tensorvm.compiler.mlir.parser import parse_module
    from tensorvm.compiler.passes.spmd_partition import PartitionSpmd
    module = parse_module(_PARTIAL_TWICE)
    spmd = PartitionSpmd()
    spmd.run(module)
    ops = [o.name for o in module.functions[0].walk()]
    assert ops.count("stablehlo.reduce_scatter") == 1
    assert ops.count("stablehlo.all_reduce") == 2         # tanh's sum, the max over dim 1
    rng = np.random.default_rng(3)
    a, w = rng.standard_normal((8, 16), np.float32), rng.standard_normal((16, 6), np.float32)
    pm = runtime.load_module(compile_str(_PARTIAL_TWICE), device="local-sync", partitions=2)
    d, t, mm = pm.main(a, w)
    np.testing.assert_allclose(np.asarray(d), a @ w, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(np.asarray(t), np.tanh(a @ w), rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(np.asarray(mm), np.concatenate([a.max(1)] * 2))
    assert d.dims == (("x",), ()) and t.dims == ((), ())


_SCALAR_OPERANDS = """
module @scalar_operands attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2]>
  func.func public @main(%p: tensor<i1>, %a: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                         %b: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
      -> (tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
    %s = stablehlo.select %p, %a, %b : tensor<i1>, tensor<8x6xf32>
    %lo = stablehlo.constant dense<-0.5> : tensor<f32>
    %hi = stablehlo.constant dense<0.5> : tensor<f32>
    %c = stablehlo.clamp %lo, %s, %hi : (tensor<f32>, tensor<8x6xf32>, tensor<f32>) -> tensor<8x6xf32>
    return %c : tensor<8x6xf32>
  }
}
"""


def test_a_scalar_predicate_or_bound_keeps_the_operands_split():
    """select with a scalar predicate and clamp with scalar bounds (what jnp.var and
    jnp.clip export) run on the shards: no gather, no note, numpy's result."""
    from tensorvm.compiler.mlir.parser import parse_module
    from tensorvm.compiler.passes.spmd_partition import PartitionSpmd
    module = parse_module(_SCALAR_OPERANDS)
    spmd = PartitionSpmd()
    spmd.run(module)
    ops = [o for o in module.functions[0].walk()]
    assert not spmd.notes and not [o for o in ops if o.name.startswith("stablehlo.all_")]
    assert [o.results[0].type.shape for o in ops if o.name in ("stablehlo.select",
                                                                 "stablehlo.clamp")] == [(4, 6)] * 2
    rng = np.random.default_rng(5)
    a, b = rng.standard_normal((8, 6), np.float32), rng.standard_normal((8, 6), np.float32)
    pm = runtime.load_module(compile_str(_SCALAR_OPERANDS), device="local-sync", partitions=2)
    for p in (True, False):
        got = pm.main(np.array(p), a, b)
        np.testing.assert_array_equal(np.asarray(got), np.clip(a if p else b, -0.5, 0.5))


def test_the_2x2_mlp_is_megatron_style():
    module, ops, notes = _partitioned("jit_mlp_2x2")
    dots = [o.results[0].type.shape for o in ops if o.name == "stablehlo.dot_general"]
    assert dots == [(4, 16), (4, 4)]
    reduces = [o for o in ops if o.name == "stablehlo.all_reduce"]
    assert len(reduces) == 1
    assert reduces[0].attributes["replica_groups"].array.tolist() == [[0, 1], [2, 3]]
    assert not notes


def test_an_op_without_a_rule_is_gathered_and_noted():
    text = """
module @m attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2]>
  func.func @main(%a: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x4xf32> {
    %0 = stablehlo.reverse %a, dims = [0] : tensor<8x4xf32>
    %1 = stablehlo.tanh %0 : tensor<8x4xf32>
    return %1 : tensor<8x4xf32>
  }
}
"""
    from tensorvm.compiler.api import compile_text, CompileOptions
    result = compile_text(text, CompileOptions(), "m.mlir")
    assert any("stablehlo.reverse runs whole" in n for n in result.stats["spmd_reshards"])
    a = np.arange(32, dtype=np.float32).reshape(8, 4) / 10
    pm = runtime.load_module(result.vmfb, device="local-sync", partitions=2)
    for got in pm.main.run([(a[:4],), (a[4:],)]):
        np.testing.assert_allclose(np.asarray(got), np.tanh(a[::-1]), rtol=1e-6)
    np.testing.assert_allclose(np.asarray(pm.main(a)), np.tanh(a[::-1]), rtol=1e-6)


def test_the_4_partition_case_runs_on_local_task_devices():
    text, args, want, partitions = _case("tensor_parallel_2x2")
    assert partitions == 4
    pm = runtime.load_module(compile_str(text), device=["local-task://1"] * 4, partitions=4)
    for got in pm.main.run([args] * 4):
        np.testing.assert_allclose(np.asarray(got), want, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(np.asarray(pm.main(*args)), want, rtol=1e-5, atol=1e-5)


def test_each_rank_computes_only_its_shard():
    """The data-parallel block's body runs on [2, 6, 16] per rank, not [4, 6, 16]."""
    from tensorvm.compiler.mlir.parser import parse_module
    from tensorvm.compiler.passes.manual_partition import PartitionManualComputations
    text, *_ = _case("block_data_parallel")
    module = parse_module(text)
    PartitionManualComputations().run(module)
    ops = [o for f in module.functions for o in f.walk()]
    assert not any(o.name.startswith("sdy.") for o in ops)
    slices = [o for o in ops if o.name == "stablehlo.dynamic_slice"
              and o.results[0].type.shape == (2, 6, 16)]
    gathers = [o for o in ops if o.name == "stablehlo.all_gather"]
    assert slices and [g.results[0].type.shape for g in gathers] == [(4, 6, 16)]


MISMATCH = """
module @m attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2]>
  func.func @main(%a: tensor<8x4xf32>) -> tensor<8x4xf32> {
    %0 = sdy.manual_computation(%a) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"} (%b: tensor<8x4xf32>) {
      sdy.return %b : tensor<8x4xf32>
    } : (tensor<8x4xf32>) -> tensor<8x4xf32>
    return %0 : tensor<8x4xf32>
  }
}
"""


def test_a_shard_shape_that_does_not_divide_is_a_located_error():
    with pytest.raises(CompileError, match=r":5:5: error: .*dimension 0 is 8 globally and 8 "
                                           r"per shard, split 2 ways over \['x'\]"):
        compile_str(MISMATCH)


def test_a_mesh_larger_than_the_partition_count_is_refused():
    with pytest.raises(UnsupportedOpError, match="over a 2-device mesh in a module of 1 replicas"):
        compile_str(MISMATCH.replace("mhlo.num_partitions = 2", "mhlo.num_partitions = 1")
                    .replace("(%b: tensor<8x4xf32>)", "(%b: tensor<4x4xf32>)")
                    .replace("sdy.return %b : tensor<8x4xf32>", "sdy.return %b : tensor<4x4xf32>"))


def test_sub_axis_shardings_are_refused_by_name():
    with pytest.raises(UnsupportedOpError, match="sub-axis sharding"):
        compile_str(MISMATCH.replace('[{"x"}, {}]>] out', '[{"x":(1)2}, {}]>] out'))


def test_gspmd_exports_partition_like_shardy_ones():
    """The same MLP exported with mhlo.sharding (GSPMD) and with Shardy becomes the same
    per-device program: Megatron-style on a 2x2 mesh, one all_reduce over [[0,1],[2,3]]."""
    gspmd, sdy = _partitioned("gspmd_mlp_2x2"), _partitioned("jit_mlp_2x2")
    for module, ops, notes in (gspmd, sdy):
        assert [o.results[0].type.shape for o in ops if o.name == "stablehlo.dot_general"] == [
            (4, 16), (4, 4)]
        reduces = [o for o in ops if o.name.startswith("stablehlo.all_")]
        assert [o.name for o in reduces] == ["stablehlo.all_reduce"]
        assert reduces[0].attributes["replica_groups"].array.tolist() == [[0, 1], [2, 3]]
        assert not notes
    _, ops, _ = _partitioned("gspmd_psum")        # GSPMD shard_map: a slice per partition
    assert not any(o.name == "stablehlo.custom_call" for o in ops)
    assert [o.results[0].type.shape for o in ops if o.name == "stablehlo.dynamic_slice"
            and o.results[0].type.shape == (4, 4)]


def test_gspmd_strings_read_into_mesh_axes():
    from tensorvm.compiler.dialects.gspmd import derive_mesh, parse_gspmd, sdy_dims
    texts = ["{devices=[2,1,2]<=[4] last_tile_dim_replicate}",
             "{devices=[1,2,2]<=[2,2]T(1,0) last_tile_dim_replicate}",
             "{devices=[4,1]0,2,1,3}", "{devices=[2,2]<=[4]}", "{replicated}",
             "{maximal device=1}", "{devices=[2,1,2]<=[4] last_tile_dims={replicated}}"]
    parsed = [parse_gspmd(t) for t in texts]
    mesh, names = derive_mesh([p for p in parsed if p.kind == "tiled"], 4)
    assert mesh.axes == (("_g0", 2), ("_g1", 2)) and mesh.device_ids == (0, 1, 2, 3)
    assert [sdy_dims(p, 2, names) for p in parsed] == [
        [("_g0",), ()], [(), ("_g1",)], [("_g1", "_g0"), ()], [("_g0",), ("_g1",)],
        [(), ()], [(), ()], [("_g0",), ()]]
    for bad, why in [("{devices=[2,1,2]<=[4] last_tile_dims={manual}}", "partially manual"),
                     ("{{replicated}, {manual}}", "tuple sharding"),
                     ("{devices=[4]0,3,1,2}", "not a product"),
                     ("{unknown}", "not replicated, manual")]:
        with pytest.raises(UnsupportedOpError, match=why):
            parse_gspmd(bad)
    with pytest.raises(UnsupportedOpError, match="do not nest"):     # 6 devices as 2x3 and 3x2
        derive_mesh([parse_gspmd("{devices=[2,3]<=[6]}"), parse_gspmd("{devices=[3,2]<=[6]}")], 6)
    mesh, names = derive_mesh([parse_gspmd("{devices=[2,3]<=[6]}"),     # these nest: one mesh
                               parse_gspmd("{devices=[6]<=[2,3]T(1,0)}")], 6)
    assert mesh.axes == (("_g0", 2), ("_g1", 3))
    assert sdy_dims(parse_gspmd("{devices=[6]<=[2,3]T(1,0)}"), 1, names) == [("_g1", "_g0")]


MAXIMAL = """
module @m attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%a: tensor<8x4xf32> {mhlo.sharding = "{devices=[2,1]<=[2]}"},
                         %b: tensor<4xf32> {mhlo.sharding = "{maximal device=0}"})
      -> (tensor<8x4xf32> {mhlo.sharding = "{devices=[2,1]<=[2]}"}) {
    %0 = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<4xf32>) -> tensor<8x4xf32>
    %1 = stablehlo.multiply %a, %0 : tensor<8x4xf32>
    return %1 : tensor<8x4xf32>
  }
}
"""


def test_a_maximal_sharding_is_computed_on_every_partition():
    from tensorvm.compiler.api import CompileOptions, compile_text
    result = compile_text(MAXIMAL, CompileOptions(), "m.mlir")
    assert any("maximal device=0" in n for n in result.stats["spmd_reshards"])
    pm = runtime.load_module(result.vmfb, device="local-sync", partitions=2)
    a = np.arange(32, dtype=np.float32).reshape(8, 4)
    b = np.array([1, 2, 3, 4], np.float32)
    y = pm.main(a, b)
    assert y.dims == (("_g0",), ())
    np.testing.assert_allclose(np.asarray(y), a * b)


def test_gspmd_manual_markers_that_change_shapes_are_refused():
    text = """
func.func @main(%a: tensor<8x4xf32>) -> tensor<4x4xf32> {
  %0 = stablehlo.custom_call @SPMDFullToShardShape(%a) {mhlo.sharding = "{manual}"} : (tensor<8x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}"""
    with pytest.raises(UnsupportedOpError, match="SPMDFullToShardShape.*export with Shardy"):
        compile_str(text)


from tvm_testing import MPIRUN, needs_mpi  # noqa: E402
RANK = """
import os, sys
import numpy as np
from tensorvm import runtime
sys.path[:0] = [sys.argv[3], os.path.dirname(sys.argv[3])]  # (tests/: tvm_testing)
from test_sharded import _per_rank
z = np.load(sys.argv[2])
args = [z[f"arr_{i}"] for i in range(len([k for k in z.files if k.startswith("arr_")]))]
name = sys.argv[2].rsplit("/", 1)[-1][:-4]
m = runtime.load_module(sys.argv[1], device="local-sync", channel="mpi", timeout_s=30)
ins, wants = _per_rank(name, args, z["out"], m.channel.count)
got = np.asarray(m.main(*ins[m.channel.rank]))
want = wants[m.channel.rank]
err = float(np.abs(got - want).max()) if got.shape == want.shape else float("inf")
with open(f"{sys.argv[1]}.rank{m.channel.rank}", "w") as f:
    f.write(f"{m.channel.rank} {err}")
"""


def _two_mpi_ranks(tmp_path, name, script):
    """Run ``script`` as 2 MPI processes on loopback with the case's vmfb and inputs."""
    text, *_ = _case(name)
    (tmp_path / "m.vmfb").write_bytes(compile_str(text))
    (tmp_path / "rank.py").write_text(textwrap.dedent(script))
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_btl="self,tcp", OMPI_MCA_btl_tcp_if_include="lo",
               OMPI_MCA_oob_tcp_if_include="lo", OMPI_MCA_rmaps_base_oversubscribe="1")
    return subprocess.run([MPIRUN, "-n", "2", "--oversubscribe", sys.executable,
                           str(tmp_path / "rank.py"), str(tmp_path / "m.vmfb"),
                           str(SHARDED / f"{name}.npz"), str(pathlib.Path(__file__).parent)],
                          env=env, capture_output=True, text=True, timeout=120)


@needs_mpi
@pytest.mark.parametrize("name", ["psum", "block_tensor_parallel", "jit_mlp_data_parallel",
                                  "jit_matmul_contracting", "jit_reduce_sharded",
                                  "jit_matmul_reduce_scatter",
                                  "gspmd_mlp_data_parallel", "gspmd_psum"])
def test_two_mpi_ranks_match_jax(tmp_path, name):
    p = _two_mpi_ranks(tmp_path, name, RANK)
    lines = [(tmp_path / f"m.vmfb.rank{r}").read_text() for r in range(2)
             if (tmp_path / f"m.vmfb.rank{r}").exists()]
    assert len(lines) == 2, p.stdout + p.stderr
    for line in lines:
        assert float(line.split()[1]) < 1e-4, line


RANKS_2X2 = """
import os, sys
import numpy as np
from tensorvm import runtime
sys.path[:0] = [sys.argv[3], os.path.dirname(sys.argv[3])]  # (tests/: tvm_testing)
from test_sharded import _per_rank
z = np.load(sys.argv[2])
args = [z[f"arr_{i}"] for i in range(len([k for k in z.files if k.startswith("arr_")]))]
name = sys.argv[2].rsplit("/", 1)[-1][:-4]
pm = runtime.load_module(sys.argv[1], device=["local-sync"] * 2, channel="mpi", timeout_s=30)
ins, wants = _per_rank(name, args, z["out"], pm.count)
for how, got in (("whole", pm.main(*args)), ("pieces", pm.main.run([ins[g] for g in pm.ranks]))):
    for g, r in zip(pm.ranks, got):
        r = np.asarray(r)
        err = float(np.abs(r - wants[g]).max()) if r.shape == wants[g].shape else float("inf")
        with open(f"{sys.argv[1]}.{how}{g}", "w") as f:
            f.write(f"{g} {err}")
"""


@needs_mpi
@pytest.mark.parametrize("name", ["jit_mlp_2x2", "jit_mlp_2x2_scatter", "tensor_parallel_2x2",
                                  "jit_mlp_data_parallel_4", "gspmd_tanh_yx"])
def test_four_partitions_as_two_mpi_processes_of_two_devices(tmp_path, name):
    """A 4-device mesh over 2 processes x 2 local devices (hierarchical channel):
    each process passes whole arrays (split by the export's layout, its ranks
    fed their pieces) or its ranks' pieces, and gets its ranks' shards, as JAX."""
    p = _two_mpi_ranks(tmp_path, name, RANKS_2X2)
    files = [tmp_path / f"m.vmfb.{how}{g}" for how in ("whole", "pieces") for g in range(4)]
    assert all(f.exists() for f in files), p.stdout + p.stderr
    for f in files:
        assert float(f.read_text().split()[1]) < 1e-4, (f.name, f.read_text())


def test_a_uri_listed_per_rank_gives_each_rank_its_own_device():
    text, args, want, partitions = _case("psum")
    pm = runtime.load_module(compile_str(text), device=["local-task://1"] * 2, partitions=2)
    assert pm.modules[0].device is not pm.modules[1].device
    for got in pm.main.run([args] * 2):
        np.testing.assert_allclose(np.asarray(got), want, rtol=1e-5, atol=1e-5)


def test_the_devices_benchmark_runs_both_data_parallel_exports(capsys):
    """benchmarks/run.py's DEVICES figure: the jit and shard_map 2-device MLPs match
    the 1-device one (checked inside) and every figure is measured."""
    import argparse
    import importlib.util
    path = pathlib.Path(__file__).resolve().parents[2] / "benchmarks" / "run.py"
    spec = importlib.util.spec_from_file_location("tensorvm_benchmarks_run", path)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    notes = []
    out = bench.devices_report(argparse.Namespace(time_per_cell=0.01, min_reps=2), notes)
    assert not notes and set(out) >= {"1", "2", "shard_map", "pair"}
    assert all(out[k] > 0 for k in ("1", "2", "shard_map", "pair"))
    assert "DEVICES data-parallel MLP" in capsys.readouterr().out


SAMPLE = pathlib.Path(__file__).resolve().parents[2] / "samples" / "sharded" / "run.py"


def _spmd_ops(text):
    from tensorvm.compiler.mlir.parser import parse_module
    from tensorvm.compiler.passes.canonicalize import CanonicalizeOps
    from tensorvm.compiler.passes.inline import InlineCalls
    from tensorvm.compiler.passes.spmd_partition import PartitionSpmd
    module = parse_module(text)
    for p in (CanonicalizeOps(), InlineCalls(), PartitionSpmd()):
        p.run(module)
    return [o for f in module.functions for o in f.walk()]


@pytest.mark.parametrize("block", ["block_dp", "block_tp"])
def test_broadcasts_meeting_split_values_are_built_at_the_shard_shape(block):
    """The sample's transformer blocks: every broadcast_in_dim (of a scalar, of
    a replicated bias, or of a split statistic) that meets a split value is
    broadcast again at the shard shape, not built whole and sliced (52 and 12
    dynamic_slices before, counting the shard-offset lookups)."""
    ops = _spmd_ops((SAMPLE.parent / f"{block}.mlir").read_text())
    assert not [o for o in ops if o.name == "stablehlo.dynamic_slice"]
    assert not [o for o in ops if o.name == "stablehlo.partition_id"]


REBUILT = """
module @rebuilt attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2]>
  func.func public @main(%a: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                         %v: tensor<8xf32>)
      -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
    %c = stablehlo.constant dense<2.5> : tensor<8x4xf32>
    %s = stablehlo.multiply %a, %c : tensor<8x4xf32>
    %b = stablehlo.broadcast_in_dim %v, dims = [0] : (tensor<8xf32>) -> tensor<8x4xf32>
    %r = stablehlo.add %s, %b : tensor<8x4xf32>
    return %r : tensor<8x4xf32>
  }
}
"""


def test_splat_constants_and_row_broadcasts_meeting_a_split_operand():
    """A splat constant meeting a split operand is a splat of the shard shape; a
    broadcast of a replicated vector along the split dim slices the vector (4
    elements), not the broadcast result (16), and broadcasts that; the result
    matches numpy on 2 partitions."""
    ops = _spmd_ops(REBUILT)
    consts = [o.results[0].type.shape for o in ops if o.name == "stablehlo.constant"
              and o.results[0].uses and o.results[0].type.element == "f32"]
    assert consts == [(4, 4)]
    assert [o.results[0].type.shape for o in ops if o.name == "stablehlo.dynamic_slice"
            and o.results[0].type.element == "f32"] == [(4,)]      # (not the offset lookup)
    rng = np.random.default_rng(3)
    a, v = rng.standard_normal((8, 4)).astype(np.float32), rng.standard_normal(8).astype(np.float32)
    pm = runtime.load_module(compile_str(REBUILT), device="local-sync", partitions=2)
    np.testing.assert_allclose(np.asarray(pm.main(a, v)), a * 2.5 + v[:, None], rtol=1e-6, atol=1e-6)


def test_the_sharded_sample_runs_on_two_local_devices():
    p = subprocess.run([sys.executable, str(SAMPLE)], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "data parallel on 2 devices: result dim 0 over ['x']" in p.stdout
    assert "tensor parallel on 2 devices: result replicated" in p.stdout and "OK" in p.stdout


@needs_mpi
def test_the_sharded_sample_runs_as_two_mpi_ranks():
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_btl="self,tcp", OMPI_MCA_btl_tcp_if_include="lo",
               OMPI_MCA_oob_tcp_if_include="lo", OMPI_MCA_rmaps_base_oversubscribe="1")
    p = subprocess.run([MPIRUN, "-n", "2", sys.executable, str(SAMPLE), "--mpi"], env=env,
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
    for rank in (0, 1):
        for label in ("data parallel", "tensor parallel"):
            assert f"rank {rank}/2 {label}:" in p.stdout, p.stdout
    assert p.stdout.count("OK") == 2 and "MISMATCH" not in p.stdout
