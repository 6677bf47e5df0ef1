"""``tensorvm-benchmark``: time repeated calls of one function
(iree-benchmark-module's role).

    tensorvm-benchmark --module=m.vmfb --function=main --input=4xf32=1 --repetitions=1000
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time

from .inputs import InputError, parse_input


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="tensorvm-benchmark", description=__doc__.split("\n\n")[0])
    p.add_argument("--module", required=True)
    p.add_argument("--function", default="main")
    p.add_argument("--device", default="local-task")
    p.add_argument("--input", action="append", default=[], metavar="VALUE")
    p.add_argument("--repetitions", type=int, default=100, help="timed calls (default 100)")
    p.add_argument("--warmup", type=int, default=10, help="untimed calls first (default 10)")
    p.add_argument("--print-stats", action="store_true",
                   help="after the timed calls, trace a few more and print what they ran: "
                        "dispatches per entry point, native loops' host time per iteration")
    args = p.parse_args(argv)
    from tensorvm import runtime
    import numpy as np
    try:
        inputs = [parse_input(s) for s in args.input]
        module = runtime.load_module(args.module, device=args.device)
        fn = module[args.function]
        for _ in range(args.warmup):
            np.asarray(_first(fn(*inputs)))
        times = []
        for _ in range(args.repetitions):
            t0 = time.perf_counter()
            np.asarray(_first(fn(*inputs)))
            times.append(time.perf_counter() - t0)
        stats = _traced_stats(module, fn, inputs, min(10, args.repetitions)) \
            if args.print_stats else None
    except (InputError, OSError) as e:
        print(f"tensorvm-benchmark: error: {e}", file=sys.stderr)
        return 1
    except Exception as e:  # noqa: BLE001
        if type(e).__module__.startswith("tensorvm"):
            print(f"tensorvm-benchmark: error: {type(e).__name__}: {e}", file=sys.stderr)
            return 1
        raise
    us = [t * 1e6 for t in times]
    print(f"{args.function} on {args.device}: {len(us)} calls")
    print(f"  median {statistics.median(us):.1f} us   mean {statistics.fmean(us):.1f} us   "
          f"min {min(us):.1f} us   p90 {sorted(us)[int(0.9 * (len(us) - 1))]:.1f} us")
    if stats is not None:
        print(stats)
    return 0


def _traced_stats(module, fn, inputs, calls: int) -> str:
    """The summary of ``calls`` more calls run with a tracer on the device
    (traced apart from the timed calls: tracing takes slower paths)."""
    import numpy as np
    from tensorvm.hal.trace import Tracer, format_summary
    tracer = Tracer()
    module.device.tracer = module.tracer = tracer
    try:
        for _ in range(calls):
            np.asarray(_first(fn(*inputs)))
    finally:
        module.device.tracer = module.tracer = None
    return f"stats of {calls} traced call(s):\n" + format_summary(tracer)


def _first(r):
    return r[0] if isinstance(r, tuple) else r


if __name__ == "__main__":
    sys.exit(main())
