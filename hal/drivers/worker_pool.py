"""A pool of worker threads that run workgroup ranges of CPU dispatches.

Each job is one contiguous workgroup range of one dispatch and costs one
native call; cffi drops the GIL inside it, so jobs run in parallel.  A
``Latch`` counts a segment's jobs down so the queue thread can wait for the
barrier, and keeps the first error a job raised.
"""
from __future__ import annotations

import queue
import threading


class Latch:
    """Counts outstanding jobs; ``wait()`` returns when all have finished."""

    __slots__ = ("_count", "_lock", "_done", "error")

    def __init__(self, count: int):
        self._count = count
        self._lock = threading.Lock()
        self._done = threading.Event()
        self.error = None
        if count == 0:
            self._done.set()

    def finish(self, exc=None) -> None:
        with self._lock:
            if exc is not None and self.error is None:
                self.error = exc
            self._count -= 1
            last = self._count == 0
        if last:
            self._done.set()

    def wait(self) -> None:
        self._done.wait()


def _worker_main(jobs: queue.SimpleQueue) -> None:
    while True:
        job = jobs.get()
        if job is None:
            return
        packet, begin, end, latch = job
        try:
            packet.run(begin, end)
        except BaseException as e:       # noqa: BLE001 - reported through the latch
            latch.finish(e)
        else:
            latch.finish()


class WorkerPool:
    """``count`` daemon threads pulling (packet, begin, end, latch) jobs."""

    def __init__(self, count: int, name: str = "tensorvm-worker"):
        self.count = count
        self._jobs = queue.SimpleQueue()
        self._threads = [threading.Thread(target=_worker_main, args=(self._jobs,),
                                          name=f"{name}-{i}", daemon=True)
                         for i in range(count)]
        for t in self._threads:
            t.start()

    def submit(self, packet, begin: int, end: int, latch: Latch) -> None:
        self._jobs.put((packet, begin, end, latch))

    def shutdown(self) -> None:
        for _ in self._threads:
            self._jobs.put(None)
