"""Conformance runner over ../shared/conformance (StableHLO's own suites).

testdata/: each file's ``@main`` computes on ``@inputs()`` and checks against
``@expected()`` with ``custom_call @check.*``.  The runner rewrites the IR so
the inputs become arguments of ``main`` (nothing can be constant-folded away)
and every check's two operands become results, compiles with tensorvm, runs
on a device and compares on the host.

    python tests/conformance/runner.py testdata [--device local-sync] [--jobs N]
"""
from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
import traceback
from collections import Counter, defaultdict
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
SUITES = ROOT.parent / "shared" / "conformance"
DTYPE_TOKENS = ("bfloat16", "float16", "float32", "float64", "int8", "int16", "int32", "int64",
                "uint8", "uint16", "uint32", "uint64", "complex64", "complex128", "bool",
                "float8", "int4", "uint4")


@dataclass
class Result:
    file: str
    status: str          # "pass", "fail", "unsupported", "error", "by-design", "ran" (not checked)
    op: str              # the op the file tests (from its name) or the unsupported op
    message: str = ""
    seconds: float = 0.0


def op_of(filename: str) -> str:
    stem = Path(filename).stem
    parts = stem.split("_")
    for i, p in enumerate(parts):
        if any(p.startswith(t) for t in DTYPE_TOKENS) or p.isdigit() or p in ("shape", "dtypes"):
            return "_".join(parts[:i]) or stem
    return stem


def _tolerance(dtype: np.dtype):
    name = np.dtype(dtype).name
    if name in ("float16",):
        return 1e-3, 1e-3
    if name in ("bfloat16",):
        return 1e-2, 1e-2
    if name in ("float32", "complex64"):
        return 1e-5, 1e-5
    if name in ("float64", "complex128"):
        return 1e-10, 1e-12
    return 0, 0


def compare(kind: str, actual: np.ndarray, expected: np.ndarray) -> str | None:
    """None if the check holds, else a short description of the mismatch."""
    if actual.shape != expected.shape:
        return f"shape {actual.shape} != expected {expected.shape}"
    if actual.dtype != expected.dtype:
        return f"dtype {actual.dtype} != expected {expected.dtype}"
    a, e = actual, expected
    if a.dtype.kind not in "fc" and a.dtype.name not in ("bfloat16",) and not a.dtype.name.startswith("float"):
        if np.array_equal(a, e):
            return None
        bad = np.argwhere(a != e)
        i = tuple(bad[0])
        return f"{len(bad)} elements differ, first at {i}: {a[i]!r} != {e[i]!r}"
    a64 = a.astype(np.complex128 if a.dtype.kind == "c" else np.float64)
    e64 = e.astype(np.complex128 if e.dtype.kind == "c" else np.float64)
    if kind == "check.expect_eq":
        rtol, atol = 0.0, 0.0
    else:
        rtol, atol = _tolerance(a.dtype)
    ok = np.isclose(a64, e64, rtol=rtol, atol=atol, equal_nan=True)
    if ok.all():
        return None
    bad = np.argwhere(~ok)
    i = tuple(bad[0])
    return f"{len(bad)}/{a.size} elements differ, first at {i}: {a64[i]!r} != {e64[i]!r}"


def _sym(op, key):
    a = op.attributes.get(key)
    return getattr(a, "name", None) or getattr(a, "value", None)


def prepare_testdata(text: str, filename: str):
    """(IR module with main(inputs...) -> checked pairs, input arrays, check kinds)."""
    from tensorvm.compiler.mlir.parser import parse_module
    from tensorvm.compiler.ir.attributes import TypeAttr
    from tensorvm.compiler.ir.types import FunctionType

    module = parse_module(text, filename=filename)
    main = module.lookup("main")
    block = main.regions[0].blocks[0]
    inputs = []
    for op in list(block.operations):
        if op.name == "func.call" and _sym(op, "callee") == "inputs":
            callee = module.lookup("inputs")
            ret = callee.regions[0].blocks[0].terminator
            for v in ret.operands:
                producer = v.defining_op
                if producer is None or producer.name != "stablehlo.constant":
                    raise RuntimeError("@inputs does not return constants")
                inputs.append(np.array(producer.attributes["value"].array))
            for r in op.results:
                r.replace_all_uses_with(block.add_argument(r.type))
            op.erase()
    outputs, kinds = [], []
    for op in list(block.operations):
        if op.name == "stablehlo.custom_call":
            target = _sym(op, "call_target_name")
            if target and target.startswith("check."):
                outputs += [op.operands[0], op.operands[1]]
                kinds.append(target)
                op.erase()
    ret = block.terminator
    ret.drop_operands()
    for v in outputs:
        ret.add_operand(v)
    main.attributes["function_type"] = TypeAttr(FunctionType(
        tuple(a.type for a in block.arguments), tuple(v.type for v in outputs)))
    main.attributes.pop("arg_attrs", None)
    main.attributes.pop("res_attrs", None)
    return module, inputs, kinds


def run_testdata_file(path: str, device: str = "local-sync") -> Result:
    from tensorvm import runtime
    from tensorvm.compiler import CompileOptions, compile_module
    from tensorvm.compiler.errors import CompileError, UnsupportedOpError

    t0 = time.perf_counter()
    name = Path(path).name
    op = op_of(name)
    try:
        text = Path(path).read_text()
        module, inputs, kinds = prepare_testdata(text, str(path))
        if not kinds:
            return Result(name, "error", op, "no check.* custom_call found")
        driver = device.partition("://")[0]
        targets = (driver,) if driver in ("opencl", "cuda") else ("cpu",)
        vmfb = compile_module(module, CompileOptions(targets=targets, cpu="host")).vmfb
        m = runtime.load_module(vmfb, device=device)
        outs = m.main(*inputs)
        if not isinstance(outs, tuple):
            outs = (outs,)
        for i, kind in enumerate(kinds):
            msg = compare(kind, np.asarray(outs[2 * i]), np.asarray(outs[2 * i + 1]))
            if msg is not None:
                return Result(name, "fail", op, f"{kind}: {msg}", time.perf_counter() - t0)
        return Result(name, "pass", op, "", time.perf_counter() - t0)
    except UnsupportedOpError as e:
        return Result(name, "unsupported", e.op_name, str(e)[:300], time.perf_counter() - t0)
    except CompileError as e:
        return Result(name, "error", op, f"CompileError: {str(e)[:300]}", time.perf_counter() - t0)
    except Exception as e:  # noqa: BLE001 - the runner reports every failure kind
        tb = traceback.format_exc().strip().splitlines()[-3:]
        return Result(name, "error", op, f"{type(e).__name__}: {str(e)[:200]} | {' / '.join(tb)[:300]}",
                      time.perf_counter() - t0)


def _run_one(args):
    return run_testdata_file(*args)


def _run_file(args):
    """Worker: every Result of one file of ``suite`` (a list)."""
    suite, path, device = args
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    if suite == "interpret":
        import interpret_suite
        return interpret_suite.run_file(path, device)
    if suite == "dynamic":
        import dynamic_suite
        return dynamic_suite.run_file(path, device)
    if suite == "verify":
        import verify_suite
        return verify_suite.run_file(path, device)
    return [run_testdata_file(path, device)]


def run_suite(files, device="local-sync", jobs=None, suite="testdata") -> list[Result]:
    jobs = jobs or os.cpu_count() or 1
    work = [(suite, str(f), device) for f in files]
    if jobs == 1:
        return [r for w in work for r in _run_file(w)]
    if suite != "testdata":   # a native crash costs one file, not the sweep
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from pool import robust_map
        return [r for rs in robust_map(_run_file, work, jobs, _crashed) for r in rs]
    with ProcessPoolExecutor(jobs) as pool:
        return [r for rs in pool.map(_run_file, work, chunksize=4) for r in rs]


def _crashed(work, reason):
    suite, path, _ = work
    name = Path(path).name if suite != "interpret" or Path(path).parent.name == "interpret" \
        else f"{Path(path).parent.name}/{Path(path).name}"
    return [Result(name + (":*" if suite == "interpret" else ""), "error", Path(path).stem, reason)]


def summarize(results: list[Result], suite: str = "testdata") -> str:
    if suite == "dynamic":
        import dynamic_suite
        return dynamic_suite.summarize(results)
    if suite == "verify":
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        import verify_suite
        return verify_suite.summarize(results)
    counts = Counter(r.status for r in results)
    total = len(results)
    unit = "cases" if suite == "interpret" else "files"
    lines = [f"{total} {unit}: " + ", ".join(f"{counts[s]} {s}" for s in ("pass", "fail", "unsupported", "error"))
             + (f", {counts['ran']} ran but not checked" if counts["ran"] else "")
             + (f" ({100.0 * counts['pass'] / total:.1f}% pass)" if total else "")]
    if counts["by-design"]:
        rest = total - counts["by-design"]
        lines[0] += f", {counts['by-design']} unsupported by design"
        lines.append(f"outside the by-design list: {counts['pass']}/{rest} pass"
                     + (f" ({100.0 * counts['pass'] / rest:.1f}%)" if rest else ""))
    by_op = defaultdict(Counter)
    design = Counter(r.op for r in results if r.status == "by-design")
    if design:
        lines.append("unsupported by design, by reason: "
                     + ", ".join(f"{k} {n}" for k, n in design.most_common()))
    for r in results:
        if r.status not in ("pass", "by-design", "ran"):
            by_op[r.op][r.status] += 1
    if by_op:
        lines.append("not passing, by op:")
        for op, c in sorted(by_op.items(), key=lambda kv: -sum(kv[1].values())):
            lines.append(f"  {op:32s} " + ", ".join(f"{n} {s}" for s, n in sorted(c.items())))
    return "\n".join(lines)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("suite", choices=["testdata", "interpret", "dynamic", "verify"])
    p.add_argument("--device", default="local-sync")
    p.add_argument("--jobs", type=int, default=None)
    p.add_argument("--filter", default="", help="regular expression on file names")
    p.add_argument("--json", help="write per-file results here")
    p.add_argument("-v", "--verbose", action="store_true", help="print every non-passing file")
    args = p.parse_args(argv)
    files = sorted((SUITES / args.suite).rglob("*.mlir"))
    if args.filter:
        files = [f for f in files if re.search(args.filter, f.name)]
    results = run_suite(files, args.device, args.jobs, args.suite)
    if args.verbose:
        for r in results:
            if r.status not in ("pass", "roundtrip", "rejected"):
                print(f"{r.status:12s} {r.file}: {r.message}")
    print(summarize(results, args.suite))
    if args.json:
        Path(args.json).write_text(json.dumps([asdict(r) for r in results], indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
