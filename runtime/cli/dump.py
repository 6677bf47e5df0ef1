"""``tensorvm-dump``: what a .vmfb holds — its SHA-256 digest (for
``load_module(..., expected_sha256=...)``), functions and signatures,
executables with formats, sizes and digests, and the disassembled host code.

    tensorvm-dump m.vmfb [--extract DIR] [--no-disassembly] [--json] [--device URI]

The variant the runtime would load on ``--device`` (default local-sync: this
host's CPU) is marked ``[selected on <device>]`` (``selected`` in --json).

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


def describe(m, sha256: str, device: str | None = None) -> dict:
    """What ``m`` holds as plain data (the ``--json`` output; the text view
    renders it); with ``device``, each executable's ``selected`` variant index
    (None when none loads there, ``why`` says why)."""
    functions = []
    for f in m.functions:
        if not f.exported or f.name.startswith("__"):
            continue
        refl = f.reflection or {}
        functions.append({"name": f.name, "signature": f.signature,
                          "args": refl.get("args", []), "results": refl.get("results", []),
                          "bytecode_bytes": len(f.code),
                          **{k: v for k, v in refl.items() if k not in ("args", "results")}})
    executables = [{"name": e.name, "variants": [
        {"format": v.format, "target": v.target, "bytes": len(v.data),
         "sha256": hashlib.sha256(v.data).hexdigest(),
         "entry_points": [{"name": ep.name, "bindings": ep.bindings, "constants": ep.constants}
                          for ep in v.entry_points]} for v in e.variants]}
        for e in m.executables]
    if device is not None:
        devices = {}
        for e, d in zip(m.executables, executables):
            d["selected"], d["why"] = _selected(device, e, devices)
            d["device"] = device
    return {"module": m.name, "format_version": m.version, "sha256": sha256,
            "functions": functions, "executables": executables,
            "rodata": {"count": len(m.rodata), "bytes": sum(len(r.data) for r in m.rodata)}}


def render(info) -> str:
    """``describe``'s data as the text listing."""
    def fmt(xs):
        return ", ".join(f"{a.get('name', '?')}: " + (
            "!hal.fence" if a.get("kind") == "fence" else
            "!stablehlo.token" if a.get("kind") == "token" else
            "x".join(map(str, a.get("shape", []) + [a.get("dtype")]))) for a in xs)
    out = [f"module @{info['module']} (format version {info['format_version']})",
           f"sha256 {info['sha256']}", "", "functions:"]
    for f in info["functions"]:
        out.append(f"  @{f['name']}({fmt(f['args'])}) -> ({fmt(f['results'])})"
                   f"  [{f['signature']}, {f['bytecode_bytes']} bytes of bytecode]")
    out += ["", "executables:"]
    for e in info["executables"]:
        if e.get("why"):
            out.append(f"  {e['name']}: {e['why']}")
        for k, v in enumerate(e["variants"]):
            mark = f" [selected on {e['device']}]" if e.get("selected") == k and "device" in e else ""
            out.append(f"  {e['name']}: {v['format']} {json.dumps(v['target'], sort_keys=True)} "
                       f"{v['bytes']} bytes, {len(v['entry_points'])} entry points{mark}")
            out.append(f"    sha256 {v['sha256']}")
            for i, ep in enumerate(v["entry_points"]):
                out.append(f"    [{i}] {ep['name']} ({ep['bindings']} bindings, "
                           f"{ep['constants']} constants)")
    out += ["", f"rodata: {info['rodata']['count']} constants, {info['rodata']['bytes']} bytes"]
    return "\n".join(out)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="tensorvm-dump", description=__doc__.split("\n\n")[0])
    p.add_argument("module", help="path of the .vmfb")
    p.add_argument("--extract", metavar="DIR", help="write every executable variant's bytes to DIR")
    p.add_argument("--device", default="local-sync",
                   help="mark the variant this device would load (default local-sync)")
    p.add_argument("--no-disassembly", action="store_true", help="omit the bytecode listing")
    p.add_argument("--json", action="store_true",
                   help="print the module's description as JSON (for tools)")
    args = p.parse_args(argv)
    try:
        m = container.read_module(args.module)
    except (VmfbError, OSError) as e:
        print(f"tensorvm-dump: error: {e}", file=sys.stderr)
        return 1
    info = describe(m, _file_sha256(args.module), args.device)
    if args.extract:
        try:
            info["extracted"] = extract(m, args.extract)
        except OSError as e:
            print(f"tensorvm-dump: error: cannot extract into {args.extract}: {e} "
                  f"(existing files and symlinks are never overwritten)", file=sys.stderr)
            return 1
    if not args.no_disassembly:
        from tensorvm.vmfb.disasm import disassemble_module
        info["disassembly"] = disassemble_module(m, max_rodata_bytes=0)
    if args.json:
        print(json.dumps(info, indent=2, sort_keys=True))
        return 0
    print(render(info))
    for path in info.get("extracted", []):
        print(f"wrote {path}")
    if "disassembly" in info:
        print("\n" + info["disassembly"])
    return 0

if __name__ == "__main__":
    sys.exit(main())
