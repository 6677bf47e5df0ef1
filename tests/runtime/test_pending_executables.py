"""Executables picked at load, loaded into the device at their first dispatch
(runtime/modules/hal.py PendingExecutable); verify="eager" loads them at once."""
import numpy as np
import pytest

import tensorvm.runtime as rt
from tensorvm import hal
from tensorvm.compiler import compile_str
from tensorvm.runtime.modules.hal import HalState, PendingExecutable
from tensorvm.vmfb.container import read_module

ADD = """
func.func @main(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.add %a, %b : tensor<8xf32>
  %1 = stablehlo.multiply %0, %b : tensor<8xf32>
  return %1 : tensor<8xf32>
}
"""


@pytest.fixture(scope="module")
def vmfb():
    return compile_str(ADD, targets=["cpu"])


def _hal_state(module) -> HalState:
    return next(s for _, s in module.context._modules if isinstance(s, HalState))


def _damaged(vmfb):
    bad = read_module(vmfb)
    for e in bad.executables:
        for v in e.variants:
            v.data = b"\x7fELF" + bytes(60) + b"not a shared object"
    return bad


def test_loaded_at_first_dispatch_then_kept():
    device = hal.create_device("local-sync")
    m = rt.load_module(compile_str(ADD, targets=["cpu"]), device)
    (exe,) = _hal_state(m).loaded()
    assert isinstance(exe, PendingExecutable) and exe._exe is None
    # the variant is known before any code is loaded
    assert m.executables[0]["format"] == exe.format and m.executables[0]["variant"] == 0
    a, b = np.arange(8, dtype=np.float32), np.full(8, 2, np.float32)
    np.testing.assert_array_equal(np.asarray(m.main(a, b)), (a + b) * b)
    loaded = exe._exe
    assert isinstance(loaded, hal.Executable) and loaded.variant == 0
    m.main(a, b)
    assert exe._exe is loaded            # once
    device.close()


def test_eager_loads_every_executable_at_load(vmfb):
    m = rt.load_module(vmfb, "local-sync", verify="eager")
    (exe,) = _hal_state(m).loaded()
    assert isinstance(exe, hal.Executable)


def test_damaged_kernel_fails_at_first_call_or_at_eager_load(vmfb):
    bad = _damaged(vmfb)
    m = rt.load_module(bad, "local-sync")               # lazy: the load itself succeeds
    a = np.ones(8, np.float32)
    for _ in range(2):                                  # and every call raises, typed
        with pytest.raises(hal.HalError, match="rejected at load|not a loadable"):
            m.main(a, a)
    with pytest.raises(hal.HalError, match="rejected at load|not a loadable"):
        rt.load_module(bad, "local-sync", verify="eager")


def test_module_the_device_cannot_run_still_fails_at_load(vmfb):
    other = read_module(vmfb)
    for e in other.executables:
        for v in e.variants:
            v.format = "cpu-c-sparc"
    with pytest.raises(hal.NoVariantError, match="no variant this device can run"):
        rt.load_module(other, "local-sync")


def test_damaged_entry_points_fail_the_dispatch_not_the_load(vmfb):
    """A lazy load reads no entry points (1.2 headers pack them per variant);
    the first dispatch decodes them, and a defect there is a VmfbError at
    every call that needs the executable, and at an eager load."""
    import struct
    import zlib

    import msgpack
    from tensorvm.vmfb import container
    from tensorvm.vmfb.errors import VmfbError
    raw = bytearray(vmfb)
    _, _, _, h_off, h_len, _ = container.read_prefix(memoryview(vmfb))
    hdr = msgpack.unpackb(bytes(raw[h_off:h_off + h_len]))
    v = hdr["executables"][0]["variants"][0]
    good = v["entry_points_packed"]
    bad = msgpack.packb([{"name": 7}])
    v["entry_points_packed"] = bad + b"\xc0" * (len(good) - len(bad))   # same length
    new_hdr = msgpack.packb(hdr, use_bin_type=True)
    assert len(new_hdr) == h_len                    # so the sections stay where they are
    raw[h_off:h_off + h_len] = new_hdr
    struct.pack_into("<I", raw, 40, zlib.crc32(new_hdr))
    struct.pack_into("<I", raw, 60, zlib.crc32(bytes(raw[:60])))
    damaged = bytes(raw)
    m = rt.load_module(damaged, "local-sync")
    a = np.ones(8, np.float32)
    for _ in range(2):
        with pytest.raises(VmfbError, match=r"entry_points_packed"):
            m.main(a, a)
    with pytest.raises(VmfbError, match=r"entry_points_packed"):
        rt.load_module(damaged, "local-sync", verify="eager")
