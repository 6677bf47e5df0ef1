"""The process-wide cache of verified modules (runtime/vm/cache.py): equal
bytes share one verified BytecodeModule, never a damaged or different one."""
import pytest

import tensorvm.runtime as rt
from tensorvm.runtime.vm.cache import MODULES, ModuleCache
from tensorvm.vmfb.assembler import assemble
from tensorvm.vmfb.container import sha256_hex, write_module
from tensorvm.vmfb.errors import IntegrityError, VerificationError, VmfbError

SOURCE = """
module @cached
global @calls : i32 = 0

func @bump() -> (i32) export {
entry:
  %c = global.load.i32 @calls
  %one = const.i32 1
  %c = add.i32 %c, %one
  global.store.i32 %c, @calls
  ret %c
}
func @bad() -> (i32) export {
entry:
  %c = global.load.i32 @calls
  ret %c
}
"""


@pytest.fixture
def blob():
    MODULES.clear()
    yield write_module(assemble(SOURCE))
    MODULES.clear()


def test_equal_bytes_share_the_verified_module_not_the_state(blob, tmp_path):
    a = rt.load_module(blob, device="local-sync")
    b = rt.load_module(bytes(bytearray(blob)), device="local-sync")    # equal, not the same
    path = tmp_path / "m.vmfb"
    path.write_bytes(blob)
    c = rt.load_module(str(path), device="local-sync")
    assert a.bytecode is b.bytecode is c.bytecode
    assert a.context is not b.context
    assert [a.bump(), a.bump(), b.bump(), c.bump()] == [1, 2, 1, 1]   # globals per context


def test_a_changed_byte_is_a_different_module(blob):
    a = rt.load_module(blob, device="local-sync")
    damaged = bytearray(blob)
    damaged[-1] ^= 0xFF                          # same prefix and length, other payload
    d = rt.load_module(damaged, device="local-sync")   # (payload CRCs: at first read)
    assert d.bytecode is not a.bytecode
    with pytest.raises(VmfbError, match="checksum"):
        d.bad()                                  # the last function's code is damaged
    with pytest.raises(VmfbError, match="checksum"):
        rt.load_module(damaged, device="local-sync", verify="eager")
    assert rt.load_module(blob, device="local-sync").bytecode is a.bytecode


def test_a_buffer_changed_after_load_does_not_change_the_cached_module(blob):
    buf = bytearray(blob)
    a = rt.load_module(buf, device="local-sync")
    buf[-1] ^= 0xFF                              # the cache holds a private copy
    assert rt.load_module(blob, device="local-sync").bytecode is a.bytecode
    assert a.bump() == 1


def test_pinning_is_checked_on_every_load(blob):
    rt.load_module(blob, device="local-sync", expected_sha256=sha256_hex(blob))
    with pytest.raises(IntegrityError, match="digest mismatch"):
        rt.load_module(blob, device="local-sync", expected_sha256="0" * 64)


def test_lazy_verification_failures_repeat_and_eager_still_raises_at_load():
    from tensorvm.vmfb.model import FunctionDef
    MODULES.clear()
    mdef = assemble(SOURCE)
    f = mdef.functions[1]
    mdef.functions[1] = FunctionDef(f.name, f.signature, f.registers, b"\xff" + bytes(f.code),
                                    f.exported, f.reflection)
    hostile = write_module(mdef)                 # well-formed container, bad bytecode
    for _ in range(2):
        m = rt.load_module(hostile, device="local-sync")
        assert m.bump() == 1
        with pytest.raises(VerificationError, match="unknown opcode"):
            m.bad()
    with pytest.raises(VerificationError, match="unknown opcode"):
        rt.load_module(hostile, device="local-sync", verify="eager")
    MODULES.clear()


def test_capacity_bounds_what_is_kept_beyond_live_modules(blob):
    import gc
    cache = ModuleCache(capacity=1)
    other = write_module(assemble(SOURCE.replace("@cached", "@other")))
    first = cache.load(blob)
    second = cache.load(other)                   # evicts blob from the recent list
    assert cache.load(blob) is first             # still alive: held by `first`
    assert cache.load(other) is second           # the recent one
    del first
    gc.collect()                                 # (functions point back at their module)
    assert cache.load(blob).name == "cached"     # neither recent nor alive: read again
    assert (cache.hits, cache.misses) == (2, 3)


def test_big_files_are_mapped_and_not_cached(blob, tmp_path, monkeypatch):
    from tensorvm.runtime.vm import cache
    monkeypatch.setattr(cache, "PRIVATE_LIMIT", len(blob) - 1)
    path = tmp_path / "big.vmfb"
    path.write_bytes(blob)
    a = rt.load_module(str(path), device="local-sync")
    b = rt.load_module(str(path), device="local-sync")
    assert a.bytecode is not b.bytecode                      # read (mapped) each time
    assert a.bytecode.definition.functions[0].code.obj.__class__ is not bytes   # an mmap
    assert [a.bump(), b.bump()] == [1, 1]
    with pytest.raises(IntegrityError):
        rt.load_module(str(path), device="local-sync", expected_sha256="0" * 64)


def test_threads_loading_the_same_bytes_at_once(blob):
    import threading
    results, errors = [], []

    def worker():
        try:
            for _ in range(20):
                m = rt.load_module(blob, device="local-sync")
                results.append((m.bytecode, m.bump()))
        except BaseException as e:      # noqa: BLE001 - reported below
            errors.append(e)
    threads = [threading.Thread(target=worker) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors and len(results) == 120
    assert all(n == 1 for _, n in results)                  # a fresh context every load
    assert len({id(b) for b, _ in results}) <= 6             # (racing first loads may each read)
