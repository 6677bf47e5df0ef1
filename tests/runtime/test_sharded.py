"""Sharded JAX programs (tests/models/sharded, Shardy exports over a 2- or
4-device mesh) run as one rank per mesh device and match JAX: shard_map
bodies (psum, all_gather, a 2x2 tensor-parallel matmul, a transformer block
data-parallel and tensor-parallel) and a jit with sharded arguments; in
process and as 2 MPI ranks on loopback."""
from __future__ import annotations

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

pytestmark = pytest.mark.skipif(shutil.which("cc") is None, reason="needs a C compiler")
SHARDED = pathlib.Path(__file__).resolve().parents[1] / "models" / "sharded"
CASES = sorted(p.stem for p in SHARDED.glob("*.mlir"))


def _case(name):
    text = (SHARDED / f"{name}.mlir").read_text()
    with np.load(SHARDED / f"{name}.npz") as z:
        args = [z[f"arr_{i}"] for i in range(len(z.files) - 1)]
        out = z["out"]
    return text, args, out, int(re.search(r"mhlo.num_partitions = (\d+)", text).group(1))


@pytest.mark.parametrize("name", CASES)
def test_sharded_program_matches_jax_on_every_rank(name):
    text, args, want, partitions = _case(name)
    pm = runtime.load_module(compile_str(text), device="local-sync", partitions=partitions)
    results = pm.main(*args)
    assert len(results) == partitions
    for got in results:
        np.testing.assert_allclose(np.asarray(got), want, rtol=1e-5, atol=1e-5)


def test_the_4_partition_case_runs_on_local_task_devices():
    text, args, want, partitions = _case("tensor_parallel_2x2")
    assert partitions == 4
    pm = runtime.load_module(compile_str(text), device=["local-task://1"] * 4, partitions=4)
    for got in pm.main(*args):
        np.testing.assert_allclose(np.asarray(got), want, rtol=1e-5, atol=1e-5)


def test_each_rank_computes_only_its_shard():
    """The data-parallel block's body runs on [2, 6, 16] per rank, not [4, 6, 16]."""
    from tensorvm.compiler.frontend.parser import parse_module
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


def test_gspmd_manual_markers_that_change_shapes_are_refused():
    text = """
func.func @main(%a: tensor<8x4xf32>) -> tensor<4x4xf32> {
  %0 = stablehlo.custom_call @SPMDFullToShardShape(%a) {mhlo.sharding = "{manual}"} : (tensor<8x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}"""
    with pytest.raises(UnsupportedOpError, match="SPMDFullToShardShape.*export with Shardy"):
        compile_str(text)


MPIRUN = shutil.which("mpirun")
RANK = """
import sys
import numpy as np
from tensorvm import runtime
z = np.load(sys.argv[2])
m = runtime.load_module(sys.argv[1], device="local-sync", channel="mpi", timeout_s=30)
got = np.asarray(m.main(*[z[f"arr_{i}"] for i in range(len(z.files) - 1)]))
err = float(np.abs(got - z["out"]).max())
with open(f"{sys.argv[1]}.rank{m.channel.rank}", "w") as f:
    f.write(f"{m.channel.rank} {err}")
"""


@pytest.mark.skipif(MPIRUN is None, reason="needs mpirun (Debian: openmpi-bin)")
@pytest.mark.parametrize("name", ["psum", "block_tensor_parallel"])
def test_two_mpi_ranks_match_jax(tmp_path, name):
    text, *_ = _case(name)
    (tmp_path / "m.vmfb").write_bytes(compile_str(text))
    (tmp_path / "rank.py").write_text(textwrap.dedent(RANK))
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_btl="self,tcp", OMPI_MCA_btl_tcp_if_include="lo",
               OMPI_MCA_oob_tcp_if_include="lo", OMPI_MCA_rmaps_base_oversubscribe="1")
    p = subprocess.run([MPIRUN, "-n", "2", "--oversubscribe", sys.executable,
                        str(tmp_path / "rank.py"), str(tmp_path / "m.vmfb"),
                        str(SHARDED / f"{name}.npz")], env=env, capture_output=True, text=True,
                       timeout=120)
    lines = [(tmp_path / f"m.vmfb.rank{r}").read_text() for r in range(2)
             if (tmp_path / f"m.vmfb.rank{r}").exists()]
    assert len(lines) == 2, p.stdout + p.stderr
    for line in lines:
        assert float(line.split()[1]) < 1e-4, line


def test_a_uri_listed_per_rank_gives_each_rank_its_own_device():
    text, args, want, partitions = _case("psum")
    pm = runtime.load_module(compile_str(text), device=["local-task://1"] * 2, partitions=2)
    assert pm.modules[0].device is not pm.modules[1].device
    for got in pm.main(*args):
        np.testing.assert_allclose(np.asarray(got), want, rtol=1e-5, atol=1e-5)
