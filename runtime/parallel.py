"""Many ranks of one module: in-process replicas/partitions and MPI ranks.

``load_module(vmfb, replicas=R, partitions=P)`` loads the module once per
rank (``R * P`` contexts, each with its own collective channel of one
in-process hub; StableHLO's ``run_parallel``) and returns a
``ParallelModule``.  ``pm.main.run([args_rank0, args_rank1, ...])`` runs
every rank on its own thread with its own arguments and returns the per-rank
results, in rank order (rank = replica * P + partition).

``pm.main(*args)`` takes and returns whole arrays when the export records
its sharding (a jit over a mesh or a shard_map; runtime/sharded.py): each
argument is split into the ranks' pieces by its layout, and each tensor
result comes back as a ``ShardedArray`` of the per-rank shards (``np.asarray``
assembles it; passed to a next call it stays on the devices).  Without a
recorded sharding (hand-written collectives) every rank gets the same
arguments and the per-rank results come back as a list.

A rank that raises aborts the channel, so the others raise
``PeerFailedError`` within their timeout instead of waiting for it; the call
then raises the first rank's own error (``ParallelCallError`` carries every
rank's outcome).  Once every rank has returned, the channels recover (the
hub forgets the failure and the failed call's leftovers, tags restart), so
the next call runs normally.  A rank still running the channel's timeout
after the first error (stuck outside any collective) is left behind: the
call raises at once, and each later call raises ``ChannelError`` naming it
until it has returned; then the channels recover and the call runs.

``load_module(vmfb, channel="mpi")`` is one rank per process (``mpirun -n N``):
a plain Module whose collectives go over MPI; a call that fails on this rank
aborts the channel for the others (runtime/api.py).
``load_module(vmfb, device=[d0, d1, d2], channel="mpi")`` hosts one rank per
device in this process (e.g. 5 ranks over 2 processes: 3 + 2): a
ParallelModule of *this process's* ranks (``pm.ranks`` names them: ranks are
numbered process by process), whose collectives combine the local ranks in
shared memory and cross processes over MPI through one leader per process
(hal/channels/hierarchical.py).  ``pm.main.run([...])`` takes one argument
tuple per local rank; ``pm.main(*args)`` gives every local rank the same
arguments, or, when the export records its sharding, splits whole arrays
and feeds each local rank its piece; either way it returns the local ranks'
results in rank order.  Channels over MPI cannot recover from a failed call:
it marks them broken and the next call raises ``ChannelBrokenError`` at once.
"""
from __future__ import annotations

import threading
import time
import weakref

from tensorvm.hal.channel import ChannelError, PeerFailedError

from . import pytree
from .api import ExportsAsAttributes
from .sharded import MeshLayout


class ParallelCallError(RuntimeError):
    """A parallel call failed on some rank; ``errors`` maps rank -> exception."""

    def __init__(self, message, errors):
        super().__init__(message)
        self.errors = errors


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
        refl = (self.functions[0].handle.reflection or {}).get("sharding")
        self.layout = None if refl is None else MeshLayout(
            refl, pm.count, f"{pm.name}.{name}", pm)

    def __repr__(self):
        return f"<ParallelFunction {self.name} x {len(self.functions)} ranks>"

    def __call__(self, *args):
        if self.layout is None:
            return self.run([args] * len(self.functions))
        f0 = self.functions[0]
        tree = f0._in_tree
        flat = pytree.flatten(tree, tuple(args), []) if tree is not None else list(args)
        if len(flat) != len(self.layout.args):
            f0._convert(args)                   # the one-rank error naming the arguments
        pieces = [self.layout.split(i, v, f"{self.name}: {f0._arg_label(i)}")
                  for i, v in enumerate(flat)]
        per_rank = []
        for p in self.pm.ranks:
            mine = [pc[p] for pc in pieces]
            per_rank.append(pytree.unflatten(tree, iter(mine)) if tree is not None else mine)
        results = self.run(per_rank)
        if len(self.pm.ranks) != self.pm.count:
            return results              # some ranks are other processes': this one's results
        out_tree = f0._out_tree
        flat_out = [_leaves(r, out_tree) for r in results]
        whole = [self.layout.assemble(j, [r[j] for r in flat_out])
                 for j in range(len(flat_out[0]))]
        if out_tree is not None:
            return pytree.unflatten(out_tree, iter(whole))
        if not whole:
            return None
        return whole[0] if len(whole) == 1 else tuple(whole)

    def run(self, per_rank_args) -> list:
        if len(per_rank_args) != len(self.functions):
            raise ValueError(f"{self.name}: {len(self.functions)} ranks need as many argument "
                             f"tuples, got {len(per_rank_args)}")
        return run_ranks([(f, tuple(a)) for f, a in zip(self.functions, per_rank_args)],
                         self.pm.channels, self.pm.ranks, self.pm.host_queues)


def _leaves(result, tree) -> list:
    if tree is not None:
        return pytree.flatten(tree, result, [], "results")
    if result is None:
        return []
    return list(result) if isinstance(result, tuple) else [result]


# channels[0] of a group -> {rank: thread} of a failed call's ranks that had not
# returned when it gave up on them (see module docstring)
_LEFT_BEHIND: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def _settle_earlier_failure(channels, host_queues=None) -> None:
    """Before a call: refuse while ranks of a failed call still run; recover once
    they have all returned."""
    left = _LEFT_BEHIND.get(channels[0])
    if left is None:
        return
    alive = sorted(k for k, t in left.items() if t.is_alive())
    if alive:
        raise ChannelError(f"rank(s) {alive} of an earlier failed call are still running "
                           f"(stuck outside any collective); the ranks cannot run another "
                           f"call until they return")
    del _LEFT_BEHIND[channels[0]]
    _after_failure(channels, None, host_queues)


def _after_failure(channels, error, host_queues=None) -> None:
    """Recover the channels of a failed call, or mark them broken where they
    cannot recover (MPI): their next call raises ChannelBrokenError.  The
    ranks' host queues recover either way (their entries stay queued)."""
    if all(c.recoverable for c in channels):
        for c in channels:
            c.recover()
    elif error is not None:
        for c in channels:
            c.call_failed(error)
    if host_queues is not None:
        host_queues.recover()


def run_ranks(calls, channels, ranks=None, host_queues=None) -> list:
    """Run ``calls`` [(callable, args)] one per rank on threads; results in rank order.
    After a failed call the channels recover (module docstring).  ``ranks``:
    the channel ranks the calls are, for messages (0..n-1 unless given).  A
    failure aborts ``host_queues`` (the ranks' shared HostQueues) too, so that
    a rank waiting in a recv or infeed raises PeerFailedError instead of its
    timeout."""
    _settle_earlier_failure(channels, host_queues)
    for c in channels:
        c.check_usable()
    n = len(calls)
    ranks = list(range(n)) if ranks is None else list(ranks)
    results, errors = [None] * n, {}
    first_error = []                    # monotonic time of the first failure

    def one(k):
        fn, args = calls[k]
        try:
            results[k] = fn(*args)
        except BaseException as e:   # noqa: BLE001 - reported below, with every rank's
            errors[k] = e
            first_error.append(time.monotonic())
            channels[k].abort(e)
            if host_queues is not None and not isinstance(e, PeerFailedError):
                host_queues.abort(e, k)
    threads = {k: threading.Thread(target=one, args=(k,), name=f"rank-{k}", daemon=True)
               for k in range(1, n)}
    for t in threads.values():
        t.start()
    one(0)
    timeout_s = channels[0].timeout_s if channels else None
    for t in threads.values():
        while t.is_alive():
            t.join(0.05)
            if first_error and timeout_s is not None and \
                    time.monotonic() - first_error[0] > timeout_s:
                break
    alive = {ranks[k]: t for k, t in threads.items() if t.is_alive()}
    if errors:
        errors = {ranks[k]: e for k, e in errors.items()}
        own = {k: e for k, e in errors.items() if not isinstance(e, PeerFailedError)}
        k, first = min((own or errors).items())
        if alive:
            _LEFT_BEHIND[channels[0]] = alive
            if not all(c.recoverable for c in channels):
                _after_failure(channels, first)
        else:
            _after_failure(channels, first, host_queues)
        late = (f"; rank(s) {sorted(alive)} still running after {timeout_s:g} s, left "
                f"behind" if alive else "")
        raise ParallelCallError(f"rank {k} failed: {type(first).__name__}: {first}{late}",
                                errors) from first
    return results


class ParallelModule(ExportsAsAttributes):
    """A module loaded as ranks of this process, one per channel: all
    ``replicas * partitions`` in process, or this process's share under MPI."""

    def __init__(self, modules, channels, host_queues=None):
        self.modules, self.channels = modules, channels
        self.host_queues = host_queues    # shared by this process's ranks (runtime/host_queues.py)
        self.replicas, self.partitions = channels[0].num_replicas, channels[0].num_partitions
        self.count = channels[0].count                # ranks in all
        self.ranks = [c.rank for c in channels]       # the ones this process runs
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
        here = "" if len(self.ranks) == self.count else f" (ranks {self.ranks} here)"
        return (f"<ParallelModule '{self.name}' x {self.replicas} replicas x "
                f"{self.partitions} partitions{here}: "
                f"{', '.join(sorted(self.modules[0].functions))}>")
