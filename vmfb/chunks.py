"""CRC-32 of large payloads by chunk (vmfb 1.4, docs/vmfb.md section 3).

A rodata section longer than ``CHUNK_BYTES`` carries, beside the CRC of its
whole payload, the CRC of each ``chunk_size`` chunk.  The writer computes
both in one pass (``ChunkCrc``); the reader checks a byte range by checking
the chunks it overlaps, each chunk once (``RangeCheck``), so a load does no
work per constant byte and a constant's first use pays only for the chunks
it touches.
"""
from __future__ import annotations

import struct
import threading
import zlib

from .errors import VmfbError

CHUNK_BYTES = 1 << 20               # what the writer uses
MIN_CHUNK_BYTES = 1 << 12           # what a reader accepts: 4 KiB .. 1 GiB, powers of two
MAX_CHUNK_BYTES = 1 << 30


def chunk_count(length: int, chunk_size: int) -> int:
    return -(-length // chunk_size)


class ChunkCrc:
    """The CRC-32 of a payload fed piece by piece, and of each chunk of it."""

    def __init__(self, chunk_size: int = CHUNK_BYTES):
        self.chunk_size = chunk_size
        self.crc = 0                 # of everything fed so far
        self._chunk, self._filled = 0, 0
        self._crcs = bytearray()

    def update(self, piece) -> None:
        view = memoryview(piece).cast("B")
        self.crc = zlib.crc32(view, self.crc)
        size = self.chunk_size
        while view.nbytes:
            take = min(view.nbytes, size - self._filled)
            self._chunk = zlib.crc32(view[:take], self._chunk)
            self._filled += take
            view = view[take:]
            if self._filled == size:
                self._crcs += struct.pack("<I", self._chunk)
                self._chunk, self._filled = 0, 0

    def chunk_crcs(self) -> bytes:
        """Each chunk's CRC, little-endian u32 (the last chunk may be short)."""
        tail = struct.pack("<I", self._chunk) if self._filled else b""
        return bytes(self._crcs) + tail


class RangeCheck:
    """Checks one payload against its CRCs, range by range, each chunk once.

    A payload without chunk CRCs is one chunk (its section ``crc32``).  A
    damaged chunk raises VmfbError every time a range over it is checked,
    naming the section and the damaged bytes."""

    __slots__ = ("data", "label", "chunk_size", "_crcs", "_done", "_left", "_lock")

    def __init__(self, data: memoryview, label: str, crc32: int, chunk_size=None,
                 chunk_crcs=None):
        self.data, self.label = data, label
        n = data.nbytes
        if chunk_crcs is None:
            self.chunk_size, self._crcs = max(n, 1), struct.pack("<I", crc32)
        else:
            self.chunk_size, self._crcs = chunk_size, chunk_crcs
        self._left = chunk_count(n, self.chunk_size)
        self._done = bytearray(self._left)
        self._lock = threading.Lock()

    @property
    def complete(self) -> bool:
        """Whether every chunk has been checked (and found intact)."""
        return not self._left

    @property
    def unchecked_chunks(self) -> int:
        return self._left

    def check(self, offset: int, length: int) -> bool:
        """VmfbError unless bytes [offset, offset+length) are intact; returns
        ``complete`` (the caller may stop asking)."""
        if not self._left or length <= 0:
            return not self._left
        size, done = self.chunk_size, self._done
        first = max(offset, 0) // size
        last = min(chunk_count(offset + length, size), len(done))
        for k in range(first, last):
            if not done[k]:
                self._check_chunk(k)
        return not self._left

    def check_all(self) -> memoryview:
        """The payload, every chunk checked (VmfbError if one is damaged)."""
        self.check(0, self.data.nbytes)
        return self.data

    def _check_chunk(self, k: int) -> None:
        size = self.chunk_size
        begin = k * size
        end = min(begin + size, self.data.nbytes)
        if zlib.crc32(self.data[begin:end]) != struct.unpack_from("<I", self._crcs, 4 * k)[0]:
            raise VmfbError(f"{self.label} checksum mismatch in bytes [{begin}, {end}): "
                            f"the data is damaged")
        with self._lock:                 # (two threads may check one chunk: count it once)
            if not self._done[k]:
                self._done[k] = 1
                self._left -= 1
