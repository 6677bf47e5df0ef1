"""Functional tests of the per-call fast paths (never timed): pooled binding
of recorded command buffers, submissions the caller runs itself
(``caller_waits``), the combined submit-and-wait VM import, the fused
argument check, single-timepoint fences and the pooled allocator's cached
addresses."""
from __future__ import annotations

import gc
import threading
import weakref

import numpy as np
import pytest

import tensorvm.hal as hal
from tensorvm.hal import HalError
from tensorvm.runtime.errors import InvalidArgumentError
from tensorvm.runtime.modules.hal import HalModule
from tensorvm.runtime.vm.native import Suspend
from hal_kernels import ENTRIES, SOURCE, compile_so, have_cc, kernel_format

T = 10.0
CPU = [d for d in hal.available_drivers() if d.startswith("local-")]


class _Context:
    def __init__(self, device):
        self.device = device


def _hal_fns(device):
    mod = HalModule()
    state = mod.create_state(_Context(device))
    fns = {name: fn for name, (_, fn) in mod.functions().items()}
    return lambda name, *args: fns[name](state, *args)


def _scale_cb(device, kernels, n=8):
    """out(slot 1) = in(slot 0) * 2 + 1, recorded against slots."""
    cb = device.create_command_buffer()
    cb.dispatch(kernels, kernels.entry_ordinal("scale"), (1, 1, 1), [n, n],
                [(0, 0, 4 * n), (1, 0, 4 * n)])
    cb.finalize()
    return cb


def _fail_cb(device, kernels):
    cb = device.create_command_buffer()
    cb.dispatch(kernels, kernels.entry_ordinal("fail_at"), (4, 1, 1), [2])
    cb.finalize()
    return cb


def test_pooled_bindings_see_new_buffers_every_call(device, kernels):
    cb = _scale_cb(device, kernels)
    for k in range(5):
        x = np.arange(8, dtype=np.float32) + 10 * k      # a fresh input buffer ...
        out = device.allocator.allocate(32)              # ... and output each time
        f = device.create_fence()
        device.queue_execute(None, f, [cb], [[device.allocator.import_host(x), out]])
        f.wait(T)
        np.testing.assert_array_equal(hal.BufferView(out, (8,), np.float32).to_numpy(),
                                      x * 2 + 1)


def test_concurrent_binds_get_distinct_states(device, kernels):
    if not device.supports_binding_tables:
        pytest.skip("driver prepares slot commands per submission")
    cb = _scale_cb(device, kernels)
    a, b = (device.allocator.allocate(32) for _ in range(2))
    p1 = cb.program.bind([a, a])
    p2 = cb.program.bind([b, b])            # p1 not released: must not be reused
    assert p1 is not p2
    from tensorvm.hal.drivers.opencl_program import OpenCLProgram
    if isinstance(cb.program, OpenCLProgram):
        # opencl: a bound program is the template's ops over its own table (the slot
        # arguments are set at enqueue), let go of when it completes
        assert p1.ops is p2.ops is cb.program.ops
        assert [x is y for x, y in zip(p1.table + p2.table, [a, a, b, b])] == [True] * 4
        p1.release()
        assert p1.table is None and p2.table[0] is b
        p2.release()
        return
    s1, s2 = p1.segments[0][0].state, p2.segments[0][0].state
    from tensorvm.hal.loaders.cpu_c import state_binding
    assert state_binding(s1, 0) == a.address
    assert state_binding(s2, 0) == b.address
    p1.release()
    p3 = cb.program.bind([b, a])            # reuses p1's packets, patched
    assert p3 is p1
    assert state_binding(p3.segments[0][0].state, 0) == b.address
    assert state_binding(p3.segments[0][0].state, 1) == a.address
    p2.release()
    p3.release()


def test_finished_submission_drops_its_buffers(device, kernels):
    cb = _scale_cb(device, kernels)
    x = device.allocator.allocate(32)
    out = device.allocator.allocate(32)
    ref = weakref.ref(out)
    f = device.create_fence()
    device.queue_execute(None, f, [cb], [[x, out]])
    f.wait(T)
    del out, f
    gc.collect()
    assert ref() is None           # the pooled bound program let go of the table


def test_many_threads_share_one_recorded_command_buffer(device, kernels):
    cb = _scale_cb(device, kernels, n=64)
    errors = []

    def worker(seed):
        try:
            for i in range(30):
                x = np.full(64, seed * 1000 + i, np.float32)
                out = device.allocator.allocate(256)
                f = device.create_fence()
                device.queue_execute(None, f, [cb], [[device.allocator.import_host(x), out]],
                                     caller_waits=bool(i % 2))
                device.help_until(f)
                f.wait(T)
                got = hal.BufferView(out, (64,), np.float32).to_numpy()
                if not np.array_equal(got, x * 2 + 1):
                    errors.append((seed, i))
        except Exception as e:     # noqa: BLE001
            errors.append(e)
    threads = [threading.Thread(target=worker, args=(s,)) for s in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors


@pytest.mark.parametrize("caller_waits", [False, True])
def test_completed_at_submit_path_propagates_kernel_errors(device, kernels, caller_waits):
    f = device.create_fence()
    device.queue_execute(None, f, [_fail_cb(device, kernels)], caller_waits=caller_waits)
    device.help_until(f)
    with pytest.raises(HalError, match="'fail_at' failed with code 7"):
        f.wait(T)
    assert f.failure is not None and not f.is_signaled and f.is_settled


def test_caller_waits_keeps_fifo_behind_a_blocked_submission(device):
    """A submission the caller would run itself still waits behind earlier
    queued work (the queue is not idle)."""
    gate = device.create_fence()
    buf = device.allocator.allocate(4)
    first, second = device.create_fence(), device.create_fence()
    cb1, cb2 = device.create_command_buffer(), device.create_command_buffer()
    cb1.fill(buf, 0, 4, b"\x01\x01\x01\x01")
    cb2.fill(buf, 0, 4, b"\x02\x02\x02\x02")
    cb1.finalize()
    cb2.finalize()
    device.queue_execute(gate, first, [cb1])
    device.queue_execute(None, second, [cb2], caller_waits=True)
    assert not first.is_settled
    assert not second.is_signaled     # did not overtake the blocked one
    gate.signal()
    first.wait(T)
    second.wait(T)
    assert buf.read() == b"\x02" * 4


def test_vm_submit_and_wait_import(device, kernels):
    vm = _hal_fns(device)
    cb = _scale_cb(device, kernels)
    x = np.arange(8, dtype=np.float32)
    out = vm("allocator.allocate", device, 32)
    res = vm("device.queue.execute.indirect.wait", device, cb, -1,
             [device.allocator.import_host(x), out])
    if isinstance(res, Suspend):         # not done yet: the VM would park here
        res.waitable.wait(T)
    np.testing.assert_array_equal(hal.BufferView(out, (8,), np.float32).to_numpy(), x * 2 + 1)
    # a kernel error surfaces from the call (or from the fence it suspends on)
    with pytest.raises(HalError, match="code 7"):
        res = vm("device.queue.execute.indirect.wait", device, _fail_cb(device, kernels), -1, [])
        if isinstance(res, Suspend):
            res.waitable.wait(T)
    # a bad binding table is refused at submission
    with pytest.raises(HalError, match="binding table"):
        vm("device.queue.execute.indirect.wait", device, cb, -1, [out])


def test_checked_buffer_validates_like_assert(device):
    vm = _hal_fns(device)
    buf = device.allocator.allocate(32)
    view = hal.BufferView(buf, (2, 4), np.float32)
    assert vm("buffer_view.checked_buffer", view, "x", 11, [2, 4]) is buf
    assert vm("buffer_view.checked_buffer", view, "x", 11, [-1, 4]) is buf   # dynamic dim
    with pytest.raises(InvalidArgumentError,
                       match=r"argument 'x': expected tensor<2x3xf32>, got tensor<2x4xf32>"):
        vm("buffer_view.checked_buffer", view, "x", 11, [2, 3])
    with pytest.raises(InvalidArgumentError, match="expected tensor<2x4xi32>"):
        vm("buffer_view.checked_buffer", view, "x", 3, [2, 4])
    with pytest.raises(InvalidArgumentError, match="got null"):
        vm("buffer_view.checked_buffer", None, "x", 11, [2, 4])


def test_check_args_checks_every_argument_and_names_the_bad_one(device):
    vm = _hal_fns(device)
    a = hal.BufferView(device.allocator.allocate(32), (2, 4), np.float32)
    b = hal.BufferView(device.allocator.allocate(12), (3,), np.int32)
    spec = '[["x",11,[2,4]],["params[\'w\']",3,[3]]]'
    assert vm("buffer_view.check_args", spec, [a, b]) is None
    with pytest.raises(InvalidArgumentError, match=r"argument 'params\['w'\]': expected "
                                                   r"tensor<3xi32>, got tensor<2x4xf32>"):
        vm("buffer_view.check_args", spec, [a, a])
    with pytest.raises(InvalidArgumentError, match="argument 'x'.*got null"):
        vm("buffer_view.check_args", spec, [None, b])
    with pytest.raises(HalError, match="1 arguments for a spec of 2"):
        vm("buffer_view.check_args", spec, [a])
    for bad, message in (("[", "not JSON"), ('{"x": 1}', "must be a JSON list"),
                         ('[["x", 11, [-1]]]', r"\[0\] must be \[name"),
                         ('[["x", 9999, [2]]]', "unknown element type id 9999")):
        with pytest.raises(HalError, match=message):
            vm("buffer_view.check_args", bad, [a])


def test_binding_table_takes_a_views_buffer(device, kernels):
    """Checked arguments go to the binding table as views; the caller's
    table is left as it was."""
    vm = _hal_fns(device)
    cb = _scale_cb(device, kernels)
    x = np.arange(8, dtype=np.float32)
    view = hal.BufferView(device.allocator.import_host(x), (8,), np.float32)
    out = vm("allocator.allocate", device, 32)
    table = [view, out]
    res = vm("device.queue.execute.indirect.wait", device, cb, -1, table)
    if isinstance(res, Suspend):
        res.waitable.wait(T)
    assert table[0] is view
    np.testing.assert_array_equal(hal.BufferView(out, (8,), np.float32).to_numpy(), x * 2 + 1)
    with pytest.raises(HalError, match="expected a Buffer or BufferView, got int"):
        vm("device.queue.execute.indirect.wait", device, cb, -1, [3, out])


def test_single_timepoint_fence_semantics():
    sem = hal.Semaphore(0)
    f = hal.Fence.single(sem, 2)
    assert not f.is_signaled and not f.is_settled and f.failure is None
    sem.signal(1)
    assert not f.is_signaled
    f.signal()
    assert sem.value == 2 and f.is_signaled and f.is_settled
    g = hal.Fence.single(hal.Semaphore(0), 1)
    g.fail(HalError("boom"))
    assert g.is_settled and not g.is_signaled
    with pytest.raises(HalError, match="boom"):
        g.wait(T)
    # inserting a second timepoint leaves the single-point fast path
    h = hal.Fence.single(hal.Semaphore(0), 1)
    other = hal.Semaphore(0)
    h.insert(other, 1)
    h.timepoints[0][0].signal(1)
    assert not h.is_signaled
    other.signal(1)
    assert h.is_signaled


@pytest.mark.parametrize("driver", CPU)
def test_pooled_allocations_have_their_own_address(driver):
    dev = hal.create_device(driver)
    try:
        a = dev.allocator.allocate(100)
        addr = a.address
        assert addr == a.storage.ctypes.data and addr % 64 == 0
        a.write(0, b"\xff" * 100)
        del a
        gc.collect()
        b = dev.allocator.allocate(90)               # same size class: the block again
        assert b.address == b.storage.ctypes.data
        assert b.read() == bytes(90)                  # zero-filled on reuse
        kept = b.storage[:4].view(np.uint8)           # a live view pins the block
        del b
        gc.collect()
        c = dev.allocator.allocate(90)
        assert c.storage.ctypes.data != kept.ctypes.data
        x = np.arange(6, dtype=np.int32).reshape(2, 3)
        imp = dev.allocator.import_host(x)
        assert imp.address == x.ctypes.data and imp.byte_length == 24 and imp.writable
    finally:
        dev.close()


def test_a_huge_binding_slot_is_refused_before_allocating(device, kernels):
    """A damaged module's slot index of 2^31 once grew the command buffer's
    slot table to billions of entries (MemoryError, or the OOM killer)."""
    cb = device.create_command_buffer()
    with pytest.raises(hal.HalError, match=r"binding slot must be in \[0, 65536\), got 2147483647"):
        cb.dispatch(kernels, kernels.entry_ordinal("scale"), (1, 1, 1), [8, 8],
                    [(0, 0, 32), ((1 << 31) - 1, 0, 32)])


def test_execute_now_runs_only_on_an_idle_queue(device, kernels):
    """``execute_now`` (the fence-free path of the submit-and-wait import)
    runs the work here when nothing is queued, keeps FIFO order behind a
    blocked submission (False: the caller submits instead), and raises a
    kernel's failure as a fence wait would.  Devices without it: False."""
    cb = _scale_cb(device, kernels)
    x = np.arange(8, dtype=np.float32)
    out = device.allocator.allocate(32)
    table = [device.allocator.import_host(x), out]
    if type(device).execute_now is hal.Device.execute_now:
        assert device.execute_now(cb, table) is False      # always submits
        return
    assert device.execute_now(cb, table) is True
    np.testing.assert_array_equal(hal.BufferView(out, (8,), np.float32).to_numpy(), x * 2 + 1)
    with pytest.raises(HalError, match="'fail_at' failed with code 7"):
        device.execute_now(_fail_cb(device, kernels), None)
    with pytest.raises(HalError, match="binding table"):
        device.execute_now(cb, [out])
    gate, first = device.create_fence(), device.create_fence()
    blocked = device.create_command_buffer()
    blocked.fill(out, 0, 4, b"\x00" * 4)
    blocked.finalize()
    device.queue_execute(gate, first, [blocked])
    assert device.execute_now(cb, table) is False           # would overtake `blocked`
    gate.signal()
    first.wait(T)
    assert device.execute_now(cb, table) is True


def test_content_digest_remembers_only_views_of_bytes():
    """Executable digests (the device's cache key) are remembered per view
    only while the view lives and only where its contents cannot change."""
    import hashlib
    from tensorvm.hal.device import _DIGESTS, content_digest
    data = bytes(range(200))
    view = memoryview(data).toreadonly()[8:]
    assert content_digest(view) == hashlib.sha256(data[8:]).digest()
    key = id(view)
    assert key in _DIGESTS
    del view
    gc.collect()
    assert key not in _DIGESTS                       # forgotten with its view
    buf = bytearray(data)
    mutable = memoryview(buf).toreadonly()           # read-only view, mutable owner
    first = content_digest(mutable)
    buf[0] ^= 1
    assert content_digest(mutable) == hashlib.sha256(buf).digest() != first


def _inline_on_a_thread(dev, fence):
    """Start a submission running inline on another thread; (thread, release):
    it runs until ``release`` is set."""
    inside, release = threading.Event(), threading.Event()

    def work():
        inside.set()
        assert release.wait(T)
    t = threading.Thread(target=dev._submit, args=(None, fence, work))
    t.start()
    assert inside.wait(T)
    return t, release


def test_local_sync_inline_runs_from_two_threads_overlap():
    """Two threads submitting with nothing queued both run inline at once: no
    order exists between concurrent submits (serialising them queued every
    caller but one and woke it by a fence)."""
    dev = hal.create_device("local-sync")
    fa, fb = dev.create_fence(), dev.create_fence()
    t, release = _inline_on_a_thread(dev, fa)
    ran = []
    dev._submit(None, fb, lambda: ran.append(1))      # runs now, beside the other
    assert fb.is_signaled and ran == [1] and not fa.is_settled
    release.set()
    t.join(T)
    fa.wait(T)


def test_local_sync_queued_work_waits_for_earlier_inline_runs():
    """Work queued while an inline run goes on starts after that run ends,
    and FIFO holds behind it."""
    dev = hal.create_device("local-sync")
    fa, fq, fc, gate = (dev.create_fence() for _ in range(4))
    order = []
    t, release = _inline_on_a_thread(dev, fa)
    dev._submit(gate, fq, lambda: order.append("queued"))   # waits for its gate
    dev._submit(None, fc, lambda: order.append("later"))     # behind "queued"
    assert not fc.is_settled
    gate.signal()
    assert not fq.is_settled            # the inline run began before it
    order.append("inline done")
    release.set()
    t.join(T)
    for f in (fa, fq, fc):
        f.wait(T)
    assert order == ["inline done", "queued", "later"]


@pytest.mark.skipif(not have_cc(), reason="no C compiler to build the test kernels")
@pytest.mark.parametrize("with_runner", [True, False], ids=["packet-runner", "one-call-each"])
def test_replayed_dispatches_run_in_one_native_call(with_runner):
    """A local-sync replay runs consecutive dispatches through the executable's
    ``tvm_run_packets`` (vmfb/cpu_abi.py) when it has one, else one call each:
    same values, and a failing kernel is named either way."""
    from tensorvm.hal.drivers import cpu_program
    from tensorvm.vmfb.cpu_abi import PACKET_RUNNER_C
    device = hal.create_device("local-sync")
    try:
        fmt = kernel_format(device)
        exe = device.load_executable("k", fmt, compile_so(SOURCE + (PACKET_RUNNER_C if with_runner
                                                                   else "")), ENTRIES, {})
        assert (exe.runner is not None) == with_runner
        n = 8
        cb = device.create_command_buffer()
        for src, dst in ((0, 1), (1, 2), (2, 3)):          # out = ((x*2+1)*2+1)*2+1
            cb.dispatch(exe, exe.entry_ordinal("scale"), (1, 1, 1), [n, n],
                        [(src, 0, 4 * n), (dst, 0, 4 * n)])
            cb.execution_barrier()
        cb.finalize()
        x = np.arange(n, dtype=np.float32)
        bufs = [device.allocator.import_host(x)] + [device.allocator.allocate(4 * n) for _ in range(3)]
        for _ in range(3):
            f = device.create_fence()
            device.queue_execute(None, f, [cb], [bufs])
            f.wait(T)
            np.testing.assert_array_equal(hal.BufferView(bufs[3], (n,), np.float32).to_numpy(),
                                          ((x * 2 + 1) * 2 + 1) * 2 + 1)
        plan = cb.program._pool[0]._plan         # the pooled bound program's run plan
        batches = [p for p in plan if type(p) is cpu_program.PacketBatch]
        assert [b.count for b in batches] == ([3] if with_runner else [])
        fail = device.create_command_buffer()
        fail.dispatch(exe, exe.entry_ordinal("scale"), (1, 1, 1), [n, n],
                      [(0, 0, 4 * n), (1, 0, 4 * n)])
        fail.execution_barrier()
        fail.dispatch(exe, exe.entry_ordinal("fail_at"), (4, 1, 1), [2])
        fail.finalize()
        f = device.create_fence()
        device.queue_execute(None, f, [fail], [bufs])
        with pytest.raises(HalError, match="'fail_at' failed with code 7"):
            f.wait(T)
    finally:
        device.close()
