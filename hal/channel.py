"""Collective channels: one process's view of a group of N cooperating ranks.

A ``Channel`` knows its rank among ``count`` processes laid out as
``num_replicas x num_partitions`` (rank = replica * num_partitions +
partition, StableHLO's flattened device id) and runs the collectives of
StableHLO's spec on numpy arrays: all_reduce, all_gather, reduce_scatter,
all_to_all, collective_permute, collective_broadcast, collective_reduce and
point-to-point send/recv.  Replica groups are turned into process groups by
the spec's four modes (``process_groups``).

The bytes move through a *transport* (a provider: ``channels/inproc.py`` for
threads of one process, ``channels/mpi.py`` for MPI ranks) that offers only
two primitives, ``exchange`` (every member of a group contributes one array
and receives all of them, in group order) and ``send``/``recv``; the channel
builds every collective from them.  Every wait has a timeout
(``ChannelTimeoutError`` naming the ranks that did not arrive), and a rank
that fails calls ``abort`` so the others raise ``PeerFailedError`` instead of
waiting for it.

Collectives are also queue operations: ``queue_collective(wait, signal, ...)``
runs one when ``wait`` is reached and signals ``signal`` (or fails it), in the
same fences as dispatches.
"""
from __future__ import annotations

import functools
import threading

import numpy as np

from .errors import HalError, HalTimeoutError

DEFAULT_TIMEOUT_S = 60.0


class ChannelError(HalError):
    """A collective could not complete (bad groups, mismatched shapes, a peer)."""


class ChannelTimeoutError(ChannelError, HalTimeoutError):
    """A collective waited past its timeout for other ranks."""


class ChannelBrokenError(ChannelError):
    """The channel failed in an earlier call and its provider cannot recover
    (MPI: the peers' state is in other processes): load the module again."""


class PeerFailedError(ChannelError):
    """Another rank of the channel failed; ``rank`` names it."""

    def __init__(self, message: str, rank: int | None = None):
        super().__init__(message)
        self.rank = rank


def _logical(fn):
    def op(a, b):
        if a.dtype == np.bool_:
            return fn(a, b)
        return {np.logical_and: np.bitwise_and, np.logical_or: np.bitwise_or,
                np.logical_xor: np.bitwise_xor}[fn](a, b)
    return op


# Reductions a collective applies element-wise (the recognised reduction bodies).
REDUCTIONS = {
    "sum": np.add, "prod": np.multiply, "min": np.minimum, "max": np.maximum,
    "and": _logical(np.logical_and), "or": _logical(np.logical_or),
    "xor": _logical(np.logical_xor),
}
MODES = ("cross_replica", "cross_partition", "cross_replica_and_partition", "flattened_ids")


class Channel:
    """Rank ``rank`` of ``count`` (= num_replicas * num_partitions) over a transport."""

    def __init__(self, transport, num_replicas: int | None = None, num_partitions: int = 1,
                 timeout_s: float | None = DEFAULT_TIMEOUT_S):
        self.transport = transport
        self.rank, self.count = transport.rank, transport.size
        if num_replicas is None:
            num_replicas = self.count // max(1, num_partitions)
        if num_replicas * num_partitions != self.count or num_replicas < 1:
            raise ChannelError(f"{num_replicas} replicas x {num_partitions} partitions do not "
                               f"make the channel's {self.count} ranks")
        self.num_replicas, self.num_partitions = num_replicas, num_partitions
        self.replica_id, self.partition_id = divmod(self.rank, num_partitions)
        self.timeout_s = timeout_s
        self.broken = None          # why an unrecoverable channel cannot run another call
        self._seq = 0
        self._lock = threading.Lock()

    def __repr__(self):
        return (f"<Channel rank {self.rank}/{self.count} (replica {self.replica_id}, partition "
                f"{self.partition_id}) over {type(self.transport).__name__}>")

    def _tag(self) -> int:
        """A fresh tag: every rank runs the same collectives in the same order."""
        with self._lock:
            self._seq += 1
            return self._seq

    def abort(self, exc: BaseException) -> None:
        """Tell every other rank that this one failed (they raise PeerFailedError)."""
        self.transport.abort(exc)

    @property
    def recoverable(self) -> bool:
        """Whether ``recover`` can make the channel usable after a failed call."""
        return getattr(self.transport, "reset", None) is not None

    def call_failed(self, exc: BaseException) -> None:
        """A call using this channel failed: an unrecoverable channel is broken
        from now on (``check_usable`` raises); a recoverable one waits for
        ``recover``."""
        if not self.recoverable and self.broken is None:
            self.broken = f"{type(exc).__name__}: {exc}"

    def check_usable(self) -> None:
        """Before a call: ChannelBrokenError if an earlier call broke the channel
        (instead of collectives that would wait for peers which stopped)."""
        if self.broken is not None:
            raise ChannelBrokenError(
                f"rank {self.rank}: the {type(self.transport).__name__} channel failed in an "
                f"earlier call ({self.broken}) and cannot be reused (the other ranks' state "
                f"is in other processes): load the module again in a new job")

    def recover(self) -> None:
        """Make the channel usable again after a failed call: the transport forgets
        the failure and the failed call's leftovers, and the tag counter restarts
        (ranks that stopped at different collectives agree again).  Every rank of
        the group must recover, and none may be inside a collective meanwhile.
        A transport that cannot (MPI: the peers' state is in other processes)
        raises ChannelError; its later calls keep raising PeerFailedError."""
        reset = getattr(self.transport, "reset", None)
        if reset is None:
            raise ChannelError(f"a {type(self.transport).__name__} channel cannot recover from a "
                               f"failed call: load the module again")
        reset()
        with self._lock:
            self._seq = 0
        self.broken = None

    # -- groups ----------------------------------------------------------------------
    def process_groups(self, mode: str, groups) -> list:
        """The spec's process groups (lists of flattened ids) for replica groups
        ``groups`` (a list of lists; -1 entries are padding; empty: everyone)."""
        r, p = self.num_replicas, self.num_partitions
        groups = [[int(x) for x in g if int(x) >= 0] for g in groups]
        groups = [g for g in groups if g]
        if mode == "cross_replica":
            groups = groups or [list(range(r))]
            out = [[i * p + j for i in g] for j in range(p) for g in groups]
            bound = r
        elif mode == "cross_partition":
            groups = groups or [list(range(p))]
            out = [[i * p + j for j in g] for i in range(r) for g in groups]
            bound = p
        elif mode == "cross_replica_and_partition":
            groups = groups or [list(range(r))]
            out = [[i * p + j for j in range(p) for i in g] for g in groups]
            bound = r
        elif mode == "flattened_ids":
            out, bound = groups or [list(range(r * p))], r * p
        else:
            raise ChannelError(f"unknown process-group mode {mode!r} (one of {', '.join(MODES)})")
        what = {"cross_partition": "partitions", "flattened_ids": "ranks"}.get(mode, "replicas")
        for g in groups:
            bad = [x for x in g if x >= bound]
            if bad:
                raise ChannelError(
                    f"{mode} group {g} names id {bad[0]}, but the channel has {bound} {what} "
                    f"({r} replicas x {p} partitions): run the module on more ranks, e.g. "
                    f"load_module(..., replicas=N, partitions=M) or under mpirun with "
                    f"channel='mpi'")
        return out

    def my_group(self, mode: str, groups):
        """The process group holding this rank, or None (the rank takes no part)."""
        for g in self.process_groups(mode, groups):
            if self.rank in g:
                return g
        return None

    def _exchange(self, group, tag, payload) -> list:
        if len(group) == 1:
            return [payload]
        return self.transport.exchange(tuple(group), tag, payload, self.timeout_s)

    @staticmethod
    def _reduction(op: str):
        fn = REDUCTIONS.get(op)
        if fn is None:
            raise ChannelError(f"unknown reduction {op!r} (one of {', '.join(REDUCTIONS)})")
        return fn

    # -- collectives (lists of arrays: StableHLO's variadic forms) -----------------------
    def all_reduce(self, arrays, mode, groups, op):
        fn, tag = self._reduction(op), self._tag()
        group = self.my_group(mode, groups)
        if group is None:
            return [np.array(a, copy=True) for a in arrays]
        parts = self._exchange(group, tag, list(arrays))
        return [functools.reduce(fn, [p[k] for p in parts]).astype(a.dtype, copy=False)
                for k, a in enumerate(arrays)]

    def all_gather(self, arrays, mode, groups, dim: int):
        tag = self._tag()
        group = self.my_group(mode, groups)
        if group is None:
            raise ChannelError(f"all_gather: rank {self.rank} is in no process group")
        parts = self._exchange(group, tag, list(arrays))
        return [np.concatenate([p[k] for p in parts], axis=dim) for k in range(len(arrays))]

    def reduce_scatter(self, arrays, mode, groups, dim: int, op):
        fn, tag = self._reduction(op), self._tag()
        group = self.my_group(mode, groups)
        if group is None:
            raise ChannelError(f"reduce_scatter: rank {self.rank} is in no process group")
        parts = self._exchange(group, tag, list(arrays))
        i, n = group.index(self.rank), len(group)
        out = []
        for k, a in enumerate(arrays):
            total = functools.reduce(fn, [p[k] for p in parts]).astype(a.dtype, copy=False)
            out.append(np.ascontiguousarray(np.split(total, n, axis=dim)[i]))
        return out

    def all_to_all(self, arrays, mode, groups, split_dim: int, concat_dim: int,
                   split_count: int):
        tag = self._tag()
        group = self.my_group(mode, groups)
        if group is None:
            raise ChannelError(f"all_to_all: rank {self.rank} is in no process group")
        if len(group) != split_count:
            raise ChannelError(f"all_to_all: split_count {split_count} != group size {len(group)}")
        parts = self._exchange(group, tag, list(arrays))
        i = group.index(self.rank)
        return [np.concatenate([np.split(p[k], split_count, axis=split_dim)[i] for p in parts],
                               axis=concat_dim) for k in range(len(arrays))]

    def collective_permute(self, array, mode, pairs):
        """``pairs``: (source, target) ids in ``mode``'s numbering (replica ids
        for cross_replica, partition ids for cross_partition); a rank no pair
        targets gets zeros."""
        tag = self._tag()
        r, p = self.num_replicas, self.num_partitions

        def flat(i):
            return i * p + self.partition_id if mode == "cross_replica" else \
                self.replica_id * p + i
        mine = self.replica_id if mode == "cross_replica" else self.partition_id
        if mode not in ("cross_replica", "cross_partition"):
            raise ChannelError(f"collective_permute: mode {mode!r} is not cross_replica or "
                               f"cross_partition")
        bound = r if mode == "cross_replica" else p
        pairs = [(int(s), int(t)) for s, t in pairs]
        for s, t in pairs:
            if not (0 <= s < bound and 0 <= t < bound):
                continue                       # the spec ignores ids past the process count
            if s == mine and t != mine:
                self.transport.send(flat(t), tag, array, self.timeout_s)
        out = np.zeros_like(array)
        for s, t in pairs:
            if t == mine and 0 <= s < bound:
                out = np.array(array, copy=True) if s == mine else \
                    self.transport.recv(flat(s), tag, self.timeout_s)
        self.transport.flush(self.timeout_s)
        return out

    def collective_broadcast(self, arrays, mode, groups, roots=None):
        """Each operand from its root (``roots[k]``: an index into the group,
        0 when None); a rank in no group gets zeros."""
        tag = self._tag()
        group = self.my_group(mode, groups)
        if group is None:
            return [np.zeros_like(a) for a in arrays]
        parts = self._exchange(group, tag, list(arrays))
        roots = [0] * len(arrays) if roots is None else [int(x) for x in roots]
        for k, root in enumerate(roots):
            if not 0 <= root < len(group):
                raise ChannelError(f"collective_broadcast: root {root} outside the group {group}")
        return [np.array(parts[root][k], copy=True) for k, root in enumerate(roots)]

    def collective_reduce(self, arrays, mode, groups, op):
        """The reduction at the group's first rank (its root); zeros elsewhere."""
        group = self.my_group(mode, groups)
        total = self.all_reduce(arrays, mode, groups, op)
        if group is not None and group[0] == self.rank:
            return total
        return [np.zeros_like(a) for a in arrays]

    def send(self, array, dst: int, tag: int = 0) -> None:
        self.transport.send(dst, ("p2p", tag), np.ascontiguousarray(array), self.timeout_s)
        self.transport.flush(self.timeout_s)

    def recv(self, src: int, tag: int = 0) -> np.ndarray:
        return self.transport.recv(src, ("p2p", tag), self.timeout_s)

    # -- as a queue operation -------------------------------------------------------------
    def queue_collective(self, wait, signal, name: str, *args, done=None, **kwargs) -> None:
        """Run collective ``name`` once ``wait`` (a Fence or None) is reached,
        on a thread of its own (it blocks on peers), then signal ``signal``;
        ``done(results)`` runs before the signal.  A failure fails ``signal``."""
        fn = getattr(self, name, None)
        if name.startswith("_") or not callable(fn) or name in (
                "abort", "queue_collective", "queue", "recover", "call_failed", "check_usable",
                "process_groups", "my_group"):
            raise ChannelError(f"no collective named {name!r}")

        def work():
            out = fn(*args, **kwargs)
            if done is not None:
                done(out)
        self.queue(wait, signal, work, name)

    def queue(self, wait, signal, work, name: str = "work") -> None:
        """Run ``work()`` (which talks to peers) on a thread of its own once
        ``wait`` is reached; then signal ``signal``, or fail it with the error
        (of ``work`` or of ``wait``)."""
        def run(exc=None):
            try:
                if exc is not None:
                    raise exc
                work()
            except BaseException as e:   # noqa: BLE001 - travels through the fence
                if signal is not None:
                    signal.fail(e)
                return
            if signal is not None:
                signal.signal()

        def start(exc=None):
            threading.Thread(target=run, args=(exc,), daemon=True,
                             name=f"channel-{self.rank}-{name}").start()
        if wait is None:
            start()
        else:
            wait.on_ready(start)


def single_channel() -> Channel:
    """The channel of a program run alone (one replica, one partition)."""
    from .channels.inproc import InProcessHub
    return InProcessHub(1).channels()[0]
