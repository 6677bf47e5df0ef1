"""A module's constants (rodata) as the VM and the HAL use them.

``RodataViews[i]`` is rodata ``i`` as a read-only memoryview, every byte's
checksum checked first (the VM's byte-buffer ops read it directly).  A
ref-global initializer that imports a constant into a device buffer
(``hal.allocator.import``, how compiled modules hold their weights) gets a
``LazyRodata`` instead: the unchecked view with the reader's RangeCheck,
which the host allocator turns into a CheckedBuffer whose ranges are
checked when a kernel or the user first uses them (hal/checked_buffer.py).
So a load does no work per constant byte (docs/security.md).
"""
from __future__ import annotations

from tensorvm.vmfb.payload import as_bytes


class LazyRodata:
    """An unchecked constant and the check its bytes must pass before use."""

    __slots__ = ("view", "check")

    def __init__(self, view: memoryview, check):
        self.view, self.check = view, check

    def import_into(self, allocator):
        """A buffer of ``allocator`` over the constant, checked on use."""
        return allocator.import_checked(self.view, self.check.check)


class RodataViews:
    """The module's rodata, each made into a view when first used."""

    __slots__ = ("_defs", "_views")

    def __init__(self, defs):
        self._defs, self._views = defs, [None] * len(defs)

    def __len__(self):
        return len(self._defs)

    def __getitem__(self, i):
        v = self._views[i]
        if v is None:
            v = self._views[i] = _readonly_bytes(self._defs[i].data)
        return v

    def lazy(self, i):
        """Rodata ``i`` for an import into a device buffer: a LazyRodata
        when the reader left its checksums to check on use, else the view."""
        check = self._defs[i].check
        if check is None or check.complete or self._views[i] is not None:
            return self[i]
        return LazyRodata(_readonly_bytes(check.data), check)

    def check_all(self) -> None:
        """Check every constant's bytes now (``verify="eager"``)."""
        for i in range(len(self._defs)):
            self[i]


def _readonly_bytes(data) -> memoryview:
    mv = memoryview(as_bytes(data))
    if mv.ndim != 1 or mv.format != "B":
        mv = mv.cast("B")
    return mv.toreadonly()
