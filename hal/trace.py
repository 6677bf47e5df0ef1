"""Chrome trace / Perfetto JSON of what the HAL ran, per thread.

Set ``device.tracer = Tracer()`` (the runtime does it for
``load_module(..., trace=...)`` and ``tensorvm-run --trace=out.json``).
Drivers then record complete ("ph": "X") events: queue submissions on the
queue thread, and every dispatch range / transfer on the thread that ran it,
so overlapping dispatches show as overlapping bars on different worker rows.
Open the file in https://ui.perfetto.dev or chrome://tracing.
Recording is one list append per event (atomic under the GIL); with no
tracer set, drivers skip it entirely.
"""
from __future__ import annotations

import json
import os
import threading
import time

_now = time.perf_counter_ns


class Tracer:
    """Collects trace events; ``save(path)`` writes the JSON."""

    def __init__(self, path=None):
        self.path = os.fspath(path) if path is not None else None
        self.events = []
        self._threads = {}
        self._origin = _now()
        self._pid = os.getpid()

    now = staticmethod(_now)

    def complete(self, name: str, cat: str, begin_ns: int, end_ns: int, args=None) -> None:
        """One duration event on the calling thread ([begin_ns, end_ns) of ``now()``)."""
        tid = threading.get_native_id()
        if tid not in self._threads:
            self._threads[tid] = threading.current_thread().name
        ev = {"name": name, "cat": cat, "ph": "X", "pid": self._pid, "tid": tid,
              "ts": (begin_ns - self._origin) / 1000.0,
              "dur": max(0, end_ns - begin_ns) / 1000.0}
        if args:
            ev["args"] = args
        self.events.append(ev)

    def spans(self, cat=None) -> list:
        """The duration events (of one category), sorted by start time."""
        evs = [e for e in list(self.events) if cat is None or e["cat"] == cat]
        return sorted(evs, key=lambda e: e["ts"])

    def to_json(self) -> dict:
        meta = [{"name": "thread_name", "ph": "M", "pid": self._pid, "tid": tid,
                 "args": {"name": name}} for tid, name in list(self._threads.items())]
        meta.append({"name": "process_name", "ph": "M", "pid": self._pid, "tid": 0,
                     "args": {"name": "tensorvm"}})
        return {"traceEvents": meta + list(self.events), "displayTimeUnit": "ms"}

    def save(self, path=None) -> str:
        """Write the trace JSON to ``path`` (default: the path given at creation)."""
        path = os.fspath(path) if path is not None else self.path
        if path is None:
            raise ValueError("Tracer.save needs a path")
        with open(path, "w") as f:
            json.dump(self.to_json(), f)
        return path


def overlapping(a: dict, b: dict) -> bool:
    """True when two duration events overlap in time."""
    return a["ts"] < b["ts"] + b["dur"] and b["ts"] < a["ts"] + a["dur"]
