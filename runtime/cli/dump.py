"""``tensorvm-dump``: what a .vmfb holds — its SHA-256 digest (for
``load_module(..., expected_sha256=...)``), functions and signatures,
executables with formats, sizes and digests, and the disassembled host code.

    tensorvm-dump m.vmfb [--extract DIR] [--no-disassembly] [--device URI]

The variant the runtime would load on ``--device`` (default local-sync: this
host's CPU) is marked ``[selected on <device>]``.

``--extract`` writes each variant as a new file directly inside DIR: names
from the module are reduced to ``[A-Za-z0-9_.-]`` (no separators, no leading
dot), files are created exclusively and symlinks are never followed, so a
hostile module cannot write outside DIR or through a planted link.
"""
from __future__ import annotations

import argparse
import json
import hashlib
import os
import re
import sys

from tensorvm.vmfb import container
from tensorvm.vmfb.errors import VmfbError

_EXT = {"opencl-c": ".cl", "cuda-ptx": ".ptx"}


def _extension(fmt: str) -> str:
    return ".so" if fmt.startswith("cpu-c-") else _EXT.get(fmt, ".bin")


def _file_sha256(path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def safe_name(name: str) -> str:
    """``name`` as one plain file name: characters outside ``[A-Za-z0-9_.-]``
    become ``_`` and leading dots are dropped (no ``..``, no hidden files)."""
    return re.sub(r"[^A-Za-z0-9_.-]", "_", name).lstrip(".")[:200] or "executable"


def extract(m, directory: str) -> list:
    """Write every executable variant of ``m`` into ``directory``; returns the
    paths.  OSError (e.g. FileExistsError) if a file is already there."""
    os.makedirs(directory, exist_ok=True)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
    dfd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    written, used = [], set()
    try:
        for e in m.executables:
            for i, v in enumerate(e.variants):
                base = safe_name(f"{e.name}_{i}_{v.format}{_extension(v.format)}")
                name, n = base, 1
                while name in used:          # distinct names that sanitise alike
                    n += 1
                    name = f"{n}_{base}"
                used.add(name)
                fd = os.open(name, flags, 0o644, dir_fd=dfd)
                with os.fdopen(fd, "wb") as f:
                    f.write(bytes(v.data))
                written.append(os.path.join(directory, name))
    finally:
        os.close(dfd)
    return written


def _selected(device: str, exe, devices: dict) -> tuple:
    """(index of the variant ``device`` would load or None, why not);
    ``devices`` caches the device across executables."""
    from tensorvm import hal
    try:
        if device not in devices:
            devices[device] = hal.create_device(device)
        return devices[device].select_variant(exe.name, exe.variants), ""
    except hal.HalError as err:
        return None, f"not loadable on {device}: {err}"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="tensorvm-dump", description=__doc__.split("\n\n")[0])
    p.add_argument("module", help="path of the .vmfb")
    p.add_argument("--extract", metavar="DIR", help="write every executable variant's bytes to DIR")
    p.add_argument("--device", default="local-sync",
                   help="mark the variant this device would load (default local-sync)")
    p.add_argument("--no-disassembly", action="store_true", help="omit the bytecode listing")
    args = p.parse_args(argv)
    try:
        m = container.read_module(args.module)
    except (VmfbError, OSError) as e:
        print(f"tensorvm-dump: error: {e}", file=sys.stderr)
        return 1
    print(f"module @{m.name} (format version {m.version})")
    print(f"sha256 {_file_sha256(args.module)}")
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
    devices = {}
    for e in m.executables:
        chosen, why = _selected(args.device, e, devices)
        if why:
            print(f"  {e.name}: {why}")
        for i, v in enumerate(e.variants):
            mark = f" [selected on {args.device}]" if i == chosen else ""
            print(f"  {e.name}: {v.format} {json.dumps(v.target, sort_keys=True)} "
                  f"{len(v.data)} bytes, {len(v.entry_points)} entry points{mark}")
            print(f"    sha256 {hashlib.sha256(v.data).hexdigest()}")
            for i, ep in enumerate(v.entry_points):
                print(f"    [{i}] {ep.name} ({ep.bindings} bindings, {ep.constants} constants)")
    total = sum(len(r.data) for r in m.rodata)
    print(f"\nrodata: {len(m.rodata)} constants, {total} bytes")
    if args.extract:
        try:
            for path in extract(m, args.extract):
                print(f"wrote {path}")
        except OSError as e:
            print(f"tensorvm-dump: error: cannot extract into {args.extract}: {e} "
                  f"(existing files and symlinks are never overwritten)", file=sys.stderr)
            return 1
    if not args.no_disassembly:
        from tensorvm.vmfb.disasm import disassemble_module
        print("\n" + disassemble_module(m, max_rodata_bytes=0))
    return 0


if __name__ == "__main__":
    sys.exit(main())
