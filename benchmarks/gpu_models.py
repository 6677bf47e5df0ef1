"""Time the real-model set (benchmarks/models) on the OpenCL driver next to
the CPU path (local-task), min of N calls after a warm-up, and check each
result against the library's outputs.

    python benchmarks/gpu_models.py [--only mobilenet_v2,bert_tiny] [--reps 5]
        [--devices opencl,local-task]

On PoCL the "device" is the same CPUs, so the ratio to local-task says how
much of the CPU the generated OpenCL C uses and what host work costs.  For
a GPU device the row also gives the host work per call on its submit thread
(its CPU time binding, setting arguments and enqueueing: ``device.stats()``),
per enqueued command and the submissions per call, over the timed calls; the
last line is the geomean of the first device's time over the second's.
"""
from __future__ import annotations

import argparse
import math
import pathlib
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "models"))
import load as model_set  # noqa: E402


def _time(fn, reps: int) -> float:
    import numpy as np
    out = fn()
    [np.asarray(o) for o in (out if isinstance(out, tuple) else (out,))]
    best = float("inf")
    for _ in range(reps):
        t = time.perf_counter()
        out = fn()
        [np.asarray(o) for o in (out if isinstance(out, tuple) else (out,))]
        best = min(best, time.perf_counter() - t)
    return best * 1e3


def _host_work(device, before, calls: int) -> str:
    """Host us per call and per command, submissions per call, from the
    driver's counters (blank for drivers without them)."""
    stats = getattr(device, "stats", None)
    if before is None or stats is None:
        return ""
    after = stats()
    subs = after["submissions"] - before["submissions"]
    cmds = after["commands"] - before["commands"]
    host_us = (after["host_cpu_ns"] - before["host_cpu_ns"]) / 1e3
    if not subs:
        return ""
    return f"{host_us / calls:>12.0f}{host_us / max(cmds, 1):>10.2f}{subs / calls:>8.1f}"


def main(argv=None) -> int:
    from tensorvm import compiler, runtime
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", default="", help="comma-separated cases")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--devices", default="opencl,local-task")
    args = ap.parse_args(argv)
    cases = [c for c in model_set.cases() if not args.only or c in args.only.split(",")
             or model_set.split_case(c)[0] in args.only.split(",")]
    devices = args.devices.split(",")
    print(f"{'case':<22}" + "".join(f"{d + ' ms':>16}" for d in devices)
          + (f"{'ratio':>8}" if len(devices) > 1 else "")
          + f"{'host us/call':>14}{'us/cmd':>10}{'subs':>8}")
    ratios = []
    for case in cases:
        text, inputs, expected = model_set.load_case(case)
        row, times, host = f"{case:<22}", [], ""
        for device in devices:
            targets = ["cpu", "opencl"] if device == "opencl" else ["cpu"]
            module = runtime.load_module(compiler.compile_str(text, targets=targets), device=device)
            model_set.assert_matches(case, module.main(*inputs), expected)
            stats = getattr(module.device, "stats", None)
            before = stats() if stats is not None and not host else None
            times.append(_time(lambda: module.main(*inputs), args.reps))
            host = host or _host_work(module.device, before, args.reps + 1)
            row += f"{times[-1]:>16.1f}"
        if len(times) > 1:
            ratios.append(times[0] / times[1])
            row += f"{ratios[-1]:>8.2f}"
        print(row + host, flush=True)
    if ratios:
        geo = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
        print(f"geomean {devices[0]} / {devices[1]}: {geo:.2f}, max {max(ratios):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
