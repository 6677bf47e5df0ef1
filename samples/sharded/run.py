"""Run a transformer block data parallel and tensor parallel on two devices.

    python samples/sharded/run.py                    # two in-process devices
    mpirun -n 2 python samples/sharded/run.py --mpi  # two MPI ranks, one device each

The exports (block.mlir, block_dp.mlir, block_tp.mlir) and inputs.npz were
written from JAX by export.py and are committed beside this file; this
script needs only tensorvm and numpy.  Each sharded export is compiled once
and run on two ``local-task://1`` devices, and its result is compared with
the unsharded block run on one device and with JAX's result.  Exit status 0
when every result matches (rtol/atol 1e-4), 1 when one does not, 2 when
compiling or running fails.
"""
from __future__ import annotations

import argparse
import pathlib
import sys
import time

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
NAMES = ("x", "wq", "wk", "wv", "wo", "w1", "w2")
TOL = 1e-4


def close(got, want) -> tuple[bool, float]:
    got = np.asarray(got)
    ok = got.shape == want.shape and np.allclose(got, want, rtol=TOL, atol=TOL)
    return ok, float(np.max(np.abs(got - want))) if got.shape == want.shape else float("inf")


def run(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mpi", action="store_true",
                    help="this process is one rank of `mpirun -n 2` (one device each)")
    ap.add_argument("--device", default="local-task://1",
                    help="device of each rank (default: local-task://1)")
    args = ap.parse_args(argv)

    from tensorvm import compiler, runtime

    data = np.load(HERE / "inputs.npz")
    inputs, jax_out = [data[n] for n in NAMES], data["out"]
    t0 = time.perf_counter()
    one = runtime.load_module(compiler.compile_str((HERE / "block.mlir").read_text()),
                              device=args.device)
    want = np.asarray(one.main(*inputs))
    ok, diff = close(want, jax_out)
    print(f"unsharded on one device: max |tensorvm - JAX| = {diff:.2e}"
          f" ({time.perf_counter() - t0:.1f} s with the compile)")
    good = ok
    for label, name in (("data parallel", "block_dp"), ("tensor parallel", "block_tp")):
        vmfb = compiler.compile_str((HERE / f"{name}.mlir").read_text())
        if args.mpi:
            good &= run_rank(runtime, vmfb, label, inputs, want, args.device)
            continue
        pm = runtime.load_module(vmfb, device=[args.device] * 2, partitions=2)
        got = pm.main(*inputs)                 # whole arrays in, a ShardedArray out
        t = time.perf_counter()
        got = pm.main(*inputs)
        ms = (time.perf_counter() - t) * 1e3
        ok, diff = close(got, want)
        split = ", ".join(f"dim {d} over {list(a)}" for d, a in enumerate(got.dims) if a) \
            or "replicated"
        print(f"{label} on 2 devices: result {split}; max |2 devices - 1 device| = {diff:.2e}, "
              f"{ms:.1f} ms a call")
        good &= ok
    print("OK" if good else "MISMATCH")
    return 0 if good else 1


def run_rank(runtime, vmfb, label, inputs, want, device) -> bool:
    """This MPI rank's part: its own shards in, its shard of the result out."""
    from tensorvm.runtime.sharded import MeshLayout
    m = runtime.load_module(vmfb, device=device, channel="mpi", timeout_s=60)
    rank, count = m.channel.rank, m.channel.count
    layout = MeshLayout(m["main"].handle.reflection["sharding"], count, "main")
    mine = [layout.split(i, a, NAMES[i])[rank] for i, a in enumerate(inputs)]
    got = np.asarray(m.main(*mine))
    piece = want[layout.index(layout.results[0], want.shape, rank)]
    ok, diff = close(got, piece)
    print(f"rank {rank}/{count} {label}: arguments {[list(a.shape) for a in mine[:2]]}..., "
          f"result shard {list(got.shape)}; max |shard - 1 device| = {diff:.2e}", flush=True)
    return ok


if __name__ == "__main__":
    try:
        status = run()
    except Exception as e:  # noqa: BLE001 - tensorvm's typed errors say what went wrong
        print(f"error: {type(e).__name__}: {e}", file=sys.stderr)
        status = 2
    sys.exit(status)
