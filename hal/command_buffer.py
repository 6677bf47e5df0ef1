"""Command buffers: record once, finalize, replay any number of times.

Recording validates every command against its buffers and executable, so a
bad command fails at the call that made it, not later on a queue thread.
``finalize()`` hands the recorded list to the device, which turns it into its
own executable form (for the CPU: prebuilt native dispatch states grouped into
barrier-separated segments).  A finalized command buffer is read-only and may
be submitted many times, also concurrently with itself on different queues.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .buffer import Buffer
from .errors import HalError
from .executable import Executable

_U32 = (1 << 32) - 1


class Fill(NamedTuple):
    buffer: Buffer
    offset: int
    length: int
    pattern: bytes


class Copy(NamedTuple):
    src: Buffer
    src_offset: int
    dst: Buffer
    dst_offset: int
    length: int


class Update(NamedTuple):
    data: bytes
    dst: Buffer
    dst_offset: int


class Dispatch(NamedTuple):
    executable: Executable
    entry: int
    workgroups: tuple
    constants: tuple          # uint32 values
    bindings: tuple           # ((buffer, offset, length), ...)


class Barrier(NamedTuple):
    pass


BARRIER = Barrier()


def _u32(v, what):
    v = int(v)
    if not -(1 << 31) <= v <= _U32:
        raise HalError(f"{what} {v} does not fit in 32 bits")
    return v & _U32


class CommandBuffer:
    """A recorded, reusable list of transfer and dispatch commands."""

    def __init__(self, device):
        self.device = device
        self.commands = []
        self.finalized = False
        self.program = None       # the device's prepared form, set by finalize()

    def _record(self, cmd):
        if self.finalized:
            raise HalError("command buffer is finalized (read-only); record into a new one")
        self.commands.append(cmd)

    @staticmethod
    def _buffer(obj, what) -> Buffer:
        if not isinstance(obj, Buffer):
            raise HalError(f"{what}: expected a Buffer, got {type(obj).__name__}")
        obj.storage  # raises if deallocated
        return obj

    def fill(self, buffer, offset: int, length, pattern: bytes) -> None:
        """Fill [offset, offset+length) with a 1/2/4/8-byte repeating pattern."""
        buf = self._buffer(buffer, "fill")
        buf.check_writable("fill")
        pattern = bytes(pattern)
        n = len(pattern)
        if n not in (1, 2, 4, 8):
            raise HalError(f"fill pattern must be 1, 2, 4 or 8 bytes, got {n}")
        length = buf.check_range(offset, length, "fill")
        if offset % n or length % n:
            raise HalError(f"fill offset {offset} and length {length} must be multiples "
                           f"of the {n}-byte pattern")
        self._record(Fill(buf, offset, length, pattern))

    def copy(self, src, src_offset: int, dst, dst_offset: int, length: int) -> None:
        """Copy ``length`` bytes between buffers (overlap is allowed)."""
        s = self._buffer(src, "copy source")
        d = self._buffer(dst, "copy target")
        d.check_writable("copy")
        length = s.check_range(src_offset, length, "copy source")
        d.check_range(dst_offset, length, "copy target")
        self._record(Copy(s, src_offset, d, dst_offset, length))

    def update(self, data, dst, dst_offset: int) -> None:
        """Write host ``data`` (copied now, at record time) into ``dst``."""
        d = self._buffer(dst, "update")
        d.check_writable("update")
        data = np.frombuffer(data, dtype=np.uint8).tobytes() if not isinstance(data, bytes) \
            else data
        d.check_range(dst_offset, len(data), "update")
        self._record(Update(data, d, dst_offset))

    def dispatch(self, executable, entry: int, workgroups, constants=(), bindings=()) -> None:
        """Run ``executable``'s entry point over a 3-D workgroup grid.

        ``bindings`` are (buffer, offset, length) triples (length None or -1:
        to the end of the buffer); ``constants`` are 32-bit push constants."""
        if not isinstance(executable, Executable):
            raise HalError(f"dispatch: expected an Executable, got {type(executable).__name__}")
        if executable.device is not self.device:
            raise HalError(f"dispatch: executable '{executable.name}' was loaded on another device")
        executable.entry_name(entry)
        wg = tuple(int(w) for w in workgroups)
        if len(wg) != 3 or any(not 0 <= w <= _U32 for w in wg):
            raise HalError(f"dispatch workgroups must be 3 counts in [0, 2**32), got {workgroups!r}")
        consts = tuple(_u32(c, "push constant") for c in constants)
        binds = []
        for i, b in enumerate(bindings):
            try:
                buf, off, ln = b
            except (TypeError, ValueError):
                raise HalError(f"dispatch binding {i} must be (buffer, offset, length)") from None
            buf = self._buffer(buf, f"dispatch binding {i}")
            ln = buf.check_range(int(off), ln, f"dispatch binding {i}")
            binds.append((buf, int(off), ln))
        self._record(Dispatch(executable, entry, wg, consts, tuple(binds)))

    def execution_barrier(self) -> None:
        """Commands after the barrier start after all before it finished."""
        self._record(BARRIER)

    def finalize(self) -> None:
        """End recording; the device prepares its replayable form."""
        if self.finalized:
            raise HalError("command buffer is already finalized")
        self.program = self.device._prepare_commands(self.commands)
        self.finalized = True

    def __repr__(self):
        state = "finalized" if self.finalized else "recording"
        return f"<CommandBuffer {len(self.commands)} commands, {state}>"
