"""`verify` mode: StableHLO's parser, printer and verifier tests.

Each file of ``../shared/conformance/verify`` is split into cases on
``// -----``.  A case is parsed with the line numbers it has in its file.

- A case without ``expected-error`` is valid: it must parse, verify
  (``ir.verifier.verify_module``), print (``ir.printer.print_module``) and
  the printed text must parse and verify again.  Status ``roundtrip``, or
  the stage that failed: ``parse-error``, ``verify-error``, ``print-error``,
  ``reparse-error``.
- A case with ``// expected-error@+N {{...}}`` (``@-N``, ``@above``,
  ``@below``, or on the line itself) is invalid: it must be rejected with a
  located error (``file:line:column``) at a line the case names: status
  ``rejected``; ``rejected-elsewhere`` (located, another line),
  ``rejected-unlocated`` (no line:column), ``accepted`` (accepted wrongly).
- Any exception that is not a ``CompileError`` is a ``crash`` in either
  kind of case: every failure must be a typed, located error.

Cases that use dialects beyond StableHLO, CHLO, func and quant types
(``arith``, ``tensor``, ``sparse_tensor``, test-only ops) are counted apart
(``other-dialect:`` prefix on the status) as the suite's README asks.
"""
from __future__ import annotations

import re
import time
import traceback
from collections import Counter
from pathlib import Path

ANNOTATION = re.compile(r"//\s*expected-error(?:-re)?(?:\s*@(?P<at>[+-]\d+|above|below))?\s*\{\{(?P<msg>.*?)\}\}")
LOCATED = re.compile(r":(?P<line>\d+):(?P<col>\d+): ")
_OWN = ("stablehlo", "chlo", "func", "builtin", "quant", "check", "interpreter")
_DIALECT = re.compile(r"(?<![\w#!%@^.$\"])\"?([a-z_][a-z0-9_]*)\.[a-z_][\w.]*\"?\s*[(%<{:]|![a-z_][a-z0-9_]*\.\w")
VALID_OK = ("roundtrip",)
INVALID_OK = ("rejected",)


def split_cases(text: str) -> list[tuple[int, str]]:
    """[(first line of the case, 1-based; its text)]."""
    out, start, lines = [], 1, []
    for n, line in enumerate(text.splitlines(keepends=True), start=1):
        if line.startswith("// -----"):
            out.append((start, "".join(lines)))
            start, lines = n + 1, []
        else:
            lines.append(line)
    out.append((start, "".join(lines)))
    return out


def expected_lines(first: int, case: str) -> list[tuple[int, str]]:
    """[(file line an expected error names, its message)]."""
    out = []
    for k, line in enumerate(case.splitlines()):
        for m in ANNOTATION.finditer(line):
            at, n = m.group("at"), first + k
            if at == "above":
                n -= 1
            elif at == "below":
                n += 1
            elif at:
                n += int(at)
            out.append((n, m.group("msg")))
    return out


def other_dialects(case: str) -> set[str]:
    """Dialects a case uses beyond StableHLO/CHLO/func (op names and !types, comments stripped)."""
    code = "\n".join(line.split("//", 1)[0] for line in case.splitlines())
    found = set()
    for m in _DIALECT.finditer(code):
        d = m.group(1) or m.group(0)[1:].split(".")[0]
        if d not in _OWN:
            found.add(d)
    return found


def _location(e: Exception):
    line = getattr(e, "line", None)
    if line is not None:
        return line, getattr(e, "column", None)
    m = LOCATED.search(str(e).split("error:", 1)[0] + " ")
    return (int(m.group("line")), int(m.group("col"))) if m else (None, None)


def _check_valid(text: str, filename: str) -> tuple[str, str]:
    from tensorvm.compiler.errors import CompileError
    from tensorvm.compiler.mlir.parser import parse_module
    from tensorvm.compiler.ir.printer import print_module
    from tensorvm.compiler.ir.verifier import verify_module

    stage = "parse-error"
    try:
        module = parse_module(text, filename=filename)
        stage = "verify-error"
        verify_module(module)
        stage = "print-error"
        printed = print_module(module)
        stage = "reparse-error"
        verify_module(parse_module(printed, filename=filename + " (printed)"))
        return "roundtrip", ""
    except CompileError as e:
        return stage, str(e)
    except Exception as e:  # noqa: BLE001 - a crash is the finding
        tb = traceback.format_exc().strip().splitlines()[-3:]
        return "crash", f"{stage}: {type(e).__name__}: {str(e)[:150]} | {' / '.join(tb)[:300]}"


def _check_invalid(text: str, filename: str, want: list[tuple[int, str]]) -> tuple[str, str]:
    from tensorvm.compiler.errors import CompileError
    from tensorvm.compiler.mlir.parser import parse_module
    from tensorvm.compiler.ir.verifier import verify_module

    expect = f"expected at line {', '.join(str(n) for n, _ in want)}: {want[0][1][:80]!r}"
    try:
        verify_module(parse_module(text, filename=filename))
        return "accepted", expect
    except CompileError as e:
        line, col = _location(e)
        if line is None or col is None:
            return "rejected-unlocated", f"{e} ({expect})"
        if any(line == n for n, _ in want):
            return "rejected", str(e)
        return "rejected-elsewhere", f"{str(e)[:200]} ({expect})"
    except Exception as e:  # noqa: BLE001 - a crash is the finding
        tb = traceback.format_exc().strip().splitlines()[-3:]
        return "crash", f"{type(e).__name__}: {str(e)[:150]} | {' / '.join(tb)[:300]} ({expect})"


def run_file(path: str, device: str = "") -> list:
    """One Result per case of ``path`` (``device`` is unused: nothing runs)."""
    from runner import Result
    out = []
    name = Path(path).name
    for index, (first, case) in enumerate(split_cases(Path(path).read_text())):
        if not case.strip() or not re.search(r"^\s*[^/\s]", case, re.M):
            continue                         # only comments
        t0 = time.perf_counter()
        text = "\n" * (first - 1) + case     # errors carry the file's line numbers
        want = expected_lines(first, case)
        kind = "invalid" if want else "valid"
        status, msg = (_check_invalid(text, path, want) if want else _check_valid(text, path))
        others = other_dialects(case)
        if others:
            status = "other-dialect:" + status
            msg = f"[{', '.join(sorted(others))}] {msg}"
        out.append(Result(f"{name}:{index}", status, kind, msg[:500], time.perf_counter() - t0))
    return out


def passed(r) -> bool:
    return r.status in VALID_OK + INVALID_OK


def summarize(results) -> str:
    own = [r for r in results if not r.status.startswith("other-dialect:")]
    rest = [r for r in results if r.status.startswith("other-dialect:")]

    def block(rs, title):
        valid = Counter(r.status.split(":")[-1] for r in rs if r.op == "valid")
        invalid = Counter(r.status.split(":")[-1] for r in rs if r.op == "invalid")
        nv, ni = sum(valid.values()), sum(invalid.values())
        return [f"{title}: {len(rs)} cases",
                f"  valid   {valid['roundtrip']}/{nv} round-trip; " + ", ".join(
                    f"{n} {s}" for s, n in valid.most_common() if s != "roundtrip"),
                f"  invalid {invalid['rejected']}/{ni} rejected at the named line; " + ", ".join(
                    f"{n} {s}" for s, n in invalid.most_common() if s != "rejected")]
    lines = block(own, "StableHLO/CHLO cases") + block(rest, "cases using other dialects")
    return "\n".join(lines)
