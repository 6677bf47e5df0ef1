"""A call's results on the opencl driver come from ``allocator.allocate.result``:
on a device that shares host memory (PoCL) they are host memory the kernels
write in place, mapped by the submission that wrote them, so reading one back
enqueues no read command (hal/drivers/opencl_buffer.py)."""
from __future__ import annotations

import numpy as np
import pytest

from tensorvm import hal, runtime
from tvm_testing import compiled

REASON = hal.registry.driver_availability("opencl")
pytestmark = pytest.mark.skipif(REASON is not None, reason=f"opencl unavailable: {REASON}")

TWO = """func.func @main(%x: tensor<64xf32>, %y: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
  %0 = stablehlo.add %x, %y : tensor<64xf32>
  %1 = stablehlo.multiply %0, %x : tensor<64xf32>
  return %0, %1 : tensor<64xf32>, tensor<64xf32>
}"""


def test_results_read_back_without_a_read_command(monkeypatch):
    import pyopencl as cl
    m = runtime.load_module(compiled(TWO, ("cpu", "opencl")), device="opencl")
    if not m.device.host_unified_memory:
        pytest.skip("the device does not share host memory: results stay device buffers")
    x = np.arange(64, dtype=np.float32)
    outs = []
    for k in range(3):                  # fresh results every call, each its own values
        y = np.full(64, k, np.float32)
        a, b = m.main(x, y)
        assert a.buffer_view.buffer.host_read and b.buffer_view.buffer.host_read
        outs.append((a, b, y))
    reads = []
    real = cl.enqueue_copy
    monkeypatch.setattr(cl, "enqueue_copy", lambda *a, **k: reads.append(a) or real(*a, **k))
    for a, b, y in outs:
        np.testing.assert_array_equal(np.asarray(a), x + y)
        np.testing.assert_array_equal(np.asarray(b), (x + y) * x)
    assert not reads


def test_result_buffer_written_by_the_host_reads_back_the_new_bytes():
    m = runtime.load_module(compiled(TWO, ("cpu", "opencl")), device="opencl")
    x = np.ones(64, np.float32)
    a, _ = m.main(x, x)
    buf = a.buffer_view.buffer
    buf.write(8, np.array([7.5, -1.0], np.float32))
    got = np.frombuffer(buf.read(), np.float32)
    want = np.full(64, 2.0, np.float32)
    want[2:4] = [7.5, -1.0]
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(np.frombuffer(buf.subspan(8, 8).read(), np.float32), [7.5, -1.0])


def test_a_result_fed_back_keeps_its_values():
    """A result passed into the next call is read there; the new results are
    fresh buffers again and the first result keeps its values."""
    m = runtime.load_module(compiled(TWO, ("cpu", "opencl")), device="opencl")
    x = np.arange(64, dtype=np.float32)
    a, _ = m.main(x, x)
    c, d = m.main(a, x)
    np.testing.assert_array_equal(np.asarray(a), 2 * x)
    np.testing.assert_array_equal(np.asarray(c), 3 * x)
    np.testing.assert_array_equal(np.asarray(d), 3 * x * 2 * x)
