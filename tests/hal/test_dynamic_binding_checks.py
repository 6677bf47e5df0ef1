"""Kernels with dynamic shapes check their bindings against this call's dims
(push constants) on entry: a dispatch whose dims and buffers disagree fails
with a HalError instead of reading or writing out of bounds.  (Static shapes
are checked by the HAL when the dispatch is recorded.)"""
from __future__ import annotations

import numpy as np
import pytest

from tensorvm import hal
from tensorvm.compiler.api import compile_str
from tensorvm.vmfb.container import read_module

EXP = """
func.func @main(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %y = stablehlo.exponential %x : tensor<?x4xf32>
  return %y : tensor<?x4xf32>
}
"""


@pytest.fixture(scope="module")
def kernel():
    exe_def = read_module(compile_str(EXP)).executables[0]
    dev = hal.create_device("local-sync")
    v = exe_def.variants[dev.select_variant(exe_def.name, exe_def.variants)]
    yield dev, dev.load_executable(exe_def.name, v.format, v.data, v.entry_points, v.target)
    dev.close()


def _run(dev, exe, rows: int, buffer_rows: int):
    src = dev.allocator.allocate(buffer_rows * 16)
    dst = dev.allocator.allocate(buffer_rows * 16)
    src.write(0, np.ones(buffer_rows * 4, np.float32).tobytes())
    cb = dev.create_command_buffer()
    cb.dispatch(exe, 0, (1, 1, 1), constants=[rows & 0xFFFFFFFF, (rows >> 32) & 0xFFFFFFFF],
                bindings=[(src, 0, None), (dst, 0, None)])
    cb.finalize()
    done = dev.create_fence()
    dev.queue_execute(None, done, [cb])
    done.wait(10)
    return np.frombuffer(dst.read(), np.float32)


def test_consistent_dims_run(kernel):
    dev, exe = kernel
    np.testing.assert_allclose(_run(dev, exe, 2, 2), np.e, rtol=1e-6)


@pytest.mark.parametrize("rows", [3, 1 << 40, -1, (1 << 63) - 1])
def test_dims_beyond_the_buffers_fail_the_dispatch(kernel, rows):
    dev, exe = kernel
    with pytest.raises(hal.HalError, match="shorter than its dynamic shape"):
        _run(dev, exe, rows, 2)
