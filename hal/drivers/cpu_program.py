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

Commands recorded against binding-table slots become ``IndirectDispatch`` /
``IndirectHostOp`` templates; ``CpuProgram.bind(table)`` turns them into
fresh packets for one submission (one address array and one state per
dispatch), so concurrent submissions of one program never share state.
"""
from __future__ import annotations

import numpy as np

from ..command_buffer import Barrier, Copy, Dispatch, Fill, Update, is_slot
from ..errors import HalError
from ..loaders.cpu_c import ffi

_PATTERN_DTYPES = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}
_UINTPTR_ARRAY = ffi.typeof("uintptr_t[]")
_U64_ARRAY = ffi.typeof("uint64_t[]")
_U32_ARRAY = ffi.typeof("uint32_t[]")
_STATE_PTR = ffi.typeof("tvm_dispatch_state_t*")
_BINDINGS_PTR = ffi.typeof("void* const*")


def _total(cmd: Dispatch) -> int:
    wx, wy, wz = cmd.workgroups
    total = wx * wy * wz
    if total > 0xFFFFFFFF:
        raise HalError(f"dispatch of '{cmd.executable.name}' has {total} workgroups; "
                       "at most 2**32-1 fit the ABI's uint32 range")
    return total


class DispatchPacket:
    """One dispatch with its native state prebuilt."""

    __slots__ = ("fn", "state", "total", "executable", "entry", "_keep")

    def __init__(self, cmd: Dispatch):
        exe = cmd.executable
        self.executable = exe
        self.entry = cmd.entry
        self.fn = exe.functions[cmd.entry]
        self.total = _total(cmd)
        storages = [buf.storage for buf, _, _ in cmd.bindings]
        addrs = ffi.new(_UINTPTR_ARRAY, [buf.address + off for buf, off, _ in cmd.bindings] or [0])
        lens = ffi.new(_U64_ARRAY, [ln for _, _, ln in cmd.bindings] or [0])
        consts = ffi.new(_U32_ARRAY, cmd.constants or [0])
        state = ffi.new(_STATE_PTR, [ffi.cast(_BINDINGS_PTR, addrs), lens, consts,
                                     list(cmd.workgroups)])
        self.state = state
        self._keep = (addrs, lens, consts, storages, exe)

    @property
    def name(self) -> str:
        return self.executable.entry_points[self.entry]

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


class IndirectDispatch:
    """A dispatch with slot bindings; ``bind`` builds one submission's packet."""

    __slots__ = ("executable", "entry", "fn", "total", "lens", "consts", "wg", "addrs",
                 "slots", "_keep")

    def __init__(self, cmd: Dispatch):
        exe = cmd.executable
        self.executable, self.entry, self.fn = exe, cmd.entry, exe.functions[cmd.entry]
        self.total = _total(cmd)
        self.wg = list(cmd.workgroups)
        self.lens = ffi.new(_U64_ARRAY, [ln for _, _, ln in cmd.bindings] or [0])
        self.consts = ffi.new(_U32_ARRAY, cmd.constants or [0])
        self.addrs = [0 if is_slot(b) else b.address + off for b, off, _ in cmd.bindings] or [0]
        self.slots = tuple((i, b, off) for i, (b, off, _) in enumerate(cmd.bindings)
                           if is_slot(b))
        self._keep = [b.storage for b, _, _ in cmd.bindings if not is_slot(b)]

    def bind(self, bases, table) -> DispatchPacket:
        addrs = self.addrs[:]
        for i, slot, off in self.slots:
            addrs[i] = bases[slot] + off
        carr = ffi.new(_UINTPTR_ARRAY, addrs)
        p = DispatchPacket.__new__(DispatchPacket)
        p.executable, p.entry, p.fn, p.total = self.executable, self.entry, self.fn, self.total
        p.state = ffi.new(_STATE_PTR, [ffi.cast(_BINDINGS_PTR, carr), self.lens, self.consts,
                                       self.wg])
        p._keep = (carr, self)
        return p


class HostOp:
    """A fill, copy or update done with numpy on the executing thread."""

    __slots__ = ("run_all", "kind")

    def __init__(self, kind, fn):
        self.kind = kind
        self.run_all = fn

    name = property(lambda self: self.kind)


class IndirectHostOp:
    """A fill or copy with slot buffers; ``bind`` resolves it for one submission."""

    __slots__ = ("cmd",)

    def __init__(self, cmd):
        self.cmd = cmd

    def bind(self, bases, table) -> HostOp:
        c = self.cmd
        if isinstance(c, Fill):
            c = c._replace(buffer=table[c.buffer])
        elif isinstance(c, Copy):
            c = c._replace(src=table[c.src] if is_slot(c.src) else c.src,
                           dst=table[c.dst] if is_slot(c.dst) else c.dst)
        return _host_op(c)


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


_INDIRECT = (IndirectDispatch, IndirectHostOp)


class CpuProgram:
    """Barrier-separated segments of packets / host ops."""

    __slots__ = ("segments", "indirect", "_keep")

    def __init__(self, segments, keep=None):
        self.segments = segments
        self.indirect = any(type(op) in _INDIRECT for seg in segments for op in seg)
        self._keep = keep

    def bind(self, table) -> "CpuProgram":
        """This program over one submission's binding table (buffers by slot)."""
        bases = [b.address for b in table]
        segs = [[op.bind(bases, table) if type(op) in _INDIRECT else op for op in seg]
                for seg in self.segments]
        bound = CpuProgram.__new__(CpuProgram)
        bound.segments, bound.indirect, bound._keep = segs, False, table
        return bound

    def run_inline(self, tracer=None) -> None:
        """Run everything in order on the calling thread."""
        if tracer is not None:
            from .worker_pool import run_traced
            for seg in self.segments:
                for op in seg:
                    run_traced(tracer, op, None)
            return
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
            if any(is_slot(b) for b, _, _ in cmd.bindings):
                packet = IndirectDispatch(cmd)
            else:
                packet = DispatchPacket(cmd)
            if packet.total:
                current.append(packet)
        elif (isinstance(cmd, Fill) and is_slot(cmd.buffer)) or \
                (isinstance(cmd, Copy) and (is_slot(cmd.src) or is_slot(cmd.dst))):
            if cmd.length:
                current.append(IndirectHostOp(cmd))
        else:
            current.append(_host_op(cmd))
    if current:
        segments.append(current)
    return CpuProgram(segments)
