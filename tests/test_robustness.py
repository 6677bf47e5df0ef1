"""Bad inputs get typed errors, never crashes: damaged or hostile .vmfb files
at load, and wrong arguments at call time."""
from __future__ import annotations

import random
import subprocess
import sys

import numpy as np
import pytest
from fixtures import load_model
from tvm_testing import compiled

from tensorvm import runtime
from tensorvm.runtime import InvalidArgumentError
from tensorvm.vmfb.errors import VmfbError

MLP = load_model("mlp")[0]


@pytest.fixture(scope="module")
def good() -> bytes:
    return compiled(MLP)


def _load_expecting_vmfb_error(data):
    with pytest.raises(VmfbError):
        runtime.load_module(bytes(data), device="local-sync")


def test_good_module_loads(good):
    m = runtime.load_module(good, device="local-sync")
    assert np.asarray(m.main(np.zeros((8, 64), np.float32))).shape == (8, 10)


@pytest.mark.parametrize("cut", [0, 1, 7, 8, 63, 64, 100, 1000, -1000, -65, -1])
def test_truncated(good, cut):
    _load_expecting_vmfb_error(good[:cut] if cut else b"")


def test_every_flipped_byte_in_a_sample_is_caught_or_harmless(good):
    rng = random.Random(7)
    positions = rng.sample(range(len(good)), 300)
    for pos in positions:
        data = bytearray(good)
        data[pos] ^= 1 << rng.randrange(8)
        try:                 # (a payload's checksum is checked at its first read)
            m = runtime.load_module(bytes(data), device="local-sync")
            out = np.asarray(m.main(np.ones((8, 64), np.float32)))
        except VmfbError:
            continue
        # Only padding is outside every checksum: the module must still work.
        assert out.shape == (8, 10)


def test_random_bytes():
    rng = np.random.default_rng(3)
    for n in (16, 64, 200, 5000):
        _load_expecting_vmfb_error(rng.integers(0, 256, n, dtype=np.uint8).tobytes())


def test_wrong_version(good):
    data = bytearray(good)
    data[8] = 99          # major version (little-endian u16 after the 8-byte magic)
    with pytest.raises(VmfbError, match="version"):
        runtime.load_module(bytes(data), device="local-sync")


def test_not_a_file(tmp_path):
    with pytest.raises((VmfbError, OSError)):
        runtime.load_module(str(tmp_path / "missing.vmfb"), device="local-sync")


def test_hostile_module_does_not_crash_the_process(good, tmp_path):
    """A child process loads hundreds of mutated modules: it must exit
    cleanly (a crash would kill it with a signal)."""
    path = tmp_path / "good.vmfb"
    path.write_bytes(good)
    code = f"""
import random, numpy as np
from tensorvm import runtime
from tensorvm.vmfb.errors import VmfbError
good = open({str(path)!r}, 'rb').read()
rng = random.Random(11)
for i in range(200):
    data = bytearray(good)
    for _ in range(rng.randrange(1, 8)):
        data[rng.randrange(len(data))] = rng.randrange(256)
    try:
        m = runtime.load_module(bytes(data), device='local-sync')
        m.main(np.ones((8, 64), np.float32))
    except VmfbError:
        pass
print('ok')
"""
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip() == "ok"


# -- argument checking --------------------------------------------------------------
@pytest.fixture(scope="module")
def mlp(good):
    return runtime.load_module(good, device="local-sync")


def test_wrong_argument_count(mlp):
    with pytest.raises(InvalidArgumentError, match="1 argument"):
        mlp.main()


def test_wrong_shape_names_argument_expected_and_actual(mlp):
    with pytest.raises(InvalidArgumentError) as e:
        mlp.main(np.zeros((8, 63), np.float32))
    msg = str(e.value)
    assert "arg0" in msg and "8x64xf32" in msg and "8x63xf32" in msg


def test_wrong_dtype_names_argument_expected_and_actual(mlp):
    with pytest.raises(InvalidArgumentError) as e:
        mlp.main(np.zeros((8, 64), np.float64))
    msg = str(e.value)
    assert "arg0" in msg and "f32" in msg and "f64" in msg


# -- dispatch operands against the entry points' declared layouts -----------------------
_MUTANT_CHILD = """
import sys, numpy as np
from tensorvm import runtime
from tensorvm.hal import HalError
for path in sys.argv[1:]:
    m = runtime.load_module(open(path, 'rb').read(), device='local-sync')
    try:
        m.main(*[np.ones(a.shape, a.dtype) for a in np.load(path + '.npz').values()])
        print(path, 'RAN')
    except HalError as e:
        print(path, 'HalError', str(e).replace(chr(10), ' '))
"""


_MUTANT_ERRORS = {
    "drop_binding": "dispatch of executable 'kernels' entry point '.*it declares",
    "extra_binding": "dispatch of executable 'kernels' entry point '.*it declares",
    "extra_constant": "dispatch of executable 'kernels' entry point '.*it declares",
    "drop_constant": "dispatch of executable 'kernels' entry point '.*it declares",
    "entry_swap": "dispatch of executable 'kernels' entry point '.*(it declares|binding \\d+ has)",
    "entry_out_of_range": "entry ordinal .* is out of range",
    "long_range": "binding table slot .* the command buffer uses|binding \\d+ has",
    "huge_workgroups": "entry point '.*': 2147483647 workgroups, it declares at most",
}


@pytest.mark.parametrize("model", ["add4", "mlp", "cnn_conv", "outer"])
def test_mutated_dispatch_operands_raise_hal_errors_not_sigsegv(model, tmp_path):
    """Bytecode whose dispatches pass too few / too many bindings or push
    constants, another entry point's ordinal, an overlong range or a huge
    grid (static kernels trust theirs), with every
    checksum valid: each gets a HalError naming what is wrong (dropped or
    added bindings and swapped entries crashed with SIGSEGV before the HAL
    checked dispatches against the declared entry layouts).  The mutants run
    in a child process so a crash fails this test."""
    import re
    from dispatch_mutants import mutate_dispatches
    if model == "outer":           # dynamic shapes: dispatches with push constants
        text, inputs = OUTER, [np.ones((3, 1), np.float32), np.ones((1, 2), np.float32)]
    else:
        text, inputs, _ = load_model(model)
    good = compiled(text)
    paths = {}
    for kind in _MUTANT_ERRORS:
        if model == "outer" and kind == "huge_workgroups":
            continue               # a dynamic grid: no declared bound (its kernel checks dims)
        data = mutate_dispatches(good, kind)
        if data is None:
            continue
        path = tmp_path / f"{kind}.vmfb"
        path.write_bytes(data)
        np.savez(str(path) + ".npz", *inputs)
        paths[str(path)] = kind
    assert len(paths) >= 4
    proc = subprocess.run([sys.executable, "-c", _MUTANT_CHILD, *paths], capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    lines = proc.stdout.splitlines()
    assert len(lines) == len(paths), proc.stdout
    for line in lines:
        path, _, rest = line.partition(" ")
        assert rest.startswith("HalError ") and re.search(_MUTANT_ERRORS[paths[path]], rest), line


# -- bounded allocations -----------------------------------------------------------------
OUTER = """
func.func @main(%a: tensor<?x1xf32>, %b: tensor<1x?xf32>) -> tensor<?x?xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<?x1xf32>, tensor<1x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
"""


def test_huge_dynamic_result_is_a_hal_error_before_allocating():
    """Dynamic dims of 10^5 x 10^5 ask for a 40 GB result: the allocator's
    limit (default: physical memory) refuses it at once, naming size and
    limit, instead of numpy's MemoryError or a real multi-GB allocation."""
    from tensorvm import hal
    dev = hal.create_device("local-sync")
    m = runtime.load_module(compiled(OUTER), device=dev)
    a, b = np.ones((10 ** 5, 1), np.float32), np.ones((1, 10 ** 5), np.float32)
    if 4 * 10 ** 10 <= dev.max_allocation_bytes:
        dev.max_allocation_bytes = 1 << 30
    with pytest.raises(hal.HalError, match=r"allocation of 40000000000 bytes \(37.3 GiB\) "
                                           r"exceeds the limit of \d+ bytes"):
        m.main(a, b)
    dev.max_allocation_bytes = 1 << 20                  # configurable per device
    with pytest.raises(hal.HalError, match="4000000 bytes .* limit of 1048576 bytes"):
        m.main(a[:1000], b[:, :1000])
    dev.max_allocation_bytes = None
    out = np.asarray(m.main(a[:3], 2 * b[:, :2]))
    np.testing.assert_array_equal(out, np.full((3, 2), 2, np.float32))
