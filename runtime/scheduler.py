"""The coroutine scheduler: one thread interleaves many VM invocations.

Two ways to start: ``start(invocation, done)`` returns at once and steps
the invocation on the scheduler thread; ``start_here(invocation, done)``
steps it on the caller until it first suspends or ends, with the caller
barred from running device queue work (``hal.device.donor``), so only the
host code runs there (argument checks, recording, submission: microseconds)
and kernels run on the device's queue threads.  ``invoke_async`` uses
``start_here`` on devices with queue threads (one thread hand-off fewer per
call: under the GIL each costs up to a switch interval when threads are
busy) and ``start`` on ``local-sync``, whose kernels then run inline on the
scheduler thread, one call at a time.  The scheduler thread never runs
device queue work (``hal.device.forbid_donation``).  A suspended invocation
is parked: its waitable's ``on_ready`` callback (fences have one) puts it on
the ready queue, and the scheduler thread resumes it there.  Nothing polls.  Every park has a deadline (the
invocation's own timeout, or the context default for ``-1``); a waitable that
is still pending then is resumed anyway, and the resumed wait raises the
timeout as a ``VmTrap`` in the caller's future.  ``watch(fence, timeout_s,
fn)`` gives the same once-only, bounded notification for plain fences.

A completion callback that raises is called again with that exception (so
the future it settles fails instead of staying pending forever); an error
with nowhere left to go is reported through ``threading.excepthook``, never
swallowed.  After ``os.fork`` the child gets a fresh default scheduler: the
parent's thread does not exist there and its lock may be held.
"""
from __future__ import annotations

import heapq
import itertools
import os
import queue
import threading
import time

from tensorvm.hal.device import donor, forbid_donation


class _Once:
    """Lets exactly one of (ready callback, deadline) fire."""
    __slots__ = ("_lock", "fired")

    def __init__(self):
        self._lock = threading.Lock()
        self.fired = False

    def claim(self) -> bool:
        with self._lock:
            if self.fired:
                return False
            self.fired = True
            return True


def _report(exc: BaseException) -> None:
    """Report an error no callback can take, as an uncaught thread error."""
    threading.excepthook(threading.ExceptHookArgs(
        (type(exc), exc, exc.__traceback__, threading.current_thread())))


def deliver(done, results, exc) -> None:
    """Call ``done(results, exc)``; if it raises, call ``done(None, error)``
    so the failure reaches what ``done`` settles (a future)."""
    try:
        done(results, exc)
        return
    except BaseException as e:      # noqa: BLE001 - handed back to done below
        if exc is not None:
            _report(e)
            return
        err = e
    try:
        done(None, err)
    except BaseException as e:      # noqa: BLE001 - nothing else can take it
        _report(e)


class Scheduler:
    """Resumes suspended invocations on one daemon thread (started lazily)."""

    def __init__(self, name: str = "tensorvm-scheduler"):
        self.name = name
        self._ready = queue.SimpleQueue()      # callables to run on the thread
        self._deadlines = []                   # heap of (time, seq, once, fn)
        self._seq = itertools.count()
        self._lock = threading.Lock()
        self._thread = None

    # -- public ----------------------------------------------------------------------
    def start(self, invocation, done) -> None:
        """Run ``invocation`` on the scheduler thread; ``done(results, exc)`` is
        called at the end (on the thread that finishes it)."""
        self._post(lambda: self._advance(invocation, done))

    def start_here(self, invocation, done) -> None:
        """Step ``invocation`` on this thread until it first suspends (then the
        scheduler thread resumes it) or ends; queue work submitted meanwhile
        goes to the device's queue threads, never runs here."""
        allowed = donor.allowed
        donor.allowed = False
        try:
            self._advance(invocation, done)
        finally:
            donor.allowed = allowed

    def watch(self, fence, timeout_s, fn) -> None:
        """Call ``fn(None)`` when ``fence`` is signalled, ``fn(exc)`` when it fails,
        or ``fn(HalTimeoutError)`` if neither happened within ``timeout_s``."""
        once = _Once()
        done = lambda _results, exc: fn(exc)    # noqa: E731

        def settled(exc):
            if once.claim():
                deliver(done, None, exc)

        def expired():
            if once.claim():
                from tensorvm.hal import HalTimeoutError
                deliver(done, None,
                        HalTimeoutError(f"timed out after {timeout_s}s waiting for {fence!r}"))
        self._arm(timeout_s, once, expired)
        fence.on_ready(settled)

    # -- internals ---------------------------------------------------------------------
    def _advance(self, inv, done) -> None:
        try:
            sus = inv.step()
        except BaseException as e:      # noqa: BLE001 - delivered to the caller
            deliver(done, None, e)
            return
        if sus is None:
            deliver(done, inv.results, None)
            return
        resume = lambda: self._advance(inv, done)   # noqa: E731
        waitable = sus.waitable
        if waitable is None:                       # a plain yield
            self._post(resume)
            return
        once = _Once()

        def wake(_exc=None):
            if once.claim():
                self._post(resume)
        self._arm(inv.timeout_s(sus), once, lambda: wake())
        on_ready = getattr(waitable, "on_ready", None)
        if on_ready is not None:
            on_ready(wake)
        else:                                      # foreign waitable: one helper thread
            def block():
                try:
                    waitable.wait(inv.timeout_s(sus))
                except Exception:                  # noqa: BLE001 - step() re-raises it
                    pass
                wake()
            threading.Thread(target=block, name=f"{self.name}-wait", daemon=True).start()

    def _arm(self, timeout_s, once, fn) -> None:
        if timeout_s is None or timeout_s == float("inf"):
            return
        entry = (time.monotonic() + timeout_s, next(self._seq), once, fn)
        with self._lock:
            heap = self._deadlines
            if len(heap) > 1024 and len(heap) & 1023 == 0:     # drop settled entries
                heap[:] = [e for e in heap if not e[2].fired]
                heapq.heapify(heap)
            heapq.heappush(heap, entry)
            earliest = heap[0] is entry
        self._ensure_thread()
        if earliest:
            self._ready.put(None)    # the thread sleeps until a later deadline: re-evaluate

    def _post(self, fn) -> None:
        self._ensure_thread()
        self._ready.put(fn)

    def _ensure_thread(self) -> None:
        if self._thread is None:
            with self._lock:
                if self._thread is None:
                    t = threading.Thread(target=self._main, name=self.name, daemon=True)
                    t.start()
                    self._thread = t

    def _main(self) -> None:
        forbid_donation()
        while True:
            with self._lock:
                while self._deadlines and self._deadlines[0][2].fired:
                    heapq.heappop(self._deadlines)          # settled in time: forget it
                due = []
                now = time.monotonic()
                while self._deadlines and self._deadlines[0][0] <= now:
                    due.append(heapq.heappop(self._deadlines)[3])
                wait = self._deadlines[0][0] - now if self._deadlines else None
            for fn in due:
                fn()
            try:
                fn = self._ready.get(timeout=wait)
            except queue.Empty:
                continue
            if fn is not None:
                try:
                    fn()
                except BaseException as e:             # noqa: BLE001 - keep serving
                    _report(e)


_DEFAULT = None
_DEFAULT_LOCK = threading.Lock()


def default_scheduler() -> Scheduler:
    """The process-wide scheduler used by ``Function.invoke_async``."""
    global _DEFAULT
    if _DEFAULT is None:
        with _DEFAULT_LOCK:
            if _DEFAULT is None:
                _DEFAULT = Scheduler()
    return _DEFAULT


def _after_fork_in_child() -> None:
    """The parent's scheduler thread does not exist in a forked child (and
    its locks may have been held at the fork): start afresh."""
    global _DEFAULT, _DEFAULT_LOCK
    _DEFAULT, _DEFAULT_LOCK = None, threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)
