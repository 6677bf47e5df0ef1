"""The CPU executable ABI is written twice on purpose — by the compiler that
emits kernels (the C struct) and by the HAL loader that fills it (byte
offsets, no C parser at run time); neither layer may import the other — so
this test proves the two agree: the loader's state, read back through the
compiler's struct declaration, holds what the loader put in."""
import cffi

from tensorvm.compiler.codegen import cpu
from tensorvm.hal.loaders import cpu_c


def test_compiler_and_loader_share_one_dispatch_abi():
    ffi = cffi.FFI()
    ffi.cdef(cpu.ABI)
    assert ffi.sizeof("tvm_dispatch_state_t") == cpu_c.STATE_SIZE
    addrs = cpu_c.ffi.new("uintptr_t[]", [0x1000, 0x2000])
    lens = cpu_c.ffi.new("uint64_t[]", [16, 32])
    consts = cpu_c.ffi.new("uint32_t[]", [7])
    state = cpu_c.new_state(addrs, lens, consts, (3, 4, 5))
    raw = bytes(cpu_c.ffi.buffer(state, cpu_c.STATE_SIZE))
    view = ffi.from_buffer("tvm_dispatch_state_t *", bytearray(raw))
    as_int = lambda p: int(ffi.cast("uintptr_t", p))       # noqa: E731
    assert as_int(view.bindings) == int(cpu_c.ffi.cast("uintptr_t", addrs))
    assert as_int(view.binding_lengths) == int(cpu_c.ffi.cast("uintptr_t", lens))
    assert as_int(view.constants) == int(cpu_c.ffi.cast("uintptr_t", consts))
    assert list(view.workgroup_count) == [3, 4, 5]
    assert cpu_c.state_binding(state, 1) == 0x2000
