"""The interpret suite's ``run_parallel`` cases over MPI ranks (``mpirun``).

    mpirun -n 5 --oversubscribe python tests/conformance/interpret_mpi.py [--filter RE]

Rank 0 prepares, compiles and checks each case as interpret_suite.py does;
for each ``run_parallel`` it broadcasts the module and the ranks' operands,
and the first ``replicas x partitions`` ranks of the world (a communicator
split off for the case) each load the module with an MPI channel and run
their program; the results are gathered back to rank 0.  The world must
have at least as many ranks as the largest case (5).  Rank 0 prints one
``RESULT <case> <status> <message>`` line per case and a summary.

Host queues belong to one process: a one-rank case's ``infeed`` entries are
pushed onto that rank's queue, but a case whose ranks meet through the host
(``send`` / ``recv`` with ``is_host_transfer``, or an infeed shared by several
ranks) is refused with ``the case's ranks share one host``: under MPI each
rank has its own host (run it in process, interpret_suite.py).
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import interpret_suite as suite  # noqa: E402
import runner  # noqa: E402


def _rank_work(world, task, device):
    """This rank's part of one run_parallel: (ok, results or error text)."""
    from mpi4py import MPI
    from tensorvm import runtime
    from tensorvm.hal.channel import Channel
    from tensorvm.hal.channels.mpi import MpiTransport
    vmfb, programs, per_rank_args, infeed = task
    r, p = len(programs), len(programs[0])
    rank = world.Get_rank()
    sub = world.Split(0 if rank < r * p else MPI.UNDEFINED, rank)
    if sub == MPI.COMM_NULL:
        return None
    try:
        channel = Channel(MpiTransport(sub), r, p, timeout_s=20)
        m = runtime.load_module(vmfb, device=device, channel=channel)
        for entry in infeed:
            m.host_queues.infeed.push(*entry)
        fn = m[programs[rank // p][rank % p]]
        return True, suite.as_arrays(fn(*per_rank_args[rank]))
    except Exception as e:   # noqa: BLE001 - reported by rank 0
        return False, f"rank {rank}: {type(e).__name__}: {e}"
    finally:
        sub.Free()


HOST_SHARED = "the case's ranks share one host"


def mpi_ranks(world, device, host_transfers=False):
    """A ``run_ranks`` for interpret_suite.run_case: the ranks are MPI processes
    (``host_transfers``: the case's programs send/recv through the host)."""
    def run(vmfb, programs, per_rank_args, device_=None, infeed=()):
        n = len(programs) * len(programs[0])
        if n > world.Get_size():
            raise RuntimeError(f"the case needs {n} ranks; mpirun gave {world.Get_size()}")
        if n > 1 and (host_transfers or infeed):
            raise RuntimeError(f"{HOST_SHARED} (host-transfer send/recv or infeed across "
                               f"{n} ranks); under MPI each rank has its own host queues")
        task = world.bcast((vmfb, programs, per_rank_args, list(infeed)), root=0)
        outs = world.gather(_rank_work(world, task, device), root=0)[:n]
        failed = [msg for ok, msg in outs if not ok]
        if failed:
            raise RuntimeError("; ".join(failed))
        return [res for _, res in outs]
    return run


def main(argv=None) -> int:
    from mpi4py import MPI
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--filter", default="", help="regular expression on file names")
    ap.add_argument("--device", default="local-sync")
    args = ap.parse_args(argv)
    world = MPI.COMM_WORLD
    if world.Get_rank() != 0:                  # workers: one task per broadcast
        while True:
            task = world.bcast(None, root=0)
            if task is None:
                return 0
            world.gather(_rank_work(world, task, args.device), root=0)
    files = sorted(p for p in (runner.SUITES / "interpret").rglob("*.mlir")
                   if re.search(args.filter, p.name) and "interpreter.run_parallel" in p.read_text())
    counts = {}
    try:
        for path in files:
            for i, case in enumerate(suite.split_cases(path.read_text())):
                if "check." not in case or "interpreter.run_parallel" not in case:
                    continue
                run = mpi_ranks(world, args.device, "is_host_transfer" in case)
                r = suite.run_case(str(path), i, case, args.device, run)
                if r is None:
                    continue
                counts[r.status] = counts.get(r.status, 0) + 1
                print(f"RESULT {r.file} {r.status} {r.message}", flush=True)
    finally:
        world.bcast(None, root=0)
    print("SUMMARY " + ", ".join(f"{n} {s}" for s, n in sorted(counts.items())), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
