"""MLIR input with its long hex strings decoded in bulk, off the text.

Weights arrive as ``dense<"0x...">`` literals and ``{-# dialect_resources #-}``
blobs: hundreds of MB of hex that a token-level parser would match, slice and
unescape several times over.  ``read_source`` finds each long hex string with
``find`` (memchr speed), decodes it with ``binascii.unhexlify`` straight from
the input buffer (a ``str``, ``bytes`` or the mmap of a file), and leaves an
empty ``""`` in a short *skeleton* text that the parser reads; the decoded
bytes wait under the placeholder's offset (``Source.blobs``).  Only strings
right after ``dense<`` or, inside the resource section, after ``name:`` are
cut; one that is not pure hex stays in the text for the parser to report.

Hex holds no newline, so line numbers are unchanged; ``Source.column_shift``
gives back what was cut before a position on its line, so errors still name
the input's own columns.
"""
from __future__ import annotations

import binascii
import bisect
import mmap

import numpy as np

#: Hex strings shorter than this stay in the text (the ordinary path).
MIN_CUT_HEX = 512


class NotUtf8Error(ValueError):
    """The input holds a byte sequence that is not UTF-8 (line and column of it)."""

    def __init__(self, skeleton: bytes, at: int):
        self.line = skeleton.count(b"\n", 0, at) + 1
        self.column = at - (skeleton.rfind(b"\n", 0, at) + 1) + 1      # (a byte column)
        super().__init__(f"the input is not UTF-8 text (byte 0x{skeleton[at]:02x} at line "
                         f"{self.line}); is it MLIR bytecode or a binary file?")


class Source:
    """The skeleton text, the decoded blobs and the cut map."""
    __slots__ = ("text", "blobs", "_cut_at", "_cut_total", "input_bytes")

    def __init__(self, text: str, blobs: dict, cuts: list, input_bytes: int):
        self.text = text
        self.blobs = blobs              # skeleton offset of a placeholder's '"' -> bytes
        self._cut_at = [p for p, _ in cuts]          # skeleton offsets after each cut
        self._cut_total, total = [], 0               # characters cut up to each
        for _, n in cuts:
            total += n
            self._cut_total.append(total)
        self.input_bytes = input_bytes

    def __len__(self) -> int:
        """The input's size (what progress reports as the parsed bytes)."""
        return self.input_bytes

    @property
    def blob_bytes(self) -> int:
        return sum(len(b) for b in self.blobs.values())

    def column_shift(self, line_start: int, pos: int) -> int:
        """Characters cut from the skeleton between ``line_start`` and ``pos``."""
        hi = bisect.bisect_right(self._cut_at, pos)
        lo = bisect.bisect_right(self._cut_at, line_start)
        if hi == lo:
            return 0
        return self._cut_total[hi - 1] - (self._cut_total[lo - 1] if lo else 0)


def read_source(data) -> Source:
    """Cut and decode the long hex strings of MLIR ``data`` (str or bytes-like
    with ``find``: bytes, bytearray, mmap).  NotUtf8Error if the remaining
    bytes are not UTF-8."""
    is_text = isinstance(data, str)
    quote, hexstart = ('"', '"0x') if is_text else (b'"', b'"0x')
    scan = _Scan(data)
    pieces, blobs, cuts = [], {}, []
    pos = 0            # input offset copied up to
    skel = 0           # skeleton length so far
    i = data.find(hexstart)
    while i >= 0:
        j = scan.find(quote, i + 3)
        if j < 0:
            break
        if j - i - 3 >= MIN_CUT_HEX and scan.cuttable(i):
            raw = scan.unhex(i + 3, j)
            if raw is not None:          # else not hex: the parser says where
                pieces.append(data[pos:i + 1])
                skel += i + 1 - pos
                blobs[skel - 1] = raw
                cuts.append((skel, j - i - 1))
                pos = scan.checked = j
        i = data.find(hexstart, j + 1)
    pieces.append(data[pos:])
    scan.close()
    if is_text:
        text = "".join(pieces)
    else:
        raw_text = b"".join(pieces)
        try:
            text = raw_text.decode("utf-8")
        except UnicodeDecodeError as e:
            raise NotUtf8Error(raw_text, e.start) from None
        if len(text) != len(raw_text):      # columns count characters, not bytes
            blobs, cuts = _to_char_offsets(raw_text, blobs, cuts)
    return Source(text, blobs, cuts, len(data))


class _Scan:
    """Finding and decoding over the input a slab at a time.  For an mmap,
    each slab read is handed back to the kernel (``MADV_DONTNEED``; the file
    stays in the page cache), so the hex does not stay resident beside what
    it decodes to: peak memory is the decoded bytes plus one slab."""
    SLAB = 1 << 24

    def __init__(self, data):
        self.data = data
        self.is_text = isinstance(data, str)
        self.view = data if self.is_text else memoryview(data)
        self.mapped = isinstance(data, mmap.mmap) and hasattr(mmap, "MADV_DONTNEED")
        self.resources_at = -1          # where '{-#' opens the resource section
        self.checked = 0                # searched for it up to here (cut hex skipped)

    def cuttable(self, i: int) -> bool:
        """Whether the string at ``i`` is a dense literal's or a resource blob's."""
        before = self.data[max(0, i - 32):i]
        if not self.is_text:
            before = before.decode("latin-1")
        before = before.rstrip()
        if before.endswith("dense<"):
            return True
        if not before.endswith(":"):
            return False
        if self.resources_at < 0:
            self.resources_at = self.data.find("{-#" if self.is_text else b"{-#",
                                               self.checked, i)
            self.checked = i
        return 0 <= self.resources_at < i

    def find(self, needle, start: int) -> int:
        data, slab = self.data, self.SLAB
        while True:
            j = data.find(needle, start, start + slab)
            if j >= 0 or start + slab >= len(data):
                return j
            self._release(start, start + slab)
            start += slab

    def unhex(self, a: int, b: int):
        """The bytes the hex digits [a, b) stand for, as ``bytes`` or a uint8
        array (None if not hex)."""
        if (b - a) % 2:
            return None
        if not self.mapped:
            try:
                return binascii.unhexlify(self.view[a:b])
            except (binascii.Error, ValueError):
                return None
        out = np.empty((b - a) // 2, np.uint8)      # not zeroed: each page written once
        try:
            for s in range(a, b, self.SLAB):
                e = min(b, s + self.SLAB)
                out[(s - a) // 2:(e - a) // 2] = np.frombuffer(
                    binascii.unhexlify(self.view[s:e]), np.uint8)
                self._release(s, e)
        except (binascii.Error, ValueError):
            return None
        return out

    def _release(self, a: int, b: int):
        if self.mapped:
            a -= a % mmap.PAGESIZE
            self.data.madvise(mmap.MADV_DONTNEED, a, b - a)

    def close(self):
        if not self.is_text:
            self.view.release()


def _to_char_offsets(raw: bytes, blobs: dict, cuts: list) -> tuple:
    """``blobs`` and ``cuts`` keyed by character offsets of UTF-8 ``raw``."""
    marks = sorted({*blobs, *(p for p, _ in cuts)})
    char_of, done, chars = {}, 0, 0
    for m in marks:                  # each mark sits in ASCII (a quote), so slices decode
        chars += len(raw[done:m].decode("utf-8"))
        char_of[m], done = chars, m
    return ({char_of[k]: v for k, v in blobs.items()},
            [(char_of[p], n) for p, n in cuts])
