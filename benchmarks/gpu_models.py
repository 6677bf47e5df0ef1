"""Time the real-model set (benchmarks/models) on the OpenCL driver next to
the CPU path (local-task), min of N calls after a warm-up, and check each
result against the library's outputs.

    python benchmarks/gpu_models.py [--only mobilenet_v2,bert_tiny] [--reps 5]
        [--devices opencl,local-task]

On PoCL the "device" is the same CPUs, so the ratio to local-task says how
much of the CPU the generated OpenCL C uses.
"""
from __future__ import annotations

import argparse
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
    print(f"{'case':<22}" + "".join(f"{d + ' ms':>16}" for d in devices))
    for case in cases:
        text, inputs, expected = model_set.load_case(case)
        row = f"{case:<22}"
        for device in devices:
            targets = ["cpu", "opencl"] if device == "opencl" else ["cpu"]
            module = runtime.load_module(compiler.compile_str(text, targets=targets), device=device)
            model_set.assert_matches(case, module.main(*inputs), expected)
            row += f"{_time(lambda: module.main(*inputs), args.reps):>16.1f}"
        print(row, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
