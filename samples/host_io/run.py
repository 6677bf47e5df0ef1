"""Stream batches through one call: infeed in, outfeed out (docs/host_transfers.md).

    python samples/host_io/run.py [--batches 16] [--device local-task]

``stream.mlir``'s ``@main`` loops ``n`` times: infeed a 4x3 batch, dense
layer + tanh, outfeed the 4x2 activations.  The call starts with
``invoke_async``; a producer thread pushes the batches (as a sensor or a
data loader would, a little at a time) and this thread pops each result as
soon as the program puts it on the outfeed, checking it against numpy.
"""
from __future__ import annotations

import argparse
import pathlib
import sys
import threading
import time

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent


def stream(device: str = "local-task", batches: int = 16, delay_s: float = 0.002) -> int:
    """Run the stream; returns how many batches came back right."""
    from tensorvm import runtime
    from tensorvm.compiler import compile_file
    rng = np.random.default_rng(0)
    w = rng.standard_normal((3, 2)).astype(np.float32)
    b = rng.standard_normal(2).astype(np.float32)
    xs = [rng.standard_normal((4, 3)).astype(np.float32) for _ in range(batches)]
    m = runtime.load_module(compile_file(str(HERE / "stream.mlir"), targets=["cpu"]),
                            device=device, timeout_s=30)
    q = m.host_queues
    call = m.main.invoke_async(w, b, np.array(batches, np.int32))   # returns at once

    def produce():
        for x in xs:
            q.infeed.push(x)
            time.sleep(delay_s)
    producer = threading.Thread(target=produce)
    producer.start()
    good = 0
    for k, x in enumerate(xs):
        y = q.outfeed.pop(timeout_s=30)                # as soon as batch k is done
        want = np.tanh(x @ w + b)
        if np.allclose(y, want, rtol=1e-5, atol=1e-6):
            good += 1
        else:
            print(f"batch {k}: max error {np.abs(y - want).max():.2e}")
    producer.join()
    assert int(np.asarray(call.result(30))) == batches
    return good


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--device", default="local-task")
    p.add_argument("--batches", type=int, default=16)
    args = p.parse_args(argv)
    t0 = time.perf_counter()
    good = stream(args.device, args.batches)
    print(f"{good}/{args.batches} batches match numpy ({time.perf_counter() - t0:.2f} s, "
          f"one call on {args.device})")
    return 0 if good == args.batches else 1


if __name__ == "__main__":
    sys.exit(main())
