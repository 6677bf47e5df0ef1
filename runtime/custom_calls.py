"""Host calls bound at load time: ``load_module(..., custom_calls={name: fn})``.

A module compiled with ``HostCall`` declarations imports ``custom.<name>``
(buffer views in, buffer views out).  ``CustomCallModule`` is the native
module that exports them: each call hands the operands to ``fn`` as numpy
arrays (views of host memory; copies read back from device memory) and
imports what ``fn`` returns (numpy arrays or any DLPack producer in host
memory; a tuple for several results) into the device, copied, so ``fn`` may
reuse its arrays.  The module's VM code checks each result's dtype and shape
against the declaration and raises naming the call.  A module that needs a
call that was not bound fails to load with ``MissingCustomCallError``.
"""
from __future__ import annotations

import numpy as np

from tensorvm.hal.buffer import BufferView

from . import dlpack
from .errors import LinkError
from .vm.native import NativeModule

MODULE = "custom"


class MissingCustomCallError(LinkError):
    """A module calls host functions (``custom_call`` of a ``HostCall``) that
    were not bound; ``names`` lists them."""

    def __init__(self, module: str, names):
        self.names = sorted(names)
        listed = ", ".join(f"'{n}'" for n in self.names)
        super().__init__(f"module '{module}' needs custom call(s) {listed}: bind them with "
                         f"load_module(..., custom_calls={{{self.names[0]!r}: fn, ...}})")


def needed(bytecode) -> dict:
    """``{name: calling convention}`` of the host calls a module imports."""
    return {name: sig for mod, name, sig, *_ in bytecode.imports if mod == MODULE}


class _State:
    __slots__ = ("device",)

    def __init__(self, device):
        self.device = device


class CustomCallModule(NativeModule):
    """The ``custom`` native module over ``{name: fn}`` (module docstring)."""

    name = MODULE

    def __init__(self, functions: dict, conventions: dict):
        for n, fn in functions.items():
            if not callable(fn):
                raise TypeError(f"custom_calls['{n}'] must be callable, got {type(fn).__name__}")
        self._fns = dict(functions)
        self._conventions = dict(conventions)

    def create_state(self, context):
        return _State(getattr(context, "device", None))

    def functions(self) -> dict:
        return {n: (self._conventions[n], _bind(n, fn, self._conventions[n].count("r", 0) -
                                                self._conventions[n].split("->")[0].count("r")))
                for n, fn in self._fns.items() if n in self._conventions}


def _bind(name, fn, n_results: int):
    def call(state, *views):
        results = fn(*[v.to_numpy() for v in views])
        if not isinstance(results, tuple):
            results = (results,)
        if len(results) != n_results:
            from .errors import InvalidArgumentError
            raise InvalidArgumentError(f"host call '{name}' returned {len(results)} value(s); "
                                       f"its declaration has {n_results} result(s)")
        return tuple(_import(state.device, name, k, r) for k, r in enumerate(results)) \
            if len(results) != 1 else _import(state.device, name, 0, results[0])
    call.__name__ = f"custom_{name.replace('.', '_')}"
    return call


def _import(device, name, k, value):
    what = f"host call '{name}': result #{k}"
    if dlpack.is_dlpack(value) and not isinstance(value, np.generic):
        value = dlpack.host_array(value, what)
    try:
        arr = np.array(value, copy=True, order="C")
    except (TypeError, ValueError) as e:
        from .errors import InvalidArgumentError
        raise InvalidArgumentError(f"{what}: cannot convert {type(value).__name__}: {e}") from None
    if arr.ndim == 0:       # import_host views memory as 1-d; the VM code re-checks the shape
        buf = device.allocator.import_host(arr.reshape(1))
    else:
        buf = device.allocator.import_host(arr)
    return BufferView(buf, arr.shape, arr.dtype)
