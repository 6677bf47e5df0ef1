"""Timeline semaphores and fences: the HAL's only synchronisation objects.

A ``Semaphore`` holds a monotonically increasing 64-bit payload.  Waiters block
until the payload reaches a value, or until the semaphore *fails*: a failed
semaphore keeps the original exception and every waiter (present and future)
raises a ``HalError`` with its message, so an error upstream never turns into
a hang downstream.  A ``Fence`` is a set of (semaphore, value) timepoints that
queue operations wait on and signal.

Besides blocking waits, both offer ``on_ready(callback)``: the callback runs
once, on the thread that settles the last timepoint, with ``None`` on success
or the failure exception.  Drivers use it to schedule work without a thread
per wait.
"""
from __future__ import annotations

import threading
import time

from .errors import HalError, HalTimeoutError, rethrow

MAX_PAYLOAD = (1 << 64) - 1
_Lock = threading.Lock


def _check_payload(value) -> int:
    if not isinstance(value, int) or not 0 <= value <= MAX_PAYLOAD:
        raise HalError(f"semaphore payload must be an int in [0, 2**64), got {value!r}")
    return value


def _deadline(timeout_s):
    if timeout_s is None:
        return None
    if timeout_s < 0:
        raise HalError(f"timeout must be >= 0 seconds or None, got {timeout_s!r}")
    return time.monotonic() + timeout_s


def _remaining(deadline):
    return None if deadline is None else max(0.0, deadline - time.monotonic())


class Semaphore:
    """Timeline semaphore with a 64-bit payload and a sticky failure state."""

    __slots__ = ("_lock", "_cond", "_value", "_failure", "_callbacks", "__weakref__")

    def __init__(self, initial: int = 0):
        self._lock = _Lock()
        self._cond = None             # created by the first blocking wait
        self._value = initial if initial.__class__ is int and 0 <= initial <= MAX_PAYLOAD \
            else _check_payload(initial)
        self._failure = None
        self._callbacks = []          # [(value, fn)], fn(exc_or_None)

    @property
    def value(self) -> int:
        return self._value

    @property
    def failure(self):
        """The exception this semaphore failed with, or None."""
        return self._failure

    def reached(self, value: int) -> bool:
        """True when the payload is >= value; raises HalError if failed."""
        if self._failure is not None:
            raise rethrow(self._failure)
        return self._value >= value

    def signal(self, value: int) -> None:
        """Advance the payload to ``value`` (no-op once failed)."""
        if value.__class__ is not int or not 0 <= value <= MAX_PAYLOAD:
            _check_payload(value)
        with self._lock:
            if self._failure is not None:
                return
            if value < self._value:
                raise HalError(f"semaphore payload must not decrease: {self._value} -> {value}")
            self._value = value
            ready = [fn for v, fn in self._callbacks if v <= value] if self._callbacks else ()
            if ready:
                self._callbacks = [(v, fn) for v, fn in self._callbacks if v > value]
            if self._cond is not None:
                self._cond.notify_all()
        for fn in ready:
            fn(None)

    def fail(self, exc: BaseException) -> None:
        """Put the semaphore in the failure state; the first failure wins."""
        if not isinstance(exc, BaseException):
            exc = HalError(str(exc))
        with self._lock:
            if self._failure is not None:
                return
            self._failure = exc
            ready = [fn for _, fn in self._callbacks]
            self._callbacks = []
            if self._cond is not None:
                self._cond.notify_all()
        for fn in ready:
            fn(exc)

    def wait(self, value: int, timeout_s) -> None:
        """Block until the payload reaches ``value``.

        Raises HalTimeoutError after ``timeout_s`` seconds (None: no limit) and
        HalError with the original message if the semaphore failed."""
        deadline = _deadline(timeout_s)
        with self._lock:
            while self._value < value and self._failure is None:
                left = _remaining(deadline)
                if left == 0.0:
                    raise HalTimeoutError(
                        f"timed out after {timeout_s}s waiting for semaphore to reach "
                        f"{value} (at {self._value})")
                if self._cond is None:
                    self._cond = threading.Condition(self._lock)
                self._cond.wait(left)
            if self._failure is not None:
                raise rethrow(self._failure)

    def on_reached(self, value: int, fn):
        """Call ``fn(None)`` once the payload reaches value, or ``fn(exc)`` on
        failure; immediately (on this thread) if already settled.  Returns a
        cancel function."""
        with self._lock:
            settled = self._failure is not None or self._value >= value
            if not settled:
                entry = (value, fn)
                self._callbacks.append(entry)
        if settled:
            fn(self._failure)
            return _noop

        def cancel():
            with self._lock:
                try:
                    self._callbacks.remove(entry)
                except ValueError:
                    pass
        return cancel

    def __repr__(self):
        state = f"failed: {self._failure}" if self._failure is not None else f"value={self._value}"
        return f"<Semaphore {state}>"


def _noop():
    pass


_new_fence = object.__new__


class Fence:
    """A set of semaphore timepoints; signalled when all are reached.

    ``_one`` is the only (semaphore, value) when the fence has exactly one
    timepoint (what ``Device.create_fence`` makes), so the per-call checks
    (``is_signaled``, ``is_settled``, ``signal``) skip the general loops."""

    __slots__ = ("_points", "_one")

    def __init__(self, timepoints=()):
        self._points = {}
        self._one = None
        for sem, value in timepoints:
            self.insert(sem, value)

    @classmethod
    def single(cls, sem: "Semaphore", value: int) -> "Fence":
        """A fence over one timepoint (no argument checks beyond the types)."""
        if sem.__class__ is not Semaphore or value.__class__ is not int:
            return cls([(sem, value)])
        f = _new_fence(cls)
        f._points = {sem: value}
        f._one = (sem, value)
        return f

    @classmethod
    def join(cls, fences) -> "Fence":
        """One fence holding the timepoints of all ``fences`` (None skipped)."""
        out = cls()
        for f in fences:
            if f is not None:
                for sem, value in f.timepoints:
                    out.insert(sem, value)
        return out

    def insert(self, sem: Semaphore, value: int) -> None:
        """Add a timepoint; a semaphore already present keeps the larger value."""
        if not isinstance(sem, Semaphore):
            raise HalError(f"Fence.insert expects a Semaphore, got {type(sem).__name__}")
        _check_payload(value)
        if value > self._points.get(sem, -1):
            self._points[sem] = value
        self._one = next(iter(self._points.items())) if len(self._points) == 1 else None

    @property
    def timepoints(self) -> list:
        return list(self._points.items())

    def __len__(self):
        return len(self._points)

    @property
    def failure(self):
        """The first failure among the semaphores, or None."""
        one = self._one
        if one is not None:
            return one[0]._failure
        for sem in self._points:
            if sem.failure is not None:
                return sem.failure
        return None

    @property
    def is_signaled(self) -> bool:
        """True when every timepoint is reached and none failed."""
        one = self._one
        if one is not None:
            sem = one[0]
            return sem._failure is None and sem._value >= one[1]
        return all(s._failure is None and s._value >= v for s, v in self._points.items())

    @property
    def is_settled(self) -> bool:
        """True when signalled or failed (a wait would return at once)."""
        one = self._one
        if one is not None:
            sem = one[0]
            return sem._failure is not None or sem._value >= one[1]
        return self.failure is not None or self.is_signaled

    def signal(self) -> None:
        """Signal every semaphore to its timepoint (host-side signal)."""
        one = self._one
        if one is not None:
            one[0].signal(one[1])
            return
        for sem, value in list(self._points.items()):
            sem.signal(value)

    def fail(self, exc: BaseException) -> None:
        """Fail every semaphore of the fence with ``exc``."""
        for sem in list(self._points):
            sem.fail(exc)

    def wait(self, timeout_s) -> None:
        """Block until signalled; HalTimeoutError / HalError as Semaphore.wait."""
        one = self._one
        if one is not None:
            sem, value = one
            if sem._failure is None and sem._value >= value:
                return
            sem.wait(value, timeout_s)
            return
        failure = self.failure
        if failure is not None:
            raise rethrow(failure)
        if self.is_signaled:
            return
        done = threading.Event()
        cancel = self.on_ready(lambda exc: done.set())
        if not done.wait(timeout_s):
            cancel()
            raise HalTimeoutError(f"timed out after {timeout_s}s waiting for {self!r}")
        failure = self.failure
        if failure is not None:
            raise rethrow(failure)

    def on_ready(self, fn):
        """Call ``fn(None)`` once all timepoints are reached or ``fn(exc)`` on the
        first failure, exactly once.  Returns a cancel function."""
        points = self.timepoints
        if not points:
            fn(None)
            return _noop
        lock = threading.Lock()
        state = [len(points), False]       # pending count, fired

        def one(exc):
            with lock:
                if state[1]:
                    return
                if exc is None:
                    state[0] -= 1
                    if state[0]:
                        return
                state[1] = True
            fn(exc)

        cancels = [sem.on_reached(value, one) for sem, value in points]

        def cancel():
            for c in cancels:
                c()
        return cancel

    def __repr__(self):
        pts = ", ".join(f"{s!r}>={v}" for s, v in self._points.items())
        return f"<Fence [{pts}]>"
