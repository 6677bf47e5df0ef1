"""`dynamic` mode: programs exported with symbolic shapes (``tensor<?x...>``).

JAX exports them with one leading ``tensor<i64>`` argument per dimension
variable, whose value must equal the sizes the ``?`` dims take.  With one
variable every ``?`` of every argument is that variable; with k variables the
k ``?`` dims of the first dynamic argument take them in order.  Each program
is compiled once by tensorvm and run at three sizes (even sizes where the
test name asks for them) on seeded random inputs (index-like integers small
and non-negative).

Reference: IREE (``iree.compiler`` / ``iree.runtime``, the ``bench`` extra)
on the same program specialised to each size: the dimension arguments are
replaced by constants and shapes refined with StableHLO's own
``stablehlo-refine-arguments`` / ``stablehlo-refine-shapes`` passes from
jaxlib's MLIR bindings, since IREE does not compile the unrefined dynamic
forms.  IREE runs in a child process per program; its outputs (or the
reason it failed) are cached under ``~/.cache/tensorvm`` (keyed by program,
flags and seed), so later sweeps do not recompile.  Without IREE/jaxlib, or where IREE cannot compile
the program, the file is only run ("ran", no reference).  The outputs for
the current suite are frozen into ``dynamic_references.npz`` beside this file
(``python tests/conformance/dynamic_suite.py --freeze-references``, with the
``bench`` extra installed), so a clean CI run compares values without IREE;
each frozen entry records a digest of its inputs and is ignored if today's
inputs differ.

Status per file: ``pass`` (matched the reference at every size), ``ran``
(ran at every size; no reference), ``fail`` (mismatch), ``unsupported`` /
``error`` (with the stage: compile or run).
"""
from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import time
import traceback
import zlib
from collections import Counter
from pathlib import Path

import numpy as np

# f64 stays f64 (IREE demotes it to f32 by default); generic CPU (no host-tuning warning).
IREE_FLAGS = ["--iree-llvmcpu-target-cpu=generic", "--iree-input-demote-f64-to-f32=false"]
CACHE = Path(os.environ.get("TENSORVM_CONFORMANCE_CACHE", Path.home() / ".cache" / "tensorvm")) / "dynamic-ref"
# IREE's outputs frozen for the current suite (``--freeze-references``), so
# that CI compares values without installing IREE and jaxlib.
FROZEN = Path(__file__).resolve().parent / "dynamic_references.npz"
_frozen = None


def _frozen_store() -> dict:
    global _frozen
    if _frozen is None:
        _frozen = {}
        if FROZEN.exists():
            with np.load(FROZEN, allow_pickle=False) as z:
                _frozen = {k: z[k] for k in z.files}
    return _frozen


def _inputs_digest(args) -> str:
    h = hashlib.sha256()
    for a in args:
        a = np.ascontiguousarray(a)
        h.update(f"{a.dtype.name}{a.shape}".encode())
        h.update(a.tobytes())
    return h.hexdigest()[:16]


def frozen_reference(key: str, args):
    """(outputs or None, reason or None) from the committed references; None,
    None when the key is not there or its inputs differ from today's (a numpy
    whose generator streams changed must not compare against stale values)."""
    z = _frozen_store()
    if f"{key}__inputs" not in z or str(z[f"{key}__inputs"]) != _inputs_digest(args):
        return None, None
    if f"{key}__err" in z:
        return None, str(z[f"{key}__err"])
    n = sum(1 for k in z if k.startswith(f"{key}__r"))
    return [_dtype_view(z[f"{key}__r{i}"], str(z[f"{key}__d{i}"])) for i in range(n)], None


def has_frozen_references(path: str) -> bool:
    """Every size of ``path`` has committed IREE outputs (not an IREE error)."""
    _, _, runs = cases(path)
    return all(frozen_reference(key, args)[0] is not None for _, args, key in runs)


def freeze_references(paths) -> None:
    """Write FROZEN from IREE's outputs (computed or cached) for ``paths``."""
    arrays = {}
    for path in paths:
        if Path(path).name in REFERENCE_DIFFERS:
            continue
        _, _, runs = cases(str(path))
        refs, why = iree_references(str(path), [key for _, _, key in runs])
        for i, (_, args, key) in enumerate(runs):
            arrays[f"{key}__inputs"] = np.array(_inputs_digest(args))
            if refs is None:
                arrays[f"{key}__err"] = np.array(why or "no reference")
                continue
            for j, o in enumerate(refs[i]):
                raw = o.view(f"u{o.dtype.itemsize}") if o.dtype.kind == "V" or \
                    o.dtype.name.startswith(("bfloat", "float8")) else o
                arrays[f"{key}__r{j}"] = raw
                arrays[f"{key}__d{j}"] = np.array(o.dtype.name)
    np.savez_compressed(FROZEN, **arrays)


def signature(text: str):
    """[(shape with None for ?, element)] of @main's arguments."""
    from tensorvm.compiler.mlir.parser import parse_module
    module = parse_module(text)
    main = module.lookup("main")
    return [(tuple(None if not isinstance(d, int) or d < 0 else d for d in a.type.shape), a.type.element)
            for a in main.regions[0].blocks[0].arguments]


def dim_var_count(sig) -> int:
    k = 0
    for shape, el in sig:
        if shape == () and el == "i64":
            k += 1
        else:
            break
    return k if any(None in s for s, _ in sig[k:]) else 0


def size_sets(name: str, k: int):
    base = (2, 4, 6) if "even" in name else (2, 3, 7)
    return [tuple(base[(i + j) % 3] for j in range(k)) for i in range(3)]


def make_inputs(sig, k, dims, seed):
    """Argument arrays for one size assignment (dims: one value per dim variable)."""
    from tensorvm.compiler.ir.types import numpy_dtype
    rng = np.random.default_rng(seed)
    first = next(i for i in range(k, len(sig)) if None in sig[i][0]) if k else None
    args = [np.array(d, np.int64) for d in dims]
    for i, (shape, el) in enumerate(sig[k:], start=k):
        if k == 1:
            concrete = tuple(dims[0] if d is None else d for d in shape)
        else:
            it = iter(dims) if i == first else iter(())
            concrete = tuple(next(it, dims[0]) if d is None else d for d in shape)
        dt = numpy_dtype(el)
        if el == "i1":
            a = rng.random(concrete) < 0.5
        elif dt.kind in "iu":
            a = rng.integers(0, 3, concrete).astype(dt)
        elif dt.kind == "c":
            a = (rng.standard_normal(concrete) + 1j * rng.standard_normal(concrete)).astype(dt)
        else:
            a = rng.standard_normal(concrete).astype(np.float32).astype(dt)
        args.append(np.asarray(a))
    return args


# -- reference: IREE on the program specialised to one size ------------------------------
def _specialise(text: str, k: int, args) -> str:
    from jax._src.interpreters import mlir as jm
    from jaxlib.mlir import ir, passmanager
    from jaxlib.mlir._mlir_libs import _stablehlo
    from jaxlib.mlir.dialects import stablehlo
    _stablehlo.register_stablehlo_passes()
    with jm.make_ir_context(), ir.Location.unknown():
        m = ir.Module.parse(text)
        main = next(op for op in m.body.operations
                    if "sym_name" in op.attributes and ir.StringAttr(op.attributes["sym_name"]).value == "main")
        block = main.regions[0].blocks[0]
        with ir.InsertionPoint.at_block_begin(block):
            for i in range(k):
                c = stablehlo.ConstantOp(ir.DenseElementsAttr.get(np.asarray(args[i])))
                block.arguments[i].replace_all_uses_with(c.result)
        types = ",".join(_mlir_type(a) for a in args)
        pm = passmanager.PassManager.parse(
            f"builtin.module(stablehlo-refine-arguments{{types={types}}},stablehlo-refine-shapes,canonicalize)")
        pm.run(m.operation)
        return str(m)


_ELEMENT = {"bool": "i1", "int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64",
            "uint8": "ui8", "uint16": "ui16", "uint32": "ui32", "uint64": "ui64",
            "float16": "f16", "bfloat16": "bf16", "float32": "f32", "float64": "f64",
            "complex64": "complex<f32>", "complex128": "complex<f64>"}


def _mlir_type(a: np.ndarray) -> str:
    return "tensor<" + "".join(f"{d}x" for d in a.shape) + _ELEMENT[a.dtype.name] + ">"


def _cache_paths(key: str):
    return CACHE / f"{key}.npz", CACHE / f"{key}.err"


def _load_cached(key: str):
    """(outputs or None, reason IREE could not give them or None)."""
    ok, err = _cache_paths(key)
    if ok.exists():
        with np.load(ok, allow_pickle=False) as z:   # raw bytes + dtype name (ml_dtypes too)
            return [_dtype_view(z[f"r{i}"], str(z[f"d{i}"])) for i in range(len(z.files) // 2)], None
    if err.exists():
        return None, err.read_text()
    return None, None


def _store(key: str, outs=None, error=None) -> None:
    CACHE.mkdir(parents=True, exist_ok=True)
    ok, err = _cache_paths(key)
    if error is not None:
        err.write_text(error)
        return
    tmp = ok.with_suffix(f".{os.getpid()}.tmp.npz")
    arrays = {f"r{i}": o.view(f"u{o.dtype.itemsize}") if o.dtype.kind == "V" or o.dtype.name.startswith(
        ("bfloat", "float8")) else o for i, o in enumerate(outs)}
    arrays.update({f"d{i}": np.array(o.dtype.name) for i, o in enumerate(outs)})
    np.savez(tmp, **arrays)
    os.replace(tmp, ok)


def _iree_run(text: str, k: int, args):
    import iree.compiler as ic
    import iree.runtime as rt
    vmfb = ic.compile_str(_specialise(text, k, args), target_backends=["llvm-cpu"],
                          extra_args=IREE_FLAGS)
    ctx = rt.SystemContext(config=rt.Config("local-sync"))
    vm_module = rt.VmModule.copy_buffer(ctx.instance, vmfb)
    ctx.add_vm_module(vm_module)
    outs = ctx.modules[vm_module.name]["main"](*args)
    return [np.asarray(o) for o in (outs if isinstance(outs, (tuple, list)) else (outs,))]


def cases(path: str):
    """(text, k, [(dims, args, cache key)]) for one program: the same in every process."""
    text = Path(path).read_text()
    name = Path(path).name
    sig = signature(text)
    k = dim_var_count(sig)
    digest = hashlib.sha256((text + " ".join(IREE_FLAGS)).encode()).hexdigest()[:16]
    out = []
    for n, dims in enumerate(size_sets(name, k)):
        seed = zlib.crc32(f"{name}:{n}".encode())
        out.append((dims, make_inputs(sig, k, dims, seed), f"{digest}-{seed}"))
    return text, k, out


def compute_references(path: str) -> None:
    """In a child process: IREE's outputs for every size of ``path``, into the cache."""
    text, k, runs = cases(path)
    for _, args, key in runs:
        try:
            _store(key, _iree_run(text, k, args))
        except Exception as e:  # noqa: BLE001 - the reason is the result
            _store(key, error=f"{type(e).__name__}: {_first_error(e)}")
            return


def iree_references(path: str, keys):
    """(list of outputs per size, None) or (None, why there is no reference).
    IREE runs in a child process (jaxlib's MLIR and IREE's runtime beside the
    tensorvm runtime have crashed a long-lived worker)."""
    got = [_load_cached(key) for key in keys]
    if any(o is None and e is None for o, e in got):
        try:
            proc = subprocess.run([sys.executable, __file__, "--reference", path],
                                  capture_output=True, text=True, timeout=600)
        except subprocess.TimeoutExpired:
            return None, "IREE reference timed out"
        got = [_load_cached(key) for key in keys]
        if proc.returncode != 0 and any(o is None and e is None for o, e in got):
            return None, f"IREE reference process failed (exit code {proc.returncode})"
    for o, e in got:
        if o is None:
            return None, f"IREE: {e}"
    return [o for o, _ in got], None


def _dtype_view(a: np.ndarray, name: str) -> np.ndarray:
    import ml_dtypes
    dt = np.dtype(getattr(ml_dtypes, name)) if hasattr(ml_dtypes, name) else np.dtype(name)
    return a.view(dt) if a.dtype != dt else a


# Where IREE's answer is not StableHLO's: reported as "ran" with the reason, not compared.
REFERENCE_DIFFERS = {
    "vmap_integer_pow_overflow_bfloat16_20_30_y_127_dynamic.mlir":
        "IREE keeps the chain of bf16 multiplies in f32 without rounding each product to bf16 "
        "(StableHLO rounds every op; tensorvm matches numpy/ml_dtypes bf16 bit for bit)",
}


def reference_available() -> bool:
    try:
        import iree.compiler  # noqa: F401
        import iree.runtime  # noqa: F401
        import jaxlib.mlir  # noqa: F401
        return True
    except ImportError:
        return False


def _tolerance(dtype):
    name = np.dtype(dtype).name
    return {"float16": 3e-3, "bfloat16": 3e-2, "float32": 1e-4, "complex64": 1e-4}.get(name, 1e-9)


def compare(actual, expected) -> str | None:
    actual, expected = np.asarray(actual), np.asarray(expected)
    if actual.shape != expected.shape:
        return f"shape {actual.shape} != reference {expected.shape}"
    if actual.dtype != expected.dtype:
        return f"dtype {actual.dtype} != reference {expected.dtype}"
    if actual.dtype.kind in "biu":
        ok = actual == expected
    else:
        t = _tolerance(actual.dtype)
        a = actual.astype(np.complex128 if actual.dtype.kind == "c" else np.float64)
        e = expected.astype(a.dtype)
        ok = np.isclose(a, e, rtol=t, atol=t, equal_nan=True)
    if ok.all():
        return None
    bad = np.argwhere(~ok)
    i = tuple(bad[0])
    return f"{len(bad)}/{actual.size} differ, first at {i}: {actual[i]!r} != {expected[i]!r}"


def run_file(path: str, device: str = "local-sync", reference: bool | None = None):
    """[Result] for one program: compile once, run at every size, compare."""
    from runner import Result
    from tensorvm import runtime
    from tensorvm.compiler import compile_str
    from tensorvm.compiler.errors import UnsupportedOpError

    t0 = time.perf_counter()
    name = Path(path).name
    op = name.removesuffix(".mlir").removesuffix("_dynamic")

    def result(status, msg=""):
        return [Result(name, status, op, msg[:400], time.perf_counter() - t0)]
    stage = "compile"
    try:
        text, k, runs = cases(path)
        driver = (device or "").split("://")[0]
        targets = (driver,) if driver in ("opencl", "cuda") else ("cpu",)
        m = runtime.load_module(compile_str(text, targets=targets, filename=path), device=device)
        stage = "run"
        results = []
        for dims, args, _ in runs:
            outs = m["main"](*args)
            results.append([np.asarray(o) for o in (outs if isinstance(outs, tuple) else (outs,))])
        if reference is False:
            return result("ran", "not compared (reference=False)")
        if name in REFERENCE_DIFFERS:
            return result("ran", f"no reference: {REFERENCE_DIFFERS[name]}")
        stage = "reference"
        frozen = [frozen_reference(key, args) for _, args, key in runs]
        if all(o is not None for o, _ in frozen):
            refs, why = [o for o, _ in frozen], None
        elif any(e is not None for _, e in frozen):
            refs, why = None, next(e for _, e in frozen if e is not None)
        elif reference_available():
            refs, why = iree_references(path, [key for _, _, key in runs])
        else:
            return result("ran", "no reference: not among the committed references, "
                                 "and IREE or jaxlib is not installed")
        if refs is None:
            return result("ran", f"no reference: {why}")
        for (dims, _, _), outs, ref in zip(runs, results, refs):
            if len(outs) != len(ref):
                return result("fail", f"{len(outs)} results, reference has {len(ref)}")
            for i, (a, r) in enumerate(zip(outs, ref)):
                msg = compare(a, r)
                if msg is not None:
                    return result("fail", f"dims={dims} result {i}: {msg}")
        return result("pass")
    except UnsupportedOpError as e:
        return result("unsupported", f"{stage}: {str(e)[:300]}")
    except Exception as e:  # noqa: BLE001 - every failure kind is reported
        tb = traceback.format_exc().strip().splitlines()[-3:]
        return result("error", f"{stage}: {type(e).__name__}: {str(e)[:200]} | {' / '.join(tb)[:300]}")


def _first_error(e: Exception) -> str:
    lines = [ln.strip() for ln in str(e).splitlines() if "error:" in ln]
    return (lines[0] if lines else str(e).strip().splitlines()[0] if str(e).strip() else "")[:200]


def summarize(results) -> str:
    c = Counter(r.status for r in results)
    total = len(results)
    compiled = total - c["unsupported"] - sum(1 for r in results
                                              if r.status == "error" and r.message.startswith("compile"))
    ran = c["pass"] + c["ran"] + c["fail"]
    lines = [f"{total} programs: {compiled} compiled, {ran} ran at every size, "
             f"{c['pass']} matched the reference, {c['fail']} differ, {c['ran']} without a reference; "
             f"{c['unsupported']} unsupported, {c['error']} error"]
    why = Counter(r.message.removeprefix("no reference: ").split(" error: ")[-1][:80]
                  for r in results if r.status == "ran")
    if why:
        lines.append("without a reference, by reason:")
        lines += [f"  {n:4d}  {k}" for k, n in why.most_common()]
    bad = Counter()
    for r in results:
        if r.status in ("unsupported", "error", "fail"):
            bad[f"{r.status}: {_reason(r.message)}"] += 1
    if bad:
        lines.append("not passing, by reason:")
        lines += [f"  {n:4d}  {k}" for k, n in bad.most_common()]
    return "\n".join(lines)


def _reason(msg: str) -> str:
    import re
    m = re.search(r"unsupported op '[^']*'(: [^(|]{0,60})?", msg)
    if m:
        return msg.split(":")[0] + ": " + m.group(0)
    return msg.split("|")[0][:90]


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--reference":
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        compute_references(sys.argv[2])
    elif len(sys.argv) == 2 and sys.argv[1] == "--freeze-references":
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from runner import SUITES
        freeze_references(sorted((SUITES / "dynamic").glob("*.mlir")))
        print(f"wrote {FROZEN} ({FROZEN.stat().st_size} bytes)")
