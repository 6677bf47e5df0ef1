"""tensorvm runtime: VM, native modules, user API, CLIs.

``load_module(path_or_bytes, device="local-task") -> Module`` is the entry
point.  Heavy pieces (numpy, the VM, the HAL) load on first use, so
``import tensorvm.runtime`` stays cheap.
"""
from .errors import (CallCancelledError, CallTimeoutError, HostQueueError, HostQueueTimeoutError,
                     HostQueueTypeError, InvalidArgumentError, LinkError, VmTrap,
                     DonatedArrayError, BatcherError, NotBatchableError, QueueFullError,
                     DeadlineExceededError, BatcherClosedError)

_LAZY = {
    "load_module": "api", "Module": "api", "Function": "api", "DeviceArray": "api",
    "Instance": "api", "get_device": "api", "MissingCustomCallError": "custom_calls",
    "Context": "vm", "BytecodeModule": "vm", "NativeModule": "vm", "Suspend": "vm",
    "Invocation": "vm", "FunctionHandle": "vm", "HostQueues": "host_queues",
    "HostQueue": "host_queues", "Token": "host_queues", "Batcher": "batcher", "Rows": "batcher",
}

__all__ = ["CallCancelledError", "CallTimeoutError", "HostQueueError", "HostQueueTimeoutError",
           "HostQueueTypeError", "InvalidArgumentError", "LinkError", "VmTrap", "DonatedArrayError", "BatcherError",
           "NotBatchableError", "QueueFullError", "DeadlineExceededError", "BatcherClosedError",
           *_LAZY]


def __getattr__(name):
    sub = _LAZY.get(name)
    if sub is None:
        raise AttributeError(f"module 'tensorvm.runtime' has no attribute '{name}'")
    import importlib
    value = getattr(importlib.import_module(f".{sub}", __name__), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY))
