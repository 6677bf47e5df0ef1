"""``cuda``: the HAL driver over the CUDA driver API (cffi binding of
libcuda, ``cuda_api.py``; no pycuda or toolkit needed at run time).

URIs: ``cuda`` (device 0) or ``cuda://N``.  Each HAL device uses the GPU's
primary context (shared with pycuda / other libraries that use it) and one
non-blocking stream.  Buffers are ``cuMemAlloc`` allocations; ``import_host``
copies, except ``writable=True``, which page-locks the caller's memory
(``cuMemHostRegister``) and hands kernels its device alias, so the caller
sees the device's writes (zero-copy over the bus).  Executables are PTX
(``cuda-ptx``) JIT-compiled by the driver at load and cached per GPU.  The
queue model is the OpenCL driver's: a submit thread enqueues on the stream,
a completion thread synchronises on an event and settles the fence.
Command buffers are prepared once and bound per submission (binding-table
slots; recordings made anew per call bind a template of their shape), and
replayed as CUDA graphs from their second submission (``cuda_program.py``).

Where no NVIDIA driver or GPU is present the driver is unavailable and says
why (``availability()``); nothing here is imported until it is asked for.
"""
from __future__ import annotations

import threading
import weakref

import numpy as np

from ..allocator import DeviceBoundAllocator, contiguous_copy, host_array
from ..buffer import Buffer, MemoryType
from ..device import Device
from ..errors import DeviceUnavailableError, HalError
from ..loaders import cuda_ptx
from . import cuda_api, cuda_program
from .gpu_queue import GpuQueues, QueueStats, timed
from .gpu_templates import TemplateCache


class _Allocation:
    """Device memory (or registered host memory) freed when unreferenced."""

    __slots__ = ("device", "ptr", "size", "host", "__weakref__")

    def __init__(self, device, ptr, size, host=None):
        self.device, self.ptr, self.size, self.host = device, ptr, size, host

    def __del__(self):
        dev = self.device
        try:
            if self.ptr and dev is not None:
                dev.make_current()
                if self.host is not None:
                    dev.api.lib.cuMemHostUnregister(dev.api.ffi.from_buffer(self.host))
                else:
                    dev.api.lib.cuMemFree_v2(self.ptr)
        except Exception:   # noqa: BLE001 - interpreter shutdown, context gone
            pass


class CudaBuffer(Buffer):
    """``[offset, offset + byte_length)`` of an allocation."""

    __slots__ = ("offset",)
    dlpack_device_type = 2          # kDLCUDA (runtime/dlpack.py)

    def __init__(self, allocator, allocation, offset, length, writable):
        self._storage = allocation
        self._address = None
        self.byte_length = int(length)
        self.memory_type = MemoryType.DEVICE_LOCAL
        self.writable = bool(writable)
        self.allocator = allocator
        self.offset = int(offset)

    @property
    def device_ptr(self) -> int:
        return self.storage.ptr + self.offset if self.storage.ptr else 0

    @property
    def address(self):
        raise AttributeError("CUDA device buffers have no host address")

    def subspan(self, offset: int, length=None) -> "CudaBuffer":
        length = self.check_range(offset, length, "subspan")
        return CudaBuffer(self.allocator, self.storage, self.offset + offset, length, self.writable)

    def map(self) -> memoryview:
        raise HalError("CUDA device memory is not host-visible; use read()/write()")

    def read(self, offset: int = 0, length=None) -> bytes:
        length = self.check_range(offset, length, "read")
        if not length:
            return b""
        dev = self.allocator.device
        out = host_array(length, dev.name, zero=False)
        dev.make_current()
        api = dev.api
        api.check(api.lib.cuMemcpyDtoHAsync_v2(api.ffi.from_buffer(out), self.device_ptr + offset,
                                               length, dev.stream), "cuMemcpyDtoHAsync")
        api.check(api.lib.cuStreamSynchronize(dev.stream), "cuStreamSynchronize")
        return out.tobytes()

    def write(self, offset: int, data) -> None:
        self.check_writable("write")
        src = np.frombuffer(bytes(data), np.uint8) if not isinstance(data, np.ndarray) \
            else np.ascontiguousarray(data).reshape(-1).view(np.uint8)
        self.check_range(offset, src.nbytes, "write")
        if src.nbytes:
            dev = self.allocator.device
            dev.make_current()
            api = dev.api
            api.check(api.lib.cuMemcpyHtoDAsync_v2(self.device_ptr + offset,
                                                   api.ffi.from_buffer(src), src.nbytes,
                                                   dev.stream), "cuMemcpyHtoDAsync")

    def to_host(self, length=None) -> np.ndarray:
        return np.frombuffer(bytearray(self.read(0, length)), np.uint8)


class CudaAllocator(DeviceBoundAllocator):
    kind = "CUDA"

    def allocate(self, size: int, memory_type=MemoryType.DEVICE_LOCAL,
                 zero: bool = True) -> CudaBuffer:
        """A device buffer of ``size`` bytes, zero-filled unless ``zero=False``."""
        size = self.validated_size(size, memory_type)
        dev = self.device
        if size == 0:
            return CudaBuffer(self, _Allocation(None, 0, 0), 0, 0, True)
        dev.make_current()
        api = dev.api
        ptr = api.out("CUdeviceptr", api.lib.cuMemAlloc_v2, size, what=f"cuMemAlloc({size})")
        alloc = _Allocation(dev, ptr, size)
        if zero:
            api.check(api.lib.cuMemsetD8Async(ptr, 0, size, dev.stream), "cuMemsetD8Async")
        return CudaBuffer(self, alloc, 0, size, True)

    def import_host(self, obj, writable: bool = False) -> CudaBuffer:
        try:
            arr = obj if isinstance(obj, np.ndarray) else np.asarray(memoryview(obj))
        except TypeError as e:
            raise HalError(f"import_host: cannot import {type(obj).__name__}: {e}") from None
        if arr.dtype.hasobject:
            raise HalError("import_host: arrays of Python objects have no device representation")
        if writable and not arr.flags.c_contiguous:
            raise HalError("import_host(writable=True) needs C-contiguous memory "
                           "(a copy would hide the device's writes)")
        if writable and not arr.flags.writeable:
            raise HalError("import_host(writable=True): the source memory is read-only")
        arr = contiguous_copy(arr, self.device_name)
        raw = arr.reshape(-1).view(np.uint8) if arr.ndim else \
            np.frombuffer(memoryview(arr).cast("B"), np.uint8)
        if not writable:
            buf = self.allocate(raw.nbytes)
            if raw.nbytes:
                buf.write(0, raw.copy())
            buf.writable = False
            return buf
        if not raw.nbytes:
            return CudaBuffer(self, _Allocation(None, 0, 0), 0, 0, True)
        dev = self.device
        dev.make_current()
        api = dev.api
        host = api.ffi.from_buffer(raw)
        api.check(api.lib.cuMemHostRegister_v2(host, raw.nbytes, cuda_api.HOST_REGISTER_DEVICEMAP),
                  "cuMemHostRegister")
        ptr = api.out("CUdeviceptr", api.lib.cuMemHostGetDevicePointer_v2, host, 0,
                      what="cuMemHostGetDevicePointer")
        return CudaBuffer(self, _Allocation(dev, ptr, raw.nbytes, host=raw), 0, raw.nbytes, True)


_MODULE_CACHES: dict = {}


class CudaDevice(Device):
    """One GPU: its primary context and one stream."""

    #: CUDA's grid limits (compute capability 3.0 and later).
    max_workgroup_count = ((1 << 31) - 1, 65535, 65535)

    def __init__(self, api, ordinal: int, name: str):
        self.api = api
        self.ordinal = ordinal
        info = api.device_info(ordinal)
        self.cu_device = info["device"]
        self.description = info["name"]
        self.compute_capability = info["compute_capability"]
        self.context = api.out("CUcontext", api.lib.cuDevicePrimaryCtxRetain, self.cu_device,
                               what="cuDevicePrimaryCtxRetain")
        self.make_current()
        self.stream = api.out("CUstream", api.lib.cuStreamCreate, cuda_api.STREAM_NON_BLOCKING,
                              what="cuStreamCreate")
        self.modules = _MODULE_CACHES.setdefault(ordinal, ({}, threading.Lock()))
        super().__init__(name, CudaAllocator(self))
        self.allocator.default_max_allocation_bytes = info.get("total_memory") or None
        ctx = self.context       # the threads must not keep the device alive

        def current():
            api.check(api.lib.cuCtxSetCurrent(ctx), "cuCtxSetCurrent")
        self._queues = GpuQueues(name, thread_init=current)
        self._finalizer = weakref.finalize(self, self._queues.shutdown)
        self.queue_stats = QueueStats()
        self.graph_stats = cuda_program.GraphStats()
        self.templates = TemplateCache(self._prepare_program)

    def make_current(self) -> None:
        self.api.check(self.api.lib.cuCtxSetCurrent(self.context), "cuCtxSetCurrent")

    def supported_formats(self) -> list:
        return [cuda_ptx.FORMAT]

    def _load_executable(self, name, format, data, entry_points, target):
        return cuda_ptx.load(self, name, data, entry_points, target)

    supports_binding_tables = True
    nests_commands = True            # Execute rows: gpu_templates.slot_form

    def _prepare_commands(self, commands):
        return self.templates.program(commands)

    def _prepare_program(self, commands):
        return cuda_program.prepare(self, commands)

    def _program_runner(self, programs):
        return timed(self, lambda: cuda_program.enqueue_programs(self, programs))

    def stats(self) -> dict:
        """Host work per submission (submit thread), template reuse and graphs."""
        return dict(self.queue_stats.as_dict(), **self.templates.counts(),
                    **self.graph_stats.as_dict())

    def _submit(self, wait, signal, work) -> None:
        self._queues.submit(wait, signal, work)

    def _submit_waited(self, wait, signal, work) -> None:
        self._queues.run_waited(wait, signal, work)

    def _after_fork_in_child(self) -> None:
        self._abandon_after_fork("was created before this process forked; CUDA devices "
                                 "do not survive fork() (their contexts and queue threads "
                                 "stay in the parent)")

    def close(self) -> None:
        super().close()
        self._finalizer()


class CudaDriver:
    """Driver entry for ``cuda`` / ``cuda://N``."""

    name = "cuda"

    def availability(self):
        try:
            cuda_api.load()
        except DeviceUnavailableError as e:
            return str(e)
        return None

    def enumerate(self) -> list:
        if self.availability() is not None:
            return []
        api = cuda_api.load()
        out = []
        for i in range(api.device_count()):
            info = api.device_info(i)
            major, minor = info["compute_capability"]
            out.append({"path": str(i), "name": info["name"],
                        "description": f"{info['name']} (sm_{major}{minor})"})
        return out

    def create_device(self, path: str = "", **options):
        api = cuda_api.load()
        if options:
            raise HalError(f"cuda takes no device options (got {options})")
        try:
            ordinal = int(path) if path else 0
        except ValueError:
            raise HalError(f"cuda device path must be a device ordinal, got {path!r}") from None
        count = api.device_count()
        if not 0 <= ordinal < count:
            raise DeviceUnavailableError(f"no CUDA device {ordinal}; this machine has {count}")
        return CudaDevice(api, ordinal, f"cuda://{ordinal}" if path else "cuda")
