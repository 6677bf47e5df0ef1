"""In-process channel provider: N ranks that are threads of one process.

An ``InProcessHub`` is the shared memory the ranks meet in: one condition
variable guards a table of exchange slots (keyed by tag and group) and of
point-to-point mailboxes.  Arrays are passed by reference and copied by the
reader that keeps them, so nothing is serialised.  A rank that fails calls
``abort``: the hub remembers the first failure and every wait, present and
future, raises ``PeerFailedError`` naming that rank, until ``reset``.

``reset`` (the runtime calls it through ``Channel.recover`` once every rank
of a failed call has returned) forgets the failure and whatever the failed
call left behind: half-filled exchange slots and unread mail.  The hub is
then as new; the ranks' tag counters restart with it.
"""
from __future__ import annotations

import threading
import time

from ..channel import Channel, ChannelTimeoutError, PeerFailedError, DEFAULT_TIMEOUT_S


class InProcessHub:
    """Meeting point of ``size`` in-process ranks (see module docstring)."""

    _POLL_S = None     # waits wake only when notified (a subclass may poll elsewhere too)

    def __init__(self, size: int):
        if size < 1:
            raise ValueError(f"a channel needs at least one rank, got {size}")
        self.size = size
        self._cond = threading.Condition()
        self._slots: dict = {}        # (tag, group) -> {rank: payload}
        self._reads: dict = {}        # (tag, group) -> ranks that have read it
        self._mail: dict = {}         # (src, dst, tag) -> payload
        self._failure = None          # (rank, message)

    def channels(self, num_replicas=None, num_partitions=1, timeout_s=DEFAULT_TIMEOUT_S) -> list:
        """One Channel per rank, in rank order."""
        return [Channel(_Endpoint(self, r), num_replicas, num_partitions, timeout_s)
                for r in range(self.size)]

    def reset(self) -> None:
        """Forget a failure and every pending slot and mailbox (see module
        docstring). Only when no rank is inside a collective."""
        with self._cond:
            self._slots.clear()
            self._reads.clear()
            self._mail.clear()
            self._failure = None
            self._cond.notify_all()

    @property
    def failed(self) -> bool:
        return self._failure is not None

    def _check(self) -> None:
        if self._failure is not None:
            rank, msg = self._failure
            raise PeerFailedError(f"rank {rank} of the channel failed: {msg}", rank)

    def _wait(self, ready, timeout_s, what) -> None:
        """Wait (holding the condition) until ``ready()`` or a failure or timeout."""
        deadline = None if timeout_s is None else time.monotonic() + timeout_s
        while True:
            self._check()
            if ready():
                return
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                raise ChannelTimeoutError(f"{what}: timed out after {timeout_s:g} s")
            if self._POLL_S is not None:
                left = self._POLL_S if left is None else min(left, self._POLL_S)
            self._cond.wait(left)


class _Endpoint:
    """One rank's side of the hub (the transport a Channel talks to)."""

    def __init__(self, hub: InProcessHub, rank: int):
        self.hub, self.rank, self.size = hub, rank, hub.size

    def exchange(self, group, tag, payload, timeout_s):
        hub, key = self.hub, (tag, group)
        with hub._cond:
            hub._check()
            slot = hub._slots.setdefault(key, {})
            slot[self.rank] = payload
            hub._cond.notify_all()

            def missing():
                return [r for r in group if r not in slot]
            try:
                hub._wait(lambda: not missing(), timeout_s,
                          f"rank {self.rank}: collective #{tag} over {list(group)} waiting "
                          f"for rank(s) {missing()}")
            except ChannelTimeoutError as e:
                raise ChannelTimeoutError(f"{e}; still missing rank(s) {missing()}") from None
            out = [slot[r] for r in group]
            reads = hub._reads.setdefault(key, set())
            reads.add(self.rank)
            if len(reads) == len(group):
                del hub._slots[key], hub._reads[key]
        return out

    def send(self, dst, tag, array, timeout_s):
        hub = self.hub
        with hub._cond:
            hub._check()
            hub._mail[(self.rank, dst, tag)] = array.copy()
            hub._cond.notify_all()

    def recv(self, src, tag, timeout_s):
        hub, key = self.hub, (src, self.rank, tag)
        with hub._cond:
            hub._wait(lambda: key in hub._mail, timeout_s,
                      f"rank {self.rank}: receive #{tag} from rank {src}")
            return hub._mail.pop(key)

    def flush(self, timeout_s) -> None:
        """Sends are buffered in the hub at once: nothing to wait for."""

    def reset(self) -> None:
        self.hub.reset()

    def abort(self, exc) -> None:
        hub = self.hub
        with hub._cond:
            if hub._failure is None:
                hub._failure = (self.rank, f"{type(exc).__name__}: {exc}")
            hub._cond.notify_all()
