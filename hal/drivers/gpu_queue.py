"""The submit / completion thread pair of the GPU drivers (opencl, cuda).

``submit_items`` takes ``(wait, signal, work)`` in order.  The submit thread
waits for ``wait`` (polling for close), then calls ``work()``, which enqueues
device commands and returns a ``done()`` function (or None).  The completion
thread calls ``done()`` -- which blocks until the device finished -- and
signals ``signal``, or fails it with whatever went wrong (a failed wait
fence, an enqueue error, a device error).  So the device runs one submission
while the host enqueues the next, and errors reach fences, never hang them.

``run_waited``: a submission its caller waits for at once (the end of a
call, a loop condition read back) runs on the caller's thread when nothing
is queued or in flight -- enqueue, then wait for the device -- instead of
being handed to the submit thread and back through the completion thread
(two thread switches per submission; on a loaded machine each can cost a
scheduler time slice).  ``enqueue_lock`` keeps the enqueue work of the two
paths apart (kernels' arguments are set there).

``QueueStats`` / ``timed``: the host work of each submission (the submit
thread's time in ``work()``: binding, argument setting, enqueue calls),
summed for ``device.stats()`` and, with a tracer on the device, one
``enqueue`` trace event per submission on the submit thread and one
``submission`` event (enqueue to completion) on the completion thread.
"""
from __future__ import annotations

import queue as pyqueue
import threading
import time

from ..device import donor
from ..errors import HalError
from .cpu_device import settle

_POLL_S = 0.25


class GpuQueues:
    """The submit and completion threads; holds no device reference."""

    def __init__(self, name, thread_init=None):
        self.name = name
        self.thread_init = thread_init
        self.submit_items = pyqueue.SimpleQueue()
        self.done_items = pyqueue.SimpleQueue()
        self.closed = False
        self.enqueue_lock = threading.Lock()    # one thread enqueues at a time
        self._count_lock = threading.Lock()
        self.outstanding = 0                    # submissions queued or in flight
        self.threads = [threading.Thread(target=self.submit_main, name=f"{name}-submit", daemon=True),
                        threading.Thread(target=self.done_main, name=f"{name}-done", daemon=True)]
        for t in self.threads:
            t.start()

    def wait_settled(self, fence) -> bool:
        if fence is None or fence.is_settled:
            return True
        ev = threading.Event()
        cancel = fence.on_ready(lambda exc: ev.set())
        while not ev.wait(_POLL_S):
            if self.closed:
                cancel()
                return False
        return True

    def submit(self, wait, signal, work) -> None:
        """Queue a submission for the submit thread."""
        with self._count_lock:
            self.outstanding += 1
        self.submit_items.put((wait, signal, work))

    def _finished(self) -> None:
        with self._count_lock:
            self.outstanding -= 1

    def run_waited(self, wait, signal, work) -> None:
        """``submit`` for a caller that waits for ``signal`` right away: run
        here when the queue is idle, ``wait`` is settled and the device's
        threads need no set-up of the caller's (CUDA's context); else queue."""
        with self._count_lock:      # never on a thread that must not wait (the VM scheduler)
            here = not self.outstanding and self.thread_init is None and not self.closed \
                and (wait is None or wait.is_settled) and donor.allowed
            if here:
                self.outstanding += 1
        if not here:
            self.submit(wait, signal, work)
            return
        exc = wait.failure if wait is not None else None
        try:
            if exc is None and work is not None:
                with self.enqueue_lock:
                    done = work()
                if done is not None:
                    done()
        except BaseException as e:      # noqa: BLE001 - goes to the fence
            exc = e
        finally:
            self._finished()
        settle(signal, exc)

    def submit_main(self):
        if self.thread_init is not None:
            self.thread_init()
        while True:
            item = self.submit_items.get()
            if item is None:
                self.done_items.put(None)
                return
            wait, signal, work = item
            done, exc = None, None
            if not self.wait_settled(wait):
                exc = HalError(f"device '{self.name}' was closed before the work ran")
            else:
                exc = wait.failure if wait is not None else None
                if exc is None and work is not None:
                    try:
                        with self.enqueue_lock:
                            done = work()
                    except BaseException as e:      # noqa: BLE001 - goes to the fence
                        exc = e
            self.done_items.put((done, signal, exc))

    def done_main(self):
        if self.thread_init is not None:
            self.thread_init()
        while True:
            item = self.done_items.get()
            if item is None:
                return
            done, signal, exc = item
            if exc is None and done is not None:
                try:
                    done()
                except BaseException as e:          # noqa: BLE001
                    exc = e
            self._finished()
            settle(signal, exc)

    def shutdown(self):
        self.closed = True
        self.submit_items.put(None)


class QueueStats:
    """Host work of one GPU device's submissions; written by its submit
    thread only, so plain counters suffice.  ``cpu_ns`` is the submit
    thread's CPU time (the host work itself, whatever else the cores run),
    ``wall_ns`` the elapsed time."""

    __slots__ = ("submissions", "commands", "cpu_ns", "wall_ns")

    def __init__(self):
        self.submissions = self.commands = self.cpu_ns = self.wall_ns = 0

    def as_dict(self) -> dict:
        n, c = self.submissions, self.commands
        return {"submissions": n, "commands": c, "host_cpu_ns": self.cpu_ns,
                "host_wall_ns": self.wall_ns,
                "host_us_per_submission": self.cpu_ns / n / 1e3 if n else 0.0,
                "host_us_per_command": self.cpu_ns / c / 1e3 if c else 0.0}


def timed(device, enqueue):
    """``work()`` for the submit thread: runs ``enqueue()`` (which returns
    ``(done, commands enqueued)``), adds its CPU and wall time to
    ``device.queue_stats`` and traces it when ``device.tracer`` is set;
    returns ``done``."""
    stats, tracer = device.queue_stats, device.tracer
    cpu, wall = time.thread_time_ns, time.perf_counter_ns

    def work():
        t0, c0 = wall(), cpu()
        done, count = enqueue()
        c1, t1 = cpu(), wall()
        stats.submissions += 1
        stats.commands += count
        stats.cpu_ns += c1 - c0
        stats.wall_ns += t1 - t0
        if tracer is None:
            return done
        tracer.complete("enqueue", "queue", t0, t1, {"commands": count,
                                                     "host_cpu_us": (c1 - c0) / 1e3})

        def traced_done():
            try:
                done()
            finally:
                tracer.complete("submission", "queue", t0, tracer.now(), {"commands": count})
        return traced_done
    return work
