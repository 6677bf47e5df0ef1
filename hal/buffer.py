"""Buffers and buffer views.

``Buffer`` is the host-memory buffer used by the CPU drivers: its storage is a
numpy ``uint8`` array (64-byte aligned when the HAL allocated it, the caller's
memory when imported).  Other drivers subclass it and override the accessors.
A ``BufferView`` adds a shape and a numpy dtype so the runtime can hand arrays
across the API boundary.
"""
from __future__ import annotations

import enum
import math

import numpy as np

from .errors import HalError

try:                                    # cffi's C module: no Python wrapper frames
    import _cffi_backend as _cb
    _CHARS = _cb.new_array_type(_cb.new_pointer_type(_cb.new_primitive_type("char")), None)
    _UINTPTR = _cb.new_primitive_type("uintptr_t")
    _from_buffer, _cast = _cb.from_buffer, _cb.cast
except (ImportError, AttributeError):   # pragma: no cover - other cffi builds
    _from_buffer = None


def host_address(storage) -> int:
    """The address of a C-contiguous numpy array's first byte (cffi's
    ``from_buffer`` is several times cheaper than ``ndarray.ctypes.data``)."""
    if _from_buffer is None or not storage.nbytes:
        return storage.ctypes.data
    return int(_cast(_UINTPTR, _from_buffer(_CHARS, storage, False)))


class MemoryType(enum.IntFlag):
    """Where memory lives and who may touch it (bit flags, IREE-style)."""
    NONE = 0
    OPTIMAL = 1 << 0
    HOST_VISIBLE = 1 << 1
    HOST_COHERENT = 1 << 2
    HOST_CACHED = 1 << 3
    HOST_LOCAL = (1 << 6) | HOST_VISIBLE | HOST_COHERENT
    DEVICE_VISIBLE = 1 << 4
    DEVICE_LOCAL = (1 << 5) | DEVICE_VISIBLE


#: What CPU memory really is: every allocation is all of these at once.
HOST_MEMORY = (MemoryType.HOST_LOCAL | MemoryType.HOST_CACHED | MemoryType.DEVICE_LOCAL)


class Buffer:
    """A byte range of memory.  ``byte_length`` and ``memory_type`` are fixed;
    ``writable`` is False for imports of read-only host memory."""

    __slots__ = ("_storage", "_address", "byte_length", "memory_type", "writable", "allocator",
                 "__weakref__")

    def __init__(self, storage: np.ndarray, memory_type=HOST_MEMORY, writable=True, allocator=None):
        self._storage = storage
        self._address = None
        self.byte_length = storage.nbytes
        self.memory_type = memory_type if type(memory_type) is MemoryType \
            else MemoryType(memory_type)
        self.writable = bool(writable)
        self.allocator = allocator

    # -- storage ---------------------------------------------------------
    @property
    def storage(self) -> np.ndarray:
        """The uint8 numpy array backing the buffer (HalError once released)."""
        s = self._storage
        if s is None:
            raise HalError("buffer was deallocated (queue_dealloca) and cannot be used")
        return s

    #: Device buffers that are not host memory override this with a method
    #: returning a host copy (``BufferView.to_numpy`` reads it without a getattr miss).
    to_host = None

    @property
    def address(self) -> int:
        """Host address of byte 0 (for native kernels)."""
        a = self._address
        if a is None:
            a = self._address = host_address(self.storage)
        elif self._storage is None:
            self.storage  # raises: released
        return a

    def release(self) -> None:
        """Drop the storage; memory is freed once no recorded command uses it."""
        self._storage = None

    @property
    def released(self) -> bool:
        return self._storage is None

    # -- ranges ----------------------------------------------------------
    def check_range(self, offset: int, length, what="range") -> int:
        """Validate [offset, offset+length) and return the length (None or -1:
        to the end)."""
        if length is None or length == -1:
            length = self.byte_length - offset
        if offset < 0 or length < 0 or offset + length > self.byte_length:
            raise HalError(f"{what} [{offset}, {offset}+{length}) is out of bounds of a "
                           f"{self.byte_length}-byte buffer")
        return length

    def subspan(self, offset: int, length=None) -> "Buffer":
        """A buffer aliasing [offset, offset+length) of this one."""
        length = self.check_range(offset, length, "subspan")
        return Buffer(self.storage[offset:offset + length], self.memory_type,
                      self.writable, self.allocator)

    # -- host access -----------------------------------------------------
    def map(self) -> memoryview:
        """A memoryview of the whole buffer (host-visible memory only)."""
        if not self.memory_type & MemoryType.HOST_VISIBLE:
            raise HalError(f"buffer memory ({self.memory_type!r}) is not host-visible; "
                           "use read()/write() or a transfer")
        mv = memoryview(self.storage)
        return mv if self.writable else mv.toreadonly()

    def read(self, offset: int = 0, length=None) -> bytes:
        length = self.check_range(offset, length, "read")
        return self.storage[offset:offset + length].tobytes()

    def write(self, offset: int, data) -> None:
        self.check_writable("write")
        src = np.frombuffer(data, dtype=np.uint8) if not isinstance(data, np.ndarray) \
            else data.reshape(-1).view(np.uint8)
        self.check_range(offset, src.nbytes, "write")
        self.storage[offset:offset + src.nbytes] = src

    def check_writable(self, what: str) -> None:
        if not self.writable:
            raise HalError(f"{what}: buffer is read-only (imported from read-only host memory)")

    def __repr__(self):
        state = " released" if self._storage is None else ""
        ro = "" if self.writable else " read-only"
        return f"<Buffer {self.byte_length}B{ro}{state}>"


class BufferView:
    """A buffer interpreted as a dense row-major array of ``shape`` and ``dtype``."""

    __slots__ = ("buffer", "shape", "dtype")

    def __init__(self, buffer: Buffer, shape, dtype):
        if not isinstance(buffer, Buffer):
            raise HalError(f"BufferView needs a Buffer, got {type(buffer).__name__}")
        self.buffer = buffer
        self.shape = tuple(int(d) for d in shape)
        self.dtype = np.dtype(dtype)
        if any(d < 0 for d in self.shape):
            raise HalError(f"BufferView shape {self.shape} has a negative dimension")
        if self.byte_length > buffer.byte_length:
            raise HalError(f"BufferView {self.shape} {self.dtype} needs {self.byte_length} bytes "
                           f"but the buffer has {buffer.byte_length}")

    @classmethod
    def wrap(cls, buffer, shape: tuple, dtype):
        """A view without checks, for callers that validated already (hot paths)."""
        v = cls.__new__(cls)
        v.buffer, v.shape, v.dtype = buffer, shape, dtype
        return v

    @property
    def element_count(self) -> int:
        return math.prod(self.shape)

    @property
    def byte_length(self) -> int:
        return self.element_count * self.dtype.itemsize

    def to_numpy(self) -> np.ndarray:
        """A zero-copy numpy view for host memory (read-only if the buffer is);
        a copy read back from device memory (buffers with ``to_host``)."""
        buf = self.buffer
        to_host = buf.to_host
        if to_host is not None:
            return to_host(self.byte_length).view(self.dtype).reshape(self.shape)
        storage, n = buf.storage, self.byte_length
        arr = (storage if storage.nbytes == n else storage[:n]).view(self.dtype)
        if arr.shape != self.shape:
            arr = arr.reshape(self.shape)
        if not buf.writable:
            arr.flags.writeable = False
        return arr

    def __array__(self, dtype=None, copy=None):
        arr = self.to_numpy()
        if dtype is not None:
            arr = arr.astype(dtype)
        return arr.copy() if copy else arr

    def __repr__(self):
        dims = "x".join(map(str, self.shape)) or "scalar"
        return f"<BufferView {dims} {self.dtype}>"
