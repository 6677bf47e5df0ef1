"""GPU-shaped kernels (codegen/grids.py, gpu_reduce.py, passes/split_reductions.py):
grids sized from the problem on the GPU variants while the CPU variants of
the same module keep their tiling, and tree reductions over several
work-groups, checked on PoCL by the launch shapes the command buffers
record; the CUDA form of the same kernels must pass ptxas."""
from __future__ import annotations

import numpy as np
import pytest

from tensorvm import compiler, runtime
from tensorvm.compiler.api import CompileOptions, compile_text
from tensorvm.compiler.codegen import cuda as cuda_codegen
from tensorvm.hal import command_buffer

N = 1 << 24
SCALAR_SUM = f"""func.func @main(%a: tensor<{N}xf32>) -> tensor<f32> {{
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [0] : (tensor<{N}xf32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}}"""
ROWS = """func.func @main(%a: tensor<6x5000xf32>) -> (tensor<6xf32>, tensor<6xf32>) {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %m = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %0 = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [1] : (tensor<6x5000xf32>, tensor<f32>) -> tensor<6xf32>
  %1 = stablehlo.sqrt %0 : tensor<6xf32>
  %2 = stablehlo.reduce(%a init: %m) applies stablehlo.maximum across dimensions = [1] : (tensor<6x5000xf32>, tensor<f32>) -> tensor<6xf32>
  return %1, %2 : tensor<6xf32>, tensor<6xf32>
}"""
ADD = """func.func @main(%a: tensor<1024x1024xf32>, %b: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %0 = stablehlo.add %a, %b : tensor<1024x1024xf32>
  return %0 : tensor<1024x1024xf32>
}"""


@pytest.fixture
def launches(monkeypatch):
    """(entry point, workgroups) of every dispatch recorded while installed."""
    seen = []
    original = command_buffer.CommandBuffer.dispatch

    def dispatch(self, executable, entry, workgroups, *args, **kwargs):
        seen.append((executable.entry_points[entry], tuple(workgroups)))
        return original(self, executable, entry, workgroups, *args, **kwargs)
    monkeypatch.setattr(command_buffer.CommandBuffer, "dispatch", dispatch)
    return seen


def test_scalar_sum_of_2_24_runs_on_many_work_groups(launches):
    a = np.random.default_rng(0).random(N, dtype=np.float32)
    m = runtime.load_module(compiler.compile_str(SCALAR_SUM, targets=["cpu", "opencl"]),
                            device="opencl")
    out = float(np.asarray(m.main(a)))
    np.testing.assert_allclose(out, a.astype(np.float64).sum(), rtol=1e-6)
    assert [w[0] for _, w in launches] == [1024, 1]          # partials, then their sum
    assert float(np.asarray(m.main(a))) == out               # a fixed tree: deterministic


def test_row_reductions_take_one_work_group_per_row(launches):
    a = np.random.default_rng(1).random((6, 5000), dtype=np.float32)
    r = compile_text(ROWS, CompileOptions(targets=["cpu", "opencl"], keep_source=True))
    assert "g_red[g_lid]" in r.stats["opencl_source"]
    for device in ("opencl", "local-task"):                  # one module, both families' counts
        launches.clear()
        s, mx = runtime.load_module(r.vmfb, device=device).main(a)
        np.testing.assert_allclose(np.asarray(s), np.sqrt(a.astype(np.float64).sum(1)), rtol=1e-5)
        np.testing.assert_array_equal(np.asarray(mx), a.max(1))
        if device == "opencl":
            assert sorted(w[0] for _, w in launches) == [6, 6]


def test_gpu_grids_are_sized_from_the_problem(launches):
    a, b = (np.random.default_rng(k).random((1024, 1024), dtype=np.float32) for k in (2, 3))
    data = compiler.compile_str(ADD, targets=["cpu", "opencl"])
    counts = {}
    for device in ("opencl", "local-task"):
        launches.clear()
        out = runtime.load_module(data, device=device).main(a, b)
        np.testing.assert_array_equal(np.asarray(out), a + b)
        counts[device] = launches[0][1][0]
    assert counts == {"opencl": 1024, "local-task": 32}


@pytest.mark.skipif(cuda_codegen.have_toolchain() is not None,
                    reason=f"no CUDA toolchain: {cuda_codegen.have_toolchain()}")
@pytest.mark.parametrize("text", [SCALAR_SUM, ROWS, ADD], ids=["scalar_sum", "rows", "add"])
def test_gpu_kernels_pass_ptxas(text):
    """compile_ptx runs ptxas over the PTX: a rejected kernel is a CompileError."""
    r = compile_text(text, CompileOptions(targets=["cuda"], keep_source=True))
    assert "tvm_gpu_grid" in r.stats["cuda_source"]
