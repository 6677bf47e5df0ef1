"""Dispatch conformance for the opencl driver, with OpenCL C test kernels
following the opencl-c ABI (bindings, their byte offsets, push constants)."""
from __future__ import annotations

import numpy as np
import pytest

import tensorvm.hal as hal
from tensorvm.hal import HalError

REASON = hal.registry.driver_availability("opencl")
pytestmark = pytest.mark.skipif(REASON is not None, reason=f"opencl unavailable: {REASON}")
T = 10.0

SOURCE = b"""
__kernel void scale(__global const float* in_base, __global float* out_base,
                    ulong in_off, ulong out_off, uint n, uint per) {
  __global const float* in = (__global const float*)((__global const uchar*)in_base + in_off);
  __global float* out = (__global float*)((__global uchar*)out_base + out_off);
  uint lo = get_group_id(0) * per, hi = min(lo + per, n);
  for (uint i = lo + get_local_id(0); i < hi; i += get_local_size(0)) out[i] = in[i] * 2.0f + 1.0f;
}
__kernel void grid_ids(__global uint* out_base, ulong out_off, uint base) {
  __global uint* out = (__global uint*)((__global uchar*)out_base + out_off);
  if (get_local_id(0) != 0) return;
  uint nx = get_num_groups(0), ny = get_num_groups(1);
  uint id = get_group_id(0) + nx * (get_group_id(1) + ny * get_group_id(2));
  out[id] = id + base;
}
"""
ENTRIES = ["scale", "grid_ids"]


@pytest.fixture
def device():
    dev = hal.create_device("opencl")
    yield dev
    dev.close()


@pytest.fixture
def kernels(device):
    return device.load_executable("cl_test_kernels", "opencl-c", SOURCE, ENTRIES,
                                  {"local_size": 16})


def submit(device, cb):
    fence = device.create_fence()
    device.queue_execute(None, fence, [cb])
    return fence


def test_dispatch_many_workgroups_and_replay(device, kernels):
    n, per = 10_000, 64
    x = np.random.default_rng(0).standard_normal(n).astype(np.float32)
    xin = device.allocator.import_host(x)
    out = device.allocator.allocate(n * 4)
    cb = device.create_command_buffer()
    cb.dispatch(kernels, 0, ((n + per - 1) // per, 1, 1), [n, per],
                [(xin, 0, n * 4), (out, 0, n * 4)])
    cb.finalize()
    for _ in range(2):
        out.write(0, bytes(n * 4))
        submit(device, cb).wait(T)
        np.testing.assert_array_equal(hal.BufferView(out, (n,), np.float32).to_numpy(), x * 2 + 1)


def test_3d_grid_and_binding_offsets(device, kernels):
    out = device.allocator.allocate(4 + 24 * 4)
    cb = device.create_command_buffer()
    cb.dispatch(kernels, 1, (4, 3, 2), [100], [(out, 4, None)])
    cb.dispatch(kernels, 1, (0, 3, 2), [0], [(out, 4, None)])
    cb.finalize()
    submit(device, cb).wait(T)
    np.testing.assert_array_equal(np.frombuffer(out.read(4), np.uint32), np.arange(24) + 100)
    assert out.read(0, 4) == bytes(4)


def test_subspan_views_read_back(device, kernels):
    out = device.allocator.allocate(4 + 24 * 4)
    view = hal.BufferView(out.subspan(4), (2, 3, 4), np.uint32)
    cb = device.create_command_buffer()
    cb.dispatch(kernels, 1, (4, 3, 2), [7], [(view.buffer, 0, None)])
    cb.finalize()
    submit(device, cb).wait(T)
    np.testing.assert_array_equal(view.to_numpy().ravel(), np.arange(24) + 7)


def test_kernel_writes_reach_zero_copy_imports(device, kernels):
    if not device.host_unified_memory:
        pytest.skip("device does not share host memory")
    x = np.arange(256, dtype=np.float32)
    y = np.zeros(256, np.float32)
    cb = device.create_command_buffer()
    cb.dispatch(kernels, 0, (4, 1, 1), [256, 64],
                [(device.allocator.import_host(x), 0, None),
                 (device.allocator.import_host(y, writable=True), 0, None)])
    cb.finalize()
    submit(device, cb).wait(T)
    np.testing.assert_array_equal(y, x * 2 + 1)


def test_wrong_argument_count_fails_at_record(device, kernels):
    buf = device.allocator.allocate(16)
    cb = device.create_command_buffer()
    cb.dispatch(kernels, 1, (1, 1, 1), [], [(buf, 0, None)])
    with pytest.raises(HalError, match="grid_ids"):
        cb.finalize()


def test_enumerate_and_bad_uris():
    drv = hal.get_driver("opencl")
    devices = drv.enumerate()
    assert devices and devices[0]["path"] == "0"
    with pytest.raises(hal.DeviceUnavailableError, match="no OpenCL device 99"):
        hal.create_device("opencl://99")
    with pytest.raises(HalError, match="device index"):
        hal.create_device("opencl://gpu")
