"""Buffers and the allocator of the ``opencl`` driver.

An ``OpenCLBuffer`` is a byte range ``[offset, offset + byte_length)`` of a
``cl.Buffer`` (subspans share the cl.Buffer; kernels get the offset as an
argument, so no sub-buffer alignment rules apply).  Device memory is not
host-visible: ``map()`` raises, ``read``/``write`` transfer through the
device's queue, in order with the work already enqueued on it.
"""
from __future__ import annotations


import numpy as np

from ..allocator import DeviceBoundAllocator, aligned_bytes, contiguous_copy, host_array
from ..buffer import Buffer, MemoryType
from ..errors import HalError, OutOfMemoryError

DEVICE_MEMORY = MemoryType.DEVICE_LOCAL
# host memory of result buffers: what a CPU OpenCL needs to use it in place
HOST_ALIGNMENT = 128


class _Empty:
    """Stand-in storage of a zero-length buffer (OpenCL has no empty cl_mem)."""


_EMPTY = _Empty()


class OpenCLBuffer(Buffer):
    """A range of a cl.Buffer; ``host`` keeps imported host memory alive."""

    __slots__ = ("offset", "host", "host_shared", "host_read")
    dlpack_device_type = 4          # kDLOpenCL (runtime/dlpack.py)

    def __init__(self, allocator, mem, offset, length, writable, host=None, host_shared=False,
                 host_read=False):
        self._storage = mem if mem is not None else _EMPTY
        self._address = None
        self.byte_length = int(length)
        self.memory_type = DEVICE_MEMORY
        self.writable = bool(writable)
        self.allocator = allocator
        self.offset = int(offset)
        self.host = host
        self.host_shared = host_shared
        # reads come from ``host`` once the queue is idle: a result buffer
        # (allocate_result), whose every device write its submission follows
        # with a map, so host memory holds the device's writes
        self.host_read = host_read

    @property
    def mem(self):
        """The cl.Buffer (None for a zero-length buffer); HalError once released."""
        s = self.storage
        return None if s is _EMPTY else s

    @property
    def address(self):
        raise AttributeError("OpenCL buffers have no host address")

    def subspan(self, offset: int, length=None) -> "OpenCLBuffer":
        length = self.check_range(offset, length, "subspan")
        return OpenCLBuffer(self.allocator, self.mem, self.offset + offset, length,
                            self.writable, self.host, self.host_shared, self.host_read)

    def map(self) -> memoryview:
        raise HalError("OpenCL device memory is not host-visible; use read()/write()")

    def _queue(self):
        return self.allocator.device.queue

    def read(self, offset: int = 0, length=None) -> bytes:
        length = self.check_range(offset, length, "read")
        mem = self.mem
        if length == 0 or mem is None:
            return b""
        if self.host_read:
            return self._host_bytes(offset, length).tobytes()
        import pyopencl as cl
        out = host_array(length, self.allocator.device_name, zero=False)
        cl.enqueue_copy(self._queue(), out, mem, src_offset=self.offset + offset, is_blocking=True)
        return out.tobytes()

    def _host_bytes(self, offset: int, length: int) -> np.ndarray:
        """A result buffer's bytes, read from host memory after the work
        enqueued so far finished (clFinish of an idle queue returns at once:
        no device round trip, where a read command costs one)."""
        self.storage                    # HalError once released, as read() of a device buffer
        self._queue().finish()
        start = self.offset + offset
        return self.host[start:start + length]

    def write(self, offset: int, data) -> None:
        """Asynchronous: ordered before any work enqueued after it."""
        self.check_writable("write")
        src = np.frombuffer(bytes(data), dtype=np.uint8) if not isinstance(data, np.ndarray) \
            else np.ascontiguousarray(data).reshape(-1).view(np.uint8).copy()
        self.check_range(offset, src.nbytes, "write")
        mem = self.mem
        if src.nbytes and mem is not None:
            import pyopencl as cl
            q = self._queue()
            cl.enqueue_copy(q, mem, src, dst_offset=self.offset + offset, is_blocking=False)
            if self.host_read:                 # host memory follows, as after a submission
                map_unmap(q, mem, self.host.nbytes)

    def to_host(self, length=None) -> np.ndarray:
        """A fresh, writable uint8 copy of the first ``length`` bytes
        (BufferView.to_numpy of device memory)."""
        if self.host_read:
            return self._host_bytes(0, self.check_range(0, length, "read")).copy()
        return np.frombuffer(bytearray(self.read(0, length)), np.uint8)

    def __repr__(self):
        state = " released" if self._storage is None else ""
        return f"<OpenCLBuffer {self.byte_length}B @{self.offset}{state}>"


class OpenCLAllocator(DeviceBoundAllocator):
    """Allocates cl.Buffers in the device's context."""

    kind = "OpenCL"

    def allocate(self, size: int, memory_type=MemoryType.DEVICE_LOCAL,
                 zero: bool = True) -> OpenCLBuffer:
        """A device buffer of ``size`` bytes, zero-filled unless ``zero=False``."""
        size = self.validated_size(size, memory_type)
        if size == 0:
            return OpenCLBuffer(self, None, 0, 0, True)
        import pyopencl as cl
        dev = self.device
        try:
            mem = cl.Buffer(dev.context, cl.mem_flags.READ_WRITE, size)
            if zero:
                cl.enqueue_fill_buffer(dev.queue, mem, np.uint8(0), 0, size)
        except cl.Error as e:
            raise _allocation_error(f"OpenCL allocation of {size} bytes on '{dev.name}' failed: "
                                    f"{e}", e, size, dev.name) from None
        return OpenCLBuffer(self, mem, 0, size, True)

    def allocate_result(self, size: int) -> OpenCLBuffer:
        """A call's result.  On a device sharing host memory (a CPU device
        such as PoCL, an integrated GPU) it is host memory the kernels write
        in place (``CL_MEM_USE_HOST_PTR``), and every submission that writes
        it maps it before its end marker, so reading it back is a copy from
        host memory, not a read command and its device round trip (PoCL:
        12-30 us each); elsewhere a device buffer, as ``allocate``."""
        dev = self.device
        if not dev.host_unified_memory:
            return self.allocate(size, zero=False)
        size = self.validated_size(size, DEVICE_MEMORY)
        if size == 0:
            return OpenCLBuffer(self, None, 0, 0, True)
        import pyopencl as cl
        raw = aligned_bytes(size, HOST_ALIGNMENT, dev.name, zero=False)   # written before read
        try:
            mem = cl.Buffer(dev.context, cl.mem_flags.READ_WRITE | cl.mem_flags.USE_HOST_PTR,
                            hostbuf=raw)
        except cl.Error as e:
            raise _allocation_error(f"OpenCL allocation of {size} bytes on '{dev.name}' failed: "
                                    f"{e}", e, size, dev.name) from None
        return OpenCLBuffer(self, mem, 0, size, True, host=raw, host_shared=True, host_read=True)

    def import_host(self, obj, writable: bool = False) -> OpenCLBuffer:
        """Upload host memory.  ``writable=True`` shares it with the device
        (zero-copy, only where the device uses host memory); otherwise the
        bytes are copied into a read-only device buffer."""
        try:
            arr = obj if isinstance(obj, np.ndarray) else np.asarray(memoryview(obj))
        except TypeError as e:
            raise HalError(f"import_host: cannot import {type(obj).__name__}: {e}") from None
        if arr.dtype.hasobject:
            raise HalError("import_host: arrays of Python objects have no device representation")
        if writable:
            if not arr.flags.c_contiguous:
                raise HalError("import_host(writable=True) needs C-contiguous memory "
                               "(a copy would hide the device's writes)")
            if not arr.flags.writeable:
                raise HalError("import_host(writable=True): the source memory is read-only")
        arr = contiguous_copy(arr, self.device_name)
        try:
            raw = arr.reshape(-1).view(np.uint8)
        except ValueError:
            raw = np.frombuffer(memoryview(arr).cast("B"), dtype=np.uint8)
        if raw.nbytes == 0:
            return OpenCLBuffer(self, None, 0, 0, writable)
        import pyopencl as cl
        dev = self.device
        mf = cl.mem_flags
        try:
            if writable:
                if not dev.host_unified_memory:
                    raise HalError(f"import_host(writable=True): device '{dev.name}' does not "
                                   "share host memory; allocate a device buffer and read() it")
                mem = cl.Buffer(dev.context, mf.READ_WRITE | mf.USE_HOST_PTR, hostbuf=raw)
                return OpenCLBuffer(self, mem, 0, raw.nbytes, True, host=raw, host_shared=True)
            # A private copy: READ_WRITE so kernels may use it as scratch, as
            # they may a zero-copy import on the CPU (writes stay on the device).
            mem = cl.Buffer(dev.context, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=raw)
        except cl.Error as e:
            raise _allocation_error(f"OpenCL import of {raw.nbytes} bytes on '{dev.name}' "
                                    f"failed: {e}", e, raw.nbytes, dev.name) from None
        return OpenCLBuffer(self, mem, 0, raw.nbytes, False)


#: CL_MEM_OBJECT_ALLOCATION_FAILURE, CL_OUT_OF_RESOURCES, CL_OUT_OF_HOST_MEMORY
_OUT_OF_MEMORY = (-4, -5, -6)


def _allocation_error(message: str, exc, size: int, device: str) -> HalError:
    """OutOfMemoryError where the OpenCL error says memory ran out, else HalError."""
    if getattr(exc, "code", None) in _OUT_OF_MEMORY:
        return OutOfMemoryError(message, size=size, device=device)
    return HalError(message)


def map_unmap(queue, mem, size: int) -> None:
    """Enqueue a map for reading and its unmap of ``mem``'s ``size`` bytes: a
    host-memory buffer (``CL_MEM_USE_HOST_PTR``) holds the device's writes
    enqueued before it once the map ran (no host wait here)."""
    import pyopencl as cl
    host, _ = cl.enqueue_map_buffer(queue, mem, cl.map_flags.READ, 0, (size,), np.uint8,
                                    is_blocking=False)
    host.base.release(queue)
