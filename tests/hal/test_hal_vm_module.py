"""The ``hal`` VM module, called directly with a context-like state."""
from __future__ import annotations

import numpy as np
import pytest

import tensorvm.hal as hal
from hal_kernels import ENTRIES, have_cc, kernel_bytes, kernel_format
from tensorvm.runtime.errors import InvalidArgumentError
from tensorvm.runtime.modules.hal import HalModule
from tensorvm.runtime.vm.native import NativeModule, Suspend
from tensorvm.vmfb.model import EntryPoint, ExecutableDef, ExecutableVariant

SIGNATURES = {   # docs/internals.md §6
    "device.get": "->r", "executable.load": "rr->r", "allocator.allocate": "rI->r",
    "allocator.allocate.result": "rI->r",
    "allocator.import": "rr->r", "buffer_view.assert": "rri*I->", "buffer_view.buffer": "r->r",
    "buffer_view.dim": "ri->I", "buffer_view.create": "rIIi*I->r",
    "command_buffer.create": "r->r", "command_buffer.dispatch": "rriiii*i*r*I->",
    "command_buffer.barrier": "r->", "command_buffer.fill": "rrIIii->",
    "command_buffer.copy": "rrIrII->", "command_buffer.finalize": "r->",
    "fence.create": "r->r", "fence.await": "i*r->i", "device.queue.execute": "rrr*r->",
    "device.queue.alloca": "rrrI->r", "device.queue.dealloca": "rrrr->",
    "buffer.load.i32": "rI->i", "buffer.load.i64": "rI->I",
    "command_buffer.dispatch.indirect": "rriiii*i*r*i*I->",
    "host_queue.push": "iI*r->", "host_queue.pop": "iI*r->",
    "command_buffer.copy.indirect": "rriIriII->", "device.queue.execute.indirect": "rrrr*r->",
    "fence.signal": "r->", "buffer_view.checked_buffer": "rri*I->r",
    "buffer_view.check_args": "r*r->",
    "device.queue.execute.indirect.wait": "rri*r->", "executable.has_entry": "rr->i",
    "invocation.bounds": "r->r",
    "command_buffer.dispatch.slotted": "rriiii*i*i*r*i*I->",
    "command_buffer.execute.slotted": "rr*r*i->",
    "channel.get": "->r", "channel.replica_id": "r->i", "channel.partition_id": "r->i",
    "channel.collective": "riii*I*I*r*r->",
}
F32, I32 = 11, 3     # tensorvm.vmfb.element_types ids


class _Context:
    def __init__(self, device):
        self.device = device


@pytest.fixture(params=hal.available_drivers())
def vm(request):
    dev = hal.create_device(request.param)
    mod = HalModule()
    state = mod.create_state(_Context(dev))
    fns = {name: fn for name, (_, fn) in mod.functions().items()}

    def call(name, *args):
        return fns[name](state, *args)
    call.device = dev
    yield call
    dev.close()


def _await(call, fence, timeout_ms=5000):
    r = call("fence.await", timeout_ms, [fence])
    if isinstance(r, Suspend):
        r.waitable.wait(r.timeout_ms / 1000)
        return 0
    return r


def test_exports_match_the_contract():
    mod = HalModule()
    assert isinstance(mod, NativeModule) and mod.name == "hal"
    assert {k: sig for k, (sig, _) in mod.functions().items()} == SIGNATURES


def test_fill_execute_await_load(vm):
    dev = vm("device.get")
    buf = vm("allocator.allocate", dev, 16)
    cb = vm("command_buffer.create", dev)
    vm("command_buffer.fill", cb, buf, 0, 16, -2, 4)
    vm("command_buffer.barrier", cb)
    vm("command_buffer.fill", cb, buf, 8, 2, 0x7F, 1)
    vm("command_buffer.copy", cb, buf, 0, buf, 12, 4)
    vm("command_buffer.finalize", cb)
    fence = vm("fence.create", dev)
    vm("device.queue.execute", dev, None, fence, [cb])
    assert _await(vm, fence) == 0
    assert vm("fence.await", 0, [fence, None]) == 0          # already signalled
    assert vm("buffer.load.i32", buf, 0) == -2
    assert vm("buffer.load.i64", buf, 0) == -4294967298    # 0xFFFFFFFE_FFFFFFFE
    assert vm("buffer.load.i32", buf, 8) == np.frombuffer(b"\x7f\x7f\xff\xff", np.int32)[0]
    assert vm("buffer.load.i32", buf, 12) == -2


def test_await_suspends_then_raises_failure(vm):
    dev = vm("device.get")
    gate = vm("fence.create", dev)
    r = vm("fence.await", 100, [gate, vm("fence.create", dev)])
    assert isinstance(r, Suspend) and r.timeout_ms == 100 and not r.is_ready
    with pytest.raises(hal.HalTimeoutError):
        r.waitable.wait(0.01)
    gate.fail(hal.HalError("dispatch blew up"))
    with pytest.raises(hal.HalError, match="dispatch blew up"):
        vm("fence.await", 100, [gate])


def test_buffer_views(vm):
    dev = vm("device.get")
    buf = vm("allocator.allocate", dev, 64 + 24)
    view = vm("buffer_view.create", buf, 64, 24, F32, [2, 3])
    assert view.shape == (2, 3) and view.dtype == np.float32
    assert vm("buffer_view.dim", view, 1) == 3
    inner = vm("buffer_view.buffer", view)
    assert inner.byte_length == 24
    inner.write(0, np.float32(5).tobytes())
    assert buf.read(64, 4) == np.float32(5).tobytes()            # aliases, no copy
    vm("buffer_view.assert", view, "x", F32, [2, 3])
    with pytest.raises(InvalidArgumentError,
                       match=r"argument 'x': expected tensor<2x4xf32>, got tensor<2x3xf32>"):
        vm("buffer_view.assert", view, "x", F32, [2, 4])
    with pytest.raises(InvalidArgumentError, match=r"expected tensor<2x3xi32>, got tensor<2x3xf32>"):
        vm("buffer_view.assert", view, "x", I32, [2, 3])
    with pytest.raises(InvalidArgumentError, match=r"argument 'y'.*got null"):
        vm("buffer_view.assert", None, "y", F32, [])
    with pytest.raises(hal.HalError, match="out of range"):
        vm("buffer_view.dim", view, 2)


def test_import_rodata_zero_copy(vm):
    data = np.arange(8, dtype=np.int32)
    ro = memoryview(data.tobytes())
    buf = vm("allocator.import", vm("device.get"), ro)
    assert not buf.writable and vm("buffer.load.i32", buf, 28) == 7


def test_queue_alloca_dealloca(vm):
    dev = vm("device.get")
    ready = vm("fence.create", dev)
    buf = vm("device.queue.alloca", dev, None, ready, 32)
    _await(vm, ready)
    done = vm("fence.create", dev)
    vm("device.queue.dealloca", dev, ready, done, buf)
    _await(vm, done)
    with pytest.raises(hal.HalError, match="deallocated"):
        vm("buffer.load.i32", buf, 0)


def test_bad_refs_are_clear_errors(vm):
    with pytest.raises(hal.HalError, match="hal.command_buffer.finalize: command buffer must be"):
        vm("command_buffer.finalize", None)
    with pytest.raises(hal.HalError, match="device must be a Device"):
        vm("allocator.allocate", "nope", 4)
    with pytest.raises(hal.HalError, match="offset/length"):
        cb = vm("command_buffer.create", vm("device.get"))
        vm("command_buffer.dispatch", cb, _exe_stub(vm), 0, 1, 1, 1, [], [None], [0])


def _exe_stub(vm):
    return hal.Executable(vm.device, "stub", "x", ["e"])


def test_executable_load_and_dispatch(vm):
    dev = vm("device.get")
    fmt = kernel_format(dev)
    if fmt is None:
        pytest.skip("no C compiler" if not have_cc() and dev.name.startswith("local-") else
                    f"the test kernels have no {'/'.join(dev.supported_formats())} form")
    eps = [EntryPoint(n, 1, 1) for n in ENTRIES]
    exe_def = ExecutableDef("kernels", [
        ExecutableVariant("cuda-ptx", {}, eps, b"not for this device"),
        ExecutableVariant(fmt, {"features": []}, eps, memoryview(kernel_bytes(fmt))),
    ])
    exe = vm("executable.load", dev, exe_def)
    assert vm("executable.load", dev, exe_def) is exe
    out = vm("allocator.allocate", dev, 8 + 6 * 4)
    cb = vm("command_buffer.create", dev)
    vm("command_buffer.dispatch", cb, exe, ENTRIES.index("grid_ids"), 3, 2, 1, [-1 & 0xFFFF],
       [out], [8, 24])
    vm("command_buffer.finalize", cb)
    fence = vm("fence.create", dev)
    vm("device.queue.execute", dev, None, fence, [cb])
    _await(vm, fence)
    assert [vm("buffer.load.i32", out, 8 + 4 * i) for i in range(6)] == \
        [0xFFFF + i for i in range(6)]

    with pytest.raises(hal.HalError, match=rf"carries \['cuda-ptx'\].*takes \['{fmt}"):
        vm("executable.load", dev, ExecutableDef("gpu_only", exe_def.variants[:1]))


def test_state_from_uri_and_missing_device():
    mod = HalModule()
    state = mod.create_state(_Context("local-sync"))
    dev = mod.functions()["device.get"][1](state)
    assert isinstance(dev, hal.Device)
    dev.close()
    with pytest.raises(hal.HalError, match="no HAL device"):
        mod.functions()["device.get"][1](mod.create_state(_Context(None)))
