"""One allocation per call for a cached general function's transients.

A function with native loops and no read-backs replays a command buffer
recorded against binding-table slots (host_program.GeneralFunction's cached
mode); each of its intermediate values was still one ``hal.allocator.allocate``
per call plus one binding-table slot to patch: 35-45 of them in a decoder's
prefill, about as much Python time as its kernels' launch.  Static-size
values that are not returned now share one slab: the call allocates it once,
each value is a byte range of it, and a command addresses that range through
the slab's single slot and the offset the recording bakes into its binding.
Returned values keep buffers of their own (a caller's result must not pin the
slab), as do dynamic-size ones (their offsets would change per call).
"""
from __future__ import annotations

from ..dialects.registry import ALIAS, has
from ..ir.types import numpy_dtype

ALIGN = 64            # every range starts on a cache line
MAX_BYTES = 64 << 20  # beyond this, values get buffers of their own again


class SlabBuf(str):
    """A register name (the slab's) carrying a byte offset into it: where a
    Dev's buffer lies in the slab."""

    offset: int

    def __new__(cls, register: str, offset: int):
        s = super().__new__(cls, register)
        s.offset = offset
        return s


def offset_of(buf) -> int:
    """The byte offset of a Dev buffer inside what its register holds."""
    return buf.offset if isinstance(buf, SlabBuf) else 0


class Slab:
    """The slab of one emitted path: its register, its size so far, and the
    instruction that will hold that size."""

    def __init__(self, asm, device: str):
        self.asm = asm
        self.register = asm.reg("slab")
        self.size_register = asm.reg("I")
        self.size = 0
        self._at = len(asm.body)
        asm.op("const.i64", self.size_register, 0)
        asm.op("call.import", "hal.allocator.allocate", [device, self.size_register],
               [self.register])

    def reserve(self, t) -> SlabBuf | None:
        """A range for a value of static type ``t``, or None when full."""
        return self.reserve_bytes(t.num_elements * numpy_dtype(t.element).itemsize)

    def reserve_bytes(self, n: int) -> SlabBuf | None:
        """A range of ``n`` bytes, or None when full."""
        start = -(-self.size // ALIGN) * ALIGN
        if start + n > MAX_BYTES:
            return None
        self.size = start + max(4, n)
        return SlabBuf(self.register, start)

    def finish(self) -> None:
        """Write the final size into the allocation's size constant, or drop
        the allocation when nothing was placed in the slab (no call pays for
        an unused one)."""
        if self.size == 0:
            del self.asm.body[self._at:self._at + 2]
        else:
            self.asm.body[self._at] = ("const.i64", (self.size_register, self.size))


def returned_values(func) -> set:
    """The values a function returns and those its results alias (reshapes
    of device values share their operand's buffer)."""
    out, work = set(), list(func.regions[0].blocks[0].terminator.operands)
    while work:
        v = work.pop()
        if v in out:
            continue
        out.add(v)
        op = v.defining_op
        if op is not None and has(op.name, ALIAS):
            work.append(op.operands[0])
    return out
