"""Functions whose commands depend only on their arguments' dims record
their command buffer once per dims and replay it: dynamic-shape functions
and (since their loops became one native dispatch each) functions whose
while loops run as native loops, which before recorded on every call."""
from __future__ import annotations

import pathlib
import sys

import numpy as np
import pytest

from tensorvm import runtime
from tensorvm.hal.device import Device
from tvm_testing import compiled

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "compiler"))
import test_native_loops  # noqa: E402  (its RNN program)

DYN = """
func.func @main(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %0 = stablehlo.exponential %x : tensor<?x4xf32>
  %1 = stablehlo.add %0, %x : tensor<?x4xf32>
  return %1 : tensor<?x4xf32>
}
"""


@pytest.fixture
def recordings(monkeypatch):
    count = [0]
    create = Device.create_command_buffer

    def counting(self, *a, **k):
        count[0] += 1
        return create(self, *a, **k)
    monkeypatch.setattr(Device, "create_command_buffer", counting)
    return count


def test_dynamic_function_records_once_per_dims(recordings):
    m = runtime.load_module(compiled(DYN), device="local-sync")
    for rows in (3, 3, 3, 5, 5):
        x = np.arange(rows * 4, dtype=np.float32).reshape(rows, 4) / 10
        np.testing.assert_allclose(np.asarray(m.main(x)), np.exp(x) + x, rtol=1e-6)
    assert recordings[0] == 2          # one per distinct row count, replayed after


def test_native_loop_function_records_once(recordings):
    m = runtime.load_module(compiled(test_native_loops.RNN), device="local-sync")
    rng = np.random.default_rng(0)
    x, w, h = (rng.standard_normal(s).astype(np.float32) for s in ((5, 2, 3), (3, 3), (2, 3)))
    first = [np.asarray(r) for r in m.main(x, w, h)]
    for _ in range(3):
        for a, b in zip(first, m.main(x, w, h)):
            np.testing.assert_array_equal(a, np.asarray(b))
    h2 = h + 1
    ref = h2
    for t in range(5):
        ref = np.tanh(x[t] @ w + ref)
    np.testing.assert_allclose(np.asarray(m.main(x, w, h2)[0]), ref, rtol=1e-5, atol=1e-6)
    assert recordings[0] == 1
