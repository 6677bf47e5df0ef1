"""Donated arguments (compiler/host/donation.py): a result that updates a
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


STACKED = """
func.func @main(%c0: tensor<3x8x4xf32> {jax.buffer_donor = true}, %x: tensor<1x1x4xf32>, %pos: tensor<i32>) -> (tensor<3x8x4xf32>, tensor<4xf32>) {
  %k0 = stablehlo.constant dense<0> : tensor<i32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %h0 = stablehlo.reshape %x : (tensor<1x1x4xf32>) -> tensor<4xf32>
  LAYERS
  return %c3, %h3 : tensor<3x8x4xf32>, tensor<4xf32>
}
"""
LAYER = """
  %l{l} = stablehlo.constant dense<{l}> : tensor<i32>
  %u{l} = stablehlo.reshape %h{l} : (tensor<4xf32>) -> tensor<1x1x4xf32>
  %t{l} = stablehlo.tanh %u{l} : tensor<1x1x4xf32>
  %c{n} = stablehlo.dynamic_update_slice %c{l}, %t{l}, %l{l}, %pos, %k0 : (tensor<3x8x4xf32>, tensor<1x1x4xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<3x8x4xf32>
  %s{l} = stablehlo.slice %{read} [{l}:{n}, 0:8, 0:4] : (tensor<3x8x4xf32>) -> tensor<1x8x4xf32>
  %r{l} = stablehlo.reduce(%s{l} init: %z) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x8x4xf32>, tensor<f32>) -> tensor<4xf32>
  %h{n} = stablehlo.add %h{l}, %r{l} : tensor<4xf32>
"""


def _stacked(read_old=False):
    layers = "".join(LAYER.format(l=l, n=l + 1, read=f"c{l}" if read_old and l == 1 else f"c{l + 1}")
                     for l in range(3))
    return STACKED.replace("LAYERS", layers)


def _stacked_reference(cache, x, pos):
    cache, h = cache.copy(), x.reshape(4).astype(np.float64)
    for l in range(3):
        cache[l, min(max(pos, 0), 7)] = np.tanh(h)
        h = h + cache[l].sum(0)
    return cache, h


@pytest.mark.parametrize("device", ["local-sync", "local-task"])
def test_a_stacked_cache_updated_per_layer_stays_in_one_buffer(device):
    """Three per-layer updates of one donated cache, each layer reading its
    updated slice before the next update, all write into the argument's
    buffer (each as a window kernel)."""
    m = runtime.load_module(compile_str(_stacked()), device=device)
    assert m.main.args[0]["donated_to"] == 0
    rng = np.random.default_rng(5)
    cache = rng.standard_normal((3, 8, 4)).astype(np.float32)
    want = cache.copy()
    cache = m.main(cache, rng.standard_normal((1, 1, 4)).astype(np.float32), np.int32(0))[0]
    first = _ptr(cache)
    for pos in (3, 9):
        x = rng.standard_normal((1, 1, 4)).astype(np.float32)
        want = np.asarray(cache).copy()
        cache, h = m.main(cache, x, np.int32(pos))
        assert _ptr(cache) == first
        w_cache, w_h = _stacked_reference(want, x, pos)
        np.testing.assert_allclose(np.asarray(cache), w_cache, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(np.asarray(h), w_h, rtol=1e-4, atol=1e-5)


def test_a_chain_whose_old_value_is_read_later_is_not_aliased():
    """Layer 1 reads the cache as it was before its own update, after that
    update: updating in place would change what it reads, so the chain is
    not aliased and the values stay right."""
    m = runtime.load_module(compile_str(_stacked(read_old=True)), device="local-sync")
    assert "donated_to" not in m.main.args[0]
    rng = np.random.default_rng(6)
    cache = rng.standard_normal((3, 8, 4)).astype(np.float32)
    x = rng.standard_normal((1, 1, 4)).astype(np.float32)
    out, h = m.main(cache.copy(), x, np.int32(2))
    c, hh = cache.copy().astype(np.float64), x.reshape(4).astype(np.float64)
    for l in range(3):
        old = c[l].copy()
        c[l, 2] = np.tanh(hh)
        hh = hh + (old if l == 1 else c[l]).sum(0)
    np.testing.assert_allclose(np.asarray(out), c, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(np.asarray(h), hh, rtol=1e-4, atol=1e-5)


INDEPENDENT = """
func.func @main(%c0: tensor<2x8x4xf32> {jax.buffer_donor = true}, %x: tensor<1x1x4xf32>, %w: tensor<1x1x4x3xf32>, %p: tensor<i32>) -> (tensor<2x8x4xf32>, tensor<4xf32>) {
  %k0 = stablehlo.constant dense<0> : tensor<i32>
  %k1 = stablehlo.constant dense<1> : tensor<i32>
  %t = stablehlo.tanh %x : tensor<1x1x4xf32>
  %c1 = stablehlo.dynamic_update_slice %c0, %t, %k0, %p, %k0 : (tensor<2x8x4xf32>, tensor<1x1x4xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x8x4xf32>
  %s = stablehlo.slice %c1 [1:2, 0:8, 0:4] : (tensor<2x8x4xf32>) -> tensor<1x8x4xf32>
  %r = stablehlo.reshape %s : (tensor<1x8x4xf32>) -> tensor<8x4xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %e = stablehlo.reduce(%r init: %z) applies stablehlo.add across dimensions = [0] : (tensor<8x4xf32>, tensor<f32>) -> tensor<4xf32>
  %y = stablehlo.reduce(%w init: %z) applies stablehlo.add across dimensions = [3] : (tensor<1x1x4x3xf32>, tensor<f32>) -> tensor<1x1x4xf32>
  %c2 = stablehlo.dynamic_update_slice %c1, %y, %k1, %p, %k0 : (tensor<2x8x4xf32>, tensor<1x1x4xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x8x4xf32>
  return %c2, %e : tensor<2x8x4xf32>, tensor<4xf32>
}
"""


@pytest.mark.parametrize("device", ["local-sync", "local-task"])
def test_an_update_waits_for_the_readers_of_what_it_overwrites(device):
    """``%e`` reads layer 1 of the cache before the second update writes it;
    nothing else orders the two, so the schedule must."""
    m = runtime.load_module(compile_str(INDEPENDENT), device=device)
    assert m.main.args[0]["donated_to"] == 0
    rng = np.random.default_rng(7)
    for _ in range(3):
        cache = rng.standard_normal((2, 8, 4)).astype(np.float32)
        x = rng.standard_normal((1, 1, 4)).astype(np.float32)
        w = rng.standard_normal((1, 1, 4, 3)).astype(np.float32)
        p = int(rng.integers(8))
        out, e = m.main(cache.copy(), x, w, np.int32(p))
        np.testing.assert_allclose(np.asarray(e), cache[1].sum(0), rtol=1e-5)
        cache[0, p], cache[1, p] = np.tanh(x[0, 0]), w[0, 0].sum(-1)
        np.testing.assert_allclose(np.asarray(out), cache, rtol=1e-6)


def test_the_schedule_puts_an_update_after_the_readers_it_overwrites():
    """In the static schedule the second update's own inputs are ready at
    the reader's level; it still goes one level later."""
    from tensorvm.compiler.mlir.parser import parse_module
    from tensorvm.compiler.passes.base import PassPipeline
    from tensorvm.compiler.passes.memory import plan_function
    from tensorvm.compiler.pipeline import ir_passes
    module = parse_module(INDEPENDENT)
    PassPipeline(ir_passes()).run(module)
    plan = plan_function(module.functions[0])
    level = {id(d): k for k, lv in enumerate(plan.levels) for d in lv}
    ops = [d for d in plan.dispatches]
    names = [[o.name for o in d.regions[0].blocks[0].operations] for d in ops]
    reader = next(d for d, n in zip(ops, names) if "stablehlo.slice" in n)
    second = next(d for d, n in zip(ops, names) if "stablehlo.dynamic_update_slice" in n
                  and d.operands[0].defining_op is not None)
    assert level[id(second)] > level[id(reader)]
    assert plan.storage[second.operands[0]] == plan.storage[second.result]   # one buffer
