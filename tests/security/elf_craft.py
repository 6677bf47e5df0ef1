"""Crafting hostile shared objects from gcc's output (tests/security).

Each helper takes the bytes of a shared object the system compiler built and
patches its ELF64 little-endian headers the way an attacker would, so the
attack suite builds every exploit itself instead of shipping binaries.
"""
from __future__ import annotations

import os
import struct
import subprocess
import tempfile

CC = os.environ.get("CC", "cc")
PT_LOAD, PT_DYNAMIC, PT_INTERP, PT_NOTE = 1, 2, 3, 4
DT_NULL, DT_NEEDED, DT_INIT, DT_RPATH = 0, 1, 12, 15
DT_INIT_ARRAY, DT_INIT_ARRAYSZ, DT_RUNPATH = 25, 27, 29
DT_PREINIT_ARRAY, DT_PREINIT_ARRAYSZ = 32, 33
_EHDR = struct.Struct("<HHIQQQIHHHHHH")      # from e_type (offset 16)
_PHDR = struct.Struct("<IIQQQQQQ")
_DYN = struct.Struct("<qQ")


def build(source: str, *flags: str, cwd: str | None = None) -> bytes:
    """``source`` compiled by the system C compiler with ``flags``."""
    with tempfile.TemporaryDirectory() as d:
        src, out = os.path.join(d, "k.c"), os.path.join(d, "k.so")
        with open(src, "w") as f:
            f.write(source)
        subprocess.run([CC, "-fPIC", "-O1", src, "-o", out, *flags], check=True,
                       capture_output=True, cwd=cwd or d)
        with open(out, "rb") as f:
            return f.read()


def header(data) -> dict:
    names = ("type machine version entry phoff shoff flags ehsize phentsize phnum shentsize "
             "shnum shstrndx").split()
    return dict(zip(names, _EHDR.unpack_from(data, 16)))


def set_header(data: bytearray, **fields) -> None:
    h = header(data)
    h.update(fields)
    _EHDR.pack_into(data, 16, *h.values())


def phdrs(data) -> list:
    """[(file offset of the entry, [type, flags, offset, vaddr, paddr, filesz, memsz, align])]."""
    h = header(data)
    return [(h["phoff"] + i * _PHDR.size, list(_PHDR.unpack_from(data, h["phoff"] + i * _PHDR.size)))
            for i in range(h["phnum"])]


def set_phdr(data: bytearray, at: int, fields: list) -> None:
    _PHDR.pack_into(data, at, *fields)


def segment(data, p_type: int):
    """The first program header of ``p_type``, as in :func:`phdrs`."""
    return next((at, ph) for at, ph in phdrs(data) if ph[0] == p_type)


def dynamic(data) -> list:
    """The dynamic entries up to DT_NULL, read where the loader reads them
    (gcc's output has PT_DYNAMIC's file offset and address agree)."""
    _at, ph = segment(data, PT_DYNAMIC)
    out = []
    for tag, val in _DYN.iter_unpack(bytes(data[ph[2]:ph[2] + ph[5]])):
        if tag == DT_NULL:
            break
        out.append((tag, val))
    return out


def strip_sections(data: bytearray) -> None:
    """Drop the section header table: the loader never reads it."""
    set_header(data, shoff=0, shnum=0, shstrndx=0)


def hide_dynamic(data: bytes, drop=(), retag=None) -> bytes:
    """The exploit of issue 37: append a copy of the dynamic table without the
    tags in ``drop``, point PT_DYNAMIC's *file offset* at it and remove the
    section headers.  The loader still reads the original table at
    PT_DYNAMIC's address.  ``retag`` ({old: new}) first renames tags in the
    original table (the copy shows neither)."""
    out = bytearray(data)
    at, ph = segment(out, PT_DYNAMIC)
    entries = dynamic(out)
    if retag:
        for i, (tag, val) in enumerate(entries):
            _DYN.pack_into(out, ph[2] + i * _DYN.size, retag.get(tag, tag), val)
    clean = [e for e in entries if e[0] not in drop and e[0] not in (retag or {})]
    clean += [(DT_NULL, 0)] * (ph[5] // _DYN.size - len(clean))
    out += bytes(-len(out) % 16)
    ph[2] = len(out)                                 # p_offset only; p_vaddr is untouched
    out += b"".join(_DYN.pack(t, v) for t, v in clean)
    set_phdr(out, at, ph)
    strip_sections(out)
    return bytes(out)


_SHDR = struct.Struct("<IIQQQQIIQQ")


def sections(data) -> dict:
    """{name: (file offset of the header, [name, type, flags, addr, offset, size, ...])}."""
    h = header(data)
    rows = [(h["shoff"] + i * _SHDR.size, list(_SHDR.unpack_from(data, h["shoff"] + i * _SHDR.size)))
            for i in range(h["shnum"])]
    names = rows[h["shstrndx"]][1]
    table = bytes(data[names[4]:names[4] + names[5]])
    return {table[r[0]:table.index(b"\0", r[0])].decode(): (at, r) for at, r in rows}


def set_shdr(data: bytearray, at: int, fields: list) -> None:
    _SHDR.pack_into(data, at, *fields)


def file_offset(data, vaddr: int) -> int:
    """Where the bytes the loader maps at ``vaddr`` are in the file."""
    for _at, ph in phdrs(data):
        if ph[0] == PT_LOAD and ph[3] <= vaddr < ph[3] + ph[5]:
            return vaddr - ph[3] + ph[2]
    raise ValueError(f"address {vaddr:#x} is not in the file")
