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
- ``expect_serialized_eq %v, probe_id = P, iter = I``: exact, ``%v``
  against the value ``interpreter.probe`` recorded the I-th time probe P ran
  (StableHLO's interpreter serializes it to a file; here each probe's operand
  becomes an extra result: directly at function level, and, inside the body of
  a ``stablehlo.while`` of the function, through a loop-carried buffer of the
  first iterations plus a run counter).  A probe elsewhere (deeper nesting)
  cannot be recorded: its checks are not compared, and a case with any check
  not compared is reported as ``ran`` (ran, not checked), never ``pass``.

``interpreter.run_parallel`` (collectives, replica/partition ids, host
transfers) runs its programs as ``len(programs)`` replicas x
``len(programs[0])`` partitions of one module loaded in-process
(``load_module(..., replicas=, partitions=)``): the operands come from the
function's code before it (compiled separately), each rank gets its share in
order, and the checks read the ranks' results, which become arguments of the
checking function (``prepare_parallel``).  Its ``infeed = [@f, ...]``
functions run first (in the operands' module); each one's results are one
entry pushed onto the ranks' shared infeed queue (``pm.host_queues``), and
a ``send`` / ``recv`` with ``is_host_transfer`` meets its peer on the
shared queue of its channel handle (runtime/host_queues.py).

A case passes when every check in it was compared and holds.  Nothing is
excluded by design any more (tokens, infeed/outfeed and host send/recv
compile since the host queues exist): an unsupported op is ``unsupported``,
a crash ``error``, a wrong value ``fail``.
"""
from __future__ import annotations

import re
import time
import traceback
from pathlib import Path

import numpy as np

CHECKS = ("check.expect_eq", "check.expect_eq_const", "check.expect_almost_eq",
          "check.expect_almost_eq_const", "check.expect_close", "check.expect_serialized_eq")


def split_cases(text: str) -> list[str]:
    return re.split(r"^// -----.*$", text, flags=re.M)


def _attr_value(op, key, default):
    a = op.attributes.get(key)
    return default if a is None else getattr(a, "value", a)


def _run_parallel_op(func):
    return next((o for o in func.regions[0].blocks[0].operations
                 if o.name == "interpreter.run_parallel"), None)


def _set_signature(func, block, outputs) -> None:
    from tensorvm.compiler.ir.attributes import TypeAttr
    from tensorvm.compiler.ir.types import FunctionType
    func.attributes["function_type"] = TypeAttr(FunctionType(
        tuple(a.type for a in block.arguments), tuple(v.type for v in outputs)))
    func.attributes.pop("res_attrs", None)


def prepare_parallel(text: str, filename: str):
    """(inputs module, checks module, {function: (programs, ranks' operand count,
    infeed functions)}).

    In the inputs module each function holding ``interpreter.run_parallel``
    returns its operands instead; in the checks module the op's results are
    the function's new arguments.  programs: [[symbol per partition] per replica];
    infeed functions: the symbols of its ``infeed`` attribute, in queue order."""
    from tensorvm.compiler.mlir.parser import parse_module
    from tensorvm.compiler.ir.attributes import IntAttr
    inputs = parse_module(text, filename=filename)
    for func in inputs.functions:
        rp = _run_parallel_op(func)
        if rp is None:
            continue
        block = func.regions[0].blocks[0]
        for op in [o for o in block.operations[block.operations.index(rp) + 1:-1]]:
            op.erase()
        ret = block.terminator
        ret.drop_operands()
        for v in rp.operands:
            ret.add_operand(v)
        _set_signature(func, block, rp.operands)
        rp.erase()
    checks = parse_module(text, filename=filename)
    runs = {}
    for func in checks.functions:
        rp = _run_parallel_op(func)
        if rp is None:
            continue
        programs = [[e.name for e in row.elements] for row in rp.attributes["programs"].elements]
        infeed = [e.name for e in getattr(rp.attributes.get("infeed"), "elements", ())]
        block = func.regions[0].blocks[0]
        for r in rp.results:
            r.replace_all_uses_with(block.add_argument(r.type))
        n_ops = len(rp.operands)
        rp.erase()
        _set_signature(func, block, block.terminator.operands)
        name = func.attributes["sym_name"]
        runs[getattr(name, "value", name)] = (programs, n_ops, infeed)
        checks.attributes["mhlo.num_replicas"] = IntAttr(len(programs))
        checks.attributes["mhlo.num_partitions"] = IntAttr(len(programs[0]))
    return inputs, checks, runs


def as_arrays(res) -> list:
    """One call's results as a list of numpy arrays (tokens stay Tokens)."""
    from tensorvm.runtime import Token
    res = res if isinstance(res, tuple) else (() if res is None else (res,))
    return [x if isinstance(x, Token) else np.asarray(x) for x in res]


def load_ranks(vmfb, programs, device, infeed=()):
    """The ParallelModule of a run_parallel, its infeed entries pushed."""
    from tensorvm import runtime
    pm = runtime.load_module(vmfb, device=device, replicas=len(programs),
                             partitions=len(programs[0]), timeout_s=20)
    for entry in infeed:
        pm.host_queues.infeed.push(*entry)
    return pm


def run_ranks_in_process(vmfb, programs, per_rank_args, device, infeed=()):
    """Each rank's results (lists of arrays): ranks of one in-process hub
    sharing one host (its queues)."""
    from tensorvm.runtime.parallel import run_ranks
    p = len(programs[0])
    pm = load_ranks(vmfb, programs, device, infeed)
    calls = [(pm.modules[k][programs[k // p][k % p]], args) for k, args in enumerate(per_rank_args)]
    return [as_arrays(res) for res in run_ranks(calls, pm.channels, host_queues=pm.host_queues)]


def run_parallel(path, index, inputs, checks, runs, device, run_ranks=run_ranks_in_process):
    """{checking function: its arguments}: each ``run_parallel``'s programs run
    on ranks of the checks module (``run_ranks``), fed by the inputs module."""
    from tensorvm import runtime
    from tensorvm.compiler import CompileOptions, compile_module
    opts = CompileOptions(targets=("cpu",), cpu="host")
    feed = runtime.load_module(compile_module(inputs, opts).vmfb, device=device)
    vmfb = compile_module(checks, opts).vmfb
    out = {}
    for fname, (programs, n_ops, infeed) in runs.items():
        n = len(programs) * len(programs[0])
        ops = as_arrays(feed[fname]()) if n_ops else []
        # each rank takes as many operands as its program has arguments, in order
        counts = [_arity(checks, programs[k // len(programs[0])][k % len(programs[0])])
                  for k in range(n)]
        if sum(counts) != len(ops):
            raise ValueError(f"@{fname}: run_parallel has {len(ops)} operands, its programs "
                             f"take {sum(counts)}")
        starts = np.cumsum([0] + counts)
        entries = [as_arrays(feed[q]()) for q in infeed]
        ranks = run_ranks(vmfb, programs, [ops[starts[k]:starts[k + 1]] for k in range(n)],
                          device, entries)
        out[fname] = [a for res in ranks for a in res]
    return vmfb, out


def _arity(module, name: str) -> int:
    """The argument count of function ``@name`` of IR ``module``."""
    for func in module.functions:
        sym = func.attributes["sym_name"]
        if getattr(sym, "value", sym) == name:
            return len(func.regions[0].blocks[0].arguments)
    raise KeyError(f"run_parallel program @{name} is not a function of the case")


def prepare_case(text: str, filename: str, module=None):
    """(IR module with every test returning its checked values, tests).

    tests: [(function name, [(kind, n_results, expected array or None, params)])]."""
    from tensorvm.compiler.mlir.parser import parse_module

    if module is None:
        module = parse_module(text, filename=filename)
    tests = []
    for func in module.functions:
        block = func.regions[0].blocks[0]
        checks = [op for op in block.operations if op.name in CHECKS]
        probes = _record_probes(func, checks)
        for op in [o for o in func.walk() if o.name == "interpreter.probe"]:
            op.results[0].replace_all_uses_with(op.operands[0])
            op.erase()
        if not checks:
            continue
        outputs, spec = [], []
        for op in checks:
            params = {"tolerance": float(_attr_value(op, "tolerance", 1e-4)),
                      "max_ulp": int(_attr_value(op, "max_ulp_difference", 3)),
                      "probe_id": _probe_id(op), "iter": int(_attr_value(op, "iter", 0))}
            params["kept"] = next((n for pid, n, _ in probes if pid == params["probe_id"]), 0)
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
        outputs += [v for _, _, vs in probes for v in vs]
        for v in outputs:
            ret.add_operand(v)
        _set_signature(func, block, outputs)
        name = func.attributes["sym_name"]
        tests.append((getattr(name, "value", name), spec, [(pid, len(vs)) for pid, _, vs in probes]))
    return module, tests


def _probe_id(op) -> str:
    return _attr_value(op, "probe_id", "")


def _record_probes(func, checks) -> list:
    """[(probe id, iterations kept, values to return)] for each probe that a
    ``check.expect_serialized_eq`` of ``func`` reads and that can be recorded:
    one probe op per id, at function level (one value: iteration 0) or in the
    body of a ``stablehlo.while`` at function level (a buffer holding the
    first iterations, plus how many times the probe ran)."""
    from tensorvm.compiler.ir.attributes import DenseElementsAttr
    from tensorvm.compiler.ir.core import Operation, Value
    from tensorvm.compiler.ir.types import TensorType, numpy_dtype

    wanted = {}
    for op in checks:
        if op.name == "check.expect_serialized_eq":
            pid = _probe_id(op)
            wanted[pid] = max(wanted.get(pid, 0), int(_attr_value(op, "iter", 0)) + 1)
    ops = [o for o in func.walk() if o.name == "interpreter.probe" and _probe_id(o) in wanted]
    top = func.regions[0].blocks[0]
    i64 = TensorType((), "i64")

    def const(anchor, t, array):
        return anchor.parent.insert_before(anchor, Operation(
            "stablehlo.constant", (), (t,), {"value": DenseElementsAttr(t, array)})).result
    out = []
    for probe in ops:
        pid = _probe_id(probe)
        if sum(_probe_id(o) == pid for o in ops) != 1:
            continue
        block, value = probe.parent, probe.operands[0]
        loop = block.parent.parent if block is not top else None
        if block is top:
            out.append((pid, 1, [value]))
            continue
        if loop.name != "stablehlo.while" or loop.parent is not top or block is not loop.regions[1].blocks[0]:
            continue
        # One spare row: dynamic_update_slice clamps its index, so runs past
        # the kept ones all land there.
        n, t = wanted[pid], value.type
        buf_t = TensorType((n + 1,) + t.shape, t.element)
        loop.add_operand(const(loop, buf_t, np.zeros(buf_t.shape, numpy_dtype(t.element))))
        loop.add_operand(const(loop, i64, np.array(0, np.int64)))
        for ty in (buf_t, i64):
            loop.results.append(Value(ty, loop, len(loop.results)))
            loop.regions[0].blocks[0].add_argument(ty)
        buf, count = block.add_argument(buf_t), block.add_argument(i64)
        ret = block.terminator
        row = block.insert_before(ret, Operation("stablehlo.reshape", (value,),
                                                 (TensorType((1,) + t.shape, t.element),))).result
        zero = const(ret, i64, np.array(0, np.int64))
        one = const(ret, i64, np.array(1, np.int64))
        new = block.insert_before(ret, Operation("stablehlo.dynamic_update_slice",
                                                 (buf, row, count) + (zero,) * len(t.shape), (buf_t,)))
        ran = block.insert_before(ret, Operation("stablehlo.add", (count, one), (i64,)))
        ret.add_operand(new.result)
        ret.add_operand(ran.result)
        out.append((pid, n, loop.results[-2:]))
    return out


def _recorded(n_kept: int, outs) -> list:
    """The values a probe recorded, in order of its runs (see _record_probes)."""
    if len(outs) == 1:
        return [np.asarray(outs[0])]
    buf, count = np.asarray(outs[0]), int(np.asarray(outs[1]))
    return [buf[i] for i in range(min(count, n_kept))]


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
        kind = "check.expect_eq"         # against the recorded probe value
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


def run_case(path: str, index: int, case: str, device: str = "local-sync",
             run_ranks=run_ranks_in_process):
    """One Result for case ``index`` of ``path`` (``run_ranks`` runs the ranks
    of a run_parallel case: in-process unless given, see interpret_mpi.py)."""
    from runner import Result
    from tensorvm import runtime
    from tensorvm.compiler import CompileOptions, compile_module
    from tensorvm.compiler.errors import CompileError, UnsupportedOpError

    t0 = time.perf_counter()
    name = f"{_rel(path)}:{index}"
    op = Path(path).stem

    def result(status, msg="", what=op):
        return Result(name, status, what, msg[:400], time.perf_counter() - t0)
    try:
        args = {}
        if "interpreter.run_parallel" in case:
            inputs, checks, runs = prepare_parallel(case, f"{path}#{index}")
            module, tests = prepare_case(case, f"{path}#{index}", checks)
            if not tests:
                return None
            vmfb, args = run_parallel(path, index, inputs, module, runs, device, run_ranks)
        else:
            module, tests = prepare_case(case, f"{path}#{index}")
            if not tests:
                return None
            vmfb = compile_module(module, CompileOptions(targets=("cpu",), cpu="host")).vmfb
        m = runtime.load_module(vmfb, device=device)
        unchecked = []
        for fname, spec, probes in tests:
            outs = m[fname](*args.get(fname, ()))
            if not isinstance(outs, tuple):
                outs = (outs,)
            k = sum(n for _, n, _, _ in spec)
            recorded = {}
            for pid, n_out in probes:
                recorded[pid] = outs[k:k + n_out]
                k += n_out
            k = 0
            for kind, n, expected, params in spec:
                got = np.asarray(outs[k])
                want = expected if n == 1 and expected is not None else \
                    (got if n == 1 else np.asarray(outs[k + 1]))
                k += n
                if kind == "check.expect_serialized_eq":
                    pid, it = params["probe_id"], params["iter"]
                    if pid not in recorded:
                        unchecked.append(f"@{fname} probe {pid!r}")
                        continue
                    runs = _recorded(params["kept"], recorded[pid])
                    if it >= len(runs):
                        return result("fail", f"@{fname} {kind}: probe {pid!r} ran {len(runs)} times, "
                                              f"no iteration {it}")
                    want = runs[it]
                msg = compare_check(kind, got, want, params)
                if msg is not None:
                    return result("fail", f"@{fname} {kind}: {msg}")
        if unchecked:
            return result("ran", "ran, not checked: check.expect_serialized_eq of a probe that "
                                 "cannot be recorded (" + ", ".join(unchecked) + ")")
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
