"""Several channel ranks per MPI process: shared memory inside, MPI between.

A process of an ``mpirun`` job may host ``k`` devices, each one rank of the
channel (5 ranks over 2 processes: 3 + 2).  Ranks are numbered process by
process: process ``q`` hosts ranks ``offset[q] .. offset[q] + k[q] - 1``
(the counts are gathered from every process when the channels are made).
The ranks of one process are threads meeting in a ``HierarchicalHub`` (the
in-process hub's shared memory, hal/channels/inproc.py); one ``MpiTransport``
per process carries what crosses processes.

- **exchange** over a group: the group's members in this process leave their
  contributions in a slot of the hub; the lowest of them is the process's
  *leader* for that group: it waits for the others, sends their bundle to
  the leader of every other process holding members of the group, receives
  theirs, and publishes the whole group's contributions; every member then
  reads them in group order.  The channel (hal/channel.py) computes each
  rank's own result from the exchange, so every collective, replica-group
  mode and reduction means exactly what it means with one rank per process.
  A group held by one process never touches MPI.
- **send/recv** (collective_permute): a local peer's mailbox in the hub, a
  remote one over MPI to the process hosting it.
- MPI tags are this module's own (``RawTag``, above the abort tag): an
  exchange's tag is its collective's sequence number and its group's lowest
  rank (process groups of one collective are disjoint), a message's its
  sequence number, source and destination; so leaders of different groups
  of one collective never match each other's messages.
- **failures**: a rank that fails aborts both the hub (its local peers raise
  ``PeerFailedError`` at once) and MPI (every other process hears of it at
  its next poll); waits in the hub also poll MPI for aborts, and a leader's
  MPI waits stop when a local peer failed.  Every wait has the timeout.
  Like a one-rank-per-process MPI channel, a hierarchical one cannot recover
  from a failed call (the peers' state is in other processes): the runtime
  marks it broken, and the next call raises ``ChannelBrokenError``.
"""
from __future__ import annotations

import time

import numpy as np

from ..channel import Channel, ChannelError, ChannelTimeoutError, DEFAULT_TIMEOUT_S, \
    PeerFailedError
from .inproc import InProcessHub, _Endpoint
from .mpi import _ABORT_TAG, MpiTransport, RawTag, _mpi

_BASE = _ABORT_TAG + 1024      # above every tag MpiTransport numbers itself


class HierarchicalHub(InProcessHub):
    """This process's ranks of a channel spread over the processes of ``net``
    (an MpiTransport); ``counts[q]``: how many ranks process ``q`` hosts."""

    _POLL_S = 0.005            # hub waits wake this often to look for MPI aborts

    def __init__(self, net: MpiTransport, counts):
        counts = [int(c) for c in counts]
        if len(counts) != net.size or any(c < 0 for c in counts) or sum(counts) < 1:
            raise ChannelError(f"rank counts {counts} do not fit {net.size} MPI processes")
        mpi = _mpi()
        if mpi.Query_thread() < mpi.THREAD_MULTIPLE:
            raise ChannelError("several ranks per MPI process need MPI_THREAD_MULTIPLE (their "
                               "leaders talk to MPI from their own threads); this MPI was "
                               "initialised with less (mpi4py.rc.thread_level)")
        super().__init__(sum(counts))
        self.net, self.counts = net, counts
        self.home = [q for q, c in enumerate(counts) for _ in range(c)]   # rank -> process
        self.first = sum(counts[:net.rank])
        self.ranks = list(range(self.first, self.first + counts[net.rank]))
        self._done: dict = {}          # exchange key -> {rank: payload} or an exception
        ub = mpi.COMM_WORLD.Get_attr(mpi.TAG_UB)     # (on COMM_WORLD only)
        self._span = (int(ub) - _BASE) // 3 if ub else 0
        if self._span < self.size * self.size:
            raise ChannelError(f"the MPI library's tag range (TAG_UB {ub}) is too small for a "
                               f"channel of {self.size} ranks over {net.size} processes")
        net.on_poll = self._check_local

    def channels(self, num_replicas=None, num_partitions=1, timeout_s=DEFAULT_TIMEOUT_S) -> list:
        """One Channel per rank this process hosts, in rank order."""
        return [Channel(_HierEndpoint(self, r), num_replicas, num_partitions, timeout_s)
                for r in self.ranks]

    def reset(self) -> None:
        raise ChannelError("a channel over MPI processes cannot recover from a failed call")

    # -- failures -----------------------------------------------------------------------
    def _check_local(self) -> None:
        """For MPI polls: a local rank's failure stops the wait."""
        if self._failure is not None:
            rank, msg = self._failure
            raise PeerFailedError(f"rank {rank} of the channel failed: {msg}", rank)

    def _check(self) -> None:
        if self._failure is None:
            failed = self.net.failure()
            if failed is not None:
                self._failure = failed
        super()._check()

    # -- tags ---------------------------------------------------------------------------
    def exchange_tag(self, tag, group) -> RawTag:
        return RawTag(_BASE + (int(tag) * self.size + min(group)) % self._span)

    def message_tag(self, tag, src, dst) -> RawTag:
        if isinstance(tag, tuple):       # a user's point-to-point tag ("p2p", t)
            key = (int(tag[1]) * self.size + src) * self.size + dst
            return RawTag(_BASE + 2 * self._span + key % self._span)
        return RawTag(_BASE + self._span + ((int(tag) * self.size + src) * self.size + dst)
                      % self._span)

    # -- the leader's side of an exchange --------------------------------------------------
    def members_in(self, group, q) -> list:
        return [r for r in group if self.home[r] == q]

    def leader_exchange(self, group, tag, payloads, timeout_s) -> dict:
        """Send this process's ``payloads`` (of its members of ``group``, in
        order) to every other process holding members, and return theirs."""
        net, me, t = self.net, self.net.rank, self.exchange_tag(tag, group)
        others = sorted({self.home[r] for r in group} - {me})
        for q in others:
            _send_bundle(net, q, t, payloads, timeout_s)
        got = {}
        for q in others:
            members = self.members_in(group, q)
            bundle = _recv_bundle(net, q, t, timeout_s)
            if len(bundle) != len(members):
                raise ChannelError(f"collective #{tag}: process {q} sent {len(bundle)} "
                                   f"contributions for its ranks {members}")
            got.update(zip(members, bundle))
        net.flush(timeout_s)
        return got


def _send_bundle(net, q, t, payloads, timeout_s) -> None:
    """Lists of arrays go as a small header and one flat list (raw buffers when
    big); anything else pickled whole."""
    if all(isinstance(p, list) and all(isinstance(a, np.ndarray) for a in p) for p in payloads):
        net.send(q, t, ("lists", [len(p) for p in payloads]), timeout_s)
        net.send(q, t, [a for p in payloads for a in p], timeout_s)
    else:
        net.send(q, t, ("objects", list(payloads)), timeout_s)


def _recv_bundle(net, q, t, timeout_s) -> list:
    kind, body = net.recv(q, t, timeout_s)
    if kind == "objects":
        return body
    flat = net.recv(q, t, timeout_s)
    flat = [flat] if isinstance(flat, np.ndarray) else list(flat)
    out, k = [], 0
    for n in body:
        out.append(flat[k:k + n])
        k += n
    return out


class _HierEndpoint(_Endpoint):
    """One rank's transport: the hub for local peers, the leader for the rest."""

    reset = None               # not recoverable (Channel.recover raises ChannelError)

    def __init__(self, hub: HierarchicalHub, rank: int):
        super().__init__(hub, rank)

    def exchange(self, group, tag, payload, timeout_s):
        hub = self.hub
        local = hub.members_in(group, hub.net.rank)
        if len(local) == len(group):
            return super().exchange(group, tag, payload, timeout_s)
        key = ("hier", tag, group)
        leader = local[0] == self.rank
        with hub._cond:
            hub._check()
            slot = hub._slots.setdefault(key, {})
            slot[self.rank] = payload
            hub._cond.notify_all()
            if leader:
                hub._wait(lambda: all(r in slot for r in local), timeout_s,
                          f"rank {self.rank}: collective #{tag} over {list(group)} waiting for "
                          f"local rank(s) {[r for r in local if r not in slot]}")
                mine = [slot[r] for r in local]
        if leader:
            try:
                remote = hub.leader_exchange(group, tag, mine, timeout_s)
            except BaseException as e:
                with hub._cond:
                    hub._done[key] = e
                    hub._cond.notify_all()
                raise
            with hub._cond:
                hub._done[key] = remote
                hub._cond.notify_all()
        with hub._cond:
            # the leader's own waits bound this one (it waits for us, then for MPI)
            wait_s = None if timeout_s is None else 2 * timeout_s + 1
            hub._wait(lambda: key in hub._done, wait_s,
                      f"rank {self.rank}: collective #{tag} over {list(group)} waiting for its "
                      f"leader, rank {local[0]}")
            remote = hub._done[key]
            if isinstance(remote, BaseException) and not leader:
                if isinstance(remote, PeerFailedError):
                    raise PeerFailedError(str(remote), remote.rank)
                if isinstance(remote, ChannelTimeoutError):
                    raise ChannelTimeoutError(f"rank {self.rank}: via leader rank {local[0]}: "
                                              f"{remote}")
                raise ChannelError(f"rank {self.rank}: collective #{tag} failed at its leader, "
                                   f"rank {local[0]}: {type(remote).__name__}: {remote}")
            out = [slot[r] if r in slot else remote[r] for r in group]
            reads = hub._reads.setdefault(key, set())
            reads.add(self.rank)
            if len(reads) == len(local):
                del hub._slots[key], hub._reads[key], hub._done[key]
        return out

    def send(self, dst, tag, array, timeout_s):
        hub = self.hub
        if hub.home[dst] == hub.net.rank:
            return super().send(dst, tag, array, timeout_s)
        hub._check()
        hub.net.send(hub.home[dst], hub.message_tag(tag, self.rank, dst),
                     np.ascontiguousarray(array), timeout_s)

    def recv(self, src, tag, timeout_s):
        hub = self.hub
        if hub.home[src] == hub.net.rank:
            return super().recv(src, tag, timeout_s)
        return hub.net.recv(hub.home[src], hub.message_tag(tag, src, self.rank), timeout_s)

    def flush(self, timeout_s) -> None:
        self.hub.net.flush(timeout_s)

    def abort(self, exc) -> None:
        hub = self.hub
        first = hub._failure is None
        super().abort(exc)
        if first:
            hub.net.abort(exc, self.rank)


def gather_counts(net: MpiTransport, local_count: int, timeout_s) -> list:
    """Every process's rank count (an allgather polled against the timeout)."""
    send = np.array([local_count], np.int64)
    recv = np.zeros(net.size, np.int64)
    deadline = None if timeout_s is None else time.monotonic() + timeout_s
    try:
        req = net.comm.Iallgather(send, recv)
        done = req.Test()
    except _mpi().Exception as e:       # (a failed process, under ULFM)
        raise net._typed(e) from None
    while not done:
        if deadline is not None and time.monotonic() > deadline:
            net._timed_out = True
            raise ChannelTimeoutError(f"process {net.rank}: the other MPI processes did not "
                                      f"report their device counts within {timeout_s:g} s")
        time.sleep(0.001)
        try:
            done = req.Test()
        except _mpi().Exception as e:
            raise net._typed(e) from None
    return [int(c) for c in recv]


def mpi_channels(local_count: int, num_replicas=None, num_partitions=1,
                 timeout_s=DEFAULT_TIMEOUT_S, comm=None) -> list:
    """The channels of the ``local_count`` ranks this process hosts, over the MPI
    communicator ``comm`` (COMM_WORLD unless given); every process of it must
    call this together.  One rank in every process: plain MPI channels (one
    ``MpiTransport``); otherwise a ``HierarchicalHub`` (module docstring)."""
    net = MpiTransport(comm)
    counts = gather_counts(net, int(local_count), timeout_s)
    total = sum(counts)
    p = num_partitions or 1
    r = num_replicas or total // p
    if r * p != total:
        raise ChannelError(f"{r} replicas x {p} partitions need {r * p} ranks, but the "
                           f"{net.size} MPI processes host {total} devices ({counts})")
    if all(c == 1 for c in counts):
        return [Channel(net, r, p, timeout_s)]
    return HierarchicalHub(net, counts).channels(r, p, timeout_s)
