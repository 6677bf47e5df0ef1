"""The .vmfb container, format v1.0 (byte layout: docs/vmfb.md).

    [0, 64)        fixed prefix: magic, version, file length, header
                   offset/length/CRC-32, CRC-32 of the prefix itself
    [64, ...)      msgpack header (module tables + section table)
    sections       payloads (bytecode, rodata, executables), each starting
                   at a multiple of 64 (or of the rodata's larger alignment)

The reader returns every payload as a read-only memoryview into the source
(an mmap for paths), so constants and executables are used zero-copy; the
views keep the mmap alive.  Any defect raises VmfbError naming it.
"""
from __future__ import annotations

import hashlib
import io
import mmap
import os
import struct
import zlib

import msgpack

from . import chunks as _chunks
from . import header as _header
from . import payload as _payload
from .errors import IntegrityError, VmfbError
from .model import Deferred, Initializer, ModuleDef

MAGIC = b"\x89TVMFB\r\n"
VERSION_MAJOR = 1
VERSION_MINOR = 4           # the newest minor this reader reads (and writes when used)
ALIGNMENT = 64
PREFIX = struct.Struct("<8sHHIQQQI16sI")
assert PREFIX.size == 64
MAX_HEADER_BYTES = 1 << 28


def _align(n: int, a: int) -> int:
    return (n + a - 1) // a * a


def _crc(data) -> int:
    return zlib.crc32(data) & 0xFFFFFFFF


def write_module(module: ModuleDef) -> bytes:
    """Serialise ``module`` (VmfbError if it does not fit the schema)."""
    out = io.BytesIO()
    write_module_to(module, out)
    return out.getvalue()


def write_module_to(module: ModuleDef, out) -> int:
    """Stream ``module`` to ``out`` (a path, or a seekable binary file at
    position 0); returns the file's length.  Payloads are read once, in
    file order, a block at a time (``vmfb.payload``: Pieces, FileRange), so
    writing many GiB of constants holds none of them twice."""
    if isinstance(out, (str, os.PathLike)):
        with open(out, "wb") as f:
            return write_module_to(module, f)
    payloads = []

    def add_section(kind, data, alignment):
        payloads.append((kind, _payload.source(data), alignment))
        return len(payloads) - 1

    try:
        hdr = _header.to_header(module, add_section)
    except (AttributeError, TypeError, ValueError) as e:
        if isinstance(e, VmfbError):
            raise
        raise VmfbError(f"cannot write module: {e}") from None
    # Laid out with the widest CRC values: the real header is no longer, and
    # the sections are written (and checksummed) before it.
    hdr["sections"] = [_section_entry(k, len(v)) for k, v, _ in payloads]
    _header.validate(hdr)
    start, packed = _layout(hdr, payloads)
    out.write(bytes(start))
    for entry, (kind, data, _) in zip(hdr["sections"], payloads):
        out.write(bytes(entry["offset"] - out.tell()))
        crc = _chunks.ChunkCrc(entry.get("chunk_size", _chunks.CHUNK_BYTES))
        for piece in _payload.checked_pieces(data):
            crc.update(piece)
            out.write(piece)
        entry["crc32"] = crc.crc
        if "chunk_crc32" in entry:
            entry["chunk_crc32"] = crc.chunk_crcs()
    packed = msgpack.packb(hdr, use_bin_type=True)
    total = out.tell() if payloads else PREFIX.size + len(packed)
    # The lowest minor whose features the file uses: 1.4 for chunk CRCs, 1.3
    # for ref-global initializers (a 1.2 reader rejects those by name).
    minor = 4 if any("chunk_crc32" in e for e in hdr["sections"]) else \
        3 if any(g.initial.__class__ is Initializer for g in module.globals) else 2
    prefix = PREFIX.pack(MAGIC, VERSION_MAJOR, minor, 0, total, PREFIX.size,
                         len(packed), _crc(packed), bytes(16), 0)
    out.seek(0)
    out.write(prefix[:60] + struct.pack("<I", _crc(prefix[:60])) + packed)
    out.seek(total)
    out.truncate()
    return total


def _section_entry(kind: str, length: int) -> dict:
    entry = {"offset": 0, "length": length, "crc32": 0xFFFFFFFF, "kind": kind}
    if kind == "rodata" and length > _chunks.CHUNK_BYTES:
        entry["chunk_size"] = _chunks.CHUNK_BYTES
        entry["chunk_crc32"] = bytes(4 * _chunks.chunk_count(length, _chunks.CHUNK_BYTES))
    return entry


def _layout(hdr: dict, payloads: list) -> tuple:
    """Set each section's offset; returns (first section offset, packed header).
    Offsets depend on the header's length and vice versa: iterate to a fixed point."""
    packed, start = b"", None
    for _ in range(16):
        try:
            packed = msgpack.packb(hdr, use_bin_type=True)
        except (TypeError, ValueError, OverflowError) as e:
            raise VmfbError(f"cannot write module: header not serialisable: {e}") from None
        new_start = _align(PREFIX.size + len(packed), ALIGNMENT)
        if new_start == start:
            return start, packed
        start, pos = new_start, new_start
        for entry, (_, view, alignment) in zip(hdr["sections"], payloads):
            pos = _align(pos, alignment)
            entry["offset"] = pos
            pos += len(view)
    raise VmfbError("cannot lay out sections")  # pragma: no cover - lengths only grow


def read_module(source, verify_checksums: bool = True, expected_sha256: str | None = None
                ) -> ModuleDef:
    """Read a module from bytes-like ``source`` or a path (mmap'd read-only).

    Each section's CRC is checked when its payload is first read (a
    function's ``code``, a variant's ``data``, a rodata's ``data``: VmfbError
    then); ``verify_checksums=False`` skips them (the prefix and header CRCs
    are always checked, here: they are small and guard the parser).
    ``expected_sha256`` (hex) pins the module: IntegrityError unless the bytes
    have that digest; the digest covers every byte, so no section CRC is
    checked after it.  A pinned path is read into private memory rather than
    mapped, so the file cannot change under the checked bytes.
    """
    if expected_sha256 is not None:
        return _read_pinned(source, expected_sha256)
    if isinstance(source, (str, os.PathLike)):
        view = _map_file(source)
    elif isinstance(source, (bytes, bytearray, memoryview, mmap.mmap)):
        view = memoryview(source)
        if view.ndim != 1 or view.itemsize != 1:
            view = view.cast("B")
        view = view.toreadonly()
    else:
        raise TypeError(f"read_module takes bytes-like data or a path, "
                        f"not {type(source).__name__}")
    return _read(view, verify_checksums)


def sha256_hex(data) -> str:
    """The hex SHA-256 digest of bytes-like ``data`` (what pinning compares)."""
    return hashlib.sha256(data).hexdigest()


def check_digest(data, expected: str) -> None:
    """IntegrityError unless bytes-like ``data`` has the hex SHA-256 ``expected``
    (ValueError if ``expected`` is not 64 hex digits)."""
    if not isinstance(expected, str) or len(expected) != 64 or \
            any(c not in "0123456789abcdefABCDEF" for c in expected):
        raise ValueError(f"expected_sha256 must be 64 hex digits, got {expected!r}")
    got = sha256_hex(data)
    if got != expected.lower():
        raise IntegrityError(f"module digest mismatch: SHA-256 is {got}, "
                             f"expected {expected.lower()}")


def _read_pinned(source, expected: str) -> ModuleDef:
    if isinstance(source, (str, os.PathLike)):
        with open(source, "rb") as f:
            source = f.read()
    elif not isinstance(source, (bytes, bytearray, memoryview, mmap.mmap)):
        raise TypeError(f"read_module takes bytes-like data or a path, "
                        f"not {type(source).__name__}")
    check_digest(source, expected)
    # The digest covers every byte: the sections' CRCs could add nothing.
    return read_module(source, verify_checksums=False)


def _map_file(path) -> memoryview:
    with open(path, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        if size == 0:
            raise VmfbError(f"{os.fspath(path)}: file is empty (0 bytes), not a vmfb")
        return memoryview(mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ))


def read_prefix(view: memoryview) -> tuple:
    """Check and unpack the 64-byte prefix; returns (major, minor,
    file_length, header_offset, header_length, header_crc32)."""
    n = len(view)
    if n < 12:
        raise VmfbError(f"truncated: {n} bytes is shorter than the vmfb magic and version")
    if bytes(view[:8]) != MAGIC:
        raise VmfbError(f"bad magic {bytes(view[:8])!r}: not a vmfb file (expected {MAGIC!r})")
    major, minor = struct.unpack_from("<HH", view, 8)
    if major != VERSION_MAJOR:
        raise VmfbError(f"unsupported vmfb format version {major}.{minor}; this reader "
                        f"reads version {VERSION_MAJOR}.x")
    if n < PREFIX.size:
        raise VmfbError(f"truncated: {n} bytes is shorter than the {PREFIX.size}-byte prefix")
    fields = PREFIX.unpack_from(view, 0)
    if _crc(view[:60]) != fields[9]:
        raise VmfbError("fixed header checksum mismatch (bytes 0-59 are damaged)")
    _, major, minor, _, length, h_off, h_len, h_crc, _, _ = fields
    if length != n:
        what = "truncated" if n < length else "trailing bytes"
        raise VmfbError(f"{what}: the header says the file is {length} bytes, got {n}")
    if h_off < PREFIX.size or h_len > MAX_HEADER_BYTES or h_off + h_len > n:
        raise VmfbError(f"msgpack header [{h_off}, {h_off + h_len}) lies outside the file "
                        f"({n} bytes, header must start at or after byte {PREFIX.size})")
    return major, minor, length, h_off, h_len, h_crc


def _unpack_header(raw: memoryview):
    return _header.unpack_one(raw, "malformed msgpack header")


def _read(view: memoryview, verify: bool) -> ModuleDef:
    _, _, length, h_off, h_len, h_crc = read_prefix(view)
    raw = view[h_off:h_off + h_len]
    if _crc(raw) != h_crc:
        raise VmfbError("msgpack header checksum mismatch (the header is damaged)")
    hdr = _header.validate(_unpack_header(raw))
    sections = hdr["sections"]
    # Bounds, alignment, overlap (with each other and with prefix and header).
    required = {i: ALIGNMENT for i in range(len(sections))}
    for r in hdr["rodata"]:
        required[r["section"]] = max(required[r["section"]], r["alignment"])
    spans = [(0, PREFIX.size, "the fixed prefix"), (h_off, h_off + h_len, "the msgpack header")]
    for i, s in enumerate(sections):
        off, ln = s["offset"], s["length"]
        if off % required[i]:
            raise VmfbError(f"section {i} ({s['kind']}) at offset {off} is not aligned to "
                            f"{required[i]} bytes")
        if off + ln > length:
            raise VmfbError(f"section {i} ({s['kind']}) [{off}, {off + ln}) runs past the end "
                            f"of the file ({length} bytes)")
        if ln:
            spans.append((off, off + ln, f"section {i} ({s['kind']})"))
    spans.sort()
    for (a0, a1, an), (b0, b1, bn) in zip(spans, spans[1:]):
        if b0 < a1:
            raise VmfbError(f"{bn} [{b0}, {b1}) overlaps {an} [{a0}, {a1})")

    def section_data(index):
        s = sections[index]
        return view[s["offset"]:s["offset"] + s["length"]]

    if not verify:
        return _header.from_header(hdr, section_data)
    checks = {}

    def range_check(index):
        """The one RangeCheck of a section (rodata: checked range by range)."""
        c = checks.get(index)
        if c is None:
            s = sections[index]
            c = checks[index] = _chunks.RangeCheck(
                section_data(index), f"section {index} ({s['kind']})", s["crc32"],
                s.get("chunk_size"), s.get("chunk_crc32"))
        return c

    # Each payload's CRC is checked when it is first read (a function's code
    # when it is verified, a kernel's when it is loaded, a constant's bytes
    # range by range as they are used), not here: a load costs nothing per
    # byte of code or data it does not use.
    return _header.from_header(hdr, lambda index: Deferred(lambda: range_check(index).check_all()),
                               range_check)
