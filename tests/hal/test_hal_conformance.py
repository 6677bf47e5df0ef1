"""HAL conformance: every available driver must pass every test here."""
from __future__ import annotations

import threading
import time

import numpy as np
import pytest

import tensorvm.hal as hal
from tensorvm.hal import HalError, HalTimeoutError, MemoryType

T = 5.0   # generous timeout for waits that must succeed


def submit(device, cb, wait=None):
    fence = device.create_fence()
    device.queue_execute(wait, fence, [cb])
    return fence


def run(device, record):
    cb = device.create_command_buffer()
    record(cb)
    cb.finalize()
    submit(device, cb).wait(T)


# -- buffers -------------------------------------------------------------------
def test_allocate_is_zeroed_aligned_and_mappable(device):
    buf = device.allocator.allocate(1000)
    assert buf.byte_length == 1000
    assert buf.memory_type & MemoryType.DEVICE_LOCAL
    assert buf.read() == bytes(1000)
    if buf.memory_type & MemoryType.HOST_VISIBLE:
        m = buf.map()
        m[3] = 9
        assert buf.read(3, 1) == b"\x09"
    if hasattr(buf, "address"):
        assert buf.address % 64 == 0
    buf.write(10, b"abc")
    assert buf.read(10, 3) == b"abc"
    with pytest.raises(HalError, match="out of bounds"):
        buf.read(999, 2)
    with pytest.raises(HalError):
        device.allocator.allocate(-1)
    assert device.allocator.allocate(0).byte_length == 0


def test_allocations_above_the_device_limit_raise_hal_error(device):
    for size in (1 << 63, 1 << 62):
        with pytest.raises(HalError, match=f"allocation of {size} bytes .* exceeds the limit"):
            device.allocator.allocate(size)
    default = device.max_allocation_bytes
    assert default > 0
    device.max_allocation_bytes = 4096
    try:
        with pytest.raises(HalError, match="4097 bytes .*limit of 4096 bytes.*"
                                           "max_allocation_bytes"):
            device.allocator.allocate(4097)
        with pytest.raises(HalError, match="limit of 4096"):
            device.queue_alloca(None, device.create_fence(), 5000)
        assert device.allocator.allocate(4096).byte_length == 4096
    finally:
        device.max_allocation_bytes = None
    assert device.max_allocation_bytes == default
    with pytest.raises(HalError, match="non-negative int"):
        device.max_allocation_bytes = -1


def test_import_host_numpy_is_zero_copy(device):
    a = np.arange(16, dtype=np.float32)
    buf = device.allocator.import_host(a, writable=True)
    assert buf.byte_length == 64 and buf.writable
    a[0] = 42.0
    assert np.frombuffer(buf.read(0, 4), np.float32)[0] == 42.0
    run(device, lambda cb: cb.fill(buf, 4, 8, np.float32(7).tobytes()))
    assert a[1] == 7 and a[2] == 7 and a[3] == 3


def test_import_host_read_only_sources(device):
    data = bytes(range(32))
    buf = device.allocator.import_host(data)
    assert not buf.writable and buf.read() == data
    with pytest.raises(HalError, match="read-only"):
        buf.write(0, b"x")
    with pytest.raises(HalError, match="read-only"):
        device.allocator.import_host(data, writable=True)
    cb = device.create_command_buffer()
    with pytest.raises(HalError, match="read-only"):
        cb.fill(buf, 0, 4, b"\0")
    ro = np.zeros(4, np.int32)
    ro.flags.writeable = False
    assert not device.allocator.import_host(ro).writable
    mv = memoryview(bytearray(b"hello world!"))
    mbuf = device.allocator.import_host(mv, writable=True)
    mv[0] = ord("J")
    assert mbuf.read(0, 5) == b"Jello"


def test_import_host_non_contiguous_copies(device):
    a = np.arange(12, dtype=np.int32).reshape(3, 4)[:, ::2]
    buf = device.allocator.import_host(a)
    assert np.array_equal(np.frombuffer(buf.read(), np.int32), a.ravel())
    with pytest.raises(HalError, match="contiguous"):
        device.allocator.import_host(a, writable=True)


def test_buffer_view(device):
    buf = device.allocator.allocate(24)
    view = hal.BufferView(buf, (2, 3), np.float32)
    assert view.shape == (2, 3) and view.dtype == np.float32 and view.byte_length == 24
    buf.write(0, np.arange(6, dtype=np.float32).tobytes())
    assert np.array_equal(view.to_numpy(), np.arange(6, dtype=np.float32).reshape(2, 3))
    assert np.asarray(view).shape == (2, 3)
    with pytest.raises(HalError, match="needs 32 bytes"):
        hal.BufferView(buf, (8,), np.float32)


# -- transfer commands ----------------------------------------------------------
def test_fill_copy_update(device):
    buf = device.allocator.allocate(64)
    dst = device.allocator.allocate(64)

    def record(cb):
        cb.fill(buf, 0, 64, b"\x11")
        cb.execution_barrier()
        cb.fill(buf, 8, 8, (0xAABBCCDD).to_bytes(4, "little"))
        cb.fill(buf, 16, 4, b"\x01\x02")
        cb.update(b"xyz", buf, 40)
        cb.execution_barrier()
        cb.copy(buf, 0, dst, 0, 64)
        cb.execution_barrier()
        cb.copy(dst, 40, dst, 41, 3)     # overlapping copy inside one buffer
    run(device, record)
    got = buf.read()
    assert got[:8] == b"\x11" * 8
    assert got[8:16] == (0xAABBCCDD).to_bytes(4, "little") * 2
    assert got[16:20] == b"\x01\x02\x01\x02"
    assert got[40:43] == b"xyz"
    assert dst.read(40, 4) == b"xxyz"


def test_transfer_validation(device):
    buf = device.allocator.allocate(16)
    cb = device.create_command_buffer()
    with pytest.raises(HalError, match="multiples"):
        cb.fill(buf, 1, 4, b"\0\0\0\0")
    with pytest.raises(HalError, match="1, 2, 4 or 8"):
        cb.fill(buf, 0, 4, b"\0\0\0")
    with pytest.raises(HalError, match="out of bounds"):
        cb.copy(buf, 8, buf, 0, 16)
    with pytest.raises(HalError, match="out of bounds"):
        cb.update(b"12345", buf, 12)
    with pytest.raises(HalError, match="finalized"):
        device.queue_execute(None, None, [cb])
    cb.finalize()
    with pytest.raises(HalError, match="finalized"):
        cb.fill(buf, 0, 4, b"\0")


# -- semaphores and fences -------------------------------------------------------
def test_semaphore_timeline(device):
    sem = device.create_semaphore(3)
    assert sem.value == 3
    sem.wait(2, 0)
    sem.signal(10)
    with pytest.raises(HalError, match="decrease"):
        sem.signal(4)
    sem.signal((1 << 64) - 1)
    with pytest.raises(HalError):
        sem.signal(1 << 64)
    t0 = time.monotonic()
    with pytest.raises(HalTimeoutError):
        device.create_semaphore(0).wait(1, 0.05)
    assert time.monotonic() - t0 < 3.0


def test_semaphore_wakes_waiters_across_threads(device):
    sem = device.create_semaphore()
    results = []
    threads = [threading.Thread(target=lambda v=v: results.append(sem.wait(v, T) or v))
               for v in (1, 2, 2)]
    for t in threads:
        t.start()
    sem.signal(1)
    sem.signal(2)
    for t in threads:
        t.join(T)
    assert sorted(results) == [1, 2, 2]


def test_semaphore_failure_reaches_every_waiter(device):
    sem = device.create_semaphore()
    errors = []

    def waiter():
        try:
            sem.wait(5, T)
        except HalError as e:
            errors.append(e)
    threads = [threading.Thread(target=waiter) for _ in range(3)]
    for t in threads:
        t.start()
    original = ValueError("kernel exploded")
    sem.fail(original)
    for t in threads:
        t.join(T)
    assert len(errors) == 3
    assert all("kernel exploded" in str(e) and e.__cause__ is original for e in errors)
    with pytest.raises(HalError, match="kernel exploded"):
        sem.wait(1, 0)
    assert sem.failure is original


def test_fence_set_semantics(device):
    a, b = device.create_semaphore(), device.create_semaphore()
    f = hal.Fence([(a, 1), (b, 2)])
    f.insert(a, 3)
    assert dict(f.timepoints)[a] == 3
    assert not f.is_signaled
    with pytest.raises(HalTimeoutError):
        f.wait(0.02)
    a.signal(3)
    b.signal(2)
    assert f.is_signaled
    f.wait(0)
    assert hal.Fence().is_signaled
    g = hal.Fence.join([f, None, device.create_fence()])
    assert len(g) == 3 and not g.is_signaled
    h = device.create_fence()
    threading.Timer(0.02, h.fail, args=(HalError("upstream broke"),)).start()
    with pytest.raises(HalError, match="upstream broke"):
        hal.Fence.join([h, device.create_fence()]).wait(T)


# -- queue ----------------------------------------------------------------------
def _update_cb(device, buf, value):
    cb = device.create_command_buffer()
    cb.update(bytes([value]), buf, 0)
    cb.finalize()
    return cb


def test_queue_orders_submissions_behind_wait_fences(device):
    buf = device.allocator.allocate(4)
    gate = device.create_fence()
    t0 = time.monotonic()
    first = submit(device, _update_cb(device, buf, 1), wait=gate)
    second = submit(device, _update_cb(device, buf, 2))
    assert time.monotonic() - t0 < 0.5, "submission must not block on its wait fence"
    time.sleep(0.02)
    assert not first.is_signaled and not second.is_signaled   # FIFO: 2 waits for 1
    assert buf.read(0, 1) == b"\0"
    gate.signal()
    second.wait(T)
    assert first.is_signaled
    assert buf.read(0, 1) == b"\x02"


def test_wait_fence_failure_propagates_and_device_survives(device):
    buf = device.allocator.allocate(4)
    gate = device.create_fence()
    out = submit(device, _update_cb(device, buf, 1), wait=gate)
    gate.fail(RuntimeError("host side gave up"))
    with pytest.raises(HalError, match="host side gave up"):
        out.wait(T)
    assert buf.read(0, 1) == b"\0"               # the work did not run
    submit(device, _update_cb(device, buf, 3)).wait(T)
    assert buf.read(0, 1) == b"\x03"


def test_fence_wait_times_out(device):
    gate = device.create_fence()
    out = submit(device, _update_cb(device, device.allocator.allocate(1), 1), wait=gate)
    t0 = time.monotonic()
    with pytest.raises(HalTimeoutError):
        out.wait(0.05)
    assert time.monotonic() - t0 < 3.0
    gate.signal()
    out.wait(T)


def test_queue_alloca_dealloca(device):
    gate = device.create_fence()
    ready = device.create_fence()
    buf = device.queue_alloca(gate, ready, 256)
    assert buf.byte_length == 256
    gate.signal()
    ready.wait(T)
    run(device, lambda cb: cb.fill(buf, 0, 256, b"\x05"))
    assert buf.read(255, 1) == b"\x05"
    gone = device.create_fence()
    device.queue_dealloca(ready, gone, buf)
    gone.wait(T)
    with pytest.raises(HalError, match="deallocated"):
        buf.read()


def test_command_buffer_replay(device):
    src = device.allocator.allocate(8)
    dst = device.allocator.allocate(8)
    cb = device.create_command_buffer()
    cb.copy(src, 0, dst, 0, 8)
    cb.finalize()
    for value in (b"A", b"B", b"C"):
        src.write(0, value * 8)
        submit(device, cb).wait(T)
        assert dst.read() == value * 8
    # submitted twice back to back, with two command buffers in one submission
    f1 = device.create_fence()
    device.queue_execute(None, f1, [cb, cb])
    f1.wait(T)


# -- dispatch ---------------------------------------------------------------------
def test_dispatch_many_workgroups(device, kernels):
    n, per = 10_000, 64
    x = np.random.default_rng(0).standard_normal(n).astype(np.float32)
    xin = device.allocator.import_host(x)
    out = device.allocator.allocate(n * 4)
    cb = device.create_command_buffer()
    cb.dispatch(kernels, kernels.entry_ordinal("scale"), ((n + per - 1) // per, 1, 1),
                [n, per], [(xin, 0, n * 4), (out, 0, n * 4)])
    cb.finalize()
    for _ in range(2):                         # replay
        out.write(0, bytes(n * 4))
        submit(device, cb).wait(T)
        np.testing.assert_array_equal(hal.BufferView(out, (n,), np.float32).to_numpy(),
                                      x * 2 + 1)


def test_dispatch_3d_grid_and_binding_offsets(device, kernels):
    out = device.allocator.allocate(4 + 24 * 4)
    cb = device.create_command_buffer()
    cb.dispatch(kernels, kernels.entry_ordinal("grid_ids"), (4, 3, 2), [100], [(out, 4, None)])
    cb.dispatch(kernels, kernels.entry_ordinal("grid_ids"), (0, 3, 2), [0], [(out, 4, None)])
    cb.finalize()
    submit(device, cb).wait(T)
    got = np.frombuffer(out.read(4), np.uint32)
    np.testing.assert_array_equal(got, np.arange(24) + 100)
    assert out.read(0, 4) == bytes(4)


def test_dispatch_validation(device, kernels):
    buf = device.allocator.allocate(16)
    cb = device.create_command_buffer()
    with pytest.raises(HalError, match="out of range"):
        cb.dispatch(kernels, 99, (1, 1, 1))
    with pytest.raises(HalError, match="out of bounds"):
        cb.dispatch(kernels, 0, (1, 1, 1), [], [(buf, 8, 16)])
    with pytest.raises(HalError, match="32 bits"):
        cb.dispatch(kernels, 0, (1, 1, 1), [1 << 40])
    with pytest.raises(HalError, match="workgroups"):
        cb.dispatch(kernels, 0, (1, 1))


def test_dispatch_checked_against_declared_entry_layout(device, kernels):
    """Declared binding / push-constant counts are enforced at record time, so
    native code never reads past the arrays it is given."""
    from hal_kernels import ENTRIES, kernel_bytes
    declared = [("scale", 2, 2) if e == "scale" else ("noop", 0, 0, 4) if e == "noop" else
                ("grid_ids", 1, 1, None, [64]) if e == "grid_ids" else e for e in ENTRIES]
    exe = device.load_executable("checked", kernels.format, kernel_bytes(kernels.format),
                                 declared, {})
    assert exe is not kernels and exe.layouts[0] == (2, 2, None, None, None, False) and exe.layouts[1] is None
    a, b = device.allocator.allocate(64), device.allocator.allocate(64)
    cb = device.create_command_buffer()
    with pytest.raises(HalError, match="entry point 'scale': it declares 2 bindings and 2 push "
                                       "constants, the dispatch passes 1 bindings and 2"):
        cb.dispatch(exe, 0, (1, 1, 1), [16, 64], [(a, 0, 64)])
    with pytest.raises(HalError, match="passes 2 bindings and 3 push constants"):
        cb.dispatch(exe, 0, (1, 1, 1), [16, 64, 0], [(a, 0, 64), (b, 0, 64)])
    with pytest.raises(HalError, match="passes 3 bindings"):
        cb.dispatch(exe, 0, (1, 1, 1), [16, 64], [(0, 0, 64), (1, 0, 64), (2, 0, 64)])
    with pytest.raises(HalError, match="'scale'.*exceed the limit"):
        cb.dispatch(exe, 0, (1 << 16, 1 << 16, 1), [16, 64], [(a, 0, 64), (b, 0, 64)])
    noop = exe.entry_ordinal("noop")
    with pytest.raises(HalError, match="'noop': 5 workgroups, it declares at most 4"):
        cb.dispatch(exe, noop, (5, 1, 1))
    cb.dispatch(exe, noop, (2, 2, 1))
    grid = exe.entry_ordinal("grid_ids")
    for binding in [(a, 8, None), (3, 0, 32)]:
        with pytest.raises(HalError, match="'grid_ids': binding 0 has \\d+ bytes, the entry "
                                           "point uses 64"):
            cb.dispatch(exe, grid, (1, 1, 1), [0], [binding])
    with pytest.raises(HalError, match="binding_bytes"):
        device.load_executable("bad", kernels.format, kernel_bytes(kernels.format),
                               [("scale", 2, 2, None, [1])])
    cb.dispatch(exe, 0, (1, 1, 1), [16, 64], [(a, 0, 64), (b, 0, 64)])
    cb.finalize()
    submit(device, cb).wait(T)


def test_failing_kernel_fails_fence_and_device_keeps_working(device, kernels):
    cb = device.create_command_buffer()
    cb.dispatch(kernels, kernels.entry_ordinal("fail_at"), (64, 1, 1), [37])
    cb.finalize()
    t0 = time.monotonic()
    with pytest.raises(HalError, match=r"'test_kernels' entry point 'fail_at' failed with code 7"):
        submit(device, cb).wait(T)
    assert time.monotonic() - t0 < T
    # a later submission chained on the failed one fails too ...
    bad = submit(device, cb)
    chained = submit(device, _update_cb(device, device.allocator.allocate(1), 1), wait=bad)
    with pytest.raises(HalError, match="code 7"):
        chained.wait(T)
    # ... and an independent one still works
    test_dispatch_3d_grid_and_binding_offsets(device, kernels)


def test_executables_are_cached_per_device(device, kernels):
    from hal_kernels import ENTRIES, kernel_bytes
    again = device.load_executable("other name", kernels.format,
                                   bytearray(kernel_bytes(kernels.format)), ENTRIES, {})
    assert again is kernels


def test_allocate_without_zeroing_reuses_a_block_as_it_was():
    """``zero=False`` (the VM's allocations) skips the fill of a reused block;
    the default still zero-fills it."""
    from tensorvm.hal.caching_allocator import CachingHostAllocator
    a = CachingHostAllocator()
    b = a.allocate(4096)
    b.write(0, b"\x07" * 4096)
    del b                                  # the block returns to the pool
    again = a.allocate(4096, zero=False)
    assert a.hits == 1 and bytes(again.read(0, 8)) == b"\x07" * 8
    del again
    assert bytes(a.allocate(4096).read()) == bytes(4096) and a.hits == 2
