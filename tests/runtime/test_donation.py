"""Donated arguments (compiler/codegen/donation.py): a result that updates a
donated argument in place takes over its buffer; the runtime invalidates the
DeviceArray it was given and never writes a caller's host array."""
from __future__ import annotations

import numpy as np
import pytest

from tensorvm import runtime
from tensorvm.compiler import compile_str
from tensorvm.runtime import DonatedArrayError

STEP = """
func.func @main(%cache: tensor<8x4xf32> ATTR, %row: tensor<1x4xf32>, %pos: tensor<i32>) -> (tensor<8x4xf32>, tensor<4xf32>) {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %u = stablehlo.tanh %row : tensor<1x4xf32>
  %n = stablehlo.dynamic_update_slice %cache, %u, %pos, %c0 : (tensor<8x4xf32>, tensor<1x4xf32>, tensor<i32>, tensor<i32>) -> tensor<8x4xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(READ init: %z) applies stablehlo.add across dimensions = [0] : (tensor<8x4xf32>, tensor<f32>) -> tensor<4xf32>
  return %n, %s : tensor<8x4xf32>, tensor<4xf32>
}
"""
ATTRS = {"tf": "{tf.aliasing_output = 0 : i32}", "jax": "{jax.buffer_donor = true}"}


def _module(attr="jax", read="%n", device="local-sync"):
    text = STEP.replace("ATTR", ATTRS[attr]).replace("READ", read)
    return runtime.load_module(compile_str(text), device=device)


def _rows(k):
    return np.random.default_rng(k).standard_normal((1, 4)).astype(np.float32)


def _ptr(a) -> int:
    return np.asarray(a).ctypes.data


@pytest.mark.parametrize("attr", ["tf", "jax"])
@pytest.mark.parametrize("device", ["local-sync", "local-task"])
def test_cache_stays_in_one_buffer_across_calls(attr, device):
    m = _module(attr, device=device)
    assert m.main.args[0]["donated_to"] == 0
    host = np.zeros((8, 4), np.float32)
    want = host.copy()
    cache, s = m.main(host, _rows(0), np.int32(0))
    want[0] = np.tanh(_rows(0)[0])
    np.testing.assert_array_equal(host, 0)           # the caller's array is never written
    first = _ptr(cache)
    for pos in range(1, 8):
        cache, s = m.main(cache, _rows(pos), np.int32(pos))
        want[pos] = np.tanh(_rows(pos)[0])
        assert _ptr(cache) == first                   # updated in place, no new buffer
    np.testing.assert_allclose(np.asarray(cache), want, rtol=1e-6)
    np.testing.assert_allclose(np.asarray(s), want.sum(0), rtol=1e-5)


def test_a_donated_array_raises_when_used_again():
    m = _module()
    cache, _ = m.main(np.zeros((8, 4), np.float32), _rows(0), np.int32(0))
    new, _ = m.main(cache, _rows(1), np.int32(1))
    with pytest.raises(DonatedArrayError, match="donated to main"):
        np.asarray(cache)
    with pytest.raises(DonatedArrayError):
        m.main(cache, _rows(2), np.int32(2))
    assert np.asarray(new)[1].tolist() == pytest.approx(np.tanh(_rows(1)[0]).tolist())


def test_a_donation_the_program_cannot_use_is_ignored():
    """The old cache is read after the update: the result needs its own buffer."""
    m = _module(read="%cache")
    assert "donated_to" not in m.main.args[0]
    cache, _ = m.main(np.zeros((8, 4), np.float32), _rows(0), np.int32(0))
    new, s = m.main(cache, _rows(1), np.int32(1))
    np.testing.assert_allclose(np.asarray(s), np.asarray(cache).sum(0), rtol=1e-6)
    assert _ptr(new) != _ptr(cache)


KV = """
func.func @main(%cache: tensor<2x16x8xf32> {jax.buffer_donor = true}, %k: tensor<2x3x8xf32>, %pos: tensor<i64>) -> tensor<2x16x8xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i64>
  %two = stablehlo.constant dense<2.0> : tensor<2x3x8xf32>
  %u = stablehlo.multiply %k, %two : tensor<2x3x8xf32>
  %n = stablehlo.dynamic_update_slice %cache, %u, %c0, %pos, %c0 : (tensor<2x16x8xf32>, tensor<2x3x8xf32>, tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<2x16x8xf32>
  return %n : tensor<2x16x8xf32>
}
"""


@pytest.mark.parametrize("device", ["local-sync", "local-task", "opencl"])
def test_an_in_place_update_writes_its_window_only(device):
    """The donated dispatch launches one workgroup per row of the update
    window (2 x 3 rows of 8), not a pass over the whole 2 x 16 x 8 cache,
    and clamps its start as dynamic_update_slice does."""
    from tensorvm import hal
    from tensorvm.hal import command_buffer
    missing = hal.registry.driver_availability(device)
    if missing is not None:
        pytest.skip(f"{device} unavailable: {missing}")
    targets = ["cpu", "opencl"] if device == "opencl" else ["cpu"]
    m = runtime.load_module(compile_str(KV, targets=targets), device=device)
    seen = []
    original = command_buffer.CommandBuffer.dispatch

    def dispatch(self, executable, entry, workgroups, *args, **kwargs):
        seen.append(tuple(workgroups))
        return original(self, executable, entry, workgroups, *args, **kwargs)
    rng = np.random.default_rng(3)
    want = rng.standard_normal((2, 16, 8)).astype(np.float32)
    cache = want.copy()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(command_buffer.CommandBuffer, "dispatch", dispatch)
        for pos in (0, 5, 14, -3):                  # 14 and -3 clamp to 13 and 0
            k = rng.standard_normal((2, 3, 8)).astype(np.float32)
            cache = m.main(cache, k, np.int64(pos))
            at = min(max(pos, 0), 13)
            want[:, at:at + 3] = 2 * k
            np.testing.assert_array_equal(np.asarray(cache), want)
    assert seen and all(w[0] == 6 for w in seen), seen
