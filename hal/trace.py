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


#: Trace args a native loop's dispatch carries (hal/drivers/cpu_program.loop_trace_args).
_LOOP_SUMS = ("iterations", "inner_iterations", "dispatches", "kernel_us", "host_us")
#: Trace args of a GPU queue's events (hal/drivers/gpu_queue.timed).
_QUEUE_SUMS = ("commands", "host_cpu_us")


def summary(tracer: Tracer) -> dict:
    """Totals per event name: ``{"calls": {...}, "dispatches": {...},
    "transfers": {...}}``, each ``{name: {"runs", "us"}}``; a native loop's
    entry also sums its per-iteration stats (iterations, dispatches,
    kernel_us, host_us) and gets ``host_us_per_iteration``: the loop's work
    outside its kernels, the host cost the VM would otherwise pay per step.
    ``"queue"``: a GPU device's submissions (``enqueue``: its submit
    thread's host work per submission, with ``commands`` and
    ``host_cpu_us`` summed; ``submission``: enqueue to completion), so a
    loop iteration's host cost on a GPU shows as its submission's."""
    groups = {"invocation": {}, "dispatch": {}, "transfer": {}, "queue": {}}
    for e in list(tracer.events):
        group = groups.get(e.get("cat"))
        if group is None:
            continue
        row = group.setdefault(e["name"], {"runs": 0, "us": 0.0})
        row["runs"] += 1
        row["us"] += e["dur"]
        args = e.get("args") or {}
        if "iterations" in args:
            for k in _LOOP_SUMS:
                row[k] = row.get(k, 0) + args[k]
        for k in _QUEUE_SUMS:
            if k in args:
                row[k] = row.get(k, 0) + args[k]
    for row in groups["dispatch"].values():
        if "iterations" in row:
            its = row["iterations"]
            row["host_us_per_iteration"] = row["host_us"] / its if its else 0.0
    return {"calls": groups["invocation"], "dispatches": groups["dispatch"],
            "transfers": groups["transfer"], "queue": groups["queue"]}


def format_summary(tracer: Tracer, top: int = 12) -> str:
    """``summary`` as text (``tensorvm-run --print-stats``): calls, the
    ``top`` dispatch entries by time, a GPU queue's host work per submission
    (per loop iteration when the loop reads its condition back), and every
    native loop's host cost per iteration."""
    s = summary(tracer)
    lines = []
    for name, row in sorted(s["calls"].items()):
        lines.append(f"{name}: {row['runs']} run(s), {row['us'] / row['runs']:.1f} us each")
    disp = s["dispatches"]
    runs = sum(r["runs"] for r in disp.values())
    lines.append(f"dispatches: {runs} run(s) of {len(disp)} entry point(s), "
                 f"{sum(r['us'] for r in disp.values()) / 1e3:.3f} ms")
    ranked = sorted(disp.items(), key=lambda kv: -kv[1]["us"])
    for name, row in ranked[:top]:
        lines.append(f"  {name:<32} {row['runs']:>6} runs {row['us'] / 1e3:>10.3f} ms "
                     f"{row['us'] / row['runs']:>10.1f} us/run")
    if len(ranked) > top:
        lines.append(f"  ... {len(ranked) - top} more")
    for name, row in sorted(s["queue"].items()):
        n = row["runs"]
        line = f"queue {name}: {n} run(s), {row['us'] / n:.1f} us each"
        if "commands" in row:
            line += f", {row['commands'] / n:.1f} commands each"
        if "host_cpu_us" in row:
            line += f", {row['host_cpu_us'] / n:.1f} us host CPU each " \
                    f"({row['host_cpu_us'] / max(row.get('commands', 0), 1):.2f} per command)"
        lines.append(line)
    loops = [(n, r) for n, r in ranked if "iterations" in r]
    if loops:
        lines.append("native loops (one dispatch each; host work = time outside their kernels):")
        for name, r in loops:
            lines.append(f"  {name:<32} {r['runs']:>4} runs {r['iterations']:>8} iterations "
                         f"{r['dispatches']:>9} kernels {r['kernel_us'] / 1e3:>9.3f} ms in kernels "
                         f"{r['host_us_per_iteration']:>8.2f} us host/iteration")
    return "\n".join(lines)


def overlapping(a: dict, b: dict) -> bool:
    """True when two duration events overlap in time."""
    return a["ts"] < b["ts"] + b["dur"] and b["ts"] < a["ts"] + a["dur"]
