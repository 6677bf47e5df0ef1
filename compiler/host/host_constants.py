"""Host values known at compile time, bound from module rodata instead of
uploaded at every call.

A general function (host_program.py) keeps host values in VM registers and
uploads one to the device when a kernel reads it: a VM buffer is allocated,
filled and imported as a HAL buffer, per call.  When every element of the
value is a constant register (a ``stablehlo.constant`` the host-values pass
kept on the host, a literal of the lowering), those bytes are the same at
every call: they go into the module's rodata once, imported at load like a
device constant, and the call only loads the global.  A JAX decoder's
prefill uploaded ~30 such scalars (softmax scales, masks' fill values) per
call, each a few Python-level HAL calls.

Constant registers are tracked by the host function builder (``_FunctionAsm``
records each ``const.<bank>`` it emits); a value with a NaN element keeps the
upload path, since a constant is keyed by its float's repr, which does not
carry a NaN's payload.
"""
from __future__ import annotations

import math

import numpy as np

from ..ir.types import numpy_dtype


class HostConstantPool:
    """The module's compile-time host values: bytes -> rodata ordinal, deduplicated."""

    PREFIX = "h"          # rodata @h<i>, global @__h<i>

    def __init__(self):
        self.blobs: list[bytes] = []
        self._index: dict[bytes, int] = {}

    def global_for(self, data: bytes) -> str:
        """The global holding ``data`` (registered on first use)."""
        i = self._index.get(data)
        if i is None:
            i = self._index[data] = len(self.blobs)
            self.blobs.append(data)
        return f"__{self.PREFIX}{i}"

    def rodata(self) -> list[tuple[str, str, bytes]]:
        """(rodata name, global name, bytes) per registered value."""
        return [(f"{self.PREFIX}{i}", f"__{self.PREFIX}{i}", b) for i, b in enumerate(self.blobs)]


def constant_bytes(const_values: dict, regs: list, element: str, nbytes: int) -> bytes | None:
    """The device bytes of a host value whose registers are all constants
    (``const_values``: register -> (bank, value text)), padded to ``nbytes``;
    None when one is not a constant or is a NaN."""
    try:
        dtype = numpy_dtype(element)
    except (KeyError, TypeError):
        return None
    item = dtype.itemsize
    out = bytearray()
    for r in regs:
        known = const_values.get(r)
        if known is None:
            return None
        bank, value = known
        if bank in ("f32", "f64"):
            x = float(value)
            if math.isnan(x):
                return None
            out += np.array(x, dtype=dtype).tobytes()
        else:
            out += (int(value) & ((1 << (8 * item)) - 1)).to_bytes(item, "little")
    return bytes(out) + bytes(max(0, nbytes - len(out)))
