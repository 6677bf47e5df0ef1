"""A process pool that survives its workers: a worker that crashes (a native
kernel that corrupts memory, a segfault in a third-party runtime) or runs past
the time limit costs only its own item, which is reported, and is replaced.
``concurrent.futures`` instead breaks the whole pool on the first crash."""
from __future__ import annotations

import multiprocessing as mp
import time
from multiprocessing.connection import wait


def _worker(fn, conn):
    while True:
        msg = conn.recv()
        if msg is None:
            return
        conn.send(fn(msg))


def robust_map(fn, items, jobs, on_failure, timeout_s=600.0):
    """[fn(item)] in order; ``on_failure(item, reason)`` stands in for an item
    whose worker died or took longer than ``timeout_s``."""
    ctx = mp.get_context("fork")
    results = [None] * len(items)
    todo = list(range(len(items)))[::-1]
    busy = {}       # connection -> (process, item index, start time)

    def start():
        if not todo:
            return
        parent, child = ctx.Pipe()
        p = ctx.Process(target=_worker, args=(fn, child), daemon=True)
        p.start()
        child.close()
        give(parent, p)

    def give(conn, p):
        if todo:
            i = todo.pop()
            conn.send(items[i])
            busy[conn] = (p, i, time.monotonic())
        else:
            conn.send(None)
            p.join(5)
            conn.close()

    for _ in range(min(jobs, len(items))):
        start()
    while busy:
        ready = set(wait(list(busy) + [p.sentinel for p, _, _ in busy.values()], timeout=1.0))
        now = time.monotonic()
        for conn, (p, i, t0) in list(busy.items()):
            if conn in ready or p.sentinel in ready:
                del busy[conn]
                try:
                    results[i] = conn.recv()
                except (EOFError, OSError):
                    p.join(5)
                    results[i] = on_failure(items[i], f"worker died (exit code {p.exitcode})")
                    conn.close()
                    start()
                    continue
                give(conn, p)
            elif now - t0 > timeout_s:
                del busy[conn]
                p.kill()
                p.join(5)
                conn.close()
                results[i] = on_failure(items[i], f"timed out after {timeout_s:.0f} s")
                start()
    return results
