"""A constant over 2 GiB compiles, streams to disk, loads without reading it
and runs with offsets past 2**31 (issue 34).  Needs ~6 GB of disk and peaks
at ~7.5 GB RSS, mostly pages of the mapped files (23 s on 2 cores): runs only
with TENSORVM_BIG_TESTS=1."""
from __future__ import annotations

import os
import struct
import time

import msgpack
import numpy as np
import pytest

pytestmark = [pytest.mark.slow, pytest.mark.skipif(
    not os.environ.get("TENSORVM_BIG_TESTS"),
    reason="writes a 2.5 GB module; set TENSORVM_BIG_TESTS=1 to run it")]

N = 630_000_000                          # f32 elements: 2.52 GB, one constant
MARKS = (0, 1 << 29, (1 << 29) + 5, N // 2 + 3, N - 16)   # (1 << 29) * 4 = 2 GiB
TEXT = f"""func.func @main(%i: tensor<i64>) -> tensor<16xf32> {{
  %c = stablehlo.constant dense<0.0> : tensor<{N}xf32>
  %r = stablehlo.dynamic_slice %c, %i, sizes = [16] : (tensor<{N}xf32>, tensor<i64>) -> tensor<16xf32>
  return %r : tensor<16xf32>
}}"""


def _weights(path) -> np.ndarray:
    """A sparse file of N f32 zeros with element k = k around each mark."""
    with open(path, "wb") as f:
        f.truncate(4 * N)
    w = np.memmap(path, np.float32, "r+", shape=(N,))
    for k in MARKS:
        w[k:k + 16] = np.arange(k, k + 16, dtype=np.float32)
    w.flush()
    return np.memmap(path, np.float32, "r", shape=(N,))


def test_a_constant_over_2_gib_compiles_loads_and_runs(tmp_path):
    from tensorvm import runtime
    from tensorvm.compiler.api import CompileOptions, compile_module
    from tensorvm.compiler.mlir.parser import parse_module
    from tensorvm.compiler.ir.attributes import DenseElementsAttr
    from tensorvm.vmfb.errors import VmfbError

    module = parse_module(TEXT)          # the splat stands in for the weights' type
    (const,) = [op for op in module.walk() if op.name == "stablehlo.constant"]
    const.attributes["value"] = DenseElementsAttr(const.attributes["value"].type,
                                                  _weights(tmp_path / "w.bin"))
    path = tmp_path / "big.vmfb"
    compile_module(module, CompileOptions(targets=["cpu"]), output=path)
    del module, const
    assert os.path.getsize(path) > 4 * N > 1 << 31

    t0 = time.perf_counter()
    m = runtime.load_module(str(path), device="local-task")
    load_s = time.perf_counter() - t0
    (check,) = [r.check for r in m.bytecode.definition.rodata if len(r.check.data) >= 4 * N]
    assert check.unchecked_chunks == -(-4 * N // check.chunk_size)   # none read at load
    assert load_s < 2.0, f"load took {load_s:.2f} s"
    for k in MARKS:
        got = np.asarray(m.main(np.array(k, np.int64)))
        np.testing.assert_array_equal(got, np.arange(k, k + 16, dtype=np.float32))
    assert check.complete
    del m, check

    # One damaged byte past 2 GiB: loads, then fails its first use, by name.
    with open(path, "r+b") as f:
        head = f.read(64)
        h_len = struct.unpack_from("<Q", head, 32)[0]
        sections = msgpack.unpackb(f.read(h_len))["sections"]
        (sec,) = [s for s in sections if s["length"] >= 4 * N]
        f.seek(sec["offset"] + 4 * (N - 8))
        byte = f.read(1)
        f.seek(-1, os.SEEK_CUR)
        f.write(bytes([byte[0] ^ 1]))
    m = runtime.load_module(str(path), device="local-task")
    with pytest.raises(VmfbError, match=r"rodata\) checksum mismatch in bytes"):
        m.main(np.array(0, np.int64))
