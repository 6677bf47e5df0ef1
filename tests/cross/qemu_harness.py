"""Check a module's foreign-architecture CPU variant under qemu-user against
this host's run, dispatch by dispatch.

The runtime cannot dlopen an aarch64 object on x86-64, so: run the model on
this host (local-sync) while recording every dispatch (entry point, grid,
push constants, each binding's bytes before and after); then replay the same
dispatches, from the same inputs, through the foreign variant's object with
kernel_harness.c cross-compiled for that architecture and run by
``qemu-<arch> -L <sysroot>``; compare what each dispatch wrote.  Binding
element types come from the generated C (``(const float*)st->bindings[k]``):
floats are compared with a tolerance (the two compilers contract
multiply-adds differently), everything else exactly.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from tensorvm.compiler.codegen import cpu
from tensorvm.hal.drivers import cpu_program
from tensorvm.hal.loaders.cpu_c import ffi

HARNESS_C = Path(__file__).with_name("kernel_harness.c")

#: arch -> (cross compiler, qemu-user binary, sysroot)
TOOLS = {"aarch64": ("aarch64-linux-gnu-gcc", "qemu-aarch64", "/usr/aarch64-linux-gnu"),
         "armv7l": ("arm-linux-gnueabihf-gcc", "qemu-arm", "/usr/arm-linux-gnueabihf"),
         "riscv64": ("riscv64-linux-gnu-gcc", "qemu-riscv64", "/usr/riscv64-linux-gnu")}
_NUMPY = {"float": np.float32, "double": np.float64}


def missing_tools(arch: str) -> str | None:
    """What is missing to run ``arch`` code here (None: nothing)."""
    cc, qemu, sysroot = TOOLS[arch]
    for tool, pkg in ((cc, f"gcc-{cc[:-4]}"), (qemu, "qemu-user")):
        if shutil.which(tool) is None:
            return f"no {tool} (apt-get install {pkg})"
    if not os.path.isdir(sysroot):
        return f"no {sysroot} sysroot"
    return None


@dataclass
class Dispatch:
    entry: str
    workgroups: tuple
    constants: list
    before: list = field(default_factory=list)      # bytes per binding
    after: list = field(default_factory=list)


class Recorder:
    """Records every CPU dispatch run while installed (``monkeypatch``ed
    over ``DispatchPacket.run_all``)."""

    def __init__(self, monkeypatch):
        self.dispatches: list[Dispatch] = []
        original = cpu_program.DispatchPacket.run_all
        recorder = self

        def run_all(packet):
            layout = packet.executable.layouts[packet.entry]
            words = ffi.cast("void**", packet.state)
            addrs = ffi.cast("uintptr_t*", words[0])
            lens = ffi.cast("uint64_t*", words[1])
            consts = ffi.cast("uint32_t*", words[2])
            wg = ffi.cast("uint32_t*", packet.state + 3 * ffi.sizeof("void*"))
            spans = [(addrs[i], lens[i]) for i in range(layout.bindings)]
            grab = lambda: [ffi.buffer(ffi.cast("char*", a), n)[:] if n else b""
                            for a, n in spans]
            d = Dispatch(packet.executable.entry_points[packet.entry], (wg[0], wg[1], wg[2]),
                         [consts[i] for i in range(layout.constants)], grab())
            original(packet)
            d.after = grab()
            recorder.dispatches.append(d)

        monkeypatch.setattr(cpu_program.DispatchPacket, "run_all", run_all)
        # one run_all per dispatch: no packet batches (tvm_run_packets) while recording
        from tensorvm.hal.drivers import local_task
        monkeypatch.setattr(cpu_program, "batched", lambda segments: [
            (si, oi) for si, seg in enumerate(segments) for oi in range(len(seg))])
        monkeypatch.setattr(local_task, "batched_segments", lambda segments, _n: list(segments))


def binding_types(c_source: str) -> dict:
    """{entry: {binding index: C element type}} from the generated kernels."""
    out, entry = {}, None
    for line in c_source.splitlines():
        m = re.match(r"int (\w+)\(const tvm_dispatch_state_t\* st", line)
        if m:
            entry = out.setdefault(m.group(1), {})
            continue
        m = re.search(r"\((?:const )?([\w ]+?)\*\)st->bindings\[(\d+)\]", line)
        if m and entry is not None:
            entry[int(m.group(2))] = m.group(1).strip()
    return out


def build_harness(arch: str, directory: Path) -> Path:
    cc = TOOLS[arch][0]
    exe, src = directory / f"kernel_harness-{arch}", directory / "kernel_harness.c"
    src.write_text(HARNESS_C.read_text().replace("TVM_ABI", cpu.ABI))
    subprocess.run([cc, "-O1", "-std=gnu11", str(src), "-o", str(exe), "-ldl"],
                   check=True, capture_output=True, text=True)
    return exe


def replay(arch: str, so_bytes: bytes, dispatches, directory: Path) -> list:
    """Every dispatch's binding bytes after running ``so_bytes``'s entry points
    under qemu on the recorded inputs."""
    directory.mkdir(parents=True, exist_ok=True)
    harness = build_harness(arch, directory)
    so = directory / f"kernels-{arch}.so"
    so.write_bytes(so_bytes)
    spec, data = [str(len(dispatches))], bytearray()
    for d in dispatches:
        spec.append(" ".join(map(str, [d.entry, *d.workgroups, len(d.constants), *d.constants,
                                       len(d.before), *map(len, d.before)])))
        for b in d.before:
            data += b
    (directory / "spec.txt").write_text("\n".join(spec) + "\n")
    (directory / "in.bin").write_bytes(bytes(data))
    _, qemu, sysroot = TOOLS[arch]
    r = subprocess.run([qemu, "-L", sysroot, str(harness), str(so), str(directory / "spec.txt"),
                        str(directory / "in.bin"), str(directory / "out.bin")],
                       capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        raise AssertionError(f"harness under {qemu} failed ({r.returncode}): {r.stderr}")
    out, pos, results = (directory / "out.bin").read_bytes(), 0, []
    for d in dispatches:
        got = []
        for b in d.before:
            got.append(out[pos:pos + len(b)])
            pos += len(b)
        results.append(got)
    assert pos == len(out), "harness wrote a different amount of data than it read"
    return results


def compare(dispatches, results, types: dict, rtol=1e-4, atol=1e-5) -> int:
    """Assert every binding the foreign run wrote matches this host's; returns
    how many bindings were compared."""
    n = 0
    for d, got in zip(dispatches, results):
        for i, (want, have) in enumerate(zip(d.after, got)):
            ct = types.get(d.entry, {}).get(i)
            where = f"dispatch {d.entry} binding {i} ({ct or 'untyped'}, {len(want)} bytes)"
            dt = _NUMPY.get(ct)
            if dt is not None and len(want) % np.dtype(dt).itemsize == 0:
                np.testing.assert_allclose(np.frombuffer(have, dt), np.frombuffer(want, dt),
                                           rtol=rtol, atol=atol, err_msg=where)
            else:
                assert have == want, f"{where} differs"
            n += 1
    return n
