"""Checked imports (hal/checked_buffer.py): a constant's bytes are checked
range by range when a kernel or a reader first uses them, never at import."""
from __future__ import annotations

import numpy as np
import pytest

import tensorvm.hal as hal
from tensorvm.hal.checked_buffer import CheckedBuffer

T = 5.0


class Damaged(ValueError):
    pass


class Recorder:
    """A check that records the ranges asked for and refuses ``bad`` bytes."""

    def __init__(self, size, bad=()):
        self.size, self.bad, self.ranges, self.seen = size, set(bad), [], set()

    def __call__(self, offset, length):
        self.ranges.append((offset, length))
        hit = self.bad & set(range(offset, offset + length))
        if hit:
            raise Damaged(f"bytes {sorted(hit)} are damaged")
        self.seen |= set(range(offset, offset + length))
        return len(self.seen) == self.size


def _run(device, cb):
    cb.finalize()
    fence = device.create_fence()
    device.queue_execute(None, fence, [cb])
    fence.wait(T)


def test_a_dispatch_checks_only_the_range_it_binds(device, kernels):
    if not isinstance(device.allocator, hal.allocator.HostAllocator):
        pytest.skip("device memory: an import copies, so all of it is checked first")
    n = 64
    x = np.arange(2 * n, dtype=np.float32)
    check = Recorder(x.nbytes)
    buf = device.allocator.import_checked(memoryview(x.tobytes()), check)
    assert isinstance(buf, CheckedBuffer) and check.ranges == []      # nothing at import
    out = device.allocator.allocate(n * 4)
    cb = device.create_command_buffer()
    cb.dispatch(kernels, kernels.entry_ordinal("scale"), (1, 1, 1), [n, n],
                [(buf, n * 4, n * 4), (out, 0, n * 4)])
    assert check.ranges == [(n * 4, n * 4)] and not buf.fully_checked
    _run(device, cb)
    np.testing.assert_array_equal(hal.BufferView(out, (n,), np.float32).to_numpy(),
                                  x[n:] * 2 + 1)
    assert check.ranges == [(n * 4, n * 4)]
    view = hal.BufferView(buf, (2 * n,), np.float32).to_numpy()    # a reader: all of it
    np.testing.assert_array_equal(view, x)
    assert check.ranges[-1] == (0, x.nbytes) and buf.fully_checked
    buf.address, buf.storage                                        # noqa: B018
    assert len(check.ranges) == 2                                   # checked once


def test_damaged_bytes_fail_the_command_that_uses_them(device, kernels):
    if not isinstance(device.allocator, hal.allocator.HostAllocator):
        pytest.skip("device memory: an import copies, so all of it is checked first")
    n = 16
    x = np.ones(2 * n, np.float32)
    check = Recorder(x.nbytes, bad={5})
    buf = device.allocator.import_checked(memoryview(x.tobytes()), check)
    out = device.allocator.allocate(n * 4)
    cb = device.create_command_buffer()
    cb.dispatch(kernels, kernels.entry_ordinal("scale"), (1, 1, 1), [n, n],
                [(buf, n * 4, n * 4), (out, 0, n * 4)])          # the intact half
    with pytest.raises(Damaged):
        cb.dispatch(kernels, kernels.entry_ordinal("scale"), (1, 1, 1), [n, n],
                    [(buf, 0, n * 4), (out, 0, n * 4)])
    with pytest.raises(Damaged):
        cb.copy(buf, 0, out, 0, 8)
    assert len(cb.commands) == 1                 # what failed was not recorded
    for touch in (lambda: buf.storage, lambda: buf.address, lambda: buf.read(4, 4),
                  lambda: buf.subspan(0, 8), lambda: buf.map(),
                  lambda: hal.BufferView(buf, (2 * n,), np.float32).to_numpy()):
        with pytest.raises(Damaged):
            touch()
    assert buf.read(8, 8) == x.tobytes()[8:16]  # other ranges still read


def test_binding_table_slots_are_checked_over_the_recorded_extent(device, kernels):
    if not isinstance(device.allocator, hal.allocator.HostAllocator):
        pytest.skip("device memory: an import copies, so all of it is checked first")
    n = 8
    x = np.arange(4 * n, dtype=np.float32)
    check = Recorder(x.nbytes, bad={3 * n * 4})
    buf = device.allocator.import_checked(memoryview(x.tobytes()), check)
    out = device.allocator.allocate(n * 4)
    cb = device.create_command_buffer()
    cb.dispatch(kernels, kernels.entry_ordinal("scale"), (1, 1, 1), [n, n],
                [(0, n * 4, n * 4), (out, 0, n * 4)])
    cb.finalize()
    fence = device.create_fence()
    device.queue_execute(None, fence, [cb], binding_tables=[[buf]])
    fence.wait(T)
    assert check.ranges == [(0, 2 * n * 4)]      # the slot's extent, not the whole buffer
    np.testing.assert_array_equal(hal.BufferView(out, (n,), np.float32).to_numpy(),
                                  x[n:2 * n] * 2 + 1)


def test_device_memory_imports_check_everything_first():
    check = Recorder(8, bad={7})

    class DeviceAllocator(hal.allocator.Allocator):
        def import_host(self, obj, writable=False):
            raise AssertionError("a damaged constant must not be copied to the device")

    with pytest.raises(Damaged):
        DeviceAllocator().import_checked(memoryview(bytes(8)), check)
    assert check.ranges == [(0, 8)]
