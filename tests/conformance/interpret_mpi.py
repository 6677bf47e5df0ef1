"""The interpret suite's ``run_parallel`` cases over MPI processes (``mpirun``).

    mpirun -n 2 --oversubscribe python tests/conformance/interpret_mpi.py [--filter RE]

Rank 0 prepares, compiles and checks each case as interpret_suite.py does;
for each ``run_parallel`` it broadcasts the module and the ranks' operands.
The case's ``replicas x partitions`` channel ranks are spread over the
processes of the world, as evenly as they go, in order (5 ranks over 2
processes: ranks 0-2 in process 0, 3-4 in process 1; fewer ranks than
processes leave the last ones idle).  Each process hosting ranks loads the
module once per rank, each on its own device, with channels over a
communicator split off for the case (``hal.channels.hierarchical``: local
ranks meet in shared memory, processes exchange over MPI; one rank per
process is the plain MPI channel), runs its ranks' programs, and the results
are gathered back to rank 0.  Rank 0 prints one ``RESULT <case> <status>
<message>`` line per case and a summary.

Host queues belong to one process (runtime/host_queues.py): a case whose
ranks meet through the host (``send`` / ``recv`` with ``is_host_transfer``,
or an ``infeed`` the ranks share) places all its ranks in process 0, where
they share its queues, and its ``infeed`` entries are pushed there.
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


def spread(n: int, processes: int) -> list:
    """How many of ``n`` ranks each process hosts (the first ones one more)."""
    return [n // processes + (q < n % processes) for q in range(processes)]


def placement(n: int, processes: int, through_host: bool) -> list:
    """How many of ``n`` ranks each process hosts: all in process 0 when they
    meet through the host, else spread."""
    return [n] + [0] * (processes - 1) if through_host else spread(n, processes)


def _rank_work(world, task, device):
    """This process's part of one run_parallel: None (no ranks here), or
    (ok, [(rank, results)] or error text)."""
    from mpi4py import MPI
    from tensorvm import runtime
    from tensorvm.hal.channels.hierarchical import mpi_channels
    from tensorvm.runtime.parallel import run_ranks
    vmfb, programs, per_rank_args, infeed, through_host = task
    r, p = len(programs), len(programs[0])
    me = world.Get_rank()
    k = placement(r * p, world.Get_size(), through_host)[me]
    sub = world.Split(0 if k else MPI.UNDEFINED, me)
    if sub == MPI.COMM_NULL:
        return None
    try:
        chans = mpi_channels(k, r, p, timeout_s=20, comm=sub)
        pm = runtime.load_module(vmfb, device=[device] * k, channel=chans)
        for entry in infeed:                 # (only one process hosts ranks then)
            pm.host_queues.infeed.push(*entry)
        calls = [(pm.modules[i][programs[g // p][g % p]], per_rank_args[g])
                 for i, g in enumerate(pm.ranks)]
        results = run_ranks(calls, pm.channels, pm.ranks, pm.host_queues)
        return True, [(g, suite.as_arrays(res)) for g, res in zip(pm.ranks, results)]
    except Exception as e:   # noqa: BLE001 - reported by rank 0
        return False, f"process {me}: {type(e).__name__}: {e}"
    finally:
        sub.Free()


def mpi_ranks(world, device, host_transfers=False):
    """A ``run_ranks`` for interpret_suite.run_case: the ranks are spread over
    the MPI processes (``host_transfers``: the case's programs send/recv
    through the host, so its ranks share process 0)."""
    def run(vmfb, programs, per_rank_args, device_=None, infeed=()):
        n = len(programs) * len(programs[0])
        through_host = n > 1 and (host_transfers or bool(infeed))
        task = world.bcast((vmfb, programs, per_rank_args, list(infeed), through_host), root=0)
        outs = [o for o in world.gather(_rank_work(world, task, device), root=0) if o is not None]
        failed = [msg for ok, msg in outs if not ok]
        if failed:
            raise RuntimeError("; ".join(failed))
        results = dict(pair for _, pairs in outs for pair in pairs)
        if sorted(results) != list(range(n)):
            raise RuntimeError(f"ranks {sorted(results)} came back, not 0..{n - 1}")
        return [results[g] for g in range(n)]
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
