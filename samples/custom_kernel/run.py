"""Run the custom-kernel MLP on local-task and opencl and check it against JAX.

    python samples/custom_kernel/run.py            # uses the committed model.mlir
    python samples/custom_kernel/run.py --export   # re-export model.mlir from JAX first
"""
from __future__ import annotations

import argparse
import pathlib
import sys

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import model  # noqa: E402


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--export", action="store_true", help="re-export model.mlir with jax.export")
    p.add_argument("--devices", default="local-task,opencl")
    args = p.parse_args(argv)
    if args.export:
        (model.HERE / "model.mlir").write_text(model.export())
    from tensorvm import hal, runtime
    params = model.weights()
    x = np.random.default_rng(1).standard_normal((model.BATCH, model.IN)).astype(np.float32)
    want = model.reference(params, x)
    vmfb = model.compile_model()
    for dev in args.devices.split(","):
        reason = hal.registry.driver_availability(dev.split(":")[0])
        if reason is not None:
            print(f"{dev}: skipped ({reason})")
            continue
        m = runtime.load_module(vmfb, device=dev)
        got = np.asarray(m.main(params["w1"], params["b1"], params["w2"], params["b2"], x))
        err = float(np.abs(got - want).max())
        print(f"{dev}: max |tensorvm - jax| = {err:.2e}")
        if err > 1e-4:
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
