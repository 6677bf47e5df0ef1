"""Read-only host buffers whose bytes are checked on first use, range by range.

A module's constants are imported zero-copy from the mapped file, and their
checksums are checked when they are used, not when the module loads (a load
must cost nothing per constant byte).  ``CheckedBuffer`` carries the check:
``check(offset, length)`` raises (the importer's typed error, e.g. a
VmfbError naming the damaged bytes) unless those bytes are intact, and
returns True once the whole buffer has been checked.

* A recorded dispatch binding, copy source or binding-table slot checks the
  range it covers (``checked``) and records a plain alias of the same
  memory, so a kernel sees only checked bytes and later uses of other
  ranges are still checked.
* Any other access (``storage``, ``address``, ``map``, a BufferView read
  by the user, a subspan) checks the whole buffer first.

Once every byte is checked the buffer costs one attribute test per access.
"""
from __future__ import annotations

from .buffer import Buffer


class CheckedBuffer(Buffer):
    """A read-only Buffer over ``storage`` whose bytes ``check`` verifies on first use."""

    __slots__ = ("_check", "_plain")

    def __init__(self, storage, memory_type, allocator, check):
        super().__init__(storage, memory_type, False, allocator)
        self._check = check
        self._plain = Buffer(storage, memory_type, False, allocator)

    def checked(self, offset: int, length: int) -> Buffer:
        """A plain alias of this buffer after checking [offset, offset+length)."""
        check = self._check
        if check is not None and check(offset, length):
            self._check = None
        return self._plain

    def _check_all(self) -> None:
        if self._check is not None:
            self.checked(0, self.byte_length)

    @property
    def storage(self):
        self._check_all()
        return Buffer.storage.fget(self)

    @property
    def address(self) -> int:
        self._check_all()
        return Buffer.address.fget(self)

    def read(self, offset: int = 0, length=None) -> bytes:
        length = self.check_range(offset, length, "read")
        return self.checked(offset, length).read(offset, length)

    def subspan(self, offset: int, length=None) -> Buffer:
        length = self.check_range(offset, length, "subspan")
        return self.checked(offset, length).subspan(offset, length)

    def release(self) -> None:
        Buffer.release(self)
        self._plain.release()

    @property
    def fully_checked(self) -> bool:
        return self._check is None

    def __repr__(self):
        state = "" if self._check is None else " unchecked"
        return Buffer.__repr__(self)[:-1] + state + ">"
