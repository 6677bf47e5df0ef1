"""Regenerate the GSPMD (``mhlo.sharding``, no Shardy) cases of tests/runtime/test_sharded.py.

    XLA_FLAGS=--xla_force_host_platform_device_count=4 python tests/models/sharded/export_gspmd.py

The same kinds of programs as export.py, exported with
``jax_use_shardy_partitioner=False``: ``mhlo.sharding`` strings on the
arguments/results of a jit over a mesh, ``custom_call @Sharding`` for
``with_sharding_constraint``, and ``@SPMDFullToShardShape`` /
``@SPMDShardToFullShape`` around a shard_map body.  Files are
``gspmd_<name>.mlir`` / ``.npz`` (same layout as export.py's).
"""
from __future__ import annotations

import jax

jax.config.update("jax_use_shardy_partitioner", False)

import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax import shard_map  # noqa: E402
from jax.sharding import Mesh, NamedSharding  # noqa: E402
from jax.sharding import PartitionSpec as P  # noqa: E402

import export  # noqa: E402  (its save/save_jit; same folder)


def save_direct(name, fn, mesh, ins, out, *args):
    """Like export.save_jit, but the sharded jit itself is exported (not wrapped in
    another jit): its shardings sit on @main's arguments and result."""
    import json
    jitted = jax.jit(fn, in_shardings=tuple(NamedSharding(mesh, sp) for sp in ins),
                     out_shardings=NamedSharding(mesh, out))
    (export.HERE / f"{name}.mlir").write_text(jax.export.export(jitted)(*args).mlir_module())
    result = np.asarray(jitted(*args))

    def dims(spec, rank):
        spec = tuple(spec) + (None,) * (rank - len(spec))
        return [[] if d is None else [d] if isinstance(d, str) else list(d) for d in spec]
    layout = {"mesh": [[a, int(n)] for a, n in mesh.shape.items()],
              "in": [dims(sp, np.ndim(a)) for sp, a in zip(ins, args)],
              "out": dims(out, result.ndim)}
    np.savez(export.HERE / f"{name}.npz", *args, out=result, shardings=np.array(json.dumps(layout)))


def main():
    rng = np.random.default_rng(1)

    def rand(*shape):
        return (rng.standard_normal(shape) * 0.5).astype(np.float32)
    mesh2 = Mesh(np.array(jax.devices()[:2]), ("x",))
    mesh4 = Mesh(np.array(jax.devices()[:4]).reshape(2, 2), ("x", "y"))

    def mlp(x, w1, b1, w2):
        return jnp.tanh(x @ w1 + b1) @ w2
    x, w1, b1, w2 = rand(8, 16), rand(16, 32), rand(32), rand(32, 4)
    export.save_jit("gspmd_mlp_data_parallel", mlp, mesh2, (P("x"), P(), P(), P()), P("x"),
                    x, w1, b1, w2)
    export.save_jit("gspmd_mlp_2x2", mlp, mesh4, (P("x"), P(None, "y"), P("y"), P("y", None)),
                    P("x", None), x, w1, b1, w2)
    export.save_jit("gspmd_matmul_contracting", lambda a, w: a @ w, mesh2,
                    (P(None, "x"), P("x", None)), P(), rand(8, 16), rand(16, 6))
    # a dim split over both axes of the mesh, minor axis first (an iota with a transpose)
    export.save_jit("gspmd_tanh_yx", lambda a: jnp.tanh(a) * 2, mesh4, (P(("y", "x"), None),),
                    P(None, ("y", "x")), rand(8, 8))

    save_direct("gspmd_args_attrs", lambda a, w: jnp.tanh(a @ w), mesh4,
                (P("x", None), P(None, "y")), P("x", "y"), rand(8, 4), rand(4, 6))

    def constrained(a, w):
        h = jax.lax.with_sharding_constraint(jnp.tanh(a @ w), NamedSharding(mesh4, P(None, "y")))
        return h.sum(1)
    export.save_jit("gspmd_constraint", constrained, mesh4, (P("x", None), P()), P("x"),
                    rand(8, 4), rand(4, 6))
    a, w = rand(8, 4), rand(4, 3)
    export.save("gspmd_psum", shard_map(lambda a, w: jax.lax.psum(jnp.tanh(a @ w), "x"),
                                        mesh=mesh2, in_specs=(P("x", None), P()),
                                        out_specs=P()), a, w)
    export.save("gspmd_shard_map_2x2", shard_map(lambda a, w: jax.lax.psum(a @ w, "y"),
                                                 mesh=mesh4, in_specs=(P("x", "y"), P("y", None)),
                                                 out_specs=P("x", None)), a, w)


if __name__ == "__main__":
    main()
