"""Regenerate the data-parallel MLP pair of benchmarks/run.py's DEVICES line.

    XLA_FLAGS=--xla_force_host_platform_device_count=2 python benchmarks/sharded/export.py

``mlp_b1024.mlir``: a 512-1024-1024-10 MLP (tanh) at batch 1024, weights as
arguments, for one device; ``mlp_b1024_dp2.mlir``: the same function under
``shard_map`` over a 2-device mesh, the batch split and the weights
replicated (each rank computes 512 rows; the result is all-gathered);
``mlp_b1024_dp2_jit.mlir``: the same as a ``jax.jit`` with ``in_shardings``
(batch split over the mesh, weights replicated) and ``out_shardings`` (rows
split): each rank receives and returns only its rows, no collective.
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
SIZES = (512, 1024, 1024, 10)
BATCH = 1024


def mlp(x, *ws):
    for i in range(0, len(ws), 2):
        x = x @ ws[i] + ws[i + 1]
        if i + 2 < len(ws):
            x = jnp.tanh(x)
    return x


def specs():
    """(x, w0, b0, w1, b1, ...) as ShapeDtypeStructs."""
    out = [jax.ShapeDtypeStruct((BATCH, SIZES[0]), jnp.float32)]
    for a, b in zip(SIZES, SIZES[1:]):
        out += [jax.ShapeDtypeStruct((a, b), jnp.float32), jax.ShapeDtypeStruct((b,), jnp.float32)]
    return out


def main():
    args = specs()
    (HERE / "mlp_b1024.mlir").write_text(jax.export.export(jax.jit(mlp))(*args).mlir_module())
    mesh = Mesh(np.array(jax.devices()[:2]), ("x",))
    dp = shard_map(mlp, mesh=mesh, in_specs=(P("x"),) + (P(),) * (len(args) - 1),
                   out_specs=P("x"))
    (HERE / "mlp_b1024_dp2.mlir").write_text(jax.export.export(jax.jit(dp))(*args).mlir_module())
    rows, whole = NamedSharding(mesh, P("x")), NamedSharding(mesh, P())
    jit = jax.jit(mlp, in_shardings=(rows,) + (whole,) * (len(args) - 1), out_shardings=rows)
    (HERE / "mlp_b1024_dp2_jit.mlir").write_text(jax.export.export(jit)(*args).mlir_module())


if __name__ == "__main__":
    main()
