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

from .allocator import ALIGNMENT, HostAllocator, host_array
from .buffer import HOST_MEMORY, Buffer, MemoryType, host_address
from .errors import HalError, OutOfMemoryError

DEFAULT_MAX_BYTES = 256 << 20
_SCAN = 4            # blocks inspected per allocation before making a new one
_getrefcount = sys.getrefcount
# A free block's raw array is referenced only by the block tuple and
# getrefcount's argument: no buffer, slice or user view of it is alive.
_UNSHARED = 2


def size_class(size: int) -> int:
    """The block size serving ``size`` bytes (multiples of 64; <= 25% slack)."""
    if size <= 256:
        return max(64, (size + 63) & ~63)
    step = 1 << max(6, (size - 1).bit_length() - 2)
    return (size + step - 1) // step * step


class PooledBuffer(Buffer):
    """A host buffer whose block returns to its allocator's pool when freed."""

    __slots__ = ("_raw",)      # the pool block: (raw array, aligned start, aligned address)

    def __del__(self):
        raw, alloc = self._raw, self.allocator
        if raw is not None and alloc is not None:
            try:
                alloc._recycle(raw)
            except Exception:       # noqa: BLE001 - interpreter shutdown
                pass


_new_pooled = object.__new__
_DEVICE_LOCAL = MemoryType.DEVICE_LOCAL


class CachingHostAllocator(HostAllocator):
    """``HostAllocator`` with a free list per size class (the CPU default)."""

    def __init__(self, device_name: str = "cpu", max_bytes: int = DEFAULT_MAX_BYTES):
        super().__init__(device_name)
        self.max_bytes = int(max_bytes)
        self._free = collections.defaultdict(collections.deque)   # class -> raw blocks
        self.cached_bytes = 0
        self.hits = self.misses = 0
        self._limit = self.max_allocation_bytes

    @HostAllocator.max_allocation_bytes.setter
    def max_allocation_bytes(self, value) -> None:
        HostAllocator.max_allocation_bytes.fset(self, value)
        self._limit = self.max_allocation_bytes     # the fast path's copy

    def allocate(self, size: int, memory_type=_DEVICE_LOCAL, zero: bool = True) -> Buffer:
        """A zero-filled buffer of ``size`` bytes, from the pool when possible;
        ``zero=False``: a reused block keeps what it held (for buffers the
        caller overwrites, as a module's results and transients)."""
        if size.__class__ is not int or not 0 <= size <= self._limit:
            if not isinstance(size, (int, np.integer)) or isinstance(size, bool) or size < 0:
                raise HalError(f"allocation size must be a non-negative int, got {size!r}")
            size = int(size)
            if size > self.max_allocation_bytes:
                raise self.too_large(size)
        if memory_type is not _DEVICE_LOCAL:
            MemoryType(memory_type)  # validates the flags
        cls = max(64, (size + 63) & ~63) if size <= 256 else size_class(size)
        block = None
        free = self._free.get(cls)
        if free:
            try:
                block = free.pop()       # (the common case: the last block freed, unshared)
            except IndexError:           # another thread took it
                pass
            else:
                if _getrefcount(block[0]) > _UNSHARED:
                    free.appendleft(block)       # a view is still alive: look again later
                    block = self._scan(free)
            if block is not None:
                self.cached_bytes -= cls + ALIGNMENT
        if block is None:
            self.misses += 1
            try:
                raw = host_array(cls + ALIGNMENT, self.device_name, size)
            except OutOfMemoryError:      # give the cached blocks back and try once more
                self.trim()
                raw = host_array(cls + ALIGNMENT, self.device_name, size)
            addr = host_address(raw)
            start = (-addr) % ALIGNMENT
            block = (raw, start, addr + start)
            storage = raw[start:start + size]
        else:
            self.hits += 1
            start = block[1]
            storage = block[0][start:start + size]
            if zero:
                storage.fill(0)
        # Buffer.__init__ without its checks: everything here is known valid.
        buf = _new_pooled(PooledBuffer)
        buf._storage, buf._address, buf.byte_length = storage, block[2], size
        buf.memory_type, buf.writable, buf.allocator, buf._raw = HOST_MEMORY, True, self, block
        return buf

    def _scan(self, free):
        """A reusable block further down one size class's free list, or None
        (``allocate`` tried the last one freed)."""
        for _ in range(_SCAN if len(free) > _SCAN else len(free)):
            try:
                block = free.pop()
            except IndexError:
                return None
            if _getrefcount(block[0]) <= _UNSHARED:
                return block
            free.appendleft(block)
        return None

    def _recycle(self, block) -> None:
        """Take back a block ``(raw array, aligned start, aligned address)``."""
        n = block[0].nbytes
        if self.cached_bytes + n > self.max_bytes:
            return
        self.cached_bytes += n
        self._free[n - ALIGNMENT].append(block)

    def trim(self) -> None:
        """Drop every cached block."""
        self._free.clear()
        self.cached_bytes = 0
