"""A pool of worker threads that help run the segments of CPU programs.

A ``SegmentJob`` holds one segment's work items (a dispatch's workgroup
range, or a whole small dispatch / transfer).  The queue thread and every
woken worker take items from it until none are left (dynamic load
balancing: independent dispatches of a segment run at the same time, and a
big dispatch's ranges spread over all threads).  Each item is one native
call; cffi drops the GIL inside it, so items really run in parallel.  The
queue thread waits only for items that were taken, never for a worker that
woke too late to find one.
"""
from __future__ import annotations

import itertools
import queue
import threading
from .cpu_program import DispatchPacket


class SegmentJob:
    """Work items of one segment, shared by the queue thread and workers."""

    __slots__ = ("items", "tracer", "_next", "_left", "_lock", "_done", "error")

    def __init__(self, items, tracer=None):
        self.items = items
        self.tracer = tracer
        self._next = itertools.count().__next__
        self._left = len(items)
        self._lock = threading.Lock()
        self._done = threading.Event()
        self.error = None
        if not items:
            self._done.set()

    def work(self) -> None:
        """Run items until none are left (called by several threads at once)."""
        items, n, tracer = self.items, len(self.items), self.tracer
        while True:
            i = self._next()
            if i >= n:
                return
            op, rng = items[i]
            exc = None
            if self.error is None:
                try:
                    if tracer is None:
                        if rng is None:
                            if type(op) is DispatchPacket:     # measured: see local_task
                                op.run_measured()
                            else:
                                op.run_all()
                        else:
                            op.run(*rng)
                    else:
                        run_traced(tracer, op, rng)
                except BaseException as e:     # noqa: BLE001 - reported to the queue
                    exc = e
            with self._lock:
                if exc is not None and self.error is None:
                    self.error = exc
                self._left -= 1
                last = self._left == 0
            if last:
                self._done.set()

    def wait(self) -> None:
        self._done.wait()

    def wait_taken(self) -> None:
        """Take every item no thread took yet (a worker waking later finds
        none) and wait for the taken ones: for work every caller finishes
        together (a native team), a late worker is not waited for."""
        n = len(self.items)
        while self._next() < n:
            with self._lock:
                self._left -= 1
                last = self._left == 0
            if last:
                self._done.set()
        self._done.wait()


def run_traced(tracer, op, rng) -> None:
    """Run one item and record it as a trace event on this thread."""
    t0 = tracer.now()
    try:
        if rng is None:
            if type(op) is DispatchPacket:
                op.run_measured()
            else:
                op.run_all()
        else:
            op.run(*rng)
    finally:
        total = getattr(op, "total", None)
        b, e = rng if rng is not None else (0, total)
        args = {"workgroups": [b, e]} if total is not None else None
        loop_stats = getattr(op, "loop_stats", None)
        if loop_stats is not None:
            stats = loop_stats()
            if stats is not None:
                args.update(stats)
        tracer.complete(op.name, "dispatch" if total is not None else "transfer",
                        t0, tracer.now(), args)


def _worker_main(jobs: queue.SimpleQueue) -> None:
    while True:
        job = jobs.get()
        if job is None:
            return
        job.work()


class WorkerPool:
    """``count`` daemon threads that help with submitted ``SegmentJob``s."""

    def __init__(self, count: int, name: str = "tensorvm-worker"):
        self.count = count
        self._jobs = queue.SimpleQueue()
        self._threads = [threading.Thread(target=_worker_main, args=(self._jobs,),
                                          name=f"{name}-{i}", daemon=True)
                         for i in range(count)]
        for t in self._threads:
            t.start()

    def submit(self, job: SegmentJob) -> None:
        """Wake one worker to help with ``job``."""
        self._jobs.put(job)

    def shutdown(self) -> None:
        for _ in self._threads:
            self._jobs.put(None)
