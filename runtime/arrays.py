"""``DeviceArray`` and the conversion of user arguments into buffer views.

A ``DeviceArray`` wraps a result ``BufferView`` and, for results of
asynchronous calls, the fence that says when its contents are ready.
``to_host()`` waits for that fence only (with the runtime's default timeout).
Passing a ``DeviceArray`` into another call reuses its ``BufferView``: no copy,
no host round trip; a pending one makes the next call wait on its fence.

numpy inputs, and DLPack producers (torch, JAX, ...) in host memory, become
buffer views without copying where the device shares host memory; the fast path (exact dtype and static shape, C-contiguous)
skips every generic check because reflection already fixed what is legal.
"""
from __future__ import annotations

import numpy as np

from tensorvm.vmfb import element_types

from tensorvm.hal.buffer import BufferView as _BufferView

from . import dlpack
from .errors import InvalidArgumentError

_wrap_view = _BufferView.wrap


class DonatedView:
    """What a donated DeviceArray holds instead of its buffer view: any use
    raises DonatedArrayError naming the call that took the buffer."""

    __slots__ = ("_where",)

    def __init__(self, fn_name: str, label: str):
        self._where = f"{fn_name}: {label}"

    def __getattr__(self, name):
        from .errors import DonatedArrayError
        raise DonatedArrayError(f"this array was donated to {self._where} (its buffer now holds "
                                f"that call's result): use the result instead")


class DeviceArray:
    """A tensor result living on a device: ``shape``, ``dtype``, ``to_host()``."""

    __slots__ = ("buffer_view", "device", "ready", "timeout_s")

    def __init__(self, buffer_view, device=None, ready=None, timeout_s=None):
        self.buffer_view, self.device = buffer_view, device
        self.ready = ready            # Fence that signals when the contents are valid
        self.timeout_s = timeout_s

    shape = property(lambda self: tuple(self.buffer_view.shape))
    dtype = property(lambda self: np.dtype(self.buffer_view.dtype))
    ndim = property(lambda self: len(self.buffer_view.shape))
    size = property(lambda self: int(np.prod(self.buffer_view.shape, dtype=np.int64)))

    @property
    def is_ready(self) -> bool:
        return self.ready is None or self.ready.is_signaled

    def wait(self) -> "DeviceArray":
        """Block until the contents are ready (raises the producing call's error)."""
        f = self.ready
        if f is not None and not f.is_signaled:
            if self.device is not None:
                self.device.help_until(f)
            f.wait(self.timeout_s)
        return self

    def to_host(self) -> np.ndarray:
        """The contents as a numpy array (a view where the memory is host-visible)."""
        if self.ready is not None:
            self.wait()
        return self.buffer_view.to_numpy()

    def __array__(self, dtype=None, copy=None):
        if self.ready is not None:
            self.wait()
        arr = self.buffer_view.to_numpy()
        if dtype is not None and np.dtype(dtype) != arr.dtype:
            return arr.astype(dtype)
        return arr.copy() if copy else arr

    # -- DLPack and the numpy array interface (runtime/dlpack.py) -------------
    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        self.wait()
        return dlpack.export(self.buffer_view, stream=stream, max_version=max_version,
                             dl_device=dl_device, copy=copy)

    def __dlpack_device__(self):
        return dlpack.buffer_device(self.buffer_view.buffer)

    def _host_view(self, protocol: str) -> np.ndarray:
        """The zero-copy view behind the array protocols: host memory of
        numpy's own dtypes only; device memory and ml_dtypes types (whose
        type string numpy cannot read back) raise AttributeError, so numpy
        falls back to ``__array__``."""
        if self.buffer_view.buffer.to_host is not None:
            raise AttributeError(f"{protocol}: the array lives in device memory")
        if self.buffer_view.dtype.isbuiltin != 1:
            raise AttributeError(f"{protocol}: not a numpy built-in dtype")
        return self.to_host()

    @property
    def __array_interface__(self):
        return self._host_view("__array_interface__").__array_interface__

    @property
    def __array_struct__(self):
        """What ``np.asarray`` reads first: a capsule over the same view
        (~1.5 us where the dict of ``__array_interface__`` took ~3)."""
        return self._host_view("__array_struct__").__array_struct__

    def __len__(self):
        if not self.shape:
            raise TypeError("len() of a 0-d DeviceArray")
        return self.shape[0]

    def __repr__(self):
        return f"DeviceArray({np.array2string(self.to_host(), threshold=20)}, dtype={self.dtype})"


def tensor_text(shape, dtype_name) -> str:
    return "tensor<" + "".join(f"{d}x" for d in shape) + dtype_name + ">"


def dtype_name(dtype) -> str:
    try:
        return element_types.from_numpy(dtype).name
    except KeyError:
        return str(dtype)


def arg_spec(entry):
    """(numpy dtype, static shape tuple) for the fast path, or None."""
    if entry.get("kind") == "fence" or not entry.get("dtype"):
        return None
    shape = entry.get("shape", [])
    if any(d == "?" for d in shape):
        return None
    try:
        return element_types.numpy_dtype(entry["dtype"]), tuple(shape)
    except (KeyError, TypeError, ValueError):
        return None


def import_array(device, arr):
    """A BufferView over a C-contiguous numpy array (zero-copy on the CPU)."""
    return _wrap_view(device.allocator.import_host(arr), arr.shape, arr.dtype)


def host_value(fn_name, label, value, want):
    """A numpy array of a host argument (not a BufferView): numpy as is,
    DLPack producers zero-copy, Python scalars and nested lists converted
    (cast to ``want`` where same-kind)."""
    if isinstance(value, (np.ndarray, np.generic)):
        return np.asarray(value)
    if dlpack.is_dlpack(value):             # torch, JAX, CuPy...: zero-copy on the host
        return dlpack.host_array(value, f"{fn_name}: {label}")
    try:                                    # Python scalars and nested lists
        arr = np.asarray(value)
        if want is not None and np.can_cast(arr.dtype, want, "same_kind"):
            arr = arr.astype(want)
    except (ValueError, TypeError) as e:
        raise InvalidArgumentError(f"{fn_name}: {label}: cannot convert "
                                   f"{type(value).__name__}: {e}") from None
    if arr.dtype == object:
        raise InvalidArgumentError(f"{fn_name}: {label}: expected an array, got "
                                   f"{type(value).__name__}")
    return arr


def check_tensor(fn_name, label, shape, dtype, entry) -> None:
    """InvalidArgumentError unless (shape, dtype) is what the reflection
    ``entry`` declares ("?" matches any extent)."""
    want_dtype = entry.get("dtype")
    if want_dtype:
        exp = entry.get("shape", [])
        ok = dtype == element_types.numpy_dtype(want_dtype) and len(shape) == len(exp) and all(
            e == "?" or e == d for e, d in zip(exp, shape))
        if not ok:
            raise InvalidArgumentError(
                f"{fn_name}: {label}: expected {tensor_text(exp, want_dtype)}, "
                f"got {tensor_text(shape, dtype_name(dtype))}")


def to_view(fn_name, label, value, entry, device):
    """The generic conversion of one tensor argument (checks, conversions)."""
    from tensorvm.hal import BufferView
    want_dtype = entry.get("dtype")
    want = element_types.numpy_dtype(want_dtype) if want_dtype else None
    if isinstance(value, DeviceArray):
        value = value.buffer_view
    if isinstance(value, BufferView):
        shape, dtype, arr = value.shape, value.dtype, None
    else:
        arr = host_value(fn_name, label, value, want)
        shape, dtype = arr.shape, arr.dtype
    check_tensor(fn_name, label, shape, dtype, entry)
    if arr is None:
        return value
    if not arr.flags.c_contiguous:          # (ascontiguousarray would make 0-d arrays 1-d)
        arr = arr.copy(order="C")
    return import_array(device, arr)
