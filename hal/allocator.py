"""Allocators: where buffers come from.

``HostAllocator`` serves the CPU drivers.  Allocations are numpy ``uint8``
arrays aligned to 64 bytes (a cache line, and enough for any SIMD load the
generated C may use).  ``import_host`` wraps caller memory without copying
when it is C-contiguous, so constants from an mmap'd module and user numpy
arrays reach kernels directly.

Every allocator bounds a single allocation at ``max_allocation_bytes``
(settable per allocator, hence per device; default: this machine's physical
memory, or what the device reports), so an absurd size from a dynamic shape
or a hostile module is a ``HalError`` naming the size and the limit, before
any memory is touched, not numpy's MemoryError or ValueError.
"""
from __future__ import annotations

import functools
import os
import weakref

import numpy as np

from .buffer import HOST_MEMORY, Buffer, MemoryType, host_address
from .checked_buffer import CheckedBuffer
from .errors import HalError, OutOfMemoryError

ALIGNMENT = 64
_new = object.__new__


def aligned_bytes(size: int, alignment: int = ALIGNMENT, device_name: str = "cpu",
                  zero: bool = True) -> np.ndarray:
    """A uint8 array of ``size`` bytes whose data pointer is aligned
    (zero-filled unless ``zero`` is False)."""
    raw = host_array(size + alignment, device_name, size, zero)
    start = (-raw.ctypes.data) % alignment
    return raw[start:start + size]


def host_array(nbytes: int, device_name: str = "cpu", size: int | None = None,
               zero: bool = True) -> np.ndarray:
    """``nbytes`` of host memory as a uint8 array (zero-filled unless ``zero``
    is False); a refusal by the OS is OutOfMemoryError naming ``size`` (the
    bytes asked for, default ``nbytes``), not numpy's MemoryError."""
    try:
        return np.zeros(nbytes, np.uint8) if zero else np.empty(nbytes, np.uint8)
    except MemoryError:
        size = nbytes if size is None else size
        raise OutOfMemoryError(f"out of memory: the host refused {size} bytes "
                               f"({_amount(size)}) for a buffer on device '{device_name}'",
                               size=size, device=device_name) from None


@functools.lru_cache(maxsize=1)
def physical_memory_bytes() -> int:
    """This machine's physical memory (``os.sysconf``); 2**48 where unknown."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, OSError, ValueError):
        return 1 << 48


def _amount(n: int) -> str:
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if n >= 1 << shift:
            return f"{n / (1 << shift):.1f} {unit}"
    return f"{n} B"


def contiguous_copy(arr: np.ndarray, device_name: str = "cpu") -> np.ndarray:
    """``np.ascontiguousarray(arr)``, with OutOfMemoryError for a refusal."""
    try:
        return np.ascontiguousarray(arr)
    except MemoryError:
        raise OutOfMemoryError(f"out of memory: the host refused {arr.nbytes} bytes "
                               f"({_amount(arr.nbytes)}) for a contiguous copy to import on "
                               f"device '{device_name}'", size=arr.nbytes,
                               device=device_name) from None


class Allocator:
    """Base class: drivers implement ``allocate`` and ``import_host``.

    ``max_allocation_bytes``: the largest single allocation (see module doc)."""

    device_name = "?"
    #: The limit when none is set: what the device reports, else None
    #: (physical memory).
    default_max_allocation_bytes = None

    @property
    def max_allocation_bytes(self) -> int:
        limit = self.__dict__.get("_max_allocation_bytes")
        if limit is None:
            limit = self.default_max_allocation_bytes or physical_memory_bytes()
        return limit

    @max_allocation_bytes.setter
    def max_allocation_bytes(self, value) -> None:
        if value is not None and (not isinstance(value, (int, np.integer)) or value < 0):
            raise HalError(f"max_allocation_bytes must be a non-negative int or None, "
                           f"got {value!r}")
        self._max_allocation_bytes = None if value is None else int(value)

    def too_large(self, size: int, what: str = "allocation") -> HalError:
        """The error for a ``size``-byte request above the limit."""
        limit = self.max_allocation_bytes
        return HalError(f"{what} of {size} bytes ({_amount(size)}) exceeds the limit of "
                        f"{limit} bytes ({_amount(limit)}) per allocation on device "
                        f"'{self.device_name}' (allocator.max_allocation_bytes)")

    def allocate(self, size: int, memory_type=MemoryType.DEVICE_LOCAL, zero: bool = True) -> Buffer:
        """A buffer of ``size`` bytes, zero-filled unless ``zero=False`` (then
        its contents are undefined: for buffers the caller overwrites)."""
        raise NotImplementedError

    def allocate_result(self, size: int) -> Buffer:
        """A buffer for a call's result, which the host will read back; its
        contents are undefined (the call writes them).  Drivers whose device
        memory is not host memory may place it where that read needs no
        device round trip (opencl on a device sharing host memory)."""
        return self.allocate(size, zero=False)

    def import_host(self, obj, writable: bool = False) -> Buffer:
        raise NotImplementedError

    def import_checked(self, obj, check) -> Buffer:
        """A read-only import of host memory whose bytes ``check(offset,
        length)`` must accept before use (hal/checked_buffer.py).  Device
        memory is a copy of all of them: they are checked first."""
        check(0, memoryview(obj).nbytes)
        return self.import_host(obj)

    def validated_size(self, size, memory_type) -> int:
        """``size`` as an int within ``max_allocation_bytes``, or HalError; also
        validates the memory-type flags."""
        if not isinstance(size, (int, np.integer)) or isinstance(size, bool) or size < 0:
            raise HalError(f"allocation size must be a non-negative int, got {size!r}")
        if size > self.max_allocation_bytes:
            raise self.too_large(int(size))
        MemoryType(memory_type)
        return int(size)


class DeviceBoundAllocator(Allocator):
    """An allocator of a device-memory driver: holds its device weakly (the
    device owns the allocator) and says so when the device is gone."""

    kind = "device"

    def __init__(self, device):
        self._device = weakref.ref(device)

    @property
    def device_name(self) -> str:
        dev = self._device()
        return "?" if dev is None else dev.name

    @property
    def device(self):
        dev = self._device()
        if dev is None:
            raise HalError(f"the {self.kind} device of this buffer was closed and collected")
        return dev


class HostAllocator(Allocator):
    """Allocator over host memory (CPU devices: device-local == host-local)."""

    def __init__(self, device_name: str = "cpu"):
        self.device_name = device_name

    def allocate(self, size: int, memory_type=MemoryType.DEVICE_LOCAL, zero: bool = True) -> Buffer:
        """A zero-filled buffer of ``size`` bytes (fresh memory always is).
        Every memory type is served by the same host memory, so the buffer
        reports all of them."""
        size = self.validated_size(size, memory_type)
        return Buffer(aligned_bytes(size, device_name=self.device_name), HOST_MEMORY, True, self)

    def import_checked(self, obj, check) -> Buffer:
        """Zero-copy, checked range by range as kernels and readers use it."""
        buf = self.import_host(obj)
        return CheckedBuffer(buf.storage, buf.memory_type, self, check)

    def import_host(self, obj, writable: bool = False) -> Buffer:
        """Wrap a numpy array, bytes, bytearray or memoryview as a buffer.

        Zero-copy when the memory is C-contiguous; the buffer is read-only when
        the source is.  ``writable=True`` demands a writable, zero-copy import
        (the caller expects to see the device's writes) and raises otherwise.
        Non-contiguous sources are copied into a fresh read-only buffer."""
        if obj.__class__ is np.ndarray and not writable:
            flags = obj.flags
            if flags.c_contiguous and obj.ndim and not obj.dtype.hasobject:
                try:                          # the common case: a plain numpy array
                    storage = (obj if obj.ndim == 1 else obj.reshape(-1)).view(np.uint8)
                except ValueError:
                    pass
                else:                         # Buffer.__init__ without its checks
                    buf = _new(Buffer)
                    buf._storage, buf._address = storage, host_address(storage)
                    buf.byte_length, buf.memory_type = storage.nbytes, HOST_MEMORY
                    buf.writable, buf.allocator = flags.writeable, self
                    return buf
        try:
            arr = obj if isinstance(obj, np.ndarray) else np.asarray(memoryview(obj))
        except TypeError as e:
            raise HalError(f"import_host: cannot import {type(obj).__name__}: {e}") from None
        if arr.dtype.hasobject:
            raise HalError("import_host: arrays of Python objects have no device representation")
        if not arr.flags.c_contiguous:
            if writable:
                raise HalError("import_host(writable=True) needs C-contiguous memory "
                               "(a copy would hide the device's writes)")
            if arr.nbytes > self.max_allocation_bytes:
                raise self.too_large(arr.nbytes, "import_host's copy")
            arr = contiguous_copy(arr, self.device_name)
            arr.flags.writeable = False
        source_writable = bool(arr.flags.writeable)
        if writable and not source_writable:
            raise HalError("import_host(writable=True): the source memory is read-only")
        try:
            storage = arr.reshape(-1).view(np.uint8)
        except ValueError:      # e.g. 0-d or odd itemsize views
            storage = np.frombuffer(memoryview(arr).cast("B"), dtype=np.uint8)
        if not source_writable and storage.flags.writeable:
            storage.flags.writeable = False
        return Buffer(storage, HOST_MEMORY, source_writable, self)
