"""``local-task``: the CPU driver with a queue thread and a worker pool.

``queue_execute`` only enqueues and returns.  One queue thread per device
takes submissions in order, waits for each wait fence (without blocking the
submitter), runs the command buffers and settles the signal fence.

Inside a command buffer, the ops between two execution barriers form a
segment and may run concurrently.  A dispatch with at least
``inline_threshold`` workgroups is cut into ``min(workers, count)``
contiguous ranges (one native call each); smaller dispatches, fills, copies
and updates are one item each.  A segment of one item runs on the queue
thread (a hand-off costs more than a tiny job); otherwise the queue thread
and up to ``workers - 1`` pool threads take items from a shared
``SegmentJob`` until none are left, so independent dispatches of one
segment run at the same time.

URI: ``local-task`` (``os.cpu_count()`` workers) or ``local-task://N``.
"""
from __future__ import annotations

import os
import queue
import threading
import weakref

from ..errors import HalError
from .cpu_device import CpuDevice, run_submission, settle
from .cpu_program import DispatchPacket
from .worker_pool import SegmentJob, WorkerPool, run_traced

DEFAULT_INLINE_THRESHOLD = 4
_POLL_S = 0.25      # how often a blocked queue thread checks for close()


def _ranges(total: int, parts: int):
    q, r = divmod(total, parts)
    start = 0
    for i in range(parts):
        n = q + (1 if i < r else 0)
        yield start, start + n
        start += n


class _Queue:
    """Queue-thread state; holds no reference to the device (so it can be
    garbage collected and shut the threads down)."""

    def __init__(self, name, workers, inline_threshold):
        self.name = name
        self.workers = workers
        self.inline_threshold = max(1, inline_threshold)
        self.pool = WorkerPool(workers - 1, f"{name}-worker") if workers > 1 else None
        self.items = queue.SimpleQueue()
        self.closed = False
        self.tracer = None
        self.thread = threading.Thread(target=self.main, name=f"{name}-queue", daemon=True)
        self.thread.start()

    def run_segment(self, seg) -> None:
        pool, tracer = self.pool, self.tracer
        items = []
        for op in seg:
            if pool is not None and type(op) is DispatchPacket and op.total >= self.inline_threshold:
                items.extend((op, r) for r in _ranges(op.total, min(self.workers, op.total)))
            else:
                items.append((op, None))
        if len(items) == 1:
            op, rng = items[0]
            if tracer is not None:
                run_traced(tracer, op, rng)
            elif rng is None:
                op.run_all()
            else:
                op.run(*rng)
            return
        job = SegmentJob(items, tracer)
        for _ in range(min(len(items), self.workers) - 1):
            pool.submit(job)
        job.work()
        job.wait()
        if job.error is not None:
            raise job.error

    def run_programs(self, programs) -> None:
        for p in programs:
            for seg in p.segments:
                self.run_segment(seg)

    def wait_settled(self, fence) -> bool:
        """Block until ``fence`` is signalled or failed; False if closed first."""
        if fence is None or fence.is_settled:
            return True
        done = threading.Event()
        cancel = fence.on_ready(lambda exc: done.set())
        while not done.wait(_POLL_S):
            if self.closed:
                cancel()
                return False
        return True

    def main(self) -> None:
        while True:
            item = self.items.get()
            if item is None:
                break
            wait, signal, work = item
            if not self.wait_settled(wait):
                settle(signal, HalError(f"device '{self.name}' was closed before the work ran"))
                continue
            run_submission(wait, signal, work, self.tracer)
        if self.pool is not None:
            self.pool.shutdown()

    def shutdown(self) -> None:
        self.closed = True
        self.items.put(None)


class LocalTaskDevice(CpuDevice):
    """CPU device with an asynchronous queue and a worker pool."""

    def __init__(self, workers=None, inline_threshold: int = DEFAULT_INLINE_THRESHOLD,
                 name: str = "local-task"):
        super().__init__(name)
        self.workers = int(workers or os.cpu_count() or 1)
        if self.workers < 1:
            raise HalError(f"local-task needs at least 1 worker, got {workers}")
        self._queue = _Queue(name, self.workers, inline_threshold)
        self._finalizer = weakref.finalize(self, self._queue.shutdown)

    @property
    def tracer(self):
        return self._queue.tracer

    @tracer.setter
    def tracer(self, value):
        self._queue.tracer = value

    @property
    def inline_threshold(self) -> int:
        return self._queue.inline_threshold

    def _program_runner(self, programs):
        q = self._queue
        return lambda: q.run_programs(programs)

    def _submit(self, wait, signal, work) -> None:
        self._queue.items.put((wait, signal, work))

    def close(self) -> None:
        """Finish queued work whose waits are met, fail the rest, stop threads."""
        super().close()
        self._finalizer()


class LocalTaskDriver:
    """Driver entry for ``local-task``; the URI path is the worker count."""

    name = "local-task"

    def availability(self):
        return None

    def enumerate(self) -> list:
        return [{"path": "", "name": "local-task",
                 "description": f"CPU, {os.cpu_count()} workers (local-task://N to choose)"}]

    def create_device(self, path: str = "", **options):
        workers = None
        if path:
            try:
                workers = int(path)
            except ValueError:
                raise HalError(f"local-task device path must be a worker count, got {path!r}") \
                    from None
            if workers < 1:
                raise HalError(f"local-task needs at least 1 worker, got {workers}")
        return LocalTaskDevice(workers, **options)
