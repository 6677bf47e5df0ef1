"""Load-time admission check of a ``cpu-c-<arch>`` shared object (docs/security.md).

Before the loader maps an executable's bytes with ``dlopen`` we read its ELF
headers ourselves (struct only, bounds-checked) and refuse anything that would
run code, or open other files, as a side effect of loading:

* the ELF class, byte order and machine must be this host's, type ``ET_DYN``;
* no program interpreter (``PT_INTERP``);
* no constructors or destructors: ``DT_INIT``/``DT_FINI``, ``DT_INIT_ARRAY``,
  ``DT_PREINIT_ARRAY``, ``DT_FINI_ARRAY`` (and no such sections);
* no ``IRELATIVE`` relocation and no defined ``STT_GNU_IFUNC`` symbol (their
  resolvers run during relocation or ``dlsym``);
* ``DT_NEEDED`` only from :data:`ALLOWED_NEEDED`, as bare names; no
  ``DT_RPATH``/``DT_RUNPATH``, audit or filter entries.

The dynamic loader reads program headers and the dynamic table, not section
headers, so those are what is checked; section names are checked too when a
section table is present.  The check reads a few hundred bytes plus the
relocation and symbol tables (tens of microseconds for our kernels).
"""
from __future__ import annotations

import platform
import struct
import sys

#: Libraries an executable may name in ``DT_NEEDED``: the C runtime, its maths
#: libraries and the dynamic loader itself (``__tls_get_addr`` of thread-local
#: scratch), resolved by the system's loader from its trusted paths.
ALLOWED_NEEDED = frozenset({"libc.so.6", "libm.so.6", "libmvec.so.1", "libgcc_s.so.1",
                            "ld-linux-x86-64.so.2", "ld-linux-aarch64.so.1", "ld-linux.so.2",
                            "ld-linux-armhf.so.3", "ld-linux-riscv64-lp64d.so.1"})

_MACHINES = {"x86_64": 62, "amd64": 62, "aarch64": 183, "arm64": 183, "i386": 3, "i686": 3,
             "ppc64le": 21, "ppc64": 21, "s390x": 22, "riscv64": 243, "armv7l": 40}
#: e_machine -> architecture name (in errors).
_ARCH_OF = {62: "x86_64", 183: "aarch64", 3: "i386", 21: "ppc64", 22: "s390x", 243: "riscv64",
            40: "arm (armv7l)"}
#: 32-bit and big-endian architectures (the rest are 64-bit little-endian).
_ELF32 = frozenset({"i386", "i686", "armv7l"})
_BIG_ENDIAN = frozenset({"ppc64", "s390x"})
#: R_<arch>_IRELATIVE per e_machine.
_IRELATIVE = {62: 37, 183: 1032, 3: 42, 21: 248, 22: 61, 243: 58, 40: 160}

PT_LOAD, PT_DYNAMIC, PT_INTERP = 1, 2, 3
DT_NEEDED, DT_HASH, DT_STRTAB, DT_SYMTAB, DT_RELA, DT_RELASZ = 1, 4, 5, 6, 7, 8
DT_STRSZ, DT_SYMENT, DT_REL, DT_RELSZ, DT_JMPREL, DT_PLTRELSZ, DT_PLTREL = 10, 11, 17, 18, 23, 2, 20
DT_GNU_HASH = 0x6FFFFEF5
_FORBIDDEN_TAGS = {
    12: "a DT_INIT constructor", 13: "a DT_FINI destructor",
    25: "a DT_INIT_ARRAY of constructors", 26: "a DT_FINI_ARRAY of destructors",
    32: "a DT_PREINIT_ARRAY of constructors", 15: "a DT_RPATH library search path",
    29: "a DT_RUNPATH library search path", 0x6FFFFEFC: "a DT_AUDIT library",
    0x6FFFFEFB: "a DT_DEPAUDIT library", 0x7FFFFFFD: "a DT_AUXILIARY filter library",
    0x7FFFFFFF: "a DT_FILTER library",
}
_FORBIDDEN_SECTIONS = (b".init_array", b".preinit_array", b".fini_array", b".ctors",
                       b".dtors", b".init", b".fini")
STT_GNU_IFUNC = 10
_MAX_TABLE = 1 << 24          # entries: more than any object we build by far


class ElfRejected(Exception):
    """The object fails the admission check; ``str`` is the reason."""


class ElfMachineMismatch(ElfRejected):
    """The object is code for another architecture: ``arch`` names the
    object's (e.g. "aarch64"), ``expected`` the one that was wanted."""

    def __init__(self, message: str, arch: str, expected: str):
        super().__init__(message)
        self.arch, self.expected = arch, expected


def host_identity(arch: str | None = None) -> tuple:
    """(ELF class 1|2, data encoding 1 little|2 big, e_machine or None) of this
    process, or of architecture ``arch`` (a platform.machine() name)."""
    if arch is None:
        cls = 2 if struct.calcsize("P") == 8 else 1
        data = 1 if sys.byteorder == "little" else 2
        return cls, data, _MACHINES.get(platform.machine().lower())
    arch = arch.lower()
    return (1 if arch in _ELF32 else 2, 2 if arch in _BIG_ENDIAN else 1, _MACHINES.get(arch))


def _arch_name(machine: int) -> str:
    return _ARCH_OF.get(machine, f"unknown architecture, e_machine {machine}")


class _Reader:
    """Bounds-checked fixed-layout reads from the object's bytes."""

    def __init__(self, buf, cls, data):
        self.buf, self.n = buf, len(buf)
        e = "<" if data == 1 else ">"
        w = "Q" if cls == 2 else "I"
        sw = "q" if cls == 2 else "i"
        self.ehdr = struct.Struct(e + "HHI" + w * 3 + "IHHHHHH")
        self.phdr = struct.Struct(e + ("IIQQQQQQ" if cls == 2 else "IIIIIIII"))
        self.shdr = struct.Struct(e + ("IIQQQQIIQQ" if cls == 2 else "IIIIIIIIII"))
        self.dyn = struct.Struct(e + sw + w)
        self.rela = struct.Struct(e + w + w + sw)
        self.rel = struct.Struct(e + w + w)
        self.sym = struct.Struct(e + ("IBBHQQ" if cls == 2 else "IIIBBH"))
        self.u32 = struct.Struct(e + "I")
        self.cls = cls

    def at(self, st: struct.Struct, off: int, what: str):
        if off < 0 or off + st.size > self.n:
            raise ElfRejected(f"truncated ELF object: {what} at offset {off} lies outside "
                              f"its {self.n} bytes")
        return st.unpack_from(self.buf, off)

    def table(self, st: struct.Struct, off: int, count: int, what: str):
        if count < 0 or count > _MAX_TABLE or off < 0 or off + count * st.size > self.n:
            raise ElfRejected(f"malformed ELF object: {what} ({count} entries at offset {off}) "
                              f"lies outside its {self.n} bytes")
        return st.iter_unpack(self.buf[off:off + count * st.size]) if count else ()


def check(data, arch: str | None = None) -> None:
    """Raise :class:`ElfRejected` unless ``data`` passes the admission check
    for this host, or for architecture ``arch`` (checking a cross-compiled
    object before it ships); :class:`ElfMachineMismatch` for another
    architecture's code."""
    buf = memoryview(data).cast("B")
    if len(buf) < 16 or bytes(buf[:4]) != b"\x7fELF":
        raise ElfRejected("not an ELF object (bad magic)")
    want_cls, want_data, want_machine = host_identity(arch)
    where = f"the {arch} target" if arch else f"this host ({platform.machine()})"
    cls, enc = buf[4], buf[5]
    if len(buf) >= 20 and enc in (1, 2) and want_machine is not None:
        machine = int.from_bytes(bytes(buf[18:20]), "little" if enc == 1 else "big")
        if machine != want_machine:
            raise ElfMachineMismatch(
                f"it is code for {_arch_name(machine)} (ELF machine {machine}), not for "
                f"{where}, machine {want_machine} ({_arch_name(want_machine)})",
                _arch_name(machine), _arch_name(want_machine))
    if cls != want_cls:
        raise ElfRejected(f"ELF class {cls} ({'64' if cls == 2 else '32'}-bit) does not match "
                          f"{where}, which is {'64' if want_cls == 2 else '32'}-bit")
    if enc != want_data:
        raise ElfRejected(f"ELF byte order {enc} does not match {where}'s ({want_data})")
    r = _Reader(buf, cls, enc)
    (e_type, e_machine, _v, _entry, e_phoff, e_shoff, _flags, _ehsize, e_phentsize, e_phnum,
     e_shentsize, e_shnum, e_shstrndx) = r.at(r.ehdr, 16, "ELF header")
    if e_type != 3:
        raise ElfRejected(f"ELF type {e_type} is not a shared object (ET_DYN)")
    if e_phnum and e_phentsize != r.phdr.size:
        raise ElfRejected(f"program header entry size {e_phentsize} != {r.phdr.size}")
    loads, dynamic = [], None
    for ph in r.table(r.phdr, e_phoff, e_phnum, "program header table"):
        if cls == 2:
            p_type, _f, p_offset, p_vaddr, _pa, p_filesz, _m, _al = ph
        else:
            p_type, p_offset, p_vaddr, _pa, p_filesz, _m, _f, _al = ph
        if p_type == PT_INTERP:
            raise ElfRejected("it names a program interpreter (PT_INTERP)")
        if p_type == PT_LOAD:
            loads.append((p_vaddr, p_filesz, p_offset))
        elif p_type == PT_DYNAMIC:
            dynamic = (p_offset, p_filesz)
    if dynamic is None:
        raise ElfRejected("no dynamic section (PT_DYNAMIC)")
    _check_sections(r, e_shoff, e_shnum, e_shentsize, e_shstrndx)

    def offset(vaddr: int, what: str) -> int:
        for base, size, off in loads:
            if base <= vaddr < base + size:
                return vaddr - base + off
        raise ElfRejected(f"malformed ELF object: {what} address {vaddr:#x} is in no loaded segment")

    tags: dict = {}
    needed = []
    for tag, val in r.table(r.dyn, dynamic[0], dynamic[1] // r.dyn.size, "dynamic section"):
        if tag == 0:
            break
        if tag in _FORBIDDEN_TAGS:
            raise ElfRejected(f"it has {_FORBIDDEN_TAGS[tag]} (loading it would run code or "
                              f"open files beyond its entry points)")
        if tag == DT_NEEDED:
            needed.append(val)
        else:
            tags[tag] = val
    if needed:
        if DT_STRTAB not in tags or DT_STRSZ not in tags:
            raise ElfRejected("DT_NEEDED entries without a string table")
        strtab, strsz = offset(tags[DT_STRTAB], "DT_STRTAB"), tags[DT_STRSZ]
        for off in needed:
            name = _string(r, strtab, strsz, off)
            if name not in ALLOWED_NEEDED:
                raise ElfRejected(f"it needs library {name!r}, which is not in the allowed set "
                                  f"{sorted(ALLOWED_NEEDED)}")
    _check_relocations(r, e_machine, tags, offset)


def _string(r: _Reader, strtab: int, strsz: int, off: int) -> str:
    if off >= strsz or strtab + strsz > r.n:
        raise ElfRejected(f"malformed ELF object: string offset {off} outside the string table")
    raw = bytes(r.buf[strtab + off:strtab + strsz])
    end = raw.find(b"\0")
    if end < 0:
        raise ElfRejected("malformed ELF object: unterminated string")
    return raw[:end].decode("latin-1")


def _check_sections(r: _Reader, shoff, shnum, shentsize, shstrndx) -> None:
    if not shnum or not shoff:
        return
    if shentsize != r.shdr.size:
        raise ElfRejected(f"section header entry size {shentsize} != {r.shdr.size}")
    sections = list(r.table(r.shdr, shoff, shnum, "section header table"))
    if shstrndx >= len(sections):
        raise ElfRejected(f"section name table index {shstrndx} out of range")
    names = sections[shstrndx]
    base, size = (names[4], names[5]) if r.cls == 2 else (names[4], names[5])
    if base + size > r.n:
        raise ElfRejected("malformed ELF object: section name table outside the object")
    table = bytes(r.buf[base:base + size])
    for s in sections:
        name_off, sh_size = s[0], s[5]
        end = table.find(b"\0", name_off)
        name = table[name_off:end] if name_off < len(table) and end >= 0 else b""
        if name in _FORBIDDEN_SECTIONS and sh_size:
            raise ElfRejected(f"it has a {name.decode()} section (constructors or destructors)")


def _check_relocations(r: _Reader, machine, tags, offset) -> None:
    irelative = _IRELATIVE.get(machine)
    symtab = offset(tags[DT_SYMTAB], "DT_SYMTAB") if DT_SYMTAB in tags else None
    shift, mask = (32, 0xFFFFFFFF) if r.cls == 2 else (8, 0xFF)
    tables = [(DT_RELA, DT_RELASZ, r.rela), (DT_REL, DT_RELSZ, r.rel)]
    if DT_JMPREL in tags:
        tables.append((DT_JMPREL, DT_PLTRELSZ, r.rela if tags.get(DT_PLTREL, 7) == 7 else r.rel))
    symbols = set()
    for addr_tag, size_tag, st in tables:
        if addr_tag not in tags:
            continue
        off = offset(tags[addr_tag], "relocation table")
        for ent in r.table(st, off, tags.get(size_tag, 0) // st.size, "relocation table"):
            info = ent[1]
            if (info & mask) == irelative:
                raise ElfRejected("it has an IRELATIVE relocation (an ifunc resolver would run "
                                  "at load)")
            if info >> shift:
                symbols.add(info >> shift)
    if symtab is None:
        return
    count = _symbol_count(r, tags, offset)
    if count is None:       # no hash table: only relocation-referenced symbols are known
        count = max(symbols, default=-1) + 1
    for sym in r.table(r.sym, symtab, count, "dynamic symbol table"):
        info, shndx = (sym[1], sym[3]) if r.cls == 2 else (sym[3], sym[5])
        if (info & 0xF) == STT_GNU_IFUNC and shndx != 0:
            raise ElfRejected("it defines an STT_GNU_IFUNC symbol (its resolver would run at "
                              "load)")


def _symbol_count(r: _Reader, tags, offset):
    """Number of dynamic symbols, from DT_HASH's nchain or by walking DT_GNU_HASH."""
    if DT_HASH in tags:
        return r.at(r.u32, offset(tags[DT_HASH], "DT_HASH") + 4, "DT_HASH")[0]
    if DT_GNU_HASH not in tags:
        return None
    base = offset(tags[DT_GNU_HASH], "DT_GNU_HASH")
    nbuckets, symoffset, bloom_size, _ = (r.at(r.u32, base + 4 * i, "DT_GNU_HASH")[0]
                                          for i in range(4))
    buckets_at = base + 16 + bloom_size * (8 if r.cls == 2 else 4)
    buckets = [b[0] for b in r.table(r.u32, buckets_at, nbuckets, "DT_GNU_HASH buckets")]
    last = max(buckets, default=0)
    if last < symoffset:
        return symoffset
    chains_at = buckets_at + 4 * nbuckets
    for _ in range(_MAX_TABLE):
        if r.at(r.u32, chains_at + 4 * (last - symoffset), "DT_GNU_HASH chain")[0] & 1:
            return last + 1
        last += 1
    raise ElfRejected("malformed ELF object: unterminated DT_GNU_HASH chain")
