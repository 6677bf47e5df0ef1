"""Command buffers: record once, finalize, replay any number of times.

Recording validates every command against its buffers and executable, so a
bad command fails at the call that made it, not later on a queue thread.
``finalize()`` hands the recorded list to the device, which turns it into its
own executable form (for the CPU: prebuilt native dispatch states grouped into
barrier-separated segments).  A finalized command buffer is read-only and may
be submitted many times, also concurrently with itself on different queues.

Indirect bindings (IREE's binding tables): wherever a command takes a buffer
it may take an ``int`` slot instead.  The buffer for each slot is supplied per
submission (``queue_execute(..., binding_tables=[[buf0, buf1, ...]])``), so a
command buffer recorded once replays over new buffers on every call (a
``BufferView`` in a table stands for its buffer: checked arguments).  Slot
ranges need an explicit length; each submission checks that its table's
buffers cover every range recorded against them.

Constant slots: a push constant may likewise be ``constant_slot(k)``, the
``k``-th value of a constant table (``with_constants``).  A loop body
recorded once is appended to the call's command buffer every iteration
(``execute_commands``) with that iteration's buffers and host scalars (a
decode step's position); each distinct constant table's commands are made
once and kept (``MAX_CONSTANT_TABLES``).
"""
from __future__ import annotations

import threading
from typing import NamedTuple

import numpy as np

from .buffer import Buffer, BufferView
from .checked_buffer import CheckedBuffer
from .errors import HalError
from .executable import Executable

_U32 = (1 << 32) - 1



# Binding-table slots a command buffer may use (a real model's tables hold a
# few hundred: its weights and transients); a larger index is a damaged module.
MAX_BINDING_SLOTS = 1 << 16

#: A recorded push constant at or above this is a constant-table slot.
CONSTANT_SLOT = 1 << 32
#: Constant tables whose command buffers one recording keeps (least recently
#: used go first): a decode loop's positions, per call of the model.
MAX_CONSTANT_TABLES = 256
_MEMO_LOCK = threading.Lock()


def constant_slot(k: int) -> int:
    """The push-constant value that stands for slot ``k`` of a constant table."""
    if not 0 <= k < MAX_BINDING_SLOTS:
        raise HalError(f"constant slot must be in [0, {MAX_BINDING_SLOTS}), got {k}")
    return CONSTANT_SLOT + k

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


class Execute(NamedTuple):
    """A finalized command buffer (constant slots set) run with a binding
    table: recorded by ``execute_commands`` on devices that prepare
    recordings by shape (``Device.nests_commands``), which then key a loop
    iteration by one row instead of every command of its body."""
    commands: "CommandBuffer"
    table: tuple


BARRIER = Barrier()


def _u32(v, what):
    v = int(v)
    if not -(1 << 31) <= v <= _U32:
        raise HalError(f"{what} {v} does not fit in 32 bits")
    return v & _U32


def is_slot(obj) -> bool:
    """True for a binding-table slot reference (a plain non-negative int)."""
    return type(obj) is int


class CommandBuffer:
    """A recorded, reusable list of transfer and dispatch commands."""

    def __init__(self, device):
        self.device = device
        self.commands = []
        self.finalized = False
        self._program = None      # the device's prepared form (finalize, or first use)
        self._deferred = False
        self.slot_extents = []    # per slot: bytes a table's buffer must hold
        self.slot_writes = set()  # slots that fill/copy/update write
        self.constant_count = 0   # constant-table slots the commands use
        self._by_constants = {}   # constant table -> its finalized command buffer

    @property
    def binding_count(self) -> int:
        """How many buffers a submission's binding table must supply."""
        return len(self.slot_extents)

    def _slot(self, slot, offset, length, what, write=False) -> int:
        if not 0 <= slot < MAX_BINDING_SLOTS:
            raise HalError(f"{what}: binding slot must be in [0, {MAX_BINDING_SLOTS}), got {slot}")
        if length is None or length < 0 or offset < 0:
            raise HalError(f"{what}: a binding slot needs an explicit offset >= 0 and "
                           f"length >= 0, got ({offset}, {length})")
        ext = self.slot_extents
        if slot >= len(ext):
            ext.extend([0] * (slot + 1 - len(ext)))
        ext[slot] = max(ext[slot], offset + length)
        if write:
            self.slot_writes.add(slot)
        return length

    def _record(self, cmd):
        if self.finalized:
            raise HalError("command buffer is finalized (read-only); record into a new one")
        self.commands.append(cmd)

    @staticmethod
    def _buffer(obj, what) -> Buffer:
        if not isinstance(obj, Buffer):
            raise HalError(f"{what}: expected a Buffer, got {type(obj).__name__}")
        if obj._storage is None:
            obj.storage  # raises: deallocated
        return obj

    def fill(self, buffer, offset: int, length, pattern: bytes) -> None:
        """Fill [offset, offset+length) with a 1/2/4/8-byte repeating pattern."""
        pattern = bytes(pattern)
        n = len(pattern)
        if n not in (1, 2, 4, 8):
            raise HalError(f"fill pattern must be 1, 2, 4 or 8 bytes, got {n}")
        if is_slot(buffer):
            buf = buffer
            length = self._slot(buf, offset, length, "fill", write=True)
        else:
            buf = self._buffer(buffer, "fill")
            buf.check_writable("fill")
            length = buf.check_range(offset, length, "fill")
        if offset % n or length % n:
            raise HalError(f"fill offset {offset} and length {length} must be multiples "
                           f"of the {n}-byte pattern")
        self._record(Fill(buf, offset, length, pattern))

    def copy(self, src, src_offset: int, dst, dst_offset: int, length: int) -> None:
        """Copy ``length`` bytes between buffers (overlap is allowed)."""
        if is_slot(src):
            s = src
            self._slot(src, src_offset, length, "copy source")
        else:
            s = self._buffer(src, "copy source")
            length = s.check_range(src_offset, length, "copy source")
            if s.__class__ is CheckedBuffer:
                s = s.checked(src_offset, length)
        if is_slot(dst):
            d = dst
            self._slot(dst, dst_offset, length, "copy target", write=True)
        else:
            d = self._buffer(dst, "copy target")
            d.check_writable("copy")
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
        to the end of the buffer) or (slot, offset, length) with an int slot of
        the submission's binding table; ``constants`` are 32-bit push constants."""
        if not isinstance(executable, Executable):
            raise HalError(f"dispatch: expected an Executable, got {type(executable).__name__}")
        if executable.device is not self.device:
            raise HalError(f"dispatch: executable '{executable.name}' was loaded on another device")
        executable.entry_name(entry)
        wg = self._workgroups(executable, entry, workgroups)
        consts = tuple(constants)
        if not all(c.__class__ is int and 0 <= c <= _U32 for c in consts):
            consts = tuple(self._constant(c) for c in consts)
        bindings = tuple(bindings)
        executable.check_dispatch(entry, len(bindings), len(consts), wg[0] * wg[1] * wg[2])
        binds = []
        for i, b in enumerate(bindings):
            try:
                buf, off, ln = b
            except (TypeError, ValueError):
                raise HalError(f"dispatch binding {i} must be (buffer, offset, length)") from None
            if is_slot(buf):
                if ln is not None and ln >= 0:
                    executable.check_binding_length(entry, i, int(ln))
                ln = self._slot(buf, int(off), ln, f"dispatch binding {i}")
                binds.append((buf, int(off), int(ln)))
                continue
            buf = self._buffer(buf, f"dispatch binding {i}")
            ln = buf.check_range(int(off), ln, f"dispatch binding {i}")
            executable.check_binding_length(entry, i, ln)
            if buf.__class__ is CheckedBuffer:         # a constant: its range, checked
                buf = buf.checked(int(off), ln)
            binds.append((buf, int(off), ln))
        layout = executable.layouts[entry]
        if layout is not None and layout.binding_shapes and \
                not any(c > _U32 for c in consts):      # (else checked per constant table)
            executable.check_binding_shapes(entry, consts, [b[2] for b in binds])
        self._record(Dispatch(executable, entry, wg, consts, tuple(binds)))

    def _constant(self, c) -> int:
        """A push constant as recorded: a 32-bit value or a constant slot."""
        if c.__class__ is int and CONSTANT_SLOT <= c < CONSTANT_SLOT + MAX_BINDING_SLOTS:
            self.constant_count = max(self.constant_count, c - CONSTANT_SLOT + 1)
            return c
        return _u32(c, "push constant")

    def _workgroups(self, executable, entry, workgroups) -> tuple:
        """The grid as 3 ints within the device's limits (HalError otherwise)."""
        dev = self.device
        if workgroups.__class__ is tuple and len(workgroups) == 3:     # the common case, fast
            x, y, z = workgroups
            mx, my, mz = dev.max_workgroup_count
            if x.__class__ is int and y.__class__ is int and z.__class__ is int and \
                    0 <= x <= mx and 0 <= y <= my and 0 <= z <= mz and \
                    x * y * z <= dev.max_workgroups_per_dispatch:
                return workgroups
        wg = tuple(int(w) for w in workgroups)
        what = f"dispatch of executable '{executable.name}' entry point " \
               f"'{executable.entry_points[entry]}'"
        if len(wg) != 3 or any(not 0 <= w <= m for w, m in zip(wg, dev.max_workgroup_count)):
            raise HalError(f"{what}: workgroups must be 3 counts in [0, limit] with limits "
                           f"{dev.max_workgroup_count} on device '{dev.name}', "
                           f"got {workgroups!r}")
        total = wg[0] * wg[1] * wg[2]
        if total > dev.max_workgroups_per_dispatch:
            raise HalError(f"{what}: {total} workgroups exceed the limit of "
                           f"{dev.max_workgroups_per_dispatch} per dispatch on device "
                           f"'{dev.name}'")
        return wg

    def execution_barrier(self) -> None:
        """Commands after the barrier start after all before it finished."""
        self._record(BARRIER)

    def finalize(self) -> None:
        """End recording; the device prepares its replayable form."""
        if self.finalized:
            raise HalError("command buffer is already finalized")
        if self.constant_count:
            pass                  # prepared per constant table (with_constants)
        elif self.slot_extents and self.device.nests_commands:
            self._deferred = True  # at its first use (a loop body may only be nested)
        elif not self.slot_extents or self.device.supports_binding_tables:
            self._program = self.device._prepare_commands(self.commands)
        self.finalized = True     # else: prepared per submission (Device.queue_execute)

    @property
    def program(self):
        """The device's prepared form (None: prepared per submission)."""
        if self._deferred:
            self._program = self.device._prepare_commands(self.commands)
            self._deferred = False
        return self._program

    def execute_commands(self, commands: "CommandBuffer", table=(), constants=()) -> None:
        """Record the finalized ``commands`` (IREE's execute_commands) with
        ``table`` for its binding slots and ``constants`` for its constant
        slots: a loop body recorded once, appended per iteration at the cost
        of binding it (the device prepares the whole recording by its shape,
        gpu_templates.py)."""
        if not isinstance(commands, CommandBuffer) or commands.device is not self.device:
            raise HalError("execute_commands: expected a command buffer recorded for this device")
        if not commands.finalized:
            raise HalError("execute_commands: the command buffer must be finalized first")
        commands = commands.with_constants(constants)
        if self.finalized:
            raise HalError("command buffer is finalized (read-only); record into a new one")
        if not commands.slot_extents:
            self.commands += commands.commands
            return
        table = commands.check_table(table)
        if self.device.nests_commands:
            self.commands.append(Execute(commands, tuple(table)))
        else:
            self.commands += commands.resolved_commands(table)

    def with_constants(self, values) -> "CommandBuffer":
        """The finalized command buffer for constant table ``values``: every
        constant slot replaced by its value, prepared once per distinct
        table and kept (the least recently used of more than
        ``MAX_CONSTANT_TABLES`` go).  Binding-table slots stay slots.  A
        command buffer without constant slots is its own."""
        if not self.constant_count:
            return self
        if not self.finalized:
            raise HalError("queue_execute: command buffer must be finalized before submission")
        key = tuple(values)
        memo = self._by_constants
        with _MEMO_LOCK:
            cb = memo.pop(key, None)
        if cb is None:
            if len(key) < self.constant_count:
                raise HalError(f"queue_execute: the command buffer uses {self.constant_count} "
                               f"constant slots, the constant table has {len(key)}")
            words = tuple(_u32(v, "constant table value") for v in key)
            cb = CommandBuffer(self.device)
            cb.slot_extents, cb.slot_writes = self.slot_extents, self.slot_writes
            for c in self.commands:
                if c.__class__ is Dispatch and any(k > _U32 for k in c.constants):
                    consts = tuple(words[k - CONSTANT_SLOT] if k > _U32 else k
                                   for k in c.constants)
                    exe = c.executable
                    layout = exe.layouts[c.entry]
                    if layout is not None and layout.binding_shapes:
                        exe.check_binding_shapes(c.entry, consts, [b[2] for b in c.bindings])
                    c = c._replace(constants=consts)
                cb.commands.append(c)
            cb.finalize()
        with _MEMO_LOCK:
            while len(memo) >= MAX_CONSTANT_TABLES:
                memo.pop(next(iter(memo)))
            memo[key] = cb                # most recently used goes last
        return cb

    def check_table(self, table) -> list:
        """Validate a submission's binding table against the recorded slots."""
        ext = self.slot_extents
        if table is None or len(table) < len(ext):
            have = 0 if table is None else len(table)
            raise HalError(f"queue_execute: the command buffer uses {len(ext)} binding slots, "
                           f"the binding table has {have}")
        if table.__class__ is not list:
            table = list(table)
        slot, given = 0, table
        for need in ext:
            buf = table[slot]
            if buf.__class__ is BufferView:          # a checked argument: its buffer
                if table is given:
                    table = list(table)              # (the caller's list stays as it was)
                buf = table[slot] = buf.buffer
            elif not isinstance(buf, Buffer):
                raise HalError(f"binding table slot {slot}: expected a Buffer or BufferView, "
                               f"got {type(buf).__name__}")
            if buf.byte_length < need:
                raise HalError(f"binding table slot {slot}: the command buffer uses {need} "
                               f"bytes, the buffer has {buf.byte_length}")
            if buf.released:
                raise HalError(f"binding table slot {slot}: buffer was deallocated")
            if buf.__class__ is CheckedBuffer:
                if table is given:
                    table = list(table)
                table[slot] = buf.checked(0, need)
            slot += 1
        for slot in self.slot_writes:
            if not table[slot].writable:
                table[slot].check_writable(f"binding table slot {slot}")
        return table

    def resolved_commands(self, table) -> list:
        """The commands with every slot replaced by its table buffer."""
        out = []
        for c in self.commands:
            if isinstance(c, Dispatch):
                c = c._replace(bindings=tuple((table[b] if is_slot(b) else b, o, n)
                                              for b, o, n in c.bindings))
            elif isinstance(c, Fill) and is_slot(c.buffer):
                c = c._replace(buffer=table[c.buffer])
            elif isinstance(c, Copy):
                c = c._replace(src=table[c.src] if is_slot(c.src) else c.src,
                               dst=table[c.dst] if is_slot(c.dst) else c.dst)
            out.append(c)
        return out

    def __repr__(self):
        state = "finalized" if self.finalized else "recording"
        return f"<CommandBuffer {len(self.commands)} commands, {state}>"
