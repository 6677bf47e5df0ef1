"""Fuzz the compiler frontend: mutate MLIR programs, compile each mutant in
a forked child, classify the outcome (tools/fuzz_common.py).

    python tools/fuzz_mlir.py --count 1000 --jobs 2 [--json out.json]

Mutations work on tokens and lines of the programs of tools/fuzz_vmfb.py:
numbers to boundary values, element types and dimensions swapped, op names
replaced, SSA names exchanged, tokens or lines deleted, duplicated or
swapped, truncation, stray characters and deep nesting.  A compile error is
``typed`` when it is a CompileError; the report also counts typed errors
whose message has no ``file:line:col`` location (``unlocated``).
"""
from __future__ import annotations

import json
import os
import random
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fuzz_common  # noqa: E402
from fuzz_vmfb import PROGRAMS  # noqa: E402

_TOKEN = re.compile(r"%[\w#.$-]+|@[\w.$-]+|[-+]?\d+\.\d+(?:[eE][-+]?\d+)?|[-+]?\d+|"
                    r"[A-Za-z_][\w.$-]*|\s+|.", re.S)
_LOCATED = re.compile(r"<input>:\d+:\d+")
_ELEMENTS = ("f32", "f16", "bf16", "f64", "i1", "i8", "i32", "i64", "ui8", "complex<f32>",
             "f8E4M3FN", "index", "tensor<f32>", "!quant.uniform<i8:f32, 1.0>")
_OPS = ("stablehlo.add", "stablehlo.dot_general", "stablehlo.reduce", "stablehlo.while",
        "stablehlo.scatter", "stablehlo.gather", "stablehlo.convert", "stablehlo.reshape",
        "stablehlo.broadcast_in_dim", "stablehlo.constant", "stablehlo.compare",
        "stablehlo.custom_call", "stablehlo.transpose", "stablehlo.slice", "func.call",
        "func.return", "stablehlo.return", "stablehlo.sort", "stablehlo.iota", "bogus.op")
_NUMBERS = ("0", "-1", "1", "2", "3", "7", "64", "4294967296", "9223372036854775807",
            "99999999999999999999", "1e309", "-0.0", "nan")
_JUNK = ("(", ")", "{", "}", "[", "]", "<", ">", ":", ",", "=", "?", "x", "#", "^", "\"",
         "\x00", "\u00e9", "\\", "dense<", "tensor<", "%", "@", "->")


def mutate(text: str, rng: random.Random) -> tuple:
    """(strategy, mutant text)."""
    strategy = rng.choice(("number", "element", "dim", "op", "ssa", "token", "line", "junk",
                           "truncate", "nest"))
    toks = _TOKEN.findall(text)
    idx = [i for i, t in enumerate(toks) if not t.isspace()]

    def pick(pred):
        c = [i for i in idx if pred(toks[i])]
        return rng.choice(c) if c else rng.choice(idx)

    if strategy == "number":
        i = pick(lambda t: t[-1:].isdigit())
        toks[i] = rng.choice(_NUMBERS)
    elif strategy == "element":
        i = pick(lambda t: t in _ELEMENTS or re.fullmatch(r"\d*x?(f|i|ui)\d+", t) is not None)
        toks[i] = re.sub(r"(f|i|ui)\d+$", rng.choice(_ELEMENTS), toks[i]) if toks[i][-1:].isdigit() \
            else rng.choice(_ELEMENTS)
    elif strategy == "dim":
        shapes = [m for m in re.finditer(r"tensor<([\d?x]+)x", text)]
        if shapes:
            m = rng.choice(shapes)
            dims = m.group(1).split("x")
            dims[rng.randrange(len(dims))] = rng.choice(("0", "1", "?", "3", "1000000000",
                                                          "4294967296", "-1"))
            return strategy, text[:m.start(1)] + "x".join(dims) + text[m.end(1):]
    elif strategy == "op":
        i = pick(lambda t: t.startswith(("stablehlo.", "func.")))
        toks[i] = rng.choice(_OPS)
    elif strategy == "ssa":
        names = [i for i in idx if toks[i].startswith("%")]
        if len(names) >= 2:
            a, b = rng.sample(names, 2)
            toks[a] = toks[b]
    elif strategy == "token":
        i = rng.choice(idx)
        op = rng.randrange(3)
        if op == 0:
            del toks[i]
        elif op == 1:
            toks.insert(i, toks[i])
        else:
            j = rng.choice(idx)
            toks[i], toks[j] = toks[j], toks[i]
    elif strategy == "line":
        lines = text.split("\n")
        k = rng.randrange(len(lines))
        op = rng.randrange(3)
        if op == 0:
            del lines[k]
        elif op == 1:
            lines.insert(k, lines[k])
        else:
            j = rng.randrange(len(lines))
            lines[k], lines[j] = lines[j], lines[k]
        return strategy, "\n".join(lines)
    elif strategy == "junk":
        toks.insert(rng.randrange(len(toks) + 1), rng.choice(_JUNK))
    elif strategy == "truncate":
        return strategy, text[:rng.randrange(len(text))]
    else:                                   # deep nesting in a type or attribute
        i = pick(lambda t: t in ("<", "[", "("))
        depth = rng.choice((50, 300, 5000))
        close = {"<": ">", "[": "]", "(": ")"}.get(toks[i], ")")
        toks[i] = toks[i] * depth + close * (depth - 1) * rng.randrange(2)
    return strategy, "".join(toks)


def compile_one(text: str) -> dict:
    from tensorvm.compiler import CompileError, compile_str
    try:
        compile_str(text)
    except CompileError as e:
        msg = str(e)
        return {"class": "typed", "error": type(e).__name__, "message": msg[:200],
                "located": bool(_LOCATED.search(msg))}
    return {"class": "ok"}


def run(count: int, seed: int = 0, jobs: int = 2, timeout_s: float = 30.0):
    import tensorvm.compiler  # noqa: F401 - imported once, before forking
    tally = fuzz_common.Tally()
    unlocated = []
    names = sorted(PROGRAMS)
    items = []
    for i in range(count):
        rng = random.Random(seed * 1_000_003 + i)
        name = names[i % len(names)]
        strategy, text = mutate(PROGRAMS[name], rng)
        items.append((i, name, strategy, text))
    for item, result in fuzz_common.run_all(items, lambda it: compile_one(it[3]), jobs=jobs,
                                            timeout_s=timeout_s):
        i, name, strategy, _ = item
        tally.add(strategy, f"{name}#{i}", result)
        if result["class"] == "typed" and not result.get("located"):
            unlocated.append((f"{name}#{i}", result["message"]))
    return tally, unlocated


def main(argv=None) -> int:
    p = fuzz_common.arg_parser(__doc__, 300, 30.0)
    args = p.parse_args(argv)
    t0 = time.monotonic()
    tally, unlocated = run(args.count, args.seed, args.jobs, args.timeout)
    print(tally.report())
    print(f"typed without a location: {len(unlocated)}")
    for ident, msg in unlocated[:10]:
        print(f"  {ident}: {msg}")
    print(f"{time.monotonic() - t0:.1f} s")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({**tally.as_dict(), "unlocated": unlocated}, f, indent=1, default=str)
    bad = sum(tally.counts[c] for c in ("other", "crash", "hang"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
