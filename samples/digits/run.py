"""Compile the exported digits MLP with tensorvm, run the test set, check accuracy.

    python samples/digits/run.py [--device local-task|local-sync] [--batch1 N]

Needs only tensorvm and numpy: the StableHLO files, the test set and JAX's
accuracy were written by export.py and are committed beside this file.
Exits 1 when tensorvm's test accuracy differs from JAX's by more than 1
percentage point, 2 when compiling or running fails.
"""
from __future__ import annotations

import argparse
import json
import pathlib
import sys
import time

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
TOLERANCE_PP = 1.0  # percentage points


def main(argv=None) -> int:
    try:
        return run(argv)
    except Exception as e:  # tensorvm raises typed errors with actionable messages
        print(f"error: {type(e).__name__}: {e}", file=sys.stderr)
        return 2


def run(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--device", default="local-task", help="runtime device (default: local-task)")
    ap.add_argument("--target", default="cpu", help="compiler target (default: cpu)")
    ap.add_argument("--batch1", type=int, default=32, metavar="N",
                    help="also run the batch-1 module on the first N test images (0: skip; -1: all)")
    args = ap.parse_args(argv)

    from tensorvm import compiler, runtime

    reference = json.loads((HERE / "reference.json").read_text())
    data = np.load(HERE / "test_set.npz")
    x, y, jax_logits = data["x"], data["y"], data["jax_logits"]

    t0 = time.perf_counter()
    vmfb = compiler.compile_str((HERE / reference["files"]["test_batch"]).read_text(), targets=[args.target])
    t1 = time.perf_counter()
    module = runtime.load_module(vmfb, device=args.device)
    t2 = time.perf_counter()
    logits = np.asarray(module.main(x))
    t3 = time.perf_counter()
    print(f"compiled {reference['files']['test_batch']} in {t1 - t0:.2f} s ({len(vmfb)} bytes), "
          f"loaded in {(t2 - t1) * 1e3:.1f} ms, ran {len(x)} images in {(t3 - t2) * 1e3:.1f} ms "
          f"on {args.device}")

    if logits.shape != jax_logits.shape:
        print(f"error: result shape {logits.shape}, expected {jax_logits.shape}", file=sys.stderr)
        return 2
    predictions = np.argmax(logits, axis=-1)
    accuracy = float(np.mean(predictions == y))
    print(f"max |logit - JAX logit| = {np.max(np.abs(logits - jax_logits)):.3g}, "
          f"{int(np.sum(predictions != np.argmax(jax_logits, -1)))} predictions differ from JAX")

    n1 = len(x) if args.batch1 < 0 else min(args.batch1, len(x))
    if n1:
        vmfb1 = compiler.compile_str((HERE / reference["files"]["batch1"]).read_text(), targets=[args.target])
        module1 = runtime.load_module(vmfb1, device=args.device)
        t0 = time.perf_counter()
        one = np.concatenate([np.asarray(module1.main(x[i:i + 1])) for i in range(n1)])
        dt = time.perf_counter() - t0
        agree = int(np.sum(np.argmax(one, -1) == predictions[:n1]))
        print(f"batch-1 module: {n1} calls, {dt / n1 * 1e6:.0f} us/call, "
              f"{agree}/{n1} predictions agree with the batched run, "
              f"max |diff| = {np.max(np.abs(one - logits[:n1])):.3g}")
        if agree != n1:
            print("error: the batch-1 module disagrees with the batched module", file=sys.stderr)
            return 1

    jax_accuracy = reference["jax_test_accuracy"]
    gap = abs(accuracy - jax_accuracy) * 100
    print(f"tensorvm test accuracy: {accuracy * 100:.2f}%  ({len(y)} images)")
    print(f"JAX test accuracy     : {jax_accuracy * 100:.2f}%  (stored at export, jax {reference['jax_version']})")
    if gap > TOLERANCE_PP:
        print(f"FAIL: accuracies differ by {gap:.2f} percentage points (> {TOLERANCE_PP})", file=sys.stderr)
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
