"""Regenerate the sharded JAX programs of tests/runtime/test_sharded.py.

    XLA_FLAGS=--xla_force_host_platform_device_count=4 python tests/models/sharded/export.py

Each case is ``<name>.mlir`` (``jax.export`` of a jitted function over a
device mesh: Shardy ``sdy.manual_computation`` for shard_map, ``sdy.sharding``
argument attributes for jit with in/out shardings) and ``<name>.npz`` (the
arguments ``arg0..`` and JAX's result ``out``).  Weights are random (seeded).
"""
from __future__ import annotations

import json
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


def save(name, fn, *args, shardings=None):
    """``shardings``: for a jit over a mesh, ``(mesh, in_specs, out_spec)``; the npz then
    holds ``shardings`` (JSON: mesh axes, per argument and for the result the axes of each
    dimension) so the tests can hand each partition its shards."""
    jitted = jax.jit(fn)
    (HERE / f"{name}.mlir").write_text(jax.export.export(jitted)(*args).mlir_module())
    extra = {}
    if shardings is not None:
        mesh, ins, out = shardings

        def dims(spec, rank):
            spec = tuple(spec) + (None,) * (rank - len(spec))
            return [[] if d is None else [d] if isinstance(d, str) else list(d) for d in spec]
        result = jitted(*args)
        extra["shardings"] = np.array(json.dumps({
            "mesh": [[a, int(n)] for a, n in mesh.shape.items()],
            "in": [dims(sp, np.ndim(a)) for sp, a in zip(ins, args)],
            "out": dims(out, np.ndim(result))}))
    np.savez(HERE / f"{name}.npz", *args, out=np.asarray(jitted(*args)), **extra)


def save_jit(name, fn, mesh, ins, out, *args):
    """A ``jax.jit`` with in/out shardings over ``mesh`` (PartitionSpecs)."""
    jitted = jax.jit(fn, in_shardings=tuple(NamedSharding(mesh, sp) for sp in ins),
                     out_shardings=NamedSharding(mesh, out))
    save(name, jitted, *args, shardings=(mesh, ins, out))


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
    save_jit("jit_sharded_args", lambda a, w: jnp.tanh(a @ w).sum(0), mesh2,
             (P("x", None), P()), P(), a, w)
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

    # jax.jit with in/out shardings (no shard_map): the partition-spmd pass partitions them
    def mlp(x, w1, b1, w2):
        return jnp.tanh(x @ w1 + b1) @ w2
    x, w1, b1, w2 = rand(8, 16), rand(16, 32), rand(32), rand(32, 4)
    save_jit("jit_mlp_data_parallel", mlp, mesh2, (P("x"), P(), P(), P()), P("x"), x, w1, b1, w2)
    save_jit("jit_matmul_contracting", lambda a, w: a @ w, mesh2, (P(None, "x"), P("x", None)),
             P(), rand(8, 16), rand(16, 6))
    save_jit("jit_reduce_sharded", lambda x: jnp.exp(x).sum(0) + x.max(0) + x.mean(1).sum(),
             mesh2, (P("x", None),), P(), rand(8, 6))
    mesh4x = Mesh(np.array(jax.devices()[:4]), ("x",))
    save_jit("jit_mlp_data_parallel_4", mlp, mesh4x, (P("x"), P(), P(), P()), P("x"),
             x, w1, b1, w2)
    save_jit("jit_mlp_2x2", mlp, mesh4, (P("x"), P(None, "y"), P("y"), P("y", None)),
             P("x", None), x, w1, b1, w2)
    # a contracting-dim-split dot whose result is wanted split: reduce_scatter
    save_jit("jit_matmul_reduce_scatter", lambda a, w: a @ w, mesh2, (P(None, "x"), P("x", None)),
             P("x", None), rand(8, 16), rand(16, 6))
    save_jit("jit_mlp_2x2_scatter", lambda x, w1, w2: jnp.tanh(x @ w1) @ w2, mesh4,
             (P("x"), P(None, "y"), P("y", None)), P("x", "y"), rand(8, 16), rand(16, 32),
             rand(32, 4))


if __name__ == "__main__":
    main()
