"""`interpret` mode: StableHLO's interpreter spec tests (the ``check`` dialect).

Each file is split into cases on ``// -----``; every function of a case that
holds ``check.*`` ops is a test.  The runner rewrites it so that each check's
operands become results (for the ``*_const`` forms the checked value becomes
a result and the expected array stays on the host), ``interpreter.probe`` is
forwarded to its operand, compiles the case with tensorvm, runs each test on
the device and compares on the host:

- ``expect_eq`` / ``expect_eq_const``: exact (NaN equals NaN, bit patterns
  of -0.0 and 0.0 compare equal as values).
- ``expect_almost_eq`` / ``_const``: ``|actual - expected| <= tolerance``
  per element (per real and imaginary part), tolerance 1e-4 unless given,
  plus one ulp of the element type at the expected value to absorb the
  rounding of the decimal constants; NaN matches NaN, infinities must match.
- ``expect_close``: at most ``max_ulp_difference`` (default 3) units in the
  last place apart in the element type.
- ``expect_serialized_eq``: compares what ``interpreter.probe`` wrote to a
  file with the value; there is no probe file and no independent expected
  value here, so such a check is not compared: a case whose only checks are
  of this kind is reported as ``ran`` (ran, not checked), never ``pass``.

A case passes when every test in it passes and at least one value was
compared.  Cases using what tensorvm does not support by design
(collectives, replica/partition ids, tokens and infeed/outfeed/send/recv,
quantized types, i2/i4/f4/f6 element types) are reported as ``by-design``
only when they fail with the designed ``UnsupportedOpError``; a crash or a
wrong value in such a case stays an ``error`` or a ``fail``.
"""
from __future__ import annotations

import re
import time
import traceback
from pathlib import Path

import numpy as np

BY_DESIGN_OPS = ("all_reduce", "all_gather", "all_to_all", "collective_permute",
                 "collective_broadcast", "reduce_scatter", "replica_id", "partition_id",
                 "infeed", "outfeed", "send", "recv", "after_all", "create_token")
BY_DESIGN_RE = re.compile(
    r"stablehlo\.(?P<op>%s)\b|(?P<misc>interpreter\.run_parallel|!stablehlo\.token|!quant\.)|"
    r"tensor<(?:[0-9?]+x)*(?P<type>u?i[24]|f4E\w+|f6E\w+)>" % "|".join(BY_DESIGN_OPS))
CHECKS = ("check.expect_eq", "check.expect_eq_const", "check.expect_almost_eq",
          "check.expect_almost_eq_const", "check.expect_close", "check.expect_serialized_eq")


def split_cases(text: str) -> list[str]:
    return re.split(r"^// -----.*$", text, flags=re.M)


def by_design_reason(case: str) -> str | None:
    m = BY_DESIGN_RE.search(case)
    if not m:
        return None
    return m.group("op") or m.group("type") or m.group("misc").strip("!.")


def _attr_value(op, key, default):
    a = op.attributes.get(key)
    return default if a is None else getattr(a, "value", a)


def prepare_case(text: str, filename: str):
    """(IR module with every test returning its checked values, tests).

    tests: [(function name, [(kind, n_results, expected array or None, params)])]."""
    from tensorvm.compiler.frontend.parser import parse_module
    from tensorvm.compiler.ir.attributes import TypeAttr
    from tensorvm.compiler.ir.types import FunctionType

    module = parse_module(text, filename=filename)
    tests = []
    for func in module.functions:
        block = func.regions[0].blocks[0]
        for op in [o for o in func.walk() if o.name == "interpreter.probe"]:
            op.results[0].replace_all_uses_with(op.operands[0])
            op.erase()
        checks = [op for op in block.operations if op.name in CHECKS]
        if not checks:
            continue
        outputs, spec = [], []
        for op in checks:
            params = {"tolerance": float(_attr_value(op, "tolerance", 1e-4)),
                      "max_ulp": int(_attr_value(op, "max_ulp_difference", 3))}
            if op.name.endswith("_const"):
                spec.append((op.name, 1, np.asarray(op.attributes["value"].array), params))
                outputs.append(op.operands[0])
            elif op.name == "check.expect_serialized_eq":
                spec.append((op.name, 1, None, params))
                outputs.append(op.operands[0])
            else:
                spec.append((op.name, 2, None, params))
                outputs += [op.operands[0], op.operands[1]]
            op.erase()
        ret = block.terminator
        ret.drop_operands()
        for v in outputs:
            ret.add_operand(v)
        func.attributes["function_type"] = TypeAttr(FunctionType(
            tuple(a.type for a in block.arguments), tuple(v.type for v in outputs)))
        func.attributes.pop("res_attrs", None)
        name = func.attributes["sym_name"]
        tests.append((getattr(name, "value", name), spec))
    return module, tests


def _ulp(x: np.ndarray, dtype) -> np.ndarray:
    """Spacing of ``dtype`` at |x| (as float64)."""
    import ml_dtypes
    try:
        info = ml_dtypes.finfo(dtype)
    except ValueError:
        info = np.finfo(dtype)
    mant, tiny = int(info.nmant), float(info.smallest_normal)
    ax = np.maximum(np.abs(x), tiny)
    return np.exp2(np.floor(np.log2(ax)) - mant)


def _floaty(dt: np.dtype) -> bool:
    return dt.kind in "fc" or dt.name.startswith(("bfloat", "float"))


def compare_check(kind, actual, expected, params) -> str | None:
    """None if the check holds, else a short description of the mismatch."""
    if kind == "check.expect_serialized_eq":
        return None                      # not compared: see the module docstring
    actual, expected = np.asarray(actual), np.asarray(expected)
    if actual.shape != expected.shape:
        return f"shape {actual.shape} != expected {expected.shape}"
    if actual.dtype != expected.dtype:
        return f"dtype {actual.dtype} != expected {expected.dtype}"
    if not _floaty(actual.dtype):
        bad = np.argwhere(actual != expected)
        if not len(bad):
            return None
        i = tuple(bad[0])
        return f"{len(bad)}/{actual.size} differ, first at {i}: {actual[i]!r} != {expected[i]!r}"
    cplx = actual.dtype.kind == "c"
    parts_a = [actual.real, actual.imag] if cplx else [actual]
    parts_e = [expected.real, expected.imag] if cplx else [expected]
    ok = np.ones(actual.shape, bool)
    for a, e in zip(parts_a, parts_e):
        a64, e64 = a.astype(np.float64), e.astype(np.float64)
        both_nan = np.isnan(a64) & np.isnan(e64)
        with np.errstate(invalid="ignore", over="ignore"):
            if kind.startswith("check.expect_eq"):
                good = (a64 == e64) | both_nan
            elif kind == "check.expect_close":
                good = (_ulp_distance(a, e) <= params["max_ulp"]) | both_nan
            else:
                tol = params["tolerance"] + _ulp(e64, e.dtype)
                good = (np.abs(a64 - e64) <= tol) | both_nan | (a64 == e64)
        ok &= good
    if ok.all():
        return None
    bad = np.argwhere(~ok)
    i = tuple(bad[0])
    return f"{len(bad)}/{actual.size} differ, first at {i}: {actual[i]!r} != {expected[i]!r}"


def _ulp_distance(a: np.ndarray, e: np.ndarray) -> np.ndarray:
    """Units in the last place between two same-typed float arrays."""
    width = a.dtype.itemsize * 8
    ut = {8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}[width]

    def ordered(x):   # sign-magnitude bits -> a monotonic integer line
        sign = 1 << (width - 1)
        bits = [int(b) for b in np.ascontiguousarray(x).reshape(-1).view(ut)]
        return np.array([sign - b if b >= sign else b for b in bits], object)
    return np.abs(ordered(a) - ordered(e)).astype(np.float64).reshape(a.shape)


def _rel(path: str) -> str:
    p = Path(path)
    return f"{p.parent.name}/{p.name}" if p.parent.name != "interpret" else p.name


def run_case(path: str, index: int, case: str, device: str = "local-sync"):
    """One Result for case ``index`` of ``path``."""
    from runner import Result
    from tensorvm import runtime
    from tensorvm.compiler import CompileOptions, compile_module
    from tensorvm.compiler.errors import CompileError, UnsupportedOpError

    t0 = time.perf_counter()
    name = f"{_rel(path)}:{index}"
    op = Path(path).stem
    design = by_design_reason(case)

    def result(status, msg="", what=op):
        if status == "unsupported" and design:
            status, msg, what = "by-design", f"{design}: {msg}", design
        return Result(name, status, what, msg[:400], time.perf_counter() - t0)
    try:
        module, tests = prepare_case(case, f"{path}#{index}")
        if not tests:
            return None
        vmfb = compile_module(module, CompileOptions(targets=("cpu",), cpu="host")).vmfb
        m = runtime.load_module(vmfb, device=device)
        compared = 0
        for fname, spec in tests:
            outs = m[fname]()
            if not isinstance(outs, tuple):
                outs = (outs,)
            k = 0
            compared += sum(kind != "check.expect_serialized_eq" for kind, _, _, _ in spec)
            for kind, n, expected, params in spec:
                got = np.asarray(outs[k])
                want = expected if n == 1 and expected is not None else \
                    (got if n == 1 else np.asarray(outs[k + 1]))
                k += n
                msg = compare_check(kind, got, want, params)
                if msg is not None:
                    return result("fail", f"@{fname} {kind}: {msg}")
        if not compared:
            return result("ran", "ran, not checked: only check.expect_serialized_eq "
                                 "(needs the interpreter's probe files)")
        return result("pass")
    except UnsupportedOpError as e:
        return result("unsupported", str(e)[:300], e.op_name)
    except CompileError as e:
        return result("error", f"CompileError: {str(e)[:300]}")
    except Exception as e:  # noqa: BLE001 - every failure kind is reported
        tb = traceback.format_exc().strip().splitlines()[-3:]
        return result("error", f"{type(e).__name__}: {str(e)[:200]} | {' / '.join(tb)[:300]}")


def run_file(path: str, device: str = "local-sync"):
    """Results of every case of one file that holds a test."""
    cases = split_cases(Path(path).read_text())
    out = []
    for i, case in enumerate(cases):
        if "check." not in case:
            continue
        r = run_case(path, i, case, device)
        if r is not None:
            out.append(r)
    return out
