"""The user API: ``load_module(...)`` -> ``Module``; ``module.main(*arrays)``.

Arguments are checked against the export's reflection metadata (count, dtype,
shape with ``?`` matching any extent) before the VM runs, so a wrong input
raises ``InvalidArgumentError`` naming the argument, expected and actual.
numpy inputs reach the device zero-copy where the allocator allows; tensor
results come back as ``DeviceArray`` (numpy reads them with ``np.asarray``).
"""
from __future__ import annotations

import os
import threading

import numpy as np

from tensorvm.vmfb import element_types

from .errors import InvalidArgumentError
from .vm import BytecodeModule, Context
from .vm.interpreter import coerce
from tensorvm.vmfb.model import parse_signature

_DEVICES: dict = {}
_DEVICES_LOCK = threading.Lock()


def get_device(device="local-task"):
    """The process-wide HAL device for a URI (created once), or ``device`` itself."""
    if not isinstance(device, str):
        return device
    with _DEVICES_LOCK:
        dev = _DEVICES.get(device)
        if dev is None:
            from tensorvm import hal
            dev = _DEVICES[device] = hal.create_device(device)
        return dev


class DeviceArray:
    """A tensor result living on a device: ``shape``, ``dtype``, ``to_host()``."""

    __slots__ = ("buffer_view", "device")

    def __init__(self, buffer_view, device=None):
        self.buffer_view, self.device = buffer_view, device

    shape = property(lambda self: tuple(self.buffer_view.shape))
    dtype = property(lambda self: np.dtype(self.buffer_view.dtype))
    ndim = property(lambda self: len(self.buffer_view.shape))
    size = property(lambda self: int(np.prod(self.buffer_view.shape, dtype=np.int64)))

    def to_host(self) -> np.ndarray:
        """The contents as a numpy array (a view where the memory is host-visible)."""
        return self.buffer_view.to_numpy()

    def __array__(self, dtype=None, copy=None):
        arr = self.to_host()
        if dtype is not None and np.dtype(dtype) != arr.dtype:
            return arr.astype(dtype)
        return arr.copy() if copy else arr

    def __len__(self):
        if not self.shape:
            raise TypeError("len() of a 0-d DeviceArray")
        return self.shape[0]

    def __repr__(self):
        return f"DeviceArray({np.array2string(self.to_host(), threshold=20)}, dtype={self.dtype})"


def _tensor_text(shape, dtype_name) -> str:
    return "tensor<" + "".join(f"{d}x" for d in shape) + dtype_name + ">"


def _dtype_name(dtype) -> str:
    try:
        return element_types.from_numpy(dtype).name
    except KeyError:
        return str(dtype)


class Function:
    """A callable export of a loaded module; ``repr`` shows its signature."""

    def __init__(self, module: "Module", handle):
        self.module, self.handle, self.name = module, handle, handle.name
        self.signature = handle.signature
        self._sig = parse_signature(handle.signature)
        refl = handle.reflection or {}
        self.args = list(refl.get("args", [{} for _ in self._sig.args]))
        self.results = list(refl.get("results", [{} for _ in self._sig.results]))

    def _describe(self, entry, param) -> str:
        if param.bank == "ref" and entry.get("dtype"):
            return _tensor_text(entry.get("shape", []), entry["dtype"])
        return entry.get("dtype") or param.bank

    def __repr__(self):
        args = ", ".join(f"{e.get('name', f'arg{i}')}: {self._describe(e, p)}"
                         for i, (e, p) in enumerate(zip(self.args, self._sig.args)))
        res = ", ".join(self._describe(e, p) for e, p in zip(self.results, self._sig.results))
        return f"<Function {self.name}({args}) -> ({res})>"

    # -- arguments ---------------------------------------------------------------
    def _arg_label(self, i) -> str:
        name = self.args[i].get("name") if i < len(self.args) else None
        return f"argument '{name}' (#{i})" if name else f"argument #{i}"

    def _to_view(self, i, value, entry):
        from tensorvm.hal import BufferView
        want_dtype = entry.get("dtype")
        want = element_types.numpy_dtype(want_dtype) if want_dtype else None
        if isinstance(value, DeviceArray):
            value = value.buffer_view
        if isinstance(value, BufferView):
            shape, dtype, arr = value.shape, value.dtype, None
        else:
            if isinstance(value, (np.ndarray, np.generic)):
                arr = np.asarray(value)
            else:                               # Python scalars and nested lists
                try:
                    arr = np.asarray(value)
                    if want is not None and np.can_cast(arr.dtype, want, "same_kind"):
                        arr = arr.astype(want)
                except (ValueError, TypeError) as e:
                    raise InvalidArgumentError(f"{self.name}: {self._arg_label(i)}: cannot "
                                               f"convert {type(value).__name__}: {e}") from None
                if arr.dtype == object:
                    raise InvalidArgumentError(f"{self.name}: {self._arg_label(i)}: expected an "
                                               f"array, got {type(value).__name__}")
            shape, dtype = arr.shape, arr.dtype
        if want_dtype:
            exp = entry.get("shape", [])
            ok = dtype == want and len(shape) == len(exp) and all(
                e == "?" or e == d for e, d in zip(exp, shape))
            if not ok:
                raise InvalidArgumentError(
                    f"{self.name}: {self._arg_label(i)}: expected {_tensor_text(exp, want_dtype)}, "
                    f"got {_tensor_text(shape, _dtype_name(dtype))}")
        if arr is None:
            return value
        if not arr.flags.c_contiguous:          # (ascontiguousarray would make 0-d arrays 1-d)
            arr = arr.copy(order="C")
        device = self.module.device
        buffer = device.allocator.import_host(arr)
        return BufferView(buffer, arr.shape, arr.dtype)

    def _convert(self, args) -> list:
        params = self._sig.args
        if len(args) != len(params):
            wanted = ", ".join(f"{e.get('name', f'arg{i}')}: {self._describe(e, p)}"
                               for i, (e, p) in enumerate(zip(self.args, params)))
            raise InvalidArgumentError(f"{self.name} takes {len(params)} arguments "
                                       f"({wanted}), got {len(args)}")
        out = []
        for i, (p, v) in enumerate(zip(params, args)):
            entry = self.args[i] if i < len(self.args) else {}
            if p.bank == "ref":
                out.append(self._to_view(i, v, entry))
                continue
            try:
                out.append(coerce(p.bank, v.item() if isinstance(v, (np.ndarray, np.generic))
                                  and np.ndim(v) == 0 else v))
            except (TypeError, ValueError) as e:
                raise InvalidArgumentError(f"{self.name}: {self._arg_label(i)}: expected "
                                           f"{self._describe(entry, p)}, got {v!r} ({e})") from None
        return out

    def _wrap(self, results):
        from tensorvm.hal import BufferView
        out = [DeviceArray(r, self.module.device) if isinstance(r, BufferView) else r
               for r in results]
        if not out:
            return None
        return out[0] if len(out) == 1 else tuple(out)

    def __call__(self, *args):
        return self._wrap(self.module.context.invoke(self.handle, self._convert(args)))

    def begin(self, *args):
        """Start an invocation without running it (``Invocation.step()`` drives it)."""
        return self.module.context.begin_invoke(self.handle, self._convert(args))

    def finish(self, invocation):
        """Results of a completed invocation from ``begin``, wrapped like ``__call__``."""
        return self._wrap(invocation.results)


class Module:
    """A loaded module: exports as attributes / items, ``functions`` lists them."""

    def __init__(self, context: Context, bytecode: BytecodeModule, device):
        self.context, self.bytecode, self.device = context, bytecode, device
        self.name = bytecode.name
        self._functions = {}

    @property
    def functions(self) -> dict:
        """``{name: Function}`` of every public export (repr shows the signature)."""
        return {n: self[n] for n in self.bytecode.exports if not n.startswith("__")}

    def __getitem__(self, name: str) -> Function:
        fn = self._functions.get(name)
        if fn is None:
            if name not in self.bytecode.exports:
                raise KeyError(f"module '{self.name}' has no export '{name}' "
                               f"(exports: {', '.join(sorted(self.functions)) or 'none'})")
            fn = self._functions[name] = Function(self, self.context.lookup(f"{self.name}.{name}"))
        return fn

    def __getattr__(self, name: str) -> Function:
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            return self[name]
        except KeyError as e:
            raise AttributeError(str(e)) from None

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(self.functions))

    def __repr__(self):
        return f"<Module '{self.name}' on {getattr(self.device, 'name', self.device)}: " \
               f"{', '.join(sorted(self.functions))}>"


class Instance:
    """Process-level runtime state for embedding: native modules added to every
    context (user modules for custom calls) and the device cache."""

    def __init__(self, native_modules=()):
        self.native_modules = list(native_modules)

    def device(self, device="local-task"):
        return get_device(device)

    def load_module(self, source, device="local-task") -> Module:
        """Read (``bytes``/path/ModuleDef), verify, link with ``hal`` and run ``__init``."""
        from tensorvm.vmfb.model import ModuleDef
        if isinstance(source, ModuleDef):
            mdef = source
        else:
            from tensorvm.vmfb.container import read_module
            if not isinstance(source, (bytes, bytearray, memoryview, str, os.PathLike)):
                raise TypeError(f"load_module takes a path, bytes or ModuleDef, "
                                f"got {type(source).__name__}")
            mdef = read_module(source)
        bytecode = BytecodeModule.from_def(mdef)
        dev = self.device(device)
        from .modules.hal import HalModule
        natives = [HalModule()] + [m for m in self.native_modules if m.name != "hal"]
        ctx = Context(natives + [bytecode], device=dev)
        return Module(ctx, bytecode, dev)


_DEFAULT = Instance()


def load_module(path_or_bytes, device="local-task", *, native_modules=()) -> Module:
    """Load a ``.vmfb`` (path, bytes or ModuleDef) onto ``device`` (URI or Device)."""
    inst = Instance(native_modules) if native_modules else _DEFAULT
    return inst.load_module(path_or_bytes, device)
