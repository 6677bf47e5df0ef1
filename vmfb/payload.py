"""Section payloads that the writer streams instead of holding as one buffer.

``RodataDef.data`` (and any section's data) may be bytes-like, or one of:

* ``Pieces(length, pieces)``: consecutive bytes-like pieces (numpy arrays,
  memoryviews, mmaps), e.g. the compiler's packed constants without
  concatenating them; ``pieces`` is a sequence, or a callable returning a
  fresh iterator each time (it may then produce chunks lazily).
* ``FileRange(path, offset, length)``: bytes of a file, read block by block
  when written (a weights file the module should carry unchanged).

``container.write_module_to`` reads each such payload once, in order, so a
module with many GiB of constants is written with one block in memory at a
time.  Code that needs the bytes themselves (``load_module`` of a ModuleDef,
the disassembler) calls ``as_bytes``.
"""
from __future__ import annotations

import os

from .errors import VmfbError

READ_BLOCK = 16 << 20


class Payload:
    """Base of streamed payloads: ``len()`` and ``iter_pieces()``."""

    length: int

    def __len__(self) -> int:
        return self.length

    def iter_pieces(self):
        raise NotImplementedError

    def tobytes(self) -> bytes:
        """The whole payload in memory (VmfbError if the source's length is off)."""
        out = bytearray(self.length)
        pos = 0
        for piece in checked_pieces(self):
            out[pos:pos + len(piece)] = piece
            pos += len(piece)
        return bytes(out)


class Pieces(Payload):
    """``length`` bytes given as consecutive bytes-like pieces."""

    def __init__(self, length: int, pieces):
        if not isinstance(length, int) or length < 0:
            raise VmfbError(f"Pieces: length must be an int >= 0, got {length!r}")
        self.length, self._pieces = length, pieces

    def iter_pieces(self):
        return iter(self._pieces() if callable(self._pieces) else self._pieces)

    @classmethod
    def of(cls, pieces) -> "Pieces":
        """A Pieces of a sequence of bytes-like objects, its length summed."""
        pieces = [_view(p) for p in pieces]
        return cls(sum(p.nbytes for p in pieces), pieces)


class FileRange(Payload):
    """Bytes [offset, offset + length) of the file at ``path``."""

    def __init__(self, path, offset: int = 0, length: int | None = None):
        self.path, self.offset = os.fspath(path), offset
        size = os.stat(self.path).st_size
        if length is None:
            length = size - offset
        if offset < 0 or length < 0 or offset + length > size:
            raise VmfbError(f"FileRange [{offset}, {offset}+{length}) lies outside "
                            f"{self.path} ({size} bytes)")
        self.length = length

    def iter_pieces(self):
        with open(self.path, "rb") as f:
            f.seek(self.offset)
            left = self.length
            while left:
                block = f.read(min(left, READ_BLOCK))
                if not block:
                    return                       # shrank since: checked_pieces says so
                left -= len(block)
                yield block


def _view(data) -> memoryview:
    try:
        return memoryview(data).cast("B")
    except TypeError:
        raise VmfbError(f"section data must be bytes-like, Pieces or FileRange, "
                        f"got {type(data).__name__}") from None


def source(data):
    """``data`` as the writer takes it: a Payload, or a flat byte memoryview."""
    return data if isinstance(data, Payload) else _view(data)


def checked_pieces(data):
    """The pieces of a payload (a memoryview is one piece), as flat byte views;
    VmfbError when they do not add up to its declared length."""
    if not isinstance(data, Payload):
        yield data
        return
    total = 0
    for piece in data.iter_pieces():
        view = _view(piece)
        total += view.nbytes
        if total > data.length:
            break
        yield view
    if total != data.length:
        raise VmfbError(f"{type(data).__name__} payload declared {data.length} bytes but "
                        f"its pieces hold {'more' if total > data.length else total}")


def as_bytes(data):
    """Bytes-like ``data`` unchanged; a Payload read into memory."""
    return data.tobytes() if isinstance(data, Payload) else data
