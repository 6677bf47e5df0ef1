"""DLPack in and out of the runtime (zero-copy for host memory).

In: any object with ``__dlpack__`` (torch, JAX, CuPy, numpy) whose memory is
host memory (``kDLCPU``, ``kDLCUDAHost``) becomes a numpy array over the
producer's memory through ``np.from_dlpack``; that array owns the consumed
capsule, so the producer's memory stays alive for as long as the array (and
any HAL buffer imported from it) does, and the producer's deleter runs when
the last of them goes.  Memory of another device type is named in an
``InvalidArgumentError``: the caller chooses where the copy happens.

Out: ``DeviceArray.__dlpack__`` exports host-memory buffers through numpy's
exporter over a view of the buffer's storage; the capsule references that
view, which keeps the buffer's block referenced (the caching allocator never
reuses a referenced block).  Device memory is exported as a host copy only
when the consumer asks for ``dl_device=(kDLCPU, 0)`` and allows a copy.
"""
from __future__ import annotations

import numpy as np

from .errors import InvalidArgumentError

#: DLDeviceType codes (dlpack.h).
KDL_CPU, KDL_CUDA, KDL_CUDA_HOST, KDL_OPENCL = 1, 2, 3, 4
_HOST_TYPES = (KDL_CPU, KDL_CUDA_HOST)
_NAMES = {1: "kDLCPU", 2: "kDLCUDA", 3: "kDLCUDAHost", 4: "kDLOpenCL", 7: "kDLVulkan",
          8: "kDLMetal", 10: "kDLROCM", 13: "kDLCUDAManaged", 14: "kDLOneAPI"}


def device_name(dev) -> str:
    kind, index = int(dev[0]), int(dev[1])
    return f"{_NAMES.get(kind, f'device type {kind}')}:{index}"


def is_dlpack(value) -> bool:
    """True for a DLPack producer that is not already a numpy array."""
    return hasattr(value.__class__, "__dlpack__") and not isinstance(value, np.ndarray)


def immutable(cls) -> bool:
    """Whether instances of ``cls`` never change their memory or contents
    (JAX arrays), so a call may reuse the view imported for the same object
    (torch tensors can be resized in place: imported again every call)."""
    return cls.__module__.startswith(("jaxlib.", "jax."))


def host_array(value, what: str) -> np.ndarray:
    """A numpy array over a DLPack producer's host memory (no copy).

    ``what`` names the argument in the error for memory that is not host
    memory or a producer that fails to export."""
    dev = value.__dlpack_device__() if hasattr(value, "__dlpack_device__") else (KDL_CPU, 0)
    if int(dev[0]) not in _HOST_TYPES:
        raise InvalidArgumentError(
            f"{what}: {type(value).__name__} lives in {device_name(dev)} memory, which this "
            "runtime cannot use in place; move it to host memory first (e.g. .cpu())")
    try:
        return np.from_dlpack(value)
    except (BufferError, TypeError, ValueError, RuntimeError) as e:
        raise InvalidArgumentError(f"{what}: DLPack export of {type(value).__name__} "
                                   f"failed: {e}") from None


def export(view, *, stream=None, max_version=None, dl_device=None, copy=None):
    """A DLPack capsule for a ``BufferView`` (see the module docstring)."""
    if stream is not None and stream != -1:
        raise BufferError(f"stream {stream!r}: host memory has no streams (pass None)")
    buf = view.buffer
    host = buf.to_host is None
    if dl_device is not None and (int(dl_device[0]), int(dl_device[1])) != (KDL_CPU, 0) \
            and (int(dl_device[0]), int(dl_device[1])) != buffer_device(buf):
        raise BufferError(f"cannot export to {device_name(dl_device)}")
    if not host:
        if dl_device is None or int(dl_device[0]) != KDL_CPU or copy is False:
            raise BufferError(
                f"the array lives in {device_name(buffer_device(buf))} memory; ask for "
                "dl_device=(kDLCPU, 0) (e.g. np.from_dlpack(x, device='cpu')) to get a host copy")
        copy = True
    arr = view.to_numpy()
    # DLPack before 1.0 cannot say "read-only": such a consumer gets a copy
    # unless it forbade one (then numpy's exporter raises BufferError).
    legacy = max_version is None or tuple(max_version) < (1, 0)
    if copy or (copy is None and legacy and not arr.flags.writeable):
        arr = arr.copy()
    kwargs = {} if max_version is None else {"max_version": tuple(max_version)}
    return arr.__dlpack__(**kwargs)


def buffer_device(buf) -> tuple:
    """``(DLDeviceType, index)`` of a HAL buffer's memory."""
    return (getattr(buf, "dlpack_device_type", KDL_CPU), 0)
