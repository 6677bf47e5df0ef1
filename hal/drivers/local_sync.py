"""``local-sync``: the CPU driver that runs work inline on the calling thread.

Lowest latency and easiest to debug: a submission whose wait fence is already
signalled runs inside ``queue_execute``.  A submission that must wait is kept
in a FIFO and runs on whichever thread signals the fence it waits on (the
queue never blocks the submitter, so a host thread that signals later cannot
deadlock against itself).  Order is FIFO: a later submission never overtakes
an earlier one, whatever their wait fences.

Submissions that run inline at once (nothing queued, nothing running from
the queue) may run at the same time on their submitting threads: they were
submitted concurrently, so no order between them exists to keep, and
serialising them made every caller but one queue behind the others and be
woken by a fence (8 threads calling one module got a fifth of one thread's
calls through).  Queued work starts only once every inline run that began
before it has finished.
"""
from __future__ import annotations

import collections
import threading

from ..errors import HalError, rethrow
from .cpu_device import CpuDevice, run_submission


class LocalSyncDevice(CpuDevice):
    """CPU device executing submissions inline."""

    inline_queue = True

    def __init__(self, name: str = "local-sync"):
        super().__init__(name)
        self._pending = collections.deque()
        self._lock = threading.Lock()
        self._pumping = False            # a thread is running queued work
        self._inline = []                # a token per thread running its own work inline

    def _program_runner(self, programs):
        if len(programs) == 1 and self.tracer is None:
            return programs[0].run_once
        tracer = self.tracer

        def run():
            try:
                for p in programs:
                    p.run_inline(tracer)
            finally:
                for p in programs:
                    p.release()
        return run

    def _claim(self, wait=None) -> bool:
        """Run inline on this thread if nothing is queued or running from the
        queue (and ``wait`` is None or settled); other inline runs may be
        going on.

        Lock-free: a lock taken by every call convoys under the GIL (a thread
        woken for the lock then waits for the GIL while holding it, so the
        next claimer blocks, and so on: one context switch per call).  The
        claim adds its token, then looks again; ``_pump`` sets ``_pumping``,
        then looks at the tokens: each step is one bytecode, so at least one
        of the two sees the other and backs off."""
        if self._pending or self._pumping or not (wait is None or wait.is_settled):
            return False
        self._inline.append(None)
        if self._pending or self._pumping:
            self._release_claim()
            return False
        return True

    def _release_claim(self) -> None:
        """End an inline run; the last one runs what was queued meanwhile."""
        inline = self._inline
        inline.pop()
        if not inline and self._pending:
            self._pump()

    def execute_now(self, cb, table) -> bool:
        """Run it here when nothing is queued or running (FIFO order kept)."""
        if self.tracer is not None or self.closed:
            return False
        program = self._program(cb, table)
        if not self._claim():
            program.release()
            return False
        try:
            program.run_once()
        except BaseException as e:    # noqa: BLE001 - as the fence's failure would be
            raise rethrow(e) from None
        finally:
            self._release_claim()
        return True

    def _submit(self, wait, signal, work) -> None:
        if wait is None and self.tracer is None and self._claim():
            try:                              # the common case: run it right here
                exc = None
                if work is not None:
                    try:
                        work()
                    except BaseException as e:    # noqa: BLE001 - goes to the fence
                        exc = e
                if signal is not None:
                    if exc is None:
                        signal.signal()
                    else:
                        signal.fail(exc)
            finally:
                self._release_claim()
            return
        if self._claim(wait):                 # settled wait, or traced: still inline
            try:
                run_submission(wait, signal, work, self.tracer)
            finally:
                self._release_claim()
            return
        with self._lock:
            self._pending.append((wait, signal, work))
        self._pump()

    def _pump(self, _exc=None) -> None:
        """Run pending submissions in order while their waits are settled."""
        with self._lock:
            if self._pumping:
                return                       # that thread will see our item
            self._pumping = True
            if self._inline:                 # (set, then look: see _claim)
                self._pumping = False
                return                       # the last inline run will pump
        try:
            while True:
                with self._lock:
                    if not self._pending:
                        self._pumping = False
                        return
                    wait, signal, work = self._pending[0]
                    blocked = wait is not None and not wait.is_settled
                    if blocked:
                        self._pumping = False
                    else:
                        self._pending.popleft()
                if blocked:
                    wait.on_ready(self._pump)   # may call back at once: fine
                    return
                run_submission(wait, signal, work, self.tracer)
        except BaseException:
            with self._lock:
                self._pumping = False
            raise

    def close(self) -> None:
        """Fail submissions still waiting; the device takes no more work."""
        super().close()
        with self._lock:
            pending, self._pending = list(self._pending), collections.deque()
        self._fail(pending, "was closed before the work ran")

    def _fail(self, pending, why) -> None:
        for _, signal, _ in pending:
            if signal is not None:
                signal.fail(HalError(f"device '{self.name}' {why}"))

    def _after_fork_in_child(self) -> None:
        """The thread that was pumping in the parent is gone: unlock, and fail
        the child's copies of work queued there (it runs in the parent)."""
        super()._after_fork_in_child()
        self._lock, self._pumping, self._inline = threading.Lock(), False, []
        pending, self._pending = list(self._pending), collections.deque()
        self._fail(pending, "had this work queued when the process forked; it runs in "
                            "the parent only")


class LocalSyncDriver:
    """Driver entry for ``local-sync`` (no URI options)."""

    name = "local-sync"

    def availability(self):
        return None

    def enumerate(self) -> list:
        return [{"path": "", "name": "local-sync", "description": "CPU, inline on the caller"}]

    def create_device(self, path: str = "", **options):
        if path or options:
            raise HalError(f"local-sync takes no device path or options (got {path!r} {options})")
        return LocalSyncDevice()
