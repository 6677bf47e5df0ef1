"""GPU loops (codegen/gpu_loop.py): a qualifying while runs as ONE kernel
launch on OpenCL (PoCL here) and CUDA; it must compute what the VM loop
computes, and a variant without the entry must still take the VM loop."""
from __future__ import annotations

import numpy as np
import pytest

from tensorvm import hal, runtime
from tensorvm.compiler.api import CompileOptions, compile_text
from tensorvm.compiler.codegen import cuda
from tensorvm.hal.trace import Tracer, summary
from tensorvm.runtime.modules import hal as hal_module

import test_native_loops

OPENCL = hal.registry.driver_availability("opencl")

# Each step: row i of x scaled by the running sum s, written into the cache
# at the loop index (dynamic_update_slice); a nested if on the parity of i
# picks tanh or the negation of the row; s becomes the sum of the new row
# (a reduction: a tree in the local-memory arena in the GPU forms).
LOOP = """
func.func @main(%x: tensor<6x300xf32>, %c: tensor<6x300xf32>) -> (tensor<6x300xf32>, tensor<f32>, tensor<i32>) {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %c2 = stablehlo.constant dense<2> : tensor<i32>
  %n = stablehlo.constant dense<6> : tensor<i32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %one = stablehlo.constant dense<1.0> : tensor<f32>
  %r:4 = stablehlo.while(%i = %c0, %kv = %c, %s = %one, %k = %c0) : tensor<i32>, tensor<6x300xf32>, tensor<f32>, tensor<i32>
    cond {
      %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %row = stablehlo.dynamic_slice %x, %i, %c0, sizes = [1, 300] : (tensor<6x300xf32>, tensor<i32>, tensor<i32>) -> tensor<1x300xf32>
      %sb = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<1x300xf32>
      %sc = stablehlo.multiply %row, %sb : tensor<1x300xf32>
      %m = stablehlo.remainder %i, %c2 : tensor<i32>
      %odd = stablehlo.compare EQ, %m, %c1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %new, %kn = "stablehlo.if"(%odd) ({
        %t = stablehlo.tanh %sc : tensor<1x300xf32>
        %k1 = stablehlo.add %k, %c1 : tensor<i32>
        stablehlo.return %t, %k1 : tensor<1x300xf32>, tensor<i32>
      }, {
        %g = stablehlo.negate %sc : tensor<1x300xf32>
        stablehlo.return %g, %k : tensor<1x300xf32>, tensor<i32>
      }) : (tensor<i1>) -> (tensor<1x300xf32>, tensor<i32>)
      %kv2 = stablehlo.dynamic_update_slice %kv, %new, %i, %c0 : (tensor<6x300xf32>, tensor<1x300xf32>, tensor<i32>, tensor<i32>) -> tensor<6x300xf32>
      %tot = stablehlo.reduce(%new init: %z) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x300xf32>, tensor<f32>) -> tensor<f32>
      %s2 = stablehlo.multiply %tot, %tot : tensor<f32>
      %s3 = stablehlo.add %s2, %one : tensor<f32>
      %in = stablehlo.add %i, %c1 : tensor<i32>
      stablehlo.return %in, %kv2, %s3, %kn : tensor<i32>, tensor<6x300xf32>, tensor<f32>, tensor<i32>
    }
  return %r#1, %r#2, %r#3 : tensor<6x300xf32>, tensor<f32>, tensor<i32>
}
"""


def _reference(x, c):
    c, s, k = c.copy(), np.float32(1.0), 0
    for i in range(6):
        sc = x[i] * s
        if i % 2 == 1:
            new, k = np.tanh(sc), k + 1
        else:
            new = -sc
        c[i] = new
        tot = np.float32(new.sum(dtype=np.float32))
        s = np.float32(tot * tot + 1)
    return c, s, k


def _inputs():
    rng = np.random.default_rng(3)
    return (rng.standard_normal((6, 300)).astype(np.float32) * 0.01,
            rng.standard_normal((6, 300)).astype(np.float32))


def _check(got):
    want = _reference(*_inputs())
    np.testing.assert_allclose(np.asarray(got[0]), want[0], rtol=2e-4, atol=1e-5)
    np.testing.assert_allclose(np.asarray(got[1]), want[1], rtol=2e-4)
    assert int(np.asarray(got[2])) == want[2]


@pytest.fixture(scope="module")
def opencl_module():
    if OPENCL is not None:
        pytest.skip(f"opencl unavailable: {OPENCL}")
    return compile_text(LOOP, CompileOptions(targets=["opencl"], keep_source=True))


@pytest.fixture(params=["cpu-forms", "gpu-forms"])
def forms(request, monkeypatch):
    """PoCL builds the CPU forms by default (one item, no barriers); the GPU
    forms (64 items, barriers, local-memory arena) run on it too."""
    from tensorvm.hal.loaders import opencl_c
    monkeypatch.setattr(opencl_c, "CPU_FORMS", request.param == "cpu-forms")
    return request.param


def test_loop_is_one_launch_on_opencl(opencl_module, forms):
    src = opencl_module.stats["opencl_source"]
    assert "__kernel void loop" in src and "_native(" in src and "_native_vm(" not in src
    assert "reqd_work_group_size(1, 1, 1)" in src      # one item on CPU devices (PoCL)
    assert "__local float* g_red = (__local float*)(tvm_lmem + 0);" in src
    m = runtime.load_module(opencl_module.vmfb, device="opencl")
    _check(m.main(*_inputs()))                      # warm: the program is built
    tracer = Tracer()
    m.device.tracer = m.tracer = tracer
    try:
        _check(m.main(*_inputs()))
    finally:
        m.device.tracer = None
    queue = summary(tracer)["queue"]
    launches = sum(row.get("commands", 0) for name, row in queue.items() if "enqueue" in name)
    # one launch for the loop; the rest are the copies of the returned values
    assert 1 <= launches <= 3, queue


def test_opencl_variant_without_the_entry_takes_the_vm_loop(opencl_module, monkeypatch):
    calls = []

    def absent(state, exe, name):
        calls.append(name)
        return int(name == "tvm_gpu_grid")
    monkeypatch.setitem(hal_module.FUNCTIONS, "executable.has_entry", ("rr->i", absent))
    _check(runtime.load_module(opencl_module.vmfb, device="opencl").main(*_inputs()))
    assert any(n.endswith("_native") for n in calls)


@pytest.mark.skipif(cuda.have_toolchain() is not None, reason=f"{cuda.have_toolchain()}")
def test_cuda_loop_kernel_passes_ptxas():
    """compile_ptx runs nvcc and ptxas on the program with the loop kernel."""
    res = compile_text(LOOP, CompileOptions(targets=["cuda"], keep_source=True))
    src = res.stats["cuda_source"]
    assert 'extern "C" __global__ void loop' in src and "_native_vm(" not in src
    assert "#define TVM_LOOP_SYNC() __syncthreads()" in src and "TVM_LOOP_SYNC();" in src



def test_a_device_sized_body_keeps_the_vm_loop():
    """A body dispatch of 256 workgroups (device-sized work) is not run by one block."""
    if OPENCL is not None:
        pytest.skip(f"opencl unavailable: {OPENCL}")
    text = test_native_loops.DOUBLING.replace("tensor<4xf32>", "tensor<256x1024xf32>")
    res = compile_text(text, CompileOptions(targets=["opencl"], keep_source=True))
    assert "_native_vm(" in res.stats["opencl_source"]
    x = np.random.default_rng(0).standard_normal((256, 1024)).astype(np.float32)
    i, v = runtime.load_module(res.vmfb, device="opencl").main(x)
    assert int(np.asarray(i)) == 3
    np.testing.assert_array_equal(np.asarray(v), x * 8)
