"""Compile statistics as a text table (``tensorvm-compile --stats``): per
function dispatches and transient bytes, seconds per stage (with each IR
pass summed by name), and the simplifications applied."""
from __future__ import annotations

from collections import defaultdict


def _table(header, rows) -> list:
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows)]
    line = lambda r: "  ".join(str(x).rjust(w) if i else str(x).ljust(w)
                               for i, (x, w) in enumerate(zip(r, widths))).rstrip()
    return [line(header), "  ".join("-" * w for w in widths), *map(line, rows)]


def format_stats(stats: dict) -> str:
    """``CompileResult.stats`` as aligned tables."""
    out = _table(("function", "dispatches", "transient bytes"),
                 [(f, n, f"{stats['transient_bytes'].get(f, 0):,}")
                  for f, n in stats.get("dispatches", {}).items()])
    stages = stats.get("stage_seconds") or stats.get("pass_seconds", [])
    summed, runs = defaultdict(float), defaultdict(int)
    for name, s in stages:
        summed[name] += s
        runs[name] += 1
    total = sum(summed.values()) or 1.0
    out += [""] + _table(("stage", "runs", "seconds", "share"),
                         [(n, runs[n], f"{s:.3f}", f"{100 * s / total:.0f}%")
                          for n, s in summed.items()])
    simp = stats.get("simplifications") or {}
    if simp:
        out += [""] + _table(("simplification", "applied"), sorted(simp.items()))
    return "\n".join(out)
