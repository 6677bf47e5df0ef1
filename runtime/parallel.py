"""Many ranks of one module: in-process replicas/partitions and MPI ranks.

``load_module(vmfb, replicas=R, partitions=P)`` loads the module once per
rank (``R * P`` contexts, each with its own collective channel of one
in-process hub; StableHLO's ``run_parallel``) and returns a
``ParallelModule``: ``pm.main(*args)`` runs every rank on its own thread
with the same arguments, ``pm.main.run([args_rank0, args_rank1, ...])`` with
per-rank arguments; both return the per-rank results, in rank order
(rank = replica * P + partition).

A rank that raises aborts the channel, so the others raise
``PeerFailedError`` within their timeout instead of waiting for it; the call
then raises the first rank's own error (``ParallelCallError`` carries every
rank's outcome).

``load_module(vmfb, channel="mpi")`` is one rank per process (``mpirun -n N``):
a plain Module whose collectives go over MPI; a call that fails on this rank
aborts the channel for the others (runtime/api.py).
"""
from __future__ import annotations

import threading

from tensorvm.hal.channel import PeerFailedError

from .api import ExportsAsAttributes


class ParallelCallError(RuntimeError):
    """A parallel call failed on some rank; ``errors`` maps rank -> exception."""

    def __init__(self, message, errors):
        super().__init__(message)
        self.errors = errors


def mpi_channel(replicas=None, partitions=None, timeout_s=None):
    """This process's Channel over MPI COMM_WORLD."""
    from tensorvm.hal.channel import DEFAULT_TIMEOUT_S, Channel
    from tensorvm.hal.channels.mpi import MpiTransport
    t = MpiTransport()
    p = partitions or 1
    return Channel(t, replicas or t.size // p, p, DEFAULT_TIMEOUT_S if timeout_s is None
                   else timeout_s)


def inprocess_channels(replicas, partitions, timeout_s):
    from tensorvm.hal.channel import DEFAULT_TIMEOUT_S
    from tensorvm.hal.channels.inproc import InProcessHub
    return InProcessHub(replicas * partitions).channels(
        replicas, partitions, DEFAULT_TIMEOUT_S if timeout_s is None else timeout_s)


class ParallelFunction:
    """One export over every rank (see module docstring)."""

    def __init__(self, pm: "ParallelModule", name: str):
        self.pm, self.name = pm, name
        self.functions = [m[name] for m in pm.modules]

    def __repr__(self):
        return f"<ParallelFunction {self.name} x {len(self.functions)} ranks>"

    def __call__(self, *args) -> list:
        return self.run([args] * len(self.functions))

    def run(self, per_rank_args) -> list:
        if len(per_rank_args) != len(self.functions):
            raise ValueError(f"{self.name}: {len(self.functions)} ranks need as many argument "
                             f"tuples, got {len(per_rank_args)}")
        return run_ranks([(f, tuple(a)) for f, a in zip(self.functions, per_rank_args)],
                         self.pm.channels)


def run_ranks(calls, channels) -> list:
    """Run ``calls`` [(callable, args)] one per rank on threads; results in rank order."""
    n = len(calls)
    results, errors = [None] * n, {}

    def one(k):
        fn, args = calls[k]
        try:
            results[k] = fn(*args)
        except BaseException as e:   # noqa: BLE001 - reported below, with every rank's
            errors[k] = e
            channels[k].abort(e)
    threads = [threading.Thread(target=one, args=(k,), name=f"rank-{k}", daemon=True)
               for k in range(1, n)]
    for t in threads:
        t.start()
    one(0)
    for t in threads:
        t.join()
    if errors:
        own = {k: e for k, e in errors.items() if not isinstance(e, PeerFailedError)}
        k, first = min((own or errors).items())
        raise ParallelCallError(f"rank {k} failed: {type(first).__name__}: {first}",
                                errors) from first
    return results


class ParallelModule(ExportsAsAttributes):
    """A module loaded as ``replicas * partitions`` in-process ranks."""

    def __init__(self, modules, channels, replicas, partitions):
        self.modules, self.channels = modules, channels
        self.replicas, self.partitions = replicas, partitions
        self.name = modules[0].name
        self._functions = {}

    @property
    def functions(self) -> dict:
        return {n: self[n] for n in self.modules[0].functions}

    def __getitem__(self, name) -> ParallelFunction:
        fn = self._functions.get(name)
        if fn is None:
            self.modules[0][name]                     # KeyError naming the exports
            fn = self._functions[name] = ParallelFunction(self, name)
        return fn

    def __repr__(self):
        return (f"<ParallelModule '{self.name}' x {self.replicas} replicas x "
                f"{self.partitions} partitions: {', '.join(sorted(self.modules[0].functions))}>")
