"""Load-time admission check of a ``cpu-c-<arch>`` shared object (docs/security.md).

Before the loader maps an executable's bytes with ``dlopen`` we read its ELF
headers ourselves (struct only, bounds-checked) and refuse anything that would
run code, or open other files, as a side effect of loading.

The check reads the object the way the system's dynamic loader does, not the
way ``readelf`` does: glibc maps the ``PT_LOAD`` segments and then reads the
dynamic table at ``PT_DYNAMIC``'s *virtual address* until ``DT_NULL``, and every
table the dynamic table points at (strings, symbols, hashes, relocations) by
virtual address too.  It never looks at section headers nor at ``PT_DYNAMIC``'s
file offset.  So everything below is read through the ``PT_LOAD`` mappings,
from the bytes that will be at that address once mapped; a file whose other
views (``PT_DYNAMIC``'s file offset, the section headers) say something else
is refused rather than believed (issue 37: a clean copy of the dynamic table
at ``PT_DYNAMIC``'s file offset hid a constructor from a check that read it
there).  Refused:

* another ELF class, byte order or machine than the host's (or the
  ``arch`` asked for), a type other than ``ET_DYN``;
* a program header table that is truncated or has the wrong entry size; a
  ``PT_INTERP``; no or several ``PT_DYNAMIC``; an executable stack
  (``PT_GNU_STACK`` with ``PF_X``); ``PT_LOAD`` segments out of the file, out of
  address order, overlapping (page-wise) or with address and offset not
  congruent modulo their alignment; a ``PT_DYNAMIC``, ``PT_TLS`` or
  ``PT_GNU_RELRO`` outside the loaded image;
* constructors or destructors: ``DT_INIT``/``DT_FINI``, ``DT_INIT_ARRAY``,
  ``DT_PREINIT_ARRAY``, ``DT_FINI_ARRAY`` (and their sizes);
* ``DT_NEEDED`` outside :data:`ALLOWED_NEEDED`; ``DT_RPATH``/``DT_RUNPATH``,
  audit or filter entries;
* ``IRELATIVE`` and ``COPY`` relocations, a defined ``STT_GNU_IFUNC`` symbol
  (its resolver runs during relocation or ``dlsym``); a relocation that writes
  outside the object's writable segments or into its dynamic table; tables the
  loader reads (symbols, strings, hashes, relocations) in writable memory,
  where an earlier relocation could change them after this check;
* no section headers, or section headers that disagree with the program view:
  a ``.dynamic`` section elsewhere than ``PT_DYNAMIC``, an allocated section
  whose address and file offset are not what the segments map, a
  ``.init_array``/``.preinit_array``/``.fini_array``/``.ctors``/``.dtors``/
  ``.init``/``.fini`` section (by name or by type).

The check reads a few hundred bytes plus the relocation, symbol and section
tables (~0.2 ms for our kernels, once per executable at its first load).
"""
from __future__ import annotations

import mmap
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
#: R_<arch>_IRELATIVE and R_<arch>_COPY per e_machine.
_IRELATIVE = {62: 37, 183: 1032, 3: 42, 21: 248, 22: 61, 243: 58, 40: 160}
_COPY = {62: 5, 183: 1024, 3: 5, 21: 19, 22: 9, 243: 4, 40: 20}

PT_LOAD, PT_DYNAMIC, PT_INTERP, PT_TLS = 1, 2, 3, 7
PT_GNU_STACK, PT_GNU_RELRO = 0x6474E551, 0x6474E552
PF_X, PF_W = 1, 2
PN_XNUM = 0xFFFF
DT_NEEDED, DT_PLTRELSZ, DT_HASH, DT_STRTAB, DT_SYMTAB, DT_RELA, DT_RELASZ = 1, 2, 4, 5, 6, 7, 8
DT_RELAENT, DT_STRSZ, DT_SYMENT, DT_REL, DT_RELSZ, DT_RELENT = 9, 10, 11, 17, 18, 19
DT_PLTREL, DT_JMPREL, DT_RELRSZ, DT_RELR, DT_RELRENT = 20, 23, 35, 36, 37
DT_GNU_HASH, DT_VERSYM, DT_VERDEF, DT_VERNEED = 0x6FFFFEF5, 0x6FFFFFF0, 0x6FFFFFFC, 0x6FFFFFFE
_FORBIDDEN_TAGS = {
    12: "a DT_INIT constructor", 13: "a DT_FINI destructor",
    25: "a DT_INIT_ARRAY of constructors", 26: "a DT_FINI_ARRAY of destructors",
    27: "a DT_INIT_ARRAYSZ (constructors)", 28: "a DT_FINI_ARRAYSZ (destructors)",
    32: "a DT_PREINIT_ARRAY of constructors", 33: "a DT_PREINIT_ARRAYSZ (constructors)",
    15: "a DT_RPATH library search path", 29: "a DT_RUNPATH library search path",
    0x6FFFFEFC: "a DT_AUDIT library", 0x6FFFFEFB: "a DT_DEPAUDIT library",
    0x7FFFFFFD: "a DT_AUXILIARY filter library", 0x7FFFFFFF: "a DT_FILTER library",
}
#: Tags the loader keeps one of (it would use the last): a second one is refused.
_SINGLE_TAGS = frozenset({DT_PLTRELSZ, DT_HASH, DT_STRTAB, DT_SYMTAB, DT_RELA, DT_RELASZ,
                          DT_RELAENT, DT_STRSZ, DT_SYMENT, DT_REL, DT_RELSZ, DT_RELENT,
                          DT_PLTREL, DT_JMPREL, DT_RELRSZ, DT_RELR, DT_RELRENT, DT_GNU_HASH,
                          DT_VERSYM, DT_VERDEF, DT_VERNEED})
_FORBIDDEN_SECTIONS = (b".init_array", b".preinit_array", b".fini_array", b".ctors",
                       b".dtors", b".init", b".fini")
SHT_DYNAMIC, SHT_NOBITS = 6, 8
_FORBIDDEN_SECTION_TYPES = {14: "SHT_INIT_ARRAY", 15: "SHT_FINI_ARRAY", 16: "SHT_PREINIT_ARRAY"}
SHF_ALLOC = 2
STT_GNU_IFUNC = 10
_MAX_TABLE = 1 << 24          # entries: more than any object we build by far
_MIN_PAGE = 4096


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
        self.word = struct.Struct(e + w)
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


class _Segment:
    __slots__ = ("vaddr", "offset", "filesz", "memsz", "flags", "align")

    def __init__(self, vaddr, offset, filesz, memsz, flags, align):
        self.vaddr, self.offset, self.filesz = vaddr, offset, filesz
        self.memsz, self.flags, self.align = memsz, flags, align


class _Image:
    """The object as the dynamic loader maps it: virtual address ranges of the
    ``PT_LOAD`` segments and the file bytes each one shows."""

    def __init__(self, loads: list):
        self.loads = loads

    def segment(self, vaddr: int, size: int, what: str) -> _Segment:
        """The one segment whose file bytes hold ``[vaddr, vaddr + size)``."""
        for s in self.loads:
            if s.vaddr <= vaddr and vaddr + size <= s.vaddr + s.filesz:
                return s
        raise ElfRejected(f"malformed ELF object: {what} ({size} bytes at address {vaddr:#x}) "
                          f"is not inside one loaded segment's file bytes")

    def offset(self, vaddr: int, size: int, what: str, read_only: bool = False) -> int:
        """The file offset whose bytes the loader will see at ``vaddr``."""
        s = self.segment(vaddr, size, what)
        if read_only and s.flags & PF_W:
            raise ElfRejected(f"{what} at address {vaddr:#x} is in a writable segment, where a "
                              f"relocation could change it after this check")
        return vaddr - s.vaddr + s.offset


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
    (e_type, e_machine, _version, _entry, e_phoff, e_shoff, _flags, _ehsize, e_phentsize,
     e_phnum, e_shentsize, e_shnum, e_shstrndx) = r.at(r.ehdr, 16, "ELF header")
    if e_type != 3:
        raise ElfRejected(f"ELF type {e_type} is not a shared object (ET_DYN)")
    page = max(_MIN_PAGE, mmap.PAGESIZE) if arch is None else _MIN_PAGE
    image, dynamic = _program_view(r, e_phoff, e_phentsize, e_phnum, page)
    # What the loader reads first (so a reason names what a disguise hid), then the disguise.
    tags, needed = _dynamic_entries(r, image, dynamic)
    _check_needed(r, image, tags, needed)
    mapped = image.offset(dynamic.vaddr, dynamic.filesz, "the dynamic table (PT_DYNAMIC)")
    if mapped != dynamic.offset:
        raise ElfRejected(f"PT_DYNAMIC's file offset {dynamic.offset:#x} is not where its address "
                          f"{dynamic.vaddr:#x} is mapped from ({mapped:#x}): the file shows "
                          f"another dynamic table than the one the loader reads")
    _check_sections(r, image, dynamic, tags, e_shoff, e_shnum, e_shentsize, e_shstrndx)
    for tag in (DT_VERSYM, DT_VERDEF, DT_VERNEED):
        if tag in tags:
            image.offset(tags[tag], 2, f"symbol version table {tag:#x}", read_only=True)
    _check_relocations(r, e_machine, tags, image, dynamic)


def _check_needed(r: _Reader, image: _Image, tags: dict, needed: list) -> None:
    if needed and (DT_STRTAB not in tags or DT_STRSZ not in tags):
        raise ElfRejected("DT_NEEDED entries without a string table")
    if DT_STRTAB in tags:
        strsz = tags.get(DT_STRSZ, 0)
        strtab = image.offset(tags[DT_STRTAB], strsz, "DT_STRTAB string table", read_only=True)
        for off in needed:
            name = _string(r, strtab, strsz, off)
            if name not in ALLOWED_NEEDED:
                raise ElfRejected(f"it needs library {name!r}, which is not in the allowed set "
                                  f"{sorted(ALLOWED_NEEDED)}")


def _program_view(r: _Reader, phoff, phentsize, phnum, page) -> tuple:
    """The loaded image and PT_DYNAMIC's segment, checked as the loader maps them."""
    if phnum == 0 or phnum == PN_XNUM:
        raise ElfRejected(f"program header count {phnum} (none, or extended numbering)")
    if phentsize != r.phdr.size:
        raise ElfRejected(f"program header entry size {phentsize} != {r.phdr.size}")
    if phoff + phnum * phentsize > r.n:
        raise ElfRejected(f"truncated ELF object: the program header table ({phnum} entries at "
                          f"offset {phoff}) runs past its {r.n} bytes")
    loads, dynamics, others = [], [], []
    for ph in r.table(r.phdr, phoff, phnum, "program header table"):
        if r.cls == 2:
            p_type, p_flags, p_offset, p_vaddr, _pa, p_filesz, p_memsz, p_align = ph
        else:
            p_type, p_offset, p_vaddr, _pa, p_filesz, p_memsz, p_flags, p_align = ph
        seg = _Segment(p_vaddr, p_offset, p_filesz, p_memsz, p_flags, p_align)
        if p_type == PT_INTERP:
            raise ElfRejected("it names a program interpreter (PT_INTERP)")
        if p_type == PT_GNU_STACK and p_flags & PF_X:
            raise ElfRejected("it asks for an executable stack (PT_GNU_STACK with PF_X)")
        if p_type == PT_LOAD:
            loads.append(seg)
        elif p_type == PT_DYNAMIC:
            dynamics.append(seg)
        elif p_type in (PT_TLS, PT_GNU_RELRO):
            others.append((p_type, seg))
    if not loads:
        raise ElfRejected("no loadable segment (PT_LOAD)")
    if len(dynamics) != 1:
        raise ElfRejected(f"{len(dynamics)} dynamic segments (PT_DYNAMIC); a shared object has "
                          f"exactly one" if dynamics else "no dynamic section (PT_DYNAMIC)")
    prev_end = None
    for i, s in enumerate(loads):
        what = f"loadable segment {i} (PT_LOAD at {s.vaddr:#x})"
        if s.offset + s.filesz > r.n:
            raise ElfRejected(f"truncated ELF object: {what} maps file bytes "
                              f"{s.offset}..{s.offset + s.filesz}, past its {r.n} bytes")
        if s.filesz > s.memsz:
            raise ElfRejected(f"malformed ELF object: {what} has more file bytes than memory")
        if s.align < page or s.align & (s.align - 1) or (s.vaddr - s.offset) % s.align:
            raise ElfRejected(f"malformed ELF object: {what} has alignment {s.align:#x} and "
                              f"address/offset not congruent modulo a {page}-byte page")
        start, end = s.vaddr // page * page, -(-(s.vaddr + s.memsz) // page) * page
        if prev_end is not None and start < prev_end:
            raise ElfRejected(f"malformed ELF object: {what} overlaps the previous segment's "
                              f"pages or is out of address order")
        prev_end = end
    image = _Image(loads)
    for p_type, s in others:
        if p_type == PT_TLS:            # its initial image is read from the loaded bytes
            if s.filesz:
                image.segment(s.vaddr, s.filesz, "the thread-local image (PT_TLS)")
        elif not any(t.vaddr <= s.vaddr and s.vaddr + s.memsz <= -(-(t.vaddr + t.memsz) // page)
                     * page for t in loads):    # (made read-only page-wise after relocation)
            raise ElfRejected(f"malformed ELF object: PT_GNU_RELRO at {s.vaddr:#x} is not "
                              f"inside one loaded segment")
    return image, dynamics[0]


def _dynamic_entries(r: _Reader, image: _Image, dyn: _Segment) -> tuple:
    """The dynamic table as the loader reads it: from PT_DYNAMIC's address to
    the first DT_NULL (which must lie inside PT_DYNAMIC)."""
    start = image.offset(dyn.vaddr, dyn.filesz, "the dynamic table (PT_DYNAMIC)")
    tags: dict = {}
    needed = []
    for tag, val in r.table(r.dyn, start, dyn.filesz // r.dyn.size, "dynamic section"):
        if tag == 0:
            return tags, needed
        if tag in _FORBIDDEN_TAGS:
            raise ElfRejected(f"it has {_FORBIDDEN_TAGS[tag]} (loading it would run code or "
                              f"open files beyond its entry points)")
        if tag == DT_NEEDED:
            needed.append(val)
        elif tag in tags and tag in _SINGLE_TAGS:
            raise ElfRejected(f"malformed ELF object: dynamic tag {tag:#x} appears twice")
        else:
            tags[tag] = val
    raise ElfRejected("malformed ELF object: the dynamic table has no DT_NULL inside PT_DYNAMIC "
                      "(the loader would read past it)")


def _string(r: _Reader, strtab: int, strsz: int, off: int) -> str:
    if off >= strsz or strtab + strsz > r.n:
        raise ElfRejected(f"malformed ELF object: string offset {off} outside the string table")
    raw = bytes(r.buf[strtab + off:strtab + strsz])
    end = raw.find(b"\0")
    if end < 0:
        raise ElfRejected("malformed ELF object: unterminated string")
    return raw[:end].decode("latin-1")


def _check_sections(r: _Reader, image: _Image, dyn: _Segment, tags: dict, shoff, shnum,
                    shentsize, shstrndx) -> None:
    """Section headers must be present and agree with the program view."""
    if not shnum or not shoff:
        raise ElfRejected("it has no section headers, so its section and program views cannot "
                          "be compared (objects the compiler builds always have them)")
    if shentsize != r.shdr.size:
        raise ElfRejected(f"section header entry size {shentsize} != {r.shdr.size}")
    sections = list(r.table(r.shdr, shoff, shnum, "section header table"))
    if not 0 < shstrndx < len(sections):
        raise ElfRejected(f"section name table index {shstrndx} out of range")
    _n, _t, _f, _a, base, size = sections[shstrndx][:6]
    if base + size > r.n:
        raise ElfRejected("malformed ELF object: section name table outside the object")
    table = bytes(r.buf[base:base + size])
    dynamic_sections = []
    for index, s in enumerate(sections[1:], 1):
        name_off, sh_type, sh_flags, sh_addr, sh_offset, sh_size, sh_link = s[:7]
        end = table.find(b"\0", name_off)
        name = table[name_off:end] if name_off < len(table) and end >= 0 else b""
        if sh_size and (name in _FORBIDDEN_SECTIONS or sh_type in _FORBIDDEN_SECTION_TYPES):
            kind = name.decode("latin-1") or _FORBIDDEN_SECTION_TYPES[sh_type]
            raise ElfRejected(f"it has a {kind} section (constructors or destructors)")
        if sh_type == SHT_DYNAMIC:
            dynamic_sections.append((sh_addr, sh_offset, sh_link))
        if sh_flags & SHF_ALLOC and sh_type != SHT_NOBITS and sh_size:
            label = name.decode("latin-1") or f"#{index}"
            if image.offset(sh_addr, sh_size, f"section {label}") != sh_offset:
                raise ElfRejected(f"section {label}'s file offset {sh_offset:#x} is not where "
                                  f"its address {sh_addr:#x} is mapped from: section and "
                                  f"program headers disagree")
    if len(dynamic_sections) != 1 or dynamic_sections[0][:2] != (dyn.vaddr, dyn.offset):
        raise ElfRejected("section and program headers disagree: the .dynamic section is not "
                          "exactly PT_DYNAMIC's table")
    link = dynamic_sections[0][2]
    if DT_STRTAB in tags and (link >= len(sections) or sections[link][3] != tags[DT_STRTAB]):
        raise ElfRejected("section and program headers disagree: .dynamic's string table is "
                          "not DT_STRTAB's")


def _check_relocations(r: _Reader, machine, tags, image: _Image, dyn: _Segment) -> None:
    """No relocation runs a resolver, copies, or writes anywhere but the
    object's writable data (never the dynamic table the loader keeps using)."""
    irelative, copy = _IRELATIVE.get(machine), _COPY.get(machine)
    shift, mask = (32, 0xFFFFFFFF) if r.cls == 2 else (8, 0xFF)
    word = r.word.size
    for tag, st in ((DT_SYMENT, r.sym), (DT_RELAENT, r.rela), (DT_RELENT, r.rel),
                    (DT_RELRENT, r.word)):
        if tag in tags and tags[tag] != st.size:
            raise ElfRejected(f"malformed ELF object: dynamic tag {tag} says entries of "
                              f"{tags[tag]} bytes, not {st.size}")

    def target(vaddr: int) -> None:
        s = next((s for s in image.loads
                  if s.vaddr <= vaddr and vaddr + word <= s.vaddr + s.memsz), None)
        if (s is None or not s.flags & PF_W
                or dyn.vaddr < vaddr + word and vaddr < dyn.vaddr + dyn.memsz):
            raise ElfRejected(f"a relocation writes at address {vaddr:#x}, outside the object's "
                              f"writable data or into its dynamic table")

    tables = [(DT_RELA, DT_RELASZ, r.rela), (DT_REL, DT_RELSZ, r.rel)]
    if DT_JMPREL in tags:
        pltrel = tags.get(DT_PLTREL, DT_RELA)
        if pltrel not in (DT_RELA, DT_REL):
            raise ElfRejected(f"malformed ELF object: DT_PLTREL {pltrel} is neither RELA nor REL")
        tables.append((DT_JMPREL, DT_PLTRELSZ, r.rela if pltrel == DT_RELA else r.rel))
    symbols = set()
    for addr_tag, size_tag, st in tables:
        if addr_tag not in tags:
            continue
        size = tags.get(size_tag, 0)
        off = image.offset(tags[addr_tag], size, "relocation table", read_only=True)
        for ent in r.table(st, off, size // st.size, "relocation table"):
            info = ent[1]
            if (info & mask) == irelative:
                raise ElfRejected("it has an IRELATIVE relocation (an ifunc resolver would run "
                                  "at load)")
            if (info & mask) == copy:
                raise ElfRejected("it has a COPY relocation (a shared object never needs one)")
            if info & mask:
                target(ent[0])
            if info >> shift:
                symbols.add(info >> shift)
    if DT_RELR in tags:
        _relr_targets(r, tags, image, target)
    _check_symbols(r, tags, image, symbols)


def _relr_targets(r: _Reader, tags, image: _Image, target) -> None:
    """Walk DT_RELR's packed relative relocations, checking each address."""
    size, word = tags.get(DT_RELRSZ, 0), r.word.size
    off = image.offset(tags[DT_RELR], size, "DT_RELR table", read_only=True)
    where, bits = 0, word * 8 - 1
    for (entry,) in r.table(r.word, off, size // word, "DT_RELR table"):
        if entry & 1 == 0:
            target(entry)
            where = entry + word
            continue
        for i in range(bits):
            if (entry >> (i + 1)) & 1:
                target(where + i * word)
        where += bits * word


def _check_symbols(r: _Reader, tags, image: _Image, symbols: set) -> None:
    if DT_SYMTAB not in tags:
        return
    # Symbols that lookups can find (either hash table: glibc uses DT_GNU_HASH when
    # both are there) or that relocations name.
    count = max(_hash_count(r, tags, image), _gnu_hash_count(r, tags, image),
                max(symbols, default=-1) + 1)
    symtab = image.offset(tags[DT_SYMTAB], count * r.sym.size, "dynamic symbol table",
                          read_only=True)
    for sym in r.table(r.sym, symtab, count, "dynamic symbol table"):
        info, shndx = (sym[1], sym[3]) if r.cls == 2 else (sym[3], sym[5])
        if (info & 0xF) == STT_GNU_IFUNC and shndx != 0:
            raise ElfRejected("it defines an STT_GNU_IFUNC symbol (its resolver would run at "
                              "load)")


def _hash_count(r: _Reader, tags, image: _Image) -> int:
    """Number of dynamic symbols DT_HASH covers (its nchain), 0 without one."""
    if DT_HASH not in tags:
        return 0
    base = image.offset(tags[DT_HASH], 8, "DT_HASH", read_only=True)
    nbucket, nchain = r.at(r.u32, base, "DT_HASH")[0], r.at(r.u32, base + 4, "DT_HASH")[0]
    image.offset(tags[DT_HASH], 8 + 4 * (nbucket + nchain), "DT_HASH", read_only=True)
    return nchain


def _gnu_hash_count(r: _Reader, tags, image: _Image) -> int:
    """Number of dynamic symbols DT_GNU_HASH covers (walking its last chain)."""
    if DT_GNU_HASH not in tags:
        return 0
    base = image.offset(tags[DT_GNU_HASH], 16, "DT_GNU_HASH", read_only=True)
    nbuckets, symoffset, bloom_size, _ = (r.at(r.u32, base + 4 * i, "DT_GNU_HASH")[0]
                                          for i in range(4))
    buckets_at = base + 16 + bloom_size * r.word.size
    image.offset(tags[DT_GNU_HASH], buckets_at - base + 4 * nbuckets, "DT_GNU_HASH",
                 read_only=True)
    buckets = [b[0] for b in r.table(r.u32, buckets_at, nbuckets, "DT_GNU_HASH buckets")]
    last = max(buckets, default=0)
    if last < symoffset:
        return symoffset
    chains_at = buckets_at + 4 * nbuckets
    for _ in range(_MAX_TABLE):
        at = chains_at + 4 * (last - symoffset)
        image.offset(tags[DT_GNU_HASH] + at - base, 4, "DT_GNU_HASH chain", read_only=True)
        if r.at(r.u32, at, "DT_GNU_HASH chain")[0] & 1:
            return last + 1
        last += 1
    raise ElfRejected("malformed ELF object: unterminated DT_GNU_HASH chain")
