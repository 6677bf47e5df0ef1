"""A splat constant broadcast to a dynamic shape is recomputed by each of
its readers, not materialized: its shape operand is read on the host
(passes/recompute_costs.cheap).  JAX's tanh-GELU under a symbolic batch
broadcasts four constants so, each shared by every layer after CSE: they
were four fill dispatches and four extra full-size reads per layer."""
from __future__ import annotations

import numpy as np

from tensorvm import runtime
from tvm_testing import compiled

TEXT = """
func.func @main(%x: tensor<?x8xf32>) -> (tensor<?x8xf32>, tensor<?x8xf32>) {
  %c = stablehlo.constant dense<0.5> : tensor<f32>
  %d = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x8xf32>) -> tensor<i32>
  %d1 = stablehlo.reshape %d : (tensor<i32>) -> tensor<1xi32>
  %e = stablehlo.constant dense<8> : tensor<1xi32>
  %s = stablehlo.concatenate %d1, %e, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %b = stablehlo.dynamic_broadcast_in_dim %c, %s, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x8xf32>
  %m = stablehlo.multiply %x, %b : tensor<?x8xf32>
  %t = stablehlo.tanh %x : tensor<?x8xf32>
  %n = stablehlo.add %t, %b : tensor<?x8xf32>
  return %m, %n : tensor<?x8xf32>, tensor<?x8xf32>
}"""


def test_dynamic_splat_with_two_readers_is_not_materialized():
    from tensorvm.vmfb import container
    vm = compiled(TEXT)
    (exe,) = container.read_module(vm).executables
    names = [ep.name for ep in exe.variants[0].entry_points]
    assert not any("broadcast" in n for n in names), names
    x = np.random.default_rng(0).standard_normal((5, 8)).astype(np.float32)
    m, n = runtime.load_module(vm, device="local-sync").main(x)
    np.testing.assert_array_equal(np.asarray(m), x * np.float32(0.5))
    np.testing.assert_allclose(np.asarray(n), np.tanh(x) + np.float32(0.5), rtol=1e-6, atol=1e-6)
