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


def _slot_scale_cb(device, kernels, n):
    """fill(slot 1, 0) ; slot 1 = slot 0 * 2 + 1 ; copy slot 1 -> slot 2,
    recorded once against binding-table slots."""
    cb = device.create_command_buffer()
    cb.fill(1, 0, 4 * n, b"\x00\x00\x00\x00")
    cb.execution_barrier()
    cb.dispatch(kernels, 0, (-(-n // 16), 1, 1), [n, 16], [(0, 0, 4 * n), (1, 0, 4 * n)])
    cb.execution_barrier()
    cb.copy(1, 0, 2, 4, 4 * n)
    cb.finalize()
    return cb


def test_slot_command_buffer_is_prepared_once_and_rebound(device, kernels):
    n = 37
    cb = _slot_scale_cb(device, kernels, n)
    program = cb.program
    for k in range(4):
        x = np.arange(n, dtype=np.float32) + 100 * k      # fresh buffers every submission
        out, copy = device.allocator.allocate(4 * n), device.allocator.allocate(4 * n + 4)
        f = device.create_fence()
        device.queue_execute(None, f, [cb], [[device.allocator.import_host(x), out, copy]])
        f.wait(T)
        assert cb.program is program
        np.testing.assert_array_equal(hal.BufferView(out, (n,), np.float32).to_numpy(), x * 2 + 1)
        np.testing.assert_array_equal(np.frombuffer(copy.read(4), np.float32), x * 2 + 1)


def test_slot_writes_reach_zero_copy_imports(device, kernels):
    if not device.host_unified_memory:
        pytest.skip("device does not share host memory")
    n = 64
    cb = _slot_scale_cb(device, kernels, n)
    x = np.arange(n, dtype=np.float32)
    y = np.zeros(n, np.float32)
    f = device.create_fence()
    device.queue_execute(None, f, [cb], [[device.allocator.import_host(x),
                                          device.allocator.import_host(y, writable=True),
                                          device.allocator.allocate(4 * n + 4)]])
    f.wait(T)
    np.testing.assert_array_equal(y, x * 2 + 1)


def test_submissions_in_flight_together_keep_their_tables(device, kernels):
    """Bound programs of one recorded command buffer share its kernels; each
    submission's slot arguments are set as it is enqueued."""
    n = 50
    cb = _slot_scale_cb(device, kernels, n)
    gate = device.create_fence()
    runs = []
    for k in range(3):
        x = np.full(n, k, np.float32)
        out, copy = device.allocator.allocate(4 * n), device.allocator.allocate(4 * n + 4)
        f = device.create_fence()
        device.queue_execute(gate, f, [cb], [[device.allocator.import_host(x), out, copy]])
        runs.append((x, out, f))
    gate.signal()
    for x, out, f in runs:
        f.wait(T)
        np.testing.assert_array_equal(hal.BufferView(out, (n,), np.float32).to_numpy(), x * 2 + 1)


def test_a_waited_submission_runs_on_the_caller_when_the_queue_is_idle(device, kernels):
    """``caller_waits``: with nothing queued, the work is enqueued and waited
    for on the calling thread (its enqueue event is on this thread and the
    fence is settled when queue_execute returns); behind a submission still
    waiting for its fence it queues, in order, and runs on the queue's
    threads."""
    import threading
    from tensorvm.hal.trace import Tracer
    out = device.allocator.allocate(16)
    cbs = []
    for base in (10, 20):
        cb = device.create_command_buffer()
        cb.dispatch(kernels, kernels.entry_ordinal("grid_ids"), (4, 1, 1), [base], [(out, 0, 16)])
        cb.finalize()
        cbs.append(cb)
    device.tracer = tracer = Tracer()
    f = device.create_fence()
    device.queue_execute(None, f, [cbs[0]], caller_waits=True)
    assert f.is_signaled
    me = threading.get_native_id()
    assert [e["tid"] for e in tracer.spans("queue") if e["name"] == "enqueue"] == [me]
    np.testing.assert_array_equal(np.frombuffer(out.read(), np.uint32), np.arange(4) + 10)
    gate, first, second = device.create_fence(), device.create_fence(), device.create_fence()
    device.queue_execute(gate, first, [cbs[0]])
    device.queue_execute(None, second, [cbs[1]], caller_waits=True)
    assert not second.is_settled              # queued behind the gated submission
    gate.signal()
    second.wait(T)
    assert first.is_signaled
    np.testing.assert_array_equal(np.frombuffer(out.read(), np.uint32), np.arange(4) + 20)
    enqueues = [e["tid"] for e in tracer.spans("queue") if e["name"] == "enqueue"]
    assert len(enqueues) == 3 and enqueues[1:] != [me, me]
    device.tracer = None


def test_rerecorded_dispatches_reuse_kernels_with_their_own_arguments(device, kernels):
    """Command buffers recorded per call are prepared once per shape (a
    template whose kernels come from the executable's free list) and bound
    to each recording's buffers; a reused kernel gets the new recording's
    buffers and constants, and dropped templates return their kernels."""
    built, reused = device.templates.built, device.templates.reused
    for k, (n, c) in enumerate(((16, 5), (40, 6), (40, 6), (7, 5))):
        x = np.arange(n, dtype=np.float32) * (k + 1)
        xin, out = device.allocator.import_host(x), device.allocator.allocate(4 * n + 8)
        cb = device.create_command_buffer()
        cb.dispatch(kernels, 0, (-(-n // 8), 1, 1), [n, 8], [(xin, 0, 4 * n), (out, 8, 4 * n)])
        cb.dispatch(kernels, 1, (1, 1, 1), [c], [(out, 0, 4)])
        cb.finalize()
        submit(device, cb).wait(T)
        got = np.frombuffer(out.read(0), np.float32)
        np.testing.assert_array_equal(got[2:], x * 2 + 1)
        assert np.frombuffer(out.read(0, 4), np.uint32)[0] == c
        del cb
    assert (device.templates.built - built, device.templates.reused - reused) == (3, 1)
    device.templates.clear()
    assert len(kernels.free_kernels[0]) >= 1        # returned to the free list


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
