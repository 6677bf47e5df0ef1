"""One run on a machine with an NVIDIA GPU: the CUDA tests, the tensor-core
products and the real-model set on tensorvm's `cuda` driver beside IREE's
CUDA backend, every output checked, ratios printed.

    python benchmarks/cuda_check.py [--wheels DIR] [--only CASES] [--reps 20]
                                    [--no-install] [--no-tests] [--no-iree] [--gemm N]

1. Installs what is missing (tensorvm itself, editable and without
   dependencies; cffi, msgpack, ml_dtypes, pytest, iree-base-compiler,
   iree-base-runtime) from ``--wheels DIR`` (no index: a machine that
   reaches nothing) or else from the package index, then runs itself again
   so the new packages import.  A package that does not install is named,
   and only what needs it is left out.
2. Prints the GPU (name, compute capability) and compiles for its arch.
3. Runs the CUDA tests (tests/test_cuda.py, the HAL conformance on every
   driver, the f16/bf16 products) and prints pytest's summary.
4. Checks and times f16 and bf16 products on the tensor cores (gpu_mma.py)
   and the f32 one, each against numpy.
5. Times the model set (benchmarks/models) on `cuda`, min of ``--reps``
   calls after a warm-up, beside IREE (``--iree-hal-target-backends=cuda
   --iree-cuda-target=sm_XY``, driver ``cuda``); a row is timed only once
   its outputs matched the library's; prints tvm/IREE per model, their
   geomean, and tensorvm's host work per call (``device.stats()``).

The exit status is 0 only if every step that ran passed.  Without a GPU it
says why the cuda driver is unavailable and stops after the tests; with
``TENSORVM_LIBCUDA`` naming the stand-in library of tests/hal (no kernel
runs there) every row reports its mismatch, which is how
tests/test_cuda_check.py exercises the script.
"""
from __future__ import annotations

import argparse
import importlib.util
import math
import pathlib
import subprocess
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE / "models"))
sys.path.insert(0, str(HERE))
from gpu_models import _host_work, _time  # noqa: E402

# importable module -> what pip installs
PACKAGES = {"cffi": "cffi", "msgpack": "msgpack", "ml_dtypes": "ml_dtypes", "pytest": "pytest",
            "iree.compiler": "iree-base-compiler", "iree.runtime": "iree-base-runtime"}
CUDA_TESTS = ["tests/test_cuda.py", "tests/hal", "tests/compiler/test_narrow_contractions.py"]


def _have(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:         # a parent package is missing
        return False


def install(wheels: str | None) -> list:
    """pip-installs what is missing; returns the pip names that failed."""
    source = ["--no-index", "--find-links", wheels] if wheels else []
    pip = [sys.executable, "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    failed = []
    if not _have("tensorvm"):
        if subprocess.run(pip + ["--no-deps", "--no-build-isolation", "-e", str(REPO)]).returncode:
            failed.append("tensorvm")
    for module, name in PACKAGES.items():
        if not _have(module) and subprocess.run(pip + source + [name]).returncode:
            failed.append(name)
    return failed


def run_tests() -> bool:
    print(f"\n== CUDA tests (pytest {' '.join(CUDA_TESTS)})", flush=True)
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           *CUDA_TESTS], cwd=REPO, capture_output=True, text=True)
    lines = proc.stdout.strip().splitlines()
    failures = [ln for ln in lines if ln.startswith(("FAILED", "ERROR"))]
    print("\n".join(failures[:40] + lines[-1:]), flush=True)
    return proc.returncode == 0


def check_products(n: int, arch: str, reps: int) -> bool:
    """f16 / bf16 (tensor cores) and f32 n x n x n products: values and TFLOP/s."""
    import ml_dtypes
    import numpy as np

    from tensorvm import compiler, runtime
    print(f"\n== {n}^3 products on cuda ({arch})", flush=True)
    ok = True
    rng = np.random.default_rng(0)
    a32, b32 = (rng.standard_normal((n, n)).astype(np.float32) for _ in range(2))
    for el, dt in (("f16", np.float16), ("bf16", ml_dtypes.bfloat16), ("f32", np.float32)):
        t = f"tensor<{n}x{n}x{el}>"
        text = (f"func.func @main(%a: {t}, %b: {t}) -> {t} {{\n  %0 = stablehlo.dot_general %a, %b, "
                f"contracting_dims = [1] x [0] : ({t}, {t}) -> {t}\n  return %0 : {t}\n}}")
        a, b = a32.astype(dt), b32.astype(dt)
        module = runtime.load_module(compiler.compile_str(text, targets=["cuda"], cuda_arch=arch),
                                     device="cuda")
        got = np.asarray(module.main(a, b)).astype(np.float64)
        want = a.astype(np.float64) @ b.astype(np.float64)
        eps = {"f16": 2.0 ** -10, "bf16": 2.0 ** -7, "f32": 2.0 ** -23}[el]
        err = float(np.abs(got - want).max() / np.abs(want).max())
        good = err <= 2 * eps + n * 2.0 ** -23
        ok &= good
        ms = _time(lambda: module.main(a, b), reps) if good else float("nan")
        print(f"{el:>5}: {ms:9.3f} ms  {2 * n ** 3 / ms / 1e9:8.1f} TFLOP/s  "
              f"max error {err:.2e} of the largest value  {'ok' if good else 'MISMATCH'}", flush=True)
    return ok


def _listed(out) -> list:
    return list(out) if isinstance(out, (tuple, list)) else [out]


_IREE_ARCHS = ("sm_89", "sm_86", "sm_80", "sm_75")
_TINY = ("func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
         "  %0 = stablehlo.add %a, %a : tensor<4xf32>\n  return %0 : tensor<4xf32>\n}")


def iree_arch(arch: str) -> str:
    """``arch``, or the newest older one IREE's CUDA backend accepts (IREE
    3.13 answers "missing GPU target" for sm_90 and sm_100; its PTX runs on
    newer GPUs through the driver's JIT, as tensorvm's sm_80 PTX does)."""
    import iree.compiler as ireec
    number = int(arch[3:].rstrip("a"))
    for candidate in (arch,) + tuple(a for a in _IREE_ARCHS if int(a[3:]) < number):
        try:
            ireec.compile_str(_TINY, target_backends=["cuda"], extra_args=[f"--iree-cuda-target={candidate}"])
            return candidate
        except Exception:              # noqa: BLE001 -- try the next older arch
            continue
    raise RuntimeError(f"IREE's CUDA backend accepts none of {arch}, {', '.join(_IREE_ARCHS)}")


def _iree(text: str, arch: str, inputs, reps: int):
    """(ms, outputs) of IREE's CUDA backend on ``text``."""
    import iree.compiler as ireec
    import iree.runtime as ireert
    vmfb = ireec.compile_str(text, target_backends=["cuda"], extra_args=[f"--iree-cuda-target={arch}"])
    main = ireert.load_vm_flatbuffer(vmfb, driver="cuda").main
    out = main(*inputs)
    outs = [o.to_host() for o in _listed(out)]
    return (lambda: main(*inputs)), outs


def run_models(cases, arch: str, reps: int, with_iree: bool) -> bool:
    import load as model_set

    from tensorvm import compiler, runtime
    print(f"\n== model set on cuda ({arch}), min of {reps} calls", flush=True)
    print(f"{'case':<22}{'tvm ms':>10}{'IREE ms':>10}{'tvm/IREE':>10}{'host us/call':>14}"
          f"{'us/cmd':>10}{'subs':>8}  outputs", flush=True)
    ok, ratios = True, []
    if with_iree:
        target = iree_arch(arch)
        print(f"IREE compiles for {target}" + (f" (it does not accept {arch})" if target != arch else ""))
    for case in cases:
        text, inputs, expected = model_set.load_case(case)
        row, notes, tvm_ms, iree_ms, host = f"{case:<22}", [], float("nan"), float("nan"), ""
        try:
            module = runtime.load_module(compiler.compile_str(text, targets=["cuda"], cuda_arch=arch),
                                         device="cuda")
            bad = model_set.mismatch(_listed(module.main(*inputs)), expected)
            if bad:
                ok = False
                notes.append(f"tvm MISMATCH {bad}")
            else:
                before = module.device.stats()
                tvm_ms = _time(lambda: module.main(*inputs), reps)
                host = _host_work(module.device, before, reps + 1)
        except Exception as e:          # noqa: BLE001 -- a row per model, whatever fails
            ok = False
            notes.append(f"tvm {type(e).__name__}: {str(e).splitlines()[0][:120]}")
        if with_iree:
            try:
                call, outs = _iree(text, target, inputs, reps)
                bad = model_set.mismatch(outs, expected)
                if bad:
                    notes.append(f"IREE mismatch {bad}")
                else:
                    iree_ms = _time(call, reps)
            except Exception as e:      # noqa: BLE001 -- IREE's failures are its own
                notes.append(f"IREE {type(e).__name__}: {str(e).splitlines()[0][:120]}")
        ratio = tvm_ms / iree_ms
        if not math.isnan(ratio):
            ratios.append(ratio)
        print(f"{row}{tvm_ms:>10.3f}{iree_ms:>10.3f}{ratio:>10.2f}{host or '':>32}  "
              f"{'; '.join(notes) or 'match'}", flush=True)
    if ratios:
        geo = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
        print(f"geomean tvm/IREE over {len(ratios)} models: {geo:.2f}, worst {max(ratios):.2f}")
    return ok


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--wheels", help="install missing packages from this folder only")
    ap.add_argument("--only", default="", help="comma-separated model cases")
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--gemm", type=int, default=4096, help="size of the checked products (0: skip)")
    ap.add_argument("--no-install", action="store_true")
    ap.add_argument("--no-tests", action="store_true")
    ap.add_argument("--no-iree", action="store_true")
    args = ap.parse_args(argv)
    if not args.no_install:
        failed = install(args.wheels)
        if failed:
            print(f"not installed: {', '.join(failed)}", flush=True)
        # a fresh interpreter sees what pip just installed (editable installs load at start-up)
        return subprocess.run([sys.executable, __file__, "--no-install", *(argv or sys.argv[1:])]).returncode
    from tensorvm import hal
    why = hal.registry.driver_availability("cuda")
    with_iree = not args.no_iree and _have("iree.compiler") and _have("iree.runtime")
    if why is not None:
        print(f"cuda driver unavailable: {why}", flush=True)
        arch = "sm_80"
    else:
        device = hal.registry.create_device("cuda")
        major, minor = device.compute_capability
        arch = f"sm_{major}{minor}"
        print(f"GPU: {device.description}, compute capability {major}.{minor}: compiling for {arch}; "
              f"IREE's CUDA backend {'beside it' if with_iree else 'not run'}", flush=True)
    ok = True
    if not args.no_tests:
        ok &= run_tests()
    if why is not None:
        return 0 if ok else 1
    t0 = time.perf_counter()
    if args.gemm:
        ok &= check_products(args.gemm, arch, args.reps)
    import load as model_set
    cases = [c for c in model_set.cases() if not args.only or c in args.only.split(",")
             or model_set.split_case(c)[0] in args.only.split(",")]
    ok &= run_models(cases, arch, args.reps, with_iree)
    print(f"{'all checks passed' if ok else 'SOME CHECKS FAILED'} ({time.perf_counter() - t0:.0f} s)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
