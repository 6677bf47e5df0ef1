"""``tensorvm-dump``: what a .vmfb holds — functions and signatures,
executables with formats and sizes, and the disassembled host code.

    tensorvm-dump m.vmfb [--extract DIR] [--no-disassembly]
"""
from __future__ import annotations

import argparse
import json
import os
import sys

from tensorvm.vmfb import container
from tensorvm.vmfb.errors import VmfbError

_EXT = {"opencl-c": ".cl", "cuda-ptx": ".ptx"}


def _extension(fmt: str) -> str:
    return ".so" if fmt.startswith("cpu-c-") else _EXT.get(fmt, ".bin")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="tensorvm-dump", description=__doc__.split("\n\n")[0])
    p.add_argument("module", help="path of the .vmfb")
    p.add_argument("--extract", metavar="DIR", help="write every executable variant's bytes to DIR")
    p.add_argument("--no-disassembly", action="store_true", help="omit the bytecode listing")
    args = p.parse_args(argv)
    try:
        m = container.read_module(args.module)
    except (VmfbError, OSError) as e:
        print(f"tensorvm-dump: error: {e}", file=sys.stderr)
        return 1
    print(f"module @{m.name} (format version {m.version})")
    print("\nfunctions:")
    for f in m.functions:
        if not f.exported or f.name.startswith("__"):
            continue
        refl = f.reflection or {}
        fmt = lambda xs: ", ".join(
            f"{a.get('name', '?')}: " + ("!hal.fence" if a.get("kind") == "fence" else
                                         'x'.join(map(str, a.get('shape', []) + [a.get('dtype')])))
            for a in xs)
        print(f"  @{f.name}({fmt(refl.get('args', []))}) -> ({fmt(refl.get('results', []))})"
              f"  [{f.signature}, {len(f.code)} bytes of bytecode]")
    print("\nexecutables:")
    for e in m.executables:
        for v in e.variants:
            print(f"  {e.name}: {v.format} {json.dumps(v.target, sort_keys=True)} "
                  f"{len(v.data)} bytes, {len(v.entry_points)} entry points")
            for i, ep in enumerate(v.entry_points):
                print(f"    [{i}] {ep.name} ({ep.bindings} bindings, {ep.constants} constants)")
    total = sum(len(r.data) for r in m.rodata)
    print(f"\nrodata: {len(m.rodata)} constants, {total} bytes")
    if args.extract:
        os.makedirs(args.extract, exist_ok=True)
        for e in m.executables:
            for i, v in enumerate(e.variants):
                path = os.path.join(args.extract, f"{e.name}_{i}_{v.format}{_extension(v.format)}")
                with open(path, "wb") as f:
                    f.write(bytes(v.data))
                print(f"wrote {path}")
    if not args.no_disassembly:
        from tensorvm.vmfb.disasm import disassemble_module
        print("\n" + disassemble_module(m, max_rodata_bytes=0))
    return 0


if __name__ == "__main__":
    sys.exit(main())
