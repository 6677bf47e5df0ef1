"""A load checks no constant byte: compiled weights are checked chunk by chunk
when a kernel first binds them (verify="lazy"), all at load with
verify="eager", or not at all under a pinned digest (docs/security.md)."""
from __future__ import annotations

import hashlib
import struct

import msgpack
import numpy as np
import pytest

from tensorvm import runtime
from tensorvm.compiler import compile_str
from tensorvm.runtime.vm.cache import MODULES
from tensorvm.vmfb.chunks import CHUNK_BYTES
from tensorvm.vmfb.errors import IntegrityError, VmfbError

N = 3 * CHUNK_BYTES // 4 + 64            # f32 elements: four chunks, the last one short
W = np.arange(N, dtype=np.float32)


@pytest.fixture(scope="module")
def blob():
    text = f"""func.func @main(%x: tensor<{N}xf32>) -> tensor<{N}xf32> {{
  %w = stablehlo.constant dense<"0x{W.tobytes().hex()}"> : tensor<{N}xf32>
  %r = stablehlo.add %x, %w : tensor<{N}xf32>
  return %r : tensor<{N}xf32>
}}"""
    return compile_str(text, targets=["cpu"])


@pytest.fixture(autouse=True)
def fresh_modules():
    """Each test reads its bytes anew (the process's module cache would hand
    back a module whose chunks an earlier test checked)."""
    MODULES.clear()


def _weights_section(blob) -> dict:
    h = msgpack.unpackb(blob[64:64 + struct.unpack_from("<Q", blob, 32)[0]])
    (sec,) = [s for s in h["sections"] if s["kind"] == "rodata" and s["length"] >= W.nbytes]
    return sec


def _weights_check(module):
    (r,) = [r for r in module.bytecode.definition.rodata if len(r.check.data) >= W.nbytes]
    return r.check


def _damaged(blob, chunk: int) -> bytes:
    bad = bytearray(blob)
    bad[_weights_section(blob)["offset"] + chunk * CHUNK_BYTES + 5] ^= 0x08
    return bytes(bad)


def test_a_load_checks_no_constant_byte(blob):
    m = runtime.load_module(blob, device="local-sync")
    check = _weights_check(m)
    assert check.unchecked_chunks == 4          # the load checked none
    x = np.ones(N, np.float32)
    np.testing.assert_array_equal(np.asarray(m.main(x)), W + 1)
    assert check.complete                       # the kernel bound all of it


def test_a_damaged_chunk_raises_at_its_first_use(blob):
    bad = _damaged(blob, 2)
    m = runtime.load_module(bad, device="local-sync")
    x = np.ones(N, np.float32)
    for _ in range(2):
        with pytest.raises(VmfbError, match=rf"section \d+ \(rodata\) checksum mismatch in bytes "
                                            rf"\[{2 * CHUNK_BYTES}, {3 * CHUNK_BYTES}\)"):
            m.main(x)
    with pytest.raises(VmfbError, match="checksum mismatch in bytes"):
        runtime.load_module(bad, device="local-task", verify="eager")


def test_eager_checks_every_chunk_at_load(blob):
    m = runtime.load_module(bytes(bytearray(blob)), device="local-sync", verify="eager")
    assert _weights_check(m).complete


def test_a_pinned_digest_stands_for_the_checksums(blob):
    bad = _damaged(blob, 1)
    with pytest.raises(IntegrityError):
        runtime.load_module(bad, device="local-sync",
                            expected_sha256=hashlib.sha256(blob).hexdigest())
    # The operator pinned these very bytes: no CRC is checked after the digest.
    m = runtime.load_module(bad, device="local-sync",
                            expected_sha256=hashlib.sha256(bad).hexdigest())
    got = np.asarray(m.main(np.zeros(N, np.float32)))
    assert got.tobytes() != W.tobytes() and got[:CHUNK_BYTES // 4].tobytes() == \
        W[:CHUNK_BYTES // 4].tobytes()
