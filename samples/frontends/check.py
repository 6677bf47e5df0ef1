"""What the frontend samples share: time a step, compare with the framework."""
from __future__ import annotations

import sys
import time

import numpy as np


def timed(label, fn, *args, **kwargs):
    t0 = time.perf_counter()
    out = fn(*args, **kwargs)
    print(f"{label}: {time.perf_counter() - t0:.2f} s")
    return out


def compare(name, got, want, rtol=1e-4) -> bool:
    """Max error relative to the reference's largest magnitude (random-weight
    networks can have tiny outputs, so an absolute tolerance says little)."""
    got, want = np.asarray(got, np.float64), np.asarray(want, np.float64)
    if got.shape != want.shape:
        print(f"{name}: shape {got.shape} != the framework's {want.shape}")
        return False
    scale = float(np.abs(want).max()) or 1.0
    err = float(np.abs(got - want).max()) / scale
    ok = err <= rtol
    print(f"{name}: max |tensorvm - framework| / max |framework| = {err:.2e} "
          f"({'ok' if ok else f'over {rtol:g}'})")
    return ok


def finish(all_ok: bool) -> None:
    print("matches the framework" if all_ok else "MISMATCH")
    sys.exit(0 if all_ok else 1)
