"""Host queues: the host side of infeed, outfeed and host-transfer send/recv.

A loaded module has ``module.host_queues`` (a ``HostQueues``): one FIFO
``infeed`` that ``stablehlo.infeed`` pops, one ``outfeed`` that
``stablehlo.outfeed`` pushes, and one FIFO per channel handle for the
``send`` (DEVICE_TO_HOST: pushes) and ``recv`` (HOST_TO_DEVICE: pops) ops
with ``is_host_transfer = true``.  An entry is the tuple of arrays one op
moves (all the operands of an outfeed or send, all the tensor results of an
infeed or recv).  The ranks of a ParallelModule share one HostQueues, so a
send of one program feeds a recv of another on the same handle (StableHLO's
``run_parallel``); ``load_module(..., host_queues=hq)`` shares one between
modules.  docs/host_transfers.md is the user guide.

Thread-safe.  A pop never waits forever: the user's ``pop`` and the VM's
pops (which suspend the invocation, they do not block its thread) raise
``HostQueueTimeoutError`` naming the queue after ``timeout_s``; when a rank
of a parallel call fails, the ranks waiting in a pop raise
``PeerFailedError`` at once (``abort``, called by runtime/parallel.py).  An entry
that does not match the types the program declares is a
``HostQueueTypeError`` raised by the program's call.
"""
from __future__ import annotations

import threading
from collections import deque

import numpy as np

from tensorvm.vmfb import element_types
from tensorvm.vmfb.host_transfers import QUEUES

from tensorvm.hal.channel import PeerFailedError

from .errors import HostQueueError, HostQueueTimeoutError, HostQueueTypeError

DEFAULT_TIMEOUT_S = 60.0


class Token:
    """A ``!stablehlo.token`` value: orders side effects, carries no data.
    Pass ``Token()`` (or the token a call returned) for a token argument."""

    __slots__ = ()
    _one = None

    def __new__(cls):
        if cls._one is None:
            cls._one = super().__new__(cls)
        return cls._one

    def __repr__(self):
        return "Token()"

    def __reduce__(self):
        return (Token, ())


def type_text(shape, dtype) -> str:
    try:
        name = element_types.from_numpy(np.dtype(dtype)).name
    except (KeyError, TypeError):
        name = str(dtype)
    return "tensor<" + "".join(f"{d}x" for d in shape) + name + ">"


def entry_text(entry) -> str:
    return "(" + ", ".join(type_text(a.shape, a.dtype) for a in entry) + ")"


class HostQueue:
    """One FIFO of entries (tuples of numpy arrays)."""

    def __init__(self, name: str, owner: "HostQueues"):
        self.name, self._owner = name, owner
        self._items = deque()
        self._waiters = deque()        # VM pops waiting for an entry: deliver(entry, error)
        self._cond = threading.Condition()

    def __repr__(self):
        return f"<HostQueue {self.name}: {len(self)} entries>"

    def __len__(self):
        with self._cond:
            return len(self._items)

    def push(self, *arrays) -> None:
        """Append one entry: the arrays one op pops (copied now, so the
        caller may reuse them)."""
        entry = tuple(_host_copy(a, self.name, i) for i, a in enumerate(arrays))
        self.put_entry(entry)

    def put_entry(self, entry: tuple) -> None:
        """Append ``entry`` (a tuple of numpy arrays the caller will not
        change: the VM's own host copies), or hand it to the oldest waiting
        pop that still wants it (a cancelled call's pop does not)."""
        while True:
            with self._cond:
                if not self._waiters:
                    self._items.append(entry)
                    self._cond.notify()
                    return
                deliver = self._waiters.popleft()
            if deliver(entry, None) is not False:
                return

    def pop(self, timeout_s: float | None = None):
        """The oldest entry: one array, or a tuple when the entry holds
        several (or none).  Waits up to ``timeout_s`` (the queues' timeout
        when None; 0: do not wait) and raises ``HostQueueTimeoutError``."""
        entry = self.pop_entry(timeout_s)
        return entry[0] if len(entry) == 1 else entry

    def pop_entry(self, timeout_s: float | None = None) -> tuple:
        """The oldest entry as a tuple of arrays (see ``pop``)."""
        t = self._owner.timeout_s if timeout_s is None else timeout_s
        with self._cond:
            if not self._cond.wait_for(lambda: self._items, timeout=t):
                raise HostQueueTimeoutError(self._empty_message("pop", t), self.name)
            return self._items.popleft()

    def clear(self) -> list:
        """Remove and return every entry."""
        with self._cond:
            out = list(self._items)
            self._items.clear()
            return out

    def take(self, deliver, what: str, timeout_s: float | None = None):
        """For the VM: the oldest entry now, or None after arranging
        ``deliver(entry, None)`` when one arrives (``deliver`` returns False
        to refuse it: it goes to the next pop), or ``deliver(None,
        HostQueueTimeoutError)`` after ``timeout_s`` (None: the queues')."""
        with self._cond:
            if self._items:
                return self._items.popleft()
            aborted = self._owner._aborted
            if aborted is not None:
                raise self._peer_failed(*aborted)
            t = self._owner.timeout_s if timeout_s is None else timeout_s
            timer = None

            def arrived(entry, error):
                if timer is not None:
                    timer.cancel()
                return deliver(entry, error)

            def expire():
                with self._cond:
                    if arrived not in self._waiters:
                        return                 # an entry came first
                    self._waiters.remove(arrived)
                deliver(None, HostQueueTimeoutError(self._empty_message(what, t), self.name))
            self._waiters.append(arrived)
            if t is not None:
                timer = threading.Timer(t, expire)
                timer.daemon = True
                timer.start()
            return None

    def _fail_waiters(self, error, rank) -> None:
        with self._cond:
            waiting = list(self._waiters)
            self._waiters.clear()
        for deliver in waiting:
            deliver(None, self._peer_failed(error, rank))

    def _peer_failed(self, error, rank) -> PeerFailedError:
        return PeerFailedError(f"{self.name}: rank {rank} failed while this rank waited for an "
                               f"entry ({type(error).__name__}: {error})", rank)

    def _empty_message(self, what: str, t) -> str:
        hint = {"infeed": "push the program's input with host_queues.infeed.push(...)",
                "outfeed": "no outfeed op ran"}.get(
            self.name, "no send on this channel handle ran and nothing was pushed to it")
        return f"{what} on {self.name}: no entry within {t:g} s ({hint})"


def _host_copy(a, queue: str, i: int) -> np.ndarray:
    from .arrays import DeviceArray
    if isinstance(a, DeviceArray):
        a = np.asarray(a)
    if not isinstance(a, (np.ndarray, np.generic)):
        raise HostQueueTypeError(f"{queue}: array #{i} of the entry is a {type(a).__name__}; "
                                 f"push numpy arrays of the program's element type", queue)
    return np.array(a, copy=True, order="C")


class HostQueues:
    """The host queues of one loaded module (or of all ranks of one
    ParallelModule): ``infeed``, ``outfeed`` and ``channel(handle)``."""

    def __init__(self, timeout_s: float | None = DEFAULT_TIMEOUT_S):
        self.timeout_s = timeout_s
        self.infeed = HostQueue("infeed", self)
        self.outfeed = HostQueue("outfeed", self)
        self._channels = {}
        self._lock = threading.Lock()
        self._aborted = None        # (error, rank) of a failed rank, until recover()

    def __repr__(self):
        chans = ", ".join(f"{h}: {len(q)}" for h, q in sorted(self.channels.items()))
        return (f"<HostQueues infeed: {len(self.infeed)}, outfeed: {len(self.outfeed)}, "
                f"channels {{{chans}}}>")

    def channel(self, handle: int) -> HostQueue:
        """The FIFO of host-transfer channel ``handle`` (made on first use)."""
        handle = int(handle)
        with self._lock:
            q = self._channels.get(handle)
            if q is None:
                q = self._channels[handle] = HostQueue(f"channel {handle}", self)
            return q

    @property
    def channels(self) -> dict:
        """``{handle: HostQueue}`` of the channels used so far."""
        with self._lock:
            return dict(self._channels)

    def abort(self, error: BaseException, rank: int | None = None) -> None:
        """A rank sharing these queues failed: every pop waiting now, and each
        later one that finds its queue empty, raises ``PeerFailedError``
        naming ``rank`` (not its timeout) until ``recover``.  Entries stay."""
        with self._lock:
            self._aborted = (error, rank)
            queues = [self.infeed, self.outfeed, *self._channels.values()]
        for q in queues:
            q._fail_waiters(error, rank)

    def recover(self) -> None:
        """Forget an ``abort`` (every rank of the failed call has returned)."""
        with self._lock:
            self._aborted = None

    def queue(self, code: int, handle: int) -> HostQueue:
        """The queue a compiled host call names (vmfb/host_transfers.py)."""
        if not 0 <= code < len(QUEUES):
            raise HostQueueError(f"hal.host_queue: unknown queue code {code}")
        kind = QUEUES[code]
        return self.channel(handle) if kind == "channel" else getattr(self, kind)


def check_entry(queue: HostQueue, entry, views, op: str) -> None:
    """Raise ``HostQueueTypeError`` unless ``entry`` matches the result views."""
    want = "(" + ", ".join(type_text(v.shape, v.dtype) for v in views) + ")"
    if len(entry) != len(views):
        raise HostQueueTypeError(f"{op} on {queue.name}: the entry holds {len(entry)} arrays "
                                 f"{entry_text(entry)}, the program expects {len(views)} "
                                 f"{want}", queue.name)
    for i, (a, v) in enumerate(zip(entry, views)):
        if a.dtype != v.dtype or a.shape != tuple(v.shape):
            raise HostQueueTypeError(
                f"{op} on {queue.name}: array #{i} of the entry is "
                f"{type_text(a.shape, a.dtype)}, the program expects "
                f"{type_text(v.shape, v.dtype)}", queue.name)
