"""Regenerate the sharded JAX programs of tests/runtime/test_sharded.py.

    XLA_FLAGS=--xla_force_host_platform_device_count=4 python tests/models/sharded/export.py

Each case is ``<name>.mlir`` (``jax.export`` of a jitted function over a
device mesh: Shardy ``sdy.manual_computation`` for shard_map, ``sdy.sharding``
argument attributes for jit with in/out shardings) and ``<name>.npz`` (the
arguments ``arg0..`` and JAX's result ``out``).  Weights are random (seeded).
"""
from __future__ import annotations

import pathlib

import jax
import jax.numpy as jnp
import numpy as np
from jax import shard_map
from jax.sharding import Mesh, NamedSharding
from jax.sharding import PartitionSpec as P

HERE = pathlib.Path(__file__).resolve().parent
rng = np.random.default_rng(0)


def rand(*shape):
    return (rng.standard_normal(shape) * 0.5).astype(np.float32)


def save(name, fn, *args):
    jitted = jax.jit(fn)
    (HERE / f"{name}.mlir").write_text(jax.export.export(jitted)(*args).mlir_module())
    np.savez(HERE / f"{name}.npz", *args, out=np.asarray(jitted(*args)))


def block(x, wq, wk, wv, wo, w1, w2, heads):
    """A pre-norm transformer block on [batch, seq, dim] (heads of this shard)."""
    def norm(h):
        m = h.mean(-1, keepdims=True)
        return (h - m) / jnp.sqrt(((h - m) ** 2).mean(-1, keepdims=True) + 1e-5)
    b, s, _ = x.shape
    h = norm(x)
    q, k, v = (jnp.einsum("bsd,de->bse", h, w).reshape(b, s, heads, -1) for w in (wq, wk, wv))
    att = jax.nn.softmax(jnp.einsum("bqhe,bkhe->bhqk", q, k) / np.sqrt(q.shape[-1]), -1)
    o = jnp.einsum("bhqk,bkhe->bqhe", att, v).reshape(b, s, -1)
    return jnp.einsum("bse,ed->bsd", o, wo), jax.nn.gelu(norm(x) @ w1) @ w2


def main():
    mesh2 = Mesh(np.array(jax.devices()[:2]), ("x",))
    mesh4 = Mesh(np.array(jax.devices()[:4]).reshape(2, 2), ("x", "y"))
    a, w = rand(8, 4), rand(4, 3)
    save("psum", shard_map(lambda a, w: jax.lax.psum(jnp.tanh(a @ w), "x"), mesh=mesh2,
                           in_specs=(P("x", None), P()), out_specs=P()), a, w)
    save("all_gather", shard_map(lambda a, w: jax.lax.all_gather(jnp.tanh(a @ w), "x", tiled=True),
                                 mesh=mesh2, in_specs=(P("x", None), P()), out_specs=P(),
                                 check_vma=False), a, w)
    save("tensor_parallel_2x2", shard_map(lambda a, w: jax.lax.psum(a @ w, "y"), mesh=mesh4,
                                          in_specs=(P("x", "y"), P("y", None)),
                                          out_specs=P("x", None)), a, w)
    save("jit_sharded_args", jax.jit(lambda a, w: jnp.tanh(a @ w).sum(0),
                                     in_shardings=(NamedSharding(mesh2, P("x", None)),
                                                   NamedSharding(mesh2, P())),
                                     out_shardings=NamedSharding(mesh2, P())), a, w)
    d, heads, ff = 16, 4, 32
    x = rand(4, 6, d)
    ws = [rand(d, d) for _ in range(4)] + [rand(d, ff), rand(ff, d)]

    def full(x, *ws):
        attn, mlp = block(x, *ws, heads=heads)
        return x + attn + mlp

    def data_parallel(x, *ws):          # batch split over "x", weights replicated
        return full(x, *ws)

    def tensor_parallel(x, wq, wk, wv, wo, w1, w2):   # heads and ff split over "x"
        attn, mlp = block(x, wq, wk, wv, wo, w1, w2, heads=heads // 2)
        return x + jax.lax.psum(attn + mlp, "x")

    save("block_data_parallel", shard_map(data_parallel, mesh=mesh2,
                                          in_specs=(P("x"),) + (P(),) * 6, out_specs=P("x")),
         x, *ws)
    col, row = P(None, "x"), P("x", None)
    save("block_tensor_parallel", shard_map(tensor_parallel, mesh=mesh2,
                                            in_specs=(P(), col, col, col, row, col, row),
                                            out_specs=P()), x, *ws)
    np.testing.assert_allclose(np.load(HERE / "block_tensor_parallel.npz")["out"],
                               np.asarray(jax.jit(full)(x, *ws)), rtol=1e-4, atol=1e-4)


if __name__ == "__main__":
    main()
