"""Side-by-side benchmark: tensorvm vs IREE vs XLA vs JAX vs numpy on the same StableHLO.

    python benchmarks/run.py [--time-per-cell S] [--only add4,mlp_b1,...] [--json out.json]
                             [--callers N] [--models | --transformers]

Workloads (the .mlir text every compiler gets is the committed fixture):
  add4        tests/models/add4.mlir            4-element f32 add: per-call overhead
  mlp_b1      samples/digits/digits_mlp_b1.mlir digits MLP 64-64-32-10, one image
  mlp_test    samples/digits/digits_mlp_test.mlir  the same, the 450-image test split
  matmul512   tests/models/matmul512.mlir       512x512x512 f32 dot (GFLOP/s)
  the model set benchmarks/models/*.mlir (Keras, keras_hub, Flax models exported
              by jax.export, weights as arguments; `--models` runs only these,
              on tensorvm, IREE and XLA): checked against the library's stored
              outputs, tolerance scaled to the output magnitude (load.mismatch)
  the transformer and decoding group (load.GROUPS["transformers"]: HuggingFace
              BERT, GPT-2, T5, Llama, ViT through torchax, keras_hub GPT-2
              generate, a JAX KV-cache decoder with an EOS exit):
              `--transformers` runs only these, on tensorvm's CPU drivers,
              IREE and XLA

`--big` runs instead the real-size models of benchmarks/big_models.py
(ResNet-50 224x224, BERT-base seq 128, GPT-2 small seq 128 with its LM head;
batch 1, random weights passed as arguments) on tensorvm, IREE and XLA, and
adds each engine's achieved GFLOP/s (the models' dot and convolution FLOPs
over the best call) as a fraction of numpy/OpenBLAS on a 2048^2 f32 GEMM
timed in the same run (the better of the GEMMs timed just before and just
after each model; one thread beside the sync columns, all threads beside
the task columns), and the CPU that processes outside the benchmark took
while each cell was timed (cores; /proc): on a shared machine a cell timed
while another session ran is slower for that reason alone (sched autogroup
gives another session's `nice -n 19` job a whole core); `--wait-quiet S`
waits up to S seconds before each cell's round for the machine to go quiet.

Engines: tensorvm (local-sync, local-task), IREE (llvm-cpu, target-cpu=host;
local-sync, local-task), XLA:CPU (jaxlib's PJRT client compiling the same
text, in worker processes: "XLA 1T" single-threaded, "XLA" all threads; see
benchmarks/xla_engine.py), JAX jit on CPU, numpy. One timed call is
`numpy inputs -> call -> numpy results` (np.asarray on every result), so each
engine pays its own argument import and result read-back, as a user does.
Each cell: warm-up calls, then timed calls until the cell's time budget is
spent (at least --min-reps), median reported. Each engine's result is checked
against numpy before timing; a wrong result is reported, not timed.

An engine that fails to import, compile or run shows `n/a` with the error in
the notes below the tables; the other columns still run. The headline is the
ratio table (engine time / tensorvm time, best tensorvm driver): on shared
machines absolute times are noise, ratios much less so.

Load is the median of LOAD_REPEATS (21) loads, every engine alike (a median
of five moved by 1.5x between runs on a shared 2-core machine): the first load of a
process also pays imports and device creation (--json has each engine's
first load as `first_load_s`). tensorvm's loads are of new bytes (a private
copy, its module cache cleared before each, untimed), so they pay the whole
read and check; a repeat load of bytes the process has loaded reuses the
verified module (--json: `repeat_load_s`).

For the model set the report adds a table of tensorvm beside its peers per
model, sync (local-sync beside IREE local-sync and XLA 1T) and task
(local-task beside IREE local-task and XLA all threads) with the ratios
tensorvm/peer, the geomean of tensorvm/IREE and tensorvm/XLA call latency
over the models both ran, the worst model against the faster peer, and the
symbolic-vs-static batch ratio (flax_cnn_dyn_b16 over
flax_cnn_static_b16, the same CNN exported with a `?` batch and a static one; the
two are timed in the same interleaved rounds).

Two more figures follow: the throughput of --callers threads calling one
loaded module (tensorvm vs IREE's Python runtime, same callers, as a ratio),
and the speed-up of local-task://2 over local-task://1 on matmul512; then
the throughput of a data-parallel MLP (benchmarks/sharded, a shard_map
export) on 2 devices over the same MLP on one (local-task://1 each), min of
N calls, with the machine's parallel headroom at that moment (two 1-device
calls at once) beside it; `--only devices` prints that figure alone.
"""
from __future__ import annotations

import argparse
import ast
import contextlib
import functools
import json
import os
import pathlib
import platform
import re
import signal
import statistics
import sys
import time
import traceback

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parent.parent
MODELS = ROOT / "tests" / "models"
DIGITS = ROOT / "samples" / "digits"
sys.path.insert(0, str(ROOT / "benchmarks" / "models"))
sys.path.insert(0, str(ROOT / "benchmarks"))
import load as model_set  # noqa: E402  (numpy only)

SYMBOLIC_VS_STATIC = ("flax_cnn_dyn_b16", "flax_cnn_static_b16")
PREPARE_TIMEOUT_S = 120  # per engine per workload: compile + load + first call


# ----------------------------------------------------------------- workloads


def parse_constants(text: str) -> list[np.ndarray]:
    """The non-scalar `stablehlo.constant` values in MLIR text, in textual order.

    Handles the two forms JAX prints: hex blobs (`dense<"0x...">`, raw
    little-endian bytes) and literal lists. Only f32 is needed here.
    """
    out = []
    pattern = r'stablehlo\.constant dense<(.*?)> : tensor<((?:\d+x)+)f32>'
    for body, dims in re.findall(pattern, text):
        shape = tuple(int(d) for d in dims.rstrip("x").split("x"))
        if body.startswith('"0x'):
            arr = np.frombuffer(bytes.fromhex(body[3:-1]), dtype="<f4")
        else:
            arr = np.asarray(ast.literal_eval(body), dtype=np.float32)
        if arr.size == 1:  # splat
            arr = np.full(shape, arr.reshape(()), np.float32)
        out.append(arr.astype(np.float32).reshape(shape))
    return out


def mlp_reference(text: str):
    """numpy and JAX functions computing the digits MLP with the weights in `text`."""
    consts = parse_constants(text)
    if len(consts) != 6:
        raise ValueError(f"expected 6 weight constants in the MLP text, found {len(consts)}")
    layers = list(zip(consts[0::2], consts[1::2]))

    def np_fn(x):
        for w, b in layers[:-1]:
            x = np.maximum(x @ w + b, np.float32(0))
        w, b = layers[-1]
        return x @ w + b

    def jax_fn(x):
        import jax.numpy as jnp
        for w, b in layers[:-1]:
            x = jnp.maximum(x @ w + b, 0.0)
        w, b = layers[-1]
        return x @ w + b

    return np_fn, jax_fn


def load_workloads() -> dict[str, dict]:
    w = {}
    with np.load(MODELS / "add4.npz") as z:
        add_in = [z["arg0"], z["arg1"]]
    w["add4"] = dict(text=(MODELS / "add4.mlir").read_text(), inputs=add_in,
                     np_fn=np.add, jax_fn=lambda x, y: x + y, flops=4)
    with np.load(DIGITS / "test_set.npz") as z:
        x_test = z["x"]
    for name, fname, x in [("mlp_b1", "digits_mlp_b1.mlir", x_test[:1]),
                           ("mlp_test", "digits_mlp_test.mlir", x_test)]:
        text = (DIGITS / fname).read_text()
        np_fn, jax_fn = mlp_reference(text)
        flops = 2 * len(x) * (64 * 64 + 64 * 32 + 32 * 10)
        w[name] = dict(text=text, inputs=[x], np_fn=np_fn, jax_fn=jax_fn, flops=flops)
    with np.load(MODELS / "matmul512.npz") as z:
        mm_in = [z["arg0"], z["arg1"]]
    w["matmul512"] = dict(text=(MODELS / "matmul512.mlir").read_text(), inputs=mm_in,
                          np_fn=np.matmul, jax_fn=lambda x, y: x @ y, flops=2 * 512 ** 3,
                          gflops=True)
    return w


def load_model_workloads(cases: list[str]) -> dict[str, dict]:
    """The model set: args are the regenerated weights + inputs, the reference is
    the library's stored outputs (no numpy/JAX function: those engines skip them)."""
    w = {}
    for case in cases:
        text, args, expected = model_set.load_case(case)
        w[case] = dict(text=text, inputs=args, expected=expected, check=model_set.mismatch,
                       model=True)
    return w


def load_big_workloads(keep: list[str]) -> dict[str, dict]:
    """The real-size models (big_models.py; all, or those named in ``keep``),
    checked against JAX's output like the model set."""
    import big_models
    names = [k for k in keep if k in big_models.BUILDERS] or list(big_models.BUILDERS)
    out = {}
    for n in names:
        w = big_models.build(n)
        rel = w.pop("rel_to_max")
        check = model_set.mismatch if rel is None else functools.partial(model_set.mismatch, rel_to_max=rel)
        out[n] = dict(w, check=check, model=True)
    return out


def gemm_reference(n: int = 2048, reps: int = 5) -> dict:
    """numpy/OpenBLAS GFLOP/s on an n^2 f32 GEMM, best of ``reps``: one
    thread (threadpoolctl; thread CPU time) and all threads (wall time)."""
    from threadpoolctl import threadpool_limits
    a = np.random.default_rng(0).standard_normal((n, n), np.float32)

    def best(clock):
        a @ a
        ts = []
        for _ in range(reps):
            t0 = clock()
            a @ a
            ts.append(clock() - t0)
        return 2 * n ** 3 / min(ts) / 1e9
    with threadpool_limits(1):
        one = best(time.thread_time)
    return {"1T": one, "all": best(time.perf_counter)}


def big_report(results, workloads, refs) -> dict:
    """Per model and engine: GFLOP/s of the best call and its fraction of
    numpy's GEMM (one thread for the sync columns, all threads for the
    others), the better of the GEMMs timed just before and just after that
    model (``refs``: one before the first model, one after each), so that a
    model is compared with OpenBLAS on the cores as they were for it."""
    engines = [e for e in dict.fromkeys(e for m in workloads for e in results[m])
               if any("min_s" in results[m].get(e, {}) for m in workloads)]
    seen = ", ".join(f"{r['1T']:.0f}/{r['all']:.0f}" for r in refs)
    print(f"\nROOFLINE: numpy/OpenBLAS 2048^2 f32 GEMM GFLOP/s (one thread/all threads) before "
          f"the first model and after each: {seen}")
    header = ["model", "GFLOP", "numpy 1T/all"] + [f"{e} GF/s (frac)" for e in engines]
    rows, out = [], {"gemm_reference": refs}
    for i, (m, wl) in enumerate(workloads.items()):
        ref = {k: max(r[k] for r in refs[i:i + 2]) for k in ("1T", "all")}
        row = [m, f"{wl['flops'] / 1e9:.2f}", f"{ref['1T']:.0f}/{ref['all']:.0f}"]
        for e in engines:
            best = results[m].get(e, {}).get("min_s")
            if best is None:
                row.append("n/a")
                continue
            g = wl["flops"] / best / 1e9
            frac = g / ref["1T" if e.endswith(("sync", "1T")) else "all"]
            out.setdefault(m, {})[e] = {"gflops": g, "fraction_of_openblas": frac}
            row.append(f"{g:.1f} ({frac:.2f})")
        rows.append(row)
    print_table("ROOFLINE: achieved GFLOP/s of the best call (fraction of OpenBLAS: one thread for "
                "sync / 1T columns, all threads for the others)", header, rows)
    rows = [[m] + [f"{results[m][e]['others_cores']:.2f}" if "others_cores" in results[m].get(e, {})
                   else "n/a" for e in engines] for m in workloads]
    print_table(f"OTHER PROCESSES: CPU cores (of {os.cpu_count()}) that processes outside this "
                f"benchmark used while each cell was timed (a cell beside a busy one is not "
                f"comparable with it)", ["model"] + engines, rows)
    return out


# ----------------------------------------------------------------- engines
# An engine is (name, prepare) where prepare(workload) -> a callable taking the
# numpy inputs and returning the raw result. Engine-level failures (import)
# raise from the factory and mark the whole column n/a.


def to_host(result) -> list[np.ndarray]:
    if isinstance(result, (tuple, list)):
        return [np.asarray(r) for r in result]
    return [np.asarray(result)]


def tensorvm_engines():
    from tensorvm import runtime
    from tensorvm.compiler.api import CompileOptions, compile_text  # fails cleanly if missing

    cache: dict[tuple, bytes] = {}

    def make(device, targets):
        # Each driver runs a module compiled for its own target, as a user
        # deploying to it would (IREE's llvm-cpu compile holds no GPU variant):
        # CPU-only compiles fuse row reductions into their readers.
        def prepare(wl, info):
            key = (id(wl["text"]), targets)
            if key not in cache:
                t0 = time.perf_counter()
                result = compile_text(wl["text"], CompileOptions(targets=targets))
                cache[key] = result.vmfb
                info["compile_s"] = time.perf_counter() - t0
                info["dispatches"] = sum(result.stats.get("dispatches", {}).values())
            from tensorvm.runtime.vm.cache import MODULES
            copies = []

            def new_bytes():          # untimed: a private copy, and no cache entry for it
                MODULES.clear()
                copies[:] = [bytes(bytearray(cache[key]))]

            module, info["load_s"] = timed_load(
                lambda: runtime.load_module(copies[0], device=device), info, before=new_bytes)
            _, info["repeat_load_s"] = timed_load(
                lambda: runtime.load_module(cache[key], device=device))
            return module.main
        return prepare

    engines = [("tensorvm sync", make("local-sync", ("cpu",))),
               ("tensorvm task", make("local-task", ("cpu",)))]
    from tensorvm import hal
    if "opencl" in hal.available_drivers():
        # OpenCL beside the CPU drivers (PoCL on a machine without a GPU).
        engines.append(("tensorvm opencl", make("opencl", ("opencl",))))
    return engines


LOAD_REPEATS = 21


def timed_load(load, info=None, before=None):
    """(the last module, the median seconds of LOAD_REPEATS loads).  The
    first load of a process also pays one-off imports and device creation
    (tens of ms for Python modules compiled without cached bytecode); the
    median is what loading one more module costs, for every engine alike.
    ``before()`` runs untimed before each load (tensorvm: new bytes).
    ``info["first_load_s"]``: the first load's seconds (in --json)."""
    times = []
    for _ in range(LOAD_REPEATS):
        if before is not None:
            before()
        t0 = time.perf_counter()
        module = load()
        times.append(time.perf_counter() - t0)
    if info is not None:
        info["first_load_s"] = times[0]
    return module, sorted(times)[len(times) // 2]


def _iree_resident(ireert, driver: str, main, inputs):
    """``main`` called with the workload's inputs already on IREE's device
    (``asdevicearray`` once, looked up by identity), as a deployment keeps
    its weights: IREE copies every numpy argument into a device buffer on
    each call, where tensorvm and XLA use an aligned numpy array in place
    (a GPT-2-small decode step: 391 ms with its weights copied per call,
    96 ms resident).  An input IREE cannot take as a device array (bf16
    numpy) is passed as it is."""
    device = ireert.get_device(driver)
    resident = {}
    for x in inputs:
        try:
            resident[id(x)] = ireert.asdevicearray(device, x)
        except Exception:  # noqa: BLE001  this input is copied per call, as before
            pass
    return lambda *xs: main(*[resident.get(id(x), x) for x in xs])


def iree_engines():
    import iree.compiler as ireec
    import iree.runtime as ireert

    cache: dict[int, bytes] = {}

    def make(driver):
        def prepare(wl, info):
            key = id(wl["text"])
            if key not in cache:
                t0 = time.perf_counter()
                cache[key] = ireec.compile_str(
                    wl["text"], target_backends=["llvm-cpu"],
                    extra_args=["--iree-llvmcpu-target-cpu=host"])
                info["compile_s"] = time.perf_counter() - t0
            module, info["load_s"] = timed_load(
                lambda: ireert.load_vm_flatbuffer(cache[key], driver=driver), info)
            return _iree_resident(ireert, driver, module.main, wl["inputs"])
        return prepare

    return [("IREE sync", make("local-sync")), ("IREE task", make("local-task"))]


def xla_engines():
    """XLA:CPU (jaxlib's PJRT client) on the same text, in worker processes:
    "XLA 1T" single-threaded, "XLA" all threads (benchmarks/xla_engine.py)."""
    import xla_engine
    return xla_engine.xla_engines()


def jax_engines():
    import jax

    jax.config.update("jax_platforms", "cpu")

    def prepare(wl, info):
        fn = jax.jit(wl["jax_fn"])
        t0 = time.perf_counter()
        to_host(fn(*wl["inputs"]))  # jit traces and compiles on the first call
        info["compile_s"] = time.perf_counter() - t0
        return fn

    return [("JAX", prepare)]


def numpy_engines():
    engines = [("numpy", lambda wl, info: wl["np_fn"])]
    try:  # comes with scikit-learn; BLAS threads are a large effect on small shared machines
        from threadpoolctl import threadpool_limits
    except ImportError:
        return engines

    def prepare_1t(wl, info):
        info["around"] = lambda: threadpool_limits(limits=1, user_api="blas")
        return wl["np_fn"]
    return engines + [("numpy 1T", prepare_1t)]


NEEDS = {"JAX": "jax_fn", "numpy": "np_fn", "numpy 1T": "np_fn"}  # workload key an engine needs
ENGINE_GROUPS = [("tensorvm", tensorvm_engines, ["tensorvm sync", "tensorvm task"]),
                 ("IREE", iree_engines, ["IREE sync", "IREE task"]),
                 ("XLA", xla_engines, ["XLA 1T", "XLA"]),
                 ("JAX", jax_engines, ["JAX"]),
                 ("numpy", numpy_engines, ["numpy", "numpy 1T"])]


# ----------------------------------------------------------------- timing


class Timeout(Exception):
    pass


def _alarm(seconds: int):
    if not hasattr(signal, "SIGALRM"):
        return lambda: None

    def handler(signum, frame):
        raise Timeout(f"no result within {seconds} s")

    old = signal.signal(signal.SIGALRM, handler)
    signal.alarm(seconds)

    def cancel():
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    return cancel


def short_error(e: BaseException) -> str:
    lines = [ln.strip() for ln in str(e).strip().splitlines() if ln.strip()]
    # a compiler's diagnostics: the first `error:` line says more than the banner
    diag = [ln[ln.index("error:"):] for ln in lines[1:] if "error:" in ln]
    msg = f"{type(e).__name__}: {diag[0] if diag else lines[0] if lines else ''}"
    return msg if len(msg) <= 160 else msg[:157] + "..."


def check(got: list[np.ndarray], want: list[np.ndarray]) -> str | None:
    if len(got) != len(want):
        return f"{len(got)} results, expected {len(want)}"
    for g, w in zip(got, want):
        if g.shape != w.shape:
            return f"shape {g.shape}, expected {w.shape}"
        if not np.allclose(g, w, rtol=1e-4, atol=1e-4):
            return f"wrong values (max abs err {np.max(np.abs(g - w)):.3g})"
    return None


def sample(fn, inputs, budget_s: float, min_reps: int, warmup: int, info: dict) -> list[float]:
    """Per-call times of `fn` for about `budget_s` seconds (at least `min_reps` calls)."""
    with info.get("around", contextlib.nullcontext)():
        for _ in range(warmup):
            to_host(fn(*inputs))
        times = []
        deadline = time.perf_counter() + budget_s
        while len(times) < min_reps or time.perf_counter() < deadline:
            t0 = time.perf_counter()
            to_host(fn(*inputs))
            times.append(time.perf_counter() - t0)
            if len(times) >= 100_000:
                break
    return times


def prepare_cell(prepare, wl) -> tuple:
    """Compile/load through `prepare`, make the first call, check it against numpy."""
    cancel = _alarm(PREPARE_TIMEOUT_S)
    info: dict = {}
    try:
        fn = prepare(wl, info)
        if "first_result" in info:       # made and timed by the engine's worker process
            got = info.pop("first_result")
        else:
            with info.get("around", contextlib.nullcontext)():
                t0 = time.perf_counter()
                got = to_host(fn(*wl["inputs"]))
                info["first_call_s"] = time.perf_counter() - t0
    finally:
        cancel()
    bad = wl.get("check", check)(got, wl["expected"])
    if bad:
        raise ValueError(f"WRONG RESULT: {bad}")
    return fn, info


def cpu_ticks() -> tuple[int, int] | None:
    """(clock ticks every CPU spent busy since boot, ticks this process and
    its live children (the XLA workers) used), from /proc; None without it.
    Their difference over a cell is the CPU other processes took meanwhile:
    with the kernel's autogroup scheduling (each session its own group) a
    `nice -n 19` job in another session still takes a whole core from the
    benchmark, so a cell's times are only comparable with the other cells'
    when that figure is about zero."""
    try:
        with open("/proc/stat") as f:
            user, nice, system, _idle, _wait, irq, softirq, *_ = (int(x) for x in f.readline().split()[1:9])
        me, ours = os.getpid(), 0
        for pid in os.listdir("/proc"):
            if not pid.isdigit():
                continue
            try:
                with open(f"/proc/{pid}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:            # gone meanwhile
                continue
            if int(pid) == me or int(fields[1]) == me:     # fields[1]: the parent's pid
                ours += int(fields[11]) + int(fields[12])  # utime + stime
        return user + nice + system + irq + softirq, ours
    except (OSError, ValueError):
        return None


def others_cores(window_s: float = 0.5) -> float | None:
    """CPU cores processes outside this benchmark used over the next
    ``window_s`` seconds (cpu_ticks), or None without /proc."""
    a, t0 = cpu_ticks(), time.perf_counter()
    time.sleep(window_s)
    b = cpu_ticks()
    if a is None or b is None:
        return None
    return max(0.0, ((b[0] - a[0]) - (b[1] - a[1])) / os.sysconf("SC_CLK_TCK")
               / (time.perf_counter() - t0))


def wait_quiet(limit_s: float, below: float = 0.25) -> None:
    """Wait (up to ``limit_s`` seconds) until other processes use less than
    ``below`` cores for half a second: --wait-quiet, for a shared machine."""
    deadline = time.perf_counter() + limit_s
    while time.perf_counter() < deadline:
        busy = others_cores()
        if busy is None or busy < below:
            return


def run_workloads(wls: dict, args) -> dict:
    """Prepare every engine for each workload in ``wls`` ({name: (workload,
    engines' prepares)}), then time all of those cells in interleaved rounds,
    so that load changes on a shared machine hit all engines (and a pair of
    workloads compared with each other, SYMBOLIC_VS_STATIC) alike."""
    results = {w: {} for w in wls}
    ready = {}
    for w, (wl, usable) in wls.items():
        for e, prepare in usable.items():
            try:
                ready[w, e] = prepare_cell(prepare, wl)
            except (Exception, Timeout) as err:
                results[w][e] = {"error": short_error(err)}
                if args.verbose:
                    traceback.print_exc()
    times: dict = {cell: [] for cell in ready}
    foreign: dict = {cell: [0, 0.0] for cell in ready}    # others' ticks, wall seconds
    per_round = args.time_per_cell / args.rounds
    reps = -(-args.min_reps // args.rounds)
    for rnd in range(args.rounds):
        for (w, e), (fn, info) in ready.items():
            warmup = args.warmup if rnd == 0 else 1
            if args.wait_quiet:
                wait_quiet(args.wait_quiet)
            before, t0 = cpu_ticks(), time.perf_counter()
            try:
                if "sample" in info:     # timed in the engine's worker process (XLA)
                    times[w, e] += info["sample"](per_round, reps, warmup)
                else:
                    times[w, e] += sample(fn, wls[w][0]["inputs"], per_round, reps, warmup, info)
            except Exception as err:  # noqa: BLE001  a failure while timing
                results[w][e] = {"error": short_error(err)}
            after = cpu_ticks()
            if before is not None and after is not None:
                foreign[w, e][0] += (after[0] - before[0]) - (after[1] - before[1])
                foreign[w, e][1] += time.perf_counter() - t0
    for (w, e), (fn, info) in ready.items():
        if "release" in info:            # a worker process frees the workload's inputs
            with contextlib.suppress(Exception):
                info["release"]()
    for (w, e), (fn, info) in ready.items():
        if e in results[w]:
            continue
        ts = times[w, e]
        kept = {k: v for k, v in info.items() if k.endswith("_s") or k in ("dispatches", "xla_call")}
        results[w][e] = {"median_s": statistics.median(ts), "min_s": min(ts), "reps": len(ts), **kept}
        ticks, wall = foreign[w, e]
        if wall:              # other processes' CPU while this cell was timed, in cores
            results[w][e]["others_cores"] = max(0.0, ticks / os.sysconf("SC_CLK_TCK") / wall)
    return results


# ----------------------------------------------------------------- report


def fmt_time(s: float) -> str:
    if s < 1e-3:
        return f"{s * 1e6:.1f} us"
    if s < 1:
        return f"{s * 1e3:.2f} ms"
    return f"{s:.2f} s"


def print_table(title, header, rows, first_width=12):
    widths = [max(first_width, *(len(r[0]) for r in rows))]
    widths += [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(header[1:], 1)]
    print(f"\n{title}")
    print("  ".join(h.rjust(w) if i else h.ljust(w) for i, (h, w) in enumerate(zip(header, widths))))
    for r in rows:
        print("  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths))))


def report(results, workloads, engines, notes, rss):
    header = ["workload"] + engines
    # absolute medians
    rows = []
    for wname, wl in workloads.items():
        row = [wname]
        for e in engines:
            r = results[wname].get(e, {})
            if "median_s" in r:
                cell = fmt_time(r["median_s"])
                if wl.get("gflops"):
                    cell += f" ({wl['flops'] / r['median_s'] / 1e9:.1f} GF/s)"
                row.append(cell)
            else:
                row.append("n/a")
        rows.append(row)
    print_table("median time per call (numpy in -> numpy out)", header, rows)

    # ratios vs tensorvm (best of its drivers), else vs numpy
    rows, base_names = [], set()
    for wname in workloads:
        res = results[wname]
        tvm = [res[e]["median_s"] for e in engines if e.startswith("tensorvm") and "median_s" in res.get(e, {})]
        if tvm:
            base, base_name = min(tvm), "tensorvm (best driver)"
        elif "median_s" in res.get("numpy 1T", res.get("numpy", {})):
            # single-threaded BLAS: multi-threaded BLAS on a busy 2-CPU machine is bimodal
            key = "numpy 1T" if "numpy 1T" in res else "numpy"
            base, base_name = res[key]["median_s"], f"{key} (tensorvm n/a)"
        else:
            base, base_name = None, "-"
        base_names.add(base_name)
        row = [wname]
        for e in engines:
            r = res.get(e, {})
            row.append(f"{r['median_s'] / base:.2f}x" if base and "median_s" in r else "n/a")
        rows.append(row)
    print_table(f"RATIO engine time / {' or '.join(sorted(base_names))}  "
                f"(>1: slower than the baseline)", header, rows)

    # one-off costs, tensorvm's dispatch count, the process's peak RSS after the workload
    rows = []
    for wname in workloads:
        row = [wname]
        for e in engines:
            r = results[wname].get(e, {})
            if "first_call_s" not in r:
                row.append("n/a")
                continue
            row.append(" / ".join(fmt_time(r[k]) if k in r else "-"
                                  for k in ("compile_s", "load_s", "first_call_s")))
        counts = [r["dispatches"] for r in results[wname].values() if "dispatches" in r]
        row.append(str(counts[0]) if counts else "n/a")
        row.append(f"{rss[wname]:.0f} MiB" if rss.get(wname) is not None else "n/a")
        rows.append(row)
    print_table("one-off costs: compile / load / first call  (compile is shared by a group's "
                "drivers; JAX's is its first jit call); tensorvm dispatches; process peak RSS "
                "after the workload (monotonic)", header + ["tvm disp", "peak RSS"], rows)

    if notes:
        print("\nnotes:")
        for n in notes:
            print(f"  {n}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--time-per-cell", type=float, default=1.5, metavar="S",
                    help="timing budget per engine per workload (default 1.5 s)")
    ap.add_argument("--min-reps", type=int, default=5)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--rounds", type=int, default=3, help="interleaved timing rounds per workload")
    ap.add_argument("--wait-quiet", type=float, default=0.0, metavar="S",
                    help="before each cell's round, wait up to S seconds until processes outside "
                         "the benchmark use under a quarter of a core (a shared machine: the "
                         "OTHER PROCESSES table shows what each cell still got)")
    ap.add_argument("--only", default="", help="comma-separated workloads to run (model cases "
                    "too, or a model group: " + ", ".join(model_set.GROUPS) + "); 'devices': "
                    "only the DEVICES figure")
    ap.add_argument("--models", action="store_true",
                    help="run only the model set (benchmarks/models), on tensorvm, IREE and XLA "
                         "unless --engines says otherwise")
    ap.add_argument("--transformers", action="store_true",
                    help="run only the transformer and decoding models (load.GROUPS), on "
                         "tensorvm, IREE and XLA unless --engines says otherwise")
    ap.add_argument("--big", action="store_true",
                    help="run only the real-size models (benchmarks/big_models.py) with their "
                         "GFLOP/s beside numpy's 2048^2 GEMM, on tensorvm, IREE and XLA unless "
                         "--engines says otherwise")
    ap.add_argument("--engines", default="",
                    help="comma-separated engine groups: tensorvm,IREE,XLA,JAX,numpy")
    ap.add_argument("--json", metavar="PATH", help="also write the raw results as JSON")
    ap.add_argument("--verbose", action="store_true", help="print tracebacks of failures")
    ap.add_argument("--callers", type=int, default=8,
                    help="caller threads for the throughput table (0: skip it and the "
                         "1-vs-2-worker speed-up)")
    args = ap.parse_args(argv)
    if args.only == "devices":           # the DEVICES figure alone (2 devices vs 1)
        notes = []
        out = devices_report(args, notes)
        for n in notes:
            print(n)
        if args.json:
            pathlib.Path(args.json).write_text(json.dumps({"cpus": os.cpu_count(),
                                                           "devices": out}, indent=1) + "\n")
        return 0 if out else 1

    t_start = time.perf_counter()
    cases = model_set.cases()
    keep = [c for k in args.only.split(",") if k
            for c in (model_set.cases(k) if k in model_set.GROUPS else [k])]
    if args.models or args.transformers:
        group = model_set.cases("transformers") if args.transformers else cases
        keep = [k for k in keep if k in group] or group
        args.models = True
        args.engines = args.engines or "tensorvm,IREE,XLA"
    if args.big:
        global PREPARE_TIMEOUT_S
        PREPARE_TIMEOUT_S = 900          # IREE compiles BERT-base for minutes on a loaded machine
        workloads = load_big_workloads(keep)
        keep, cases, args.models, args.callers = [], [], True, 0
        args.engines = args.engines or "tensorvm,IREE,XLA"
    else:
        workloads = {} if args.models else load_workloads()
    if keep:
        known = list(workloads) + cases
        unknown = set(keep) - set(known)
        if unknown:
            ap.error(f"unknown workloads {sorted(unknown)}; have {known}")
        workloads = {k: v for k, v in workloads.items() if k in keep}
    if not args.big:
        workloads.update(load_model_workloads([c for c in cases if not keep or c in keep]))
    for wl in workloads.values():
        if "expected" not in wl:
            wl["expected"] = to_host(wl["np_fn"](*wl["inputs"]))

    print(f"tensorvm benchmarks: python {platform.python_version()}, numpy {np.__version__}, "
          f"{os.cpu_count()} CPUs, {platform.machine()}")
    groups = [g for g in ENGINE_GROUPS
              if not args.engines or g[0].lower() in args.engines.lower().split(",")]
    engines, prepares, notes = [], {}, []
    for gname, factory, names in groups:
        engines += names
        try:
            for name, prep in factory():
                prepares[name] = prep
                if name not in engines:          # optional engines (tensorvm opencl)
                    engines.append(name)
        except Exception as e:  # a missing package marks the whole group n/a
            notes.append(f"{gname}: n/a: {short_error(e)}")
            if args.verbose:
                traceback.print_exc()
    if args.transformers or args.big:   # the CPU comparison: tensorvm's CPU drivers and their peers
        columns = {e for tvm, peers in PEERS.values() for e in (tvm, *peers)}
        engines = [e for e in engines if e in columns]
    versions = []
    for mod, label in [("jax", "jax"), ("iree.compiler.version", "iree")]:
        try:
            m = __import__(mod, fromlist=["_"])
            versions.append(f"{label} {getattr(m, '__version__', None) or getattr(m, 'VERSION', '?')}")
        except Exception:
            pass
    if versions:
        print("versions: " + ", ".join(versions))

    results: dict[str, dict] = {}
    rss: dict[str, float | None] = {}
    gemm_ref = [gemm_reference()] if args.big else []
    # the symbolic/static pair is timed in the same interleaved rounds: its
    # ratio is a figure of the issue, and run apart it moved with the load
    batches = []
    for w in workloads:
        if w in SYMBOLIC_VS_STATIC and all(p in workloads for p in SYMBOLIC_VS_STATIC):
            if w == SYMBOLIC_VS_STATIC[0]:
                batches.append(list(SYMBOLIC_VS_STATIC))
        else:
            batches.append([w])
    for batch in batches:
        wls = {w: (workloads[w], {e: prepares[e] for e in engines if e in prepares
                                  and NEEDS.get(e, "text") in workloads[w]})  # JAX/numpy need a Python function
               for w in batch}
        results.update(run_workloads(wls, args))
        if args.big:
            gemm_ref.append(gemm_reference())
        for wname in batch:
            rss[wname] = peak_rss_mib()
            for e in engines:
                r = results[wname].get(e)
                if r is None:
                    continue
                status = fmt_time(r["median_s"]) if "median_s" in r else r["error"]
                print(f"  {wname:<10} {e:<14} {status}", flush=True)
                if "error" in r:
                    notes.append(f"{wname} / {e}: n/a: {r['error']}")

    conc = {}
    if args.callers > 0:
        conc = concurrency_report(workloads, args, notes)
    report(results, workloads, engines, dedupe(notes), rss)
    summary = model_summary(results, workloads)
    if args.big:
        summary["roofline"] = big_report(results, workloads, gemm_ref)
    rss = peak_rss_mib()
    peak = f", process peak RSS {rss:.0f} MiB (all engines)" if rss is not None else ""
    print(f"\ntotal {time.perf_counter() - t_start:.1f} s{peak}")
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(
            {"cpus": os.cpu_count(), "results": results, "models": summary, "concurrency": conc,
             "peak_rss_mib_after": rss, "notes": notes}, indent=1) + "\n")
    return 0


def peak_rss_mib() -> float | None:
    """The process's peak RSS so far (monotonic: read after each workload it
    shows which workload raised the high-water mark)."""
    try:
        import resource
    except ImportError:
        return None
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def geomean(xs: list[float]) -> float:
    return float(np.exp(np.mean(np.log(xs))))


# tensorvm's driver -> the peer columns it is compared with: one calling
# thread (local-sync, XLA single-threaded) and worker threads (local-task, XLA)
PEERS = {"sync": ("tensorvm sync", ("IREE sync", "XLA 1T")),
         "task": ("tensorvm task", ("IREE task", "XLA"))}


def model_summary(results, workloads) -> dict:
    """Per model: tensorvm beside IREE and XLA, sync and task (PEERS), with
    the ratios; the geomean of tensorvm/peer call latency over the models
    both ran and the worst model against the faster peer, per driver; the
    load ratio and the symbolic-vs-static batch ratio per engine."""
    out: dict = {}
    models = [w for w in workloads if workloads[w].get("model")]
    if not models:
        return out

    def med(m, e):
        return results[m].get(e, {}).get("median_s")

    def ratio(a, b):
        return f"{a / b:.2f}x" if a and b else "n/a"

    header, rows = ["model"], [[m] for m in models]
    for d, (tvm, peers) in PEERS.items():
        header += [tvm.replace("tensorvm", "tvm"), *peers, *(f"tvm/{p}" for p in peers)]
        for m, row in zip(models, rows):
            row += [fmt_time(t) if t else "n/a" for t in (med(m, tvm), *(med(m, p) for p in peers))]
            row += [ratio(med(m, tvm), med(m, p)) for p in peers]
    print_table("MODEL SET: tensorvm beside its peers, sync (one calling thread: local-sync, "
                "XLA 1T) and task (worker threads: local-task, XLA); tvm/peer >1: tensorvm "
                "slower", header, rows)
    for d, (tvm, peers) in PEERS.items():
        for p in peers:
            pairs = [(med(m, tvm), med(m, p)) for m in models if med(m, tvm) and med(m, p)]
            if pairs:
                g = geomean([t / i for t, i in pairs])
                out[f"geomean_tensorvm_over_{p.split()[0].lower()}_{d}"] = g
                print(f"  geomean tensorvm/{p} call latency, {d}: {g:.2f}x over {len(pairs)} of "
                      f"{len(models)} models (>1: tensorvm slower)")
            else:
                print(f"  geomean tensorvm/{p} call latency, {d}: n/a (no model ran on both)")
        vs_best = {}
        for m in models:
            ran = [(med(m, p), p) for p in peers if med(m, p)]
            if med(m, tvm) and ran:
                best, peer = min(ran)
                vs_best[m] = (med(m, tvm) / best, peer)
        if vs_best:
            worst = max(vs_best, key=lambda m: vs_best[m][0])
            r, peer = vs_best[worst]
            out[f"worst_vs_faster_peer_{d}"] = {"model": worst, "ratio": r, "peer": peer}
            print(f"  worst model vs the faster peer, {d}: {worst}, tensorvm {r:.2f}x {peer}")
        failed = [m for m in models if not med(m, tvm)]
        if failed:
            out[f"tensorvm_na_{d}"] = failed
            print(f"  {tvm} n/a on {len(failed)} models: {', '.join(failed)} (see notes)")
    gpu = [(m, med(m, "tensorvm opencl") / med(m, "tensorvm task")) for m in models
           if med(m, "tensorvm opencl") and med(m, "tensorvm task")]
    if gpu:       # issue 36.3: the OpenCL queue's host cost and kernel shape, same CPU on PoCL
        print_table("OPENCL beside local-task (PoCL runs on the same CPU: host cost per "
                    "submission and kernel shape)", ["model", "tvm opencl", "tvm task", "opencl/task"],
                    [[m, fmt_time(med(m, "tensorvm opencl")), fmt_time(med(m, "tensorvm task")),
                      f"{r:.2f}x"] for m, r in gpu])
        g = geomean([r for _, r in gpu])
        worst = max(gpu, key=lambda mr: mr[1])
        out["geomean_opencl_over_task"] = g
        out["worst_opencl_over_task"] = {"model": worst[0], "ratio": worst[1]}
        print(f"  geomean opencl/local-task: {g:.2f}x over {len(gpu)} models, worst "
              f"{worst[0]} {worst[1]:.2f}x")
    for d in ("sync", "task"):
        loads = {m: results[m][f"tensorvm {d}"]["load_s"] / results[m][f"IREE {d}"]["load_s"]
                 for m in models if "load_s" in results[m].get(f"tensorvm {d}", {})
                 and "load_s" in results[m].get(f"IREE {d}", {})}
        if loads:
            worst = max(loads, key=loads.get)
            out[f"load_tensorvm_over_iree_{d}"] = loads
            print(f"  tensorvm/IREE load (new bytes), {d}: geomean {geomean(list(loads.values())):.2f}x, "
                  f"worst {loads[worst]:.2f}x ({worst})")
    dyn, static = SYMBOLIC_VS_STATIC
    if dyn in results and static in results:
        ratios = {e: results[dyn][e]["median_s"] / results[static][e]["median_s"]
                  for e in results[dyn] if "median_s" in results[dyn].get(e, {})
                  and "median_s" in results[static].get(e, {})}
        out["symbolic_over_static"] = ratios
        cells = ", ".join(f"{e} {r:.2f}x" for e, r in ratios.items()) or "n/a"
        print(f"  symbolic/static batch ({dyn} / {static}): {cells}")
    return out


# ----------------------------------------------------------------- concurrency


def throughput(fn, inputs, callers: int, budget_s: float) -> float:
    """Calls per second of `callers` threads calling `fn` on one module."""
    import threading
    for _ in range(3):
        to_host(fn(*inputs))
    counts, stop = [0] * callers, [False]

    def worker(k):
        while not stop[0]:
            to_host(fn(*inputs))
            counts[k] += 1
    threads = [threading.Thread(target=worker, args=(k,)) for k in range(callers)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    time.sleep(budget_s)
    stop[0] = True
    for t in threads:
        t.join()
    return sum(counts) / (time.perf_counter() - t0)


def concurrency_report(workloads, args, notes) -> dict:
    """N caller threads on one module (tensorvm vs IREE), and the speed-up of
    local-task://2 over local-task://1 on the compute-bound matmul512."""
    out = {}
    callers = args.callers
    rows = []
    for wname in [w for w in ("add4", "mlp_b1") if w in workloads]:
        wl, row = workloads[wname], [wname]
        rates = {}
        for label, factory in [("tensorvm", tensorvm_engines), ("IREE", iree_engines)]:
            for name, prepare in _safe_engines(factory, notes):
                if not name.endswith("task") and not name.endswith("sync"):
                    continue
                try:
                    fn, _ = prepare_cell(prepare, wl)
                    rates[name] = throughput(fn, wl["inputs"], callers, args.time_per_cell / 2)
                except Exception as e:  # noqa: BLE001
                    notes.append(f"concurrency {wname} / {name}: n/a: {short_error(e)}")
        for d in ("sync", "task"):
            t, i = rates.get(f"tensorvm {d}"), rates.get(f"IREE {d}")
            row += [f"{t:.0f}/s" if t else "n/a", f"{i:.0f}/s" if i else "n/a",
                    f"{t / i:.2f}x" if t and i else "n/a"]
        out[wname] = rates
        rows.append(row)
    if rows:
        print_table(f"THROUGHPUT of {callers} caller threads on one module "
                    f"(ratio tensorvm/IREE, >1: tensorvm serves more)",
                    ["workload", "tvm sync", "IREE sync", "ratio", "tvm task", "IREE task",
                     "ratio"], rows)
    if "matmul512" in workloads:
        wl = workloads["matmul512"]
        times = {}
        try:
            from tensorvm import compiler, runtime
            vmfb = compiler.compile_str(wl["text"], targets=["cpu"])
            for w in (1, 2):
                fn = runtime.load_module(vmfb, device=f"local-task://{w}").main
                ts = sample(fn, wl["inputs"], args.time_per_cell / 2, args.min_reps, 2, {})
                times[w] = statistics.median(ts)
            print(f"\nWORKERS matmul512: local-task://1 {fmt_time(times[1])}, local-task://2 "
                  f"{fmt_time(times[2])}: speed-up {times[1] / times[2]:.2f}x from 1 to 2 workers")
        except Exception as e:  # noqa: BLE001
            notes.append(f"workers speed-up: n/a: {short_error(e)}")
        out["workers"] = times
    out["devices"] = devices_report(args, notes)
    return out


def devices_report(args, notes) -> dict:
    """Throughput of the data-parallel MLP (benchmarks/sharded) on 2 devices
    (local-task://1 each, one rank per device) over the same MLP on one
    local-task://1 device, results checked against each other.  Figures are
    min-of-N (the CPUs may be shared: the fastest call is the one least
    disturbed), in interleaved rounds with a control: two 1-device modules
    called at once from two threads, the parallel headroom the machine gives
    right now (2.00x on two idle cores)."""
    import threading
    here = ROOT / "benchmarks" / "sharded"
    try:
        from tensorvm import compiler, hal, runtime
        rng = np.random.default_rng(0)
        vmfb1 = compiler.compile_str((here / "mlp_b1024.mlir").read_text())
        one = runtime.load_module(vmfb1, device="local-task://1")
        # jax.jit with in/out_shardings: each rank gets and returns only its rows
        two = runtime.load_module(
            compiler.compile_str((here / "mlp_b1024_dp2_jit.mlir").read_text()),
            device=["local-task://1"] * 2, partitions=2)
        # the shard_map export: whole arrays to each rank, a slice, an all_gather at the end
        smap = runtime.load_module(
            compiler.compile_str((here / "mlp_b1024_dp2.mlir").read_text()),
            device=["local-task://1"] * 2, partitions=2)
        pair = [runtime.load_module(vmfb1, device=hal.create_device("local-task://1"))
                for _ in range(2)]
        shapes = [(1024, 512), (512, 1024), (1024,), (1024, 1024), (1024,), (1024, 10), (10,)]
        inputs = [(rng.standard_normal(s) * 0.05).astype(np.float32) for s in shapes]
        want = np.asarray(one.main(*inputs))
        for m in (two, smap):
            np.testing.assert_allclose(np.asarray(m.main(*inputs)), want, rtol=1e-4, atol=1e-4)

        def at_once(*a):
            ts = [threading.Thread(target=lambda m=m: to_host(m.main(*a))) for m in pair]
            for t in ts:
                t.start()
            for t in ts:
                t.join()
        rounds = {1: [], 2: [], "shard_map": [], "pair": []}
        budget = args.time_per_cell / 4
        for _ in range(3):                   # interleaved: all see the same machine
            rounds[1] += sample(one.main, inputs, budget, args.min_reps, 1, {})
            rounds[2] += sample(lambda *a: two.main(*a), inputs, budget, args.min_reps, 1, {})
            rounds["shard_map"] += sample(lambda *a: smap.main(*a), inputs, budget,
                                          args.min_reps, 1, {})
            rounds["pair"] += sample(at_once, inputs, budget, args.min_reps, 1, {})
        t1, t2, ts, tp = (min(rounds[k]) for k in (1, 2, "shard_map", "pair"))
        m1, m2 = (statistics.median(rounds[k]) for k in (1, 2))
        n = min(len(r) for r in rounds.values())
        print(f"\nDEVICES data-parallel MLP 512-1024-1024-10 at batch 1024, min of >= {n} calls: "
              f"1 device (local-task://1) {fmt_time(t1)} = {1024 / t1:.0f} samples/s, 2 devices "
              f"(local-task://1 each, jit in/out_shardings) {fmt_time(t2)} = {1024 / t2:.0f} "
              f"samples/s: throughput {t1 / t2:.2f}x (medians {m1 / m2:.2f}x); as a shard_map "
              f"export {t1 / ts:.2f}x; the machine's headroom now (two 1-device calls at "
              f"once): {2 * t1 / tp:.2f}x")
        return {"1": t1, "2": t2, "shard_map": ts, "pair": tp, "median_1": m1,
                "median_2": m2, "calls": n}
    except Exception as e:  # noqa: BLE001
        notes.append(f"devices speed-up: n/a: {short_error(e)}")
        return {}


def _safe_engines(factory, notes):
    try:
        return factory()
    except Exception as e:  # noqa: BLE001 - a missing package
        notes.append(f"concurrency: n/a: {short_error(e)}")
        return []


def dedupe(notes: list[str]) -> list[str]:
    """Collapse identical errors repeated across workloads into one line."""
    by_msg: dict[str, list[str]] = {}
    for n in notes:
        head, _, msg = n.partition(": n/a: ")
        by_msg.setdefault(msg, []).append(head)
    return [f"n/a: {msg}  [{', '.join(heads)}]" for msg, heads in by_msg.items()]


if __name__ == "__main__":
    sys.exit(main())
