"""``tensorvm-run``: call one function of a .vmfb module (iree-run-module's flags).

    tensorvm-run --module=m.vmfb --function=main --device=local-task \\
        --input=2x2xf32=1,2,3,4 --input=@x.npy --output=@y.npy --trace=trace.json

``--trace`` writes a Chrome trace / Perfetto JSON of the call, the queue
submissions and every dispatch per worker thread (open it in ui.perfetto.dev).
"""
from __future__ import annotations

import argparse
import sys

import numpy as np

from .inputs import InputError, format_array, parse_input


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="tensorvm-run", description="Run a function of a .vmfb module.")
    p.add_argument("--module", required=True, help="path of the .vmfb module")
    p.add_argument("--function", default="main", help="exported function to call (default main)")
    p.add_argument("--device", default="local-task",
                   help="HAL device URI: local-task (default), local-sync, local-task://N")
    p.add_argument("--input", action="append", default=[], metavar="VALUE",
                   help="an argument: 2x2xf32=1,2,3,4 | f32=1.5 | 4xi32 (zeros) | @file.npy")
    p.add_argument("--output", action="append", default=[], metavar="@FILE.npy",
                   help="write the next result to a .npy file instead of printing it")
    p.add_argument("--trace", metavar="PATH",
                   help="write a Chrome/Perfetto trace (JSON) of submissions and dispatches")
    return p


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    from tensorvm import runtime
    try:
        inputs = [parse_input(s) for s in args.input]
        tracer = None
        if args.trace:
            from tensorvm.hal.trace import Tracer
            tracer = Tracer(args.trace)
        module = runtime.load_module(args.module, device=args.device, trace=tracer)
        results = module[args.function](*inputs)
        if tracer is not None:
            tracer.save()
            module.device.tracer = None     # the device is shared per URI: stop tracing
        if not isinstance(results, tuple):
            results = (results,)
        outputs = list(args.output)
        for i, r in enumerate(results):
            a = np.asarray(r)
            if i < len(outputs):
                target = outputs[i]
                if not target.startswith("@"):
                    raise InputError(f"--output={target}: expected @path.npy")
                np.save(target[1:], a)
            else:
                print(f"result[{i}]: {format_array(a)}")
    except (InputError, OSError) as e:
        print(f"tensorvm-run: error: {e}", file=sys.stderr)
        return 1
    except Exception as e:  # noqa: BLE001 - typed tensorvm errors, printed in one line
        if type(e).__module__.startswith("tensorvm"):
            print(f"tensorvm-run: error: {type(e).__name__}: {e}", file=sys.stderr)
            return 1
        raise
    return 0


if __name__ == "__main__":
    sys.exit(main())
