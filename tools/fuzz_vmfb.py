"""Fuzz the module loader: mutate compiled .vmfb modules, load and call each
mutant in a forked child, classify the outcome (tools/fuzz_common.py).

    python tools/fuzz_vmfb.py --count 3000 --jobs 2 [--device local-sync] [--json out.json]
    python tools/fuzz_vmfb.py --count 10000 --batch 500 ...   # fresh process per 500

Strategies (the executable payloads are never touched: their native code is
trusted once accepted, docs/security.md):

* ``raw``      flip, set, insert or delete bytes outside executable payloads
               (checksums left stale: the container must notice);
* ``prefix``   change a field of the 64-byte prefix, prefix CRC recomputed;
* ``header``   change one value anywhere in the msgpack header (ints to
               boundary values, strings, lists, maps, types), header CRC
               recomputed, so the mutant reaches the schema checks;
* ``sections`` change a section-table entry (offset, length, kind), the
               section CRC recomputed over the new range where it lies in the
               file, so the mutant reaches bounds and overlap checks;
* ``operands`` change operand bytes or the opcode of one bytecode
               instruction, section and header CRCs recomputed, so the mutant
               reaches the bytecode verifier and the interpreter.

Each child loads the mutant on ``--device`` and calls every public export
with zero inputs shaped from its reflection.  A run prints counts per
strategy and class and the first examples of crashes, hangs and untyped
exceptions; ``--save DIR`` keeps those mutants for reproduction.
"""
from __future__ import annotations

import copy
import json
import os
import random
import struct
import sys
import time
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fuzz_common  # noqa: E402

import msgpack  # noqa: E402
import numpy as np  # noqa: E402

from tensorvm.vmfb import container  # noqa: E402
from tensorvm.vmfb.bytecode import decode_function  # noqa: E402

STRATEGIES = ("raw", "prefix", "header", "sections", "operands")

#: Five small programs covering elementwise, contraction, reduction, a loop,
#: dynamic shapes and scatter/gather.
PROGRAMS = {
    "add": """
func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %a, %b : tensor<4xf32>
  %1 = stablehlo.exponential %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}""",
    "mlp": """
func.func @main(%x: tensor<2x8xf32>, %w: tensor<8x4xf32>, %b: tensor<4xf32>) -> tensor<2x4xf32> {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>
  %1 = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<4xf32>) -> tensor<2x4xf32>
  %2 = stablehlo.add %0, %1 : tensor<2x4xf32>
  %z = stablehlo.constant dense<0.0> : tensor<2x4xf32>
  %3 = stablehlo.maximum %2, %z : tensor<2x4xf32>
  return %3 : tensor<2x4xf32>
}""",
    "reduce": """
func.func @main(%x: tensor<3x5xf32>) -> (tensor<3xf32>, tensor<3x5xi32>) {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1] : (tensor<3x5xf32>, tensor<f32>) -> tensor<3xf32>
  %1 = stablehlo.convert %x : (tensor<3x5xf32>) -> tensor<3x5xi32>
  return %0, %1 : tensor<3xf32>, tensor<3x5xi32>
}""",
    "loop": """
func.func @main(%x: tensor<4xf32>, %n: tensor<i32>) -> tensor<4xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %r:2 = stablehlo.while(%i = %c0, %v = %x) : tensor<i32>, tensor<4xf32>
    cond {
      %p = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %j = stablehlo.add %i, %c1 : tensor<i32>
      %w = stablehlo.add %v, %v : tensor<4xf32>
      stablehlo.return %j, %w : tensor<i32>, tensor<4xf32>
    }
  return %r#1 : tensor<4xf32>
}""",
    "dynamic": """
func.func @main(%x: tensor<?x4xf32>, %i: tensor<2x1xi32>, %u: tensor<2x4xf32>) -> (tensor<?x4xf32>, tensor<4x4xf32>) {
  %0 = stablehlo.multiply %x, %x : tensor<?x4xf32>
  %z = stablehlo.constant dense<0.0> : tensor<4x4xf32>
  %s = "stablehlo.scatter"(%z, %i, %u) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %c : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1],
        inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}
     : (tensor<4x4xf32>, tensor<2x1xi32>, tensor<2x4xf32>) -> tensor<4x4xf32>
  return %0, %s : tensor<?x4xf32>, tensor<4x4xf32>
}""",
}


def _crc(data) -> int:
    return zlib.crc32(data) & 0xFFFFFFFF


def _align(n: int, a: int) -> int:
    return (n + a - 1) // a * a


class Base:
    """A compiled module: its bytes, header dict and where things lie."""

    def __init__(self, name: str, data: bytes):
        self.name, self.data = name, data
        _, _, _, h_off, h_len, _ = container.read_prefix(memoryview(data))
        self.header = msgpack.unpackb(data[h_off:h_off + h_len], raw=False)
        self.sections = self.header["sections"]
        self.executable = [(s["offset"], s["offset"] + s["length"]) for s in self.sections
                           if s["kind"] == "executable"]
        self.code = [(i, s) for i, s in enumerate(self.sections) if s["kind"] == "bytecode"]


def repack(base: Base, hdr: dict, payloads=None, raw: bytes | None = None) -> bytes:
    """A container with header ``hdr`` placed after everything else (so no
    section moves), replaced section payloads appended (their table entries
    updated) and prefix and header CRCs recomputed."""
    out = bytearray(base.data if raw is None else raw)
    for idx, data in (payloads or {}).items():
        pos = _align(len(out), 4096)
        out += bytes(pos - len(out)) + data
        hdr["sections"][idx].update(offset=pos, length=len(data), crc32=_crc(data))
    packed = msgpack.packb(hdr, use_bin_type=True)
    h_off = _align(len(out), 64)
    out += bytes(h_off - len(out)) + packed
    return _prefix(out, h_off, len(packed), _crc(packed))


def _prefix(out: bytearray, h_off: int, h_len: int, h_crc: int, **changes) -> bytes:
    f = list(container.PREFIX.unpack_from(bytes(out[:64]), 0))
    f[4], f[5], f[6], f[7] = len(out), h_off, h_len, h_crc
    names = ("magic", "major", "minor", "flags", "length", "header_offset", "header_length",
             "header_crc", "reserved", "crc")
    for k, v in changes.items():
        f[names.index(k)] = v
    packed = container.PREFIX.pack(*f)
    out[:64] = packed[:60] + struct.pack("<I", _crc(packed[:60]))
    return bytes(out)


# -- value mutation ---------------------------------------------------------------------
_INTS = (0, 1, -1, 2, 63, 64, 255, 256, 65535, 65536, 2 ** 31 - 1, 2 ** 31, 2 ** 32 - 1, 2 ** 32,
         2 ** 63 - 1, -2 ** 63, 2 ** 64 - 1)


def _mutate_value(rng, v, strings):
    roll = rng.random()
    if roll < 0.08:
        return rng.choice((None, True, 0, "", [], {}, 1.5, b"\x00"))
    if isinstance(v, bool):
        return not v
    if isinstance(v, int):
        return rng.choice((rng.choice(_INTS), v + 1, v - 1, v * 2, -v, rng.randrange(-1000, 1000)))
    if isinstance(v, str):
        return rng.choice(("", "x", v + "x", v[:-1], "../../x", "\x00", "a" * 5000,
                           rng.choice(strings) if strings else v, "main", "__init", "i32",
                           "ref", "f32", "?", "hal.buffer.allocate"))
    if isinstance(v, list):
        if not v:
            return [rng.choice((0, "", None, {}, []))]
        k = rng.randrange(len(v))
        op = rng.randrange(5)
        if op == 0:
            return v[:k] + v[k + 1:]
        if op == 1:
            return v[:k] + [copy.deepcopy(v[k])] + v[k:]
        if op == 2:
            return list(reversed(v))
        if op == 3:
            return v + [copy.deepcopy(rng.choice(v))] * rng.choice((1, 100))
        return []
    if isinstance(v, dict):
        if v and rng.random() < 0.6:
            k = rng.choice(sorted(v, key=str))
            return {kk: vv for kk, vv in v.items() if kk != k}
        return {**v, rng.choice(("zz", "name", "offset", "")): rng.choice((1, "x", None))}
    if isinstance(v, (bytes, bytearray)):
        b = bytearray(v)
        if b:
            b[rng.randrange(len(b))] ^= 1 << rng.randrange(8)
        return bytes(b)
    return None


def _slots(obj, path=()):
    """Every (container, key) of a header tree, for picking a value to change."""
    out = []
    items = obj.items() if isinstance(obj, dict) else enumerate(obj) if isinstance(obj, list) else ()
    for k, v in items:
        out.append((obj, k, path + (k,)))
        out.extend(_slots(v, path + (k,)))
    return out


def _strings(hdr) -> list:
    out = []
    for container_, k, _ in _slots(hdr):
        if isinstance(container_[k], str):
            out.append(container_[k])
    return out


# -- strategies ---------------------------------------------------------------------------
def mutate(base: Base, strategy: str, rng: random.Random) -> bytes:
    if strategy == "raw":
        return _raw(base, rng)
    if strategy == "prefix":
        out = bytearray(base.data)
        field = rng.choice(("major", "minor", "flags", "length", "header_offset",
                            "header_length", "header_crc"))
        f = container.PREFIX.unpack_from(base.data, 0)
        cur = f[("magic", "major", "minor", "flags", "length", "header_offset", "header_length",
                 "header_crc").index(field)]
        bits = 16 if field in ("major", "minor") else 32 if field in ("flags", "header_crc") else 64
        val = rng.choice((0, 1, cur + 1, cur - 1, cur + 64, cur // 2, 2 ** bits - 1)) % 2 ** bits
        if val == cur:
            val ^= 1
        return _prefix(out, f[5], f[6], f[7], **{field: val})
    hdr = copy.deepcopy(base.header)
    if strategy == "header":
        slots = [s for s in _slots(hdr) if s[2][:1] != ("sections",) or rng.random() < 0.2]
        obj, key, _ = rng.choice(slots)
        obj[key] = _mutate_value(rng, obj[key], _strings(hdr))
        return repack(base, hdr)
    if strategy == "sections":
        entry = rng.choice(hdr["sections"])
        field = rng.choice(("offset", "length", "kind", "offset", "length"))
        if field == "kind":
            entry["kind"] = rng.choice(("bytecode", "rodata", "executable", "", "zz"))
        else:
            cur = entry[field]
            entry[field] = max(0, rng.choice((0, 1, cur + 1, cur - 1, cur + 64, cur - 64,
                                              cur * 2, cur // 2, len(base.data), 2 ** 40)))
        lo, hi = entry["offset"], entry["offset"] + entry["length"]
        if hi <= len(base.data) and rng.random() < 0.8:
            entry["crc32"] = _crc(base.data[lo:hi])
        return repack(base, hdr)
    if strategy == "operands":
        return _operands(base, hdr, rng)
    raise ValueError(f"unknown strategy {strategy!r}")


def _raw(base: Base, rng) -> bytes:
    out = bytearray(base.data)
    for _ in range(rng.choice((1, 1, 2, 4))):
        for _ in range(100):
            pos = rng.randrange(len(out))
            if not any(lo <= pos < hi for lo, hi in base.executable):
                break
        op = rng.randrange(5)
        if op == 0:
            out[pos] ^= 1 << rng.randrange(8)
        elif op == 1:
            out[pos] = rng.choice((0, 0xFF, 0x7F, 0x80))
        elif op == 2:
            out.insert(pos, rng.randrange(256))
        elif op == 3:
            del out[pos]
        else:
            del out[pos:]
            if not out:
                out = bytearray(b"\x89")
    return bytes(out)


def _operands(base: Base, hdr, rng) -> bytes:
    idx, sec = rng.choice(base.code)
    code = bytearray(base.data[sec["offset"]:sec["offset"] + sec["length"]])
    ins = decode_function(bytes(code)) if code else []
    if not ins:
        return repack(base, hdr)
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        k = rng.randrange(len(ins))
        start = ins[k].pc
        end = ins[k + 1].pc if k + 1 < len(ins) else len(code)
        if end - start <= 1 or rng.random() < 0.1:
            code[start] = rng.randrange(256)          # another (or no) opcode
            continue
        pos = rng.randrange(start + 1, end)
        code[pos] = rng.choice((0, 1, 0xFF, 0x7F, 0x80, code[pos] ^ (1 << rng.randrange(8)),
                                (code[pos] + 1) & 0xFF, (code[pos] - 1) & 0xFF, rng.randrange(256)))
    return repack(base, hdr, {idx: bytes(code)})


# -- running -----------------------------------------------------------------------------
def _typed_errors():
    from tensorvm.hal.errors import HalError
    from tensorvm.runtime.errors import InvalidArgumentError, LinkError, VmTrap
    from tensorvm.vmfb.errors import VmfbError
    return (VmfbError, HalError, VmTrap, InvalidArgumentError, LinkError)


def _zeros(entry):
    shape = [d if isinstance(d, int) and d >= 0 else 1 for d in entry.get("shape", [])]
    from tensorvm.vmfb.element_types import numpy_dtype
    try:
        dtype = numpy_dtype(entry.get("dtype", "f32"))
    except (KeyError, TypeError, ValueError, AttributeError):
        dtype = np.float32
    try:
        return np.zeros(shape, dtype)
    except (ValueError, MemoryError):    # a reflection numpy cannot build: pass a scalar
        return np.zeros((), dtype)


def load_and_call(data: bytes, device: str, timeout_s: float) -> dict:
    """Load ``data`` on ``device`` and call every public export once."""
    from tensorvm.runtime import load_module
    typed = _typed_errors()
    try:
        m = load_module(data, device, timeout_s=timeout_s)
        for name, fn in sorted(m.functions.items()):
            args = [_zeros(a) if a.get("dtype") else 0 for a in fn.args]
            out = fn(*args)
            for r in out if isinstance(out, tuple) else (out,):
                if r is not None and hasattr(r, "shape"):
                    np.asarray(r)
    except typed as e:
        return {"class": "typed", "error": type(e).__name__, "message": str(e)[:200]}
    return {"class": "ok"}


def bases(names=None) -> list:
    from tensorvm.compiler import compile_str
    return [Base(n, compile_str(PROGRAMS[n])) for n in (names or PROGRAMS)]


def mutants(base_list, count: int, seed: int, strategies=STRATEGIES, first: int = 0):
    """``count`` (id, strategy, base name, bytes) from mutant ``first`` on,
    reproducible from ``seed`` (mutant ``i`` is the same in any batch)."""
    for i in range(first, first + count):
        rng = random.Random(seed * 1_000_003 + i)
        base = base_list[i % len(base_list)]
        strategy = strategies[(i // len(base_list)) % len(strategies)]
        yield i, strategy, base.name, mutate(base, strategy, rng)


def run(count: int, seed: int = 0, jobs: int = 2, timeout_s: float = 10.0,
        device: str = "local-sync", names=None, save=None, strategies=STRATEGIES,
        first: int = 0):
    base_list = bases(names)
    for b in base_list:                   # the unmutated modules must load and run
        res = _check_base(b, device, timeout_s)
        if res["class"] != "ok":
            raise RuntimeError(f"base module {b.name} does not run: {res}")
    tally = fuzz_common.Tally()
    items = list(mutants(base_list, count, seed, strategies, first))

    def work(item):
        return load_and_call(item[3], device, timeout_s / 2)

    for item, result in fuzz_common.run_all(items, work, jobs=jobs, timeout_s=timeout_s):
        i, strategy, name, data = item
        tally.add(strategy, f"{name}#{i}", result)
        if save and result["class"] in ("other", "crash", "hang"):
            os.makedirs(save, exist_ok=True)
            with open(os.path.join(save, f"{result['class']}-{name}-{i}.vmfb"), "wb") as f:
                f.write(data)
    return tally


def _check_base(base: Base, device: str, timeout_s: float) -> dict:
    result = next(iter(fuzz_common.run_all(
        [base.data], lambda d: load_and_call(d, device, timeout_s), jobs=1,
        timeout_s=timeout_s * 3)))[1]
    return result


def run_batches(argv: list, count: int, batch: int, first: int = 0) -> fuzz_common.Tally:
    """The run of ``argv`` split into fresh processes of ``batch`` mutants
    each (a long run's parent then never grows, and a batch that dies is
    reported instead of ending the run); tallies merged."""
    import subprocess
    import tempfile
    tally = fuzz_common.Tally()
    for start in range(first, first + count, batch):
        n = min(batch, first + count - start)
        with tempfile.TemporaryDirectory(prefix="fuzz-batch-") as tmp:
            out = os.path.join(tmp, "tally.json")
            proc = subprocess.run([sys.executable, os.path.abspath(__file__), *argv,
                                   "--first", str(start), "--count", str(n), "--batch", "0",
                                   "--json", out], capture_output=True, text=True)
            if not os.path.exists(out):
                tally.add("batch", f"batch@{start}", {
                    "class": "crash", "error": f"batch exit status {proc.returncode}",
                    "message": proc.stderr[-400:]})
                continue
            with open(out) as f:
                tally.merge(json.load(f))
        print(f"  {start + n - first}/{count}: " + ", ".join(
            f"{c} {tally.counts[c]}" for c in fuzz_common.CLASSES), flush=True)
    return tally


def main(argv=None) -> int:
    p = fuzz_common.arg_parser(__doc__, 500, 10.0)
    p.add_argument("--device", default="local-sync")
    p.add_argument("--modules", default=",".join(PROGRAMS), help="comma-separated programs")
    p.add_argument("--strategies", default=",".join(STRATEGIES))
    p.add_argument("--save", metavar="DIR", help="keep crashing/hanging/untyped mutants here")
    p.add_argument("--first", type=int, default=0, help="index of the first mutant")
    p.add_argument("--batch", type=int, default=0, metavar="N",
                   help="run N mutants per fresh subprocess (0: all in this process)")
    args = p.parse_args(argv)
    t0 = time.monotonic()
    if args.batch:
        passed = ["--seed", str(args.seed), "--jobs", str(args.jobs), "--timeout",
                  str(args.timeout), "--device", args.device, "--modules", args.modules,
                  "--strategies", args.strategies] + (["--save", args.save] if args.save else [])
        tally = run_batches(passed, args.count, args.batch, args.first)
    else:
        tally = run(args.count, args.seed, args.jobs, args.timeout, args.device,
                    args.modules.split(","), args.save, tuple(args.strategies.split(",")),
                    args.first)
    print(tally.report())
    print(f"{time.monotonic() - t0:.1f} s")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(tally.as_dict(), f, indent=1, default=str)
    bad = sum(tally.counts[c] for c in ("other", "crash", "hang"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
