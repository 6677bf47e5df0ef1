"""``opencl``: the HAL driver over pyopencl (extra ``opencl``).

URIs: ``opencl`` (the first device of the first platform that has one) or
``opencl://N`` (the N-th device over all platforms, see ``enumerate()``).
pyopencl is imported lazily, when the driver is first asked for.

* Buffers are ``cl.Buffer``s (``OpenCLBuffer``); host reads are blocking
  ``clEnqueueReadBuffer``s, host writes asynchronous.  ``import_host`` of
  writable C-contiguous memory on a device that shares host memory is
  zero-copy (``CL_MEM_USE_HOST_PTR``; each submission maps and unmaps the
  imports it writes before its end marker, which makes the device's writes
  visible in the caller's array); other imports copy.  A call's results
  (``allocate_result``) are such host memory on those devices too, so
  reading one back needs no read command.
* Executables (``opencl-c``) are OpenCL C source built on the device at
  load; programs are cached per physical device by source hash, so a second
  load -- also from another HAL device on the same OpenCL device -- does not
  rebuild.  A build failure is a ``HalError`` with the executable name and
  the build log.
* Command buffers are prepared once, at finalize (``opencl_program.py``):
  each dispatch gets its own ``cl.Kernel`` with its arguments set;
  binding-table slots are set per submission (``bind``), so replaying a
  recorded call costs one ``clSetKernelArg`` per changed slot argument and
  one enqueue per dispatch.  Recordings made anew per call or loop
  iteration bind a template of their shape (``gpu_templates.py``).
  ``stats()`` reports the host work per submission and the template reuse.
* Queue model as local-task: ``queue_execute`` returns at once.  A submit
  thread waits for the wait fence and enqueues the commands on an in-order
  ``cl.CommandQueue``; a completion thread waits for the OpenCL event and
  signals (or fails) the signal fence, so the device runs one submission
  while the next one is being enqueued.
"""
from __future__ import annotations

import functools
import os
import threading
import weakref

from ..device import Device
from ..errors import DeviceUnavailableError, HalError
from ..loaders import opencl_c
from . import opencl_program
from .gpu_queue import GpuQueues, QueueStats, timed
from .gpu_templates import TemplateCache
from .opencl_buffer import OpenCLAllocator


@functools.lru_cache(maxsize=1)
def _all_devices() -> tuple:
    import pyopencl as cl
    out = []
    for platform in cl.get_platforms():
        try:
            out += platform.get_devices()
        except cl.Error:            # a platform with no devices raises
            continue
    return tuple(out)


class _Shared:
    """Per physical device: one context and the built-program cache."""

    def __init__(self, cl_device):
        import pyopencl as cl
        self.context = cl.Context([cl_device])
        self.programs = {}
        self.builds = 0
        self.lock = threading.Lock()


_SHARED: dict = {}
_SHARED_LOCK = threading.Lock()


#: Why OpenCL cannot be used in this process: set in a child forked after the
#: parent initialised OpenCL (the implementation's threads and contexts stay
#: in the parent; PoCL hangs on the child's first kernel).
_FORK_REASON = None


def _after_fork_in_child() -> None:
    global _SHARED_LOCK, _FORK_REASON
    _SHARED_LOCK = threading.Lock()
    if _all_devices.cache_info().currsize:
        _FORK_REASON = ("OpenCL was initialised in the parent before this process forked, "
                        "and OpenCL implementations do not work in a forked child: create "
                        "OpenCL devices only after forking, or start worker processes with "
                        "multiprocessing's 'spawn' method")


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


def _shared(index: int, cl_device) -> _Shared:
    with _SHARED_LOCK:
        s = _SHARED.get(index)
        if s is None:
            s = _SHARED[index] = _Shared(cl_device)
        return s


class OpenCLDevice(Device):
    """One OpenCL device with one in-order command queue."""

    def __init__(self, index: int, cl_device, name: str):
        import pyopencl as cl
        self.cl_device = cl_device
        self.index = index
        self._shared = _shared(index, cl_device)
        self.context = self._shared.context
        self.queue = cl.CommandQueue(self.context, cl_device)
        self.extensions = frozenset(cl_device.extensions.split())
        self.host_unified_memory = bool(getattr(cl_device, "host_unified_memory", False))
        super().__init__(name, OpenCLAllocator(self))
        self.allocator.default_max_allocation_bytes = \
            int(getattr(cl_device, "max_mem_alloc_size", 0)) or None
        self._queues = GpuQueues(name)
        self._finalizer = weakref.finalize(self, self._queues.shutdown)
        self.queue_stats = QueueStats()
        self.templates = TemplateCache(self._prepare_program)

    @property
    def description(self) -> str:
        return f"{self.cl_device.platform.name.strip()}: {self.cl_device.name.strip()}"

    def supported_formats(self) -> list:
        return [opencl_c.FORMAT]

    def _load_executable(self, name, format, data, entry_points, target):
        return opencl_c.load(self, name, data, entry_points, target)

    supports_binding_tables = True
    nests_commands = True            # Execute rows: gpu_templates.slot_form

    def _prepare_commands(self, commands):
        return self.templates.program(commands)

    def _prepare_program(self, commands):
        return opencl_program.prepare(self, commands)

    def _program_runner(self, programs):
        return timed(self, lambda: opencl_program.enqueue_programs(self, programs))

    def stats(self) -> dict:
        """Host work per submission (submit thread) and template reuse."""
        return dict(self.queue_stats.as_dict(), **self.templates.counts())

    def _submit(self, wait, signal, work) -> None:
        self._queues.submit(wait, signal, work)

    def _submit_waited(self, wait, signal, work) -> None:
        self._queues.run_waited(wait, signal, work)

    def _after_fork_in_child(self) -> None:
        self._abandon_after_fork("was created before this process forked; OpenCL devices "
                                 "do not survive fork() (their contexts and queue threads "
                                 "stay in the parent)")

    def close(self) -> None:
        super().close()
        self._finalizer()


class OpenCLDriver:
    """Driver entry for ``opencl`` / ``opencl://N``."""

    name = "opencl"

    def availability(self):
        try:
            import pyopencl  # noqa: F401
        except ImportError:
            return "pyopencl is not installed (pip install 'tensorvm[opencl]')"
        if _FORK_REASON is not None:
            return _FORK_REASON
        try:
            devices = _all_devices()
        except Exception as e:      # noqa: BLE001 - no ICD loader / platform
            return f"no OpenCL platform is usable: {e}"
        if not devices:
            return ("no OpenCL device found (install an OpenCL ICD, e.g. the Debian "
                    "package pocl-opencl-icd)")
        return None

    def enumerate(self) -> list:
        if self.availability() is not None:
            return []
        return [{"path": str(i), "name": d.name.strip(),
                 "description": f"{d.platform.name.strip()}: {d.name.strip()} ({d.version})"}
                for i, d in enumerate(_all_devices())]

    def create_device(self, path: str = "", **options):
        reason = self.availability()
        if reason is not None:
            raise DeviceUnavailableError(reason)
        if options:
            raise HalError(f"opencl takes no device options (got {options})")
        devices = _all_devices()
        try:
            index = int(path) if path else 0
        except ValueError:
            raise HalError(f"opencl device path must be a device index, got {path!r}") from None
        if not 0 <= index < len(devices):
            raise DeviceUnavailableError(f"no OpenCL device {index}; this machine has "
                                         f"{len(devices)} (see enumerate())")
        return OpenCLDevice(index, devices[index], f"opencl://{index}" if path else "opencl")
