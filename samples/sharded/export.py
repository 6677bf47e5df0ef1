"""Export a pre-norm transformer block from JAX three ways (needs ``jax``).

    XLA_FLAGS=--xla_force_host_platform_device_count=2 python samples/sharded/export.py

- ``block.mlir``: the block, unsharded (one device);
- ``block_dp.mlir``: data parallel, ``jax.jit`` with ``in_shardings`` over a
  2-device mesh: the batch split over ``"x"``, every weight replicated, the
  result's batch split;
- ``block_tp.mlir``: tensor parallel (Megatron style), ``jax.jit`` with the
  attention heads and the MLP's hidden dim split over ``"x"``: wq/wk/wv/w1
  by columns, wo/w2 by rows, the activations replicated;
- ``inputs.npz``: the arguments (``x``, ``wq`` .. ``w2``) and JAX's result
  (``out``) of the unsharded block.

No shard_map: tensorvm's ``partition-spmd`` pass turns the shardings into
per-device programs with the collectives they need (docs/collectives.md).
"""
from __future__ import annotations

import pathlib

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding
from jax.sharding import PartitionSpec as P

HERE = pathlib.Path(__file__).resolve().parent
BATCH, SEQ, D, HEADS, FF = 8, 16, 64, 4, 256
NAMES = ("wq", "wk", "wv", "wo", "w1", "w2")


def layer_norm(h):
    return (h - h.mean(-1, keepdims=True)) * jax.lax.rsqrt(h.var(-1, keepdims=True) + 1e-5)


def block(x, wq, wk, wv, wo, w1, w2):
    """x + attention(norm(x)), then + MLP(norm(.)): heads of D / HEADS features."""
    split = (x.shape[0], x.shape[1], HEADS, D // HEADS)
    q, k, v = ((layer_norm(x) @ w).reshape(split) for w in (wq, wk, wv))
    scores = jnp.einsum("bqhe,bkhe->bhqk", q, k) * (D // HEADS) ** -0.5
    heads = jnp.einsum("bhqk,bkhe->bqhe", jax.nn.softmax(scores, axis=-1), v)
    x = x + heads.reshape(x.shape) @ wo
    return x + jax.nn.gelu(layer_norm(x) @ w1) @ w2


def main():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((BATCH, SEQ, D)).astype(np.float32)
    shapes = [(D, D)] * 4 + [(D, FF), (FF, D)]
    ws = [(rng.standard_normal(s) / np.sqrt(s[0])).astype(np.float32) for s in shapes]
    args = (x, *ws)
    (HERE / "block.mlir").write_text(jax.export.export(jax.jit(block))(*args).mlir_module())
    mesh = Mesh(np.array(jax.devices()[:2]), ("x",))

    def sh(spec):
        return NamedSharding(mesh, spec)
    whole = sh(P())
    dp = jax.jit(block, in_shardings=(sh(P("x")),) + (whole,) * 6, out_shardings=sh(P("x")))
    (HERE / "block_dp.mlir").write_text(jax.export.export(dp)(*args).mlir_module())
    col, row = sh(P(None, "x")), sh(P("x", None))
    tp = jax.jit(block, in_shardings=(whole, col, col, col, row, col, row), out_shardings=whole)
    (HERE / "block_tp.mlir").write_text(jax.export.export(tp)(*args).mlir_module())
    np.savez(HERE / "inputs.npz", x=x, **dict(zip(NAMES, ws)),
             out=np.asarray(jax.jit(block)(*args)))


if __name__ == "__main__":
    main()
