"""The CPU drivers' replayable form of a command buffer.

``prepare(commands)`` runs once, at ``CommandBuffer.finalize()``: each
dispatch becomes a ``DispatchPacket`` whose native ``tvm_dispatch_state_t``
(binding pointers, lengths, push constants, grid) is built now, so a replay
costs one native call per workgroup range and nothing else; fills, copies and
updates become ``HostOp``s over numpy views.  Commands are grouped into
segments at execution barriers: ops inside a segment may run concurrently,
segments run one after the other.  The packets keep the buffers' storage
alive, so a buffer released while a command buffer still uses it stays valid
memory.
"""
from __future__ import annotations

import numpy as np

from ..command_buffer import Barrier, Copy, Dispatch, Fill, Update
from ..errors import HalError
from ..loaders.cpu_c import ffi

_PATTERN_DTYPES = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}
_UINTPTR_ARRAY = ffi.typeof("uintptr_t[]")
_U64_ARRAY = ffi.typeof("uint64_t[]")
_U32_ARRAY = ffi.typeof("uint32_t[]")
_STATE_PTR = ffi.typeof("tvm_dispatch_state_t*")
_BINDINGS_PTR = ffi.typeof("void* const*")


class DispatchPacket:
    """One dispatch with its native state prebuilt."""

    __slots__ = ("fn", "state", "total", "executable", "entry", "_keep")

    def __init__(self, cmd: Dispatch):
        exe = cmd.executable
        self.executable = exe
        self.entry = cmd.entry
        self.fn = exe.functions[cmd.entry]
        wx, wy, wz = cmd.workgroups
        self.total = wx * wy * wz
        if self.total > 0xFFFFFFFF:
            raise HalError(f"dispatch of '{exe.name}' has {self.total} workgroups; "
                           "at most 2**32-1 fit the ABI's uint32 range")
        storages = [buf.storage for buf, _, _ in cmd.bindings]
        addrs = ffi.new(_UINTPTR_ARRAY, [buf.address + off for buf, off, _ in cmd.bindings] or [0])
        lens = ffi.new(_U64_ARRAY, [ln for _, _, ln in cmd.bindings] or [0])
        consts = ffi.new(_U32_ARRAY, cmd.constants or [0])
        state = ffi.new(_STATE_PTR, [ffi.cast(_BINDINGS_PTR, addrs), lens, consts, [wx, wy, wz]])
        self.state = state
        self._keep = (addrs, lens, consts, storages, exe)

    def error(self, rc: int) -> HalError:
        name = self.executable.entry_points[self.entry]
        return HalError(f"executable '{self.executable.name}' entry point '{name}' "
                        f"failed with code {rc}")

    def run(self, begin: int, end: int) -> None:
        """Run workgroups [begin, end) with one native call."""
        rc = self.fn(self.state, begin, end)
        if rc:
            raise self.error(rc)

    def run_all(self) -> None:
        if self.total:
            self.run(0, self.total)


class HostOp:
    """A fill, copy or update done with numpy on the executing thread."""

    __slots__ = ("run_all", "kind")

    def __init__(self, kind, fn):
        self.kind = kind
        self.run_all = fn


def _host_op(cmd) -> HostOp:
    if isinstance(cmd, Fill):
        dt = _PATTERN_DTYPES[len(cmd.pattern)]
        view = cmd.buffer.storage[cmd.offset:cmd.offset + cmd.length].view(dt)
        value = np.frombuffer(cmd.pattern, dtype=dt)[0]
        return HostOp("fill", lambda: view.fill(value))
    if isinstance(cmd, Copy):
        src = cmd.src.storage[cmd.src_offset:cmd.src_offset + cmd.length]
        dst = cmd.dst.storage[cmd.dst_offset:cmd.dst_offset + cmd.length]
        return HostOp("copy", lambda: np.copyto(dst, src))
    if isinstance(cmd, Update):
        data = np.frombuffer(cmd.data, dtype=np.uint8)
        dst = cmd.dst.storage[cmd.dst_offset:cmd.dst_offset + len(cmd.data)]
        return HostOp("update", lambda: np.copyto(dst, data))
    raise HalError(f"CPU devices cannot execute command {type(cmd).__name__}")


class CpuProgram:
    """Barrier-separated segments of packets / host ops."""

    __slots__ = ("segments",)

    def __init__(self, segments):
        self.segments = segments

    def run_inline(self) -> None:
        """Run everything in order on the calling thread."""
        for seg in self.segments:
            for op in seg:
                op.run_all()


def prepare(commands) -> CpuProgram:
    segments, current = [], []
    for cmd in commands:
        if isinstance(cmd, Barrier):
            if current:
                segments.append(current)
                current = []
        elif isinstance(cmd, Dispatch):
            packet = DispatchPacket(cmd)
            if packet.total:
                current.append(packet)
        else:
            current.append(_host_op(cmd))
    if current:
        segments.append(current)
    return CpuProgram(segments)
