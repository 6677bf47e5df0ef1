"""The CPU drivers' default allocator: host memory reused by size class.

Allocating a fresh aligned numpy array costs a few microseconds and, for
large buffers, page faults on first touch.  ``CachingHostAllocator`` keeps
freed blocks in per-size-class free lists (sizes rounded up to a quarter of
their power of two, so at most 25% slack) and hands them out again,
zero-filled as every CPU allocation is.

A block comes back when its ``PooledBuffer`` is garbage collected (no VM
register, buffer view, command buffer or in-flight submission holds it).
Numpy arrays a user took from the buffer (``to_numpy()`` views) keep the
block's memory referenced; a block is only reused once its reference count
shows that nothing but the pool holds it, so a live view never sees its
memory change.  The pool is bounded (``max_bytes``); beyond that freed
blocks are simply dropped.  List appends and pops are atomic under the GIL,
so ``__del__`` on any thread needs no lock.
"""
from __future__ import annotations

import collections
import sys

import numpy as np

from .allocator import ALIGNMENT, HostAllocator
from .buffer import HOST_MEMORY, Buffer, MemoryType
from .errors import HalError

DEFAULT_MAX_BYTES = 256 << 20
_SCAN = 4            # blocks inspected per allocation before making a new one
_getrefcount = sys.getrefcount


def size_class(size: int) -> int:
    """The block size serving ``size`` bytes (multiples of 64; <= 25% slack)."""
    if size <= 256:
        return max(64, (size + 63) & ~63)
    step = 1 << max(6, (size - 1).bit_length() - 2)
    return (size + step - 1) // step * step


class PooledBuffer(Buffer):
    """A host buffer whose block returns to its allocator's pool when freed."""

    __slots__ = ("_raw",)

    def __del__(self):
        raw, alloc = self._raw, self.allocator
        if raw is not None and alloc is not None:
            try:
                alloc._recycle(raw)
            except Exception:       # noqa: BLE001 - interpreter shutdown
                pass


class CachingHostAllocator(HostAllocator):
    """``HostAllocator`` with a free list per size class (the CPU default)."""

    def __init__(self, device_name: str = "cpu", max_bytes: int = DEFAULT_MAX_BYTES):
        super().__init__(device_name)
        self.max_bytes = int(max_bytes)
        self._free = collections.defaultdict(collections.deque)   # class -> raw blocks
        self.cached_bytes = 0
        self.hits = self.misses = 0

    def allocate(self, size: int, memory_type=MemoryType.DEVICE_LOCAL) -> Buffer:
        """A zero-filled buffer of ``size`` bytes, from the pool when possible."""
        if type(size) is not int:
            if not isinstance(size, (int, np.integer)) or isinstance(size, bool):
                raise HalError(f"allocation size must be a non-negative int, got {size!r}")
            size = int(size)
        if size < 0:
            raise HalError(f"allocation size must be a non-negative int, got {size!r}")
        if memory_type is not MemoryType.DEVICE_LOCAL:
            MemoryType(memory_type)  # validates the flags
        cls = size_class(size)
        raw = self._take(cls)
        if raw is None:
            self.misses += 1
            raw = np.zeros(cls + ALIGNMENT, dtype=np.uint8)
            start = (-raw.ctypes.data) % ALIGNMENT
            storage = raw[start:start + size]
        else:
            self.hits += 1
            start = (-raw.ctypes.data) % ALIGNMENT
            storage = raw[start:start + size]
            storage.fill(0)
        buf = PooledBuffer(storage, HOST_MEMORY, True, self)
        buf._raw = raw
        return buf

    def _take(self, cls: int):
        free = self._free.get(cls)
        if not free:
            return None
        for _ in range(min(_SCAN, len(free))):
            try:
                raw = free.pop()
            except IndexError:
                return None
            # Referenced only by `raw` and getrefcount's argument: nobody else uses it.
            if _getrefcount(raw) <= 2:
                self.cached_bytes -= raw.nbytes
                return raw
            free.appendleft(raw)      # a view is still alive: look again later
        return None

    def _recycle(self, raw) -> None:
        if self.cached_bytes + raw.nbytes > self.max_bytes:
            return
        self.cached_bytes += raw.nbytes
        self._free[raw.nbytes - ALIGNMENT].append(raw)

    def trim(self) -> None:
        """Drop every cached block."""
        self._free.clear()
        self.cached_bytes = 0
