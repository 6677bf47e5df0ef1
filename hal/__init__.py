"""Hardware abstraction layer: drivers, devices, buffers, queues.

Imports nothing else of tensorvm but tensorvm.vmfb.source_check (the
dependency-free rules of what an ``opencl-c`` source may contain, which the
compiler applies to custom kernels too; docs/decisions.md).  Start with
``create_device("local-task")``; see docs/hal.md.
"""
from .allocator import Allocator, HostAllocator
from .buffer import Buffer, BufferView, MemoryType
from .command_buffer import CommandBuffer
from .device import Device
from .errors import (DeviceUnavailableError, DispatchStoppedError, ExecutableRejectedError, HalError,
                     HalTimeoutError, NoVariantError, OutOfMemoryError)
from .executable import Executable
from .registry import (available_drivers, create_device, get_driver, register_driver,
                       registered_drivers)
from .semaphore import Fence, Semaphore

__all__ = [
    "Allocator", "HostAllocator", "Buffer", "BufferView", "MemoryType", "CommandBuffer",
    "Device", "DeviceUnavailableError", "DispatchStoppedError", "ExecutableRejectedError", "HalError",
    "HalTimeoutError", "NoVariantError", "OutOfMemoryError", "Executable",
    "available_drivers", "create_device", "get_driver", "register_driver",
    "registered_drivers", "Fence", "Semaphore",
]
