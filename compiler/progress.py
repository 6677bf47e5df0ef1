"""Compile progress: stage events for a callback, stage timings for the stats.

A compile runs parse, each IR pass, planning, one codegen per target (the
C compiler's part: the long one), assembly and the write of the module;
parse and write name the bytes they move, so a long compile of a big model
shows where it is at real size.  ``Progress`` is told when
each stage starts; it calls ``CompileOptions.progress`` (if set) with a
``ProgressEvent`` and keeps each stage's seconds for ``stats["stage_seconds"]``.
"""
from __future__ import annotations

import time
from dataclasses import dataclass


@dataclass(frozen=True)
class ProgressEvent:
    step: int          # 1-based number of the stage starting now; total + 1 once done
    total: int
    stage: str         # "parse (873.6 MB)", "pass cse", "plan", "codegen cpu (12 kernels)",
                       # "assemble", "write (436.9 MB)", "done"
    elapsed_s: float   # since the compile started


class Progress:
    def __init__(self, callback=None, total: int = 0):
        self.callback, self.total = callback, total
        self.step, self.timings = 0, []
        self.t0 = self._last = time.perf_counter()
        self._stage = None

    def __call__(self, stage: str) -> None:
        """Stage ``stage`` starts now (the previous one ends)."""
        self._close()
        self.step += 1
        self._stage = stage
        self._emit(stage)

    def done(self) -> None:
        self._close()
        self.step = self.total + 1
        self._emit("done")

    def _close(self):
        now = time.perf_counter()
        if self._stage is not None:
            self.timings.append((self._stage, now - self._last))
        self._stage, self._last = None, now

    def _emit(self, stage):
        if self.callback is not None:
            self.callback(ProgressEvent(self.step, self.total, stage,
                                        time.perf_counter() - self.t0))


def print_progress(stream):
    """A callback writing one line per stage to ``stream`` (``--progress``)."""
    def show(e: ProgressEvent):
        if e.stage == "done":
            print(f"[{e.total}/{e.total}] done in {e.elapsed_s:.2f} s", file=stream, flush=True)
        else:
            print(f"[{e.step}/{e.total}] {e.elapsed_s:6.2f} s  {e.stage}", file=stream,
                  flush=True)
    return show


def format_bytes(n: int) -> str:
    """``n`` bytes for a stage name: "812 B", "3.4 kB", "873.6 MB", "2.1 GB"."""
    for unit, size in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if n >= size:
            return f"{n / size:.1f} {unit}"
    return f"{n} B"
